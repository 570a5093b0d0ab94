"""Published post-processings of word vectors, vectorised: retrofitting, counter-fitting, ABTT.

Each function takes a matrix (one row a word) and, for the lexicon-based ones, word pairs as two
index arrays, and returns a new float32 matrix. Every iteration is a sparse matrix product over
all words at once. The named embeddings built from GloVe 6B 50d with them are declared in
:mod:`wordgames.embeddings.real`.

* :func:`retrofit` -- Faruqui, Dodge, Jauhar, Dyer, Hovy and Smith (2015), "Retrofitting Word
  Vectors to Semantic Lexicons", NAACL: every word is moved towards the mean of its lexicon
  neighbours, ``q_i <- (alpha q_hat_i + sum_j beta_ij q_j) / (alpha + sum_j beta_ij)`` with the
  paper's defaults ``alpha = 1``, ``beta_ij = 1 / degree(i)``, 10 iterations, on unit-length
  input vectors (as the authors' ``retrofit.py`` normalises them). The authors update words one
  after another in place (Gauss-Seidel, in a hash order); here all words are updated together
  from the previous iteration (Jacobi), which is order-free and so deterministic.
* :func:`counter_fit` -- Mrksic, O Seaghdha, Thomson, Gasic, Rojas-Barahona, Su, Vandyke, Wen
  and Young (2016), "Counter-fitting Word Vectors to Linguistic Constraints", NAACL: antonym
  repel (margin ``delta = 1.0``), synonym attract (``gamma = 0.0``) and vector space
  preservation of the pairs within cosine distance ``rho = 0.2``, weights ``k1 = k2 = k3 = 0.1``,
  20 full-batch steps, each word's summed update divided by its number of active terms and
  every vector renormalised, as the authors' ``counterfitting.py`` does.
* :func:`all_but_the_top` -- Mu and Viswanath (2018), "All-but-the-Top: Simple and Effective
  Postprocessing for Word Representations", ICLR: subtract the mean vector and the projections
  on the top ``D`` principal components, ``D = d / 100`` by default (at least 1).

Examples
--------
>>> import numpy as np
>>> x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
>>> r = retrofit(x, np.array([0]), np.array([1]), iterations=1)
>>> r[0].round(3).tolist()  # (q_hat_0 + q_1) / 2, with unit-length inputs
[0.5, 0.5]
"""

from __future__ import annotations

import numpy as np

#: the published defaults, recorded with each derived embedding
RETROFIT_DEFAULTS = {"iterations": 10, "alpha": 1.0}
COUNTERFIT_DEFAULTS = {
    "delta": 1.0,
    "gamma": 0.0,
    "rho": 0.2,
    "k1": 0.1,
    "k2": 0.1,
    "k3": 0.1,
    "epochs": 20,
}


def unit_rows(x: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (all-zero rows stay zero), float64."""
    x = np.asarray(x, dtype=np.float64)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(norms > 0, norms, 1.0)


def _adjacency(n: int, a: np.ndarray, b: np.ndarray, values=None):
    from scipy import sparse

    vals = np.ones(len(a)) if values is None else values
    return sparse.csr_matrix((vals, (a, b)), shape=(n, n))


def retrofit(
    vectors: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    *,
    iterations: int = 10,
    alpha: float = 1.0,
) -> np.ndarray:
    """Retrofit ``vectors`` to the graph with edges ``a[k] - b[k]`` (Faruqui et al. 2015).

    Parameters
    ----------
    vectors : (n, d) matrix; rows are normalised to unit length first, as the authors do
    a, b : edge end points (row indices); the graph is made undirected, repeated edges count once
    iterations : number of Jacobi iterations (paper: 10)
    alpha : weight of the original vector; each neighbour weighs ``1 / degree``

    Returns
    -------
    numpy.ndarray
        float32 (n, d); words without neighbours keep their (unit-length) vectors.
    """
    q_hat = unit_rows(vectors)
    n = len(q_hat)
    adj = _adjacency(n, np.concatenate([a, b]), np.concatenate([b, a]))
    adj.data[:] = 1.0
    adj.setdiag(0)
    adj.eliminate_zeros()
    deg = np.asarray(adj.sum(axis=1)).ravel()
    has = deg > 0
    # beta_ij = 1/deg_i: the neighbours' mean weighs as much as alpha * (1/deg_i) * deg_i = 1
    from scipy import sparse

    mean_op = sparse.diags(np.where(has, 1.0 / np.maximum(deg, 1), 0.0)) @ adj
    q = q_hat.copy()
    for _ in range(int(iterations)):
        nb = mean_op @ q
        q = np.where(has[:, None], (alpha * q_hat + nb) / (alpha + 1.0), q_hat)
    return q.astype(np.float32)


def _pull(v: np.ndarray, a: np.ndarray, b: np.ndarray, active: np.ndarray, dots: np.ndarray):
    """Sum over active pairs (a, b) of ``v_a (v_a . v_b) - v_b`` per word ``a``, and counts."""
    n = len(v)
    a, b, d = a[active], b[active], dots[active]
    grad = np.zeros_like(v)
    # sum_b v_a (v_a . v_b)  =  v_a * sum_b dots ;  sum_b v_b  =  (adjacency) @ v
    grad += v * np.bincount(a, weights=d, minlength=n)[:, None]
    grad -= _adjacency(n, a, b) @ v
    return grad, np.bincount(a, minlength=n)


def _rowdot(v: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.einsum("ij,ij->i", v[a], v[b])


def vsp_pairs(vectors: np.ndarray, rows: np.ndarray, rho: float, chunk: int = 2048):
    """Ordered pairs of ``rows`` (distinct) whose cosine distance is at most ``rho``.

    Returns ``(a, b, distance)``; computed chunk by chunk (``chunk`` rows times all rows).
    """
    u = unit_rows(vectors[rows]).astype(np.float32)
    out_a, out_b, out_d = [], [], []
    for start in range(0, len(u), chunk):
        sims = u[start : start + chunk] @ u.T
        i, j = np.nonzero(sims >= 1.0 - rho)
        keep = i + start != j
        out_a.append(rows[i[keep] + start])
        out_b.append(rows[j[keep]])
        out_d.append(1.0 - sims[i[keep], j[keep]].astype(np.float64))
    cat = np.concatenate
    return cat(out_a), cat(out_b), cat(out_d)


def counter_fit(
    vectors: np.ndarray,
    synonyms: tuple[np.ndarray, np.ndarray],
    antonyms: tuple[np.ndarray, np.ndarray],
    vsp: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    *,
    delta: float = 1.0,
    gamma: float = 0.0,
    k1: float = 0.1,
    k2: float = 0.1,
    k3: float = 0.1,
    epochs: int = 20,
) -> np.ndarray:
    """Counter-fit ``vectors`` to synonym and antonym pairs (Mrksic et al. 2016).

    Parameters
    ----------
    vectors : (n, d) matrix; rows are normalised first
    synonyms, antonyms : ordered pairs ``(a, b)`` of row indices (give both orders, as the
        authors' constraint loader does); a pair that is both is only an antonym pair
    vsp : ``(a, b, original distance)`` of the vector-space-preservation pairs
        (:func:`vsp_pairs`), or ``None`` for none; antonym pairs are removed from it
    delta, gamma, k1, k2, k3, epochs : the paper's hyper-parameters (defaults as published)

    Returns
    -------
    numpy.ndarray
        float32 (n, d), unit-length rows.
    """
    v = unit_rows(vectors)
    n = len(v)
    ant_a, ant_b = antonyms
    ant_keys = np.unique(ant_a * n + ant_b)
    syn_a, syn_b = synonyms
    keep = ~np.isin(syn_a * n + syn_b, ant_keys)
    syn_a, syn_b = syn_a[keep], syn_b[keep]
    if vsp is None:
        vsp = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0))
    keep = ~np.isin(vsp[0] * n + vsp[1], ant_keys)
    vsp_a, vsp_b, vsp_d0 = vsp[0][keep], vsp[1][keep], vsp[2][keep]
    for _ in range(int(epochs)):
        d_ant, d_syn, d_vsp = (
            _rowdot(v, *p) for p in ((ant_a, ant_b), (syn_a, syn_b), (vsp_a, vsp_b))
        )
        # antonym repel: pairs closer than delta push a away from b
        g_ant, c_ant = _pull(v, ant_a, ant_b, (1.0 - d_ant) < delta, d_ant)
        # synonym attract: pairs farther than gamma pull a towards b
        g_syn, c_syn = _pull(v, syn_a, syn_b, (1.0 - d_syn) > gamma, d_syn)
        # preservation: pairs that drifted apart (or stayed) pull a back towards b
        g_vsp, c_vsp = _pull(v, vsp_a, vsp_b, vsp_d0 <= (1.0 - d_vsp), d_vsp)
        total = k1 * g_ant - k2 * g_syn - k3 * g_vsp
        count = c_ant + c_syn + c_vsp
        v = unit_rows(v + total / np.maximum(count, 1)[:, None])
    return v.astype(np.float32)


def abtt_components(d: int) -> int:
    """The paper's number of removed components: ``d / 100`` rounded, at least 1."""
    return max(1, round(d / 100))


def all_but_the_top(
    vectors: np.ndarray, n_components: int | None = None, *, chunk: int = 65536
) -> np.ndarray:
    """Remove the mean and the top principal components (Mu and Viswanath 2018).

    Parameters
    ----------
    vectors : (n, d) matrix
    n_components : D, the number of dominating directions removed (default ``d / 100``, >= 1)
    chunk : rows per block of the float64 covariance accumulation

    Returns
    -------
    numpy.ndarray
        float32 (n, d): ``x - mean - sum_k (u_k . (x - mean)) u_k`` over the top D axes.
    """
    x = vectors
    n, d = x.shape
    k = abtt_components(d) if n_components is None else int(n_components)
    gram, total = np.zeros((d, d)), np.zeros(d)
    for start in range(0, n, chunk):
        part = np.asarray(x[start : start + chunk], dtype=np.float64)
        gram += part.T @ part
        total += part.sum(axis=0)
    mean = total / n
    vals, vecs = np.linalg.eigh(gram - n * np.outer(mean, mean))
    top = vecs[:, np.argsort(vals)[::-1][:k]]
    centred = np.asarray(x, dtype=np.float64) - mean
    return (centred - (centred @ top) @ top.T).astype(np.float32)
