"""The console summary of a run: each headline score with its coverage, thin ones marked.

The summary never cuts a name: one block per measure, the data set as a heading, each score's
label (subject and metric) whole on its line; when the values do not fit beside the label at
the console's width they go on the lines below it (one per embedding). Numbers have one
format per column (values: three decimals with thousands separators). Why a score is thin or
why items were skipped is said once per block, in numbered notes.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass

#: sampling parameters a result may record: how the console says them
SAMPLE_PARAMETERS = {
    "max_records": "a seeded sample of at most {:,} records of each kind per data set",
    "human_k": "the first {:,} human-played pairs",
}


@dataclass
class Row:
    """One headline score of one embedding, ready to print."""

    measure: str
    dataset: str
    label: str  # subject and metric
    subject: str
    value: float | None
    counts: tuple[int, int] | None  # (items used, items available)
    thin: bool = False
    thin_reason: str = ""
    skip_reason: str = ""
    direction: str | None = None
    best: bool = False
    tied: bool = False  # in a top group that no paired comparison separates
    column: tuple | None = None  # (measure, dataset, subject, metric): the leaderboard's
    oov_only: bool = False  # the reason is for items kept in n (n_oov), none skipped


def fmt_value(v) -> str:
    """A value as the summary prints every value: three decimals, thousands separated.

    Examples
    --------
    >>> [fmt_value(v) for v in (0.53914, 13205.1034, -0.0893, 40, float("nan"), None)]
    ['0.539', '13,205.103', '-0.089', '40.000', 'n/a', 'n/a']
    """
    if v is None or isinstance(v, bool) or not math.isfinite(float(v)):
        return "n/a"
    return f"{float(v):,.3f}"


def coverage_counts(score) -> tuple[int, int] | None:
    """``(items known, data set's items)`` of a score (``None`` when it does not say).

    One rule for every measure: the data set has ``n + n_skipped`` items, and the value knows
    every word of ``n - n_oov`` of them.

    Examples
    --------
    >>> from wordgames.measure import Score
    >>> coverage_counts(Score("e", "m", "d", "", "map", 0.5, n=26, n_skipped=4))
    (26, 30)
    >>> coverage_counts(Score("e", "m", "d", "", "pct", 50.0, n=102, n_oov=3))
    (99, 102)
    """
    if score.n is None:
        return None
    return score.n - (getattr(score, "n_oov", 0) or 0), score.n + (score.n_skipped or 0)


def fmt_counts(counts) -> str:
    """``"26 of 30"`` (``"30"`` when every item is used, ``""`` when unknown)."""
    if counts is None:
        return ""
    used, available = counts
    return f"{used:,}" if used == available else f"{used:,} of {available:,}"


def headline_rows(res) -> list[Row]:
    """A :class:`Row` for every headline score of ``res``, best non-thin values marked.

    For a measure without declared headlines: every Score row.
    """
    from wordgames.registry import get_measure

    rows = []
    for r in res.results:
        try:
            spec = get_measure(r.measure)
        except KeyError:
            spec = None
        headlines = spec is not None and bool(spec.headlines)
        rows += [
            _score_row(r, s) for s in r.scores if not headlines or spec.headline_of(s) is not None
        ]
    _mark_best(rows, res)
    return _grouped(rows)


def _score_row(r, s) -> Row:
    from wordgames.report.leaderboard import score_key
    from wordgames.report.text import agent_text, reading_agents

    return Row(
        r.measure,
        s.dataset,
        " ".join(p for p in (agent_text(s), s.metric) if p),
        r.subject,
        s.value,
        coverage_counts(s),
        bool(s.thin),
        s.thin_reason,
        _why(s, reads=(s.dataset, s.agent) in reading_agents(r.tables)),
        s.direction,
        column=(r.measure, *score_key(s)),
        oov_only=bool(s.n_oov) and not s.n_skipped,
    )


def _why(s, reads: bool = False) -> str:
    """The skip reason of a score, and its unreadable answers (a player's) after it.

    ``reads``: the score's agent reads a model's answers; its count is said, 0 included.
    """
    from wordgames.report.text import skipped_text

    why = s.skip_reason if s.n_skipped or s.n_oov else ""
    unread = skipped_text(0, s.n + (s.n_skipped or 0) if s.n is not None else None, "", 0,
                          getattr(s, "n_unread", 0), reads)  # fmt: skip
    return "; ".join(filter(None, [why, unread]))


def _grouped(rows: list[Row]) -> list[Row]:
    """``rows`` by measure, data set and label (in order of first appearance), then embedding."""
    first: dict = {}
    for i, row in enumerate(rows):
        for key in (
            (row.measure,),
            (row.measure, row.dataset),
            (row.measure, row.dataset, row.label),
        ):
            first.setdefault(key, i)

    def order(item):
        i, row = item
        return (
            first[(row.measure,)],
            first[(row.measure, row.dataset)],
            first[(row.measure, row.dataset, row.label)],
            i,
        )

    return [row for _, row in sorted(enumerate(rows), key=order)]


def _mark_best(rows: list[Row], res) -> None:
    """Mark what the leaderboard's paired rule says: the best, or the tied top group.

    A value is best only when a paired comparison on the shared items separates it from every
    other embedding (:meth:`wordgames.report.Leaderboard.best`); a top group of several that
    none separates is marked ``tied``.
    """
    if len({r.subject for r in rows}) < 2 or not hasattr(res, "leaderboard"):
        return
    lb = res.leaderboard()
    if not lb.columns:
        return
    best, tied = lb.best(), lb.tied_top()
    index = set(lb.values.index)
    for r in rows:
        col = getattr(r, "column", None)
        if col in lb.directions and r.subject in index:
            r.best = bool(best.loc[r.subject, col])
            r.tied = bool(tied.loc[r.subject, col])


def sample_note(result) -> str:
    """How a result sampled its data (``""`` when it used all of it)."""
    params = getattr(result, "parameters", None) or {}
    own = params.get("options") if isinstance(params.get("options"), dict) else {}
    notes = []
    for key, text in SAMPLE_PARAMETERS.items():
        value = params.get(key, own.get(key))
        if isinstance(value, int) and not isinstance(value, bool):
            notes.append(text.format(value))
    return "; ".join(notes)


def coverage_warnings(res) -> list[str]:
    """One line per data set that the scores cover less than the thin policy's share of.

    Only the headline scores (the rows of the printed table) are read, so that every count a
    warning gives is one the table shows. Embeddings with the same coverage of a data set (an
    intersected vocabulary) share a line.
    """
    params = res.parameters or {}
    least = float((params.get("thin") or {}).get("min_coverage", 0.5))
    found: dict = {}
    for r in res.results:
        spec = measure_or_none(r.measure)
        for s in r.scores:
            if spec is not None and spec.is_baseline(s.agent):
                continue  # its coverage is not the vocabulary's doing
            if s.metric.endswith((".share_of_ceiling", ".gap_to_people")):
                continue  # paired with the people: their data's gaps, not the vocabulary's
            if (
                spec is not None
                and spec.headlines
                and not any(h.matches(s) for h in spec.headlines)
            ):
                continue  # the warning speaks of the table's rows: their counts, no others
            counts = coverage_counts(s)
            if counts is not None and counts[1] and counts[0] / counts[1] < least:
                found.setdefault((r.measure, s.dataset, r.subject), set()).add(counts)
    shared: dict = {}
    for (measure, dataset, embedding), pairs in found.items():
        key = (measure, dataset, tuple(sorted(pairs, key=lambda p: (-p[1], p[0]))))
        shared.setdefault(key, []).append(embedding)
    everyone = list(dict.fromkeys(r.subject for r in res.results))
    by_what = _vocabulary_phrase(params.get("vocabulary") or {})
    # a player has no vocabulary: what it leaves out are answers that could not be read
    players = {  # the people's skipped responses are the data's, not a vocabulary's either
        d.get("name") for d in res.subjects or () if d.get("kind") in ("player", "people")
    }
    lines = []
    for (measure, dataset, pairs), embeddings in shared.items():
        covered = " and ".join(f"{u:,} of {a:,}" for u, a in pairs)
        if players.issuperset(embeddings):
            lines.append(
                f"warning: {dataset or measure}: {covered} {_item_noun(measure)} "
                f"scored, the rest skipped (see the notes) ({measure} on {', '.join(embeddings)}; "
                "thin, not ranked)"
            )
            continue
        who = (
            "every embedding"
            if len(everyone) > 1 and embeddings == everyone
            else (", ".join(embeddings))
        )
        lines.append(
            f"warning: {dataset or measure}: {covered} {_item_noun(measure)} "
            f"covered by {by_what} ({measure} on {who}; thin, not ranked)"
        )
    return lines


def measure_or_none(measure: str):
    """The registered measure ``measure``, or ``None`` (a stored result of a measure gone)."""
    from wordgames.registry import UnknownMeasureError, get_measure

    try:
        return get_measure(measure)
    except UnknownMeasureError:
        return None


def _vocabulary_phrase(vocabulary: dict) -> str:
    """What restricted the vocabularies, in words."""
    if vocabulary.get("intersect"):
        return "the shared vocabulary"
    if vocabulary.get("top_n"):
        return f"the top {vocabulary['top_n']:,} words"
    if vocabulary.get("lower_alpha"):
        return "the a-z vocabulary"
    return "the vocabulary"


def print_coverage_warnings(con, res) -> None:
    """Print :func:`coverage_warnings` (yellow; the text says it all without colour)."""
    from rich.text import Text

    for line in coverage_warnings(res):
        con.print(Text(line, style="yellow"))


def print_summary(con, res, *, out, vocabulary: str) -> None:
    """Print the headline scores, one block per measure; then where the rest is.

    The rest (often hundreds of numbers) is in results.json and in ``wordgames report``.
    """
    from rich.text import Text

    rows = headline_rows(res)
    embeddings = list(dict.fromkeys(r.subject for r in res.results))
    title = f"wordgames results (vocabulary: {vocabulary}"
    title += "; quick run)" if (res.parameters or {}).get("quick") else ")"
    if len(embeddings) == 1:
        title += f": {embeddings[0]}"
    con.print(Text(title, style="bold"), soft_wrap=True)
    samples = {r.measure: sample_note(r) for r in res.results}
    for measure in dict.fromkeys(r.measure for r in rows):
        block = [r for r in rows if r.measure == measure]
        for line, style in render_block(
            measure,
            block,
            samples.get(measure, ""),
            width=con.width,
            one_embedding=len(embeddings) == 1,
        ):
            con.print(Text(line, style=style), soft_wrap=True)
    _print_footer(con, res, rows, out)


def _print_footer(con, res, rows, out) -> None:
    total = sum(len(r.scores) for r in res.results)
    lines = []
    if total > len(rows):
        lines.append(
            f"{total - len(rows)} more scores in {out}/results.json; "
            f"`wordgames report {out}` shows them all"
        )
    reused = (res.parameters or {}).get("reused", 0)
    if reused:
        lines.append(
            f"{reused} result(s) reused from the store in {out} (use --overwrite to recompute)"
        )
    lines += model_usage_lines(res)
    lines.append(f"results: {out}/results.json  ({res.timings.get('total', 0):.1f} s)")
    for line in lines:  # prose: wrapped at words by the console
        con.print(line, highlight=False, markup=False)


def model_usage_lines(res) -> list[str]:
    """One line per model subject of the run: requests sent, cached, failed, unreadable.

    The counts are this run's (``res.parameters["usage"]``, summed over the units it
    computed); a model subject whose every result was reused says so.

    >>> from types import SimpleNamespace as NS
    >>> res = NS(results=[NS(subject="chat:m", usage={"requests": 3})],
    ...          parameters={"usage": {"chat:m": {"requests": 3, "cache_hits": 2, "failed": 0,
    ...                                           "unreadable": 1}}})
    >>> model_usage_lines(res)
    ['chat:m: 3 request(s) sent, 2 answered from the cache, 0 failed, 1 answer(s) unreadable after re-prompts']
    """
    usage = (res.parameters or {}).get("usage") or {}
    subjects = dict.fromkeys([*(r.subject for r in res.results if r.usage), *usage])
    lines = []
    for name in subjects:
        u = usage.get(name)
        if u is None:
            lines.append(f"{name}: 0 requests sent (every result reused from the store)")
            continue
        lines.append(
            f"{name}: {u.get('requests', 0):,} request(s) sent, {u.get('cache_hits', 0):,} "
            f"answered from the cache, {u.get('failed', 0):,} failed, "
            f"{u.get('unreadable', 0):,} answer(s) unreadable after re-prompts"
        )
    return lines


def render_block(
    measure: str, rows: list[Row], sample: str, *, width: int, one_embedding: bool
) -> list[tuple[str, str]]:
    """The lines (and their styles) of one measure's block, fitted to ``width`` columns.

    A score's label and its values share a line when they fit; otherwise the values go on
    the lines below the label. No name is ever cut.
    """
    notes: dict[str, int] = {}

    def refs(row: Row) -> str:
        marks = ["best"] if row.best else (["tied best"] if row.tied else [])
        for text, thin in ((row.thin_reason, True), (row.skip_reason, False)):
            if (thin and row.thin) or (not thin and text):
                left = "out of vocabulary" if row.oov_only else "skipped"
                key = (f"thin, not ranked: {text}" if thin else f"{left}: {text}").rstrip(": ")
                marks.append(
                    ("thin " if thin else "") + f"[{notes.setdefault(key, len(notes) + 1)}]"
                )
        return " ".join(marks)

    cells = [
        (r, "" if one_embedding else r.subject, fmt_value(r.value), fmt_counts(r.counts), refs(r))
        for r in rows
    ]
    emb_w = max((len(c[1]) for c in cells), default=0)
    val_w = max([len("value")] + [len(c[2]) for c in cells])
    cov_w = max([len("n used")] + [len(c[3]) for c in cells])
    label_w = max(len(r.label) for r in rows) + 4
    values_w = (emb_w + 2 if emb_w else 0) + val_w + 2 + cov_w + 2
    inline = one_embedding and label_w + 2 + values_w + 8 <= width
    head = f"{measure}" + (f" ({sample})" if sample else "")
    lines = [("", ""), (head, "bold")]
    pad = label_w + 2 if inline else 6
    lines.append(
        (
            " " * pad
            + (" " * (emb_w + 2) if emb_w else "")
            + "value".rjust(val_w)
            + "  "
            + "n used".rjust(cov_w)
            + "  notes",
            "dim",
        )
    )
    dataset, label = None, None
    for row, emb, value, cov, note in cells:
        if row.dataset != dataset:
            dataset, label = row.dataset, None
            if dataset:
                lines.append(("  " + dataset, ""))
        values = (
            ((emb.ljust(emb_w) + "  ") if emb_w else "")
            + value.rjust(val_w)
            + "  "
            + cov.rjust(cov_w)
            + ("  " + note if note else "")
        )
        style = "dim" if row.thin else ("bold" if row.best else "")
        if inline:
            lines.append((("    " + row.label).ljust(label_w + 2) + values, style))
            continue
        if row.label != label:
            label = row.label
            lines.append(("    " + row.label, ""))
        lines.append(("      " + values, style))
    for text, i in notes.items():  # prose: wrapped at the width, under its number
        wrapped = textwrap.wrap(text, max(width - 8, 20), break_long_words=False)
        lines += [
            ((f"  [{i}] " if k == 0 else " " * 6) + part, "dim") for k, part in enumerate(wrapped)
        ]
    return lines


def _item_noun(measure: str) -> str:
    """What one item of ``measure`` is (its declaration's ``item_noun``), else "items"."""
    from wordgames.registry import UnknownMeasureError, get_measure

    try:
        return get_measure(measure).item_noun
    except UnknownMeasureError:
        return "items"
