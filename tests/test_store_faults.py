"""Faults lose nothing: corrupt records, dead writers' temporary files, a full disk, an output
folder that cannot be written, and two runs on one store."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import wordgames
from tests._toy_measures import ENTRIES
from wordgames.embeddings import Embedding
from wordgames.errors import WordgamesError
from wordgames.results.store import ResultStore
from wordgames.safeio import TMP_SUFFIX

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def toys(monkeypatch):
    monkeypatch.setenv("WORDGAMES_EXTRA_MEASURES", ENTRIES)


def _emb():
    rng = np.random.default_rng(0)
    return Embedding([f"w{i}" for i in range(30)], rng.normal(size=(30, 5)), name="e")


def test_corrupt_record_is_quarantined_and_recomputed(tmp_path, toys, caplog):
    first = wordgames.evaluate(_emb(), ["toy1"], store=tmp_path)
    (record,) = (tmp_path / "records").rglob("*.json")
    record.write_text(record.read_text()[:40])  # cut short, as by a full disk or a bad copy
    with caplog.at_level("WARNING", logger="wordgames.store"):
        again = wordgames.evaluate(_emb(), ["toy1"], store=tmp_path)
    assert again.parameters["computed"] == 1
    assert [s.value for s in again.result("toy1").scores] == [
        s.value for s in first.result("toy1").scores
    ]
    assert len(first.result("toy1").scores) == 4
    (moved,) = (tmp_path / "quarantine").rglob("*.json.*")
    assert len(moved.read_text()) == 40  # the damaged file is kept, aside, as it was
    assert any(
        str(record) in r.getMessage() and "moved to" in r.getMessage() for r in caplog.records
    )
    # an empty record too, found while listing the store
    record.write_text("")
    assert list(ResultStore(tmp_path)) == []
    assert len(list((tmp_path / "quarantine").rglob("*.json.*"))) == 2


def test_temporary_files_of_dead_writers_are_removed(tmp_path):
    store = ResultStore(tmp_path)
    folder = tmp_path / "records" / "x" / "toy"
    folder.mkdir(parents=True)
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # the names atomic_target gives its temporary files: .NAME.PID.RANDOM.wgtmp
    stale = folder / f".1-abc.json.{dead}.x1y2z3{TMP_SUFFIX}"
    mine = folder / f".1-def.json.{os.getpid()}.a1b2c3{TMP_SUFFIX}"
    stale.write_text("{")
    mine.write_text("{")
    assert store.clean_temporary() == 1
    assert not stale.exists() and mine.exists()


def test_full_disk_leaves_no_temporary_file(tmp_path, monkeypatch):
    from wordgames import results

    def full(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(results.json, "dump", full)
    with pytest.raises(WordgamesError, match="No space left on device"):
        results.write_json_atomic(tmp_path / "r.json", {"a": 1})
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_folder_fails_before_any_work(tmp_path, toys, monkeypatch):
    log = tmp_path / "calls.log"
    monkeypatch.setenv("WORDGAMES_TOY_LOG", str(log))
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")  # root may write anywhere: a file blocks even root
    with pytest.raises(WordgamesError, match="cannot write to the output folder"):
        wordgames.evaluate(_emb(), ["toy1"], store=blocked / "out")
    assert not log.exists()  # nothing was computed


@pytest.mark.slow
def test_two_runs_on_one_store_compute_each_unit_once(tmp_path):
    vec = tmp_path / "e.txt"
    rng = np.random.default_rng(1)
    vec.write_text(
        "".join(
            f"w{i} " + " ".join(f"{x:.4f}" for x in row) + "\n"
            for i, row in enumerate(rng.normal(size=(30, 5)))
        )
    )
    log = tmp_path / "calls.log"
    env = {
        **os.environ,
        "WORDGAMES_EXTRA_MEASURES": ENTRIES,
        "WORDGAMES_TOY_LOG": str(log),
        "WORDGAMES_TOY_SLEEP": "1.5",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    code = (
        "import wordgames, sys; r = wordgames.evaluate(sys.argv[1], ['toy1', 'toy2'], "
        "store=sys.argv[2]); print(len(r.results), r.parameters['computed'], "
        "r.parameters['reused'])"
    )
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(vec), str(tmp_path / "out")],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120)[0].split() for p in runs]
    assert all(p.returncode == 0 for p in runs)
    assert sorted(int(o[0]) for o in outs) == [2, 2]  # both runs have both results
    assert sum(int(o[1]) for o in outs) == 2  # ... and each unit was computed once in all
    # issue 22: each run accounts for both units (one waited and reused: not "0 / 0")
    assert [int(o[1]) + int(o[2]) for o in outs] == [2, 2], outs
    assert sorted(line.split()[0] for line in log.read_text().splitlines()) == ["toy1", "toy2"]
    assert len(ResultStore(tmp_path / "out")) == 2


def test_unwritable_cache_under_the_process_executor_is_a_clear_error(tmp_path, toys, monkeypatch):
    from wordgames.executors import ProcessPoolExecutor

    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("WORDGAMES_CACHE", str(blocked / "cache"))
    with pytest.raises(WordgamesError, match="needs a writable embedding cache.*WORDGAMES_CACHE"):
        wordgames.evaluate(
            _emb(), ["toy1"], store=tmp_path / "out", executor=ProcessPoolExecutor(workers=1)
        )
