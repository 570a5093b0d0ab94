"""The participant's trial pages.

Show the current trial, take an answer or a wiki click, show the sender's feedback, and the
completion page. Called by :mod:`wordgames.serve.app` (in a worker thread: the database calls
block).
"""

from __future__ import annotations

import time

from fastapi import Request
from fastapi.responses import RedirectResponse

from wordgames.serve import store
from wordgames.serve.gamebase import AnswerError
from wordgames.serve.models import Answer
from wordgames.serve.web import Ctx, client_rt, completion_url, cookie_name, form_token, read_token


def _who(ctx: Ctx, slug: str, request: Request):
    """(study, participant, token), or a response to return instead."""
    study = store.load_study(ctx.db, slug)
    if study is None:
        return None, None, None, ctx.error("There is no such study.", 404)
    token = request.cookies.get(cookie_name(slug))
    p = store.find_participant(ctx.db, study, token=token) if token else None
    if p is None:
        return study, None, None, RedirectResponse(f"/s/{slug}/", status_code=303)
    return study, p, token, None


def play_page(
    ctx: Ctx, slug: str, request: Request, *, error: str | None = None, form=None, status: int = 200
):
    """The current trial of the participant (or the completion page)."""
    study, p, token, resp = _who(ctx, slug, request)
    if resp is not None:
        return resp
    plan = store.plan_of(p)
    if p.status != "active" or p.position >= len(plan):
        return done_page(ctx, study, p)
    cond, kind, _, payload = study.items[plan[p.position]]
    game = study.game
    view = {
        "study": study,
        "title": study.cfg.text("title"),
        "game": study.cfg.game,
        "item": game.public(payload),
        "position": p.position,
        "n": len(plan),
        "error": error,
        "form": form or {},
        "ticked": form.getlist("targets") if hasattr(form, "getlist") else [],
    }
    if study.cfg.game == "wiki":
        from wordgames.serve.wiki import links, replay

        state = replay(payload["start"], store.moves_of(ctx.db, p.id, p.position))
        view.update(
            state=state,
            links=links(study.cfg, state.page),
            t=form_token(study, token, p.position, len(state.tokens) - 1),
        )
    else:
        view["t"] = form_token(study, token, p.position)
    if study.cfg.game == "oddmanout-crowd":
        view["n_examples"] = int(study.cfg.oddmanout.get("n_examples", 5))
        view["min_examples"] = int(study.cfg.oddmanout.get("min_examples", 3))
    if study.cfg.game == "oddmanout":
        view["ask_category"] = bool(study.cfg.oddmanout.get("ask_category", True))
    return ctx.page(f"trial_{study.cfg.game.replace('-', '_')}.html", status, **view)


def done_page(ctx: Ctx, study, p):
    """The completion page (code, link to the platform), or the ended page."""
    if p.status == "ended":
        return ctx.page("ended.html", study=study, title=study.cfg.text("title"))
    return ctx.page(
        "done.html",
        study=study,
        title=study.cfg.text("title"),
        code=study.cfg.completion_code,
        url=completion_url(study),
    )


def submit_answer(ctx: Ctx, slug: str, request: Request, form):
    """POST of a trial form: check, store (one transaction), then redirect to the next page."""
    study, p, token, resp = _who(ctx, slug, request)
    if resp is not None:
        return (
            resp
            if p is not None or study is None
            else ctx.error("Your session was not found: open the study link again.", 403)
        )
    try:
        position, seq, served, idem = read_token(study, token, str(form.get("t", "")))
    except AnswerError as exc:
        return ctx.error(str(exc), 400)
    if position != p.position or p.status != "active":
        return RedirectResponse(f"/s/{slug}/play", status_code=303)  # already answered
    plan = store.plan_of(p)
    cond, kind, _, payload = study.items[plan[position]]
    try:
        answer = study.game.check(study.cfg, payload, form)
    except AnswerError as exc:
        return play_page(ctx, slug, request, error=str(exc), form=form, status=422)
    if study.cfg.game == "wiki":
        from wordgames.serve.wiki import finished_answer, replay

        state = replay(payload["start"], store.moves_of(ctx.db, p.id, position))
        answer = finished_answer(payload, state, success=False, why="restart")
    outcome = study.game.outcome(study.cfg, payload, answer, cond, kind)
    rt = max(0, int(time.time() * 1000) - served)
    result = store.record_answer(
        ctx.db, study, p.id, position, idem, answer, outcome, rt, client_rt(form.get("crt"))
    )
    if result == "stored" and "feedback" in outcome:
        return RedirectResponse(f"/s/{slug}/feedback/{position}", status_code=303)
    return RedirectResponse(f"/s/{slug}/play", status_code=303)


def submit_move(ctx: Ctx, slug: str, request: Request, form):
    """POST of a wiki click: a link, or ``<`` (back).

    Reaching the target or using up ``max_clicks`` ends the navigation (the click and the answer
    in one transaction).
    """
    from wordgames.serve.wiki import check_move, finished_answer, replay

    study, p, token, resp = _who(ctx, slug, request)
    if resp is not None:
        return (
            resp
            if p is not None or study is None
            else ctx.error("Your session was not found: open the study link again.", 403)
        )
    try:
        position, seq, served, idem = read_token(study, token, str(form.get("t", "")))
    except AnswerError as exc:
        return ctx.error(str(exc), 400)
    moves = store.moves_of(ctx.db, p.id, position)
    if position != p.position or p.status != "active" or seq != len(moves):
        return RedirectResponse(f"/s/{slug}/play", status_code=303)  # a double click
    cond, kind, _, payload = study.items[store.plan_of(p)[position]]
    state = replay(payload["start"], moves)
    try:
        page, back = check_move(study.cfg, payload, state, str(form.get("to", ""))[:301])
    except AnswerError as exc:
        return play_page(ctx, slug, request, error=str(exc), status=422)
    rt = max(0, int(time.time() * 1000) - served)
    move = {"seq": seq, "page": page, "back": back, "rt_ms": rt}
    new = replay(payload["start"], [*moves, _M(page, back, rt)])
    max_clicks = int(study.cfg.wiki.get("max_clicks", 30))
    if page == payload["target"] or new.clicks >= max_clicks:
        success = page == payload["target"]
        answer = finished_answer(
            payload, new, success=success, why="target" if success else "timeout"
        )
        outcome = study.game.outcome(study.cfg, payload, answer, cond, kind)
        store.record_answer(
            ctx.db,
            study,
            p.id,
            position,
            idem,
            answer,
            outcome,
            new.rt_ms,
            client_rt(form.get("crt")),
            moves=[move],
        )
    else:
        store.record_move(ctx.db, p.id, position, **move)
    return RedirectResponse(f"/s/{slug}/play", status_code=303)


class _M:
    def __init__(self, page, back, rt_ms):
        self.page, self.back, self.rt_ms = page, back, rt_ms


def feedback_page(ctx: Ctx, slug: str, position: int, request: Request):
    """What the agent receiver guessed for the participant's clue."""
    study, p, token, resp = _who(ctx, slug, request)
    if resp is not None:
        return resp
    if not 0 <= position < 2**31:  # the database's integers: a larger one is no trial of ours
        return RedirectResponse(f"/s/{slug}/play", status_code=303)
    a = store.answer_at(ctx.db, p.id, position)
    if a is None:
        return RedirectResponse(f"/s/{slug}/play", status_code=303)
    outcome = Answer.loads(a.outcome)
    fb = outcome.get("feedback")
    if not fb:
        return RedirectResponse(f"/s/{slug}/play", status_code=303)
    answer = Answer.loads(a.payload)
    if fb.get("reveal"):
        return ctx.page(
            "reveal.html",
            study=study,
            title=study.cfg.text("title"),
            picks=list(zip(fb["chosen"], fb["right"], strict=True)),
            n_right=sum(bool(r) for r in fb["right"]),
            targets=fb["targets"],
        )
    pairs = list(zip(fb["guess"], fb["colours"], strict=True))
    return ctx.page(
        "feedback.html",
        study=study,
        title=study.cfg.text("title"),
        answer=answer,
        pairs=pairs,
        n_blue=sum(c == "blue" for _, c in pairs),
    )
