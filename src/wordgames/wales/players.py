"""The WALES navigator driven by a *player* subject (:mod:`wordgames.subjects`).

At each page :class:`PlayerNavigator` shows the player the target's title, the page's title,
the pages it has visited and the titles of every link on the page to a page not visited yet
(Wikispeedia pages have up to about 300: all are shown, in the graph's order) and asks which
link to follow: like the paper's agent, it moves to unvisited pages only, so it cannot loop.
The walk ends at the target (success), after ``max_steps`` links, or at a page whose every
link leads back (``dead-end``; failures, scored 0 as for the greedy agents). The answer is
read as a careful person reads it (:func:`~wordgames.subjects.read_choice`); one that names
no single link of the list ends the task as a failure with reason ``unreadable-answer``,
counted.
"""

from __future__ import annotations

import numpy as np

from wordgames.params import Params
from wordgames.prompts import template
from wordgames.reading import Tally, ask_and_read
from wordgames.subjects import Question, read_choice

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

    def question(self, page: str, target: str, links, visited=()) -> Question:
        """The question at ``page``: its unvisited ``links``, the pages ``visited`` so far."""
        shown = ", ".join(repr(v) for v in visited) or "none"
        prompt = PROMPT.format(page=page, target=target, links="\n".join(links), visited=shown)
        # the step cap is not in the prompt: it tells a dry run how many steps a task may take
        fields = {"page": page, "target": target, "links": tuple(links),
                  "visited": tuple(visited), "step_cap": self.max_steps}  # fmt: skip
        return Question("wales", "navigator", fields, prompt, PROMPT_VERSION, answer_tokens=32,
                        form="choice")  # fmt: skip

    def run(self, graph, sources, targets) -> dict:
        """Per task: ``n_steps``, ``success``, ``reason`` (``""`` on success), and more.

        Also ``questions`` (asked) and ``reading`` (how the answers were read,
        :class:`~wordgames.reading.Tally`).

        The tasks walk in lockstep: each round asks every walking task's question together
        (:func:`~wordgames.reading.ask_and_read`: concurrently where the player can; an
        unreadable answer asked again with what was wrong).
        """
        names = graph.names
        here = np.asarray(sources, dtype=np.int64).copy()
        goal = np.asarray(targets, dtype=np.int64)
        n = here.size
        steps = np.zeros(n, dtype=np.int64)
        success = np.zeros(n, dtype=bool)
        reason = np.full(n, "", dtype=object)
        walking, asked, tally = list(range(n)), 0, Tally()
        visited = [[int(here[i])] for i in range(n)]  # in order, the start page first
        while walking:
            ask = []
            for i in walking:
                seen = set(visited[i])
                nodes = [int(v) for v in graph.successors(int(here[i])) if int(v) not in seen]
                if steps[i] >= self.max_steps:
                    reason[i] = "step-cap"
                elif not nodes:  # no link, or every link back to a visited page
                    reason[i] = "dead-end"
                else:
                    ask.append((i, nodes, [str(names[v]) for v in nodes]))
            questions = [
                self.question(
                    str(names[here[i]]),
                    str(names[goal[i]]),
                    links,
                    [str(names[v]) for v in visited[i]],
                )  # fmt: skip
                for i, _nodes, links in ask
            ]
            asked += len(questions)
            walking = []
            reads = ask_and_read(self.player, questions, _read_link, tally=tally)
            for (i, nodes, links), read in zip(ask, reads, strict=True):
                if not read.ok:  # the game's "no move": the task ends as a failure, counted
                    reason[i] = "unreadable-answer"
                    continue
                title = read.value
                here[i] = nodes[links.index(title)]
                visited[i].append(int(here[i]))
                steps[i] += 1
                if here[i] == goal[i]:
                    success[i] = True
                else:
                    walking.append(i)
        return {"n_steps": steps, "success": success, "reason": reason, "questions": int(asked),
                "reading": tally}  # fmt: skip


def _read_link(answer, question: Question):
    return read_choice(answer, question.fields["links"])
