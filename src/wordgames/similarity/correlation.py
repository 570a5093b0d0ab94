"""The correlation study of WALES Figure 1: which metrics rank a set of embeddings alike.

Every embedding is scored by every metric (WALES, the global metrics, the word-similarity
benchmarks); the result is a table with one row per embedding and one column per metric. The
Spearman rank correlation *across embeddings* between the reference metric (default
``"wales/score"``) and each other metric, and the full metric-by-metric matrix, say how
similarly two metrics order the embeddings.

A correlation over fewer than 3 embeddings is meaningless (two points are always perfectly
correlated), so :func:`correlate` refuses such a table; each coefficient is reported with the
number of embeddings it was computed on (embeddings where either metric is missing are left out
of that coefficient only).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordgames.errors import WordgamesError
from wordgames.safeio import save_figure

MIN_EMBEDDINGS = 3
REFERENCE = "wales/score"
DEFAULT_MEASURES = ("wales", "global-metrics", "similarity")

# which metrics of each measure enter the table (a regular expression on the metric name)
DEFAULT_SELECT: dict[str, str] = {
    "wales": r"^wales/score$|^w-?path(/spearman)?$|^wales/w-?path(/spearman)?$",
    "global-metrics": r"^(erank|perank_p[\d.]+|edim_p[\d.]+)$",
    "similarity": r"/spearman$",
}


class InsufficientEmbeddingsError(WordgamesError, ValueError):
    """A correlation across embeddings was asked for with too few embeddings."""


@dataclass
class CorrelationResult:
    """Spearman correlations across embeddings.

    Attributes
    ----------
    table : DataFrame, embeddings x metrics (the input scores)
    with_reference : DataFrame with columns metric, spearman, ci_low, ci_high, p_value,
        n_embeddings (one row per metric other than the reference; empty when no reference was
        asked for); the interval is :func:`wordgames.stats.spearman_interval`'s
    matrix : DataFrame, metric x metric Spearman rho (pairwise complete, NaN under 3 embeddings)
    counts : DataFrame, metric x metric number of embeddings each coefficient used
    n_embeddings : rows of the table
    """

    reference: str | None
    table: object
    with_reference: object
    matrix: object
    counts: object
    n_embeddings: int
    notes: list[str] = field(default_factory=list)

    def scores(self) -> list:
        """Each metric's correlation with the reference as a typed :class:`~wordgames.measure.Score`.

        ``measure`` is ``"correlation"``, ``agent`` the reference, ``metric`` the other
        metric's label; ``n`` the embeddings that have both, ``n_skipped`` those without one.
        Descriptive (no direction): a correlation is not ranked.
        """
        from wordgames.measure import Score

        out = []
        for row in self.with_reference.to_dict(orient="records"):
            k = int(row["n_embeddings"])
            out.append(
                Score(
                    "",
                    "correlation",
                    "",
                    str(self.reference),
                    str(row["metric"]),
                    float(row["spearman"]),
                    float(row["ci_low"]),
                    float(row["ci_high"]),
                    k,
                    self.n_embeddings - k,
                    "embeddings without a score of this metric" if k < self.n_embeddings else "",
                    None,
                )
            )
        return out

    def as_dict(self) -> dict:
        return {
            "reference": self.reference,
            "scores": [s.as_dict() for s in self.scores()],
            "n_embeddings": self.n_embeddings,
            "embeddings": [str(i) for i in self.table.index],
            "with_reference": self.with_reference.to_dict(orient="records"),
            "matrix": {
                str(k): {str(c): v for c, v in row.items()}
                for k, row in self.matrix.to_dict(orient="index").items()
            },
            "counts": {
                str(k): {str(c): int(v) for c, v in row.items()}
                for k, row in self.counts.to_dict(orient="index").items()
            },
            "table": {str(k): dict(row) for k, row in self.table.to_dict(orient="index").items()},
            "notes": list(self.notes),
        }


def score_table(scores: Mapping[str, Mapping[str, float]]):
    """A pandas DataFrame (embeddings x metrics) from ``{embedding: {metric: value}}``.

    >>> score_table({"a": {"x": 1.0, "y": 2.0}, "b": {"x": 3.0}}).shape
    (2, 2)
    """
    import pandas as pd

    table = pd.DataFrame.from_dict({k: dict(v) for k, v in scores.items()}, orient="index")
    table = table.apply(pd.to_numeric, errors="coerce").astype(float)
    return table.replace([np.inf, -np.inf], np.nan)


def correlate(
    table, reference: str | None = REFERENCE, *, min_embeddings: int = MIN_EMBEDDINGS
) -> CorrelationResult:
    """Spearman rank correlations across embeddings (rows) between metrics (columns).

    Parameters
    ----------
    table : DataFrame (embeddings x metrics) or mapping ``{embedding: {metric: value}}``
    reference : the metric correlated with every other one (None: the matrix only)
    min_embeddings : refuse tables with fewer rows than this (at least 3)

    Raises
    ------
    InsufficientEmbeddingsError : fewer than ``min_embeddings`` embeddings
    WordgamesError : the reference metric is not a column of the table

    Examples
    --------
    >>> t = {"e1": {"wales/score": 0.2, "men/spearman": 0.5, "erank": 9.0},
    ...      "e2": {"wales/score": 0.4, "men/spearman": 0.6, "erank": 7.0},
    ...      "e3": {"wales/score": 0.6, "men/spearman": 0.7, "erank": 8.0}}
    >>> r = correlate(t)
    >>> r.with_reference[["metric", "spearman", "n_embeddings"]].values.tolist()
    [['men/spearman', 1.0, 3], ['erank', -0.5, 3]]
    """
    import pandas as pd

    from wordgames.stats import spearman_interval, spearman_pairwise

    if min_embeddings < 3:
        raise ValueError(
            "min_embeddings must be at least 3: fewer points carry no rank correlation"
        )
    if not isinstance(table, pd.DataFrame):
        table = score_table(table)
    n = len(table)
    if n < min_embeddings:
        raise InsufficientEmbeddingsError(
            f"a correlation across embeddings needs at least {min_embeddings} embeddings, got {n} "
            f"({', '.join(map(str, table.index)) or 'none'}); add embeddings with -e, or use the "
            "built-in family (--family)"
        )
    if reference is not None and reference not in table.columns:
        raise WordgamesError(
            f"the reference metric {reference!r} is not in the table; metrics present: "
            f"{', '.join(map(str, table.columns))}"
        )
    valid = table.notna().astype(int)
    counts = valid.T @ valid
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant columns give NaN, reported as such
        matrix = table.corr(method="spearman", min_periods=3)
    notes = []
    rows = []
    if reference is not None:
        ref = table[reference]
        for metric in table.columns:
            if metric == reference:
                continue
            rho, p, k, why = spearman_pairwise(ref.to_numpy(), table[metric].to_numpy())
            if why:
                notes.append(
                    f"{metric}: undefined (n={k} embeddings"
                    + (", constant values" if why == "constant" else "")
                    + ")"
                )
            lo, hi = spearman_interval(rho, k)
            rows.append(
                {
                    "metric": metric,
                    "spearman": rho,
                    "ci_low": lo,
                    "ci_high": hi,
                    "p_value": p,
                    "n_embeddings": k,
                }
            )
    columns = ["metric", "spearman", "ci_low", "ci_high", "p_value", "n_embeddings"]
    with_ref = pd.DataFrame(rows, columns=columns)
    if len(with_ref):
        with_ref = with_ref.sort_values(
            "spearman", ascending=False, na_position="last", kind="stable"
        ).reset_index(drop=True)
    return CorrelationResult(
        reference=reference,
        table=table,
        with_reference=with_ref,
        matrix=matrix,
        counts=counts,
        n_embeddings=n,
        notes=notes,
    )


def select_metrics(
    measure: str, metrics: Mapping[str, float], select: Mapping[str, str] | None = None
) -> dict[str, float]:
    """The metrics of one measure that enter the table (see :data:`DEFAULT_SELECT`)."""
    pattern = (select or DEFAULT_SELECT).get(measure)
    if pattern is None:
        return dict(metrics)
    rx = re.compile(pattern)
    return {k: v for k, v in metrics.items() if rx.search(k)}


@dataclass
class StudyResult:
    """What :func:`wordgames.experiments.correlation_study` measured: the correlation, every measure's result and the skips."""

    correlation: CorrelationResult | None
    table: object
    results: list[dict]
    skipped: list[dict]
    oov: object  # DataFrame embeddings x benchmarks: OOV pairs behind each similarity score
    plots: list[str] = field(default_factory=list)
    thin: list[dict] = field(default_factory=list)  # cells left empty: their score is thin

    def as_dict(self) -> dict:
        return {
            "correlation": None if self.correlation is None else self.correlation.as_dict(),
            "thin_left_out": self.thin,
            "oov_pairs": {str(k): dict(v) for k, v in self.oov.to_dict(orient="index").items()},
            "skipped": self.skipped,
            "plots": self.plots,
            "results": self.results,
        }


def require_embeddings(names: Sequence[str], min_embeddings: int = MIN_EMBEDDINGS) -> None:
    """Refuse a study of fewer than ``min_embeddings`` embeddings before anything runs.

    >>> require_embeddings(["a", "b"])
    Traceback (most recent call last):
    ...
    wordgames.similarity.correlation.InsufficientEmbeddingsError: a correlation study needs at least 3 embeddings, got 2 (a, b)
    """
    if len(names) < min_embeddings:
        raise InsufficientEmbeddingsError(
            f"a correlation study needs at least {min_embeddings} embeddings, got {len(names)} "
            f"({', '.join(map(str, names)) or 'none'})"
        )


def study_from_results(
    res,
    *,
    reference: str | None = REFERENCE,
    select: Mapping[str, str] | None = None,
    min_embeddings: int = MIN_EMBEDDINGS,
    plot_dir=None,
) -> StudyResult:
    """The study of what :func:`wordgames.evaluate` returned (:class:`~wordgames.Results`).

    The score table of every embedding's selected metrics, the OOV pairs behind the similarity
    scores, the skipped units, and the correlation; figures in ``plot_dir``.
    """
    import pandas as pd

    names = [e["name"] for e in res.subjects]
    require_embeddings(names, min_embeddings)
    scores: dict[str, dict[str, float]] = {n: {} for n in names}
    oov: dict[str, dict[str, float]] = {n: {} for n in names}
    thin: list[dict] = []
    for r in res.results:  # the typed Score rows only, each under its table label
        rows = score_labels(r)
        chosen = select_metrics(r.measure, {k: s.value for k, s in rows.items()}, select)
        for label in chosen:
            if rows[label].thin:  # a thin score enters no statistic
                chosen[label] = float("nan")
                thin.append(
                    {"subject": r.subject, "metric": label, "reason": rows[label].thin_reason}
                )
        scores[r.subject].update(chosen)
        if r.measure == "similarity":  # pairs skipped or scored as fixed for an OOV word
            oov[r.subject].update(
                {
                    s.dataset: float(s.n_skipped + s.n_oov)
                    for s in r.scores
                    if s.metric == "spearman"
                }
            )
    skipped = [
        {"subject": s.subject, "measure": s.measure, "reason": s.reason} for s in res.skipped
    ]
    table = score_table(scores)
    _require_reference(table, reference, skipped)
    study = StudyResult(
        correlation=correlate(table, reference, min_embeddings=min_embeddings),
        table=table,
        results=[r.as_dict() for r in res.results],
        skipped=skipped,
        oov=pd.DataFrame.from_dict(oov, orient="index"),
        thin=thin,
    )
    if plot_dir is not None:
        Path(plot_dir).mkdir(parents=True, exist_ok=True)
        study.plots = [str(p) for p in plot_correlation(study.correlation, Path(plot_dir))]
    return study


#: flat WALES metrics and the Score rows behind them: (dataset, subject, metric)
_WALES_LABELS = {
    "wales/score": ("human", "greedy", "score"),
    "wales/w-path": ("wikispeedia-lscc", "w-path", "w_path"),
}


def score_label(score, measure: str) -> str:
    """The column label of a Score row in the study's table.

    ``<dataset>/<metric>`` (a benchmark's ``men/spearman``), ``<metric>_p<p>`` for a metric
    of parameter ``p`` (``perank_p2.5``), the bare metric of a score without a data set
    (``erank``), or a WALES headline (:data:`_WALES_LABELS`).

    >>> from wordgames.measure import Score
    >>> score_label(Score("e", "global-metrics", "", "p=2.5", "perank", 3.0), "global-metrics")
    'perank_p2.5'
    """
    if measure == "wales":
        aliases = {v: k for k, v in _WALES_LABELS.items()}
        alias = aliases.get((score.dataset, score.agent, score.metric))
        if alias is not None:
            return alias
    if score.dataset:
        return f"{score.dataset}/{score.metric}"
    if score.agent.startswith("p="):
        return f"{score.metric}_p{score.agent[2:]}"
    return score.metric


def score_labels(result) -> dict:
    """``{label: Score}`` of every Score row of ``result`` (the first row of a label wins)."""
    out: dict = {}
    for s in result.scores:
        out.setdefault(score_label(s, result.measure), s)
    return out


def thin_labels(result) -> dict[str, str]:
    """The table labels of ``result``'s thin scores, with the reason: ``{label: reason}``."""
    return {label: s.thin_reason for label, s in score_labels(result).items() if s.thin}


def _require_reference(table, reference: str | None, skipped: list[dict]) -> None:
    """Say why the reference metric is missing everywhere (e.g. WALES was skipped)."""
    if reference is None or (reference in table.columns and not table[reference].isna().all()):
        return
    reasons = "; ".join(sorted({s["reason"] for s in skipped if s["measure"] in _owner(reference)}))
    raise WordgamesError(
        f"the reference metric {reference!r} was not measured on any embedding"
        + (f" ({reasons})" if reasons else "")
        + "; choose another reference (e.g. 'men/spearman') or install what it needs"
    )


def _owner(metric: str) -> set[str]:
    if metric.startswith(("wales/", "w-path", "wpath")):
        return {"wales"}
    if metric.endswith(("/spearman", "/pearson")):
        return {"similarity"}
    return {"global-metrics"}


def plot_correlation(result: CorrelationResult, out_dir: Path) -> list[Path]:
    """Figure 1 layout: bars of rho(reference, metric), and the full matrix as a heatmap."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(out_dir)
    paths = []
    if result.reference is not None and len(result.with_reference):
        df = result.with_reference
        fig, ax = plt.subplots(figsize=(6, 0.28 * len(df) + 1.2))
        vals = df["spearman"].to_numpy(dtype=float)
        colors = ["tab:blue" if v >= 0 else "tab:red" for v in np.nan_to_num(vals)]
        ax.barh(df["metric"], np.nan_to_num(vals), color=colors)
        for i, (v, k) in enumerate(zip(vals, df["n_embeddings"], strict=True)):
            label = "n/a" if not np.isfinite(v) else f"{v:.2f}"
            ax.annotate(
                f"{label} (n={k})",
                (0.0, i),
                xytext=(3, 0),
                textcoords="offset points",
                va="center",
                fontsize=6,
            )
        ax.invert_yaxis()
        ax.set_xlim(-1.05, 1.05)
        ax.axvline(0, color="black", lw=0.6)
        ax.set_xlabel(
            f"Spearman rho with {result.reference} across {result.n_embeddings} embeddings"
        )
        ax.tick_params(axis="y", labelsize=7)
        ax.set_title(f"Spearman rank correlation with {result.reference}", fontsize=9)
        fig.tight_layout()
        path = out_dir / "correlation_with_reference.png"
        save_figure(fig, path, dpi=130)
        plt.close(fig)
        paths.append(path)
    m = result.matrix
    if len(m):
        order = list(m.columns)
        if result.reference in order:  # the reference first, the rest by their correlation with it
            rest = [r for r in result.with_reference["metric"] if r in order]
            order = (
                [result.reference]
                + rest
                + [c for c in order if c not in rest and c != result.reference]
            )
        m = m.loc[order, order]
        size = 0.32 * len(order) + 2
        fig, ax = plt.subplots(figsize=(size + 1, size))
        im = ax.imshow(m.to_numpy(dtype=float), vmin=-1, vmax=1, cmap="RdBu_r")
        ax.set_xticks(range(len(order)), order, rotation=90, fontsize=6)
        ax.set_yticks(range(len(order)), order, fontsize=6)
        fig.colorbar(im, ax=ax, label="Spearman rho", shrink=0.7)
        ax.set_title(f"rank correlation across {result.n_embeddings} embeddings", fontsize=9)
        fig.tight_layout()
        path = out_dir / "correlation_matrix.png"
        save_figure(fig, path, dpi=130)
        plt.close(fig)
        paths.append(path)
    return paths
