import numpy as np
import pytest

from tests.wales.helpers import random_graph
from wordgames.errors import DataFormatError
from wordgames.wales.graph import DiGraph, GraphError


def test_from_edges_merges_duplicates_and_counts_them():
    g, rep = DiGraph.from_edges_report([0, 0, 1, 2, 2], [1, 1, 2, 0, 2], 3, drop_self_loops=True)
    assert rep["duplicate_edges_merged"] == 1
    assert rep["self_loops_dropped"] == 1
    assert g.n_edges == 3
    assert g.out_degree.tolist() == [1, 1, 1]
    assert g.in_degree.tolist() == [1, 1, 1]
    assert g.indices.dtype == np.int32


def test_hand_distances_and_reverse():
    # 0 -> 1 -> 2 -> 3, 0 -> 2, 3 -> 0
    g = DiGraph.from_edges([0, 1, 2, 0, 3], [1, 2, 3, 2, 0], 4)
    assert g.distances_from(0).tolist() == [0, 1, 1, 2]
    assert g.distances_to(3).tolist() == [2, 2, 1, 0]
    assert g.distance(1, 0) == 3
    assert g.reverse().successors(2).tolist() == [0, 1]
    assert g.shortest_path_lengths([0, 1, 3], [3, 0, 2]).tolist() == [2, 3, 2]


def test_unreachable_is_minus_one():
    g = DiGraph.from_edges([0], [1], 3)
    assert g.distance(1, 0) == -1
    assert g.distances_from(0).tolist() == [0, 1, -1]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bidirectional_equals_per_target_bfs(seed):
    g = random_graph(300, 3, seed, cycle=seed != 2)
    rng = np.random.default_rng(seed)
    s, t = rng.integers(0, 300, 200), rng.integers(0, 300, 200)
    per_target = g.shortest_path_lengths(s, t, method="per-target")
    g2 = DiGraph(g.indptr, g.indices)
    bidi = g2.shortest_path_lengths(s, t, method="bidirectional")
    own = np.array([g2.distances_from(a)[b] for a, b in zip(s, t, strict=True)])
    assert (per_target == bidi).all() and (bidi == own).all()


def test_largest_scc_and_strong_connectivity_errors():
    # SCC {0,1,2} plus a tail 2 -> 3 -> 4
    g = DiGraph.from_edges([0, 1, 2, 2, 3], [1, 2, 0, 3, 4], 5, names=list("abcde"))
    assert not g.is_strongly_connected()
    with pytest.raises(GraphError, match="not strongly connected: 3 components"):
        g.require_strongly_connected()
    with pytest.raises(DataFormatError, match="edges.tsv"):
        g.require_strongly_connected("edges.tsv")
    scc, nodes = g.largest_scc()
    assert nodes.tolist() == [0, 1, 2]
    assert scc.names.tolist() == ["a", "b", "c"] and scc.n_edges == 3
    assert scc.is_strongly_connected()


def test_unknown_node_names():
    g = DiGraph.from_edges([0], [1], 2, names=["x", "y"])
    assert g.node_id("y") == 1
    with pytest.raises(GraphError, match="unknown node 'z'"):
        g.node_id("z")
    with pytest.raises(DataFormatError, match="pairs.tsv, line 7: unknown node 'z'"):
        g.node_ids(["x", "z"], path="pairs.tsv", lines=[6, 7])


def test_save_load_roundtrip(tmp_path):
    g = random_graph(50, 2, 3)
    g.save(tmp_path / "g.npz")
    h = DiGraph.load(tmp_path / "g.npz")
    assert (h.indptr == g.indptr).all() and (h.indices == g.indices).all()
    assert h.names.tolist() == g.names.tolist()
    g.save(tmp_path / "r.npz", with_reverse=True)
    r = DiGraph.load(tmp_path / "r.npz")
    assert r._reverse is not None
    assert (r.reverse().indices == g.reverse().indices).all()
    assert (r.reverse().indptr == g.reverse().indptr).all()


def test_save_arrays_memory_maps_and_keeps_distances(tmp_path):
    g = DiGraph.from_edges([0, 0, 1, 2, 3], [1, 2, 3, 3, 0], 4)
    g.save_arrays(tmp_path / "g")
    h = DiGraph.load_arrays(tmp_path / "g")
    assert isinstance(np.load(tmp_path / "g" / "indices.npy", mmap_mode="r"), np.memmap)
    assert h.indptr.tolist() == g.indptr.tolist() and h.indices.tolist() == g.indices.tolist()
    assert h.reverse().indices.tolist() == g.reverse().indices.tolist()
    # 0 -> 1 -> 3 -> 0: distance 2 from 0 to 3, 1 from 3 to 0, through the reverse graph too
    assert (h.distance(0, 3), h.distance(3, 0), h.distances_to(0).tolist()) == (2, 1, [0, 2, 2, 1])
    (tmp_path / "g" / "indices.npy").write_text("not an array")
    with pytest.raises(DataFormatError, match="indices.npy"):
        DiGraph.load_arrays(tmp_path / "g")


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_compiled_pair_distances_equal_networkx(seed):
    """The compiled bidirectional BFS (issue 40) against networkx, on graphs with dead ends."""
    nx = pytest.importorskip("networkx")
    rng = np.random.default_rng(seed)
    n = 400
    src, dst = rng.integers(0, n, 900), rng.integers(0, n, 900)  # sparse: many unreachable
    g = DiGraph.from_edges(src, dst, n)
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    s, t = rng.integers(0, n, 500), rng.integers(0, n, 500)
    s[:5] = t[:5]  # a pair of one node: 0
    want = []
    for a, b in zip(s.tolist(), t.tolist(), strict=True):
        try:
            want.append(nx.shortest_path_length(G, a, b))
        except nx.NetworkXNoPath:
            want.append(-1)
    got = g.shortest_path_lengths(s, t, method="bidirectional")
    assert got.tolist() == want
    assert -1 in want and max(want) >= 4  # the cases above occur
    # again with half the targets cached by a per-target BFS: the same distances
    g.shortest_path_lengths(s[:250], t[:250], method="per-target")
    assert g.shortest_path_lengths(s, t, method="bidirectional").tolist() == want


def test_pair_distances_refuse_a_node_out_of_range():
    g = DiGraph.from_edges([0, 1], [1, 0], 2)
    with pytest.raises(GraphError, match=r"path ends must be node numbers in \[0, 2\)"):
        g.shortest_path_lengths([0, 2], [1, 0], method="bidirectional")
