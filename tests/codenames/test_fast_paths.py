"""The shortcuts of the Codenames measures agree with the straightforward computation."""

from __future__ import annotations

import numpy as np
import pytest

from tests.codenames._toy import random_embedding
from wordgames.codenames.agents import (
    ClusterSender,
    ColumnSubset,
    VocabSims,
    _cluster_words,
    _distinct_rows,
    _largest_blue_cluster,
    _largest_blue_sets,
    batched_kmeans,
)
from wordgames.codenames.board import derive_rng
from wordgames.codenames.measures import RankProblem, sender_ranks


def test_distinct_rows_equals_numpy_unique_rows():
    rng = np.random.default_rng(0)
    for _ in range(300):
        n, m = int(rng.integers(1, 70)), int(rng.integers(1, 30))
        mask = rng.random((m, n)) < rng.random()
        mask = np.concatenate([mask, mask[rng.integers(0, m, 4)]])  # repeated rows
        np.testing.assert_array_equal(_distinct_rows(mask), np.unique(mask, axis=0))


def test_largest_blue_sets_equal_the_onehot_computation():
    # the compiled coding of clusters against the straightforward one: every run's clusters
    # as membership masks, the all-blue ones of the largest size, distinct rows in np.unique order
    rng = np.random.default_rng(1)
    for _ in range(300):
        n, runs = int(rng.integers(1, 26)), int(rng.integers(1, 40))
        labels = rng.integers(0, int(rng.integers(1, n + 1)), size=(runs, n))
        is_blue = rng.random(n) < rng.random()
        onehot = labels[:, :, None] == np.arange(n)
        size = onehot.sum(1)
        ok = (size > 0) & ~(onehot & ~is_blue[None, :, None]).any(1)
        got = _largest_blue_sets(labels, is_blue)
        if not ok.any():
            assert got is None
            continue
        cand = np.argwhere(ok & (size == size[ok].max()))
        want = np.unique(onehot[cand[:, 0], :, cand[:, 1]], axis=0)
        np.testing.assert_array_equal(got, want)


def _full_kmeans_choice(sender, blue, red):
    """ClusterSender's choice computed the long way: k-means always runs."""
    words = sorted(blue + red)
    x = np.asarray(sender.embedding.vectors_for(words, normalized=True)[0], dtype=np.float64)
    is_blue = np.isin(words, blue)
    rng = derive_rng(sender.random_state, *sorted(blue), "|", *sorted(red))
    ks = list(range(1, min(sender.max_clusters, len(words)) + 1))
    labels = batched_kmeans(x, ks, sender.n_restarts, rng, sender.max_iter)[0]
    return _cluster_words(words, x, is_blue, _largest_blue_cluster(x, is_blue, labels))


@pytest.mark.parametrize("max_clusters", [1, 2, 10])
def test_one_blue_word_shortcut_equals_kmeans(max_clusters):
    # max_clusters 1 and 2 on 9 words: often no all-blue cluster, so the fallback decides
    emb = random_embedding(60, 4, seed=3)
    rng = np.random.default_rng(4)
    sender = ClusterSender(emb, n_restarts=3, max_clusters=max_clusters, random_state=1)
    for _ in range(25):
        words = [f"w{i}" for i in rng.choice(60, 9, replace=False)]
        blue, red = words[:1], words[1:]
        assert sender.choose_cluster(blue, red) == _full_kmeans_choice(sender, blue, red)
    # several blue words still run k-means: the same as the long way
    for _ in range(10):
        words = [f"w{i}" for i in rng.choice(60, 9, replace=False)]
        blue, red = words[:3], words[3:]
        assert sender.choose_cluster(blue, red) == _full_kmeans_choice(sender, blue, red)


def test_column_subset_rows_and_lookup():
    emb = random_embedding(40, 3, seed=5)
    sims = VocabSims(emb, ["w1", "w2"], cols=slice(10, 30))
    sub = ColumnSubset(sims, np.array([0, 7, 19]))
    np.testing.assert_array_equal(sub.col_rows, [10, 17, 29])
    np.testing.assert_array_equal(sub.mat, sims.mat[:, [0, 7, 19]])
    picked = VocabSims(emb, ["w1", "w2"], cols=np.array([3, 5, 8]))
    np.testing.assert_array_equal(ColumnSubset(picked, np.array([2, 0])).col_rows, [8, 3])
    # words are found as given and after normalisation
    assert sims.rows(["w2", " W1 "]) == [1, 0] and sub.rows(["W2"]) == [1]


def test_fast_path_equals_full_ranking_with_one_blue_word_ties_and_oov():
    # w50..w59 copy w0..w9 (exact ties); one record has an OOV board word, one an OOV clue
    emb = random_embedding(60, 4, seed=6, duplicates=10)
    sender = ClusterSender(emb, n_restarts=2, random_state=0)
    rng = np.random.default_rng(7)
    problems = []
    for i in range(15):
        w = [f"w{j}" for j in rng.choice(50, 7, replace=False)]
        problems.append(RankProblem(str(i), tuple(w[:1]), tuple(w[1:6]), w[6]))
    problems.append(RankProblem("oov-board", ("w1",), ("zzz", "w2"), "w3"))
    problems.append(RankProblem("oov-clue", ("w1",), ("w4", "w2"), "qqq"))
    res = sender_ranks([sender], problems, batch_words=8, chunk_bytes=4 * 8 * 13)[sender.name]
    assert res.skipped["oov_board"] == 1 and res.skipped["oov_clue"] == 1
    assert len(res.best) == 15
    for p, best, worst in zip(problems, res.best, res.worst, strict=False):
        ranking = sender.ranked_forward(p.blue, p.red)
        # the cluster of one blue word is the word: the clue's rank is its place by
        # similarity to it (computed here in float64), ties (duplicate vectors) spanning
        # best..worst
        assert sender.choose_cluster(p.blue, p.red) == p.blue
        unit = emb.unit.astype(np.float64)
        rows = np.array([emb.word_index[w] for w in ranking])
        sims = unit[rows] @ unit[emb.word_index[p.blue[0]]]
        own = sims[ranking.index(p.clue)]
        same = (emb.vectors[rows] == emb.vectors[emb.word_index[p.clue]]).all(1)
        assert best == int(np.sum(sims > own + 1e-9)) + 1
        assert worst == best + int(same.sum()) - 1
        assert best <= ranking.index(p.clue) + 1 <= worst
    assert any(w > b for b, w in zip(res.best, res.worst, strict=True))  # a tie was met


def test_one_blue_word_shortcut_still_reports_oov():
    from wordgames.errors import OOVError

    emb = random_embedding(20, 3, seed=8)
    with pytest.raises(OOVError):
        ClusterSender(emb).choose_cluster(["w1"], ["w2", "nope"])


@pytest.mark.parametrize("max_clusters", [2, 10])
def test_choose_clusters_of_many_splits_equals_one_by_one(max_clusters):
    # one compiled call for every split's runs: the same cluster as each split alone, with
    # one blue word (no k-means), the fallback (max_clusters 2: often no all-blue cluster),
    # ties among clusters of the largest size, and a board of more than 62 words
    emb = random_embedding(120, 3, seed=5, duplicates=30)
    rng = np.random.default_rng(6)
    splits = []
    for _ in range(60):
        k = int(rng.integers(2, 14))
        words = [f"w{i}" for i in rng.choice(120, k, replace=False)]
        n_blue = int(rng.integers(1, k))
        splits.append((words[:n_blue], words[n_blue:]))
    splits.append(([f"w{i}" for i in range(40)], [f"w{i}" for i in range(40, 70)]))
    sender = ClusterSender(emb, n_restarts=4, max_clusters=max_clusters, random_state=2)
    alone = [sender.choose_cluster(b, r) for b, r in splits]
    assert ClusterSender(emb, n_restarts=4, max_clusters=max_clusters,
                         random_state=2).choose_clusters(splits) == alone  # fmt: skip
    assert len({len(c) for c in alone}) > 2


def test_choose_clusters_refuses_a_board_without_blue_words():
    emb = random_embedding(20, 3, seed=1)
    with pytest.raises(ValueError, match="at least one blue word"):
        ClusterSender(emb).choose_clusters([(["w1"], ["w2"]), ([], ["w3", "w4"])])
