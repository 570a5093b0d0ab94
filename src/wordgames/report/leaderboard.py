"""Leaderboard across embeddings and measures, and the cross-measure correlation table.

Everything is read from the results' :class:`~wordgames.measure.Score` rows and the measures'
declarations (:func:`wordgames.registry.get_measure`); no metric name is taken apart.

**Columns**: a leaderboard column is one score, ``(measure, dataset, agent, metric)``. A
measure's columns are its scores that match one of its declared headlines
(:class:`~wordgames.measure.Headline`), grouped by the first headline they match, in the
declaration's order. A measure that declares no headline (or whose scores match none, e.g. a
plug-in) shows its scores that have a direction, else all of them.

**Directions and bounds** come from the measure's :class:`~wordgames.measure.Metric`; a metric
it does not declare keeps the direction stored in its Score row. Descriptive metrics
(direction ``None``, e.g. erank) are shown but not ranked.

**Intervals and skipped items** are each Score row's ``ci_low``/``ci_high`` (NaN: none given,
none invented) and ``n``/``n_skipped``/``skip_reason``. An interval reaching outside its
metric's declared bounds (written by an older wordgames, which used t-intervals) is clipped to
them and flagged (``ci_clipped``); every interval shown lies inside the bounds.

**Thin scores** (:attr:`~wordgames.measure.Score.thin`: too little coverage or too few items,
see :func:`wordgames.measure.is_thin`) are shown with their reason but never ranked, never
highlighted and never used in the correlation. They stay in their column: a measure's
headline column is chosen from the declaration and the rows present, never from thinness.

**Cross-measure correlation**: each measure's first *primary* headline score present for the
most embeddings, oriented so that larger is better (lower-better ones are negated), is
compared between measures by Spearman's rank correlation across the embeddings that have a
non-thin value of both; with fewer than :data:`MIN_EMBEDDINGS` embeddings it is NaN with a
note, never a number from too little data.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from wordgames.measure import HIGHER, LOWER, Measure, Score
from wordgames.report.collect import Collection, measure_spec
from wordgames.report.text import finite, score_skipped_text, skipped_text

MIN_EMBEDDINGS = 3
COLUMN_LEVELS = ("measure", "dataset", "agent", "metric")

#: (dataset, agent, metric): one score of a measure (a measure of pairs: the partner as agent).
ScoreKey = tuple[str, str, str]


def score_key(score: Score) -> ScoreKey:
    """The ``(dataset, agent, metric)`` key of a score's column within its measure.

    Agents the measure shows in one column (``Measure.shared_columns``: an embedding's own
    agent and a player's in the same role) share the group's label; a measure of pairs has a
    column per partner (:func:`~wordgames.report.collect.column_of`).
    """
    from wordgames.report.collect import column_of

    return (score.dataset, column_of(score), score.metric)


def score_label(key: Iterable[str]) -> str:
    """How a score is named in tables: its non-empty parts joined by ``/``.

    >>> score_label(("men", "", "spearman")), score_label(("", "", "erank"))
    ('men/spearman', 'erank')
    """
    return "/".join(p for p in key if p)


@dataclass
class MeasureScores:
    """The scores one measure has on the leaderboard's results, with their declarations.

    Parameters
    ----------
    measure : str
    spec : Measure or None
        The registry's declaration (``None`` for a measure it does not know).
    scores : list of Score
        The Score rows of the selected results of this measure.
    """

    measure: str
    spec: Measure | None
    scores: list[Score]
    _stored: dict | None = field(default=None, repr=False)  # stored directions, built once

    @classmethod
    def of(cls, coll: Collection, measure: str) -> MeasureScores:
        return cls(
            measure,
            measure_spec(measure),
            [s for e in coll.selected if e.measure == measure for s in e.scores],
        )

    def keys(self) -> list[ScoreKey]:
        return sorted({score_key(s) for s in self.scores})

    def direction(self, key: ScoreKey) -> str | None:
        """The declared direction of the metric, else the one stored in its rows."""
        if self.spec is not None and self.spec.metric(key[2]) is not None:
            return self.spec.direction(key[2])
        if self._stored is None:
            self._stored = {}
            for s in self.scores:
                if s.direction:
                    self._stored.setdefault(score_key(s), s.direction)
        return self._stored.get(key)

    def row_direction(self, score: Score) -> str | None:
        """The declared direction of a row's metric, else the one stored in the row."""
        if self.spec is not None and self.spec.metric(score.metric) is not None:
            return self.spec.direction(score.metric)
        return score.direction

    def bounds(self, key: ScoreKey) -> tuple[float | None, float | None]:
        return self.spec.bounds(key[2]) if self.spec is not None else (None, None)

    def headline_index(self) -> dict[ScoreKey, int]:
        """Each score that matches a declared headline -> the index of the first it matches."""
        heads = self.spec.headlines if self.spec is not None else ()
        out: dict[ScoreKey, int] = {}
        for s in self.scores:
            h = self.spec.headline_of(s) if heads else None
            if h is not None:  # a shared column takes its first subject's headline
                k = score_key(s)
                out[k] = min(out.get(k, heads.index(h)), heads.index(h))
        return out

    def columns(self) -> list[ScoreKey]:
        """The leaderboard's scores of this measure (see the module docstring)."""
        index = self.headline_index()
        if index:
            return sorted(index, key=lambda k: (index[k], k))
        keys = self.keys()
        return [k for k in keys if self.direction(k) is not None] or keys

    def counts(self) -> dict[ScoreKey, int]:
        """Embeddings with a finite value, per score."""
        out: dict[ScoreKey, int] = {}
        for s in self.scores:
            if finite(s.value):
                out[score_key(s)] = out.get(score_key(s), 0) + 1
        return out

    def present(self) -> dict[ScoreKey, int]:
        """Embeddings with a row, per score (a thin or undefined value counts: it is present)."""
        out: dict[ScoreKey, set[str]] = {}
        for s in self.scores:
            out.setdefault(score_key(s), set()).add(s.subject)
        return {k: len(v) for k, v in out.items()}

    def primary(self) -> ScoreKey | None:
        """The first primary headline score present for the most embeddings.

        Without headlines: the first column with a direction. A thin or undefined value does
        not move the choice to another data set: only the rows present count.
        """
        index, counts = self.headline_index(), self.present()
        if index:
            heads = self.spec.headlines
            candidates = [k for k in self.columns() if heads[index[k]].primary]
        else:
            candidates = [k for k in self.columns() if self.direction(k) is not None]
        candidates = [k for k in candidates if counts.get(k, 0) > 0]
        if not candidates:
            return None
        best = max(counts[k] for k in candidates)
        return next(k for k in candidates if counts[k] == best)


def headline_keys(coll: Collection, measure: str) -> list[ScoreKey]:
    """The leaderboard's scores ``(dataset, agent, metric)`` of ``measure``, in order."""
    return MeasureScores.of(coll, measure).columns()


def primary_key(coll: Collection, measure: str) -> ScoreKey | None:
    """The measure's single score for the correlation table (see the module docstring)."""
    return MeasureScores.of(coll, measure).primary()


def clip_interval(lo, hi, bounds) -> tuple[float, float, bool]:
    """An interval kept inside a metric's bounds, and whether it had to be clipped.

    >>> clip_interval(0.225, 1.203, (0.0, 1.0))
    (0.225, 1.0, True)
    >>> clip_interval(-2088.0, 4788.0, (1.0, None))
    (1.0, 4788.0, True)
    >>> clip_interval(0.2, 0.4, (0.0, 1.0)), clip_interval(float("nan"), 1.0, (0.0, 1.0))[2]
    ((0.2, 0.4, False), False)
    """
    if not (finite(lo) and finite(hi)):
        return lo, hi, False
    b_lo, b_hi = bounds if bounds else (None, None)
    new_lo, new_hi = float(lo), float(hi)
    if b_lo is not None:
        new_lo, new_hi = max(new_lo, b_lo), max(new_hi, b_lo)
    if b_hi is not None:
        new_lo, new_hi = min(new_lo, b_hi), min(new_hi, b_hi)
    return new_lo, new_hi, (new_lo, new_hi) != (float(lo), float(hi))


LONG_COLUMNS = [
    "subject",
    "subject_sha256",
    "measure",
    "variant",
    "selected",
    "dataset",
    "agent",
    "partner",
    "metric",
    "value",
    "ci_low",
    "ci_high",
    "ci_clipped",
    "n",
    "n_skipped",
    "n_oov",
    "n_unread",
    "skip_reason",
    "skipped",
    "coverage",
    "thin",
    "thin_reason",
    "direction",
    "headline",
]


def long_table(coll: Collection, *, all_variants: bool = True):
    """Every Score row of every stored result as a long DataFrame.

    Parameters
    ----------
    coll : Collection
    all_variants : bool
        Also the results the leaderboard does not use (other versions or parameters).

    Returns
    -------
    pandas.DataFrame
        Columns (:data:`LONG_COLUMNS`): subject, subject_sha256, measure, variant
        (``version-params``), selected (used by the leaderboard), dataset, agent, partner, metric,
        value, ci_low, ci_high (inside the metric's bounds), ci_clipped (the stored interval
        reached outside them), n, n_skipped, skip_reason, skipped (in words), coverage, thin,
        thin_reason, direction, headline (a leaderboard column).
    """
    import pandas as pd

    views = {m: MeasureScores.of(coll, m) for m in coll.measures()}
    heads = {m: set(v.columns()) for m, v in views.items()}
    rows = []
    for e in coll.entries if all_variants else coll.selected:
        view = views[e.measure]
        for s in e.scores:
            k = score_key(s)
            lo, hi, clipped = clip_interval(s.ci_low, s.ci_high, view.bounds(k))
            rows.append(
                {
                    "subject": e.label,
                    "subject_sha256": e.sha256,
                    "measure": e.measure,
                    "variant": e.variant,
                    "selected": e.selected,
                    "dataset": s.dataset,
                    "agent": s.agent,
                    "partner": s.partner,
                    "metric": s.metric,
                    "value": s.value,
                    "ci_low": lo,
                    "ci_high": hi,
                    "ci_clipped": clipped,
                    "n": s.n,
                    "n_skipped": s.n_skipped,
                    "n_oov": s.n_oov,
                    "n_unread": s.n_unread,
                    "skip_reason": s.skip_reason,
                    "skipped": score_skipped_text(s),
                    "coverage": s.coverage,
                    "thin": s.thin,
                    "thin_reason": s.thin_reason,
                    "direction": view.row_direction(s),
                    "headline": e.selected and k in heads[e.measure],
                }
            )
    return pd.DataFrame(rows, columns=LONG_COLUMNS)


def rank_values(values, direction: str | None, exclude=None):
    """Competition ranks (1 = best; ties share the best rank; NaN stays unranked).

    ``exclude`` (a boolean mask, e.g. the thin cells) leaves values out of the ranking.

    >>> rank_values([0.2, 0.9, 0.9, float("nan")], "higher").tolist()
    [3.0, 1.0, 1.0, nan]
    >>> rank_values([3.0, 1.0], "lower").tolist()
    [2.0, 1.0]
    >>> rank_values([0.2, 0.9, 0.5], "higher", exclude=[False, True, False]).tolist()
    [2.0, nan, 1.0]
    """
    import numpy as np
    from scipy.stats import rankdata

    x = np.asarray(values, dtype=float)
    out = np.full(x.shape, np.nan)
    ok = np.isfinite(x)
    if exclude is not None:
        ok &= ~np.asarray(exclude, dtype=bool)
    if direction not in (HIGHER, LOWER) or not ok.any():
        return out
    key = -x[ok] if direction == HIGHER else x[ok]
    out[ok] = rankdata(key, method="min")
    return out


#: the Leaderboard's per-cell frames, in the order of its fields
CELL_FRAMES = (
    "values",
    "ci_low",
    "ci_high",
    "ranks",
    "n",
    "n_skipped",
    "skip_reason",
    "thin",
    "thin_reason",
    "coverage",
    "ci_clipped",
    "n_oov",
    "n_unread",
    "top",
    "best_cell",
)


@dataclass
class Leaderboard:
    """Subjects (rows) x headline scores (columns ``(measure, dataset, agent, metric)``).

    ``values``, ``ci_low``, ``ci_high`` (inside the metric's bounds), ``ranks`` (NaN for thin,
    missing and descriptive cells), ``n``, ``n_skipped``, ``skip_reason``, ``thin``,
    ``thin_reason``, ``coverage`` and ``ci_clipped`` are DataFrames of that shape (from each
    cell's Score row); ``directions`` and ``bounds`` map each column to its metric's declared
    direction and bounds.
    """

    values: object
    ci_low: object
    ci_high: object
    ranks: object
    n: object
    n_skipped: object
    skip_reason: object
    thin: object = None
    thin_reason: object = None
    coverage: object = None
    ci_clipped: object = None
    n_oov: object = None
    n_unread: object = None
    top: object = None
    best_cell: object = None
    directions: dict = field(default_factory=dict)
    bounds: dict = field(default_factory=dict)
    comparisons: dict = field(default_factory=dict)

    @property
    def columns(self) -> list[tuple[str, str, str, str]]:
        return list(self.values.columns)

    def n_ranked(self):
        """Per column: how many embeddings are ranked (non-thin finite values of a direction)."""
        return self.ranks.notna().sum(axis=0)

    def best(self):
        """The cells marked best: a paired comparison separates them from every other.

        Rank 1 alone is not enough: the leader is best only when the seeded paired bootstrap
        of its difference with each other ranked embedding, on the items both scored,
        excludes zero (:func:`wordgames.paired.top_group`). Otherwise :attr:`top` holds the
        tied group and nothing is marked best.
        """
        return self.best_cell

    def tied_top(self):
        """The cells of a top group of two or more that no paired comparison separates."""
        return self.top & ~self.best_cell

    def to_frame(self):
        """One row per (subject, column): value, interval, rank, n, skipped (in words), thin."""
        import pandas as pd

        arrays = {k: getattr(self, k).to_numpy() for k in CELL_FRAMES}
        rows = []
        for i, emb in enumerate(self.values.index):
            for j, col in enumerate(self.values.columns):
                a = {k: v[i, j] for k, v in arrays.items()}
                rows.append(
                    {
                        "subject": emb,
                        **dict(zip(COLUMN_LEVELS, col, strict=True)),
                        "value": a["values"],
                        "ci_low": a["ci_low"],
                        "ci_high": a["ci_high"],
                        "ci_clipped": bool(a["ci_clipped"]),
                        "rank": a["ranks"],
                        "n": a["n"],
                        "n_skipped": a["n_skipped"],
                        "n_oov": a["n_oov"],
                        "n_unread": a["n_unread"],
                        "skipped": skipped_text(
                            a["n_skipped"], a["n"], a["skip_reason"], a["n_oov"], a["n_unread"]
                        ),
                        "coverage": a["coverage"],
                        "thin": bool(a["thin"]),
                        "thin_reason": a["thin_reason"],
                        "direction": self.directions[col],
                        "best": bool(a["best_cell"]),
                        "tied_best": bool(a["top"] and not a["best_cell"]),
                    }
                )
        cols = [
            "subject",
            *COLUMN_LEVELS,
            "value",
            "ci_low",
            "ci_high",
            "ci_clipped",
            "rank",
            "n",
            "n_skipped",
            "n_oov",
            "n_unread",
            "skipped",
            "coverage",
            "thin",
            "thin_reason",
            "direction",
            "best",
            "tied_best",
        ]
        df = pd.DataFrame(rows, columns=cols)
        # counts, missing where no row
        return df.astype(
            {"n": "Int64", "n_skipped": "Int64", "n_oov": "Int64", "n_unread": "Int64"}
        )

    def mean_rank(self):
        """Each embedding's mean rank over the ranked columns (lower is better)."""
        return self.ranks.mean(axis=1, skipna=True)


def _fill(coll: Collection, labels: list[str], cols: list[tuple]) -> dict:
    """The cells' arrays (value, interval, counts, skip reason, thinness) from Score rows."""
    import numpy as np

    shape = (len(labels), len(cols))
    cells = {
        k: np.full(shape, np.nan)
        for k in ("values", "ci_low", "ci_high", "n", "n_skipped", "n_oov", "n_unread", "coverage")
    }
    cells["skip_reason"] = np.full(shape, "", dtype=object)
    cells["thin_reason"] = np.full(shape, "", dtype=object)
    cells["thin"] = np.zeros(shape, dtype=bool)
    where = {c: j for j, c in enumerate(cols)}
    filled = np.zeros(shape, dtype=bool)
    for i, lab in enumerate(labels):
        for m in dict.fromkeys(c[0] for c in cols):
            for s in (s for e in coll.entries_of(lab, m) for s in e.scores):
                j = where.get((m, *score_key(s)))
                if j is None or filled[i, j]:
                    continue  # not a column, or a second row with the same key
                filled[i, j] = True
                cells["values"][i, j], cells["ci_low"][i, j] = s.value, s.ci_low
                cells["ci_high"][i, j], cells["n_skipped"][i, j] = s.ci_high, s.n_skipped
                cells["n"][i, j] = math.nan if s.n is None else s.n
                cells["n_oov"][i, j] = s.n_oov
                cells["n_unread"][i, j] = s.n_unread
                cells["skip_reason"][i, j] = s.skip_reason
                cells["coverage"][i, j] = s.coverage
                cells["thin"][i, j], cells["thin_reason"][i, j] = s.thin, s.thin_reason
    return cells


def _clip_columns(cells: dict, cols: list[tuple], bounds: dict):
    """Clip every column's intervals to its bounds in place; the mask of clipped cells."""
    import numpy as np

    clipped = np.zeros(cells["values"].shape, dtype=bool)
    for j, c in enumerate(cols):
        b_lo, b_hi = bounds[c] if bounds[c] else (None, None)
        lo, hi = cells["ci_low"][:, j].copy(), cells["ci_high"][:, j].copy()
        ok = np.isfinite(lo) & np.isfinite(hi)
        new_lo, new_hi = lo.copy(), hi.copy()
        if b_lo is not None:
            new_lo[ok], new_hi[ok] = np.maximum(lo[ok], b_lo), np.maximum(hi[ok], b_lo)
        if b_hi is not None:
            new_lo[ok], new_hi[ok] = np.minimum(new_lo[ok], b_hi), np.minimum(new_hi[ok], b_hi)
        clipped[:, j] = ok & ((new_lo != lo) | (new_hi != hi))
        cells["ci_low"][:, j], cells["ci_high"][:, j] = new_lo, new_hi
    return clipped


def leaderboard(coll: Collection, measures: list[str] | None = None) -> Leaderboard:
    """The wide leaderboard of the selected results.

    Thin cells are kept with their reason but not ranked; intervals are clipped to the
    metric's bounds (see the module docstring).

    Parameters
    ----------
    coll : Collection
        From :func:`~wordgames.report.collect.load_results`.
    measures : list of str, optional
        Only these measures (default: every measure in the folder).

    Returns
    -------
    Leaderboard

    Examples
    --------
    >>> from wordgames.report import load_results, leaderboard  # doctest: +SKIP
    >>> leaderboard(load_results("out")).ranks[("similarity", "men", "", "spearman")]  # doctest: +SKIP
    """
    import numpy as np
    import pandas as pd

    labels = coll.labels()
    cols, dirs, bounds = [], {}, {}
    for m in measures or coll.measures():
        view = MeasureScores.of(coll, m)
        for k in view.columns():
            cols.append((m, *k))
            dirs[(m, *k)], bounds[(m, *k)] = view.direction(k), view.bounds(k)
    cells = _fill(coll, labels, cols)
    cells["ci_clipped"] = _clip_columns(cells, cols, bounds)
    if not cols:
        cells["top"] = cells["best_cell"] = np.zeros((len(labels), 0), dtype=bool)
    shape = (len(labels), len(cols))
    cells["ranks"] = (
        np.column_stack(
            [
                rank_values(cells["values"][:, j], dirs[c], exclude=cells["thin"][:, j])
                for j, c in enumerate(cols)
            ]
        )
        if cols
        else np.empty(shape)
    )
    comparisons = {}
    if cols:
        cells["top"], cells["best_cell"], comparisons = _top_groups(coll, labels, cols, cells, dirs)
    index = pd.MultiIndex.from_tuples(cols, names=COLUMN_LEVELS) if cols else None

    def frame(a):
        return pd.DataFrame(a, index=pd.Index(labels, name="subject"), columns=index)

    return Leaderboard(
        **{k: frame(cells[k]) for k in CELL_FRAMES},
        directions=dirs,
        bounds=bounds,
        comparisons=comparisons,
    )


#: resamples of the paired comparisons behind "best"
PAIRED_RESAMPLES = 1000


def _top_groups(coll: Collection, labels: list[str], cols: list[tuple], cells: dict, dirs: dict):
    """Per column: the tied top group and the separated best (see :meth:`Leaderboard.best`)."""
    import numpy as np

    from wordgames.paired import top_group
    from wordgames.results import score_item_key

    seed = int(((coll.run or {}).get("parameters") or {}).get("seed") or 0)
    top = np.zeros((len(labels), len(cols)), dtype=bool)
    best = np.zeros_like(top)
    comparisons = {}
    where = {lab: i for i, lab in enumerate(labels)}
    for j, col in enumerate(cols):
        ranks = cells["ranks"][:, j]
        ranked = [i for i in np.argsort(ranks, kind="stable") if np.isfinite(ranks[i])]
        if len(ranked) < 2:
            continue
        records = {}
        for i in ranked:
            e = coll.entry(labels[i], col[0], col[1:])
            s = e.value(*col[1:]) if e else None  # its own row: a shared column's agent
            key = score_item_key(s) if s else None
            records[labels[i]] = ((e.result.get("items") or {}).get(key)) if e else None
        leader, others = labels[ranked[0]], [labels[i] for i in ranked[1:]]
        memo = (col, leader, tuple(others), seed)
        if memo not in coll.paired:
            coll.paired[memo] = top_group(
                leader,
                others,
                records,
                higher_is_better=dirs[col] == HIGHER,
                n_resamples=PAIRED_RESAMPLES,
                seed=seed,
            )
        group, vs = coll.paired[memo]
        for lab in group:
            top[where[lab], j] = True
        if len(group) == 1:
            best[where[leader], j] = True
        comparisons[col] = {"leader": leader, "group": group, "vs": vs}
    return top, best, comparisons


@dataclass
class Correlation:
    """Spearman correlations between the measures' primary scores across embeddings.

    ``pairs`` is a long DataFrame (measure_a, metric_a, measure_b, metric_b, rho, p_value, n,
    note; ``metric_*`` are score labels such as ``men/spearman``); ``matrix`` the square table
    of rho (NaN where refused); ``n`` the matching counts; ``primary`` maps each measure to the
    ``(dataset, subject, metric)`` used and ``oriented`` whether it was negated.
    """

    pairs: object
    matrix: object
    n: object
    primary: dict
    oriented: dict
    notes: list[str] = field(default_factory=list)


def _primary_series(coll: Collection) -> tuple[dict, dict, dict, dict]:
    """Per measure: the primary score, whether negated, its direction and its oriented values.

    Thin values are left out (NaN): they are not used to compare measures.
    """
    import numpy as np

    labels = coll.labels()
    primary, negated, direction, series = {}, {}, {}, {}
    for m in coll.measures():
        view = MeasureScores.of(coll, m)
        k = view.primary()
        if k is None:
            continue
        d = view.direction(k)
        sign = -1.0 if d == LOWER else 1.0
        vals = []
        for lab in labels:
            e = coll.entry(lab, m, k)
            s = e.value(*k) if e is not None else None
            vals.append(sign * s.value if s is not None and not s.thin else math.nan)
        primary[m], negated[m], direction[m] = k, d == LOWER, d
        series[m] = np.asarray(vals, float)
    return primary, negated, direction, series


def _spearman(x, y, min_embeddings: int) -> tuple[float, float, int, str]:
    """rho, p-value, n and a note for two series (NaN where there is too little to say)."""
    from wordgames.stats import spearman_pairwise

    r, p, n, why = spearman_pairwise(x, y, min_embeddings)
    if why == "few":
        return r, p, n, f"n={n} < {min_embeddings} embeddings with both results: not computed"
    if why == "constant":
        return r, p, n, "a measure gives every embedding the same value: undefined"
    return r, p, n, ""


def correlation_table(coll: Collection, min_embeddings: int = MIN_EMBEDDINGS) -> Correlation:
    """Do the measures rank embeddings alike? (see the module docstring).

    Parameters
    ----------
    coll : Collection
    min_embeddings : int
        Fewer embeddings with both values give NaN and a note.

    Returns
    -------
    Correlation
    """
    import numpy as np
    import pandas as pd

    primary, negated, direction, series = _primary_series(coll)
    ms = list(primary)
    rho = pd.DataFrame(np.nan, index=ms, columns=ms)
    nmat = pd.DataFrame(0, index=ms, columns=ms, dtype=int)
    rows, notes = [], []
    n_labels = len(coll.labels())
    if n_labels < min_embeddings:
        notes.append(
            f"only {n_labels} embedding(s): a rank correlation needs at least "
            f"{min_embeddings}, so every cell is left empty (NaN)"
        )
    for a_i, a in enumerate(ms):
        for b in ms[a_i:]:
            r, p, n, note = _spearman(series[a], series[b], min_embeddings)
            rho.loc[a, b] = rho.loc[b, a] = r
            nmat.loc[a, b] = nmat.loc[b, a] = n
            if a != b:
                rows.append(
                    {
                        "measure_a": a,
                        "metric_a": score_label(primary[a]),
                        "measure_b": b,
                        "metric_b": score_label(primary[b]),
                        "rho": r,
                        "p_value": p,
                        "n": n,
                        "note": note,
                    }
                )
    for m in ms:
        if negated[m]:
            notes.append(
                f"{m}: {score_label(primary[m])} is lower-better and was negated, so a "
                "positive rho means the two measures rank embeddings alike"
            )
        elif direction[m] is None:
            notes.append(
                f"{m}: {score_label(primary[m])} has no better direction; rho shows how "
                "it goes with the other measures"
            )
    pairs = pd.DataFrame(
        rows,
        columns=["measure_a", "metric_a", "measure_b", "metric_b", "rho", "p_value", "n", "note"],
    )
    return Correlation(pairs, rho, nmat, primary, negated, notes)
