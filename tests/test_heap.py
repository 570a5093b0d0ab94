"""wordgames.heap: the objects alive at the start are left out of full collections, then back."""

from __future__ import annotations

import gc
import threading

import pytest

from wordgames.heap import long_lived_heap


@pytest.fixture(autouse=True)
def _collector_on():
    was = gc.isenabled()
    gc.enable()
    assert gc.get_freeze_count() == 0
    yield
    gc.unfreeze()
    if not was:
        gc.disable()


def _seen(obj) -> bool:
    """Whether the collector walks ``obj`` (frozen objects are in no generation)."""
    return any(o is obj for o in gc.get_objects())


def test_objects_alive_before_are_frozen_and_come_back():
    before = [object()]
    with long_lived_heap():
        assert not _seen(before)
        made = [object()]
        assert _seen(made)  # what the computation makes is collected as usual
        a, b = [], []
        a.append(b)
        b.append(a)
        del a, b
        assert gc.collect() >= 2  # a cycle made inside is freed inside
    assert _seen(before) and gc.get_freeze_count() == 0


def test_nested_uses_share_one_freeze():
    before = [object()]
    with long_lived_heap():
        with long_lived_heap():
            pass
        assert not _seen(before)  # the inner one left the outer's freeze alone
    assert _seen(before)


def test_concurrent_uses_unfreeze_when_the_last_leaves():
    before = [object()]
    entered, leave = threading.Event(), threading.Event()

    def other():
        with long_lived_heap():
            entered.set()
            leave.wait(5)

    t = threading.Thread(target=other)
    t.start()
    assert entered.wait(5)
    with long_lived_heap():
        assert not _seen(before)
    assert not _seen(before)  # the other thread is still inside
    leave.set()
    t.join(5)
    assert _seen(before)


def test_a_disabled_collector_or_a_freeze_of_the_callers_is_left_as_it_is():
    before = [object()]
    gc.disable()
    try:
        with long_lived_heap():
            assert _seen(before) and gc.get_freeze_count() == 0
    finally:
        gc.enable()
    gc.freeze()  # the caller's own, e.g. before forking workers
    n = gc.get_freeze_count()
    with long_lived_heap():
        pass
    assert gc.get_freeze_count() == n  # not unfrozen by us


def test_the_codenames_ranking_runs_on_a_frozen_heap(monkeypatch):
    import wordgames.codenames.measures as measures
    from tests.codenames._toy import random_embedding
    from wordgames.codenames.agents import default_receivers, default_senders
    from wordgames.codenames.human_data import LoadedHumanData
    from wordgames.codenames.suite import evaluate_human_datasets

    counts = []
    real = measures.sender_ranks_parts

    def spy(*a, **k):
        counts.append(gc.get_freeze_count())
        return real(*a, **k)

    monkeypatch.setattr(measures, "sender_ranks_parts", spy)
    emb = random_embedding(60, 4)
    evaluate_human_datasets(
        [LoadedHumanData("toy")], default_senders(emb, quick=True), default_receivers(emb)
    )
    assert counts and counts[0] > 0 and gc.get_freeze_count() == 0
