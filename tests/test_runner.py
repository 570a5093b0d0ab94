"""``wordgames run`` end to end on a tiny embedding file with cheap measures."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from tests._toy_measures import ENTRIES
from wordgames.cli import app
from wordgames.measure import MeasureResult
from wordgames.results.store import ResultStore

cli = CliRunner()


def write_tiny(path, n=40, dim=6, seed=0, prefix="w"):
    rng = np.random.default_rng(seed)
    vecs = rng.standard_normal((n, dim)).round(4)
    lines = [f"{prefix}{i} " + " ".join(f"{x:.4f}" for x in row) for i, row in enumerate(vecs)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path, vecs


@pytest.fixture
def toys(monkeypatch):
    monkeypatch.setenv("WORDGAMES_EXTRA_MEASURES", ENTRIES)


def run_cli(*args):
    res = cli.invoke(app, ["run", *map(str, args)])
    assert res.exit_code == 0, res.output
    return res.output


def test_run_writes_json_and_store(tmp_path, toys):
    emb, vecs = write_tiny(tmp_path / "tiny.txt")
    out = tmp_path / "out"
    output = run_cli("-e", emb, "-m", "toy1", "-m", "global-metrics", "-o", out)
    assert "2 of 2 result(s) missing" in output
    record = json.loads((out / "results.json").read_text())
    by_measure = {r["measure"]: r for r in record["results"]}
    assert set(by_measure) == {"toy1", "global-metrics"}
    # the numbers are those of the file's vectors
    toy1 = MeasureResult.from_dict(by_measure["toy1"])
    assert toy1.value("mean_norm") == pytest.approx(np.linalg.norm(vecs, axis=1).mean(), rel=1e-5)
    assert toy1.value("n_words") == 40
    assert MeasureResult.from_dict(by_measure["global-metrics"]).value("rank") == 6
    assert record["embeddings"][0]["n_words"] == 40 and record["embeddings"][0]["dim"] == 6
    assert record["parameters"]["vocabulary"] == {
        "top_n": None,
        "lower_alpha": False,
        "intersect": False,
    }
    assert record["parameters"]["computed"] == 2 and record["parameters"]["reused"] == 0
    store = ResultStore(out)
    entries = list(store)
    assert len(entries) == 2
    sha = record["embeddings"][0]["sha256"]
    assert {e["key"]["embedding_sha256"] for e in entries} == {sha}
    assert {e["params"]["vocabulary"]["top_n"] for e in entries} == {None}
    assert not list(out.rglob("*.tmp"))


def test_only_missing_and_overwrite(tmp_path, toys, monkeypatch):
    emb, _ = write_tiny(tmp_path / "tiny.txt")
    out = tmp_path / "out"
    log = tmp_path / "calls.log"
    monkeypatch.setenv("WORDGAMES_TOY_LOG", str(log))
    run_cli("-e", emb, "-m", "toy1", "-o", out)
    first = (out / "records").rglob("*.json").__next__().read_bytes()
    # one more measure: only it is missing, and only it is computed
    output = run_cli("-e", emb, "-m", "toy1", "-m", "toy2", "-o", out, "--only-missing")
    assert "1 of 2 result(s) missing" in output and "missing: tiny: toy2" in output
    assert [ln.split()[0] for ln in log.read_text().splitlines()] == ["toy1", "toy2"]
    record = json.loads((out / "results.json").read_text())
    assert {r["measure"] for r in record["results"]} == {"toy1", "toy2"}  # the table holds both
    assert record["parameters"]["reused"] == 1 and record["parameters"]["computed"] == 1
    # nothing missing: nothing computed, stored files untouched
    output = run_cli("-e", emb, "-m", "toy1", "-m", "toy2", "-o", out)
    assert "0 of 2 result(s) missing" in output
    assert len(log.read_text().splitlines()) == 2
    # --dry-run lists, computes nothing
    output = run_cli("-e", emb, "-m", "toy3", "-o", out, "--dry-run")
    assert "1 of 1 result(s) missing" in output and len(log.read_text().splitlines()) == 2
    # --overwrite recomputes both (same numbers, same keys: still two files)
    run_cli("-e", emb, "-m", "toy1", "-m", "toy2", "-o", out, "--overwrite")
    assert [ln.split()[0] for ln in log.read_text().splitlines()][2:] == ["toy1", "toy2"]
    assert len(ResultStore(out)) == 2
    toy1_path = next(p for p in (out / "records").rglob("*.json") if p.parent.name == "toy1")
    assert (
        json.loads(toy1_path.read_text())["result"]["scores"]
        == json.loads(first)["result"]["scores"]
    )
    res = cli.invoke(app, ["run", "-e", str(emb), "-o", str(out), "--overwrite", "--only-missing"])
    assert res.exit_code == 2 and "contradict" in res.output


def test_vocabulary_policy_changes_key_and_is_recorded(tmp_path, toys):
    a, _ = write_tiny(tmp_path / "a.txt", seed=1)
    b, _ = write_tiny(tmp_path / "b.txt", n=30, seed=2)  # w0..w29: the shared vocabulary
    out = tmp_path / "out"
    run_cli("-e", a, "-e", b, "-m", "toy1", "-o", out, "--intersect", "--top-n", "35")
    record = json.loads((out / "results.json").read_text())
    assert [MeasureResult.from_dict(r).value("n_words") for r in record["results"]] == [30, 30]
    assert record["parameters"]["vocabulary"] == {
        "top_n": 35,
        "lower_alpha": False,
        "intersect": True,
    }
    for entry in ResultStore(out):
        assert entry["params"]["vocabulary"]["intersect"] is True
        assert entry["embedding"]["n_words"] == 30
    # the same files without the policy are other results (other content, other key)
    run_cli("-e", a, "-e", b, "-m", "toy1", "-o", out)
    assert len(ResultStore(out)) == 4


def test_failing_measure_is_reported_and_others_stored(tmp_path, monkeypatch):
    monkeypatch.setenv(
        "WORDGAMES_EXTRA_MEASURES", ENTRIES + ",broken=tests._toy_measures:does_not_exist"
    )
    emb, _ = write_tiny(tmp_path / "tiny.txt")
    out = tmp_path / "out"
    res = cli.invoke(app, ["run", "-e", str(emb), "-m", "toy1", "-m", "broken", "-o", str(out)])
    assert res.exit_code == 1
    assert "failed" in res.output and "does_not_exist" in res.output
    assert len(ResultStore(out)) == 1


def test_unknown_measure_and_embedding_fail_clearly(tmp_path):
    res = cli.invoke(app, ["run", "-e", str(tmp_path / "nope.txt"), "-o", str(tmp_path)])
    assert res.exit_code == 2 and "neither a built-in name" in res.output
    res = cli.invoke(app, ["run", "-m", "no-such-measure", "-o", str(tmp_path)])
    assert res.exit_code == 2 and "unknown measure" in res.output


def test_results_merge_and_table(tmp_path, toys):
    a, _ = write_tiny(tmp_path / "a.txt", seed=1)
    b, _ = write_tiny(tmp_path / "b.txt", seed=2)
    run_cli("-e", a, "-m", "toy1", "-m", "toy2", "-o", tmp_path / "run-a")
    run_cli("-e", b, "-e", a, "-m", "toy1", "-o", tmp_path / "run-b")  # a/toy1 again
    res = cli.invoke(
        app,
        [
            "results",
            "merge",
            str(tmp_path / "run-a"),
            str(tmp_path / "run-b"),
            "--into",
            str(tmp_path / "all"),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "run-a: 2 of 2 result(s) added" in res.output
    assert "run-b: 1 of 2 result(s) added" in res.output  # a/toy1 is the same key: kept once
    assert len(ResultStore(tmp_path / "all")) == 3
    res = cli.invoke(
        app, ["results", "table", str(tmp_path / "all"), "--format", "csv", "--wide", "-m", "toy1"]
    )
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    assert (
        lines[0] == "measure,dataset,agent,partner,metric,a,b" and len(lines) == 5
    )  # 4 toy metrics
    rows = {
        ln.split(",")[4]: dict(zip(lines[0].split(","), ln.split(","), strict=True))
        for ln in lines[1:]
    }
    assert set(rows) == {"mean_norm", "n_words", "gram_trace", "mean_pair_cosine"}
    assert float(rows["n_words"]["a"]) == float(rows["n_words"]["b"]) == 40.0
    assert float(rows["mean_norm"]["a"]) != float(rows["mean_norm"]["b"])  # two different files
    res = cli.invoke(app, ["results", "table", str(tmp_path / "nothing")])
    assert res.exit_code == 2 and "no results store" in res.output


def test_family_names_resolve(tmp_path):
    from wordgames.cli import resolve_specs
    from wordgames.embeddings import load_embedding
    from wordgames.embeddings.family import FAMILY_NAMES

    emb = load_embedding("glove-6b-50d-top10k")
    assert len(emb) == 10_000 and emb.dim == 50
    assert load_embedding("glove-6b-50d-pca5", name="p5").name == "p5"
    specs = resolve_specs(["glove-6b-50d-top10k", "x.txt"], family=True)
    assert specs[:2] == ["glove-6b-50d-top10k", "x.txt"]
    assert sorted(specs[2:] + ["glove-6b-50d-top10k"]) == sorted(FAMILY_NAMES)


def test_run_accepts_a_family_member_by_name(tmp_path, toys):
    out = tmp_path / "out"
    run_cli("-e", "glove-6b-50d-top10k", "-m", "toy1", "-o", out, "--lower-alpha")
    record = json.loads((out / "results.json").read_text())
    (res,) = record["results"]
    assert res["subject"] == "glove-6b-50d-top10k[alpha]"  # restrict() names the policy
    assert record["embeddings"][0]["source"] == "family:glove-6b-50d-top10k"
    # lower-alpha drops the punctuation and numbers among GloVe's 10,000 most frequent words
    assert 8_000 < MeasureResult.from_dict(res).value("n_words") < 10_000
    assert record["parameters"]["vocabulary"]["lower_alpha"] is True


def test_same_content_twice_is_computed_once(tmp_path, toys, monkeypatch):
    log = tmp_path / "calls.log"
    monkeypatch.setenv("WORDGAMES_TOY_LOG", str(log))
    a, _ = write_tiny(tmp_path / "a.txt")
    b = tmp_path / "b.txt"
    b.write_bytes(a.read_bytes())  # another name, the same vectors: the same key
    out = tmp_path / "out"
    output = run_cli("-e", a, "-e", b, "-m", "toy1", "-o", out)
    assert "1 of 2 result(s) missing" in output
    assert len(log.read_text().splitlines()) == 1 and len(ResultStore(out)) == 1
    record = json.loads((out / "results.json").read_text())
    assert sorted(r["subject"] for r in record["results"]) == ["a", "b"]
    a, b = (MeasureResult.from_dict(r) for r in record["results"])
    assert [s.value for s in a.scores] == [s.value for s in b.scores] and len(a.scores) == 4


def test_extra_measures_variable(monkeypatch):
    from wordgames.errors import WordgamesError
    from wordgames.registry import all_measures, builtin_measures, extra_measures, select_measures

    MEASURES = builtin_measures()
    assert extra_measures("") == ()
    (spec,) = extra_measures(" mine = tests._toy_measures:toy1 @3 ")
    assert (spec.name, spec.compute, spec.version) == ("mine", "tests._toy_measures:toy1", "3")
    with pytest.raises(WordgamesError, match="name=module:attribute"):
        extra_measures("no-entry-point")
    monkeypatch.setenv("WORDGAMES_EXTRA_MEASURES", "mine=tests._toy_measures:toy1")
    assert [m.name for m in all_measures()] == [m.name for m in MEASURES] + ["mine"]
    # extra measures run only when named, as do the built-ins declared so (self-play...)
    assert select_measures(None) == [m for m in MEASURES if m.in_default_run]
    assert {m.name for m in MEASURES if not m.in_default_run} == {
        "codenames-selfplay", "wales-agents", "wales-power-law", "wales-baselines"
    }  # fmt: skip
    assert [m.name for m in select_measures(["mine", "mine"])] == ["mine"]


@pytest.mark.slow
def test_console_entry_point_is_light_and_complete(tmp_path, toys):
    """The real entry point (lazy sub-apps): help lists every sub-app, sub-apps still work."""
    import subprocess
    import sys

    from wordgames.cli import app as typer_app

    main = [sys.executable, "-c", "from wordgames.cli import main; main()"]
    out = subprocess.run(main + ["--help"], capture_output=True, text=True, check=True).stdout
    names = [g.name for g in typer_app.registered_groups] + ["run"]
    assert all(f"  {n} " in out for n in names), out
    probe = (
        "import sys, wordgames.cli; "
        "print(sorted(m for m in ('numpy', 'pandas', 'scipy', 'matplotlib', 'torch', 'ray') "
        "if m in sys.modules))"
    )
    heavy = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert heavy.stdout.strip() == "[]"
    emb, _ = write_tiny(tmp_path / "tiny.txt")
    run_cli("-e", emb, "-m", "toy1", "-o", tmp_path / "out")
    table = subprocess.run(
        main + ["results", "table", str(tmp_path / "out"), "--format", "csv"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert (
        table.splitlines()[0]
        == (
            "subject,measure,dataset,agent,partner,metric,value,ci_low,ci_high,n,n_skipped,n_oov,"
            "n_unread,skip_reason,coverage,thin,thin_reason"  # issue 10: coverage, thinness
        )
        and len(table.splitlines()) == 5
    )
    bad = subprocess.run(main + ["no-such-command"], capture_output=True, text=True)
    assert bad.returncode == 2 and "No such command" in bad.stderr


@pytest.mark.slow
def test_family_option_lists_every_member(tmp_path, toys):
    from wordgames.embeddings.family import FAMILY_NAMES

    output = run_cli("--family", "-m", "toy1", "-o", tmp_path / "out", "--dry-run")
    n = len(FAMILY_NAMES)
    assert f"{n} of {n} result(s) missing" in output
    assert all(f"missing: {name}: toy1" in output for name in FAMILY_NAMES)
    assert not (tmp_path / "out" / "records").exists()  # a dry run computes nothing


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("args", "first", "also"),
    [
        (
            ["-e", "/nonexistent.vec"],
            "error: file not found: /nonexistent.vec",
            "neither a built-in",
        ),
        (["-e", "glove-6b-5d"], "error: unknown embedding 'glove-6b-5d'", "glove-6b-50d"),
        (
            ["-m", "glove-6b-50d"],
            "error: 'glove-6b-50d' is an embedding",
            "did you mean -e glove-6b-50d?",
        ),
        (
            ["-m", "no-such-measure"],
            "error: unknown measure 'no-such-measure'",
            "`wordgames measures`",
        ),
    ],
)
def test_errors_say_what_is_wrong_first_and_point_to_commands(tmp_path, args, first, also):
    res = cli.invoke(app, ["run", *args, "-o", str(tmp_path / "out")])
    assert res.exit_code == 2, res.output
    text = " ".join(res.output.split())
    assert text.startswith(first) and also in text, text
    assert "FAMILY_NAMES" not in text and "wordgames.embeddings" not in text  # no Python symbols
    assert not (tmp_path / "out").exists()  # nothing was run


def test_a_file_given_to_m_is_taken_for_an_embedding(tmp_path):
    emb, _ = write_tiny(tmp_path / "mine.vec")
    res = cli.invoke(app, ["run", "-m", str(emb), "-o", str(tmp_path / "out")])
    assert res.exit_code == 2
    assert f"did you mean -e {emb}?" in " ".join(res.output.split()), res.output


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--cbm-eos-id", "0"], "--cbm-eos-id describes the CBM logs: give --cbm-log too"),
        (["--cbm-pad-id", "1", "--cbm-eos-id", "0"], "--cbm-eos-id and --cbm-pad-id describe"),
        (["--workers", "2", "--executor", "serial"], "--workers applies to the local and process"),
        (["--workers", "2", "--executor", "ray"], "not to --executor ray"),
        (["--address", "auto"], "--address is the address of a Ray cluster"),
        (["--ray-files", "node"], "--ray-files says how Ray nodes get their files"),
        (["--executor", "ray", "--ray-files", "nfs"], "ray_files must be one of ship, node"),
        (["--intersect"], "--intersect restricts two or more embeddings"),
        (["--transformer-vocab", "100"], "--transformer-vocab applies to transformer:MODEL"),
        (["--cbm-log", "x.jsonl", "-m", "toy1"], "--cbm-log feeds the cbm measure"),
        (["--executor", "dask"], "Invalid value for '--executor'"),
    ],
)
def test_an_option_that_does_not_apply_is_an_error(tmp_path, toys, extra, says):
    emb, _ = write_tiny(tmp_path / "tiny.txt")
    res = cli.invoke(app, ["run", "-e", str(emb), "-m", "toy1", "-o", str(tmp_path / "o"), *extra])
    assert res.exit_code == 2 and says in " ".join(res.output.split()), res.output
    assert not (tmp_path / "o").exists()


def test_options_that_apply_are_accepted(tmp_path, toys):
    a, _ = write_tiny(tmp_path / "a.txt", seed=1)
    b, _ = write_tiny(tmp_path / "b.txt", seed=2)
    out = tmp_path / "out"
    run_cli("-e", a, "-e", b, "-m", "toy1", "-o", out, "--intersect", "--executor", "serial")
    run_cli("-e", a, "-m", "toy1", "-o", out, "--workers", "1", "--ci-resamples", "0")
    record = json.loads((out / "results.json").read_text())
    assert record["parameters"]["confidence_intervals"]["resamples"] == 0
    run_cli("-e", a, "-m", "toy1", "-o", out, "--min-coverage", "0.9", "--min-n", "5")
    record = json.loads((out / "results.json").read_text())
    assert record["parameters"]["thin"] == {"min_coverage": 0.9, "min_n": 5}


# --------------------------------------------------------------------------- summary
LONG_EMBEDDINGS = ("glove-6b-50d[∩10k]", "transformer:all-MiniLM-L6-v2[∩10k]", "my-vectors[∩10k]")


def _codenames_like(monkeypatch):
    """A measure record with Codenames' long names, standing in for the real one."""
    import wordgames.registry as registry
    from wordgames.measure import Headline, Measure, Metric

    spec = Measure(
        name="codenames",
        version="1",
        family="codenames",
        description="stand-in",
        compute="x:y",
        item_noun="records",  # what the warnings count, from the declaration as the real one's
        metrics=(
            Metric("human_receiver.map", "higher", (0.0, 1.0)),
            Metric("human_receiver.mean_rank", "lower", (1.0, None)),
        ),
        headlines=(
            Headline("human_receiver.map", agent="nearest"),
            Headline("human_receiver.mean_rank", agent="cluster"),
        ),
    )
    real = registry.get_measure
    monkeypatch.setattr(registry, "get_measure", lambda n: spec if n == "codenames" else real(n))
    return spec


def _results(spec, *, intersect=True):
    """Three embeddings; the pilot is not covered at all; the first embedding is thin on salt."""
    from wordgames.compute import finish_result
    from wordgames.evaluation import Results
    from wordgames.results import MeasureResult

    res = Results(
        parameters={
            "vocabulary": {"top_n": None, "lower_alpha": False, "intersect": intersect},
            "thin": {"min_coverage": 0.5, "min_n": 30},
            "quick": False,
        },
        timings={"total": 1.0},
    )
    for i, name in enumerate(LONG_EMBEDDINGS):
        r = MeasureResult(measure="codenames", version="1", parameters={"max_records": 200})
        r.score(
            "codenames-pilot",
            "nearest",
            "human_receiver.map",
            math.nan,
            n=0,
            n_skipped=196,
            skip_reason="board word not in vocabulary",
        )
        salt = (10, 190) if i == 0 else (150 + 10 * i, 50 - 10 * i)
        r.score(
            "codenames-human-noahprescott",
            "nearest",
            "human_receiver.map",
            (0.9, 0.6, 0.7)[i],
            n=salt[0],
            n_skipped=salt[1],
            skip_reason="clue not in vocabulary",
        )
        r.score(
            "codenames-human-noahprescott",
            "cluster",
            "human_receiver.mean_rank",
            13205.1034 * (i + 1),
            n=200,
        )
        finish_result(r, spec, name)
        res.results.append(r)
    return res


@pytest.mark.parametrize("width", [80, 120])
def test_summary_never_cuts_a_name(monkeypatch, width):
    import io
    import re

    from rich.console import Console

    from wordgames.cli.summary import print_summary

    res = _results(_codenames_like(monkeypatch))
    buf = io.StringIO()
    con = Console(file=buf, width=width, no_color=True, highlight=False)
    print_summary(con, res, out="OUT", vocabulary="intersection")
    lines = buf.getvalue().splitlines()
    table = lines[: next(i for i, ln in enumerate(lines) if ln.startswith("  [1]"))]
    assert max(map(len, table)) <= width, "\n".join(table)
    for name in (
        *LONG_EMBEDDINGS,
        "codenames-pilot",
        "codenames-human-noahprescott",
        "nearest human_receiver.map",
        "cluster human_receiver.mean_rank",
    ):
        assert any(name in ln for ln in lines), (name, "\n".join(lines))
    assert "a seeded sample of at most 200 records of each kind per data set" in buf.getvalue()
    # one format in the value column: three decimals, thousands separated
    values = [m.group(1) for ln in table if (m := re.match(r"\s+\S+\s+(\S+)\s+\d", ln))]
    assert values and all(re.fullmatch(r"-?\d{1,3}(,\d{3})*\.\d{3}|n/a", v) for v in values)
    assert any(v == "13,205.103" for v in values) and "n/a" in values
    # coverage: items used of items available; thin scores said so, never marked best
    at = table.index("  codenames-human-noahprescott")
    assert table[at + 1] == "    nearest human_receiver.map"
    row = {
        emb: next(ln for ln in table[at + 2 : at + 5] if ln.split()[0] == emb)
        for emb in LONG_EMBEDDINGS
    }
    assert "10 of 200" in row[LONG_EMBEDDINGS[0]] and "thin" in row[LONG_EMBEDDINGS[0]]
    assert "best" not in row[LONG_EMBEDDINGS[0]]  # 0.9 is the highest, but thin
    # the leader among the rest: these toy results keep no per-item values, so no paired
    # comparison can separate it (issue 21: "best" only when it is) -- a tied group
    assert "tied best" in row[LONG_EMBEDDINGS[2]] and "170 of 200" in row[LONG_EMBEDDINGS[2]]
    assert "tied best" in row[LONG_EMBEDDINGS[1]]
    assert not re.search(r"(?<!tied )best", row[LONG_EMBEDDINGS[1]] + row[LONG_EMBEDDINGS[2]])
    notes = " ".join(" ".join(lines[len(table) :]).split())
    assert "thin, not ranked: coverage 10 of 200 (5%) is below 50%" in notes
    assert "skipped: clue not in vocabulary" in notes


def test_thin_coverage_is_warned_about(monkeypatch):
    from wordgames.cli.summary import coverage_warnings

    spec = _codenames_like(monkeypatch)
    assert coverage_warnings(_results(spec)) == [
        "warning: codenames-pilot: 0 of 196 records covered by the shared vocabulary "
        "(codenames on every embedding; thin, not ranked)",
        f"warning: codenames-human-noahprescott: 10 of 200 records covered by the shared "
        f"vocabulary (codenames on {LONG_EMBEDDINGS[0]}; thin, not ranked)",
    ]
    assert coverage_warnings(_results(spec, intersect=False))[0].startswith(
        "warning: codenames-pilot: 0 of 196 records covered by the vocabulary"
    )


def test_run_summary_at_80_columns_shows_every_metric_whole(tmp_path, toys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    a, _ = write_tiny(tmp_path / "a-rather-long-embedding-file-name.txt", seed=1)
    b, _ = write_tiny(tmp_path / "b.txt", seed=2)
    output = run_cli("-e", a, "-e", b, "-m", "toy1", "-m", "toy2", "-o", tmp_path / "out")
    lines = output.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("wordgames results"))
    # the table fits; a line naming a path is never hard-wrapped (issue 21, item 12)
    paths = [ln for ln in lines[start:] if str(tmp_path) in ln]
    assert paths and all(str(tmp_path / "out") in ln for ln in paths)  # the path whole
    assert max(len(ln) for ln in lines[start:] if ln not in paths) <= 80
    for name in (
        "mean_norm",
        "n_words",
        "gram_trace",
        "mean_pair_cosine",
        "a-rather-long-embedding-file-name",
        "toy1",
        "toy2",
    ):
        assert any(name in ln.split() for ln in lines[start:]), (name, output)


def test_run_exits_non_zero_when_every_measure_was_skipped(tmp_path):
    """Issue 21: an empty data root made ``run -m oddmanout`` exit 0 with nothing computed."""
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {**os.environ, "WORDGAMES_DATA": str(empty)}
    r = subprocess.run(
        [sys.executable, "-c", "from wordgames.cli import main; main()", "run", "-m", "oddmanout"]
        + ["-o", str(tmp_path / "o")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode != 0
    assert "nothing was computed" in r.stderr and str(empty) in r.stderr
    assert "error:" in r.stderr.splitlines()[-1]  # one line: not hard-wrapped into a pipe
