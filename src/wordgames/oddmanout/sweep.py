"""Paper Figure 3's table and figure: the sense solver's accuracy as K senses per word varies.

The sweep itself runs the ``oddmanout`` measure through :func:`wordgames.evaluate`, so it
lives in the experiments layer (:func:`wordgames.experiments.oddmanout_k_sweep`); this module
writes its rows as a table and draws them.
"""

from __future__ import annotations

from pathlib import Path

from wordgames.safeio import save_figure

FIELDS = ("K", "solver", "pct_correct", "pct_wrong", "pct_abstained", "accuracy_answered", "n")


def write_tsv(rows: list[dict], path: Path) -> Path:
    """The rows as a tab-separated table with a header (``K`` empty for the baseline)."""
    lines = ["\t".join(FIELDS)]
    for r in rows:
        lines.append("\t".join("" if r[f] is None else str(r[f]) for f in FIELDS))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def plot_k_sweep(rows: list[dict], path: Path, *, dataset: str) -> Path:
    """%correct against K (blue), the baseline as a red horizontal line, as in Figure 3."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sense = [r for r in rows if r["K"] is not None]
    base = [r for r in rows if r["K"] is None]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot([r["K"] for r in sense], [r["pct_correct"] for r in sense], "o-", color="tab:blue")
    for r in base:
        ax.axhline(r["pct_correct"], color="tab:red", label=r["solver"])
    ax.set_xlabel("K (senses per word)")
    ax.set_ylabel("% correct")
    ax.set_title(f"Sense solver on {dataset}")
    if base:
        ax.legend()
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path
