"""Helpers shared by the human-data loaders: word normalisation and strict CSV/JSON reading."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path

from wordgames.errors import DataFormatError


def norm(word) -> str:
    """A word as the canonical records hold it: stripped and lower-case."""
    return str(word).strip().lower()


def norm_all(words: Iterable) -> tuple[str, ...]:
    """Normalise each word and leave out empty ones."""
    return tuple(w for w in (norm(x) for x in words) if w)


def read_csv_rows(path: Path, *, delimiter: str = ",") -> list[tuple[int, list[str]]]:
    """``(physical line, fields)`` of every row of a CSV file.

    Read with Python's tolerant ``csv`` module (the files here are not clean enough for a strict
    parser).
    """
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            reader = csv.reader(fh, delimiter=delimiter)
            out = []
            line = 1
            for row in reader:
                out.append((line, row))
                line = reader.line_num + 1
            return out
    except UnicodeDecodeError as exc:
        raise DataFormatError(path, None, f"not UTF-8 text ({exc.reason})") from exc
    except csv.Error as exc:
        raise DataFormatError(path, None, f"unreadable CSV: {exc}") from exc


def read_json(path: Path):
    """A whole JSON document, with the line of a syntax error in the message."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except json.JSONDecodeError as exc:
        raise DataFormatError(path, exc.lineno, f"invalid JSON: {exc.msg}") from exc
    except UnicodeDecodeError as exc:
        raise DataFormatError(path, None, f"not UTF-8 text ({exc.reason})") from exc


def expect_header(path: Path, found: list[str], expected: list[str]) -> None:
    """Raise :class:`DataFormatError` at line 1 unless ``found`` starts with ``expected``."""
    got = [c.strip() for c in found[: len(expected)]]
    if got != expected:
        bad = next(
            (i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b),
            min(len(got), len(expected)),
        )
        want = expected[bad] if bad < len(expected) else "(end)"
        seen = got[bad] if bad < len(got) else "(missing)"
        raise DataFormatError(
            path, 1, f"header column {bad + 1}: expected {want!r}, found {seen!r}"
        )


def expect_keys(path: Path, obj: dict, keys: Iterable[str], where: str) -> None:
    missing = [k for k in keys if k not in obj]
    if missing:
        raise DataFormatError(
            path, None, f"{where}: missing key(s) {', '.join(map(repr, missing))}"
        )
