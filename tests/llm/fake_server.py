"""A local OpenAI-compatible server whose model plays perfectly and writes in many styles.

``StyledServer(solve)`` answers ``/v1/models`` and ``/v1/chat/completions`` on 127.0.0.1. For
each question (the first user message) ``solve(prompt)`` gives ``(kind, answer)``: the perfect
play, as plain text; the server then writes it in the next of that kind's realistic styles
(``tests/test_reading.py``: preambles, markdown, numbering, quotes, capitals, reasons...),
passing over a style that would name a second option (a careful writer is unambiguous). A
request with a ``response_format`` is refused (400): the server has no structured output, so
``--answers auto`` falls back to free text.
"""

from __future__ import annotations

import http.server
import itertools
import json
import re
import threading

from tests.test_reading import (
    CLUE_STYLES,
    ODDMANOUT_STYLES,
    RANKING_STYLES,
    WALES_STYLES,
)


def _word_styles(styles, word: str, stock: str) -> list[str]:
    """The styles of ``stock`` (a word of the test's examples) written for ``word``."""
    low, spaced = stock.lower(), stock.replace("_", " ")
    out = []
    for answer, _ in styles:
        text = answer.replace(stock, word).replace(spaced, word.replace("_", " "))
        text = text.replace(low, word.lower()).replace(stock.upper(), word.upper())
        text = text.replace(low.capitalize(), word[:1].upper() + word[1:])
        out.append(text)
    return out


def _list_styles(items: list[str]) -> list[str]:
    """The ranking styles (full ones only) written for ``items``."""
    out = []
    for answer, rule in RANKING_STYLES:
        if rule == "partial":
            continue
        if "\n" not in answer:  # one line, a comma between the words
            out.append(", ".join(items))
            continue
        text = answer
        for i, w in enumerate(["cat", "dog", "tree", "ice_cream", "car"]):
            text = text.replace(w, f"\0{i}\0").replace(w.replace("_", " "), f"\0{i}\0")
            text = text.replace(w.capitalize(), f"\1{i}\1")
        for i, w in enumerate(items[:5]):
            text = text.replace(f"\0{i}\0", w).replace(f"\1{i}\1", w[:1].upper() + w[1:])
        if len(items) > 5:  # the styles are of five words: the rest a line each, plainly
            text = text.rstrip() + "\n" + "\n".join(items[5:])
        out.append(text)
    return out


def _clue_styles(clues: list[tuple[str, int]]) -> list[str]:
    out = []
    for answer, rule in CLUE_STYLES:
        if rule == "partial" or "," in answer.replace(", Number", "") or ";" in answer:
            continue  # one clue a line only: the styles of a list of ten
        lines = answer.splitlines()
        first = lines[0]
        body = []
        for i, (c, n) in enumerate(clues, 1):
            line = first.replace("ocean", c).replace("Ocean", c.capitalize())
            line = re.sub(r"\b2\b", str(n), line).replace("1.", f"{i}.").replace("1)", f"{i})")
            body.append(line)
        out.append("\n".join(body))
    return out


class StyledServer:
    def __init__(self, solve, model: str = "perfect"):
        self.solve, self.model = solve, model
        self.counter = itertools.count()
        self.styles_used: dict[str, set] = {}
        self.lock = threading.Lock()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, code: int, payload: dict):
                data = json.dumps(payload).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._send(200, {"object": "list", "data": [{"id": server.model,
                                                             "object": "model"}]})  # fmt: skip

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
                if "response_format" in body:
                    self._send(400, {"error": {"message": "no structured output here"}})
                    return
                prompt = next(m["content"] for m in body["messages"] if m["role"] == "user")
                text = server.styled(prompt)
                self._send(200, {
                    "id": "x", "object": "chat.completion", "created": 0, "model": server.model,
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 5,
                              "total_tokens": len(prompt) // 4 + 5},
                })  # fmt: skip

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def styled(self, prompt: str) -> str:
        kind, answer, options = self.solve(prompt)
        if kind == "oddmanout":
            styles = _word_styles(ODDMANOUT_STYLES, answer, "grass")
        elif kind == "wales":
            styles = _word_styles(WALES_STYLES, answer, "Albert_Einstein")
        elif kind == "ranking":
            styles = _list_styles(answer)
        else:
            styles = _clue_styles(answer)
        with self.lock:
            start = next(self.counter)
        for k in range(len(styles)):  # the next style that names no second option
            i = (start + k) % len(styles)
            text = styles[i]
            if kind in ("oddmanout", "wales") and _names_another(text, answer, options):
                continue
            with self.lock:
                self.styles_used.setdefault(kind, set()).add(i)
            return text
        return answer if isinstance(answer, str) else "\n".join(map(str, answer))

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def _names_another(text: str, answer: str, options) -> bool:
    low = " " + re.sub(r"[_\s]+", " ", text.lower()) + " "
    for o in options:
        key = re.sub(r"[_\s]+", " ", str(o).lower()).strip()
        if o != answer and key and re.search(r"(?<!\w)" + re.escape(key) + r"(?!\w)", low):
            return True
    return False
