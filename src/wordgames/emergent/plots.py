"""Picture of the word <-> concept best-match graph (the paper's Figure 2)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from wordgames.emergent.cbm import CBMResult


def plot_best_match_graph(result: CBMResult, path, *, max_edges: int = 300, max_nodes: int = 60,
                          title: str | None = None) -> Path:
    """Draw the bipartite graph: words on the left, concepts on the right.

    Edge width grows with the weight; matched edges are drawn on top in colour with their
    weight, the others in grey. Matched pairs are placed face to face; unmatched words and
    concepts follow. To stay readable at most ``max_nodes`` words and concepts (heaviest first,
    matched ones always kept when they fit) and the ``max_edges`` heaviest edges are drawn; the
    title says what was left out.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection

    g = result.graph
    n_w, n_c = g.shape
    wm = result.word_match
    matched_w = np.flatnonzero(wm >= 0)
    matched_w = matched_w[np.argsort(-g[matched_w, wm[matched_w]], kind="stable")]
    w_total, c_total = g.sum(axis=1), g.sum(axis=0)

    def pick(first, total, n):
        rest = np.setdiff1d(np.arange(n), first)
        rest = rest[np.argsort(-total[rest], kind="stable")]
        return np.concatenate([first, rest])[:max_nodes].astype(np.int64)

    words = pick(matched_w, w_total, n_w)
    concepts = pick(wm[matched_w], c_total, n_c)
    sub = g[np.ix_(words, concepts)]
    ri, ci = np.nonzero(sub > 0)
    weights = sub[ri, ci]
    order = np.argsort(-weights, kind="stable")[:max_edges]
    ri, ci, weights = ri[order], ci[order], weights[order]
    is_match = wm[words[ri]] == concepts[ci]
    wmax = float(weights.max()) if weights.size else 1.0
    height = max(len(words), len(concepts), 2)
    fig, ax = plt.subplots(figsize=(7, max(3.0, 0.28 * height + 1.5)))

    def ypos(i, n):  # spread each side over the same height
        return height - 1 - (i * (height - 1) / max(n - 1, 1))

    segs = np.array([[(0.0, ypos(r, len(words))), (1.0, ypos(c, len(concepts)))]
                     for r, c in zip(ri, ci, strict=True)]).reshape(-1, 2, 2)
    widths = 0.5 + 5.0 * weights / wmax
    if (~is_match).any():
        ax.add_collection(LineCollection(segs[~is_match], linewidths=widths[~is_match],
                                         colors="0.75", alpha=0.6, zorder=1))
    if is_match.any():
        ax.add_collection(LineCollection(segs[is_match], linewidths=widths[is_match],
                                         colors="tab:red", alpha=0.9, zorder=2))
        for (p0, p1), wt in zip(segs[is_match], weights[is_match], strict=True):
            ax.text(0.5 * (p0[0] + p1[0]), 0.5 * (p0[1] + p1[1]), f"{wt:g}", fontsize=7,
                    ha="center", va="center", color="tab:red", zorder=3,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"})
    matched_set = set(matched_w.tolist())
    for i, w in enumerate(words):  # at most max_nodes labels
        y = ypos(i, len(words))
        ax.plot(0, y, "o", color="tab:blue" if w in matched_set else "0.6", zorder=4)
        ax.text(-0.04, y, str(result.words[w]), ha="right", va="center", fontsize=8)
    matched_c = set(wm[matched_w].tolist())
    for i, c in enumerate(concepts):
        y = ypos(i, len(concepts))
        ax.plot(1, y, "s", color="tab:green" if c in matched_c else "0.6", zorder=4)
        ax.text(1.04, y, str(result.concepts[c]), ha="left", va="center", fontsize=8)
    ax.set_xlim(-0.45, 1.45)
    ax.set_ylim(-1, height)
    ax.axis("off")
    left_out = []
    if len(words) < n_w or len(concepts) < n_c:
        left_out.append(f"showing {len(words)}/{n_w} words, {len(concepts)}/{n_c} concepts")
    n_edges = int((g > 0).sum())
    if len(weights) < n_edges:
        left_out.append(f"{len(weights)}/{n_edges} edges")
    head = title or "word \u2194 concept best match"
    sub_title = (f"CBM {result.score:.3f}; {len(matched_w)} of {n_c} concepts matched "
                 f"to {n_w} words")
    ax.set_title(head + "\n" + sub_title + ("\n" + "; ".join(left_out) if left_out else ""),
                 fontsize=9)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def plot_sensitivity(rows: list[dict], path, *, title: str | None = None) -> Path:
    """CBM against evaluation-set size (the paper's Figure 4): accumulated (solid) and
    per-segment (dashed) scores from :func:`wordgames.emergent.cbm.cbm_sensitivity`."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    n = [r["n_samples"] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(n, [r["accumulated"] for r in rows], "-o", ms=3, label="accumulated")
    ax.plot(n, [r["segment"] for r in rows], "--s", ms=3, label="segment alone")
    ax.set_xlabel("samples")
    ax.set_ylabel("CBM")
    ax.set_ylim(0, 1.05)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(title or "CBM against evaluation-set size", fontsize=9)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path
