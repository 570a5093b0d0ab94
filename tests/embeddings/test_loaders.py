"""Loaders: every supported format on tiny files, and every bad-input case."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from wordgames.embeddings import Embedding, load_embedding
from wordgames.embeddings.loaders import detect_format, parse_text, parse_word2vec_binary
from wordgames.errors import DataFormatError, WordgamesError

WORDS = ["the", "cat", "dog"]
VECS = np.array([[0.1, 0.2, 0.3], [1.0, 0.0, -1.5], [-2.0, 0.5, 0.25]], dtype=np.float32)


def _text(rows, header=None):
    lines = [] if header is None else [header]
    lines += [w + " " + " ".join(repr(float(x)) for x in v) for w, v in rows]
    return "\n".join(lines) + "\n"


def _is_file_backed(arr) -> bool:
    while arr is not None:
        if isinstance(arr, np.memmap) or type(arr).__name__ == "mmap":
            return True
        arr = getattr(arr, "base", None)
    return False


def _write(tmp_path, name, content, mode="w"):
    p = tmp_path / name
    if mode == "w":
        p.write_text(content, encoding="utf-8")
    else:
        p.write_bytes(content)
    return p


def _binary(words, vecs, header=True, truncate=0):
    out = b""
    if header:
        out += f"{len(words)} {vecs.shape[1]}\n".encode()
    for w, v in zip(words, vecs, strict=True):
        out += w.encode() + b" " + struct.pack(f"<{len(v)}f", *v) + b"\n"
    return out[: len(out) - truncate] if truncate else out


@pytest.mark.parametrize(
    "fmt,name,header",
    [
        ("glove", "v.txt", None),
        ("word2vec", "v.txt", "3 3"),
        ("fasttext", "v.vec", "3 3"),
    ],
)
def test_text_formats_round_trip(tmp_path, fmt, name, header):
    p = _write(tmp_path, name, _text(zip(WORDS, VECS, strict=True), header))
    emb = load_embedding(p, fmt="auto")
    assert emb.words.tolist() == WORDS
    np.testing.assert_allclose(emb.vectors, VECS, rtol=1e-6)
    assert emb.load_report.n_rows_read == 3
    # explicit format gives the same
    emb2 = load_embedding(p, fmt=fmt, use_cache=False)
    np.testing.assert_array_equal(emb2.vectors, emb.vectors)


def test_detect_format(tmp_path):
    assert detect_format(_write(tmp_path, "a.txt", _text(zip(WORDS, VECS, strict=True)))) == "glove"
    assert (
        detect_format(_write(tmp_path, "b.txt", _text(zip(WORDS, VECS, strict=True), "3 3")))
        == "word2vec"
    )
    assert detect_format(tmp_path / "c.bin") == "word2vec-binary"
    assert detect_format(tmp_path / "c.npy") == "npy"


def test_text_with_trailing_spaces_and_crlf(tmp_path):
    content = "".join(
        f"{w} {' '.join(map(str, v))} \r\n" for w, v in zip(WORDS, VECS.tolist(), strict=True)
    )
    words, mat, _ = parse_text(_write(tmp_path, "v.txt", content))
    assert words == WORDS
    np.testing.assert_allclose(mat, VECS, rtol=1e-6)


def test_cache_is_used_second_time(tmp_path, monkeypatch):
    # the cache is keyed by content: another test's identical file would be a hit
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    p = _write(tmp_path, "v.txt", _text(zip(WORDS, VECS, strict=True)))
    first = load_embedding(p)
    second = load_embedding(p)
    assert not first.load_report.from_cache
    assert second.load_report.from_cache
    assert _is_file_backed(second.vectors)
    np.testing.assert_array_equal(first.vectors, second.vectors)
    assert first.fingerprint() == second.fingerprint()


def test_ragged_row_names_file_and_line(tmp_path):
    content = "the 0.1 0.2 0.3\ncat 1 0\ndog 1 2 3\n"
    p = _write(tmp_path, "ragged.txt", content)
    with pytest.raises(DataFormatError) as exc:
        load_embedding(p, use_cache=False)
    assert exc.value.line == 2 and "ragged.txt" in str(exc.value) and "3 values" in str(exc.value)


def test_header_dimension_mismatch(tmp_path):
    p = _write(tmp_path, "h.txt", _text(zip(WORDS, VECS, strict=True), "3 4"))
    with pytest.raises(DataFormatError) as exc:
        load_embedding(p, use_cache=False)
    assert exc.value.line == 1 and "4 dimensions" in str(exc.value)


def test_header_count_mismatch_is_repaired_and_counted(tmp_path):
    p = _write(tmp_path, "h.txt", _text(zip(WORDS, VECS, strict=True), "5 3"))
    emb = load_embedding(p, use_cache=False)
    assert len(emb) == 3
    assert emb.load_report.repairs == {"header_count_mismatch": 2}


@pytest.mark.parametrize("bad", ["nan", "inf", "-inf"])
def test_non_finite_values(tmp_path, bad):
    p = _write(tmp_path, "n.txt", f"the 0.1 0.2 0.3\ncat 1 {bad} 0\n")
    with pytest.raises(DataFormatError) as exc:
        load_embedding(p, use_cache=False)
    assert exc.value.line == 2 and "NaN or inf" in str(exc.value)


def test_non_numeric_value(tmp_path):
    p = _write(tmp_path, "x.txt", "the 0.1 0.2 0.3\ncat 1 abc 0\n")
    with pytest.raises(DataFormatError) as exc:
        load_embedding(p, use_cache=False)
    assert exc.value.line == 2


def test_duplicate_words_keep_first_and_count(tmp_path):
    rows = [
        ("the", VECS[0]),
        ("cat", VECS[1]),
        ("the", VECS[2]),
        ("dog", VECS[2]),
        ("cat", VECS[0]),
    ]
    emb = load_embedding(_write(tmp_path, "d.txt", _text(rows)), use_cache=False)
    assert emb.words.tolist() == ["the", "cat", "dog"]
    np.testing.assert_allclose(emb.vector("the"), VECS[0], rtol=1e-6)
    assert emb.load_report.duplicates_dropped == 2
    assert emb.load_report.repairs["duplicate_words_dropped"] == 2
    assert sorted(emb.load_report.duplicate_examples) == ["cat", "the"]


def test_bad_encoding_names_line(tmp_path):
    data = b"the 0.1 0.2 0.3\ncat 1 2 3\n" + b"d\xffg 1 2 3\n"
    p = _write(tmp_path, "enc.txt", data, mode="b")
    with pytest.raises(DataFormatError) as exc:
        load_embedding(p, fmt="glove", use_cache=False)
    assert exc.value.line == 3 and "UTF-8" in str(exc.value)


def test_word2vec_binary(tmp_path):
    p = _write(tmp_path, "v.bin", _binary(WORDS, VECS), mode="b")
    emb = load_embedding(p)
    assert emb.words.tolist() == WORDS
    np.testing.assert_array_equal(emb.vectors, VECS)


def test_word2vec_binary_without_newlines(tmp_path):
    data = b"3 3\n" + b"".join(
        w.encode() + b" " + struct.pack("<3f", *v) for w, v in zip(WORDS, VECS, strict=True)
    )
    words, mat, _ = parse_word2vec_binary(_write(tmp_path, "n.bin", data, mode="b"))
    assert words == WORDS
    np.testing.assert_array_equal(mat, VECS)


def test_word2vec_binary_truncated(tmp_path):
    p = _write(tmp_path, "t.bin", _binary(WORDS, VECS, truncate=6), mode="b")
    with pytest.raises(DataFormatError) as exc:
        load_embedding(p, use_cache=False)
    assert "truncated" in str(exc.value) and exc.value.line == 3


def test_word2vec_binary_missing_header(tmp_path):
    p = _write(tmp_path, "nh.bin", _binary(WORDS, VECS, header=False), mode="b")
    with pytest.raises(DataFormatError) as exc:
        load_embedding(p, fmt="word2vec-binary", use_cache=False)
    assert exc.value.line == 1


def test_npy_with_word_list(tmp_path):
    np.save(tmp_path / "m.npy", VECS)
    (tmp_path / "m.txt").write_text("\n".join(WORDS) + "\n")
    emb = load_embedding(tmp_path / "m.npy")
    assert emb.words.tolist() == WORDS
    np.testing.assert_array_equal(emb.vectors, VECS)


def test_npy_row_count_mismatch(tmp_path):
    np.save(tmp_path / "m.npy", VECS)
    (tmp_path / "m.txt").write_text("the\ncat\n")
    with pytest.raises(DataFormatError, match="2 words but the matrix"):
        load_embedding(tmp_path / "m.npy")


def test_gensim_keyedvectors(tmp_path):
    gensim_models = pytest.importorskip("gensim.models")
    kv = gensim_models.KeyedVectors(vector_size=3)
    kv.add_vectors(WORDS, VECS)
    path = tmp_path / "v.kv"
    kv.save(str(path))
    emb = load_embedding(path)
    assert emb.words.tolist() == WORDS
    np.testing.assert_array_equal(emb.vectors, VECS)


def test_unknown_spec():
    with pytest.raises(WordgamesError, match="neither a built-in name"):
        load_embedding("no-such-embedding")


def test_builtin_glove(glove):
    assert len(glove) == 400_000 and glove.dim == 50
    assert glove.words[:4].tolist() == ["the", ",", ".", "of"]
    # a known GloVe 6B neighbour relation
    assert glove.nearest("king", 3)[0][0] == "prince"


def test_embedding_is_not_mutable():
    emb = Embedding(WORDS, VECS)
    with pytest.raises(ValueError):
        emb.vectors[0, 0] = 5.0
    with pytest.raises(ValueError):
        emb.unit[0, 0] = 5.0


class _CountingBytes(bytes):
    """bytes that count how many bytes their slices copy."""

    copied = 0

    def __getitem__(self, key):
        out = super().__getitem__(key)
        if isinstance(key, slice):
            type(self).copied += len(out)
        return out


def test_the_word2vec_binary_scan_copies_each_byte_a_bounded_number_of_times():
    """Issue 22, item 2: the record scan copied the rest of the file for every record
    (quadratic: 80,000 words did not load in 300 s). Counted, not timed."""
    import struct

    from wordgames.embeddings.textformats import _scan_records

    n, dim = 3000, 4
    body = b"".join(
        f"w{i}".encode() + b" " + struct.pack(f"<{dim}f", *([float(i)] * dim)) + b"\n"
        for i in range(n)
    )
    data = _CountingBytes(b"%d %d\n" % (n, dim) + body)
    _CountingBytes.copied = 0
    words, offsets, _ = _scan_records(Path("v.bin"), data, data.index(b"\n") + 1, n, dim)
    assert len(words) == n and words[-1] == f"w{n - 1}"
    assert _CountingBytes.copied <= 4 * len(data), _CountingBytes.copied / len(data)


@pytest.mark.parametrize(
    "text",
    [
        "3 2\na 1 2\nb 3 4\nc 5 6\n",  # a header
        "a 1 2\nb 3 4\nc 5 6\n\n\n",  # trailing blank lines
        "a 1 2 \nb 3 4 \nc 5 6 ",  # trailing spaces, no final newline
        "3 2\r\na 1 2\r\nb 3 4\r\nc 5 6\r\n\r\n",  # CRLF
        "\ufeffa 1 2\nb\u00e9 3 4\nc 5 6\n",  # BOM, non-ASCII word
    ],
)
def test_in_place_fast_parser_agrees_with_the_careful_one(tmp_path, text):
    """The fast parser reads the body in place by offsets; the careful one splits the text."""
    from wordgames.embeddings import textformats as tf

    p = tmp_path / "e.txt"
    p.write_bytes(text.encode())
    words, mat, report = tf.parse_text(p)
    data = tf._read_utf8(p, tf.LoadReport(source=str(p)))
    header, lo, start = tf._split_header(p, data, "auto")
    end = tf._stripped_end(data)
    fast = tf._fast_rows(data, (lo, end), start)
    slow = tf._slow_rows(p, data[lo:end].decode(), start, truncated_end=False)
    assert fast is not None and fast[0] == slow[0] == words
    assert np.array_equal(fast[1], slow[1].astype(np.float32))
    assert np.array_equal(mat, np.array([[1, 2], [3, 4], [5, 6]], dtype=np.float32))
    assert [fast[2](i) for i in range(3)] == [slow[2](i) for i in range(3)]
    assert report.n_rows_read == 3
