"""Secrets never leave the process: every text a server sent is redacted before it is used.

The clients register the keys they hold (:func:`remember_secret`; the values stay in this
process's memory only); :func:`redact` replaces each of them, and any ``Bearer`` token, with
``[redacted]``. It is applied where server text enters wordgames (answers, error messages,
model ids) and again where messages leave it (every :class:`~wordgames.errors.WordgamesError`,
the console), so a server that quotes the request's ``Authorization`` header back, as some
proxies do, gets nothing of the key written or printed.
"""

from __future__ import annotations

import re
import threading

REDACTED = "[redacted]"

#: a bearer token in any header quoting style (``Bearer sk-abc...``, ``'Bearer abc...'``): 8 or
#: more token characters, so that words ("a standard bearer of ...") are left as they are
_BEARER = re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=:-]{8,}")
#: keys shorter than this are not secrets worth the name ("no-key", "x"); never replaced
MIN_SECRET_CHARS = 8

_secrets: set[str] = set()
_lock = threading.Lock()


def remember_secret(value: str | None) -> None:
    """Redact ``value`` from every message from now on (in this process only)."""
    if value and len(value) >= MIN_SECRET_CHARS:
        with _lock:
            _secrets.add(value)


def redact(text: str) -> str:
    """``text`` with every remembered secret and ``Bearer`` token replaced by ``[redacted]``.

    >>> redact("Authorization: Bearer sk-abc123")
    'Authorization: Bearer [redacted]'
    >>> redact("the standard bearer of the team")
    'the standard bearer of the team'
    >>> remember_secret("s3cret-value-42"); redact("key=s3cret-value-42!")
    'key=[redacted]!'
    """
    if not isinstance(text, str) or not text:
        return text
    with _lock:
        known = sorted(_secrets, key=len, reverse=True)  # a longer secret first: no leftovers
    for secret in known:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
