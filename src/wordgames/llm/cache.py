"""The response cache: every answer a model gave, content-addressed, in one SQLite file.

The key of a response is the sha256 of the server's address, the model the server reports,
the full request (every message and decoding parameter) and the prompt version: another server
reporting the same model name is asked again, never answered from this one's responses (a
server moved to another address is asked again too). Only validated answers are kept (the
client refuses empty, malformed and non-finite ones before they get here). Each response is
written (and committed) as soon as it arrives, so a run killed with ``kill -9`` re-sends no
request that had been answered; the file lives under the cache folder
(``$WORDGAMES_CACHE/llm/responses.sqlite``), shared by every run and output folder, so a second
run of the same questions makes no request. SQLite's write-ahead log lets several processes
read and write it at once.

A cache that cannot be used as it is never stops a run (``tests/llm/test_response_cache.py``):
a file that is not a cache (garbage, truncated, another schema, a folder in its place) is moved
aside as ``responses.sqlite.damaged-N``, the rows of it that can still be read are copied into
a new one, and :attr:`ResponseCache.problems` says so; a row that cannot be read is a miss
(asked again, then replaced); a cache that cannot be written (a read-only folder, a full disk)
is read as it is, and each answer it could not keep is counted (:attr:`ResponseCache.unsaved`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from pathlib import Path

log = logging.getLogger("wordgames.llm")

COLUMNS = ("key", "model", "request", "response", "tokens_in", "tokens_out", "created")
SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    request TEXT NOT NULL,
    response TEXT NOT NULL,
    tokens_in INTEGER NOT NULL,
    tokens_out INTEGER NOT NULL,
    created REAL NOT NULL,
    server TEXT NOT NULL DEFAULT ''
)
"""


#: every column named: a row never lands in another column's place
_INSERT = (f"INSERT OR REPLACE INTO responses ({', '.join(COLUMNS)}, server) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")  # fmt: skip


def request_key(model: str, request: dict, prompt_version: str, server: str = "") -> str:
    """The cache key of a request: sha256 of the server, the reported model, request, prompts.

    ``server`` is the server's address (``""``: a model in this process, named by its file's
    hash in ``model``).

    >>> a = request_key("m", {"messages": [{"role": "user", "content": "hi"}]}, "p1")
    >>> a == request_key("m", {"messages": [{"role": "user", "content": "hi"}]}, "p1"), len(a)
    (True, 64)
    >>> a == request_key("m", {"messages": [{"role": "user", "content": "hi"}]}, "p2")
    False
    >>> a == request_key("m", {"messages": [{"role": "user", "content": "hi"}]}, "p1", "http://h/v1")
    False
    """
    what = {"model": model, "request": request, "prompt_version": prompt_version}
    if server:  # absent for a model in this process: its keys predate the server's address
        what["server"] = server
    text = json.dumps(what, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
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
    >>> cache.put("k", "m", {"q": 1}, {"text": "yes"}, 3, 1, server="http://h/v1")
    True
    >>> cache.get("k")
    {'text': 'yes'}
    >>> len(cache), cache.drop("m", "http://h/v1"), len(cache)
    (1, 1, 0)
    """

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_path()
        #: what was wrong with the file and what was done about it (one line each)
        self.problems: list[str] = []
        #: answers that could not be written (a read-only cache, a full disk)
        self.unsaved = 0
        #: rows that could not be read (asked again, then replaced)
        self.unreadable_rows = 0
        self.read_only = False
        self._local = threading.local()
        self._lock = threading.Lock()
        self._open()
        for problem in self.problems:  # on the console of a run (its warnings)
            log.warning(problem)

    # ------------------------------------------------------------------ opening
    def _open(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # the folder cannot be made: nothing is kept
            self._go_read_only(f"its folder cannot be made ({exc.strerror})")
            return
        if self.path.exists() and not self.path.is_file():
            self._quarantine("it is not a file")
        problem = _unusable(self.path)
        if problem == "read-only":
            self._go_read_only("it cannot be written")
            return
        if problem is not None:
            self._quarantine(problem)
        try:
            self._prepare()
        except sqlite3.OperationalError as exc:  # read-only folder or file, a full disk
            self._close()
            if "readonly" in str(exc) and _writable(self.path):  # SQLite refuses, not the disk
                self._quarantine(f"SQLite will not write it: {exc}")
                self._prepare()
            else:
                self._go_read_only(str(exc))

    def _prepare(self) -> None:
        """WAL, the table, the ``server`` column, and a write SQLite accepts (then undone)."""
        with self._connect() as con:
            con.execute("PRAGMA journal_mode=WAL")
            con.execute(SCHEMA)
            _migrate(con)
        try:  # a header byte can make SQLite open the file read-only: a write fails then
            con.execute("BEGIN IMMEDIATE")
            con.execute(_INSERT, ("", "", "{}", "{}", 0, 0, 0.0, ""))
        finally:
            con.rollback()

    def _close(self) -> None:
        con = getattr(self._local, "con", None)
        if con is not None:
            con.close()
        self._local.con = None

    def _go_read_only(self, why: str) -> None:
        self.read_only = True
        self.problems.append(
            f"the response cache {self.path} is used read-only ({why}): answers it does not "
            "hold are asked for and not kept"
        )

    def _quarantine(self, problem: str) -> None:
        """Move the file aside, copy what can be read of it into a new one, and say so."""
        n = 1
        while self.path.with_name(f"{self.path.name}.damaged-{n}").exists():
            n += 1
        aside = self.path.with_name(f"{self.path.name}.damaged-{n}")
        self.path.rename(aside)
        for suffix in ("-wal", "-shm"):  # the log of the damaged file is not the new one's
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.rename(aside.with_name(aside.name + suffix))
        rows = _salvage(aside)
        con = sqlite3.connect(self.path, timeout=60)
        with con:
            con.execute(SCHEMA)
            con.executemany(_INSERT.replace("OR REPLACE", "OR IGNORE"), rows)
        con.close()
        self.problems.append(
            f"the response cache {self.path} was damaged ({problem}): moved to {aside.name}; "
            f"{len(rows)} answer(s) read from it into a new cache"
        )

    def _connect(self) -> sqlite3.Connection:
        con = getattr(self._local, "con", None)
        if con is None:
            if self.read_only:
                uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
                con = sqlite3.connect(uri, uri=True, timeout=60)
            else:
                con = sqlite3.connect(self.path, timeout=60)
            self._local.con = con
        return con

    # ------------------------------------------------------------------ reading and writing
    def get(self, key: str) -> dict | None:
        """The stored response of ``key`` (None when there is none or it cannot be read)."""
        if self.read_only and not self.path.is_file():
            return None
        try:
            row = (
                self._connect()
                .execute("SELECT response FROM responses WHERE key = ?", (key,))
                .fetchone()
            )
        except (sqlite3.Error, ValueError):  # damaged, or text that is not UTF-8: asked again
            return self._unreadable()
        if row is None:
            return None
        try:
            value = json.loads(row[0])
        except (TypeError, ValueError):
            return self._unreadable()
        return value if isinstance(value, dict) else self._unreadable()

    def _unreadable(self) -> None:
        with self._lock:
            self.unreadable_rows += 1
        return None

    def put(self, key: str, model: str, request: dict, response: dict, tokens_in: int,
            tokens_out: int, *, server: str = "") -> bool:  # fmt: skip
        """Store one response now (committed before this returns); whether it was kept.

        One that cannot be written (read-only, a full disk) is counted in :attr:`unsaved`.
        """
        if self.read_only:
            with self._lock:
                self.unsaved += 1
            return False
        row = (key, model, json.dumps(request, sort_keys=True, ensure_ascii=False),
               json.dumps(response, ensure_ascii=False), int(tokens_in), int(tokens_out),
               time.time(), server)  # fmt: skip
        try:
            con = self._connect()
            with con:
                con.execute(_INSERT, row)
        except sqlite3.OperationalError as exc:  # a full disk, a folder made read-only
            with self._lock:
                self.unsaved += 1
                first = not any("could not be written" in p for p in self.problems)
                if first:
                    self.problems.append(f"the response cache {self.path} could not be "
                                         f"written ({exc}): answers were used, not kept")  # fmt: skip
            if first:
                log.warning(self.problems[-1])
            return False
        return True

    def drop(self, model: str, server: str) -> int:
        """Forget every answer of ``model`` from ``server``; returns how many were dropped.

        ``model`` is the name the subject was given or the one the server reports
        (``org/name`` matches ``name``).
        """
        con = self._connect()
        with con:
            cur = con.execute(
                "DELETE FROM responses WHERE server = ? AND (model = ? OR model LIKE ?)",
                (server.rstrip("/"), model, f"%/{model}"),
            )
        return cur.rowcount

    def __len__(self) -> int:
        if self.read_only and not self.path.is_file():
            return 0
        return int(self._connect().execute("SELECT COUNT(*) FROM responses").fetchone()[0])


def _writable(path: Path) -> bool:
    import os

    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _unusable(path: Path) -> str | None:
    """Why ``path`` is no response cache (None: it is one, or there is none), or "read-only"."""
    if not path.exists():
        return None
    if not _writable(path):
        return "read-only"
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=60)
        con.text_factory = lambda b: b.decode("utf-8", "replace")  # a damaged page's text
        try:
            # the full check: quick_check passes an index whose rows are out of order, and a
            # row written there is then never found (fuzzing found it)
            ok = con.execute("PRAGMA integrity_check(1)").fetchone()
            order = [r[1] for r in con.execute("PRAGMA table_info(responses)")]
        finally:
            con.close()
    except (sqlite3.Error, ValueError) as exc:
        if "readonly" in str(exc) or "read-only" in str(exc):
            return "read-only"
        return f"not an SQLite file: {exc}"
    if ok is None or ok[0] != "ok":
        return f"SQLite's check failed: {ok[0] if ok else 'no answer'}"
    if order and not set(COLUMNS) <= set(order):
        return f"its table lacks the columns {', '.join(sorted(set(COLUMNS) - set(order)))}"
    if order and tuple(order[: len(COLUMNS)]) != COLUMNS:  # a damaged schema's other order
        return f"its columns are in another order ({', '.join(order)})"
    return None


def _salvage(path: Path) -> list[tuple]:
    """The rows of a damaged cache that can still be read, whole and valid, as new rows."""
    rows = []
    try:
        con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
    except sqlite3.Error:
        return rows
    con.text_factory = bytes  # decoded strictly by _valid_row: damaged text is no answer
    try:
        names = {
            r[1].decode("utf-8", "replace") for r in con.execute("PRAGMA table_info(responses)")
        }
        if not set(COLUMNS) <= names:
            return rows
        server = "server" if "server" in names else "''"
        cur = con.execute(f"SELECT {', '.join(COLUMNS)}, {server} FROM responses")
        while True:
            try:
                row = cur.fetchone()
            except (sqlite3.Error, ValueError):  # the rest of the file is damaged
                break
            if row is None:
                break
            row = _decoded(row)
            if row is not None and _valid_row(row):
                rows.append(row)
    except (sqlite3.Error, ValueError):
        pass
    finally:
        con.close()
    return rows


def _decoded(row: tuple) -> tuple | None:
    """A row read as bytes with its text decoded (None: some text is not UTF-8)."""
    try:
        return tuple(v.decode("utf-8") if isinstance(v, bytes) else v for v in row)
    except UnicodeDecodeError:
        return None


def _valid_row(row: tuple) -> bool:
    key, model, request, response, tin, tout, created, server = row
    try:
        ok = isinstance(json.loads(response), dict) and isinstance(json.loads(request), dict)
    except (TypeError, ValueError):
        return False
    return (ok and isinstance(key, str) and len(key) == 64 and isinstance(model, str)
            and isinstance(tin, int) and isinstance(tout, int) and isinstance(server, str))  # fmt: skip


def _migrate(con: sqlite3.Connection) -> None:
    """Add the ``server`` column to a cache written before it existed."""
    names = {r[1] for r in con.execute("PRAGMA table_info(responses)")}
    if "server" not in names:
        con.execute("ALTER TABLE responses ADD COLUMN server TEXT NOT NULL DEFAULT ''")
