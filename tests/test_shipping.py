"""What a Ray worker gets without a shared filesystem, checked without Ray: the data shipped and
written once per node, the node's own data checked by sha256, one unit run from shipped arrays,
its result and plots stored by the driver alone."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from wordgames.errors import WordgamesError


def test_packed_data_is_the_declared_files_with_their_checksums(data_root):
    from wordgames.datasets import all_datasets
    from wordgames.executors import pack_data

    packed = pack_data(data_root)
    declared = {f"{s.folder}/{f.path}": f.sha256 for s in all_datasets().values() for f in s.files}
    assert packed["manifest"] and set(packed["manifest"]) <= set(declared)
    for rel, blob in packed["files"].items():
        assert hashlib.sha256(blob).hexdigest() == declared[rel] == packed["manifest"][rel]
    assert pack_data(None) == {"manifest": {}, "files": {}}


def test_a_damaged_file_is_not_shipped(tmp_path, data_root):
    from wordgames.datasets import get_dataset
    from wordgames.executors import pack_data

    spec = get_dataset("codenames-pilot")
    for f in spec.files:  # a copy of the data set with one file changed
        target = tmp_path / spec.folder / f.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((data_root / spec.folder / f.path).read_bytes())
    bad = f"{spec.folder}/{spec.files[0].path}"
    (tmp_path / bad).write_bytes(b"changed")
    packed = pack_data(tmp_path)
    assert bad not in packed["files"] and bad not in packed["manifest"]
    assert len(packed["files"]) == len(spec.files) - 1


def test_a_node_writes_the_shipped_data_once(tmp_path, monkeypatch, data_root):
    from wordgames.executors import node_data_root, pack_data

    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "node-cache"))
    packed = pack_data(data_root)
    folder = node_data_root(packed)
    for rel, digest in packed["manifest"].items():
        assert hashlib.sha256((tmp_path / folder / rel).read_bytes()).hexdigest() == digest
    marker = tmp_path / folder / ".done"
    stamp = marker.stat().st_mtime_ns
    assert node_data_root(packed) == folder and marker.stat().st_mtime_ns == stamp  # not again
    assert node_data_root({"manifest": {}, "files": {}}) is None


def test_a_nodes_own_data_is_checked_file_by_file(tmp_path, monkeypatch, data_root):
    from wordgames.executors import checked_node_data, data_manifest

    manifest = {k: v for k, v in data_manifest(data_root).items() if k.startswith("similarity/")}
    monkeypatch.delenv("WORDGAMES_DATA", raising=False)
    with pytest.raises(WordgamesError, match="WORDGAMES_DATA is not set on this node"):
        checked_node_data(manifest)
    for rel in manifest:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes((data_root / rel).read_bytes())
    monkeypatch.setenv("WORDGAMES_DATA", str(tmp_path))
    assert checked_node_data(manifest) == str(tmp_path)
    first = sorted(manifest)[0]
    (tmp_path / first).write_bytes(b"another version")
    with pytest.raises(WordgamesError, match="1 file"):
        checked_node_data(manifest)


def _unit(tmp_path, emb, data_root):
    import wordgames
    from wordgames.evaluation import RunSettings, plan_units
    from wordgames.executors import EmbeddingRef
    from wordgames.registry import get_measure
    from wordgames.results.store import ResultStore

    m = get_measure("similarity")
    typed = {m.name: m.make_options({})}
    settings = RunSettings(out_dir=str(tmp_path / "out"), data_root=str(data_root), quick=True)
    plan = plan_units([emb], [m], typed, store=ResultStore(tmp_path / "out"), settings=settings)
    (unit,) = plan.missing
    assert isinstance(unit.embedding, EmbeddingRef) and wordgames
    return unit


def test_a_unit_from_shipped_arrays_is_stored_by_the_driver_only(tmp_path, monkeypatch, data_root):
    from wordgames import executors
    from wordgames.embeddings import Embedding
    from wordgames.executors import pack_data, run_shipped, store_shipped
    from wordgames.results.store import ResultStore

    rng = np.random.default_rng(0)
    words = ["cat", "dog", "car", "tree", "apple", "bank", "river", "money"]
    emb = Embedding(words, rng.normal(size=(8, 5)).astype("float32"), name="toy")
    unit = _unit(tmp_path, emb, data_root)
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "node"))
    monkeypatch.delenv("WORDGAMES_DATA", raising=False)  # the worker has only what is shipped
    outcome = run_shipped(unit, emb.words, emb.vectors, None, None, pack_data(data_root))
    assert outcome["status"] == "done", outcome.get("reason")
    assert not (tmp_path / "out" / "records").exists()  # the worker wrote nothing there
    store_shipped(unit, outcome)
    assert "files" not in outcome
    entry = ResultStore(tmp_path / "out").get(unit.key)
    assert entry["result"]["scores"] == outcome["result"].as_dict()["scores"]
    # vectors that are not the driver's are refused, not scored (a new worker: nothing memoised)
    executors._SHIPPED.clear()
    other = run_shipped(unit, emb.words, emb.vectors * 2, None, None, {"manifest": {}, "files": {}})
    assert other["status"] == "failed" and "differ from the driver's" in other["reason"]


def test_shipped_plot_files_land_in_the_output_folder_only(tmp_path):
    from dataclasses import replace

    from wordgames.executors import EmbeddingRef, WorkUnit, store_shipped
    from wordgames.registry import get_measure

    unit = WorkUnit(
        EmbeddingRef("e", "0" * 64, {}), get_measure("similarity"), None, {}, None,
        str(tmp_path / "out"),
    )  # fmt: skip
    outcome = {"status": "done", "files": {"plots/a.png": b"png", "../escape.png": b"x"}}
    store_shipped(replace(unit), outcome)
    assert (tmp_path / "out" / "plots" / "a.png").read_bytes() == b"png"
    assert not (tmp_path / "escape.png").exists()
