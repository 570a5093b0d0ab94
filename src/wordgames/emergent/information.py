"""Information-theoretic measures of emergent languages: AMI, PosDis and BosDis.

AMI
    sklearn's ``adjusted_mutual_info_score`` between the message of each sample (its word
    sequence after EOS and padding are removed, as one string) and its phrase (the set of its
    concepts, order ignored); the expected mutual information is summed per distinct pair of
    cluster sizes, which gives sklearn's number much faster on thousands of distinct messages. ``average_method="max"`` by default, the normaliser
    ``max(H(M), H(L))`` of the paper's equation 3 (sklearn's own default is ``"arithmetic"``).
PosDis and BosDis (Chaabouni et al. 2020, "Compositionality and generalization in emergent languages")
    For a message variable ``s_j`` -- the word at position ``j`` (PosDis; "no word" is a value for
    messages shorter than ``j + 1``) or the number of times word ``j`` occurs in the message
    (BosDis, repeats counted) -- let ``a^j_1`` and ``a^j_2`` be the two attributes with the highest
    mutual information with ``s_j``. The score is the mean over the variables with ``H(s_j) > 0``
    of ``(I(s_j; a^j_1) - I(s_j; a^j_2)) / H(s_j)``; variables with zero entropy are left out, as
    in the paper and in EGG. With a single attribute, ``I(s_j; a^j_2) = 0``.

Attributes come from the concepts: a concept ``"feature=value"`` (or ``"feature:value"``) sets
attribute ``feature`` to ``value``; a feature absent from a label takes the value "unspecified".
When concepts have no feature part, or a label holds two values of one feature, each concept is
its own binary (present/absent) attribute. Entropies are in bits.
"""

from __future__ import annotations

import re

import numpy as np
import scipy.sparse as sp

from wordgames.emergent.inputs import EncodedConcepts, EncodedMessages

_SPLIT = re.compile(r"[=:]")


def adjusted_mutual_information(
    messages: EncodedMessages, concepts: EncodedConcepts, *, average_method: str = "max"
) -> float:
    """AMI between messages and phrases (see the module docstring).

    Equal to ``sklearn.metrics.adjusted_mutual_info_score(phrases, messages,
    average_method=average_method)``; the expected mutual information is computed by
    :func:`expected_mutual_information`, which gives sklearn's number much faster when there are
    thousands of distinct messages or phrases.

    Examples
    --------
    >>> from wordgames.emergent.inputs import encode_concepts, encode_messages
    >>> m = encode_messages([["a"], ["a"], ["b"], ["b"]])
    >>> c = encode_concepts([["red"], ["red"], ["blue"], ["blue"]])
    >>> adjusted_mutual_information(m, c)
    1.0
    """
    msg_id, _ = messages.message_ids()
    phrase_id, _ = concepts.phrase_ids()
    return adjusted_mutual_info(phrase_id, msg_id, average_method=average_method)


def adjusted_mutual_info(labels_true, labels_pred, *, average_method: str = "max") -> float:
    """Scikit-learn's ``adjusted_mutual_info_score`` with a grouped expected mutual information."""
    from sklearn.metrics import mutual_info_score
    from sklearn.metrics.cluster import contingency_matrix

    labels_true, labels_pred = np.asarray(labels_true), np.asarray(labels_pred)
    n = labels_true.size
    n_true, n_pred = np.unique(labels_true).size, np.unique(labels_pred).size
    if n_true == n_pred == 1 or n_true == n_pred == 0:
        return 1.0  # sklearn's conventions: neither labelling splits the data ...
    if n_true == 1 or n_pred == 1:
        return 0.0  # ... or only one of them does
    cont = contingency_matrix(labels_true, labels_pred, sparse=True)
    mi = mutual_info_score(None, None, contingency=cont)
    rows, cols = np.asarray(cont.sum(axis=1)).ravel(), np.asarray(cont.sum(axis=0)).ravel()
    emi = expected_mutual_information(rows, cols, n)
    h_true, h_pred = _entropy_nats(rows), _entropy_nats(cols)
    if average_method == "min":
        normalizer = min(h_true, h_pred)
    elif average_method == "max":
        normalizer = max(h_true, h_pred)
    elif average_method == "geometric":
        normalizer = float(np.sqrt(h_true * h_pred))
    elif average_method == "arithmetic":
        normalizer = (h_true + h_pred) / 2
    else:
        raise ValueError("average_method must be 'min', 'geometric', 'arithmetic' or 'max'")
    den = normalizer - emi
    eps = np.finfo("float64").eps
    den = min(den, -eps) if den < 0 else max(den, eps)
    num = mi - emi
    num = min(num, -eps) if num < 0 else max(num, eps)
    return float(num / den)


def _entropy_nats(counts: np.ndarray) -> float:
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log(p)).sum())


def expected_mutual_information(row_sums, col_sums, n: int, *, chunk: int = 1 << 22) -> float:
    """Expected mutual information (nats) of two labellings under the hypergeometric model.

    The formula of Vinh et al. (2009) as sklearn computes it, with two savings: each distinct
    pair of (row sum, column sum) is summed once and weighted by how often it occurs (EC logs
    have thousands of distinct messages whose counts take a few dozen values), and the sum over
    a cell count ``n_ij`` is restricted to ``max(40 sd, 50)`` around its hypergeometric mean
    (by a Chernoff bound the probability mass left out is below 1e-60, far under float64
    precision; the tests check equality with sklearn).
    """
    from scipy.special import gammaln

    a_vals, a_mult = np.unique(np.asarray(row_sums, dtype=np.int64), return_counts=True)
    b_vals, b_mult = np.unique(np.asarray(col_sums, dtype=np.int64), return_counts=True)
    a = np.repeat(a_vals, b_vals.size)
    b = np.tile(b_vals, a_vals.size)
    mult = np.repeat(a_mult, b_vals.size) * np.tile(b_mult, a_vals.size).astype(np.float64)
    af, bf = a.astype(np.float64), b.astype(np.float64)
    mean = af * bf / n
    sd = np.sqrt(af * bf * (n - af) * (n - bf) / (float(n) ** 2 * max(n - 1, 1)))
    half = np.maximum(40 * sd, 50.0)
    lo = np.maximum(np.maximum(a + b - n, 1), np.floor(mean - half).astype(np.int64))
    hi = np.minimum(np.minimum(a, b), np.ceil(mean + half).astype(np.int64))
    length = np.maximum(hi - lo + 1, 0)
    # the parts of log P(n_ij) that depend on the pair only
    pair_gln = (
        gammaln(af + 1)
        + gammaln(bf + 1)
        + gammaln(n - af + 1)
        + gammaln(n - bf + 1)
        - gammaln(n + 1.0)
    )
    log_n = np.log(n)
    log_ab = np.log(af) + np.log(bf)
    total = 0.0
    ends = np.cumsum(length)
    start_pair = 0
    while start_pair < a.size:  # chunks of about `chunk` terms: bounded memory
        base = ends[start_pair - 1] if start_pair else 0
        stop_pair = max(int(np.searchsorted(ends, base + chunk, side="right")), start_pair + 1)
        sl = slice(start_pair, stop_pair)
        ln = length[sl]
        rep = np.repeat(np.arange(ln.size), ln)
        offs = np.arange(int(ln.sum())) - np.repeat(np.cumsum(ln) - ln, ln)
        nf = (lo[sl][rep] + offs).astype(np.float64)
        ai, bi = af[sl][rep], bf[sl][rep]
        term2 = log_n + np.log(nf) - log_ab[sl][rep]
        gln = (
            pair_gln[sl][rep]
            - gammaln(nf + 1)
            - gammaln(ai - nf + 1)
            - gammaln(bi - nf + 1)
            - gammaln(n - ai - bi + nf + 1)
        )
        total += float(np.sum(mult[sl][rep] * (nf / n) * term2 * np.exp(gln)))
        start_pair = stop_pair
    return total


def concept_attributes(concepts: EncodedConcepts) -> tuple[np.ndarray, list[str]]:
    """Attribute values ``B x F`` (0 = unspecified) and the feature names (module docstring)."""
    names = [str(n) for n in concepts.names]
    parts = [_SPLIT.split(n, maxsplit=1) for n in names]
    m = concepts.matrix.tocsr()
    if names and all(len(p) == 2 for p in parts):
        features = sorted({p[0] for p in parts})
        fidx = {f: i for i, f in enumerate(features)}
        col_feature = np.array([fidx[p[0]] for p in parts], dtype=np.int64)
        # value code of a concept inside its feature, 1-based
        col_value = np.zeros(len(names), dtype=np.int64)
        for f in range(len(features)):
            cols = np.flatnonzero(col_feature == f)
            col_value[cols] = np.arange(1, cols.size + 1)
        per_feature = (
            m
            @ sp.csr_matrix(
                (np.ones(len(names)), (np.arange(len(names)), col_feature)),
                shape=(len(names), len(features)),
            )
        ).toarray()
        if (per_feature <= 1).all():
            values = (
                m
                @ sp.csr_matrix(
                    (col_value.astype(np.float64), (np.arange(len(names)), col_feature)),
                    shape=(len(names), len(features)),
                )
            ).toarray()
            return values.astype(np.int64), features
    return m.toarray().astype(np.int64), names


def _gap_score(
    sample: np.ndarray,
    variable: np.ndarray,
    level: np.ndarray,
    n_variables: int,
    n_samples: int,
    attributes: np.ndarray,
) -> float:
    """Mean normalised MI gap over message variables.

    ``(sample[k], variable[k], level[k])`` says that message variable ``variable[k]`` takes value
    ``level[k] >= 1`` in sample ``sample[k]``; every pair not listed has value 0. All joint tables
    come from one sparse product of the variable indicators with the attribute indicators.
    """
    b = n_samples
    f = attributes.shape[1]
    if f == 0 or b == 0:
        return float("nan")
    # attribute indicators: one column per (attribute, value)
    a_keys = attributes + (np.arange(f) * (attributes.max() + 1))[None, :]
    a_uniq, a_col = np.unique(a_keys.ravel(), return_inverse=True)
    a_attr = a_uniq // (attributes.max() + 1)
    amat = sp.csr_matrix(
        (np.ones(a_col.size), (np.repeat(np.arange(b), f), a_col.ravel())), shape=(b, a_uniq.size)
    )
    n_a = np.asarray(amat.sum(axis=0)).ravel()
    # variable indicators: one column per (variable, level >= 1), sorted by variable
    z_keys = variable.astype(np.int64) * (int(level.max()) + 1 if level.size else 1) + level
    z_uniq, z_col = np.unique(z_keys, return_inverse=True)
    z_var = z_uniq // (int(level.max()) + 1 if level.size else 1)
    zmat = sp.csr_matrix((np.ones(z_col.size), (sample, z_col.ravel())), shape=(b, z_uniq.size))
    joint = (zmat.T @ amat).toarray()  # (variable level) x (attribute value)
    n_z = np.asarray(zmat.sum(axis=0)).ravel()
    # level 0 of each variable: whatever its listed levels leave over
    starts = np.searchsorted(z_var, np.arange(n_variables))
    nonempty = np.zeros(n_variables, dtype=bool)
    nonempty[np.unique(z_var)] = True
    sum_joint = np.zeros((n_variables, joint.shape[1]))
    sum_nz = np.zeros(n_variables)
    if z_uniq.size:
        red = np.add.reduceat(joint, starts[nonempty], axis=0)
        sum_joint[nonempty] = red
        sum_nz[nonempty] = np.add.reduceat(n_z, starts[nonempty])
    joint0 = n_a[None, :] - sum_joint
    n_z0 = b - sum_nz
    all_joint = np.vstack([joint, joint0])
    all_nz = np.concatenate([n_z, n_z0])
    all_var = np.concatenate([z_var, np.arange(n_variables)])
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = all_joint * b / (all_nz[:, None] * n_a[None, :])
        terms = np.where(
            all_joint > 0, all_joint / b * np.log2(np.where(all_joint > 0, ratio, 1.0)), 0.0
        )
    # MI[variable, attribute]: sum the terms over each variable's levels and attribute's values
    per_var = np.zeros((n_variables, terms.shape[1]))
    np.add.at(per_var, all_var, terms)
    mi = np.zeros((n_variables, f))
    np.add.at(mi.T, a_attr, per_var.T)
    h = np.zeros(n_variables)
    pz = all_nz / b
    np.add.at(h, all_var, np.where(pz > 0, -pz * np.log2(np.where(pz > 0, pz, 1.0)), 0.0))
    keep = h > 1e-12
    if not keep.any():
        return float("nan")
    top = -np.sort(-mi[keep], axis=1)
    second = top[:, 1] if f > 1 else np.zeros(top.shape[0])
    return float(np.mean((top[:, 0] - second) / h[keep]))


def positional_disentanglement(messages: EncodedMessages, concepts: EncodedConcepts) -> float:
    """PosDis (see the module docstring).

    Examples
    --------
    >>> from wordgames.emergent.inputs import encode_concepts, encode_messages
    >>> m = encode_messages([["r", "x"], ["r", "y"], ["b", "x"], ["b", "y"]])
    >>> c = encode_concepts([["c=red", "s=box"], ["c=red", "s=orb"], ["c=blue", "s=box"],
    ...                      ["c=blue", "s=orb"]])
    >>> positional_disentanglement(m, c)
    1.0
    """
    attributes, _ = concept_attributes(concepts)
    codes = messages.codes
    b, length = codes.shape
    rows, pos = np.nonzero(codes >= 0)
    return _gap_score(rows, pos, codes[rows, pos] + 1, length, b, attributes)


def bag_of_symbols_disentanglement(messages: EncodedMessages, concepts: EncodedConcepts) -> float:
    """BosDis (see the module docstring); word counts include repeats.

    Examples
    --------
    >>> from wordgames.emergent.inputs import encode_concepts, encode_messages
    >>> m = encode_messages([["x", "r"], ["r", "y"], ["b", "x"], ["y", "b"]])
    >>> c = encode_concepts([["c=red", "s=box"], ["c=red", "s=orb"], ["c=blue", "s=box"],
    ...                      ["c=blue", "s=orb"]])
    >>> bag_of_symbols_disentanglement(m, c)
    1.0
    """
    attributes, _ = concept_attributes(concepts)
    codes = messages.codes
    b = codes.shape[0]
    rows, pos = np.nonzero(codes >= 0)
    counts = sp.csr_matrix(
        (np.ones(rows.size), (rows, codes[rows, pos])), shape=(b, messages.n_words)
    )
    counts.sum_duplicates()
    coo = counts.tocoo()
    return _gap_score(coo.row, coo.col, coo.data.astype(np.int64), messages.n_words, b, attributes)
