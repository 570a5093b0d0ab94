"""A built-in, offline family of embeddings derived from GloVe 6B 50d, for correlation studies.

A correlation across embeddings (WALES Figure 1) needs several embeddings of different
quality. Without downloads, this family provides them from the built-in ``glove-6b-50d``:

* ``glove-6b-50d-pca{5,10,20,30,50}`` -- PCA (centred, fitted on all 400,000 words) to k
  dimensions. ``pca50`` keeps every dimension: it differs from GloVe only by centring.
* ``glove-6b-50d-top{10k,50k,100k,400k}`` -- the N most frequent words, vectors unchanged
  (``top400k`` is the whole of GloVe 6B 50d under a family name).
* ``random-50d`` -- the control: a Gaussian matrix of GloVe's shape (400,000 x 50) with
  GloVe's words, from ``np.random.default_rng(seed)``.

Members are deterministic (PCA by an exact eigendecomposition with a fixed sign convention;
the random control from its seed), take well under a second each, and are memoised within a
process.

Examples
--------
>>> "glove-6b-50d-pca10" in FAMILY_NAMES
True
>>> emb = load_family_member("glove-6b-50d-pca10")  # doctest: +SKIP
>>> emb.dim  # doctest: +SKIP
10
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from wordgames.embeddings.core import Embedding, LoadReport
from wordgames.errors import WordgamesError

BASE = "glove-6b-50d"
PCA_DIMS = (5, 10, 20, 30, 50)
TOP_SIZES = (10_000, 50_000, 100_000, 400_000)
RANDOM_DIMS = (50,)


@dataclass(frozen=True)
class FamilyMember:
    """One member of the built-in family: its name, how it is made, and a description."""

    name: str
    kind: str  # "pca", "top" or "random"
    size: int  # output dimension (pca, random) or vocabulary size (top)
    description: str


def _members() -> tuple[FamilyMember, ...]:
    out = [
        FamilyMember(
            f"{BASE}-pca{k}",
            "pca",
            k,
            f"GloVe 6B 50d, centred and projected on its first {k} principal components",
        )
        for k in PCA_DIMS
    ]
    out += [
        FamilyMember(
            f"{BASE}-top{n // 1000}k",
            "top",
            n,
            f"GloVe 6B 50d restricted to its {n:,} most frequent words",
        )
        for n in TOP_SIZES
    ]
    out += [
        FamilyMember(
            f"random-{d}d",
            "random",
            d,
            f"control: standard Gaussian vectors ({d} dims) for GloVe's 400,000 words",
        )
        for d in RANDOM_DIMS
    ]
    return tuple(out)


MEMBERS: tuple[FamilyMember, ...] = _members()
FAMILY_NAMES: tuple[str, ...] = tuple(m.name for m in MEMBERS)


def family_members() -> tuple[FamilyMember, ...]:
    """Every member of the built-in family, in a stable order."""
    return MEMBERS


def is_family_member(name: str) -> bool:
    """Whether ``name`` is a member of the built-in family."""
    return name in FAMILY_NAMES


@lru_cache(maxsize=1)
def _base() -> Embedding:
    from wordgames.embeddings.loaders import load_builtin

    return load_builtin(BASE)


@lru_cache(maxsize=1)
def _pca_basis() -> tuple[np.ndarray, np.ndarray]:
    """Column mean and principal axes (d x d, by decreasing variance) of GloVe 6B 50d."""
    x = _base().vectors
    n = len(x)
    gram = np.zeros((x.shape[1], x.shape[1]))
    total = np.zeros(x.shape[1])
    for start in range(0, n, 65536):  # float64 accumulation, chunk by chunk
        chunk = np.asarray(x[start : start + 65536], dtype=np.float64)
        gram += chunk.T @ chunk
        total += chunk.sum(axis=0)
    mean = total / n
    cov = gram - n * np.outer(mean, mean)
    vals, vecs = np.linalg.eigh(cov)
    vecs = vecs[:, np.argsort(vals)[::-1]]
    # fixed sign: the largest-magnitude entry of each axis is positive (eigh's sign is arbitrary)
    signs = np.sign(vecs[np.abs(vecs).argmax(axis=0), np.arange(vecs.shape[1])])
    return mean, vecs * signs


@lru_cache(maxsize=1)
def _pca_scores() -> np.ndarray:
    """GloVe 6B 50d centred and rotated onto all its principal axes (float32, computed once)."""
    mean, axes = _pca_basis()
    return ((np.asarray(_base().vectors, dtype=np.float64) - mean) @ axes).astype(np.float32)


@lru_cache(maxsize=32)
def _build(name: str, seed: int) -> Embedding:
    member = next((m for m in MEMBERS if m.name == name), None)
    if member is None:
        raise WordgamesError(f"unknown family member {name!r}; known: {', '.join(FAMILY_NAMES)}")
    base = _base()
    source = f"family:{name}"
    if member.kind == "top":
        emb = base.restrict(top_n=member.size, name=name)
    elif member.kind == "pca":
        vectors = np.ascontiguousarray(_pca_scores()[:, : member.size])
        emb = Embedding(base.words, vectors, name=name)
    else:
        rng = np.random.default_rng(seed)
        vectors = rng.standard_normal((len(base), member.size), dtype=np.float32)
        emb = Embedding(base.words, vectors, name=name)
    if member.kind == "random":
        source += f"?seed={seed}"
    report = LoadReport(source=source, format="family", n_rows_read=len(emb))
    return Embedding(emb.words, emb.vectors, name=name, source=source, load_report=report)


def load_family_member(name: str, *, seed: int = 0) -> Embedding:
    """One member of the built-in family by name (memoised within the process).

    Parameters
    ----------
    name : one of :data:`FAMILY_NAMES`
    seed : seed of the random control (ignored by the GloVe-derived members)
    """
    return _build(name, int(seed) if name.startswith("random-") else 0)


def load_family(names=None, *, seed: int = 0) -> list[Embedding]:
    """Several members (default: the whole family), in the order given."""
    return [load_family_member(n, seed=seed) for n in (names or FAMILY_NAMES)]
