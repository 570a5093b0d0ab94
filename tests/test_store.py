"""The results store: keys, atomic writes, merging."""

from __future__ import annotations

from wordgames.measure import Score
from wordgames.results.store import ResultKey, ResultStore, params_hash


def _key(measure="m", seed=0, emb="a"):
    return ResultKey(emb * 64, measure, "1", params_hash({"seed": seed}))


def _res(x: float) -> dict:
    """A stored result (a MeasureResult record) with one Score row."""
    return {"measure": "m", "version": "1", "scores": [Score("e", "m", "", "", "x", x).as_dict()]}


def _x(entry: dict) -> float:
    (row,) = entry["result"]["scores"]
    return row["value"]


def test_params_hash_ignores_key_order():
    assert params_hash({"a": 1, "b": [1, 2]}) == params_hash({"b": [1, 2], "a": 1})
    assert params_hash({"a": 1}) != params_hash({"a": 2})


def test_put_get_and_table(tmp_path):
    store = ResultStore(tmp_path)
    store.put(_key(), _res(0.5), embedding={"name": "A"}, params={"seed": 0})
    store.put(_key(seed=1), _res(0.7), embedding={"name": "A"}, params={"seed": 1})
    assert len(store) == 2 and store.has(_key()) and not store.has(_key(measure="other"))
    df = store.table()
    assert sorted(df["value"]) == [0.5, 0.7]
    assert not list(tmp_path.rglob("*.tmp")) and not list(tmp_path.rglob("*.wgtmp"))


def test_merge(tmp_path):
    a, b = ResultStore(tmp_path / "a"), ResultStore(tmp_path / "b")
    a.put(_key(emb="a"), _res(1.0), embedding={"name": "A"}, params={})
    b.put(_key(emb="b"), _res(2.0), embedding={"name": "B"}, params={})
    b.put(_key(emb="a"), _res(9.0), embedding={"name": "A"}, params={})
    assert a.merge_from(b) == 1  # the shared key is kept as it was
    assert len(a) == 2 and _x(a.get(_key(emb="a"))) == 1.0
    assert a.merge_from(b, overwrite=True) == 2
    assert _x(a.get(_key(emb="a"))) == 9.0


def test_table_shows_score_rows(tmp_path):
    store = ResultStore(tmp_path)
    score = {
        "embedding": "A",
        "measure": "m",
        "dataset": "men",
        "subject": "",
        "metric": "spearman",
        "value": 0.7,
        "ci_low": 0.6,
        "ci_high": 0.8,
        "n": 97,
        "n_skipped": 3,
        "skip_reason": "OOV",
        "direction": "higher",
    }
    store.put(
        _key(),
        {"measure": "m", "version": "1", "scores": [score]},
        embedding={"name": "A"},
        params={"seed": 0},
    )
    df = store.table()
    assert list(df.columns) == [
        "subject",
        "subject_sha256",
        "measure",
        "dataset",
        "agent",
        "partner",
        "metric",
        "value",
        "ci_low",
        "ci_high",
        "n",
        "n_skipped",
        "n_oov",
        "n_unread",
        "skip_reason",
        "coverage",
        "thin",
        "thin_reason",
    ]
    row = df.iloc[0]
    assert len(df) == 1 and (row.dataset, row.metric, row.value) == ("men", "spearman", 0.7)
    # a row stored before the three names (embedding, subject) reads in today's
    assert (row.subject, row.agent, row.partner) == ("A", "", "")
    assert (row.ci_low, row.ci_high, row.n, row.n_skipped) == (0.6, 0.8, 97, 3)


def test_old_schema_entries_are_not_read(tmp_path):
    from wordgames.results import write_json_atomic

    store = ResultStore(tmp_path)
    store.put(_key(), _res(0.5), embedding={"name": "A"}, params={"seed": 0})
    old = _key(seed=1)  # written by an older wordgames: no schema_version, flat metrics only
    write_json_atomic(
        store.path(old),
        {
            "key": {
                "embedding_sha256": old.embedding_sha256,
                "measure": "m",
                "version": "1",
                "params_sha256": old.params_sha256,
            },
            "embedding": {"name": "A"},
            "params": {"seed": 1},
            "result": _res(0.9),
        },
    )
    assert store.get(old) is None and not store.has(old)  # recomputed, never misread
    assert store.table()["value"].tolist() == [0.5]
