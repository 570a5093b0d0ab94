"""From puzzle words to vectors, with a selectable policy for multi-word expressions.

Puzzle words are free text: "fire engine", "bloody mary", "Peking duck". Policies:

``"phrase"``
    look up the expression with ``_`` between the tokens (``fire_engine``), as word2vec
    GoogleNews and WordNet spell phrases; not found means out of vocabulary.
``"mean"``
    the mean of the unit vectors of the tokens (every token must be found).
``"phrase-or-mean"`` (default)
    the phrase when the vocabulary has it, else the mean of the tokens.
``"abstain"``
    every multi-word expression counts as out of vocabulary (the solver abstains).

Case: every lookup tries the word as written, then lower-cased (``case="fallback-lower"``,
the default); ``case="exact"`` does not lower-case. The policy and the counts of each kind of
lookup go into the result (:class:`Resolved`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wordgames.oddmanout.senses import SenseEmbedding

MWE_POLICIES = ("phrase", "mean", "phrase-or-mean", "abstain")
CASE_POLICIES = ("fallback-lower", "exact")


@dataclass
class Resolved:
    """Sense vectors of distinct puzzle words.

    ``senses`` is a :class:`SenseEmbedding` over the found words; ``index`` maps each input
    word to its row there (-1 when it has no vector); ``how`` says how each word was found
    (``"word"``, ``"lower"``, ``"phrase"``, ``"mean"``, ``"oov"``).
    """

    words: list[str]
    index: np.ndarray
    how: np.ndarray
    senses: SenseEmbedding
    mwe: str
    case: str

    def counts(self) -> dict:
        kinds, n = np.unique(self.how, return_counts=True)
        out = {f"lookup_{k}": int(c) for k, c in zip(kinds.tolist(), n.tolist(), strict=True)}
        out["distinct_words"] = len(self.words)
        out["oov_words"] = int((self.index < 0).sum())
        out["multiword"] = sum(" " in w for w in self.words)
        return out

    @property
    def oov(self) -> list[str]:
        return [w for w, i in zip(self.words, self.index.tolist(), strict=True) if i < 0]


def _lookup(get, words: list[str], case: str) -> tuple[np.ndarray, np.ndarray]:
    idx = np.fromiter((get(w, -1) for w in words), dtype=np.int64, count=len(words))
    lowered = np.zeros(len(words), dtype=bool)
    if case == "fallback-lower":
        miss = np.flatnonzero(idx < 0)
        low = np.fromiter(
            (get(words[i].lower(), -1) for i in miss.tolist()), dtype=np.int64, count=len(miss)
        )
        idx[miss] = low
        lowered[miss] = low >= 0
    return idx, lowered


def _csr_rows(indptr: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Concatenated ranges ``indptr[r]:indptr[r+1]`` for every r in rows (no Python loop)."""
    counts = indptr[rows + 1] - indptr[rows]
    starts = np.repeat(indptr[rows] - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
    return starts + np.arange(int(counts.sum()))


def resolve(model, words, *, mwe: str = "phrase-or-mean", case: str = "fallback-lower") -> Resolved:
    """Find the vectors of ``words`` in ``model`` (an Embedding or a SenseEmbedding).

    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> emb = Embedding(["fire", "engine", "fire_truck"], np.eye(3), name="toy")
    >>> r = resolve(emb, ["fire engine", "fire truck", "Fire", "dog"])
    >>> r.how.tolist()
    ['mean', 'phrase', 'lower', 'oov']
    """
    if mwe not in MWE_POLICIES:
        raise ValueError(f"mwe policy must be one of {MWE_POLICIES}, got {mwe!r}")
    if case not in CASE_POLICIES:
        raise ValueError(f"case policy must be one of {CASE_POLICIES}, got {case!r}")
    senses = model if isinstance(model, SenseEmbedding) else None
    get = (senses.word_index if senses is not None else model.word_index).get
    words = list(words)
    n = len(words)
    is_mwe = np.fromiter((" " in w.strip() for w in words), dtype=bool, count=n)
    how = np.full(n, "oov", dtype=object)
    idx = np.full(n, -1, dtype=np.int64)
    # single words: as written, then lower-cased
    single = np.flatnonzero(~is_mwe)
    s_idx, s_low = _lookup(get, [words[i] for i in single.tolist()], case)
    idx[single] = s_idx
    how[single[s_idx >= 0]] = "word"
    how[single[s_low]] = "lower"
    multi = np.flatnonzero(is_mwe)
    if mwe in ("phrase", "phrase-or-mean") and len(multi):
        p_idx, _ = _lookup(get, ["_".join(words[i].split()) for i in multi.tolist()], case)
        idx[multi] = p_idx
        how[multi[p_idx >= 0]] = "phrase"
    # build the sense table of found words (rows of the model), then add token means
    base_rows = idx[idx >= 0]
    if senses is None:
        vec_src = model.unit
        counts = np.ones(len(base_rows), dtype=np.int64)
        vecs = [np.asarray(vec_src[base_rows])]
    else:
        counts = senses.indptr[base_rows + 1] - senses.indptr[base_rows]
        take = _csr_rows(senses.indptr, base_rows)
        vecs = [senses.unit[take]]
    new_index = np.full(n, -1, dtype=np.int64)
    new_index[idx >= 0] = np.arange(len(base_rows))
    mean_words = multi[idx[multi] < 0] if mwe in ("mean", "phrase-or-mean") else multi[:0]
    mean_rows = []
    if len(mean_words):
        tokens = [words[i].split() for i in mean_words.tolist()]
        flat = [t for toks in tokens for t in toks]
        t_idx, _ = _lookup(get, flat, case)
        lens = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
        starts = np.concatenate([[0], np.cumsum(lens)[:-1]])
        all_found = np.minimum.reduceat(t_idx, starts) >= 0
        if senses is None:
            tok_vec = np.asarray(model.unit[np.where(t_idx >= 0, t_idx, 0)], dtype=np.float64)
        else:  # a token's vector is the mean of its senses
            sums = np.add.reduceat(senses.unit.astype(np.float64), senses.indptr[:-1], axis=0)
            sums /= np.diff(senses.indptr)[:, None]
            tok_vec = sums[np.where(t_idx >= 0, t_idx, 0)]
        mean = np.add.reduceat(tok_vec, starts, axis=0)
        mean /= np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-12)
        ok = np.flatnonzero(all_found)
        mean_rows = [mean[ok].astype(np.float32)]
        start = len(base_rows)
        new_index[mean_words[ok]] = start + np.arange(len(ok))
        how[mean_words[ok]] = "mean"
        counts = np.concatenate([counts, np.ones(len(ok), dtype=np.int64)])
    all_vecs = np.concatenate(vecs + mean_rows) if (vecs + mean_rows) else np.zeros((0, 1))
    indptr = np.concatenate([[0], np.cumsum(counts)])
    found_words = np.asarray(words, dtype=object)[
        np.argsort(np.where(new_index >= 0, new_index, n + 1), kind="stable")
    ]
    found_words = found_words[: int((new_index >= 0).sum())]
    if all_vecs.shape[0] == 0:
        all_vecs = np.zeros((0, model.dim if senses is None else senses.dim), dtype=np.float32)
    table = SenseEmbedding(
        found_words.tolist(), all_vecs, indptr, name=getattr(model, "name", "embedding")
    )
    return Resolved(words, new_index, how, table, mwe, case)
