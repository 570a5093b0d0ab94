"""Odd-Man-Out puzzles: the :class:`PuzzleSet` type, its file formats and the word-order shuffle.

A puzzle is ``n >= 5`` words of which exactly one, the *odd man*, does not belong with the
others. The upstream files always list the odd man first (second field after the category),
so every reader here hands solvers the words in a seeded random order and keeps the index of
the answer: a solver that returned "the first word" would score at chance, not 100 %.

Formats for users' own puzzles
------------------------------
TSV (the upstream layout), one puzzle a line, tab-separated, ``#`` lines are comments::

    CATEGORY <tab> ODD-MAN <tab> WORD <tab> WORD <tab> WORD <tab> WORD [<tab> WORD ...]

The category may be empty. JSONL, one object a line::

    {"words": ["cherry", "orange", "apple", "grass", "grape"], "answer": "grass",
     "category": "fruit"}

Every puzzle of one file must have the same number of words.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordgames.errors import DataFormatError
from wordgames.textio import BAD_WORD_CHARS, bad_word_reason, decode_utf8, parse_json, strip_bom

MIN_WORDS = 5


@dataclass(frozen=True)
class PuzzleSet:
    """A set of Odd-Man-Out puzzles with the same number of words.

    Parameters
    ----------
    name : short name used in tables (``"anomia-common-test"``)
    words : object array of shape (P, n): the words of each puzzle in the order solvers see
    answer : int array of shape (P,): index (into ``words[p]``) of the odd man
    categories : object array of shape (P,): the category of the n-1 others ("" if unknown)
    source : where the puzzles came from (a path)
    report : what the reader found and repaired (counts), for result records
    lines : 1-based line (record) number of each puzzle in ``source`` (0 if none)

    Examples
    --------
    >>> ps = PuzzleSet.from_odd_first("toy", [["grass", "cherry", "orange", "apple", "grape"]],
    ...                               seed=0)
    >>> ps.answer_words().tolist()
    ['grass']
    >>> sorted(ps.words[0].tolist())
    ['apple', 'cherry', 'grape', 'grass', 'orange']
    """

    name: str
    words: np.ndarray
    answer: np.ndarray
    categories: np.ndarray
    source: str = ""
    report: dict = field(default_factory=dict)
    lines: np.ndarray | None = None

    def __post_init__(self):
        words = np.asarray(self.words, dtype=object)
        if words.ndim != 2:
            raise ValueError(f"words must have shape (P, n), got {words.shape}")
        if len(words) and words.shape[1] < MIN_WORDS:
            raise ValueError(f"a puzzle needs at least {MIN_WORDS} words, got {words.shape[1]}")
        answer = np.asarray(self.answer, dtype=np.int64)
        if answer.shape != (len(words),):
            raise ValueError("answer must hold one index per puzzle")
        if len(words) and (answer.min() < 0 or answer.max() >= words.shape[1]):
            raise ValueError("answer index out of range")
        cats = np.asarray(self.categories, dtype=object)
        if cats.shape != (len(words),):
            raise ValueError("categories must hold one entry per puzzle")
        lines = (
            np.zeros(len(words), dtype=np.int64)
            if self.lines is None
            else np.asarray(self.lines, dtype=np.int64)
        )
        for name, value in (
            ("words", words),
            ("answer", answer),
            ("categories", cats),
            ("lines", lines),
        ):
            value.flags.writeable = False
            object.__setattr__(self, name, value)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_odd_first(
        cls,
        name: str,
        rows: Sequence[Sequence[str]],
        *,
        categories=None,
        seed: int | None = 0,
        source: str = "",
        report: dict | None = None,
        lines=None,
    ) -> PuzzleSet:
        """Build a set from rows that list the odd man first, shuffling each row's words.

        ``seed`` seeds the per-puzzle permutations (``np.random.default_rng(seed)``). With
        ``seed=None`` the words are put in sorted order instead (a canonical order that
        also hides the answer's position).
        """
        if isinstance(rows, np.ndarray) and rows.ndim == 2:
            arr = rows.astype(object, copy=False)
        else:
            arr = np.asarray([list(r) for r in rows], dtype=object)
        if arr.size == 0:
            arr = np.empty((0, MIN_WORDS), dtype=object)
        P, n = arr.shape
        if seed is None:
            perm = np.argsort(arr.astype(str), axis=1, kind="stable")
        else:
            rng = np.random.default_rng(seed)
            perm = rng.permuted(np.tile(np.arange(n), (P, 1)), axis=1)
        words = np.take_along_axis(arr, perm, axis=1)
        answer = np.argmin(perm, axis=1)  # where original column 0 (the odd man) went
        cats = (
            np.full(P, "", dtype=object)
            if categories is None
            else np.asarray(categories, dtype=object)
        )
        rep = dict(report or {})
        rep.setdefault("order", "sorted" if seed is None else f"seeded permutation (seed={seed})")
        return cls(name, words, answer, cats, source=source, report=rep, lines=lines)

    # ------------------------------------------------------------------ access
    def __len__(self) -> int:
        return int(self.words.shape[0])

    @property
    def n_words(self) -> int:
        return int(self.words.shape[1])

    def answer_words(self) -> np.ndarray:
        return self.words[np.arange(len(self)), self.answer]

    def take(self, rows, *, name: str | None = None) -> PuzzleSet:
        rows = np.asarray(rows)
        return PuzzleSet(
            name or self.name,
            self.words[rows],
            self.answer[rows],
            self.categories[rows],
            source=self.source,
            report=dict(self.report),
            lines=self.lines[rows],
        )

    def vocabulary(self) -> list[str]:
        """The distinct words of the set, sorted."""
        return sorted(set(self.words.ravel().tolist()))

    def odd_first(self) -> np.ndarray:
        """Rows with the odd man first and the others in their current order."""
        P, n = self.words.shape
        if P == 0:
            return self.words.copy()
        rest = np.ones((P, n), dtype=bool)
        rest[np.arange(P), self.answer] = False
        others = self.words[rest].reshape(P, n - 1)
        return np.concatenate([self.answer_words()[:, None], others], axis=1)

    def to_records(self) -> list[dict]:
        return [
            {"category": c, "words": list(w), "answer": w[a]}
            for c, w, a in zip(
                self.categories.tolist(), self.words.tolist(), self.answer.tolist(), strict=True
            )
        ]


# ---------------------------------------------------------------------- user formats
def write_puzzles(puzzles: PuzzleSet, path: str | Path) -> Path:
    """Write a set as TSV (upstream layout) or JSONL (by the file suffix ``.jsonl``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".jsonl":
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in puzzles.to_records())
    else:
        rows = puzzles.odd_first()
        for bad in ("\t", "\n", "\r"):
            if any(bad in w for w in rows.ravel().tolist()) or any(
                bad in c for c in puzzles.categories.tolist()
            ):
                raise ValueError(f"a word or category holds {bad!r}: cannot write it as TSV")
        text = "".join(
            "\t".join([c, *r]) + "\n"
            for c, r in zip(puzzles.categories.tolist(), rows.tolist(), strict=True)
        )
    path.write_text(text, encoding="utf-8")
    return path


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        raise DataFormatError(path, None, "puzzle file not found") from None
    return decode_utf8(data, path)


def split_lines(text: str) -> list[str]:
    r"""Lines of ``text``, split at LF, CRLF and CR only.

    ``str.splitlines`` also splits at form feeds, ``U+0085`` and the Unicode line separators,
    which would hide those control characters inside a word and shift the line numbers.

    >>> split_lines("a\rb\r\nc\x0cd\n")
    ['a', 'b', 'c\x0cd']
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _tsv_puzzle(raw: str, path: Path, lineno: int) -> tuple[str, list[str], int]:
    """Category, words (odd man first) and fields stripped of one TSV line."""
    fields = raw.split("\t")
    _check_control(path, lineno, fields)  # before stripping: strip() would drop some of them
    clean = [f.strip() for f in fields]
    if len(clean) < 1 + MIN_WORDS:
        raise DataFormatError(
            path,
            lineno,
            f"expected CATEGORY<tab>ODD-MAN<tab>{MIN_WORDS - 1} "
            f"or more words ({1 + MIN_WORDS}+ tab-separated fields), "
            f"found {len(clean)} field(s)",
        )
    return clean[0], clean[1:], sum(a != b for a, b in zip(fields, clean, strict=True))


_JSONL_SHAPE = 'expected {"words": [...], "answer": "...", "category": "..." (optional)}'


def _jsonl_puzzle(raw: str, path: Path, lineno: int) -> tuple[str, list[str], int]:
    """Category, words (odd man first) and fields stripped of one JSONL line."""
    obj = parse_json(raw, path, lineno, "not valid JSON ({})")
    if (
        not isinstance(obj, dict)
        or not isinstance(obj.get("words"), list)
        or not isinstance(obj.get("answer"), str)
    ):
        raise DataFormatError(path, lineno, _JSONL_SHAPE)
    for i, w in enumerate(obj["words"], start=1):
        if not isinstance(w, str):
            raise DataFormatError(
                path, lineno, f"word {i} is not a string ({type(w).__name__}); {_JSONL_SHAPE}"
            )
    cat = obj.get("category")
    if cat is not None and not isinstance(cat, str):
        raise DataFormatError(
            path, lineno, f"the category is not a string ({type(cat).__name__}); {_JSONL_SHAPE}"
        )
    _check_control(path, lineno, [*obj["words"], obj["answer"], cat or ""])
    ws = [w.strip() for w in obj["words"]]
    stripped = sum(a != b for a, b in zip(obj["words"], ws, strict=True))
    ans = obj["answer"].strip()
    if ws.count(ans) != 1:
        raise DataFormatError(path, lineno, f"answer {ans!r} must occur exactly once in words")
    if len(ws) < MIN_WORDS:
        raise DataFormatError(
            path, lineno, f"a puzzle needs at least {MIN_WORDS} words, found {len(ws)}"
        )
    return (cat or "").strip(), [ans] + [w for w in ws if w != ans], stripped


def _check_control(path: Path, lineno: int, fields: list[str]) -> None:
    """Raise :class:`DataFormatError` at the first field holding a control character."""
    for f in fields:
        m = BAD_WORD_CHARS.search(f)
        if m:
            raise DataFormatError(
                path, lineno, f"the field {f!r} holds the control character U+{ord(m.group()):04X}"
            )


def _check_puzzle(path: Path, lineno: int, cat: str, words: list[str]) -> None:
    """Raise :class:`DataFormatError` for an empty word, a control character or a repeat."""
    if any(not w for w in words):
        raise DataFormatError(path, lineno, "empty word")
    for w in words:
        why = bad_word_reason(w)
        if why:
            raise DataFormatError(path, lineno, f"the word {w!r} {why}")
    why = bad_word_reason(cat) if cat else None
    if why:
        raise DataFormatError(path, lineno, f"the category {cat!r} {why}")
    if len(set(words)) != len(words):
        raise DataFormatError(path, lineno, "a word occurs twice in the puzzle")


def read_puzzles(
    path: str | Path, *, name: str | None = None, seed: int | None = 0, fmt: str = "auto"
) -> PuzzleSet:
    """Read a user's puzzle file (TSV in the upstream layout, or JSONL; see the module doc).

    Fields are stripped of surrounding spaces (counted in ``report["stripped_fields"]``), a
    leading byte-order mark is dropped (``report["bom_removed"]``). Any malformed line raises
    :class:`~wordgames.errors.DataFormatError` naming the line: too few words, an empty or
    repeated word, a word or category holding a control character (NUL, escape, a line
    separator...), a JSON word that is not a string. Line ends may be LF, CRLF or CR.
    """
    path = Path(path)
    if fmt == "auto":
        fmt = "jsonl" if path.suffix in (".jsonl", ".json") else "tsv"
    if fmt not in ("tsv", "jsonl"):
        raise ValueError(f"fmt must be 'auto', 'tsv' or 'jsonl', got {fmt!r}")
    text, bom = strip_bom(_read_text(path))
    parse = _tsv_puzzle if fmt == "tsv" else _jsonl_puzzle
    rows, cats, lines = [], [], []
    stripped = 0
    for lineno, raw in enumerate(split_lines(text), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        cat, words, n_stripped = parse(raw, path, lineno)
        stripped += n_stripped
        _check_puzzle(path, lineno, cat, words)
        if rows and len(words) != len(rows[0]):
            raise DataFormatError(
                path,
                lineno,
                f"this puzzle has {len(words)} words but line "
                f"{lines[0]} has {len(rows[0])}: put puzzles of different "
                "sizes in different files",
            )
        rows.append(words)
        cats.append(cat)
        lines.append(lineno)
    if not rows:
        raise DataFormatError(path, None, "no puzzles found")
    report = {"format": fmt, "puzzles": len(rows), "stripped_fields": stripped}
    if bom:
        report["bom_removed"] = 1
    return PuzzleSet.from_odd_first(
        name or path.stem,
        rows,
        categories=cats,
        seed=seed,
        source=str(path),
        report=report,
        lines=lines,
    )
