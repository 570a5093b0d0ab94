"""A study's own human ceiling on the admin page's live measures (issue 39)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from tests.serve.test_export import played  # noqa: F401  (the module's played studies)

BOARD = ["dog", "cat", "car", "bus"]


def _study(folder, picks) -> SimpleNamespace:
    lines = [
        json.dumps(
            {
                "kind": "receiver",
                "id": f"s:p{i}:t0",
                "board": BOARD,
                "clue": "pet",
                "chosen": chosen,
                "number": len(chosen),
            }
        )  # fmt: skip
        for i, chosen in enumerate(picks)
    ]
    (folder / "codenames.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return SimpleNamespace(counts={"codenames.jsonl": len(lines)})


def test_participants_who_played_the_same_item_give_the_study_its_ceiling(tmp_path):
    from wordgames.serve.live import _codenames

    # three participants, one board and clue (number 2 each): A and C by hand as in
    # docs/people.md; B's pick of dog alone would be another item (number 1), so B picks 2
    rep = _study(tmp_path, [["dog", "cat"], ["dog", "car"], ["cat", "dog"]])
    got = _codenames(tmp_path, rep, "glove-6b-50d", 0)
    people = [r for r in got["rows"] if r["subject"] == "people"]
    (ceiling,) = [r for r in people if r["metric"] == "human_receiver.map"]
    # A: others picked dog 2, cat 1, car 1 -> dog, then cat/car tied: (1 + (2/2 + 2/3)/2) / 2
    a = (1 + (1 + 2 / 3) / 2) / 2
    # B (dog, car): others picked dog 2, cat 2 -> car after dog and cat, bus tied with it
    b_dog = (1 + 1 / 2) / 2  # dog first or second among the tied dog and cat
    b = (b_dog + (2 / 3 + 2 / 4) / 2) / 2
    assert ceiling["value"] == pytest.approx((a + b + a) / 3)
    assert (ceiling["n"], ceiling["n_skipped"]) == (3, 0)
    shares = [r for r in got["rows"] if r["metric"] == "human_receiver.map.share_of_ceiling"]
    assert {r["agent"] for r in shares} >= {"nearest"}


def test_a_study_of_generated_boards_says_why_it_has_no_ceiling(played):  # noqa: F811
    from wordgames.serve.live import evaluate_study

    _, db, _, _ = played
    got = evaluate_study(db, "cn-recv")
    # each participant got boards of their own: no item was played by two people
    assert not [r for r in got["rows"] if r["subject"] == "people"]
    assert any("no people row: no item has two responses" in n for n in got["notes"])
