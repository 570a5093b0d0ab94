"""A local OpenAI-compatible server that misbehaves on purpose, one fault a mode.

``MisbehavingServer(mode)`` listens on 127.0.0.1 and serves ``/v1/models`` (model ``m``),
``/v1/chat/completions`` and ``/v1/embeddings``. ``server.mode`` may be changed between
requests (a broken server repaired). It counts the POST requests it answered (``posts``) and
keeps the last ``Authorization`` header it saw (``last_auth``), so a test can quote it back.

Modes (:data:`MODES`):

``ok``
    A well-behaved model: the chat answer is ``server.answer``; each word's vector is 3-d.
``quote-key-error``
    Every POST is refused (400) with a message that quotes the request's ``Authorization``
    header, as some proxies do.
``quote-key-401``
    Every request, ``/v1/models`` included, is refused (401) quoting the header.
``quote-key-answer``
    A 200 chat answer (and model id) that quote the header.
``null-content``
    A 200 chat answer whose ``content`` is ``null``.
``nan-vector``
    Embeddings holding ``NaN``.
``invalid-json``, ``non-utf8``
    A 200 POST answer that is not JSON / not UTF-8.
``no-choices``, ``empty-choices``
    A 200 chat answer without ``choices`` / with ``choices: []``.
``no-data``, ``mixed-dims``
    A 200 embeddings answer without ``data`` / with vectors of two lengths.
``models-invalid-json``
    ``/v1/models`` answers text that is not JSON.
``slow-body``
    A 200 answer whose body is sent one byte every ``server.byte_delay`` seconds.
``huge``
    A 200 chat answer of ``server.huge_bytes`` bytes of text.
"""

from __future__ import annotations

import http.server
import json
import threading
import time

MODES = (
    "ok", "quote-key-error", "quote-key-401", "quote-key-answer", "null-content", "nan-vector",
    "invalid-json", "non-utf8", "no-choices", "empty-choices", "no-data", "mixed-dims",
    "models-invalid-json", "slow-body", "huge",
)  # fmt: skip


def _chat(content) -> dict:
    return {
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6},
    }  # fmt: skip


def _vectors(n: int, dims) -> dict:
    data = [{"object": "embedding", "index": i, "embedding": [0.5] * dims[i % len(dims)]}
            for i in range(n)]  # fmt: skip
    return {"object": "list", "model": "m", "data": data,
            "usage": {"prompt_tokens": n, "total_tokens": n}}  # fmt: skip


class MisbehavingServer:
    def __init__(self, mode: str = "ok", *, answer: str = "ok"):
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        self.mode, self.answer = mode, answer
        self.byte_delay, self.huge_bytes = 1.0, 8 * 2**20
        #: small garbage in good vectors: ``{"index": [0, 0]}``, ``{"numbers": "0.5"}``
        self.vector_change: dict = {}
        self.posts = 0
        self.last_auth = ""
        self.lock = threading.Lock()
        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._httpd.shutdown()
        self._httpd.server_close()

    def _body(self, path: str, request: dict) -> tuple[int, bytes]:
        """``(status, body)`` of a POST in the current mode."""
        mode, auth = self.mode, self.last_auth
        if mode in ("quote-key-error", "quote-key-401"):
            text = f"invalid request; your headers were: Authorization: {auth}"
            return (400 if mode == "quote-key-error" else 401), json.dumps(
                {"error": {"message": text, "type": "invalid_request_error"}}
            ).encode()
        raw = {"invalid-json": b'{"choices": [', "non-utf8": b"\xff\xfe{\x80\x81}"}
        if mode in raw:
            return 200, raw[mode]
        if path.endswith("/embeddings"):
            n = len(request.get("input") or [])
            shapes = {"no-data": {"object": "list", "model": "m"},
                      "mixed-dims": _vectors(max(n, 2), [3, 4])}  # fmt: skip
            body = shapes.get(mode) or _vectors(n, [3])
            change = self.vector_change  # small garbage in an otherwise good answer
            if "index" in change:
                for d, i in zip(body["data"], change["index"], strict=False):
                    d["index"] = i
            if "numbers" in change:
                body["data"][0]["embedding"][1] = change["numbers"]
            if mode == "nan-vector":
                for d in body["data"]:
                    d["embedding"][0] = float("nan")
            return 200, json.dumps(body).encode()  # NaN is written as the literal NaN
        shapes = {
            "null-content": _chat(None),
            "quote-key-answer": _chat(f"I read your header: Authorization: {auth}"),
            "no-choices": {"id": "x", "object": "chat.completion", "model": "m"},
            "empty-choices": {**_chat(""), "choices": []},
        }
        if mode == "huge":
            return 200, self.huge_body()
        return 200, json.dumps(shapes.get(mode) or _chat(self.answer)).encode()

    def huge_body(self) -> bytes:
        """The ``huge`` answer, made once (a test can make it before it measures memory)."""
        if getattr(self, "_huge", (None,))[0] != self.huge_bytes:
            self._huge = (
                self.huge_bytes,
                json.dumps(_chat("word " * (self.huge_bytes // 5))).encode(),
            )
        return self._huge[1]

    def _handler(self):
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _send(self, status: int, body: bytes, slow: bool = False) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    if not slow:
                        self.wfile.write(body)
                        return
                    for i in range(len(body)):
                        self.wfile.write(body[i : i + 1])
                        self.wfile.flush()
                        time.sleep(server.byte_delay)
                except OSError:  # the client gave up: the test's point
                    pass

            def do_GET(self):
                server.last_auth = self.headers.get("Authorization", "")
                if server.mode == "quote-key-401":
                    status, body = server._body(self.path, {})
                    return self._send(status, body)
                if server.mode == "models-invalid-json":
                    return self._send(200, b"<html>not json")
                models = {"object": "list", "data": [{"id": "m", "object": "model"}]}
                if server.mode == "quote-key-answer":
                    models["data"].append({"id": f"key {server.last_auth}", "object": "model"})
                self._send(200, json.dumps(models).encode())

            def do_POST(self):
                server.last_auth = self.headers.get("Authorization", "")
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                with server.lock:
                    server.posts += 1
                status, body = server._body(self.path, request)
                self._send(status, body, slow=server.mode == "slow-body")

        return Handler
