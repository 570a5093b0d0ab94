"""Issue 22, items 9 and 14: what a participant's browser sends is parsed by one strict
parser; nothing they type gives HTTP 500, and no control character is stored."""

from __future__ import annotations

import pytest

from tests.serve.helpers import Player, hidden, sender_board
from tests.serve.test_api import rows
from wordgames.serve.models import Answer


@pytest.mark.parametrize(
    "token",
    [
        "².0.1.abcd.sig",
        "0.²." + "1.abcd.sig",
        "9" * 5000 + ".0.1.abcd.sig",
        "0.0." + "9" * 40 + ".a.b",
    ],
    ids=["superscript-position", "superscript-seq", "5000-digits", "huge-time"],
)
@pytest.mark.slow
def test_a_damaged_form_token_is_a_4xx(app_for, db_url, token):
    _, client = app_for(db_url, slugs=["omo"])
    pl = Player(client(), "omo")
    page = pl.start()
    r = pl.c.post("/s/omo/answer", data={"t": token, "choice": "x"}, follow_redirects=False)
    assert 400 <= r.status_code < 500, r.status_code
    assert "reload" in r.text
    assert rows(db_url, Answer) == []
    assert hidden(page, "t")  # the real form still works afterwards
    r = pl.post("answer", {"choice": "__none__"}, page, follow=False)
    assert r.status_code == 303


@pytest.mark.slow
@pytest.mark.parametrize("number", ["²", "9" * 5000, "-1", "1.0", " "])
def test_a_sender_number_that_is_no_number_is_a_4xx(app_for, db_url, number):
    _, client = app_for(db_url, slugs=["cn-send"])
    pl = Player(client(), "cn-send")
    page = pl.start()
    blue, _ = sender_board(page)
    r = pl.post("answer", {"clue": "zebra", "number": number, "targets": [blue[0]]}, page)
    assert r.status_code == 422, r.status_code
    assert "number" in r.text
    assert rows(db_url, Answer) == []


@pytest.mark.parametrize("position", [2**63, 2**31, 10**30])
def test_a_feedback_position_beyond_the_database_is_no_500(app_for, db_url, position):
    _, client = app_for(db_url, slugs=["cn-send"])
    pl = Player(client(), "cn-send")
    pl.start()
    r = pl.c.get(f"/s/cn-send/feedback/{position}", follow_redirects=False)
    assert r.status_code in (303, 422), r.status_code


@pytest.mark.parametrize("text", ["fruit\x00", "fru\u2028it", "fruit\x1b[31m", "\u202efruit"])
@pytest.mark.slow
def test_free_text_with_a_control_character_is_refused(app_for, db_url, text):
    _, client = app_for(db_url, slugs=["omo"])
    pl = Player(client(), "omo")
    page = pl.start()
    r = pl.post("answer", {"choice": "__none__", "category": text}, page)
    assert r.status_code == 422 and "control character" in r.text
    assert rows(db_url, Answer) == []
