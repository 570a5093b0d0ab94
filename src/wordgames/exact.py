"""Similarities that every machine computes to the same bit.

A float32 matrix product is not one number: BLAS builds, SIMD widths, thread counts and the
shape of the product (which depends on the batch of records and the slice of the vocabulary)
sum the same terms in other orders, and the last bits move. A measure that compares
similarities (the rank of a clue, the nearest board word, the greedy step to a link) then
depends on the machine and on what else was in the run wherever two similarities are that
close (issue 36: 63 of 44,934 Codenames ranks moved by one between an AVX-512 machine and an
AVX2 one).

Here the similarities are **exact**, so that no order can change them:

* the unit vectors are rounded to a fixed grid, multiples of ``2**-GRID_BITS`` (24 bits: the
  float32 spacing of numbers between 0.5 and 1), by elementwise IEEE operations only (each
  correctly rounded, so the same on every CPU; no reduction whose order a library chooses);
* the dot product of two grid vectors is an integer multiple of ``2**-48`` whose partial sums,
  in any order and any grouping, stay below ``2**53`` units (Cauchy-Schwarz: ``|a . b| <=
  |a| |b|`` on every subset of the terms), so a float64 product computes every term and every
  partial sum **exactly**: BLAS's order, blocking, FMA or threads cannot change a bit;
* the exact value is rounded once to float32 (round to nearest even), which the counting
  kernels read.

Two similarities are then equal exactly when their exact values round to the same float32,
on every path; that is what a tie is (see docs/codenames.md, "Ties"). The Euclidean distance
has the same treatment on a grid of the raw vectors (:func:`raw_grid`,
:func:`sq_distances`).

>>> import numpy as np
>>> g = unit_grid(np.array([[3.0, 4.0], [1.0, 0.0]], dtype=np.float32))
>>> g.tolist()
[[0.6000000238418579, 0.800000011920929], [1.0, 0.0]]
>>> bool(cosines(g, g)[0, 1] == np.float32(g[0, 0]))
True
"""

from __future__ import annotations

import numpy as np

#: bits of the unit vectors' grid: components are multiples of 2**-GRID_BITS
GRID_BITS = 24
#: rows rounded per step (a block of float64 stays in the processor's cache)
_BLOCK_ROWS = 8192


def _sq_norms(block: np.ndarray) -> np.ndarray:
    """Each row's squared norm in float64, summed column by column (a fixed order)."""
    s = np.zeros(block.shape[0], dtype=np.float64)
    for j in range(block.shape[1]):  # over dimensions, not rows: elementwise IEEE operations
        col = block[:, j]
        s += col * col
    return s


def unit_grid(vectors: np.ndarray) -> np.ndarray:
    """Unit vectors rounded to multiples of ``2**-GRID_BITS``: float32, C order, read-only.

    Rows of norm 0 stay 0. The norm is summed in float64 in the order of the dimensions and
    every other step is one correctly rounded operation, so every CPU gives the same bits.
    """
    return _filled(vectors, unit_grid_blocks(vectors))


def unit_grid_blocks(vectors: np.ndarray):
    """``(start, block)`` of :func:`unit_grid`, a block of rows at a time (to write a file)."""
    v = np.asarray(vectors)
    scale = float(2**GRID_BITS)
    for a in range(0, v.shape[0], _BLOCK_ROWS):
        block = np.asarray(v[a : a + _BLOCK_ROWS], dtype=np.float64)
        norm = np.sqrt(_sq_norms(block))
        norm[norm == 0] = 1.0
        # |u| <= 1, so rint(u * 2**24) <= 2**24 is exact in float32
        yield a, (np.rint(block / norm[:, None] * scale) / scale).astype(np.float32)


def _filled(vectors: np.ndarray, blocks) -> np.ndarray:
    out = np.empty(np.shape(vectors), dtype=np.float32)
    for a, block in blocks:
        out[a : a + len(block)] = block
    out.flags.writeable = False
    return out


def dots(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b.T`` (or ``a @ b`` for a vector ``b``) of grid rows, exact, in float64."""
    b64 = np.asarray(b, dtype=np.float64)
    return np.asarray(a, dtype=np.float64) @ (b64.T if b64.ndim == 2 else b64)


#: bytes of float64 product computed at a time by :func:`cosines` (it stays in the level-2
#: cache until it is rounded into the float32 result)
_PRODUCT_BYTES = 1 << 20


def cosines(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``a @ b.T`` for rows of :func:`unit_grid`, computed exactly, rounded once to float32.

    ``out``: a float32 array of the result's shape to write into. The float64 product is
    made a block of ``b``'s rows at a time, each rounded into ``out`` while in the cache.
    """
    a64 = np.asarray(a, dtype=np.float64)
    m, n = a64.shape[0], len(b)
    if out is None:
        out = np.empty((m, n), dtype=np.float32)
    step = max(1, _PRODUCT_BYTES // (8 * max(1, m)))
    for s in range(0, n, step):  # blocks of columns, not words: a few per call
        e = min(n, s + step)
        out[:, s:e] = dots(a64, b[s:e])
    return out


def raw_grid(vectors: np.ndarray) -> tuple[np.ndarray, int]:
    """The raw vectors on a grid of ``2**-bits``, and ``bits``: ``(float32 matrix, bits)``.

    ``bits`` is chosen from the largest component (a maximum is exact in any order) and the
    dimension so that every squared distance and dot product of grid rows is exact in float64:
    each component is at most ``2**m`` units with ``4 d 4**m <= 2**53``.
    """
    bits = raw_grid_bits(vectors)
    return _filled(vectors, raw_grid_blocks(vectors, bits)), bits


def raw_grid_bits(vectors: np.ndarray) -> int:
    """The ``bits`` of :func:`raw_grid` (one pass over the matrix, a block at a time)."""
    v = np.asarray(vectors)
    n, d = v.shape
    top = 0.0
    for a in range(0, n if v.size else 0, _BLOCK_ROWS):
        top = max(top, float(np.max(np.abs(v[a : a + _BLOCK_ROWS]))))
    m = min(24, (53 - 2 - int(np.ceil(np.log2(max(d, 1))))) // 2)
    e = 0 if top == 0 else int(np.ceil(np.log2(top)))
    return m - e


def raw_grid_blocks(vectors: np.ndarray, bits: int):
    """``(start, block)`` of :func:`raw_grid` with the given ``bits``, a block at a time."""
    v = np.asarray(vectors)
    scale = 2.0**bits
    for a in range(0, v.shape[0], _BLOCK_ROWS):
        block = np.asarray(v[a : a + _BLOCK_ROWS], dtype=np.float64)
        yield a, (np.rint(block * scale) / scale).astype(np.float32)


def sq_norms(grid: np.ndarray) -> np.ndarray:
    """Exact squared norms (float64) of rows of :func:`raw_grid` or :func:`unit_grid`."""
    return _sq_norms(np.asarray(grid, dtype=np.float64))


def sq_distances(a: np.ndarray, b: np.ndarray, a_sq=None, b_sq=None) -> np.ndarray:
    """Exact squared Euclidean distances (float64) between rows of :func:`raw_grid`."""
    a64, b64 = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    a_sq = sq_norms(a64) if a_sq is None else a_sq
    b_sq = sq_norms(b64) if b_sq is None else b_sq
    d2 = a_sq[:, None] + b_sq[None, :] - 2.0 * dots(a64, b64)
    return np.maximum(d2, 0.0, out=d2)


def weighted_sums(counts: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``counts @ values`` summed in the order of the rows: the same bits on every machine.

    For the bootstrap's resampled means (``counts``: how often each record was drawn), whose
    last bits a BLAS product would take from the CPU. Compiled (``wordgames._fixed``).

    >>> weighted_sums(np.array([[1.0, 2.0]]), np.array([[0.1], [0.2]])).tolist()
    [[0.5]]
    """
    from wordgames._fixed import weighted_sums as kernel

    c = np.ascontiguousarray(counts, dtype=np.float64)
    v = np.ascontiguousarray(values, dtype=np.float64)
    return kernel(c, v)
