"""CBM and its by-products on toy languages whose numbers are worked out by hand."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from wordgames.emergent.cbm import (
    best_match,
    cbm_sensitivity,
    concept_best_matching,
    cooccurrence_graph,
    word_occurrence_matrix,
)
from wordgames.emergent.inputs import encode_concepts, encode_messages
from wordgames.emergent.measures import evaluate_language

COLORS = ["red", "blue", "green"]
SHAPES = ["box", "orb", "cone"]


def _cbm(messages, concepts, counting="occurrences", **kw):
    return concept_best_matching(
        encode_messages(messages, **kw), encode_concepts(concepts), counting=counting
    )


def test_compositional_language_scores_one():
    # one word per concept, two-word messages in both orders, EOS 0 and padding 9 around them
    rng = np.random.default_rng(0)
    msgs, labels = [], []
    for _ in range(200):
        c, s = rng.integers(0, 3), rng.integers(0, 3)
        words = [10 + c, 20 + s]
        if rng.random() < 0.5:
            words = words[::-1]
        msgs.append(words + [0, 9, 9] if rng.random() < 0.5 else words + [9, 0, 5])
        labels.append([f"color={COLORS[c]}", f"shape={SHAPES[s]}"])
    r = evaluate_language(np.array(msgs), labels, eos_id=0, pad_id=9)
    assert r.cbm == 1.0
    assert r.precision == 1.0 and r.recall == 1.0
    assert r.unmatched_concept_rate == 0.0
    assert r.ambiguity_rate == r.paraphrase_rate == r.omission_rate == 0.0
    assert r.n_unique_words == 6  # EOS, padding and the 5 after EOS are not words
    assert {w: c for w, (c, _) in r.translation.items()} == {
        "10": "color=red",
        "11": "color=blue",
        "12": "color=green",
        "20": "shape=box",
        "21": "shape=orb",
        "22": "shape=cone",
    }
    # AMI works on whole message strings: "10 20" and "20 10" are two messages for one phrase,
    # so free word order costs AMI what it does not cost CBM
    assert r.ami < 0.9
    fixed = [sorted(m[: m.index(0)] if 0 in m else m) + [0] for m in msgs]
    fixed = [m + [0] * (6 - len(m)) for m in fixed]
    assert evaluate_language(np.array(fixed), labels, eos_id=0, pad_id=9).ami == pytest.approx(1.0)


def test_holistic_language_by_hand():
    # one symbol per object, labels with both concepts:
    #   a: red box, b: red orb, c: blue box, d: blue orb (each once)
    # graph: every word has weight 1 to its two concepts. A perfect matching of weight 4 exists
    # (e.g. a-red, b-orb, c-box, d-blue); whichever is chosen each matched word's concept is in
    # its own label, so good = 4, ambiguity = paraphrase = 0.
    # Q = sum max(1 word, 2 concepts) = 8 -> CBM = 4/8 = 0.5.
    # concept side: every concept is matched; in each label one concept is matched to the word
    # present (good) and the other to an absent word -> omission 4 -> 4/8 = 0.5, unmatched 0.
    # precision per message 1/1 = 1, recall 1/2.
    msgs = [["a"], ["b"], ["c"], ["d"]]
    labels = [["red", "box"], ["red", "orb"], ["blue", "box"], ["blue", "orb"]]
    r = _cbm(msgs, labels)
    assert r.score == 0.5
    assert r.rates == {
        "ambiguity": 0.0,
        "paraphrase": 0.0,
        "omission": 0.5,
        "unmatched_concept": 0.0,
    }
    assert r.precision == 1.0 and r.recall == 0.5
    assert r.counts["good"] == 4 and r.counts["omitted"] == 4 and r.q == 8


def test_paraphrasing_language_by_hand():
    # red is said "a" or "b", blue "c":  (a, red) (b, red) (c, blue) (a, red)
    # weights a-red 2, b-red 1, c-blue 1 -> match a-red, c-blue (3); b is a paraphrase.
    # Q = 4 (one word, one concept each) -> CBM 3/4, paraphrase 1/4.
    # sample (b, red): red is matched to the absent a -> omission 1/4; unmatched 0.
    # precision = recall = mean(1, 0, 1, 1) = 0.75
    r = _cbm([["a"], ["b"], ["c"], ["a"]], [["red"], ["red"], ["blue"], ["red"]])
    assert r.score == 0.75
    assert r.rates == {
        "ambiguity": 0.0,
        "paraphrase": 0.25,
        "omission": 0.25,
        "unmatched_concept": 0.0,
    }
    assert r.precision == 0.75 and r.recall == 0.75
    assert r.translation() == {"a": ("red", 2.0), "c": ("blue", 1.0)}
    assert r.counts["unmatched_word_types"] == 1


def test_ambiguous_language_by_hand():
    # "a" is said for red and for blue: (a, red) (a, red) (a, blue) (g, green)
    # weights a-red 2, a-blue 1, g-green 1 -> match a-red, g-green (3); blue stays unmatched.
    # Q = 4 -> CBM 3/4. sample (a, blue): a is matched to red, absent -> ambiguity 1/4;
    # its concept blue has no matched word -> unmatched concept 1/4. paraphrase = omission = 0.
    # precision = recall = mean(1, 1, 0, 1) = 0.75
    r = _cbm([["a"], ["a"], ["a"], ["g"]], [["red"], ["red"], ["blue"], ["green"]])
    assert r.score == 0.75
    assert r.rates == {
        "ambiguity": 0.25,
        "paraphrase": 0.0,
        "omission": 0.0,
        "unmatched_concept": 0.25,
    }
    assert r.precision == 0.75 and r.recall == 0.75
    assert r.counts["unmatched_concept_types"] == 1


def test_repeated_words_count_once_and_score_stays_in_unit_interval():
    # "a a a" for red: one word (a set), weight 1, Q = max(1, 1) = 1 -> CBM 1 (not 3)
    r = _cbm([["a", "a", "a"], ["b", "b"]], [["red"], ["blue"]], counting="types")
    assert r.score == 1.0 and r.counts["word_occurrences"] == 2
    # longer messages than labels: "a x" for red, "b x" for blue
    # weights a-red 1, b-blue 1, x-red 1, x-blue 1: best match weight 2, a tie between
    # {a-red, b-blue}, {a-red, x-blue} and {x-red, b-blue}. Broken as the authors' script does
    # (words in first-appearance order a, x, b; red first takes a, its first free candidate;
    # blue's candidates x and b tie and x appears first): a-red, x-blue; b is left over.
    # Q = 2 + 2 = 4 -> CBM 0.5; sample 1: x is matched to blue, absent -> ambiguity 1/4;
    # sample 2: b unmatched -> paraphrase 1/4. precision mean(1/2, 1/2), recall 1.
    r = _cbm([["a", "x"], ["b", "x"]], [["red"], ["blue"]], counting="types")
    assert r.translation() == {"a": ("red", 1.0), "x": ("blue", 1.0)}
    assert r.score == 0.5 and r.rates["paraphrase"] == 0.25 and r.rates["ambiguity"] == 0.25
    assert r.precision == 0.5 and r.recall == 1.0


def test_zero_weight_pairs_are_not_matches():
    # words a, b only ever appear with red: the Hungarian algorithm pairs b with blue at weight 0
    # in the rectangular assignment, which must not count as a match
    r = _cbm([["a"], ["a"], ["b"], ["c"]], [["red"], ["red"], ["red"], ["blue"]])
    assert r.translation() == {"a": ("red", 2.0), "c": ("blue", 1.0)}
    g = np.array([[2.0, 0.0], [1.0, 0.0]])
    rows, cols = best_match(g)
    assert rows.tolist() == [0] and cols.tolist() == [0]


def test_rates_partition_word_and_concept_occurrences():
    rng = np.random.default_rng(3)
    msgs = rng.integers(0, 8, size=(300, 4))
    labels = [
        [f"f{k}={rng.integers(0, 4)}" for k in rng.choice(3, rng.integers(1, 4), False)]
        for _ in range(300)
    ]
    r = _cbm(msgs, labels, counting="types", eos_id=0)
    c = r.counts
    assert c["good"] + c["ambiguous"] + c["paraphrase"] == c["word_occurrences"]
    assert c["good"] + c["omitted"] + c["unmatched_concept"] == c["concept_occurrences"]
    assert r.score + r.rates["ambiguity"] + r.rates["paraphrase"] == pytest.approx(
        c["word_occurrences"] / r.q
    )
    assert r.score + r.rates["omission"] + r.rates["unmatched_concept"] == pytest.approx(
        c["concept_occurrences"] / r.q
    )
    assert 0.0 <= r.score <= 1.0
    assert r.matched_weight == c["good"]


def _brute_force(g: np.ndarray) -> float:
    n_r, n_c = g.shape
    if n_r <= n_c:
        return max(
            sum(g[i, p[i]] for i in range(n_r)) for p in itertools.permutations(range(n_c), n_r)
        )
    return max(sum(g[p[j], j] for j in range(n_c)) for p in itertools.permutations(range(n_r), n_c))


@pytest.mark.parametrize("seed", range(12))
def test_best_match_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    n_r, n_c = rng.integers(1, 7), rng.integers(1, 7)
    # sparse small integer weights: many zeros and ties
    g = rng.integers(0, 4, size=(n_r, n_c)) * (rng.random((n_r, n_c)) < 0.6)
    rows, cols = best_match(g)
    assert len(set(rows.tolist())) == rows.size and len(set(cols.tolist())) == cols.size
    assert (g[rows, cols] > 0).all()
    assert g[rows, cols].sum() == _brute_force(g)


@pytest.mark.parametrize("shape", [(20, 3), (3, 20), (30, 2)])
def test_best_match_pruning_of_many_rows_or_columns(shape):
    # many more words than concepts (or the reverse): the rectangular assignment is optimal
    rng = np.random.default_rng(sum(shape))
    g = rng.integers(0, 6, size=shape).astype(float)
    rows, cols = best_match(g)
    assert g[rows, cols].sum() == _brute_force(g)


def test_graph_is_cooccurrence_product():
    m = encode_messages([["a", "b", "a"], ["b"], ["c", "a"]])
    c = encode_concepts([["x", "y"], ["y"], ["x"]])
    occ = word_occurrence_matrix(m)
    assert occ.toarray().tolist() == [[1, 1, 0], [0, 1, 0], [1, 0, 1]]
    # a: in samples 0 (x, y) and 2 (x) -> x 2, y 1; b: samples 0, 1 -> x 1, y 2; c: sample 2 -> x 1
    assert cooccurrence_graph(occ, c.matrix).tolist() == [[2, 1], [1, 2], [1, 0]]


def test_sensitivity_accumulated_and_segmented():
    rng = np.random.default_rng(0)
    msgs = rng.integers(1, 6, size=(450, 2))
    labels = [[f"c{x}"] for x in rng.integers(0, 5, 450)]
    m, c = encode_messages(msgs), encode_concepts(labels)
    rows = cbm_sensitivity(m, c, step=100, max_samples=None)
    assert [r["n_samples"] for r in rows] == [100, 200, 300, 400, 450]
    assert rows[-1]["accumulated"] == pytest.approx(concept_best_matching(m, c).score)
    assert rows[0]["accumulated"] == rows[0]["segment"]
    seg2 = concept_best_matching(m.take(range(100, 200)), c.take(range(100, 200))).score
    assert rows[1]["segment"] == pytest.approx(seg2)
    assert len(cbm_sensitivity(m, c, step=100, max_samples=250)) == 3


def test_messages_without_words_are_counted():
    r = evaluate_language(np.array([[0, 3], [4, 0], [0, 0]]), [["x"], ["y"], ["x"]], eos_id=0)
    # message 0 and 2 are empty (EOS first); message 1 = "4" for y: match 4-y
    # Q = 1 + 1 + 1 = 3, CBM 1/3; x is unmatched twice -> 2/3
    assert r.cbm == pytest.approx(1 / 3)
    assert r.unmatched_concept_rate == pytest.approx(2 / 3)
    assert r.counts["messages_without_words"] == 2
    assert r.precision == 1.0  # over the one message with a word
    assert r.recall == pytest.approx(1 / 3)
    assert any("no word" in n for n in r.notes)
