"""A conformance check over every agent and solver (in the manner of scikit-learn's
``check_estimator``): each :class:`~wordgames.params.Params` subclass is configured by its
constructor only, round-trips its parameters, is deterministic under a seed and returns
well-formed ranked output.

Every concrete ``Params`` subclass in wordgames must have an entry in :data:`CASES`: a new
agent without one fails :func:`test_every_agent_and_solver_is_checked`.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import numpy as np
import pytest

import wordgames
from wordgames.embeddings import Embedding
from wordgames.params import Params

RNG = np.random.default_rng(0)
EMB = Embedding(
    [f"w{i}" for i in range(40)], RNG.normal(size=(40, 4)).astype("float32"), name="toy"
)
BLUE, RED = ["w1", "w2", "w3"], ["w4", "w5"]
BOARD = BLUE + RED


def _sender_output(agent):
    ranked = agent.ranked_forward(BLUE, RED)
    vocab = set(EMB.words.tolist())
    assert len(ranked) == len(set(ranked)), "a clue is ranked twice"
    assert set(ranked) <= vocab and not set(ranked) & set(BOARD), "clues: vocabulary, not board"
    return ranked


def _receiver_output(agent):
    ranked = agent.ranked_forward(BOARD, "w9")
    assert sorted(ranked) == sorted(BOARD), "a receiver ranks every board word once"
    return ranked


def _solver_output(solver):
    from wordgames.oddmanout.puzzles import PuzzleSet

    words = [["w7", "w1", "w2", "w3", "w4"], ["w30", "w10", "w11", "w12", "w13"]]
    ps = PuzzleSet.from_odd_first("toy", words, seed=0)
    sol = solver.solve(ps)
    assert sol.choice.shape == (2,)
    assert ((sol.choice >= -1) & (sol.choice < 5)).all(), "an answer is a word index or -1"
    return sol.choice.tolist()


def _taxonomy_output(solver):
    from wordgames.oddmanout.puzzles import PuzzleSet

    ps = PuzzleSet.from_odd_first("t", [["grass", "apple", "pear", "cherry", "plum"]], seed=0)
    sol = solver.solve(ps)
    assert ps.words[0][sol.choice[0]] == "grass"
    return sol.choice.tolist()


def _taxonomy():
    from wordgames.oddmanout.taxonomy import Taxonomy

    return Taxonomy(
        8,
        [1, 2, 3, 4, 5, 6, 7],
        [0, 0, 1, 1, 1, 1, 2],
        ["thing", "fruit", "plant", "apple", "pear", "cherry", "plum", "grass"],
        range(8),
    )


def _wales_output(agent):
    from wordgames.wales.graph import DiGraph
    from wordgames.wales.titles import NodeVectors

    g = DiGraph.from_edges([0, 0, 1, 2], [1, 2, 3, 3])
    nv = NodeVectors(np.arange(4), np.array([[1, 0], [0.6, 0.8], [0.8, 0.6], [0, 1]], float))
    res = agent.navigate(g, nv, 0, 3, record_path=True)
    path = list(res.path)
    assert path[0] == 0 and path[-1] == 3, "a finished path runs from source to target"
    assert all(b in g.successors(a) for a, b in zip(path, path[1:], strict=False))
    return path


def _stochastic_output(agent):
    from wordgames.wales.graph import DiGraph
    from wordgames.wales.titles import NodeVectors

    # 0 -> {1, 2} -> 3, and 3 -> 0: every walk from 0 reaches 3 in exactly two links
    g = DiGraph.from_edges([0, 0, 1, 2, 3], [1, 2, 3, 3, 0])
    nv = NodeVectors(np.arange(4), np.array([[1, 0], [0.6, 0.8], [0.8, 0.6], [0, 1]], float))
    out = agent.run(g, nv, [0, 0, 1, 3], [3, 3, 3, 3])
    assert out["success"].tolist() == [True, True, True, True]
    assert out["n_steps"].tolist() == [2, 2, 1, 0], "a walk counts every link it follows"
    return out["n_steps"].tolist()


def _metrics_output(gm):
    out = gm.compute(EMB)
    assert out["erank"] <= min(EMB.vectors.shape) + 1e-9
    return sorted(out.items())


def _world_output(world):
    objs = world.sample_objects((3, 2), np.random.default_rng(1))
    assert objs.shape[:2] == (3, 2)
    return np.asarray(objs).tolist()


def _game_output(game):
    turns = game.sample_turns(4, np.random.default_rng(2))
    assert turns.labels.sum(axis=1).tolist() == [game.n_targets] * 4
    return turns.objects.tolist()


def _trainer_output(trainer):
    return trainer.get_params()  # training is covered by tests/emergent; here: config only


def _callable_output(agent):
    return agent.get_params()["ask"] is not None


def _cases():
    from wordgames.codenames.agents import (
        ClusterSender,
        EmbeddingNearestReceiver,
        ExhaustiveSearchSender,
        RandomReceiver,
        RandomSender,
    )
    from wordgames.codenames.game import CallableReceiver, CallableSender
    from wordgames.codenames.players import (
        LogprobReceiver,
        LogprobSender,
        PlayerReceiver,
        PlayerSender,
    )
    from wordgames.emergent.games.game import ReferentialGame
    from wordgames.emergent.games.train import GameTrainer
    from wordgames.emergent.games.worlds import ShapeWorld, ThingWorld, World
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver
    from wordgames.oddmanout.players import PlayerSolver
    from wordgames.oddmanout.taxonomy import TaxonomySolver
    from wordgames.similarity.global_metrics import GlobalMetrics
    from wordgames.wales.agent import GreedyAgent
    from wordgames.wales.players import PlayerNavigator
    from wordgames.wales.stochastic import StochasticAgent

    return {
        PlayerReceiver: (lambda: PlayerReceiver(PLAYER), _role_check("codenames", "receiver")),
        PlayerSender: (lambda: PlayerSender(PLAYER), _role_check("codenames", "sender")),
        LogprobReceiver: (
            lambda: LogprobReceiver(SCORER),
            _role_check("codenames", "receiver"),
        ),
        LogprobSender: (lambda: LogprobSender(SCORER), _role_check("codenames", "sender")),
        PlayerSolver: (lambda: PlayerSolver(PLAYER), _role_check("oddmanout", "solver")),
        PlayerNavigator: (
            lambda: PlayerNavigator(PLAYER, max_steps=5),
            _role_check("wales", "navigator"),
        ),
        ClusterSender: (lambda: ClusterSender(EMB, n_restarts=2, random_state=3), _sender_output),
        ExhaustiveSearchSender: (
            lambda: ExhaustiveSearchSender(EMB, "max_radius", vocab_size=20),
            _sender_output,
        ),
        RandomSender: (lambda: RandomSender(EMB, random_state=5), _sender_output),
        EmbeddingNearestReceiver: (
            lambda: EmbeddingNearestReceiver(EMB, distance="euclidean"),
            _receiver_output,
        ),
        RandomReceiver: (lambda: RandomReceiver(random_state=7), _receiver_output),
        CallableSender: (lambda: CallableSender(_ask_sender), _callable_output),
        CallableReceiver: (lambda: CallableReceiver(_ask_receiver), _callable_output),
        EmbeddingSolver: (lambda: EmbeddingSolver(EMB, mwe="mean"), _solver_output),
        TaxonomySolver: (lambda: TaxonomySolver(_taxonomy()), _taxonomy_output),
        GreedyAgent: (lambda: GreedyAgent(gamma=0.5, max_steps=20), _wales_output),
        StochasticAgent: (lambda: StochasticAgent(max_steps=10, seed=4), _stochastic_output),
        GlobalMetrics: (lambda: GlobalMetrics(perank_p=2.0, center=True), _metrics_output),
        World: (
            lambda: World(["size", "color"], [["small", "big"], ["red", "blue"]], name="toy"),
            _world_output,
        ),
        ThingWorld: (lambda: ThingWorld(3, 4), _world_output),
        ShapeWorld: (lambda: ShapeWorld(image_size=16), _world_output),
        ReferentialGame: (
            lambda: ReferentialGame("thing", rule_length=2, n_targets=3, n_distractors=3),
            _game_output,
        ),
        GameTrainer: (
            lambda: GameTrainer(world="thing", channel="qt", steps=5, hidden=8, embed=4),
            _trainer_output,
        ),
    }


class _Alphabetical:
    """A toy player: the words (or links) of a question in alphabetical order, the first one."""

    name = "abc"
    capabilities = frozenset({"player"})

    def answer(self, q):
        if q.role == "sender":  # a clue per blue word: the word and "ish"
            return "\n".join(f"{w}ish 1" for w in sorted(q.fields["blue"]))
        words = sorted(q.fields.get("board") or q.fields.get("words") or q.fields["links"])
        return "\n".join(words) if q.game == "codenames" else words[0]

    def identity(self):
        return {"kind": "alphabetical"}

    def get_params(self):
        return self.identity()


PLAYER = _Alphabetical()


class _AlphabeticalScorer(_Alphabetical):
    """Scores options: the earlier in the alphabet, the higher."""

    capabilities = frozenset({"player", "scorer"})

    def score(self, question, options):
        order = sorted(options)
        return [-float(order.index(o)) for o in options]


SCORER = _AlphabeticalScorer()


def _role_check(game, role):
    from wordgames.testing import role_check

    return role_check(game, role)


def _ask_sender(board):
    return "w9", 1


def _ask_receiver(words, clue, n):
    return list(words)[:n]


def _concrete_params_classes() -> set[type]:
    for m in pkgutil.walk_packages(wordgames.__path__, "wordgames."):
        if not m.name.startswith("wordgames.serve"):
            importlib.import_module(m.name)

    def subclasses(c):
        for s in c.__subclasses__():
            yield s
            yield from subclasses(s)

    return {
        c
        for c in subclasses(Params)
        if c.__module__.startswith("wordgames.")
        and not c.__name__.startswith("_")
        and "__init__" in vars(c)
    }


def test_every_agent_and_solver_is_checked():
    pytest.importorskip("torch")
    missing = _concrete_params_classes() - set(_cases())
    assert not missing, f"add these to CASES in {__file__}: {sorted(c.__name__ for c in missing)}"


CASES = pytest.mark.parametrize("cls", list(_cases()), ids=lambda c: c.__name__)


@CASES
def test_init_sets_only_its_parameters(cls):
    obj = _cases()[cls][0]()
    params = set(obj.get_params())
    assert set(vars(obj)) <= params, (
        f"__init__ sets more than its parameters: {set(vars(obj)) - params}"
    )
    assert params == set(inspect.signature(cls.__init__).parameters) - {"self"}


@CASES
def test_params_round_trip(cls):
    make, _ = _cases()[cls]
    obj = make()
    params = obj.get_params()
    twin = obj.clone()
    assert type(twin) is cls and twin is not obj
    assert _same(twin.get_params(), params)
    assert _same(cls(**params).get_params(), params)
    assert obj.set_params(**params) is obj and _same(obj.get_params(), params)
    with pytest.raises(ValueError, match="no parameter"):
        obj.set_params(no_such_parameter=1)
    text = repr(obj)
    assert text.startswith(f"{cls.__name__}(")


@CASES
def test_deterministic_and_well_formed(cls):
    make, run = _cases()[cls]
    first, again = run(make()), run(make())
    assert first == again, "the same parameters (and seed) must give the same output"
    obj = make()
    run(obj)
    assert run(obj.clone()) == first, "a clone gives the same output as a fresh object"


def _same(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not np.array_equal(x, y):
                return False
        elif x is not y and x != y:
            return False
    return True
