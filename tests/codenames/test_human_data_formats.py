"""User JSONL/CSV files, the paper's Table 2 / Table 3 layouts, and bad input -- on hand-made
files (no real data needed), plus each source format's damage on small synthetic copies."""

from __future__ import annotations

import json

import pytest

from wordgames.codenames.human_data import (
    read_receiver_table,
    read_sender_table,
    read_user_file,
    write_user_jsonl,
)
from wordgames.codenames.records import LoadedHumanData
from wordgames.errors import DataFormatError

RECEIVER = {
    "kind": "receiver",
    "board": ["Dog", " Ice Cream ", "bank", "cat"],
    "clue": "PET",
    "chosen": ["dog", "cat"],
    "clue_source": "human",
    "number": 2,
    "blue": ["dog", "cat"],
    "red": ["bank"],
    "neutral": ["ice cream"],
    "id": "r1",
}
SENDER = {
    "kind": "sender",
    "blue": ["dog", "cat"],
    "red": ["bank"],
    "assassin": ["ice cream"],
    "clue": "Pet",
    "targets": ["dog"],
}


def write_lines(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------- user JSONL


def test_user_jsonl_maps_fields_and_normalises(tmp_path):
    path = write_lines(tmp_path / "mine.jsonl", [json.dumps(RECEIVER), "", json.dumps(SENDER)])
    data = read_user_file(path)
    assert data.dataset == "user:mine.jsonl" and set(data.files) == {"mine.jsonl"}
    [r] = data.receiver
    assert r.board == ("dog", "ice cream", "bank", "cat") and r.clue == "pet"
    assert r.chosen == ("dog", "cat") and r.number == 2 and r.record_id == "r1"
    assert r.neutral == ("ice cream",) and r.meta["line"] == 1
    [s] = data.sender
    assert s.clue == "pet" and s.targets == ("dog",) and s.number == 1  # len(targets)
    assert s.avoid == ("bank", "ice cream") and s.record_id == "mine.jsonl:3"
    assert s.clue_source == "human"


def test_user_jsonl_round_trip(tmp_path):
    src = write_lines(tmp_path / "a.jsonl", [json.dumps(RECEIVER), json.dumps(SENDER)])
    first = read_user_file(src, dataset="mine")
    back = read_user_file(write_user_jsonl(first, tmp_path / "b.jsonl"), dataset="mine")
    assert back.receiver == first.receiver and back.sender == first.sender


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"kind": "receiver", "board": ["a"], "clue": "x"', "invalid JSON"),
        ('{"kind": "receiver", "board": ["a", "b"], "clue": "x"}', "without chosen"),
        ('{"kind": "guesser", "clue": "x"}', "'kind' must be"),
        (
            '{"kind": "receiver", "board": ["a"], "clue": "x", "chosen": ["z"]}',
            "must be on the 'board'",
        ),
        ('{"kind": "sender", "blue": "a b", "red": ["c"], "clue": "x"}', "must be a list"),
        (
            '{"kind": "sender", "blue": ["a"], "red": ["c"], "clue": "x", "colour": 1}',
            "unknown key",
        ),
        (
            '{"kind": "sender", "blue": ["a"], "red": ["c"], "clue": "x", "targets": ["c"]}',
            "'blue' word",
        ),
        (
            '{"kind": "sender", "blue": ["a"], "red": ["c"], "clue": "x", "number": "two"}',
            "integer",
        ),
        ("[1, 2]", "JSON object"),
    ],
)
def test_user_jsonl_bad_line_names_file_and_line(tmp_path, line, message):
    path = write_lines(tmp_path / "bad.jsonl", [json.dumps(SENDER), "", line])
    with pytest.raises(DataFormatError, match=message) as info:
        read_user_file(path)
    assert info.value.line == 3 and info.value.path.endswith("bad.jsonl")
    assert "bad.jsonl, line 3" in str(info.value)


# ---------------------------------------------------------------- user CSV


def test_user_csv(tmp_path):
    path = write_lines(
        tmp_path / "mine.csv",
        [
            "kind,clue,board,chosen,blue,red,targets,number,clue_source",
            "receiver,Pet,dog|Ice Cream|bank,dog,,,,1,glove",
            "sender,pet,,,dog|cat,bank|ice cream,dog|cat,,",
        ],
    )
    data = read_user_file(path)
    [r], [s] = data.receiver, data.sender
    assert r.board == ("dog", "ice cream", "bank") and r.chosen == ("dog",)
    assert r.clue_source == "glove" and r.number == 1 and r.record_id == "mine.csv:2"
    assert s.blue == ("dog", "cat") and s.red == ("bank", "ice cream") and s.number == 2


@pytest.mark.parametrize(
    "lines, line, message",
    [
        (["clue,board,chosen", "x,a|b,a"], 1, "expected a header naming 'kind'"),
        (["kind,clue,board,chosen,shade", "receiver,x,a|b,a,1"], 1, "unknown: shade"),
        (["kind,clue,board,chosen", "receiver,x,a|b,a", "receiver,x,a|b"], 3, "expected 4 fields"),
        (["kind,clue,board,chosen", "receiver,x,a|b,c"], 2, "must be on the 'board'"),
    ],
)
def test_user_csv_bad_input(tmp_path, lines, line, message):
    path = write_lines(tmp_path / "bad.csv", lines)
    with pytest.raises(DataFormatError, match=message) as info:
        read_user_file(path)
    assert info.value.line == line


def test_unknown_extension_and_missing_file(tmp_path):
    with pytest.raises(DataFormatError, match="no such file"):
        read_user_file(tmp_path / "nothing.jsonl")
    (tmp_path / "x.xlsx").write_text("x")
    with pytest.raises(DataFormatError, match=".jsonl, .csv or .tsv"):
        read_user_file(tmp_path / "x.xlsx")


# ---------------------------------------------------------------- the paper's Table 2 / 3


def table2(tmp_path, rows, sep="\t", name="t2.tsv"):
    header = (
        ["Initial model", "Clue word"]
        + [f"Word{i}" for i in range(1, 6)]
        + [f"Rank{i}" for i in range(1, 4)]
    )
    return write_lines(tmp_path / name, [sep.join(header)] + [sep.join(r) for r in rows])


def test_table2_layout(tmp_path):
    path = table2(
        tmp_path,
        [
            [
                "bertHKimFX",
                "animal",
                "dog",
                "Mouse",
                "car",
                "tree",
                "airplane",
                "dog",
                "mouse",
                "noMoreRelatedWords",
            ],
            ["glove", "fly", "dog", "mouse", "car", "tree", "airplane", "airplane", "", ""],
        ],
    )
    data = read_user_file(path)  # recognised by its header
    assert [r.clue_source for r in data.receiver] == ["bertHKimFX", "glove"]
    a, b = data.receiver
    assert a.board == ("dog", "mouse", "car", "tree", "airplane") and a.clue == "animal"
    assert a.chosen == ("dog", "mouse") and b.chosen == ("airplane",)
    assert a.record_id == "t2.tsv:2" and not a.blue
    # comma-separated, lower-case snake_case names also read
    path = write_lines(
        tmp_path / "t2.csv", ["initial_model,clue_word,word1,word2,rank1", "m,x,a,b,b"]
    )
    assert read_receiver_table(path).receiver[0].chosen == ("b",)


@pytest.mark.parametrize(
    "lines, line, message",
    [
        (["Initial model\tWord1\tWord2\tRank1", "m\ta\tb\ta"], 1, "'Clue word'"),
        (["Initial model\tClue word\tWord1\tWord3\tRank1", "m\tx\ta\tb\ta"], 1, "consecutive"),
        (
            ["Initial model\tClue word\tWord1\tWord2\tRank1", "m\tx\ta\tb\tc"],
            2,
            "not among the Word",
        ),
        (
            ["Initial model\tClue word\tWord1\tWord2\tRank1", "m\tx\ta\tb\tnoMoreRelatedWords"],
            2,
            "no pick",
        ),
        (["Initial model\tClue word\tWord1\tWord2\tRank1", "m\tx\ta\tb"], 2, "expected 5 fields"),
    ],
)
def test_table2_bad_input(tmp_path, lines, line, message):
    path = write_lines(tmp_path / "t2.tsv", lines)
    with pytest.raises(DataFormatError, match=message) as info:
        read_receiver_table(path)
    assert info.value.line == line


def test_table3_layout(tmp_path):
    header = (
        [f"BWord{i}" for i in range(1, 4)]
        + [f"RWord{i}" for i in range(1, 4)]
        + ["Clue word"]
        + [f"T{i}" for i in range(1, 4)]
    )
    path = write_lines(
        tmp_path / "t3.tsv",
        [
            "\t".join(header),
            "ivory\tduck\thotel\thead\tcharge\tcomic\texpensive\tivory\thotel\tNoMoreTargets",
        ],
    )
    data = read_user_file(path)
    [s] = data.sender
    assert s.blue == ("ivory", "duck", "hotel") and s.red == ("head", "charge", "comic")
    assert s.clue == "expensive" and s.targets == ("ivory", "hotel") and s.number == 2
    bad = write_lines(
        tmp_path / "t3bad.tsv",
        ["\t".join(header), "ivory\tduck\thotel\thead\tcharge\tcomic\texpensive\thead\t\t"],
    )
    with pytest.raises(DataFormatError, match="not among the BWord") as info:
        read_sender_table(bad)
    assert info.value.line == 2
    no_t = write_lines(tmp_path / "t3nt.tsv", ["BWord1\tRWord1\tClue word", "a\tb\tx"])
    with pytest.raises(DataFormatError, match="T1..TN"):
        read_sender_table(no_t)


# ---------------------------------------------------------------- source formats, synthetic


def _batch_row(name, clue, words, ranks, hitid="H" * 30, approve=True):
    from wordgames.codenames.human_data.pilot import MTURK_META

    meta = [hitid] + ["m"] * (len(MTURK_META) - 1)
    row = meta + [name, clue] + list(words) + list(ranks)
    return row + (["", ""] if approve else [])


def _csv_line(fields):
    return ",".join(f'"{f}"' for f in fields)


def test_pilot_batch_damage_repaired_and_counted(tmp_path):
    from wordgames.codenames.human_data.pilot import BATCH_HEADER, read_batch_results

    words = [f"w{i}" for i in range(20)]
    answered = _batch_row(
        "gloveWithHeuristicsTrial0", "c", words, ["w1", "w2", "x", "y"], approve=False
    )
    second = _batch_row(
        "gloveWithHeuristicsTrial1", "c", words, ["w3", "w4", "x", "y"], approve=False
    )
    copy = _batch_row(
        "gloveWithoutHeuristicsTrial1", "c", words, ["w3", "w4", "x", "y"], hitid="3" * 30
    )
    # the last answered row and the first appended copy on one line, as in the real files
    glued = _csv_line(second)[:-1] + copy[0] + '",' + _csv_line(copy[1:])
    path = write_lines(tmp_path / "b.csv", [_csv_line(BATCH_HEADER), _csv_line(answered), glued])
    data = LoadedHumanData("t")
    rows = read_batch_results(path, data)
    assert [len(r) for _, r in rows] == [55, 55, 55]
    assert [line for line, _ in rows] == [2, 3, 3]
    assert rows[1][1][52] == "y" and rows[2][1][0] == "3" * 30
    assert rows[2][1][27] == "gloveWithoutHeuristicsTrial1"
    assert data.repairs == {
        "pilot: answered row without Approve/Reject padded": 1,
        "pilot: two rows glued on one line (missing newline) split": 1,
    }


def test_pilot_batch_bad_rows(tmp_path):
    from wordgames.codenames.human_data.pilot import BATCH_HEADER, read_batch_results

    bad_header = write_lines(tmp_path / "h.csv", [_csv_line(["HITId", "Oops"])])
    with pytest.raises(DataFormatError, match="header column 2") as info:
        read_batch_results(bad_header, LoadedHumanData("t"))
    assert info.value.line == 1
    short = write_lines(tmp_path / "s.csv", [_csv_line(BATCH_HEADER), _csv_line(["a"] * 40)])
    with pytest.raises(DataFormatError, match="expected 55 fields .* found 40") as info:
        read_batch_results(short, LoadedHumanData("t"))
    assert info.value.line == 2


def test_pilot_key_damage(tmp_path):
    from wordgames.codenames.human_data.pilot import BATCH_HEADER, KEY_HEADER, read_answer_key

    row = (
        ["gloveWithHeuristicsTrial0", "{}", "c", "b0", "b1"]
        + [f"b{i}" for i in range(10)]
        + [f"r{i}" for i in range(10)]
    )
    last = row[:-1] + ["drillHITId"] + BATCH_HEADER[1:]
    path = write_lines(
        tmp_path / "k.csv",
        [",".join(KEY_HEADER + [""] * 54), ",".join(row + [""] * 54), ",".join(last)],
    )
    data = LoadedHumanData("t")
    key = read_answer_key(path, data)
    assert (
        key["gloveWithHeuristicsTrial0"][-1] == "drill"
        and len(key["gloveWithHeuristicsTrial0"]) == 25
    )
    assert data.repairs == {
        "pilot key: empty trailing fields cut": 1,
        "pilot key: MTurk header glued onto the last row removed": 1,
    }
    junk = write_lines(tmp_path / "j.csv", [",".join(KEY_HEADER), ",".join(row + ["oops"])])
    with pytest.raises(DataFormatError, match="values past the header") as info:
        read_answer_key(junk, LoadedHumanData("t"))
    assert info.value.line == 2


def test_salt_task_layout_checked(tmp_path):
    import pandas as pd

    from wordgames.codenames.human_data.salt import _word_lists, read_task

    assert _word_lists(pd.Series(["'a', \"o'clock\", 'Ice Cream'", ""])).tolist() == [
        ("a", "o'clock", "ice cream"),
        (),
    ]
    good = tmp_path / "g.csv"
    pd.DataFrame(
        {"base_text": ["remaining: ['a', 'b'], hint: X"], "output": ["b"], "demo_only": ["age 30"]}
    ).to_csv(good)
    df = read_task(good, "generate_guess_task")
    assert df["remaining"][0] == ("a", "b") and df["hint"][0] == "X" and "demo_only" not in df
    bad = tmp_path / "b.csv"
    pd.DataFrame({"base_text": ["green: ['a']"], "output": ["a"]}).to_csv(bad)
    with pytest.raises(DataFormatError, match="data row 1"):
        read_task(bad, "generate_guess_task")
    missing = tmp_path / "m.csv"
    pd.DataFrame({"base_text": ["x"]}).to_csv(missing)
    with pytest.raises(DataFormatError, match="'base_text' and 'output'"):
        read_task(missing, "generate_guess_task")


def test_itsluisa_colour_inference():
    from wordgames.codenames.human_data.itsluisa import _game_colours, _split_colours

    colours = (
        {f"b{i}": "blue" for i in range(9)}
        | {f"r{i}": "red" for i in range(7)}
        | {f"n{i}": "white" for i in range(7)}
        | {"k": "black", "contract": "contract"}
    )
    data = LoadedHumanData("t")
    fixed = _game_colours(None, "game", colours, data)
    assert fixed["contract"] == "red" and sum(data.repairs.values()) == 1
    split = _split_colours(["b0", "r0", "n0", "k", "contract"], fixed, "red")
    assert split == {
        "blue": ("r0", "contract"),
        "red": ("b0",),
        "neutral": ("n0",),
        "assassin": ("k",),
    }
    # two unknown colours cannot be inferred: kept as neutral and flagged
    colours["other"] = "?"
    data = LoadedHumanData("t")
    fixed = _game_colours(None, "game", colours, data)
    assert fixed["other"] == fixed["contract"] == "white" and data.flagged


def test_xerevity_bad_colour_code(tmp_path):
    from wordgames.codenames.human_data.xerevity import _boards

    (tmp_path / "boards_en.csv").write_text("0," + ",".join(f"w{i}" for i in range(20)) + "\n")
    (tmp_path / "board_colors.csv").write_text("0," + ",".join(["1"] * 19 + ["3"]) + "\n")
    with pytest.raises(DataFormatError, match="colour codes"):
        _boards(tmp_path)
    (tmp_path / "board_colors.csv").write_text("0,1,2\n")
    with pytest.raises(DataFormatError, match="20 fields") as info:
        _boards(tmp_path)
    assert info.value.line == 1


def test_docs_examples_read(tmp_path):
    """The JSONL and CSV examples in docs/codenames-data.md are valid user files."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "codenames-data.md").read_text()
    jsonl = re.search(r"```json\n(.*?)```", doc, re.S).group(1)
    csv_text = re.search(r"```csv\n(.*?)```", doc, re.S).group(1)
    (tmp_path / "ex.jsonl").write_text(jsonl)
    (tmp_path / "ex.csv").write_text(csv_text)
    a, b = read_user_file(tmp_path / "ex.jsonl"), read_user_file(tmp_path / "ex.csv")
    assert len(a.receiver) == len(a.sender) == len(b.receiver) == len(b.sender) == 1
    assert a.sender[0].targets == b.sender[0].targets == ("dog", "cat")
    assert a.receiver[0].chosen == ("dog", "cat") and b.receiver[0].chosen == ("dog",)


# ---------------------------------------------------------------- aggregated choices (count)


def test_user_jsonl_count_weights_a_line(tmp_path):
    line = dict(RECEIVER, count=3)
    path = write_lines(tmp_path / "agg.jsonl", [json.dumps(line), json.dumps(SENDER)])
    data = read_user_file(path)
    assert data.receiver[0].count == 3 and data.sender[0].count == 1
    assert data.summary()["receiver_decisions"] == 3
    back = read_user_file(write_user_jsonl(data, tmp_path / "back.jsonl"), dataset=data.dataset)
    assert back.receiver == data.receiver and back.receiver[0].count == 3
    assert '"count": 3' in (tmp_path / "back.jsonl").read_text()


def test_user_csv_count_column(tmp_path):
    path = write_lines(
        tmp_path / "agg.csv",
        [
            "kind,clue,board,chosen,count",
            "receiver,pet,dog|bank,dog,12",
            "receiver,pet,dog|bank,bank,",
        ],
    )
    data = read_user_file(path)
    assert [r.count for r in data.receiver] == [12, 1]


@pytest.mark.parametrize(
    "count, message", [(0, "at least 1"), ("many", "integer"), (2.5, "integer")]
)
def test_user_jsonl_bad_count(tmp_path, count, message):
    path = write_lines(tmp_path / "bad.jsonl", [json.dumps(dict(RECEIVER, count=count))])
    with pytest.raises(DataFormatError, match=message) as info:
        read_user_file(path)
    assert info.value.line == 1


def test_user_sender_without_opponent_words(tmp_path):
    # Codenames Duet: no red words, the words to avoid are neutral and assassin
    duet = {"kind": "sender", "blue": ["a"], "neutral": ["b"], "assassin": ["c"], "clue": "x"}
    empty_red = {"kind": "sender", "blue": ["a"], "red": [], "clue": "y"}
    nothing = {"kind": "sender", "blue": ["a"], "clue": "z"}
    data = read_user_file(
        write_lines(tmp_path / "d.jsonl", [json.dumps(duet), json.dumps(empty_red)])
    )
    assert data.sender[0].red == () and data.sender[0].avoid == ("b", "c")
    assert data.sender[1].avoid == ()
    back = read_user_file(write_user_jsonl(data, tmp_path / "back.jsonl"), dataset=data.dataset)
    assert back.sender == data.sender
    with pytest.raises(DataFormatError, match="without red"):
        read_user_file(write_lines(tmp_path / "n.jsonl", [json.dumps(nothing)]))
