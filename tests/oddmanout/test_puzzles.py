"""PuzzleSet, the word-order shuffle, users' puzzle files and their errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wordgames.errors import DataFormatError
from wordgames.oddmanout.puzzles import PuzzleSet, read_puzzles, write_puzzles

ROWS = [
    ["grass", "cherry", "orange", "apple", "grape"],
    ["clarinet", "drum", "xylophone", "tambourine", "cymbals"],
    ["motel", "boat", "train", "car", "spaceship"],
] * 20


def test_shuffle_keeps_the_answer_and_hides_its_position():
    ps = PuzzleSet.from_odd_first("t", ROWS, seed=3)
    assert ps.answer_words().tolist() == [r[0] for r in ROWS]
    for words, row in zip(ps.words.tolist(), ROWS, strict=True):
        assert sorted(words) == sorted(row)
    # over 60 puzzles the answer must not always sit in one position
    assert len(set(ps.answer.tolist())) > 1
    assert (ps.answer != 0).sum() > 20


def test_shuffle_is_deterministic_per_seed():
    a = PuzzleSet.from_odd_first("t", ROWS, seed=7)
    b = PuzzleSet.from_odd_first("t", ROWS, seed=7)
    c = PuzzleSet.from_odd_first("t", ROWS, seed=8)
    assert (a.words == b.words).all() and (a.answer == b.answer).all()
    assert not (a.words == c.words).all()


def test_sorted_order_when_seed_is_none():
    ps = PuzzleSet.from_odd_first("t", [ROWS[0]], seed=None)
    assert ps.words[0].tolist() == sorted(ROWS[0])
    assert ps.answer_words()[0] == "grass"


def test_odd_first_inverts_the_shuffle():
    ps = PuzzleSet.from_odd_first("t", ROWS[:3], seed=1)
    back = ps.odd_first()
    assert back[:, 0].tolist() == ["grass", "clarinet", "motel"]
    assert [sorted(r[1:]) for r in back.tolist()] == [sorted(r[1:]) for r in ROWS[:3]]


def test_fewer_than_five_words_is_rejected():
    with pytest.raises(ValueError, match="at least 5"):
        PuzzleSet.from_odd_first("t", [["a", "b", "c", "d"]])


def test_tsv_roundtrip_and_jsonl_roundtrip(tmp_path):
    ps = PuzzleSet.from_odd_first("t", ROWS[:3], categories=["fruit", "percussion", "transport"])
    for suffix in (".tsv", ".jsonl"):
        path = write_puzzles(ps, tmp_path / f"p{suffix}")
        back = read_puzzles(path, seed=5)
        assert back.answer_words().tolist() == ps.answer_words().tolist()
        assert back.categories.tolist() == ["fruit", "percussion", "transport"]
        assert [sorted(r) for r in back.words.tolist()] == [sorted(r) for r in ps.words.tolist()]


def test_user_tsv_with_cr_line_ends_and_spaces(tmp_path):
    path = tmp_path / "cr.tsv"
    path.write_bytes(
        b"fruit\tgrass \tcherry\torange\tapple\tgrape\r# comment\r"
        b"\tmotel\tboat\ttrain\tcar\tspaceship"
    )
    ps = read_puzzles(path)
    assert len(ps) == 2
    assert ps.answer_words().tolist() == ["grass", "motel"]
    assert ps.report["stripped_fields"] == 1
    assert ps.lines.tolist() == [1, 3]


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        ("fruit\tgrass\tcherry\torange\tapple\tgrape\nfruit\tgrass\tcherry\torange\n", 2, "fields"),
        ("fruit\tgrass\tcherry\torange\tapple\tgrape\nx\ta\tb\tc\td\te\tf\n", 2, "different"),
        ("fruit\tgrass\tcherry\tgrass\tapple\tgrape\n", 1, "twice"),
        ("fruit\tgrass\t\torange\tapple\tgrape\n", 1, "empty word"),
    ],
)
def test_bad_tsv_names_file_and_line(tmp_path, content, line, message):
    path = tmp_path / "bad.tsv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataFormatError, match=message) as err:
        read_puzzles(path)
    assert err.value.line == line
    assert err.value.path == str(path)


def test_bad_jsonl_names_the_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    good = {"words": ROWS[0], "answer": "grass"}
    path.write_text(
        json.dumps(good) + "\n" + json.dumps({"words": ROWS[0], "answer": "tree"}) + "\n",
        encoding="utf-8",
    )
    with pytest.raises(DataFormatError, match="exactly once") as err:
        read_puzzles(path)
    assert err.value.line == 2
    path.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match="JSON") as err:
        read_puzzles(path)
    assert err.value.line == 1


def test_bad_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin1.tsv"
    path.write_bytes(b"a\tb\tc\td\te\tf\nfruit\t\xe9clair\tb\tc\td\te\n")
    with pytest.raises(DataFormatError, match="UTF-8") as err:
        read_puzzles(path)
    assert err.value.line == 2


def test_missing_file_is_a_data_format_error(tmp_path):
    with pytest.raises(DataFormatError, match="not found"):
        read_puzzles(tmp_path / "nope.tsv")


def test_take_and_vocabulary():
    ps = PuzzleSet.from_odd_first("t", ROWS[:3])
    sub = ps.take(np.array([2]))
    assert sub.answer_words().tolist() == ["motel"]
    assert "spaceship" in ps.vocabulary() and len(ps.vocabulary()) == 15
