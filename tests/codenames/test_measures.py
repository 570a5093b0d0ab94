"""Measures of section 4 on hand-computed cases, identities and independent implementations."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.codenames._toy import angles_embedding, random_embedding
from wordgames.codenames.agents import (
    ClusterSender,
    EmbeddingNearestReceiver,
    ExhaustiveSearchSender,
    RandomReceiver,
    RandomSender,
)
from wordgames.codenames.measures import (
    RankProblem,
    average_precision,
    expected_random_ap,
    receiver_guess_score,
    receiver_map,
    sender_ranks,
    sender_ranks_receiver_data,
    sender_ranks_sender_data,
)
from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord


def _problems(emb, n, seed=0, board=8, n_blue=3):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        words = [f"w{j}" for j in rng.choice(len(emb), board + 1, replace=False)]
        out.append(
            RankProblem(
                str(i),
                tuple(words[:n_blue]),
                tuple(words[n_blue:board]),
                words[board],
                group="g" + str(i % 2),
            )
        )
    return out


@pytest.mark.parametrize(
    "make",
    [
        lambda e: ExhaustiveSearchSender(e, "avg_blue_dist"),
        lambda e: ExhaustiveSearchSender(e, "max_blue_dist"),
        lambda e: ExhaustiveSearchSender(e, "max_radius"),
        lambda e: ExhaustiveSearchSender(e, "red_blue_diff"),
        lambda e: ExhaustiveSearchSender(e, "frequency"),
        lambda e: ExhaustiveSearchSender(e, "avg_blue_dist", distance="euclidean"),
        lambda e: ClusterSender(e, n_restarts=3, random_state=2),
        lambda e: ClusterSender(e, n_restarts=3, distance="euclidean"),
    ],
)
def test_counted_rank_equals_position_in_full_ranking(make):
    """The fast path (batched products, vocabulary slices, counting) must agree with a plain
    sort of the whole vocabulary (ranked_forward) wherever there are no ties."""
    emb = random_embedding(300, 5, seed=1)
    sender = make(emb)
    problems = _problems(emb, 12)
    # tiny slices and batches: several products and several vocabulary slices per batch
    res = sender_ranks([sender], problems, batch_words=20, chunk_bytes=4 * 20 * 37)
    r = res[sender.name]
    assert len(r.best) == 12
    for p, best, worst in zip(problems, r.best, r.worst, strict=True):
        ranking = sender.ranked_forward(p.blue, p.red)
        assert best == ranking.index(p.clue) + 1
        assert worst == best
        assert r.n_candidates[0] == 300 - 8


def test_exact_ties_get_mean_best_and_worst_rank():
    # w40..w49 copy w0..w9: a clue with a duplicate vector ties with it
    emb = random_embedding(50, 4, seed=2, duplicates=10)
    sender = ClusterSender(emb, random_state=0)
    p = RankProblem("t", ("w20", "w21"), ("w22", "w23", "w24"), "w3")
    r = sender_ranks([sender], [p])[sender.name]
    ranking = sender.ranked_forward(p.blue, p.red)
    pos = sorted([ranking.index("w3") + 1, ranking.index("w43") + 1])
    assert pos[1] == pos[0] + 1
    assert (r.best[0], r.worst[0]) == (pos[0], pos[1])
    assert r.rank[0] == pos[0] + 0.5
    s = r.summary()
    assert s["mean_rank_best"] == pos[0] and s["mean_rank_worst"] == pos[1]


def test_algorithm4_recolours_board_by_the_picks():
    emb = angles_embedding({"a": 0, "b": 40, "r": 180, "both": 20, "one": 100, "none": 190})
    sender = ExhaustiveSearchSender(emb)
    # the person picked a and b: they become blue, r red; "both" covers both picks -> rank 1
    rec = HumanReceiverRecord("toy", "1", ("a", "b", "r"), "both", ("b", "a"), "m1")
    rec2 = HumanReceiverRecord("toy", "2", ("a", "b", "r"), "none", ("b", "a"), "m2")
    # picking only r makes "none" (nearest r) the best clue
    rec3 = HumanReceiverRecord("toy", "3", ("a", "b", "r"), "none", ("r",), "m2")
    r = sender_ranks_receiver_data([sender], [rec, rec2, rec3])[sender.name]
    assert r.best == [1, 3, 1]
    assert r.summary("m1")["mean_rank"] == 1 and r.summary("m2")["mean_rank"] == 2
    assert r.summary()["mean_rank"] == pytest.approx(5 / 3)
    assert r.summary()["mrr"] == pytest.approx((1 + 1 / 3 + 1) / 3)


def test_oov_records_are_skipped_counted_and_left_out_of_the_mean():
    emb = angles_embedding({"a": 0, "b": 40, "r": 180, "both": 20, "one": 100, "none": 190})
    sender = ExhaustiveSearchSender(emb)
    good = HumanReceiverRecord("toy", "1", ("a", "b", "r"), "both", ("a", "b"))
    bad_clue = HumanReceiverRecord("toy", "2", ("a", "b", "r"), "zzz", ("a", "b"))
    bad_board = HumanReceiverRecord("toy", "3", ("a", "b", "qqq"), "both", ("a", "b"))
    r = sender_ranks_receiver_data([sender], [good, bad_clue, bad_board])[sender.name]
    s = r.summary()
    assert s["n"] == 1 and s["mean_rank"] == 1.0
    assert r.skipped["oov_clue"] == 1 and r.skipped["oov_board"] == 1
    assert s["n_skipped_oov"] == 2
    assert r.oov_words == {"zzz": 1, "qqq": 1}
    m = receiver_map([EmbeddingNearestReceiver(emb)], [good, bad_clue, bad_board])["nearest"]
    assert m.summary()["n"] == 1 and m.summary()["n_skipped_oov"] == 2


def test_clue_that_is_a_board_word_is_skipped_as_illegal():
    emb = angles_embedding({"a": 0, "b": 40, "r": 180, "both": 20})
    rec = HumanReceiverRecord("toy", "1", ("a", "b", "r"), "a", ("a",))
    r = sender_ranks_receiver_data([ExhaustiveSearchSender(emb)], [rec])["exhaustive:avg_blue_dist"]
    assert r.skipped["clue_illegal"] == 1 and r.best == []


def test_algorithm6_uses_every_non_blue_word_as_red():
    emb = angles_embedding({"a": 0, "b": 40, "n": 25, "r": 180, "both": 20, "x": 60})
    # without the neutral word n, "both" would cover a and b; n is a word to avoid and is
    # nearer "both" (5 deg) than a and b (20 deg): count 0
    rec = HumanSenderRecord("toy", "1", blue=("a", "b"), red=("r",), neutral=("n",), clue="both")
    r = sender_ranks_sender_data([ExhaustiveSearchSender(emb)], [rec])["exhaustive:avg_blue_dist"]
    sender = ExhaustiveSearchSender(emb)
    assert r.best[0] == sender.ranked_forward(["a", "b"], ["r", "n"]).index("both") + 1
    assert r.best[0] == 2  # x (60 deg) has b as its one target


def test_average_precision_matches_sklearn():
    from sklearn.metrics import average_precision_score

    rng = np.random.default_rng(0)
    for _ in range(50):
        n = int(rng.integers(3, 25))
        scores = rng.random(n)
        rel = rng.random(n) < 0.3
        rel[int(rng.integers(n))] = True
        ranking = [str(i) for i in np.argsort(-scores)]
        ours = average_precision(ranking, {str(i) for i in np.flatnonzero(rel)})
        assert ours == pytest.approx(average_precision_score(rel, scores))


def test_receiver_map_matches_sklearn_on_embedding_receiver():
    from sklearn.metrics import average_precision_score

    emb = random_embedding(200, 5, seed=4)
    rec = EmbeddingNearestReceiver(emb)
    rng = np.random.default_rng(1)
    records, expected = [], []
    for i in range(30):
        words = [f"w{j}" for j in rng.choice(200, 13, replace=False)]
        board, clue = words[:12], words[12]
        picks = tuple(board[: 1 + i % 4])
        records.append(HumanReceiverRecord("toy", str(i), tuple(board), clue, picks))
        y = np.isin(board, picks)
        expected.append(average_precision_score(y, rec.closeness(board, clue)))
    m = receiver_map([rec], records)["nearest"]
    assert m.summary()["map"] == pytest.approx(np.mean(expected))


def test_expected_random_ap_by_enumeration():
    for n, r in [(5, 2), (6, 1), (4, 4), (6, 3)]:
        items = [str(i) for i in range(n)]
        aps = [average_precision(list(p), set(items[:r])) for p in itertools.permutations(items)]
        assert expected_random_ap(n, r) == pytest.approx(np.mean(aps))


def _picks_first_records(seed: int, n: int = 3000) -> list:
    """Records of 10 board words and a clue, the two picks listed first."""
    rng = np.random.default_rng(seed)
    records = []
    for i in range(n):
        words = [f"w{j}" for j in rng.choice(100, 11, replace=False)]
        records.append(
            HumanReceiverRecord("toy", str(i), tuple(words[:10]), words[10], tuple(words[:2]))
        )
    return records


def test_random_receiver_scores_as_random():
    records = _picks_first_records(3)
    m = receiver_map([RandomReceiver(random_state=0)], records)["random-receiver"].summary()
    se = (m["ci_high"] - m["ci_low"]) / 3.92
    assert abs(m["map"] - expected_random_ap(10, 2)) < 4 * se


def test_random_sender_mean_rank_is_half_the_vocabulary():
    emb = random_embedding(2000, 4)
    problems = _problems(emb, 400, seed=5, board=10, n_blue=2)
    r = sender_ranks([RandomSender(emb, random_state=1)], problems)["random-sender"]
    n_cand = 2000 - 10
    s = r.summary()
    # ranks are uniform on 1..n_cand: mean (n+1)/2, sd n/sqrt(12)
    se = n_cand / np.sqrt(12) / np.sqrt(400)
    assert abs(s["mean_rank"] - (n_cand + 1) / 2) < 4 * se
    assert s["mean_rank_fraction"] == pytest.approx(0.5, abs=0.06)
    assert min(r.best) >= 1 and max(r.best) <= n_cand and r.best == r.worst
    # the drawn rank has the distribution of the clue's position in ranked_forward's random order
    sender = RandomSender(emb, random_state=1)
    pos = [sender.ranked_forward(p.blue, p.red).index(p.clue) + 1 for p in problems[:60]]
    assert abs(np.mean(pos) - (n_cand + 1) / 2) < 4 * n_cand / np.sqrt(12) / np.sqrt(60)


def test_algorithm7_by_hand():
    emb = angles_embedding(
        {"a": 0, "b": 10, "c": 200, "r1": 30, "r2": 180, "clue": 5, "clue2": 190}
    )
    rec = EmbeddingNearestReceiver(emb)
    # targets a, b: the receiver picks a, b (5 deg each) -> (1 + 1) / 2 = 1
    r1 = HumanSenderRecord(
        "toy", "1", blue=("a", "b", "c"), red=("r1", "r2"), clue="clue", targets=("a", "b")
    )
    # tau from the number when targets are unknown: every blue word counts as a target
    r3 = HumanSenderRecord(
        "toy", "3", blue=("a", "b", "c"), red=("r1", "r2"), clue="clue", number=3
    )  # picks a, b, r1 -> (1 + 1 - 1) / 3
    r4 = HumanSenderRecord("toy", "4", blue=("a", "b", "c"), red=("r1", "r2"), clue="clue")
    out = receiver_guess_score([rec], [r1, r3, r4])["nearest"]
    assert out.scores == pytest.approx([1.0, 1 / 3])
    assert out.skipped["no_number"] == 1
    # scores as parameters; a and b tie (5 deg each): alphabetical board order, a first
    r5 = HumanSenderRecord(
        "toy",
        "5",
        blue=("a", "b", "c"),
        red=("r1", "r2"),
        clue="clue",
        targets=("b", "c"),
        number=2,
    )  # picks a (blue, not target), b
    out = receiver_guess_score([rec], [r5], target_score=2, blue_score=0.5, red_score=-3)
    assert out["nearest"].scores == pytest.approx([(0.5 + 2) / 2])


def test_random_receiver_algorithm7_expectation():
    rng = np.random.default_rng(0)
    recs = []
    for i in range(4000):
        w = [f"w{j}" for j in rng.choice(60, 7, replace=False)]
        recs.append(
            HumanSenderRecord(
                "toy", str(i), blue=tuple(w[:3]), red=tuple(w[3:6]), clue=w[6], targets=tuple(w[:2])
            )
        )
    s = receiver_guess_score([RandomReceiver(random_state=2)], recs)["random-receiver"].summary()
    # each guessed word: target 2/6 (+1), other blue 1/6 (0), red 3/6 (-1): mean -1/6
    se = (s["ci_high"] - s["ci_low"]) / 3.92
    assert abs(s["guess_score"] - (-1 / 6)) < 4 * se


def test_record_counts_weight_the_means():
    emb = angles_embedding({"a": 0, "b": 40, "r": 180, "both": 20, "one": 100, "none": 190})
    recs = [
        HumanReceiverRecord("toy", "1", ("a", "b", "r"), "both", ("a", "b"), count=3),
        HumanReceiverRecord("toy", "2", ("a", "b", "r"), "none", ("a", "b")),
    ]
    r = sender_ranks_receiver_data([ExhaustiveSearchSender(emb)], recs)["exhaustive:avg_blue_dist"]
    assert r.summary()["mean_rank"] == pytest.approx((3 * 1 + 3) / 4)
    assert r.summary()["n"] == 4


def test_same_seed_same_numbers():
    emb = random_embedding(300, 5, seed=1)
    problems = _problems(emb, 10)

    def run(seed):
        ss = [ClusterSender(emb, random_state=seed), RandomSender(emb, random_state=seed)]
        return {k: v.best for k, v in sender_ranks(ss, problems).items()}

    assert run(3) == run(3)
    assert run(3)["random-sender"] != run(4)["random-sender"]


def test_duck_typed_sender_uses_ranked_forward():
    class Alphabetical:
        name = "alpha"

        def ranked_forward(self, blue, red):
            return sorted({"x", "y", "z"} - set(blue) - set(red))

        def give_clue(self, board):
            return "x", 1

    p = RankProblem("1", ("a",), ("b",), "y")
    r = sender_ranks([Alphabetical()], [p])["alpha"]
    assert r.best == [2] and r.n_candidates == [3]


# ---------------------------------------------------------------- restricted choice (Shen et al.)


def _cand_record(rid, clue, candidates, blue=("a", "b"), red=("r",), count=1):
    return HumanSenderRecord(
        "toy",
        rid,
        blue=blue,
        red=red,
        clue=clue,
        targets=blue,
        count=count,
        meta={"candidate_clues": list(candidates)} if candidates is not None else {},
    )


def test_rank_among_candidates_by_hand():
    from wordgames.codenames.measures import sender_ranks_candidates

    emb = angles_embedding(
        {"a": 0, "b": 40, "r": 180, "both": 20, "one": 100, "none": 190, "zzz_far": 270}
    )
    # candidates both (2 targets), one (1 target: b), none (0): exhaustive ranks them 1, 2, 3
    recs = [
        _cand_record("1", "one", ["none", "one", "both"], count=3),
        _cand_record("2", "both", ["none", "one", "both"]),
        _cand_record("3", "one", ["one", "qqq"]),  # a candidate the embedding lacks
        _cand_record("4", "one", None),  # a free choice: not part of this measure
        _cand_record("5", "none", ["one", "both"]),  # the clue is not among its candidates
    ]
    out = sender_ranks_candidates([ExhaustiveSearchSender(emb), RandomSender(emb)], recs)
    ex = out["exhaustive:avg_blue_dist"]
    assert ex.best == [2, 1] and ex.n_candidates == [3, 3] and ex.weights == [3, 1]
    assert ex.summary()["mean_rank"] == pytest.approx((3 * 2 + 1) / 4)
    assert ex.skipped == {"oov_candidate": 1, "no_candidates": 1, "clue_not_candidate": 1}
    assert ex.oov_words == {"qqq": 1}
    rnd = out["random-sender"]
    assert all(1 <= b <= 3 for b in rnd.best) and rnd.best == rnd.worst

    class Alphabetical:  # a sender known only by its ranking
        name = "alpha"

        def ranked_forward(self, blue, red):
            return sorted({"both", "none", "one"})

        def give_clue(self, board):
            return "both", 1

    alpha = sender_ranks_candidates([Alphabetical()], recs[:2])["alpha"]
    assert alpha.best == [3, 1]  # among both, none, one in that order
    assert sender_ranks_candidates([Alphabetical()], [recs[3]]) is None  # no candidates at all


@pytest.mark.parametrize(
    "make",
    [
        lambda e: ExhaustiveSearchSender(e, "max_radius"),
        lambda e: ClusterSender(e, n_restarts=3, random_state=1),
    ],
)
def test_candidates_that_are_the_whole_vocabulary_give_the_full_rank(make):
    """Identity: ranking among every legal clue is the full-vocabulary rank (Algorithm 6)."""
    from wordgames.codenames.measures import sender_ranks_candidates

    emb = random_embedding(120, 5, seed=3)
    sender = make(emb)
    rng = np.random.default_rng(2)
    recs = []
    for i in range(8):
        words = [f"w{j}" for j in rng.choice(120, 7, replace=False)]
        board = set(words[:6])
        vocab = [w for w in emb.words if w not in board]
        recs.append(
            _cand_record(str(i), words[6], vocab, blue=tuple(words[:2]), red=tuple(words[2:6]))
        )
    full = sender_ranks_sender_data([sender], recs)[sender.name]
    cand = sender_ranks_candidates([sender], recs)[sender.name]
    assert cand.best == full.best and cand.worst == full.worst
    assert cand.n_candidates == full.n_candidates


def test_algorithm_5_shows_every_receiver_the_board_in_one_seeded_order():
    # the records list the picks first: a receiver that keeps the board's order would score
    # AP 1 on every record from the order alone; shown the seeded order, it scores as random
    class AsShown:
        name = "as-shown"

        def __init__(self):
            self.seen = []

        def ranked_forward(self, board, clue):
            self.seen.append(list(board))
            return list(board)

        def guess(self, board, clue, number):
            return list(board)[:number]

    records = _picks_first_records(4)
    a, b = AsShown(), AsShown()
    m = receiver_map([a], records)["as-shown"].summary()
    se = (m["ci_high"] - m["ci_low"]) / 3.92
    assert abs(m["map"] - expected_random_ap(10, 2)) < 4 * se
    receiver_map([b], records[::-1], seed=0)
    assert a.seen == b.seen[::-1]  # the same order for a record whatever came before it
    assert receiver_map([AsShown()], records, seed=None)["as-shown"].summary()["map"] == 1.0
    assert receiver_map([AsShown()], records[:50], seed=1)["as-shown"].scores != (
        receiver_map([AsShown()], records[:50], seed=0)["as-shown"].scores
    )
