"""The WALES navigator driven by a *player* subject (:mod:`wordgames.subjects`).

At each page :class:`PlayerNavigator` shows the player the target's title, the page's title and
the titles of every link on the page (Wikispeedia pages have up to about 300: all are shown,
in the graph's order) and asks which link to follow. The walk ends at the target (success) or
after ``max_steps`` links (a failure, scored 0 as for the greedy agents). An answer that names
no link of the page ends the task as a failure with reason ``unreadable-answer``, counted.
"""

from __future__ import annotations

import numpy as np

from wordgames.params import Params
from wordgames.subjects import AnswerError, Question, parse_choice

PROMPT_VERSION = "1"


class PlayerNavigator(Params):
    """A WALES navigator that asks a player.

    Parameters
    ----------
    player : Player
        The subject that answers.
    max_steps : int
        Links followed before the task counts as failed (WALES: 100).

    Examples
    --------
    >>> from wordgames.subjects import PlayerSubject
    >>> from wordgames.wales.graph import DiGraph
    >>> class Last(PlayerSubject):
    ...     def answer(self, q):
    ...         return q.fields["links"][-1]
    ...     def identity(self):
    ...         return {"kind": "last"}
    >>> g = DiGraph.from_edges([0, 0, 1, 2], [1, 2, 3, 3], names=["a", "b", "c", "d"])
    >>> PlayerNavigator(Last("l")).run(g, np.array([0]), np.array([3]))["n_steps"].tolist()
    [2]
    """

    name = "player"

    def __init__(self, player, max_steps: int = 100):
        self.player = player
        self.max_steps = max_steps

    def question(self, page: str, target: str, links) -> Question:
        listed = "\n".join(links)
        prompt = (
            f"You are navigating Wikipedia from page {page!r} to page {target!r} by following "
            "links. Which link do you follow next? Answer with one title of the list, exactly "
            f"as written, and nothing else.\n{listed}"
        )
        fields = {"page": page, "target": target, "links": tuple(links)}
        return Question("wales", "navigator", fields, prompt, PROMPT_VERSION)

    def walk(self, graph, source: int, target: int) -> tuple[int, bool, str, int]:
        """``(links followed, reached, reason, questions asked)`` of one task."""
        names = graph.names
        here, steps = int(source), 0
        while steps < self.max_steps:
            links = [str(names[v]) for v in graph.successors(here)]
            if not links:
                return steps, False, "dead-end", steps
            try:
                title = parse_choice(
                    self.player.answer(self.question(str(names[here]), str(names[target]), links)),
                    links,
                )
            except AnswerError:
                return steps, False, "unreadable-answer", steps + 1
            here = int(graph.successors(here)[links.index(title)])
            steps += 1
            if here == target:
                return steps, True, "", steps
        return steps, False, "step-cap", steps

    def run(self, graph, sources, targets) -> dict:
        """Per task: ``n_steps``, ``success``, ``reason`` (``""`` on success) and ``questions``."""
        walks = [self.walk(graph, s, t) for s, t in zip(sources, targets, strict=True)]
        return {
            "n_steps": np.array([w[0] for w in walks], dtype=np.int64),
            "success": np.array([w[1] for w in walks], dtype=bool),
            "reason": np.array([w[2] for w in walks], dtype=object),
            "questions": int(sum(w[3] for w in walks)),
        }
