"""The text reader in blocks gives what the whole-file reader gives: rows, repairs, errors.

Issue 40: a large word2vec/GloVe text file is read in blocks cut at line ends, never held
whole. Every case here is read both ways, with blocks from a few lines to the whole file.
"""

from __future__ import annotations

import gzip

import numpy as np
import pytest

import wordgames.embeddings.textstream as ts
import wordgames.embeddings.validate as validate
from wordgames.embeddings.textformats import parse_text
from wordgames.errors import DataFormatError


def _rows(n=300, dim=5, seed=0) -> str:
    rng = np.random.default_rng(seed)
    return "".join(
        f"w{i} " + " ".join(f"{v:.4f}" for v in rng.normal(size=dim)) + "\n" for i in range(n)
    )


GLOVE = _rows()
CASES = {
    "glove": GLOVE.encode(),
    "word2vec": ("300 5\n" + GLOVE).encode(),
    "crlf": ("300 5\n" + GLOVE).replace("\n", "\r\n").encode(),
    "bom and blank lines at the end": ("\ufeff" + GLOVE + "\n\n\n").encode(),
    "no final newline": GLOVE.rstrip("\n").encode(),
    "non-ascii word": GLOVE.replace("w100 ", "wé100 ", 1).encode(),
    "header count": ("310 5\n" + GLOVE).encode(),
    "bad byte": GLOVE.encode().replace(b"w120 ", b"w\xff120 ", 1),
    "bad value": GLOVE.replace("w200 ", "w200 x", 1).encode(),
    "another dimension": GLOVE.replace("w250 ", "w250 1.0 ", 1).encode(),
    "blank line inside": GLOVE.replace("w150 ", "\nw150 ", 1).encode(),
    "a repeated word": GLOVE.replace("w7 ", "w6 ", 1).encode(),
    "only blank lines": b"\n\n\n",
    "header only": b"3 5\n",
    "cr only": GLOVE.replace("\n", "\r").encode(),
}


def _read(path, monkeypatch, *, stream: bool, block: int):
    monkeypatch.setattr(ts, "STREAM_BYTES", 0 if stream else 1 << 40)
    monkeypatch.setattr(ts, "BLOCK_BYTES", block)
    try:
        words, mat, report = parse_text(path)
    except DataFormatError as exc:
        return "error", str(exc)
    return "ok", words, mat.tobytes(), mat.shape, dict(report.repairs), report.repair_lines


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("block", [64, 257, 4096, 1 << 20])
def test_blocks_read_what_the_whole_file_reader_reads(tmp_path, monkeypatch, name, block):
    path = tmp_path / "v.txt"
    path.write_bytes(CASES[name])
    whole = _read(path, monkeypatch, stream=False, block=block)
    assert _read(path, monkeypatch, stream=True, block=block) == whole


def test_errors_name_the_line_deep_in_the_file(tmp_path, monkeypatch):
    path = tmp_path / "v.txt"
    path.write_bytes(CASES["bad byte"])
    got = _read(path, monkeypatch, stream=True, block=64)
    assert got == ("error", f"{path}, line 121: not valid UTF-8 (invalid start byte); "
                   "re-encode the file as UTF-8")  # fmt: skip


def test_a_gzip_file_streams_with_its_bounds(tmp_path, monkeypatch):
    plain = tmp_path / "v.txt"
    plain.write_bytes(CASES["word2vec"])
    packed = tmp_path / "v.txt.gz"
    packed.write_bytes(gzip.compress(CASES["word2vec"]))
    whole = _read(plain, monkeypatch, stream=False, block=4096)
    assert _read(packed, monkeypatch, stream=True, block=4096)[1:3] == whole[1:3]
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(packed.read_bytes()[:-20])
    assert "cut short" in _read(cut, monkeypatch, stream=True, block=4096)[1]
    bomb = tmp_path / "bomb.txt.gz"
    bomb.write_bytes(gzip.compress(b"a" + b" 0" * 50_000_000 + b"\n"))
    monkeypatch.setattr(ts, "GZIP_MAX_RATIO", 10)
    assert "gzip bomb" in _read(bomb, monkeypatch, stream=True, block=1 << 20)[1]


def test_a_line_longer_than_a_block_is_an_error_not_an_allocation(tmp_path, monkeypatch):
    path = tmp_path / "v.txt"
    path.write_bytes(b"w " + b"0.5 " * 100 + b"\n")
    got = _read(path, monkeypatch, stream=True, block=64)
    assert got[0] == "error" and "a line longer than 64 bytes" in got[1]


def test_the_matrix_is_allocated_once(tmp_path, monkeypatch):
    """Peak memory of a streamed read: the matrix and a few blocks, not the file."""
    import tracemalloc

    n, dim = 20_000, 50
    path = tmp_path / "big.txt"
    path.write_bytes(_rows(n, dim, seed=1).encode())
    size = path.stat().st_size
    # the values are checked in chunks of rows (a constant, 65,536 rows: here the whole file)
    monkeypatch.setattr(validate, "_CHUNK", 1024)
    parse_text(path)  # the imports (pandas) are not the reader's memory
    peaks = {}
    for stream in (True, False):
        monkeypatch.setattr(ts, "STREAM_BYTES", 0 if stream else 1 << 40)
        monkeypatch.setattr(ts, "BLOCK_BYTES", size // 20)
        tracemalloc.start()
        words, mat, _ = parse_text(path)
        peaks[stream] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert mat.shape == (n, dim) and len(words) == n
    matrix = n * dim * 4
    # the text is 1.9x the matrix here: the whole-file reader holds all of it and more; in
    # blocks, the matrix, the words (1.5 MB here) and a block's parse (a 20th of the file)
    assert peaks[True] < matrix + 0.75 * size < peaks[False], (peaks, matrix, size)
    assert peaks[True] < 0.5 * peaks[False], peaks


def test_the_readers_cases_pass_in_blocks_too():
    """Every bad-input case of the text readers, with every file read in 4 KiB blocks."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, WORDGAMES_STREAM_BYTES="0", WORDGAMES_BLOCK_BYTES="4096")
    files = ["tests/embeddings/test_bad_input.py", "tests/test_reader_defects.py"]
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
         *files], cwd=root, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout[-3000:]
    assert " passed" in out.stdout and " failed" not in out.stdout
