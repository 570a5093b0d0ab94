"""Tiny embeddings and records shared by the Codenames tests."""

from __future__ import annotations

import numpy as np

from wordgames.embeddings import Embedding


def angles_embedding(angles: dict[str, float], name: str = "toy") -> Embedding:
    """2-D unit vectors at the given angles (degrees): cosine = cos(angle difference)."""
    words = list(angles)
    rad = np.deg2rad([angles[w] for w in words])
    return Embedding(words, np.stack([np.cos(rad), np.sin(rad)], 1), name=name)


def random_embedding(
    n: int = 400, dim: int = 6, seed: int = 0, name: str = "rand", duplicates: int = 0
) -> Embedding:
    """Random vectors; the last ``duplicates`` words copy earlier vectors (exact ties)."""
    rng = np.random.default_rng(seed)
    vec = rng.normal(size=(n, dim)).astype(np.float32)
    if duplicates:
        vec[n - duplicates :] = vec[:duplicates]
    return Embedding([f"w{i}" for i in range(n)], vec, name=name)


class FakeSims:
    """Stands for VocabSims with a given closeness matrix (rows: board words)."""

    def __init__(self, words, mat):
        self.words = list(words)
        self.mat = np.asarray(mat, dtype=np.float32)
        self.row = {w: i for i, w in enumerate(self.words)}
        self.n_cols = self.mat.shape[1]
        self.n_vocab = self.n_cols
        self.cols = slice(0, self.n_cols)
        self.col_rows = np.arange(self.n_cols)

    def rows(self, words):
        return [self.row[w] for w in words]
