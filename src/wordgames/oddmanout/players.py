"""The Odd-Man-Out solver driven by a *player* subject (:mod:`wordgames.subjects`).

:class:`PlayerSolver` shows the player each puzzle's words (in the order every solver sees
them) and asks which one does not belong and the category the others share (``bus: fruits``),
or ``none``. ``none`` is an abstention (reason ``"abstained"``); an answer that names no word
of the puzzle is an abstention with reason ``"unreadable-answer"``, counted among the
abstentions by reason, never a guess. The category is kept beside the choice (``named``,
``not-named`` when the answer gives only the word, ``unreadable`` when what follows the colon
is not a short phrase of words); :mod:`wordgames.oddmanout.categories` compares it with the
WordNet solver's explanation.
"""

from __future__ import annotations

import re

import numpy as np

from wordgames.oddmanout.embedding_solver import Solution
from wordgames.params import Params
from wordgames.prompts import template
from wordgames.reading import Tally, ask_and_read
from wordgames.subjects import AnswerError, Question, Reading, read_choice

#: the prompt (``wordgames/prompts/oddmanout_solver.txt``) and its version
PROMPT, PROMPT_VERSION = template("oddmanout_solver")
_PHRASE = re.compile(r"^[a-z][a-z' -]*$")
#: the most words a category may have
MAX_CATEGORY_WORDS = 6


def read_answer(answer: str, words) -> Reading:
    """:func:`parse_answer`'s triple and the rule that read the word (``Reading``).

    >>> read_answer("The odd one out is **bus**: the others are fruits.", ["apple", "bus"]).rule
    'preamble'
    """
    head, colon, tail = str(answer).strip().partition(":")
    try:  # "word: category", the format asked for
        got = read_choice(head, words, allow_none=True)
    except AnswerError:  # another form ("Answer: grass"): the word read from the whole answer
        got = read_choice(answer, words, allow_none=True)
        return Reading((got.value, None, "not-named"), got.rule)
    picked = got.value
    text = tail.strip().rstrip(".").strip().strip("\"'`").strip().lower()
    if not colon or not text or picked is None:
        return Reading((picked, None, "not-named"), got.rule)
    text = " ".join(text.split())
    if not _PHRASE.match(text) or len(text.split()) > MAX_CATEGORY_WORDS:
        return Reading((picked, None, "unreadable"), got.rule)
    rule = got.rule
    if rule == "exact" and str(answer).strip() != f"{picked}: {text}":  # case, spaces, a "."
        rule = "tidy" if str(answer).strip().lower() != f"{picked}: {text}" else "case"
    return Reading((picked, text, "named"), rule)


def parse_answer(answer: str, words) -> tuple[str | None, str | None, str]:
    """``(odd word or None for "none", category or None, category status)`` of an answer.

    The word is read as a careful person reads it (:func:`~wordgames.subjects.read_choice`:
    from what comes before the first colon, else from the whole answer; an
    :class:`~wordgames.subjects.AnswerError` when no single word of the puzzle is named); the
    category is what follows the first colon, lower-cased: ``named``, ``not-named`` (no
    colon, nothing after it, or the word not before it) or ``unreadable`` (not a phrase of at
    most six words).

    >>> parse_answer("Bus: Fruits.", ["apple", "bus", "pear"])
    ('bus', 'fruits', 'named')
    >>> parse_answer("bus", ["apple", "bus", "pear"])
    ('bus', None, 'not-named')
    >>> parse_answer("bus: 42!", ["apple", "bus", "pear"])
    ('bus', None, 'unreadable')
    """
    return read_answer(answer, words).value


class PlayerSolver(Params):
    """An Odd-Man-Out solver that asks a player.

    Parameters
    ----------
    player : Player
        The subject that answers.

    Examples
    --------
    >>> from wordgames.oddmanout.puzzles import PuzzleSet
    >>> from wordgames.subjects import PlayerSubject
    >>> class First(PlayerSubject):
    ...     def answer(self, q):
    ...         return q.fields["words"][0]
    ...     def identity(self):
    ...         return {"kind": "first"}
    >>> ps = PuzzleSet.from_odd_first("t", [["grass", "cherry", "apple", "pear", "plum"]], seed=None)
    >>> PlayerSolver(First("f")).solve(ps).choice.tolist()
    [0]
    """

    name = "player"
    #: what the notes and parameters of a run say (the player sees the words as they are)
    mwe = case = "as given"

    def __init__(self, player):
        self.player = player

    def question(self, words) -> Question:
        prompt = PROMPT.format(words=", ".join(words))
        fields = {"words": tuple(words)}
        return Question("oddmanout", "solver", fields, prompt, PROMPT_VERSION, answer_tokens=24,
                        form="word-category")  # fmt: skip

    def solve(self, puzzles) -> Solution:
        """The player's answer to every puzzle, asked together (:func:`answer_all`)."""
        P, n = puzzles.words.shape
        choice = np.full(P, -1, dtype=np.int64)
        reason = np.full(P, "", dtype=object)
        category = np.full(P, None, dtype=object)
        status = np.full(P, "", dtype=object)  # of the category, where a word was chosen
        listed = [[str(w) for w in puzzles.words[p]] for p in range(P)]
        tally = Tally()
        reads = ask_and_read(
            self.player,
            [self.question(words) for words in listed],
            lambda answer, q: read_answer(answer, q.fields["words"]),
            tally=tally,
        )
        for p, (words, read) in enumerate(zip(listed, reads, strict=True)):
            if not read.ok:  # the game's "no move": an abstention, counted by its reason
                reason[p] = "unreadable-answer"
                continue
            picked, category[p], how = read.value
            if picked is None:
                reason[p] = "abstained"
            else:
                choice[p], status[p] = words.index(picked), how
        return Solution(
            "player",
            choice,
            reason,
            np.zeros((P, n)),
            parameters={"player": self.player.identity(), "prompt_version": PROMPT_VERSION},
            oov={"puzzles_with_oov": 0, "oov_words": 0},
            extra={"category": category, "category_status": status, "reading": tally},
        )

    def describe(self) -> dict:
        return {"solver": "player", "player": self.player.identity()}
