"""The paper's Figures 3 and 5 as plots (issue 21, item 13)."""

from __future__ import annotations


def test_figures_3_and_5_plot_initial_models_by_embedding(tmp_path, monkeypatch):
    import wordgames.codenames.plots as plots

    seen = []
    real = plots.panels

    def spy(groups, x, hue, y, path, **kw):
        seen.append(
            (
                path.name,
                x,
                hue,
                y,
                {k: sorted(r["clue_source"] for r in v) for k, v in groups.items()},
            )
        )
        return real(groups, x, hue, y, path, **kw)

    monkeypatch.setattr(plots, "panels", spy)
    s, r = [], []
    for emb in ("a", "b"):
        for src, v in (("all", 9.0), ("glove", 5.0), ("bert", 12.0)):
            s.append(
                {
                    "embedding": emb,
                    "dataset": "pilot",
                    "data": "human_receiver",
                    "agent": "cluster",
                    "clue_source": src,
                    "mean_rank": v,
                    "ranked_among": "vocabulary",
                }
            )
            r.append(
                {
                    "embedding": emb,
                    "dataset": "pilot",
                    "data": "human_receiver",
                    "agent": "nearest",
                    "clue_source": src,
                    "score": 0.5,
                    "ci_low": 0.4,
                    "ci_high": 0.6,
                }
            )
        # a data set without initial models shows its "all" row; other agents are left out
        r.append(
            {
                "embedding": emb,
                "dataset": "salt",
                "data": "human_receiver",
                "agent": "nearest",
                "clue_source": "all",
                "score": 0.3,
                "ci_low": 0.2,
                "ci_high": 0.4,
            }
        )
        r.append(
            {
                "embedding": emb,
                "dataset": "salt",
                "data": "human_receiver",
                "agent": "random-receiver",
                "clue_source": "all",
                "score": 0.1,
                "ci_low": 0.0,
                "ci_high": 0.2,
            }
        )
    paths = plots.plot_figures_3_and_5(s, r, tmp_path)
    assert [p.name for p in paths] == [
        "figure3_cluster_rank_by_initial_model.png",
        "figure5_nearest_map_by_initial_model.png",
    ]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)
    fig3, fig5 = seen
    assert fig3[1:4] == ("clue_source", "embedding", "mean_rank")
    assert fig3[4] == {"pilot": ["bert", "bert", "glove", "glove"]}
    assert fig5[4] == {"pilot": ["bert", "bert", "glove", "glove"], "salt": ["all", "all"]}


def test_a_panel_without_values_says_no_data_and_missing_bars_are_not_zero():
    import matplotlib

    matplotlib.use("Agg")
    from wordgames.codenames.plots import panels_figure

    rows = {
        "empty": [{"agent": "a", "embedding": "e", "score": float("nan")}],
        "half": [
            {"agent": "a", "embedding": "e", "score": 0.5},
            {"agent": "b", "embedding": "e", "score": None},
        ],
    }
    fig = panels_figure(rows, "agent", "embedding", "score")
    empty, half = fig.axes[:2]
    assert [t.get_text() for t in empty.texts] == ["no data"] and not empty.patches
    assert [p.get_height() for p in half.patches] == [0.5]  # the missing one is no bar
