"""Admin logins: server-side sessions, CSRF tokens and a limit on failed logins.

* Each login gets a random session id (the cookie); the database keeps only its sha256, its
  CSRF token and its expiry (:data:`SESSION_SECONDS`). Logging out ends it. Nothing about the
  session is derived from the admin token, so a cookie says nothing about the token.
* The login form carries a CSRF token bound to a random nonce cookie (as the consent form).
* Failed logins are limited per client address: after :data:`FREE_FAILURES` failures each
  further attempt must wait twice as long as the last (1 s, 2 s, ... up to
  :data:`MAX_WAIT_SECONDS`); a success clears the count. The counts live in each server
  process (with ``--workers N`` an address gets N times the attempts).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from datetime import timedelta

from sqlalchemy import select

from wordgames.serve.models import AdminSession, utcnow
from wordgames.serve.store import sha

SESSION_SECONDS = 12 * 3600
FREE_FAILURES = 5
MAX_WAIT_SECONDS = 900
_MAX_TRACKED = 10_000  # addresses remembered at most (the oldest are forgotten)


def login_csrf(admin_token: str, nonce: str) -> str:
    """The login form's CSRF token for the nonce cookie ``nonce``."""
    key = hashlib.sha256(("wg-admin-login:" + admin_token).encode()).digest()
    return hmac.new(key, nonce.encode("utf-8", "replace"), hashlib.sha256).hexdigest()


def new_session(db) -> tuple[str, str]:
    """Start a session: ``(session id for the cookie, its CSRF token)``."""
    sid, csrf = secrets.token_urlsafe(32), secrets.token_hex(16)
    now = utcnow()
    with db.write() as s:
        s.add(
            AdminSession(
                id_hash=sha(sid),
                csrf=csrf,
                created_at=now,
                expires_at=now + timedelta(seconds=SESSION_SECONDS),
            )
        )
    return sid, csrf


def session_csrf(db, sid: str) -> str | None:
    """The CSRF token of the live session ``sid`` (None when unknown, expired or ended)."""
    if not sid or len(sid) > 200:
        return None
    with db.read() as s:
        row = s.get(AdminSession, sha(sid))
        if row is None or row.ended_at is not None or row.expires_at <= utcnow():
            return None
        return row.csrf


def end_session(db, sid: str) -> None:
    """Log the session ``sid`` out (and forget sessions that expired)."""
    now = utcnow()
    with db.write() as s:
        row = s.get(AdminSession, sha(sid)) if sid else None
        if row is not None and row.ended_at is None:
            row.ended_at = now
        for old in s.scalars(select(AdminSession).where(AdminSession.expires_at <= now)):
            s.delete(old)


class LoginLimiter:
    """Failed logins per client address, with a doubling wait after :data:`FREE_FAILURES`."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, tuple[int, float]] = {}  # address -> (count, next allowed)

    def wait(self, address: str) -> float:
        """Seconds ``address`` must still wait before it may try again (0: it may)."""
        with self._lock:
            _, allowed = self._failures.get(address, (0, 0.0))
        return max(0.0, allowed - self.clock())

    def failed(self, address: str) -> None:
        with self._lock:
            count = self._failures.pop(address, (0, 0.0))[0] + 1
            extra = count - FREE_FAILURES
            wait = 0.0 if extra <= 0 else min(MAX_WAIT_SECONDS, 2.0 ** (extra - 1))
            self._failures[address] = (count, self.clock() + wait)
            while len(self._failures) > _MAX_TRACKED:  # dicts keep insertion order
                self._failures.pop(next(iter(self._failures)))

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._failures.pop(address, None)
