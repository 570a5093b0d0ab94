"""The thin rule everywhere (issue 21, item 3): no printer shows a thin value unmarked and no
correlation uses one."""

from __future__ import annotations

import math

import pytest
from typer.testing import CliRunner

import wordgames

pytestmark = pytest.mark.slow


def test_codenames_evaluate_marks_every_thin_value(data_root):
    from wordgames.cli import app

    emb, ds = "glove-6b-50d-top10k", "codenames-human-stanfordhci"
    res = wordgames.evaluate(
        emb, measures=["codenames"], datasets=[ds], data_root=data_root, ci_resamples=50
    )
    thin = {s.agent for s in res.scores if s.thin and s.dataset == ds}
    assert {"cluster", "nearest"} <= thin  # 5 of 33 records: the check has something to see
    r = CliRunner().invoke(
        app,
        ["codenames", "evaluate", "-e", emb, "-d", ds, "--data-root", str(data_root)],
        terminal_width=200,
    )
    assert r.exit_code == 0, r.output
    rows = [ln for ln in r.output.splitlines() if ln.split() and ln.split()[0] in thin]
    assert rows, r.output
    unmarked = [ln for ln in rows if "(thin)" not in ln]
    assert unmarked == []
    assert "(thin): not ranked, coverage 5 of 33" in r.output
    # a score that is not thin is not marked
    fine = [ln for ln in r.output.splitlines() if ln.startswith("random-receiver")]
    assert fine and all("(thin)" not in ln for ln in fine)


def test_the_correlation_study_leaves_thin_scores_out(data_root):
    from wordgames.similarity.correlation import study_from_results

    embs = ["glove-6b-50d", "glove-6b-50d-pca10", "glove-6b-50d-top10k"]
    res = wordgames.evaluate(embs, measures=["similarity"], data_root=data_root, ci_resamples=0)
    thin = {(s.subject, s.dataset) for s in res.scores if s.thin and s.metric == "spearman"}
    assert ("glove-6b-50d-top10k", "rw") in thin  # rare words: a 10k vocabulary misses most
    study = study_from_results(res, reference="men/spearman")
    for emb, bench in thin:
        assert math.isnan(study.table.loc[emb, f"{bench}/spearman"])
    left = {(t["subject"], t["metric"]) for t in study.thin}
    assert left == {(e, f"{b}/spearman") for e, b in thin}
    # the coefficient of rw is computed on the embeddings whose score is not thin
    row = study.correlation.with_reference.set_index("metric").loc["rw/spearman"]
    assert row["n_embeddings"] == len(embs) - sum(1 for e, b in thin if b == "rw")
