"""The multi-target referential game of Mu and Goodman (2021), as the CBM paper (section 2.1) uses it.

Each turn draws a conjunctive labelling rule of length ``l`` (``l`` concepts on ``l`` different
attributes, e.g. ``color=red AND shape=triangle``), ``n_targets`` objects that obey the rule and
``n_distractors`` that do not, shuffled together. The sender sees the targets and sends a
message; the receiver scores every candidate. The *labels* of a turn, which Concept-Best-Matching
matches messages against, are the rule's concepts.

Only numpy is needed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from wordgames.emergent.games.worlds import World, make_world
from wordgames.params import Params

__all__ = ["ReferentialGame", "Turns"]


@dataclass(frozen=True)
class Turns:
    """A batch of turns of the referential game.

    Attributes
    ----------
    world : the world the objects come from
    objects : int64 ``(T, C, A)`` attribute values of the ``C`` candidates of each turn
    labels : bool ``(T, C)``, True for targets (objects that obey the rule)
    rule_attributes : int64 ``(T, l)`` attributes of the rule's concepts, ascending
    rule_values : int64 ``(T, l)`` their values
    """

    world: World
    objects: np.ndarray
    labels: np.ndarray
    rule_attributes: np.ndarray
    rule_values: np.ndarray

    def __len__(self) -> int:
        return len(self.objects)

    @property
    def rule_concept_ids(self) -> np.ndarray:
        """Flat concept indices ``(T, l)`` of each turn's rule."""
        return self.world.concept_ids(self.rule_attributes, self.rule_values)

    def concepts(self) -> list[list[str]]:
        """The rule of each turn as a list of concept names (what CBM matches against)."""
        names = np.array(self.world.concepts, dtype=object)
        return names[self.rule_concept_ids].tolist()

    def phrases(self) -> list[str]:
        """The rule of each turn as one phrase string (``"color=red shape=triangle"``)."""
        return [" ".join(c) for c in self.concepts()]

    def obeys(self) -> np.ndarray:
        """Recompute from the objects whether each candidate obeys its turn's rule."""
        idx = np.broadcast_to(
            self.rule_attributes[:, None, :],
            self.objects.shape[:2] + self.rule_attributes.shape[1:],
        )
        held = np.take_along_axis(self.objects, idx, axis=2) == self.rule_values[:, None, :]
        return held.all(axis=2)

    def target_features(self, features: np.ndarray) -> np.ndarray:
        """Mean over each turn's targets of per-candidate ``features`` ``(T, C, ...)``."""
        w = self.labels.astype(np.float32)
        w = w / w.sum(axis=1, keepdims=True)
        return np.einsum("tc,tc...->t...", w, np.asarray(features, dtype=np.float32))


class ReferentialGame(Params):
    """Generator of multi-target referential-game turns.

    Parameters
    ----------
    world : a :class:`World` or its name (``"thing"``, ``"shape"``); the world itself is
        ``world_`` (built on first use)
    rule_length : number ``l`` of concepts in each conjunctive rule (at most the number of
        attributes)
    n_targets, n_distractors : candidates per turn that obey / do not obey the rule (the paper's
        Table 1 uses 20 and 20)
    p_violate : how distractors are drawn. ``None`` (default): uniformly among the objects that
        do not obey the rule. A number ``p``: each rule concept is violated independently with
        probability ``p`` (at least one always is) and kept otherwise, so that distractors share
        more of the rule ("near misses") when ``p`` is small; for ``l = 1`` both are the same.
    world_params : parameters of the world when ``world`` is a name

    Examples
    --------
    >>> game = ReferentialGame("thing", rule_length=2, n_targets=3, n_distractors=3)
    >>> turns = game.sample_turns(4, np.random.default_rng(0))
    >>> turns.objects.shape, int(turns.labels.sum()), bool((turns.obeys() == turns.labels).all())
    ((4, 6, 5), 12, True)
    """

    def __init__(
        self,
        world: str | World = "thing",
        rule_length: int = 1,
        n_targets: int = 20,
        n_distractors: int = 20,
        p_violate: float | None = None,
        world_params: dict | None = None,
    ):
        self.world = world
        self.rule_length = rule_length
        self.n_targets = n_targets
        self.n_distractors = n_distractors
        self.p_violate = p_violate
        self.world_params = world_params
        self._check(self._make_world())  # a bad configuration fails here, not at the first turn

    def _make_world(self) -> World:
        return make_world(self.world, **(self.world_params or {}))

    def _check(self, world: World) -> None:
        if not 1 <= self.rule_length <= world.n_attributes:
            raise ValueError(
                f"rule_length must be between 1 and {world.n_attributes} "
                f"for the {world.name} world, got {self.rule_length}"
            )
        if self.n_targets < 1 or self.n_distractors < 1:
            raise ValueError("a turn needs at least one target and one distractor")
        if self.p_violate is not None and not 0.0 < self.p_violate <= 1.0:
            raise ValueError("p_violate must be in (0, 1]")

    @cached_property
    def world_(self) -> World:
        """The world of the turns.

        ``world`` itself, or built from its name and ``world_params`` on first use.
        """
        return self._make_world()

    @property
    def n_candidates(self) -> int:
        return self.n_targets + self.n_distractors

    def n_rules(self) -> int:
        """Number of distinct rules of this length (distinct NL phrases)."""
        from itertools import combinations

        card = self.world_.cardinalities
        return int(
            sum(
                np.prod(card[list(c)])
                for c in combinations(range(self.world_.n_attributes), self.rule_length)
            )
        )

    def sample_rules(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``n`` rules drawn uniformly over attribute subsets and then values."""
        attrs = np.argsort(rng.random((n, self.world_.n_attributes)), axis=1)[:, : self.rule_length]
        attrs = np.sort(attrs, axis=1)
        values = np.floor(rng.random(attrs.shape) * self.world_.cardinalities[attrs])
        return attrs, values.astype(np.int64)

    def sample_turns(self, n_turns: int, rng: np.random.Generator) -> Turns:
        """Draw ``n_turns`` turns (rules, targets, distractors, shuffled)."""
        attrs, values = self.sample_rules(n_turns, rng)
        card = self.world_.cardinalities[attrs]  # (T, l)
        nt, nd, ln = self.n_targets, self.n_distractors, self.rule_length
        objects = self.world_.sample_objects((n_turns, nt + nd), rng)  # (T, C, A)

        # which rule concepts each distractor violates: never none
        p = (card - 1) / card if self.p_violate is None else np.full(card.shape, self.p_violate)
        violate = rng.random((n_turns, nd, ln)) < p[:, None, :]
        redo = ~violate.any(axis=2)
        while redo.any():  # rejection, vectorised over the rows still without a violation
            t_idx, _ = np.nonzero(redo)
            violate[redo] = rng.random((len(t_idx), ln)) < p[t_idx]
            redo = ~violate.any(axis=2)
        # a violated concept takes one of the other values, uniformly
        shift = 1 + np.floor(rng.random((n_turns, nd, ln)) * (card[:, None, :] - 1))
        wrong = (values[:, None, :] + shift.astype(np.int64)) % card[:, None, :]
        d_vals = np.where(violate, wrong, values[:, None, :])
        t_vals = np.broadcast_to(values[:, None, :], (n_turns, nt, ln))
        rule_vals = np.concatenate([t_vals, d_vals], axis=1)
        idx = np.broadcast_to(attrs[:, None, :], (n_turns, nt + nd, ln))
        np.put_along_axis(objects, idx, rule_vals, axis=2)

        labels = np.zeros((n_turns, nt + nd), dtype=bool)
        labels[:, :nt] = True
        order = np.argsort(rng.random(labels.shape), axis=1)
        objects = np.take_along_axis(objects, order[:, :, None], axis=1)
        labels = np.take_along_axis(labels, order, axis=1)
        return Turns(self.world_, objects, labels, attrs, values)
