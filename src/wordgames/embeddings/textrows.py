"""The rows of a text embedding file (word2vec text, fastText ``.vec``, GloVe).

Shared by the whole-file reader (:mod:`wordgames.embeddings.textformats`) and the block
reader (:mod:`wordgames.embeddings.textstream`): the header, the fast and careful row
parsers and the checks every text read ends with, so both give the same rows and errors.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import numpy as np

from wordgames.embeddings.core import LoadReport
from wordgames.embeddings.validate import finish
from wordgames.errors import DataFormatError
from wordgames.textio import strip_bom as _split_bom

_NUM = (
    r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    r"|[+-]?(?:[nN][aA][nN]|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)"
)
_NUMBER = re.compile(_NUM)
_VALUES = re.compile(f"(?:{_NUM})(?: (?:{_NUM}))*")
#: the printable ASCII and the non-ASCII bytes: what ``translate`` leaves when they are deleted
#: are the LFs and the ASCII control characters (tab, CR, NUL, escape...)
_PLAIN_BYTES = bytes(range(32, 127)) + bytes(range(128, 256))
#: the non-ASCII control characters in UTF-8: U+0080-U+009F, U+2028, U+2029 and U+FEFF
_WIDE_CONTROL = re.compile(rb"\xc2[\x80-\x9f]|\xe2\x80[\xa8\xa9]|\xef\xbb\xbf")
_NOT_BLANK = re.compile(rb"[^ \n]")
_MAX_WORD_BYTES = 10_000


def detect_header(first_line: str) -> tuple[int, int] | None:
    """``(n_words, dim)`` when the line is a word2vec header ``"n dim"``, else ``None``.

    >>> detect_header("400000 50"), detect_header("the 0.1 0.2"), detect_header("3 ²")
    ((400000, 50), None, None)
    >>> detect_header("9" * 4400 + " 3")
    """
    parts = first_line.split()
    # at most 18 digits: a count no file holds is no header (and int() of 4,300 digits raises)
    if len(parts) == 2 and all(p.isascii() and p.isdigit() and len(p) <= 18 for p in parts):
        return int(parts[0]), int(parts[1])
    return None


def strip_bom(text: str, report: LoadReport) -> str:
    """``text`` without a leading byte-order mark, counted in ``report``."""
    text, had = _split_bom(text)
    if had:
        report.repair(
            "bom_stripped", 1, "a byte-order mark (U+FEFF) before the first line was skipped"
        )
    return text


# --------------------------------------------------------------------------- text rows
def _newlines_if_clean(data: bytes) -> int | None:
    """The number of LFs in ``data`` (valid UTF-8), or ``None`` when it holds another control."""
    rest = data.translate(None, _PLAIN_BYTES)  # the LFs and any other control character
    if rest.count(b"\n") != len(rest):
        return None
    if not data.isascii() and _WIDE_CONTROL.search(data) is not None:
        return None
    return len(rest)


def _fast_rows(data: bytes, body: tuple[int, int], start_line: int):
    """Rows by the C parser of pandas over a clean body; ``None`` whenever anything looks off.

    The body is ``data[body[0]:body[1]]``, read in place: no copy of the file is made (a copy
    of a large file costs more per word than a small one, in fresh memory pages).
    """
    import pandas as pd

    newlines = _newlines_if_clean(data)
    if newlines is None:
        return None
    lo, hi = body
    # the LFs of the body are all but the header's and those after the last row
    n_lines = newlines - (lo > 0) - (len(data) - hi) + 1
    first_end = data.find(b"\n", lo, hi)
    n_fields = data[lo : first_end if first_end >= 0 else hi].rstrip(b" ").count(b" ") + 1
    # the values straight into float32 (as the matrix is kept): no float64 copy to transpose
    types = {0: object} | {c: np.float32 for c in range(1, n_fields)}
    stream = io.BytesIO(data)
    stream.seek(lo)
    try:
        with np.errstate(over="ignore"):  # a value beyond float32: the careful parser names it
            df = pd.read_csv(
                stream,
                sep=" ",
                header=None,
                quoting=csv.QUOTE_NONE,
                keep_default_na=False,
                na_filter=False,
                dtype=types,
                engine="c",
                encoding="utf-8",
                skip_blank_lines=False,
                nrows=n_lines,
            )
    except Exception:  # noqa: BLE001 - the careful parser below names the bad line
        return None
    # a trailing space on every line gives an empty last column
    last = df.iloc[:, -1]
    if df.shape[1] > 2 and last.dtype.kind not in "fiu" and (last == "").all():
        df = df.iloc[:, :-1]
    if len(df) != n_lines or df.shape[1] < 2:
        return None
    if any(df[c].dtype.kind not in "fiu" for c in df.columns[1:]):
        return None
    words = df.iloc[:, 0].tolist()
    if not set(map(type, words)) <= {str}:
        return None
    mat = df.iloc[:, 1:].to_numpy(dtype=np.float32)
    if not np.isfinite(mat).all():  # an overflow of float32 too: the careful parser says where
        return None
    return words, mat, lambda r: start_line + r


def _slow_rows(path: Path, body: str, start_line: int, truncated_end: bool, dim=None):
    """Line-by-line parse that names the first bad line; words are checked by the caller.

    ``dim``: the number of values every row must have (the earlier blocks' of a large file).
    """
    lines = body.split("\n")
    words, values, line_nos = [], [], []
    for i, line in enumerate(lines, start=start_line):
        last = truncated_end and i == start_line + len(lines) - 1
        tail = " (the file ends in the middle of this line: it looks truncated)" if last else ""
        if not line.strip(" "):
            raise DataFormatError(path, i, "empty line inside the vector rows")
        if "\t" in line:
            raise DataFormatError(
                path,
                i,
                "the fields are separated by tabs; word2vec, fastText and GloVe text files "
                "separate the word and each value by one space (replace the tabs by spaces)",
            )
        word, _, rest = line.rstrip(" ").partition(" ")
        parts = rest.split(" ") if rest else []
        if dim is None:
            dim = len(parts)
            if dim < 1:
                raise DataFormatError(
                    path, i, f"expected a word followed by its vector values, found only {word!r}"
                )
        if len(parts) != dim:
            raise DataFormatError(
                path, i, f"expected a word and {dim} values, found {len(parts)} values{tail}"
            )
        if not _VALUES.fullmatch(rest):
            bad = next((p for p in parts if not _NUMBER.fullmatch(p)), rest)
            what = "an empty field (two spaces in a row)" if bad == "" else repr(bad[:40])
            raise DataFormatError(path, i, f"the vector value {what} is not a number{tail}")
        words.append(word)
        values.append(parts)
        line_nos.append(i)
    mat = np.array(values, dtype=np.float64).reshape(len(values), dim or 0)
    return words, mat, line_nos.__getitem__


def _split_header(path: Path, data: bytes, fmt: str):
    """``(header or None, offset of the body, its first line number)`` after the format checks."""
    first_nl = data.find(b"\n")
    first = data[: first_nl if first_nl >= 0 else len(data)].decode("utf-8")
    header = detect_header(first)
    if fmt == "glove" and header is not None:
        raise DataFormatError(
            path, 1, "looks like a word2vec header ('n dim'); use format 'word2vec'"
        )
    if fmt in ("word2vec", "fasttext") and header is None:
        raise DataFormatError(
            path, 1, f"expected a header line 'n_words dim', found {first[:60]!r}"
        )
    if header is None:
        return None, 0, 1
    if header[1] == 0:
        raise DataFormatError(
            path, 1, f"the header {first.strip()!r} says the vectors have 0 dimensions"
        )
    return header, (first_nl + 1 if first_nl >= 0 else len(data)), 2


def _stripped_end(data: bytes) -> int:
    r"""``len(data.rstrip(b"\n"))`` without copying ``data``: it is looked at from the end."""
    end = len(data)
    while end:
        chunk = data[max(0, end - 4096) : end]
        kept = len(chunk.rstrip(b"\n"))
        if kept:
            return end - len(chunk) + kept
        end -= len(chunk)
    return 0


def _check_header(path: Path, header: tuple[int, int], n_rows: int, dim: int, report) -> None:
    """Compare the rows found with the header: a dimension error, or a counted row-count repair."""
    n, want = header
    if dim != want:
        raise DataFormatError(path, 1, f"header says {want} dimensions but the rows have {dim}")
    if n_rows != n:
        report.repair(
            "header_count_mismatch",
            abs(n_rows - n),
            f"the header promises {n:,} rows but the file holds {n_rows:,}"
            + ("" if n_rows > n else " (truncated?)")
            + f": the {n_rows:,} rows found were used",
        )


def finish_rows(path: Path, report: LoadReport, header, rows, ends_in_newline: bool):
    """What every text read ends with: the last line's end, the header's counts, the checks.

    ``rows`` is ``(words, matrix, line_of)``; returns ``(words, float32 matrix, report)``.
    """
    words, mat, line_of = rows
    if not ends_in_newline:
        report.repair(
            "no_final_newline",
            1,
            f"the last line (line {line_of(len(words) - 1)}) has no line end: if the file was "
            "cut short (truncated?), its last value may be incomplete; it was used as it is",
        )
    if header:
        _check_header(path, header, len(words), mat.shape[1], report)
    report.n_rows_read = len(words)
    words_arr, mat = finish(path, words, mat, report, line_of)
    return words_arr.tolist(), np.ascontiguousarray(mat, dtype=np.float32), report
