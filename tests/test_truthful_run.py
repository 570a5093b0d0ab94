"""Issue 10's promises on real runs: every interval inside its metric's bounds, thin scores
never ranked, and the console warns when a vocabulary policy drops most of a data set."""

from __future__ import annotations

import math

import pytest
from typer.testing import CliRunner

import wordgames
from wordgames.registry import get_measure

pytestmark = pytest.mark.slow


def _inside(score) -> bool:
    lo, hi = get_measure(score.measure).bounds(score.metric)
    ok = score.ci_low <= score.ci_high
    if lo is not None:
        ok &= score.ci_low >= lo - 1e-9
    if hi is not None:
        ok &= score.ci_high <= hi + 1e-9
    return bool(ok)


def test_every_interval_of_a_real_run_lies_within_its_bounds(tmp_path, data_root):
    res = wordgames.evaluate("glove-6b-50d", quick=True, store=tmp_path, data_root=data_root)
    with_ci = [s for s in res.scores if math.isfinite(s.ci_low) and math.isfinite(s.ci_high)]
    measures = {s.measure for s in with_ci}
    assert {"codenames", "similarity", "wales", "oddmanout"} <= measures
    assert len(with_ci) > 200
    bad = [
        (s.measure, s.dataset, s.agent, s.metric, s.ci_low, s.ci_high)
        for s in with_ci
        if not _inside(s)
    ]
    assert bad == []
    # the stored copies say the same (the report reads those)
    from wordgames.report import load_results

    stored = [s for e in load_results(tmp_path).entries for s in e.scores]
    assert sum(math.isfinite(s.ci_low) for s in stored) == len(with_ci)


def test_intersected_vocabulary_is_flagged_and_never_ranked(tmp_path, data_root):
    from wordgames.cli import app
    from wordgames.report import leaderboard, load_results

    out = tmp_path / "ix"
    r = CliRunner().invoke(
        app,
        [
            "run",
            "-e",
            "glove-6b-50d-top10k",
            "-e",
            "glove-6b-50d-pca20",
            "-e",
            "glove-6b-50d-pca10",
            "--intersect",
            "--quick",
            "-m",
            "codenames",
            "-m",
            "oddmanout",
            "--data-root",
            str(data_root),
            "-o",
            str(out),
        ],
        terminal_width=100,
    )
    assert r.exit_code == 0, r.output
    assert "warning: codenames-pilot: 0 of 30 records covered by the shared vocabulary" in r.output
    assert "warning: anomia-common-test:" in r.output
    board = leaderboard(load_results(out))
    thin = board.thin.fillna(False).astype(bool)
    assert thin.to_numpy().any(), "the 10k intersection makes some headline scores thin"
    assert board.ranks[thin].isna().all().all(), "a thin cell is never ranked"
    # names carry the vocabulary policy; the people (the human ceiling, on by default with
    # codenames) have no vocabulary to carry
    assert set(board.values.index) == {
        "glove-6b-50d-top10k[∩10k]",
        "glove-6b-50d-pca20[∩10k]",
        "glove-6b-50d-pca10[∩10k]",
        "people",
    }
