"""The exact grids of a cached embedding: written beside its vectors once, mapped, checked.

Issue 40: the unit and raw grids are each the size of the matrix; for an embedding opened from
a vector folder they are files of that folder, memory-mapped, with the same bits as in memory.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import wordgames.embeddings.cache as grids
from wordgames.embeddings import load_embedding
from wordgames.exact import raw_grid, unit_grid


@pytest.fixture
def text_file(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(9000, 7)) * 3  # more rows than one block of the grids (8192)
    path = tmp_path / "v.txt"
    path.write_text("".join(f"w{i} " + " ".join(f"{x:.5f}" for x in v) + "\n"
                            for i, v in enumerate(vecs)))  # fmt: skip
    return path


def _mapped(a) -> bool:
    """Whether ``a`` is a view of a memory map (not an array of its own)."""
    while a is not None and not isinstance(a, np.memmap):
        a = getattr(a, "base", None)
        if isinstance(a, __import__("mmap").mmap):
            return True
    return a is not None


def _folder(emb):
    assert emb._grid_folder is not None
    return emb._grid_folder


def test_grids_are_files_of_the_cache_with_the_in_memory_bits(text_file):
    emb = load_embedding(text_file)
    vectors = np.asarray(emb.vectors)
    assert _mapped(emb.unit) and not emb.unit.flags.writeable
    assert emb.unit.tobytes() == unit_grid(vectors).tobytes()
    grid, bits = emb.raw_grid
    want, want_bits = raw_grid(vectors)
    assert _mapped(grid) and bits == want_bits
    assert grid.tobytes() == want.tobytes()
    folder = _folder(emb)
    assert {p.name for p in folder.iterdir()} >= {
        "unit-grid.npy", "unit-grid.json", "raw-grid.npy", "raw-grid.json"}  # fmt: skip
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_a_second_open_maps_the_same_files(text_file):
    first = load_embedding(text_file)
    assert first.unit.shape == first.raw_grid[0].shape  # both written to the folder
    folder = _folder(first)
    stamp = (folder / "unit-grid.npy").stat().st_mtime_ns
    again = load_embedding(text_file)
    assert again.load_report.from_cache
    assert again.unit.tobytes() == first.unit.tobytes()
    assert (folder / "unit-grid.npy").stat().st_mtime_ns == stamp  # not written again


@pytest.mark.parametrize("damage", ["bytes", "record", "stale matrix", "missing"])
def test_a_damaged_or_stale_grid_is_rebuilt(text_file, damage):
    emb = load_embedding(text_file)
    want = unit_grid(np.asarray(emb.vectors)).tobytes()
    assert emb.unit.tobytes() == want
    folder = _folder(emb)
    npy, rec = folder / "unit-grid.npy", folder / "unit-grid.json"
    if damage == "bytes":
        data = bytearray(npy.read_bytes())
        data[-5] ^= 0xFF
        npy.write_bytes(bytes(data))
    elif damage == "record":
        rec.write_text("{not json")
    elif damage == "stale matrix":
        r = json.loads(rec.read_text())
        rec.write_text(json.dumps({**r, "matrix_sha256": "0" * 64}))
    else:
        npy.unlink()
    again = load_embedding(text_file)
    assert again.unit.tobytes() == want
    assert grids._open_grid(folder, "unit", emb.vectors.shape) is not None  # whole again


def test_a_folder_that_cannot_be_written_gives_the_grid_in_memory(text_file, monkeypatch):
    emb = load_embedding(text_file)

    def refuse(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(grids, "_write_grid", refuse)
    unit = emb.unit
    assert not _mapped(unit)
    assert unit.tobytes() == unit_grid(np.asarray(emb.vectors)).tobytes()
    grid, bits = emb.raw_grid
    assert (grid.tobytes(), bits) == (lambda g: (g[0].tobytes(), g[1]))(
        raw_grid(np.asarray(emb.vectors))
    )
    assert not (_folder(emb) / "unit-grid.npy").exists()


def test_the_first_load_maps_the_cache_not_the_parsed_matrix(text_file):
    emb = load_embedding(text_file)
    assert not emb.load_report.from_cache
    assert emb._grid_folder is not None and not emb._vectors.flags.owndata  # a view of the map
    assert load_embedding(text_file, use_cache=False).vectors.tobytes() == emb.vectors.tobytes()
