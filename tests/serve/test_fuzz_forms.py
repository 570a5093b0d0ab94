"""Issue 22: every form of the web app, fuzzed through the test client (hypothesis, bounded and
reproducible). Whatever a browser sends in any field of any POST (control characters, Unicode
digits, thousands of digits, huge numbers, markup, empty or missing fields), the answer is a
page or a redirect, never HTTP 500, and nothing unchecked is stored.

CI runs 200 examples; the long campaign sets ``WORDGAMES_FUZZ_EXAMPLES`` (e.g. 10000)."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from tests.serve.conftest import ADMIN
from tests.serve.helpers import Player, hidden

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is in the 'test' extra")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

EXAMPLES = int(os.environ.get("WORDGAMES_FUZZ_EXAMPLES", "200"))
OUTCOMES: Counter = Counter()  # (form, status class) -> requests

#: the fields each form reads (the answer forms of every game, the wiki move, consent, login)
FORMS = {
    ("cn-recv", "answer"): ["pick1", "pick2", "pick3"],
    ("cn-send", "answer"): ["clue", "number", "targets"],
    ("omo", "answer"): ["choice", "category"],
    ("crowd", "answer"): ["ex1", "ex2", "ex3", "ex4", "ex5"],
    ("wiki", "move"): ["to", "back", "give_up"],
    ("omo", "consent"): ["csrf", "pid", "sid", "ses", "consent"],
    ("admin", "login"): ["token", "csrf"],
}
NASTY = [
    "", " ", "²", "٣", "9" * 5000, str(2**63), "-1", "0", "1", "3", "1e9", "nan", "\x00",
    "a\u2028b", "\x1b[31m", "\u202eabc", "<script>x</script>", "' OR 1=1 --", "é" * 300,
    "zebra", "cat", "__none__", "yes", "\ud800".encode("utf-8", "surrogatepass").decode("latin-1"),
]  # fmt: skip
VALUES = st.one_of(st.sampled_from(NASTY), st.text(max_size=60))


@pytest.fixture(scope="module")
def clients(tmp_path_factory, inputs):
    from fastapi.testclient import TestClient

    from tests.serve.helpers import study_dicts
    from wordgames.serve.app import create_app
    from wordgames.serve.config import study_from_dict
    from wordgames.serve.db import Database, migrate
    from wordgames.serve.store import init_study

    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'f.db'}"
    db = Database(url)
    migrate(db)
    for d in study_dicts(inputs):
        init_study(db, study_from_dict(d))
    db.dispose()
    app = create_app(url, ADMIN)
    players = {}
    for slug in {s for s, _ in FORMS if s != "admin"}:
        pl = Player(TestClient(app, base_url="http://127.0.0.1"), slug)
        players[slug] = (pl, pl.start())
    yield players, TestClient(app, base_url="http://127.0.0.1")
    app.state.ctx.db.dispose()


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(form=st.sampled_from(sorted(FORMS)), data=st.data())
def _fuzz(clients, form, data):
    players, admin = clients
    slug, path = form
    fields = {f: data.draw(VALUES) for f in FORMS[form] if data.draw(st.booleans())}
    if slug == "admin":
        r = admin.post("/admin/login", data=fields, follow_redirects=False)
    else:
        pl, page = players[slug]
        token = hidden(page, "t") if data.draw(st.booleans()) else data.draw(VALUES)
        if path != "consent":
            fields["t"] = token
        r = pl.c.post(f"/s/{slug}/{path}", data=fields, follow_redirects=False)
    assert r.status_code < 500, (form, fields, r.status_code)
    OUTCOMES["/".join(form), f"{r.status_code // 100}xx"] += 1


@pytest.mark.slow
def test_no_form_field_gives_a_server_error(clients):
    _fuzz(clients)
    for form in sorted({f for f, _ in OUTCOMES}):  # shown with pytest -s
        print(form, {k: n for (f, k), n in sorted(OUTCOMES.items()) if f == form})
    assert sum(OUTCOMES.values()) >= EXAMPLES and {k for _, k in OUTCOMES} >= {"4xx"}
    # after all that, a valid answer still goes through: the fuzzing left nothing broken
    _, fresh = clients  # a browser without a participant cookie: a new participant
    pl = Player(fresh, "omo")
    page = pl.start()
    r = pl.post("answer", {"choice": "__none__"}, page, follow=False)
    assert r.status_code == 303, r.status_code
