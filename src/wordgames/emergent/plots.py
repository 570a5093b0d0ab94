"""Picture of the word <-> concept best-match graph (the paper's Figure 2)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordgames.emergent.cbm import CBMResult
from wordgames.safeio import save_figure


@dataclass
class _Drawn:
    """What of the best-match graph is drawn: nodes (heaviest first) and edges (heaviest)."""

    words: np.ndarray  # word ids, matched ones first
    concepts: np.ndarray  # concept ids, their matches face to face
    rows: np.ndarray  # edge ends as positions in ``words`` ...
    cols: np.ndarray  # ... and in ``concepts``
    weights: np.ndarray
    is_match: np.ndarray
    matched_words: np.ndarray

    @property
    def height(self) -> int:
        return max(len(self.words), len(self.concepts), 2)

    def y(self, i, n):
        """Vertical position of the i-th of n nodes (each side spread over the same height)."""
        return self.height - 1 - (i * (self.height - 1) / max(n - 1, 1))


def _select(result: CBMResult, max_nodes: int, max_edges: int) -> _Drawn:
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
    return _Drawn(words, concepts, ri, ci, weights, is_match, matched_w)


def _draw_edges(ax, d: _Drawn) -> None:
    """Grey edges below, matched ones in red on top with their weight; width by weight."""
    from matplotlib.collections import LineCollection

    segs = np.array(
        [
            [(0.0, d.y(r, len(d.words))), (1.0, d.y(c, len(d.concepts)))]
            for r, c in zip(d.rows, d.cols, strict=True)
        ]
    ).reshape(-1, 2, 2)
    wmax = float(d.weights.max()) if d.weights.size else 1.0
    widths = 0.5 + 5.0 * d.weights / wmax
    m = d.is_match
    if (~m).any():
        ax.add_collection(
            LineCollection(segs[~m], linewidths=widths[~m], colors="0.75", alpha=0.6, zorder=1)
        )
    if m.any():
        ax.add_collection(
            LineCollection(segs[m], linewidths=widths[m], colors="tab:red", alpha=0.9, zorder=2)
        )
        for (p0, p1), wt in zip(segs[m], d.weights[m], strict=True):
            ax.text(
                0.5 * (p0[0] + p1[0]),
                0.5 * (p0[1] + p1[1]),
                f"{wt:g}",
                fontsize=7,
                ha="center",
                va="center",
                color="tab:red",
                zorder=3,
                bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"},
            )


def _draw_nodes(ax, result: CBMResult, d: _Drawn) -> None:
    """Words on the left, concepts on the right; matched ones coloured (at most max_nodes)."""
    matched_set = set(d.matched_words.tolist())
    for i, w in enumerate(d.words):
        y = d.y(i, len(d.words))
        ax.plot(0, y, "o", color="tab:blue" if w in matched_set else "0.6", zorder=4)
        ax.text(-0.04, y, str(result.words[w]), ha="right", va="center", fontsize=8)
    matched_c = set(result.word_match[d.matched_words].tolist())
    for i, c in enumerate(d.concepts):
        y = d.y(i, len(d.concepts))
        ax.plot(1, y, "s", color="tab:green" if c in matched_c else "0.6", zorder=4)
        ax.text(1.04, y, str(result.concepts[c]), ha="left", va="center", fontsize=8)


def _title(result: CBMResult, d: _Drawn, title: str | None) -> str:
    """The title, the score, and what was left out to stay readable."""
    n_w, n_c = result.graph.shape
    left_out = []
    if len(d.words) < n_w or len(d.concepts) < n_c:
        left_out.append(f"showing {len(d.words)}/{n_w} words, {len(d.concepts)}/{n_c} concepts")
    n_edges = int((result.graph > 0).sum())
    if len(d.weights) < n_edges:
        left_out.append(f"{len(d.weights)}/{n_edges} edges")
    head = title or "word \u2194 concept best match"
    sub_title = (
        f"CBM {result.score:.3f}; {len(d.matched_words)} of {n_c} concepts matched to {n_w} words"
    )
    return head + "\n" + sub_title + ("\n" + "; ".join(left_out) if left_out else "")


def plot_best_match_graph(
    result: CBMResult, path, *, max_edges: int = 300, max_nodes: int = 60, title: str | None = None
) -> Path:
    """Draw the bipartite graph: words on the left, concepts on the right.

    Edge width grows with the weight; matched edges are drawn on top in colour with their
    weight, the others in grey. Matched pairs are placed face to face; unmatched words and
    concepts follow. To stay readable at most ``max_nodes`` words and concepts (heaviest first,
    matched ones always kept when they fit) and the ``max_edges`` heaviest edges are drawn; the
    title says what was left out.

    Parameters
    ----------
    result : CBMResult
        From :func:`wordgames.emergent.cbm.concept_best_matching`.
    path : str or Path
        The PNG file to write (folders are created).
    max_edges, max_nodes : int
        Caps on what is drawn.
    title : str, optional
        First line of the title.

    Returns
    -------
    Path
        ``path``.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    d = _select(result, max_nodes, max_edges)
    fig, ax = plt.subplots(figsize=(7, max(3.0, 0.28 * d.height + 1.5)))
    _draw_edges(ax, d)
    _draw_nodes(ax, result, d)
    ax.set_xlim(-0.45, 1.45)
    ax.set_ylim(-1, d.height)
    ax.axis("off")
    ax.set_title(_title(result, d, title), fontsize=9)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_figure(fig, path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def plot_sensitivity(rows: list[dict], path, *, title: str | None = None) -> Path:
    """CBM against evaluation-set size (the paper's Figure 4).

    Accumulated (solid) and per-segment (dashed) scores from
    :func:`wordgames.emergent.cbm.cbm_sensitivity`.
    """
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
    save_figure(fig, path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def shape_sample_objects(seed: int = 0, n_per_side: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """The objects of :func:`plot_shape_samples`: every shape x colour, then one turn.

    Returns ``grid`` (30, 4), the 5 shapes x 6 colours at seeded positions, and ``turn``
    (2 * n_per_side, 4): ``n_per_side`` targets of a one-concept colour rule, then as many
    distractors (the layout of the paper's Figure 3).

    Examples
    --------
    >>> grid, turn = shape_sample_objects(seed=1, n_per_side=4)
    >>> grid.shape, sorted(set(map(tuple, grid[:, :2].tolist()))) == [
    ...     (s, c) for s in range(5) for c in range(6)]
    ((30, 4), True)
    >>> bool((turn[:4, 1] == turn[0, 1]).all()), bool((turn[4:, 1] != turn[0, 1]).all())
    (True, True)
    """
    from wordgames.emergent.games.game import ReferentialGame

    rng = np.random.default_rng(seed)
    shapes, colors = np.meshgrid(np.arange(5), np.arange(6), indexing="ij")
    grid = np.stack(
        [shapes.ravel(), colors.ravel(), rng.integers(0, 3, 30), rng.integers(0, 3, 30)], axis=1
    )
    game = ReferentialGame(
        "shape", rule_length=1, n_targets=n_per_side, n_distractors=n_per_side, p_violate=None
    )
    while True:  # a colour rule, for a turn that reads at a glance
        turns = game.sample_turns(1, rng)
        if turns.rule_attributes[0, 0] == 1:
            break
    order = np.argsort(~turns.labels[0], kind="stable")
    return grid, turns.objects[0][order]


def plot_shape_samples(path, *, seed: int = 0, image_size: int = 32) -> Path:
    """Render Shape-world objects to look at: every shape in every colour, and one turn.

    The top block has one row per shape and one column per colour (positions drawn with
    ``seed``); below it, one turn of 8 targets (a colour rule) over 8 distractors, as in the
    paper's Figure 3. Images are those the agents see (:meth:`ShapeWorld.features`, with
    jitter).
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    from wordgames.emergent.games.worlds import COLORS, SHAPES, ShapeWorld

    world = ShapeWorld(image_size=image_size)
    grid, turn = shape_sample_objects(seed)
    rng = np.random.default_rng([seed, 1])
    images = world.features(np.concatenate([grid, turn]), rng).transpose(0, 2, 3, 1)
    fig, axes = plt.subplots(7, 8, figsize=(8, 7.5))
    for ax in axes.ravel():
        ax.axis("off")
    for i, img in enumerate(images[:30]):
        ax = axes[i // 6, i % 6]
        ax.imshow(img, interpolation="nearest")
        colour = list(COLORS)[i % 6]
        ax.set_title(f"{SHAPES[i // 6]}: {colour}" if i % 6 == 0 else colour, fontsize=7)
    for k, img in enumerate(images[30:]):
        ax = axes[5 + k // 8, k % 8]
        ax.imshow(img, interpolation="nearest")
    colour = list(COLORS)[turn[0, 1]]
    axes[5, 0].set_title(f"targets: color={colour}", fontsize=7, loc="left")
    axes[6, 0].set_title("distractors", fontsize=7, loc="left")
    fig.suptitle(f"Shape world, {image_size}-pixel images (seed {seed})", fontsize=9)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_figure(fig, path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path
