"""Codenames agents driven by a *player* subject (:mod:`wordgames.subjects`).

:class:`PlayerSender` asks the player for its ``n_clues`` best clues for (blue, red), best
first, each with a number. Algorithm 4's rank of a person's clue is its position in that list;
a clue the player did not list is known only to rank below ``n_clues`` (a *censored* rank), so
a player sender is scored by the statistics that need no more than that: hits@10 and the
reciprocal rank truncated at 10 (``mrr@10``), which the embedding senders get on the same
records (a clue ranked below 10 counts 0 in both). One request per record; ``give_clue`` (for
self-play) asks the same question and gives the first listed clue with its number.

:class:`PlayerReceiver` asks the player to order the board words for a clue; the order is the
receiver's ``ranked_forward`` (Algorithm 5's ranking). For a guess (Algorithm 7, self-play) it
asks for ``number`` guesses, as the paper's receiver makes them, read by :func:`parse_guesses`.
Every answer is read as a careful person reads it (:func:`~wordgames.subjects.read_ranking`,
:func:`read_guesses`, :func:`read_clues`) and asked again once where it cannot be read
(:func:`~wordgames.reading.ask_and_read`); what still cannot be read is a format failure, the
game's "no move" for the record (the board as shown, no guess, no clue listed), in ``n`` and
counted (``unread``), never a skip.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from wordgames.codenames.agents import Agent
from wordgames.codenames.board import Board, ClueRules
from wordgames.prompts import template
from wordgames.reading import Tally
from wordgames.subjects import (
    _NUMBERING,
    AnswerError,
    Question,
    Reading,
    loosest,
    read_items,
    read_ranking,
)

#: the receiver's prompt (``wordgames/prompts/codenames_receiver.txt``) and its version (part
#: of the question, hence of the player's answers)
PROMPT, PROMPT_VERSION = template("codenames_receiver")
SENDER_PROMPT, SENDER_PROMPT_VERSION = template("codenames_sender")
GUESS_PROMPT, GUESS_PROMPT_VERSION = template("codenames_guess")
SCORE_PROMPT, SCORE_PROMPT_VERSION = template("codenames_receiver_logprob")
CLUE_SCORE_PROMPT, CLUE_SCORE_PROMPT_VERSION = template("codenames_sender_logprob")


_Q = "\"'“”‘’*_`"
_CLUE_NUMBER = re.compile(
    rf"^[{_Q}(\[]*([a-z][a-z'’-]*)[{_Q})\]]*\s*(?:[:,=(\[–—-]|for|x)?\s*[(\[]?\s*(\d{{1,2}})(?!\w)"
)
_CLUE_ALONE = re.compile(rf"^[{_Q}(\[]*([a-z][a-z'’-]*)[{_Q})\]]*\s*(?:$|[-–—:(,]\s*)")
_LABELS = re.compile(r"\b(?:clue|number|count|words?)\s*[:=]\s*", re.IGNORECASE)


def _clue_items(answer: str) -> list[str]:
    """A clue a line; on one line, a clue a comma or semicolon (``pet 2, fur 1``)."""
    lines = [ln for ln in str(answer).splitlines() if ln.strip()]
    if len(lines) == 1:
        lines = re.split(r"[;,]\s*(?=[^\d\s])", lines[0])
    return [_NUMBERING.sub("", ln).strip() for ln in lines if ln.strip()]


def _read_clue(item: str) -> tuple[str, int | None, str] | None:
    """``(clue, number or None, rule)`` of one item, or ``None`` when it is no clue."""
    text = _LABELS.sub("", item).strip().lower()
    m = _CLUE_NUMBER.match(text)
    if m is not None:
        clue, number = m.group(1).replace("’", "'"), int(m.group(2))
        plain = f"{clue} {number}"
        if item.strip() == plain:
            return clue, number, "exact"
        if item.strip().lower() == plain:
            return clue, number, "case"
        rest = text[m.end() :].strip().strip(_Q + ")].").strip()
        return clue, number, "reason" if rest else "tidy"
    m = _CLUE_ALONE.match(text)
    return None if m is None else (m.group(1).replace("’", "'"), None, "partial")


def read_clues(answer: str, board_words, rules: ClueRules | None = None):
    r"""The ``(clue, number)`` pairs ``answer`` lists, in its order, and the rule that read them.

    A clue a line (on one line, a clue a comma), each read as a careful person reads it:
    numbering, markdown and quotes, ``clue (2)``, ``clue, 2``, ``clue: 2``, ``Clue: pet,
    Number: 2`` and a reason after the number are fine (rules ``tidy``, ``reason``); a clue
    without a number is read with number 1 (rule ``partial``). An item that is no single word
    and a number, a clue listed again, and a clue the board's rules forbid (a board word) are
    passed over (rule ``partial``). An answer with no legal clue raises
    :class:`~wordgames.subjects.AnswerError`, saying why.

    >>> read_clues("1. **Ocean** (2) - waves\nwheels: 1", ["dog", "car"])
    Reading(value=[('ocean', 2), ('wheels', 1)], rule='reason')
    >>> read_clues("dog 1", ["dog", "cat"])
    Traceback (most recent call last):
    ...
    wordgames.subjects.AnswerError: the clue 'dog' is not legal: it is a board word
    """
    rules = rules or ClueRules()
    out: list[tuple[str, int]] = []
    used: list[str] = []
    problems: list[str] = []
    for item in _clue_items(answer):
        got = _read_clue(item)
        if got is None:
            problems.append(f"the answer lists {item[:80]!r}, which is not a word and a number")
            used.append("partial")
            continue
        clue, number, rule = got
        why = rules.why_illegal(clue, board_words)
        if why is not None:
            problems.append(f"the clue {clue!r} is not legal: {why}")
        elif clue in (c for c, _ in out):
            problems.append(f"the answer lists the clue {clue!r} twice")
        else:
            out.append((clue, 1 if number is None else number))
            used.append(rule)
            continue
        used.append("partial")
    if not out:
        raise AnswerError(problems[0] if problems else "the answer lists no clue")
    rule = loosest(used)
    if rule == "exact" and str(answer).strip() != "\n".join(f"{c} {n}" for c, n in out):
        rule = "tidy"  # numbering, one line
    return Reading(out, rule)


def parse_clues(answer: str, board_words, rules: ClueRules | None = None) -> list[tuple[str, int]]:
    r"""The ``(clue, number)`` pairs of :func:`read_clues`.

    >>> parse_clues("1. pet 2\nwheels 1", ["dog", "cat", "car"])
    [('pet', 2), ('wheels', 1)]
    """
    return read_clues(answer, board_words, rules).value


def read_guesses(answer: str, board_words, number: int) -> Reading:
    r"""The board words ``answer`` guesses, in its order: the first ``number`` of them.

    A guess a line (or, on one line, a guess a comma), each read as a careful person reads it
    (:func:`~wordgames.subjects.read_choice` among the board words: numbering, markdown and a
    reason after the word are fine); an item that names no single board word (a heading, a
    remark) and a word guessed again are passed over. Fewer than ``number`` guesses are the
    receiver's play (Algorithm 7 scores the guesses made); beyond ``number`` none is read.
    An answer that guesses no board word raises :class:`~wordgames.subjects.AnswerError`.

    >>> read_guesses("1. **Dog**\n2. cat (it purrs)", ["dog", "cat", "car"], 2)
    Reading(value=['dog', 'cat'], rule='reason')
    >>> read_guesses("dog\ncar\ncat", ["dog", "cat", "car"], 1).value
    ['dog']
    """
    out, used = read_items(answer, [str(w) for w in board_words], limit=number)
    if not out:
        raise AnswerError(f"the answer {str(answer)[:80]!r} guesses no board word")
    rule = loosest(used)
    if rule == "exact" and str(answer).strip() not in {"\n".join(out), ", ".join(out)}:
        rule = "tidy"
    return Reading(out, rule)


def parse_guesses(answer: str, board_words, number: int) -> list[str]:
    """The guesses of :func:`read_guesses`."""
    return read_guesses(answer, board_words, number).value


def _ask_distinct(agent, questions, read) -> None:
    """Ask each distinct question once, read its answer (re-prompting once); keep the reads."""
    from wordgames.reading import ask_and_read

    distinct = list({_key(q): q for q in questions}.items())
    tally = agent.__dict__.setdefault("_tally", Tally())
    reads = ask_and_read(agent.player, [q for _, q in distinct], read, tally=tally)
    agent._ahead = {k: r for (k, _), r in zip(distinct, reads, strict=True)}


def _asked(agent, question: Question, read):
    """What :meth:`ask_ahead` read for ``question``, else the player's answer read now.

    The same question gets the same answer (a chat subject's from its cache), so an answer
    asked ahead serves every record that asks it, until the next ``ask_ahead``.
    """
    ahead = agent.__dict__.get("_ahead") or {}
    if _key(question) not in ahead:
        _ask_distinct(agent, [question], read)
        ahead = agent._ahead
    return ahead[_key(question)].get()


def _key(question: Question) -> tuple:
    """A question by its content (the same prompt gets the same answer)."""
    return (question.game, question.role, question.prompt_version, question.prompt)


class PlayerSender(Agent):
    r"""A Codenames sender that asks a player for its best clues.

    Parameters
    ----------
    player : Player
        The subject that answers (:class:`~wordgames.subjects.Player`).
    n_clues : int
        How many clues it is asked for (at least 10, so that hits@10 and mrr@10 are defined);
        clues listed beyond it are not counted.

    Examples
    --------
    >>> from wordgames.subjects import PlayerSubject
    >>> class Fixed(PlayerSubject):
    ...     def answer(self, q):
    ...         return "pet 2\nwheels 1"
    ...     def identity(self):
    ...         return {"kind": "fixed"}
    >>> s = PlayerSender(Fixed("f"))
    >>> s.ranked_forward(["dog", "cat"], ["car"])
    ['pet', 'wheels']
    >>> s.give_clue(Board(("dog", "cat"), ("car",)))
    ('pet', 2)
    """

    name = "player-sender"

    def __init__(self, player, n_clues: int = 10):
        if int(n_clues) < 10:
            raise ValueError(f"n_clues must be at least 10 (hits@10 needs 10), got {n_clues}")
        self.player = player
        self.n_clues = int(n_clues)

    def question(self, blue, red) -> Question:
        prompt = SENDER_PROMPT.format(k=self.n_clues, blue="\n".join(blue), red="\n".join(red))
        fields = {"blue": tuple(blue), "red": tuple(red), "n_clues": self.n_clues}
        tokens = 8 + 5 * self.n_clues  # a clue and a number a line: about 4 tokens
        return Question("codenames", "sender", fields, prompt, SENDER_PROMPT_VERSION,
                        answer_tokens=tokens, form="clues")  # fmt: skip

    @staticmethod
    def _read(rules=None):
        def read(answer, q):
            return read_clues(answer, [*q.fields["blue"], *q.fields["red"]], rules)

        return read

    def ask_ahead(self, boards) -> None:
        """Ask the questions of ``boards`` (``(blue, red)`` pairs) together; kept until read."""
        questions = [self.question(list(b), list(r)) for b, r in boards]
        _ask_distinct(self, questions, self._read())

    def clues(self, blue, red, rules: ClueRules | None = None) -> list[tuple[str, int]]:
        """The player's ``(clue, number)`` pairs for (blue, red), best first, at most ``n_clues``."""
        question = self.question(list(blue), list(red))
        if rules is not None and rules != ClueRules():  # read by these rules, not the defaults
            self.__dict__.pop("_ahead", None)
        return _asked(self, question, self._read(rules))[: self.n_clues]

    def ranked_forward(self, blue, red) -> list[str]:
        return [c for c, _ in self.clues(blue, red)]

    def give_clue(self, board: Board) -> tuple[str, int]:
        """The first listed clue not yet given on this board state, with its number."""
        for clue, number in self.clues(board.blue, board.red, board.rules):
            if clue not in board.given_clues:
                return clue, number
        raise AnswerError("every clue the answer lists was already given on this board")


class PlayerReceiver(Agent):
    """A Codenames receiver that asks a player.

    Parameters
    ----------
    player : Player
        The subject that answers (:class:`~wordgames.subjects.Player`).

    Examples
    --------
    >>> from wordgames.subjects import PlayerSubject
    >>> class Alphabetical(PlayerSubject):
    ...     def answer(self, q):
    ...         return ", ".join(sorted(q.fields["board"]))
    ...     def identity(self):
    ...         return {"kind": "alphabetical"}
    >>> PlayerReceiver(Alphabetical("abc")).ranked_forward(["dog", "cat", "car"], "pet")
    ['car', 'cat', 'dog']
    """

    name = "player-receiver"

    def __init__(self, player):
        self.player = player

    def question(self, board_words: Sequence[str], clue: str) -> Question:
        prompt = PROMPT.format(clue=clue, board="\n".join(board_words))
        fields = {"board": tuple(board_words), "clue": clue}
        # a word a line: about 3 tokens each
        tokens = 8 + 4 * len(board_words)
        return Question("codenames", "receiver", fields, prompt, PROMPT_VERSION,
                        answer_tokens=tokens, form="ranking")  # fmt: skip

    def guess_question(self, board_words: Sequence[str], clue: str, number: int) -> Question:
        """Algorithm 7's question: ``number`` guesses for the clue, not a whole ordering."""
        number = max(1, int(number))
        prompt = GUESS_PROMPT.format(clue=clue, number=number, board="\n".join(board_words))
        fields = {"board": tuple(board_words), "clue": clue, "number": number}
        return Question("codenames", "receiver", fields, prompt, GUESS_PROMPT_VERSION,
                        answer_tokens=8 + 4 * number, form="guesses")  # fmt: skip

    def ask_ahead(self, items) -> None:
        """Ask the questions of ``items`` together; kept until read.

        ``(board words, clue)`` pairs ask for orderings (Algorithm 5), ``(board words, clue,
        number)`` triples for guesses (Algorithm 7).
        """
        questions = [
            self.question(list(it[0]), it[1]) if len(it) == 2 else self.guess_question(*it)
            for it in items
        ]
        _ask_distinct(self, questions, _read_receiver)

    def ranked_forward(self, board_words: Sequence[str], clue: str) -> list[str]:
        return _asked(self, self.question(list(board_words), clue), _read_receiver)

    def guess(self, board_words: Sequence[str], clue: str, number: int) -> list[str]:
        """The player's guesses for the clue (asked for ``number`` of them, as people are)."""
        return _asked(self, self.guess_question(list(board_words), clue, number), _read_receiver)


def _read_receiver(answer, q: Question) -> Reading:
    """A receiver's answer: guesses where it was asked for some, else an ordering."""
    if "number" in q.fields:
        return read_guesses(answer, q.fields["board"], q.fields["number"])
    return read_ranking(answer, q.fields["board"])


class LogprobReceiver(Agent):
    """A Codenames receiver that orders the board by each word's log-probability after the clue.

    The scorer (:class:`~wordgames.subjects.Scorer`) is given a text that ends where the word
    the clue points to would follow (``prompts/codenames_receiver_logprob.txt``) and scores
    each board word as its continuation: the summed log-probability of its tokens, so one
    request per board word. Ties keep the board's order. With ``per_token`` the sum is divided
    by the word's length in characters (a proxy for its tokens), which takes away part of the
    advantage of short words.

    Examples
    --------
    >>> from wordgames.testing import TableScorer
    >>> scorer = TableScorer({"dog": -1.0, "cat": -0.5, "car": -3.0})
    >>> LogprobReceiver(scorer).ranked_forward(["dog", "cat", "car"], "pet")
    ['cat', 'dog', 'car']
    """

    name = "logprob-receiver"

    def __init__(self, scorer, per_token: bool = False):
        self.scorer = scorer
        self.per_token = bool(per_token)

    def question(self, board_words: Sequence[str], clue: str) -> Question:
        prompt = SCORE_PROMPT.format(clue=clue, board=", ".join(board_words)).rstrip("\n")
        fields = {"board": tuple(board_words), "clue": clue}
        return Question("codenames", "receiver", fields, prompt, SCORE_PROMPT_VERSION, 0)

    def ranked_forward(self, board_words: Sequence[str], clue: str) -> list[str]:
        words = list(board_words)
        scores = self.scorer.score(self.question(words, clue), words)
        if self.per_token:
            scores = [s / max(len(w), 1) for s, w in zip(scores, words, strict=True)]
        order = sorted(range(len(words)), key=lambda i: -scores[i])  # stable: board order
        return [words[i] for i in order]

    def guess(self, board_words: Sequence[str], clue: str, number: int) -> list[str]:
        return self.ranked_forward(board_words, clue)[:number]


class LogprobSender(Agent):
    """A Codenames sender that ranks a *given* set of clues by their log-probability.

    A model that generates cannot rank a whole vocabulary; given the clues a person chose from
    (a source with ``meta["candidate_clues"]``: the same candidates for every subject), it
    scores each as the continuation of a text that names the target and avoided words and ends
    where the clue would follow (``prompts/codenames_sender_logprob.txt``): one request per
    candidate. The person's clue is then ranked among the candidates exactly as every other
    sender ranks it there (``human_sender.mean_rank_candidates``); on free-choice records it
    gives no rank and is not listed (``candidates_only``).

    Examples
    --------
    >>> from wordgames.testing import TableScorer
    >>> scorer = TableScorer({"pet": -1.0, "wheels": -4.0, "fur": -1.0})
    >>> LogprobSender(scorer).score_candidates(["dog", "cat"], ["car"], ["pet", "wheels", "fur"])
    [-1.0, -4.0, -1.0]
    """

    name = "logprob-sender"
    #: ranks only given candidates: no rank among a whole vocabulary, no free clue
    candidates_only = True

    def __init__(self, scorer):
        self.scorer = scorer

    def question(self, blue, red) -> Question:
        prompt = CLUE_SCORE_PROMPT.format(blue=", ".join(blue), red=", ".join(red)).rstrip("\n")
        fields = {"blue": tuple(blue), "red": tuple(red)}
        return Question("codenames", "sender", fields, prompt, CLUE_SCORE_PROMPT_VERSION, 0)

    def score_candidates(self, blue, red, candidates) -> list[float]:
        """Log P(" clue" | the text) of each candidate, in the candidates' order."""
        return list(self.scorer.score(self.question(list(blue), list(red)), list(candidates)))
