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

For the pool (and Ray with ``shared_fs=True``), each embedding is written once as
``vectors.npy`` + ``words.txt`` under ``$WORDGAMES_CACHE/suite-embeddings/<sha256>/``
(:func:`materialize_embedding`) and workers memory-map it: the matrix is never pickled, and
workers on one machine share its pages.

On Ray (the default, ``shared_fs=False``) nothing goes through a filesystem the nodes share:
each embedding's arrays are put once into Ray's object store (workers read the matrix
zero-copy and check its sha256), the declared files of the data sets are shipped once
(:func:`pack_data`; a node writes them once into its own cache folder) or read from each node's
own ``$WORDGAMES_DATA`` checked file by file against the driver's checksums (``data="node"``),
and each unit's result and plot files come back to the driver, which alone writes the store
and the output folder. Units of a *player* subject (a chat model) run on the driver, so that
its response cache stays the one cache of the run (no request twice for one key).
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
#: how Ray nodes get embeddings, data and results: through Ray, the data shipped ("ship"); through
#: Ray, each node's own data checked by sha256 ("node"); a filesystem every node shares ("shared")
RAY_FILES = ("ship", "node", "shared")


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


def unit_threads(threads: int | None):
    """Context in which one unit's BLAS runs on ``threads`` threads (threadpoolctl), restored after.

    The one mechanism for every unit, whatever its family: each executor gives its units a
    number of threads (1 by default: on a machine shared with other work, BLAS threads cost
    more than they give, e.g. 5.6x on global-metrics' Gram matrix under load, issue 40).
    """
    import sys
    from contextlib import nullcontext

    if threads is None:
        return nullcontext()
    if "numpy" not in sys.modules:  # a fresh worker: a BLAS loaded later reads these
        os.environ.update(blas_env(threads))
    import numpy  # noqa: F401  (loaded now, so that the limit below reaches its BLAS)

    from wordgames.blas import blas_controller

    return blas_controller().limit(limits=int(threads), user_api="blas")


def _init_worker(threads: int) -> None:
    limit_threads(threads)


# --------------------------------------------------------------------------- embeddings on disk
def materialize_embedding(emb, *, cache: str | Path | None = None) -> EmbeddingRef:
    """Write ``emb`` once and return a reference workers can memory-map.

    The people (:class:`~wordgames.subjects.People`) have no folder: a worker makes them anew.
    The folder holds ``vectors.npy`` + ``words.txt`` and is keyed by its sha256. A folder already
    written is reused.
    """
    from wordgames.embeddings.cache import vector_folder_ok
    from wordgames.embeddings.loaders import cache_dir, write_vector_folder
    from wordgames.subjects import is_people

    if is_people(emb):
        return EmbeddingRef(emb.name, emb.fingerprint(), emb.describe())
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
    with unit_threads(blas_threads):
        return _run_unit(unit, embedding, keep_result=keep_result, partner=partner)


def _run_unit(unit: WorkUnit, embedding, *, keep_result: bool, partner) -> dict:
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
    start, cpu = time.perf_counter(), time.process_time()
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
    # the process's CPU (all its threads) while the unit ran, and its peak memory so far: a
    # worker runs one unit at a time, so the CPU is the unit's; the peak only grows
    outcome["cpu_seconds"] = time.process_time() - cpu
    outcome["peak_rss_mb"] = _peak_rss_mb()
    return outcome


def _peak_rss_mb() -> float:
    """The peak resident memory of this process so far, in MB (``getrusage``; 0 where absent)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return 0.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def _opened(ref: EmbeddingRef, subject):
    """``subject`` under ``ref``'s name, or (in a worker) the embedding of ``ref``'s folder."""
    if subject is None and ref.description.get("kind") == "people":
        from wordgames.subjects import People  # nothing to ship: the people are the data

        return People(ref.name)
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


# --------------------------------------------------------------------------- shipping (Ray)
def data_manifest(root: str | Path | None) -> dict[str, str]:
    """``{path under the data root: sha256}`` of every declared file of every data set there."""
    if not root:
        return {}
    from wordgames.datasets import all_datasets

    out = {}
    for spec in all_datasets().values():
        for f in spec.files:
            rel = f"{spec.folder}/{f.path}"
            if (Path(root) / rel).is_file():
                out[rel] = f.sha256
    return out


def pack_data(root: str | Path | None) -> dict:
    """The declared data files under ``root``: ``{"manifest": {path: sha256}, "files": ...}``.

    ``files`` maps each path to its bytes; a file that differs from its declared sha256 is not
    shipped (nor listed).
    """
    import hashlib

    manifest, files = data_manifest(root), {}
    for rel, digest in manifest.items():
        blob = (Path(root) / rel).read_bytes()
        if hashlib.sha256(blob).hexdigest() == digest:
            files[rel] = blob
    return {"manifest": {k: v for k, v in manifest.items() if k in files}, "files": files}


def _manifest_key(manifest: dict) -> str:
    import hashlib
    import json

    return hashlib.sha256(json.dumps(manifest, sort_keys=True).encode()).hexdigest()[:24]


def node_data_root(packed: dict) -> str | None:
    """The folder of the shipped data on the node that runs this (written once, atomically)."""
    import shutil
    import tempfile

    from wordgames.embeddings.loaders import cache_dir

    if not packed["files"]:
        return None
    folder = cache_dir() / "ray-data" / _manifest_key(packed["manifest"])
    if (folder / ".done").is_file():
        return str(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".partial-"))
    for rel, blob in packed["files"].items():
        target = tmp / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob)
    (tmp / ".done").write_text("ok")
    try:
        tmp.rename(folder)
    except OSError:  # another worker of this node finished first
        shutil.rmtree(tmp, ignore_errors=True)
    return str(folder)


def checked_node_data(manifest: dict) -> str | None:
    """The ``$WORDGAMES_DATA`` of the node that runs this, each of the driver's files checked."""
    from wordgames.datasets.registry import DATA_ENV, sha256_file
    from wordgames.errors import WordgamesError

    if not manifest:
        return None
    root = os.environ.get(DATA_ENV)
    if not root:
        raise WordgamesError(f"data='node': {DATA_ENV} is not set on this node")
    bad = [r for r, d in manifest.items() if not (Path(root) / r).is_file()
           or sha256_file(Path(root) / r) != d]  # fmt: skip
    if bad:
        raise WordgamesError(
            f"data='node': {len(bad)} file(s) under {root} differ from the driver's or are "
            f"missing (first: {bad[0]})"
        )
    return root


_SHIPPED: dict = {}


def _shipped_embedding(ref: EmbeddingRef, words, vectors):
    """The embedding of shipped arrays (checked against the ref's sha256), memoised per worker."""
    from wordgames.embeddings import Embedding
    from wordgames.errors import WordgamesError

    emb = _SHIPPED.get(ref.sha256)
    if emb is None:
        source = ref.description.get("source", "")
        emb = Embedding(words, vectors, name=ref.name, source=source)
        if emb.fingerprint() != ref.sha256:
            raise WordgamesError(f"{ref.name}: the shipped vectors differ from the driver's")
        if len(_SHIPPED) >= 2:
            _SHIPPED.pop(next(iter(_SHIPPED)))
        _SHIPPED[ref.sha256] = emb
    return emb if emb.name == ref.name else emb.with_name(ref.name)


def run_shipped(
    unit: WorkUnit, words, vectors, p_words, p_vectors, data, blas_threads: int = 1
) -> dict:
    """One unit on a Ray worker: nothing read from or written to a path the driver knows.

    ``words``, ``vectors`` (and the partner's ``p_words``, ``p_vectors``) come from the object
    store (Ray resolves top-level arguments; the matrix is read zero-copy); ``data`` is
    :func:`pack_data`'s output or ``{"manifest": ...}`` for the node's own data. The outcome
    carries the result and the plot files (``files``: ``{path under the output folder: bytes}``).
    """
    import tempfile
    from dataclasses import replace

    limit_threads(blas_threads)
    outcome = {"label": unit.label, "key": unit.key, "measure": unit.measure.name}
    try:
        emb = _shipped_embedding(unit.embedding, words, vectors)
        partner = _shipped_embedding(unit.partner, p_words, p_vectors) if unit.partner else None
        root = node_data_root(data) if "files" in data else checked_node_data(data["manifest"])
    except Exception as exc:  # said in the outcome, as run_unit does
        return {**outcome, "status": "failed", "reason": str(exc), "error": "", "seconds": 0.0,
                "embedding": unit.embedding.name}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="wg-unit-") as out:
        local = replace(unit, store_root=None, data_root=root,
                        out_dir=out if unit.out_dir else None)  # fmt: skip
        outcome = run_unit(local, emb, keep_result=True, partner=partner)
        outcome["files"] = {
            str(f.relative_to(out)): f.read_bytes() for f in Path(out).rglob("*") if f.is_file()
        }
    return outcome


def store_shipped(unit: WorkUnit, outcome: dict) -> None:
    """On the driver: a shipped unit's result into the store and its files into the output folder."""
    from wordgames.results.store import ResultStore
    from wordgames.safeio import UnsafePathError, check_inside, confine, write_bytes_atomic

    files = outcome.pop("files", {}) or {}
    if outcome.get("status") != "done":
        return
    if unit.out_dir and files:
        base = Path(unit.out_dir)
        with confine(base):
            for rel, blob in files.items():
                try:
                    write_bytes_atomic(check_inside(base / rel, base), blob)
                except UnsafePathError:
                    continue  # never a path outside the output folder
    if unit.store_root is not None:
        store = ResultStore(unit.store_root)
        with store.lock(unit.key):
            if unit.overwrite or not store.has(unit.key):
                store.put(unit.key, outcome["result"].as_dict(),
                          embedding=unit.embedding.description, params=unit.params)  # fmt: skip


# --------------------------------------------------------------------------- executors
class SerialExecutor:
    """Run the units one after the other in this process, on the loaded embeddings."""

    name = "serial"
    needs_files = False

    def __init__(self, blas_threads: int | None = 1):
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
        run (or uses the one already initialised).
    num_cpus : CPUs reserved per unit (also its BLAS thread cap).
    init_kwargs : extra arguments of ``ray.init``.
    timeout_s : give up (``TimeoutError``) when no unit finishes for this long (``None``: wait).
    shared_fs : every node sees the same ``$WORDGAMES_CACHE``, data root and output folder (a
        shared filesystem): workers memory-map the embeddings and write the store themselves.
        Default ``False``: everything goes through Ray (see the module docstring).
    data : without a shared filesystem, ``"ship"`` (default) sends the declared data files
        once; ``"node"`` reads each node's own ``$WORDGAMES_DATA``, checked by sha256.
    max_retries : times Ray runs a unit again when its worker or node dies.
    """

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        num_cpus: int = 1,
        init_kwargs: dict | None = None,
        timeout_s: float | None = None,
        shared_fs: bool = False,
        data: str = "ship",
        max_retries: int = 3,
    ):
        if data not in ("ship", "node"):
            raise ValueError(f"data must be 'ship' or 'node', got {data!r}")
        self.address = address
        self.num_cpus = int(num_cpus)
        self.init_kwargs = dict(init_kwargs or {})
        self.timeout_s = timeout_s
        self.shared_fs, self.data, self.max_retries = bool(shared_fs), data, int(max_retries)
        self._started = False

    @property
    def needs_files(self) -> bool:
        return self.shared_fs

    def get_params(self) -> dict:
        return {"executor": self.name, "address": self.address, "num_cpus": self.num_cpus,
                "shared_fs": self.shared_fs, "data": self.data}  # fmt: skip

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
        if self.shared_fs:
            task = ray.remote(num_cpus=self.num_cpus, max_retries=self.max_retries)(run_unit)
            pending = {task.remote(u, blas_threads=self.num_cpus): u for u in units}
            yield from self._wait(ray, pending, store=False)
            return
        yield from self._run_shipped(ray, units, embeddings or {})

    def _run_shipped(self, ray, units, embeddings: dict) -> Iterator[dict]:
        local, remote = [], []
        for u in units:
            (local if _is_player_unit(u, embeddings) else remote).append(u)
        pending = {}
        if remote:
            arrays = {}
            for sha in {u.embedding.sha256 for u in remote} | {
                u.partner.sha256 for u in remote if u.partner is not None
            }:
                e = embeddings[sha]
                arrays[sha] = (ray.put(e.words), ray.put(e.vectors))
            root = next((u.data_root for u in remote if u.data_root), None)
            packed = pack_data(root) if self.data == "ship" else {"manifest": data_manifest(root)}
            data = ray.put(packed)
            task = ray.remote(num_cpus=self.num_cpus, max_retries=self.max_retries)(run_shipped)
            for u in remote:
                words, vectors = arrays[u.embedding.sha256]
                pw, pv = arrays[u.partner.sha256] if u.partner is not None else (None, None)
                # top-level arguments: Ray hands each worker the objects, not their refs
                ref = task.remote(u, words, vectors, pw, pv, data, self.num_cpus)
                pending[ref] = u
        for u in local:  # a player's requests stay with the driver's response cache
            yield run_unit(
                u,
                embeddings.get(u.embedding.sha256),
                keep_result=True,
                partner=embeddings.get(u.partner.sha256) if u.partner else None,
            )
        yield from self._wait(ray, pending, store=True)

    def _wait(self, ray, pending: dict, *, store: bool) -> Iterator[dict]:
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1, timeout=self.timeout_s)
                if not done:
                    raise TimeoutError(
                        f"no Ray task finished in {self.timeout_s} s ({len(pending)} pending)"
                    )
                unit = pending.pop(done[0])
                outcome = ray.get(done[0])
                if store:
                    store_shipped(unit, outcome)
                yield outcome
        finally:
            for ref in pending:
                ray.cancel(ref)

    def close(self) -> None:
        if self._started:
            import ray

            ray.shutdown()
            self._started = False


def _is_player_unit(unit: WorkUnit, embeddings: dict) -> bool:
    from wordgames.subjects import is_loaded  # a player, or the people: no vectors to ship

    subjects = [embeddings.get(unit.embedding.sha256)]
    if unit.partner is not None:
        subjects.append(embeddings.get(unit.partner.sha256))
    return any(s is not None and is_loaded(s) for s in subjects)


def make_executor(
    kind: str = "serial",
    *,
    workers: int = 1,
    address: str | None = None,
    blas_threads: int | None = None,
    timeout_s: float | None = None,
    ray_files: str = "ship",
):
    """An executor by name: ``"serial"``, ``"process"`` (``workers`` processes) or ``"ray"``.

    ``"local"`` means ``"serial"`` for one worker and ``"process"`` for more. ``ray_files``:
    how Ray nodes get what a unit reads (:data:`RAY_FILES`).
    """
    if kind == "local":
        kind = "process" if workers > 1 else "serial"
    if kind == "serial":
        return SerialExecutor(blas_threads=blas_threads or 1)
    if kind == "process":
        return ProcessPoolExecutor(workers=workers, blas_threads=blas_threads or 1)
    if kind == "ray":
        if ray_files not in RAY_FILES:
            from wordgames.errors import WordgamesError

            raise WordgamesError(
                f"ray_files must be one of {', '.join(RAY_FILES)}, got {ray_files!r}"
            )
        return RayExecutor(
            address=address, num_cpus=blas_threads or 1, timeout_s=timeout_s,
            shared_fs=ray_files == "shared", data="node" if ray_files == "node" else "ship",
        )  # fmt: skip
    from wordgames.errors import WordgamesError

    raise WordgamesError(f"unknown executor {kind!r}; known: local, {', '.join(EXECUTORS)}")
