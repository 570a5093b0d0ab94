"""The :class:`Embedding` type: a vocabulary in frequency order and a float32 matrix.

An ``Embedding`` is immutable from the outside: the matrix is returned read-only, and every
restriction returns a new object (sharing memory where possible). Evaluations therefore
cannot mutate the model they evaluate.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from wordgames.embeddings.validate import LoadReport  # noqa: F401 - re-exported
from wordgames.errors import OOVError

OOVPolicy = Literal["raise", "skip", "zero"]


@dataclass(frozen=True)
class Lookup:
    """Result of looking up many words: row indices (-1 where OOV) and the OOV words.

    Parameters
    ----------
    words : tuple of str
        The words looked up, in the order asked.
    indices : numpy.ndarray
        Their rows (int64), -1 for a word out of the vocabulary.

    Examples
    --------
    >>> import numpy as np
    >>> lk = Lookup(("cat", "zzz"), np.array([3, -1]))
    >>> lk.oov, lk.n_oov, lk.found.tolist()
    (['zzz'], 1, [True, False])
    """

    words: tuple[str, ...]
    indices: np.ndarray  # int64, -1 for OOV

    @property
    def found(self) -> np.ndarray:
        return self.indices >= 0

    @property
    def oov(self) -> list[str]:
        return [w for w, i in zip(self.words, self.indices, strict=True) if i < 0]

    @property
    def n_oov(self) -> int:
        return int((self.indices < 0).sum())


class Embedding:
    """Word vectors with a vocabulary in frequency order.

    Parameters
    ----------
    words : sequence of str
        The vocabulary, most frequent first. Must be unique.
    vectors : array of shape (n_words, dim)
        Converted to float32 (a memory map is kept as it is, without copying).
    name : str, optional
        A short name used in result records and tables.
    source : str, optional
        Where the vectors came from (a path or a built-in name).
    oov : {"raise", "skip", "zero"}
        Default policy of :meth:`vectors_for` for out-of-vocabulary words.

    Examples
    --------
    >>> import numpy as np
    >>> emb = Embedding(["cat", "dog"], np.array([[1.0, 0.0], [0.6, 0.8]]), name="toy")
    >>> emb.index("dog")
    1
    >>> round(emb.cosine("cat", "dog"), 2)
    0.6
    >>> "bird" in emb
    False
    """

    def __init__(
        self,
        words: Sequence[str],
        vectors: np.ndarray,
        *,
        name: str | None = None,
        source: str | None = None,
        oov: OOVPolicy = "raise",
        load_report: LoadReport | None = None,
    ):
        words_arr = np.asarray(
            list(words) if not isinstance(words, np.ndarray) else words, dtype=object
        )
        vectors = np.asarray(vectors)
        if vectors.ndim != 2:
            raise ValueError(f"vectors must be 2-D, got shape {vectors.shape}")
        if vectors.shape[0] != len(words_arr):
            raise ValueError(
                f"{len(words_arr)} words but {vectors.shape[0]} vector rows: they must match"
            )
        if vectors.dtype != np.float32:
            vectors = vectors.astype(np.float32)
        if oov not in ("raise", "skip", "zero"):
            raise ValueError(f"oov policy must be 'raise', 'skip' or 'zero', got {oov!r}")
        self._words = words_arr
        self._vectors = vectors
        self._index: dict[str, int] | None = None
        self._unit: np.ndarray | None = None
        self._fingerprint: str | None = None
        # where the matrix is mapped from keeps its exact grids: ``grids(kind, vectors)`` gives
        # them (``cache.folder_grid`` of that folder, set by the cache; None: in memory)
        self._grid_folder = None
        self._grids = None
        self.name = name or "embedding"
        self.source = source or ""
        self.oov = oov
        self.load_report = load_report or LoadReport(source=self.source)

    # ------------------------------------------------------------------ basics
    def __len__(self) -> int:
        return len(self._words)

    def __repr__(self) -> str:
        return f"Embedding(name={self.name!r}, n_words={len(self)}, dim={self.dim})"

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self.word_index

    @property
    def dim(self) -> int:
        return int(self._vectors.shape[1])

    @property
    def words(self) -> np.ndarray:
        """The vocabulary (object array of str), most frequent first. Read-only view."""
        view = self._words.view()
        view.flags.writeable = False
        return view

    @property
    def vectors(self) -> np.ndarray:
        """The float32 matrix, read-only."""
        view = self._vectors.view()
        view.flags.writeable = False
        return view

    @property
    def word_index(self) -> dict[str, int]:
        if self._index is None:
            index = dict(zip(self._words.tolist(), range(len(self._words)), strict=True))
            if len(index) != len(self._words):
                raise ValueError(
                    "vocabulary has duplicate words; loaders drop them, constructors must not receive them"
                )
            self._index = index
        return self._index

    @property
    def unit(self) -> np.ndarray:
        """Unit-normalised float32 copy of the matrix (rows of norm 0 stay 0), read-only.

        Rounded to multiples of 2**-24 (:func:`wordgames.exact.unit_grid`) by operations that
        give the same bits on every CPU, so that :func:`wordgames.exact.cosines` of its rows
        is exact: every machine and every code path compares the same similarities.
        """
        if self._unit is None and getattr(self, "_grids", None) is not None:
            self._unit = self._grids("unit", self._vectors)[0]
        if self._unit is None:
            from wordgames.exact import unit_grid

            # C order: rows are gathered everywhere, and the package's .npy is Fortran-ordered
            self._unit = unit_grid(self._vectors)
        return self._unit

    @property
    def raw_grid(self) -> tuple[np.ndarray, int]:
        """The raw vectors on an exact grid, for exact Euclidean distances (``exact.raw_grid``)."""
        if getattr(self, "_raw_grid", None) is None and getattr(self, "_grids", None) is not None:
            self._raw_grid = self._grids("raw", self._vectors)
        if getattr(self, "_raw_grid", None) is None:
            from wordgames.exact import raw_grid

            self._raw_grid = raw_grid(self._vectors)
        return self._raw_grid

    def fingerprint(self) -> str:
        """sha256 of the vocabulary and the matrix bytes: identifies the content, not the path."""
        if self._fingerprint is None:
            h = hashlib.sha256()
            h.update(f"{len(self)}x{self.dim}\n".encode())
            h.update("\n".join(self._words.tolist()).encode("utf-8"))
            arr = np.ascontiguousarray(self._vectors)
            # chunked so that a memory-mapped matrix is never copied whole
            step = max(1, (64 << 20) // max(1, arr.strides[0]))
            for start in range(0, len(arr), step):
                h.update(arr[start : start + step].tobytes())
            self._fingerprint = h.hexdigest()
        return self._fingerprint

    def describe(self) -> dict:
        """A JSON-able description for result records."""
        return {
            "name": self.name,
            "source": self.source,
            "n_words": len(self),
            "dim": self.dim,
            "sha256": self.fingerprint(),
            "oov_policy": self.oov,
            "load_report": self.load_report.as_dict(),
        }

    # ------------------------------------------------------------------ lookup
    def index(self, word: str) -> int:
        """Row of ``word``; raises :class:`~wordgames.errors.OOVError` if absent."""
        try:
            return self.word_index[word]
        except KeyError:
            raise OOVError(f"{word!r} is not in the vocabulary of {self.name}") from None

    def lookup(self, words: Iterable[str]) -> Lookup:
        """Indices of many words at once, -1 for out-of-vocabulary ones (never raises)."""
        words = tuple(words)
        get = self.word_index.get
        idx = np.fromiter((get(w, -1) for w in words), dtype=np.int64, count=len(words))
        return Lookup(words, idx)

    def vector(self, word: str, *, normalized: bool = False) -> np.ndarray:
        row = self.index(word)
        return (self.unit if normalized else self.vectors)[row]

    def vectors_for(
        self, words: Iterable[str], *, normalized: bool = False, oov: OOVPolicy | None = None
    ) -> tuple[np.ndarray, Lookup]:
        """Matrix of the vectors of ``words`` and the :class:`Lookup` that says which were OOV.

        ``oov="raise"`` raises on the first OOV word, ``"skip"`` leaves OOV words out of the
        matrix, ``"zero"`` gives them zero rows. The lookup is always returned so callers can
        count and report what was OOV.
        """
        policy = oov or self.oov
        look = self.lookup(words)
        mat = self.unit if normalized else self._vectors
        if policy == "raise":
            if look.n_oov:
                raise OOVError(
                    f"{look.n_oov} word(s) not in the vocabulary of {self.name}: {look.oov[:5]}"
                )
            return np.asarray(mat[look.indices]), look
        if policy == "skip":
            return np.asarray(mat[look.indices[look.found]]), look
        out = np.zeros((len(look.words), self.dim), dtype=np.float32)
        out[look.found] = mat[look.indices[look.found]]
        return out, look

    # ------------------------------------------------------------------ geometry
    def cosine(self, a: str, b: str) -> float:
        u = self.unit
        return float(u[self.index(a)] @ u[self.index(b)])

    def euclidean(self, a: str, b: str) -> float:
        v = self._vectors
        return float(np.linalg.norm(v[self.index(a)] - v[self.index(b)]))

    def cosine_matrix(self, rows_a: np.ndarray, rows_b: np.ndarray | None = None) -> np.ndarray:
        """Cosine similarities between rows ``rows_a`` and ``rows_b`` (all rows if None)."""
        u = self.unit
        a = u[np.asarray(rows_a)]
        b = u if rows_b is None else u[np.asarray(rows_b)]
        return a @ b.T

    def nearest(
        self, word_or_vector: str | np.ndarray, k: int = 10, *, exclude: Iterable[str] = ()
    ) -> list[tuple[str, float]]:
        """The ``k`` words of highest cosine similarity (one matrix-vector product)."""
        if isinstance(word_or_vector, str):
            q = self.unit[self.index(word_or_vector)]
            exclude = set(exclude) | {word_or_vector}
        else:
            q = np.asarray(word_or_vector, dtype=np.float32)
            q = q / (np.linalg.norm(q) or 1.0)
            exclude = set(exclude)
        sims = self.unit @ q
        ex = self.lookup(exclude)
        sims[ex.indices[ex.found]] = -np.inf
        k = min(k, len(self) - int(ex.found.sum()))
        top = np.argpartition(-sims, k - 1)[:k] if k > 0 else np.array([], dtype=int)
        top = top[np.argsort(-sims[top], kind="stable")]
        return [(self._words[i], float(sims[i])) for i in top]

    # ------------------------------------------------------------------ restriction
    def take(self, rows: np.ndarray, *, name: str | None = None) -> Embedding:
        """A new embedding made of the given rows, in the given order."""
        rows = np.asarray(rows, dtype=np.int64)
        emb = Embedding(
            self._words[rows],
            np.asarray(self._vectors[rows]),
            name=name or self.name,
            source=self.source,
            oov=self.oov,
            load_report=self.load_report,
        )
        if self._unit is not None:
            emb._unit = self._unit[rows]
        return emb

    def restrict(
        self,
        *,
        top_n: int | None = None,
        words: Iterable[str] | None = None,
        lower_alpha: bool = False,
        name: str | None = None,
    ) -> Embedding:
        """Restrict the vocabulary (see :func:`wordgames.embeddings.vocab.restrict`)."""
        from wordgames.embeddings.vocab import restrict

        return restrict(self, top_n=top_n, words=words, lower_alpha=lower_alpha, name=name)

    def save(self, path, format: str = "word2vec"):  # noqa: A002 - the word users expect
        """Write the embedding in a format wordgames reads (:mod:`wordgames.embeddings.writers`).

        ``format``: ``"word2vec"``, ``"fasttext"``, ``"glove"``, ``"word2vec-binary"``,
        ``"npy"`` (with the word list beside it) or ``"gensim"``; a path ending in ``.gz`` is
        gzip-packed. Returns the path.
        """
        from wordgames.embeddings.writers import save_embedding

        return save_embedding(self, path, format=format)

    def with_name(self, name: str) -> Embedding:
        emb = Embedding(
            self._words,
            self._vectors,
            name=name,
            source=self.source,
            oov=self.oov,
            load_report=self.load_report,
        )
        emb._index, emb._unit, emb._fingerprint = self._index, self._unit, self._fingerprint
        emb._grid_folder = getattr(self, "_grid_folder", None)
        emb._grids = getattr(self, "_grids", None)
        emb._raw_grid = getattr(self, "_raw_grid", None)
        return emb
