"""The Codenames figures: a legend outside the bars, axis names in words, x labels that do not
collide, error bars within the metric's range."""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("matplotlib")

SOURCES = [
    "babelnetWithHeuristics",
    "babelnetWithoutHeuristics",
    "bertWithHeuristics",
    "bertWithoutHeuristics",
    "fasttextWithHeuristics",
    "fasttextWithoutHeuristics",
    "gloveWithHeuristics",
    "gloveWithoutHeuristics",
    "word2vecWithHeuristics",
    "word2vecWithoutHeuristics",
]
AGENTS = ["nearest", "random-receiver"]


def _rows():
    rows = []
    for ds, src, agent in itertools.product(
        ["codenames-pilot", "codenames-human-noahprescott"], ["all", *SOURCES], AGENTS
    ):
        score = 0.9 if agent == "nearest" else 0.2
        # a wide interval, as a t-interval on few records would give: the bars must stay in [0, 1]
        rows.append(
            {
                "dataset": ds,
                "clue_source": src,
                "agent": agent,
                "data": "human_receiver",
                "score": score,
                "ci_low": score - 0.5,
                "ci_high": score + 0.5,
            }
        )
    return rows


def _rotated_box(text, renderer):
    """The four corners (display coordinates) of a rotated text's own rectangle."""
    import numpy as np

    angle = text.get_rotation()
    anchor = text.get_transform().transform(text.get_position())
    text.set_rotation(0)  # rotation_mode "anchor": the unrotated box around the same anchor
    box = text.get_window_extent(renderer)
    text.set_rotation(angle)
    corners = np.array([[box.x0, box.y0], [box.x1, box.y0], [box.x1, box.y1], [box.x0, box.y1]])
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return (corners - anchor) @ rot.T + anchor


def _collide(p, q) -> bool:
    """Whether two convex polygons overlap (separating axis test)."""
    import numpy as np

    for poly in (p, q):
        for i in range(len(poly)):
            edge = poly[(i + 1) % len(poly)] - poly[i]
            axis = np.array([-edge[1], edge[0]])
            a, b = p @ axis, q @ axis
            if a.max() <= b.min() or b.max() <= a.min():
                return False
    return True


def _boxes(fig):
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    axes = [ax for ax in fig.axes if ax.get_visible()]
    return r, axes


def test_map_figure_reads_well():
    import matplotlib.pyplot as plt

    from wordgames.codenames.plots import panels_figure

    by_ds = {}
    for row in _rows():
        by_ds.setdefault(row["dataset"], []).append(row)
    fig = panels_figure(
        by_ds,
        "clue_source",
        "agent",
        "score",
        ylabel="mean average precision",
        err=("ci_low", "ci_high"),
        ylim=(0.0, 1.0),
        title="receivers",
    )
    try:
        r, axes = _boxes(fig)
        (legend,) = fig.legends
        lb = legend.get_window_extent(r)
        for ax in axes:  # the legend is outside every panel
            assert not lb.overlaps(ax.get_window_extent(r))
            labels = [t for t in ax.get_xticklabels() if t.get_text()]
            assert len(labels) == 11
            assert all(t.get_rotation() == 40 for t in labels)
            boxes = [_rotated_box(t, r) for t in labels]
            for a, b in itertools.pairwise(boxes):  # neighbouring x labels do not collide
                assert not _collide(a, b), (a, b)
            assert "_" not in ax.get_ylabel() and ax.get_xlabel() == "who gave the clue"
            assert ax.get_ylim() == (0.0, 1.0)
            from matplotlib.container import ErrorbarContainer

            errs = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
            assert len(errs) == len(AGENTS)
            for c in errs:  # every error bar stays within [0, 1]
                for seg in c.lines[2][0].get_segments():
                    assert 0.0 <= seg[:, 1].min() and seg[:, 1].max() <= 1.0
        assert [t.get_text() for t in legend.get_texts()] == AGENTS
        # short data set names in the panel titles
        assert [ax.get_title() for ax in axes] == ["pilot", "noahprescott"]
    finally:
        plt.close(fig)


def test_plot_evaluation_writes_named_figures(tmp_path):
    from wordgames.codenames.plots import AXIS_NAMES, plot_evaluation

    srows = [
        dict(r, mean_rank=1000.0 if r["agent"] == "nearest" else 9000.0, agent=s)
        for r in _rows()
        for s in ("cluster",)
    ]
    paths = plot_evaluation(srows, _rows(), tmp_path)
    names = sorted(p.name for p in paths)
    assert names == ["receiver_map_by_source.png", "sender_rank_by_source.png"]
    assert all(p.stat().st_size > 10_000 for p in paths)
    assert "_" not in AXIS_NAMES["mean_rank"]
