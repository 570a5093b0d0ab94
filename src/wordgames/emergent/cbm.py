"""Concept-Best-Matching (Carmeli, Belinkov and Meir 2024): best match of EC words to concepts.

Definitions used throughout (sample ``b`` = one message with its label). Two conventions of
counting a message's words are offered (``counting``); the default is the paper's and the
authors' script's (``bcarmeli/cbm``, ``concept_best_match.py``):

* ``n_b(w)`` -- how often word ``w`` occurs in message ``b`` after EOS, everything after the
  first EOS and padding are removed (:mod:`wordgames.emergent.inputs`). EOS and padding symbols
  are never words. ``counting="occurrences"`` (default) counts every occurrence;
  ``counting="types"`` counts a word once per message (``n_b(w)`` is 0 or 1).
* ``|m_b| = sum_w n_b(w)`` -- the message's length under the convention (occurrences: its
  number of words; types: its number of distinct words).
* ``V_b`` -- the **set** of concepts (feature-value pairs) of the label of sample ``b``
  (a concept listed twice in one label counts once).
* graph ``G`` -- ``G[w, c] = sum_{b : c in V_b} n_b(w)``, how often word ``w`` occurs in
  messages sent for a label containing concept ``c`` (types: the number of such messages);
  computed as ``N.T @ C`` with ``N`` the ``B x W`` matrix of ``n_b(w)`` and ``C`` the binary
  ``B x C`` concept matrix.
* match ``M`` -- a maximum-weight one-to-one matching of words to concepts in ``G``
  (:func:`best_match`: the Hungarian algorithm of ``scipy.optimize.linear_sum_assignment``).
  Ties between equally heavy matchings are broken as in the authors' script: words and concepts
  are put in the order of their first appearance in the log before the assignment is solved. A
  pair of weight 0 is not a match, so a word or concept without a positive edge stays unmatched.
* ``Q = sum_b max(|m_b|, |V_b|)`` and ``CBM = sum_{(w, c) in M} G[w, c] / Q``, in ``[0, 1]``
  under both conventions (the matched weight in a message is at most ``|m_b|``).

Every word occurrence (``n_b(w)`` copies of ``w``) falls in exactly one class, and every concept
occurrence (an element of some ``V_b``) falls in exactly one class:

* **good** -- word ``w`` of message ``b`` is matched to a concept ``M(w) in V_b``; seen from the
  concept side, concept ``c in V_b`` is matched to a word of message ``b``. The word-side count
  (``good``, repeats counted under ``occurrences``) summed over samples is the matched weight;
  the concept-side count (``good_concept``) is the number of distinct good words and equals it
  under ``types``.
* **ambiguity** (word side) -- ``w`` is matched, but its concept ``M(w)`` is not in ``V_b``:
  the word is used for something other than its translation.
* **paraphrase** (word side) -- ``w`` is not matched to any concept.
* **omission** (concept side, the mirror of ambiguity) -- ``c in V_b`` is matched, but its word
  ``M^-1(c)`` is not in message ``b``.
* **unmatched concept** (concept side, the mirror of paraphrase) -- ``c in V_b`` has no matched
  word.

So ``|m_b| = good_b + amb_b + para_b`` and ``|V_b| = good_concept_b + omit_b + unm_b``.

Rates, each a class total over samples divided by a denominator that follows the convention:

* ``occurrences`` (the authors' script): ambiguity and paraphrase over ``Q``; unmatched concept
  over the number of concept occurrences ``sum_b |V_b|``; omission (not in the script) over the
  same ``sum_b |V_b|``, its side's total. Hence ``CBM + Amb + Para = sum_b |m_b| / Q`` and
  ``good_concept / sum|V_b| + Omit + Unm = 1``.
* ``types``: every rate over the same ``Q``, hence ``CBM + Amb + Para = sum|m_b| / Q`` and
  ``CBM + Omit + Unm = sum|V_b| / Q``; each side sums to 1 when its messages (or labels) are at
  least as long as the other side.

Per-message precision is ``d_b / |m_b|`` and recall ``d_b / |V_b|`` (paper, appendix D), with
``d_b`` the number of distinct good words of message ``b`` (= ``good_concept_b``): under
``occurrences`` precision divides the distinct good words by the full message length, as the
authors' script does. Their means are taken over the messages with at least one word
(precision) or concept (recall), and the messages left out are counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from wordgames.emergent.inputs import EncodedConcepts, EncodedMessages

#: The conventions of counting a message's words (module docstring); the first is the default.
COUNTINGS = ("occurrences", "types")


def check_counting(counting: str) -> str:
    """``counting`` if it is one of :data:`COUNTINGS`, else a ``ValueError`` naming them."""
    if counting not in COUNTINGS:
        raise ValueError(f"unknown counting {counting!r}; expected one of {COUNTINGS}")
    return counting


def word_occurrence_matrix(messages: EncodedMessages) -> sp.csr_matrix:
    """Binary ``B x W`` matrix: ``N[b, w] = 1`` when word ``w`` occurs in message ``b`` (once or more)."""
    counts = word_count_matrix(messages)
    counts.data[:] = 1.0
    return counts


def word_count_matrix(messages: EncodedMessages) -> sp.csr_matrix:
    """``B x W`` matrix: ``N[b, w]`` = how often word ``w`` occurs in message ``b``.

    Examples
    --------
    >>> from wordgames.emergent.inputs import encode_messages
    >>> word_count_matrix(encode_messages([["a", "b", "a"], ["b"]])).toarray().tolist()
    [[2.0, 1.0], [0.0, 1.0]]
    """
    codes = messages.codes
    b = codes.shape[0]
    keep = codes >= 0
    rows = np.broadcast_to(np.arange(b)[:, None], codes.shape)[keep]
    m = sp.csr_matrix(
        (np.ones(rows.size), (rows, codes[keep])), shape=(b, messages.n_words), dtype=np.float64
    )
    m.sum_duplicates()
    return m


def word_matrix(messages: EncodedMessages, counting: str = "occurrences") -> sp.csr_matrix:
    """The ``B x W`` matrix ``N`` of ``n_b(w)`` under ``counting`` (see the module docstring)."""
    if check_counting(counting) == "types":
        return word_occurrence_matrix(messages)
    return word_count_matrix(messages)


def cooccurrence_graph(occurrence: sp.spmatrix, concepts: sp.spmatrix) -> np.ndarray:
    """Dense ``W x C`` edge weights ``G = N.T @ C`` (see the module docstring)."""
    return np.asarray((occurrence.T.tocsr() @ concepts).toarray(), dtype=np.float64)


def first_appearance(messages: EncodedMessages, concepts: sp.spmatrix) -> tuple[np.ndarray, ...]:
    """Words and concepts in the order of their first appearance in the log.

    The index order of the authors' script, which decides between equally heavy matchings: the
    samples in their order, the words of a message in their order; only samples with both a word
    and a concept count (the others add no edge). Within one label the concepts follow their
    column order (labels are encoded as sets, so the order they were written in is not kept).
    Words and concepts that never appear come last, in index order.

    Returns
    -------
    (word_order, concept_order) : two integer arrays, permutations of the word and concept indices.

    Examples
    --------
    >>> from wordgames.emergent.inputs import encode_concepts, encode_messages
    >>> m = encode_messages([["b", "a"], ["c"]])
    >>> c = encode_concepts([["y"], ["x"]])
    >>> [o.tolist() for o in first_appearance(m, c.matrix)]
    [[1, 0, 2], [1, 0]]
    """
    cmat = sp.csr_matrix(concepts)
    both = (np.diff(cmat.indptr) > 0) & (messages.lengths > 0)
    codes = messages.codes[both].ravel()
    pos = np.flatnonzero(codes >= 0)
    first_word = np.full(messages.n_words, codes.size, dtype=np.int64)
    np.minimum.at(first_word, codes[pos], pos)
    sub = cmat[both].tocoo()
    key = sub.row.astype(np.int64) * cmat.shape[1] + sub.col
    first_concept = np.full(cmat.shape[1], key.size and int(key.max()) + 1, dtype=np.int64)
    np.minimum.at(first_concept, sub.col, key)
    return (
        np.argsort(first_word, kind="stable"),
        np.argsort(first_concept, kind="stable"),
    )


def best_match(
    graph: np.ndarray, row_order: np.ndarray | None = None, col_order: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-weight one-to-one matching of rows (words) to columns (concepts).

    Returns the matched ``(rows, cols)``, pairs of positive weight only.

    The rows and columns with a positive edge are put in ``row_order`` and ``col_order`` (default:
    index order; :func:`concept_best_matching` passes :func:`first_appearance`) and
    ``scipy.optimize.linear_sum_assignment`` solves the rectangular assignment on them, as the
    authors' script does; between equally heavy matchings, that order decides.

    Examples
    --------
    >>> rows, cols = best_match(np.array([[3., 2.], [2., 0.], [0., 0.]]))
    >>> rows.tolist(), cols.tolist()
    ([0, 1], [1, 0])
    >>> [x.tolist() for x in best_match(np.array([[1.], [1.]]))]  # a tie: the first row wins
    [[0], [0]]
    >>> [x.tolist() for x in best_match(np.array([[1.], [1.]]), row_order=np.array([1, 0]))]
    [[1], [0]]
    """
    from scipy.optimize import linear_sum_assignment

    graph = np.asarray(graph, dtype=np.float64)
    empty = np.zeros(0, dtype=np.int64)
    if graph.size == 0 or not (graph > 0).any():
        return empty, empty
    rows = np.arange(graph.shape[0]) if row_order is None else np.asarray(row_order)
    cols = np.arange(graph.shape[1]) if col_order is None else np.asarray(col_order)
    rows = rows[(graph[rows] > 0).any(axis=1)]
    cols = cols[(graph[:, cols] > 0).any(axis=0)]
    sub = graph[np.ix_(rows, cols)]
    r, c = linear_sum_assignment(sub, maximize=True)
    positive = sub[r, c] > 0
    return rows[r[positive]].astype(np.int64), cols[c[positive]].astype(np.int64)


@dataclass
class CBMResult:
    """Concept-Best-Matching score and its by-products (definitions in the module docstring).

    Attributes
    ----------
    score : CBM = matched weight / Q
    matched_weight, q : numerator and normaliser
    graph : ``W x C`` edge weights
    words, concepts : names of the rows and columns of ``graph``
    word_match : for each word the index of its matched concept, -1 when unmatched
    counts : totals of word occurrences, concept occurrences and each class
    rates : ambiguity, paraphrase, omission and unmatched-concept rates
    denominators : the denominator of each rate (``Q`` or the concept occurrences)
    per_message : arrays (length B) n_words, n_concepts, good, good_concept, ambiguous,
        paraphrase, omitted, unmatched, precision, recall (precision/recall NaN where undefined)
    counting : ``"occurrences"`` or ``"types"`` (module docstring)
    word_uses : per word, its total count in the messages (types: the messages holding it)
    concept_uses : per concept, the labels holding it
    concept_hits : per concept, the labels holding it whose message holds its matched word
    """

    score: float
    matched_weight: float
    q: float
    graph: np.ndarray
    words: np.ndarray
    concepts: np.ndarray
    word_match: np.ndarray
    counts: dict[str, int] = field(default_factory=dict)
    rates: dict[str, float] = field(default_factory=dict)
    per_message: dict[str, np.ndarray] = field(default_factory=dict)
    precision: float = float("nan")
    recall: float = float("nan")
    word_uses: np.ndarray | None = None
    concept_uses: np.ndarray | None = None
    counting: str = "occurrences"
    denominators: dict[str, float] = field(default_factory=dict)
    concept_hits: np.ndarray | None = None
    q_literal: float = float("nan")

    @property
    def score_literal(self) -> float:
        """The paper's formula read literally: ``|m_i|`` the size of the message's word *set*.

        The matched weight counts every occurrence but ``Q = sum_b max(|set(m_b)|, |V_b|)``
        does not, so a language that repeats words can score above 1: the paper's 1.401
        (Table 3, experiment 5) is of this kind. Kept to reproduce such figures; ``score`` is
        the bounded one.
        """
        return self.matched_weight / self.q_literal if self.q_literal > 0 else float("nan")

    def translation(self) -> dict[str, tuple[str, float]]:
        """Matched word -> (concept, edge weight), heaviest first."""
        w = np.flatnonzero(self.word_match >= 0)
        c = self.word_match[w]
        weights = self.graph[w, c]
        order = np.argsort(-weights, kind="stable")
        return {str(self.words[w[i]]): (str(self.concepts[c[i]]), float(weights[i])) for i in order}

    def translation_table(self) -> list[dict]:
        """The translation as rows, heaviest first.

        ``word_uses`` is the word's total count in the messages (``types``: the messages
        containing it) and ``share`` the part of it sent for a label holding its matched concept
        (``weight / word_uses``); ``concept_uses`` is the number of labels holding the concept
        and ``concept_share`` the fraction of them whose message holds its matched word.
        """
        w = np.flatnonzero(self.word_match >= 0)
        c = self.word_match[w]
        weights = self.graph[w, c]
        wu = self.word_uses[w] if self.word_uses is not None else self.graph[w].sum(axis=1)
        cu = self.concept_uses[c] if self.concept_uses is not None else self.graph[:, c].sum(axis=0)
        hits = self.concept_hits[c] if self.concept_hits is not None else weights
        order = np.argsort(-weights, kind="stable")
        return [
            {
                "word": str(self.words[w[i]]),
                "concept": str(self.concepts[c[i]]),
                "weight": float(weights[i]),
                "word_uses": int(wu[i]),
                "share": float(weights[i] / wu[i]) if wu[i] else 0.0,
                "concept_uses": int(cu[i]),
                "concept_share": float(hits[i] / cu[i]) if cu[i] else 0.0,
            }
            for i in order
        ]


def _score(graph: np.ndarray, q: float) -> float:
    r, c = best_match(graph)
    return float(graph[r, c].sum() / q) if q > 0 else float("nan")


@dataclass(frozen=True)
class _Matching:
    """The word-concept graph and its best matching: word ``rows[i]`` is matched to ``cols[i]``."""

    graph: np.ndarray
    rows: np.ndarray
    cols: np.ndarray

    @property
    def weight(self) -> float:
        """The matched weight, the numerator of CBM."""
        return float(self.graph[self.rows, self.cols].sum())

    def word_match(self) -> np.ndarray:
        """For each word the index of its matched concept, -1 when unmatched."""
        word_match = np.full(self.graph.shape[0], -1, dtype=np.int64)
        word_match[self.rows] = self.cols
        return word_match

    def projection(self) -> sp.csr_matrix:
        """``P`` (``W x C``): ``P[w, c] = 1`` when word ``w`` is matched to concept ``c``."""
        return sp.csr_matrix(
            (np.ones(self.rows.size), (self.rows, self.cols)), shape=self.graph.shape
        )


def _per_message(
    words: sp.csr_matrix, cmat: sp.csr_matrix, match: _Matching
) -> dict[str, np.ndarray]:
    """Each message's word and concept counts, their classes, precision and recall.

    Parameters
    ----------
    words : scipy.sparse.csr_matrix
        The ``B x W`` matrix ``N`` of ``n_b(w)`` under the chosen counting.
    cmat : scipy.sparse.csr_matrix
        The ``B x C`` concept matrix ``C``.
    match : _Matching
        The best matching of ``N.T @ C``.

    Returns
    -------
    dict of str to numpy.ndarray
        :attr:`CBMResult.per_message` (length-``B`` arrays; precision and recall NaN where
        undefined).
    """
    # (N @ P)[b, c]: how often the word matched to c occurs in message b
    hits = (words @ match.projection()).tocsr()
    good = np.asarray(hits.multiply(cmat).sum(axis=1)).ravel()
    used_matched = np.asarray(hits.sum(axis=1)).ravel()
    hits.data[:] = 1.0  # distinct matched words of message b, by their concept
    good_concept = np.asarray(hits.multiply(cmat).sum(axis=1)).ravel()
    n_words = np.asarray(words.sum(axis=1)).ravel()
    n_concepts = np.asarray(cmat.sum(axis=1)).ravel()
    concept_matched = np.zeros(match.graph.shape[1], dtype=np.float64)
    concept_matched[match.cols] = 1.0
    matched_concepts_in_label = cmat @ concept_matched
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(n_words > 0, good_concept / np.maximum(n_words, 1), np.nan)
        recall = np.where(n_concepts > 0, good_concept / np.maximum(n_concepts, 1), np.nan)
    return {
        "n_words": n_words,
        "n_concepts": n_concepts,
        "good": good,
        "good_concept": good_concept,
        "ambiguous": used_matched - good,
        "paraphrase": n_words - used_matched,
        "omitted": matched_concepts_in_label - good_concept,
        "unmatched": n_concepts - matched_concepts_in_label,
        "precision": precision,
        "recall": recall,
    }


def _total(x: np.ndarray) -> int:
    """The sum of ``x``, rounded to an int."""
    return int(round(float(x.sum())))


def _counts(
    n_samples: int, match: _Matching, per: dict[str, np.ndarray], q: float
) -> dict[str, int]:
    """The totals of :attr:`CBMResult.counts` from the per-message classes ``per``.

    ``edges`` is Q, CBM's denominator (the paper's Table 4 "Totl Edgs").
    """
    n_w, n_c = match.graph.shape
    n_pairs = match.rows.size
    return {
        "samples": int(n_samples),
        "edges": int(round(q)),
        "word_occurrences": _total(per["n_words"]),
        "concept_occurrences": _total(per["n_concepts"]),
        "good": _total(per["good"]),
        "good_concept": _total(per["good_concept"]),
        "ambiguous": _total(per["ambiguous"]),
        "paraphrase": _total(per["paraphrase"]),
        "omitted": _total(per["omitted"]),
        "unmatched_concept": _total(per["unmatched"]),
        "matched_pairs": int(n_pairs),
        "words": int(n_w),
        "concepts": int(n_c),
        "unmatched_word_types": int(n_w - n_pairs),
        "unmatched_concept_types": int(n_c - n_pairs),
        "messages_without_words": int((per["n_words"] == 0).sum()),
        "labels_without_concepts": int((per["n_concepts"] == 0).sum()),
    }


def _denominators(per: dict[str, np.ndarray], q: float, counting: str) -> dict[str, float]:
    """The denominator of each rate under ``counting`` (module docstring)."""
    concept_side = q if counting == "types" else float(per["n_concepts"].sum())
    return {
        "ambiguity": q,
        "paraphrase": q,
        "omission": concept_side,
        "unmatched_concept": concept_side,
    }


def _rates(per: dict[str, np.ndarray], denominators: dict[str, float]) -> dict[str, float]:
    """The class rates of :attr:`CBMResult.rates`: each class total over its denominator."""
    totals = {
        "ambiguity": per["ambiguous"],
        "paraphrase": per["paraphrase"],
        "omission": per["omitted"],
        "unmatched_concept": per["unmatched"],
    }
    return {
        k: float(x.sum() / denominators[k]) if denominators[k] > 0 else float("nan")
        for k, x in totals.items()
    }


def _nanmean_where(values: np.ndarray, defined: np.ndarray) -> float:
    """Mean of ``values`` over the NaN-free entries; NaN when ``defined`` is all false."""
    return float(np.nanmean(values)) if defined.any() else float("nan")


def concept_best_matching(
    messages: EncodedMessages, concepts: EncodedConcepts, *, counting: str = "occurrences"
) -> CBMResult:
    """Concept-Best-Matching with every by-product (definitions in the module docstring).

    Parameters
    ----------
    messages : encoded messages (:func:`wordgames.emergent.inputs.encode_messages`)
    concepts : encoded labels of the same samples (:func:`~wordgames.emergent.inputs.encode_concepts`)
    counting : ``"occurrences"`` (default: every occurrence of a word counts, in the weights, in
        ``Q`` and in the word-side rates, as in the paper and the authors' script) or
        ``"types"`` (a word counts once per message)

    Examples
    --------
    >>> from wordgames.emergent.inputs import encode_concepts, encode_messages
    >>> m = encode_messages([["a", "b"], ["a", "c"]])
    >>> c = encode_concepts([["red", "box"], ["red", "ball"]])
    >>> r = concept_best_matching(m, c)
    >>> r.score, r.translation()["a"]
    (1.0, ('red', 2.0))
    >>> m = encode_messages([["a", "a"], ["b"]])  # "a" said twice for red
    >>> c = encode_concepts([["red"], ["blue"]])
    >>> [(x.score, x.q) for x in (concept_best_matching(m, c, counting=k) for k in COUNTINGS)]
    [(1.0, 3.0), (1.0, 2.0)]
    >>> r = concept_best_matching(m, c)  # the paper's formula read literally: |m_1| = |{a}| = 1
    >>> r.matched_weight, r.q_literal, r.score_literal
    (3.0, 2.0, 1.5)
    """
    if len(messages) != len(concepts):
        raise ValueError(f"{len(messages)} messages but {len(concepts)} labels")
    words = word_matrix(messages, counting)
    cmat = concepts.matrix.tocsr()
    graph = cooccurrence_graph(words, cmat)
    match = _Matching(graph, *best_match(graph, *first_appearance(messages, cmat)))
    per = _per_message(words, cmat, match)
    q = float(np.maximum(per["n_words"], per["n_concepts"]).sum())
    denominators = _denominators(per, q, counting)
    occ = words if counting == "types" else word_occurrence_matrix(messages)
    distinct = np.diff(word_matrix(messages, "types").tocsr().indptr)
    q_literal = float(np.maximum(distinct, per["n_concepts"]).sum())
    concept_hits = np.asarray((occ @ match.projection()).multiply(cmat).sum(axis=0)).ravel()
    return CBMResult(
        score=match.weight / q if q > 0 else float("nan"),
        matched_weight=match.weight,
        q=q,
        graph=graph,
        words=messages.vocab,
        concepts=concepts.names,
        word_match=match.word_match(),
        counts=_counts(len(messages), match, per, q),
        rates=_rates(per, denominators),
        per_message=per,
        precision=_nanmean_where(per["precision"], per["n_words"] > 0),
        recall=_nanmean_where(per["recall"], per["n_concepts"] > 0),
        word_uses=np.asarray(words.sum(axis=0)).ravel(),
        concept_uses=np.asarray(cmat.sum(axis=0)).ravel(),
        counting=counting,
        denominators=denominators,
        concept_hits=concept_hits,
        q_literal=q_literal,
    )


def cbm_sensitivity(
    messages: EncodedMessages,
    concepts: EncodedConcepts,
    *,
    step: int = 100,
    max_samples: int | None = 2000,
    counting: str = "occurrences",
) -> list[dict]:
    """CBM against the size of the evaluation set (paper, appendix E).

    The samples are taken in their given order in segments of ``step``. For each segment end
    ``n`` the row holds ``accumulated`` (CBM of the first ``n`` samples) and ``segment`` (CBM of
    the ``step`` samples of that segment alone), counted under ``counting`` (as
    :func:`concept_best_matching`). Only the first ``max_samples`` samples are used (``None``:
    all); one Hungarian matching is solved per row and per column.

    Examples
    --------
    >>> from wordgames.emergent.inputs import encode_concepts, encode_messages
    >>> m = encode_messages([["a"], ["a"], ["b"], ["a"]])
    >>> c = encode_concepts([["x"], ["x"], ["y"], ["y"]])
    >>> [(r["n_samples"], r["accumulated"], r["segment"]) for r in cbm_sensitivity(m, c, step=2)]
    [(2, 1.0, 1.0), (4, 0.75, 0.5)]
    """
    if step < 1:
        raise ValueError("step must be >= 1")
    n = len(messages) if max_samples is None else min(len(messages), int(max_samples))
    words = word_matrix(messages, counting)[:n].tocsr()
    cmat = concepts.matrix.tocsr()[:n]
    nw = np.asarray(words.sum(axis=1)).ravel()
    nc = np.asarray(cmat.sum(axis=1)).ravel()
    qb = np.maximum(nw, nc)
    rows, acc_graph, acc_q = [], np.zeros((words.shape[1], cmat.shape[1])), 0.0
    for start in range(0, n, step):  # one matching per segment: a loop over <= n/step segments
        stop = min(start + step, n)
        g = cooccurrence_graph(words[start:stop], cmat[start:stop])
        q = float(qb[start:stop].sum())
        acc_graph += g
        acc_q += q
        rows.append(
            {"n_samples": stop, "accumulated": _score(acc_graph, acc_q), "segment": _score(g, q)}
        )
    return rows
