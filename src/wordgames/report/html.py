"""A static HTML report of a results folder: opens offline, needs no JavaScript.

One file with inline CSS. Plots are embedded as base64 ``data:`` URIs (``images="embed"``, the
default: the file can be mailed or moved alone) or copied beside the HTML into
``<name>_files/`` and linked relatively (``images="copy"``); they are read only from inside the
results folder (:func:`wordgames.report.collect.resolve_plot`). Every piece of text from the
results is escaped with :func:`html.escape`.

The page leads with the results: the leaderboard (each measure's headline scores with 95 %
intervals inside the metric's bounds, ranks where two or more embeddings are ranked, the items
left out in words, thin scores greyed with their reason and never ranked), a folded "Methods"
note (interval method, thinness, ranks), each measure's headline plots, the cross-measure
correlation (or one line saying why it needs three embeddings), then one section per measure:
every Score row (rows that are the same for every embedding, such as human or WordNet
baselines, shown once beside the embeddings' rows), the result's tables, the items left out and
the OOV record in words, notes and the other plots. The run's environment, embeddings,
parameters, data set checksums, timings and skipped measures are folded at the end.
Nothing is special-cased per measure.
"""

from __future__ import annotations

import base64
import html
import json
import math
import shutil
import time
from pathlib import Path

from wordgames.measure import HIGHER, LOWER
from wordgames.paths import safe_name
from wordgames.report.collect import (
    Collection,
    Entry,
    load_results,
    measure_spec,
    resolve_plot,
    thin_policy,
)
from wordgames.report.leaderboard import (
    MIN_EMBEDDINGS,
    PAIRED_RESAMPLES,
    MeasureScores,
    clip_interval,
    correlation_table,
    leaderboard,
    score_label,
)
from wordgames.report.text import (
    agent_text,
    ci_text,
    finite,
    format_number,
    key_words,
    note_text,
    oov_rows,
    pair_matrix,
    reading_agents,
    score_skipped_text,
    skipped_text,
    thin_text,
    value_words,
)
from wordgames.safeio import atomic_target, confine, write_bytes_atomic, write_text_atomic

MAX_COMPARISON_FIGURES = 60  # each costs ~0.1 s to draw; the leaderboard holds every score
MAX_TABLE_ROWS = 2000  # larger tables are cut (the JSON in the results folder has them all)
FOLD_ROWS = 40  # tables longer than this start folded (<details>)

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d1d1f;
background:#fafafa;line-height:1.4}
main{max-width:1280px;margin:0 auto;padding:1rem 2rem 4rem}
header{background:#22313f;color:#fff;padding:1rem 2rem}
header h1{margin:0 0 .2rem;font-size:1.6rem}
header p{margin:0;color:#cfd8dc}
h2{border-bottom:2px solid #22313f;padding-bottom:.2rem;margin-top:2rem}
h2#leaderboard{margin-top:.6rem}
h3{margin-top:1.6rem}
nav{font-size:.85rem;margin:.6rem 0}
nav a{margin-right:.9rem;white-space:nowrap}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.82rem;background:#fff}
th,td{border:1px solid #d0d7de;padding:.25rem .45rem;text-align:left;vertical-align:top}
th{background:#eef2f5;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.num .v,td.num .ci,td.num .rank{white-space:nowrap}
td.best{font-weight:700;background:#e8f5e9}td.tied{background:#f3f9f3}
td.thin{color:#8a8a8a;background:#f2f2f2}
.thinwhy{color:#6d6d6d;font-size:.72rem;display:block;font-style:italic}
.clipped{color:#8a4b00;font-size:.72rem}
.ci{color:#555;font-size:.75rem;display:block}
.oov{color:#a0522d;font-size:.75rem;display:block}
td.num .oov,td.num .thinwhy{max-width:15rem;margin-left:auto}
.rank{color:#37474f;font-size:.72rem;display:block}
.dir{font-weight:400;color:#555;font-size:.72rem;display:block}
.baseline td{background:#fff8e1}
tr.group th{background:#22313f;color:#fff;text-align:left;position:static}
.note{color:#444;font-size:.85rem}
.warn{color:#8a4b00}
code{font-size:.78rem;word-break:break-all}
figure{display:inline-block;margin:.4rem;vertical-align:top;background:#fff;border:1px solid #ddd;
padding:.3rem}
figure img{max-width:min(100%,900px);height:auto;display:block}
figcaption{font-size:.75rem;color:#555}
.gallery figure img{max-width:350px}
.plotgroup{display:inline-block;vertical-align:top;margin-right:.4rem}
.plotgroup h3{margin:.6rem 0 .2rem}
details.fold>summary{font-weight:600;font-size:1.05rem;margin:.4rem 0}
details{margin:.3rem 0 .8rem}
summary{cursor:pointer;color:#22313f}
.wrap{overflow-x:auto}
"""


class Markup(str):
    """Text that is already HTML (built here from escaped parts): not escaped again."""


def esc(value) -> str:
    """Escape any value for HTML text and attributes."""
    return value if isinstance(value, Markup) else html.escape(str(value), quote=True)


def _is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _cell_text(v) -> str:
    if _is_number(v) or v is None:
        return format_number(v)
    return value_words(v)  # a mapping or list in words, never a Python repr


def table(
    headers, rows, *, cls: str = "", row_classes=None, caption: str | None = None, id: str = ""
) -> Markup:
    """An HTML table; cells are escaped unless they are :class:`Markup`."""
    ident = f' id="{esc(id)}"' if id else ""
    out = [f'<div class="wrap"><table class="{esc(cls)}"{ident}>']
    if caption:
        out.append(f"<caption>{esc(caption)}</caption>")
    out.append(
        "<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in headers) + "</tr></thead><tbody>"
    )
    for i, row in enumerate(rows):
        rc = row_classes[i] if row_classes else ""
        cells = []
        for v in row:
            if isinstance(v, Markup):
                cells.append(v if v.startswith(("<td", "<th")) else f"<td>{v}</td>")
            else:
                num = ' class="num"' if _is_number(v) or v is None else ""
                cells.append(f"<td{num}>{esc(_cell_text(v))}</td>")
        out.append(
            f'<tr class="{esc(rc)}">' + "".join(cells) + "</tr>"
            if rc
            else "<tr>" + "".join(cells) + "</tr>"
        )
    out.append("</tbody></table></div>")
    return Markup("".join(out))


def column_format(values) -> callable:
    """One number format for a whole column: integers with separators, else fixed decimals.

    The decimals give the smallest non-zero value of the column three significant digits
    (at most 6), so a column never mixes ``0.01702`` and ``0.009009``.

    >>> f = column_format([0.01702, 0.009009, 0.0])
    >>> [f(v) for v in (0.01702, 0.009009, 0.0)]
    ['0.01702', '0.00901', '0.00000']
    >>> [column_format([1000, 999])(v) for v in (1000, 999)]
    ['1,000', '999']
    """
    nums = [float(v) for v in values if _is_number(v) and math.isfinite(float(v))]
    if not nums or all(float(v).is_integer() for v in nums):
        return format_number
    small = min((abs(v) for v in nums if v), default=1.0)
    decimals = int(min(6, max(0, 2 - math.floor(math.log10(small)))))

    def fmt(v) -> str:
        if not _is_number(v) or not math.isfinite(float(v)):
            return format_number(v)
        return f"{float(v):,.{decimals}f}"

    return fmt


def _constant_columns(rows: list[dict], cols: list[str]) -> dict[str, object]:
    """Columns with one value in every row of a table of several rows (said once, above it)."""
    if len(rows) < 2:
        return {}
    out = {}
    for c in cols:
        first = rows[0].get(c, "")
        if not isinstance(first, dict | list) and all(r.get(c, "") == first for r in rows):
            out[c] = first
    return out


def dict_rows_table(rows: list[dict], *, row_classes=None, fold_title: str | None = None) -> Markup:
    """A table of row dicts (columns: the union of their keys, in first-seen order).

    A column with the same value in every row is said once above the table instead, so the
    table fits the page; each numeric column has one format (:func:`column_format`).
    """
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    same = _constant_columns(rows, cols)
    cols = [c for c in cols if c not in same] or cols
    shown = rows[:MAX_TABLE_ROWS]
    formats = {c: column_format([r.get(c) for r in shown]) for c in cols}
    html_table = table(
        [key_words(c) for c in cols],
        [
            [
                Markup(f'<td class="num">{esc(formats[c](r.get(c)))}</td>')
                if _is_number(r.get(c))
                else r.get(c, "")
                for c in cols
            ]
            for r in shown
        ],
        row_classes=row_classes[:MAX_TABLE_ROWS] if row_classes else None,
    )
    if same and len(same) < len(cols) + len(same):
        said = "; ".join(f"{key_words(c)}: {_cell_text(v)}" for c, v in same.items())
        html_table = Markup(f'<p class="note">in every row: {esc(said)}</p>' + html_table)
    if len(rows) > MAX_TABLE_ROWS:
        html_table = Markup(
            html_table + f'<p class="note">first {MAX_TABLE_ROWS:,} of '
            f"{len(rows):,} rows shown; all are in the JSON results.</p>"
        )
    if fold_title and len(rows) > FOLD_ROWS:
        return Markup(
            f"<details><summary>{esc(fold_title)} ({len(rows):,} rows)</summary>"
            f"{html_table}</details>"
        )
    return html_table


def _direction_label(d: str | None) -> str:
    return {HIGHER: "↑ higher is better", LOWER: "↓ lower is better"}.get(
        d, "descriptive (not ranked)"
    )


def _bounds_label(bounds: tuple[float | None, float | None]) -> str:
    lo, hi = bounds if bounds else (None, None)
    if lo is None and hi is None:
        return ""
    return (
        f"range [{format_number(lo) if lo is not None else '-∞'}, "
        f"{format_number(hi) if hi is not None else '∞'}]"
    )


def score_cell(
    value,
    lo,
    hi,
    rank=None,
    n_ranked=None,
    skipped: str = "",
    best=False,
    *,
    thin: str | None = None,
    clipped: bool = False,
    tied: bool = False,
) -> Markup:
    """A leaderboard cell: value, [CI], rank, the items skipped (with why) and thinness.

    ``rank`` is shown only among two or more ranked embeddings (``n_ranked``); ``thin`` (the
    reason, when the score is thin) greys the cell and says why it is not ranked; ``clipped``
    marks an interval cut to the metric's bounds; ``best`` highlights a value that a paired
    comparison separates from every other, ``tied`` one of a top group that none separates.
    """
    parts = [f'<span class="v">{esc(format_number(value))}</span>']
    if ci_text(lo, hi):
        mark = ' <span class="clipped">clipped</span>' if clipped else ""
        parts.append(f'<span class="ci">{esc(ci_text(lo, hi))}{mark}</span>')
    ranked = rank is not None and math.isfinite(rank) and (n_ranked or 0) >= 2
    if ranked and thin is None:
        parts.append(f'<span class="rank">rank {int(rank)}/{n_ranked}</span>')
    if best and thin is None:
        parts.append('<span class="rank">best (paired comparison)</span>')
    elif tied and thin is None:
        parts.append('<span class="rank">tied for best</span>')
    if skipped:
        parts.append(f'<span class="oov">{esc(skipped)}</span>')
    if thin is not None:
        parts.append(f'<span class="thinwhy">{esc(thin_text(thin))}</span>')
    cls = (
        "num thin"
        if thin is not None
        else ("num best" if best else ("num tied" if tied else "num"))
    )
    return Markup(f'<td class="{cls}">' + "".join(parts) + "</td>")


def _notes_list(notes, cls: str = "note") -> str:
    return "<ul>" + "".join(f'<li class="{cls}">{esc(note_text(n))}</li>' for n in notes) + "</ul>"


def _fold(title: str, body: str, *, ident: str = "", cls: str = "fold") -> str:
    """A ``<details>`` block (opens without JavaScript)."""
    i = f' id="{esc(ident)}"' if ident else ""
    return f'<details class="{cls}"{i}><summary>{esc(title)}</summary>{body}</details>'


# --------------------------------------------------------------------------- images
class _Images:
    def __init__(self, coll: Collection, out_path: Path, mode: str):
        if mode not in ("embed", "copy"):
            raise ValueError(f"images must be 'embed' or 'copy', not {mode!r}")
        self.coll, self.out_path, self.mode = coll, out_path, mode
        self.files_dir = out_path.with_name(out_path.stem + "_files")
        self.missing: list[str] = []
        if self.files_dir.is_symlink():  # a link planted in the folder: removed, not followed
            self.files_dir.unlink()
        elif mode == "copy" and self.files_dir.exists():
            shutil.rmtree(self.files_dir)

    def src(self, plot: str, entry: Entry) -> str | None:
        p = resolve_plot(self.coll.root, plot, entry.source)
        if p is None:
            self.missing.append(plot)
            return None
        if self.mode == "embed":
            mime = {
                ".png": "image/png",
                ".svg": "image/svg+xml",
                ".jpg": "image/jpeg",
                ".jpeg": "image/jpeg",
            }.get(p.suffix.lower(), "application/octet-stream")
            return f"data:{mime};base64," + base64.b64encode(p.read_bytes()).decode("ascii")
        # names from the store become folder names: never '..' or a separator
        dst = self.files_dir / safe_name(entry.label) / safe_name(entry.measure) / safe_name(p.name)
        with atomic_target(dst) as tmp:
            shutil.copyfile(p, tmp)
        return dst.relative_to(self.out_path.parent).as_posix()

    def figure(self, m: str, plot: str, e: Entry) -> str:
        """A ``<figure>`` of one plot (a link opens it full size), or a warning line."""
        src = self.src(plot, e)
        name = Path(plot).name
        if src is None:
            return f'<p class="warn">plot missing: {esc(plot)}</p>'
        return _figure_html(src, f"{m} {name} for {e.label}", f"{e.label}: {name}")

    def png(self, name: str, data: bytes) -> str:
        """The ``src`` of a figure drawn for the report (embedded, or a file beside it)."""
        if self.mode == "embed":
            return "data:image/png;base64," + base64.b64encode(data).decode("ascii")
        dst = self.files_dir / "comparison" / safe_name(name)
        write_bytes_atomic(dst, data)
        return dst.relative_to(self.out_path.parent).as_posix()


def _figure_html(src: str, alt: str, caption: str, cls: str = "") -> str:
    # the image is a link to itself: a click opens it full size
    klass = f' class="{esc(cls)}"' if cls else ""
    return (
        f'<figure><a href="{esc(src)}" target="_blank" rel="noopener">'
        f'<img src="{esc(src)}"{klass} alt="{esc(alt)}"></a>'
        f"<figcaption>{esc(caption)}</figcaption></figure>"
    )


# --------------------------------------------------------------------------- run details
def _facts(coll: Collection) -> str:
    from wordgames._version import __version__

    run = coll.run or {}
    facts = [
        ("report generated", time.strftime("%Y-%m-%d %H:%M:%S %Z")),
        ("wordgames version (report)", __version__),
        ("wordgames version (last run)", run.get("tool_version", "n/a")),
        ("last run created", run.get("created_at", "n/a")),
        ("results folder", str(coll.root)),
        (
            "results read from",
            "results store (records/), every run merged" if coll.from_store else "results.json",
        ),
        ("stored results", f"{len(coll.entries):,} ({len(coll.selected):,} on the leaderboard)"),
    ]
    facts += [(f"environment: {k}", v) for k, v in (run.get("environment") or {}).items()]
    return _fold("Environment and versions", table(["item", "value"], facts), ident="summary")


def _embeddings(coll: Collection) -> str:
    rows = []
    for d in coll.embeddings():
        measures = sorted({e.measure for e in coll.entries if e.label == d["label"]})
        rows.append(
            [
                d["label"],
                d.get("source", ""),
                d.get("n_words"),
                d.get("dim"),
                Markup(f"<code>{esc(d.get('sha256', ''))}</code>"),
                d.get("oov_policy", ""),
                ", ".join(measures),
            ]
        )
    head = [
        "subject",
        "source",
        "vocabulary size",
        "dimensions",
        "sha256",
        "OOV policy",
        "measures stored",
    ]
    return _fold("Embeddings: sources, sizes, sha256", table(head, rows), ident="embeddings")


def _parameters(coll: Collection) -> str:
    run = coll.run or {}
    out = []
    if run.get("parameters"):
        out.append(
            table(
                ["parameter of the last run", "value"],
                [[k, v] for k, v in run["parameters"].items()],
            )
        )
    seeds = sorted(
        {
            str(e.params.get("seed", e.result.get("parameters", {}).get("seed", "n/a")))
            for e in coll.entries
        }
    )
    out.append(f"<p>Seeds of the stored results: <b>{esc(', '.join(seeds))}</b>.</p>")
    rows = [
        [
            e.label,
            e.measure,
            e.variant,
            "yes" if e.selected else "no",
            e.params if e.params else e.result.get("parameters", {}),
        ]
        for e in coll.entries
    ]
    out.append(
        _fold(
            f"Parameters of every stored result ({len(rows)})",
            table(["subject", "measure", "variant", "on leaderboard", "parameters"], rows),
            cls="",
        )
    )
    return _fold("Parameters and seeds", "".join(out), ident="parameters")


def _datasets(coll: Collection) -> str:
    sums: dict[str, dict] = {}
    for e in coll.entries:
        for name, files in (e.result.get("datasets") or {}).items():
            sums.setdefault(name, {}).update(files or {})
    if not sums:
        body = '<p class="note">The results record no data set checksums.</p>'
    else:
        body = "".join(
            _fold(
                f"{name}: {len(sums[name])} file(s)",
                table(
                    ["file", "sha256"],
                    [[f, Markup(f"<code>{esc(h)}</code>")] for f, h in sorted(sums[name].items())],
                ),
                cls="",
            )
            for name in sorted(sums)
        )
    return _fold("Data sets and checksums", body, ident="datasets")


def _timings(coll: Collection) -> str:
    run = coll.run or {}
    measures = coll.measures()
    rows = []
    for lab in coll.labels():
        entries = [coll.entry(lab, m) for m in measures]
        rows.append(
            [lab, *((e.result.get("timings") or {}).get("total") if e else None for e in entries)]
        )
    body = table(["subject", *measures], rows)
    steps = run.get("timings") or {}
    peaks = [
        [k.removesuffix("/peak_rss_mb"), v] for k, v in steps.items() if k.endswith("/peak_rss_mb")
    ]
    seconds = [[k, v] for k, v in steps.items() if not k.endswith("/peak_rss_mb")]
    if seconds:  # a unit's wall seconds, and ".../cpu" its CPU seconds
        body += table(["step of the last run", "seconds"], seconds)
    if peaks:
        body += table(["unit of the last run", "peak memory of its process so far (MB)"], peaks)
    return _fold("Timings (seconds)", body, ident="timings")


def _skipped_table(coll: Collection) -> str:
    if not coll.skipped:
        return _fold("Skipped measures: none", '<p class="note">None.</p>', ident="skipped")
    rows = [[s.get("subject", ""), s.get("measure", ""), s.get("reason", "")] for s in coll.skipped]
    return _fold(
        f"Skipped measures ({len(rows)})",
        table(["subject", "measure", "reason"], rows),
        ident="skipped",
    )


def _run_details(coll: Collection) -> list[str]:
    return [
        '<h2 id="details">Run details</h2>',
        _facts(coll),
        _embeddings(coll),
        _parameters(coll),
        _datasets(coll),
        _timings(coll),
        _skipped_table(coll),
    ]


# --------------------------------------------------------------------------- leaderboard
class _Cells:
    """The leaderboard's frames as arrays.

    A report has thousands of cells, and pandas' ``.at`` on a MultiIndex costs tens of
    microseconds each.
    """

    def __init__(self, lb, readers: set | None = None):
        #: (label, measure) of the players whose answers were read: their cells say how many
        #: answers could not be read, 0 included
        self.readers = readers or set()
        self.labels = list(lb.values.index)
        self.measures = [c[0] for c in lb.columns]
        self.row = {lab: i for i, lab in enumerate(lb.values.index)}
        self.col = {c: j for j, c in enumerate(lb.columns)}
        keys = ("values", "ci_low", "ci_high", "ranks", "n", "n_skipped", "n_oov", "n_unread",
                "skip_reason")  # fmt: skip
        self.a = {k: getattr(lb, k).to_numpy() for k in keys}
        for k in ("thin", "thin_reason", "ci_clipped"):
            self.a[k] = getattr(lb, k).to_numpy()
        self.a["best"] = lb.best().to_numpy()
        self.a["tied"] = lb.tied_top().to_numpy()
        self.n_ranked = [int(x) for x in lb.n_ranked()] if lb.columns else []
        self.footnotes: dict[str, int] = {}  # why items were left out -> its mark

    def _skipped(self, i: int, j: int) -> str:
        """The counts in the cell, the reason as a footnote mark (said once under the table)."""
        a = self.a
        reads = (self.labels[i], self.measures[j]) in self.readers
        text = skipped_text(
            a["n_skipped"][i, j], a["n"][i, j], "", a["n_oov"][i, j], a["n_unread"][i, j], reads
        )
        reason = str(a["skip_reason"][i, j] or "")
        if text and reason:
            mark = self.footnotes.setdefault(reason, len(self.footnotes) + 1)
            text += f" [{mark}]"
        return text

    def notes(self) -> str:
        """The footnotes of the cells drawn so far (``""`` when none)."""
        if not self.footnotes:
            return ""
        items = "".join(
            f'<li class="oov" id="fn{k}" value="{k}">{esc(reason)}</li>'
            for reason, k in self.footnotes.items()
        )
        return f'<ol class="footnotes">{items}</ol>'

    def cell(self, lab, col) -> Markup:
        a, i, j = self.a, self.row[lab], self.col[col]
        return score_cell(
            a["values"][i, j],
            a["ci_low"][i, j],
            a["ci_high"][i, j],
            float(a["ranks"][i, j]),
            self.n_ranked[j],
            self._skipped(i, j),
            best=bool(a["best"][i, j]),
            tied=bool(a["tied"][i, j]),
            thin=str(a["thin_reason"][i, j]) if a["thin"][i, j] else None,
            clipped=bool(a["ci_clipped"][i, j]),
        )


def _column_head(lb, col, name: str) -> Markup:
    bounds = _bounds_label(lb.bounds.get(col))
    return Markup(
        f'{esc(name)}<span class="dir">{esc(_direction_label(lb.directions[col]))}'
        f"{' &middot; ' + esc(bounds) if bounds else ''}</span>"
    )


def _overview(coll: Collection, lb, cells: _Cells) -> list[str]:
    prim = {m: MeasureScores.of(coll, m).primary() for m in coll.measures()}
    prim = {m: (m, *k) for m, k in prim.items() if k is not None and (m, *k) in lb.directions}
    if not prim:
        return []
    labels = list(lb.values.index)
    ranked_cols = [c for c in lb.columns if lb.directions[c] in (HIGHER, LOWER)]
    # a mean rank needs two embeddings to rank
    mean_rank = lb.ranks[ranked_cols].mean(axis=1) if ranked_cols and len(labels) > 1 else None
    heads = [
        Markup(
            f'{esc(m)}<span class="dir">{esc(score_label(c[1:]))}<br>'
            f"{esc(_direction_label(lb.directions[c]))}</span>"
        )
        for m, c in prim.items()
    ]
    if mean_rank is not None:
        heads.append(
            Markup(
                'mean rank<span class="dir">over every ranked headline score<br>'
                "↓ lower is better</span>"
            )
        )
    rows = []
    for lab in labels:
        row = [lab, *(cells.cell(lab, c) for c in prim.values())]
        if mean_rank is not None:
            row.append(float(mean_rank[lab]))
        rows.append(row)
    return [
        "<h3>Overview: each measure's headline score</h3>",
        table(["subject", *heads], rows, cls="leaderboard", id="leaderboard-table"),
    ]


def _people_section(coll: Collection) -> list[str]:
    """The first section: each human ceiling and every model's share of it (stored rows)."""
    from wordgames.report.people import ceilings

    found = ceilings(coll)
    if not found:
        return []

    def brief(s) -> str:  # value [CI], and why it is thin
        thin = f' <span class="thinwhy">{esc(thin_text(s.thin_reason))}</span>' if s.thin else ""
        return f"{esc(format_number(s.value))} {esc(ci_text(s.ci_low, s.ci_high))}{thin}"

    rows = []
    for c in found:
        p = c.people
        shares = Markup("<br>".join(
            f"{esc(m.label)} ({esc(m.agent)}): {brief(m.share)}"
            + (f" · {esc(m.verdict)}" if m.verdict else "")
            for m in c.shares
        ))  # fmt: skip
        rows.append([c.measure, p.dataset, p.metric, Markup(brief(p)), int(p.n),
                     "" if c.n_items is None else c.n_items, shares])  # fmt: skip
    return [
        '<h2 id="people">How close to people</h2>',
        "<p>The people row of each data set: every person whose item several people answered "
        "is held out and the others' answers play the agent, scored by the same metric on the "
        "same records (the human ceiling: the agreement of these participants under this "
        "protocol). Each model's value on the same responses is given as a share of it, with "
        "a 95 % interval from resampled items; a model is distinguishable from people when "
        "the interval of its paired gap to a held-out person leaves out 0. Thin rows are "
        "flagged and not ranked.</p>",
        table(
            [
                "measure",
                "data set",
                "metric",
                "people (ceiling)",
                "people",
                "items",
                "share of the ceiling",
            ],
            rows,
            cls="people",
            id="people-table",
        ),  # fmt: skip
    ]


def _methods(coll: Collection) -> str:
    """The folded note on how intervals, thinness and ranks are computed."""
    run_params = (coll.run or {}).get("parameters") or {}
    ci = run_params.get("confidence_intervals") or {}
    stored = [e.params.get("ci_resamples") for e in coll.entries]
    known = sorted({int(r) for r in stored if isinstance(r, int | float)})
    unknown = sum(1 for r in stored if not isinstance(r, int | float))
    resamples = ", ".join(f"{r:,}" for r in known) if known else "not recorded"
    seeds = sorted({str(e.params.get("seed", "n/a")) for e in coll.entries})
    confidence = float(ci.get("confidence", 0.95))
    method = ci.get("method", "percentile bootstrap")
    policy = thin_policy(coll.run)
    items = [
        f"<b>Intervals</b>: {esc(method)} at {confidence:.0%} confidence. Each score's items "
        "(records, pairs, puzzles, tasks) are resampled with replacement "
        f"{esc(resamples)} times with the run's seed ({esc(', '.join(seeds))}), and the "
        f"interval is the central {confidence:.0%} of the resampled statistic; it always lies "
        "inside the metric's declared range, shown under each score's name. A score without an "
        "interval shows none: none is invented (0 resamples: no intervals)."
        + (
            f" {unknown} stored result(s) do not record their resamples (written by an older "
            "wordgames, which used t-intervals): an interval of theirs that reaches outside the "
            "range is shown clipped to it and marked &ldquo;clipped&rdquo;."
            if unknown
            else ""
        ),
        f"<b>Thin scores</b>: a score is thin when it reflects less than "
        f"{policy.min_coverage:.0%} of the available items (coverage = items used / items "
        f"available) or fewer than {policy.min_n} items. It is shown greyed with the reason, "
        "never ranked or highlighted, left out of the correlation, and it never makes a "
        "measure's headline column switch to another data set.",
        "<b>Ranks</b>: competition ranks among the embeddings with a value that is not thin "
        "(1 = best, ties share the best rank; descriptive metrics are not ranked), shown only "
        "when two or more embeddings are ranked.",
        "<b>Best</b>: the first rank alone is not enough. The leader is compared with every other ranked "
        "embedding on the items both scored (the same records, pairs, puzzles or tasks): a "
        f"paired percentile bootstrap ({PAIRED_RESAMPLES:,} resamples, the run's seed) of the "
        "difference of the statistic. The leader is marked <b>best</b> only when every such "
        "95 % interval excludes zero; otherwise the embeddings it does not separate from are "
        "marked <b>tied for best</b> with it. A score without stored per-item values (results "
        "of an older wordgames, or a plug-in measure) cannot be separated.",
        "<b>Headline scores</b>: each measure's declared headlines, in their order "
        "(<code>wordgames measures</code> lists them).",
    ]
    return _fold(
        "Methods: intervals, thin scores, ranks",
        "<ul>" + "".join(f'<li class="note">{x}</li>' for x in items) + "</ul>",
        ident="methods",
        cls="",
    )


def _leaderboard_notes(coll: Collection, lb) -> list[str]:
    notes = []
    n_thin = int(lb.thin.to_numpy().sum()) if lb.columns else 0
    if n_thin:
        notes.append(
            f"{n_thin} leaderboard cell(s) are thin (too little coverage or too few items): "
            "greyed with the reason and not ranked"
        )
    n_clip = int(lb.ci_clipped.to_numpy().sum()) if lb.columns else 0
    if n_clip:
        notes.append(
            f"{n_clip} stored interval(s) reached outside their metric's range (results of an "
            "older wordgames): shown clipped to it, marked 'clipped'; recompute them with "
            f"'wordgames run --out {coll.root}'"
        )
    for s in coll.skipped:
        notes.append(
            f"not run: {s.get('measure', '?')} on {s.get('subject', '?')}: {s.get('reason', '')}"
        )
    notes.extend(coll.notes)
    return [_notes_list(notes, "warn")] if notes else []


def _leaderboard(coll: Collection, lb) -> list[str]:
    readers = {(e.label, e.measure) for e in coll.entries if reading_agents(e.result.get("tables"))}
    cells = _Cells(lb, readers)
    labels = list(lb.values.index)
    ranked = "its rank among the embeddings, " if len(labels) > 1 else ""
    out = [
        '<h2 id="leaderboard">Leaderboard</h2>',
        '<p class="note">Each cell: the value, its 95 % interval in brackets where the measure '
        f"gives one, {ranked}the items left out of the value with the reason; thin scores are "
        "greyed and not ranked.</p>",
        _methods(coll),
        *_overview(coll, lb, cells),
    ]
    rows, classes = [], []
    for m in coll.measures():
        cols = [c for c in lb.columns if c[0] == m]
        if not cols:
            continue
        rows.append([Markup(f'<th colspan="{len(labels) + 1}" id="lb-{esc(m)}">{esc(m)}</th>')])
        classes.append("group")
        for c in cols:
            rows.append(
                [_column_head(lb, c, score_label(c[1:])), *(cells.cell(lab, c) for lab in labels)]
            )
            classes.append("")
    if rows:
        out.append("<h3>Every headline score</h3>")
        out.append(table(["metric", *labels], rows, cls="leaderboard", row_classes=classes))
    if cells.notes():
        out.append('<p class="note">Items left out, by footnote mark:</p>' + cells.notes())
    return out + _leaderboard_notes(coll, lb)


def _headline_plots(coll: Collection, images: _Images) -> tuple[list[str], set]:
    """Each measure's first plot of every embedding, and the plots shown (not repeated)."""
    order = {lab: i for i, lab in enumerate(coll.labels())}
    out, shown = [], set()
    for m in coll.measures():
        entries = sorted((e for e in coll.selected if e.measure == m), key=lambda e: order[e.label])
        figs = []
        for e in entries:
            plots = e.result.get("plots") or []
            if plots:
                figs.append(images.figure(m, plots[0], e))
                shown.add((e.source, plots[0]))
        if figs:
            out.append(f'<div class="plotgroup"><h3>{esc(m)}</h3>{"".join(figs)}</div>')
    if not out:
        return [], shown
    head = [
        '<h2 id="plots">Headline plots</h2>',
        "<p class=\"note\">Each measure's first plot; the others are in the measure's section.</p>",
    ]
    return [*head, '<div class="gallery">', *out, "</div>"], shown


def _comparison_figures(coll: Collection, lb, images: _Images) -> list[str]:
    """One figure per headline score: a bar per embedding, its interval, thin ones hatched.

    Bars with a thick edge are best by the paired rule (:meth:`Leaderboard.best`).
    """
    import io

    import matplotlib.pyplot as plt

    from wordgames.report.figures import comparison_figure

    labels = list(lb.values.index)
    if len(labels) < 2 or not lb.columns:
        return []
    best = lb.best()
    figs = []
    cols = lb.columns[:MAX_COMPARISON_FIGURES]
    for col in cols:
        scores = []
        for lab in labels:
            e = coll.entry(lab, col[0], col[1:])
            scores.append(e.value(*col[1:]) if e is not None else None)
        fig = comparison_figure(
            labels,
            scores,
            title=f"{col[0]}: {score_label(col[1:])}",
            direction=lb.directions[col],
            bounds=lb.bounds[col],
            best=[bool(best.loc[lab, col]) for lab in labels],
        )
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110)
        plt.close(fig)
        name = safe_name("-".join(x for x in col if x)) + ".png"
        src = images.png(name, buf.getvalue())
        figs.append(
            _figure_html(
                src, f"{col[0]} {score_label(col[1:])}", score_label(col[1:]), cls="comparison"
            )
        )
    more = len(lb.columns) - len(cols)
    return [
        '<h2 id="comparison">Comparison figures</h2>',
        '<p class="note">One figure per headline score: a bar per embedding with its 95 % '
        "interval; hatched bars are thin (not ranked); a thick edge marks the best by the paired "
        "rule (Methods). Click a figure to open it full size."
        + (
            f" The first {len(cols)} of {len(lb.columns)} headline scores are drawn; every one "
            "is in the leaderboard above and in <code>Results.plot</code>."
            if more
            else ""
        )
        + "</p>",
        '<div class="gallery">',
        *figs,
        "</div>",
    ]


def _correlation(coll: Collection) -> list[str]:
    out = ['<h2 id="correlation">Cross-measure correlation</h2>']
    labels = coll.labels()
    if len(labels) < MIN_EMBEDDINGS:
        out.append(
            f'<p class="note">Not computed: it compares how the measures rank the embeddings, '
            f"which needs three or more embeddings; this report has {len(labels)}.</p>"
        )
        return out
    cor = correlation_table(coll)
    out.append(
        '<p class="note">Do the measures rank the embeddings alike? Spearman\'s rank '
        "correlation across embeddings between each measure's primary headline score (oriented "
        "so that higher is better; thin values left out), with the number of embeddings n that "
        "have both.</p>"
    )
    if not cor.primary:
        out.append('<p class="note">No measure with a headline score.</p>')
        return out
    ms = list(cor.primary)
    rows = []
    for a in ms:
        row = [
            Markup(
                f'{esc(a)}<span class="dir">{esc(score_label(cor.primary[a]))}'
                f"{' (negated)' if cor.oriented[a] else ''}</span>"
            )
        ]
        for b in ms:
            r, n = cor.matrix.at[a, b], int(cor.n.at[a, b])
            row.append(
                Markup(
                    f'<td class="num">{esc(format_number(r))}<span class="rank">n={n}</span></td>'
                )
            )
        rows.append(row)
    out.append(table(["Spearman rho", *ms], rows, cls="correlation"))
    prow = [
        [r.measure_a, r.measure_b, r.rho, r.p_value, r.n, r.note] for r in cor.pairs.itertuples()
    ]
    out.append(table(["measure", "measure", "rho", "p-value", "n", "note"], prow))
    if cor.notes:
        out.append(_notes_list(cor.notes))
    return out


# --------------------------------------------------------------------------- measures
def merge_rows(per_entry: list[tuple[str, list[dict]]]) -> tuple[list[dict], list[str]]:
    """The rows of every embedding in one list with an ``embedding`` column, and row classes.

    A row found identically for every embedding (a baseline that does not depend on it, e.g.
    people's scores or the WordNet solver) is shown once as ``all (baseline)``.
    """
    keyed = [
        (label, [(json.dumps(r, sort_keys=True, default=str), r) for r in rows])
        for label, rows in per_entry
    ]
    shared: set[str] = set()
    if len(per_entry) > 1:
        shared = set.intersection(*({k for k, _ in rows} for _, rows in keyed))
    rows, classes, done = [], [], set()
    for label, krows in keyed:
        for k, r in krows:
            if k in shared:
                if k in done:
                    continue
                done.add(k)
                rows.append(r if "embedding" in r else {"embedding": "all (baseline)", **r})
                classes.append("baseline")
            else:
                rows.append(r if "embedding" in r else {"embedding": label, **r})
                classes.append("")
    return rows, classes


def _score_rows(view: MeasureScores, entry: Entry) -> list[dict]:
    rows = []
    reading = reading_agents(entry.result.get("tables"))
    for s in entry.scores:
        lo, hi, clipped = clip_interval(
            s.ci_low, s.ci_high, view.bounds((s.dataset, s.agent, s.metric))
        )
        note = [thin_text(s.thin_reason)] if s.thin else []
        if clipped:
            note.append("interval clipped to the metric's range")
        rows.append(
            {
                "data set": s.dataset,
                "agent": agent_text(s),
                "metric": s.metric,
                "value": s.value,
                "95 % CI": ci_text(lo, hi),
                "n": s.n,
                "skipped": score_skipped_text(s, (s.dataset, s.agent) in reading),
                "coverage": f"{s.coverage:.0%}" if finite(s.coverage) else "",
                "direction": _direction_label(view.row_direction(s)),
                "note": "; ".join(note),
            }
        )
    return rows


def _scores_table(m: str, entries: list[Entry], view: MeasureScores) -> list[str]:
    rows, classes = merge_rows([(e.label, _score_rows(view, e)) for e in entries])
    if not rows:
        return [f'<p class="note">{esc(m)} stored no scores.</p>']
    note = (
        ' <span class="note">(highlighted rows are the same for every embedding: baselines '
        "that do not depend on it)</span>"
        if "baseline" in classes
        else ""
    )
    return [
        f"<h4>scores: {esc(m)}{note}</h4>",
        dict_rows_table(rows, row_classes=classes, fold_title=f"every score of {m}"),
    ]


def _result_tables(entries: list[Entry]) -> list[str]:
    """Each table of the results, every embedding's rows together (baselines once)."""
    names = list(dict.fromkeys(t for e in entries for t in e.result.get("tables") or {}))
    out = []
    for t in names:
        per = [
            (
                e.label,
                [r for r in (e.result.get("tables") or {}).get(t) or () if isinstance(r, dict)],
            )
            for e in entries
        ]
        rows, classes = merge_rows(per)
        if not rows:
            continue
        note = (
            ' <span class="note">(highlighted rows are the same for every embedding: '
            "baselines that do not depend on it)</span>"
            if "baseline" in classes
            else ""
        )
        out.append(f"<h4>table: {esc(t)}{note}</h4>")
        out.append(dict_rows_table(rows, row_classes=classes, fold_title=f"table {t}"))
    return out


def left_out_lines(scores) -> list[str]:
    """The items left out of a result's scores, in words, once per distinct count.

    Scores of one data set with the same count and reason (every metric of an agent, or
    every agent on the same records) are said once, naming the agents.
    """
    groups: dict[tuple, list[str]] = {}
    for s in scores:
        text = score_skipped_text(s)
        if text:
            agents = groups.setdefault((s.dataset, text), [])
            if agent_text(s) and agent_text(s) not in agents:
                agents.append(agent_text(s))
    lines = []
    for (dataset, text), agents in groups.items():
        where = dataset + (f" ({', '.join(agents)})" if agents else "")
        lines.append(f"{where}: {text}" if where else text)
    return lines


def _oov_section(m: str, e: Entry) -> list[str]:
    out = []
    lines = left_out_lines(e.scores)
    if lines:
        body = _notes_list(lines)
        out.append(
            f"<h4>Items left out ({esc(m)}, {esc(e.label)})</h4>{body}"
            if len(lines) <= FOLD_ROWS
            else _fold(f"Items left out ({len(lines)} lines)", body, cls="")
        )
    rows = oov_rows(e.result.get("oov") or {})
    if rows:
        body = table(["out-of-vocabulary record", "count or words"], rows)
        out.append(
            _fold(
                f"Out-of-vocabulary record ({m}, {e.label}): {len(rows)} line(s)",
                body,
                cls="",
            )
        )
    return out


def _entry_section(
    m: str, e: Entry, images: _Images, shared_notes: list[str], shown: set
) -> list[str]:
    out = [f'<h3 id="m-{esc(m)}-{esc(e.label)}">{esc(m)} on {esc(e.label)}</h3>']
    out += _oov_section(m, e)
    notes = [n for n in e.result.get("notes") or [] if n not in shared_notes]
    if notes:
        out.append(_notes_list(notes))
    for plot in e.result.get("plots") or []:
        if (e.source, plot) not in shown:
            out.append(images.figure(m, plot, e))
    return out


def _pair_matrices(spec, entries: list[Entry]) -> list[str]:
    """A measure of pairs: per headline metric, the subject (row) x partner (column) matrix."""
    out = []
    for h in spec.headlines:
        rows = [s for e in entries for s in e.scores if h.matches(s)]
        if not rows:
            continue
        senders, partners, cell = pair_matrix(rows)
        body = []
        for snd in senders:
            line = [snd]
            for p in partners:
                s = cell.get((snd, p, h.metric))
                line.append(
                    score_cell(s.value, s.ci_low, s.ci_high, thin=s.thin_reason if s.thin else None)
                    if s is not None
                    else "-"
                )
            body.append(line)
        caption = f"{h.description or h.metric}: rows are the subjects, columns their partners"
        out.append(str(table(["", *partners], body, cls="matrix", caption=caption)))
    return out


def _measure_section(coll: Collection, m: str, images: _Images, shown: set) -> list[str]:
    order = {lab: i for i, lab in enumerate(coll.labels())}
    entries = sorted((e for e in coll.selected if e.measure == m), key=lambda e: order[e.label])
    view = MeasureScores.of(coll, m)
    spec = measure_spec(m)
    out = [f'<h2 id="m-{esc(m)}">{esc(m)}</h2>']
    if spec is not None:
        out.append(
            f'<p class="note">{esc(spec.description)}.'
            + (f" {esc(spec.citation)}" if spec.citation else "")
            + "</p>"
        )
    versions = sorted({e.setting for e in entries})
    out.append(f'<p class="note">Version-parameters: {esc(", ".join(versions))}.</p>')
    if spec is not None and spec.pairs:
        out += _pair_matrices(spec, entries)
    out += _scores_table(m, entries, view)
    out += _result_tables(entries)
    # notes about the data (repairs, sources) repeat for every embedding: show them once
    shared = (
        [
            n
            for n in (entries[0].result.get("notes") or [])
            if len(entries) > 1 and all(n in (x.result.get("notes") or []) for x in entries)
        ]
        if entries
        else []
    )
    if shared:
        out.append(f"<h4>Notes ({esc(m)}, every embedding)</h4>{_notes_list(shared)}")
    for e in entries:
        out += _entry_section(m, e, images, shared, shown)
    return out


def render_report(
    coll: Collection,
    out_path: str | Path,
    *,
    images: str = "embed",
    title: str = "wordgames report",
) -> str:
    """The report of ``coll`` as one HTML string (``out_path`` places copied images).

    Raises
    ------
    PlotPathError
        When a stored plot path leads outside the results folder.
    """
    out_path = Path(out_path)
    imgs = _Images(coll, out_path, images)
    plots, shown = _headline_plots(coll, imgs)
    lb = leaderboard(coll)  # built once: the table and the figures show the same ranks
    comparison = _comparison_figures(coll, lb, imgs)
    people = _people_section(coll)
    body = [*people, *_leaderboard(coll, lb), *comparison, *plots, *_correlation(coll)]
    for m in coll.measures():
        body += _measure_section(coll, m, imgs, shown)
    body += _run_details(coll)
    if imgs.missing:
        body.append(
            '<h2 id="missing">Missing files</h2><ul>'
            + "".join(f'<li class="warn">{esc(p)}</li>' for p in imgs.missing)
            + "</ul>"
        )
    links = [("people", "How close to people")] if people else []
    links += [("leaderboard", "Leaderboard")]
    links += [("comparison", "Comparison figures")] if comparison else []
    links += [("plots", "Headline plots")] if plots else []
    links += [("correlation", "Correlation")]
    links += [(f"m-{m}", m) for m in coll.measures()]
    links += [("details", "Run details")]
    nav = "<nav>" + "".join(f'<a href="#{esc(i)}">{esc(t)}</a>' for i, t in links) + "</nav>"
    labels = ", ".join(coll.labels())
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
            f"<header><h1>{esc(title)}</h1><p>{esc(len(coll.labels()))} embedding(s): {esc(labels)}"
            f" &middot; {esc(len(coll.measures()))} measure(s)</p></header><main>",
            nav,
            *body,
            "</main></body></html>",
        ]
    )


def write_html(
    coll: Collection, out: str | Path, *, images: str = "embed", title: str = "wordgames report"
) -> Path:
    """Write the report of an already-read :class:`Collection` to ``out`` (atomically)."""
    out = Path(out)
    with confine(out.parent):  # no write follows a link planted in the folder
        text = render_report(coll, out, images=images, title=title)
        return write_text_atomic(out, text)  # a reader never sees half a report


def write_report(
    results_dir: str | Path,
    out: str | Path | None = None,
    *,
    images: str = "embed",
    title: str = "wordgames report",
) -> Path:
    """Read ``results_dir`` and write its HTML report (default ``RESULTS_DIR/report.html``).

    Returns the path written. ``images``: ``"embed"`` (base64 data URIs, one self-contained
    file) or ``"copy"`` (PNG files in ``<name>_files/`` beside it, relative links).
    """
    coll = load_results(results_dir)
    out = Path(out) if out is not None else Path(results_dir) / "report.html"
    return write_html(coll, out, images=images, title=title)
