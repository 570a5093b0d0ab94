"""The taxonomy solver of paper section 4, on any labelled DAG (WordNet in :mod:`.wordnet`).

Definitions (Stanovsky & Hopkins 2018, section 4):

* the *descendants* of a vertex are the vertices reachable from it along child edges, the
  vertex itself included (so a leaf has one descendant and specificity 1);
* the *specificity* of a vertex is ``1 / number of descendants``;
* the *explanation* of word ``w_k`` in a puzzle is the vertex of highest specificity that has
  a descendant labelled ``w_j`` for every ``j != k`` and no descendant labelled ``w_k``;
* the solver abstains when some word has no explanation, or when no word's explanation is
  uniquely the most specific; otherwise it answers the word with the most specific
  explanation, and returns that explanation.

"Has no explanation" is ambiguous. Read literally (``missing="abstain"``), the solver abstains
on nearly every puzzle, because the odd man is usually close to the category (a common
ancestor of {clarinet, drum, xylophone, tambourine} also covers "cymbals"), which contradicts
the 46 % abstention the paper reports on AnomiaCommon. The published code instead falls back
to the root for a word without explanation: the word gets the root's specificity
(``1 / root size``), so it ties with every word explained only by the root, and a puzzle
explained only by the root abstains (``missing="root"``; the whole published solver, with its
other differences, is :class:`wordgames.oddmanout.wordnet.PublishedWordNetTaxonomy`). The
default ``missing="least-specific"`` gives such a word specificity 0 instead: a word
explained by the root still beats it. All policies abstain when a word is
not in the taxonomy at all, when no word has an explanation, or when the best specificity is
tied.

Vectorisation
-------------
The ancestor closure is a sparse boolean matrix ``A`` (``A[v, a]``: ``a`` is ``v`` or an
ancestor of ``v``) computed by repeated sparse squaring of ``I + parent`` (``log2(depth)``
products), and the descendant counts are its column sums: nothing recurses per query. A
word covers the union of the closure rows of its vertices. For a batch of puzzles, every
(puzzle, covered vertex) pair gets the bit mask of the puzzle's words that reach it (one
``bincount``); a vertex explains word ``k`` exactly when its mask is ``all words but k``, and
the explanation is the candidate with the fewest descendants (one ``lexsort``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from wordgames.oddmanout.embedding_solver import Solution, factorize_words, pick
from wordgames.oddmanout.puzzles import PuzzleSet
from wordgames.params import Params

MISSING_POLICIES = ("least-specific", "abstain", "root")


def ancestor_closure(n_vertices: int, child: np.ndarray, parent: np.ndarray) -> sp.csr_matrix:
    """Sparse reflexive-transitive closure: ``A[v, a] = 1`` iff ``a`` is ``v`` or an ancestor.

    >>> A = ancestor_closure(3, np.array([1, 2]), np.array([0, 1]))   # 0 <- 1 <- 2
    >>> A.toarray().astype(int).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    child = np.asarray(child, dtype=np.int64)
    parent = np.asarray(parent, dtype=np.int64)
    step = sp.csr_matrix(
        (np.ones(len(child), dtype=np.float32), (child, parent)), shape=(n_vertices, n_vertices)
    )
    A = (sp.identity(n_vertices, dtype=np.float32, format="csr") + step).tocsr()
    A.data[:] = 1.0
    while True:  # paths of length <= 2^i after i squarings
        B = (A @ A).tocsr()
        B.data[:] = 1.0
        if B.nnz == A.nnz:
            break
        A = B
    A.sort_indices()
    A.data = np.ones(A.nnz, dtype=bool)
    return A


def first_edges(child, parent, key) -> tuple[np.ndarray, np.ndarray]:
    """Keep one edge per child: the one whose ``key`` sorts first (ties: the lowest parent id).

    >>> first_edges([2, 2, 1], [0, 1, 0], ["b", "a", ""])
    (array([1, 2]), array([0, 1]))
    """
    child = np.asarray(child, dtype=np.int64)
    parent = np.asarray(parent, dtype=np.int64)
    order = np.lexsort((parent, np.asarray(key, dtype=str), child))
    c, p = child[order], parent[order]
    first = np.ones(len(c), dtype=bool)
    first[1:] = c[1:] != c[:-1]
    return c[first], p[first]


def distinct_labels_below(
    n_vertices: int, child, parent, label_words, label_vertices
) -> np.ndarray:
    """Number of distinct label strings on the strict descendants of every vertex.

    All edges are followed; a vertex's own labels are not counted, and a string on two
    descendants counts once (case-sensitive).

    >>> distinct_labels_below(4, [1, 2, 3], [0, 0, 1], ["a", "b", "b", "c"], [0, 1, 2, 3]).tolist()
    [2, 1, 0, 0]
    """
    import pandas as pd

    A = ancestor_closure(n_vertices, np.asarray(child), np.asarray(parent)).astype(np.float32)
    A = (A - sp.identity(n_vertices, dtype=np.float32, format="csr")).tocsr()
    A.eliminate_zeros()
    codes, uniq = pd.factorize(np.asarray(list(label_words), dtype=object))
    M = sp.csr_matrix(
        (np.ones(len(codes), dtype=np.float32), (np.asarray(label_vertices, np.int64), codes)),
        shape=(n_vertices, len(uniq)),
    )
    below = (A.T.tocsr() @ M).tocsr()  # (vertex, string): on some strict descendant
    return np.diff(below.indptr).astype(np.int64)


class Taxonomy:
    """A taxonomy ``(V, E, L)``: a DAG of vertices with string labels (paper section 4).

    Parameters
    ----------
    n_vertices : number of vertices (ids ``0 .. n-1``)
    child, parent : edge arrays, one edge ``child -> parent`` (hyponym -> hypernym) each
    label_words, label_vertices : parallel arrays: label ``label_words[i]`` is on vertex
        ``label_vertices[i]`` (a word may label several vertices, a vertex carry several words)
    names : optional readable name of every vertex
    lowercase : match words to labels case-insensitively
    sizes : optional size of every vertex, in place of its number of descendants (the
        specificity is ``1 / size``; a size may be 0: infinite specificity), e.g.
        :func:`distinct_labels_below` as the published WordNet solver counts

    Examples
    --------
    >>> t = Taxonomy(3, [1, 2], [0, 0], ["thing", "cat", "dog"], [0, 1, 2])
    >>> t.descendant_counts().tolist()
    [3, 1, 1]
    """

    def __init__(
        self,
        n_vertices: int,
        child,
        parent,
        label_words: Sequence[str] = (),
        label_vertices=(),
        *,
        names: Sequence[str] | None = None,
        lowercase: bool = True,
        name: str = "taxonomy",
        sizes=None,
    ):
        self.n_vertices = int(n_vertices)
        self.child = np.asarray(child, dtype=np.int64)
        self.parent = np.asarray(parent, dtype=np.int64)
        self.lowercase = lowercase
        self.name = name
        self._names = None if names is None else np.asarray(names, dtype=object)
        self._label_words = np.asarray(list(label_words), dtype=object)
        self._label_vertices = np.asarray(label_vertices, dtype=np.int64)
        self._labels: dict[str, list[int]] = {}
        first_label: dict[int, str] = {}
        for w, v in zip(
            label_words, np.asarray(label_vertices, dtype=np.int64).tolist(), strict=True
        ):
            self._labels.setdefault(self._key(w), []).append(v)
            first_label.setdefault(v, w)
        if self._names is None and first_label:
            self._names = np.asarray(
                [first_label.get(v, str(v)) for v in range(self.n_vertices)], dtype=object
            )
        self._closure: sp.csr_matrix | None = None
        self._ndesc: np.ndarray | None = None
        if sizes is not None:
            self._ndesc = np.asarray(sizes, dtype=np.int64)
            if self._ndesc.shape != (self.n_vertices,) or (self._ndesc < 0).any():
                raise ValueError("sizes must hold one non-negative count per vertex")
        self._closure_f: sp.csr_matrix | None = None

    def _key(self, word: str) -> str:
        w = "_".join(word.split())
        return w.lower() if self.lowercase else w

    # ------------------------------------------------------------------ structure
    @property
    def closure(self) -> sp.csr_matrix:
        if self._closure is None:
            A = ancestor_closure(self.n_vertices, self.child, self.parent)
            # a cycle makes two distinct vertices ancestors of each other
            both = A.multiply(A.T).tocsr()
            if both.nnz > self.n_vertices:
                raise ValueError("the taxonomy has a cycle: it must be a directed acyclic graph")
            self._closure = A
        return self._closure

    def descendant_counts(self) -> np.ndarray:
        """Number of descendants of every vertex, itself included (or the ``sizes`` given)."""
        if self._ndesc is None:
            self._ndesc = np.asarray(self.closure.sum(axis=0)).ravel().astype(np.int64)
        return self._ndesc

    def specificity(self) -> np.ndarray:
        """``1 / descendant_counts()`` (infinite for a size of 0, which a subclass may define)."""
        with np.errstate(divide="ignore"):
            return 1.0 / self.descendant_counts()

    def root_size(self) -> int:
        """The largest descendant count: the root's (``missing="root"`` gives its specificity)."""
        return int(self.descendant_counts().max())

    def vertex_name(self, v: int) -> str:
        return str(v) if self._names is None else str(self._names[v])

    def label_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(vertex, label) of every label, as given to the constructor."""
        return self._label_vertices, self._label_words

    def vertices_of(self, word: str) -> list[int]:
        """The vertices labelled ``word`` (override for lemmatising lookups such as WordNet)."""
        return self._labels.get(self._key(word), [])

    def coverage(self, words: Sequence[str]) -> sp.csr_matrix:
        """Row ``i``: the vertices that have a descendant labelled ``words[i]`` (sparse bool)."""
        rows, cols = [], []
        for i, w in enumerate(words):
            vs = self.vertices_of(w)
            rows.extend([i] * len(vs))
            cols.extend(vs)
        M = sp.csr_matrix(
            (np.ones(len(rows), dtype=np.float32), (rows, cols)),
            shape=(len(words), self.n_vertices),
        )
        if self._closure_f is None:
            self._closure_f = self.closure.astype(np.float32)
        C = (M @ self._closure_f).tocsr()
        C.data[:] = 1.0
        C.sort_indices()
        return C

    # ------------------------------------------------------------------ explanations
    def explanations(
        self, codes: np.ndarray, coverage: sp.csr_matrix, *, batch: int = 20_000
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Explanation of every word of every puzzle.

        ``codes`` (P, n) are rows of ``coverage``. Returns ``vertex`` (P, n), -1 where a word
        has no explanation, ``n_desc`` (P, n) its descendant count (0 if none), and ``n_tied``
        (P, n): how many vertices share that highest specificity (the lowest id is returned).
        """
        P, n = codes.shape
        ndesc = self.descendant_counts()
        vertex = np.full((P, n), -1, dtype=np.int64)
        best = np.zeros((P, n), dtype=np.int64)
        tied = np.zeros((P, n), dtype=np.int64)
        full = (1 << n) - 1
        indptr, indices = coverage.indptr, coverage.indices
        for s in range(0, P, batch):
            c = codes[s : s + batch]
            b = len(c)
            flat = c.ravel()
            lens = indptr[flat + 1] - indptr[flat]
            starts = np.repeat(indptr[flat] - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens)
            verts = indices[starts + np.arange(int(lens.sum()))].astype(np.int64)
            puzzle = np.repeat(np.repeat(np.arange(b), n), lens)
            bit = np.repeat(np.tile(1 << np.arange(n, dtype=np.int64), b), lens)
            key = puzzle * self.n_vertices + verts
            uniq, inv = np.unique(key, return_inverse=True)
            mask = np.bincount(inv, weights=bit, minlength=len(uniq)).astype(np.int64)
            missing = full ^ mask
            single = (missing != 0) & ((missing & (missing - 1)) == 0)
            cand_key = uniq[single]
            cand_word = np.log2(missing[single]).round().astype(np.int64)
            cand_p = cand_key // self.n_vertices
            cand_v = cand_key % self.n_vertices
            cand_d = ndesc[cand_v]
            slot = cand_p * n + cand_word
            order = np.lexsort((cand_v, cand_d, slot))
            slot_o, d_o, v_o = slot[order], cand_d[order], cand_v[order]
            first = np.ones(len(slot_o), dtype=bool)
            first[1:] = slot_o[1:] != slot_o[:-1]
            heads = np.flatnonzero(first)
            vb = vertex[s : s + b].reshape(-1)
            db = best[s : s + b].reshape(-1)
            tb = tied[s : s + b].reshape(-1)
            vb[slot_o[heads]] = v_o[heads]
            db[slot_o[heads]] = d_o[heads]
            # how many vertices share the best descendant count (runs of equal (slot, count))
            new_run = first.copy()
            new_run[1:] |= d_o[1:] != d_o[:-1]
            run_start = np.flatnonzero(new_run)
            run_len = np.diff(np.append(run_start, len(slot_o)))
            head_run = first[run_start]
            tb[slot_o[run_start[head_run]]] = run_len[head_run]
        return vertex, best, tied


class TaxonomySolver(Params):
    """Odd-Man-Out solver from a taxonomy (paper section 4).

    Parameters
    ----------
    taxonomy : Taxonomy
        E.g. :func:`wordgames.oddmanout.wordnet.wordnet_taxonomy`.
    missing : {"least-specific", "abstain", "root"}
        A word without explanation: "least-specific" (default) gives it specificity 0 (a word
        explained by the root beats it); "root" gives it the root's specificity
        ``1 / root_size()``, as the published code does (it ties with words explained only by
        the root); "abstain": the literal reading, abstain on the puzzle.

    The solution's ``extra["explanation"]`` holds the name of the chosen word's explanation
    vertex (``None`` where the solver abstained) and ``extra["explanation_vertex"]`` the
    explanation vertex of every word (-1: none).

    Examples
    --------
    >>> names = ["thing", "fruit", "plant", "apple", "pear", "cherry", "plum", "grass"]
    >>> t = Taxonomy(8, [1, 2, 3, 4, 5, 6, 7], [0, 0, 1, 1, 1, 1, 2], names, range(8))
    >>> ps = PuzzleSet.from_odd_first("t", [["grass", "apple", "pear", "cherry", "plum"]])
    >>> sol = TaxonomySolver(t).solve(ps)
    >>> sol.chosen_words(ps).tolist(), sol.extra["explanation"].tolist()
    (['grass'], ['fruit'])
    """

    def __init__(self, taxonomy: Taxonomy, *, missing: str = "least-specific"):
        if missing not in MISSING_POLICIES:  # checked here too: a typo fails at once
            raise ValueError(f"missing must be one of {MISSING_POLICIES}, got {missing!r}")
        self.taxonomy = taxonomy
        self.missing = missing

    @property
    def name(self) -> str:
        return self.taxonomy.name

    def describe(self) -> dict:
        """The configuration as JSON-ready values (the taxonomy by name and size)."""
        return {
            "taxonomy": self.taxonomy.name,
            "n_vertices": self.taxonomy.n_vertices,
            "missing": self.missing,
        }

    def solve(self, puzzles: PuzzleSet) -> Solution:
        """Answer every puzzle of ``puzzles`` (see the class docstring for the rules)."""
        if self.missing not in MISSING_POLICIES:  # set_params bypasses the constructor's check
            raise ValueError(f"missing must be one of {MISSING_POLICIES}, got {self.missing!r}")
        P, n = puzzles.words.shape
        vocab, codes = factorize_words(puzzles.words)
        cov = self.taxonomy.coverage(vocab.tolist())
        in_tax = np.diff(cov.indptr) > 0
        vertex, ndesc, tied = self.taxonomy.explanations(codes, cov)
        found = vertex >= 0
        root = self.taxonomy.root_size() if self.missing == "root" else np.inf
        size = np.where(found, ndesc, root).astype(np.float64)  # fewer descendants: more specific
        with np.errstate(divide="ignore"):
            spec = 1.0 / size  # size 0 (possible in PublishedWordNetTaxonomy) -> inf
        oov = ~in_tax[codes]
        valid = found.all(axis=1) if self.missing == "abstain" else found.any(axis=1)
        valid &= ~oov.any(axis=1)
        choice, reason = pick(-size, valid, tol=0.0)  # exact ties of integer sizes
        reason[~valid] = "no-explanation"
        reason[oov.any(axis=1)] = "oov"
        chosen_vertex = np.where(choice >= 0, vertex[np.arange(P), np.maximum(choice, 0)], -1)
        explanation = np.asarray(
            [self.taxonomy.vertex_name(v) if v >= 0 else None for v in chosen_vertex.tolist()],
            dtype=object,
        )
        oov_words = vocab[~in_tax].tolist()
        return Solution(
            self.name,
            choice,
            reason,
            spec,
            parameters=self.describe(),
            oov={
                "distinct_words": len(vocab),
                "oov_words": len(oov_words),
                "oov_examples": oov_words[:20],
                "puzzles_with_oov": int(oov.any(axis=1).sum()),
            },
            extra={
                "explanation": explanation,
                "explanation_vertex": vertex,
                "explanation_tied": tied,
            },
        )
