"""The people as a subject: the human ceiling of Codenames, computed by hand (issue 39)."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

import wordgames
from wordgames.ceiling import Clustered, cluster_mean_ci, expected_ap, share_of_ceiling
from wordgames.codenames.measures import average_precision
from wordgames.codenames.people import people_receiver, people_sender
from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord
from wordgames.embeddings import Embedding
from wordgames.subjects import People

BOARD = ["dog", "cat", "car", "bus"]


def _brute_ap(scores: dict, relevant: set) -> float:
    """The mean AP over every order of the tied words (each order equally likely)."""
    levels = sorted(set(scores.values()), reverse=True)
    groups = [[w for w in scores if scores[w] == s] for s in levels]
    total, count = 0.0, 0
    for orders in itertools.product(*(itertools.permutations(g) for g in groups)):
        ranking = [w for order in orders for w in order]
        total += average_precision(ranking, relevant)
        count += 1
    return total / count


@pytest.mark.parametrize("seed", range(40))
def test_expected_ap_is_the_mean_over_every_order_of_the_ties(seed):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(int(rng.integers(2, 7)))]
    scores = {w: int(rng.integers(0, 3)) for w in words}
    relevant = set(rng.choice(words, size=int(rng.integers(1, len(words) + 1)), replace=False))
    assert expected_ap(scores, relevant) == pytest.approx(_brute_ap(scores, relevant), abs=1e-12)


def test_expected_ap_without_ties_is_the_plain_ap():
    assert expected_ap({"a": 3, "b": 2, "c": 1, "d": 0}, {"a", "c"}) == pytest.approx(5 / 6)


def _records():
    """Three people answered ("pet" on BOARD); one answered "van" alone; one is a copy."""
    r = [
        HumanReceiverRecord("t", "A", tuple(BOARD), "pet", ("dog", "cat")),
        HumanReceiverRecord("t", "B", tuple(BOARD), "pet", ("dog",)),
        HumanReceiverRecord("t", "C", tuple(BOARD), "pet", ("cat", "dog")),
        HumanReceiverRecord("t", "D", tuple(BOARD), "van", ("bus",)),
        HumanReceiverRecord(
            "t", "E", tuple(BOARD), "pet", ("bus",), meta={"prefilled_copy_of": "A"}
        ),
    ]
    return r


def test_leave_one_out_receiver_by_hand():
    v = people_receiver(_records(), _records())
    # A: others picked dog twice, cat once -> dog, cat first: AP 1
    # B: others picked dog and cat twice each -> dog first or second: (1 + 1/2) / 2
    # C: as A. D is alone on its item; E is a copy, not a person (and not among the others)
    assert v.record_ids == ["A", "B", "C"]
    assert v.values["map"] == pytest.approx([1.0, 0.75, 1.0])
    assert dict(v.skipped) == {"single_response": 1, "copy": 1}
    assert v.n == 3 and v.n_items == 1


def test_a_record_standing_for_several_people_leaves_one_out():
    board = tuple(BOARD)
    three = HumanReceiverRecord("t", "X", board, "pet", ("dog",), count=3)
    one = HumanReceiverRecord("t", "Y", board, "pet", ("cat",))
    v = people_receiver([three, one], [three, one])
    # X's people: the others are two more dog-pickers and one cat-picker: dog first, AP 1
    # Y: the others are three dog-pickers: cat is tied with car and bus behind dog
    assert v.values["map"][0] == pytest.approx(1.0)
    assert v.values["map"][1] == pytest.approx(expected_ap({"dog": 3, "cat": 0, "car": 0,
                                                            "bus": 0}, {"cat"}))  # fmt: skip
    assert v.weights == [3, 1] and v.n == 4


def test_leave_one_out_sender_by_hand():
    b = dict(blue=("dog", "cat"), red=("car", "bus"))
    rs = [
        HumanSenderRecord("t", "1", clue="pet", **b),
        HumanSenderRecord("t", "2", clue="pet", **b),
        HumanSenderRecord("t", "3", clue="fur", **b),
        HumanSenderRecord("t", "4", clue="wheel", blue=("car",), red=("dog",)),
    ]
    v = people_sender(rs, rs)
    # 1 and 2: the others gave pet once and fur once: pet at positions 1-2, rank 1.5
    # 3: the others gave pet twice: fur is not in their list (below it: 0). 4 is alone.
    assert v.values["hits@10"] == [1.0, 1.0, 0.0]
    assert v.values["mrr@10"] == pytest.approx([1 / 1.5, 1 / 1.5, 0.0])
    assert dict(v.skipped) == {"single_response": 1}


def test_cluster_bootstrap_resamples_items_within_bounds_and_is_seeded():
    cl = Clustered(("a", "a", "b", "c", "c"), (1, 2, 1, 1, 1))
    values = [1.0, 0.5, 0.0, 1.0, 0.25]
    first = cluster_mean_ci(cl, values, bounds=(0.0, 1.0), seed=3)
    assert first == cluster_mean_ci(cl, values, bounds=(0.0, 1.0), seed=3)
    assert 0.0 <= first[0] <= first[1] <= 1.0
    # one item alone has no interval: there is nothing to resample
    assert all(math.isnan(x) for x in cluster_mean_ci(Clustered(("a", "a"), (1, 1)), [0, 1]))


def test_share_and_gap_identities():
    cl = Clustered(("a", "a", "b", "b"), (1, 1, 1, 3))
    model, people = [0.5, 0.5, 0.25, 0.25], [1.0, 0.5, 0.5, 0.0]
    s = share_of_ceiling(cl, model, people, seed=0)
    m = (0.5 + 0.5 + 0.25 + 3 * 0.25) / 6
    p = (1.0 + 0.5 + 0.5 + 0.0) / 6
    assert s.share == pytest.approx(m / p) and s.gap == pytest.approx(m - p) and s.n == 6
    assert s.share_ci[0] <= s.share <= s.share_ci[1] or math.isnan(s.share_ci[0])
    same = share_of_ceiling(cl, people, people, seed=0)
    assert same.share == 1.0 and same.gap == 0.0 and not same.separated


def _toy_embedding() -> Embedding:
    # cosines to "pet": dog 0.995 > car 0.894 > cat 0.707 > bus 0; "van" is nearest to bus
    words = ["pet", "van", "dog", "car", "cat", "bus"]
    vectors = np.array([[1, 0], [0.1, 1], [1, 0.1], [1, 0.5], [1, 1], [0, 1]], dtype=float)
    return Embedding(words, vectors, name="toy")


def _write(path, records) -> str:
    lines = []
    for r in records:
        lines.append(json.dumps({"kind": "receiver", "id": r.record_id, "board": list(r.board),
                                 "clue": r.clue, "chosen": list(r.chosen), "meta": r.meta}))  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def test_the_people_row_and_the_share_go_through_evaluate(tmp_path):
    data = _write(tmp_path / "tiny.jsonl", _records())
    options = {"codenames": {"files": [data], "datasets": [], "receivers": ["nearest"],
                             "senders": []}}  # fmt: skip
    res = wordgames.evaluate([_toy_embedding(), People()], measures=["codenames"],
                             options=options, seed=0)  # fmt: skip
    frame = res.to_frame()

    def row(embedding, subject, metric):
        got = frame[(frame.subject == embedding) & (frame.agent == subject)
                    & (frame.metric == metric)]  # fmt: skip
        assert len(got) == 1, (embedding, subject, metric)
        return got.iloc[0]

    people = row("people", "people", "human_receiver.map")
    assert people.value == pytest.approx((1.0 + 0.75 + 1.0) / 3)
    assert (people.n, people.n_skipped) == (3, 2)  # D alone, E a copy: counted, not dropped
    assert "only response" in people.skip_reason and "copy" in people.skip_reason
    # the nearest receiver ranks dog, car, cat, bus: A and C 5/6, B 1 (D is not paired)
    model = (5 / 6 + 1.0 + 5 / 6) / 3
    share = row("toy", "nearest", "human_receiver.map.share_of_ceiling")
    gap = row("toy", "nearest", "human_receiver.map.gap_to_people")
    assert share.value == pytest.approx(model / people.value)
    assert gap.value == pytest.approx(model - people.value)
    assert share.n == 3 and share.n + share.n_skipped == 5
    # the store's rows are what the summary prints first
    text = res.summary()
    assert text.splitlines()[1].startswith("how close to people")
    assert f"{share.value:.4g}"[:5] in text


def test_a_data_set_without_two_responses_to_an_item_says_why(tmp_path):
    alone = [HumanReceiverRecord("t", "A", tuple(BOARD), "pet", ("dog",)),
             HumanReceiverRecord("t", "B", tuple(BOARD), "van", ("bus",))]  # fmt: skip
    data = _write(tmp_path / "alone.jsonl", alone)
    options = {"codenames": {"files": [data], "datasets": []}}
    res = wordgames.evaluate(People(), measures=["codenames"], options=options)
    assert not [s for s in res.scores if s.agent == "people"]
    notes = " ".join(res.results[0].notes)
    assert "no people row: no item has two responses" in notes


def test_measures_without_people_say_why():
    res = wordgames.evaluate(People(), measures=["oddmanout", "wales", "similarity"])
    reasons = {s.measure: s.reason for s in res.skipped}
    assert "84.3 %" in reasons["oddmanout"]  # the paper's majority agreement, declared
    assert "efficiency" in reasons["wales"]
    assert "mean rating" in reasons["similarity"]


def test_people_by_name_and_identity():
    assert People().fingerprint() == People("lab").fingerprint()
    res = wordgames.evaluate("people", measures=["global-metrics"])
    assert res.skipped and "no people row" in res.skipped[0].reason
