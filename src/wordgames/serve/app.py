"""The web app: participants' pages, the admin pages and ``GET /health``.

The participants' pages are consent, instructions, trials and completion. Server-rendered
(Jinja2, autoescaped), a small static script, no CDN.

The app keeps no state outside the database: any number of workers (``--workers``) or machines
may serve the same PostgreSQL database. Every answer is committed before the next trial is
served (POST, commit, then redirect). Forms carry a signed token (position, time served, an
idempotency key; HMAC with the study's secret and bound to the participant's cookie), which
is also the CSRF token.
"""

from __future__ import annotations

import logging
import os
import secrets

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool

from wordgames.serve import store
from wordgames.serve.admin import admin_routes
from wordgames.serve.db import Database, require_current
from wordgames.serve.gamebase import AnswerError
from wordgames.serve.pages import feedback_page, play_page, submit_answer, submit_move
from wordgames.serve.security import BodyLimitMiddleware, SecurityHeadersMiddleware, same
from wordgames.serve.web import (
    HERE,
    Ctx,
    clean_param,
    consent_csrf,
    cookie_name,
    set_participant_cookie,
)

log = logging.getLogger("wordgames.serve")


def create_app(
    db_url: str,
    admin_token: str,
    *,
    migrate: bool = False,
    secure_cookies: bool = False,
    max_body: int = 64 * 1024,
) -> FastAPI:
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
    for slug in store.list_studies(db):  # load every study and what its game needs, once
        _warm(ctx, slug)
    app = FastAPI(title="wordgames serve", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.ctx = ctx
    app.add_middleware(BodyLimitMiddleware, max_body=max_body)
    app.add_middleware(SecurityHeadersMiddleware)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    _participant_routes(app, ctx)
    admin_routes(app, ctx)
    return app


def _warm(ctx: Ctx, slug: str) -> None:
    """Make a study ready; what fails is kept for the admin page and the log.

    A model's unreadable answer or a server that is down stops neither the app nor the other
    studies.
    """
    from wordgames.errors import WordgamesError

    try:
        study = store.load_study(ctx.db, slug)
        study.game.warm(study.cfg)
    except (WordgamesError, OSError, ValueError) as exc:
        from wordgames.redact import redact

        ctx.problems[slug] = redact(f"{type(exc).__name__}: {exc}")
        log.warning("study %s: getting it ready failed: %s", slug, ctx.problems[slug])


def create_app_from_env() -> FastAPI:
    """Factory for uvicorn workers: ``WORDGAMES_SERVE_DB``, ``WORDGAMES_SERVE_ADMIN_TOKEN``."""
    return create_app(
        os.environ["WORDGAMES_SERVE_DB"],
        os.environ["WORDGAMES_SERVE_ADMIN_TOKEN"],
        secure_cookies=os.environ.get("WORDGAMES_SERVE_SECURE") == "1",
    )


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
        return play_page(ctx, slug, request)

    @app.post("/s/{slug}/answer")
    async def answer(slug: str, request: Request):
        form = await request.form(max_files=0, max_fields=50)
        return await run_in_threadpool(submit_answer, ctx, slug, request, form)

    @app.post("/s/{slug}/move")
    async def move(slug: str, request: Request):
        form = await request.form(max_files=0, max_fields=10)
        return await run_in_threadpool(submit_move, ctx, slug, request, form)

    @app.get("/s/{slug}/feedback/{position}", response_class=HTMLResponse)
    def feedback(slug: str, position: int, request: Request):
        return feedback_page(ctx, slug, position, request)


def _landing(ctx: Ctx, slug: str, request: Request):
    study = store.load_study(ctx.db, slug)
    if study is None:
        return ctx.error("There is no such study.", 404)
    q = request.query_params
    try:
        pid = clean_param(q.get("PROLIFIC_PID"), "participant id")
        sid = clean_param(q.get("STUDY_ID"), "study id")
        ses = clean_param(q.get("SESSION_ID"), "session id")
    except AnswerError as exc:
        return ctx.error(str(exc), 400)
    token = request.cookies.get(cookie_name(slug))
    try:
        p = _returning(ctx, study, token, pid, ses)
    except store.StartedElsewhere:
        return started_elsewhere(ctx, study)
    if p is not None:
        return _resume(ctx, slug, p, token, f"/s/{slug}/play")
    if study.cfg.require_pid and pid is None:
        return ctx.error(
            "Please open this study from the link on the recruitment platform "
            "(it must carry PROLIFIC_PID).",
            400,
        )
    nonce = secrets.token_hex(16)
    resp = ctx.page(
        "consent.html",
        study=study,
        title=study.cfg.text("title"),
        pid=pid or "",
        sid=sid or "",
        ses=ses or "",
        csrf=consent_csrf(study, nonce),
    )
    resp.set_cookie(
        f"{cookie_name(slug)}_n",
        nonce,
        max_age=3600,
        httponly=True,
        samesite="lax",
        secure=ctx.secure,
        path=f"/s/{slug}/",
    )
    return resp


def _returning(ctx: Ctx, study, token: str | None, pid: str | None, ses: str | None):
    """The participant who comes back with this request, or None for a newcomer.

    Resumption is bound to what the participant holds: the session cookie, or the platform's
    ``SESSION_ID`` of the attempt they started with. A cookie of another participant than the
    link's ``PROLIFIC_PID`` (a shared computer) is ignored. A known ``PROLIFIC_PID`` with neither
    raises :class:`~wordgames.serve.store.StartedElsewhere`: knowing someone's id is not enough
    to take over their session.
    """
    p = store.find_participant(ctx.db, study, token=token) if token else None
    if p is not None and (pid is None or p.pid_hash == store.pid_hash(study, pid)):
        return p
    known = store.find_participant(ctx.db, study, pid=pid) if pid else None
    if known is None:
        return None
    if not store.same_session(study, known, ses):
        raise store.StartedElsewhere("this participant started in another session")
    return known


def started_elsewhere(ctx: Ctx, study):
    """The page for a known ``PROLIFIC_PID`` that brought neither its cookie nor its session."""
    return ctx.page("started_elsewhere.html", 409, study=study, title=study.cfg.text("title"))


def _consent(ctx: Ctx, slug: str, request: Request, form):
    study = store.load_study(ctx.db, slug)
    if study is None:
        return ctx.error("There is no such study.", 404)
    nonce = request.cookies.get(f"{cookie_name(slug)}_n", "")
    if not nonce or not same(consent_csrf(study, nonce), str(form.get("csrf", ""))):
        return ctx.error("This form has expired: please open the study link again.", 403)
    if form.get("consent") != "yes":
        return ctx.page(
            "consent.html",
            422,
            study=study,
            title=study.cfg.text("title"),
            pid=form.get("pid", ""),
            sid=form.get("sid", ""),
            ses=form.get("ses", ""),
            csrf=form.get("csrf"),
            error="Please tick the box to take part.",
        )
    try:
        pid = clean_param(form.get("pid"), "participant id")
        sid = clean_param(form.get("sid"), "study id")
        ses = clean_param(form.get("ses"), "session id")
    except AnswerError as exc:
        return ctx.error(str(exc), 400)
    if study.cfg.require_pid and pid is None:
        return ctx.error("This study needs a PROLIFIC_PID in its link.", 400)
    cookie, token = request.cookies.get(cookie_name(slug)), None
    try:
        p = _returning(ctx, study, cookie, pid, ses)  # consent sent again (another tab)
        if p is None:
            p, token = store.create_participant(
                ctx.db, study, pid=pid, platform_study=sid, session=ses
            )
    except store.StartedElsewhere:
        return started_elsewhere(ctx, study)
    url = f"/s/{slug}/instructions" if p.position == 0 else f"/s/{slug}/play"
    if token is None:
        return _resume(ctx, slug, p, cookie, url)
    resp = RedirectResponse(url, status_code=303)
    set_participant_cookie(ctx, resp, slug, token)
    return resp


def _resume(ctx: Ctx, slug: str, p, cookie: str | None, url: str):
    """Redirect a participant to ``url``; a cookie that is not theirs is replaced by a new token.

    The new token ends the old one: one browser per participant at a time.
    """
    resp = RedirectResponse(url, status_code=303)
    if cookie is None or p.token_hash != store.sha(cookie):  # same PID and session, new browser
        set_participant_cookie(ctx, resp, slug, store.new_token(ctx.db, p.id))
    else:
        set_participant_cookie(ctx, resp, slug, cookie)
    return resp
