"""Global (data-free) metrics of an embedding matrix: erank, perank(p) and edim(p).

The definitions (also in ``docs/similarity.md``):

* ``erank`` -- the effective rank of Roy & Vetterli (2007): the exponential of the Shannon
  entropy of the normalised singular values ``q_i = s_i / sum(s)``. Confirmed definition.
* ``perank(p)`` -- **reconstructed**: the effective rank of the spectrum raised to the power
  ``p`` (``w_i = s_i**p``). The WALES paper uses ``p = 2.5``.
* ``edim(p)`` -- **reconstructed**: the participation ratio ``(sum w)**2 / sum(w**2)`` of
  ``w_i = s_i**p``. The WALES paper uses ``p = 1.0``.

The exact definitions of perank and edim in Torregrossa et al. (LREC 2020) could not be read;
every result records that perank and edim are reconstructions, and no numerical match with
WALES Figure 1 is claimed.

All three depend only on the singular values, so they are invariant to scaling the matrix and
to orthogonal transformations; they do depend on the rows chosen, on centring and on row
normalisation (switches ``center`` and ``rownorm``, recorded in every result).
"""

from __future__ import annotations

import numpy as np

from wordgames.measure import MeasureResult, Timer
from wordgames.params import Params
from wordgames.safeio import save_figure

VERSION = "2"  # 2: the float32 Gram route (issue 40)
PERANK_P = 2.5
EDIM_P = 1.0
_EPS = np.finfo(np.float64).eps
# rows per chunk of the Gram accumulation: keeps the float64 copy of a chunk small
_CHUNK = 65536
# the Gram route resolves s_i / s_1 only down to about sqrt(eps); below this ratio the exact
# SVD is used instead (relative error of s_i from the Gram route ~ eps * (s_1 / s_i)**2)
_GRAM_MIN_RATIO = 1e-4
# the float32 Gram route: products of CHUNK32 rows in float32 (single precision's speed),
# added into a float64 Gram; used when its estimated error on the metrics is below TOL32
# (a tenth of the 1e-6 it must hold: the estimate was up to 3x low where it was measured)
_CHUNK32 = 4096
_TOL32 = 1e-7


def _entropy_rank(w: np.ndarray) -> float:
    """Exponential of the Shannon entropy of ``w / w.sum()`` (zero weights contribute 0)."""
    q = w / w.sum()
    q = q[q > 0]
    return float(np.exp(-(q * np.log(q)).sum()))


def singular_values(
    matrix: np.ndarray,
    *,
    center: bool = False,
    rownorm: bool = False,
    method: str = "auto",
) -> np.ndarray:
    """Non-zero singular values of ``matrix`` in float64, largest first.

    Parameters
    ----------
    matrix : array of shape (n, d)
    center : subtract the column mean first
    rownorm : l2-normalise each row first (before centring if both are set; zero rows stay 0)
    method : {"auto", "svd", "gram", "gram32"}
        ``"svd"`` is LAPACK's SVD of the whole matrix; ``"gram"`` accumulates the d x d Gram
        matrix in float64 chunk by chunk and takes the square roots of its eigenvalues (about
        30x faster on 400,000 x 50); ``"gram32"`` makes each chunk's product in float32 and
        adds it in float64 (about twice as fast again). ``"auto"`` uses the Gram routes for
        tall matrices: float32 where its estimated error on the metrics is below 1e-7
        (:func:`_holds32`), else float64, else the SVD when the spectrum is too spread for
        the Gram route to resolve it.

    Returns
    -------
    s : float64 array; empty if the matrix is empty or all zero; all NaN if it holds NaN/inf.

    Notes
    -----
    Singular values ``s_i <= max(n, d) * eps * s_1`` are dropped (the spec's threshold). The
    Gram route applies the same threshold to the eigenvalues ``s_i**2``, i.e. it cannot
    resolve singular values below ``sqrt(max(n, d) * eps) * s_1`` (about 1e-5 for 400,000
    rows); their share of any of the metrics is below 1e-4.

    Examples
    --------
    >>> singular_values(np.array([[3.0, 0, 0], [0, 2, 0], [0, 0, 1], [0, 0, 0]])).tolist()
    [3.0, 2.0, 1.0]
    """
    if method not in ("auto", "svd", "gram", "gram32"):
        raise ValueError(f"method must be 'auto', 'svd', 'gram' or 'gram32', got {method!r}")
    x = np.asarray(matrix)
    if x.ndim != 2:
        raise ValueError(f"matrix must be 2-D, got shape {x.shape}")
    n, d = x.shape
    if n == 0 or d == 0:
        return np.zeros(0)
    use_gram = method in ("gram", "gram32") or (method == "auto" and n >= 4 * d and n * d > 200_000)
    if method == "gram32" or (use_gram and method == "auto"):
        s, check = _singular_values_gram(x, center=center, rownorm=rownorm, single=True)
        if method == "gram32" or (s.size and np.isfinite(s).all() and _holds32(s, check)):
            return s
    if use_gram:
        s = _singular_values_gram(x, center=center, rownorm=rownorm)
        if (
            method == "gram"
            or s.size == 0
            or not np.isfinite(s).all()
            or s[-1] >= _GRAM_MIN_RATIO * s[0]
        ):
            return s
    x = _preprocess(np.asarray(x, dtype=np.float64), center=center, rownorm=rownorm)
    if not np.isfinite(x).all():
        return np.full(min(n, d), np.nan)
    s = np.linalg.svd(x, compute_uv=False)
    if s.size == 0 or s[0] == 0:
        return np.zeros(0)
    return s[s > max(n, d) * _EPS * s[0]]


def _preprocess(chunk: np.ndarray, *, center: bool, rownorm: bool, mean: np.ndarray | None = None):
    if rownorm:
        norms = np.linalg.norm(chunk, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        chunk = chunk / norms
    if center:
        chunk = chunk - (chunk.mean(axis=0) if mean is None else mean)
    return chunk


def _holds32(s: np.ndarray, s_check: np.ndarray) -> bool:
    """Whether the float32 Gram route's spectrum ``s`` holds the metrics to ``_TOL32``.

    ``s_check`` is the spectrum of the same Gram matrix plus its estimated error (measured on
    a sample of chunks, see :func:`_singular_values_gram`): the effective ranks of both must
    agree to ``_TOL32`` relatively, as must the values weighted by their shares, and every
    value must be above the float64 route's own floor.
    """
    if s[-1] < _GRAM_MIN_RATIO * s[0] or s.shape != s_check.shape:
        return False
    for f in (erank_from_singular_values, perank_from_singular_values,
              edim_from_singular_values):  # fmt: skip
        a, b = f(s), f(s_check)
        if not abs(a - b) <= _TOL32 * abs(a):
            return False
    share = s / s.sum()
    return float((share * np.abs(s - s_check) / s).sum()) <= _TOL32


def _singular_values_gram(x: np.ndarray, *, center: bool, rownorm: bool, single: bool = False):
    """The Gram route; ``single``: each chunk's product in float32, added in float64.

    With ``single``, returns ``(s, s_check)``: every 16th chunk's product is also made in
    float64, and the spectrum of the Gram matrix plus the difference (scaled to all chunks)
    is ``s_check``.
    """
    n, d = x.shape
    gram = np.zeros((d, d))
    error = np.zeros((d, d))
    total = np.zeros(d)
    step = _CHUNK32 if single else _CHUNK
    as_is = single and not rownorm and x.dtype == np.float32  # no float64 copy to make
    for i, start in enumerate(range(0, n, step)):  # chunks of rows: a few hundred iterations
        raw = x[start : start + step]
        chunk = None if as_is and i % 16 else _preprocess(
            np.asarray(raw, dtype=np.float64), center=False, rownorm=rownorm
        )  # fmt: skip
        if single:
            c32 = np.ascontiguousarray(raw) if as_is else chunk.astype(np.float32)
            p32 = (c32.T @ c32).astype(np.float64)
            gram += p32
            if i % 16 == 0:
                error += chunk.T @ chunk - p32
            total += c32.sum(axis=0, dtype=np.float64) if chunk is None else chunk.sum(axis=0)
        else:
            gram += chunk.T @ chunk
            total += chunk.sum(axis=0)
    if single:
        n_chunks = -(-n // step)
        sampled = -(-n_chunks // 16)
        s = _gram_spectrum(gram, total, n, d, center)
        # scaled as if the errors of all chunks had the sign of the sample's (they partly do:
        # the same rows' roundings): measured 3x below the true error on GloVe, hence TOL32
        check = _gram_spectrum(gram + error * (n_chunks / sampled), total, n, d, center)
        return s, check
    return _gram_spectrum(gram, total, n, d, center)


def _gram_spectrum(gram, total, n, d, center) -> np.ndarray:
    gram = gram.copy()
    if not np.isfinite(gram).all():
        return np.full(min(n, d), np.nan)
    if center:
        mean = total / n
        gram -= n * np.outer(mean, mean)
    lam = np.linalg.eigvalsh(gram)[::-1]
    if lam[0] <= 0:
        return np.zeros(0)
    lam = lam[lam > max(n, d) * _EPS * lam[0]]
    return np.sqrt(lam)


def erank_from_singular_values(s: np.ndarray) -> float:
    """Roy & Vetterli effective rank of a spectrum (NaN for an empty or non-finite one)."""
    s = np.asarray(s, dtype=np.float64)
    if s.size == 0 or not np.isfinite(s).all():
        return float("nan")
    return _entropy_rank(s)


def perank_from_singular_values(
    s: np.ndarray, p: float = PERANK_P, *, variant: str = "power"
) -> float:
    """Reconstructed perank.

    Effective rank of ``s**p`` (``variant="power"``, the default) or the exponential of the
    order-``p`` Renyi entropy of ``s / sum(s)`` (``variant="renyi"``).
    """
    s = np.asarray(s, dtype=np.float64)
    if s.size == 0 or not np.isfinite(s).all():
        return float("nan")
    if variant == "power":
        return _entropy_rank((s / s[0]) ** p)  # dividing by s_1 first avoids overflow
    if variant == "renyi":
        q = s / s.sum()
        if p == 1:
            return _entropy_rank(q)
        return float(np.exp(np.log((q**p).sum()) / (1 - p)))
    raise ValueError(f"variant must be 'power' or 'renyi', got {variant!r}")


def edim_from_singular_values(s: np.ndarray, p: float = EDIM_P) -> float:
    """Reconstructed edim: participation ratio ``(sum w)**2 / sum(w**2)`` of ``w = s**p``."""
    s = np.asarray(s, dtype=np.float64)
    if s.size == 0 or not np.isfinite(s).all():
        return float("nan")
    w = (s / s[0]) ** p
    return float(w.sum() ** 2 / (w**2).sum())


def erank(matrix: np.ndarray, *, center: bool = False, rownorm: bool = False) -> float:
    """Effective rank (Roy & Vetterli) of a matrix.

    >>> round(erank(np.diag([3.0, 2.0, 1.0])), 6)
    2.749459
    """
    return erank_from_singular_values(singular_values(matrix, center=center, rownorm=rownorm))


def perank(
    matrix: np.ndarray,
    p: float = PERANK_P,
    *,
    center: bool = False,
    rownorm: bool = False,
    variant: str = "power",
) -> float:
    """perank(p) of a matrix (reconstructed definition, see the module docstring).

    >>> round(perank(np.diag([3.0, 2.0, 1.0]), 2.5), 6)
    2.089312
    """
    s = singular_values(matrix, center=center, rownorm=rownorm)
    return perank_from_singular_values(s, p, variant=variant)


def edim(
    matrix: np.ndarray, p: float = EDIM_P, *, center: bool = False, rownorm: bool = False
) -> float:
    """edim(p) of a matrix (reconstructed definition, see the module docstring).

    >>> round(edim(np.diag([3.0, 2.0, 1.0]), 1.0), 6)
    2.571429
    """
    return edim_from_singular_values(singular_values(matrix, center=center, rownorm=rownorm), p)


class GlobalMetrics(Params):
    """Configuration of the three global metrics (scikit-learn style: constructor = config).

    Parameters
    ----------
    perank_p : float
        Exponent of perank (WALES: 2.5).
    edim_p : float
        Exponent of edim (WALES: 1.0).
    center : bool
        Subtract the column mean before the SVD.
    rownorm : bool
        l2-normalise rows before the SVD.
    top_n : int or None
        Use only the ``top_n`` most frequent words (None: every row).
    perank_variant : {"power", "renyi"}
        The reading of perank (see :func:`perank_from_singular_values`).

    Examples
    --------
    >>> from wordgames.embeddings import Embedding
    >>> emb = Embedding(["a", "b", "c"], np.diag([3.0, 2.0, 1.0]))
    >>> {k: round(v, 4) for k, v in GlobalMetrics().compute(emb).items()}
    {'erank': 2.7495, 'perank_p2.5': 2.0893, 'edim_p1.0': 2.5714}
    >>> GlobalMetrics(center=True)
    GlobalMetrics(center=True)
    """

    def __init__(
        self,
        perank_p: float = PERANK_P,
        edim_p: float = EDIM_P,
        center: bool = False,
        rownorm: bool = False,
        top_n: int | None = None,
        perank_variant: str = "power",
    ):
        self.perank_p = perank_p
        self.edim_p = edim_p
        self.center = center
        self.rownorm = rownorm
        self.top_n = top_n
        self.perank_variant = perank_variant

    def metric_names(self) -> tuple[str, str, str]:
        return "erank", f"perank_p{float(self.perank_p)}", f"edim_p{float(self.edim_p)}"

    def matrix(self, embedding) -> np.ndarray:
        vectors = embedding.vectors
        return vectors[: self.top_n] if self.top_n else vectors

    def spectrum(self, embedding) -> np.ndarray:
        return singular_values(self.matrix(embedding), center=self.center, rownorm=self.rownorm)

    def compute_from_singular_values(self, s: np.ndarray) -> dict[str, float]:
        names = self.metric_names()
        return {
            names[0]: erank_from_singular_values(s),
            names[1]: perank_from_singular_values(s, self.perank_p, variant=self.perank_variant),
            names[2]: edim_from_singular_values(s, self.edim_p),
        }

    def compute(self, embedding) -> dict[str, float]:
        return self.compute_from_singular_values(self.spectrum(embedding))


def run(embedding, ctx) -> MeasureResult:
    """``wordgames run`` entry point: erank, perank(2.5), edim(1.0) of the embedding matrix.

    Options: :class:`~wordgames.similarity.spec.GlobalMetricsOptions` (the parameters of
    :class:`GlobalMetrics`). Scores: ``erank``, ``perank`` and ``edim`` (``subject`` names the
    exponent), ``rank``.
    """
    from wordgames.measure import options_dict

    cfg = GlobalMetrics(**options_dict(ctx.options))
    timings: dict[str, float] = {}
    with Timer(timings, "svd"):
        s = cfg.spectrum(embedding)
    metrics = cfg.compute_from_singular_values(s)
    n_rows = len(cfg.matrix(embedding))
    notes = [
        "erank: Roy & Vetterli effective rank (confirmed definition)",
        f"perank_p{float(cfg.perank_p)} and edim_p{float(cfg.edim_p)}: RECONSTRUCTED definitions "
        "(docs/similarity.md); the exact formulas of Torregrossa et al. 2020 were not found, "
        "so no numerical match with WALES Figure 1 is claimed",
        f"computed on {n_rows:,} rows x {embedding.dim} dims, "
        f"center={cfg.center}, rownorm={cfg.rownorm}",
    ]
    if not np.isfinite(list(metrics.values())).all():
        notes.append("the matrix is empty, all zero or holds NaN/inf: metrics are NaN")
    plots = []
    folder = ctx.plot_dir("global-metrics", embedding.name)
    if s.size and np.isfinite(s).all() and folder is not None:
        with Timer(timings, "plot"):
            plots.append(str(_plot_spectrum(s, metrics, embedding.name, folder)))
    metrics = {**metrics, "rank": float(s.size)}
    table = (
        [
            {"index": i + 1, "singular_value": float(v), "share": float(v / s.sum())}
            for i, v in enumerate(s.tolist())
        ]
        if s.size and np.isfinite(s).all()
        else []
    )
    result = MeasureResult(
        measure="global-metrics",
        version=VERSION,
        tables={"spectrum": table},
        oov={"note": "global metrics use no word list: nothing can be out of vocabulary"},
        parameters={
            **cfg.get_params(),
            "n_rows": n_rows,
            "dim": embedding.dim,
            "definitions": {
                "erank": "confirmed",
                "perank": "reconstructed",
                "edim": "reconstructed",
            },
        },
        plots=plots,
        timings=timings,
        notes=notes,
    )
    result.score("", "", "erank", metrics["erank"], n=n_rows)
    result.score(
        "",
        f"p={float(cfg.perank_p)}",
        "perank",
        metrics[f"perank_p{float(cfg.perank_p)}"],
        n=n_rows,
    )
    result.score(
        "", f"p={float(cfg.edim_p)}", "edim", metrics[f"edim_p{float(cfg.edim_p)}"], n=n_rows
    )
    result.score("", "", "rank", metrics["rank"], n=n_rows)
    return result


def _plot_spectrum(s: np.ndarray, metrics: dict, name: str, out_dir):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.semilogy(np.arange(1, s.size + 1), s / s[0], marker=".")
    ax.set_xlabel("index i")
    ax.set_ylabel("s_i / s_1")
    ax.set_title(f"{name}: " + ", ".join(f"{k}={v:.2f}" for k, v in metrics.items()), fontsize=8)
    fig.tight_layout()
    path = out_dir / "spectrum.png"
    save_figure(fig, path, dpi=120)
    plt.close(fig)
    return path
