"""Codenames agents (paper section 3.1): senders and receivers built on an embedding.

Every agent is configured like a scikit-learn estimator (:class:`~wordgames.params.Params`):
the constructor stores its arguments and nothing else, ``get_params``/``set_params``/``clone``
come from the base class, and :meth:`Agent.describe` gives the JSON-safe record of the
configuration that goes into result records (the embedding by name).

Protocols (runtime-checkable: any object with these members can play and be measured; the
measures dispatch on them with ``isinstance``):

* :class:`Sender`: ``give_clue(board) -> (clue, number)`` and ``ranked_forward(blue, red) ->
  list[str]`` (the whole clue vocabulary, best clue first, board words and other illegal clues
  removed).
* :class:`Receiver`: ``guess(board_words, clue, number) -> list[str]`` and
  ``ranked_forward(board_words, clue) -> list[str]`` (board words, best match first).
* :class:`CountingSender`: a sender on an embedding whose rank of one clue the measures find by
  *counting* the vocabulary words whose sort keys beat it instead of sorting 400,000 words
  (``rank_values``/``count_rank`` on a :class:`BoardGeometry`; see
  :mod:`wordgames.codenames.measures`).
* :class:`DrawnRankSender`: a sender whose rank distribution is known, so the measures draw
  the rank (``draw_rank``).

Ranking conventions (well-defined ranks, issue section 3): a sender orders its clue
vocabulary by its keys, lexicographically ascending (best first). ``ExhaustiveSearchSender``
keys are ``(-count, tie-break score)``; ``ClusterSender``: ``(distance to the centroid,)``;
``RandomSender``: ``(uniform random number,)``. Words with equal keys are *exact ties*; the
measures give them the mean of the tied positions (and report best/worst), and
``ranked_forward`` lists them in vocabulary (frequency) order.

Distances: ``"cosine"`` (1 - cosine similarity, the default) or ``"euclidean"`` (on the raw
vectors). Internally everything works with a *closeness* (higher = nearer): the cosine
similarity, or minus the Euclidean distance.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any, Protocol, runtime_checkable

import numpy as np

from wordgames.codenames.board import Board, ClueRules, _norm, derive_rng
from wordgames.codenames.spec import TIE_BREAKS  # declared once, beside the options
from wordgames.errors import OOVError
from wordgames.exact import cosines, sq_distances, sq_norms
from wordgames.params import Params

DISTANCES = ("cosine", "euclidean")


@runtime_checkable
class Sender(Protocol):
    """Gives clues (``give_clue``) and ranks its clue vocabulary for a board split."""

    def give_clue(self, board: Board) -> tuple[str, int]: ...

    def ranked_forward(self, blue: Sequence[str], red: Sequence[str]) -> list[str]: ...


@runtime_checkable
class Receiver(Protocol):
    """Guesses board words for a clue and ranks the board by it."""

    def guess(self, board_words: Sequence[str], clue: str, number: int) -> list[str]: ...

    def ranked_forward(self, board_words: Sequence[str], clue: str) -> list[str]: ...


@runtime_checkable
class CountingSender(Sender, Protocol):
    """A sender that the measures rank by counting (the fast path).

    Senders with the same ``embedding``, ``distance`` and ``n_vocab`` share one similarity matrix
    per batch (an optional ``needs_similarities = False`` skips the matrix product).
    """

    embedding: Any
    distance: str
    n_vocab: int
    clue_rules: ClueRules

    def excluded_rows(self, board_words: Sequence[str]) -> np.ndarray: ...

    def rank_values(self, geometry: BoardGeometry, col: int) -> tuple: ...

    def count_rank(
        self, geometry: BoardGeometry, values: tuple, own: int | None
    ) -> tuple[int, int]: ...


@runtime_checkable
class DrawnRankSender(Sender, Protocol):
    """A sender whose rank of a given clue is drawn from its known distribution."""

    embedding: Any
    n_vocab: int

    def excluded_rows(self, board_words: Sequence[str]) -> np.ndarray: ...

    def draw_rank(
        self, blue: Sequence[str], red: Sequence[str], clue: str, n_candidates: int
    ) -> int: ...


def _check_choice(what: str, value, choices: Sequence) -> None:
    if value not in choices:
        raise ValueError(f"{what} must be one of {tuple(choices)}, got {value!r}")


class Agent(Params):
    """Base of the Codenames agents: scikit-learn style configuration.

    It also gives a JSON-safe record of the configuration for result records.
    """

    def describe(self) -> dict:
        """The agent's configuration, as result records hold it.

        ``{"agent": class name, parameter: value}`` with the embedding by name and nested
        configurations (clue rules) as dicts.
        """
        return {
            "agent": type(self).__name__,
            **{k: _plain(v) for k, v in self.get_params().items()},
        }


def _plain(value):
    if hasattr(value, "vectors") and hasattr(value, "name"):  # an embedding
        return value.name
    if hasattr(value, "get_params") and not isinstance(value, type):
        return value.get_params()
    if callable(value):
        return getattr(value, "__qualname__", type(value).__name__)
    return value


def agent_params(agent) -> dict:
    """The configuration record of any agent.

    :meth:`Agent.describe`, else ``get_params()`` of a duck-typed agent, else ``{}``.
    """
    if isinstance(agent, Agent):
        return agent.describe()
    get = getattr(agent, "get_params", None)
    return dict(get()) if callable(get) else {}


# --------------------------------------------------------------------------- geometry
class VocabSims:
    """Closeness of clue candidates to a set of board words: one matrix product.

    ``mat[i, j]`` is the closeness of clue candidate ``cols[j]`` to board word ``words[i]``.
    ``cols`` is a slice of embedding rows (default: the whole clue vocabulary, the first
    ``n_vocab`` rows) or an array of rows; the measures walk the vocabulary in slices so that
    the matrix stays small. ``out`` (cosine only): a float32 C array of the matrix's shape to
    write it into.
    """

    def __init__(
        self,
        embedding,
        words: Sequence[str],
        distance: str = "cosine",
        n_vocab: int | None = None,
        cols: slice | np.ndarray | None = None,
        out: np.ndarray | None = None,
    ):
        words = list(dict.fromkeys(_norm(w) for w in words))
        look = embedding.lookup(words)
        if look.n_oov:
            raise OOVError(f"board word(s) not in the vocabulary of {embedding.name}: {look.oov}")
        n = len(embedding) if n_vocab is None else min(int(n_vocab), len(embedding))
        self.n_vocab = n
        self.cols = slice(0, n) if cols is None else cols
        self.words = words
        self.row = {w: i for i, w in enumerate(words)}
        self.distance = distance
        # exact products (wordgames.exact), rounded once to float32: the same numbers whatever
        # the machine, the batch or the slice
        if distance == "cosine":
            u = embedding.unit
            # into ``out`` when given: the same product, without a fresh array's page faults
            self.mat = cosines(u[look.indices], u[self.cols], out=out)
        elif distance == "euclidean":
            g = embedding.raw_grid[0]
            d2 = sq_distances(g[look.indices], g[self.cols], b_sq=_sqnorms(embedding)[self.cols])
            self.mat = (-np.sqrt(d2)).astype(np.float32)
        else:
            raise ValueError(f"distance must be one of {DISTANCES}, got {distance!r}")
        self.n_cols = self.mat.shape[1]

    @property
    def col_rows(self) -> np.ndarray:
        """Embedding rows of the columns."""
        if isinstance(self.cols, slice):
            return np.arange(self.cols.start or 0, (self.cols.start or 0) + self.n_cols)
        return np.asarray(self.cols)

    def rows(self, words: Sequence[str]) -> list[int]:
        return _rows(self.row, words)


def _rows(row: dict, words: Sequence[str]) -> list[int]:
    """Row of each word; words are normalised only when not found as given.

    The measures pass normalised words, and normalising them again costs more than the lookup.
    """
    out = []
    for w in words:
        r = row.get(w)
        out.append(row[_norm(w)] if r is None else r)
    return out


class ColumnSubset:
    """Some columns of a :class:`VocabSims` (the same numbers, gathered)."""

    def __init__(self, sims, local: np.ndarray):
        self.words, self.row, self.n_vocab = sims.words, sims.row, sims.n_vocab
        self.distance = getattr(sims, "distance", "cosine")
        if hasattr(sims, "mat"):
            self.mat = sims.mat[:, local]
        self.n_cols = len(local)
        cols = sims.cols
        # a slice's rows are start + local: no need to build the slice's whole row range
        self.cols = (
            np.asarray(local) + (cols.start or 0)
            if isinstance(cols, slice)
            else sims.col_rows[local]
        )
        self.col_rows = self.cols

    def rows(self, words: Sequence[str]) -> list[int]:
        return _rows(self.row, words)


_SQNORMS: dict[int, tuple[object, np.ndarray]] = {}


def _sqnorms(embedding) -> np.ndarray:
    """Exact squared norms of the embedding's raw grid (:func:`wordgames.exact.raw_grid`)."""
    hit = _SQNORMS.get(id(embedding))
    if hit is None or hit[0] is not embedding:
        hit = (embedding, sq_norms(embedding.raw_grid[0]))
        _SQNORMS.clear()
        _SQNORMS[id(embedding)] = hit
    return hit[1]


class BoardGeometry:
    """Per-(blue, red) quantities over the clue vocabulary, computed once.

    They are shared by every ExhaustiveSearchSender tie-break (each row pass is vectorised over the
    vocabulary).

    For clue word ``w``: ``m`` = closeness of the nearest red word; the *targets* of ``w`` are
    the blue words strictly nearer than every red word, ``count`` their number.
    ``excluded`` (local column indices) are columns that may not be clues (board words...):
    the measures set it so that rank counting ignores them.

    The geometry memoises its own shared quantities (``count_split``, ``m_at``,
    ``targets_stats``) and, through :meth:`memo`, each agent's per-board values under a key
    that starts with the agent itself: an agent never reads what another agent stored.
    """

    def __init__(
        self,
        sims: VocabSims,
        blue: Sequence[str],
        red: Sequence[str],
        excluded: np.ndarray | None = None,
    ):
        self.sims = sims
        self.blue_rows = sims.rows(blue)
        self.red_rows = sims.rows(red)
        self.excluded = np.zeros(0, dtype=np.int64) if excluded is None else excluded
        self.cache: dict = {}  # shared comparisons; agents' entries go through memo()

    @property
    def blue(self) -> list[str]:
        return [self.sims.words[r] for r in self.blue_rows]

    @property
    def red(self) -> list[str]:
        return [self.sims.words[r] for r in self.red_rows]

    def memo(self, owner, key, compute: Callable[[], Any]):
        """``compute()`` once per (``owner``, ``key``) for this geometry.

        The one place where agents keep per-board values (their sort keys, their tie-break scores).
        """
        full = ("agent", id(owner), key)
        hit = self.cache.get(full)
        if hit is None:
            hit = self.cache[full] = compute()
        return hit

    @cached_property
    def m(self) -> np.ndarray:
        mat = self.sims.mat
        if not self.red_rows:
            return np.full(self.sims.n_cols, -np.inf, dtype=np.float32)
        out = mat[self.red_rows[0]].copy()
        for r in self.red_rows[1:]:
            np.maximum(out, mat[r], out=out)
        return out

    @cached_property
    def count(self) -> np.ndarray:
        m, mat = self.m, self.sims.mat
        small = len(self.blue_rows) < 127
        c = np.zeros(self.sims.n_cols, dtype=np.int8 if small else np.int16)
        hit = np.empty(self.sims.n_cols, dtype=bool)
        for b in self.blue_rows:
            np.greater(mat[b], m, out=hit)
            # adding the bytes of the boolean array avoids a casting loop
            c += hit.view(np.int8) if small else hit
        return c

    @cached_property
    def blue_max(self) -> np.ndarray:
        """Closeness of the nearest blue word."""
        mat = self.sims.mat
        if not self.blue_rows:
            return np.full(self.sims.n_cols, -np.inf, dtype=np.float32)
        out = mat[self.blue_rows[0]].copy()
        for b in self.blue_rows[1:]:
            np.maximum(out, mat[b], out=out)
        return out

    def blue_block(self, idx: np.ndarray) -> np.ndarray:
        """Closeness of the columns ``idx`` to each blue word, shape (|B|, len(idx))."""
        return self.sims.mat[np.ix_(self.blue_rows, idx)]

    @cached_property
    def count_masked(self) -> np.ndarray:
        """``count`` with excluded columns set to -1, so that they never compare equal."""
        c = self.count.copy()
        c[self.excluded] = -1
        return c

    def count_split(self, c: int) -> tuple[int, np.ndarray]:
        """Columns with more targets than ``c`` (counted) and with exactly ``c`` (listed).

        Excluded columns are in neither; the list is sorted. Cached: every tie-break and every clue
        shares it.
        """
        key = ("count_split", c)
        hit = self.cache.get(key)
        if hit is None:
            cm = self.count_masked
            hit = self.cache[key] = (int(np.count_nonzero(cm > c)), np.flatnonzero(cm == c))
        return hit

    def m_at(self, idx: np.ndarray) -> np.ndarray:
        """``m[idx]``, gathered once per index array.

        The tie-breaks and target statistics of one count share it.
        """
        key = ("m_at", id(idx))
        hit = self.cache.get(key)
        if hit is None or hit[0] is not idx:
            hit = self.cache[key] = (idx, self.m[idx])
        return hit[1]

    def targets_stats(self, idx: np.ndarray, c: int) -> tuple[np.ndarray, np.ndarray]:
        """Mean and minimum target closeness of columns ``idx``, which all have ``c`` targets.

        With ``c == 0`` the nearest blue word stands in. Rows are accumulated in a fixed order so
        that a column gets the same value whichever subset it is computed in.
        """
        key = ("targets", c, id(idx))
        hit = self.cache.get(key)
        if hit is not None and hit[0] is idx:
            return hit[1]
        if c <= 1:  # no target: the nearest blue word stands in; one target: it is the nearest
            bm = self.blue_max[idx]
            out = (bm, bm)
        else:
            m = self.m_at(idx)
            block = self.blue_block(idx)
            total = np.zeros(len(idx), dtype=np.float32)
            low = np.full(len(idx), np.inf, dtype=np.float32)
            for row in block:
                hit_ = row > m
                total += np.where(hit_, row, np.float32(0))
                np.minimum(low, np.where(hit_, row, np.float32(np.inf)), out=low)
            out = (total / np.float32(c), low)
        self.cache[key] = (idx, out)
        return out


def count_beating(
    keys: Sequence[np.ndarray],
    values: Sequence,
    excluded: np.ndarray | None = None,
    own: int | None = None,
) -> tuple[int, int]:
    """How many rows have keys lexicographically smaller than ``values`` and how many equal.

    Rows ``excluded`` and row ``own`` are ignored (one comparison pass per key, no sort; the few
    ignored rows are subtracted afterwards rather than masked).
    """
    if len(keys) == 1:
        k, v = keys[0], values[0]
        less, eq = k < v, k == v
    else:
        less = np.zeros(len(keys[0]), dtype=bool)
        eq = np.ones(len(keys[0]), dtype=bool)
        for k, v in zip(keys, values, strict=True):
            less |= eq & (k < v)
            eq &= k == v
    n_less, n_eq = int(np.count_nonzero(less)), int(np.count_nonzero(eq))
    drop = [] if excluded is None else list(np.asarray(excluded).tolist())
    if own is not None and own not in drop:
        drop.append(own)
    if drop:
        n_less -= int(np.count_nonzero(less[drop]))
        n_eq -= int(np.count_nonzero(eq[drop]))
    return n_less, n_eq


def rank_by_counting(
    keys: Sequence[np.ndarray], target: int, excluded: np.ndarray | None = None
) -> tuple[int, int]:
    """Best and worst 1-based rank of row ``target`` when rows are sorted by ``keys``.

    The order is lexicographic and ascending, ignoring ``excluded`` rows. Rows with the same keys as
    ``target`` are ties: best counts none of them before it, worst all of them; the mean rank is
    ``(best + worst) / 2``.

    >>> rank_by_counting([np.array([3., 1., 2., 1.])], 2)
    (3, 3)
    >>> rank_by_counting([np.array([1., 1., 0.]), np.array([5., 5., 9.])], 0)
    (2, 3)
    """
    beats, ties = count_beating(keys, [k[target] for k in keys], excluded, target)
    return beats + 1, beats + 1 + ties


def lexicographic_best(keys: Sequence[np.ndarray], excluded: np.ndarray) -> int:
    """Row with the smallest keys (lexicographic) among rows not excluded; ties: lowest row."""
    allowed = np.ones(len(keys[0]), dtype=bool)
    allowed[excluded] = False
    cand = np.flatnonzero(allowed)
    if cand.size == 0:
        raise ValueError("no legal clue left in the vocabulary")
    for k in keys:
        v = k[cand]
        cand = cand[v == v.min()]
    return int(cand[0])


# --------------------------------------------------------------------------- senders
class _EmbeddingSender(Agent):
    """Common machinery: clue vocabulary = the first ``vocab_size`` rows of the embedding.

    ``rules`` (:class:`~wordgames.codenames.board.ClueRules`, default: none beyond "never a
    board word") is kept as given; :attr:`clue_rules` resolves the default.
    """

    kind = "sender"
    needs_similarities = True

    def __init__(
        self,
        embedding,
        *,
        distance: str = "cosine",
        vocab_size: int | None = None,
        rules: ClueRules | None = None,
    ):
        _check_choice("distance", distance, DISTANCES)
        self.embedding = embedding
        self.distance = distance
        self.vocab_size = vocab_size
        self.rules = rules

    @property
    def clue_rules(self) -> ClueRules:
        return ClueRules() if self.rules is None else self.rules

    @property
    def n_vocab(self) -> int:
        n = len(self.embedding)
        return n if self.vocab_size is None else min(n, int(self.vocab_size))

    @property
    def vocabulary(self) -> np.ndarray:
        return self.embedding.words[: self.n_vocab]

    def describe(self) -> dict:
        return {**super().describe(), "rules": self.clue_rules.get_params()}

    def excluded_rows(self, board_words: Sequence[str]) -> np.ndarray:
        return self.clue_rules.excluded_rows(
            self.vocabulary, self.embedding.word_index, board_words
        )

    # the one method each sender defines
    def clue_keys(self, geometry: BoardGeometry) -> list[np.ndarray]:  # pragma: no cover
        raise NotImplementedError

    # what the measures call: the clue's own keys, and counting in one vocabulary slice
    def _cached_keys(self, geometry: BoardGeometry) -> list[np.ndarray]:
        return geometry.memo(self, "keys", lambda: self.clue_keys(geometry))

    def rank_values(self, geometry: BoardGeometry, col: int) -> tuple:
        return tuple(k[col] for k in self._cached_keys(geometry))

    def count_rank(
        self, geometry: BoardGeometry, values: tuple, own: int | None
    ) -> tuple[int, int]:
        return count_beating(self._cached_keys(geometry), values, geometry.excluded, own)

    def _geometry(self, blue, red) -> BoardGeometry:
        blue = [_norm(w) for w in blue]
        red = [_norm(w) for w in red]
        sims = VocabSims(self.embedding, blue + red, self.distance, self.n_vocab)
        return BoardGeometry(sims, blue, red)

    def ranked_forward(self, blue: Sequence[str], red: Sequence[str]) -> list[str]:
        """The whole clue vocabulary, best clue first (board words and illegal clues removed).

        Exact ties come in vocabulary (frequency) order.
        """
        geom = self._geometry(blue, red)
        keys = self.clue_keys(geom)
        order = np.lexsort((np.arange(self.n_vocab), *reversed(keys)))
        excl = np.zeros(self.n_vocab, dtype=bool)
        excl[self.excluded_rows(list(blue) + list(red))] = True
        order = order[~excl[order]]
        return self.vocabulary[order].tolist()

    def clue_number(self, geometry: BoardGeometry, row: int) -> int:  # pragma: no cover
        raise NotImplementedError

    def give_clue(self, board: Board) -> tuple[str, int]:
        """The best legal clue for the board and its number.

        Legal: by the sender's own rules and the board's (``board.rules``), and not a clue
        already given on this board state (``board.given_clues``).
        """
        geom = self._geometry(board.blue, board.red)
        excl = self.board_excluded_rows(board)
        row = lexicographic_best(self.clue_keys(geom), excl)
        return str(self.vocabulary[row]), int(self.clue_number(geom, row))

    def board_excluded_rows(self, board: Board) -> np.ndarray:
        """Rows that may not be the clue for ``board`` (see :meth:`give_clue`)."""
        excl = [self.excluded_rows(board.words)]
        if board.rules != self.clue_rules:
            excl.append(
                board.rules.excluded_rows(self.vocabulary, self.embedding.word_index, board.words)
            )
        index = self.embedding.word_index
        given = [index[c] for c in board.given_clues if index.get(c, self.n_vocab) < self.n_vocab]
        excl.append(np.asarray(given, dtype=np.int64))
        return np.unique(np.concatenate(excl)).astype(np.int64)


class ExhaustiveSearchSender(_EmbeddingSender):
    """For every vocabulary word, count the blue words nearer to it than every red word.

    The clue maximises the count (the paper's Algorithm 2 says argmin: a typo), ties broken by
    ``tie_break``.

    Parameters
    ----------
    embedding : :class:`~wordgames.embeddings.Embedding`
    tie_break : "avg_blue_dist" (minimise the mean distance to the targets), "max_blue_dist"
        (minimise the distance to the farthest target), "max_radius" (maximise the distance to
        the nearest red word), "red_blue_diff" (maximise nearest-red distance minus
        farthest-target distance), or "frequency" (the most frequent word: the paper's
        "first optimal clue" of Table 1). A word with no target uses its nearest blue word as
        its target in the first, second and fourth.
    distance, vocab_size, rules : see the module docstring

    Examples
    --------
    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> emb = Embedding(["a", "b", "r", "x", "y"],
    ...                 np.array([[1, 0], [.9, .1], [-1, 0], [.95, .05], [0, 1.]]))
    >>> ExhaustiveSearchSender(emb).ranked_forward(["a", "b"], ["r"])
    ['x', 'y']
    """

    def __init__(
        self,
        embedding,
        tie_break: str = "avg_blue_dist",
        *,
        distance: str = "cosine",
        vocab_size: int | None = None,
        rules: ClueRules | None = None,
    ):
        _check_choice("tie_break", tie_break, TIE_BREAKS)
        super().__init__(embedding, distance=distance, vocab_size=vocab_size, rules=rules)
        self.tie_break = tie_break

    @property
    def name(self) -> str:
        return f"exhaustive:{self.tie_break}"

    def tie_scores(self, geometry: BoardGeometry, idx: np.ndarray, c: int) -> np.ndarray:
        """Tie-break score (lower is better) of columns ``idx``, which all have ``c`` targets.

        Scores are in closeness terms (higher closeness = nearer), so "minimise a distance" is
        "maximise a closeness".
        """
        g = geometry
        if self.tie_break == "frequency":
            return g.sims.col_rows[idx]
        if self.tie_break == "max_radius":
            return g.m_at(idx)
        mean, low = g.targets_stats(idx, c)
        if self.tie_break == "avg_blue_dist":
            return -mean
        if self.tie_break == "max_blue_dist":
            return -low
        return g.m_at(idx) - low  # red_blue_diff: margin = d(nearest red) - d(farthest target)

    def clue_keys(self, geometry: BoardGeometry) -> list[np.ndarray]:
        count = geometry.count
        score = np.empty(len(count), dtype=np.float64)
        for c in np.unique(count):
            idx = np.flatnonzero(count == c)
            score[idx] = self.tie_scores(geometry, idx, int(c))
        return [-count, score]

    def rank_values(self, geometry: BoardGeometry, col: int) -> tuple:
        c = int(geometry.count[col])
        return c, float(self.tie_scores(geometry, np.array([col]), c)[0])

    def count_rank(
        self, geometry: BoardGeometry, values: tuple, own: int | None
    ) -> tuple[int, int]:
        """Columns of this slice that beat the clue, and ties.

        More targets beat it; among columns with as many targets only the tie-break decides
        (computed on those alone, once per slice and count for every clue).
        """
        c, sv = values
        more, idx = geometry.count_split(c)
        if idx.size == 0:
            return more, 0
        score = geometry.memo(self, ("tie_scores", c), lambda: self.tie_scores(geometry, idx, c))
        less, eq = int(np.count_nonzero(score < sv)), int(np.count_nonzero(score == sv))
        if own is not None:  # the clue itself is not its own competitor
            pos = int(np.searchsorted(idx, own))
            if pos < idx.size and idx[pos] == own:
                less -= bool(score[pos] < sv)
                eq -= bool(score[pos] == sv)
        return more + less, eq

    def clue_number(self, geometry, row):
        return max(1, int(geometry.count[row]))


class ClusterSender(_EmbeddingSender):
    """k-means on the board words; the largest cluster holding only blue words gives the clue.

    k-means runs from random initial points, with several k and several restarts. The clue is the
    vocabulary word nearest the cluster's centroid, with the cluster's size as the number
    (Algorithm 1).

    Parameters
    ----------
    embedding : :class:`~wordgames.embeddings.Embedding`
    n_restarts : k-means runs per k
    max_clusters : k runs over 1..min(max_clusters, number of board words)
    max_iter : Lloyd iterations per run
    random_state : seed; each board's runs are seeded by it and the board's words, so the
        answer for a board does not depend on the order boards are evaluated in
    distance, vocab_size, rules : see the module docstring

    Notes
    -----
    Among all-blue clusters of the same size the tightest (least mean squared distance to its
    centre) wins. If no run yields an all-blue cluster (possible only when max_clusters is
    below the number of board words), the blue word farthest from every red word is the
    cluster. k-means runs on the unit vectors (cosine) or the raw vectors (euclidean); all
    restarts and all k of a board run in one compiled loop (:func:`batched_kmeans`) because
    per-board scikit-learn calls would dominate the measure's running time.
    """

    def __init__(
        self,
        embedding,
        *,
        n_restarts: int = 10,
        max_clusters: int = 10,
        max_iter: int = 50,
        random_state: int | None = 0,
        distance: str = "cosine",
        vocab_size: int | None = None,
        rules: ClueRules | None = None,
    ):
        super().__init__(embedding, distance=distance, vocab_size=vocab_size, rules=rules)
        self.n_restarts = n_restarts
        self.max_clusters = max_clusters
        self.max_iter = max_iter
        self.random_state = random_state

    name = "cluster"

    def choose_cluster(self, blue: Sequence[str], red: Sequence[str]) -> tuple[str, ...]:
        """The blue words of the chosen cluster (sorted)."""
        setup = self._kmeans_setup(blue, red)
        if not isinstance(setup, list):
            return setup
        words, x, is_blue, rng, ks = setup
        labels = batched_kmeans(x, ks, int(self.n_restarts), rng, int(self.max_iter))[0]
        return _cluster_words(words, x, is_blue, _largest_blue_cluster(x, is_blue, labels))

    def choose_clusters(self, splits: Sequence[tuple]) -> list[tuple[str, ...]]:
        """:meth:`choose_cluster` of many ``(blue, red)`` splits: the same answers.

        Each split's runs start from its own seeded draws, as alone; the k-means runs and the
        cluster codes of every split are one compiled call
        (:func:`~wordgames.codenames._kernels.kmeans_codes`), which releases the GIL. A split
        with one blue word, a word out of the vocabulary or more than 62 words goes alone.
        """
        out: list = [None] * len(splits)
        index = self.embedding.word_index
        boards = []  # (split index, words, their rows, blue mask, seeded generator)
        for i, (blue, red) in enumerate(splits):
            blue = [_norm(w) for w in blue]
            red = [_norm(w) for w in red]
            words = sorted(blue + red)
            rows = [index.get(w) for w in words]
            if len(blue) < 2 or None in rows or len(words) > 62:
                out[i] = self.choose_cluster(blue, red)
                continue
            blue_set = set(blue)
            rng = self._board_rng(blue, red)
            boards.append((i, words, rows, [w in blue_set for w in words], rng))
        if boards:
            for (i, words, _rows, _blue, _rng), x, is_blue, sets in _kmeans_many(self, boards):
                member = None if sets is None else _tightest(x, is_blue, sets)
                out[i] = _cluster_words(words, x, is_blue, member)
        return out

    def cluster_for(self, blue: Sequence[str], red: Sequence[str]) -> tuple[str, ...]:
        """:meth:`choose_cluster`, remembered per board split.

        It is kept in ``clusters_``, the agent's own fitted state: every vocabulary slice and
        ``clue_number`` ask again.
        """
        return self.clusters_for([(blue, red)])[0]

    def clusters_for(self, splits: Sequence[tuple]) -> list[tuple[str, ...]]:
        """:meth:`cluster_for` of many splits: those not remembered by :meth:`choose_clusters`."""
        cache = self.__dict__.setdefault("clusters_", {})
        keys = [(tuple(sorted(blue)), tuple(sorted(red))) for blue, red in splits]
        todo = list(dict.fromkeys(k for k in keys if k not in cache))
        found = dict(zip(todo, self.choose_clusters(todo), strict=True))
        found.update((k, cache[k]) for k in keys if k in cache)
        if len(cache) + len(todo) > 1 << 14:
            cache.clear()
        cache.update(found)
        return [found[k] for k in keys]

    def _kmeans_setup(self, blue, red):
        """The board for k-means, or the answer itself (a tuple) when it needs no k-means.

        The board is a list ``[words (sorted), vectors, blue mask, seeded generator, ks]``.
        """
        blue = [_norm(w) for w in blue]
        red = [_norm(w) for w in red]
        words = sorted(blue + red)
        if not blue:
            raise ValueError("a board needs at least one blue word")
        x, _ = self.embedding.vectors_for(words, normalized=self.distance == "cosine", oov="raise")
        if len(blue) == 1:
            # the only all-blue cluster any run can yield is the blue word itself, and without
            # one the fallback picks the blue word farthest from the red ones: the same word
            return tuple(blue)
        x = np.asarray(x, dtype=np.float64)
        blue_set = set(blue)
        is_blue = np.array([w in blue_set for w in words], dtype=bool)
        ks = list(range(1, min(int(self.max_clusters), len(words)) + 1))
        return [words, x, is_blue, self._board_rng(blue, red), ks]

    def _board_rng(self, blue: list[str], red: list[str]) -> np.random.Generator:
        """The generator of a board's initial points: the seed and the board's words."""
        return derive_rng(self.random_state, *sorted(blue), "|", *sorted(red))

    def _centroid_keys(self, geometry: BoardGeometry, cluster: Sequence[str]) -> list[np.ndarray]:
        sims = geometry.sims
        if self.distance == "cosine":
            # cos(w, centroid) orders like w . mean(unit b) = mean of the board rows
            acc = np.zeros(sims.n_cols, dtype=np.float32)
            for r in sims.rows(cluster):
                acc += sims.mat[r]
            return [-acc]
        # |w - centroid|^2 is the mean of |w - x|^2 over the members less a constant of the
        # cluster: their sum (exact squared distances, added in the cluster's order) orders alike
        g = self.embedding.raw_grid[0]
        rows = self.embedding.lookup(list(cluster)).indices
        d2 = sq_distances(g[rows], g[sims.cols], b_sq=_sqnorms(self.embedding)[sims.cols])
        acc = d2[0].copy()
        for row in d2[1:]:
            acc += row
        return [acc]

    def clue_keys(self, geometry: BoardGeometry) -> list[np.ndarray]:
        return self._centroid_keys(geometry, self.cluster_for(geometry.blue, geometry.red))

    def clue_number(self, geometry, row):
        return len(self.cluster_for(geometry.blue, geometry.red))


def batched_kmeans(
    x: np.ndarray, ks: Sequence[int], n_restarts: int, rng: np.random.Generator, max_iter: int = 50
):
    """Lloyd's k-means for every k in ``ks`` and ``n_restarts`` random initial points each.

    The initial points are drawn here (distinct points per run); the runs are one compiled loop
    (:func:`wordgames.codenames._kernels.lloyd`, on the board's Gram matrix: no BLAS call, so it
    runs beside the similarity products and releases the GIL). Returns ``(labels (runs, n),
    k (runs,))``.
    """
    from wordgames.codenames._kernels import lloyd

    x = np.ascontiguousarray(x, dtype=np.float64)
    karr, init = _initial_points(x.shape[0], ks, n_restarts, rng)
    labels = np.zeros((len(karr), x.shape[0]), dtype=np.int64)
    lloyd(x, karr, np.ascontiguousarray(init, dtype=np.int64), int(max_iter), labels)
    return labels, karr


def _initial_points(n: int, ks, n_restarts: int, rng) -> tuple[np.ndarray, np.ndarray]:
    """``(k of each run, its initial points)``: distinct random points of ``n``, per run."""
    ks = [k for k in ks if 1 <= k <= n]
    karr = np.repeat(np.asarray(ks, dtype=np.int64), n_restarts)
    init = np.argsort(rng.random((len(karr), n)), axis=1)[:, : max(ks)]
    return karr, init


def _kmeans_many(sender: ClusterSender, boards: list):
    """``(board, points, blue mask, member sets or None)`` of :meth:`ClusterSender.choose_clusters`.

    The points and initial points are those :meth:`ClusterSender.choose_cluster` gives its
    :func:`batched_kmeans` (the draws of each board's own generator).
    """
    from wordgames.codenames._kernels import kmeans_codes

    emb = sender.embedding
    mat = emb.unit if sender.distance == "cosine" else emb.vectors
    x = np.asarray(mat[[r for b in boards for r in b[2]]], dtype=np.float64)
    xp = _offsets([b[1] for b in boards])
    karrs, inits = [], []
    for _i, words, _rows, _blue, rng in boards:
        ks = range(1, min(int(sender.max_clusters), len(words)) + 1)
        karr, init = _initial_points(len(words), ks, int(sender.n_restarts), rng)
        karrs.append(karr)
        inits.append(init.ravel())
    is_blue = np.fromiter((v for b in boards for v in b[3]), dtype=bool, count=int(xp[-1]))
    best, codes, cp = kmeans_codes(
        x,
        xp,
        np.concatenate(karrs),
        _offsets(karrs),
        np.concatenate(inits).astype(np.int64),
        _offsets(inits),
        int(sender.max_iter),
        is_blue,
    )
    for b, board in enumerate(boards):
        lo, hi = int(xp[b]), int(xp[b + 1])
        c = codes[cp[b] : cp[b + 1]]
        sets = ((c[:, None] >> np.arange(hi - lo - 1, -1, -1, dtype=np.int64)) & 1).astype(bool)
        yield board, x[lo:hi], is_blue[lo:hi], sets if best[b] else None


def _offsets(arrays) -> np.ndarray:
    """Where each array starts in their concatenation, and the total at the end."""
    out = np.zeros(len(arrays) + 1, dtype=np.int64)
    out[1:] = np.cumsum([len(a) for a in arrays])
    return out


def _distinct_rows(mask: np.ndarray) -> np.ndarray:
    """Distinct rows of a boolean matrix (in the order of ``np.unique(mask, axis=0)``).

    Each row is coded as one integer, which is much faster than ``np.unique`` on rows.
    """
    n = mask.shape[1]
    if n > 62:
        return np.unique(mask, axis=0)
    codes = mask.astype(np.int64) @ (np.int64(1) << np.arange(n - 1, -1, -1, dtype=np.int64))
    _, first = np.unique(codes, return_index=True)
    return mask[first]


def _cluster_words(words, x, is_blue, member) -> tuple[str, ...]:
    if member is None:  # no all-blue cluster: the blue word farthest from every red word
        d2 = ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1)
        iso = np.where(is_blue, np.where(is_blue[None, :], np.inf, d2).min(1), -np.inf)
        member = np.zeros(len(words), dtype=bool)
        member[int(np.argmax(iso))] = True
    return tuple(w for w, m in zip(words, member, strict=True) if m)


def _largest_blue_sets(labels, is_blue) -> np.ndarray | None:
    """The distinct member sets of the largest all-blue clusters of any run (``np.unique`` order).

    ``None`` when no run has an all-blue cluster. Up to 62 board words a compiled loop codes
    each cluster as one integer (:func:`~wordgames.codenames._kernels.blue_cluster_codes`).
    """
    n = labels.shape[1]
    if n <= 62:
        from wordgames.codenames._kernels import blue_cluster_codes

        best, codes = blue_cluster_codes(labels, np.ascontiguousarray(is_blue, dtype=np.bool_))
        if best == 0:
            return None
        return ((codes[:, None] >> np.arange(n - 1, -1, -1, dtype=np.int64)) & 1).astype(bool)
    kmax = int(labels.max()) + 1
    onehot = labels[:, :, None] == np.arange(kmax)  # (runs, n, kmax)
    size = onehot.sum(1)
    nonblue = (onehot & ~is_blue[None, :, None]).sum(1)
    ok = (size > 0) & (nonblue == 0)
    if not ok.any():
        return None
    best = size[ok].max()
    cand = np.argwhere(ok & (size == best))
    return _distinct_rows(onehot[cand[:, 0], :, cand[:, 1]])


def _largest_blue_cluster(x, is_blue, labels) -> np.ndarray | None:
    """Membership mask of the chosen cluster: the largest all-blue cluster of any run.

    Among distinct clusters of that size the tightest (mean squared distance to its centre), then
    the one whose centre is farthest from every red word, then the first in board order. Each
    distinct cluster is scored by the same computation, so the choice does not depend on rounding
    inside the runs.
    """
    sets = _largest_blue_sets(labels, is_blue)
    return sets if sets is None else _tightest(x, is_blue, sets)


def _tightest(x, is_blue, sets: np.ndarray) -> np.ndarray:
    """The chosen set of :func:`_largest_blue_cluster` among distinct member sets (rows)."""
    if len(sets) == 1:
        return sets[0]
    red = x[~is_blue]
    scored = []
    for i, members in enumerate(sets):
        c = x[members].mean(0)
        spread = float(((x[members] - c) ** 2).sum(1).mean())
        margin = float(((red - c) ** 2).sum(1).min()) if len(red) else 0.0
        scored.append((spread, -margin, tuple(np.flatnonzero(members)), i))
    return sets[min(scored)[3]]


class RandomSender(_EmbeddingSender):
    """Ranks the clue vocabulary in a random order (a uniform random key per word).

    Seeded by ``random_state`` and the board; the number is drawn from 1..|blue|. The sanity
    baseline: the rank of any clue is uniform, so its mean rank is about (|V| + 1) / 2.

    The measures use :meth:`draw_rank`: the position of a given clue in a uniformly random
    order of ``n`` candidates is uniform on 1..n, so it is drawn directly (exact in
    distribution, seeded by the board and the clue) instead of ordering the vocabulary.
    """

    #: no similarities are computed: the distance plays no part
    distance = "cosine"
    needs_similarities = False  # the measures skip the matrix product for it

    def __init__(
        self,
        embedding,
        *,
        random_state: int | None = 0,
        vocab_size: int | None = None,
        rules: ClueRules | None = None,
    ):
        self.embedding = embedding
        self.random_state = random_state
        self.vocab_size = vocab_size
        self.rules = rules

    name = "random-sender"

    def draw_rank(
        self, blue: Sequence[str], red: Sequence[str], clue: str, n_candidates: int
    ) -> int:
        rng = derive_rng(
            self.random_state,
            *sorted(map(_norm, blue)),
            "|",
            *sorted(map(_norm, red)),
            "|",
            _norm(clue),
        )
        return int(rng.integers(1, n_candidates + 1))

    def board_draws(self, blue: Sequence[str], red: Sequence[str]) -> tuple[int, int]:
        """The clue number and the seed of the vocabulary's keys for a board split.

        Drawn from ``random_state`` and the split (remembered in ``draws_``, the agent's own state).
        """
        cache = self.__dict__.setdefault("draws_", {})
        blue, red = sorted(blue), sorted(red)
        key = (tuple(blue), tuple(red))
        hit = cache.get(key)
        if hit is None:
            if len(cache) > 4096:
                cache.clear()
            rng = derive_rng(self.random_state, *blue, "|", *red)
            hit = cache[key] = (
                int(rng.integers(1, max(1, len(blue)) + 1)),
                int(rng.integers(0, 2**63)),
            )
        return hit

    def clue_keys(self, geometry: BoardGeometry) -> list[np.ndarray]:
        _number, seed = self.board_draws(geometry.blue, geometry.red)
        # key of vocabulary row i = the i-th draw of a stream of its own: the same value
        # whichever slice of the vocabulary is asked for (PCG64 jumps ahead without drawing)
        cols = geometry.sims.cols
        if isinstance(cols, slice):
            bg = np.random.PCG64(seed)
            bg.advance(cols.start or 0)
            return [np.random.Generator(bg).random(geometry.sims.n_cols)]
        out = np.empty(len(cols))
        for j, r in enumerate(np.asarray(cols)):
            bg = np.random.PCG64(seed)
            bg.advance(int(r))
            out[j] = np.random.Generator(bg).random()
        return [out]

    def clue_number(self, geometry, row):
        return self.board_draws(geometry.blue, geometry.red)[0]

    def _geometry(self, blue, red) -> BoardGeometry:
        words = [_norm(w) for w in list(blue) + list(red)]
        return BoardGeometry(NoSims(words, self.n_vocab), words[: len(blue)], words[len(blue) :])


class NoSims:
    """Stands in for :class:`VocabSims` for agents that need no similarities."""

    def __init__(self, words, n_vocab, cols=None):
        self.words, self.n_vocab = list(dict.fromkeys(words)), n_vocab
        self.cols = slice(0, n_vocab) if cols is None else cols
        self.n_cols = (
            self.cols.stop - (self.cols.start or 0)
            if isinstance(self.cols, slice)
            else len(self.cols)
        )
        self.row = {w: i for i, w in enumerate(self.words)}

    @property
    def col_rows(self) -> np.ndarray:
        if isinstance(self.cols, slice):
            return np.arange(self.cols.start or 0, self.cols.stop)
        return np.asarray(self.cols)

    def rows(self, words):
        return [self.row[_norm(w)] for w in words]


# --------------------------------------------------------------------------- receivers
class EmbeddingNearestReceiver(Agent):
    """Guesses the board words nearest the clue (Algorithm 3).

    ``ranked_forward`` orders the board by distance to the clue (equal distances keep the
    given board order).

    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> emb = Embedding(["a", "b", "c"], np.array([[1, 0], [0, 1], [.8, .6]]))
    >>> EmbeddingNearestReceiver(emb).guess(["a", "b"], "c", 1)
    ['a']
    """

    kind = "receiver"
    name = "nearest"

    def __init__(self, embedding, *, distance: str = "cosine"):
        _check_choice("distance", distance, DISTANCES)
        self.embedding = embedding
        self.distance = distance

    def closeness(self, board_words: Sequence[str], clue: str) -> np.ndarray:
        return self._closeness([_norm(w) for w in board_words], _norm(clue))

    def _closeness(self, words: list[str], clue: str) -> np.ndarray:
        """:meth:`closeness` of normalised words (their rows looked up directly)."""
        emb = self.embedding
        normalized = self.distance == "cosine"
        index = emb.word_index
        rows = [index.get(w, -1) for w in (*words, clue)]
        if -1 in rows:  # the usual lookups raise the usual errors
            emb.vectors_for(words, oov="raise")
            emb.index(clue)
        # exact similarities (wordgames.exact): a near-tie between two board words is decided
        # the same way on every machine
        if normalized:
            u = emb.unit
            return cosines(u[rows[:-1]], u[rows[-1:]])[:, 0]
        g = emb.raw_grid[0]
        return -np.sqrt(sq_distances(g[rows[:-1]], g[rows[-1:]])[:, 0])

    def ranked_forward(self, board_words: Sequence[str], clue: str) -> list[str]:
        words = [_norm(w) for w in board_words]
        order = np.argsort(-self._closeness(words, _norm(clue)), kind="stable")
        return [words[i] for i in order]

    def guess(self, board_words: Sequence[str], clue: str, number: int) -> list[str]:
        return self.ranked_forward(board_words, clue)[: max(0, int(number))]


class RandomReceiver(Agent):
    """Guesses uniformly at random (seeded by ``random_state``, the board and the clue).

    >>> r = RandomReceiver(random_state=1)
    >>> sorted(r.ranked_forward(["a", "b", "c"], "x")), r.get_params()
    (['a', 'b', 'c'], {'random_state': 1})
    """

    kind = "receiver"
    name = "random-receiver"

    def __init__(self, *, random_state: int | None = 0):
        self.random_state = random_state

    def ranked_forward(self, board_words: Sequence[str], clue: str) -> list[str]:
        words = [_norm(w) for w in board_words]
        rng = derive_rng(self.random_state, *sorted(words), "|", _norm(clue))
        return [words[i] for i in rng.permutation(len(words))]

    def guess(self, board_words: Sequence[str], clue: str, number: int) -> list[str]:
        return self.ranked_forward(board_words, clue)[: max(0, int(number))]


def default_senders(
    embedding,
    *,
    quick: bool = False,
    random_state: int = 0,
    distance: str = "cosine",
    vocab_size: int | None = None,
    n_restarts: int | None = None,
) -> list:
    """The paper's sender line-up: ClusterSender, ExhaustiveSearchSender x4, RandomSender.

    ``quick``: 3 k-means restarts instead of 10.
    """
    kw = {"distance": distance, "vocab_size": vocab_size}
    restarts = kmeans_restarts(n_restarts, quick)
    return [
        ClusterSender(embedding, n_restarts=restarts, random_state=random_state, **kw),
        *[ExhaustiveSearchSender(embedding, tb, **kw) for tb in TIE_BREAKS[:4]],
        RandomSender(embedding, random_state=random_state, vocab_size=vocab_size),
    ]


def kmeans_restarts(n_restarts: int | None, quick: bool) -> int:
    """ClusterSender's k-means restarts: the ones asked for, else 10 (3 in a quick run).

    >>> kmeans_restarts(None, False), kmeans_restarts(None, True), kmeans_restarts(5, True)
    (10, 3, 5)
    """
    return n_restarts if n_restarts is not None else (3 if quick else 10)


def default_receivers(embedding, *, random_state: int = 0, distance: str = "cosine") -> list:
    """The paper's receiver line-up: EmbeddingNearestReceiver and RandomReceiver."""
    return [
        EmbeddingNearestReceiver(embedding, distance=distance),
        RandomReceiver(random_state=random_state),
    ]
