import pickle

import numpy as np
import pytest

from tests.conftest import require_dataset
from wordgames.errors import DataFormatError
from wordgames.wales.loaders import (
    load_wikispeedia,
    read_challenges,
    read_edge_list,
    read_human_results,
    read_name_table,
    read_networkx_pickle,
    read_wales_nodes,
    read_wikigame_paths,
    read_wikispeedia_paths,
    resolve_back_clicks,
    safe_load_pickle,
)

# ----------------------------------------------------------------------------- edge lists


def test_snap_edge_list_with_comments_and_name_table(tmp_path):
    e = tmp_path / "edges.txt"
    e.write_text("# Directed graph\n# FromNodeId\tToNodeId\n10\t20\n20\t30\n30\t10\n10\t20\n")
    g, rep = read_edge_list(e)
    assert g.n_nodes == 31 and g.n_edges == 3 and rep["duplicate_edges_merged"] == 1
    names = tmp_path / "names.tsv"
    names.write_text("node_id\tname\n10\tten\n20\ttwenty\n30\tthirty\n")
    g, _ = read_edge_list(e, names_path=names)
    assert g.n_nodes == 3 and g.names.tolist() == ["ten", "twenty", "thirty"]
    assert g.successors(g.node_id("ten")).tolist() == [g.node_id("twenty")]
    assert g.is_strongly_connected()


def test_named_edge_list_with_header(tmp_path):
    e = tmp_path / "e.tsv"
    e.write_text("source\ttarget\nparis\tfrance\nfrance\tparis\n")
    g, _ = read_edge_list(e)
    assert sorted(g.names.tolist()) == ["france", "paris"] and g.n_edges == 2


def test_missing_column_names_file_and_line(tmp_path):
    e = tmp_path / "bad.tsv"
    e.write_text("# comment\n0\t1\n1\n2\t0\n")
    with pytest.raises(DataFormatError, match=r"bad.tsv, line 3: expected two columns"):
        read_edge_list(e)
    e.write_text("0\t1\n1\t2\t3\n")
    with pytest.raises(
        DataFormatError, match=r"line 2: expected two columns \(source, target\), found more"
    ):
        read_edge_list(e)


def test_edge_to_id_missing_from_name_table(tmp_path):
    e = tmp_path / "e.txt"
    e.write_text("1\t2\n2\t7\n")
    names = tmp_path / "n.tsv"
    names.write_text("1\ta\n2\tb\n")
    with pytest.raises(DataFormatError, match=r"e.txt, line 2: node id 7 is not in the name table"):
        read_edge_list(e, names_path=names)


def test_name_table_duplicates_rejected(tmp_path):
    names = tmp_path / "n.tsv"
    names.write_text("1\ta\n2\ta\n")
    with pytest.raises(DataFormatError, match="appears twice"):
        read_name_table(names)


def test_resolve_back_clicks():
    assert resolve_back_clicks(["a", "b", "<", "c"]) == (["a", "b", "a", "c"], 1)
    with pytest.raises(ValueError):
        resolve_back_clicks(["a", "<"])


def test_finished_paths_format_and_bad_back_click(tmp_path):
    p = tmp_path / "paths_finished.tsv"
    p.write_text("# comment\n\nip1\t1\t30\tA;B;<;C;D\tNULL\nip2\t2\t10\tA;D\t3\n")
    hp = read_wikispeedia_paths(p)
    assert hp.finished and hp.targets.tolist() == ["D", "D"]
    assert hp.n_clicks.tolist() == [4, 1] and hp.n_back.tolist() == [1, 0]
    assert hp.paths[0] == ["A", "B", "A", "C", "D"]
    p.write_text("# comment\n\nip1\t1\t30\tA;B\tNULL\nip2\t2\t10\t<;D\t3\n")
    with pytest.raises(DataFormatError, match=r"paths_finished.tsv, line 4: back click"):
        read_wikispeedia_paths(p)


# ----------------------------------------------------------------------------- safe pickle


class _Evil:
    def __reduce__(self):
        import os

        return (os.system, ("echo pwned",))


def test_safe_unpickler_refuses_os_system(tmp_path):
    p = tmp_path / "evil.p"
    p.write_bytes(pickle.dumps(_Evil()))
    with pytest.raises(DataFormatError, match=r"refusing to load global (posix|os|nt)\.system"):
        safe_load_pickle(p)
    with pytest.raises(DataFormatError, match="refusing"):
        read_networkx_pickle(p)


@pytest.mark.parametrize("protocol", [0, 2, pickle.HIGHEST_PROTOCOL])
def test_networkx_pickle_is_read_without_running_code(tmp_path, protocol):
    nx = pytest.importorskip("networkx")
    G = nx.DiGraph()
    G.add_edges_from([(16, 27), (27, 29), (29, 16), (16, 29)])
    p = tmp_path / "wiki_graph.p"
    p.write_bytes(pickle.dumps(G, protocol=protocol))
    g = read_networkx_pickle(p, names={16: "l'idea", 27: "augment", 29: "choirboy"})
    assert g.n_nodes == 3 and g.n_edges == 4
    assert g.names.tolist() == ["l'idea", "augment", "choirboy"]
    assert g.successors(0).tolist() == [1, 2]
    assert g.is_strongly_connected()


def test_pickle_that_is_not_a_graph(tmp_path):
    p = tmp_path / "x.p"
    p.write_bytes(pickle.dumps({"a": 1}))
    with pytest.raises(DataFormatError, match="does not hold a networkx graph"):
        read_networkx_pickle(p)


# ----------------------------------------------------------------------------- real data


def test_wikispeedia_graph_and_lscc():
    folder = require_dataset("wikispeedia")
    ws = load_wikispeedia(folder)
    g = ws.graph
    assert (g.n_nodes, g.n_edges) == (4604, 119882)
    assert "Åland" in g.node_index  # %C3%85land, URL-decoded
    scc, _ = g.largest_scc()
    assert (scc.n_nodes, scc.n_edges) == (4051, 111900)  # PROVENANCE.md


def test_wikispeedia_unfinished_paths_quirks():
    folder = require_dataset("wikispeedia")
    hp = read_wikispeedia_paths(folder / "paths_unfinished.tsv")
    assert not hp.finished
    assert hp.starts.size == 24875  # the blank line after the comments is not a row
    assert hp.report["with_back_clicks"] == 5201
    assert set(hp.extra["type"]) == {"timeout", "restart"}
    i = int(np.flatnonzero(hp.n_back > 0)[0])
    assert "<" not in hp.paths[i] and len(hp.paths[i]) == hp.n_clicks[i] + 1
    articles = set(load_wikispeedia(folder).graph.names.tolist())
    assert sum(t not in articles for t in hp.targets) == 28  # e.g. 'Long_peper'


def test_wikispeedia_challenges_inside_lscc():
    folder = require_dataset("wikispeedia")
    scc, _ = load_wikispeedia(folder).graph.largest_scc()
    pairs = read_challenges(folder / "challenges_1000_seed0.tsv", scc.node_index)
    assert len(pairs) == 1000 and len(set(pairs)) == 1000
    assert pairs[0] == ("World_War_II", "Still_Game")


def test_wales_authors_files():
    folder = require_dataset("wales")
    ids, names = read_wales_nodes(folder / "nodes.tsv")
    assert names.size == 38609 and ids.min() == 16 and ids.max() == 92230
    known = set(names.tolist())
    pairs = read_challenges(folder / "challenges.txt", known)
    assert len(pairs) == 1000 and pairs[0] == ("nebraska", "asthma")
    assert len({w for p in pairs for w in p}) == 907
    res = read_human_results(folder / "human_results_wales.tsv")
    assert list(res["start"][:2]) == ["nebraska", "mammal"]
    assert res["opt"].value_counts().to_dict() == {3: 627, 4: 332, 2: 39, 5: 2}
    early = read_human_results(folder / "early_results_wikigame.tsv")
    assert len(early) == 3695 and "agent_word2vec" in early.columns
    recs = read_wikigame_paths(folder / "wikigame_human_paths.jsonl")
    assert len(recs) == 3820 and sum(len(r["paths"]) for r in recs) == 23710
    g, _ = read_edge_list(folder / "graph100_edges.tsv")
    assert (g.n_nodes, g.n_edges) == (100, 763) and g.is_strongly_connected()


def test_challenge_with_unknown_name(tmp_path):
    p = tmp_path / "c.txt"
    p.write_text("a\tb\nb\tzzz\n")
    with pytest.raises(DataFormatError, match=r"c.txt, line 2: unknown node 'zzz'"):
        read_challenges(p, {"a", "b"})


def test_human_results_bad_number(tmp_path):
    p = tmp_path / "r.tsv"
    p.write_text("start\ttarget\thuman_best\thuman_avg\thuman_median\topt\na\tb\t3\t3.0\tx\t2\n")
    with pytest.raises(DataFormatError, match=r"r.tsv, line 2: column 'human_median'"):
        read_human_results(p)


def test_paths_layout_comes_from_the_rows_not_the_file_name(tmp_path):
    """Issue 22, item 14: a renamed paths_unfinished.tsv failed with a misleading error."""
    src = require_dataset("wikispeedia") / "paths_unfinished.tsv"
    renamed = tmp_path / "my_paths.tsv"
    renamed.write_bytes(src.read_bytes())
    a, b = read_wikispeedia_paths(src), read_wikispeedia_paths(renamed)
    assert not a.finished and not b.finished
    assert list(a.targets[:50]) == list(b.targets[:50]) and len(a.paths) == len(b.paths)
    bad = tmp_path / "paths_finished.tsv"
    bad.write_text("# comment\nip\t1\t2\tA;B\n")
    with pytest.raises(DataFormatError, match=r"line 2.*4 tab-separated columns"):
        read_wikispeedia_paths(bad)
