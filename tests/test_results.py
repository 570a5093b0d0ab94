"""Result records and statistics helpers."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from wordgames.results import MeasureResult, RunRecord, write_json_atomic
from wordgames.stats import mean_ci, rank_summary


def test_measure_result_is_json_safe(tmp_path):
    res = MeasureResult(
        "m",
        "1",
        tables={"t": [{"x": np.int64(3), "a": np.float32(0.5), "b": float("nan")}]},
        datasets={"d": {"f": "abc"}},
    )
    rec = RunRecord(
        embeddings=[], results=[res.as_dict()], skipped=[], parameters={"seed": 0}, timings={}
    )
    path = write_json_atomic(tmp_path / "r.json", rec.as_dict())
    data = json.loads(path.read_text())
    assert data["results"][0]["tables"]["t"][0] == {"x": 3, "a": 0.5, "b": None}
    assert data["schema_version"] == 2 and data["tool_version"]  # 2: typed Score rows
    assert not list(tmp_path.glob(".*tmp"))  # no temp file left behind


def test_mean_ci_matches_hand_computation():
    x = [2.0, 4.0, 6.0, 8.0]
    r = mean_ci(x)
    # sd = 2.582, t(0.975, 3) = 3.182, half = 3.182 * 2.582 / 2 = 4.108
    assert r["mean"] == 5.0
    assert r["ci_high"] - 5.0 == pytest.approx(4.108, abs=1e-3)
    assert math.isnan(mean_ci([1.0])["ci_low"]) and mean_ci([])["n"] == 0


def test_rank_summary():
    s = rank_summary([1, 10, 11, 100, 101])
    assert s["mean_rank"] == pytest.approx(44.6)
    assert s["median_rank"] == 11
    assert s["mrr"] == pytest.approx((1 + 0.1 + 1 / 11 + 0.01 + 1 / 101) / 5)
    assert s["hits@10"] == pytest.approx(0.4) and s["hits@100"] == pytest.approx(0.8)
