"""Agents on hand-computed tiny embeddings."""

from __future__ import annotations

import numpy as np
import pytest

from tests.codenames._toy import FakeSims, angles_embedding, random_embedding
from wordgames.codenames.agents import (
    BoardGeometry,
    ClusterSender,
    EmbeddingNearestReceiver,
    ExhaustiveSearchSender,
    RandomReceiver,
    RandomSender,
    batched_kmeans,
    rank_by_counting,
)
from wordgames.codenames.board import Board

# closeness of 5 vocabulary words (columns) to the board words b1, b2 (blue) and r1 (red)
MAT = [
    # w0    w1    w2    w3    w4
    [0.90, 0.99, 0.50, 0.20, 0.80],  # b1
    [0.90, 0.85, 0.60, 0.10, 0.30],  # b2
    [0.10, 0.10, 0.55, 0.30, 0.40],  # r1
]
# targets: w0 {b1,b2}, w1 {b1,b2}, w2 {b2}, w3 none, w4 {b1}


def _order(keys):
    return list(np.lexsort((np.arange(len(keys[0])), *reversed(keys))))


def _geometry():
    return BoardGeometry(FakeSims(["b1", "b2", "r1"], MAT), ["b1", "b2"], ["r1"])


def test_geometry_by_hand():
    g = _geometry()
    assert g.count.tolist() == [2, 2, 1, 0, 1]
    np.testing.assert_allclose(g.m, [0.1, 0.1, 0.55, 0.3, 0.4], rtol=1e-6)
    # mean and lowest target closeness; w3 has no target -> its nearest blue word (0.2)
    mean, low = g.targets_stats(np.array([0, 1]), 2)
    np.testing.assert_allclose(mean, [0.9, 0.92], rtol=1e-6)
    np.testing.assert_allclose(low, [0.9, 0.85], rtol=1e-6)
    mean, low = g.targets_stats(np.array([2, 4]), 1)
    np.testing.assert_allclose(mean, [0.6, 0.8], rtol=1e-6)
    np.testing.assert_allclose(low, [0.6, 0.8], rtol=1e-6)
    mean, low = g.targets_stats(np.array([3]), 0)
    np.testing.assert_allclose([mean[0], low[0]], [0.2, 0.2], rtol=1e-6)


@pytest.mark.parametrize(
    "tie_break, expected",
    [
        ("avg_blue_dist", [1, 0, 4, 2, 3]),  # w1 has the higher mean closeness
        ("max_blue_dist", [0, 1, 4, 2, 3]),  # w0's farthest target is nearer
        ("max_radius", [0, 1, 4, 2, 3]),  # w0 == w1 (tie, frequency order); w4's red is farther
        ("red_blue_diff", [0, 1, 4, 2, 3]),  # margins: w0 .8 > w1 .75; w4 .4 > w2 .05
        ("frequency", [0, 1, 2, 4, 3]),
    ],
)
def test_exhaustive_tie_breaks_order(tie_break, expected):
    sender = ExhaustiveSearchSender(random_embedding(5), tie_break)
    keys = sender.clue_keys(_geometry())
    assert _order(keys) == expected


def test_max_radius_tie_gets_mean_best_worst_rank():
    keys = ExhaustiveSearchSender(random_embedding(5), "max_radius").clue_keys(_geometry())
    assert rank_by_counting(keys, 0) == (1, 2)
    assert rank_by_counting(keys, 1) == (1, 2)
    assert rank_by_counting(keys, 3) == (5, 5)
    # excluding w0 (say it is a board word) moves w4 up to 2
    assert rank_by_counting(keys, 4, np.array([0])) == (2, 2)


def test_count_is_maximised_not_minimised():
    # the paper's Algorithm 2 says argmin; the clue must be the word covering both blue words
    emb = angles_embedding({"a": 0, "b": 40, "r": 180, "both": 20, "one": 100, "none": 190})
    sender = ExhaustiveSearchSender(emb)
    assert sender.give_clue(Board(("a", "b"), ("r",))) == ("both", 2)
    assert sender.ranked_forward(["a", "b"], ["r"]) == ["both", "one", "none"]


def test_cluster_sender_picks_largest_blue_cluster_and_nearest_centroid_word():
    # three blue words close together; a fourth blue word among the two red words
    emb = angles_embedding(
        {
            "a": 0,
            "b": 10,
            "c": 20,
            "d": 205,
            "r1": 200,
            "r2": 210,
            "mid": 11,
            "near_a": 2,
            "far": 300,
        }
    )
    sender = ClusterSender(emb, n_restarts=5, random_state=1)
    assert sender.choose_cluster(["a", "b", "c", "d"], ["r1", "r2"]) == ("a", "b", "c")
    clue, number = sender.give_clue(Board(("a", "b", "c", "d"), ("r1", "r2")))
    assert (clue, number) == ("mid", 3)  # centroid at 10 degrees
    assert sender.ranked_forward(["a", "b", "c", "d"], ["r1", "r2"]) == ["mid", "near_a", "far"]


def test_cluster_sender_never_mixes_red_words():
    emb = angles_embedding({"a": 0, "r": 5, "b": 90, "c": 95, "x": 92, "y": 3})
    cluster = ClusterSender(emb, random_state=0).choose_cluster(["a", "b", "c"], ["r"])
    assert cluster == ("b", "c")


def test_cluster_sender_is_deterministic_under_its_seed():
    emb = random_embedding(300, 8, seed=3)
    blue, red = [f"w{i}" for i in range(4)], [f"w{i}" for i in range(4, 20)]
    a = ClusterSender(emb, random_state=7).choose_cluster(blue, red)
    b = ClusterSender(emb, random_state=7).choose_cluster(blue, red)
    assert a == b
    assert set(a) <= set(blue)


def test_batched_kmeans_finds_separated_groups():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(0, 0.01, (5, 2)), rng.normal(5, 0.01, (5, 2))])
    labels, karr = batched_kmeans(x, [2], 5, np.random.default_rng(1))
    for lab in labels:  # every restart separates the two groups
        assert len(set(lab[:5])) == 1 and len(set(lab[5:])) == 1 and lab[0] != lab[5]


def _plain_lloyd(x, start, max_iter):
    """Textbook Lloyd: squared distances to the centres, means of the members."""
    centres = x[start].copy()
    labels = None
    for _ in range(max_iter):
        new = ((x[:, None, :] - centres[None]) ** 2).sum(-1).argmin(1)
        if labels is not None and (new == labels).all():
            break
        labels = new
        for c in range(len(centres)):
            if (labels == c).any():  # an empty cluster keeps its centre
                centres[c] = x[labels == c].mean(0)
    return labels


@pytest.mark.parametrize("seed", range(6))
def test_batched_kmeans_equals_plain_lloyd_run_by_run(seed):
    # boards of 2 to 25 distinct points, every k up to the number of points, 1 to 50 iterations
    # (the centres' products come from the Gram matrix: equal labels, not equal roundings)
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(2, 26)), int(rng.integers(2, 51))
    x = rng.normal(size=(n, d))
    ks, restarts, max_iter = list(range(1, n + 1)), 3, int(rng.integers(1, 51))
    labels, karr = batched_kmeans(x, ks, restarts, np.random.default_rng(seed), max_iter)
    draws = np.random.default_rng(seed).random((len(karr), n))  # the same initial points
    start = np.argsort(draws, axis=1)
    assert karr.tolist() == [k for k in ks for _ in range(restarts)]
    for r, k in enumerate(karr.tolist()):
        assert labels[r].tolist() == _plain_lloyd(x, start[r, :k], max_iter).tolist(), (r, k)


def test_lloyd_ties_go_to_the_lower_centre_and_an_empty_cluster_keeps_its_centre():
    from wordgames.codenames._kernels import lloyd

    # both centres start at (1, 1): every point ties, so all go to centre 0 and centre 1 is
    # empty; centre 0 moves to (2, 1), the points at (1, 1) then go to centre 1 (distance 0)
    x = np.array([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0], [5.0, 1.0]])
    labels = np.full((1, 4), -1, dtype=np.int64)
    lloyd(x, np.array([2]), np.array([[0, 1]]), 1, labels)
    assert labels.tolist() == [[0, 0, 0, 0]]
    lloyd(x, np.array([2]), np.array([[0, 1]]), 50, labels)
    assert labels.tolist() == [[1, 1, 1, 0]]


def test_nearest_receiver_by_hand():
    emb = angles_embedding({"a": 0, "b": 50, "c": 100, "clue": 40})
    rec = EmbeddingNearestReceiver(emb)
    assert rec.ranked_forward(["a", "b", "c"], "clue") == ["b", "a", "c"]
    assert rec.guess(["a", "b", "c"], "clue", 2) == ["b", "a"]
    euclid = EmbeddingNearestReceiver(emb, distance="euclidean")
    assert euclid.ranked_forward(["a", "b", "c"], "clue") == ["b", "a", "c"]


def test_random_agents_are_seeded():
    emb = random_embedding(50)
    r1, r2, r3 = (
        RandomReceiver(random_state=1),
        RandomReceiver(random_state=1),
        RandomReceiver(random_state=2),
    )
    board = [f"w{i}" for i in range(10)]
    assert r1.ranked_forward(board, "w20") == r2.ranked_forward(board, "w20")
    assert sorted(r1.ranked_forward(board, "w20")) == sorted(board)
    assert any(
        r1.ranked_forward(board, f"w{20 + i}") != r3.ranked_forward(board, f"w{20 + i}")
        for i in range(5)
    )
    s1 = RandomSender(emb, random_state=4).ranked_forward(["w0"], ["w1"])
    assert s1 == RandomSender(emb, random_state=4).ranked_forward(["w0"], ["w1"])
    assert sorted(s1) == sorted(f"w{i}" for i in range(2, 50))


def test_board_words_are_never_clues():
    emb = random_embedding(30)
    for sender in (ExhaustiveSearchSender(emb), ClusterSender(emb), RandomSender(emb)):
        ranking = sender.ranked_forward(["w0", "w1"], ["w2", "w3"])
        assert len(ranking) == 26 and not {"w0", "w1", "w2", "w3"} & set(ranking)
        clue, n = sender.give_clue(Board(("w0", "w1"), ("w2", "w3")))
        assert clue not in {"w0", "w1", "w2", "w3"} and n >= 1


def test_get_params_round_trip_the_configuration():
    emb = random_embedding(10)
    # describe(): the JSON-safe record of get_params() that result records hold
    p = ClusterSender(emb, n_restarts=4, random_state=9).describe()
    assert p["n_restarts"] == 4 and p["random_state"] == 9 and p["embedding"] == "rand"
    assert ExhaustiveSearchSender(emb, "max_radius").describe()["tie_break"] == "max_radius"
    with pytest.raises(ValueError):
        ExhaustiveSearchSender(emb, "nope")


AGENTS = [
    lambda e: ClusterSender(e, n_restarts=2, random_state=3),
    lambda e: ExhaustiveSearchSender(e, "max_radius", vocab_size=20),
    lambda e: RandomSender(e, random_state=5),
    lambda e: EmbeddingNearestReceiver(e, distance="euclidean"),
    lambda e: RandomReceiver(random_state=7),
]


@pytest.mark.parametrize("make", AGENTS)
def test_agents_are_configured_like_estimators(make):
    """Constructor = configuration: get_params/set_params/clone round-trip, nothing else is
    set in __init__, and a clone answers like the original."""
    from wordgames.params import Params

    emb = random_embedding(40, 4, seed=11)
    agent = make(emb)
    assert isinstance(agent, Params)
    params = agent.get_params()
    assert set(vars(agent)) == set(params)  # __init__ stores its arguments and nothing else
    twin = agent.clone()
    assert twin.get_params().keys() == params.keys()
    assert all(twin.get_params()[k] is v or twin.get_params()[k] == v for k, v in params.items())
    if "embedding" in params:
        assert twin.embedding is emb  # data is shared, not copied
    blue, red = ["w0", "w1"], ["w2", "w3", "w4"]
    if hasattr(agent, "give_clue"):
        assert agent.ranked_forward(blue, red) == twin.ranked_forward(blue, red)
        assert agent.give_clue(Board(tuple(blue), tuple(red))) == twin.give_clue(
            Board(tuple(blue), tuple(red))
        )
        assert not set(vars(agent)) - set(params) - {"clusters_", "draws_"}  # fitted state only
    else:
        assert agent.ranked_forward(blue + red, "w9") == twin.ranked_forward(blue + red, "w9")
    # set_params changes the configuration and forgets what was computed under the old one
    key = "random_state" if "random_state" in params else "distance"
    value = 99 if key == "random_state" else "cosine"
    agent.set_params(**{key: value})
    assert agent.get_params()[key] == value
    assert not [a for a in vars(agent) if a.endswith("_")]
    with pytest.raises(ValueError):
        agent.set_params(nope=1)


def test_cluster_sender_shares_no_state_through_the_geometry():
    """clue_number does not read what clue_keys left in the board geometry."""
    emb = angles_embedding(
        {
            "a": 0,
            "b": 10,
            "c": 20,
            "d": 205,
            "r1": 200,
            "r2": 210,
            "mid": 11,
            "near_a": 2,
            "far": 300,
        }
    )
    sender = ClusterSender(emb, n_restarts=5, random_state=1)
    geom = sender._geometry(["a", "b", "c", "d"], ["r1", "r2"])
    before = set(vars(geom))
    assert sender.clue_number(geom, 0) == 3  # without clue_keys first
    sender.clue_keys(geom)
    assert set(vars(geom)) == before  # nothing was added to the shared geometry


def test_clue_rules_exclude_board_words_substrings_and_stems():
    from wordgames.codenames.board import ClueRules

    emb = angles_embedding(
        {
            w: i
            for i, w in enumerate(
                ["fire", "firefighter", "fir", "dogs", "dog", "cat", "ice", "icy", "running", "run"]
            )
        }
    )
    words = emb.words
    board = ["fire", "dog", "ice cream", "run"]

    def excluded(rules):
        return {words[r] for r in rules.excluded_rows(words, emb.word_index, board)}

    # a board word, and each token of a multi-word board word, are never clues
    assert excluded(ClueRules()) == {"fire", "dog", "ice", "run"}
    assert excluded(ClueRules(no_substring=True)) == {
        "fire",
        "dog",
        "ice",
        "run",
        "firefighter",
        "fir",
        "dogs",
        "running",
    }
    assert excluded(ClueRules(no_shared_stem=True)) == {
        "fire",
        "dog",
        "ice",
        "run",
        "dogs",
        "running",
    }
    sender = ExhaustiveSearchSender(emb, rules=ClueRules(no_substring=True))
    assert not {"firefighter", "fir", "dogs", "running"} & set(
        sender.ranked_forward(["fire", "dog"], ["ice cream", "run"][1:])
    )
    assert Board(("fire",), ("dog",), ClueRules(no_shared_stem=True)).is_legal_clue("dogs") is False
    assert Board(("fire",), ("dog",)).is_legal_clue("dogs") is True


def test_board_checks_its_words():
    with pytest.raises(ValueError):
        Board(("a", "b"), ("b",))
    with pytest.raises(ValueError):
        Board(("a", "a"), ())
    b1 = Board.random([f"w{i}" for i in range(30)], 3, 4, seed=5)
    assert b1 == Board.random([f"w{i}" for i in range(30)], 3, 4, seed=5)
    assert len(set(b1.words)) == 7 and b1.color(b1.blue[0]) == "blue"
