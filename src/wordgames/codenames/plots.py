"""Plots like the paper's figures 2 to 8: scores by agent type, clue source and embedding.

matplotlib is imported inside the functions (Agg backend, PNG files). Every figure has one
legend, outside the panels (on the right), axis names in words, x labels turned and shortened
(``codenames-human-salt`` is ``salt``) so that they do not collide, and error bars that are the
scores' 95 % intervals, kept inside the metric's range.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from wordgames.safeio import save_figure

#: the readable name of each plotted column (y axis)
AXIS_NAMES = {
    "mean_rank": "mean rank of the clue (log scale)",
    "score": "score",
    "map": "mean average precision (MAP)",
    "guess_score": "guess score (Algorithm 7)",
}
#: x axis names
X_NAMES = {
    "clue_source": "who gave the clue",
    "dataset": "human data set",
    "agent": "agent",
}
_PREFIXES = ("codenames-human-", "codenames-")


def short_name(label: str) -> str:
    """A data set's name without the common prefix, for axis labels.

    >>> short_name("codenames-human-salt"), short_name("codenames-pilot"), short_name("mine")
    ('salt', 'pilot', 'mine')
    """
    for p in _PREFIXES:
        if label.startswith(p):
            return label[len(p) :]
    return label


def _wrap(label: str, width: int = 18) -> str:
    """Break a long label at ``+``, ``:``, ``-`` or camel case so that it fits ``width``.

    >>> print(_wrap("fasttextWithoutHeuristics", 12))
    fasttext
    Without
    Heuristics
    >>> _wrap("salt: exhaustive:avg_blue_dist", 14).split()
    ['salt:', 'exhaustive:', 'avg_blue_dist']
    """
    import re

    if len(label) <= width:
        return label
    parts = [p for p in re.split(r"(?<=[+:\-\s])|(?<=[a-z])(?=[A-Z])", label) if p]
    lines, cur = [], ""
    for p in parts:
        if cur and len(cur) + len(p) > width:
            lines.append(cur.strip())
            cur = ""
        cur += p
    lines.append(cur.strip())
    return "\n".join(lines)


def _bars(ax, rows, x, hue, y, *, hues, log=False, err=None, title="", ylabel=None, ylim=None):
    import numpy as np

    xs = list(dict.fromkeys(r[x] for r in rows))
    val = {(r[x], r[hue]): r for r in rows}
    width = 0.8 / max(1, len(hues))
    if not any(np.isfinite(_num(r.get(y))) for r in rows):
        # a panel without a value says so instead of drawing an empty axis
        ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(short_name(title), fontsize=9)
        return
    for i, h in enumerate(hues):
        pos = np.arange(len(xs)) + (i - (len(hues) - 1) / 2) * width
        heights = np.array([_num(val.get((xv, h), {}).get(y)) for xv in xs])
        drawn = np.isfinite(heights)  # a missing value is no bar, never a bar of height 0
        yerr = None
        if err:
            lo = np.array([_num(val.get((xv, h), {}).get(err[0])) for xv in xs])
            hi = np.array([_num(val.get((xv, h), {}).get(err[1])) for xv in xs])
            if ylim is not None:  # a guard: intervals are computed inside the metric's range
                lo, hi = np.clip(lo, *ylim), np.clip(hi, *ylim)
            yerr = np.nan_to_num(np.clip(np.stack([heights - lo, hi - heights]), 0, None))
            yerr = yerr[:, drawn]
        ax.bar(
            pos[drawn],
            heights[drawn],
            width,
            label=str(h),
            yerr=yerr,
            capsize=2,
            color=f"C{i % 10}",
        )
    ax.set_xticks(np.arange(len(xs)))
    ax.set_xticklabels(
        [_wrap(short_name(str(v))) for v in xs],
        rotation=40,
        ha="right",
        rotation_mode="anchor",
        fontsize=7,
    )
    has_positive = any(
        (np.asarray(line.get_ydata(), dtype=float) > 0).any() for line in ax.get_lines()
    ) or any(p.get_height() > 0 for p in ax.patches)
    if log and has_positive:  # a log axis of no positive value is empty (thin runs)
        ax.set_yscale("log")
    elif ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_ylabel(ylabel or AXIS_NAMES.get(y, y.replace("_", " ")), fontsize=8)
    ax.set_xlabel(X_NAMES.get(x, x.replace("_", " ")), fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    ax.set_title(short_name(title), fontsize=9)


def grouped_bars(
    rows: Sequence[dict],
    x: str,
    hue: str,
    y: str,
    path: str | Path,
    *,
    title: str = "",
    ylabel: str | None = None,
    log: bool = False,
    err: tuple[str, str] | None = None,
    ylim: tuple[float, float] | None = None,
) -> Path:
    """One bar per (x, hue) pair of ``rows`` (dicts), grouped by ``x``.

    ``err`` names the low/high columns of an interval drawn as error bars; ``ylim`` is the
    metric's range (the y axis and a guard on the error bars).
    """
    return panels(
        {"": rows}, x, hue, y, path, title=title, ylabel=ylabel, log=log, err=err, ylim=ylim
    )


def panels(
    groups: dict[str, Sequence[dict]],
    x: str,
    hue: str,
    y: str,
    path: str | Path,
    *,
    title: str = "",
    ylabel: str | None = None,
    log: bool = False,
    err: tuple[str, str] | None = None,
    ylim: tuple[float, float] | None = None,
) -> Path:
    """One panel of grouped bars per entry of ``groups`` (panel title -> rows), one PNG.

    The legend (one entry per ``hue`` value) is drawn once, to the right of the panels; each
    panel is about half an inch wide per group of bars (between 4.5 and 9 inches).
    """
    import matplotlib.pyplot as plt

    fig = panels_figure(groups, x, hue, y, title=title, ylabel=ylabel, log=log, err=err, ylim=ylim)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_figure(fig, path, dpi=100)
    plt.close(fig)
    return path


def panels_figure(
    groups: dict[str, Sequence[dict]],
    x: str,
    hue: str,
    y: str,
    *,
    title: str = "",
    ylabel: str | None = None,
    log: bool = False,
    err: tuple[str, str] | None = None,
    ylim: tuple[float, float] | None = None,
):
    """The figure of :func:`panels`, not saved (the caller closes it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hues = list(dict.fromkeys(r[hue] for rows in groups.values() for r in rows))
    n = len(groups)
    most = max((len({r[x] for r in rows}) for rows in groups.values()), default=1)
    # inches per panel: ~0.5 per group of bars; a lone panel wide enough for the title
    width = min(9.0, max(4.5 if n > 1 else 7.0, 1.2 + 0.5 * most))
    cols = min(n, 3 if width <= 5.5 else 2)
    nrows = (n + cols - 1) // cols
    fig, axes = plt.subplots(
        nrows,
        cols,
        figsize=(width * cols + 2.2, 3.9 * nrows),
        squeeze=False,
        layout="constrained",
    )
    for ax, (name, rows) in zip(axes.flat, groups.items(), strict=False):
        _bars(
            ax, rows, x, hue, y, hues=hues, log=log, err=err, title=name, ylabel=ylabel, ylim=ylim
        )
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="outside right center",
        fontsize=7,
        title=hue,
        title_fontsize=8,
        frameon=False,
    )
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def _num(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def _by_dataset(rows, data: str) -> dict[str, list]:
    out: dict[str, list] = {}
    for r in rows:
        if r["data"] == data and r.get("ranked_among", "vocabulary") == "vocabulary":
            out.setdefault(r["dataset"], []).append(r)
    return out


def _all_sources(rows, data: str, among: str = "vocabulary") -> list[dict]:
    return [
        r
        for r in rows
        if r["data"] == data
        and r["clue_source"] == "all"
        and r.get("ranked_among", "vocabulary") == among
    ]


def plot_evaluation(
    sender_rows: Sequence[dict], receiver_rows: Sequence[dict], out_dir: str | Path
) -> list[Path]:
    """Figures for one embedding (rows as produced by :func:`wordgames.codenames.suite.tables`).

    * ``sender_rank_by_source.png``: on human-receiver data, the mean rank of the given clue by
      agent and clue source ("initial model"), one panel per data set (the paper's figure 2);
    * ``receiver_map_by_source.png``: the receivers' MAP, same layout (figure 4);
    * ``sender_rank_human_sender_data.png`` / ``receiver_score_human_sender_data.png``: on
      human-sender data, by data set and agent (figures 6 and 8);
    * ``sender_rank_among_candidates.png``: where people chose their clue from a list (Shen
      et al.), the rank of their choice among the candidates.
    """
    out_dir = Path(out_dir)
    paths = []
    by_ds = _by_dataset(sender_rows, "human_receiver")
    if by_ds:
        paths.append(
            panels(
                by_ds,
                "clue_source",
                "agent",
                "mean_rank",
                out_dir / "sender_rank_by_source.png",
                log=True,
                title="senders on human-receiver data (Alg. 4): rank of the clue that was "
                "given, lower is better",
            )
        )
    by_ds = _by_dataset(receiver_rows, "human_receiver")
    if by_ds:
        paths.append(
            panels(
                by_ds,
                "clue_source",
                "agent",
                "score",
                out_dir / "receiver_map_by_source.png",
                ylabel=AXIS_NAMES["map"],
                err=("ci_low", "ci_high"),
                ylim=(0.0, 1.0),
                title="receivers on human-receiver data (Alg. 5): MAP of the people's picks "
                "with 95 % intervals, higher is better",
            )
        )
    paths += _sender_data_plots(sender_rows, receiver_rows, out_dir)
    return paths


def _sender_data_plots(sender_rows, receiver_rows, out_dir: Path) -> list[Path]:
    paths = []
    srows = _all_sources(sender_rows, "human_sender")
    if srows:
        paths.append(
            grouped_bars(
                srows,
                "dataset",
                "agent",
                "mean_rank",
                out_dir / "sender_rank_human_sender_data.png",
                title="senders on human-sender data (Alg. 6): rank of the person's clue, "
                "lower is better",
                log=True,
            )
        )
    crows = _all_sources(sender_rows, "human_sender", "candidates")
    if crows:
        paths.append(
            grouped_bars(
                crows,
                "dataset",
                "agent",
                "mean_rank",
                out_dir / "sender_rank_among_candidates.png",
                title="senders ranking only the clues people chose from: rank of their "
                "choice, lower is better",
                ylabel="mean rank among the candidates",
                err=("ci_low", "ci_high"),
            )
        )
    grows = _all_sources(receiver_rows, "human_sender")
    if grows:
        paths.append(
            grouped_bars(
                grows,
                "dataset",
                "agent",
                "score",
                out_dir / "receiver_score_human_sender_data.png",
                title="receivers on people's clues (Alg. 7): guess score with 95 % intervals, "
                "higher is better",
                ylabel=AXIS_NAMES["guess_score"],
                err=("ci_low", "ci_high"),
                ylim=(-1.0, 1.0),
            )
        )
    return paths


def plot_by_embedding(
    sender_rows: Sequence[dict], receiver_rows: Sequence[dict], out_dir: str | Path
) -> list[Path]:
    """Figures comparing embeddings (rows carry an ``embedding`` column).

    Sender mean rank by agent and embedding (figs. 3 and 7) and receiver scores by embedding
    (figs. 5 and 8): one panel per data set, the agents on the x axis, one bar per embedding.
    """
    out_dir = Path(out_dir)
    paths = []
    for data, what in (("human_receiver", "people's picks"), ("human_sender", "people's clues")):
        groups: dict[str, list] = {}
        for r in _all_sources(sender_rows, data):
            groups.setdefault(r["dataset"], []).append(r)
        if groups:
            paths.append(
                panels(
                    groups,
                    "agent",
                    "embedding",
                    "mean_rank",
                    out_dir / f"sender_rank_by_embedding_{data}.png",
                    title=f"senders on {what} by embedding: rank of the clue, lower is better",
                    log=True,
                )
            )
        groups = {}
        for r in _all_sources(receiver_rows, data):
            groups.setdefault(r["dataset"], []).append(r)
        if groups:
            name = "map" if data == "human_receiver" else "guess_score"
            paths.append(
                panels(
                    groups,
                    "agent",
                    "embedding",
                    "score",
                    out_dir / f"receiver_score_by_embedding_{data}.png",
                    title=f"receivers on {what} by embedding, with 95 % intervals, "
                    "higher is better",
                    ylabel=AXIS_NAMES[name],
                    err=("ci_low", "ci_high"),
                    ylim=(0.0, 1.0) if name == "map" else (-1.0, 1.0),
                )
            )
    return paths


def plot_figures_3_and_5(
    sender_rows: Sequence[dict], receiver_rows: Sequence[dict], out_dir: str | Path
) -> list[Path]:
    """The paper's Figures 3 and 5 (experiment 2): measures by initial model and embedding.

    Figure 3: ClusterSender's mean rank of the people's clue; Figure 5: EmbeddingNearestReceiver's
    MAP on the people's picks. One panel per data set, the initial models (clue sources) on the
    x axis, one bar per embedding (rows carry an ``embedding`` column); receiver bars carry
    their 95 % intervals. Data sets without clue sources show their ``all`` row alone.
    """
    out_dir = Path(out_dir)
    paths = []
    for rows, agent, y, name, kw in (
        (sender_rows, "cluster", "mean_rank", "figure3_cluster_rank_by_initial_model.png",
         {"log": True, "title": "Figure 3: ClusterSender, rank of the people's clue by "
                                "initial model (lower is better)"}),
        (receiver_rows, "nearest", "score", "figure5_nearest_map_by_initial_model.png",
         {"err": ("ci_low", "ci_high"), "ylim": (0.0, 1.0), "ylabel": AXIS_NAMES["map"],
          "title": "Figure 5: EmbeddingNearestReceiver, MAP by initial model "
                   "(higher is better)"}),
    ):  # fmt: skip
        groups: dict[str, list] = {}
        for r in rows:
            if r.get("agent") != agent or r.get("data") != "human_receiver":
                continue
            if r.get("ranked_among", "vocabulary") != "vocabulary":
                continue
            groups.setdefault(r["dataset"], []).append(r)
        for ds, part in list(groups.items()):
            sources = {r["clue_source"] for r in part} - {"all"}
            groups[ds] = [r for r in part if r["clue_source"] != "all"] if sources else part
        if groups:
            paths.append(panels(groups, "clue_source", "embedding", y, out_dir / name, **kw))
    return paths
