"""A Codenames board (blue and red words) and the rules a clue must obey.

The paper's game (section 1.1): ``T`` board words, ``G`` of them blue ("good"), the rest red.
The Sender knows the colours, the Receiver does not. A clue is a single vocabulary word that
is never a board word; further rules (no substring, no shared stem) are options of
:class:`ClueRules`.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

import numpy as np

from wordgames.errors import WordgamesError


class IllegalClueError(WordgamesError, ValueError):
    """A clue breaks the rules of the board (it is a board word, or shares a stem with one...)."""


def _norm(word: str) -> str:
    return str(word).strip().lower()


def derive_rng(random_state: int | None, *parts) -> np.random.Generator:
    """A generator that depends only on ``random_state`` and the given parts (words...).

    Agents draw their randomness per board from this, so that their answer for a board does
    not depend on the order in which boards are evaluated.
    """
    key = zlib.crc32("\x1f".join(map(str, parts)).encode("utf-8"))
    seed = 0 if random_state is None else int(random_state)
    return np.random.default_rng([seed & 0xFFFFFFFF, key])


@dataclass(frozen=True)
class ClueRules:
    """Rules a clue must obey besides "never a board word" (which always holds).

    Parameters
    ----------
    no_substring : forbid clues that contain a board word or are contained in one
        (``"firefighter"`` for ``"fire"``); checked with vectorised string search.
    no_shared_stem : forbid clues with the same Porter stem as a board word
        (``"dogs"`` for ``"dog"``), irregular plurals included (``"feet"`` for ``"foot"``,
        :data:`IRREGULAR_PLURALS`); needs nltk.

    Examples
    --------
    >>> rules = ClueRules(no_shared_stem=True)
    >>> rules.is_legal("feet", ["foot", "bank"]), rules.is_legal("dogs", ["dog"])
    (False, False)
    >>> rules.is_legal("toe", ["foot"]), ClueRules().is_legal("feet", ["foot"])
    (True, True)
    """

    no_substring: bool = False
    no_shared_stem: bool = False

    def get_params(self) -> dict:
        return {"no_substring": self.no_substring, "no_shared_stem": self.no_shared_stem}

    def is_legal(self, clue: str, board_words: Iterable[str]) -> bool:
        return self.why_illegal(clue, board_words) is None

    def why_illegal(self, clue: str, board_words: Iterable[str]) -> str | None:
        """Why ``clue`` may not be given for these board words, in words; ``None`` if it may.

        >>> ClueRules(no_shared_stem=True).why_illegal("feet", ["foot", "bank"])
        "it shares a stem with the board word 'foot'"
        """
        clue = _norm(clue)
        words = [_norm(w) for w in board_words]
        if not clue:
            return "it is empty"
        if clue in words:
            return "it is a board word"
        # a multi-word board word forbids each of its tokens too ("ice" for "ice cream")
        for w in words:
            if clue in w.replace("-", " ").split():
                return f"it is part of the board word {w!r}"
        if self.no_substring:
            for w in words:
                if clue in w or w in clue:
                    return f"it contains, or is inside, the board word {w!r}"
        if self.no_shared_stem:
            s = stem(clue)
            for w in words:
                if any(stem(t) == s for t in w.replace("-", " ").split()):
                    return f"it shares a stem with the board word {w!r}"
        return None

    def excluded_rows(
        self, vocabulary: np.ndarray, word_index: dict[str, int], board_words: Iterable[str]
    ) -> np.ndarray:
        """Rows of ``vocabulary`` that may not be clues for a board (sorted, unique).

        ``vocabulary`` is the clue vocabulary (object array); ``word_index`` maps word -> row.
        """
        words = [_norm(w) for w in board_words]
        rows = set()
        for w in words:
            for t in {w, *w.replace("-", " ").split()}:
                r = word_index.get(t)
                if r is not None and r < len(vocabulary):
                    rows.add(r)
        if self.no_substring and words:
            arr = _unicode_vocab(vocabulary)
            mask = np.zeros(len(arr), dtype=bool)
            for w in words:
                mask |= np.strings.find(arr, w) >= 0
                # the clue inside the board word: only words no longer than w can be
                mask |= np.isin(arr, np.array(_substrings(w), dtype=arr.dtype))
            rows.update(np.flatnonzero(mask).tolist())
        if self.no_shared_stem and words:
            rows.update(_same_stem_rows(vocabulary, words))
        return np.array(sorted(rows), dtype=np.int64)


def _substrings(word: str) -> list[str]:
    return sorted({word[i:j] for i in range(len(word)) for j in range(i + 1, len(word) + 1)})


_UNICODE_CACHE: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _unicode_vocab(vocabulary: np.ndarray) -> np.ndarray:
    key = id(vocabulary.base if vocabulary.base is not None else vocabulary)
    hit = _UNICODE_CACHE.get(key)
    if hit is not None and len(hit[1]) == len(vocabulary):
        return hit[1]
    arr = np.asarray(vocabulary.tolist(), dtype=str)
    _UNICODE_CACHE.clear()
    _UNICODE_CACHE[key] = (vocabulary, arr)
    return arr


#: plurals that the Porter stemmer does not bring back to their singular (``feet`` stems to
#: ``feet``): the stem rule reads them as their singular
IRREGULAR_PLURALS = {
    "feet": "foot",
    "teeth": "tooth",
    "geese": "goose",
    "men": "man",
    "women": "woman",
    "mice": "mouse",
    "lice": "louse",
    "children": "child",
    "people": "person",
    "oxen": "ox",
    "dice": "die",
    "knives": "knife",
    "wives": "wife",
    "lives": "life",
    "leaves": "leaf",
    "wolves": "wolf",
    "halves": "half",
    "shelves": "shelf",
    "thieves": "thief",
    "loaves": "loaf",
    "calves": "calf",
}

#: British and American spellings of one word that no suffix rule below brings together
SPELLING_VARIANTS = {
    "grey": "gray",
    "aluminium": "aluminum",
    "tyre": "tire",
    "plough": "plow",
    "mum": "mom",
    "jewellery": "jewelry",
    "pyjamas": "pajamas",
    "moustache": "mustache",
    "doughnut": "donut",
    "sceptic": "skeptic",
    "kerb": "curb",
    "draught": "draft",
}
#: British endings (with their inflections) and the American ones; the look-behind keeps
#: short words alone (``four``, ``hour``, ``rise``)
_SPELLING_RULES = (
    (r"(?<=\w{3})our(s|ed|ing|ful|ite|ites|able)?$", r"or\1"),
    (r"(?<=\w{2})tre(s|d)?$", r"ter\1"),
    (r"(?<=\w{2})bre(s)?$", r"ber\1"),
    (r"(?<=\w{3})is(e|es|ed|ing|ation|ations|er|ers)$", r"iz\1"),
    (r"(?<=\w{3})ys(e|es|ed|ing)$", r"yz\1"),
    (r"(?<=\w{4})ogue(s)?$", r"og\1"),
    (r"(?<=\w{3})ence(s)?$", r"ense\1"),
)


def american(word: str) -> str:
    """One spelling for British and American variants (``centre`` and ``center``).

    Applied to the clue and to the board words alike, so that a variant of a board word is
    refused as its stem is; a rare collision only forbids one more clue.

    >>> [american(w) for w in ("centre", "colours", "organised", "grey", "fibre", "defence")]
    ['center', 'colors', 'organized', 'gray', 'fiber', 'defense']
    >>> american("four"), american("rise"), american("dog")
    ('four', 'rise', 'dog')
    """
    w = SPELLING_VARIANTS.get(word, word)
    for british, us in _compiled_rules():
        w, n = british.subn(us, w)
        if n:
            break
    return w


@cache
def _compiled_rules():
    import re

    return tuple((re.compile(b), us) for b, us in _SPELLING_RULES)


_STEMMER = None


def _stemmer():
    global _STEMMER
    if _STEMMER is None:
        from nltk.stem import PorterStemmer

        _STEMMER = PorterStemmer()
    return _STEMMER


def stem(word: str) -> str:
    """The Porter stem of ``word``, with variants brought together.

    An irregular plural is read as its singular, a British spelling as the American one
    (:func:`american`).

    >>> stem("feet") == stem("foot"), stem("dogs") == stem("dog"), stem("toe") == stem("foot")
    (True, True, False)
    >>> stem("centre") == stem("center"), stem("colours") == stem("color")
    (True, True)
    """
    w = _norm(word)
    s = _stemmer().stem(american(IRREGULAR_PLURALS.get(w, w)))
    return _stemmer().stem(SPELLING_VARIANTS[s]) if s in SPELLING_VARIANTS else s


def _same_stem_rows(vocabulary: np.ndarray, words: Sequence[str]) -> set[int]:
    """Rows whose stem equals a board word's stem.

    Only words sharing the first 3 letters with the stem can share it, so the vocabulary is filtered
    by prefix with a vectorised test first.
    """
    arr = _unicode_vocab(vocabulary)
    rows: set[int] = set()
    for w in words:
        for t in w.replace("-", " ").split():
            s = stem(t)
            prefix = s[:3]
            cand = np.flatnonzero(np.strings.startswith(arr, prefix))
            # irregular plurals and some variants do not share the first letters (feet, foot)
            extra = [p for p, single in IRREGULAR_PLURALS.items() if stem(single) == s]
            extra += [v for v in (*SPELLING_VARIANTS, *SPELLING_VARIANTS.values()) if stem(v) == s]
            cand = np.union1d(cand, np.flatnonzero(np.isin(arr, extra))) if extra else cand
            rows.update(int(r) for r in cand if stem(str(arr[r])) == s)
    return rows


@dataclass(frozen=True)
class Board:
    """Blue and red words of one board.

    Parameters
    ----------
    blue : the words the team must find
    red : every other board word (the paper's R: opponents, bystanders, assassin)
    rules : clue rules of this board
    order : display order of all board words (default: alphabetical)
    given_clues : clues already given on this very board state (they may not be given again
        until a word is taken off; :meth:`without` starts a new state without them)

    Examples
    --------
    >>> b = Board(blue=("dog", "cat"), red=("car",))
    >>> b.words
    ('car', 'cat', 'dog')
    >>> b.is_legal_clue("animal"), b.is_legal_clue("Dog")
    (True, False)
    >>> b.without(["dog"]).blue
    ('cat',)
    """

    blue: tuple[str, ...]
    red: tuple[str, ...]
    rules: ClueRules = field(default_factory=ClueRules)
    order: tuple[str, ...] = ()
    given_clues: tuple[str, ...] = ()

    def __post_init__(self):
        blue = tuple(_norm(w) for w in self.blue)
        red = tuple(_norm(w) for w in self.red)
        both = set(blue) & set(red)
        if both:
            raise ValueError(f"words are both blue and red: {sorted(both)}")
        if len(set(blue)) != len(blue) or len(set(red)) != len(red):
            raise ValueError("a board word appears twice")
        object.__setattr__(self, "blue", blue)
        object.__setattr__(self, "red", red)
        order = tuple(_norm(w) for w in self.order) if self.order else tuple(sorted(blue + red))
        if sorted(order) != sorted(blue + red):
            raise ValueError("order must list exactly the board words")
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "given_clues", tuple(_norm(c) for c in self.given_clues))

    @property
    def words(self) -> tuple[str, ...]:
        """All board words in display order."""
        return self.order

    def color(self, word: str) -> str:
        w = _norm(word)
        if w in self.blue:
            return "blue"
        if w in self.red:
            return "red"
        raise KeyError(f"{word!r} is not on the board")

    def is_legal_clue(self, clue: str) -> bool:
        return _norm(clue) not in self.given_clues and self.rules.is_legal(clue, self.words)

    def with_clue_given(self, clue: str) -> Board:
        """The same board state, on which ``clue`` has now been given (and may not be again)."""
        return replace(self, given_clues=(*self.given_clues, _norm(clue)))

    def check_clue(self, clue: str) -> str:
        """The normalised clue, or :class:`IllegalClueError` saying why not."""
        c = _norm(clue)
        if not c or " " in c:
            raise IllegalClueError(f"a clue is one word, got {clue!r}")
        if c in self.given_clues:
            raise IllegalClueError(f"{clue!r} was already given on this board: give another clue")
        why = self.rules.why_illegal(c, self.words)
        if why:
            raise IllegalClueError(f"{clue!r} is not a legal clue on this board: {why}")
        return c

    def without(self, words: Iterable[str]) -> Board:
        """The board once ``words`` are guessed (taken off)."""
        gone = {_norm(w) for w in words}
        return Board(
            tuple(w for w in self.blue if w not in gone),
            tuple(w for w in self.red if w not in gone),
            self.rules,
            tuple(w for w in self.order if w not in gone),
        )

    @classmethod
    def random(
        cls,
        words: Sequence[str],
        n_blue: int,
        n_red: int,
        seed: int | None = 0,
        rules: ClueRules | None = None,
    ) -> Board:
        """Draw ``n_blue + n_red`` distinct words from ``words`` (seeded); display order shuffled."""
        pool = sorted({_norm(w) for w in words})
        if n_blue + n_red > len(pool):
            raise ValueError(f"need {n_blue + n_red} distinct words, the list has {len(pool)}")
        rng = np.random.default_rng(seed)
        pick = rng.choice(len(pool), size=n_blue + n_red, replace=False)
        chosen = [pool[i] for i in pick]
        return cls(
            tuple(chosen[:n_blue]),
            tuple(chosen[n_blue:]),
            rules or ClueRules(),
            tuple(chosen[i] for i in rng.permutation(len(chosen))),
        )


def codenames_word_list(root=None) -> list[str]:
    """The 400-word Codenames list (``codewords.txt`` of the ``codenames-pilot`` data set), lower case."""
    from wordgames.datasets import dataset_file

    path = dataset_file("codenames-pilot", "codewords.txt", root)
    return [w.strip().lower() for w in path.read_text(encoding="utf-8").splitlines() if w.strip()]
