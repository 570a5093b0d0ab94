"""Paired comparisons of two subjects on the items they share (is one really ahead?).

A measure keeps, for each headline score, the per-item values the score is a statistic of
(:func:`item_record`, stored in :attr:`wordgames.results.MeasureResult.items`). Two subjects
(two embeddings on one score) are compared on the items both have: a seeded paired bootstrap
resamples those items once for both and takes the 95 % percentile interval of the difference
of the statistic. "Best" is said only when that interval excludes zero against every other
subject (:func:`top_group`); otherwise the subjects it does not separate form a tied group.

Statistics:

- ``"mean"``: the (weighted) mean of the values; with ``strata``, the mean of the strata's
  means (each stratum resampled within itself), as the Codenames aggregate over data sets.
- ``"spearman"``: Spearman's rho between the values and ``gold`` (the people's ratings).
"""

from __future__ import annotations

import base64
import hashlib
import io
import math
import zlib
from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np

STATISTICS = ("mean", "spearman")
ENCODING = "zlib-npz-v1"
#: the most bytes a packed record may unpack to (a crafted results folder cannot balloon)
MAX_UNPACKED = 64 * 2**20


def item_record(
    ids: Sequence,
    values: Sequence[float],
    *,
    statistic: str = "mean",
    weights: Sequence[int] | None = None,
    gold: Sequence[float] | None = None,
    strata: Sequence[str] | None = None,
) -> dict:
    """The per-item values behind one score, as stored with the result (JSON-ready).

    Parameters
    ----------
    ids : sequence
        One id per item (what two subjects' records are matched on).
    values : sequence of float
        The item's value under the score's statistic.
    statistic : str
        How the values make the score (``"mean"``; see the module for the others).
    weights : sequence of int, optional
        How many decisions each item stands for (an aggregated record).
    gold : sequence of float, optional
        The item's human value, for a correlation statistic.
    strata : sequence of str, optional
        The item's stratum, for a statistic averaged per stratum.

    Returns
    -------
    dict
        The record; :func:`pack` gives its stored form.

    Examples
    --------
    >>> item_record([0, 1], [1.0, 0.0])
    {'statistic': 'mean', 'ids': ['0', '1'], 'values': [1.0, 0.0]}
    """
    if statistic not in STATISTICS:
        raise ValueError(f"statistic must be one of {STATISTICS}, got {statistic!r}")
    rec = {
        "statistic": statistic,
        "ids": [str(i) for i in ids],
        "values": [float(v) for v in values],
    }
    for key, arr in (("weights", weights), ("gold", gold), ("strata", strata)):
        if arr is not None:
            rec[key] = [str(x) for x in arr] if key == "strata" else [float(x) for x in arr]
    if any(len(rec[k]) != len(rec["ids"]) for k in rec if k != "statistic"):
        raise ValueError("item_record: ids, values, weights, gold and strata differ in length")
    return rec


def _item_hash(ids) -> np.ndarray:
    """A 64-bit digest of each item id: compact, and equal for equal ids across runs."""
    return np.array(
        [
            int.from_bytes(hashlib.blake2b(str(i).encode(), digest_size=8).digest(), "little")
            for i in ids
        ],
        dtype=np.uint64,
    )


def pack(record: Mapping) -> dict:
    """A record in its stored form: the arrays in one compressed, pickle-free ``.npz``.

    Item ids are kept as 64-bit digests (all a comparison needs is which items are shared).

    Parameters
    ----------
    record : mapping
        A record of :func:`item_record`.

    Returns
    -------
    dict
        JSON-ready: the encoding, the base64 data and the statistic.

    Examples
    --------
    >>> rec = item_record(["a", "b"], [0.5, 1.0], weights=[1, 3])
    >>> back = unpack(pack(rec))
    >>> back["values"].tolist(), back["weights"].tolist(), back["statistic"]
    ([0.5, 1.0], [1.0, 3.0], 'mean')
    """
    arrays = {"ids": _item_hash(record["ids"]), "values": np.asarray(record["values"], float)}
    for key in ("weights", "gold"):
        if key in record:
            arrays[key] = np.asarray(record[key], float)
    names: list[str] = []
    if "strata" in record:
        names = list(dict.fromkeys(record["strata"]))
        code = {n: i for i, n in enumerate(names)}
        arrays["strata"] = np.array([code[x] for x in record["strata"]], dtype=np.int32)
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    data = base64.b64encode(zlib.compress(buf.getvalue(), 6)).decode("ascii")
    return {
        "statistic": record["statistic"],
        "n": len(record["ids"]),
        "strata_names": names,
        "encoding": ENCODING,
        "data": data,
    }


def unpack(stored: Mapping) -> dict | None:
    """The arrays of a stored record (``None`` when it is not one this version can read).

    A damaged record, one of another encoding or one that would inflate beyond any record
    wordgames writes is refused (``None``), never read in part.

    Parameters
    ----------
    stored : mapping
        A record as :func:`pack` stores it.

    Returns
    -------
    dict or None
        ``ids``, ``values`` (and ``weights``, ``gold``, ``strata`` where kept) as arrays of
        one length, and the ``statistic``.

    Examples
    --------
    >>> unpack(pack(item_record(["a"], [2.0])))["values"].tolist()
    [2.0]
    >>> unpack({"encoding": "something else"}) is None
    True
    """
    if not isinstance(stored, Mapping) or stored.get("encoding") != ENCODING:
        return None
    try:
        raw = base64.b64decode(str(stored["data"]), validate=True)
        inflate = zlib.decompressobj()
        blob = inflate.decompress(raw, MAX_UNPACKED)
        if inflate.unconsumed_tail:
            return None  # larger than any record we write: refused, not inflated
        with np.load(io.BytesIO(blob), allow_pickle=False) as z:
            out = {k: z[k] for k in z.files}
    except (ValueError, KeyError, TypeError, OSError, zlib.error):
        return None
    n = out.get("ids", np.empty(0)).size
    if "values" not in out or any(v.shape != (n,) for v in out.values()):
        return None
    if "strata" in out:
        names = list(stored.get("strata_names") or [])
        if out["strata"].size and (out["strata"].min() < 0 or out["strata"].max() >= len(names)):
            return None
        out["strata"] = np.asarray(names, dtype=object)[out["strata"]]
    out["statistic"] = stored.get("statistic")
    return out


def _aligned(a: Mapping, b: Mapping):
    """The shared items of two unpacked records, in one order: (a, b, weights, gold, strata)."""
    # ids are unique within a record; a repeated one would be paired once, at its first place
    _, ka, kb = np.intersect1d(a["ids"], b["ids"], return_indices=True)
    if not ka.size:
        return None
    order = np.argsort(kb, kind="stable")  # b's order: the resamples do not depend on hashes
    ka, kb = ka[order], kb[order]
    va = np.asarray(a["values"], float)[ka]
    vb = np.asarray(b["values"], float)[kb]
    w = a["weights"][ka] if "weights" in a else None
    gold = a["gold"][ka] if "gold" in a else None
    strata = a["strata"][ka] if "strata" in a else None
    return va, vb, w, gold, strata


def _draw_counts(n: int, rows: int, rng) -> np.ndarray:
    """``rows`` bootstrap resamples of ``n`` items as multiplicities: (rows, n)."""
    draws = rng.integers(0, n, size=(rows, n)) + (np.arange(rows) * n)[:, None]
    return np.bincount(draws.ravel(), minlength=rows * n).reshape(rows, n).astype(float)


def _resample_counts(n: int, n_resamples: int, rng, strata=None) -> np.ndarray:
    """How often each item is drawn in each resample: (n_resamples, n), strata kept apart."""
    if strata is None:
        return _draw_counts(n, n_resamples, rng)
    counts = np.zeros((n_resamples, n))
    for s in dict.fromkeys(strata.tolist()):
        idx = np.flatnonzero(strata == s)
        counts[:, idx] = _draw_counts(idx.size, n_resamples, rng)
    return counts


def _mean_difference(counts: np.ndarray, d: np.ndarray, weights, strata) -> np.ndarray:
    """Per resample: the statistic of a minus that of b (``d`` = a - b per item).

    Both are weighted means over the same items with the same weights, so their difference
    is the weighted mean of ``d`` (per stratum, then averaged over the strata).
    """
    from wordgames.exact import weighted_sums  # a fixed order: no last bit from the CPU

    w = counts * (1.0 if weights is None else weights)
    d = np.asarray(d, dtype=np.float64)
    if strata is None:
        return weighted_sums(w, d[:, None])[:, 0] / w.sum(axis=1)
    parts = []
    for s in dict.fromkeys(strata.tolist()):
        idx = strata == s
        parts.append(weighted_sums(w[:, idx], d[idx, None])[:, 0] / w[:, idx].sum(axis=1))
    return np.mean(parts, axis=0)


class _RankPlan:
    """One sort of a sample's values, reused by every resample (see :func:`_resampled_ranks`)."""

    def __init__(self, values: np.ndarray):
        self.order = np.argsort(values, kind="stable")
        v = values[self.order]
        self.starts = np.flatnonzero(np.r_[True, v[1:] != v[:-1]])
        self.group_of = np.repeat(np.arange(self.starts.size), np.diff(np.r_[self.starts, v.size]))

    def ranks(self, counts: np.ndarray) -> np.ndarray:
        group_sum = np.add.reduceat(counts[:, self.order], self.starts, axis=1)
        group_rank = np.cumsum(group_sum, axis=1) - group_sum + (group_sum + 1) / 2
        out = np.empty_like(counts)
        out[:, self.order] = group_rank[:, self.group_of]
        return out


def _resampled_ranks(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The average rank of each item within each resample (``counts``: (R, n) multiplicities).

    One sort of the values serves every resample: the rank of an item is the number of drawn
    elements below its value plus the middle of its tie group, from cumulative counts.
    """
    return _RankPlan(values).ranks(counts)


def _weighted_corr(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Pearson's r of each row of ``x`` and ``y`` with per-item multiplicities ``w``."""
    total = w.sum(axis=1, keepdims=True)
    mx = (w * x).sum(axis=1, keepdims=True) / total
    my = (w * y).sum(axis=1, keepdims=True) / total
    dx, dy = x - mx, y - my
    with np.errstate(invalid="ignore", divide="ignore"):
        return (w * dx * dy).sum(axis=1) / np.sqrt(
            (w * dx * dx).sum(axis=1) * (w * dy * dy).sum(axis=1)
        )


def _spearman_difference(counts: np.ndarray, va, vb, gold, plans=None) -> np.ndarray:
    """Per resample: Spearman's rho of a with gold minus that of b (exact, ties averaged).

    ``plans``: the :class:`_RankPlan` of ``va``, ``vb`` and ``gold``, sorted once for all chunks.
    """
    pa, pb, pg = plans or (_RankPlan(va), _RankPlan(vb), _RankPlan(gold))
    rg = pg.ranks(counts)
    return _weighted_corr(pa.ranks(counts), rg, counts) - _weighted_corr(
        pb.ranks(counts), rg, counts
    )


#: resamples drawn at once (bounds the memory of a comparison of many items)
CHUNK = 200


def _counts_chunks(n: int, n_resamples: int, seed: int, strata=None):
    """The resamples' multiplicities in chunks of :data:`CHUNK` rows, from one seeded stream."""
    rng = np.random.default_rng(seed)
    for start in range(0, n_resamples, CHUNK):
        yield _resample_counts(n, min(CHUNK, n_resamples - start), rng, strata)


def _arrays(record: Mapping | None) -> dict | None:
    """A record as arrays: a stored (packed) one is unpacked, a fresh one hashed."""
    if record is None:
        return None
    if "encoding" in record:
        return _unpack_cached(
            str(record.get("data")),
            str(record.get("statistic")),
            tuple(record.get("strata_names") or ()),
        )
    return unpack(pack(record))


@lru_cache(maxsize=256)
def _unpack_cached(data: str, statistic: str, strata_names: tuple) -> dict | None:
    # a leader is compared with every other embedding: its record is decoded once
    return unpack(
        {"encoding": ENCODING, "data": data, "statistic": statistic, "strata_names": strata_names}
    )


def paired_difference(
    a: Mapping, b: Mapping, *, n_resamples: int = 1000, seed: int = 0
) -> dict | None:
    """The statistic of ``a`` minus that of ``b`` on their shared items, with its interval.

    Parameters
    ----------
    a, b : mapping
        Records of :func:`item_record` (or their stored form).
    n_resamples : int
        Bootstrap resamples of the shared items.
    seed : int
        Seed of the resampling.

    Returns
    -------
    dict or None
        ``difference``, ``ci_low``, ``ci_high`` (95 % percentile bootstrap, paired), ``n``
        (shared items); ``None`` when the records cannot be compared (other statistics, no
        shared item).

    Examples
    --------
    >>> a = item_record(range(6), [1, 1, 1, 1, 1, 0])
    >>> b = item_record(range(6), [0, 0, 0, 0, 1, 0])
    >>> d = paired_difference(a, b, n_resamples=200)
    >>> round(d["difference"], 3), d["n"], d["ci_low"] > 0
    (0.667, 6, True)
    """
    a, b = _arrays(a), _arrays(b)
    if a is None or b is None or a["statistic"] != b["statistic"]:
        return None
    got = _aligned(a, b)
    if got is None:
        return None
    va, vb, w, gold, strata = got
    n = va.size
    one = np.ones((1, n))
    if a["statistic"] == "spearman":
        if gold is None or n < 3:
            return None
        diff = float(_spearman_difference(one, va, vb, gold)[0])
    else:
        diff = float(_mean_difference(one, va - vb, w, strata)[0])
    boot = []
    plans = (_RankPlan(va), _RankPlan(vb), _RankPlan(gold)) if gold is not None else None
    for counts in _counts_chunks(n, n_resamples, seed, strata):
        if a["statistic"] == "spearman":
            boot.append(_spearman_difference(counts, va, vb, gold, plans))
        else:
            boot.append(_mean_difference(counts, va - vb, w, strata))
    boot = np.concatenate(boot) if boot else np.empty(0)
    boot = boot[np.isfinite(boot)]
    if boot.size == 0 or not math.isfinite(diff):
        return None
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return {"difference": diff, "ci_low": float(lo), "ci_high": float(hi), "n": int(n)}


def top_group(
    leader: str,
    others: Sequence[str],
    records: Mapping[str, Mapping | None],
    *,
    higher_is_better: bool,
    n_resamples: int = 1000,
    seed: int = 0,
) -> tuple[list[str], dict]:
    """The subjects that a paired comparison does not separate from ``leader``.

    ``leader`` is the subject with the best value; each other subject joins its group unless
    the paired interval of ``leader - other`` lies entirely on ``leader``'s side of zero.
    A subject without item records cannot be separated and joins the group.

    Parameters
    ----------
    leader : str
        The subject with the best value.
    others : sequence of str
        The other ranked subjects.
    records : mapping of str to mapping or None
        Each subject's item record of the score.
    higher_is_better : bool
        The metric's direction.
    n_resamples, seed : int
        Of each :func:`paired_difference`.

    Returns
    -------
    (group, comparisons)
        ``group`` starts with ``leader``; ``comparisons`` maps each other subject to its
        :func:`paired_difference` (``None`` where none was possible).

    Examples
    --------
    >>> recs = {"a": item_record(range(6), [1, 1, 1, 1, 1, 0]),
    ...         "b": item_record(range(6), [0, 0, 0, 0, 1, 0]), "c": None}
    >>> top_group("a", ["b", "c"], recs, higher_is_better=True, n_resamples=200)[0]
    ['a', 'c']
    """
    group, comparisons = [leader], {}
    for other in others:
        a, b = records.get(leader), records.get(other)
        d = paired_difference(a, b, n_resamples=n_resamples, seed=seed) if a and b else None
        comparisons[other] = d
        separated = d is not None and (d["ci_low"] > 0 if higher_is_better else d["ci_high"] < 0)
        if not separated:
            group.append(other)
    return group, comparisons
