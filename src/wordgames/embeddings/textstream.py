"""The word2vec/GloVe text reader for large files: in blocks, never the whole file in memory.

:func:`~wordgames.embeddings.textformats.parse_text` hands a file larger than
:data:`STREAM_BYTES` (or any ``.gz`` file larger than a quarter of it) to :func:`parse_streamed`,
which gives the same words, matrix, repairs and errors in two passes over blocks of about
:data:`BLOCK_BYTES` cut at line ends (a line end never falls inside a UTF-8 character):

1. a survey: the header, every block checked as UTF-8 (the line of a bad byte named as for a
   small file), the number of lines, the blank lines at the end;
2. the rows, block by block, parsed by the same fast and careful parsers as a small file, into
   one float32 matrix allocated once from the survey's line count.

What stays in memory is the matrix, the words and one block: nothing the size of the file
(issue 40).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from wordgames.embeddings.core import LoadReport
from wordgames.embeddings.textrows import (
    _NOT_BLANK,
    _fast_rows,
    _slow_rows,
    _split_header,
    _stripped_end,
    finish_rows,
)
from wordgames.embeddings.validate import BOM, check_values
from wordgames.errors import DataFormatError
from wordgames.textio import GZIP_MAGIC, GZIP_MAX_RATIO, decode_utf8

#: files larger than this are read in blocks (``WORDGAMES_STREAM_BYTES`` overrides it: the
#: tests run the readers' cases through the blocks too); one block: a file that fits in one
#: is read whole, any larger one never is
STREAM_BYTES = int(os.environ.get("WORDGAMES_STREAM_BYTES", 4 << 20))
#: the size of a block (``WORDGAMES_BLOCK_BYTES`` overrides it). Measured on 400,000 x 300
#: (1 GB; pandas parses each block, with its copies): the peak above the matrix was 144 MB
#: with 16 MiB blocks, 255 MB with 8 MiB (the allocator's heap) and 112 MB with 4 MiB, at
#: 1.14x the time of 16 MiB
BLOCK_BYTES = int(os.environ.get("WORDGAMES_BLOCK_BYTES", 4 << 20))


def wants_stream(path: Path) -> bool:
    """Whether ``path`` is large enough to be read in blocks."""
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            gz = f.read(2) == GZIP_MAGIC
    except OSError:
        return False  # the whole-file reader says why it cannot be read
    return size > (STREAM_BYTES // 4 if gz else STREAM_BYTES)


class _Source:
    """The file's content as a stream (a ``.gz`` file unpacked, bounded by its ratio)."""

    def __init__(self, path: Path):
        self.path = path
        self.size = path.stat().st_size

    def __enter__(self):
        f = self.path.open("rb")
        if f.read(2) == GZIP_MAGIC:
            import gzip

            f.seek(0)
            self.stream, self.limit = gzip.GzipFile(fileobj=f), GZIP_MAX_RATIO * self.size
        else:
            f.seek(0)
            self.stream, self.limit = f, None
        self.raw, self.out = f, 0
        return self

    def __exit__(self, *exc):
        self.stream.close()
        self.raw.close()

    def drain(self, n: int = 1 << 20) -> None:
        """Read what is left of a ``.gz`` file, keeping nothing: its errors are raised."""
        while self.limit is not None and self.read(n):
            pass

    def read(self, n: int) -> bytes:
        import zlib

        try:
            data = self.stream.read(n)
        except EOFError:
            raise DataFormatError(
                self.path, None, "the gzip data is cut short (truncated?)"
            ) from None
        except (OSError, zlib.error) as exc:
            raise DataFormatError(self.path, None, f"not valid gzip data ({exc})") from None
        self.out += len(data)
        if self.limit is not None and self.out > self.limit:
            raise DataFormatError(
                self.path, None, f"it unpacks to more than {self.limit:,} bytes "
                f"({GZIP_MAX_RATIO}x its size): refused as a gzip bomb",
            )  # fmt: skip
        return data


def blocks(path: Path, size: int | None = None) -> Iterator[bytes]:
    """The file's content in blocks that end at a line end (the last one: where the file ends).

    A line longer than a block is an error, not a block of any size.
    """
    size = size or BLOCK_BYTES
    with _Source(path) as src:
        carry = b""
        while True:
            data = src.read(size)
            if not data:
                if carry:
                    yield carry
                return
            buf = carry + data
            cut = buf.rfind(b"\n") + 1
            if cut == 0:
                if len(buf) > size and b"\r" in buf:
                    raise DataFormatError(
                        path,
                        None,
                        "the lines end in CR only (old Mac line ends); convert them to LF",
                    )
                if len(buf) > size:
                    src.drain()  # a gzip file's own fault (a bomb, cut short) is said first
                    raise DataFormatError(
                        path, None, f"a line longer than {size:,} bytes: not a vector row"
                    )
                carry = buf
                continue
            yield buf[:cut]
            carry = buf[cut:]


def _line_ends(block: bytes) -> int:
    """Line ends as :func:`~wordgames.textio.decode_utf8` counts them (LF, CRLF, CR)."""
    return block.count(b"\n") + block.count(b"\r") - block.count(b"\r\n")


class Survey:
    """What the first pass learns: the header, the lines and where the rows end."""

    def __init__(self):
        self.first_line = b""
        self.n_lf = 0  # line feeds in the file (after a byte-order mark)
        self.trailing_lf = 0  # the line feeds at its very end
        self.not_blank = False
        self.ends_in_newline = False
        self.crlf = False
        self.cr = False
        self.bom = False
        self.n_bytes = 0


def survey(path: Path, hint: str) -> Survey:
    """The first pass: every block checked as UTF-8, the line feeds counted."""
    s, lines_before = Survey(), 0
    for i, block in enumerate(blocks(path)):
        if i == 0:
            if block.startswith(BOM.encode()):
                s.bom, block = True, block[3:]
            end = block.find(b"\n")
            s.first_line = block[: end if end >= 0 else len(block)]
        if not block.isascii():
            try:
                block.decode("utf-8")
            except UnicodeDecodeError:
                try:
                    decode_utf8(block, path, hint=hint)
                except DataFormatError as exc:
                    raise DataFormatError(path, lines_before + exc.line, exc.detail) from None
        lines_before += _line_ends(block)
        s.n_lf += block.count(b"\n")
        kept = _stripped_end(block)
        s.trailing_lf = s.trailing_lf + len(block) if kept == 0 else len(block) - kept
        s.not_blank = s.not_blank or _NOT_BLANK.search(block) is not None
        s.crlf = s.crlf or b"\r\n" in block
        s.cr = s.cr or b"\r" in block
        s.ends_in_newline = block.endswith(b"\n")
        s.n_bytes += len(block)
    return s


def parse_streamed(path: Path, fmt: str, report: LoadReport):
    """The words, float32 matrix and report of a large text file, read in two passes."""
    hint = "; re-encode the file as UTF-8"
    s = survey(path, hint)
    if s.bom:
        report.repair(
            "bom_stripped", 1, "a byte-order mark (U+FEFF) before the first line was skipped"
        )
    if not s.not_blank:
        raise DataFormatError(
            path, None, "the file is empty" if not s.n_bytes else "the file holds only blank lines"
        )
    rows_lf = s.n_lf - s.trailing_lf  # line feeds between the rows (and after the header)
    if rows_lf == 0 and s.cr and not s.crlf:
        raise DataFormatError(
            path, None, "the lines end in CR only (old Mac line ends); convert them to LF"
        )
    first = s.first_line.replace(b"\r", b"") if s.crlf else s.first_line
    header, lo, start = _split_header(path, first + b"\n", fmt)
    report.format = fmt if fmt != "auto" else ("word2vec" if header else "glove")
    n_rows = rows_lf + 1 - (1 if header else 0)
    blank = s.trailing_lf - 1
    if blank > 0:
        report.repair(
            "trailing_blank_lines", blank, f"{blank} blank line(s) at the end of the file ignored"
        )
    if n_rows <= 0:
        raise DataFormatError(
            path,
            None,
            f"the header promises {header[0]:,} rows of {header[1]} dimensions but no vector rows follow",
        )
    words, mat = _rows(path, s, header is not None, n_rows, start)
    line_of = lambda r: start + r  # noqa: E731 - one row per line, no blank line inside
    return finish_rows(path, report, header, (words, mat, line_of), s.ends_in_newline)


def _rows(path: Path, s: Survey, has_header: bool, n_rows: int, start: int):
    """The second pass: each block's rows parsed into one matrix allocated once."""
    words: list[str] = []
    mat = None
    row = 0
    for i, block in enumerate(blocks(path)):
        if i == 0:
            if s.bom:
                block = block[3:]
            if has_header:
                block = block[block.find(b"\n") + 1 :]
        if s.crlf and b"\r\n" in block:
            block = block.replace(b"\r\n", b"\n")
        if row >= n_rows:
            break  # the blank lines at the end
        lines = block.count(b"\n") + (not block.endswith(b"\n"))
        last = row + lines >= n_rows  # the rows end here: only blank lines follow
        end = _stripped_end(block) if last else len(block) - 1  # the rows, without a copy
        line = start + row
        got = _fast_rows(block, (0, end), line)
        if got is None or (mat is not None and got[1].shape[1] != mat.shape[1]):
            got = _slow_rows(
                path, block[:end].decode("utf-8"), line,
                truncated_end=last and not s.ends_in_newline,
                dim=None if mat is None else mat.shape[1],
            )  # fmt: skip
        w, m, _ = got
        if m.dtype != np.float32:  # the careful parser's float64: beyond float32 is said here
            check_values(path, w, m, lambda r, line=line: line + r)
        if mat is None:
            mat = np.empty((n_rows, m.shape[1]), dtype=np.float32)
        mat[row : row + len(w)] = m
        words += w
        row += len(w)
    return words, mat[:row]
