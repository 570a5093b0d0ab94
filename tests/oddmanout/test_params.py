"""The Odd-Man-Out solvers are configured like scikit-learn estimators (wordgames.params.Params)."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.embeddings import Embedding
from wordgames.oddmanout import EmbeddingSolver, PuzzleSet, SenseEmbedding, Taxonomy, TaxonomySolver

EMB = Embedding(
    ["cherry", "orange", "apple", "grape", "grass"],
    np.array([[1, 0.1], [1, 0.2], [1, 0.0], [1, 0.15], [0, 1]]),
    name="toy",
)
TAX = Taxonomy(
    8,
    [1, 2, 3, 4, 5, 6, 7],
    [0, 0, 1, 1, 1, 1, 2],
    ["thing", "fruit", "plant", "cherry", "orange", "apple", "grape", "grass"],
    range(8),
)
PS = PuzzleSet.from_odd_first("fruit", [["grass", "cherry", "orange", "apple", "grape"]])


@pytest.mark.parametrize(
    "solver",
    [
        EmbeddingSolver(EMB, mwe="mean"),
        EmbeddingSolver(SenseEmbedding.from_embedding(EMB)),
        TaxonomySolver(TAX),
    ],
    ids=["embedding", "senses", "taxonomy"],
)
def test_params_round_trip_and_same_answers(solver):
    params = solver.get_params()
    assert set(vars(solver)) == set(params)  # __init__ stores its arguments and nothing else
    twin = solver.clone()
    assert twin.get_params() == params and twin is not solver
    assert type(solver)(**params).solve(PS).choice.tolist() == solver.solve(PS).choice.tolist()
    assert solver.solve(PS).chosen_words(PS).tolist() == ["grass"]


def test_set_params_changes_the_answer_and_the_record():
    solver = EmbeddingSolver(EMB)
    ps = PuzzleSet.from_odd_first("t", [["grass", "fire engine", "cherry", "apple", "grape"]])
    assert solver.solve(ps).reason.tolist() == ["oov"]
    sol = solver.clone().set_params(mwe="abstain").solve(PS)
    assert sol.parameters == {
        "embedding": "toy",
        "senses": False,
        "mwe": "abstain",
        "case": "fallback-lower",
        "max_combinations": 1 << 22,
    }
    with pytest.raises(ValueError, match="no parameter"):
        solver.set_params(mwes="mean")


def test_taxonomy_solver_checks_its_policy():
    with pytest.raises(ValueError, match="missing"):
        TaxonomySolver(TAX, missing="ignore")
    solver = TaxonomySolver(TAX).set_params(missing="ignore")
    with pytest.raises(ValueError, match="missing"):
        solver.solve(PS)
