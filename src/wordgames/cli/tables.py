"""Console tables that never cut a name: split into several tables when the terminal is narrow.

Rich shortens cells with an ellipsis when a table is wider than the console; a data-set,
metric or agent name cut to ``crowdsourc…`` is worse than no table. :func:`print_table`
measures every column (cells never wrap; headers may wrap at spaces) and, when the table is
wider than the console, prints the columns after the key columns in several tables, each
repeating the key columns. A table whose key columns and widest column alone do not fit is
printed as ``header: value`` lines (the terminal wraps them; nothing is cut).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: characters a column adds besides its content in rich's default box: padding and a border
_COLUMN_EXTRA = 3


@dataclass(frozen=True)
class Col:
    """A column: its header, how its cells are justified (numbers right), whether they wrap.

    ``wrap=True`` is for prose (descriptions, notes): its cells wrap at spaces. Names and
    numbers never wrap.
    """

    header: str
    justify: str = "left"
    wrap: bool = False


def _as_col(c) -> Col:
    return c if isinstance(c, Col) else Col(str(c))


def column_width(col: Col, cells: Sequence[str]) -> int:
    """Width a column needs: its widest cell (word, for prose), and its header's longest word.

    Examples
    --------
    >>> column_width(Col("excluded (no vector)"), ["20", "3"])
    8
    >>> column_width(Col("description", wrap=True), ["a long text", "words"])
    11
    """
    from rich.cells import cell_len

    words = col.header.split() or [""]
    if col.wrap:
        words += [w for c in cells for w in c.split()]
        return max(cell_len(w) for w in words)
    return max([cell_len(w) for w in words] + [cell_len(c) for c in cells])


def column_groups(widths: Sequence[int], keys: int, max_width: int) -> list[list[int]] | None:
    """Indices of the non-key columns of each table so that each fits in ``max_width``.

    ``None`` when the key columns and one other column alone are too wide.

    Examples
    --------
    >>> column_groups([10, 8, 8, 8], keys=1, max_width=80)
    [[1, 2, 3]]
    >>> column_groups([10, 30, 30, 30], keys=1, max_width=80)
    [[1, 2], [3]]
    >>> column_groups([70, 30], keys=1, max_width=80) is None
    True
    """
    base = 1 + sum(w + _COLUMN_EXTRA for w in widths[:keys])
    groups: list[list[int]] = []
    used = base
    for i in range(keys, len(widths)):
        need = widths[i] + _COLUMN_EXTRA
        if base + need > max_width:
            return None
        if not groups or used + need > max_width:
            groups.append([])
            used = base
        groups[-1].append(i)
        used += need
    return groups or [[]]


def _widened(
    cols: list[Col], widths: list[int], part: list[int], max_width: int, natural: list[int]
) -> list[int]:
    """The widths of one table's columns, widened while room is left.

    First so that headers fit on one line, then so that prose (``natural``: its longest cell)
    wraps less.
    """
    from rich.cells import cell_len

    out = [widths[i] for i in part]
    room = max_width - 1 - sum(w + _COLUMN_EXTRA for w in out)
    for k, i in enumerate(part):  # a header on one line, where it fits whole
        grow = max(0, cell_len(cols[i].header) - out[k])
        if grow <= room:
            out[k] += grow
            room -= grow
    for k, i in enumerate(part):  # prose takes the room left
        if cols[i].wrap:
            grow = min(room, max(0, natural[i] - out[k]))
            out[k] += grow
            room -= grow
    return out


def print_table(con, columns, rows, *, title: str | None = None, keys: int = 1) -> None:
    """Print ``rows`` (strings, already formatted and escaped) under ``columns``, never cut.

    Parameters
    ----------
    con : rich.console.Console
        Where to print; its width decides the layout.
    columns : sequence of Col or str
        The headers (plain text: they are escaped here).
    rows : sequence of sequence of str
        Rich markup allowed (escape user text before).
    title : str, optional
        Printed above the first table (markup allowed).
    keys : int
        Leading columns that name a row (repeated in every table when split).
    """
    from rich.cells import cell_len
    from rich.table import Table
    from rich.text import Text

    from wordgames.textio import literal

    cols = [_as_col(c) for c in columns]
    plain = [[Text.from_markup(c).plain for c in row] for row in rows]
    widths = [column_width(c, [r[i] for r in plain]) for i, c in enumerate(cols)]
    natural = [max([cell_len(r[i]) for r in plain] + [w]) for i, w in enumerate(widths)]
    groups = column_groups(widths, keys, con.width)
    if groups is None:
        _print_records(con, cols, rows, title)
        return
    for n, group in enumerate(groups):
        part = list(range(keys)) + group
        table = Table(title=title if n == 0 else None)
        sized = _widened(cols, widths, part, con.width, natural)
        for i, width in zip(part, sized, strict=True):
            table.add_column(
                literal(cols[i].header), justify=cols[i].justify, width=width, overflow="fold"
            )
        for row in rows:
            table.add_row(*(row[i] for i in part))
        con.print(table)


def _print_records(con, cols: list[Col], rows, title: str | None) -> None:
    """One ``header: value`` line per cell, a blank line between rows."""
    from wordgames.textio import literal

    if title:
        con.print(title)
    for row in rows:
        for col, cell in zip(cols, row, strict=True):
            con.print(f"{literal(col.header)}: {cell}", soft_wrap=True)
        con.print()


__all__ = ["Col", "column_groups", "column_width", "print_table"]
