"""Where the suite's work units run: in this process, in a local process pool, or on Ray.

A work unit is one embedding x one measure (:class:`WorkUnit`). Every executor yields one
outcome dict per unit as units finish, and the unit itself writes its result to the results
store (one atomic JSON file per result), so a run killed at any point keeps every finished
unit and concurrent writers (several workers, several machines on a shared filesystem) are
safe.

* :class:`SerialExecutor` -- in this process, on the embeddings already loaded (the default).
* :class:`ProcessPoolExecutor` -- ``concurrent.futures`` with the forkserver (POSIX) or spawn
  context; needs nothing beyond the standard library.
* :class:`RayExecutor` -- a Ray cluster (optional extra ``wordgames[ray]``), local or remote
  (``address="auto"`` or ``"ray://host:10001"``).

For the pool and Ray, each embedding is written once as ``vectors.npy`` + ``words.txt`` under
``$WORDGAMES_CACHE/suite-embeddings/<sha256>/`` (:func:`materialize_embedding`) and workers
memory-map it: the matrix is never pickled, and workers on one machine share its pages.
Each worker caps its BLAS threads (``blas_threads``, default 1) so that ``n`` workers use
``n`` cores instead of ``n x cores`` threads fighting for them.

This module imports no numpy at import time: a worker sets its thread limits before numpy
(and its BLAS) is first imported.
"""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

BLAS_ENV_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
EXECUTORS = ("serial", "process", "ray")


@dataclass(frozen=True)
class EmbeddingRef:
    """An embedding as workers see it: a folder with ``vectors.npy`` and ``words.txt``.

    ``description`` is :meth:`Embedding.describe` computed once by the driver (it holds the
    sha256 that keys the results store).
    """

    name: str
    sha256: str
    description: dict
    folder: str | None = None  # None until materialised (the serial executor never needs it)


@dataclass(frozen=True)
class WorkUnit:
    """One embedding x one measure, with everything a worker needs to run it and store it."""

    embedding: EmbeddingRef
    measure: object  # wordgames.measure.Measure (carries its entry point: no lookup by name)
    key: object  # wordgames.results.store.ResultKey
    params: dict
    store_root: str | None  # None: in memory (serial executor only)
    out_dir: str | None  # plots; None: none written
    data_root: str | None = None
    seed: int = 0
    quick: bool = False
    options: object = None  # the measure's typed options
    ci_resamples: int = 1000
    thin: object = None  # wordgames.measure.ThinPolicy (None: the default)
    overwrite: bool = False  # recompute even when the store holds the result
    partner: EmbeddingRef | None = None  # the second subject of a measure of pairs

    @property
    def label(self) -> str:
        pair = f" -> {self.partner.name}" if self.partner is not None else ""
        return f"{self.embedding.name}{pair}: {self.measure.name}"


# --------------------------------------------------------------------------- thread caps
def blas_env(threads: int = 1) -> dict[str, str]:
    """Environment variables that cap the BLAS/OpenMP threads of a new process."""
    return {var: str(int(threads)) for var in BLAS_ENV_VARS}


def limit_threads(threads: int = 1) -> None:
    """Cap BLAS threads in this process.

    Env vars for libraries not loaded yet, threadpoolctl for those already loaded.
    """
    os.environ.update(blas_env(threads))
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
        return
    threadpool_limits(limits=int(threads))


def _init_worker(threads: int) -> None:
    limit_threads(threads)


# --------------------------------------------------------------------------- embeddings on disk
def materialize_embedding(emb, *, cache: str | Path | None = None) -> EmbeddingRef:
    """Write ``emb`` once and return a reference workers can memory-map.

    The folder holds ``vectors.npy`` + ``words.txt`` and is keyed by its sha256. A folder already
    written is reused.
    """
    from wordgames.embeddings.cache import vector_folder_ok
    from wordgames.embeddings.loaders import cache_dir, write_vector_folder

    sha = emb.fingerprint()
    folder = Path(cache) if cache is not None else cache_dir() / "suite-embeddings"
    folder = folder / sha[:32]
    if not vector_folder_ok(folder):  # absent, unfinished or damaged: (re)write it
        write_vector_folder(folder, emb.words.tolist(), emb.vectors, done=sha)
    return EmbeddingRef(emb.name, sha, emb.describe(), str(folder))


@lru_cache(maxsize=2)
def open_embedding(folder: str, name: str, source: str):
    """The memory-mapped embedding of a materialised folder, memoised per worker process.

    A worker running several measures of one embedding builds its index and unit matrix once.
    """
    from wordgames.embeddings.loaders import read_vector_folder

    emb = read_vector_folder(folder, name=name, source=source, fmt="suite-cache")
    if emb is None:
        raise FileNotFoundError(f"{folder}: no finished embedding folder (no 'done' marker)")
    return emb


# --------------------------------------------------------------------------- one unit
def run_unit(
    unit: WorkUnit,
    embedding=None,
    *,
    blas_threads: int | None = None,
    keep_result: bool = False,
    partner=None,
) -> dict:
    """Run one unit (and store its result when the unit has a store); returns an outcome dict.

    ``status`` is ``"done"``, ``"skipped"`` (missing data or dependency; not stored, so a
    later run retries it) or ``"failed"`` (an error; ``error`` holds the traceback).
    ``embedding`` is the loaded embedding (serial); otherwise it is opened from
    ``unit.embedding.folder``. ``keep_result`` puts the result itself in the outcome (in
    memory: the serial executor). With a store, the unit's lock is held while it is computed:
    a second run on the same store waits and then reuses the stored result (``reused``).
    """
    if blas_threads is not None:
        limit_threads(blas_threads)
    from wordgames.errors import WordgamesError
    from wordgames.results.store import ResultStore

    outcome = {
        "label": unit.label,
        "embedding": unit.embedding.name,
        "key": unit.key,
        "embedding_sha256": unit.embedding.sha256,
        "measure": unit.measure.name,
        "pid": os.getpid(),
    }
    start = time.perf_counter()
    try:
        if unit.partner is not None:
            partner = _opened(unit.partner, partner)
        if unit.store_root is None:
            _compute_into(outcome, unit, embedding, None, keep_result, partner)
        else:
            store = ResultStore(unit.store_root)
            with store.lock(unit.key):
                if not unit.overwrite and store.has(unit.key):  # another run stored it meanwhile
                    outcome.update(status="done", reused=True)
                else:
                    _compute_into(outcome, unit, embedding, store, keep_result, partner)
    except WordgamesError as exc:  # bad input, said in words: no traceback
        outcome.update(status="failed", reason=str(exc), error="")
    except Exception as exc:  # a bug: reported by the driver with its traceback; others go on
        outcome.update(
            status="failed",
            reason=f"{type(exc).__name__}: {exc}",
            error=traceback.format_exc(),
        )
    outcome["seconds"] = time.perf_counter() - start
    return outcome


def _opened(ref: EmbeddingRef, subject):
    """``subject`` under ``ref``'s name, or (in a worker) the embedding of ``ref``'s folder."""
    if subject is None:
        return open_embedding(ref.folder, ref.name, ref.description.get("source", ""))
    return subject.with_name(ref.name) if subject.name != ref.name else subject


def _compute_into(
    outcome: dict, unit: WorkUnit, embedding, store, keep_result: bool, partner=None
) -> None:
    """Compute the unit, store it when there is a store, and record the outcome."""
    from wordgames.compute import compute_unit
    from wordgames.measure import Skip

    embedding = _opened(unit.embedding, embedding)
    result = compute_unit(
        unit.measure,
        embedding,
        options=unit.options,
        seed=unit.seed,
        quick=unit.quick,
        data_root=unit.data_root,
        out_dir=unit.out_dir,
        ci_resamples=unit.ci_resamples,
        thin=unit.thin,
        partner=partner,
    )
    if isinstance(result, Skip):
        outcome.update(status="skipped", reason=result.reason)
        return
    if store is not None:
        path = store.put(
            unit.key, result.as_dict(), embedding=unit.embedding.description, params=unit.params
        )
        outcome["path"] = str(path)
    outcome["status"] = "done"
    if keep_result:
        outcome["result"] = result


# --------------------------------------------------------------------------- executors
class SerialExecutor:
    """Run the units one after the other in this process, on the loaded embeddings."""

    name = "serial"
    needs_files = False

    def __init__(self, blas_threads: int | None = None):
        self.blas_threads = blas_threads

    def get_params(self) -> dict:
        return {"executor": self.name, "blas_threads": self.blas_threads}

    def run(self, units: Iterable[WorkUnit], embeddings: dict | None = None) -> Iterator[dict]:
        embeddings = embeddings or {}
        for unit in units:
            yield run_unit(
                unit,
                embeddings.get(unit.embedding.sha256),
                blas_threads=self.blas_threads,
                keep_result=True,
                partner=embeddings.get(unit.partner.sha256) if unit.partner else None,
            )

    def close(self) -> None:
        pass


class ProcessPoolExecutor:
    """A local pool of ``workers`` processes (no Ray needed).

    Workers start by the forkserver method on POSIX (spawn elsewhere): a fresh interpreter
    that caps its BLAS threads before numpy is imported, so nothing of the driver's state (or
    its threads) is inherited.
    """

    name = "process"
    needs_files = True

    def __init__(self, workers: int = 2, blas_threads: int = 1, start_method: str | None = None):
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        self.workers = int(workers)
        self.blas_threads = int(blas_threads)
        self.start_method = start_method

    def get_params(self) -> dict:
        return {"executor": self.name, "workers": self.workers, "blas_threads": self.blas_threads}

    def run(self, units: Iterable[WorkUnit], embeddings: dict | None = None) -> Iterator[dict]:
        import concurrent.futures as cf
        import multiprocessing as mp

        method = self.start_method or (
            "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        )
        units = list(units)
        if not units:
            return
        with cf.ProcessPoolExecutor(
            max_workers=min(self.workers, len(units)),
            mp_context=mp.get_context(method),
            initializer=_init_worker,
            initargs=(self.blas_threads,),
        ) as pool:
            futures = [pool.submit(run_unit, unit) for unit in units]
            try:
                for fut in cf.as_completed(futures):
                    yield fut.result()
            finally:  # an interrupted driver cancels what has not started
                for fut in futures:
                    fut.cancel()

    def close(self) -> None:
        pass


class RayExecutor:
    """Run the units as Ray tasks (``pip install 'wordgames[ray]'``).

    Parameters
    ----------
    address : a running cluster: ``"auto"`` (the one ``ray start`` started on this machine),
        ``"HEAD_IP:6379"`` or ``"ray://HEAD_IP:10001"``; ``None`` starts a local one for this
        run (or uses the one already initialised). Ray replaces a loopback address
        (``127.0.0.1:6379``) by the machine's own IP: for a head started with
        ``--node-ip-address=127.0.0.1`` use ``"auto"``.
    num_cpus : CPUs reserved per unit (also its BLAS thread cap).
    init_kwargs : extra arguments of ``ray.init``.
    timeout_s : give up (``TimeoutError``) when no unit finishes for this long (``None``: wait).

    Every node must see the same ``$WORDGAMES_CACHE`` (the memory-mapped embeddings), the
    output folder and the data root: a shared filesystem, see ``docs/suite.md``.
    """

    name = "ray"
    needs_files = True

    def __init__(
        self,
        address: str | None = None,
        num_cpus: int = 1,
        init_kwargs: dict | None = None,
        timeout_s: float | None = None,
    ):
        self.address = address
        self.num_cpus = int(num_cpus)
        self.init_kwargs = dict(init_kwargs or {})
        self.timeout_s = timeout_s
        self._started = False

    def get_params(self) -> dict:
        return {"executor": self.name, "address": self.address, "num_cpus": self.num_cpus}

    def _ray(self):
        from wordgames.errors import require

        ray = require("ray", "ray", "The Ray executor")
        if not ray.is_initialized():
            kwargs = {"include_dashboard": False, "log_to_driver": False, **self.init_kwargs}
            try:
                ray.init(address=self.address, **kwargs)
            except ConnectionError as exc:
                from wordgames.errors import WordgamesError

                raise WordgamesError(
                    f"cannot reach the Ray cluster at {self.address!r}: {exc} "
                    "(start it with `ray start --head`, see docs/suite.md)"
                ) from None
            self._started = True
        return ray

    def run(self, units: Iterable[WorkUnit], embeddings: dict | None = None) -> Iterator[dict]:
        units = list(units)
        if not units:
            return
        ray = self._ray()
        task = ray.remote(num_cpus=self.num_cpus, max_retries=1)(run_unit)
        pending = [task.remote(unit, blas_threads=self.num_cpus) for unit in units]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1, timeout=self.timeout_s)
                if not done:
                    raise TimeoutError(
                        f"no Ray task finished in {self.timeout_s} s ({len(pending)} pending)"
                    )
                yield ray.get(done[0])
        finally:
            for ref in pending:
                ray.cancel(ref)

    def close(self) -> None:
        if self._started:
            import ray

            ray.shutdown()
            self._started = False


def make_executor(
    kind: str = "serial",
    *,
    workers: int = 1,
    address: str | None = None,
    blas_threads: int | None = None,
    timeout_s: float | None = None,
):
    """An executor by name: ``"serial"``, ``"process"`` (``workers`` processes) or ``"ray"``.

    ``"local"`` means ``"serial"`` for one worker and ``"process"`` for more.
    """
    if kind == "local":
        kind = "process" if workers > 1 else "serial"
    if kind == "serial":
        return SerialExecutor(blas_threads=blas_threads)
    if kind == "process":
        return ProcessPoolExecutor(workers=workers, blas_threads=blas_threads or 1)
    if kind == "ray":
        return RayExecutor(address=address, num_cpus=blas_threads or 1, timeout_s=timeout_s)
    from wordgames.errors import WordgamesError

    raise WordgamesError(f"unknown executor {kind!r}; known: local, {', '.join(EXECUTORS)}")
