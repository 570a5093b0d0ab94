"""The admin pages, behind a token.

Studies, participants, progress, completion, the live measures (:mod:`wordgames.serve.live`,
computed on demand and kept in ``wg_snapshot``) and the export as a zip.

Log in with the token (a form: the token is compared in constant time; the session cookie is
an HMAC of the token) or send ``Authorization: Bearer TOKEN`` (scripts).
"""

from __future__ import annotations

import hmac
import io
import json
import tempfile
import zipfile
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy import func, select
from starlette.concurrency import run_in_threadpool

from wordgames.serve import store
from wordgames.serve.models import Answer, Participant, Snapshot, utcnow
from wordgames.serve.web import Ctx, admin_session_value

COOKIE = "wg_admin"


def is_admin(ctx: Ctx, request: Request) -> bool:
    """Bearer token or session cookie, compared in constant time."""
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return hmac.compare_digest(auth[7:].strip().encode(), ctx.admin_token.encode())
    cookie = request.cookies.get(COOKIE, "")
    return bool(cookie) and hmac.compare_digest(
        cookie.encode(), admin_session_value(ctx.admin_token).encode()
    )


def admin_csrf(ctx: Ctx) -> str:
    """The CSRF token of the admin forms."""
    return admin_session_value(ctx.admin_token + ":csrf")


def _csrf_ok(ctx: Ctx, request: Request, form) -> bool:
    if request.headers.get("authorization", "").lower().startswith("bearer "):
        return True
    return hmac.compare_digest(str(form.get("csrf", "")).encode(), admin_csrf(ctx).encode())


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

    @app.get("/admin")
    def admin_home(request: Request):
        if not is_admin(ctx, request):
            return ctx.page("admin_login.html", title="Admin")
        studies = [store.load_study(ctx.db, s) for s in store.list_studies(ctx.db)]
        return ctx.page(
            "admin.html",
            title="Admin",
            csrf=admin_csrf(ctx),
            rows=[(st, study_summary(ctx, st)) for st in studies],
        )

    @app.post("/admin/login")
    async def admin_login(request: Request):
        form = await request.form(max_files=0, max_fields=5)
        given = str(form.get("token", ""))
        if not hmac.compare_digest(given.encode(), ctx.admin_token.encode()):
            return ctx.page("admin_login.html", 403, title="Admin", error="Wrong token.")
        resp = RedirectResponse("/admin", status_code=303)
        resp.set_cookie(
            COOKIE,
            admin_session_value(ctx.admin_token),
            httponly=True,
            samesite="strict",
            secure=ctx.secure,
            path="/admin",
            max_age=12 * 3600,
        )
        return resp

    @app.get("/admin/s/{slug}")
    def admin_study(slug: str, request: Request):
        if not is_admin(ctx, request):
            return RedirectResponse("/admin", status_code=303)
        return _study_page(ctx, slug)

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


def _study_page(ctx: Ctx, slug: str):
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
        csrf=admin_csrf(ctx),
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
