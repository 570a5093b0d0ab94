"""CBM's two counting conventions, ties and EOS, against hand-worked logs (issue 13, part 1).

``occurrences`` (the default) counts every occurrence of a word, as the paper and the authors'
script (bcarmeli/cbm, ``concept_best_match.py``) do; ``types`` counts a word once per message.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import numpy as np
import pytest
from typer.testing import CliRunner

import wordgames
from wordgames.emergent.cbm import (
    COUNTINGS,
    cbm_sensitivity,
    concept_best_matching,
    first_appearance,
    word_count_matrix,
)
from wordgames.emergent.inputs import encode_concepts, encode_messages
from wordgames.emergent.measures import evaluate_language
from wordgames.measure import MeasureResult, OptionError
from wordgames.registry import get_measure

# A log with repeated symbols:
#   S1 "a a a" {red}   S2 "b" {red}   S3 "b" {red}
#   S4 "c c" {blue}    S5 "c c" {blue}   S6 "c" {green}
REPEATS = (
    [["a", "a", "a"], ["b"], ["b"], ["c", "c"], ["c", "c"], ["c"]],
    [["red"], ["red"], ["red"], ["blue"], ["blue"], ["green"]],
)


def _cbm(messages, concepts, counting="occurrences", **kw):
    return concept_best_matching(
        encode_messages(messages, **kw), encode_concepts(concepts), counting=counting
    )


def _exact(x: float, fraction: F) -> bool:
    return x == pytest.approx(float(fraction), abs=1e-15)


def test_repeated_symbols_counted_as_occurrences_by_hand():
    # weights: a-red 3 (S1), b-red 2 (S2, S3), c-blue 4 (S4, S5), c-green 1 (S6)
    # best match a-red + c-blue = 7 (b-red + c-blue = 6); b is left over, green unmatched
    # Q = max(3,1) + 1 + 1 + max(2,1) + max(2,1) + 1 = 10 -> CBM 7/10
    # word side: good 3 (S1) + 2 + 2 = 7; paraphrase b twice = 2; ambiguity c in S6 = 1 (of 10)
    #   -> ambiguity 1/10, paraphrase 2/10 (over Q, as the authors' script)
    # concept side (6 concept occurrences): good red (S1), blue (S4, S5) = 3; omission red in S2,
    #   S3 (its word a is absent) = 2; unmatched green = 1 -> unmatched 1/6, omission 2/6
    # precision = distinct good words / message length: 1/3, 0, 0, 1/2, 1/2, 0 -> mean 2/9
    # recall = distinct good words / label length: 1, 0, 0, 1, 1, 0 -> 1/2
    r = _cbm(*REPEATS)
    assert r.counting == "occurrences"
    assert r.graph.tolist() == [[0, 0, 3], [0, 0, 2], [4, 1, 0]]  # concepts blue, green, red
    assert r.translation() == {"c": ("blue", 4.0), "a": ("red", 3.0)}
    assert r.matched_weight == 7 and r.q == 10 and r.score == 0.7
    assert r.rates == {
        "ambiguity": 0.1,
        "paraphrase": 0.2,
        "omission": 2 / 6,
        "unmatched_concept": 1 / 6,
    }
    assert r.denominators == {
        "ambiguity": 10,
        "paraphrase": 10,
        "omission": 6,
        "unmatched_concept": 6,
    }
    assert _exact(r.precision, F(2, 9)) and r.recall == 0.5
    c = r.counts
    assert (c["word_occurrences"], c["good"], c["ambiguous"], c["paraphrase"]) == (10, 7, 1, 2)
    assert (c["concept_occurrences"], c["good_concept"], c["omitted"]) == (6, 3, 2)
    assert c["unmatched_concept"] == 1
    # translation table: a occurs 3 times, all for red; c 5 times, 4 of them for blue;
    # red's 3 labels hold a once, blue's 2 labels hold c twice
    table = {row["word"]: row for row in r.translation_table()}
    assert (table["a"]["word_uses"], table["a"]["share"]) == (3, 1.0)
    assert (table["a"]["concept_uses"], table["a"]["concept_share"]) == (3, 1 / 3)
    assert (table["c"]["word_uses"], table["c"]["share"]) == (5, 0.8)
    assert (table["c"]["concept_uses"], table["c"]["concept_share"]) == (2, 1.0)


def test_repeated_symbols_counted_as_types_by_hand():
    # each word once per message: weights a-red 1, b-red 2, c-blue 2, c-green 1
    # best match b-red + c-blue = 4 (a-red + c-blue = 3): the translation of red changes
    # Q = 6 (one word, one concept per sample) -> CBM 4/6
    # word side: a in S1 paraphrase 1, c in S6 ambiguity 1; concept side: red in S1 omitted
    # (b absent) 1, green unmatched 1 -> every rate 1/6 (all over Q)
    # precision = recall = mean(0, 1, 1, 1, 1, 0) = 2/3
    r = _cbm(*REPEATS, counting="types")
    assert r.graph.tolist() == [[0, 0, 1], [0, 0, 2], [2, 1, 0]]
    assert r.translation() == {"b": ("red", 2.0), "c": ("blue", 2.0)}
    assert r.matched_weight == 4 and r.q == 6 and _exact(r.score, F(2, 3))
    assert r.rates == {
        k: 1 / 6 for k in ("ambiguity", "paraphrase", "omission", "unmatched_concept")
    }
    assert set(r.denominators.values()) == {6}
    assert _exact(r.precision, F(2, 3)) and _exact(r.recall, F(2, 3))


def test_doubled_words_change_precision_and_can_change_cbm():
    # a perfect code whose sender says every word twice: "r r" {red}, "b b" {blue}, and a
    # paraphrase "x x" for red once. occurrences: weights r-red 4, b-blue 4, x-red 2;
    # match 8, Q = 2 * 5 = 10 -> 0.8, paraphrase 2/10. types: r-red 2, b-blue 2, x-red 1;
    # match 4, Q = 5 -> 0.8. The scores agree, the precision does not: occurrences divides the
    # one distinct good word by the message length 2 -> (1/2 * 4 + 0) / 5 = 0.4; types 4/5.
    msgs = [["r", "r"], ["r", "r"], ["b", "b"], ["b", "b"], ["x", "x"]]
    labels = [["red"], ["red"], ["blue"], ["blue"], ["red"]]
    occ, typ = _cbm(msgs, labels), _cbm(msgs, labels, counting="types")
    assert (occ.matched_weight, occ.q, occ.score) == (8, 10, 0.8)
    assert (typ.matched_weight, typ.q, typ.score) == (4, 5, 0.8)
    assert occ.precision == 0.4 and typ.precision == 0.8
    assert occ.recall == typ.recall == 0.8
    # with the label longer than the message the doubled words double CBM: "r r" for
    # {red, big}, "b" for {blue, big}: occurrences r-red 2, r-big 2, b-blue 1, b-big 1 ->
    # r-red + b-blue = 3 (or r-big + b-blue: 3, a tie; first appearance: red before big)
    # Q = 2 + 2 = 4 -> 3/4; types: weights 1 each, match 2, Q 4 -> 1/2 (x 1.5)
    msgs, labels = [["r", "r"], ["b"]], [["red", "big"], ["blue", "big"]]
    assert _cbm(msgs, labels).score == 0.75
    assert _cbm(msgs, labels, counting="types").score == 0.5


def test_deduplicated_messages_agree_exactly():
    # no word repeated within a message: every weight, Q, the matching, CBM, the word-side rates,
    # precision and recall are the same; the concept-side rates differ only by their
    # denominators (the concept occurrences instead of Q)
    rng = np.random.default_rng(7)
    msgs = [list(rng.choice(9, rng.integers(1, 5), replace=False)) for _ in range(400)]
    labels = [
        [f"f{k}={rng.integers(0, 3)}" for k in rng.choice(3, rng.integers(1, 4), replace=False)]
        for _ in range(400)
    ]
    occ, typ = _cbm(msgs, labels), _cbm(msgs, labels, counting="types")
    assert np.array_equal(occ.graph, typ.graph) and occ.q == typ.q
    assert np.array_equal(occ.word_match, typ.word_match)
    assert occ.score == typ.score and occ.precision == typ.precision
    assert occ.recall == typ.recall and occ.counts == typ.counts
    for k in ("ambiguity", "paraphrase"):
        assert occ.rates[k] == typ.rates[k]
    n_concepts = occ.counts["concept_occurrences"]
    for k in ("omission", "unmatched_concept"):
        assert occ.rates[k] * n_concepts == pytest.approx(typ.rates[k] * typ.q)


def test_occurrence_classes_partition_and_score_stays_in_unit_interval():
    rng = np.random.default_rng(3)
    msgs = rng.integers(0, 5, size=(300, 6))  # many repeats
    labels = [
        [f"f{k}={rng.integers(0, 4)}" for k in rng.choice(3, rng.integers(1, 4), False)]
        for _ in range(300)
    ]
    r = _cbm(msgs, labels, eos_id=0)
    c = r.counts
    assert c["good"] + c["ambiguous"] + c["paraphrase"] == c["word_occurrences"]
    assert c["good_concept"] + c["omitted"] + c["unmatched_concept"] == c["concept_occurrences"]
    assert r.matched_weight == c["good"] and 0.0 <= r.score <= 1.0
    assert r.score + r.rates["ambiguity"] + r.rates["paraphrase"] == pytest.approx(
        c["word_occurrences"] / r.q
    )
    assert c["good_concept"] / c["concept_occurrences"] + r.rates["omission"] + r.rates[
        "unmatched_concept"
    ] == pytest.approx(1.0)
    lengths = encode_messages(msgs, eos_id=0).lengths
    assert r.q == np.maximum(lengths, [len(x) for x in labels]).sum()
    assert all(row["share"] <= 1.0 and row["concept_share"] <= 1.0 for row in r.translation_table())


def test_ties_follow_first_appearance_as_the_authors_script():
    # a word tie: "b" {y}, then "a" {y}: a-y 1, b-y 1. The script indexes words in order of
    # appearance (b, a) and the assignment keeps the first: b. (Sorted by name, a would win.)
    r = _cbm([["b"], ["a"]], [["y"], ["y"]])
    assert r.translation() == {"b": ("y", 1.0)}
    assert r.rates["paraphrase"] == 0.5 and r.per_message["paraphrase"].tolist() == [0, 1]
    # a concept tie: "a" {y}, then "a" {x}: y appears first and wins; x is unmatched (1 of 2)
    r = _cbm([["a"], ["a"]], [["y"], ["x"]])
    assert r.translation() == {"a": ("y", 1.0)} and r.rates["unmatched_concept"] == 0.5
    # words that first appear in a sample without concepts are ordered by their next appearance
    m = encode_messages([["z"], ["c", "z"]])
    c = encode_concepts([[], ["k"]])
    assert [o.tolist() for o in first_appearance(m, c.matrix)] == [[0, 1], [0]]


def test_concepts_of_one_label_tie_by_column_order():
    # the documented difference: labels are sets, so two concepts first seen in the same label
    # tie by their column (name) order, where the script would take the order they were written
    # in. "a" {y, x}: a-x 1, a-y 1 -> x.
    r = _cbm([["a"]], [["y", "x"]])
    assert r.translation() == {"a": ("x", 1.0)}


def test_eos_and_what_follows_are_never_words():
    # EOS 0: "3 3 0 5" {red} -> the words 3, 3; "4 0 0" {blue} -> 4; "0 7" {green} -> no word
    # occurrences: weights 3-red 2, 4-blue 1; Q = 2 + 1 + 1 = 4 -> CBM 3/4; green unmatched
    #   (1 of 3 concept occurrences); precision (messages with a word) mean(1/2, 1) = 3/4
    # types: 3-red 1, 4-blue 1; Q = 1 + 1 + 1 = 3 -> CBM 2/3; unmatched 1/3 (over Q)
    msgs = [["3", "3", "0", "5"], ["4", "0", "0"], ["0", "7"]]
    labels = [["red"], ["blue"], ["green"]]
    occ = _cbm(msgs, labels, eos_id=0)
    typ = _cbm(msgs, labels, counting="types", eos_id=0)
    assert list(occ.words) == ["3", "4"]
    assert (occ.q, occ.score) == (4, 0.75) and occ.rates["unmatched_concept"] == 1 / 3
    assert occ.precision == 0.75 and occ.counts["messages_without_words"] == 1
    assert (typ.q, _exact(typ.score, F(2, 3))) == (3, True)
    assert typ.rates["unmatched_concept"] == 1 / 3 and typ.precision == 1.0
    # the integer form with padding 9: the same numbers
    ids = np.array([[3, 3, 0, 5], [4, 9, 0, 0], [0, 7, 9, 9]])
    r = evaluate_language(ids, labels, eos_id=0, pad_id=9, measures=["cbm"])
    assert (r.cbm, r.unmatched_concept_rate, r.precision) == (0.75, 1 / 3, 0.75)


def test_word_count_matrix_counts_repeats():
    m = encode_messages([["a", "b", "a"], ["b"], ["c", "a"]])
    assert word_count_matrix(m).toarray().tolist() == [[2, 1, 0], [0, 1, 0], [1, 0, 1]]


def test_sensitivity_follows_the_counting():
    msgs, labels = REPEATS
    m, c = encode_messages(msgs * 3), encode_concepts(labels * 3)
    for counting in COUNTINGS:
        rows = cbm_sensitivity(m, c, step=6, max_samples=None, counting=counting)
        whole = concept_best_matching(m, c, counting=counting).score
        assert rows[-1]["accumulated"] == pytest.approx(whole)
        assert rows[0]["segment"] == pytest.approx(
            _cbm(msgs, labels, counting=counting).score
        )  # 0.7 and 2/3


def test_unknown_counting_is_refused():
    with pytest.raises(OptionError, match="expected one of 'occurrences', 'types'"):
        get_measure("cbm").make_options({"counting": "tokens"})
    assert get_measure("cbm").make_options({}).counting == "occurrences"
    with pytest.raises(ValueError, match="unknown counting"):
        evaluate_language([["a"]], [["x"]], counting="set")


def _write(path, messages, labels):
    with open(path, "w", encoding="utf-8") as fh:
        for m, c in zip(messages, labels, strict=True):
            fh.write(json.dumps({"message": m + ["<eos>"], "concepts": c}) + "\n")
    return path


@pytest.mark.slow
def test_counting_reaches_the_measure_from_the_api_and_the_cli(tmp_path):
    from wordgames.cli import app

    log = _write(tmp_path / "rep.jsonl", *REPEATS)
    expected = {"occurrences": 0.7, "types": 2 / 3}
    for counting, value in expected.items():
        opts = {"logs": [str(log)], "eos_id": "<eos>", "counting": counting}
        res = wordgames.evaluate(measures=["cbm"], options={"cbm": opts})
        assert res.result("cbm").value("cbm") == pytest.approx(value, abs=1e-15)
    # the CLI, twice into one store: the second convention is computed, not reused
    out = tmp_path / "store"
    for counting in ("types", "occurrences"):
        args = ["cbm", "evaluate", str(log), "-o", str(out), "--eos-id", "<eos>"]
        res = CliRunner().invoke(app, [*args, "--counting", counting])
        assert res.exit_code == 0, res.output
        rec = json.loads((out / "cbm_rep.json").read_text())
        assert MeasureResult.from_dict(rec).value("cbm") == pytest.approx(
            expected[counting], abs=1e-15
        )
        assert rec["parameters"][str(log)]["counting"] == counting
    bad = CliRunner().invoke(
        app, ["cbm", "evaluate", str(log), "-o", str(tmp_path / "bad"), "--counting", "set"]
    )
    assert bad.exit_code != 0 and "occurrences" in bad.output
