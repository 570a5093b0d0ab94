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
from wordgames.prompts import template
from wordgames.subjects import AnswerError, Question, answer_all, parse_choice

#: the navigator's prompt (``wordgames/prompts/wales_navigator.txt``) and its version
PROMPT, PROMPT_VERSION = template("wales_navigator")


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
        prompt = PROMPT.format(page=page, target=target, links="\n".join(links))
        # the step cap is not in the prompt: it tells a dry run how many steps a task may take
        fields = {"page": page, "target": target, "links": tuple(links), "step_cap": self.max_steps}
        return Question("wales", "navigator", fields, prompt, PROMPT_VERSION, answer_tokens=32)

    def run(self, graph, sources, targets) -> dict:
        """Per task: ``n_steps``, ``success``, ``reason`` (``""`` on success) and ``questions``.

        The tasks walk in lockstep: each round asks every walking task's question together
        (:func:`~wordgames.subjects.answer_all`: concurrently where the player can).
        """
        names = graph.names
        here = np.asarray(sources, dtype=np.int64).copy()
        goal = np.asarray(targets, dtype=np.int64)
        n = here.size
        steps = np.zeros(n, dtype=np.int64)
        success = np.zeros(n, dtype=bool)
        reason = np.full(n, "", dtype=object)
        walking, asked = list(range(n)), 0
        while walking:
            ask = []
            for i in walking:
                links = [str(names[v]) for v in graph.successors(int(here[i]))]
                if steps[i] >= self.max_steps:
                    reason[i] = "step-cap"
                elif not links:
                    reason[i] = "dead-end"
                else:
                    ask.append((i, links))
            questions = [
                self.question(str(names[here[i]]), str(names[goal[i]]), links) for i, links in ask
            ]
            asked += len(questions)
            walking = []
            for (i, links), answer in zip(ask, answer_all(self.player, questions), strict=True):
                try:
                    title = parse_choice(answer, links)
                except AnswerError:
                    reason[i] = "unreadable-answer"
                    continue
                here[i] = int(graph.successors(int(here[i]))[links.index(title)])
                steps[i] += 1
                if here[i] == goal[i]:
                    success[i] = True
                else:
                    walking.append(i)
        return {"n_steps": steps, "success": success, "reason": reason, "questions": int(asked)}
