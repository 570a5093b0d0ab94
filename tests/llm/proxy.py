"""A small HTTP proxy in front of the real model server that fails on purpose.

It answers the first requests of ``failures`` with those status codes (429, 500...), then
passes every request on to the server; it counts what it saw. Listens on 127.0.0.1 only.
"""

from __future__ import annotations

import http.server
import threading
import urllib.error
import urllib.request


class FaultyProxy:
    def __init__(self, upstream: str, failures=()):
        self.upstream = upstream.rstrip("/")
        self.failures = list(failures)
        self.seen = 0
        self.failed = 0
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _forward(self, method: str):
                body = None
                if method == "POST":
                    body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                    with proxy.lock:
                        proxy.seen += 1
                        status = proxy.failures.pop(0) if proxy.failures else None
                        proxy.failed += status is not None
                    if status is not None:
                        payload = b'{"error": {"message": "injected", "type": "test"}}'
                        self.send_response(status)
                        self.send_header("Content-Type", "application/json")
                        self.send_header("Content-Length", str(len(payload)))
                        self.send_header("Retry-After", "0")
                        self.end_headers()
                        self.wfile.write(payload)
                        return
                url = proxy.upstream + self.path.removeprefix("/v1")
                req = urllib.request.Request(url, data=body, method=method)
                req.add_header("Content-Type", "application/json")
                try:
                    with urllib.request.urlopen(req, timeout=300) as r:
                        data, code = r.read(), r.status
                except urllib.error.HTTPError as exc:
                    data, code = exc.read(), exc.code
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self._forward("GET")

            def do_POST(self):
                self._forward("POST")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
