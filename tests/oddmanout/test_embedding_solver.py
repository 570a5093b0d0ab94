"""Cohesion, the embedding solver and the exact sense search, on hand-made puzzles."""

from __future__ import annotations

from itertools import combinations, product

import numpy as np
import pytest

from wordgames.embeddings import Embedding
from wordgames.oddmanout.embedding_solver import (
    EmbeddingSolver,
    cohesion,
    leave_one_out_cohesion,
    sense_leave_one_out_cohesion,
)
from wordgames.oddmanout.phrases import resolve
from wordgames.oddmanout.puzzles import PuzzleSet
from wordgames.oddmanout.senses import SenseEmbedding


def _brute_force(vectors: np.ndarray) -> np.ndarray:
    """Mean pairwise cosine of each leave-one-out subset, by plain loops."""
    u = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    n = len(u)
    out = []
    for k in range(n):
        rest = [i for i in range(n) if i != k]
        out.append(np.mean([u[i] @ u[j] for i, j in combinations(rest, 2)]))
    return np.array(out)


def test_cohesion_by_hand():
    # e1, e2 and (e1+e2)/sqrt2: cosines 0, 1/sqrt2, 1/sqrt2 -> mean sqrt2/3
    v = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    assert cohesion(v) == pytest.approx(np.sqrt(2) / 3)
    assert cohesion(np.array([[1.0, 0], [2.0, 0], [3.0, 0]])) == pytest.approx(1.0)


def test_leave_one_out_by_hand():
    # four identical directions and one orthogonal word: removing it leaves cohesion 1,
    # removing one of the four leaves pairs (1,1,1, 0,0,0): cohesion 0.5
    v = np.array([[1.0, 0, 0]] * 4 + [[0, 1.0, 0]])
    g = (v @ v.T)[None]
    assert leave_one_out_cohesion(g)[0].tolist() == pytest.approx([0.5, 0.5, 0.5, 0.5, 1.0])


def test_leave_one_out_matches_brute_force():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(20, 6, 8))
    u = x / np.linalg.norm(x, axis=2, keepdims=True)
    fast = leave_one_out_cohesion(np.einsum("pid,pjd->pij", u, u))
    slow = np.stack([_brute_force(x[p]) for p in range(20)])
    np.testing.assert_allclose(fast, slow, atol=1e-12)


WORDS = ["cherry", "orange", "apple", "grape", "grass", "tree", "fire_engine", "fire", "engine"]
VECS = np.array(
    [
        [1, 0.1, 0],
        [1, 0.2, 0],
        [1, 0.0, 0.1],
        [1, 0.15, 0],
        [0, 1, 0],
        [0.1, 1, 0.1],
        [0, 0, 1],
        [0.2, 0, 1],
        [0, 0.2, 1],
    ],
    dtype=float,
)
EMB = Embedding(WORDS, VECS, name="toy")


def test_solver_answers_and_scores():
    ps = PuzzleSet.from_odd_first("t", [["grass", "cherry", "orange", "apple", "grape"]], seed=4)
    sol = EmbeddingSolver(EMB).solve(ps)
    assert sol.chosen_words(ps).tolist() == ["grass"]
    rows = EMB.lookup(ps.words[0].tolist()).indices
    np.testing.assert_allclose(sol.scores[0], _brute_force(VECS[rows]), atol=1e-6)
    assert sol.reason[0] == ""


def test_solver_abstains_on_oov_and_counts_it():
    ps = PuzzleSet.from_odd_first(
        "t",
        [
            ["grass", "cherry", "orange", "apple", "kumquat"],
            ["grass", "cherry", "orange", "apple", "grape"],
        ],
    )
    sol = EmbeddingSolver(EMB).solve(ps)
    assert sol.choice[0] == -1 and sol.reason[0] == "oov"
    assert sol.chosen_words(ps)[1] == "grass"
    assert sol.oov["oov_words"] == 1 and sol.oov["puzzles_with_oov"] == 1
    assert sol.oov["oov_examples"] == ["kumquat"]


def test_exact_tie_abstains():
    emb = Embedding(list("abcde"), np.eye(5), name="ortho")
    ps = PuzzleSet.from_odd_first("t", [list("abcde")])
    sol = EmbeddingSolver(emb).solve(ps)
    assert sol.choice[0] == -1 and sol.reason[0] == "tie"


@pytest.mark.parametrize(
    ("policy", "how"),
    [
        ("phrase", ["phrase", "oov"]),
        ("mean", ["mean", "mean"]),
        ("phrase-or-mean", ["phrase", "mean"]),
        ("abstain", ["oov", "oov"]),
    ],
)
def test_multiword_policies(policy, how):
    emb = Embedding(["fire_engine", "fire", "engine", "truck"], np.eye(4), name="t")
    r = resolve(emb, ["fire engine", "fire truck"], mwe=policy)
    assert r.how.tolist() == how
    if how[1] == "mean":
        vec = r.senses.unit[r.index[1]]
        np.testing.assert_allclose(vec, [0, 1 / np.sqrt(2), 0, 1 / np.sqrt(2)], atol=1e-6)


def test_multiword_policy_recorded_and_changes_answers():
    ps = PuzzleSet.from_odd_first("t", [["grass", "fire engine", "fire", "engine", "tree"]])
    a = EmbeddingSolver(EMB, mwe="phrase").solve(ps)
    b = EmbeddingSolver(EMB, mwe="abstain").solve(ps)
    assert a.parameters["mwe"] == "phrase" and b.parameters["mwe"] == "abstain"
    assert a.choice[0] >= 0 and b.reason[0] == "oov"


def test_case_fallback():
    r = resolve(EMB, ["Cherry", "CHERRY"], case="fallback-lower")
    assert r.how.tolist() == ["lower", "lower"]
    assert resolve(EMB, ["Cherry"], case="exact").how.tolist() == ["oov"]


def test_unknown_policy_is_rejected():
    with pytest.raises(ValueError, match="mwe policy"):
        resolve(EMB, ["x"], mwe="glue")


# --------------------------------------------------------------------------- senses
def test_multi_sense_puzzle_by_hand():
    # "bat" has an animal sense (= e1) and a sports sense (= e2). Animals are e1, sports e2.
    # Puzzle bat, owl, moth, mouse, glove: with the animal sense the four animals are
    # perfectly cohesive (1.0) once glove is removed; a one-sense "bat" halfway in between
    # would make bat look odd instead.
    e1, e2 = np.array([1.0, 0, 0]), np.array([0, 1.0, 0])
    senses = {
        "bat": np.stack([e1, e2]),
        "owl": e1[None],
        "moth": e1[None],
        "mouse": e1[None],
        "glove": e2[None],
        "ball": e2[None],
        "cap": e2[None],
    }
    se = SenseEmbedding.from_dict(senses, name="hand")
    ps = PuzzleSet.from_odd_first(
        "t",
        [["glove", "bat", "owl", "moth", "mouse"], ["owl", "bat", "glove", "ball", "cap"]],
        seed=2,
    )
    sol = EmbeddingSolver(se).solve(ps)
    assert sol.chosen_words(ps).tolist() == ["glove", "owl"]
    k = ps.answer[0]
    assert sol.scores[0, k] == pytest.approx(1.0)
    # removing an animal leaves bat + 2 animals + glove: best is bat=animal: pairs
    # (1,1,1,0,0,0) -> 0.5
    others = [i for i in range(5) if i != k and ps.words[0, i] != "bat"]
    assert sol.scores[0, others].tolist() == pytest.approx([0.5, 0.5, 0.5])
    # the chosen sense of bat in the winning subset is the animal one (sense 0)
    bat = ps.words[0].tolist().index("bat")
    assert sol.extra["senses"][0, k, bat] == 0
    # one sense (the mean of both, (e1+e2)/sqrt2) is less cohesive with the animals:
    # three pairs at 1/sqrt2 and three at 1 -> (3/sqrt2 + 3) / 6
    mean = SenseEmbedding.from_dict({w: v.mean(axis=0, keepdims=True) for w, v in senses.items()})
    one = EmbeddingSolver(mean).solve(ps)
    assert one.scores[0, k] == pytest.approx((3 / np.sqrt(2) + 3) / 6)


def test_sense_search_matches_brute_force():
    rng = np.random.default_rng(1)
    P, n, K, d = 6, 5, 3, 4
    v = rng.normal(size=(P, n, K, d))
    v /= np.linalg.norm(v, axis=3, keepdims=True)
    mask = rng.random((P, n, K)) < 0.7
    mask[:, :, 0] = True
    coh, senses = sense_leave_one_out_cohesion(v, mask, batch_elements=50)  # tiny batches
    for p in range(P):
        for k in range(n):
            rest = [i for i in range(n) if i != k]
            best = -np.inf
            for choice in product(*[np.flatnonzero(mask[p, i]) for i in rest]):
                vs = [v[p, i, c] for i, c in zip(rest, choice, strict=True)]
                best = max(best, np.mean([a @ b for a, b in combinations(vs, 2)]))
            assert coh[p, k] == pytest.approx(best, abs=1e-12)
            chosen = [v[p, i, senses[p, k, i]] for i in rest]
            assert np.mean([a @ b for a, b in combinations(chosen, 2)]) == pytest.approx(best)


def test_one_sense_case_equals_the_embedding_solver():
    rng = np.random.default_rng(2)
    words = [f"w{i}" for i in range(30)]
    emb = Embedding(words, rng.normal(size=(30, 10)), name="rand")
    rows = [rng.choice(words, 5, replace=False).tolist() for _ in range(40)]
    ps = PuzzleSet.from_odd_first("t", rows)
    a = EmbeddingSolver(emb).solve(ps)
    # force the exact sense search: every word gets its vector twice (two equal senses)
    senses = {w: np.stack([emb.vectors[i]] * 2) for i, w in enumerate(words)}
    b = EmbeddingSolver(SenseEmbedding.from_dict(senses)).solve(ps)
    assert "senses" not in a.extra and "senses" in b.extra
    np.testing.assert_allclose(a.scores, b.scores, atol=1e-6)
    assert (a.choice == b.choice).all()
    # blocks of 7 puzzles give the same numbers as one block
    c = EmbeddingSolver(SenseEmbedding.from_dict(senses), batch_puzzles=7).solve(ps)
    np.testing.assert_array_equal(b.scores, c.scores)
    np.testing.assert_array_equal(b.extra["senses"], c.extra["senses"])


def test_sense_search_refuses_huge_grids():
    v = np.zeros((1, 9, 10, 2))
    v[..., 0] = 1
    with pytest.raises(ValueError, match="combinations"):
        sense_leave_one_out_cohesion(v, np.ones((1, 9, 10), bool), max_combinations=1000)


def test_sense_embedding_save_load(tmp_path):
    se = SenseEmbedding(["a", "b"], np.arange(9.0).reshape(3, 3), [0, 2, 3], name="x")
    back = SenseEmbedding.load(se.save(tmp_path / "s.npz"))
    assert back.words.tolist() == ["a", "b"] and back.n_senses("a") == 2
    np.testing.assert_array_equal(back.vectors, se.vectors)


def test_sense_embedding_validates():
    with pytest.raises(ValueError, match="at least"):
        SenseEmbedding(["a", "b"], np.eye(2), [0, 2, 2])


def test_glove_on_the_papers_cocktails(glove):
    # paper 5.2 with word2vec: monosemous replacements keep "chicken", polysemous ones are
    # chosen; GloVe 6B shows the same bias on the same puzzle
    from wordgames.oddmanout.analysis import COCKTAILS, substitution_experiment

    c = COCKTAILS
    out = substitution_experiment(
        EmbeddingSolver(glove),
        c["odd"],
        c["others"],
        c["target"],
        {k: c[k] for k in ("monosemous", "polysemous")},
    )
    s = out["summary"]
    assert s["polysemous"]["chose_replacement"] > s["monosemous"]["chose_replacement"]
    assert s["monosemous"]["correct"] > s["polysemous"]["correct"]
