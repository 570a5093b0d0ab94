"""ASGI middlewares, and the one constant-time comparison of secrets the app uses.

The middlewares (pure ASGI: cheap per request) are a request body limit and security headers.
"""

from __future__ import annotations

import hmac


def same(a: str, b: str) -> bool:
    """Constant-time comparison of two texts of any characters.

    ``hmac.compare_digest`` refuses ``str`` with non-ASCII characters (``TypeError``: a 500
    for any token a browser sends with one), so both sides are compared as UTF-8 bytes.

    >>> same("abc", "abc"), same("abc", "abé")
    (True, False)
    """
    return hmac.compare_digest(a.encode("utf-8", "replace"), b.encode("utf-8", "replace"))


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self' https:; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


class BodyLimitMiddleware:
    """Answer 413 to a request whose body is larger than ``max_body`` bytes.

    The size is checked by the Content-Length header, and again while the body streams in.
    """

    def __init__(self, app, max_body: int = 64 * 1024):
        self.app = app
        self.max_body = int(max_body)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.max_body
                except ValueError:
                    too_big = True
                if too_big:
                    return await _reject(send)
        seen = 0

        async def limited():
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge
            return msg

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _reject(send)


class _TooLarge(Exception):
    pass


async def _reject(send) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"text/plain; charset=utf-8")],
        }
    )
    await send({"type": "http.response.body", "body": b"request too large"})


class SecurityHeadersMiddleware:
    """Add the security headers to every response.

    Content-Security-Policy (scripts and styles from this site only), no framing, no referrer
    (the study link may carry a platform id), no caching of pages.
    """

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(msg):
            if msg["type"] == "http.response.start":
                names = {k.lower() for k, _ in msg.get("headers", [])}
                extra = [
                    (k, v)
                    for k, v in HEADERS
                    if k not in names
                    and not (k == b"cache-control" and scope["path"].startswith("/static"))
                ]
                msg = {**msg, "headers": list(msg.get("headers", [])) + extra}
            await send(msg)

        await self.app(scope, receive, with_headers)
