"""Concept-Best-Matching (Carmeli, Belinkov and Meir 2024): best match of EC words to concepts.

Definitions used throughout (sample ``b`` = one message with its label):

* ``S_b`` -- the **set** of words of message ``b`` after EOS, everything after the first EOS and
  padding are removed (:mod:`wordgames.emergent.inputs`). A word repeated within one message
  counts **once**: the paper normalises by ``m_b = |{w}_b|``, a set size, and counting repeats
  in the edge weights but not in ``Q`` lets the score exceed 1 (the paper's Table 3 reports 1.401
  for its experiment 5). EOS and padding symbols are never words.
* ``V_b`` -- the set of concepts (feature-value pairs) of the label of sample ``b``.
* graph ``G`` -- ``G[w, c] = #{b : w in S_b and c in V_b}``, the number of messages containing
  word ``w`` that were sent for a label containing concept ``c``; computed as ``N.T @ C`` with
  ``N`` the binary ``B x W`` word-occurrence matrix and ``C`` the binary ``B x C`` concept matrix.
* match ``M`` -- a maximum-weight one-to-one matching of words to concepts in ``G``
  (``scipy.optimize.linear_sum_assignment(maximize=True)`` on the rectangular matrix); a pair of
  weight 0 is not a match, so a word or concept without a positive edge stays unmatched.
* ``Q = sum_b max(|S_b|, |V_b|)`` and ``CBM = sum_{(w, c) in M} G[w, c] / Q``, in ``[0, 1]``.

Every word occurrence (an element of some ``S_b``) falls in exactly one class, and so does every
concept occurrence (an element of some ``V_b``):

* **good** -- word ``w in S_b`` is matched to a concept ``M(w) in V_b``; seen from the concept
  side, concept ``c in V_b`` is matched to a word in ``S_b``. The two counts are equal, and their
  sum over samples is the matched weight.
* **ambiguity** (word side) -- ``w in S_b`` is matched, but its concept ``M(w)`` is not in ``V_b``:
  the word is used for something other than its translation.
* **paraphrase** (word side) -- ``w in S_b`` is not matched to any concept.
* **omission** (concept side, the mirror of ambiguity) -- ``c in V_b`` is matched, but its word
  ``M^-1(c)`` is not in ``S_b``.
* **unmatched concept** (concept side, the mirror of paraphrase) -- ``c in V_b`` has no matched word.

So ``|S_b| = good_b + amb_b + para_b`` and ``|V_b| = good_b + omit_b + unm_b``. Every rate is the
sum of its count over samples divided by the same ``Q``, hence ``CBM + Amb + Para = sum|S_b| / Q``
and ``CBM + Omit + Unm = sum|V_b| / Q``; each side sums to 1 when its messages (or labels) are at
least as long as the other side, as in the paper's Table 1 (CBM + Amb + Para = 1).

Per-message precision is ``good_b / |S_b|`` and recall ``good_b / |V_b|`` (paper, appendix D);
their means are taken over the messages with at least one word (precision) or concept (recall),
and the messages left out are counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from wordgames.emergent.inputs import EncodedConcepts, EncodedMessages


def word_occurrence_matrix(messages: EncodedMessages) -> sp.csr_matrix:
    """Binary ``B x W`` matrix: ``N[b, w] = 1`` when word ``w`` occurs in message ``b`` (once or more)."""
    codes = messages.codes
    b = codes.shape[0]
    if codes.size == 0:
        return sp.csr_matrix((b, messages.n_words))
    # a word seen twice in a row of the sorted codes is a repeat: keep its first copy only
    s = np.sort(codes, axis=1)
    keep = s >= 0
    keep[:, 1:] &= s[:, 1:] != s[:, :-1]
    rows = np.broadcast_to(np.arange(b)[:, None], s.shape)[keep]
    cols = s[keep]
    return sp.csr_matrix((np.ones(cols.size), (rows, cols)), shape=(b, messages.n_words))


def cooccurrence_graph(occurrence: sp.spmatrix, concepts: sp.spmatrix) -> np.ndarray:
    """Dense ``W x C`` edge weights ``G = N.T @ C`` (see the module docstring)."""
    return np.asarray((occurrence.T.tocsr() @ concepts).toarray(), dtype=np.float64)


def best_match(graph: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximum-weight one-to-one matching of rows (words) to columns (concepts).

    Returns the matched ``(rows, cols)``, pairs of positive weight only.

    Only a few rows can be in some optimal matching: for a column ``c`` matched to a row outside
    the ``C`` heaviest rows of ``c``, one of those heaviest rows is free (the other ``C - 1``
    columns hold at most ``C - 1`` of them) and at least as heavy, so swapping it in loses
    nothing. The search is therefore restricted to the union of each column's ``C`` heaviest rows
    (and symmetrically for columns) before the Hungarian algorithm runs.

    Examples
    --------
    >>> rows, cols = best_match(np.array([[3., 2.], [2., 0.], [0., 0.]]))
    >>> rows.tolist(), cols.tolist()
    ([0, 1], [1, 0])
    """
    from scipy.optimize import linear_sum_assignment

    graph = np.asarray(graph, dtype=np.float64)
    if graph.size == 0 or not (graph > 0).any():
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    row_ids = np.flatnonzero((graph > 0).any(axis=1))
    col_ids = np.flatnonzero((graph > 0).any(axis=0))
    sub = graph[np.ix_(row_ids, col_ids)]
    n_r, n_c = sub.shape
    if n_r > n_c * n_c:
        top = np.argpartition(-sub, n_c - 1, axis=0)[:n_c]
        keep = np.unique(top)
        row_ids, sub = row_ids[keep], sub[keep]
    elif n_c > n_r * n_r:
        top = np.argpartition(-sub, n_r - 1, axis=1)[:, :n_r]
        keep = np.unique(top)
        col_ids, sub = col_ids[keep], sub[:, keep]
    r, c = linear_sum_assignment(sub, maximize=True)
    positive = sub[r, c] > 0
    return row_ids[r[positive]].astype(np.int64), col_ids[c[positive]].astype(np.int64)


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
    rates : ambiguity, paraphrase, omission and unmatched-concept rates (all over Q)
    per_message : arrays (length B) n_words, n_concepts, good, ambiguous, paraphrase, omitted,
        unmatched, precision, recall (precision/recall NaN where undefined)
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

    def translation(self) -> dict[str, tuple[str, float]]:
        """Matched word -> (concept, edge weight), heaviest first."""
        w = np.flatnonzero(self.word_match >= 0)
        c = self.word_match[w]
        weights = self.graph[w, c]
        order = np.argsort(-weights, kind="stable")
        return {str(self.words[w[i]]): (str(self.concepts[c[i]]), float(weights[i])) for i in order}

    def translation_table(self) -> list[dict]:
        """The translation as rows, heaviest first.

        ``word_uses`` is the number of messages containing the word and ``share`` the fraction of
        them sent for a label holding its matched concept (``weight / word_uses``);
        ``concept_uses`` and ``concept_share`` are the same from the concept side.
        """
        w = np.flatnonzero(self.word_match >= 0)
        c = self.word_match[w]
        weights = self.graph[w, c]
        wu = self.word_uses[w] if self.word_uses is not None else self.graph[w].sum(axis=1)
        cu = self.concept_uses[c] if self.concept_uses is not None else self.graph[:, c].sum(axis=0)
        order = np.argsort(-weights, kind="stable")
        return [
            {
                "word": str(self.words[w[i]]),
                "concept": str(self.concepts[c[i]]),
                "weight": float(weights[i]),
                "word_uses": int(wu[i]),
                "share": float(weights[i] / wu[i]) if wu[i] else 0.0,
                "concept_uses": int(cu[i]),
                "concept_share": float(weights[i] / cu[i]) if cu[i] else 0.0,
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


def _per_message(
    occ: sp.csr_matrix, cmat: sp.csr_matrix, match: _Matching
) -> dict[str, np.ndarray]:
    """Each message's word and concept counts, their classes, precision and recall.

    Parameters
    ----------
    occ : scipy.sparse.csr_matrix
        The ``B x W`` word-occurrence matrix ``N``.
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
    n_w, n_c = match.graph.shape
    rows, cols = match.rows, match.cols
    n_words = np.asarray(occ.sum(axis=1)).ravel()
    n_concepts = np.asarray(cmat.sum(axis=1)).ravel()
    # P maps each matched word to its concept; (N @ P)[b, c] = 1 when c's word is in message b
    p = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n_w, n_c))
    np_ = (occ @ p).tocsr()
    good = np.asarray(np_.multiply(cmat).sum(axis=1)).ravel()
    used_matched = np.asarray(np_.sum(axis=1)).ravel()
    concept_matched = np.zeros(n_c, dtype=np.float64)
    concept_matched[cols] = 1.0
    matched_concepts_in_label = cmat @ concept_matched
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(n_words > 0, good / np.maximum(n_words, 1), np.nan)
        recall = np.where(n_concepts > 0, good / np.maximum(n_concepts, 1), np.nan)
    return {
        "n_words": n_words,
        "n_concepts": n_concepts,
        "good": good,
        "ambiguous": used_matched - good,
        "paraphrase": n_words - used_matched,
        "omitted": matched_concepts_in_label - good,
        "unmatched": n_concepts - matched_concepts_in_label,
        "precision": precision,
        "recall": recall,
    }


def _total(x: np.ndarray) -> int:
    """The sum of ``x``, rounded to an int."""
    return int(round(float(x.sum())))


def _counts(n_samples: int, match: _Matching, per: dict[str, np.ndarray]) -> dict[str, int]:
    """The totals of :attr:`CBMResult.counts` from the per-message classes ``per``."""
    n_w, n_c = match.graph.shape
    n_pairs = match.rows.size
    return {
        "samples": int(n_samples),
        "word_occurrences": _total(per["n_words"]),
        "concept_occurrences": _total(per["n_concepts"]),
        "good": _total(per["good"]),
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


def _rates(per: dict[str, np.ndarray], q: float) -> dict[str, float]:
    """The class rates of :attr:`CBMResult.rates`: each class total over ``Q`` (NaN when Q = 0)."""

    def rate(x):
        return float(x.sum() / q) if q > 0 else float("nan")

    return {
        "ambiguity": rate(per["ambiguous"]),
        "paraphrase": rate(per["paraphrase"]),
        "omission": rate(per["omitted"]),
        "unmatched_concept": rate(per["unmatched"]),
    }


def _nanmean_where(values: np.ndarray, defined: np.ndarray) -> float:
    """Mean of ``values`` over the NaN-free entries; NaN when ``defined`` is all false."""
    return float(np.nanmean(values)) if defined.any() else float("nan")


def concept_best_matching(messages: EncodedMessages, concepts: EncodedConcepts) -> CBMResult:
    """Concept-Best-Matching with every by-product (definitions in the module docstring).

    Parameters
    ----------
    messages : encoded messages (:func:`wordgames.emergent.inputs.encode_messages`)
    concepts : encoded labels of the same samples (:func:`~wordgames.emergent.inputs.encode_concepts`)

    Examples
    --------
    >>> from wordgames.emergent.inputs import encode_concepts, encode_messages
    >>> m = encode_messages([["a", "b"], ["a", "c"]])
    >>> c = encode_concepts([["red", "box"], ["red", "ball"]])
    >>> r = concept_best_matching(m, c)
    >>> r.score, r.translation()["a"]
    (1.0, ('red', 2.0))
    """
    if len(messages) != len(concepts):
        raise ValueError(f"{len(messages)} messages but {len(concepts)} labels")
    occ = word_occurrence_matrix(messages)
    cmat = concepts.matrix.tocsr()
    graph = cooccurrence_graph(occ, cmat)
    match = _Matching(graph, *best_match(graph))
    per = _per_message(occ, cmat, match)
    q = float(np.maximum(per["n_words"], per["n_concepts"]).sum())
    matched_weight = match.weight
    return CBMResult(
        score=matched_weight / q if q > 0 else float("nan"),
        matched_weight=matched_weight,
        q=q,
        graph=graph,
        words=messages.vocab,
        concepts=concepts.names,
        word_match=match.word_match(),
        counts=_counts(len(messages), match, per),
        rates=_rates(per, q),
        per_message=per,
        precision=_nanmean_where(per["precision"], per["n_words"] > 0),
        recall=_nanmean_where(per["recall"], per["n_concepts"] > 0),
        word_uses=np.asarray(occ.sum(axis=0)).ravel(),
        concept_uses=np.asarray(cmat.sum(axis=0)).ravel(),
    )


def cbm_sensitivity(
    messages: EncodedMessages,
    concepts: EncodedConcepts,
    *,
    step: int = 100,
    max_samples: int | None = 2000,
) -> list[dict]:
    """CBM against the size of the evaluation set (paper, appendix E).

    The samples are taken in their given order in segments of ``step``. For each segment end
    ``n`` the row holds ``accumulated`` (CBM of the first ``n`` samples) and ``segment`` (CBM of
    the ``step`` samples of that segment alone). Only the first ``max_samples`` samples are used
    (``None``: all); one Hungarian matching is solved per row and per column.

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
    occ = word_occurrence_matrix(messages)[:n].tocsr()
    cmat = concepts.matrix.tocsr()[:n]
    nw = np.asarray(occ.sum(axis=1)).ravel()
    nc = np.asarray(cmat.sum(axis=1)).ravel()
    qb = np.maximum(nw, nc)
    rows, acc_graph, acc_q = [], np.zeros((occ.shape[1], cmat.shape[1])), 0.0
    for start in range(0, n, step):  # one matching per segment: a loop over <= n/step segments
        stop = min(start + step, n)
        g = cooccurrence_graph(occ[start:stop], cmat[start:stop])
        q = float(qb[start:stop].sum())
        acc_graph += g
        acc_q += q
        rows.append(
            {"n_samples": stop, "accumulated": _score(acc_graph, acc_q), "segment": _score(g, q)}
        )
    return rows
