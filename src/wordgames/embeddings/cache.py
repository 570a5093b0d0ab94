"""The on-disk, memory-mappable embedding folders and the cache of converted files.

A vector folder holds ``vectors.npy`` (float32), ``words.txt`` (one word a line, UTF-8, LF),
optionally ``report.json`` and ``meta.json``, then ``manifest.json`` and last a ``done`` marker.
The manifest records the row and column counts, the byte sizes of both files, the sha256 of
``words.txt`` and the sha256 of the matrix (of all of it up to 256 MiB, of an evenly spaced
sample of rows beyond), and every open checks them: a truncated, edited or NaN-damaged folder is
never used, it is rebuilt. Opening GloVe 6B 50d (400,000 x 50) this way takes about 0.15 s.

Converted text and binary files are cached under ``$WORDGAMES_CACHE/vectors/<key>``, the key
being the sha256 of the source file's content (read in 1 MiB chunks) and its format, never its
path, size or modification time. The content hash of a file is remembered under
``$WORDGAMES_CACHE/hashes/``, keyed by its path, size, inode, modification and change times; a
remembered hash is only trusted for files last changed more than two seconds before it was
taken (as git does for its index), so an edit that keeps the size and restores the modification
time still changes the change time and is seen.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from wordgames.embeddings.core import Embedding, LoadReport
from wordgames.errors import DataFormatError, WordgamesError

log = logging.getLogger("wordgames.embeddings")

CACHE_VERSION = "2"
#: matrices up to this many bytes are hashed whole on every open; bigger ones by a row sample
FULL_HASH_BYTES = 256 << 20
_RACY_NS = 2_000_000_000
_CHUNK = 1 << 20


def cache_dir() -> Path:
    """The cache folder: ``$WORDGAMES_CACHE``, else ``~/.cache/wordgames``."""
    return Path(os.environ.get("WORDGAMES_CACHE", Path.home() / ".cache" / "wordgames"))


# --------------------------------------------------------------------------- content hashes
def _sha256_chunks(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            h.update(chunk)
    return h.hexdigest()


def source_sha256(path: str | Path) -> str:
    """sha256 of a file's content, remembered while the file is unchanged.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = Path(d) / "a.txt"
    ...     _ = p.write_bytes(b"hello")
    ...     source_sha256(p)[:12]
    '2cf24dba5fb0'
    """
    path = Path(path)
    st = path.stat()
    ident = (
        f"{path.resolve()}|{st.st_size}|{st.st_ino}|{st.st_dev}|{st.st_mtime_ns}|{st.st_ctime_ns}"
    )
    memo = cache_dir() / "hashes" / hashlib.sha256(ident.encode()).hexdigest()[:32]
    try:
        data = json.loads(memo.read_text())
        if isinstance(data, dict) and len(str(data.get("sha256", ""))) == 64:
            return str(data["sha256"])
    except (OSError, ValueError):
        pass
    digest = _sha256_chunks(path)
    now = time.time_ns()
    # "racily clean": a file changed within the timestamp granularity of now may change again
    # without its times moving; remember only hashes of files that have been still for a while
    if max(st.st_mtime_ns, st.st_ctime_ns) < now - _RACY_NS:
        try:
            memo.parent.mkdir(parents=True, exist_ok=True)
            tmp = memo.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"sha256": digest, "path": str(path)}))
            os.replace(tmp, memo)
        except OSError:  # pragma: no cover - a read-only cache: hash every time
            pass
    return digest


def _matrix_sha256(mat: np.ndarray) -> tuple[str, int]:
    """sha256 of the matrix rows (all, or every ``step``-th and the last) and the step."""
    n = mat.shape[0]
    row_bytes = max(1, mat.shape[1] * 4)
    step = max(1, -(-n * row_bytes // FULL_HASH_BYTES))
    h = hashlib.sha256(f"{mat.shape[0]}x{mat.shape[1]}|{step}\n".encode())
    rows = range(0, n, step) if step > 1 else None
    if rows is None:
        per = max(1, (64 << 20) // row_bytes)
        for start in range(0, n, per):
            h.update(np.ascontiguousarray(mat[start : start + per], dtype="<f4").tobytes())
    else:
        idx = np.fromiter(rows, dtype=np.int64)
        if n and idx[-1] != n - 1:
            idx = np.append(idx, n - 1)
        for start in range(0, len(idx), 65_536):
            part = np.asarray(mat[idx[start : start + 65_536]], dtype="<f4")
            h.update(np.ascontiguousarray(part).tobytes())
    return h.hexdigest(), step


# --------------------------------------------------------------------------- vector folders
def _text_sha(text: str | None) -> str | None:
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


def _check_writable_words(folder: Path, words: list) -> bytes:
    """The words one per line as UTF-8; checked on the whole text at once (no loop per word)."""
    words = list(words)
    if set(map(type, words)) <= {str}:
        text = "\n".join(words) + "\n" if words else ""
        if text.count("\n") == len(words):
            try:
                return text.encode("utf-8")
            except UnicodeEncodeError:
                pass  # a lone surrogate: named below
    bad = next(
        w
        for w in words
        if not isinstance(w, str) or "\n" in w or any(0xD800 <= ord(c) <= 0xDFFF for c in w)
    )
    raise WordgamesError(
        f"{folder}: the word {bad!r} cannot be written one per line as UTF-8 "
        "(a newline or a lone surrogate)"
    )


def write_vector_folder(
    folder: str | Path,
    words,
    vectors,
    *,
    report: LoadReport | None = None,
    meta: dict | None = None,
    done: str = "ok",
) -> Path:
    """Write a memory-mappable embedding folder with its manifest (see the module).

    Every file goes through a temporary name and a rename, the ``done`` marker and the manifest
    of an older content are removed first and written last, so a reader never takes a
    half-written folder. Shared by the text/binary cache, the transformer encoder and the
    executors.
    """
    folder = Path(folder)
    words = list(words)
    word_bytes = _check_writable_words(folder, words)
    mat = np.ascontiguousarray(vectors, dtype=np.float32)
    if mat.ndim != 2 or mat.shape[0] != len(words):
        raise WordgamesError(f"{folder}: {len(words)} words but a matrix of shape {mat.shape}")
    folder.mkdir(parents=True, exist_ok=True)
    for stale in ("done", "manifest.json"):
        (folder / stale).unlink(missing_ok=True)
    tag = f"{os.getpid()}.{time.monotonic_ns()}"

    def put(name: str, write: Callable[[Path], object]) -> None:
        tmp = folder / f".{name}.{tag}.tmp"
        try:
            write(tmp)
            os.replace(tmp, folder / name)
        finally:
            tmp.unlink(missing_ok=True)

    def save_matrix(tmp: Path) -> None:
        with open(tmp, "wb") as fh:  # a file object: np.save would add ".npy" to a path
            np.save(fh, mat, allow_pickle=False)

    put("vectors.npy", save_matrix)
    put("words.txt", lambda t: t.write_bytes(word_bytes))
    report_text = json.dumps(report.as_dict()) if report is not None else None
    if report_text is not None:
        put("report.json", lambda t: t.write_text(report_text, encoding="utf-8"))
    if meta is not None:
        put("meta.json", lambda t: t.write_text(json.dumps(meta)))
    matrix_sha, step = _matrix_sha256(mat)
    manifest = {
        "version": CACHE_VERSION,
        "n_rows": int(mat.shape[0]),
        "dim": int(mat.shape[1]),
        "vectors_bytes": (folder / "vectors.npy").stat().st_size,
        "words_bytes": len(word_bytes),
        "words_sha256": hashlib.sha256(word_bytes).hexdigest(),
        "matrix_sha256": matrix_sha,
        "matrix_hash_step": step,
        "report_sha256": _text_sha(report_text),
    }
    put("manifest.json", lambda t: t.write_text(json.dumps(manifest)))
    put("done", lambda t: t.write_text(done))
    return folder


def _open_checked(folder: Path) -> tuple[list[str], np.ndarray, LoadReport | None]:
    """Words, memory-mapped matrix and load report of a folder; ``ValueError`` says what is wrong."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text())
        n, dim = int(manifest["n_rows"]), int(manifest["dim"])
    except (OSError, ValueError, KeyError, TypeError, OverflowError) as exc:  # 1e309: inf
        raise ValueError(f"no readable manifest ({type(exc).__name__})") from None
    if manifest.get("version") != CACHE_VERSION:
        raise ValueError(f"written by cache version {manifest.get('version')!r}")
    vec_path, words_path = folder / "vectors.npy", folder / "words.txt"
    for p, key in ((vec_path, "vectors_bytes"), (words_path, "words_bytes")):
        size = p.stat().st_size if p.exists() else None
        if size != manifest.get(key):
            raise ValueError(f"{p.name} has {size} bytes, the manifest says {manifest.get(key)}")
    word_bytes = words_path.read_bytes()
    if hashlib.sha256(word_bytes).hexdigest() != manifest.get("words_sha256"):
        raise ValueError("words.txt differs from the manifest's sha256")
    try:
        mat = np.load(vec_path, mmap_mode="r", allow_pickle=False)
    except Exception as exc:  # noqa: BLE001 - numpy's header parser raises many kinds
        raise ValueError(f"vectors.npy is not readable ({exc})") from None
    if mat.dtype != np.float32 or mat.shape != (n, dim):
        raise ValueError(
            f"vectors.npy holds {mat.dtype} {mat.shape}, the manifest says ({n}, {dim})"
        )
    if _matrix_sha256(mat) != (manifest.get("matrix_sha256"), manifest.get("matrix_hash_step")):
        raise ValueError("vectors.npy differs from the manifest's sha256")
    words = word_bytes.decode("utf-8").split("\n")[:-1] if word_bytes else []
    if len(words) != n:
        raise ValueError(f"words.txt holds {len(words)} words, the manifest says {n}")
    report = None
    if manifest.get("report_sha256") is not None:
        text = (folder / "report.json").read_text(encoding="utf-8")
        if _text_sha(text) != manifest["report_sha256"]:
            raise ValueError("report.json differs from the manifest's sha256")
        report = LoadReport.from_dict(json.loads(text))
    return words, mat, report


def _adopt_legacy(folder: Path, name: str, source: str, fmt: str) -> Embedding | None:
    """A folder written before manifests existed, if its ``done`` sha256 still matches.

    The executors mark a folder done with the embedding's fingerprint (the sha256 of its words
    and matrix); such a folder is checked against it once and given a manifest.
    """
    try:
        done = (folder / "done").read_text().strip()
        if (folder / "manifest.json").exists() or len(done) != 64:
            return None
        mat = np.load(folder / "vectors.npy", mmap_mode="r", allow_pickle=False)
        words = (folder / "words.txt").read_bytes().decode("utf-8").split("\n")[:-1]
        emb = Embedding(words, mat, name=name, source=source)
        if mat.dtype != np.float32 or emb.fingerprint() != done:
            return None
        write_vector_folder(folder, words, mat, done=done)
    except Exception:  # noqa: BLE001 - anything wrong: not adoptable, rebuilt instead
        return None
    log.info("%s: checked against its sha256 and given a manifest", folder)
    return read_vector_folder(folder, name=name, source=source, fmt=fmt)


def open_vector_folder(
    folder: str | Path, *, name: str, source: str, fmt: str
) -> tuple[Embedding | None, str | None]:
    """The embedding of a folder and ``None``, or ``None`` and why it cannot be used.

    ``(None, None)`` when the folder is absent or unfinished. A damaged folder loses its
    ``done`` marker, so that whoever wrote it writes it again.
    """
    folder = Path(folder)
    if not (folder / "done").exists():
        return None, None
    legacy = _adopt_legacy(folder, name, source, fmt)
    if legacy is not None:
        return legacy, None
    try:
        words, mat, report = _open_checked(folder)
    except (ValueError, OSError, AttributeError, TypeError) as exc:
        problem = f"cache folder {folder} is damaged ({exc})"
        log.warning("%s: rebuilding it", problem)
        for marker in ("done", "manifest.json"):
            try:
                (folder / marker).unlink(missing_ok=True)
            except OSError:  # pragma: no cover - read-only cache
                pass
        return None, problem
    report = report or LoadReport(format=fmt, n_rows_read=len(words))
    report.source, report.from_cache = source, True
    emb = Embedding(words, mat, name=name, source=source, load_report=report)
    _keep_grids(emb, folder)
    return emb, None


def _keep_grids(emb: Embedding, folder: Path) -> None:
    """Let ``emb`` keep its exact grids in ``folder`` (:func:`folder_grid`)."""
    import functools

    emb._grid_folder, emb._grids = folder, functools.partial(folder_grid, folder)


def read_vector_folder(folder: str | Path, *, name: str, source: str, fmt: str) -> Embedding | None:
    """The memory-mapped embedding of a folder written by :func:`write_vector_folder`.

    ``None`` when it is absent, unfinished or fails its manifest's checks (then it is rebuilt by
    whoever wrote it).
    """
    return open_vector_folder(folder, name=name, source=source, fmt=fmt)[0]


def vector_folder_ok(folder: str | Path) -> bool:
    """Whether a folder is finished and passes its manifest's checks."""
    emb, _ = open_vector_folder(folder, name="check", source=str(folder), fmt="check")
    return emb is not None


# --------------------------------------------------------------------------- converted files
def cache_key(path: Path, fmt: str) -> str:
    """Key of a converted file: its content's sha256 and the format, never its path or times."""
    raw = f"{CACHE_VERSION}|{source_sha256(path)}|{fmt}"
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def load_cached(path: Path, fmt: str, parse, name: str | None, use_cache: bool) -> Embedding:
    """Parse ``path`` with ``parse`` once and serve it from the cache afterwards."""
    name = name or path.stem
    if not use_cache:
        words, mat, report = parse(path)
        return Embedding(words, mat, name=name, source=str(path), load_report=report)
    try:
        folder = cache_dir() / "vectors" / cache_key(path, fmt)
    except OSError as exc:
        raise DataFormatError(path, None, f"cannot read the file ({exc.strerror})") from None
    cached, problem = open_vector_folder(folder, name=name, source=str(path), fmt=fmt)
    if cached is not None:
        return cached
    words, mat, report = parse(path)
    grid_folder = None
    try:
        write_vector_folder(folder, words, mat, report=report)
    except OSError as exc:  # a read-only cache is not fatal, but say it
        log.warning("cannot write the embedding cache %s (%s): not cached", folder, exc)
    else:
        # the folder's memory map in place of the parsed matrix: its pages are the file's (the
        # system may drop them and read them again), and its grids are kept beside it
        mapped, _ = open_vector_folder(folder, name=name, source=str(path), fmt=fmt)
        if mapped is not None:
            mat, grid_folder = mapped._vectors, folder
    if problem:  # said this once, not stored with the rebuilt entry
        report.repair("cache_rebuilt", 1, f"{problem}: rebuilt from the source file")
    emb = Embedding(words, mat, name=name, source=str(path), load_report=report)
    if grid_folder is not None:
        _keep_grids(emb, grid_folder)
    return emb


# --------------------------------------------------------------------------- exact grids
# The exact grids of a cached embedding, written once beside its vectors and memory-mapped.
#
# :attr:`Embedding.unit <wordgames.embeddings.core.Embedding.unit>` and
# :attr:`~wordgames.embeddings.core.Embedding.raw_grid` are each the size of the matrix. Held in
# memory beside it, a 2 M x 300 embedding's main job needed three matrices' worth (7.7 GB for a
# 2.4 GB matrix, issue 40). For an embedding opened from a vector folder (the cache of a text or
# binary file, an executor's copy), each grid is computed once, a block of rows at a time, into
# ``unit-grid.npy`` / ``raw-grid.npy`` in that folder, and then memory-mapped: its pages are the
# file's, which the system may drop and read again, and every worker of a run shares them.
#
# A grid file is used only when its record (``<kind>-grid.json``, written last) names the
# folder's matrix sha256, the grid's definition and the sha256 of the grid as the vector folder
# hashes a matrix; anything else is rebuilt. A folder that cannot be written (read-only, full)
# gives the grid in memory, as before; the numbers are the same either way.
#: the definition of the grids (:mod:`wordgames.exact`) a file holds; a change rebuilds them
GRIDS_VERSION = "1"


def _grid_record(folder: Path, kind: str, bits: int | None) -> dict:
    from wordgames.exact import GRID_BITS

    manifest = json.loads((folder / "manifest.json").read_text())
    return {"version": GRIDS_VERSION, "kind": kind, "grid_bits": GRID_BITS, "bits": bits,
            "matrix_sha256": manifest["matrix_sha256"]}  # fmt: skip


def _open_grid(
    folder: Path, kind: str, shape: tuple[int, int]
) -> tuple[np.ndarray, int | None] | None:
    """The mapped grid and its bits when the folder's files are whole and current, else None."""
    try:
        rec = json.loads((folder / f"{kind}-grid.json").read_text())
        if rec != {**_grid_record(folder, kind, rec.get("bits")), "sha256": rec.get("sha256")}:
            return None
        grid = np.load(folder / f"{kind}-grid.npy", mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if grid.dtype != np.float32 or grid.shape != tuple(shape):
        return None
    if list(_matrix_sha256(grid)) != rec["sha256"]:
        return None
    return np.asarray(grid), rec["bits"]  # a plain array over the map (no memmap subclass)


def _write_grid(folder: Path, kind: str, vectors: np.ndarray, bits: int | None):
    """Write the grid and its record; returns what :func:`_open_grid` would (hashed once)."""
    from wordgames.exact import raw_grid_blocks, unit_grid_blocks

    blocks = unit_grid_blocks(vectors) if kind == "unit" else raw_grid_blocks(vectors, bits)
    tag = f"{os.getpid()}.{time.monotonic_ns()}"
    tmp, tmp_rec = folder / f".{kind}-grid.{tag}.tmp", folder / f".{kind}-grid-json.{tag}.tmp"
    try:
        with open(tmp, "wb") as fh:  # block by block: the grid is never whole in memory
            header = {"descr": "<f4", "fortran_order": False, "shape": tuple(vectors.shape)}
            np.lib.format.write_array_header_1_0(fh, header)
            for _, block in blocks:
                fh.write(np.ascontiguousarray(block, dtype="<f4").tobytes())
        os.replace(tmp, folder / f"{kind}-grid.npy")
        grid = np.load(folder / f"{kind}-grid.npy", mmap_mode="r", allow_pickle=False)
        rec = {**_grid_record(folder, kind, bits), "sha256": list(_matrix_sha256(grid))}
        tmp_rec.write_text(json.dumps(rec))
        os.replace(tmp_rec, folder / f"{kind}-grid.json")
        return np.asarray(grid), bits  # the map just hashed: not opened and hashed again
    finally:
        tmp.unlink(missing_ok=True)
        tmp_rec.unlink(missing_ok=True)


def folder_grid(folder: Path, kind: str, vectors: np.ndarray) -> tuple[np.ndarray, int | None]:
    """The ``"unit"`` or ``"raw"`` grid of ``vectors`` (the matrix of ``folder``) and its bits.

    Mapped from the folder, written there first when absent or stale; in memory when the
    folder cannot hold it (said in the log).
    """
    from wordgames.exact import raw_grid_bits, unit_grid

    got = _open_grid(folder, kind, vectors.shape)
    if got is not None:
        return got
    bits = None if kind == "unit" else raw_grid_bits(vectors)
    try:
        got = _write_grid(folder, kind, vectors, bits)
    except (OSError, ValueError, KeyError) as exc:
        log.info("%s: the %s grid kept in memory (%s)", folder, kind, exc)
    if got is not None:
        return got
    if kind == "unit":
        return unit_grid(vectors), None
    from wordgames.exact import raw_grid

    return raw_grid(vectors)
