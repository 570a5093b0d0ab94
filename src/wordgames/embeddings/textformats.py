"""Parsers of the word2vec text (fastText ``.vec``, GloVe) and word2vec binary formats.

Each returns ``(words, float32 matrix, LoadReport)`` after :func:`~wordgames.embeddings.
validate.finish`. Every error is a :class:`~wordgames.errors.DataFormatError` naming the file,
the line (the record, in a binary file) and what was expected; repairs are counted and said
in words in the report.
"""

from __future__ import annotations

import re
from array import array
from pathlib import Path

import numpy as np

from wordgames.embeddings.core import LoadReport
from wordgames.embeddings.textrows import (  # noqa: F401 (re-exported)
    _MAX_WORD_BYTES,
    _NOT_BLANK,
    _fast_rows,
    _slow_rows,
    _split_header,
    _stripped_end,
    detect_header,
    finish_rows,
    strip_bom,
)
from wordgames.embeddings.validate import BOM, bad_word_reason, finish
from wordgames.errors import DataFormatError
from wordgames.textio import (  # noqa: F401 (re-exported)
    GZIP_MAGIC,
    GZIP_MAX_RATIO,
    decode_utf8,
    gunzip,
    read_bytes,
)


def _read_utf8(path: Path, report: LoadReport) -> bytes:
    """The file's bytes, checked as UTF-8, without a byte-order mark (counted) or CRLF line ends."""
    data = read_bytes(path)
    if not data.isascii():
        hint = "; re-encode the file as UTF-8"
        if detect_header(data[:100].split(b"\n", 1)[0].decode("latin-1")):
            hint += (
                " (if it is a word2vec binary file, name it .bin or use format 'word2vec-binary')"
            )
        decode_utf8(data, path, hint=hint)
        if data.startswith(BOM.encode()):
            data = data[3:]
            report.repair(
                "bom_stripped", 1, "a byte-order mark (U+FEFF) before the first line was skipped"
            )
    if data.find(b"\r") >= 0 and b"\r\n" in data:  # find: one fast memchr pass
        data = data.replace(b"\r\n", b"\n")
    return data


def parse_text(path: str | Path, *, fmt: str = "auto") -> tuple[list[str], np.ndarray, LoadReport]:
    """Parse a word2vec/fastText/GloVe text file into (words, float32 matrix, report).

    The file is checked and parsed as bytes, in place: the text is decoded only when a line
    must be parsed by the careful parser, which names it. A large file is read in blocks
    (:mod:`wordgames.embeddings.textstream`), with the same results and errors.
    """
    path = Path(path)
    report = LoadReport(source=str(path))
    from wordgames.embeddings.textstream import parse_streamed, wants_stream

    if wants_stream(path):  # a large file: in blocks, nothing the size of the file kept
        return parse_streamed(path, fmt, report)
    data = _read_utf8(path, report)
    if not _NOT_BLANK.search(data):
        raise DataFormatError(
            path, None, "the file is empty" if not data else "the file holds only blank lines"
        )
    end = _stripped_end(data)
    if data.find(b"\n", 0, end) < 0 and b"\r" in data:
        raise DataFormatError(
            path, None, "the lines end in CR only (old Mac line ends); convert them to LF"
        )
    header, lo, start = _split_header(path, data, fmt)
    report.format = fmt if fmt != "auto" else ("word2vec" if header else "glove")
    blank = len(data) - max(end, lo) - 1
    if blank > 0:
        report.repair(
            "trailing_blank_lines", blank, f"{blank} blank line(s) at the end of the file ignored"
        )
    if end <= lo:
        raise DataFormatError(
            path,
            None,
            f"the header promises {header[0]:,} rows of {header[1]} dimensions but no vector rows follow",
        )
    ends_in_newline = data.endswith(b"\n")
    rows = _fast_rows(data, (lo, end), start)
    if rows is None:
        body = data[lo:end].decode("utf-8")
        rows = _slow_rows(path, body, start, truncated_end=not ends_in_newline)
    return finish_rows(path, report, header, rows, ends_in_newline)


# --------------------------------------------------------------------------- binary
def _rest_is_blank(data: bytes, pos: int) -> bool:
    """Whether only line ends follow ``pos`` (without copying the rest: a scan stays linear)."""
    end = len(data)
    while pos < end and data[pos] in (10, 13):
        pos += 1
    return pos >= end


def _next_record(data: bytes, pos: int, rec: int):
    """``(word bytes, vector offset, next position)`` of the record at ``pos``, or an error string."""
    while pos < len(data) and data[pos] in (10, 13):  # the newline word2vec writes after a vector
        pos += 1
    sp = data.find(b" ", pos, pos + _MAX_WORD_BYTES)
    if sp < 0:
        return "truncated" if len(data) - pos < _MAX_WORD_BYTES else "no space after the word"
    if sp + 1 + rec > len(data):
        return "truncated"
    return data[pos:sp], sp + 1, sp + 1 + rec


def _record_ok(word: bytes) -> bool:
    try:
        return bad_word_reason(word.decode("utf-8")) is None
    except UnicodeDecodeError:
        return False


def _guess_dim(data: bytes, start: int, n: int, tries: int = 20) -> int | None:
    """The dimension with which the header's ``n`` records (the first ``tries``) parse cleanly.

    Clean: every word is UTF-8 without control characters and, when all ``n`` records are
    parsed, nothing but line ends follows them.
    """
    want = min(n, tries)
    limit = min(4096, (len(data) - start) // 4)
    for dim in range(1, limit + 1) if want else ():
        pos, ok = start, 0
        while ok < want:
            got = _next_record(data, pos, dim * 4)
            if isinstance(got, str) or not _record_ok(got[0]):
                break
            pos, ok = got[2], ok + 1
        if ok == want and (want < n or _rest_is_blank(data, pos)):
            return dim
    return None


def _record_problem(data: bytes, pos: int, i: int, n: int, got: str) -> str:
    if got == "truncated":
        return f"file truncated: record {i + 1} of {n:,} (byte {pos}) is incomplete"
    return f"record {i + 1} (byte {pos}): no space after the word within {_MAX_WORD_BYTES:,} bytes"


def _scan_records(path: Path, data: bytes, pos: int, n: int, dim: int, behind=None):
    """Words and vector offsets of ``n`` records from ``pos``; errors name the real cause.

    ``behind(pos)``, when given, is told every 4,096 records how far the scan has come. The
    offsets are an int64 array (a list of Python ints was 36 bytes a record).
    """
    start, rec = pos, dim * 4
    words, offsets = [], array("q")  # int64, appended in C
    checked = False
    for i in range(n):
        if behind is not None and not i & 4095:
            behind(pos)
        if _rest_is_blank(data, pos):
            break  # fewer records than promised, ending on a record boundary: the caller counts it
        got = _next_record(data, pos, rec)
        word = None
        if not isinstance(got, str):
            try:
                word = got[0].decode("utf-8")
            except UnicodeDecodeError:
                pass
        if word is None or (not checked and bad_word_reason(word)):
            # a damaged record, or a word that looks like vector bytes: is the header's dimension wrong?
            checked = True
            guess = _guess_dim(data, start, n)
            if guess is not None and guess != dim:
                raise DataFormatError(
                    path,
                    1,
                    f"the header says {dim} dimensions but the records hold {guess} values each "
                    f"(record {i + 1} does not start where {dim}-dimensional records would put it)",
                )
        if word is None and not isinstance(got, str):
            raise DataFormatError(
                path, i + 1, f"record {i + 1}: word at byte {pos} is not valid UTF-8"
            )
        if word is None:
            raise DataFormatError(path, i + 1, _record_problem(data, pos, i, n, got))
        words.append(word)
        offsets.append(got[1])
        pos = got[2]
    return words, np.frombuffer(offsets, dtype=np.int64), pos


def _gather(data: bytes, offsets: list[int], dim: int, behind=None) -> np.ndarray:
    buf = np.frombuffer(data, dtype=np.uint8)
    rec = dim * 4
    offs = np.asarray(offsets, dtype=np.int64)
    mat = np.empty((len(offs), dim), dtype=np.float32)
    # blocks of 256 KB, not records: the int64 index of a block is 2 MB
    step = max(1, (1 << 18) // max(rec, 1))
    for s in range(0, len(offs), step):
        idx = offs[s : s + step, None] + np.arange(rec)[None, :]
        mat[s : s + step] = buf[idx].view("<f4").reshape(-1, dim)
        if behind is not None:
            behind(int(offs[min(s + step, len(offs)) - 1]))
    del buf  # no export of the map is left: it can be closed
    return mat


class _Mapped:
    """A binary file as a read-only memory map whose pages are given back behind the reader.

    The reader passes over the file twice (the records, then the vectors): each pass tells
    :meth:`behind` how far it is, and the pages before that are dropped from this process
    (``MADV_DONTNEED``: they stay in the page cache, the next pass reads them again), so the
    process never holds more than a window of the file beside the matrix. A ``.gz`` file, an
    empty one or a system without ``mmap`` is read whole.
    """

    WINDOW = 8 << 20

    def __init__(self, path: Path):
        self.path, self.map, self.done = path, None, 0

    def __enter__(self):
        import mmap

        try:
            with open(self.path, "rb") as f:
                head = f.read(2)
                if head and head != GZIP_MAGIC and hasattr(mmap.mmap, "madvise"):
                    self.map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except IsADirectoryError:
            raise DataFormatError(self.path, None, "is a folder, not a file") from None
        except (OSError, ValueError):
            self.map = None  # read_bytes says why when it cannot read it either
        return self.map if self.map is not None else read_bytes(self.path)

    def behind(self, pos: int) -> None:
        if self.map is None:
            return
        import mmap

        if pos < self.done:  # the second pass starts again at the top
            self.done = 0
        end = pos - pos % mmap.PAGESIZE
        if end - self.done >= self.WINDOW:
            self.map.madvise(mmap.MADV_DONTNEED, self.done, end - self.done)
            self.done = end

    def __exit__(self, *exc):
        if self.map is not None:
            try:
                self.map.close()
            except BufferError:  # an error left a view of it in a traceback: freed with it
                pass


def parse_word2vec_binary(path: str | Path) -> tuple[list[str], np.ndarray, LoadReport]:
    """Parse the word2vec C binary format (header line, then word, space, dim float32)."""
    path = Path(path)
    mapped = _Mapped(path)
    with mapped as data:
        return _parse_binary(path, data, mapped.behind)


_NOT_SPACE = re.compile(rb"[^ \t\n\r\x0b\x0c]")


def _parse_binary(path: Path, data, behind) -> tuple[list[str], np.ndarray, LoadReport]:
    """:func:`parse_word2vec_binary` of ``data`` (bytes, or a memory map of the file)."""
    report = LoadReport(source=str(path), format="word2vec-binary")
    start = 3 if data[:3] == BOM.encode() else 0
    if start:
        report.repair("bom_stripped", 1, "a byte-order mark (U+FEFF) before the header was skipped")
    if _NOT_SPACE.search(data, start) is None:  # what bytes.strip() leaves, without a copy
        raise DataFormatError(path, None, "the file is empty")
    nl = data.find(b"\n", start, start + 100)
    header = detect_header(data[start:nl].decode("latin-1")) if nl > start else None
    if header is None:
        raise DataFormatError(
            path,
            1,
            f"expected a header line 'n_words dim' in a word2vec binary file, found {data[start : start + 40]!r}",
        )
    n, dim = header
    if dim == 0:
        raise DataFormatError(path, 1, "the header says the vectors have 0 dimensions")
    if _rest_is_blank(data, nl + 1):
        raise DataFormatError(
            path, None, f"the header promises {n:,} records of {dim} dimensions but none follow"
        )
    if dim * 4 > len(data) - nl - 1:
        raise DataFormatError(
            path,
            1,
            f"the header says {dim:,} dimensions: one record would need {dim * 4:,} bytes, more "
            f"than the whole file holds after the header ({len(data) - nl - 1:,} bytes)",
        )
    words, offsets, pos = _scan_records(path, data, nl + 1, n, dim, behind)
    if len(words) < n:
        report.repair(
            "header_count_mismatch",
            n - len(words),
            f"the header promises {n:,} records but the file holds {len(words):,} (truncated?): "
            f"the {len(words):,} records found were used",
        )
    if not _rest_is_blank(data, pos):
        extra = _extra_records(path, data, pos, n, dim)
        words += extra[0]
        offsets = np.concatenate([offsets, np.asarray(extra[1], dtype=np.int64)])
        report.repair(
            "header_count_mismatch",
            len(extra[0]),
            f"the header promises {n:,} records but {len(words):,} follow: all {len(words):,} were read",
        )
    mat = _gather(data, offsets, dim, behind)
    report.n_rows_read = len(words)
    w, mat = finish(path, words, mat, report, lambda r: r + 1)
    return w.tolist(), np.ascontiguousarray(mat, dtype=np.float32), report


def _extra_records(path: Path, data: bytes, pos: int, n: int, dim: int):
    """The records after the ``n`` the header promised, or an error saying the header is wrong."""
    words, offsets = [], []
    while not _rest_is_blank(data, pos):
        got = _next_record(data, pos, dim * 4)
        word = None
        if not isinstance(got, str):
            try:
                word = got[0].decode("utf-8")
            except UnicodeDecodeError:
                pass
        if word is None:
            raise DataFormatError(
                path,
                n + len(words) + 1,
                f"the header promises {n:,} records of {dim} dimensions, but {len(data) - pos:,} "
                f"more bytes follow record {n + len(words):,} and they are not whole records: "
                "the header is wrong or the file is damaged",
            )
        words.append(word)
        offsets.append(got[1])
        pos = got[2]
    return words, offsets
