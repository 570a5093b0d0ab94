"""The cache of converted files: keyed by content, checked on every open, rebuilt when damaged."""

from __future__ import annotations

import json
import os
import struct
import time

import numpy as np
import pytest

from wordgames.embeddings import load_embedding
from wordgames.embeddings.cache import (
    FULL_HASH_BYTES,
    open_vector_folder,
    read_vector_folder,
    source_sha256,
    vector_folder_ok,
    write_vector_folder,
)
from wordgames.errors import WordgamesError

TEXT = "the 1 2 3\ncat 4 5 6\ndog 7 8 9\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("WORDGAMES_CACHE", str(folder))
    return folder


@pytest.fixture
def cached_file(tmp_path, cache):
    p = tmp_path / "v.txt"
    p.write_text(TEXT)
    assert not load_embedding(p).load_report.from_cache
    assert load_embedding(p).load_report.from_cache
    (entry,) = (cache / "vectors").iterdir()
    return p, entry


def _reload_rebuilds(p, entry, what):
    emb = load_embedding(p)
    assert not emb.load_report.from_cache
    assert emb.load_report.repairs == {"cache_rebuilt": 1}
    assert str(entry) in emb.load_report.repair_lines[0] and what in emb.load_report.repair_lines[0]
    assert emb.words.tolist() == ["the", "cat", "dog"]
    np.testing.assert_array_equal(emb.vectors, [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    again = load_embedding(p)  # rebuilt: the cache serves it again, without the note
    assert again.load_report.from_cache and again.load_report.repairs == {}


def test_truncated_vectors_are_rebuilt(cached_file):
    p, entry = cached_file
    data = (entry / "vectors.npy").read_bytes()
    (entry / "vectors.npy").write_bytes(data[:-5])
    _reload_rebuilds(p, entry, "vectors.npy has")


def test_truncated_words_are_rebuilt(cached_file):
    p, entry = cached_file
    data = (entry / "words.txt").read_bytes()
    (entry / "words.txt").write_bytes(data[:-4])
    _reload_rebuilds(p, entry, "words.txt has")


def test_edited_words_of_same_size_are_rebuilt(cached_file):
    p, entry = cached_file
    (entry / "words.txt").write_bytes(b"the\ncat\ncow\n")
    _reload_rebuilds(p, entry, "words.txt differs")


def test_nan_written_into_the_matrix_is_rebuilt(cached_file):
    p, entry = cached_file
    data = bytearray((entry / "vectors.npy").read_bytes())
    data[-4:] = struct.pack("<f", float("nan"))
    (entry / "vectors.npy").write_bytes(bytes(data))
    _reload_rebuilds(p, entry, "vectors.npy differs")


def test_missing_or_garbled_manifest_is_rebuilt(cached_file):
    p, entry = cached_file
    (entry / "manifest.json").write_text("{not json")
    _reload_rebuilds(p, entry, "no readable manifest")
    manifest = json.loads((entry / "manifest.json").read_text())
    assert manifest["n_rows"] == 3 and manifest["dim"] == 3 and len(manifest["words_sha256"]) == 64


def test_edited_source_with_same_size_and_mtime_is_not_stale(cached_file):
    p, _ = cached_file
    st = p.stat()
    p.write_text(TEXT.replace("7 8 9", "7 8 0"))
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert p.stat().st_size == st.st_size and p.stat().st_mtime_ns == st.st_mtime_ns
    emb = load_embedding(p)
    np.testing.assert_array_equal(emb.vector("dog"), [7, 8, 0])


def test_cache_is_keyed_by_content_not_path(tmp_path, cache):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(TEXT)
    b.write_text(TEXT)
    load_embedding(a)
    emb = load_embedding(b)
    assert emb.load_report.from_cache and emb.source == str(b) and emb.name == "b"
    assert emb.load_report.source == str(b)


def test_source_hash_is_remembered_only_for_settled_files(tmp_path, cache):
    p = tmp_path / "f.txt"
    p.write_text("x")
    source_sha256(p)
    assert not (cache / "hashes").exists()  # just written: its times may not move on an edit
    old = 1_000_000_000 * 1_000_000_000  # 2001
    os.utime(p, ns=(old, old))  # the change time is now: still unsettled
    source_sha256(p)
    assert not (cache / "hashes").exists()


def test_settled_source_hash_is_remembered(tmp_path, cache, monkeypatch):
    import wordgames.embeddings.cache as cache_mod

    p = tmp_path / "f.txt"
    p.write_text("x")
    later = time.time_ns() + 10_000_000_000
    monkeypatch.setattr(cache_mod.time, "time_ns", lambda: later)  # the file looks settled
    digest = source_sha256(p)
    assert len(list((cache / "hashes").iterdir())) == 1

    def no_hashing(path):
        raise AssertionError("the remembered hash should have been used")

    monkeypatch.setattr(cache_mod, "_sha256_chunks", no_hashing)
    assert source_sha256(p) == digest
    p.write_text("y")  # an edit moves the change time: the remembered hash no longer applies
    with pytest.raises(AssertionError, match="remembered"):
        source_sha256(p)


def test_empty_embedding_and_carriage_returns_round_trip(tmp_path):
    empty = read_vector_folder(
        write_vector_folder(tmp_path / "e", [], np.zeros((0, 3))), name="e", source="s", fmt="f"
    )
    assert empty is not None and len(empty) == 0 and empty.dim == 3
    words = ["a\r", "b", "c\r\n"[:-1], " d "]
    emb = read_vector_folder(
        write_vector_folder(tmp_path / "cr", words, np.ones((4, 2))), name="c", source="s", fmt="f"
    )
    assert emb.words.tolist() == words


def test_words_that_cannot_be_written_are_refused(tmp_path):
    with pytest.raises(WordgamesError, match="cannot be written"):
        write_vector_folder(tmp_path / "x", ["a\nb"], np.ones((1, 2)))
    with pytest.raises(WordgamesError, match="cannot be written"):
        write_vector_folder(tmp_path / "y", ["\ud800"], np.ones((1, 2)))


def test_damaged_folder_loses_its_done_marker(tmp_path):
    folder = write_vector_folder(tmp_path / "f", ["a", "b"], np.eye(2))
    assert vector_folder_ok(folder)
    with open(folder / "vectors.npy", "r+b") as fh:  # same size, other bytes
        fh.seek(-1, os.SEEK_END)
        fh.write(b"\x7f")
    emb, problem = open_vector_folder(folder, name="f", source="s", fmt="f")
    assert emb is None and "differs from the manifest" in problem
    assert not (folder / "done").exists() and not vector_folder_ok(folder)


def test_large_matrix_hashes_a_sample(tmp_path, monkeypatch):
    import wordgames.embeddings.cache as cache_mod

    monkeypatch.setattr(cache_mod, "FULL_HASH_BYTES", 1024)  # 1 KiB: every 12th row of 1,000
    mat = np.random.default_rng(0).normal(size=(1000, 3)).astype(np.float32)
    folder = write_vector_folder(tmp_path / "big", [f"w{i}" for i in range(1000)], mat)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["matrix_hash_step"] == 12 and vector_folder_ok(folder)
    for row, damaged in ((0, True), (999, True), (12 * 7, True)):
        m = np.load(folder / "vectors.npy", mmap_mode="r+")
        m[row, 0] += 1.0
        m.flush()
        del m
        assert vector_folder_ok(folder) is not damaged
        write_vector_folder(folder, [f"w{i}" for i in range(1000)], mat)
    assert FULL_HASH_BYTES == 256 << 20  # GloVe 6B 50d (80 MB) is hashed whole


def test_glove_sized_cache_opens_fast(tmp_path, glove):
    """Opening and checking a 400,000 x 50 folder takes ~0.15 s (1 s allowed on a busy machine)."""
    folder = write_vector_folder(tmp_path / "g", glove.words.tolist(), glove.vectors)
    best = min(
        _timed(lambda: read_vector_folder(folder, name="g", source="s", fmt="f")) for _ in range(3)
    )
    assert best < 1.0, best


def _timed(fn) -> float:
    t = time.perf_counter()
    emb = fn()
    assert emb is not None and len(emb) == 400_000
    return time.perf_counter() - t


def test_folder_from_before_manifests_is_checked_against_its_sha(tmp_path):
    from wordgames.embeddings import Embedding

    words, mat = ["a", "b", "c"], np.arange(6, dtype=np.float32).reshape(3, 2)
    sha = Embedding(words, mat).fingerprint()
    for name, done in (("good", sha), ("stale", "0" * 64), ("plain", "ok")):
        folder = tmp_path / name
        folder.mkdir()
        np.save(folder / "vectors.npy", mat)
        (folder / "words.txt").write_text("a\nb\nc\n")
        (folder / "done").write_text(done)
    emb = read_vector_folder(tmp_path / "good", name="g", source="s", fmt="f")
    assert emb is not None and emb.words.tolist() == words and emb.fingerprint() == sha
    assert (tmp_path / "good" / "manifest.json").exists()
    assert (tmp_path / "good" / "done").read_text() == sha
    for name in ("stale", "plain"):
        assert read_vector_folder(tmp_path / name, name="x", source="s", fmt="f") is None
        assert not (tmp_path / name / "done").exists()
