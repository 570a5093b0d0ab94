"""Declared tables: the typed rows a measure keeps beside its Score rows.

A measure's result has two outputs: :class:`~wordgames.measure.Score` rows (one number each,
with its interval, ``n`` and what was skipped) and *tables*, rows of related values that a
paper lays out together (the Odd-Man-Out Table 3, the WALES task-set distributions, the CBM
translation). Each table a measure writes is declared in its :class:`~wordgames.measure.Measure`
record (``tables=``) with its columns and their types; :func:`check_tables` holds every result
to its declaration before the result is stored, so the CLI, the report and the web app read
rows whose shape is known. A table that is not declared, a column that is not declared or a
value of another type is an error of the measure, named with the table, row and column.

This module imports nothing heavy.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass

#: column types: a trailing ``?`` lets the value be missing (None)
TYPES = ("str", "int", "float", "bool", "list", "dict")


class TableError(ValueError):
    """A result's table that does not match its declaration."""


@dataclass(frozen=True)
class Column:
    """One column of a declared table.

    Parameters
    ----------
    name : str
        The key in each row.
    type : str
        One of ``str``, ``int``, ``float``, ``bool``, ``list``, ``dict``; a trailing ``?``
        allows None (a value that does not exist for that row). ``float`` takes integers and
        NaN too.
    description : str
        One line.

    Examples
    --------
    >>> Column("n", "int").accepts(3), Column("n", "int").accepts(3.5)
    (True, False)
    >>> Column("ci_low", "float?").accepts(None), Column("ci_low", "float").accepts(None)
    (True, False)
    """

    name: str
    type: str
    description: str = ""

    def __post_init__(self):
        if self.type.rstrip("?") not in TYPES:
            raise ValueError(f"column {self.name!r}: type {self.type!r} is not one of {TYPES}")

    @property
    def nullable(self) -> bool:
        return self.type.endswith("?")

    def accepts(self, value) -> bool:
        """Whether ``value`` is of this column's type (None only where the type ends in ``?``)."""
        if value is None:
            return self.nullable
        kind = self.type.rstrip("?")
        if kind == "float":
            return isinstance(value, numbers.Real) and not isinstance(value, bool)
        if kind == "int":
            return isinstance(value, numbers.Integral) and not isinstance(value, bool)
        if kind == "bool":
            return isinstance(value, bool) or type(value).__name__ == "bool_"
        if kind == "str":
            return isinstance(value, str)
        if kind == "list":
            return isinstance(value, list | tuple)
        return isinstance(value, Mapping)


@dataclass(frozen=True)
class Table:
    """The declaration of one table a measure writes.

    Parameters
    ----------
    name : str
        The table's key in ``MeasureResult.tables``; a trailing ``*`` declares every name with
        that prefix (``substitution_*``: one table per substitution experiment).
    columns : tuple of Column
        Every column a row may have; a row may leave out a column whose type ends in ``?``.
    description : str
        One line: what a row is.

    Examples
    --------
    >>> t = Table("spectrum", (Column("index", "int"), Column("share", "float")))
    >>> t.matches("spectrum"), Table("sub_*", ()).matches("sub_animals")
    (True, True)
    """

    name: str
    columns: tuple[Column, ...]
    description: str = ""

    def __post_init__(self):
        names = [c.name for c in self.columns]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"table {self.name!r}: columns declared twice: {dup}")

    def matches(self, name: str) -> bool:
        if self.name.endswith("*"):
            return name.startswith(self.name[:-1])
        return name == self.name

    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]

    def problem(self, rows) -> str:
        """What is wrong with ``rows`` (``""``: nothing): the first row and column that break it."""
        if not isinstance(rows, list):
            return f"expected a list of rows, got {type(rows).__name__}"
        cols = {c.name: c for c in self.columns}
        for i, row in enumerate(rows):
            if not isinstance(row, Mapping):
                return f"row {i}: expected a mapping, got {type(row).__name__}"
            extra = [k for k in row if k not in cols]
            if extra:
                return f"row {i}: column(s) {extra} not declared ({', '.join(cols)})"
            for c in self.columns:
                if c.name not in row:
                    if not c.nullable:
                        return f"row {i}: column {c.name!r} ({c.type}) is missing"
                elif not c.accepts(row[c.name]):
                    value = row[c.name]
                    return (
                        f"row {i}: column {c.name!r} expects {c.type}, got "
                        f"{type(value).__name__} {_short(value)}"
                    )
        return ""


def answers_table() -> Table:
    """The transcript of a player that sends requests (a chat model): one row per question.

    Declared by every measure a chat subject can play, so that each item's raw answer is kept in
    the result for error analysis; ``prompt_sha256`` names the exact prompt (the question's
    prompt file filled in), ``cached`` whether the answer came from the response cache.
    """
    return Table(
        "answers",
        columns("game:str role:str question:str prompt_sha256:str answer:str cached:bool"),
        "a player's raw answer to one question (chat subjects)",
    )


def answers_read_table() -> Table:
    """How a player's answers were read (:mod:`wordgames.reading`): one row per agent and task.

    The answers read, each rule's use (:data:`~wordgames.reading.READ_RULES`), the answers
    re-prompted and those still unreadable (the format failures). Declared beside
    :func:`answers_table` by every measure a player can play.
    """
    from wordgames.reading import READ_RULES

    rules = " ".join(f"{r}:int" for r in READ_RULES)
    return Table(
        "answers_read",
        columns(
            f"dataset:str agent:str task:str answers:int {rules} reprompted:int unreadable:int"
        ),
        "how a player's answers were read: each rule's use, re-prompts, format failures",
    )


def columns(spec: str) -> tuple[Column, ...]:
    """Columns from a compact ``"name:type name:type?"`` list (whitespace between columns).

    >>> [(c.name, c.type) for c in columns("benchmark:str  n_pairs:int ci_low:float?")]
    [('benchmark', 'str'), ('n_pairs', 'int'), ('ci_low', 'float?')]
    """
    out = []
    for item in spec.split():
        name, sep, kind = item.rpartition(":")
        if not sep or not name:
            raise ValueError(f"column {item!r}: expected name:type")
        out.append(Column(name, kind))
    return tuple(out)


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_tables(measure: str, declared, tables: Mapping) -> None:
    """Raise :class:`TableError` unless every table in ``tables`` is declared and matches.

    Examples
    --------
    >>> decl = (Table("t", (Column("a", "int"), Column("b", "float?"))),)
    >>> check_tables("m", decl, {"t": [{"a": 1, "b": None}, {"a": 2}]})
    >>> check_tables("m", decl, {"t": [{"a": "x"}]})
    Traceback (most recent call last):
    ...
    wordgames.tables.TableError: measure 'm', table 't': row 0: column 'a' expects int, got str 'x'
    >>> check_tables("m", decl, {"u": []})
    Traceback (most recent call last):
    ...
    wordgames.tables.TableError: measure 'm': table 'u' is not declared (declared: t)
    """
    for name, rows in tables.items():
        table = next((t for t in declared if t.matches(name)), None)
        if table is None:
            known = ", ".join(t.name for t in declared) or "none"
            raise TableError(
                f"measure {measure!r}: table {name!r} is not declared (declared: {known})"
            )
        why = table.problem(rows)
        if why:
            raise TableError(f"measure {measure!r}, table {name!r}: {why}")
