"""Compiled sums in a fixed order (numba, cached on disk): the same bits on every machine.

A BLAS product adds its terms in an order of its own choosing (by CPU, build and shape), so
its last bits move from machine to machine. These loops add them in the order of the rows,
one operation at a time (``fastmath=False``: no reassociation and no fused multiply-add), so
their results are those of the plain sequential sum everywhere. Imported only when used.
"""

from __future__ import annotations

import numba
import numpy as np

jit = numba.njit(nogil=True, cache=True, error_model="numpy", fastmath=False)


@jit
def weighted_sums(counts, values):
    """``counts @ values`` with each sum taken over the rows of ``values`` in order.

    ``counts`` (b, n) and ``values`` (n, k), float64. Zero counts add nothing (so they are
    skipped: ``x + 0.0 * v`` is ``x`` for finite ``v``).
    """
    b, n = counts.shape
    k = values.shape[1]
    out = np.zeros((b, k), np.float64)
    for i in range(b):
        for j in range(n):
            c = counts[i, j]
            if c != 0.0:
                for q in range(k):
                    out[i, q] += c * values[j, q]
    return out
