"""A static HTML report of a results folder: opens offline, needs no JavaScript.

One file with inline CSS. Plots are embedded as base64 ``data:`` URIs (``images="embed"``, the
default: the file can be mailed or moved alone) or copied beside the HTML into
``<name>_files/`` and linked relatively (``images="copy"``). Every piece of text from the
results is escaped with :func:`html.escape`.

Sections: summary (tool version, dates, embeddings with sha256 and vocabulary size,
parameters, seeds, data set checksums, timings, skipped measures), leaderboard (with 95 %
intervals, ranks and the items skipped beside each value, all from the Score rows), the
cross-measure correlation table, then one section per measure: every Score row (rows that are
the same for every embedding, such as human or WordNet baselines, shown once beside the
embeddings' rows), the result's tables, OOV records, notes and plots. Nothing is special-cased
per measure.
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
from wordgames.report.collect import Collection, Entry, finite, load_results, measure_spec
from wordgames.report.leaderboard import (
    MeasureScores,
    correlation_table,
    leaderboard,
    score_label,
)

MAX_TABLE_ROWS = 2000  # larger tables are cut (the JSON in the results folder has them all)
FOLD_ROWS = 40  # tables longer than this start folded (<details>)

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d1d1f;
background:#fafafa;line-height:1.4}
main{max-width:1280px;margin:0 auto;padding:1rem 2rem 4rem}
header{background:#22313f;color:#fff;padding:1rem 2rem}
header h1{margin:0 0 .2rem;font-size:1.6rem}
header p{margin:0;color:#cfd8dc}
h2{border-bottom:2px solid #22313f;padding-bottom:.2rem;margin-top:2.5rem}
h3{margin-top:1.6rem}
nav ul{columns:3;list-style:none;padding:0}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.82rem;background:#fff}
th,td{border:1px solid #d0d7de;padding:.25rem .45rem;text-align:left;vertical-align:top}
th{background:#eef2f5;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.best{font-weight:700;background:#e8f5e9}
.ci{color:#555;font-size:.75rem;display:block}
.oov{color:#a0522d;font-size:.75rem;display:block}
.rank{color:#37474f;font-size:.72rem;display:block}
.dir{font-weight:400;color:#555;font-size:.72rem;display:block}
.baseline td{background:#fff8e1}
.note{color:#444;font-size:.85rem}
.warn{color:#8a4b00}
code{font-size:.78rem;word-break:break-all}
figure{display:inline-block;margin:.4rem;vertical-align:top;background:#fff;border:1px solid #ddd;
padding:.3rem}
figure img{max-width:min(100%,900px);height:auto;display:block}
figcaption{font-size:.75rem;color:#555}
details{margin:.3rem 0 .8rem}
summary{cursor:pointer;color:#22313f}
.wrap{overflow-x:auto}
"""


class Markup(str):
    """Text that is already HTML (built here from escaped parts): not escaped again."""


def esc(value) -> str:
    """Escape any value for HTML text and attributes."""
    return value if isinstance(value, Markup) else html.escape(str(value), quote=True)


def format_number(value) -> str:
    """How numbers are shown.

    Integers with thousands separators, others to 4 significant digits, missing ones as ``n/a``.

    >>> format_number(1234.0), format_number(0.123456), format_number(None), format_number(12)
    ('1,234', '0.1235', 'n/a', '12')
    >>> format_number(11785.14), format_number(float("nan"))
    ('11,785', 'n/a')
    """
    if value is None or isinstance(value, bool):
        return "n/a" if value is None else str(value)
    if isinstance(value, int):
        return f"{value:,}"
    try:
        v = float(value)
    except (TypeError, ValueError):
        return str(value)
    if not math.isfinite(v):
        return "n/a"
    if v.is_integer() and abs(v) < 1e15:
        return f"{int(v):,}"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.4g}"


def _is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _cell_text(v) -> str:
    if _is_number(v) or v is None:
        return format_number(v)
    if isinstance(v, dict | list | tuple):
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "), default=str)
    return str(v)


def table(headers, rows, *, cls: str = "", row_classes=None, caption: str | None = None) -> Markup:
    """An HTML table; cells are escaped unless they are :class:`Markup`."""
    out = [f'<div class="wrap"><table class="{esc(cls)}">']
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
                cells.append(f"<td>{v}</td>" if not v.startswith("<td") else v)
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


def dict_rows_table(rows: list[dict], *, row_classes=None, fold_title: str | None = None) -> Markup:
    """A table of row dicts (columns: the union of their keys, in first-seen order)."""
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    shown = rows[:MAX_TABLE_ROWS]
    html_table = table(
        cols,
        [[r.get(c, "") for c in cols] for r in shown],
        row_classes=row_classes[:MAX_TABLE_ROWS] if row_classes else None,
    )
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


def _ci_text(lo, hi) -> str:
    return f"[{format_number(lo)}, {format_number(hi)}]" if finite(lo) and finite(hi) else ""


def skipped_text(n_skipped, n=None, reason: str = "") -> str:
    """What was left out of a value: ``skipped 3 of 100: pairs with an out-of-vocabulary word``.

    >>> skipped_text(3, 97, "pairs with an OOV word"), skipped_text(0, 10)
    ('skipped 3 of 100: pairs with an OOV word', '')
    """
    if not finite(n_skipped) or not n_skipped:
        return ""
    total = f" of {format_number(n + n_skipped)}" if finite(n) else ""
    return f"skipped {format_number(n_skipped)}{total}" + (f": {reason}" if reason else "")


def score_cell(value, lo, hi, rank=None, n_ranked=None, skipped: str = "", best=False) -> Markup:
    """A leaderboard cell: value, [CI], rank, and the items skipped (with why) beside it."""
    parts = [f'<span class="v">{esc(format_number(value))}</span>']
    if _ci_text(lo, hi):
        parts.append(f'<span class="ci">{esc(_ci_text(lo, hi))}</span>')
    if rank is not None and math.isfinite(rank):
        parts.append(
            f'<span class="rank">rank {int(rank)}{f"/{n_ranked}" if n_ranked else ""}</span>'
        )
    if skipped:
        parts.append(f'<span class="oov">{esc(skipped)}</span>')
    cls = "num best" if best else "num"
    return Markup(f'<td class="{cls}">' + "".join(parts) + "</td>")


def _notes_list(notes, cls: str = "note") -> str:
    return "<ul>" + "".join(f'<li class="{cls}">{esc(n)}</li>' for n in notes) + "</ul>"


# --------------------------------------------------------------------------- images
class _Images:
    def __init__(self, coll: Collection, out_path: Path, mode: str):
        if mode not in ("embed", "copy"):
            raise ValueError(f"images must be 'embed' or 'copy', not {mode!r}")
        self.coll, self.out_path, self.mode = coll, out_path, mode
        self.files_dir = out_path.with_name(out_path.stem + "_files")
        self.missing: list[str] = []
        if mode == "copy" and self.files_dir.exists():
            shutil.rmtree(self.files_dir)

    def resolve(self, plot: str) -> Path | None:
        p = Path(plot)
        if p.is_file():
            return p
        # the folder may have moved since the run: find "plots/..." under the results folder
        parts = p.parts
        if "plots" in parts:
            i = len(parts) - 1 - parts[::-1].index("plots")
            q = self.coll.root.joinpath(*parts[i:])
            if q.is_file():
                return q
        q = self.coll.root / p
        return q if q.is_file() else None

    def src(self, plot: str, entry: Entry) -> str | None:
        p = self.resolve(plot)
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
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in entry.label)
        dst = self.files_dir / safe / entry.measure / p.name
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, dst)
        return dst.relative_to(self.out_path.parent).as_posix()


# --------------------------------------------------------------------------- summary
def _facts(coll: Collection) -> list[str]:
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
    return ['<h2 id="summary">Summary</h2>', table(["item", "value"], facts)]


def _embeddings(coll: Collection) -> list[str]:
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
    return [
        '<h3 id="embeddings">Embeddings</h3>',
        table(
            [
                "embedding",
                "source",
                "vocabulary size",
                "dimensions",
                "sha256",
                "OOV policy",
                "measures stored",
            ],
            rows,
        ),
    ]


def _parameters(coll: Collection) -> list[str]:
    run = coll.run or {}
    out = ['<h3 id="parameters">Parameters and seeds</h3>']
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
        f"<details><summary>Parameters of every stored result ({len(rows)})</summary>"
        + table(["embedding", "measure", "variant", "on leaderboard", "parameters"], rows)
        + "</details>"
    )
    if coll.notes:
        out.append(_notes_list(coll.notes, "warn"))
    return out


def _datasets(coll: Collection) -> list[str]:
    out = ['<h3 id="datasets">Data sets and checksums</h3>']
    sums: dict[str, dict] = {}
    for e in coll.entries:
        for name, files in (e.result.get("datasets") or {}).items():
            sums.setdefault(name, {}).update(files or {})
    if not sums:
        return [*out, '<p class="note">The results record no data set checksums.</p>']
    for name in sorted(sums):
        files = sums[name]
        out.append(
            f"<details><summary>{esc(name)}: {len(files)} file(s)</summary>"
            + table(
                ["file", "sha256"],
                [[f, Markup(f"<code>{esc(s)}</code>")] for f, s in sorted(files.items())],
            )
            + "</details>"
        )
    return out


def _timings_and_skips(coll: Collection) -> list[str]:
    run = coll.run or {}
    out = ['<h3 id="timings">Timings (seconds)</h3>']
    measures = coll.measures()
    rows = []
    for lab in coll.labels():
        entries = [coll.entry(lab, m) for m in measures]
        rows.append(
            [lab, *((e.result.get("timings") or {}).get("total") if e else None for e in entries)]
        )
    out.append(table(["embedding", *measures], rows))
    if run.get("timings"):
        out.append(
            f"<details><summary>Timings of the last run</summary>"
            f"{table(['step', 'seconds'], list(run['timings'].items()))}</details>"
        )
    out.append('<h3 id="skipped">Skipped measures</h3>')
    if coll.skipped:
        out.append(
            table(
                ["embedding", "measure", "reason"],
                [
                    [s.get("embedding", ""), s.get("measure", ""), s.get("reason", "")]
                    for s in coll.skipped
                ],
            )
        )
    else:
        out.append('<p class="note">None.</p>')
    return out


def _summary(coll: Collection) -> list[str]:
    return [
        *_facts(coll),
        *_embeddings(coll),
        *_parameters(coll),
        *_datasets(coll),
        *_timings_and_skips(coll),
    ]


# --------------------------------------------------------------------------- leaderboard
class _Cells:
    """The leaderboard's frames as arrays.

    A report has thousands of cells, and pandas' ``.at`` on a MultiIndex costs tens of microseconds
    each.
    """

    def __init__(self, lb):
        import numpy as np

        self.row = {lab: i for i, lab in enumerate(lb.values.index)}
        self.col = {c: j for j, c in enumerate(lb.columns)}
        self.a = {
            k: getattr(lb, k).to_numpy()
            for k in ("values", "ci_low", "ci_high", "ranks", "n", "n_skipped", "skip_reason")
        }
        ranks = self.a["ranks"].astype(float)
        self.n_ranked = [int(x) for x in (~np.isnan(ranks)).sum(axis=0)] if ranks.size else []

    def cell(self, lab, col) -> Markup:
        a, i, j = self.a, self.row[lab], self.col[col]
        rank = float(a["ranks"][i, j])
        return score_cell(
            a["values"][i, j],
            a["ci_low"][i, j],
            a["ci_high"][i, j],
            rank,
            self.n_ranked[j],
            skipped_text(a["n_skipped"][i, j], a["n"][i, j], a["skip_reason"][i, j]),
            best=rank == 1,
        )


def _column_head(lb, col, name: str) -> Markup:
    bounds = _bounds_label(lb.bounds.get(col))
    return Markup(
        f'{esc(name)}<span class="dir">{esc(_direction_label(lb.directions[col]))}'
        f"{'<br>' + esc(bounds) if bounds else ''}</span>"
    )


def _overview(coll: Collection, lb, cells: _Cells) -> list[str]:
    prim = {m: MeasureScores.of(coll, m).primary() for m in coll.measures()}
    prim = {m: (m, *k) for m, k in prim.items() if k is not None and (m, *k) in lb.directions}
    if not prim:
        return []
    ranked_cols = [c for c in lb.columns if lb.directions[c] in (HIGHER, LOWER)]
    mean_rank = lb.ranks[ranked_cols].mean(axis=1) if ranked_cols else None
    heads = [
        Markup(
            f'{esc(m)}<span class="dir">{esc(score_label(c[1:]))}<br>'
            f"{esc(_direction_label(lb.directions[c]))}</span>"
        )
        for m, c in prim.items()
    ]
    rows = [
        [
            lab,
            *(cells.cell(lab, c) for c in prim.values()),
            None if mean_rank is None else float(mean_rank[lab]),
        ]
        for lab in lb.values.index
    ]
    return [
        "<h3>Overview: each measure's headline score</h3>",
        table(
            [
                "embedding",
                *heads,
                Markup(
                    'mean rank<span class="dir">over every ranked headline score<br>'
                    "↓ lower is better</span>"
                ),
            ],
            rows,
        ),
    ]


def _leaderboard(coll: Collection) -> list[str]:
    lb = leaderboard(coll)
    cells = _Cells(lb)
    labels = list(lb.values.index)
    out = [
        '<h2 id="leaderboard">Leaderboard</h2>',
        '<p class="note">Each cell: the value, its 95 % confidence interval in brackets where the '
        "measure gives one, the embedding's rank among the embeddings (1 = best, ties share a "
        "rank; descriptive metrics are not ranked) and the items left out of the value (e.g. "
        "out-of-vocabulary words) with the reason. The best value of each score is "
        "highlighted.</p>",
        *_overview(coll, lb, cells),
    ]
    for m in coll.measures():
        cols = [c for c in lb.columns if c[0] == m]
        if not cols:
            continue
        out.append(f'<h3 id="lb-{esc(m)}">{esc(m)}</h3>')
        rows = [
            [_column_head(lb, c, score_label(c[1:])), *(cells.cell(lab, c) for lab in labels)]
            for c in cols
        ]
        out.append(table(["metric", *labels], rows, cls="leaderboard"))
    return out


def _correlation(coll: Collection) -> list[str]:
    cor = correlation_table(coll)
    out = [
        '<h2 id="correlation">Cross-measure correlation</h2>',
        '<p class="note">Do the measures rank the embeddings alike? Spearman\'s rank '
        "correlation across embeddings between each measure's primary headline score (oriented "
        "so that higher is better), with the number of embeddings n that have both. With fewer "
        "than 3 embeddings no correlation is computed.</p>",
    ]
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
    return [
        {
            "data set": s.dataset,
            "subject": s.subject,
            "metric": s.metric,
            "value": s.value,
            "95 % CI": _ci_text(s.ci_low, s.ci_high),
            "n": s.n,
            "skipped": s.n_skipped,
            "why skipped": s.skip_reason,
            "direction": _direction_label(view.row_direction(s)),
        }
        for s in entry.scores
    ]


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


def _entry_section(m: str, e: Entry, images: _Images, shared_notes: list[str]) -> list[str]:
    out = [f'<h3 id="m-{esc(m)}-{esc(e.label)}">{esc(m)} on {esc(e.label)}</h3>']
    oov = e.result.get("oov") or {}
    if oov:
        body = table(["out-of-vocabulary record", "counts"], [[k, v] for k, v in oov.items()])
        out.append(f"<h4>OOV counts ({esc(m)}, {esc(e.label)})</h4>")
        out.append(
            body
            if len(oov) <= FOLD_ROWS
            else f"<details><summary>{len(oov)} OOV records</summary>{body}</details>"
        )
    notes = [n for n in e.result.get("notes") or [] if n not in shared_notes]
    if notes:
        out.append(_notes_list(notes))
    for plot in e.result.get("plots") or []:
        src = images.src(plot, e)
        name = Path(plot).name
        if src is None:
            out.append(f'<p class="warn">plot missing: {esc(plot)}</p>')
            continue
        out.append(
            f'<figure><img src="{esc(src)}" alt="{esc(m)} {esc(name)} for '
            f'{esc(e.label)}"><figcaption>{esc(name)}</figcaption></figure>'
        )
    return out


def _measure_section(coll: Collection, m: str, images: _Images) -> list[str]:
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
    versions = sorted({e.variant for e in entries})
    out.append(f'<p class="note">Version-parameters: {esc(", ".join(versions))}.</p>')
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
        out += _entry_section(m, e, images, shared)
    return out


def _measure_sections(coll: Collection, images: _Images) -> list[str]:
    return [x for m in coll.measures() for x in _measure_section(coll, m, images)]


def render_report(
    coll: Collection,
    out_path: str | Path,
    *,
    images: str = "embed",
    title: str = "wordgames report",
) -> str:
    """The report of ``coll`` as one HTML string (``out_path`` places copied images)."""
    out_path = Path(out_path)
    imgs = _Images(coll, out_path, images)
    parts = [_summary(coll), _leaderboard(coll), _correlation(coll), _measure_sections(coll, imgs)]
    nav = [
        '<nav><ul><li><a href="#summary">Summary</a></li>',
        '<li><a href="#leaderboard">Leaderboard</a></li>',
        '<li><a href="#correlation">Cross-measure correlation</a></li>',
    ]
    nav += [f'<li><a href="#m-{esc(m)}">{esc(m)}</a></li>' for m in coll.measures()]
    nav.append("</ul></nav>")
    body = [x for p in parts for x in p]
    if imgs.missing:
        body.append(
            '<h2 id="missing">Missing files</h2><ul>'
            + "".join(f'<li class="warn">{esc(p)}</li>' for p in imgs.missing)
            + "</ul>"
        )
    labels = ", ".join(coll.labels())
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
            f"<header><h1>{esc(title)}</h1><p>{esc(len(coll.labels()))} embedding(s): {esc(labels)}"
            f" &middot; {esc(len(coll.measures()))} measure(s)</p></header><main>",
            *nav,
            *body,
            "</main></body></html>",
        ]
    )


def write_html(
    coll: Collection, out: str | Path, *, images: str = "embed", title: str = "wordgames report"
) -> Path:
    """Write the report of an already-read :class:`Collection` to ``out`` (atomically)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = render_report(coll, out, images=images, title=title)
    tmp = out.with_name(f".{out.name}.tmp")  # a reader never sees half a report
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    return out


def write_report(
    results_dir: str | Path,
    out: str | Path | None = None,
    *,
    images: str = "embed",
    title: str = "wordgames report",
) -> Path:
    """Read ``results_dir`` and write its HTML report (default ``RESULTS_DIR/report.html``).

    Returns the path written. ``images``: ``"embed"`` (base64 data URIs, one self-contained
    file) or ``"copy"`` (PNG files in ``<name>_files/`` beside the HTML, relative links).
    """
    coll = load_results(results_dir)
    out = Path(out) if out is not None else Path(results_dir) / "report.html"
    return write_html(coll, out, images=images, title=title)
