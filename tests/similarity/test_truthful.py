"""Issue 10 for word similarity: bootstrap intervals inside [-1, 1], coverage, options that do
not apply, console tables that cut no name."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import rankdata
from typer.testing import CliRunner

import wordgames
from tests.wales.test_truthful import assert_inside_bounds
from wordgames.cli import app
from wordgames.embeddings import Embedding

runner = CliRunner()


@pytest.mark.slow
def test_every_similarity_interval_inside_its_bounds_on_real_data(data_root):
    res = wordgames.evaluate(
        "glove-6b-50d", ["similarity"], data_root=data_root, seed=4, ci_resamples=300
    )
    scores = res.scores
    corr = [s for s in scores if s.metric in ("spearman", "pearson")]
    assert len(corr) == 26 and all(not math.isnan(s.ci_low) for s in corr)
    assert assert_inside_bounds(scores, "similarity") == 26
    # the interval holds the estimate on every benchmark (percentile bootstrap of a correlation
    # over hundreds of pairs)
    assert all(s.ci_low <= s.value <= s.ci_high for s in corr)
    # coverage: the Stanford rare words lose 252 of their 2,034 pairs to the vocabulary
    rw = next(s for s in scores if (s.dataset, s.metric) == ("rw", "spearman"))
    assert (rw.n, rw.n_skipped) == (2034 - 252, 252)
    assert rw.coverage == pytest.approx((2034 - 252) / 2034)
    # the small benchmarks have wide intervals: MC-30's is wider than MEN's (3,000 pairs)
    mc, men = (
        next(s for s in corr if (s.dataset, s.metric) == (d, "spearman")) for d in ("mc30", "men")
    )
    assert mc.ci_high - mc.ci_low > 5 * (men.ci_high - men.ci_low)


def test_interval_is_the_paired_bootstrap_by_hand(tmp_path):
    from wordgames.similarity.benchmarks import evaluate_benchmark, read_pairs_tsv

    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(12)]
    emb = Embedding(words, rng.normal(size=(12, 3)), name="toy")
    lines = [f"w{i}\tw{j}\t{rng.uniform(0, 10):.2f}" for i in range(6) for j in range(6, 12)]
    (tmp_path / "toy.tsv").write_text("\n".join(lines) + "\n")
    bench = read_pairs_tsv(tmp_path / "toy.tsv")
    s = evaluate_benchmark(emb, bench, n_resamples=500, seed=9)
    # the pairs' cosines and human scores, resampled together with the same generator
    u = emb.vectors / np.linalg.norm(emb.vectors, axis=1, keepdims=True)
    idx1 = np.array([words.index(w) for w in bench.word1])
    idx2 = np.array([words.index(w) for w in bench.word2])
    x, y = (u[idx1] * u[idx2]).sum(axis=1), bench.scores
    idx = np.random.default_rng(9).integers(0, 36, size=(500, 36))
    rs = [np.corrcoef(rankdata(x[k]), rankdata(y[k]))[0, 1] for k in idx]
    rp = [np.corrcoef(x[k], y[k])[0, 1] for k in idx]
    assert s.spearman_ci == pytest.approx(tuple(np.quantile(rs, [0.025, 0.975])))
    assert s.pearson_ci == pytest.approx(tuple(np.quantile(rp, [0.025, 0.975])))
    assert evaluate_benchmark(emb, bench, n_resamples=0).spearman_ci != s.spearman_ci


def test_fixed_oov_pairs_do_not_count_as_covered(data_root):
    emb = Embedding(
        ["car", "automobile", "gem", "jewel", "noon", "string"],
        np.array([[1, 0], [0.9, 0.1], [0, 1], [0.1, 0.9], [-1, 0], [0.5, -0.5]]),
        name="tiny",
    )
    opts = {"benchmarks": ["mc30"], "oov": "fixed"}
    res = wordgames.evaluate(emb, ["similarity"], options={"similarity": opts}, data_root=data_root)
    sp = next(s for s in res.scores if s.metric == "spearman")
    # all 30 pairs are in n (27 with the fixed cosine), but only 3 have vectors
    assert sp.n == 30 and sp.coverage == pytest.approx(3 / 30)
    assert sp.thin and "coverage" in sp.thin_reason
    assert assert_inside_bounds(res.scores, "similarity") >= 1


def _vecs(tmp_path, name="vecs"):
    p = tmp_path / f"{name}.txt"
    p.write_text("a 1 0\nb 0.8 0.6\nc 0.6 0.8\nd 0 1\ne 0.3 0.9\n")
    return p


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--oov-similarity", "0.5"], "--oov-similarity applies only with --oov fixed"),
        (["--only-tsv", "-b", "mc30", "--tsv", "X"], "--only-tsv leaves out"),
    ],
)
def test_evaluate_flags_that_do_not_apply_are_errors(tmp_path, args, message):
    args = [str(tmp_path / "mine.tsv") if a == "X" else a for a in args]
    (tmp_path / "mine.tsv").write_text("a\tb\t1\na\tc\t2\nb\tc\t3\n")
    r = runner.invoke(app, ["similarity", "evaluate", "-e", str(_vecs(tmp_path)), *args])
    assert r.exit_code == 2 and message in " ".join(r.output.split()), r.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--table", "T", "--seed", "3"], "--seed: not used with --table"),
        (["--table", "T", "-e", "glove-6b-50d", "--quick"], "-e/--embedding, --quick: not used"),
        (
            ["-e", "a", "-e", "b", "-e", "c", "-m", "similarity", "--global-top-n", "10"],
            "--global-top-n applies to the 'global-metrics' measure",
        ),
        (
            ["-e", "a", "-e", "b", "-e", "c", "-m", "global-metrics", "--oov", "fixed"],
            "--oov applies to the 'similarity' measure",
        ),
    ],
)
@pytest.mark.slow
def test_correlate_flags_that_do_not_apply_are_errors(tmp_path, args, message):
    csv = tmp_path / "t.csv"
    csv.write_text("embedding,wales/score,erank\ne1,0.1,3\ne2,0.2,1\ne3,0.3,2\n")
    args = [str(csv) if a == "T" else a for a in args]
    r = runner.invoke(app, ["similarity", "correlate", *args, "-o", str(tmp_path / "o")])
    assert r.exit_code == 2 and message in " ".join(r.output.split()), r.output
    assert not (tmp_path / "o" / "correlation.json").exists()


@pytest.mark.parametrize("columns", ["80", "120"])
def test_console_tables_cut_no_name(tmp_path, columns):
    long_bench = "my-own-relatedness-benchmark-with-a-long-name"
    long_emb = "an-embedding-with-a-rather-long-file-name[intersection-10k]"
    (tmp_path / f"{long_bench}.tsv").write_text("a\tb\t3\na\tc\t1\na\td\t2\nb\tc\t4\ne\td\t5\n")
    vecs = _vecs(tmp_path, long_emb)
    r = runner.invoke(
        app,
        [
            "similarity",
            "evaluate",
            "-e",
            str(vecs),
            "--tsv",
            str(tmp_path / f"{long_bench}.tsv"),
            "--only-tsv",
        ],
        env={"COLUMNS": columns},
    )
    assert r.exit_code == 0, r.output
    assert "…" not in r.output
    assert long_bench in r.output and long_emb in r.output
    ruled = [line for line in r.output.splitlines() if "┃" in line or "│" in line]
    assert ruled and max(len(line) for line in ruled) <= int(columns)
    r = runner.invoke(
        app, ["similarity", "global-metrics", "-e", str(vecs)], env={"COLUMNS": columns}
    )
    assert r.exit_code == 0, r.output
    assert "…" not in r.output and long_emb in r.output
    for metric in ("erank", "perank_p2.5", "edim_p1"):
        assert metric in r.output, metric
