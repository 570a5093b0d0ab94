"""People's own wiki games (a study's export) scored by the ``wales-baselines`` measure."""

from __future__ import annotations

import numpy as np
import pytest

import wordgames
from wordgames.embeddings import Embedding

# a -> b -> c -> d and a shortcut a -> c: shortest a..d is 2 edges, b..d 2 edges
EDGES = "a\tb\nb\tc\nc\td\na\tc\n"


def _finished(path, games):
    # Wikispeedia's paths_finished.tsv: hashedIpAddress, timestamp, durationInSec, path, rating
    path.write_text(
        "".join(f"ip{i}\t{1000 + i}\t30\t{';'.join(g)}\tNULL\n" for i, g in enumerate(games))
    )
    return path


def _unfinished(path, games):
    # paths_unfinished.tsv: hashedIpAddress, timestamp, durationInSec, path, target, type
    path.write_text(
        "".join(
            f"ip{i}\t{2000 + i}\t60\t{';'.join(g)}\t{t}\ttimeout\n"
            for i, (g, t) in enumerate(games)
        )
    )
    return path


def test_collected_games_by_hand(tmp_path):
    graph = tmp_path / "g.tsv"
    graph.write_text(EDGES)
    fin = _finished(
        tmp_path / "fin.tsv",
        [
            ["a", "c", "d"],  # a..d in 2 clicks (shortest 2)
            ["a", "b", "c", "d"],  # a..d in 3 clicks
            ["b", "c", "d"],  # b..d in 2 clicks (shortest 2)
            ["x", "y"],  # outside the graph: left out, counted in the coverage
        ],
    )
    unf = _unfinished(tmp_path / "unf.tsv", [(["a", "b"], "d")])
    emb = Embedding(["a", "b"], np.eye(2), name="e")
    opts = {"finished": str(fin), "unfinished": str(unf), "graph": str(graph)}
    res = wordgames.evaluate(emb, ["wales-baselines"], options={"wales-baselines": opts})
    r = res.result("wales-baselines")
    # pairs (a, d): best 2, average 2.5, median 2.5; (b, d): 2, 2, 2. Shortest 2 for both.
    assert r.value("human_best", "collected", "people:collected") == pytest.approx(1.0)
    avg = r.find("human_average", "collected", "people:collected")
    assert avg.value == pytest.approx((2 / 2.5 + 2 / 2) / 2) and avg.n == 2
    assert avg.coverage == pytest.approx(3 / 4)  # 3 of the 4 finished games are in the graph
    assert 0.8 <= avg.ci_low <= avg.value <= avg.ci_high <= 1.0
    # 4 finished, 1 unfinished game
    rate = r.find("success_rate", "collected", "people:collected")
    assert rate.value == pytest.approx(4 / 5) and rate.n == 5
    assert 0.0 <= rate.ci_low <= rate.value <= rate.ci_high <= 1.0
    assert any("1 finished game(s) outside the graph" in n for n in r.notes)
