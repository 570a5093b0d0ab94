"""The exact grids of a cached embedding, written once beside its vectors and memory-mapped.

:attr:`Embedding.unit <wordgames.embeddings.core.Embedding.unit>` and
:attr:`~wordgames.embeddings.core.Embedding.raw_grid` are each the size of the matrix. Held in
memory beside it, a 2 M x 300 embedding's main job needed three matrices' worth (7.7 GB for a
2.4 GB matrix, issue 40). For an embedding opened from a vector folder (the cache of a text or
binary file, an executor's copy), each grid is computed once, a block of rows at a time, into
``unit-grid.npy`` / ``raw-grid.npy`` in that folder, and then memory-mapped: its pages are the
file's, which the system may drop and read again, and every worker of a run shares them.

A grid file is used only when its record (``<kind>-grid.json``, written last) names the
folder's matrix sha256, the grid's definition and the sha256 of the grid as the vector folder
hashes a matrix; anything else is rebuilt. A folder that cannot be written (read-only, full)
gives the grid in memory, as before; the numbers are the same either way.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

import numpy as np

log = logging.getLogger("wordgames.embeddings")

#: the definition of the grids (:mod:`wordgames.exact`) a file holds; a change rebuilds them
GRIDS_VERSION = "1"


def _record(folder: Path, kind: str, bits: int | None) -> dict:
    from wordgames.exact import GRID_BITS

    manifest = json.loads((folder / "manifest.json").read_text())
    return {"version": GRIDS_VERSION, "kind": kind, "grid_bits": GRID_BITS, "bits": bits,
            "matrix_sha256": manifest["matrix_sha256"]}  # fmt: skip


def _open(folder: Path, kind: str, shape: tuple[int, int]) -> tuple[np.ndarray, int | None] | None:
    """The mapped grid and its bits when the folder's files are whole and current, else None."""
    from wordgames.embeddings.cache import _matrix_sha256

    try:
        rec = json.loads((folder / f"{kind}-grid.json").read_text())
        if rec != {**_record(folder, kind, rec.get("bits")), "sha256": rec.get("sha256")}:
            return None
        grid = np.load(folder / f"{kind}-grid.npy", mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if grid.dtype != np.float32 or grid.shape != tuple(shape):
        return None
    if list(_matrix_sha256(grid)) != rec["sha256"]:
        return None
    return np.asarray(grid), rec["bits"]  # a plain array over the map (no memmap subclass)


def _write(folder: Path, kind: str, vectors: np.ndarray, bits: int | None) -> None:
    from wordgames.embeddings.cache import _matrix_sha256
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
        rec = {**_record(folder, kind, bits), "sha256": list(_matrix_sha256(grid))}
        del grid
        tmp_rec.write_text(json.dumps(rec))
        os.replace(tmp_rec, folder / f"{kind}-grid.json")
    finally:
        tmp.unlink(missing_ok=True)
        tmp_rec.unlink(missing_ok=True)


def folder_grid(folder: Path, kind: str, vectors: np.ndarray) -> tuple[np.ndarray, int | None]:
    """The ``"unit"`` or ``"raw"`` grid of ``vectors`` (the matrix of ``folder``) and its bits.

    Mapped from the folder, written there first when absent or stale; in memory when the
    folder cannot hold it (said in the log).
    """
    from wordgames.exact import raw_grid_bits, unit_grid

    got = _open(folder, kind, vectors.shape)
    if got is not None:
        return got
    bits = None if kind == "unit" else raw_grid_bits(vectors)
    try:
        _write(folder, kind, vectors, bits)
        got = _open(folder, kind, vectors.shape)
    except (OSError, ValueError, KeyError) as exc:
        log.info("%s: the %s grid kept in memory (%s)", folder, kind, exc)
    if got is not None:
        return got
    if kind == "unit":
        return unit_grid(vectors), None
    from wordgames.exact import raw_grid

    return raw_grid(vectors)
