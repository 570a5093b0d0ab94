"""``wordgames results``: merge results stores and show them as one table.

Heavy imports stay inside the command bodies.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Merge results stores of several runs and show them as one table.", no_args_is_help=True
)

FORMATS = ("rich", "csv", "markdown", "latex")
#: file name of ``results table --out FOLDER``, by format
TABLE_FILES = {
    "rich": "results-table.txt",
    "csv": "results-table.csv",
    "markdown": "results-table.md",
    "latex": "results-table.tex",
}


@app.command("merge")
def merge(
    sources: Annotated[
        list[Path], typer.Argument(help="Output folders (results stores) of earlier runs.")
    ],
    into: Annotated[
        Path,
        typer.Option(
            "--into", metavar="FOLDER", help="Store to merge them into (created if needed)."
        ),
    ],
    overwrite: Annotated[
        bool,
        typer.Option(help="Replace results the target already holds (default: keep the target's)."),
    ] = False,
):
    """Copy every result of SOURCES into the store INTO (same key = same numbers: kept once).

    Results are keyed by the embedding's content: two different embeddings under one name are
    both kept, and tables and the report tell them apart by a short sha256 suffix.
    """
    from wordgames.cli.common import fail
    from wordgames.results.store import ResultStore

    target = ResultStore(into)
    total = 0
    for src in sources:
        if not (src / "records").is_dir():
            fail(f"{src} holds no results store (no {src / 'records'} folder)")
        refused = len(target.quarantined)
        added = target.merge_from(src, overwrite=overwrite)
        typer.echo(f"{src}: {added} of {len(ResultStore(src))} result(s) added")
        for what in target.quarantined[refused:]:  # a damaged record of the source: not copied
            typer.echo(f"  {what}")
        total += added
    typer.echo(f"{into}: {len(target)} result(s) ({total} added)")
    for name, shas in target.name_clashes().items():
        shown = ", ".join(f"'{name} ({s[:8]})'" for s in shas)
        typer.echo(
            f"note: {len(shas)} different embeddings are named '{name}' (different vectors); "
            f"tables and the report show them as {shown}"
        )


@app.command("table")
def table(
    store: Annotated[Path, typer.Argument(help="An output folder (results store).")],
    measure: Annotated[
        list[str] | None,
        typer.Option(
            "-m", "--measure", metavar="MEASURE", help="Only these measures (repeatable)."
        ),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="FORMAT",
            help="rich (default), csv, markdown or latex (a booktabs table, thin values marked).",
        ),
    ] = "rich",
    wide: Annotated[
        bool,
        typer.Option(
            help="One row per score (measure, data set, agent, partner, metric), one column per "
            "subject."
        ),
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FOLDER",
            help="Folder to write the table into, as results-table.txt, .csv or .md by --format "
            "(default: print it).",
        ),
    ] = None,
):
    """Every stored score of every embedding and measure, as one table.

    Columns: subject, measure, data set, agent (and partner), metric, value, 95 % interval, n
    and the items skipped (in words); thin scores say why. Two different embeddings under one name
    are told apart by a short sha256 suffix. The console table never cuts a name: it is split
    per measure, and into several tables or 'name: value' lines when the terminal is narrow.
    """
    from wordgames.cli.common import fail
    from wordgames.results.store import ResultStore

    if fmt not in FORMATS:
        fail(f"unknown --format {fmt!r}; use rich, csv, markdown or latex")
    if not (store / "records").is_dir():
        fail(f"{store} holds no results store (no {store / 'records'} folder)")
    df = ResultStore(store).table()
    if measure:
        df = df[df["measure"].isin(measure)]
    thin = {
        (r.measure, r.dataset, r.agent, r.partner, r.metric, r.subject)
        for r in df.itertuples(index=False)
        if r.thin
    }
    if wide:
        df = wide_frame(df)
    if fmt == "rich":
        text = _print_rich(df, store, wide=wide, record=out is not None, thin=thin)
        if out is None:
            return
    elif fmt == "csv":
        text = (df if wide else df.drop(columns=["subject_sha256"])).to_csv(index=False)
    elif fmt == "latex":
        text = latex(df, thin, wide=wide)
    else:
        text = markdown(df if wide else df.drop(columns=["subject_sha256"]))
    if out is None:
        typer.echo(text, nl=False)
        return
    out.mkdir(parents=True, exist_ok=True)
    path = out / TABLE_FILES[fmt]
    path.write_text(text, encoding="utf-8")
    typer.echo(f"wrote {path}")


#: what names a score within a subject's results: the wide table's row keys
KEYS = ("measure", "dataset", "agent", "partner", "metric")


def wide_frame(df):
    """One row per (measure, dataset, agent, partner, metric), one column per subject label."""
    keys = list(KEYS)
    labels = list(dict.fromkeys(df["subject"]))
    wide = (
        df.drop_duplicates(subset=[*keys, "subject"])
        .set_index([*keys, "subject"])["value"]
        .unstack("subject")
        .reset_index()
    )
    wide.columns.name = None
    return wide[[*keys, *labels]]


def markdown(df) -> str:
    """A DataFrame as a Markdown table (numbers as in the report)."""
    cols = [str(c) for c in df.columns]
    rows = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    rows += [
        "| " + " | ".join(_fmt(v).replace("|", "\\|") for v in rec) + " |"
        for rec in df.itertuples(index=False)
    ]
    return "\n".join(rows) + "\n"


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text) -> str:
    r"""User text made safe inside a LaTeX table.

    >>> print(latex_escape("human_receiver.map & 50%"))
    human\_receiver.map \& 50\%
    """
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def latex(df, thin: set, *, wide: bool) -> str:
    """The table as LaTeX (booktabs): one number format, thin values marked with a dagger.

    Long: subject, measure, data set, agent, partner, metric, value, 95 % interval, n. Wide:
    one row per score, one column per subject. ``thin``: the (measure, dataset, agent,
    partner, metric, subject) of the thin scores.
    """
    from wordgames.report.text import finite, format_number

    keys = list(KEYS)
    if wide:
        labels = [c for c in df.columns if c not in keys]
        head = [latex_escape(h) for h in (*keys, *labels)]
        rows = []
        for r in df.itertuples(index=False):
            vals = dict(zip(df.columns, r, strict=True))
            k = tuple(str(vals[x]) for x in keys)
            cells = [latex_escape(x) for x in k]
            for lab in labels:
                mark = r"$^\dagger$" if (*k, lab) in thin else ""
                cells.append(format_number(vals[lab]) + mark)
            rows.append(cells)
        align = "l" * len(keys) + "r" * len(labels)
    else:
        head = [*(latex_escape(h) for h in ("subject", *keys, "value")), r"95\% CI", "n"]
        rows = []
        for r in df.itertuples(index=False):
            mark = (
                r"$^\dagger$"
                if (r.measure, r.dataset, r.agent, r.partner, r.metric, r.subject) in thin
                else ""
            )
            ci = (
                f"[{format_number(r.ci_low)}, {format_number(r.ci_high)}]"
                if finite(r.ci_low)
                else ""
            )
            n = "" if r.n is None or r.n != r.n else format_number(int(r.n))
            rows.append(
                [latex_escape(x) for x in (r.subject, *(getattr(r, k) for k in KEYS))]
                + [format_number(r.value) + mark, ci, n]
            )
        align = "l" * (1 + len(KEYS)) + "rrr"
    lines = [
        f"\\begin{{tabular}}{{{align}}}",
        "\\toprule",
        " & ".join(head) + r" \\",
        "\\midrule",
        *(" & ".join(c) + r" \\" for c in rows),
        "\\bottomrule",
        "\\end{tabular}",
    ]
    if thin:
        lines.append(
            r"\par\footnotesize $^\dagger$ thin: too little coverage or too few items to rank."
        )
    return "\n".join(lines) + "\n"


def _print_rich(df, store: Path, *, wide: bool, record: bool, thin: set) -> str:
    """Print the table per measure (names never cut); returns the text when ``record``.

    ``thin``: the (measure, dataset, agent, partner, metric, subject) of the thin scores, marked
    ``(thin)`` in the wide table.
    """
    from wordgames.cli.common import console as make_console
    from wordgames.textio import literal

    con = make_console(record=True, width=200) if record else make_console()
    con.print(literal(f"{store}: {len(df)} row(s)"), highlight=False, soft_wrap=True)
    for m in dict.fromkeys(df["measure"]):
        con.print(f"\n[bold]{literal(m)}[/]", highlight=False, soft_wrap=True)
        part = df[df["measure"] == m]
        if wide:
            _print_wide(con, part, thin)
        else:
            _print_long(con, part)
    return con.export_text() if record else ""


def _fits(con, cols, rows, keys: int) -> bool:
    """Whether the table fits the console as one table (no split, no ``name: value`` lines)."""
    from rich.text import Text

    from wordgames.cli.tables import Col, column_groups, column_width

    cols = [c if isinstance(c, Col) else Col(str(c)) for c in cols]
    plain = [[Text.from_markup(c).plain for c in row] for row in rows]
    widths = [column_width(c, [r[i] for r in plain]) for i, c in enumerate(cols)]
    groups = column_groups(widths, keys, con.width)
    return groups is not None and len(groups) == 1


def _groups(part, by: list[str]):
    """``(heading, rows)`` per distinct value of the ``by`` columns, in first-seen order."""
    for key, rows in part.groupby(by, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        yield " · ".join(str(k) for k in key if str(k)), rows


def _print_long(con, part) -> None:
    """The long rows: one table, or one table per (subject, data set, agent) if narrow."""
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    tail = [
        Col("value", "right"),
        Col("95 % CI", "right"),
        Col("n", "right"),
        Col("skipped", wrap=True),
        Col("thin (not ranked)", wrap=True),
    ]
    rows = [_long_row(r) for r in part.itertuples(index=False)]
    cols = ["subject", "data set", "agent", "metric", *tail]
    if _fits(con, cols, _escaped(rows), keys=4):
        print_table(con, cols, _escaped(rows), keys=4)
        return
    for heading, g in _groups(part, ["subject", "dataset", "agent", "partner"]):
        sub = [_long_row(r)[3:] for r in g.itertuples(index=False)]
        keep = [0, 1, 2, 3]  # metric, value, CI, n; skipped and thin said once when shared
        for k, label in ((4, ""), (5, "thin, not ranked: ")):
            said = {r[k] for r in sub}
            if len(said) == 1:
                heading += f" · {label}{said.pop()}" if sub[0][k] else ""
            else:
                keep.append(k)
        con.print(literal(heading), highlight=False, soft_wrap=True)
        print_table(
            con,
            [(["metric", *tail])[k] for k in keep],
            _escaped([[r[k] for k in keep] for r in sub]),
        )


def _escaped(rows) -> list[list[str]]:
    from wordgames.textio import literal

    return [[literal(c) for c in row] for row in rows]


def _wide_cell(r, lab: str, thin: set) -> str:
    key = (*(r[k] for k in KEYS), lab)
    return _fmt(r[lab]) + (" (thin)" if key in thin else "")


def _print_wide(con, part, thin: set) -> None:
    """Scores x subjects: one table, or one table per (data set, agent) if narrow."""
    from wordgames.cli.tables import Col, print_table
    from wordgames.report.text import agent_text
    from wordgames.textio import literal

    labels = [c for c in part.columns if c not in KEYS]
    values = [Col(lab, "right") for lab in labels]
    rows = [
        [literal(str(r["dataset"])), literal(agent_text(r)),
         literal(str(r["metric"]))] + [_wide_cell(r, lab, thin) for lab in labels]
        for _, r in part.iterrows()
    ]  # fmt: skip
    cols = ["data set", "agent", "metric", *values]
    if _fits(con, cols, rows, keys=3):
        print_table(con, cols, rows, keys=3)
        return
    for heading, g in _groups(part, ["dataset", "agent", "partner"]):
        con.print(literal(heading), highlight=False, soft_wrap=True)
        sub = [
            [literal(str(r["metric"]))] + [_wide_cell(r, lab, thin) for lab in labels]
            for _, r in g.iterrows()
        ]
        print_table(con, ["metric", *values], sub)


def _long_row(r) -> list[str]:
    """The cells of one long row, as plain text (escaped where printed)."""
    from wordgames.report.text import agent_text, finite, format_number, skipped_text

    ci = f"[{format_number(r.ci_low)}, {format_number(r.ci_high)}]" if finite(r.ci_low) else ""
    n = None if r.n is None or r.n != r.n else int(r.n)
    return [
        str(r.subject),
        str(r.dataset),
        agent_text(r),
        str(r.metric),
        format_number(r.value),
        ci,
        format_number(n) if n is not None else "",
        skipped_text(
            r.n_skipped, n, r.skip_reason, getattr(r, "n_oov", 0), getattr(r, "n_unread", 0)
        ),
        (r.thin_reason or "yes") if r.thin else "",
    ]


def _fmt(value) -> str:
    from wordgames.report.text import format_number

    if value is None:
        return ""
    if isinstance(value, float):
        return "" if value != value else format_number(value)
    return str(value)
