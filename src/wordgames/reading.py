"""Asking a player and reading its answers: one mechanism for every game.

A model is judged on its play, not on its formatting. Every agent that asks a player
(Odd-Man-Out's solver, the WALES navigator, the Codenames sender and receiver) asks through
:func:`ask_and_read`:

1. the questions are asked together (:func:`~wordgames.subjects.answer_all`);
2. each answer is *read* by the game's reader, as a careful person reads it (exact first, then
   the documented rules of :func:`~wordgames.subjects.read_choice`), which says the rule it
   used or why it cannot read the answer;
3. an answer that cannot be read is asked again, ``reprompts`` times (default 1), with what was
   wrong (:meth:`~wordgames.subjects.Question.retry`: a chat model sees its answer and the
   problem as the next turn of the conversation; those requests are cached and counted like
   the rest);
4. what still cannot be read is a *format failure*: the game plays its "no move" for it (an
   abstention in Odd-Man-Out, a failed task in WALES, the board left as shown or no guess or
   no clue in Codenames), the item stays in every denominator, and its count is reported
   beside the score (``Score.n_unread`` and the ``format_failures`` metric).

:class:`Tally` counts each rule's use, the re-prompts and the failures; the results keep it
(the ``answers_read`` table of each game).

This module imports nothing heavy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wordgames.subjects import RULES, AnswerError, Question, Reading, answer_all

#: every rule an answer can be read by, in the order a reader tries them: ``structured`` (a
#: server-constrained answer, legal by construction), those of
#: :func:`~wordgames.subjects.read_choice`, and ``partial`` (a ranking or a list of clues that
#: leaves some out, or a clue without its number: read, the rest left as shown)
READ_RULES = ("structured", *RULES, "partial")
#: the re-prompts an unreadable answer gets unless the player says otherwise
DEFAULT_REPROMPTS = 1


@dataclass(frozen=True)
class Read:
    """One question's outcome: the value read and its rule, or why it could not be read.

    Parameters
    ----------
    value : object
        What the answer was read as (a word, a ranking, a link), or ``None``.
    rule : str
        The rule that read it (:data:`READ_RULES`); ``""``: it could not be read.
    problem : str
        Why it could not be read (told to the player on a re-prompt).
    tries : int
        The answers it took (1, or more after re-prompts).

    Examples
    --------
    >>> Read("grass", "exact").ok, Read(None, "", "no option", tries=2).ok
    (True, False)
    """

    value: Any = None
    rule: str = ""
    problem: str = ""
    tries: int = 1

    @property
    def ok(self) -> bool:
        return bool(self.rule)

    def get(self):
        """The value, or :class:`~wordgames.subjects.AnswerError` with the problem."""
        if not self.ok:
            raise AnswerError(self.problem)
        return self.value


@dataclass
class Tally:
    """How a player's answers were read: each rule's use, re-prompts, failures.

    Parameters
    ----------
    rules : collections.Counter
        Rule -> answers it read.
    reprompted, unreadable, answers : int
        Questions asked again; answers still unreadable after the re-prompts; all questions.

    Examples
    --------
    >>> t = Tally()
    >>> t.add(Read("grass", "preamble")); t.add(Read(None, "", "no option", tries=2))
    >>> t.row()["preamble"], t.row()["unreadable"], t.row()["reprompted"], t.row()["answers"]
    (1, 1, 1, 2)
    """

    rules: Counter = field(default_factory=Counter)
    reprompted: int = 0
    unreadable: int = 0
    answers: int = 0

    def add(self, read: Read) -> None:
        self.answers += 1
        self.reprompted += int(read.tries > 1)
        if read.ok:
            self.rules[read.rule] += 1
        else:
            self.unreadable += 1

    def merge(self, other: Tally) -> None:
        self.rules.update(other.rules)
        self.reprompted += other.reprompted
        self.unreadable += other.unreadable
        self.answers += other.answers

    def row(self) -> dict:
        """``answers``, one count per rule of :data:`READ_RULES`, ``reprompted``, ``unreadable``."""
        return {
            "answers": self.answers,
            **{r: int(self.rules.get(r, 0)) for r in READ_RULES},
            "reprompted": self.reprompted,
            "unreadable": self.unreadable,
        }


def reprompts_of(player) -> int:
    """How many times ``player`` is asked again after an unreadable answer.

    Parameters
    ----------
    player : object
        A subject; its ``reprompts`` attribute, else :data:`DEFAULT_REPROMPTS`.

    Returns
    -------
    int

    Examples
    --------
    >>> class P:
    ...     reprompts = 3
    >>> reprompts_of(P()), reprompts_of(object())
    (3, 1)
    """
    return int(getattr(player, "reprompts", DEFAULT_REPROMPTS))


def _read_one(read: Callable, question: Question, answer, tries: int, structured) -> Read:
    try:
        got = read(answer, question)
    except AnswerError as exc:
        return Read(None, "", str(exc), tries)
    if got.rule == "exact" and structured is not None and structured(question):
        return Read(got.value, "structured", "", tries)
    return Read(got.value, got.rule, "", tries)


def ask_and_read(
    player,
    questions: Sequence[Question],
    read: Callable[[str, Question], Reading],
    *,
    tally: Tally | None = None,
) -> list[Read]:
    """Ask ``questions``, read each answer with ``read``; ask again where it cannot be read.

    Parameters
    ----------
    player : Player
        The subject that answers (its ``reprompts``: how many times an unreadable answer is
        asked again, default :data:`DEFAULT_REPROMPTS`).
    questions : sequence of Question
    read : callable
        ``read(answer, question) -> Reading``; raises
        :class:`~wordgames.subjects.AnswerError` saying what is wrong.
    tally : Tally or None
        Counts each outcome (rule, re-prompt, failure).

    Returns
    -------
    list of Read
        In the questions' order.

    Examples
    --------
    >>> from wordgames.subjects import PlayerSubject, read_choice
    >>> class Learner(PlayerSubject):  # rambles first, answers when told what was wrong
    ...     def answer(self, q):
    ...         return "cat" if q.history else "I am not sure"
    ...     def identity(self):
    ...         return {"kind": "learner"}
    >>> q = Question("oddmanout", "solver", {"words": ("cat", "dog")}, "Which?")
    >>> ask_and_read(Learner("l"), [q], lambda a, q: read_choice(a, q.fields["words"]))
    [Read(value='cat', rule='exact', problem='', tries=2)]
    """
    questions = list(questions)
    structured = getattr(player, "structured_for", None)
    answers = answer_all(player, questions)
    reads = [_read_one(read, q, a, 1, structured) for q, a in zip(questions, answers, strict=True)]
    for attempt in range(2, reprompts_of(player) + 2):
        bad = [i for i, r in enumerate(reads) if not r.ok]
        if not bad:
            break
        again = [questions[i] for i in bad]
        again = [q.retry(answers[i], reads[i].problem) for q, i in zip(again, bad, strict=True)]
        for i, q, a in zip(bad, again, answer_all(player, again), strict=True):
            questions[i], answers[i] = q, a
            reads[i] = _read_one(read, q, a, attempt, structured)
    if tally is not None:
        for r in reads:
            tally.add(r)
    unread = sum(not r.ok for r in reads)
    note = getattr(player, "note_unreadable", None)  # a model subject counts them in its usage
    if unread and callable(note):
        note(unread)
    return reads


def take_tally(agent) -> Tally | None:
    """How ``agent``'s player's answers were read since the last call (``None``: no player).

    An agent that asks a player keeps its :class:`Tally` in ``agent._tally``.

    Parameters
    ----------
    agent : object
        An agent; one with a ``player`` attribute asks a player.

    Returns
    -------
    Tally or None
        Emptied from the agent: the next call counts from here.

    Examples
    --------
    >>> class A:
    ...     player = "p"
    >>> a = A(); a._tally = Tally(unreadable=2)
    >>> take_tally(a).unreadable, take_tally(a).unreadable, take_tally(object())
    (2, 0, None)
    """
    if not hasattr(agent, "player"):
        return None
    return agent.__dict__.pop("_tally", None) or Tally()


def format_failure_score(result, dataset: str, subject: str, metric: str, n_unread: int,
                         n_items: int) -> None:  # fmt: skip
    """Append the ``format_failures`` row: the share of ``n_items`` whose answer was unreadable.

    ``n_unread`` is the number of items that got the game's "no move" (weighted as the
    game's scores are). The interval is Wilson's 95 % score interval, inside [0, 1].

    Parameters
    ----------
    result : MeasureResult
        Where the row goes.
    dataset, subject, metric : str
        The row's names (the metric: the measure's ``format_failures`` metric).
    n_unread, n_items : int
        Unreadable items, and all items played.

    Examples
    --------
    >>> from wordgames.measure import MeasureResult
    >>> r = MeasureResult("m", "1")
    >>> format_failure_score(r, "d", "player", "format_failures", 2, 10)
    >>> s = r.scores[0]
    >>> s.value, s.n, s.n_unread, 0 <= s.ci_low <= 0.2 <= s.ci_high <= 1
    (0.2, 10, 2, True)
    """
    from wordgames.stats import wilson_interval

    k = int(n_unread)
    n = int(n_items)
    value = k / n if n else float("nan")
    ci = wilson_interval(k, n) if n else (float("nan"), float("nan"))
    result.score(dataset, subject, metric, value, ci=ci, n=n, n_unread=k)


def answers_read_row(dataset: str, agent: str, tally: Tally, task: str = "") -> dict:
    """A row of a game's ``answers_read`` table (:func:`answers_read_table`).

    Parameters
    ----------
    dataset, agent : str
        The data set and the agent that asked.
    tally : Tally
        How its answers were read.
    task : str
        The game's task, where it has several (``"navigator"``, ``"solver"``).

    Returns
    -------
    dict

    Examples
    --------
    >>> row = answers_read_row("d", "player", Tally(answers=3, unreadable=1))
    >>> row["agent"], row["answers"], row["unreadable"]
    ('player', 3, 1)
    """
    return {"dataset": dataset, "agent": agent, "task": task, **tally.row()}
