"""Degenerate embeddings, control characters in words and messages that name the real cause."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from wordgames.embeddings import load_embedding
from wordgames.embeddings.loaders import detect_format
from wordgames.embeddings.vocab import read_word_list
from wordgames.errors import DataFormatError

WORDS = [f"w{i}" for i in range(50)]
VECS = np.random.default_rng(0).normal(size=(50, 3)).astype(np.float32)


def _file(tmp_path, name, content):
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return p


def _load(p, **kw):
    return load_embedding(p, use_cache=False, **kw)


def _error(p, **kw) -> DataFormatError:
    with pytest.raises(DataFormatError) as exc:
        _load(p, **kw)
    assert str(p) in str(exc.value)  # every message names the file
    return exc.value


def _binary(words, vecs, header: str) -> bytes:
    out = header.encode()
    for w, v in zip(words, vecs, strict=True):
        out += w.encode() + b" " + struct.pack(f"<{len(v)}f", *v) + b"\n"
    return out


# --------------------------------------------------------------------------- degenerate files
@pytest.mark.parametrize(
    "content,expected,line",
    [
        ("", "the file is empty", None),
        ("\n\n", "only blank lines", None),
        ("3 3\n", "promises 3 rows of 3 dimensions but no vector rows follow", None),
        ("0 0\n", "0 dimensions", 1),
        ("2 0\na\nb\n", "0 dimensions", 1),
        ("a\nb\n", "found only 'a'", 1),
        ("a 3e38 3e38 3e38\nb 1 2 3\n", "overflows float32", 1),
        ("b 1 2 3\na 1e-30 1e-30 -1e-30\n", "underflows float32", 2),
        ("a 1 2 3\nb 1e39 0 0\n", "too large for float32", 2),
        ("a 1 2 3\nb nan 0 0\n", "NaN or infinite", 2),
        ("a 1 2 3\nb 1_0 0 0\n", "'1_0' is not a number", 2),
        ("a 1 2 3\nb 1  2\n", "empty field", 2),
    ],
)
def test_degenerate_text_files_are_rejected(tmp_path, content, expected, line):
    err = _error(_file(tmp_path, "bad.txt", content))
    assert expected in err.detail and err.line == line


def test_all_zero_rows_become_out_of_vocabulary(tmp_path):
    emb = _load(_file(tmp_path, "z.txt", "a 1 2 3\nb 0 0 0\nc 0 1 0\nd -0 0 0\n"))
    assert emb.words.tolist() == ["a", "c"] and "b" not in emb
    assert emb.load_report.repairs == {"zero_rows_dropped": 2}
    assert emb.load_report.repair_lines == [
        "2 all-zero vector(s) dropped (out of vocabulary): 'b', 'd'"
    ]
    with pytest.raises(DataFormatError, match="no usable vectors"):
        _load(_file(tmp_path, "allzero.txt", "a 0 0\nb 0 0\n"))


@pytest.mark.parametrize(
    "matrix,expected",
    [
        (np.ones((2, 2), dtype=np.complex64), "complex numbers"),
        (np.zeros((2, 0)), "0 dimensions"),
        (np.zeros((0, 3)), "holds no vectors"),
        (np.array([[1e300, 1.0], [1.0, 2.0]]), "too large for float32"),
        (np.array([["a", "b"], ["c", "d"]]), "<U1 values"),
        (np.ones(2), "2-D"),
    ],
)
def test_degenerate_npy_is_rejected(tmp_path, matrix, expected):
    np.save(tmp_path / "m.npy", matrix)
    n = matrix.shape[0] if matrix.ndim == 2 else 2
    (tmp_path / "m.txt").write_text("".join(f"w{i}\n" for i in range(n)))
    err = _error(tmp_path / "m.npy")
    assert expected in err.detail


def test_npy_of_objects_is_never_unpickled(tmp_path):
    np.save(tmp_path / "m.npy", np.array([[1, "x"]], dtype=object), allow_pickle=True)
    (tmp_path / "m.txt").write_text("a\n")
    assert "not a readable .npy" in _error(tmp_path / "m.npy").detail


def test_npy_stays_memory_mapped_and_bad_words_are_dropped(tmp_path):
    np.save(tmp_path / "m.npy", np.arange(1, 13, dtype=np.float32).reshape(4, 3))
    (tmp_path / "m.txt").write_bytes(b"\xef\xbb\xbfa\r\nb\tc\r\n\r\nd\r\n")
    emb = _load(tmp_path / "m.npy")
    assert emb.words.tolist() == ["a", "d"]
    assert emb.load_report.repairs == {"bom_stripped": 1, "bad_words_dropped": 2}
    assert "'b\\tc', ''" in emb.load_report.repair_lines[1]


# --------------------------------------------------------------------------- words
@pytest.mark.parametrize(
    "bad", ["a\x00b", "\x1b[31m", "x\x85", "line\u2028sep", "bo\ufeffm", "\x7f"]
)
def test_control_characters_in_text_words_are_dropped_and_counted(tmp_path, bad):
    p = _file(tmp_path, "c.txt", f"the 1 2 3\n{bad} 4 5 6\ndog 7 8 9\n")
    emb = _load(p)
    assert emb.words.tolist() == ["the", "dog"]
    assert emb.load_report.repairs == {"bad_words_dropped": 1}
    assert repr(bad) in emb.load_report.repair_lines[0]


def test_empty_word_is_dropped(tmp_path):
    emb = _load(_file(tmp_path, "e.txt", "the 1 2 3\n 4 5 6\n"))
    assert emb.words.tolist() == ["the"] and emb.load_report.repairs == {"bad_words_dropped": 1}


def test_control_characters_in_binary_words_are_dropped(tmp_path):
    words = ["ok", "b\x00d", "fine"]
    p = _file(tmp_path, "c.bin", _binary(words, VECS[:3], "3 3\n"))
    emb = _load(p)
    assert emb.words.tolist() == ["ok", "fine"]
    assert emb.load_report.repairs == {"bad_words_dropped": 1}


def test_word_list_rejects_control_characters(tmp_path):
    p = _file(tmp_path, "w.txt", "cat\ndo\tg\n")
    with pytest.raises(DataFormatError) as exc:
        read_word_list(p)
    assert exc.value.line == 2 and "U+0009" in str(exc.value)
    # other Unicode line breaks do not split a word silently: they are refused too
    with pytest.raises(DataFormatError, match="U\\+0085"):
        read_word_list(_file(tmp_path, "n.txt", "cat\nd\x85og\n"))


# --------------------------------------------------------------------------- messages
def test_bom_before_word2vec_header_is_stripped_and_counted(tmp_path):
    p = _file(tmp_path, "bom.txt", "\ufeff2 3\na 1 2 3\nb 4 5 6\n")
    assert detect_format(p) == "word2vec"
    emb = _load(p)
    assert emb.words.tolist() == ["a", "b"] and emb.load_report.format == "word2vec"
    assert emb.load_report.repairs == {"bom_stripped": 1}
    assert "byte-order mark" in emb.load_report.repair_lines[0]


@pytest.mark.parametrize("header", ["2 8\n", ""])
def test_tab_separated_file_says_tabs(tmp_path, header):
    rows = "".join(f"{w}\t" + "\t".join(["0.5"] * 8) + "\n" for w in ("a", "b"))
    err = _error(_file(tmp_path, "t.txt", header + rows))
    assert "separated by tabs" in err.detail and err.line == (2 if header else 1)
    assert "dimensions" not in err.detail


@pytest.mark.parametrize("dim", [2, 4, 5])
def test_binary_header_with_wrong_dimension_names_it(tmp_path, dim):
    p = _file(tmp_path, "d.bin", _binary(WORDS, VECS, f"50 {dim}\n"))
    err = _error(p)
    assert err.line == 1
    assert f"header says {dim} dimensions but the records hold 3 values each" in err.detail
    assert "UTF-8" not in err.detail


def test_binary_header_promising_fewer_rows_is_detected(tmp_path):
    emb = _load(_file(tmp_path, "few.bin", _binary(WORDS, VECS, "10 3\n")))
    assert len(emb) == 50
    np.testing.assert_array_equal(emb.vectors, VECS)
    assert emb.load_report.repairs == {"header_count_mismatch": 40}
    assert emb.load_report.repair_lines == [
        "the header promises 10 records but 50 follow: all 50 were read"
    ]


def test_binary_header_promising_more_rows_is_a_counted_truncation(tmp_path):
    emb = _load(_file(tmp_path, "more.bin", _binary(WORDS, VECS, "60 3\n")))
    assert len(emb) == 50 and emb.load_report.repairs == {"header_count_mismatch": 10}
    assert "truncated?" in emb.load_report.repair_lines[0]
    with pytest.raises(DataFormatError, match="none follow"):
        _load(_file(tmp_path, "hdr.bin", b"5 3\n"))


def test_binary_extra_bytes_that_are_not_records(tmp_path):
    data = _binary(WORDS[:3], VECS[:3], "3 3\n") + b"\xff\xfe junk"
    err = _error(_file(tmp_path, "junk.bin", data))
    assert "not whole records" in err.detail and err.line == 4


def test_truncated_text_file_is_said_in_words(tmp_path):
    emb = _load(_file(tmp_path, "t.txt", "5 3\na 1 2 3\nb 4 5 6\n"))
    assert emb.load_report.repairs == {"header_count_mismatch": 3}
    assert emb.load_report.repair_lines == [
        "the header promises 5 rows but the file holds 2 (truncated?): the 2 rows found were used"
    ]
    err = _error(_file(tmp_path, "mid.txt", "3 3\na 1 2 3\nb 4 5 6\nc 7 8"))
    assert err.line == 4 and "looks truncated" in err.detail


def test_missing_final_newline_is_counted(tmp_path):
    emb = _load(_file(tmp_path, "n.txt", "a 1 2 3\nb 4 5 6"))
    assert len(emb) == 2 and emb.load_report.repairs == {"no_final_newline": 1}


def test_binary_file_without_bin_suffix_is_detected(tmp_path):
    p = _file(tmp_path, "vectors", _binary(WORDS, VECS, "50 3\n"))
    assert detect_format(p) == "word2vec-binary"
    assert _load(p).words.tolist() == WORDS


def test_folder_given_as_embedding(tmp_path):
    from wordgames.errors import WordgamesError

    with pytest.raises(WordgamesError, match="is a folder"):
        _load(tmp_path)
