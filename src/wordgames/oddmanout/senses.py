"""Sense embeddings: each word maps to a *set* of vectors (paper section 5.1).

A traditional :class:`~wordgames.embeddings.Embedding` is the one-sense case
(:meth:`SenseEmbedding.from_embedding`). Sense embeddings come from the contextual encoder
clustering of :mod:`wordgames.oddmanout.contextual`, or from a user's ``.npz`` file
(:meth:`SenseEmbedding.save` / :meth:`SenseEmbedding.load`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from wordgames.errors import DataFormatError
from wordgames.exact import unit_grid


class SenseEmbedding:
    """Words with one or more sense vectors each.

    Parameters
    ----------
    words : sequence of str, unique
    vectors : array (M, dim), the sense vectors of all words stacked word after word
    indptr : int array (len(words) + 1,): the senses of word ``i`` are rows
        ``indptr[i]:indptr[i + 1]`` of ``vectors`` (CSR layout); every word has at least one
    name : short name for tables

    Examples
    --------
    >>> import numpy as np
    >>> se = SenseEmbedding(["bat", "cat"], np.eye(3), [0, 2, 3], name="toy")
    >>> se.n_senses("bat"), se.max_senses
    (2, 2)
    """

    def __init__(
        self,
        words: Sequence[str],
        vectors: np.ndarray,
        indptr,
        *,
        name: str = "senses",
        source: str = "",
    ):
        self.words = np.asarray(list(words), dtype=object)
        self.vectors = np.asarray(vectors, dtype=np.float32)
        self.indptr = np.asarray(indptr, dtype=np.int64)
        if self.vectors.ndim != 2:
            raise ValueError("vectors must be 2-D")
        if (
            self.indptr.shape != (len(self.words) + 1,)
            or self.indptr[0] != 0
            or self.indptr[-1] != len(self.vectors)
            or (np.diff(self.indptr) < 1).any()
        ):
            raise ValueError(
                "indptr must be non-decreasing from 0 to len(vectors), with at least "
                "one sense per word"
            )
        self.word_index = {w: i for i, w in enumerate(self.words.tolist())}
        if len(self.word_index) != len(self.words):
            raise ValueError("words must be unique")
        # on the exact grid (wordgames.exact): the solvers' float64 Gram matrices are exact,
        # so a near-tie between two candidates is decided alike on every machine
        self.unit = unit_grid(self.vectors)
        self.name = name
        self.source = source

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_embedding(cls, emb, *, words: Sequence[str] | None = None) -> SenseEmbedding:
        """The one-sense case: every word of ``emb`` (or of ``words``) gets its single vector."""
        if words is None:
            rows = np.arange(len(emb))
        else:
            rows = emb.lookup(words).indices
            rows = rows[rows >= 0]
        return cls(
            emb.words[rows],
            np.asarray(emb.vectors[rows]),
            np.arange(len(rows) + 1),
            name=emb.name,
            source=getattr(emb, "source", ""),
        )

    @classmethod
    def from_dict(cls, senses: dict[str, np.ndarray], *, name: str = "senses") -> SenseEmbedding:
        words = list(senses)
        mats = [np.atleast_2d(np.asarray(senses[w], dtype=np.float32)) for w in words]
        indptr = np.concatenate([[0], np.cumsum([len(m) for m in mats])])
        return cls(words, np.concatenate(mats) if mats else np.zeros((0, 1)), indptr, name=name)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        np.savez(
            path,
            words=self.words.astype(str),
            vectors=self.vectors,
            indptr=self.indptr,
            name=np.asarray(self.name),
        )
        return path if path.suffix == ".npz" else path.with_suffix(path.suffix + ".npz")

    @classmethod
    def load(cls, path: str | Path) -> SenseEmbedding:
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as z:
                return cls(
                    z["words"].tolist(),
                    z["vectors"],
                    z["indptr"],
                    name=str(z["name"]) if "name" in z else path.stem,
                    source=str(path),
                )
        except (KeyError, ValueError, OSError) as exc:
            raise DataFormatError(
                path,
                None,
                f"expected a sense-embedding .npz with arrays 'words', 'vectors', 'indptr' ({exc})",
            ) from None

    # ------------------------------------------------------------------ access
    def __len__(self) -> int:
        return len(self.words)

    def __repr__(self) -> str:
        return (
            f"SenseEmbedding(name={self.name!r}, n_words={len(self)}, "
            f"max_senses={self.max_senses}, dim={self.dim})"
        )

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    @property
    def max_senses(self) -> int:
        return int(np.diff(self.indptr).max()) if len(self) else 0

    def n_senses(self, word: str) -> int:
        i = self.word_index[word]
        return int(self.indptr[i + 1] - self.indptr[i])

    def senses(self, word: str) -> np.ndarray:
        i = self.word_index[word]
        return self.unit[self.indptr[i] : self.indptr[i + 1]]

    def lookup(self, words: Sequence[str]) -> np.ndarray:
        get = self.word_index.get
        return np.fromiter((get(w, -1) for w in words), dtype=np.int64, count=len(words))

    def padded(self, rows: np.ndarray, k: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Unit sense vectors of word rows as a (len(rows), K, dim) tensor and its (len, K) mask."""
        rows = np.asarray(rows, dtype=np.int64)
        counts = self.indptr[rows + 1] - self.indptr[rows]
        k = int(counts.max()) if k is None and len(rows) else (k or 1)
        slot = np.arange(k)
        mask = slot[None, :] < counts[:, None]
        src = np.where(mask, self.indptr[rows][:, None] + slot[None, :], 0)
        out = self.unit[src]
        out[~mask] = 0.0
        return out, mask

    def describe(self) -> dict:
        return {
            "name": self.name,
            "source": self.source,
            "n_words": len(self),
            "n_vectors": int(len(self.vectors)),
            "max_senses": self.max_senses,
            "dim": self.dim,
        }
