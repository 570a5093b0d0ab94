"""The web app: participants' pages (consent, instructions, trials, completion), the admin pages
and ``GET /health``. Server-rendered (Jinja2, autoescaped), a small static script, no CDN.

The app keeps no state outside the database: any number of workers (``--workers``) or machines
may serve the same PostgreSQL database. Every answer is committed before the next trial is
served (POST, commit, then redirect). Forms carry a signed token (position, time served, an
idempotency key; HMAC with the study's secret and bound to the participant's cookie), which
is also the CSRF token.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import time
from pathlib import Path
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool

from wordgames.serve import store
from wordgames.serve.db import Database, require_current
from wordgames.serve.games import AnswerError
from wordgames.serve.security import BodyLimitMiddleware, SecurityHeadersMiddleware

log = logging.getLogger("wordgames.serve")
HERE = Path(__file__).parent
PID_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
COOKIE_AGE = 30 * 24 * 3600


def templates() -> Environment:
    """The Jinja2 environment (autoescape on for every template)."""
    env = Environment(loader=FileSystemLoader(HERE / "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
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

    def page(self, name: str, status: int = 200, **kw) -> HTMLResponse:
        return HTMLResponse(self.env.get_template(name).render(**kw), status_code=status)

    def error(self, message: str, status: int) -> HTMLResponse:
        return self.page("error.html", status, message=message, title="Error")


def create_app(db_url: str, admin_token: str, *, migrate: bool = False,
               secure_cookies: bool = False, max_body: int = 64 * 1024) -> FastAPI:
    """The ASGI app on the database ``db_url``.

    Parameters
    ----------
    db_url : ``sqlite:///FILE`` or ``postgresql://...``
    admin_token : the token of the admin pages (compared in constant time)
    migrate : run the migrations first (``wordgames serve`` does it before starting workers)
    secure_cookies : mark cookies ``Secure`` (behind HTTPS)
    max_body : request body limit in bytes (413 beyond)
    """
    if len(admin_token) < 16:
        raise ValueError("the admin token must have at least 16 characters")
    db = Database(db_url)
    if migrate:
        from wordgames.serve.db import migrate as run_migrations

        run_migrations(db)
    require_current(db)
    ctx = Ctx(db, admin_token, secure_cookies)
    app = FastAPI(title="wordgames serve", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.ctx = ctx
    app.add_middleware(BodyLimitMiddleware, max_body=max_body)
    app.add_middleware(SecurityHeadersMiddleware)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    _participant_routes(app, ctx)
    from wordgames.serve.admin import admin_routes

    admin_routes(app, ctx)
    return app


def create_app_from_env() -> FastAPI:
    """Factory for uvicorn workers: ``WORDGAMES_SERVE_DB``, ``WORDGAMES_SERVE_ADMIN_TOKEN``."""
    return create_app(os.environ["WORDGAMES_SERVE_DB"], os.environ["WORDGAMES_SERVE_ADMIN_TOKEN"],
                      secure_cookies=os.environ.get("WORDGAMES_SERVE_SECURE") == "1")


# --------------------------------------------------------------------------- helpers
def _cookie(slug: str) -> str:
    return f"wg_{slug.replace('-', '_')}"


def _clean_param(value: str | None, what: str) -> str | None:
    if value is None or value == "":
        return None
    if len(value) > 64 or not set(value) <= PID_CHARS:
        raise AnswerError(f"the {what} in the link is malformed")
    return value


def form_token(study, token: str, position: int, seq: int = 0) -> str:
    """The signed hidden field of a trial form: position, move number, time served (ms) and a
    fresh idempotency key, bound to the participant's cookie."""
    served = int(time.time() * 1000)
    idem = secrets.token_hex(8)
    sig = study.sign(store.sha(token), position, seq, served, idem)
    return f"{position}.{seq}.{served}.{idem}.{sig}"


def read_token(study, token: str, value: str) -> tuple[int, int, int, str]:
    """Check a form token; ``(position, seq, served_ms, idem)`` or :class:`AnswerError`."""
    parts = (value or "").split(".")
    if len(parts) != 5 or not all(p.isdigit() for p in parts[:3]):
        raise AnswerError("this form is not valid: reload the page")
    position, seq, served, idem, sig = int(parts[0]), int(parts[1]), int(parts[2]), *parts[3:]
    if not hmac.compare_digest(study.sign(store.sha(token), position, seq, served, idem), sig):
        raise AnswerError("this form is not valid (expired or from another session): reload")
    return position, seq, served, idem


def _client_rt(value) -> int | None:
    try:
        v = int(str(value))
    except (TypeError, ValueError):
        return None
    return v if 0 <= v <= 86_400_000 else None


def consent_csrf(study, nonce: str) -> str:
    return study.sign("consent", nonce)


# --------------------------------------------------------------------------- routes
def _participant_routes(app: FastAPI, ctx: Ctx) -> None:
    db = ctx.db

    @app.get("/health")
    def health():
        from sqlalchemy import text

        with db.read() as s:
            s.execute(text("SELECT 1"))
        return JSONResponse({"status": "ok", "database": db.engine.dialect.name})

    @app.get("/", response_class=HTMLResponse)
    def index():
        studies = [store.load_study(db, slug) for slug in store.list_studies(db)]
        return ctx.page("index.html", studies=studies, title="wordgames")

    @app.get("/s/{slug}/", response_class=HTMLResponse)
    def landing(slug: str, request: Request):
        return _landing(ctx, slug, request)

    @app.post("/s/{slug}/consent")
    async def consent(slug: str, request: Request):
        form = await request.form(max_files=0, max_fields=20)
        return await run_in_threadpool(_consent, ctx, slug, request, form)

    @app.get("/s/{slug}/instructions", response_class=HTMLResponse)
    def instructions(slug: str, request: Request):
        study = store.load_study(db, slug)
        if study is None:
            return ctx.error("There is no such study.", 404)
        return ctx.page("instructions.html", study=study, title=study.cfg.text("title"))

    @app.get("/s/{slug}/play", response_class=HTMLResponse)
    def play(slug: str, request: Request):
        from wordgames.serve.pages import play_page

        return play_page(ctx, slug, request)

    @app.post("/s/{slug}/answer")
    async def answer(slug: str, request: Request):
        from wordgames.serve.pages import submit_answer

        form = await request.form(max_files=0, max_fields=50)
        return await run_in_threadpool(submit_answer, ctx, slug, request, form)

    @app.post("/s/{slug}/move")
    async def move(slug: str, request: Request):
        from wordgames.serve.pages import submit_move

        form = await request.form(max_files=0, max_fields=10)
        return await run_in_threadpool(submit_move, ctx, slug, request, form)

    @app.get("/s/{slug}/feedback/{position}", response_class=HTMLResponse)
    def feedback(slug: str, position: int, request: Request):
        from wordgames.serve.pages import feedback_page

        return feedback_page(ctx, slug, position, request)


def _landing(ctx: Ctx, slug: str, request: Request):
    study = store.load_study(ctx.db, slug)
    if study is None:
        return ctx.error("There is no such study.", 404)
    q = request.query_params
    try:
        pid = _clean_param(q.get("PROLIFIC_PID"), "participant id")
        sid = _clean_param(q.get("STUDY_ID"), "study id")
        ses = _clean_param(q.get("SESSION_ID"), "session id")
    except AnswerError as exc:
        return ctx.error(str(exc), 400)
    token = request.cookies.get(_cookie(slug))
    p = store.find_participant(ctx.db, study, token=token, pid=pid)
    if p is not None:
        resp = RedirectResponse(f"/s/{slug}/play", status_code=303)
        if token is None or p.token_hash != store.sha(token):  # same PID, new browser
            set_participant_cookie(ctx, resp, slug, store.new_token(ctx.db, p.id))
        return resp
    if study.cfg.require_pid and pid is None:
        return ctx.error("Please open this study from the link on the recruitment platform "
                         "(it must carry PROLIFIC_PID).", 400)
    nonce = secrets.token_hex(16)
    resp = ctx.page("consent.html", study=study, title=study.cfg.text("title"), pid=pid or "",
                    sid=sid or "", ses=ses or "", csrf=consent_csrf(study, nonce))
    resp.set_cookie(f"{_cookie(slug)}_n", nonce, max_age=3600, httponly=True, samesite="lax",
                    secure=ctx.secure, path=f"/s/{slug}/")
    return resp


def set_participant_cookie(ctx: Ctx, resp: Response, slug: str, token: str) -> None:
    resp.set_cookie(_cookie(slug), token, max_age=COOKIE_AGE, httponly=True, samesite="lax",
                    secure=ctx.secure, path=f"/s/{slug}/")


def _consent(ctx: Ctx, slug: str, request: Request, form):
    study = store.load_study(ctx.db, slug)
    if study is None:
        return ctx.error("There is no such study.", 404)
    nonce = request.cookies.get(f"{_cookie(slug)}_n", "")
    if not nonce or not hmac.compare_digest(consent_csrf(study, nonce), str(form.get("csrf", ""))):
        return ctx.error("This form has expired: please open the study link again.", 403)
    if form.get("consent") != "yes":
        return ctx.page("consent.html", 422, study=study, title=study.cfg.text("title"),
                        pid=form.get("pid", ""), sid=form.get("sid", ""), ses=form.get("ses", ""),
                        csrf=form.get("csrf"), error="Please tick the box to take part.")
    try:
        pid = _clean_param(form.get("pid"), "participant id")
        sid = _clean_param(form.get("sid"), "study id")
        ses = _clean_param(form.get("ses"), "session id")
    except AnswerError as exc:
        return ctx.error(str(exc), 400)
    if study.cfg.require_pid and pid is None:
        return ctx.error("This study needs a PROLIFIC_PID in its link.", 400)
    p, token = store.create_participant(ctx.db, study, pid=pid, platform_study=sid, session=ses)
    resp = RedirectResponse(f"/s/{slug}/instructions" if p.position == 0 else f"/s/{slug}/play",
                            status_code=303)
    set_participant_cookie(ctx, resp, slug, token)
    return resp


def completion_url(study) -> str:
    """The study's completion URL with ``{code}`` filled in (URL-quoted), or ``""``."""
    url = study.cfg.completion_url
    return url.replace("{code}", quote(study.cfg.completion_code)) if url else ""


def admin_session_value(admin_token: str) -> str:
    return hmac.new(admin_token.encode(), b"wg-admin-session", hashlib.sha256).hexdigest()
