"""The word2vec binary reader over a memory map: the same results, a window of the file held.

Issue 40: a 2 M x 300 binary file (2.4 GB) was read whole beside its matrix. It is now read
through a read-only memory map whose pages are dropped behind each of the two passes.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import wordgames.embeddings.textformats as tf
from wordgames.errors import DataFormatError


def _binary(n=500, dim=7, seed=0, header=None, tail=b"", sep=b"") -> bytes:
    rng = np.random.default_rng(seed)
    vecs = rng.normal(size=(n, dim)).astype("<f4")
    head = (header or f"{n} {dim}").encode() + b"\n"
    return head + b"".join(f"w{i} ".encode() + v.tobytes() + sep for i, v in enumerate(vecs)) + tail


CASES = {
    "plain": _binary(),
    "newline after each vector": _binary(sep=b"\n"),
    "bom": b"\xef\xbb\xbf" + _binary(),
    "header promises more": _binary(header="520 7"),
    "header promises fewer": _binary(header="480 7"),
    "truncated": _binary()[:-13],
    "wrong dimension in the header": _binary(header="500 6"),
    "blank lines at the end": _binary(tail=b"\n\n\r\n"),
    "bad utf-8 word": _binary().replace(b"w250 ", b"w\xff50 ", 1),
    "empty": b"",
    "only spaces": b"  \n \t ",
    "header only": b"3 5\n",
}


def _read(path):
    try:
        words, mat, report = tf.parse_word2vec_binary(path)
    except DataFormatError as exc:
        return "error", str(exc)
    return "ok", words, mat.tobytes(), mat.shape, dict(report.repairs), report.repair_lines


@pytest.mark.parametrize("name", sorted(CASES))
def test_mapped_reads_what_the_whole_file_reader_reads(tmp_path, monkeypatch, name):
    path = tmp_path / "v.bin"
    path.write_bytes(CASES[name])
    monkeypatch.setattr(tf._Mapped, "WINDOW", 4096)  # pages dropped every few records
    mapped = _read(path)
    monkeypatch.setattr(tf._Mapped, "__enter__", lambda self: tf.read_bytes(self.path))
    assert mapped == _read(path)


def test_the_cases_are_read_and_refused_as_expected(tmp_path):
    """A check that the comparison above compares something: results and errors both occur."""
    kinds = {}
    for name, data in CASES.items():
        path = tmp_path / f"{len(kinds)}.bin"
        path.write_bytes(data)
        kinds[name] = _read(path)[0]
    assert kinds["plain"] == kinds["header promises more"] == "ok"
    assert kinds["truncated"] == kinds["empty"] == kinds["bad utf-8 word"] == "error"


_PEAK = """
import json, sys
import numpy as np
import wordgames.embeddings.textformats as tf
import wordgames.embeddings.validate as validate

def status(key):
    line = next(x for x in open("/proc/self/status") if x.startswith(key))
    return int(line.split()[1]) * 1024

if sys.argv[2] == "whole":
    tf._Mapped.__enter__ = lambda self: tf.read_bytes(self.path)
tf._Mapped.WINDOW = 1 << 20
validate._CHUNK = 1024  # the values are checked in chunks of rows (65,536: the whole file here)
tf.parse_word2vec_binary(sys.argv[3])  # the imports the reader makes are not its memory
before = status("VmHWM:")
words, mat, _ = tf.parse_word2vec_binary(sys.argv[1])
print(json.dumps({"grew": status("VmHWM:") - before, "n": len(words)}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_the_file_is_not_held_beside_the_matrix(tmp_path):
    n, dim = 20_000, 400  # wide rows: the words are small beside the vectors
    path = tmp_path / "big.bin"
    path.write_bytes(_binary(n, dim, seed=1))
    small = tmp_path / "small.bin"
    small.write_bytes(_binary())
    size, matrix = path.stat().st_size, n * dim * 4
    grew = {}
    for how in ("mapped", "whole"):
        out = subprocess.run([sys.executable, "-c", _PEAK, str(path), how, str(small)],
                             capture_output=True, text=True, check=True, timeout=120)  # fmt: skip
        got = json.loads(out.stdout)
        assert got["n"] == n
        grew[how] = got["grew"]
    # whole: the file and the matrix (and the words); mapped: the matrix, the words, a window
    assert grew["mapped"] < matrix + 0.6 * size < grew["whole"], (grew, matrix, size)
