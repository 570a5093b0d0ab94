"""The human-data loaders on the real files: counts from each PROVENANCE.md, each damaged line
type, records checked field by field against the raw files, colour mappings, duplicates."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.conftest import require_dataset
from wordgames.codenames.human_data import (
    HUMAN_DATASETS,
    available_human_datasets,
    load_human_data,
)


def load(name, **options):
    """Load ``name`` from the test data root (skips when the data set is absent)."""
    from wordgames.datasets import get_dataset

    folder = require_dataset(name)
    depth = len(get_dataset(name).folder.split("/"))  # the data root is above the folder
    return load_human_data(name, folder.parents[depth - 1], **options)


def by_id(records, rid):
    [rec] = [r for r in records if r.record_id == rid]
    return rec


# ---------------------------------------------------------------- every data set


@pytest.mark.parametrize("name", list(HUMAN_DATASETS))
def test_words_are_canonical_and_files_verified(name):
    data = load(name)
    from wordgames.datasets import get_dataset

    spec = get_dataset(name)
    assert data.files == {f.path: f.sha256 for f in spec.files}
    for r in data.receiver:
        words = (
            r.board + r.chosen + r.intended + r.blue + r.red + r.neutral + r.assassin + (r.clue,)
        )
        assert all(w == w.strip().lower() and w for w in words), r.record_id
        assert set(r.chosen) <= set(r.board)
        assert set(r.blue + r.red + r.neutral + r.assassin) <= set(r.board)
        assert r.count >= 1
    for s in data.sender:
        words = s.blue + s.red + s.neutral + s.assassin + s.targets + (s.clue,)
        assert all(w == w.strip().lower() and w for w in words), s.record_id
        assert set(s.targets) <= set(s.blue)
        assert not set(s.blue) & set(s.avoid)
    ids = [r.record_id for r in data.receiver] + [s.record_id for s in data.sender]
    assert len(set(r.record_id for r in data.receiver)) == len(data.receiver)
    assert len(set(s.record_id for s in data.sender)) == len(data.sender)
    assert ids


def test_available_lists_every_source(data_root):
    assert available_human_datasets(data_root) == list(HUMAN_DATASETS)


def test_missing_root_gives_empty_list_and_clear_error(tmp_path):
    from wordgames.errors import DatasetMissingError

    assert available_human_datasets(tmp_path) == []
    with pytest.raises(DatasetMissingError, match="codenames-pilot"):
        load_human_data("codenames-pilot", tmp_path)
    with pytest.raises(KeyError, match="not a human Codenames data set"):
        load_human_data("wales-paths", tmp_path)


def test_callers_get_copies_of_the_cached_data():
    first = load("codenames-human-stanfordhci")
    first.sender.clear()
    first.dropped["x"] = 1
    again = load("codenames-human-stanfordhci")
    assert len(again.sender) == 33 and "x" not in again.dropped


# ---------------------------------------------------------------- pilot (Koyyalagunta 2020)


def test_pilot_counts_and_repairs():
    data = load("codenames-pilot")
    # 98 + 99 records; one prefilled copy carries the wrong clue (bertWithoutHeuristicsTrial6
    # gave "thank" per the key, the copy says "outdoor")
    assert len(data.receiver) == 196 and not data.sender
    assert data.dropped == {
        "pilot: prefilled copy whose clue differs from its configuration's clue": 1
    }
    assert data.repairs == {
        "pilot: answered row without Approve/Reject padded": 71 + 67,
        "pilot: two rows glued on one line (missing newline) split": 2,
        "pilot key: empty trailing fields cut": 99,
        "pilot key: MTurk header glued onto the last row removed": 1,
    }
    assert data.flagged == {"pilot: prefilled copy of an answered HIT (kept)": 25 + 31}
    batches = Counter(r.meta["batch"] for r in data.receiver)
    assert batches == {"291089": 97, "291092": 99}
    assert "291089/bertWithoutHeuristicsTrial6" not in {r.record_id for r in data.receiver}
    picks = {
        b: Counter(len(r.chosen) for r in data.receiver if r.meta["batch"] == b) for b in batches
    }
    # PROVENANCE: 2: 27, 3: 36, 4: 35 over 98 records (the dropped copy had 2 picks)
    assert picks["291089"] == {2: 26, 3: 36, 4: 35}
    assert picks["291092"] == {2: 26, 3: 39, 4: 34}


def test_pilot_prefilled_drop_leaves_the_answered_hits():
    data = load("codenames-pilot", prefilled="drop")
    assert len(data.receiver) == 140  # 72 + 68 answered HITs
    assert data.dropped == {"pilot: prefilled copy of an answered HIT (prefilled='drop')": 57}
    picks = {
        b: Counter(len(r.chosen) for r in data.receiver if r.meta["batch"] == b)
        for b in ("291089", "291092")
    }
    assert picks["291089"] == {2: 20, 3: 28, 4: 24}
    assert picks["291092"] == {2: 20, 3: 25, 4: 23}


def test_pilot_record_against_raw_line():
    data = load("codenames-pilot")
    r = by_id(data.receiver, "291089/gloveWithHeuristicsTrial0")
    assert r.board == (
        "dwarf",
        "bison",
        "bolt",
        "beach",
        "boom",
        "egypt",
        "field",
        "mammoth",
        "head",
        "cell",
        "scientist",
        "nut",
        "giant",
        "mouse",
        "well",
        "crown",
        "ivory",
        "ham",
        "fall",
        "sink",
    )
    assert r.clue == "gigantic" and r.chosen == ("giant", "mammoth", "bison", "dwarf")
    assert r.clue_source == "gloveWithHeuristics" and r.intended == ("mammoth", "giant")
    assert r.blue == (
        "dwarf",
        "bolt",
        "beach",
        "boom",
        "well",
        "mammoth",
        "ivory",
        "nut",
        "sink",
        "giant",
    )
    assert r.meta["trial"] == 0 and r.meta["heuristics"] is True and r.meta["model"] == "glove"
    # no MTurk identifier is carried into a record
    assert not any(str(v).startswith("30QQTY5") or "A36SP6892" in str(v) for v in r.meta.values())


def test_pilot_glued_line_gives_two_records():
    data = load("codenames-pilot")
    on_73 = {
        r.record_id: r
        for r in data.receiver
        if r.meta["batch"] == "291089" and r.meta["line"] == 73
    }
    assert set(on_73) == {
        "291089/gloveWithoutHeuristicsTrial5",
        "291089/gloveWithoutHeuristicsTrial2",
    }
    last = on_73["291089/gloveWithoutHeuristicsTrial5"]
    assert last.clue == "anymore" and last.chosen == ("change", "pit")  # rank4 was the glued filler
    copy = on_73["291089/gloveWithoutHeuristicsTrial2"]
    assert copy.meta["prefilled_copy_of"] == "gloveWithHeuristicsTrial2"
    assert copy.chosen == ("olympus", "thumb", "heart") and copy.clue == "important"


def test_pilot_key_glued_header_repaired_and_colours():
    data = load("codenames-pilot")
    r = by_id(data.receiver, "291089/gloveWithoutHeuristicsTrial9")
    assert "drill" in r.red and "drill" in r.board
    assert not any("hitid" in w for rec in data.receiver for w in rec.red)
    for rec in data.receiver:
        assert len(rec.blue) == len(rec.red) == 10 and set(rec.blue) | set(rec.red) == set(
            rec.board
        )
        assert set(rec.intended) <= set(rec.blue)
        assert not rec.neutral and not rec.assassin


# ---------------------------------------------------------------- Cultural Codes (SALT)


def test_salt_counts_and_duplicates():
    data = load("codenames-human-salt")
    assert len(data.sender) == 828 - 2 and len(data.receiver) == 828 - 13
    assert data.dropped == {
        "salt: guess row with no guess": 13,
        "salt: sender turn logged twice (same key, targets, clue)": 2,
    }
    assert not data.repairs
    # PROVENANCE: 1/2/3 targets 651/160/17 over 828 turns; the two repeats had 1 and 3 targets
    assert Counter(len(s.targets) for s in data.sender) == {1: 650, 2: 160, 3: 16}
    assert len({s.clue for s in data.sender}) == 488
    sender_ids = {s.record_id for s in data.sender}
    receiver_ids = {r.record_id for r in data.receiver}
    assert {"val/65", "val/254"} <= sender_ids and not {"val/66", "val/255"} & sender_ids
    assert {"val/66", "val/255"} <= receiver_ids and not {"val/65", "val/254"} & receiver_ids
    assert by_id(data.receiver, "val/66").chosen == ("pass",)
    # PROVENANCE: first guess in targets in 87.4 % of non-empty turns
    first_ok = sum(r.chosen[0] in r.intended for r in data.receiver) / len(data.receiver)
    assert round(first_ok, 3) == 0.874


def test_salt_colour_mapping_and_record():
    data = load("codenames-human-salt")
    s = by_id(data.sender, "val/0")
    assert s.clue == "circle" and s.targets == ("round",) and s.number == 1
    assert s.blue == (
        "agent",
        "revolution",
        "round",
        "club",
        "leprechaun",
        "scientist",
        "cold",
        "field",
        "match",
    )
    assert s.assassin == ("luck", "soul", "spy") and s.red == ()
    assert s.neutral[:3] == ("day", "mass", "comic") and len(s.neutral) == 13
    r = by_id(data.receiver, "test/0")
    assert r.clue == "football" and r.chosen == ("field",) and r.intended == ("sub", "field")
    assert r.board[:3] == ("force", "trip", "cast") and len(r.board) == 25
    assert r.assassin == ("code", "change", "drop") and not r.red
    assert all(not rec.red for rec in data.sender + data.receiver)


# ---------------------------------------------------------------- Mills, Prescott & Phillips


def test_noahprescott_counts():
    data = load("codenames-human-noahprescott")
    assert len(data.sender) == 398 and len(data.receiver) == 6336
    assert Counter(r.clue_source for r in data.receiver) == {"human": 4009, "gpt-4": 2327}
    assert data.dropped == {"noahprescott: human clue is a board word (sender)": 2}
    assert data.repairs == {"noahprescott: gpt-4 intended word not on the board removed": 2}
    assert not any("differing" in k for k in data.flagged)  # the copy files agree
    flagged = [r for r in data.receiver if r.meta.get("clue_on_board")]
    assert {r.clue for r in flagged if r.clue_source == "human"} == {"night", "spy"}
    # PROVENANCE: share of the 3 picks that are intended words, 0.79 (human) and 0.74 (GPT-4),
    # a mean over boards of the per-board mean
    for source, expected in (("human", 0.79), ("gpt-4", 0.74)):
        per_board = {}
        for r in data.receiver:
            if r.clue_source == source:
                per_board.setdefault(r.meta["board"], []).append(
                    len(set(r.chosen) & set(r.intended)) / 3
                )
        acc = sum(sum(v) / len(v) for v in per_board.values()) / len(per_board)
        assert round(acc, 2) == expected


def test_noahprescott_record_and_colours():
    data = load("codenames-human-noahprescott")
    s = by_id(data.sender, "b0")
    assert s.clue == "animal" and s.blue == ("bat", "bear", "mouse") == s.targets
    assert len(s.red) == 9 and "web" in s.red and s.number == 3
    r = by_id(data.receiver, "b0/human/0")
    assert r.board == (
        "web",
        "bat",
        "telescope",
        "water",
        "mouse",
        "berlin",
        "jam",
        "club",
        "iron",
        "tube",
        "ivory",
        "bear",
    )
    assert r.chosen == ("web", "mouse", "bear") and r.intended == ("bat", "bear", "mouse")
    # GPT-4 aimed ROYALTY at KING, QUEEN, MARBLE on a board without QUEEN: 5 human guess lists
    queen = [
        r
        for r in data.receiver
        if r.clue == "royalty" and r.clue_source == "gpt-4" and "undertaker" in r.board
    ]
    assert len(queen) == 5 and all(r.intended == ("king", "marble") for r in queen)


# ---------------------------------------------------------------- itsLuisa games + study


def test_itsluisa_counts():
    data = load("codenames-human-itsluisa")
    src = Counter(r.meta["source"] for r in data.receiver)
    assert src == {
        "codenamesexp": 22,
        "data_Polygon": 18,
        "data_MCDM": 44,
        "more_data": 9,
        "eval_study": 130,
    }
    assert Counter(s.meta["source"] for s in data.sender) == src
    assert len(data.sender) == len(data.receiver) == 223
    assert data.repairs == {
        "itsluisa: invalid colour inferred from the 9/8/7/1 distribution": 1,
        "itsluisa study: spymaster target that is not a team word removed from targets": 1,
    }
    assert not data.dropped
    study = [s for s in data.sender if s.meta["source"] == "eval_study"]
    assert sum(not s.targets for s in study) == 40
    assert sum(r.number is None for r in data.receiver) == 2  # the two 'inf' clues


def test_itsluisa_colour_mapping():
    data = load("codenames-human-itsluisa")
    r = by_id(data.receiver, "codenamesexp/game1/round1")
    assert r.clue == "cosmetic" and r.number == 2 and r.chosen == ("manicure", "stick")
    assert r.meta["team"] == "blue" and "manicure" in r.blue and r.assassin == ("ranch",)
    assert len(r.blue) == 9 and len(r.red) == 8 and len(r.neutral) == 7
    # the 'contract' word of Polygon game 3 is red: in red for blue's turns, in blue for red's
    for s in (x for x in data.sender if x.record_id.startswith("data_Polygon/game3/")):
        team_words = s.blue if s.meta["team"] == "red" else s.red
        if "contract" in s.board:
            assert "contract" in team_words
    # eval study, operative: team red, so blue = the red-coloured words
    op = by_id(data.receiver, "study/g1/operative/1/P01")
    assert op.clue == "lake" and op.number == 2 and op.chosen == ("park", "cliff")
    assert op.intended == ("well", "park") and "park" in op.blue and "horn" in op.red
    assert op.assassin == ("contract",)
    sp = by_id(data.sender, "study/g5/spymaster/46/P16")
    assert sp.targets == ("hook", "copper") and sp.meta["targets_not_team_words"] == ["tube"]
    assert sp.number == 3 and "tube" in sp.neutral


# ---------------------------------------------------------------- Cserháti et al. (xerevity)


def test_xerevity_counts_and_record():
    data = load("codenames-human-xerevity")
    assert len(data.receiver) == 443 and not data.sender
    assert not data.dropped and not data.repairs
    assert len({(r.meta["board"], r.meta["clue_index"]) for r in data.receiver}) == 367
    # PROVENANCE: the first guess is a good (colour 2) word in 70.9 % of responses
    good = sum(r.chosen[0] in r.blue for r in data.receiver) / len(data.receiver)
    assert round(good, 3) == 0.709
    r = by_id(data.receiver, "r0")  # first response line: board 83, clue index 8, europe, lab
    assert r.meta["board"] == 83 and r.clue == "asia" and r.number == 2
    assert r.chosen == ("europe", "lab") and "europe" in r.blue and "lab" in r.red
    assert r.clue_source == "fasttext" and r.meta["configs"] == [
        "fasttext/Koyyalagunta",
        "fasttext/KoyyalaguntaRestrict",
    ]
    assert all(len(x.blue) == len(x.red) == 10 for x in data.receiver)


# ---------------------------------------------------------------- Shen et al. 2018


def test_heyyjudes_counts():
    data = load("codenames-human-heyyjudes")
    assert len(data.sender) == 490 and len(data.receiver) == 3358
    assert sum(s.count for s in data.sender) == 3225
    assert sum(r.count for r in data.receiver) == 13280
    s = by_id(data.sender, "ex1_bigram_00/gorgeous")
    assert s.count == 28 and s.blue == ("girl", "lady") == s.targets
    assert s.red == ("car", "city", "performance") and len(s.meta["candidate_clues"]) == 8
    r = by_id(data.receiver, "ex1_bigram_00/empty/car+city")
    assert r.count == 18 and r.clue_source == "bigram" and r.intended == ("girl", "lady")
    expanded = load("codenames-human-heyyjudes", expand_counts=True)
    assert len(expanded.sender) == 3225 and len(expanded.receiver) == 13280
    assert all(x.count == 1 for x in expanded.receiver)


# ---------------------------------------------------------------- DreamTeam


def test_stanfordhci_counts_and_record():
    data = load("codenames-human-stanfordhci")
    assert len(data.sender) == 33 and not data.receiver
    assert sum(len(s.targets) for s in data.sender) == 77  # 77 board words, each under one clue
    s = by_id(data.sender, "b0/dice")
    assert s.targets == ("processor", "dots", "chance") == s.blue and s.number == 3
    assert set(s.red) == {"null", "patient", "swelling", "encode"}
    assert s.clue_source == "researcher"


# ---------------------------------------------------------------- `wordgames codenames datasets`


def test_cli_lists_counts(data_root, tmp_path):
    import json

    from typer.testing import CliRunner

    from wordgames.cli import app

    user = tmp_path / "mine.jsonl"
    user.write_text('{"kind": "sender", "blue": ["a"], "red": ["b"], "clue": "x"}\n')
    args = ["codenames", "datasets", "--data-root", str(data_root)]
    result = CliRunner().invoke(app, [*args, "--json", "-", "--file", str(user)])
    assert result.exit_code == 0, result.output
    rows = {r["dataset"]: r for r in json.loads(result.output)["datasets"]}
    assert rows["codenames-human-salt"]["n_sender"] == 826
    assert rows["codenames-human-salt"]["dropped"]["salt: guess row with no guess"] == 13
    assert rows["codenames-pilot"]["n_receiver"] == 196
    assert rows["codenames-human-heyyjudes"]["receiver_decisions"] == 13280
    assert rows["user:mine.jsonl"]["n_sender"] == 1
    table = CliRunner().invoke(app, [*args, "--details"], terminal_width=160)
    assert table.exit_code == 0 and "codenames-human-xerevity" in table.output
    assert "salt: guess row with no guess" in table.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{oops\n")
    failed = CliRunner().invoke(app, [*args, "--file", str(bad)])
    assert failed.exit_code == 2 and "bad.jsonl, line 1" in failed.output


# ---------------------------------------------------------------- the user format round trip


def _json_equal(value):
    import json

    return json.loads(json.dumps(value))


@pytest.mark.parametrize("name", list(HUMAN_DATASETS))
def test_every_data_set_reads_back_equal_from_the_user_format(name, tmp_path):
    from wordgames.codenames.human_data import read_user_file, write_user_jsonl

    data = load(name)
    back = read_user_file(write_user_jsonl(data, tmp_path / "out.jsonl"), dataset=name)
    assert back.receiver == data.receiver  # every compared field, count included
    assert back.sender == data.sender
    assert [r.count for r in back.receiver] == [r.count for r in data.receiver]
    assert [s.count for s in back.sender] == [s.count for s in data.sender]
    for a, b in zip(back.receiver + back.sender, data.receiver + data.sender, strict=True):
        # meta too: as JSON keeps it, plus the line it was read from where it had none
        expected = _json_equal(b.meta)
        expected.setdefault("line", a.meta["line"])
        assert a.meta == expected, (a.record_id, a.meta, b.meta)


def test_heyyjudes_read_back_keeps_its_people_and_its_map(tmp_path):
    from wordgames.codenames.agents import EmbeddingNearestReceiver
    from wordgames.codenames.human_data import read_user_file, write_user_jsonl
    from wordgames.codenames.measures import receiver_map
    from wordgames.embeddings import load_embedding

    data = load("codenames-human-heyyjudes")
    back = read_user_file(write_user_jsonl(data, tmp_path / "h.jsonl"))
    assert back.summary()["receiver_decisions"] == data.summary()["receiver_decisions"] == 13_280
    assert back.summary()["sender_decisions"] == 3_225
    emb = load_embedding("glove-6b-50d")
    agent = [EmbeddingNearestReceiver(emb)]
    before = receiver_map(agent, data.receiver)["nearest"].summary()
    after = receiver_map(agent, back.receiver)["nearest"].summary()
    assert after["map"] == before["map"] and after["n"] == before["n"] == 13_280
    assert round(before["map"], 3) == 0.725


def test_the_human_data_sets_are_named_once():
    """The measure's data sets are the declarations; every one has a loader, and no more."""
    from wordgames.codenames.spec import DATASETS
    from wordgames.datasets import all_datasets

    declared = {n for n, d in all_datasets().items() if d.family == "codenames"}
    assert set(DATASETS) == declared == set(HUMAN_DATASETS)
    from wordgames.measure import load_entry

    for name, loader in HUMAN_DATASETS.items():
        assert callable(load_entry(loader)), name
        assert loader.startswith("wordgames.codenames.human_data."), loader
