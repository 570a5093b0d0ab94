"""Checks every embedding reader applies to what it read: words, matrix, repairs.

A reader turns a file into a list of words and a matrix, then calls :func:`finish`, which
rejects what cannot be used (no rows, no dimensions, complex or non-numeric values, NaN or
infinity, vectors whose norm float32 arithmetic cannot square) with a
:class:`~wordgames.errors.DataFormatError` naming the file and line, and repairs what can be
(rows of all zeros and words that are empty or hold control characters are dropped, duplicate
words keep their first row), counting each repair in the :class:`LoadReport`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordgames.errors import DataFormatError
from wordgames.textio import BAD_WORD_CHARS, BOM, MAX_WORD_CHARS, bad_word_reason

__all__ = ["BAD_WORD_CHARS", "BOM", "LoadReport", "bad_word_reason", "bad_word_rows", "finish"]


@dataclass
class LoadReport:
    """What a loader found and repaired. Repairs are counted, never silent.

    ``repairs`` counts each kind of repair (``{"zero_rows_dropped": 2}``); ``repair_lines``
    says each one in words, for the console and the result records (for example
    ``"header promises 5 rows but the file holds 3 (truncated?): the 3 rows found were used"``).

    Parameters
    ----------
    source, format : str
        The file (or ``"gensim"``, a built-in name) and the format it was read as.
    n_rows_read : int
        Rows read from the file.
    duplicates_dropped, duplicate_examples
        Repeated words dropped (the first kept) and a few of them.
    non_finite_rows : int
        Rows holding NaN or infinity (refused or repaired, as the loader says).
    repairs, repair_lines
        Each kind of repair counted, and each said in words.
    from_cache : bool
        Read from the converted-vector cache rather than the file.

    Examples
    --------
    >>> r = LoadReport(source="v.txt")
    >>> r.repair("zero_rows_dropped", 2, "2 all-zero rows dropped (out of vocabulary): 'a', 'b'")
    >>> r.repairs, r.repair_lines
    ({'zero_rows_dropped': 2}, ["2 all-zero rows dropped (out of vocabulary): 'a', 'b'"])
    """

    source: str = ""
    format: str = ""
    n_rows_read: int = 0
    duplicates_dropped: int = 0
    duplicate_examples: list[str] = field(default_factory=list)
    non_finite_rows: int = 0
    repairs: dict[str, int] = field(default_factory=dict)
    from_cache: bool = False
    repair_lines: list[str] = field(default_factory=list)

    def repair(self, kind: str, count: int, line: str) -> None:
        """Count ``count`` repairs of ``kind`` and say in ``line`` what was done."""
        if count <= 0:
            return
        self.repairs[kind] = self.repairs.get(kind, 0) + int(count)
        self.repair_lines.append(line)

    @classmethod
    def from_dict(cls, data: dict) -> LoadReport:
        """The report :meth:`as_dict` wrote (unknown keys are ignored)."""
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})

    def as_dict(self) -> dict:
        return {
            "source": self.source,
            "format": self.format,
            "n_rows_read": self.n_rows_read,
            "duplicates_dropped": self.duplicates_dropped,
            "duplicate_examples": self.duplicate_examples[:10],
            "non_finite_rows": self.non_finite_rows,
            "repairs": dict(self.repairs),
            "from_cache": self.from_cache,
            "repair_lines": list(self.repair_lines),
        }


#: vector norms outside this range overflow or underflow float32 when squared or multiplied
MIN_NORM, MAX_NORM = 1e-18, 1e18
_CHUNK = 65_536
_CHUNK_BYTES = 4 << 20

LineOf = Callable[[int], "int | None"]


def bad_word_rows(words: Sequence[str]) -> np.ndarray:
    """Indices of the words that are empty or hold a control character (fast when none do)."""
    words = list(words)
    if set(map(type, words)) <= {str} and not BAD_WORD_CHARS.search("".join(words)):
        if not words or 0 < min(map(len, words)) and max(map(len, words)) <= MAX_WORD_CHARS:
            return np.zeros(0, dtype=np.int64)
    return np.array([i for i, w in enumerate(words) if bad_word_reason(w)], dtype=np.int64)


def _examples(words: Sequence, rows: np.ndarray, k: int = 3) -> str:
    def short(w):  # a word of two million characters is not printed whole
        return repr(w) if not isinstance(w, str) or len(w) <= 40 else repr(w[:40]) + "..."

    return ", ".join(short(words[int(i)]) for i in rows[:k]) + (", ..." if len(rows) > k else "")


def check_dtype(path: str | Path, mat: np.ndarray) -> None:
    """Reject a matrix that is not 2-D or whose values are not real numbers."""
    if mat.ndim != 2:
        raise DataFormatError(path, None, f"expected a 2-D matrix, got shape {mat.shape}")
    kind = mat.dtype.kind
    if kind == "c":
        raise DataFormatError(
            path, None, f"the matrix holds complex numbers ({mat.dtype}); expected real numbers"
        )
    if kind not in "fiu":
        raise DataFormatError(
            path, None, f"the matrix holds {mat.dtype} values; expected real numbers"
        )
    if mat.shape[1] == 0:
        raise DataFormatError(path, None, "the vectors have 0 dimensions")


def _row_error(path, line_of: LineOf, words, row: int, what: str) -> DataFormatError:
    word = words[row] if row < len(words) else "?"
    return DataFormatError(path, line_of(row), f"row {row + 1} ({word!r}): {what}")


def check_values(path: str | Path, words: Sequence, mat: np.ndarray, line_of: LineOf) -> np.ndarray:
    """Raise for NaN, infinity or norms float32 cannot handle; the indices of all-zero rows.

    Works chunk by chunk, so a memory-mapped matrix is never copied whole.
    """
    zero = []
    # rows a chunk, and at most _CHUNK_BYTES of float64 a chunk (65,536 rows of 300 values
    # were 157 MB, and their float32 and float64 copies a third of a 400k x 300 read's peak)
    step = max(1, min(_CHUNK, _CHUNK_BYTES // max(1, 8 * mat.shape[1])))
    for start in range(0, mat.shape[0], step):
        chunk = np.asarray(mat[start : start + step])
        bad = ~np.isfinite(chunk).all(axis=1)
        if bad.any():
            r = start + int(np.flatnonzero(bad)[0])
            raise _row_error(path, line_of, words, r, "has NaN or infinite values")
        with np.errstate(over="ignore"):
            c32 = chunk.astype(np.float32)
        big = ~np.isfinite(c32).all(axis=1)
        if big.any():
            r = start + int(np.flatnonzero(big)[0])
            peak = float(np.abs(np.asarray(mat[r], dtype=np.float64)).max())
            raise _row_error(
                path, line_of, words, r, f"value {peak:.3g} is too large for float32 (max 3.4e38)"
            )
        c64 = c32.astype(np.float64)
        norms = np.sqrt(np.einsum("ij,ij->i", c64, c64))
        zero.extend((start + np.flatnonzero(norms == 0)).tolist())
        out = (norms != 0) & ((norms < MIN_NORM) | (norms > MAX_NORM))
        if out.any():
            r = start + int(np.flatnonzero(out)[0])
            side = "overflows" if norms[r - start] > MAX_NORM else "underflows"
            raise _row_error(
                path,
                line_of,
                words,
                r,
                f"its norm {norms[r - start]:.3g} {side} float32 arithmetic when the vector is "
                f"normalised (norms must lie between {MIN_NORM:g} and {MAX_NORM:g}): rescale "
                "the vectors",
            )
    return np.asarray(zero, dtype=np.int64)


def drop_duplicates(words: np.ndarray, mat: np.ndarray, report: LoadReport):
    """Keep the first (most frequent) occurrence of each word; count what was dropped."""
    arr = np.asarray(words, dtype=object)
    if len(set(arr.tolist())) == len(arr):  # the usual case, ten times faster than np.unique
        return arr, mat
    _, first = np.unique(arr.astype(str), return_index=True)
    if len(first) == len(arr):
        return arr, mat
    keep = np.sort(first)
    dropped = np.setdiff1d(np.arange(len(arr)), keep)
    report.duplicates_dropped += int(len(dropped))
    report.duplicate_examples = [str(arr[i]) for i in dropped[:10]]
    report.repair(
        "duplicate_words_dropped",
        len(dropped),
        f"{len(dropped):,} duplicate word(s) dropped, the first (most frequent) row kept: "
        + _examples(arr, dropped),
    )
    return arr[keep], np.asarray(mat)[keep]


def finish(
    path: str | Path,
    words: Sequence[str],
    mat: np.ndarray,
    report: LoadReport,
    line_of: LineOf | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Validate and repair what a reader read; the words (object array) and matrix kept.

    Parameters
    ----------
    path : the file, named in every error
    words, mat : the rows as read, in file order
    report : receives the counts and the lines that say what was repaired
    line_of : maps a row index to its line (record) number in the file, for error messages

    Returns
    -------
    tuple
        ``(words, matrix)``; the matrix is the one given (a memory map stays one) when
        nothing was dropped and it is float32 already.
    """
    line_of = line_of or (lambda r: None)
    if len(words) != mat.shape[0]:
        raise DataFormatError(path, None, f"{len(words)} words but {mat.shape[0]} vector rows")
    check_dtype(path, mat)
    if mat.shape[0] == 0:
        raise DataFormatError(path, None, "the file holds no vectors")
    words = np.asarray(list(words), dtype=object)
    zero = check_values(path, words, mat, line_of)
    bad = bad_word_rows(words)
    drop = np.zeros(len(words), dtype=bool)
    if len(bad):
        drop[bad] = True
        report.repair(
            "bad_words_dropped",
            len(bad),
            f"{len(bad):,} row(s) dropped because the word is empty, longer than "
            f"{MAX_WORD_CHARS:,} characters or holds a control character (out of vocabulary): "
            + _examples(words, bad),
        )
    zero = zero[~drop[zero]] if len(zero) else zero
    if len(zero):
        drop[zero] = True
        report.repair(
            "zero_rows_dropped",
            len(zero),
            f"{len(zero):,} all-zero vector(s) dropped (out of vocabulary): "
            + _examples(words, zero),
        )
    if drop.all():
        raise DataFormatError(
            path, None, f"no usable vectors: all {len(words)} rows were dropped ({report.repairs})"
        )
    if drop.any():
        keep = np.flatnonzero(~drop)
        words, mat = words[keep], np.asarray(mat)[keep]
    words, mat = drop_duplicates(words, mat, report)
    if mat.dtype != np.float32:
        mat = mat.astype(np.float32)
    return words, mat
