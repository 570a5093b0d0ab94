"""The console summary of a run: each result's headline scores with their OOV counts."""

from __future__ import annotations

import math


def _fmt(v) -> str:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return "n/a"
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def headline_rows(res) -> list[tuple]:
    """``(embedding, measure, what, value, n, skipped)`` for every headline score of ``res``.

    For a measure without declared headlines: its numeric metrics.
    """
    from wordgames.registry import get_measure

    rows = []
    for r in res.results:
        try:
            spec = get_measure(r.measure)
        except KeyError:
            spec = None
        if spec is not None and spec.headlines and r.scores:
            for s in r.scores:
                if spec.headline_of(s) is None:
                    continue
                what = "/".join(p for p in (s.dataset, s.subject, s.metric) if p)
                skipped = f"{s.n_skipped}: {s.skip_reason}" if s.n_skipped else ""
                rows.append(
                    (
                        r.embedding,
                        r.measure,
                        what,
                        _fmt(s.value),
                        "" if s.n is None else f"{s.n:,}",
                        skipped,
                    )
                )
            continue
        for key, value in r.metrics.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                rows.append((r.embedding, r.measure, key, _fmt(value), "", ""))
    return rows


def print_summary(con, res, *, out, vocabulary: str) -> None:
    """Print the headline table.

    The rest (often hundreds of numbers) is in results.json and in ``wordgames report``.
    """
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"wordgames results (vocabulary: {escape(vocabulary)})")
    for col in ("embedding", "measure", "score", "value", "n", "skipped or OOV"):
        table.add_column(col, overflow="fold")
    rows = headline_rows(res)
    for row in rows:
        table.add_row(*(escape(str(c)) for c in row))
    con.print(table)
    total = sum(len(r.scores) or len(r.metrics) for r in res.results)
    if total > len(rows):
        con.print(
            f"{total - len(rows)} more scores in {out}/results.json; "
            f"`wordgames report {out}` shows them all",
            highlight=False,
        )
    reused = res.parameters.get("reused", 0)
    if reused:
        con.print(
            f"{reused} result(s) reused from the store in {out} (use --overwrite to recompute)",
            highlight=False,
        )
    con.print(
        f"results: {out}/results.json  ({res.timings.get('total', 0):.1f} s)", highlight=False
    )
