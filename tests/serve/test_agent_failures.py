"""Issue 38: a study's agent failing stops neither the app nor the other studies; every way
the admin token is tried goes through one limiter."""

from __future__ import annotations

import pytest

from tests.serve.conftest import ADMIN
from tests.serve.helpers import admin_login, study_dicts
from wordgames.serve.adminauth import FREE_FAILURES


def _app(tmp_path, inputs, dicts):
    from fastapi.testclient import TestClient

    from wordgames.serve.app import create_app
    from wordgames.serve.config import study_from_dict
    from wordgames.serve.db import Database, migrate
    from wordgames.serve.store import init_study

    url = f"sqlite:///{tmp_path / 'serve.sqlite'}"
    db = Database(url)
    migrate(db)
    for d in dicts:
        init_study(db, study_from_dict(d))
    db.dispose()
    app = create_app(url, ADMIN)
    return app, TestClient(app, base_url="http://127.0.0.1")


def test_a_feedback_model_with_unreadable_answers_leaves_the_app_and_other_studies_up(
    tmp_path, inputs, fresh
):
    """Before: create_app raised the warm-up's AnswerError and no study was served."""
    pytest.importorskip("openai", reason="the llm extra (openai) is not installed")
    from tests.llm.misbehaving_server import MisbehavingServer

    dicts = {d["slug"]: d for d in study_dicts(inputs)}
    send, omo = dicts["cn-send"], dicts["omo"]
    with MisbehavingServer("ok", answer="I would rather not say.") as srv:
        send["codenames"] = {**send["codenames"], "feedback_agents": ["chat:m"],
                             "base_url": srv.base_url}  # fmt: skip
        app, client = _app(tmp_path, inputs, [send, omo])
        assert srv.posts >= 1  # the warm-up asked the model
    assert "cn-send" in app.state.ctx.problems and "omo" not in app.state.ctx.problems
    assert client.get("/s/omo/").status_code == 200  # the other study is served
    assert client.get("/s/cn-send/").status_code == 200  # and this one too
    assert admin_login(client, ADMIN).status_code == 200
    page = client.get("/admin").text
    assert 'id="problems"' in page and "cn-send" in page


def test_wrong_bearer_tokens_are_limited_like_wrong_logins(tmp_path, inputs):
    """Before: 600 wrong ``Authorization: Bearer`` tokens went through with no 429."""
    dicts = {d["slug"]: d for d in study_dicts(inputs)}
    app, client = _app(tmp_path, inputs, [dicts["omo"]])
    limiter = app.state.admin_limiter
    now = [1000.0]
    limiter.clock = lambda: now[0]
    wrong = {"Authorization": "Bearer not-the-admin-token-at-all"}
    for _ in range(FREE_FAILURES + 1):
        assert client.get("/admin/s/omo", headers=wrong, follow_redirects=False).status_code != 429
    r = client.get("/admin/s/omo", headers=wrong, follow_redirects=False)
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    right = {"Authorization": f"Bearer {ADMIN}"}
    assert (
        client.get("/admin/s/omo", headers=right, follow_redirects=False).status_code == 429
    )  # even the right one
    assert admin_login(client, ADMIN).status_code == 429  # the form shares the wait
    now[0] += 1.01
    assert client.get("/admin/s/omo", headers=right, follow_redirects=False).status_code == 200
    assert limiter.wait("testclient") == 0  # a success clears the count
