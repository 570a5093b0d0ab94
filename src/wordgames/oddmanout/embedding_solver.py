"""The embedding solver of paper section 5.1, for word and sense embeddings.

The cohesion of a word set W is the mean pairwise cosine similarity of its words; with sense
embeddings every word takes the sense that maximises the cohesion of the whole set (one sense
per word, chosen jointly: an exact search over the sense combinations). The solver returns the
word whose removal leaves the ``n - 1`` words of highest cohesion, and abstains when a word has
no vector (or when two removals tie exactly).

Vectorisation
-------------
One-sense case: the Gram matrix of the distinct puzzle words is computed once (``U x U``),
each puzzle's ``(n, n)`` block is gathered from it, and the cohesion of every leave-one-out
subset follows from the row sums: ``sum_{i<j, i,j != k} g_ij = total - rowsum_k``. All
322,602 unfiltered crowdsourced puzzles are one gather and a few reductions.

Sense case (exact): for each left-out word ``k`` the sense choices of the other ``m = n - 1``
words form a grid of ``K^m`` combinations (``K`` the largest sense count among them); the
pair similarities are broadcast into that grid and summed, and the maximum taken, for a batch
of puzzles at once. Cost ``O(P * n * m^2 / 2 * K^m)`` time, ``O(batch * K^m)`` memory. For
``n = 5, K = 5`` that is 625 combinations per subset; the search refuses grids larger than
``max_combinations`` (default 2**22) with a clear error instead of running for hours.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from wordgames.oddmanout.phrases import resolve
from wordgames.oddmanout.puzzles import PuzzleSet
from wordgames.oddmanout.senses import SenseEmbedding
from wordgames.params import Params

TIE_TOL = 1e-9
_GRAM_MAX_WORDS = 12_000  # distinct words up to which the U x U Gram matrix is formed


@dataclass
class Solution:
    """What a solver answered for a puzzle set.

    ``choice[p]`` is the index (into ``puzzles.words[p]``) of the chosen odd man, -1 when the
    solver abstained; ``reason[p]`` is ``""`` or why it abstained (``"oov"``, ``"tie"``,
    ``"no-explanation"``, ...); ``scores[p, k]`` the score of removing word ``k`` (cohesion
    of the rest for embedding solvers, specificity of the explanation for WordNet).
    """

    solver: str
    choice: np.ndarray
    reason: np.ndarray
    scores: np.ndarray
    parameters: dict = field(default_factory=dict)
    oov: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)

    def chosen_words(self, puzzles: PuzzleSet) -> np.ndarray:
        out = np.full(len(puzzles), None, dtype=object)
        ok = self.choice >= 0
        out[ok] = puzzles.words[np.flatnonzero(ok), self.choice[ok]]
        return out


# ---------------------------------------------------------------------- plain functions
def cohesion(vectors: np.ndarray) -> float:
    """Mean pairwise cosine similarity of the rows of ``vectors`` (paper eq. 1, one sense).

    >>> import numpy as np
    >>> round(cohesion(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])), 4)
    0.4714
    """
    v = np.asarray(vectors, dtype=np.float64)
    u = v / np.linalg.norm(v, axis=1, keepdims=True)
    g = u @ u.T
    n = len(u)
    return float((g.sum() - np.trace(g)) / (n * (n - 1)))


def leave_one_out_cohesion(gram: np.ndarray) -> np.ndarray:
    """Cohesion of every ``n - 1`` subset from Gram matrices of shape (P, n, n) -> (P, n).

    Entry ``[p, k]`` is the mean of ``gram[p, i, j]`` over the pairs ``i < j`` without ``k``.

    >>> import numpy as np
    >>> g = np.eye(5)[None] + 0.5 * (1 - np.eye(5)[None])
    >>> leave_one_out_cohesion(g).round(3).tolist()
    [[0.5, 0.5, 0.5, 0.5, 0.5]]
    """
    g = np.asarray(gram, dtype=np.float64)
    n = g.shape[-1]
    diag = np.einsum("pii->pi", g)
    rows = g.sum(axis=2) - diag  # sum over j != i
    total = rows.sum(axis=1, keepdims=True) / 2.0  # sum over unordered pairs
    return (total - rows) / ((n - 1) * (n - 2) / 2.0)


def sense_leave_one_out_cohesion(
    vectors: np.ndarray,
    mask: np.ndarray,
    *,
    max_combinations: int = 1 << 22,
    batch_elements: int = 1 << 23,
) -> tuple[np.ndarray, np.ndarray]:
    """Exact sense-aware cohesion of every leave-one-out subset.

    Parameters
    ----------
    vectors : (P, n, K, d) unit sense vectors (padding rows arbitrary)
    mask : (P, n, K) True where a sense exists (every word needs at least one)

    Returns
    -------
    cohesion : (P, n), entry [p, k]: max over one sense per word of the mean pairwise cosine of
        the words other than k
    senses : (P, n, n) int, senses[p, k, i]: the sense of word i in that best choice (-1 at i=k)
    """
    P, n, K, _ = vectors.shape
    m = n - 1
    if K**m > max_combinations:
        raise ValueError(
            f"exact sense search over {K}^{m} = {K**m:,} combinations per subset exceeds "
            f"max_combinations={max_combinations:,}; use fewer senses (K) or smaller puzzles"
        )
    # pair similarities of every sense pair: (P, n, n, K, K); missing senses -> -inf
    sims = np.einsum("pikd,pjld->pijkl", vectors.astype(np.float64), vectors.astype(np.float64))
    bad = ~(mask[:, :, None, :, None] & mask[:, None, :, None, :])
    sims[bad] = -np.inf
    out = np.empty((P, n))
    best_senses = np.full((P, n, n), -1, dtype=np.int64)
    pairs = list(combinations(range(m), 2))
    chunk = max(1, batch_elements // (K**m))
    for start in range(0, P, chunk):
        sl = slice(start, start + chunk)
        b = sims[sl]
        for k in range(n):
            rest = [i for i in range(n) if i != k]
            grid = np.zeros((b.shape[0],) + (K,) * m)
            for a, c in pairs:
                shape = [b.shape[0]] + [1] * m
                shape[1 + a], shape[1 + c] = K, K
                grid += b[:, rest[a], rest[c]].reshape(shape)
            flat = grid.reshape(b.shape[0], -1)
            arg = flat.argmax(axis=1)
            out[sl, k] = flat[np.arange(len(arg)), arg] / len(pairs)
            idx = np.stack(np.unravel_index(arg, (K,) * m), axis=1)
            best_senses[sl, k, rest] = idx
    return out, best_senses


def factorize_words(words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct words and the code of every entry.

    Hash-based: no string sort, no copy to a fixed-width array.
    """
    import pandas as pd

    codes, uniques = pd.factorize(np.asarray(words, dtype=object).ravel())
    return np.asarray(uniques, dtype=object), codes.reshape(np.shape(words))


def pick(
    scores: np.ndarray, valid: np.ndarray, *, tol: float = TIE_TOL
) -> tuple[np.ndarray, np.ndarray]:
    """Index of the unique maximum of each row (-1 and reason "tie" when two are within tol)."""
    P = len(scores)
    choice = np.full(P, -1, dtype=np.int64)
    reason = np.full(P, "", dtype=object)
    if P == 0:
        return choice, reason
    s = np.where(np.isnan(scores), -np.inf, scores)
    order = np.argsort(-s, axis=1, kind="stable")
    best = np.take_along_axis(s, order[:, :1], axis=1)[:, 0]
    second = np.take_along_axis(s, order[:, 1:2], axis=1)[:, 0]
    with np.errstate(invalid="ignore"):
        tie = valid & (best - second <= tol)
    ok = valid & ~tie
    choice[ok] = order[ok, 0]
    reason[tie] = "tie"
    return choice, reason


# ---------------------------------------------------------------------- solver
class EmbeddingSolver(Params):
    """Odd-Man-Out solver from a word embedding or a sense embedding (paper section 5.1).

    Parameters
    ----------
    embedding : Embedding or SenseEmbedding
        The vectors (a :class:`~wordgames.embeddings.Embedding` is the one-sense case).
    mwe : str
        Multi-word policy (:mod:`wordgames.oddmanout.phrases`): "phrase", "mean",
        "phrase-or-mean" (default) or "abstain".
    case : str
        "fallback-lower" (default) or "exact".
    max_combinations : int
        Cap of the exact sense search (per subset).
    batch_puzzles : int or None
        Puzzles per block of the sense search (default: from a 16M-float budget).

    Examples
    --------
    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> words = ["cherry", "orange", "apple", "grape", "grass"]
    >>> vecs = np.array([[1, 0.1], [1, 0.2], [1, 0.0], [1, 0.15], [0, 1]])
    >>> ps = PuzzleSet.from_odd_first("fruit", [["grass", "cherry", "orange", "apple", "grape"]])
    >>> sol = EmbeddingSolver(Embedding(words, vecs, name="toy")).solve(ps)
    >>> sol.chosen_words(ps).tolist()
    ['grass']
    """

    def __init__(
        self,
        embedding,
        *,
        mwe: str = "phrase-or-mean",
        case: str = "fallback-lower",
        max_combinations: int = 1 << 22,
        batch_puzzles: int | None = None,
    ):
        self.embedding = embedding
        self.mwe = mwe
        self.case = case
        self.max_combinations = max_combinations
        self.batch_puzzles = batch_puzzles

    def describe(self) -> dict:
        """The configuration as JSON-ready values (the embedding by name).

        Recorded with every :class:`Solution` and result (``get_params`` holds the embedding object
        itself).
        """
        emb = self.embedding
        return {
            "embedding": emb.name,
            "senses": isinstance(emb, SenseEmbedding),
            "mwe": self.mwe,
            "case": self.case,
            "max_combinations": self.max_combinations,
        }

    @property
    def name(self) -> str:
        return f"embedding:{self.embedding.name}"

    def _rows(self, puzzles: PuzzleSet):
        """The vocabulary rows of every puzzle word (-1: not found) and their resolution."""
        vocab, codes = factorize_words(puzzles.words)
        res = resolve(self.embedding, vocab.tolist(), mwe=self.mwe, case=self.case)
        return res.index[codes], res

    def answerable(self, puzzles: PuzzleSet) -> np.ndarray:
        """Per puzzle: whether every word has a vector under this solver's phrase and case rules.

        These are the puzzles it does not abstain on for lack of a word. The pre-check counts these (``suite.coverage``), so that its figure and the scores'
        ``n - n_oov`` are one count.
        """
        return (self._rows(puzzles)[0] >= 0).all(axis=1)

    def solve(self, puzzles: PuzzleSet) -> Solution:
        P, n = puzzles.words.shape
        rows, res = self._rows(puzzles)
        answerable = (rows >= 0).all(axis=1)
        scores = np.full((P, n), np.nan)
        table = res.senses
        extra: dict = {}
        if table.max_senses <= 1:
            scores[answerable] = self._one_sense(table.unit, rows[answerable])
        else:
            ok_rows = rows[answerable]
            K = table.max_senses
            coh = np.empty(ok_rows.shape)
            senses = np.empty(ok_rows.shape + (n,), dtype=np.int64)
            # blocks bound the (block, n, K, dim) tensor of sense vectors
            block = self.batch_puzzles or max(1, (1 << 24) // max(1, n * K * table.dim))
            for s in range(0, len(ok_rows), block):
                vecs, mask = table.padded(ok_rows[s : s + block].ravel(), K)
                vecs = vecs.reshape(-1, n, K, vecs.shape[-1])
                coh[s : s + block], senses[s : s + block] = sense_leave_one_out_cohesion(
                    vecs, mask.reshape(-1, n, K), max_combinations=self.max_combinations
                )
            scores[answerable] = coh
            full = np.full((P, n, n), -1, dtype=np.int64)
            full[answerable] = senses
            extra["senses"] = full
        choice, reason = pick(scores, answerable)
        reason[~answerable] = "oov"
        oov_words = res.oov
        oov = {
            **res.counts(),
            "oov_examples": oov_words[:20],
            "puzzles_with_oov": int((~answerable).sum()),
        }
        return Solution(
            self.name, choice, reason, scores, parameters=self.describe(), oov=oov, extra=extra
        )

    @staticmethod
    def _one_sense(unit: np.ndarray, rows: np.ndarray) -> np.ndarray:
        if len(rows) == 0:
            return np.zeros((0, rows.shape[1]))
        used, local = np.unique(rows, return_inverse=True)
        local = local.reshape(rows.shape)
        if len(used) <= _GRAM_MAX_WORDS:
            u = np.asarray(unit[used], dtype=np.float64)
            gram_all = u @ u.T
            gram = gram_all[local[:, :, None], local[:, None, :]]
            return leave_one_out_cohesion(gram)
        out = np.empty(rows.shape)
        step = 65536
        for s in range(0, len(rows), step):  # large vocabularies: batched einsum instead
            x = np.asarray(unit[rows[s : s + step]], dtype=np.float64)
            out[s : s + step] = leave_one_out_cohesion(np.einsum("pid,pjd->pij", x, x))
        return out
