"""Progress bars over a run's model requests: one per subject, game and role, on stderr.

A chat run may take hours; each bar says how many of its questions are answered, how many came
from the response cache, the rate and the time left. The totals come from the same dry pass as
``--dry-run`` (:func:`wordgames.llm.plan.estimate_requests`); a subject reports each first ask
of a question through its ``on_answer`` hook (re-prompts are not new questions).
"""

from __future__ import annotations

from collections.abc import Sequence


class RequestBars:
    """A context: the bars of ``rows`` (the plan's rows) drawn on ``con`` while it is open.

    Parameters
    ----------
    con : rich.console.Console
        Where to draw (the command line's stderr console).
    rows : sequence of dict
        ``subject``, ``game``, ``role``, ``requests`` and ``cached`` of each bar.

    Examples
    --------
    >>> import io
    >>> from types import SimpleNamespace as Q
    >>> from wordgames.cli.common import console
    >>> con = console(file=io.StringIO(), force_terminal=True, width=120)
    >>> rows = [{"subject": "chat:m", "game": "oddmanout", "role": "solver", "requests": 2,
    ...          "cached": 1}]
    >>> with RequestBars(con, rows) as bars:
    ...     hook = bars.hook("chat:m")
    ...     for cached in (True, False, False):
    ...         hook(Q(game="oddmanout", role="solver"), cached)
    >>> bars.done[("chat:m", "oddmanout", "solver")]
    (3, 1)
    """

    def __init__(self, con, rows: Sequence[dict]):
        import threading

        self.console, self.rows = con, list(rows)
        self.progress, self.tasks = None, {}
        self._lock = threading.Lock()  # answers may come from several threads
        #: (subject, game, role) -> (answered, from the cache)
        self.done: dict[tuple[str, str, str], tuple[int, int]] = {}

    def __enter__(self) -> RequestBars:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("cached {task.fields[cached]}"),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            console=self.console,
            transient=False,
        )
        self.progress.start()
        for r in self.rows:
            key = (r["subject"], r["game"], r["role"])
            self.done[key] = (0, 0)
            # a WALES task asks once a step: its bound is the step cap (``up_to``), not its
            # first step; a walk that reaches its target early ends the bar short of it
            asks = max(r["requests"], r.get("up_to", 0))
            self.tasks[key] = self.progress.add_task(
                f"{r['subject']} {r['game']} {r['role']}",
                total=asks + r.get("cached", 0) or None,
                cached=0,
                rate="",
            )
        return self

    def __exit__(self, *exc) -> None:
        self.progress.stop()

    def hook(self, subject: str):
        """The ``on_answer(question, cached)`` callback of the subject named ``subject``."""

        def on_answer(question, cached: bool) -> None:
            key = (subject, question.game, question.role)
            with self._lock:
                if key not in self.tasks:  # a question the plan did not foresee: its own bar
                    self.done[key] = (0, 0)
                    self.tasks[key] = self.progress.add_task(
                        " ".join(key), total=None, cached=0, rate=""
                    )
                answered, hits = self.done[key]
                self.done[key] = (answered + 1, hits + int(bool(cached)))
                task = self.tasks[key]
            self.progress.advance(task)
            speed = self.progress.tasks[task].speed  # rich's own windowed rate
            rate = f"{speed:.1f}/s" if speed else ""
            self.progress.update(task, cached=self.done[key][1], rate=rate)

        return on_answer

    def add_task(self, description: str):
        """A plain task on the same display (the run's units), as ``progress(label, i, n)``."""
        task = self.progress.add_task(description, total=None, cached="-", rate="")

        def progress(label, done, total):
            self.progress.update(task, description=label, completed=done, total=total)

        return progress


def request_bars(con, subjects, measures, *, quiet: bool, **settings) -> RequestBars | None:
    """The bars of a run, or ``None``: quiet, not a terminal, or no chat subject in the run.

    The totals are the plan of a dry pass over the games (nothing is sent).
    """
    from wordgames.llm.subject import ChatSubject

    chats = [s for s in subjects if isinstance(s, ChatSubject)]
    if quiet or not chats or not con.is_terminal:
        return None
    from wordgames.llm.plan import estimate_requests

    rows, _ = estimate_requests(subjects, measures, **settings)
    bars = RequestBars(con, rows)
    for s in chats:
        s.on_answer = bars.hook(s.name)
    return bars
