import numpy as np
import pytest

from tests.wales.helpers import random_graph
from wordgames.wales.graph import DiGraph
from wordgames.wales.tasks import (
    default_distributions,
    nodes_by_in_degree,
    pair_tasks,
    power_law_tasks,
    top_percent_tasks,
)


def test_sampling_is_deterministic_under_a_seed():
    g = random_graph(200, 3, 0)
    a = power_law_tasks(g, 8, 500, seed=3)
    b = power_law_tasks(g, 8, 500, seed=3)
    c = power_law_tasks(g, 8, 500, seed=4)
    assert (a.sources == b.sources).all() and (a.targets == b.targets).all()
    assert not (a.sources == c.sources).all()
    d1 = default_distributions(g, 50, seed=1)
    d2 = default_distributions(g, 50, seed=1)
    assert all((x.targets == y.targets).all() for x, y in zip(d1, d2, strict=True))


def test_sorted_by_ascending_in_degree():
    # in-degrees: node 0: 0, node 1: 3, node 2: 1, node 3: 2
    g = DiGraph.from_edges([0, 2, 3, 0, 0, 3], [1, 1, 1, 2, 3, 3], 4, drop_self_loops=False)
    assert nodes_by_in_degree(g).tolist() == [0, 2, 3, 1]


def test_power_law_follows_a_x_to_the_a_minus_1():
    n = 1000
    g = DiGraph.from_edges(
        np.repeat(np.arange(n), np.arange(n)) % n, np.repeat(np.arange(n), np.arange(n)), n
    )  # in-degree of v is v
    for a in (1, 4, 32):
        ts = power_law_tasks(g, a, 20000, seed=0)
        pos = np.concatenate([ts.sources, ts.targets]) / n  # position == node id here
        # E[x] = a / (a + 1) for density a x^(a-1); equal-pair redraws barely move it
        assert pos.mean() == pytest.approx(a / (a + 1), abs=0.01)
        assert (ts.sources != ts.targets).all()


def test_top_percent_pool():
    n = 200
    g = DiGraph.from_edges(
        np.repeat(np.arange(n), np.arange(n)) % n, np.repeat(np.arange(n), np.arange(n)), n
    )
    ts = top_percent_tasks(g, 5, 1000, seed=0)
    assert ts.params["pool_size"] == 10
    assert set(np.unique(np.concatenate([ts.sources, ts.targets]))) == set(range(190, 200))
    assert ts.n_redrawn > 0  # 1 in 10 draws repeat the start, and are redrawn and counted


def test_pair_tasks_unknown_name_names_the_line():
    from wordgames.errors import DataFormatError

    g = DiGraph.from_edges([0], [1], 2, names=["a", "b"])
    ts = pair_tasks(g, [("a", "b")])
    assert ts.sources.tolist() == [0] and ts.targets.tolist() == [1]
    with pytest.raises(DataFormatError, match=r"p.tsv, line 3: unknown node 'c'"):
        pair_tasks(g, [("a", "b"), ("c", "a")], path="p.tsv", lines=[2, 3])
