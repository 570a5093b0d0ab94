"""Comparison figures: one bar per subject with its 95 % interval, thin values hatched.

One function draws them for :meth:`wordgames.Results.plot` and for the report's comparison
figures (one per headline score), so a figure in a paper and the report show the same thing.
matplotlib is imported only here, when a figure is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from wordgames.measure import HIGHER, LOWER


def _direction_words(direction: str | None) -> str:
    return {HIGHER: "higher is better", LOWER: "lower is better"}.get(direction, "")


def comparison_figure(
    labels: Sequence[str],
    scores: Sequence,
    *,
    title: str,
    direction: str | None = None,
    bounds: tuple[float | None, float | None] = (None, None),
    best: Sequence[bool] | None = None,
):
    """A bar chart: one bar per label, its interval as an error bar, thin bars hatched.

    Parameters
    ----------
    labels : sequence of str
        One per bar (embeddings, or embedding and agent).
    scores : sequence of Score or None
        The Score behind each bar; ``None`` or a NaN value is written "no data".
    title : str
        The figure's title (the score's name).
    direction : {"higher", "lower", None}
        Said under the title.
    bounds : tuple
        The metric's declared range: the axis starts at its lower bound when it has one.
    best : sequence of bool, optional
        Bars drawn with a thick edge: the best group of a paired comparison.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from wordgames.measure import Score
    >>> s = [Score("a", "m", "d", "", "map", 0.5, 0.4, 0.6, n=100),
    ...      Score("b", "m", "d", "", "map", 0.3, 0.1, 0.5, n=10, thin=True)]
    >>> fig = comparison_figure(["a", "b"], s, title="map", direction="higher", bounds=(0, 1))
    >>> [str(p.get_hatch()) for p in fig.axes[0].patches]
    ['None', '//']
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(labels)
    fig, ax = plt.subplots(figsize=(max(4.0, 0.7 * n + 2.0), 3.6), layout="constrained")
    values = [s.value if s is not None else math.nan for s in scores]
    present = [i for i, v in enumerate(values) if math.isfinite(v)]
    import textwrap

    # a long score name wraps instead of running off the figure
    wrapped = "\n".join(textwrap.wrap(title, width=max(30, int(fig.get_figwidth() * 11))))
    ax.set_title(wrapped + (f"\n({_direction_words(direction)})" if direction else ""), fontsize=9)
    if not present:
        ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return fig
    best = list(best) if best is not None else [False] * n
    for i in present:
        s = scores[i]
        lo, hi = s.ci_low, s.ci_high
        err = None
        if math.isfinite(lo) and math.isfinite(hi):
            err = [[max(0.0, s.value - lo)], [max(0.0, hi - s.value)]]
        ax.bar(
            i,
            s.value,
            yerr=err,
            capsize=3,
            color="#d0d0d0" if s.thin else "#4c72b0",
            hatch="//" if s.thin else None,
            edgecolor="black" if best[i] else "#333333",
            linewidth=2.0 if best[i] else 0.5,
        )
    for i in set(range(n)) - set(present):
        ax.text(i, 0, "no data", ha="center", va="bottom", rotation=90, fontsize=7)
    if bounds[0] == 0 and all(values[i] >= 0 for i in present):
        ax.set_ylim(bottom=0)  # shares and counts start at 0; a [-1, 1] metric is autoscaled
    ax.set_xticks(range(n), [str(x) for x in labels], rotation=30, ha="right", fontsize=8)
    if any(scores[i].thin for i in present):
        ax.set_xlabel("hatched: thin, not ranked", fontsize=7)
    return fig
