"""Plots like the paper's figures 2 to 8: scores by agent type, clue source and embedding.

matplotlib is imported inside the functions (Agg backend, PNG files).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def _bars(ax, rows, x, hue, y, *, log=False, err=None, title="", ylabel=None, legend=True):
    import numpy as np

    xs = list(dict.fromkeys(r[x] for r in rows))
    hues = list(dict.fromkeys(r[hue] for r in rows))
    val = {(r[x], r[hue]): r for r in rows}
    width = 0.8 / max(1, len(hues))
    for i, h in enumerate(hues):
        pos = np.arange(len(xs)) + (i - (len(hues) - 1) / 2) * width
        heights = np.array([_num(val.get((xv, h), {}).get(y)) for xv in xs])
        yerr = None
        if err:
            lo = np.array([_num(val.get((xv, h), {}).get(err[0])) for xv in xs])
            hi = np.array([_num(val.get((xv, h), {}).get(err[1])) for xv in xs])
            yerr = np.nan_to_num(np.clip(np.stack([heights - lo, hi - heights]), 0, None))
        ax.bar(pos, np.nan_to_num(heights), width, label=str(h), yerr=yerr, capsize=2)
    ax.set_xticks(np.arange(len(xs)))
    ax.set_xticklabels([str(v) for v in xs], rotation=30, ha="right", fontsize=7)
    if log:
        ax.set_yscale("log")
    ax.set_ylabel(ylabel or y, fontsize=8)
    ax.set_title(title, fontsize=9)
    if legend:
        ax.legend(fontsize=6, ncol=2)


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
) -> Path:
    """One bar per (x, hue) pair of ``rows`` (dicts), grouped by ``x``.

    ``err`` names the low/high columns of an interval drawn as error bars.
    """
    return panels({"": rows}, x, hue, y, path, title=title, ylabel=ylabel, log=log, err=err)


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
) -> Path:
    """One panel of grouped bars per entry of ``groups`` (panel title -> rows), one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(groups)
    cols = min(3, n)
    nrows = (n + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, 3.8 * nrows), squeeze=False)
    for ax, (name, rows) in zip(axes.flat, groups.items(), strict=False):
        _bars(ax, rows, x, hue, y, log=log, err=err, title=name, ylabel=ylabel)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _num(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float("nan")


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)


def plot_evaluation(
    sender_rows: Sequence[dict], receiver_rows: Sequence[dict], out_dir: str | Path
) -> list[Path]:
    """Figures for one embedding (rows as produced by :func:`wordgames.codenames.suite.tables`).

    * ``sender_rank_by_source.png``: on human-receiver data, the mean rank of the given clue by
      agent and clue source ("initial model"), one panel per data set (the paper's figure 2);
    * ``receiver_map_by_source.png``: the receivers' MAP, same layout (figure 4);
    * ``sender_rank_human_sender_data.png`` / ``receiver_score_human_sender_data.png``: on
      human-sender data, by data set and agent (figures 6 and 8).
    """
    out_dir = Path(out_dir)
    paths = []
    by_ds = {}
    for r in sender_rows:
        if r["data"] == "human_receiver":
            by_ds.setdefault(r["dataset"], []).append(r)
    if by_ds:
        paths.append(
            panels(
                by_ds,
                "clue_source",
                "agent",
                "mean_rank",
                out_dir / "sender_rank_by_source.png",
                log=True,
                title="rank of the given clue on human-receiver data (Alg. 4), lower is better",
            )
        )
    by_ds = {}
    for r in receiver_rows:
        if r["data"] == "human_receiver":
            by_ds.setdefault(r["dataset"], []).append(r)
    if by_ds:
        paths.append(
            panels(
                by_ds,
                "clue_source",
                "agent",
                "score",
                out_dir / "receiver_map_by_source.png",
                ylabel="MAP",
                err=("ci_low", "ci_high"),
                title="receiver MAP on human-receiver data (Alg. 5), higher is better",
            )
        )
    srows = [r for r in sender_rows if r["data"] == "human_sender" and r["clue_source"] == "all"]
    if srows:
        paths.append(
            grouped_bars(
                srows,
                "dataset",
                "agent",
                "mean_rank",
                out_dir / "sender_rank_human_sender_data.png",
                title="rank of the human clue (Alg. 6), lower is better",
                log=True,
            )
        )
    grows = [r for r in receiver_rows if r["data"] == "human_sender" and r["clue_source"] == "all"]
    if grows:
        paths.append(
            grouped_bars(
                grows,
                "dataset",
                "agent",
                "score",
                out_dir / "receiver_score_human_sender_data.png",
                title="receiver guess score (Alg. 7), higher is better",
                ylabel="score",
                err=("ci_low", "ci_high"),
            )
        )
    return paths


def plot_by_embedding(
    sender_rows: Sequence[dict], receiver_rows: Sequence[dict], out_dir: str | Path
) -> list[Path]:
    """Figures comparing embeddings (rows carry an ``embedding`` column).

    Sender mean rank by agent and embedding (figs. 3 and 7) and receiver scores by embedding
    (figs. 5 and 8).
    """
    out_dir = Path(out_dir)
    paths = []
    for data in ("human_receiver", "human_sender"):
        rows = [
            dict(r, agent_ds=f"{r['dataset']}: {r['agent']}")
            for r in sender_rows
            if r["data"] == data and r["clue_source"] == "all"
        ]
        if rows:
            paths.append(
                grouped_bars(
                    rows,
                    "agent_ds",
                    "embedding",
                    "mean_rank",
                    out_dir / f"sender_rank_by_embedding_{data}.png",
                    title=f"sender rank on {data} data by embedding",
                    log=True,
                )
            )
        rrows = [
            dict(r, agent_ds=f"{r['dataset']}: {r['agent']}")
            for r in receiver_rows
            if r["data"] == data and r["clue_source"] == "all"
        ]
        if rrows:
            paths.append(
                grouped_bars(
                    rrows,
                    "agent_ds",
                    "embedding",
                    "score",
                    out_dir / f"receiver_score_by_embedding_{data}.png",
                    title=f"receiver score on {data} data by embedding",
                    err=("ci_low", "ci_high"),
                )
            )
    return paths
