"""Leaderboard across embeddings and measures, and the cross-measure correlation table.

Conventions read from the measures' results
-------------------------------------------
**Confidence intervals** (95 %) of a metric ``M`` are taken, first match wins, from

1. metrics named ``M/ci_low`` and ``M/ci_high`` (or ``M.ci_low`` / ``M.ci_high``);
2. a table row with columns ``ci_low`` and ``ci_high`` that names ``M`` in a ``metric``
   column, or, for Codenames, the ``senders`` / ``receivers`` rows of clue source ``all``
   (the interval of ``mean_rank`` resp. of the receiver's score);
3. a sibling metric ``ci_half_width`` (``P/ci_half_width`` beside ``P/score``, WALES):
   ``score +- half width``.

**OOV counts** of a metric ``P/stat`` (or ``P.stat``) are its siblings whose last component
mentions OOV or missing vectors (``P/oov_pairs``, ``P.n_skipped_oov``, ``P/puzzles_with_oov``,
``P/n_excluded_target_no_vector``...); they are reported beside the value.

**Directions**: :data:`HEADLINES` declares each measure's headline metrics with "higher" or
"lower" is better (mean ranks and turns are lower-better; global matrix metrics such as erank
have no better direction and are not ranked). A measure without an entry falls back to all
its numeric metrics, with a direction guessed from the name (:func:`guess_direction`), counts
left out.

**Cross-measure correlation**: each measure's *primary* headline metric, oriented so that
larger is better (lower-better metrics are negated), is compared between measures by
Spearman's rank correlation across the embeddings that have both; with fewer than
:data:`MIN_EMBEDDINGS` embeddings it is NaN with a note, never a number from too little data.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from wordgames.report.collect import Collection, Entry

MIN_EMBEDDINGS = 3
HIGHER, LOWER = "higher", "lower"


@dataclass(frozen=True)
class Headline:
    """A headline metric of a measure: a full-match regular expression over metric names.

    ``primary`` marks the candidates for the measure's single number in the correlation table;
    the first one present for the most embeddings is used.
    """

    pattern: str
    direction: str | None  # "higher", "lower" or None (descriptive, not ranked)
    primary: bool = False
    description: str = ""

    def matches(self, metric: str) -> bool:
        return re.fullmatch(self.pattern, metric) is not None


#: Known headline metrics per measure, in display order.
HEADLINES: dict[str, tuple[Headline, ...]] = {
    "codenames": (
        Headline(r"codenames-pilot/nearest/human_receiver\.map", HIGHER, True,
                 "nearest receiver vs people's picks on the pilot data: mean average precision"),
        Headline(r"[^/]+/nearest/human_receiver\.map", HIGHER, True,
                 "nearest receiver vs people's picks: mean average precision"),
        Headline(r"[^/]+/cluster/human_receiver\.mean_rank", LOWER, False,
                 "cluster sender: mean rank of the people's clue (lower is better)"),
        Headline(r"[^/]+/nearest/human_sender\.guess_score", HIGHER, False,
                 "nearest receiver on people's clues: Algorithm 7 guess score"),
    ),
    "wales": (
        Headline(r"wales/score", HIGHER, True,
                 "mean task score on the human-played pairs (gamma = 1, lengths in edges)"),
        Headline(r"wales/score_nodes", HIGHER, False, "the same in the authors' node convention"),
        Headline(r"wales/(?!human/)[^/]+/score", HIGHER, False, "score per task distribution"),
        Headline(r"wales/w-path", HIGHER, False, "w-path: Spearman of -path length and cosine"),
    ),
    "oddmanout": (
        Headline(r"crowdsourced-filtered/pct_correct", HIGHER, True, "% puzzles solved"),
        Headline(r"(?!wordnet/)[^/]+/pct_correct", HIGHER, True, "% puzzles solved"),
        Headline(r"(?!wordnet/)[^/]+/pct_wrong", LOWER, False, "% puzzles answered wrongly"),
    ),
    "similarity": (
        Headline(r"simlex999/spearman", HIGHER, True, "Spearman rho with SimLex-999"),
        Headline(r"men/spearman", HIGHER, True, "Spearman rho with MEN"),
        Headline(r"[^/]+/spearman", HIGHER, True, "Spearman rho with human similarity ratings"),
    ),
    "global-metrics": (
        Headline(r"erank", None, True, "effective rank of the embedding matrix (descriptive)"),
        Headline(r"perank_p[0-9.]+", None, False, "perank (descriptive)"),
        Headline(r"edim_p[0-9.]+", None, False, "edim (descriptive)"),
    ),
}

_LOWER_WORDS = re.compile(r"(mean_rank|median_rank|(^|[/._])rank_|turns|failure_rate|pct_wrong|"
                          r"(^|[/._])loss|error|distance)")
_HIGHER_WORDS = re.compile(r"(spearman|pearson|(^|[/._])map$|mrr|hits@|accuracy|pct_correct|score|"
                           r"coverage|topsim|cbm|precision|recall|(^|[/._])f1)")
_COUNT_WORDS = re.compile(r"((^|[/._])n($|_)|oov|no_vector|ci_low|ci_high|ci_half_width|n_rows|"
                          r"(^|[/._])rank$|seed|skipped)")


def guess_direction(metric: str) -> str | None:
    """Direction guessed from a metric's name, for measures without a :data:`HEADLINES` entry.

    >>> guess_direction("game/accuracy"), guess_direction("x.mean_rank"), guess_direction("erank")
    ('higher', 'lower', None)
    """
    last = re.split(r"[/.]", metric)[-1]
    if _LOWER_WORDS.search(last):
        return LOWER
    if _HIGHER_WORDS.search(last):
        return HIGHER
    return None


def is_count(metric: str) -> bool:
    """Counts, interval bounds and OOV tallies: shown beside scores, never as scores."""
    return _COUNT_WORDS.search(re.split(r"[/.]", metric)[-1]) is not None


def _split(metric: str) -> tuple[str, str, str]:
    """``"a/b.c"`` -> (``"a/b"``, ``"."``, ``"c"``): parent, separator, last component."""
    i = max(metric.rfind("/"), metric.rfind("."))
    if i < 0:
        return "", "", metric
    return metric[:i], metric[i], metric[i + 1:]


def _num(v) -> float:
    if isinstance(v, bool) or v is None:
        return math.nan
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


#: Metrics whose OOV counts are not their siblings: (measure, metric) -> {label: where}, where
#: is ``"oov:<key>"`` (a number in the result's ``oov`` record) or a metric name.
OOV_OVERRIDES: dict[tuple[str, str], dict[str, str]] = {
    # w-path compares graph distance with cosine over node pairs: pages without a vector matter,
    # the score's excluded tasks do not
    ("wales", "wales/w-path"): {"n_nodes_without_vector": "oov:n_nodes_without_vector"},
}


def oov_companions(metrics: dict, metric: str, *, measure: str | None = None,
                   oov: dict | None = None, index: dict | None = None) -> dict[str, float]:
    """The OOV counts reported beside ``metric`` (its OOV-named siblings, unless
    :data:`OOV_OVERRIDES` says otherwise), by name.

    >>> oov_companions({"men/spearman": .7, "men/oov_pairs": 3.0, "men/n_pairs": 3000.}, "men/spearman")
    {'oov_pairs': 3.0}
    """
    override = OOV_OVERRIDES.get((measure, metric)) if measure else None
    if override is not None:
        found = {}
        for label, where in override.items():
            v = (oov or {}).get(where[4:]) if where.startswith("oov:") else metrics.get(where)
            if v is not None:
                found[label] = _num(v)
        return found
    parent, sep, _ = _split(metric)
    siblings = (index if index is not None else oov_index(metrics)).get((parent, sep), {})
    return {name: v for name, (k, v) in siblings.items() if k != metric}


def oov_index(metrics: dict) -> dict[tuple[str, str], dict[str, tuple[str, float]]]:
    """The OOV-named metrics grouped by parent: build once per result, pass to
    :func:`oov_companions` as ``index`` (a result can hold hundreds of metrics)."""
    out: dict[tuple[str, str], dict[str, tuple[str, float]]] = {}
    for k, v in metrics.items():
        p, s, name = _split(k)
        if "oov" in name or "no_vector" in name:
            out.setdefault((p, s), {})[name] = (k, _num(v))
    return out


def table_intervals(entry: Entry) -> dict[str, tuple[float, float]]:
    """Confidence intervals found in a result's tables (rule 2 of the module docstring)."""
    out: dict[str, tuple[float, float]] = {}
    tables = entry.result.get("tables") or {}
    for rows in tables.values():
        for row in rows or ():
            if isinstance(row, dict) and "metric" in row and "ci_low" in row and "ci_high" in row:
                out[str(row["metric"])] = (_num(row["ci_low"]), _num(row["ci_high"]))
    if entry.measure == "codenames":
        for row in tables.get("senders") or ():
            if row.get("clue_source", "all") == "all":
                out[f"{row['dataset']}/{row['agent']}/{row['data']}.mean_rank"] = (
                    _num(row.get("ci_low")), _num(row.get("ci_high")))
        for row in tables.get("receivers") or ():
            if row.get("clue_source", "all") == "all":
                out[f"{row['dataset']}/{row['agent']}/{row['data']}.{row['measure']}"] = (
                    _num(row.get("ci_low")), _num(row.get("ci_high")))
    return out


def interval(entry: Entry, metric: str, from_tables: dict | None = None) -> tuple[float, float]:
    """95 % interval of ``metric`` in ``entry`` by the rules of the module docstring (NaN, NaN
    when the measure gives none)."""
    m = entry.result.get("metrics") or {}
    for sep in ("/", "."):
        lo, hi = m.get(f"{metric}{sep}ci_low"), m.get(f"{metric}{sep}ci_high")
        if lo is not None and hi is not None:
            return _num(lo), _num(hi)
    tabs = table_intervals(entry) if from_tables is None else from_tables
    if metric in tabs:
        return tabs[metric]
    parent, sep, last = _split(metric)
    if last == "score":
        half = m.get(f"{parent}{sep}ci_half_width" if parent else "ci_half_width")
        v = _num(m.get(metric))
        if half is not None and math.isfinite(_num(half)):
            return v - _num(half), v + _num(half)
    return math.nan, math.nan


def metric_direction(measure: str, metric: str) -> str | None:
    """'higher', 'lower' or None (descriptive) for one metric of one measure."""
    for h in HEADLINES.get(measure, ()):
        if h.matches(metric):
            return h.direction
    return guess_direction(metric)


def headline_metrics(coll: Collection, measure: str) -> list[str]:
    """The leaderboard's metrics of ``measure``: the :data:`HEADLINES` matches present in any
    selected result (in registry order, then name), else every numeric non-count metric."""
    present: list[str] = []
    for e in coll.selected:
        if e.measure == measure:
            for k, v in (e.result.get("metrics") or {}).items():
                if k not in present and (v is None or math.isfinite(_num(v))):
                    present.append(k)
    heads = HEADLINES.get(measure)
    if not heads:
        return sorted(k for k in present if not is_count(k))
    out: list[str] = []
    for h in heads:
        for k in sorted(present):
            if h.matches(k) and k not in out:
                out.append(k)
    return out


def primary_metric(coll: Collection, measure: str) -> str | None:
    """The measure's single number for the correlation table (see :class:`Headline`)."""
    counts: dict[str, int] = {}
    for e in coll.selected:
        if e.measure == measure:
            for k, v in (e.result.get("metrics") or {}).items():
                if math.isfinite(_num(v)):
                    counts[k] = counts.get(k, 0) + 1
    heads = HEADLINES.get(measure)
    if heads:
        candidates = [k for h in heads if h.primary for k in sorted(counts) if h.matches(k)]
    else:
        candidates = [k for k in sorted(counts) if not is_count(k) and guess_direction(k)]
    if not candidates:
        return None
    best = max(counts[k] for k in candidates)
    return next(k for k in candidates if counts[k] == best)


def long_table(coll: Collection, *, all_variants: bool = True):
    """Every metric of every stored result as a long DataFrame.

    Columns: embedding, embedding_sha256, measure, variant (``version-params``), selected (used
    by the leaderboard), metric, value, ci_low, ci_high, oov (``{name: count}`` of the OOV
    siblings), direction, headline.
    """
    import pandas as pd

    rows = []
    for e in coll.entries if all_variants else coll.selected:
        metrics = e.result.get("metrics") or {}
        heads = set(headline_metrics(coll, e.measure)) if e.selected else set()
        tabs, idx = table_intervals(e), oov_index(metrics)
        for k, v in metrics.items():
            lo, hi = interval(e, k, tabs)
            rows.append({"embedding": e.label, "embedding_sha256": e.sha256, "measure": e.measure,
                         "variant": e.variant, "selected": e.selected, "metric": k,
                         "value": _num(v), "ci_low": lo, "ci_high": hi,
                         "oov": oov_companions(metrics, k, measure=e.measure,
                                               oov=e.result.get("oov"), index=idx),
                         "direction": metric_direction(e.measure, k), "headline": k in heads})
    cols = ["embedding", "embedding_sha256", "measure", "variant", "selected", "metric", "value",
            "ci_low", "ci_high", "oov", "direction", "headline"]
    return pd.DataFrame(rows, columns=cols)


def rank_values(values, direction: str | None):
    """Competition ranks (1 = best; ties share the best rank; NaN stays unranked).

    >>> rank_values([0.2, 0.9, 0.9, float("nan")], "higher").tolist()
    [3.0, 1.0, 1.0, nan]
    >>> rank_values([3.0, 1.0], "lower").tolist()
    [2.0, 1.0]
    """
    import numpy as np
    from scipy.stats import rankdata

    x = np.asarray(values, dtype=float)
    out = np.full(x.shape, np.nan)
    ok = np.isfinite(x)
    if direction not in (HIGHER, LOWER) or not ok.any():
        return out
    key = -x[ok] if direction == HIGHER else x[ok]
    out[ok] = rankdata(key, method="min")
    return out


@dataclass
class Leaderboard:
    """Embeddings (rows) x headline metrics (columns ``(measure, metric)``).

    ``values``, ``ci_low``, ``ci_high``, ``ranks`` are DataFrames of that shape; ``oov`` holds
    the OOV siblings of each cell (dicts); ``directions`` maps each column to its direction.
    """

    values: object
    ci_low: object
    ci_high: object
    ranks: object
    oov: object
    directions: dict = field(default_factory=dict)

    @property
    def columns(self) -> list[tuple[str, str]]:
        return list(self.values.columns)

    def to_frame(self):
        """One row per (embedding, measure, metric): value, ci_low, ci_high, rank, oov, direction."""
        import pandas as pd

        rows = []
        for emb in self.values.index:
            for col in self.values.columns:
                rows.append({"embedding": emb, "measure": col[0], "metric": col[1],
                             "value": self.values.at[emb, col], "ci_low": self.ci_low.at[emb, col],
                             "ci_high": self.ci_high.at[emb, col], "rank": self.ranks.at[emb, col],
                             "oov": self.oov.at[emb, col], "direction": self.directions[col]})
        return pd.DataFrame(rows)

    def mean_rank(self):
        """Each embedding's mean rank over the ranked columns (lower is better)."""
        return self.ranks.mean(axis=1, skipna=True)


def leaderboard(coll: Collection, measures: list[str] | None = None) -> Leaderboard:
    """The wide leaderboard of the selected results (see :func:`headline_metrics`)."""
    import numpy as np
    import pandas as pd

    labels = coll.labels()
    cols, dirs = [], {}
    for m in measures or coll.measures():
        for k in headline_metrics(coll, m):
            cols.append((m, k))
            dirs[(m, k)] = metric_direction(m, k)
    index = pd.MultiIndex.from_tuples(cols, names=["measure", "metric"]) if cols else None
    shape = (len(labels), len(cols))
    vals, lo, hi = (np.full(shape, np.nan) for _ in range(3))
    oov = np.empty(shape, dtype=object)
    oov[...] = None
    for i, lab in enumerate(labels):
        for m in {c[0] for c in cols}:
            e = coll.entry(lab, m)
            if e is None:
                continue
            metrics = e.result.get("metrics") or {}
            tabs, idx = table_intervals(e), oov_index(metrics)
            for j, (cm, k) in enumerate(cols):
                if cm != m or k not in metrics:
                    continue
                vals[i, j] = _num(metrics[k])
                lo[i, j], hi[i, j] = interval(e, k, tabs)
                oov[i, j] = oov_companions(metrics, k, measure=m, oov=e.result.get("oov"),
                                           index=idx)
    ranks = np.column_stack([rank_values(vals[:, j], dirs[c]) for j, c in enumerate(cols)]) \
        if cols else np.empty(shape)

    def frame(a):
        return pd.DataFrame(a, index=pd.Index(labels, name="embedding"), columns=index)

    return Leaderboard(frame(vals), frame(lo), frame(hi), frame(ranks), frame(oov), dirs)


@dataclass
class Correlation:
    """Spearman correlations between the measures' primary metrics across embeddings.

    ``pairs`` is a long DataFrame (measure_a, metric_a, measure_b, metric_b, rho, p_value, n,
    note); ``matrix`` the square table of rho (NaN where refused); ``n`` the matching counts;
    ``primary`` maps each measure to the metric used and ``oriented`` whether it was negated.
    """

    pairs: object
    matrix: object
    n: object
    primary: dict
    oriented: dict
    notes: list[str] = field(default_factory=list)


def correlation_table(coll: Collection, min_embeddings: int = MIN_EMBEDDINGS) -> Correlation:
    """Do the measures rank embeddings alike? (see the module docstring)."""
    import numpy as np
    import pandas as pd
    from scipy.stats import spearmanr

    labels = coll.labels()
    primary, negated, series = {}, {}, {}
    for m in coll.measures():
        k = primary_metric(coll, m)
        if k is None:
            continue
        d = metric_direction(m, k)
        sign = -1.0 if d == LOWER else 1.0
        vals = []
        for lab in labels:
            e = coll.entry(lab, m)
            vals.append(sign * _num((e.result.get("metrics") or {}).get(k)) if e else math.nan)
        primary[m], negated[m], series[m] = k, d == LOWER, np.asarray(vals, float)
    ms = list(primary)
    rho = pd.DataFrame(np.nan, index=ms, columns=ms)
    nmat = pd.DataFrame(0, index=ms, columns=ms, dtype=int)
    rows, notes = [], []
    if len(labels) < min_embeddings:
        notes.append(f"only {len(labels)} embedding(s): a rank correlation needs at least "
                     f"{min_embeddings}, so every cell is left empty (NaN)")
    for a_i, a in enumerate(ms):
        for b in ms[a_i:]:
            x, y = series[a], series[b]
            ok = np.isfinite(x) & np.isfinite(y)
            n = int(ok.sum())
            r, p, note = math.nan, math.nan, ""
            if n < min_embeddings:
                note = f"n={n} < {min_embeddings} embeddings with both results: not computed"
            elif np.ptp(x[ok]) == 0 or np.ptp(y[ok]) == 0:
                note = "a measure gives every embedding the same value: undefined"
            else:
                res = spearmanr(x[ok], y[ok])
                r, p = float(res.statistic), float(res.pvalue)
            rho.loc[a, b] = rho.loc[b, a] = r
            nmat.loc[a, b] = nmat.loc[b, a] = n
            if a != b:
                rows.append({"measure_a": a, "metric_a": primary[a], "measure_b": b,
                             "metric_b": primary[b], "rho": r, "p_value": p, "n": n, "note": note})
    for m in ms:
        if negated[m]:
            notes.append(f"{m}: {primary[m]} is lower-better and was negated, so a positive rho "
                         "means the two measures rank embeddings alike")
        elif metric_direction(m, primary[m]) is None:
            notes.append(f"{m}: {primary[m]} has no better direction; rho shows how it goes "
                         "with the other measures")
    pairs = pd.DataFrame(rows, columns=["measure_a", "metric_a", "measure_b", "metric_b", "rho",
                                        "p_value", "n", "note"])
    return Correlation(pairs, rho, nmat, primary, negated, notes)
