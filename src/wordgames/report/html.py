"""A static HTML report of a results folder: opens offline, needs no JavaScript.

One file with inline CSS. Plots are embedded as base64 ``data:`` URIs (``images="embed"``, the
default: the file can be mailed or moved alone) or copied beside the HTML into
``<name>_files/`` and linked relatively (``images="copy"``). Every piece of text from the
results is escaped with :func:`html.escape`.

Sections: summary (tool version, dates, embeddings with sha256 and vocabulary size,
parameters, seeds, data set checksums, timings, skipped measures), leaderboard (with 95 %
intervals, ranks and the OOV counts beside each value), the cross-measure correlation table,
then one section per measure with its baselines, tables, OOV counts, notes and plots.
"""

from __future__ import annotations

import base64
import html
import json
import math
import shutil
import time
from pathlib import Path

from wordgames.report.collect import Collection, Entry, load_results
from wordgames.report.leaderboard import (
    HIGHER,
    LOWER,
    correlation_table,
    interval,
    leaderboard,
    metric_direction,
    oov_companions,
    oov_index,
    table_intervals,
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
    """How numbers are shown: integers with thousands separators, others to 4 significant
    digits, missing ones as ``n/a``.

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
    out.append("<thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in headers) + "</tr></thead><tbody>")
    for i, row in enumerate(rows):
        rc = row_classes[i] if row_classes else ""
        cells = []
        for v in row:
            if isinstance(v, Markup):
                cells.append(f"<td>{v}</td>" if not v.startswith("<td") else v)
            else:
                num = ' class="num"' if _is_number(v) or v is None else ""
                cells.append(f"<td{num}>{esc(_cell_text(v))}</td>")
        out.append(f'<tr class="{esc(rc)}">' + "".join(cells) + "</tr>" if rc else
                   "<tr>" + "".join(cells) + "</tr>")
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
    html_table = table(cols, [[r.get(c, "") for c in cols] for r in shown],
                       row_classes=row_classes[:MAX_TABLE_ROWS] if row_classes else None)
    if len(rows) > MAX_TABLE_ROWS:
        html_table = Markup(html_table + f'<p class="note">first {MAX_TABLE_ROWS:,} of '
                            f'{len(rows):,} rows shown; all are in the JSON results.</p>')
    if fold_title and len(rows) > FOLD_ROWS:
        return Markup(f"<details><summary>{esc(fold_title)} ({len(rows):,} rows)</summary>"
                      f"{html_table}</details>")
    return html_table


def _direction_label(d: str | None) -> str:
    return {HIGHER: "↑ higher is better", LOWER: "↓ lower is better"}.get(d, "descriptive (not ranked)")


def _oov_text(oov: dict | None) -> str:
    if not oov:
        return ""
    return "OOV: " + ", ".join(f"{k} {format_number(v)}" for k, v in sorted(oov.items()))


def score_cell(value, lo, hi, rank=None, n_ranked=None, oov=None, best=False) -> Markup:
    """A leaderboard cell: value, [CI], rank, and the OOV counts beside it."""
    parts = [f"<span class=\"v\">{esc(format_number(value))}</span>"]
    if lo is not None and hi is not None and math.isfinite(lo) and math.isfinite(hi):
        parts.append(f'<span class="ci">[{esc(format_number(lo))}, {esc(format_number(hi))}]</span>')
    if rank is not None and math.isfinite(rank):
        parts.append(f'<span class="rank">rank {int(rank)}'
                     f'{f"/{n_ranked}" if n_ranked else ""}</span>')
    if oov:
        parts.append(f'<span class="oov">{esc(_oov_text(oov))}</span>')
    cls = "num best" if best else "num"
    return Markup(f'<td class="{cls}">' + "".join(parts) + "</td>")


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
            mime = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg",
                    ".jpeg": "image/jpeg"}.get(p.suffix.lower(), "application/octet-stream")
            return f"data:{mime};base64," + base64.b64encode(p.read_bytes()).decode("ascii")
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in entry.label)
        dst = self.files_dir / safe / entry.measure / p.name
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(p, dst)
        return dst.relative_to(self.out_path.parent).as_posix()


# --------------------------------------------------------------------------- sections
def _summary(coll: Collection) -> list[str]:
    from wordgames._version import __version__

    run = coll.run or {}
    out = ["<h2 id=\"summary\">Summary</h2>"]
    facts = [
        ("report generated", time.strftime("%Y-%m-%d %H:%M:%S %Z")),
        ("wordgames version (report)", __version__),
        ("wordgames version (last run)", run.get("tool_version", "n/a")),
        ("last run created", run.get("created_at", "n/a")),
        ("results folder", str(coll.root)),
        ("results read from", "results store (records/), every run merged" if coll.from_store
         else "results.json"),
        ("stored results", f"{len(coll.entries):,} ({len(coll.selected):,} on the leaderboard)"),
    ]
    for k, v in (run.get("environment") or {}).items():
        facts.append((f"environment: {k}", v))
    out.append(table(["item", "value"], facts))
    out.append('<h3 id="embeddings">Embeddings</h3>')
    rows = []
    for d in coll.embeddings():
        measures = sorted({e.measure for e in coll.entries if e.label == d["label"]})
        rows.append([d["label"], d.get("source", ""), d.get("n_words"), d.get("dim"),
                     Markup(f"<code>{esc(d.get('sha256', ''))}</code>"), d.get("oov_policy", ""),
                     ", ".join(measures)])
    out.append(table(["embedding", "source", "vocabulary size", "dimensions", "sha256",
                      "OOV policy", "measures stored"], rows))
    out.append('<h3 id="parameters">Parameters and seeds</h3>')
    if run.get("parameters"):
        out.append(table(["parameter of the last run", "value"],
                         [[k, v] for k, v in run["parameters"].items()]))
    seeds = sorted({str(e.params.get("seed", e.result.get("parameters", {}).get("seed", "n/a")))
                    for e in coll.entries})
    out.append(f'<p>Seeds of the stored results: <b>{esc(", ".join(seeds))}</b>.</p>')
    rows = [[e.label, e.measure, e.variant, "yes" if e.selected else "no",
             e.params if e.params else e.result.get("parameters", {})] for e in coll.entries]
    out.append(f"<details><summary>Parameters of every stored result ({len(rows)})</summary>"
               + table(["embedding", "measure", "variant", "on leaderboard", "parameters"], rows)
               + "</details>")
    if coll.notes:
        out.append("<ul>" + "".join(f'<li class="warn">{esc(n)}</li>' for n in coll.notes) + "</ul>")
    out.append('<h3 id="datasets">Data sets and checksums</h3>')
    sums: dict[str, dict] = {}
    for e in coll.entries:
        for name, files in (e.result.get("datasets") or {}).items():
            sums.setdefault(name, {}).update(files or {})
    if sums:
        for name in sorted(sums):
            files = sums[name]
            out.append(f"<details><summary>{esc(name)}: {len(files)} file(s)</summary>"
                       + table(["file", "sha256"], [[f, Markup(f"<code>{esc(s)}</code>")]
                                                    for f, s in sorted(files.items())])
                       + "</details>")
    else:
        out.append('<p class="note">The results record no data set checksums.</p>')
    out.append('<h3 id="timings">Timings (seconds)</h3>')
    labels, measures = coll.labels(), coll.measures()
    trows = []
    for lab in labels:
        row = [lab]
        for m in measures:
            e = coll.entry(lab, m)
            row.append((e.result.get("timings") or {}).get("total") if e else None)
        trows.append(row)
    out.append(table(["embedding", *measures], trows))
    if run.get("timings"):
        out.append(f"<details><summary>Timings of the last run</summary>"
                   f"{table(['step', 'seconds'], list(run['timings'].items()))}</details>")
    out.append('<h3 id="skipped">Skipped measures</h3>')
    if coll.skipped:
        out.append(table(["embedding", "measure", "reason"],
                         [[s.get("embedding", ""), s.get("measure", ""), s.get("reason", "")]
                          for s in coll.skipped]))
    else:
        out.append('<p class="note">None.</p>')
    return out


def _leaderboard(coll: Collection) -> list[str]:
    lb = leaderboard(coll)
    labels = list(lb.values.index)
    out = ['<h2 id="leaderboard">Leaderboard</h2>',
           '<p class="note">Each cell: the value, its 95 % confidence interval in brackets where the '
           "measure gives one, the embedding's rank among the embeddings (1 = best, ties share a "
           "rank; descriptive metrics are not ranked) and the out-of-vocabulary counts that affect "
           "the value. The best value of each metric is highlighted.</p>"]
    from wordgames.report.leaderboard import primary_metric

    prim = {m: primary_metric(coll, m) for m in coll.measures()}
    prim = {m: k for m, k in prim.items() if k is not None}
    ranked_cols = [c for c in lb.columns if lb.directions[c] in (HIGHER, LOWER)]
    mean_rank = lb.ranks[ranked_cols].mean(axis=1) if ranked_cols else None
    if prim:
        heads = [Markup(f"{esc(m)}<span class=\"dir\">{esc(k)}<br>"
                        f"{esc(_direction_label(lb.directions[(m, k)]))}</span>")
                 for m, k in prim.items()]
        rows = []
        for lab in labels:
            row = [lab]
            for m, k in prim.items():
                rank = lb.ranks.at[lab, (m, k)]
                row.append(score_cell(lb.values.at[lab, (m, k)], lb.ci_low.at[lab, (m, k)],
                                      lb.ci_high.at[lab, (m, k)], rank,
                                      int(lb.ranks[(m, k)].notna().sum()), lb.oov.at[lab, (m, k)],
                                      best=rank == 1))
            row.append(None if mean_rank is None else float(mean_rank[lab]))
            rows.append(row)
        out.append("<h3>Overview: each measure's headline metric</h3>")
        out.append(table(["embedding", *heads, Markup(
            "mean rank<span class=\"dir\">over every ranked headline metric<br>"
            "↓ lower is better</span>")], rows))
    for m in coll.measures():
        cols = [c for c in lb.columns if c[0] == m]
        if not cols:
            continue
        out.append(f'<h3 id="lb-{esc(m)}">{esc(m)}</h3>')
        rows = []
        for c in cols:
            n_ranked = int(lb.ranks[c].notna().sum())
            row = [Markup(f"{esc(c[1])}<span class=\"dir\">{esc(_direction_label(lb.directions[c]))}"
                          "</span>")]
            for lab in labels:
                rank = lb.ranks.at[lab, c]
                row.append(score_cell(lb.values.at[lab, c], lb.ci_low.at[lab, c],
                                      lb.ci_high.at[lab, c], rank, n_ranked, lb.oov.at[lab, c],
                                      best=rank == 1))
            rows.append(row)
        out.append(table(["metric", *labels], rows, cls="leaderboard"))
    return out


def _correlation(coll: Collection) -> list[str]:
    cor = correlation_table(coll)
    out = ['<h2 id="correlation">Cross-measure correlation</h2>',
           "<p class=\"note\">Do the measures rank the embeddings alike? Spearman's rank "
           "correlation across embeddings between each measure's headline metric (oriented so "
           "that higher is better), with the number of embeddings n that have both. With fewer "
           "than 3 embeddings no correlation is computed.</p>"]
    if not cor.primary:
        out.append('<p class="note">No measure with a headline metric.</p>')
        return out
    ms = list(cor.primary)
    rows = []
    for a in ms:
        row = [Markup(f"{esc(a)}<span class=\"dir\">{esc(cor.primary[a])}"
                      f"{' (negated)' if cor.oriented[a] else ''}</span>")]
        for b in ms:
            r, n = cor.matrix.at[a, b], int(cor.n.at[a, b])
            row.append(Markup(f'<td class="num">{esc(format_number(r))}'
                              f'<span class="rank">n={n}</span></td>'))
        rows.append(row)
    out.append(table(["Spearman rho", *ms], rows, cls="correlation"))
    prow = [[r.measure_a, r.measure_b, r.rho, r.p_value, r.n, r.note]
            for r in cor.pairs.itertuples()]
    out.append(table(["measure", "measure", "rho", "p-value", "n", "note"], prow))
    if cor.notes:
        out.append("<ul>" + "".join(f'<li class="note">{esc(n)}</li>' for n in cor.notes) + "</ul>")
    return out


def _combined_tables(entries: list[Entry]) -> dict[str, tuple[list[dict], list[str]]]:
    """Each table name -> (rows of every embedding, row classes). A row found identically in
    every embedding's table (a baseline that does not depend on the embedding) is shown once."""
    names: list[str] = []
    for e in entries:
        for t in e.result.get("tables") or {}:
            if t not in names:
                names.append(t)
    out = {}
    for t in names:
        per = [(e, [r for r in (e.result.get("tables") or {}).get(t) or () if isinstance(r, dict)])
               for e in entries]
        keyed = [(e, [(json.dumps(r, sort_keys=True, default=str), r) for r in rows])
                 for e, rows in per]
        shared: set[str] = set()
        if len(entries) > 1:
            sets = [{k for k, _ in rows} for _, rows in keyed]
            shared = set.intersection(*sets) if sets else set()
        rows, classes, done = [], [], set()
        for e, krows in keyed:
            for k, r in krows:
                if k in shared:
                    if k in done:
                        continue
                    done.add(k)
                    rows.append(r if "embedding" in r else {"embedding": "all (baseline)", **r})
                    classes.append("baseline")
                else:
                    rows.append(r if "embedding" in r else {"embedding": e.label, **r})
                    classes.append("")
        out[t] = (rows, classes)
    return out


def _wales_baselines(entries: list[Entry]) -> list[str]:
    rows, classes = [], []
    human = None
    for e in entries:
        m = e.result.get("metrics") or {}
        lo, hi = interval(e, "wales/score")
        rows.append([e.label, "edges", m.get("wales/score"),
                     f"[{format_number(lo)}, {format_number(hi)}]",
                     _oov_text(oov_companions(m, "wales/score", measure="wales"))])
        nodes = next((r for r in (e.result.get("tables") or {}).get("distributions") or ()
                      if r.get("task_set") == "human" and r.get("convention") == "nodes"), {})
        ci = (f"[{format_number(nodes['ci_low'])}, {format_number(nodes['ci_high'])}]"
              if _is_number(nodes.get("ci_low")) and _is_number(nodes.get("ci_high")) else "")
        rows.append([e.label, "nodes", m.get("wales/score_nodes"), ci,
                     _oov_text(oov_companions(m, "wales/score", measure="wales"))])
        classes += ["", ""]
        human = human or (e.result.get("tables") or {}).get("human_reference_wikigame")
    for h in human or ():
        for stat in ("best", "average", "median"):
            half = h.get(f"{stat}_ci_half_width")
            v = h.get(stat)
            ci = (f"[{format_number(v - half)}, {format_number(v + half)}]"
                  if _is_number(v) and _is_number(half) else "")
            rows.append([f"people, The Wiki Game ({stat} player)", h.get("convention", ""), v, ci,
                         f"{format_number(h.get('n_tasks'))} tasks, on the authors' graph"])
            classes.append("baseline")
    if not rows:
        return []
    return ["<h4>Agents beside the human baseline</h4>",
            table(["player", "length convention", "score", "95 % CI", "OOV / note"], rows,
                  row_classes=classes)]


def _measure_sections(coll: Collection, images: _Images) -> list[str]:
    from wordgames.registry import builtin_measures

    desc = {m.name: m.description for m in builtin_measures()}
    out = []
    for m in coll.measures():
        order = {lab: i for i, lab in enumerate(coll.labels())}
        entries = sorted((e for e in coll.selected if e.measure == m), key=lambda e: order[e.label])
        out.append(f'<h2 id="m-{esc(m)}">{esc(m)}</h2>')
        if m in desc:
            out.append(f'<p class="note">{esc(desc[m])}.</p>')
        versions = sorted({e.variant for e in entries})
        out.append(f'<p class="note">Version-parameters: {esc(", ".join(versions))}.</p>')
        if m == "wales":
            out.extend(_wales_baselines(entries))
        combined = _combined_tables(entries)
        baseline_tables = [t for t in combined if any(w in t for w in ("human", "baseline", "reference"))]
        for t, (rows, classes) in combined.items():
            if not rows:
                continue
            label = "baseline table" if t in baseline_tables else "table"
            note = (' <span class="note">(highlighted rows are the same for every embedding: '
                    "baselines that do not depend on it)</span>" if "baseline" in classes else "")
            out.append(f"<h4>{esc(label)}: {esc(t)}{note}</h4>")
            out.append(dict_rows_table(rows, row_classes=classes, fold_title=f"table {t}"))
        # notes about the data (repairs, sources) repeat for every embedding: show them once
        shared_notes = [n for n in (entries[0].result.get("notes") or [])
                        if len(entries) > 1 and all(n in (x.result.get("notes") or []) for x in entries)]
        if shared_notes:
            out.append(f"<h4>Notes ({esc(m)}, every embedding)</h4><ul>"
                       + "".join(f'<li class="note">{esc(n)}</li>' for n in shared_notes) + "</ul>")
        for e in entries:
            out.append(f'<h3 id="m-{esc(m)}-{esc(e.label)}">{esc(m)} on {esc(e.label)}</h3>')
            metrics = e.result.get("metrics") or {}
            tabs, idx = table_intervals(e), oov_index(metrics)
            mrows = []
            for k, v in metrics.items():
                lo, hi = interval(e, k, tabs)
                mrows.append([k, v, lo if math.isfinite(lo) else None,
                              hi if math.isfinite(hi) else None,
                              _oov_text(oov_companions(metrics, k, measure=m,
                                                        oov=e.result.get("oov"), index=idx)),
                              _direction_label(metric_direction(m, k))])
            out.append(f"<details><summary>all {len(mrows):,} metrics</summary>"
                       + table(["metric", "value", "ci_low", "ci_high", "OOV beside it",
                                "direction"], mrows) + "</details>")
            oov = e.result.get("oov") or {}
            if oov:
                orows = [[k, v] for k, v in oov.items()]
                body = table(["out-of-vocabulary record", "counts"], orows)
                out.append(f"<h4>OOV counts ({esc(m)}, {esc(e.label)})</h4>")
                out.append(body if len(orows) <= FOLD_ROWS else
                           f"<details><summary>{len(orows)} OOV records</summary>{body}</details>")
            notes = [n for n in e.result.get("notes") or [] if n not in shared_notes]
            if notes:
                out.append("<ul>" + "".join(f'<li class="note">{esc(n)}</li>' for n in notes) + "</ul>")
            figs = []
            for plot in e.result.get("plots") or []:
                src = images.src(plot, e)
                name = Path(plot).name
                if src is None:
                    figs.append(f'<p class="warn">plot missing: {esc(plot)}</p>')
                    continue
                figs.append(f'<figure><img src="{esc(src)}" alt="{esc(m)} {esc(name)} for '
                            f'{esc(e.label)}"><figcaption>{esc(name)}</figcaption></figure>')
            out.extend(figs)
    return out


def render_report(coll: Collection, out_path: str | Path, *, images: str = "embed",
                  title: str = "wordgames report") -> str:
    """The report of ``coll`` as one HTML string (``out_path`` places copied images)."""
    out_path = Path(out_path)
    imgs = _Images(coll, out_path, images)
    parts = [_summary(coll), _leaderboard(coll), _correlation(coll), _measure_sections(coll, imgs)]
    nav = ['<nav><ul><li><a href="#summary">Summary</a></li>',
           '<li><a href="#leaderboard">Leaderboard</a></li>',
           '<li><a href="#correlation">Cross-measure correlation</a></li>']
    nav += [f'<li><a href="#m-{esc(m)}">{esc(m)}</a></li>' for m in coll.measures()]
    nav.append("</ul></nav>")
    body = [x for p in parts for x in p]
    if imgs.missing:
        body.append('<h2 id="missing">Missing files</h2><ul>'
                    + "".join(f'<li class="warn">{esc(p)}</li>' for p in imgs.missing) + "</ul>")
    labels = ", ".join(coll.labels())
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f"<header><h1>{esc(title)}</h1><p>{esc(len(coll.labels()))} embedding(s): {esc(labels)}"
        f" &middot; {esc(len(coll.measures()))} measure(s)</p></header><main>",
        *nav, *body, "</main></body></html>"])


def write_html(coll: Collection, out: str | Path, *, images: str = "embed",
               title: str = "wordgames report") -> Path:
    """Write the report of an already-read :class:`Collection` to ``out`` (atomically)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    text = render_report(coll, out, images=images, title=title)
    tmp = out.with_name(f".{out.name}.tmp")  # a reader never sees half a report
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(out)
    return out


def write_report(results_dir: str | Path, out: str | Path | None = None, *,
                 images: str = "embed", title: str = "wordgames report") -> Path:
    """Read ``results_dir`` and write its HTML report (default ``RESULTS_DIR/report.html``).

    Returns the path written. ``images``: ``"embed"`` (base64 data URIs, one self-contained
    file) or ``"copy"`` (PNG files in ``<name>_files/`` beside the HTML, relative links).
    """
    coll = load_results(results_dir)
    out = Path(out) if out is not None else Path(results_dir) / "report.html"
    return write_html(coll, out, images=images, title=title)
