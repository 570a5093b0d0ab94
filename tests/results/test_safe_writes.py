"""Issue 22: a results folder from elsewhere cannot redirect our writes, and a damaged record
never breaks a store for good (items 1, 5, 6, 7, 8)."""

from __future__ import annotations

import json
import os

import pytest
from typer.testing import CliRunner

from wordgames.cli import app
from wordgames.results import SCHEMA_VERSION
from wordgames.safeio import TMP_SUFFIX, UnsafePathError, atomic_target, confine

runner = CliRunner()


@pytest.fixture()
def vecs(tmp_path):
    p = tmp_path / "vecs.txt"
    p.write_text("a 1 0\nb 0.8 0.6\nc 0.6 0.8\nd 0 1\n")
    return p


@pytest.fixture()
def bench(tmp_path):
    p = tmp_path / "mine.tsv"
    p.write_text("a\tb\t3\na\tc\t1\na\td\t2\nb\tc\t4\n")
    return p


def _run(vecs, bench, out):
    """A command that scores through the store (``run``'s path) on a tiny benchmark."""
    return runner.invoke(
        app,
        ["similarity", "evaluate", "-e", str(vecs), "--tsv", str(bench), "--only-tsv"]
        + ["-o", str(out)],
    )


def _store(tmp_path, vecs):
    """A results store with one similarity result, written by the Python API."""
    import wordgames

    bench = tmp_path / "mine.tsv"
    bench.write_text("a\tb\t3\na\tc\t1\na\td\t2\nb\tc\t4\n")
    out = tmp_path / "store"
    wordgames.evaluate(
        str(vecs),
        ["similarity"],
        store=out,
        options={"similarity": {"benchmarks": [], "extra": [str(bench)]}},
    ).write(out)
    return out


def test_atomic_target_replaces_a_link_and_never_writes_through_it(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "out").mkdir()
    link = tmp_path / "out" / "leaderboard.csv"
    link.symlink_to(victim)
    with atomic_target(link) as tmp:
        tmp.write_text("table")
    assert victim.read_text() == "precious"
    assert not link.is_symlink() and link.read_text() == "table"


def test_a_folder_linked_out_of_the_confined_root_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "plots").symlink_to(elsewhere)
    with confine(out), pytest.raises(UnsafePathError, match="symbolic link"):
        with atomic_target(out / "plots" / "x" / "figure.png") as tmp:
            tmp.write_bytes(b"png")
    assert list(elsewhere.rglob("*")) == []


def test_report_does_not_write_through_links_planted_in_the_folder(tmp_path, vecs, bench):
    out = _store(tmp_path, vecs)
    victims = {}
    for name in ("leaderboard.csv", "metrics_long.csv", "correlation.csv", "report.html"):
        victim = tmp_path / f"victim-{name}"
        victim.write_text("precious")
        (out / name).symlink_to(victim)
        victims[name] = victim
    (out / ".report.html.tmp").symlink_to(tmp_path / "victim-report.html")
    r = runner.invoke(app, ["report", str(out)])
    assert r.exit_code == 0, r.output
    assert all(v.read_text() == "precious" for v in victims.values())
    for name in victims:
        assert not (out / name).is_symlink() and (out / name).stat().st_size > 0


def test_run_does_not_write_plots_through_a_linked_folder(tmp_path, vecs, bench):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "plots").symlink_to(elsewhere)
    r = _run(vecs, bench, out)
    assert list(elsewhere.rglob("*")) == []
    assert r.exit_code != 0
    assert "symbolic link" in r.output


def test_a_record_that_is_a_link_out_of_the_store_is_not_read(tmp_path, vecs, bench):
    out = _store(tmp_path, vecs)
    (record,) = list((out / "records").glob("*/*/*.json"))
    outside = tmp_path / "outside.json"
    outside.write_text(record.read_text())
    record.unlink()
    record.symlink_to(outside)
    r = _run(vecs, bench, out)
    assert r.exit_code == 0, r.output
    assert not record.is_symlink()  # recomputed as a plain file; the link is quarantined
    assert list((out / "quarantine").rglob("*.json*"))
    r = runner.invoke(app, ["report", str(out)])
    assert r.exit_code == 0, r.output


def test_a_content_less_record_is_quarantined_and_recomputed(tmp_path, vecs, bench):
    """Issue 22, item 5: valid JSON, the current schema, nothing else."""
    out = _store(tmp_path, vecs)
    (record,) = list((out / "records").glob("*/*/*.json"))
    record.write_text(json.dumps({"schema_version": SCHEMA_VERSION}))
    for _ in range(2):  # the next run, and the one after it, both succeed
        r = _run(vecs, bench, out)
        assert r.exit_code == 0, r.output
    assert json.loads(record.read_text())["result"]["measure"] == "similarity"
    assert len(list((out / "quarantine").rglob("*.json*"))) == 1


def test_run_deletes_only_its_own_temporary_files(tmp_path, vecs, bench):
    """Issue 22, item 7: a user's hidden *.tmp under the folder is not the store's."""
    out = tmp_path / "out"
    (out / "notes").mkdir(parents=True)
    mine = [out / ".draft.tmp", out / "notes" / ".todo.tmp", out / ".x.json.999999.tmp"]
    for p in mine:
        p.write_text("keep me")
    stale = out / f".results.json.999999.abc123{TMP_SUFFIX}"  # a writer that died
    stale.write_text("{")
    r = _run(vecs, bench, out)
    assert r.exit_code == 0, r.output
    assert all(p.read_text() == "keep me" for p in mine)
    assert not stale.exists()


def test_a_full_disk_is_one_clear_message(tmp_path, vecs, bench, monkeypatch):
    """Issue 22, item 6: results.json cannot be written: an error, no traceback, exit 2."""
    import errno

    real_replace = os.replace

    def full(src, dst):
        if str(dst).endswith("results.json"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", full)
    out = tmp_path / "out"
    r = _run(vecs, bench, out)
    assert r.exit_code == 2
    assert "No space left on device" in r.output and "results.json" in r.output
    assert (
        "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit)
    )
    assert not (out / "results.json").exists()
    assert not list(out.glob(f".*{TMP_SUFFIX}"))


def _record(out):
    (record,) = list((out / "records").glob("*/*/*.json"))
    return record, json.loads(record.read_text())


MALFORMED = {
    "results.json is a list": lambda out, rec, d: (out / "results.json").write_text("[]"),
    "results.json not UTF-8": lambda out, rec, d: (out / "results.json").write_bytes(b"\xff{"),
    "results.json nested deep": lambda out, rec, d: (out / "results.json").write_text(
        "[" * 100_000
    ),
    "results.json results not a list": lambda out, rec, d: (out / "results.json").write_text(
        json.dumps({"schema_version": SCHEMA_VERSION, "results": {"a": 1}})
    ),
    "results.json embeddings of numbers": lambda out, rec, d: (out / "results.json").write_text(
        json.dumps({"schema_version": SCHEMA_VERSION, "embeddings": [1, 2]})
    ),
    "record without result": lambda out, rec, d: rec.write_text(
        json.dumps({k: v for k, v in d.items() if k != "result"})
    ),
    "record key not an object": lambda out, rec, d: rec.write_text(json.dumps({**d, "key": 7})),
    "score value is text": lambda out, rec, d: rec.write_text(
        json.dumps(
            {**d, "result": {**d["result"], "scores": [{**d["result"]["scores"][0], "value": "x"}]}}
        )
    ),
    "score n is text": lambda out, rec, d: rec.write_text(
        json.dumps(
            {**d, "result": {**d["result"], "scores": [{**d["result"]["scores"][0], "n": "5"}]}}
        )
    ),
    "scores not a list": lambda out, rec, d: rec.write_text(
        json.dumps({**d, "result": {**d["result"], "scores": {"a": 1}}})
    ),
    "record is a folder": lambda out, rec, d: (rec.unlink(), rec.mkdir()),
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(MALFORMED))
def test_a_malformed_results_folder_is_a_named_error(tmp_path, vecs, kind):
    """Issue 22, item 8: ``wordgames report`` names the file, never a traceback."""
    out = _store(tmp_path, vecs)
    rec, d = _record(out)
    MALFORMED[kind](out, rec, d)
    r = runner.invoke(app, ["report", str(out)])
    assert r.exit_code == 2, (kind, r.output, r.exception)
    assert r.output.startswith("error:"), r.output
    assert "results.json" in r.output or "records" in r.output, r.output
