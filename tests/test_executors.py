"""Executors: the process pool and Ray give the serial path's numbers, in the same store."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from tests._toy_measures import ENTRIES
from tests.test_runner import write_tiny
from wordgames.results.store import ResultStore

ROOT = Path(__file__).resolve().parents[1]
MEASURES = ["toy1", "toy2", "global-metrics"]


@pytest.fixture
def toys(monkeypatch):
    monkeypatch.setenv("WORDGAMES_EXTRA_MEASURES", ENTRIES)


def _run(tmp_path, out, *, executor="serial", workers=1, unit_timeout_s=None):
    import wordgames
    from wordgames.executors import make_executor

    embs = [write_tiny(tmp_path / "a.txt", seed=1)[0], write_tiny(tmp_path / "b.txt", seed=2)[0]]
    runner = make_executor(executor, workers=workers, timeout_s=unit_timeout_s)
    return wordgames.evaluate(embs, MEASURES, store=out, executor=runner)


def _metrics(out):
    """Every stored Score's value, by result key and the row's (dataset, subject, metric)."""
    return {
        (e["key"]["embedding_sha256"], e["key"]["measure"], e["key"]["params_sha256"]): {
            (s["dataset"], s["agent"], s["metric"]): s["value"] for s in e["result"]["scores"]
        }
        for e in ResultStore(out)
    }


def test_materialized_embedding_is_memory_mapped(tmp_path):
    from wordgames.embeddings import Embedding
    from wordgames.executors import materialize_embedding, open_embedding

    emb = Embedding(["a", "b", "c"], np.arange(6, dtype=np.float32).reshape(3, 2), name="abc")
    ref = materialize_embedding(emb, cache=tmp_path)
    again = materialize_embedding(emb, cache=tmp_path)
    assert ref.folder == again.folder and ref.sha256 == emb.fingerprint()
    opened = open_embedding(ref.folder, ref.name, "")
    base = opened.vectors
    while base is not None and not isinstance(base, np.memmap):
        base = base.base
    assert isinstance(base, np.memmap), "the matrix must be read from the file, not copied"
    assert opened.words.tolist() == ["a", "b", "c"]
    assert opened.fingerprint() == emb.fingerprint()


def test_every_executor_runs_a_unit_on_the_threads_it_gives(tmp_path, toys):
    """One mechanism for every unit (issue 40): the serial executor's units on 1 BLAS thread
    by default, N with blas_threads=N, and this process's own setting restored after."""
    from threadpoolctl import threadpool_limits

    from tests._toy_measures import _blas_threads

    with threadpool_limits(limits=2, user_api="blas"):
        before = _blas_threads()
        one = _run(tmp_path, tmp_path / "one", executor="serial")
        assert _blas_threads() == before == 2
    assert {
        r.parameters["blas_threads"] for r in one.results if "blas_threads" in r.parameters
    } == {1}
    import wordgames
    from wordgames.executors import SerialExecutor

    embs = [write_tiny(tmp_path / "a.txt", seed=1)[0]]
    two = wordgames.evaluate(embs, MEASURES, executor=SerialExecutor(blas_threads=2))
    assert {
        r.parameters["blas_threads"] for r in two.results if "blas_threads" in r.parameters
    } == {2}


def test_process_pool_matches_serial(tmp_path, toys):
    serial = _run(tmp_path, tmp_path / "serial", executor="serial")
    pool = _run(tmp_path, tmp_path / "pool", executor="process", workers=2)
    assert pool.parameters["executor"] == {"executor": "process", "workers": 2, "blas_threads": 1}
    a, b = _metrics(tmp_path / "serial"), _metrics(tmp_path / "pool")
    assert len(a) == 6 and a == b  # same keys, bit-identical numbers
    pids = {r.parameters["pid"] for r in pool.results if r.measure.startswith("toy")}
    assert os.getpid() not in pids  # really computed in worker processes
    assert {r.parameters["pid"] for r in serial.results if "pid" in r.parameters} == {os.getpid()}
    # every worker capped its BLAS to one thread
    assert {
        r.parameters["blas_threads"] for r in pool.results if "blas_threads" in r.parameters
    } == {1}
    # plots of a worker land in the run's folder
    # (recorded relative to the run's folder, so that a results folder can be moved)
    assert all(
        not Path(p).is_absolute() and (tmp_path / "pool" / p).is_file()
        for r in pool.results
        for p in r.plots
    )


@pytest.mark.slow
def test_ray_matches_serial(tmp_path, toys, monkeypatch):
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'wordgames[ray]')")
    from wordgames.executors import RayExecutor

    # workers import the test measures from the checkout
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _node_ip_address="127.0.0.1",
    )
    try:
        serial = _run(tmp_path, tmp_path / "serial", executor="serial")
        record = _run(tmp_path, tmp_path / "ray", executor="ray", unit_timeout_s=120)
        assert record.parameters["executor"]["executor"] == "ray"
        assert _metrics(tmp_path / "serial") == _metrics(tmp_path / "ray")
        assert os.getpid() not in {
            r.parameters["pid"] for r in record.results if "pid" in r.parameters
        }
        assert {
            r.parameters["blas_threads"] for r in record.results if "blas_threads" in r.parameters
        } == {1}
        assert len(serial.results) == len(record.results) == 6
        # the CLI path: `wordgames run --executor ray` on the cluster already running
        from typer.testing import CliRunner

        from wordgames.cli import app

        res = CliRunner().invoke(
            app,
            [
                "run",
                "-e",
                str(tmp_path / "a.txt"),
                "-m",
                "toy3",
                "-o",
                str(tmp_path / "ray"),
                "--executor",
                "ray",
            ],
        )
        assert res.exit_code == 0, res.output
        assert "1 of 1 result(s) missing" in res.output and len(ResultStore(tmp_path / "ray")) == 7
        # the executor leaves a cluster it did not start running
        assert ray.is_initialized()
        assert RayExecutor()._ray() is ray and not RayExecutor()._started
    finally:
        ray.shutdown()


def test_make_executor_names():
    from wordgames.errors import WordgamesError
    from wordgames.executors import ProcessPoolExecutor, SerialExecutor, blas_env, make_executor

    assert isinstance(make_executor("local", workers=1), SerialExecutor)
    pool = make_executor("local", workers=3)
    assert isinstance(pool, ProcessPoolExecutor) and pool.workers == 3 and pool.blas_threads == 1
    assert blas_env(2)["OPENBLAS_NUM_THREADS"] == "2" and blas_env(2)["OMP_NUM_THREADS"] == "2"
    with pytest.raises(WordgamesError, match="unknown executor"):
        make_executor("dask")
    with pytest.raises(ValueError):
        ProcessPoolExecutor(workers=0)
