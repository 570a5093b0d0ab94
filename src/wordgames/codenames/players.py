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
An answer that is not an ordering of exactly the board words, or no readable guess, is an
:class:`~wordgames.subjects.AnswerError`: the record is skipped as ``unreadable_answer`` and
counted, never scored as a guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from wordgames.codenames.agents import Agent
from wordgames.codenames.board import Board, ClueRules, _norm
from wordgames.prompts import template
from wordgames.subjects import (
    AnswerError,
    Question,
    _items_of,
    answer_all,
    parse_ranking,
    read_choice,
)

#: the receiver's prompt (``wordgames/prompts/codenames_receiver.txt``) and its version (part
#: of the question, hence of the player's answers)
PROMPT, PROMPT_VERSION = template("codenames_receiver")
SENDER_PROMPT, SENDER_PROMPT_VERSION = template("codenames_sender")
GUESS_PROMPT, GUESS_PROMPT_VERSION = template("codenames_guess")
SCORE_PROMPT, SCORE_PROMPT_VERSION = template("codenames_receiver_logprob")
CLUE_SCORE_PROMPT, CLUE_SCORE_PROMPT_VERSION = template("codenames_sender_logprob")
_CLUE_LINE = re.compile(r"^([a-z][a-z'-]*)\s*[:=-]?\s*(\d+)$")


def parse_clues(answer: str, board_words, rules: ClueRules | None = None) -> list[tuple[str, int]]:
    r"""The ``(clue, number)`` pairs ``answer`` lists, in its order (one per line or comma).

    Strict: every item must be one word and a number, the word a legal clue for the board
    (never a board word) and listed once; otherwise :class:`~wordgames.subjects.AnswerError`
    says which item.

    >>> parse_clues("1. pet 2\nwheels 1", ["dog", "cat", "car"])
    [('pet', 2), ('wheels', 1)]
    >>> parse_clues("dog 1", ["dog", "cat"])
    Traceback (most recent call last):
    ...
    wordgames.subjects.AnswerError: the clue 'dog' is not legal: it is a board word
    """
    rules = rules or ClueRules()
    out: list[tuple[str, int]] = []
    for item in _items_of(str(answer)):
        m = _CLUE_LINE.match(_norm(item))
        if m is None:
            raise AnswerError(f"the answer lists {item[:80]!r}, which is not a word and a number")
        clue, number = m.group(1), int(m.group(2))
        why = rules.why_illegal(clue, board_words)
        if why is not None:
            raise AnswerError(f"the clue {clue!r} is not legal: {why}")
        if clue in (c for c, _ in out):
            raise AnswerError(f"the answer lists the clue {clue!r} twice")
        out.append((clue, number))
    if not out:
        raise AnswerError("the answer lists no clue")
    return out


def parse_guesses(answer: str, board_words, number: int) -> list[str]:
    r"""The board words ``answer`` guesses, in its order: the first ``number`` of them.

    A guess a line (or, on one line, a guess a comma), each read as a careful person reads it
    (:func:`~wordgames.subjects.read_choice` among the board words: numbering, markdown and a
    reason after the word are fine; a heading line ending in ":" before the first guess is
    passed over); an item that names no single board word, or one listed twice, makes the
    answer unreadable (:class:`~wordgames.subjects.AnswerError`). Fewer than ``number``
    guesses are the receiver's play (Algorithm 7 scores the guesses made); beyond ``number``
    none is read.

    >>> parse_guesses("1. **Dog**\n2. cat (it purrs)", ["dog", "cat", "car"], 2)
    ['dog', 'cat']
    >>> parse_guesses("dog\ncar\ncat", ["dog", "cat", "car"], 1)
    ['dog']
    """
    lines = [ln for ln in str(answer).splitlines() if ln.strip()]
    items = lines if len(lines) > 1 else _items_of(str(answer))  # a guess a line, else commas
    out: list[str] = []
    for item in items:
        if len(out) == int(number):
            break
        try:
            word = read_choice(item, board_words).value
        except AnswerError:
            if not out and item.rstrip().endswith(":"):  # a heading ("My guesses:")
                continue
            raise
        if word in out:
            raise AnswerError(f"the answer guesses {word!r} twice")
        out.append(word)
    if not out:
        raise AnswerError("the answer guesses no board word")
    return out


def _ask_distinct(player, questions) -> dict:
    """The player's answer to each distinct question, asked together (in first-asked order)."""
    distinct = list({_key(q): q for q in questions}.items())
    answers = answer_all(player, [q for _, q in distinct])
    return {k: a for (k, _), a in zip(distinct, answers, strict=True)}


def _asked(agent, question: Question) -> str:
    """The answer :meth:`ask_ahead` got for ``question``, else the player's answer now.

    The same question gets the same answer (a chat subject's from its cache), so an answer
    asked ahead serves every record that asks it, until the next ``ask_ahead``.
    """
    ahead = agent.__dict__.get("_ahead") or {}
    if _key(question) in ahead:
        return ahead[_key(question)]
    return agent.player.answer(question)


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
        return Question(
            "codenames", "sender", fields, prompt, SENDER_PROMPT_VERSION, answer_tokens=tokens
        )

    def ask_ahead(self, boards) -> None:
        """Ask the questions of ``boards`` (``(blue, red)`` pairs) together; kept until read."""
        questions = [self.question(list(b), list(r)) for b, r in boards]
        self._ahead = _ask_distinct(self.player, questions)

    def clues(self, blue, red, rules: ClueRules | None = None) -> list[tuple[str, int]]:
        """The player's ``(clue, number)`` pairs for (blue, red), best first, at most ``n_clues``."""
        answer = _asked(self, self.question(list(blue), list(red)))
        return parse_clues(answer, [*blue, *red], rules)[: self.n_clues]

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
        return Question(
            "codenames", "receiver", fields, prompt, PROMPT_VERSION, answer_tokens=tokens
        )

    def guess_question(self, board_words: Sequence[str], clue: str, number: int) -> Question:
        """Algorithm 7's question: ``number`` guesses for the clue, not a whole ordering."""
        number = max(1, int(number))
        prompt = GUESS_PROMPT.format(clue=clue, number=number, board="\n".join(board_words))
        fields = {"board": tuple(board_words), "clue": clue, "number": number}
        return Question("codenames", "receiver", fields, prompt, GUESS_PROMPT_VERSION,
                        answer_tokens=8 + 4 * number)  # fmt: skip

    def ask_ahead(self, items) -> None:
        """Ask the questions of ``items`` together; kept until read.

        ``(board words, clue)`` pairs ask for orderings (Algorithm 5), ``(board words, clue,
        number)`` triples for guesses (Algorithm 7).
        """
        questions = [
            self.question(list(it[0]), it[1]) if len(it) == 2 else self.guess_question(*it)
            for it in items
        ]
        self._ahead = _ask_distinct(self.player, questions)

    def ranked_forward(self, board_words: Sequence[str], clue: str) -> list[str]:
        answer = _asked(self, self.question(list(board_words), clue))
        return parse_ranking(answer, board_words)

    def guess(self, board_words: Sequence[str], clue: str, number: int) -> list[str]:
        """The player's guesses for the clue (asked for ``number`` of them, as people are)."""
        answer = _asked(self, self.guess_question(list(board_words), clue, number))
        return parse_guesses(answer, board_words, number)


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
