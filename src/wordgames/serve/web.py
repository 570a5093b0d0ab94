"""What the app's pages share: the templates, the request context, form tokens and cookies."""

from __future__ import annotations

import secrets
import time
from pathlib import Path
from urllib.parse import quote

from fastapi.responses import HTMLResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from wordgames.serve import store
from wordgames.serve.db import Database
from wordgames.serve.gamebase import AnswerError, count_field
from wordgames.serve.security import same

HERE = Path(__file__).parent
PID_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
COOKIE_AGE = 30 * 24 * 3600


def templates() -> Environment:
    """The Jinja2 environment (autoescape on for every template)."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
    )
    from wordgames.serve.wiki import title

    env.filters["title"] = title
    return env


class Ctx:
    """What every handler needs: the database, the templates, the admin token."""

    def __init__(self, db: Database, admin_token: str, secure_cookies: bool = False):
        self.db = db
        self.env = templates()
        self.admin_token = admin_token
        self.secure = secure_cookies
        #: what failed while a study was made ready (slug -> message), shown on the admin page
        self.problems: dict[str, str] = {}

    def page(self, name: str, status: int = 200, **kw) -> HTMLResponse:
        """Render a template (autoescaped)."""
        return HTMLResponse(self.env.get_template(name).render(**kw), status_code=status)

    def error(self, message: str, status: int) -> HTMLResponse:
        """The error page with a plain message."""
        return self.page("error.html", status, message=message, title="Error")


def cookie_name(slug: str) -> str:
    """The name of a study's participant cookie."""
    return f"wg_{slug.replace('-', '_')}"


def clean_param(value: str | None, what: str) -> str | None:
    """A recruitment parameter of the link (``PROLIFIC_PID``...), checked.

    None when absent, else letters, digits, ``_`` and ``-`` (at most 64), or
    :class:`AnswerError`.
    """
    if value is None or value == "":
        return None
    if len(value) > 64 or not set(value) <= PID_CHARS:
        raise AnswerError(f"the {what} in the link is malformed")
    return value


def form_token(study, token: str, position: int, seq: int = 0) -> str:
    """The signed hidden field of a trial form.

    Position, move number, time served (ms) and a fresh idempotency key, bound to the
    participant's cookie.
    """
    served = int(time.time() * 1000)
    idem = secrets.token_hex(8)
    sig = study.sign(store.sha(token), position, seq, served, idem)
    return f"{position}.{seq}.{served}.{idem}.{sig}"


def read_token(study, token: str, value: str) -> tuple[int, int, int, str]:
    """Check a form token; ``(position, seq, served_ms, idem)`` or :class:`AnswerError`."""
    parts = (value if isinstance(value, str) else "").split(".")
    try:
        if len(parts) != 5:
            raise AnswerError("no token")
        position, seq = count_field(parts[0], "t"), count_field(parts[1], "t")
        served = count_field(parts[2], "t", hi=2**62)
    except AnswerError:
        raise AnswerError("this form is not valid: reload the page") from None
    idem, sig = parts[3:]
    if not same(study.sign(store.sha(token), position, seq, served, idem), sig):
        raise AnswerError("this form is not valid (expired or from another session): reload")
    return position, seq, served, idem


def client_rt(value) -> int | None:
    """The browser's response time (ms) of a form, when plausible (0 to 24 h), else None."""
    try:
        v = int(str(value))
    except (TypeError, ValueError):
        return None
    return v if 0 <= v <= 86_400_000 else None


def consent_csrf(study, nonce: str) -> str:
    """The consent form's CSRF token: the nonce of the consent cookie, signed."""
    return study.sign("consent", nonce)


def set_participant_cookie(ctx: Ctx, resp: Response, slug: str, token: str) -> None:
    """The participant's token cookie (HttpOnly, SameSite=Lax, the study's path only)."""
    resp.set_cookie(
        cookie_name(slug),
        token,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="lax",
        secure=ctx.secure,
        path=f"/s/{slug}/",
    )


def completion_url(study) -> str:
    """The study's completion URL with ``{code}`` filled in (URL-quoted), or ``""``."""
    url = study.cfg.completion_url
    return url.replace("{code}", quote(study.cfg.completion_code)) if url else ""
