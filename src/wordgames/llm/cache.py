"""The response cache: every answer a model gave, content-addressed, in one SQLite file.

The key of a response is the sha256 of the model the server reports, the full request (every
message and decoding parameter) and the prompt version. Each response is written (and
committed) as soon as it arrives, so a run killed with ``kill -9`` re-sends no request that had
been answered; the file lives under the cache folder (``$WORDGAMES_CACHE/llm/responses.sqlite``),
shared by every run and output folder, so a second run of the same questions makes no request.
SQLite's write-ahead log lets several processes read and write it at once.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    request TEXT NOT NULL,
    response TEXT NOT NULL,
    tokens_in INTEGER NOT NULL,
    tokens_out INTEGER NOT NULL,
    created REAL NOT NULL
)
"""


def request_key(model: str, request: dict, prompt_version: str) -> str:
    """The cache key of a request: sha256 of the reported model, the request and the prompts.

    >>> a = request_key("m", {"messages": [{"role": "user", "content": "hi"}]}, "p1")
    >>> a == request_key("m", {"messages": [{"role": "user", "content": "hi"}]}, "p1"), len(a)
    (True, 64)
    >>> a == request_key("m", {"messages": [{"role": "user", "content": "hi"}]}, "p2")
    False
    """
    text = json.dumps(
        {"model": model, "request": request, "prompt_version": prompt_version},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_path() -> Path:
    """``$WORDGAMES_CACHE/llm/responses.sqlite``."""
    from wordgames.embeddings.cache import cache_dir

    return cache_dir() / "llm" / "responses.sqlite"


class ResponseCache:
    """A SQLite table of responses by :func:`request_key` (thread-safe; one connection each).

    Examples
    --------
    >>> import tempfile, os
    >>> cache = ResponseCache(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
    >>> cache.get("k") is None
    True
    >>> cache.put("k", "m", {"q": 1}, {"text": "yes"}, 3, 1)
    >>> cache.get("k")
    {'text': 'yes'}
    >>> len(cache)
    1
    """

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        with self._connect() as con:
            con.execute("PRAGMA journal_mode=WAL")
            con.execute(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        con = getattr(self._local, "con", None)
        if con is None:
            con = sqlite3.connect(self.path, timeout=60)
            self._local.con = con
        return con

    def get(self, key: str) -> dict | None:
        """The stored response of ``key`` (None when there is none)."""
        row = (
            self._connect()
            .execute("SELECT response FROM responses WHERE key = ?", (key,))
            .fetchone()
        )
        return None if row is None else json.loads(row[0])

    def put(
        self, key: str, model: str, request: dict, response: dict, tokens_in: int, tokens_out: int
    ) -> None:
        """Store one response now (committed before this returns)."""
        con = self._connect()
        with con:
            con.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    model,
                    json.dumps(request, sort_keys=True, ensure_ascii=False),
                    json.dumps(response, ensure_ascii=False),
                    int(tokens_in),
                    int(tokens_out),
                    time.time(),
                ),
            )

    def __len__(self) -> int:
        return int(self._connect().execute("SELECT COUNT(*) FROM responses").fetchone()[0])
