"""Issue 10 for Odd-Man-Out: bootstrap intervals inside [0, 100], coverage of the puzzles that
hold no out-of-vocabulary word, options that do not apply, tables that cut no name."""

from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

import wordgames
from tests.conftest import require_dataset
from tests.oddmanout.test_one_path import PUZZLES
from tests.wales.test_truthful import assert_inside_bounds
from wordgames.cli import app
from wordgames.embeddings import Embedding

runner = CliRunner()


@pytest.mark.slow
def test_every_interval_inside_its_bounds_and_coverage_on_real_data(data_root):
    require_dataset("oddmanout-anomia")
    res = wordgames.evaluate(
        "glove-6b-50d", ["oddmanout"], data_root=data_root, seed=2, ci_resamples=300
    )
    scores = res.scores
    by_set = {s.dataset: s.n for s in scores if s.metric == "pct_correct"}
    assert len(scores) >= 4 * 5  # the embedding on the five default sets (WordNet if present)
    assert assert_inside_bounds(scores, "oddmanout") == len(scores)  # every row has one
    for s in scores:
        # puzzles with an OOV word stay in n (abstained on, n_oov); coverage is the rest's
        # share of the set's puzzles (n + n_skipped: accuracy_answered skips the abstained)
        assert s.coverage == pytest.approx((s.n - s.n_oov) / (s.n + s.n_skipped))
        assert s.n + s.n_skipped == by_set[s.dataset]
        if s.metric.startswith("pct_"):
            assert s.ci_low <= s.value <= s.ci_high
    by = {(s.dataset, s.agent, s.metric): s for s in scores}
    # the three percentages of one set come from the same resamples: their bounds are those
    # of complementary shares (correct + wrong + abstained = 100 in every resample)
    c, w, a = (
        by["crowdsourced-filtered", "embedding", m]
        for m in ("pct_correct", "pct_wrong", "pct_abstained")
    )
    assert c.value + w.value + a.value == pytest.approx(100.0)


def test_a_vocabulary_that_drops_most_words_gives_thin_scores(glove, data_root):
    require_dataset("oddmanout-anomia")
    small = Embedding(glove.words[:2000], glove.vectors[:2000], name="glove-top2k")
    res = wordgames.evaluate(
        small,
        ["oddmanout"],
        data_root=data_root,
        options={"oddmanout": {"sets": ["anomia-proper-test"], "wordnet": False}},
    )
    row = next(s for s in res.scores if s.metric == "pct_correct")
    # nearly every puzzle holds a proper name outside the 2,000 most frequent words
    assert row.n == 102 and row.n_skipped == 0 and row.n_oov > 51
    assert row.coverage == pytest.approx((102 - row.n_oov) / 102) and row.coverage < 0.5
    assert row.thin
    full = wordgames.evaluate(
        glove,
        ["oddmanout"],
        data_root=data_root,
        options={"oddmanout": {"sets": ["anomia-proper-test"], "wordnet": False}},
    )
    assert not next(s for s in full.scores if s.metric == "pct_correct").thin


def test_intervals_are_the_bootstrap_by_hand():
    from wordgames.oddmanout.embedding_solver import Solution
    from wordgames.oddmanout.metrics import outcomes, score_intervals
    from wordgames.oddmanout.puzzles import PuzzleSet

    rng = np.random.default_rng(5)
    ps = PuzzleSet.from_odd_first("t", [list("abcde")] * 50, seed=1)
    choice = np.where(rng.random(50) < 0.6, ps.answer, (ps.answer + 1) % 5)
    choice[rng.random(50) < 0.2] = -1
    sol = Solution("x", choice, np.array([""] * 50, dtype=object), np.zeros((50, 5)))
    ci = score_intervals(ps, sol, n_resamples=400, seed=8)
    out = outcomes(ps, sol)
    idx = np.random.default_rng(8).integers(0, 50, size=(400, 50))
    for metric, code in (("pct_correct", 1), ("pct_wrong", 0), ("pct_abstained", -1)):
        ref = np.quantile(100.0 * (out[idx] == code).mean(axis=1), [0.025, 0.975])
        assert ci[metric] == pytest.approx(tuple(ref)), metric
        assert 0.0 <= ci[metric][0] <= ci[metric][1] <= 100.0
    answered = out[out >= 0]
    k = np.random.default_rng(8).integers(0, answered.size, size=(400, answered.size))
    ref = np.quantile((answered[k] == 1).mean(axis=1), [0.025, 0.975])
    assert ci["accuracy_answered"] == pytest.approx(tuple(ref))
    none = score_intervals(ps, sol, n_resamples=0)
    assert all(math.isnan(lo) for lo, _ in none.values())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--wordnet-only", "-e", "glove-6b-50d"], "-e/--embedding: not used with --wordnet-only"),
        (["--wordnet-only", "--mwe", "mean"], "--mwe: not used with --wordnet-only"),
        (["--wordnet-only", "--no-wordnet"], "leave no solver"),
        (["--no-wordnet", "--instances"], "--instances: WordNet options, but --no-wordnet"),
        (["--no-wordnet", "--missing", "abstain"], "--missing: WordNet options"),
        (["--no-wordnet", "--wordnet-mode", "published"], "--wordnet-mode: WordNet options"),
        (["--wordnet-mode", "published", "--instances"], "--instances: not used by --wordnet"),
        (["--wordnet-mode", "published", "--missing", "abstain"], "--missing: not used by"),
        (["--wordnet-mode", "nltk"], "--wordnet-mode must be one of ours, published"),
    ],
)
def test_evaluate_flags_that_do_not_apply_are_errors(tmp_path, args, message):
    puzzles = tmp_path / "toy.tsv"
    puzzles.write_text(PUZZLES, encoding="utf-8")
    r = runner.invoke(app, ["oddmanout", "evaluate", "--puzzles", str(puzzles), *args])
    assert r.exit_code == 2 and message in " ".join(r.output.split()), r.output


def test_other_commands_refuse_flags_that_do_not_apply(tmp_path):
    r = runner.invoke(
        app,
        [
            "oddmanout",
            "solve",
            "a",
            "b",
            "c",
            "d",
            "e",
            "--no-wordnet",
            "--wordnet-root",
            str(tmp_path),
        ],
    )
    assert r.exit_code == 2 and "--no-wordnet leaves WordNet out" in " ".join(r.output.split())
    r = runner.invoke(
        app,
        ["oddmanout", "generate", "hypernyms", "--vocab", "", "--top-n", "10", "-o", str(tmp_path)],
    )
    assert r.exit_code == 2 and "--top-n applies only with --vocab" in " ".join(r.output.split())
    cats = tmp_path / "c.tsv"
    cats.write_text("a\tw1\tw2\tw3\tw4\nb\tx1\tx2\tx3\tx4\n")
    r = runner.invoke(
        app, ["oddmanout", "generate", "sample", str(cats), "--format", "csv", "-o", str(tmp_path)]
    )
    assert r.exit_code == 2 and "--format must be tsv or jsonl" in r.output
    r = runner.invoke(
        app,
        [
            "oddmanout",
            "generate",
            "sample",
            str(cats),
            "-n",
            "7",
            "--format",
            "jsonl",
            "-o",
            str(tmp_path / "new"),
        ],
    )
    assert r.exit_code == 0, r.output
    assert len((tmp_path / "new" / "c7.jsonl").read_text().splitlines()) == 7


@pytest.mark.parametrize("columns", ["80", "120"])
def test_console_table_cuts_no_name(tmp_path, glove, columns):
    long_set = "my-own-odd-man-out-puzzles-with-a-long-name"
    long_emb = "an-embedding-with-a-long-file-name[top-5000]"
    (tmp_path / f"{long_set}.tsv").write_text(PUZZLES, encoding="utf-8")
    words = sorted({w for line in PUZZLES.splitlines() for w in line.split("\t")[1:]} - {"zzqxw"})
    vec = tmp_path / f"{long_emb}.txt"
    vec.write_text(
        "".join(f"{w} " + " ".join(f"{x:.4f}" for x in glove.vector(w)) + "\n" for w in words)
    )
    r = runner.invoke(
        app,
        [
            "oddmanout",
            "evaluate",
            "-e",
            str(vec),
            "--puzzles",
            str(tmp_path / f"{long_set}.tsv"),
            "--no-wordnet",
        ],
        env={"COLUMNS": columns},
    )
    assert r.exit_code == 0, r.output
    assert "…" not in r.output
    for name in (long_set, long_emb, "% correct", "% abstained"):
        assert name in r.output, name
    ruled = [line for line in r.output.splitlines() if "┃" in line or "│" in line]
    assert all(len(line) <= int(columns) for line in ruled)
    if columns == "80":  # the two names alone are wider than 80: one "header: value" a line
        assert not ruled and f"puzzle set: {long_set}" in r.output
    else:
        assert ruled
