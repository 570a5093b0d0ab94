"""The results store: keys, atomic writes, merging."""

from __future__ import annotations

from wordgames.results.store import ResultKey, ResultStore, params_hash


def _key(measure="m", seed=0, emb="a"):
    return ResultKey(emb * 64, measure, "1", params_hash({"seed": seed}))


def test_params_hash_ignores_key_order():
    assert params_hash({"a": 1, "b": [1, 2]}) == params_hash({"b": [1, 2], "a": 1})
    assert params_hash({"a": 1}) != params_hash({"a": 2})


def test_put_get_and_table(tmp_path):
    store = ResultStore(tmp_path)
    store.put(_key(), {"metrics": {"x": 0.5}}, embedding={"name": "A"}, params={"seed": 0})
    store.put(_key(seed=1), {"metrics": {"x": 0.7}}, embedding={"name": "A"}, params={"seed": 1})
    assert len(store) == 2 and store.has(_key()) and not store.has(_key(measure="other"))
    df = store.table()
    assert sorted(df["value"]) == [0.5, 0.7]
    assert not list(tmp_path.rglob("*.tmp"))


def test_merge(tmp_path):
    a, b = ResultStore(tmp_path / "a"), ResultStore(tmp_path / "b")
    a.put(_key(emb="a"), {"metrics": {"x": 1.0}}, embedding={"name": "A"}, params={})
    b.put(_key(emb="b"), {"metrics": {"x": 2.0}}, embedding={"name": "B"}, params={})
    b.put(_key(emb="a"), {"metrics": {"x": 9.0}}, embedding={"name": "A"}, params={})
    assert a.merge_from(b) == 1  # the shared key is kept as it was
    assert len(a) == 2 and a.get(_key(emb="a"))["result"]["metrics"]["x"] == 1.0
    assert a.merge_from(b, overwrite=True) == 2
    assert a.get(_key(emb="a"))["result"]["metrics"]["x"] == 9.0
