"""The admin pages, behind a token.

Studies, participants, progress, completion, the live measures (:mod:`wordgames.serve.live`,
computed on demand and kept in ``wg_snapshot``) and the export as a zip.

Log in with the token (a form with its CSRF token: the token is compared in constant time,
failed logins are limited; each login is a server-side session with its own CSRF token, an
expiry and a logout, :mod:`wordgames.serve.adminauth`) or send ``Authorization: Bearer TOKEN``
(scripts).
"""

from __future__ import annotations

import io
import json
import secrets
import tempfile
import zipfile
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import PlainTextResponse, RedirectResponse, Response
from sqlalchemy import func, select
from starlette.concurrency import run_in_threadpool

from wordgames.serve import store
from wordgames.serve.adminauth import (
    SESSION_SECONDS,
    LoginLimiter,
    end_session,
    login_csrf,
    new_session,
    session_csrf,
)
from wordgames.serve.models import Answer, Participant, Snapshot, utcnow
from wordgames.serve.security import same
from wordgames.serve.web import Ctx

COOKIE = "wg_admin"


def _bearer(ctx: Ctx, request: Request) -> bool:
    """Whether the request carries the admin token as ``Authorization: Bearer``.

    A wrong token is a failed login like the form's (the one limiter of every way the token
    is tried: :func:`bearer_limit` refuses a waiting address before any page runs); it is
    judged once a request.
    """
    auth = request.headers.get("authorization", "")
    if not auth.lower().startswith("bearer "):
        return False
    known = getattr(request.state, "wg_bearer", None)
    if known is None:
        known = same(auth[7:].strip(), ctx.admin_token)
        request.state.wg_bearer = known
        limiter = request.app.state.admin_limiter
        (limiter.succeeded if known else limiter.failed)(_client(request))
    return known


def session_of(ctx: Ctx, request: Request) -> str | None:
    """The CSRF token of the request's admin session (None: not logged in)."""
    return session_csrf(ctx.db, request.cookies.get(COOKIE, ""))


def is_admin(ctx: Ctx, request: Request) -> bool:
    """Bearer token (compared in constant time) or a live session cookie."""
    return _bearer(ctx, request) or session_of(ctx, request) is not None


def _csrf_ok(ctx: Ctx, request: Request, form) -> bool:
    if _bearer(ctx, request):
        return True
    csrf = session_of(ctx, request)
    return csrf is not None and same(str(form.get("csrf", "")), csrf)


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _login_page(ctx: Ctx, status: int = 200, error: str = "", wait: float = 0.0):
    """The login form, with a fresh nonce cookie and the CSRF token bound to it."""
    nonce = secrets.token_urlsafe(16)
    resp = ctx.page(
        "admin_login.html",
        status,
        title="Admin",
        error=error,
        csrf=login_csrf(ctx.admin_token, nonce),
    )
    if wait:
        resp.headers["retry-after"] = str(max(1, round(wait)))
    resp.set_cookie(
        COOKIE + "_n", nonce, httponly=True, samesite="strict", secure=ctx.secure, path="/admin"
    )
    return resp


def study_summary(ctx: Ctx, study) -> dict:
    """Participants by status and condition, answers, attention failures."""
    with ctx.db.read() as s:
        by = s.execute(
            select(Participant.condition, Participant.status, func.count())
            .where(Participant.study_id == study.id)
            .group_by(Participant.condition, Participant.status)
        ).all()
        n_answers = s.scalar(
            select(func.count()).select_from(Answer).where(Answer.study_id == study.id)
        )
        flagged = s.scalar(
            select(func.count())
            .select_from(Participant)
            .where(Participant.study_id == study.id, Participant.attention_failed > 0)
        )
    conds = {c: {} for c in study.cfg.conditions}
    for cond, status, n in by:
        conds.setdefault(cond, {})[status] = n
    total = {
        st: sum(d.get(st, 0) for d in conds.values()) for st in ("active", "completed", "ended")
    }
    return {
        "conditions": conds,
        "total": total,
        "n_answers": n_answers,
        "flagged": flagged,
        "n_participants": sum(total.values()),
    }


def admin_routes(app: FastAPI, ctx: Ctx) -> None:
    """Register the admin pages on ``app``."""
    limiter = LoginLimiter()
    app.state.admin_limiter = limiter  # tests turn its clock

    @app.middleware("http")
    async def bearer_limit(request: Request, call_next):
        """A client waiting after failed logins gets 429 for a Bearer token too."""
        if request.url.path.startswith("/admin") and request.headers.get("authorization"):
            wait = limiter.wait(_client(request))
            if wait > 0:
                return PlainTextResponse(f"Too many failed logins: wait {wait:.0f} s.", 429,
                                         headers={"retry-after": str(max(1, round(wait)))})  # fmt: skip
        return await call_next(request)

    @app.get("/admin")
    def admin_home(request: Request):
        csrf = session_of(ctx, request)
        if csrf is None and not _bearer(ctx, request):
            return _login_page(ctx)
        studies = [store.load_study(ctx.db, s) for s in store.list_studies(ctx.db)]
        return ctx.page(
            "admin.html",
            title="Admin",
            csrf=csrf or "",
            rows=[(st, study_summary(ctx, st)) for st in studies],
            problems=sorted(ctx.problems.items()),
        )

    @app.post("/admin/login")
    async def admin_login(request: Request):
        form = await request.form(max_files=0, max_fields=5)
        address = _client(request)
        wait = limiter.wait(address)
        if wait > 0:
            return _login_page(ctx, 429, f"Too many failed logins: wait {wait:.0f} s.", wait)
        nonce = request.cookies.get(COOKIE + "_n", "")
        if not nonce or not same(str(form.get("csrf", "")), login_csrf(ctx.admin_token, nonce)):
            return _login_page(ctx, 403, "This form has expired: log in again.")
        if not same(str(form.get("token", "")), ctx.admin_token):
            limiter.failed(address)
            return _login_page(ctx, 403, "Wrong token.")
        limiter.succeeded(address)
        sid, _ = new_session(ctx.db)
        resp = RedirectResponse("/admin", status_code=303)
        resp.set_cookie(
            COOKIE,
            sid,
            httponly=True,
            samesite="strict",
            secure=ctx.secure,
            path="/admin",
            max_age=SESSION_SECONDS,
        )
        resp.delete_cookie(COOKIE + "_n", path="/admin")
        return resp

    @app.post("/admin/logout")
    async def admin_logout(request: Request):
        form = await request.form(max_files=0, max_fields=5)
        if not _csrf_ok(ctx, request, form):
            return ctx.error("Not allowed.", 403)
        end_session(ctx.db, request.cookies.get(COOKIE, ""))
        resp = RedirectResponse("/admin", status_code=303)
        resp.delete_cookie(COOKIE, path="/admin")
        return resp

    @app.get("/admin/s/{slug}")
    def admin_study(slug: str, request: Request):
        if not is_admin(ctx, request):
            return RedirectResponse("/admin", status_code=303)
        return _study_page(ctx, slug, session_of(ctx, request) or "")

    @app.post("/admin/s/{slug}/measures")
    async def admin_measures(slug: str, request: Request):
        form = await request.form(max_files=0, max_fields=5)
        if not is_admin(ctx, request) or not _csrf_ok(ctx, request, form):
            return ctx.error("Not allowed.", 403)
        return await run_in_threadpool(_compute, ctx, slug)

    @app.get("/admin/s/{slug}/export.zip")
    def admin_export(slug: str, request: Request):
        if not is_admin(ctx, request):
            return ctx.error("Not allowed.", 403)
        return _export_zip(ctx, slug)


def _study_page(ctx: Ctx, slug: str, csrf: str):
    study = store.load_study(ctx.db, slug)
    if study is None:
        return ctx.error("There is no such study.", 404)
    with ctx.db.read() as s:
        parts = list(
            s.scalars(
                select(Participant)
                .where(Participant.study_id == study.id)
                .order_by(Participant.seq.desc())
                .limit(200)
            )
        )
        snap = s.scalar(
            select(Snapshot)
            .where(Snapshot.study_id == study.id)
            .order_by(Snapshot.id.desc())
            .limit(1)
        )
    snapshot = None
    if snap is not None:
        from wordgames.serve.live import display_rows

        content = Snapshot.loads(snap.content)
        rows = display_rows(content.get("rows", []))
        snapshot = {
            "at": snap.created_at,
            "n": snap.n_records,
            "notes": content.get("notes", []),
            "rows": rows,
            "n_thin": sum(r["thin"] for r in rows),
        }
    return ctx.page(
        "admin_study.html",
        title=f"Admin: {slug}",
        study=study,
        summary=study_summary(ctx, study),
        participants=parts,
        plan_len=lambda p: len(store.plan_of(p)),
        snapshot=snapshot,
        csrf=csrf,
    )


def _compute(ctx: Ctx, slug: str):
    from wordgames.serve.live import evaluate_study

    study = store.load_study(ctx.db, slug)
    if study is None:
        return ctx.error("There is no such study.", 404)
    try:
        res = evaluate_study(ctx.db, slug, seed=study.cfg.seed)
    except Exception as exc:  # shown to the admin, never to a participant
        res = {"n_records": 0, "rows": [], "notes": [f"measures failed: {exc!r}"]}
    with ctx.db.write() as s:
        s.add(
            Snapshot(
                study_id=study.id,
                created_at=utcnow(),
                n_records=res["n_records"],
                content=json.dumps({"rows": res["rows"], "notes": res["notes"]}),
            )
        )
    return RedirectResponse(f"/admin/s/{slug}", status_code=303)


def _export_zip(ctx: Ctx, slug: str) -> Response:
    from wordgames.serve.export import export

    if store.load_study(ctx.db, slug) is None:
        return ctx.error("There is no such study.", 404)
    buf = io.BytesIO()
    with tempfile.TemporaryDirectory() as tmp:
        export(ctx.db, tmp, [slug])
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for f in sorted(Path(tmp).iterdir()):
                z.write(f, f.name)
    return Response(
        buf.getvalue(),
        media_type="application/zip",
        headers={"content-disposition": f'attachment; filename="{slug}-export.zip"'},
    )
