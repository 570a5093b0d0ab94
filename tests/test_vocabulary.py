"""One vocabulary (issue 42): the subject scored, the agent that played and a pair's partner.

Stores written before the three names (a row's ``embedding`` was the subject, its ``subject``
the agent or, in a measure of pairs, the partner) are read in today's names: the same rows,
nothing recomputed, the paired comparisons' items found under the new keys.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

import wordgames
from wordgames.embeddings import Embedding
from wordgames.measure import MeasureResult, Score, item_key, score_item_key

RNG = np.random.default_rng(3)
WORDS = [f"w{i}" for i in range(60)]
A = Embedding(WORDS, RNG.normal(size=(60, 6)).astype("float32"), name="a")
B = Embedding(WORDS, RNG.normal(size=(60, 6)).astype("float32"), name="b")
PLAY = {"games": 4, "n_blue": 4, "n_red": 4, "words": WORDS[:40], "vocab_size": None}


def _selfplay(games: int = 4, **kw):
    play = {"codenames-selfplay": {**PLAY, "games": games}}
    return wordgames.evaluate([A, B], ["codenames-selfplay"], options=play, ci_resamples=50, **kw)


def _as_written_before(result: dict) -> dict:
    """A stored self-play result as wordgames wrote it before the three names."""
    old = {k: v for k, v in result.items() if k != "subject"}
    old["embedding"] = result["subject"]
    rows = []
    for s in result["scores"]:
        row = {k: v for k, v in s.items() if k not in ("subject", "agent", "partner")}
        rows.append({**row, "embedding": s["subject"], "subject": s["partner"]})
    old["scores"] = rows
    keys = {score_item_key(Score.from_dict(s)): f"{s['dataset']}|{s['partner']}|{s['metric']}"
            for s in result["scores"]}  # fmt: skip
    old["items"] = {keys[k]: v for k, v in (result.get("items") or {}).items()}
    return old


def test_a_pair_row_names_its_subject_agent_and_partner():
    res = _selfplay()
    rows = {(s.subject, s.agent, s.partner) for s in res.scores if s.metric == "mean_turns"}
    assert rows == {("a", "", "a"), ("a", "", "b"), ("b", "", "a"), ("b", "", "b")}
    # the partner is in the items' key: two partners' games are never paired
    for r in res.results:
        assert set(r.items) == {score_item_key(s) for s in r.scores if score_item_key(s) in r.items}
        assert all(k.endswith(f"|{r.scores[0].partner}") for k in r.items)


def test_an_old_store_reads_the_same_and_recomputes_nothing(tmp_path):
    first = _selfplay(30, store=tmp_path)  # 30 games: not thin, so the paired rule runs
    assert first.parameters["computed"] == 4
    records = sorted((tmp_path / "records").rglob("*.json"))
    assert len(records) == 4
    for path in records:  # rewrite every record as the old schema had it
        entry = json.loads(path.read_text())
        entry["result"] = _as_written_before(entry["result"])
        assert "agent" not in json.dumps(entry["result"]["scores"])
        path.write_text(json.dumps(entry))
    again = _selfplay(30, store=tmp_path)
    assert again.parameters["computed"] == 0 and again.parameters["reused"] == 4
    pd.testing.assert_frame_equal(again.to_frame(), first.to_frame())
    # the store's table and the report read the old rows in today's names
    from wordgames.report import leaderboard, load_results
    from wordgames.results.store import ResultStore

    table = ResultStore(tmp_path).table()
    turns = table[table.metric == "mean_turns"]
    assert sorted(zip(turns.subject, turns.agent, turns.partner, strict=True)) == [
        ("a", "", "a"), ("a", "", "b"), ("b", "", "a"), ("b", "", "b"),
    ]  # fmt: skip
    _selfplay(30, store=tmp_path / "fresh")  # the same run into a store of today's schema
    lb, fresh = (leaderboard(load_results(p)) for p in (tmp_path, tmp_path / "fresh"))
    pd.testing.assert_frame_equal(lb.values, fresh.values)
    # the per-game items behind "best" are found under the new keys: the same comparisons
    assert lb.comparisons and lb.comparisons.keys() == fresh.comparisons.keys()
    pd.testing.assert_frame_equal(lb.best(), fresh.best())


def test_an_old_row_of_other_measures_keeps_its_agent():
    old = {"embedding": "g", "measure": "codenames", "dataset": "d", "subject": "nearest",
           "metric": "map", "value": 0.5, "n": 40}  # fmt: skip
    s = Score.from_dict(old)
    assert (s.subject, s.agent, s.partner, s.n) == ("g", "nearest", "", 40)
    r = MeasureResult.from_dict(
        {
            "measure": "codenames",
            "version": "1",
            "embedding": "g",
            "scores": [old],
            "items": {"d|nearest|map": {"x": 1}},
        }  # fmt: skip
    )
    assert r.subject == "g" and r.items == {item_key("d", "nearest", "map"): {"x": 1}}
    assert Score.from_dict(s.as_dict()).key == s.key


def test_evaluate_takes_subjects_and_the_old_keyword_with_a_warning():
    new = wordgames.evaluate(subjects=A, measures=["global-metrics"]).to_frame()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = wordgames.evaluate(embeddings=A, measures=["global-metrics"]).to_frame()
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    pd.testing.assert_frame_equal(old, new)
    with pytest.raises(TypeError, match="both subjects and embeddings"):
        wordgames.evaluate(A, embeddings=B, measures=["global-metrics"])


def test_results_name_their_subjects_and_the_old_name_warns():
    res = wordgames.evaluate(A, measures=["global-metrics"])
    assert [d["name"] for d in res.subjects] == ["a"]
    with pytest.warns(DeprecationWarning, match="Results.subjects"):
        assert res.embeddings == res.subjects
    # the run record keeps its file key, so that older readers read it
    assert res.record()["embeddings"] == res.subjects
