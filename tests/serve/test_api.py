"""The web app through its HTTP interface, on SQLite and on a throwaway PostgreSQL: every game
to the completion code, validation, idempotency, CSRF, limits, resume, assignment, admin."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import func, select, text

from tests.serve.conftest import ADMIN
from tests.serve.helpers import (
    Player,
    admin_login,
    board_words,
    clue_of,
    current_page,
    graph_next,
    hidden,
    links,
    play_to_end,
    sender_board,
    target,
)
from wordgames.serve.db import Database
from wordgames.serve.models import Answer, Move, Participant

GAMES = {
    "cn-recv": "codenames-receiver",
    "cn-send": "codenames-sender",
    "wiki": "wiki",
    "omo": "oddmanout",
    "crowd": "oddmanout-crowd",
}


def rows(url: str, model, **where) -> list:
    db = Database(url)
    try:
        with db.read() as s:
            q = select(model)
            for k, v in where.items():
                q = q.where(getattr(model, k) == v)
            return list(s.scalars(q))
    finally:
        db.dispose()


def test_health(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo"])
    r = client().get("/health")
    assert r.status_code == 200 and r.json()["status"] == "ok"
    assert r.json()["database"] == ("sqlite" if db_url.startswith("sqlite") else "postgresql")


@pytest.mark.slow
@pytest.mark.parametrize("slug", list(GAMES))
def test_each_game_to_completion_code(app_for, db_url, slug):
    app, client = app_for(db_url, slugs=[slug])
    study = app.state.ctx.db
    pl = Player(client(), slug, pid=f"PID{slug}")
    end = play_to_end(pl, GAMES[slug], pl.start())
    code = {
        "cn-recv": "RECV1",
        "cn-send": "SEND1",
        "wiki": "WIKI1",
        "omo": "OMO1",
        "crowd": "CROWD1",
    }[slug]
    assert f'<strong id="code">{code}</strong>' in end
    (p,) = rows(db_url, Participant)
    answers = rows(db_url, Answer)
    plan = json.loads(p.plan)
    assert p.status == "completed" and p.position == len(plan) == len(answers)
    assert sorted(a.position for a in answers) == list(range(len(plan)))
    assert p.attention_failed == 0 and p.source == "prolific"
    kinds = [a.kind for a in sorted(answers, key=lambda a: a.position)]
    n_att = {"cn-recv": 1, "cn-send": 1, "wiki": 0, "omo": 1, "crowd": 1}[slug]
    assert kinds.count("attention") == n_att and kinds.count("trial") == len(plan) - n_att
    assert all(a.rt_ms >= 0 for a in answers)
    assert study is not None


def test_wiki_moves_back_and_give_up(app_for, db_url):
    _, client = app_for(db_url, slugs=["wiki"])
    pl = Player(client(), "wiki")
    page = pl.start()
    start, goal = current_page(page), target(page)
    wrong = next(x for x in links(page) if x != graph_next(start, goal))
    page = pl.post("move", {"to": wrong}, page).text
    assert current_page(page) == wrong and 'id="clicks">1<' in page
    # a double click on the same link: the second carries the same move number -> ignored
    stale = page
    page = pl.post("move", {"to": "<"}, page).text
    assert current_page(page) == start
    assert pl.post("move", {"to": "<"}, stale).status_code == 200
    assert len(rows(db_url, Move)) == 2
    # a link that is not on the page is refused, clearly
    r = pl.post("move", {"to": "Nowhere"}, page)
    assert r.status_code == 422 and "not a link on this page" in r.text
    r = pl.post("answer", {"action": "giveup"}, page)
    (a,) = rows(db_url, Answer)
    d = json.loads(a.payload)
    assert d["path"] == [start, wrong, "<"] and d["n_back"] == 1 and d["success"] is False
    assert d["end"] == "restart" and d["target"] == goal
    assert current_page(r.text) != start or target(r.text) != goal  # the next round


def test_wiki_reaching_target_stores_path(app_for, db_url):
    _, client = app_for(db_url, slugs=["wiki"])
    pl = Player(client(), "wiki")
    page = pl.start()
    start, goal = current_page(page), target(page)
    path = [start]
    while current_page(page) == path[-1] and path[-1] != goal:
        nxt = graph_next(path[-1], goal)
        page = pl.post("move", {"to": nxt}, page).text
        path.append(nxt)
        if nxt == goal:
            break
    (a,) = rows(db_url, Answer)
    d = json.loads(a.payload)
    assert d["path"] == path and d["success"] is True and d["end"] == "target"
    assert len(rows(db_url, Move)) == len(path) - 1


@pytest.mark.parametrize(
    "data, message",
    [
        ({"pick1": "not-a-board-word", "pick2": ""}, "please pick 2 word"),
        ({"pick1": "zzz", "pick2": "yyy"}, "must be a word on the board"),
        ({"pick1": "x" * 300}, "too long"),
    ],
)
@pytest.mark.slow
def test_receiver_validation(app_for, db_url, data, message):
    _, client = app_for(db_url, slugs=["cn-recv"])
    pl = Player(client(), "cn-recv")
    page = pl.start()
    r = pl.post("answer", data, page)
    assert r.status_code == 422 and message in r.text
    assert rows(db_url, Answer) == []
    words = board_words(page)
    _, n = clue_of(page)
    r = pl.post("answer", {f"pick{i + 1}": words[0] for i in range(n)}, page)
    assert (r.status_code, "only once" in r.text) == ((422, True) if n > 1 else (200, False))


def test_sender_clue_rules(app_for, db_url):
    _, client = app_for(db_url, slugs=["cn-send"])
    pl = Player(client(), "cn-send")
    page = pl.start()
    blue, red = sender_board(page)
    base = {"number": "1", "targets": [blue[0]]}
    cases = [
        ({"clue": blue[0]}, "is not allowed"),
        ({"clue": red[0] + "s"}, "is not allowed"),  # shares a stem (rule on)
        ({"clue": "two words"}, "single word"),
        ({"clue": "<b>x</b>"}, "letters, and ' or - inside it, only"),
        ({"clue": "qzxwvkj"}, "we do not know the word"),
        ({"clue": ""}, "please fill in"),
        ({"clue": "zebra", "number": "2"}, "tick exactly 2"),
        ({"clue": "zebra", "targets": [red[0]]}, "must be blue words"),
        ({"clue": "zebra", "number": "9"}, "the number must be between"),
    ]
    for extra, message in cases:
        r = pl.post("answer", {**base, **extra}, page)
        assert r.status_code == 422 and message.replace("'", "&#39;") in r.text, extra
        assert "<b>x</b>" not in r.text  # what the person typed comes back escaped
    assert rows(db_url, Answer) == []
    # the form comes back as it was sent
    assert re.search(rf'value="{blue[0]}" id="t-\d+" checked', r.text)
    assert all(not re.search(rf'value="{w}" id="t-\d+" checked', r.text) for w in blue[1:])
    r = pl.post("answer", {**base, "clue": "Zebra"}, page)
    assert 'id="guesses"' in r.text  # the agent's feedback
    (a,) = rows(db_url, Answer)
    assert json.loads(a.payload) == {"clue": "zebra", "number": 1, "targets": [blue[0]]}
    fb = json.loads(a.outcome)["feedback"]
    assert fb["agent"] == "nearest" and len(fb["guess"]) == 1 and fb["guess"][0] in blue + red


def test_oddmanout_and_crowd_validation(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo", "crowd"])
    c = client()
    omo = Player(c, "omo")
    page = omo.start()
    r = omo.post("answer", {"choice": "somethingelse"}, page)
    assert r.status_code == 422 and "pick one of the words" in r.text
    crowd = Player(c, "crowd")
    page = crowd.start()
    seed = re.search(r'id="seed">([^<]*)<', page).group(1)
    for data, message in [
        ({"ex1": "owl", "ex2": "owl", "ex3": "fox"}, "only once"),
        ({"ex1": "owl", "ex2": "<script>", "ex3": "fox"}, "use letters only"),
        ({"ex1": "owl", "ex2": "fox"}, "at least 3"),
        ({"ex1": seed, "ex2": "owl", "ex3": "fox"}, "must differ"),
    ]:
        r = crowd.post("answer", data, page)
        assert r.status_code == 422 and message in r.text
        assert "<script>" not in r.text  # what the person typed is escaped when shown again
    assert rows(db_url, Answer) == []


def test_double_submit_and_retry_store_one_row(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo"])
    pl = Player(client(), "omo")
    page = pl.start()
    from tests.serve.helpers import good_answer

    _, data = good_answer("oddmanout", page)
    first = pl.post("answer", data, page, follow=False)
    again = pl.post("answer", data, page, follow=False)  # the same form, sent twice
    assert first.status_code == again.status_code == 303
    assert len(rows(db_url, Answer)) == 1
    (p,) = rows(db_url, Participant)
    assert p.position == 1
    # a form of an earlier trial sent later (another tab) changes nothing either
    later = pl.play()
    _, data2 = good_answer("oddmanout", later)
    pl.post("answer", data2, page)
    assert len(rows(db_url, Answer)) == 1


def test_csrf_cookie_and_token_checks(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo"])
    c = client()
    r = c.post("/s/omo/consent", data={"consent": "yes", "csrf": "forged"})
    assert r.status_code == 403 and rows(db_url, Participant) == []
    pl = Player(c, "omo")
    page = pl.start()
    token = hidden(page, "t")
    forged = token.rsplit(".", 1)[0] + ".0123456789abcdef0123456789abcdef"
    r = c.post("/s/omo/answer", data={"t": forged, "choice": "__none__"})
    assert r.status_code == 400 and "not valid" in r.text
    other = client()  # no participant cookie: a form replayed from elsewhere
    r = other.post("/s/omo/answer", data={"t": token, "choice": "__none__"})
    assert r.status_code == 403
    assert rows(db_url, Answer) == []


def test_request_size_limit(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo"])
    r = client().post(
        "/s/omo/answer",
        content=b"x" * 200_000,
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 413


def test_resume_after_closing_the_tab_and_on_another_browser(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo"])
    from tests.serve.helpers import good_answer

    first = Player(client(), "omo", pid="5f3a9c0e1d2b4a6f8e7d9c01")
    page = first.start()
    for _ in range(2):
        _, data = good_answer("oddmanout", page)
        page = first.post("answer", data, page).text
    assert "Round 3 of" in page
    again = first.play()  # same browser, tab closed and reopened
    assert "Round 3 of" in again and hidden(again, "t") != hidden(page, "t")
    other = Player(client(), "omo", pid="5f3a9c0e1d2b4a6f8e7d9c01")  # new browser, same PID
    assert "Round 3 of" in other.start()
    assert len(rows(db_url, Participant)) == 1 and len(rows(db_url, Answer)) == 2
    # the old browser's cookie no longer works: one browser per participant at a time
    assert first.c.get("/s/omo/play", follow_redirects=False).status_code == 303


def _two_answers(player: Player) -> str:
    from tests.serve.helpers import good_answer

    page = player.start()
    for _ in range(2):
        _, data = good_answer("oddmanout", page)
        page = player.post("answer", data, page).text
    assert "Round 3 of" in page
    return page


def test_known_pid_in_another_session_does_not_take_over(app_for, db_url):
    """Knowing a participant's PROLIFIC_PID is not enough: without their cookie or their
    SESSION_ID the link shows the started-elsewhere page, and their session stays theirs."""
    _, client = app_for(db_url, slugs=["omo"])
    pid = "5f3a9c0e1d2b4a6f8e7d9c02"
    owner = Player(client(), "omo", pid=pid, session="ownsession1")
    page = _two_answers(owner)
    (before,) = rows(db_url, Participant)
    for link in (
        f"/s/omo/?PROLIFIC_PID={pid}&STUDY_ID=st1&SESSION_ID=othersession",
        f"/s/omo/?PROLIFIC_PID={pid}&STUDY_ID=st1",  # no session id at all
        f"/s/omo/?PROLIFIC_PID={pid}&STUDY_ID=st1&SESSION_ID=ownsession1x",
    ):
        intruder = client()
        r = intruder.get(link, follow_redirects=True)
        assert r.status_code == 409 and 'id="started-elsewhere"' in r.text, link
        assert "already started in another session" in r.text and "Prolific" in r.text
        assert 'name="t"' not in r.text and "Round" not in r.text  # no trial shown
        assert "wg_omo" not in intruder.cookies
        r = intruder.get("/s/omo/play", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/s/omo/"
    # nor by sending the consent form with that PID (a form from a landing without one)
    intruder = client()
    form = intruder.get("/s/omo/").text
    r = intruder.post(
        "/s/omo/consent",
        data={
            "csrf": hidden(form, "csrf"),
            "pid": pid,
            "sid": "st1",
            "ses": "x9",
            "consent": "yes",
        },
        follow_redirects=False,
    )
    assert r.status_code == 409 and 'id="started-elsewhere"' in r.text
    assert "wg_omo" not in intruder.cookies
    # the owner's session is untouched: same token, same trial, nothing new stored
    (after,) = rows(db_url, Participant)
    assert after.token_hash == before.token_hash and after.position == 2
    assert len(rows(db_url, Answer)) == 2
    again = owner.play()
    assert "Round 3 of" in again and hidden(again, "t").split(".")[0] == "2"
    assert hidden(page, "t").split(".")[0] == "2"


def test_lost_cookie_resumes_with_the_same_prolific_link(app_for, db_url):
    """A participant whose cookie is gone reopens the link Prolific gave them (same PID and
    SESSION_ID): they resume at the same trial, and the old cookie stops working."""
    from tests.serve.helpers import good_answer

    _, client = app_for(db_url, slugs=["omo"])
    first = Player(client(), "omo", pid="5f3a9c0e1d2b4a6f8e7d9c03", session="attempt7")
    _two_answers(first)
    back = Player(client(), "omo", pid=first.pid, session="attempt7")  # no cookie
    r = back.c.get(back.link(), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/s/omo/play"
    page = back.play()
    assert "Round 3 of" in page and hidden(page, "t").split(".")[0] == "2"
    _, data = good_answer("oddmanout", page)
    assert "Round 4 of" in back.post("answer", data, page).text
    (p,) = rows(db_url, Participant)
    assert p.position == 3 and len(rows(db_url, Answer)) == 3
    assert first.c.get("/s/omo/play", follow_redirects=False).status_code == 303


def test_a_cookie_of_another_participant_is_not_resumed(app_for, db_url):
    """A shared computer: the cookie of A does not hand A's session to B, who opens the link
    with their own PID; B starts their own."""
    _, client = app_for(db_url, slugs=["omo"])
    c = client()
    _two_answers(Player(c, "omo", pid="PIDA0001", session="sa"))
    r = c.get("/s/omo/?PROLIFIC_PID=PIDB0002&STUDY_ID=st1&SESSION_ID=sb", follow_redirects=True)
    assert r.status_code == 200 and 'name="consent"' in r.text and "Round" not in r.text
    page = Player(c, "omo", pid="PIDB0002", session="sb").start()
    assert "Round 1 of" in page
    assert sorted(p.position for p in rows(db_url, Participant)) == [0, 2]


@pytest.mark.slow
def test_consent_race_hands_over_only_in_the_same_session(app_for, db_url):
    """Two consents with one PID at once: the second gets the first's participant only with
    the same SESSION_ID (a second tab), else :class:`StartedElsewhere`."""
    from wordgames.serve import store

    app, _ = app_for(db_url, slugs=["omo"])
    db = app.state.ctx.db
    study = store.load_study(db, "omo")
    p, token = store.create_participant(
        db, study, pid="RACE0001", platform_study="st1", session="s1"
    )
    q, token2 = store.create_participant(
        db, study, pid="RACE0001", platform_study="st1", session="s1"
    )
    assert q.id == p.id and token2 != token
    with pytest.raises(store.StartedElsewhere):
        store.create_participant(db, study, pid="RACE0001", platform_study="st1", session="s2")
    with pytest.raises(store.StartedElsewhere):
        store.create_participant(db, study, pid="RACE0001", platform_study="st1", session=None)
    (row,) = rows(db_url, Participant)
    assert row.token_hash == store.sha(token2)  # the refused attempts changed nothing


def test_balanced_assignment_and_hashed_ids(app_for, db_url):
    _, client = app_for(db_url, slugs=["cn-recv"])
    pids = [f"PROLIFIC{i:04d}" for i in range(6)]
    for pid in pids:
        Player(client(), "cn-recv", pid=pid).start()
    parts = rows(db_url, Participant)
    assert sorted(p.seq for p in parts) == list(range(6))
    conds = [p.condition for p in sorted(parts, key=lambda p: p.seq)]
    assert conds == ["cluster", "exhaustive:avg_blue_dist"] * 3
    db = Database(db_url)
    try:
        with db.read() as s:
            dump = json.dumps(
                [
                    list(map(str, r))
                    for t in ("wg_participant", "wg_answer")
                    for r in s.execute(text(f"SELECT * FROM {t}"))
                ]
            )
    finally:
        db.dispose()
    assert not any(pid in dump for pid in pids)  # only salted hashes are stored
    assert all(p.platform_study == "st1" and len(p.pid_hash) == 64 for p in parts)


def test_failed_attention_check_ends_or_flags(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo", "cn-recv"])
    pl = Player(client(), "omo")  # attention check first, action "end"
    page = pl.start()
    assert "table" in page
    r = pl.post("answer", {"choice": "__none__"}, page)
    assert 'id="ended"' in r.text and 'id="code"' not in r.text
    (p,) = rows(db_url, Participant, status="ended")
    assert p.attention_failed == 1
    flagged = Player(client(), "cn-recv")  # action "flag": goes on, flagged
    page = flagged.start()
    from tests.serve.helpers import good_answer

    _, data = good_answer("codenames-receiver", page)
    page = flagged.post("answer", data, page).text
    clue, n = clue_of(page)
    assert clue == "animal"
    bad = [
        w
        for w in board_words(page)
        if w not in ("dog", "cat", "horse", "cow", "sheep", "lion", "tiger", "rabbit")
    ][:n]
    page = flagged.post("answer", {f"pick{i + 1}": w for i, w in enumerate(bad)}, page).text
    assert "Round 3 of" in page
    (q,) = rows(db_url, Participant, condition="cluster")
    assert q.attention_failed == 1 and q.status == "active"


def test_user_text_is_escaped(app_for, db_url):
    _, client = app_for(db_url, slugs=["cn-recv"])
    page = Player(client(), "cn-recv").start()
    assert "Guess &lt;b&gt;the&lt;/b&gt; clue" in page and "<b>the</b>" not in page
    r = client().get("/s/cn-recv/?PROLIFIC_PID=<script>")
    assert r.status_code == 400 and "<script>" not in r.text


def test_security_headers_and_unknown_study(app_for, db_url):
    _, client = app_for(db_url, slugs=["omo"])
    c = client()
    r = c.get("/s/omo/")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer" and r.headers["x-frame-options"] == "DENY"
    assert c.get("/s/nope/").status_code == 404
    assert c.get("/s/omo/play", follow_redirects=False).status_code == 303  # no participant yet


@pytest.mark.slow
def test_admin_token_pages_measures_and_export(app_for, db_url):
    import io
    import zipfile

    _, client = app_for(db_url, slugs=["omo"])
    c = client()
    assert 'id="token"' in c.get("/admin").text  # the login form, nothing else
    assert c.get("/admin/s/omo/export.zip").status_code == 403
    assert admin_login(c, ADMIN[:-1] + "x").status_code == 403
    pl = Player(client(), "omo")
    play_to_end(pl, "oddmanout", pl.start())
    r = admin_login(c, ADMIN)
    assert 'id="studies"' in r.text and ">omo<" in r.text
    page = c.get("/admin/s/omo").text
    assert 'id="participants"' in page and "completed" in page
    assert c.post("/admin/s/omo/measures", data={"csrf": "wrong"}).status_code == 403
    r = c.post("/admin/s/omo/measures", data={"csrf": hidden(page, "csrf")}, follow_redirects=True)
    assert 'id="measures"' in r.text and "pct_correct" in r.text and ">people<" in r.text
    z = zipfile.ZipFile(io.BytesIO(c.get("/admin/s/omo/export.zip").content))
    assert {"oddmanout_answers.jsonl", "participants.tsv", "manifest.json"} <= set(z.namelist())
    bearer = client().get("/admin/s/omo", headers={"authorization": f"Bearer {ADMIN}"})
    assert 'id="participants"' in bearer.text
    assert rows(db_url, Answer) and func  # noqa: B018 (rows exist)


def _measure_table(page: str) -> list[tuple[bool, list[str]]]:
    """The admin page's live measures: (greyed as thin, cells) per row."""
    import html

    table = re.search(r'<table [^>]*id="measures">(.*?)</table>', page, re.S).group(1)
    body = re.search(r"<tbody>(.*?)</tbody>", table, re.S).group(1)
    return [
        (bool(thin), [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", cells)])
        for thin, cells in re.findall(r'<tr( class="thin")?>(.*?)</tr>', body, re.S)
    ]


@pytest.mark.slow
def test_admin_measures_mark_thin_scores(app_for, db_url):
    """Scores on 3 answers are greyed and say why they are not ranked, with n and coverage."""
    _, client = app_for(db_url, slugs=["omo"])
    pl = Player(client(), "omo")
    play_to_end(pl, "oddmanout", pl.start())  # 3 puzzles answered: every score is thin
    c = client()
    admin_login(c, ADMIN)
    page = c.get("/admin/s/omo").text
    assert 'id="thin-legend"' not in page  # nothing computed yet
    page = c.post(
        "/admin/s/omo/measures", data={"csrf": hidden(page, "csrf")}, follow_redirects=True
    ).text
    table = _measure_table(page)
    people = [cells for thin, cells in table if cells[0] == "people"]
    # %C, %W, %A, accuracy when answering, and the share of unreadable answers (none: clicks)
    assert len(people) == 5 and len(table) > 5 and 'id="thin-legend"' in page
    assert [c[3] for c in people if c[3] == "format_failures"] == ["format_failures"]
    for thin, cells in table:  # columns: ... value, CI, n, coverage, note
        assert thin and cells[6] == "3" and cells[8] == "thin: n = 3 is below 30, not ranked"
    assert all(cells[7] == "100%" for cells in people)
    pct = {cells[3]: cells for cells in people}["pct_correct"]
    assert pct[4] == "100" and pct[5] == "100 – 100"  # a bootstrap interval inside [0, 100]


_BASE = {"embedding": "glove", "measure": "codenames", "dataset": "collected"}
STORED_SCORES = [  # large and small values, and a row stored before rows carried thinness
    {
        **_BASE,
        "subject": "cluster",
        "metric": "clue_rank",
        "value": 31860.2,
        "ci_low": 30000.4,
        "ci_high": 33512.9,
        "n": 1200,
        "n_skipped": 48,
        "skip_reason": "clue not in vocabulary",
        "coverage": 1200 / 1248,
        "thin": False,
        "thin_reason": "",
    },
    {
        **_BASE,
        "subject": "cluster",
        "metric": "map",
        "value": 0.07968,
        "ci_low": 0.0612,
        "ci_high": 0.09813,
        "n": 1200,
        "n_skipped": 0,
        "coverage": 1.0,
        "thin": False,
        "thin_reason": "",
    },
    {**_BASE, "subject": "nearest", "metric": "map", "value": 0.5, "n": 3, "n_skipped": 0},
]


def test_admin_measures_one_number_format_per_column(app_for, db_url):
    from wordgames.serve.models import Snapshot, Study, utcnow

    _, client = app_for(db_url, slugs=["omo"])
    (study,) = rows(db_url, Study)
    db = Database(db_url)
    try:
        with db.write() as s:
            content = json.dumps({"rows": STORED_SCORES, "notes": []})
            s.add(Snapshot(study_id=study.id, created_at=utcnow(), n_records=1200, content=content))
    finally:
        db.dispose()
    page = client().get("/admin/s/omo", headers={"authorization": f"Bearer {ADMIN}"}).text
    table = _measure_table(page)
    assert [cells[4:8] for _, cells in table] == [
        ["31,860", "30,000 – 33,513", "1,200", "96%"],
        ["0.07968", "0.0612 – 0.09813", "1,200", "100%"],
        ["0.5", "—", "3", "100%"],
    ]
    assert [thin for thin, _ in table] == [False, False, True]
    assert (
        table[0][1][8] == "skipped 48 of 1,248: clue not in vocabulary"
    )  # one fraction everywhere
    assert table[2][1][8] == "thin: n = 3 is below 30, not ranked"
    assert "e+" not in page and "e-0" not in page
    assert "1 of 3 scores are" in page
