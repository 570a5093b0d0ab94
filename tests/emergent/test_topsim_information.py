"""TopSim, AMI, PosDis and BosDis against small cases computed by hand and reference code."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.emergent.information import (
    adjusted_mutual_information,
    bag_of_symbols_disentanglement,
    concept_attributes,
    positional_disentanglement,
)
from wordgames.emergent.inputs import encode_concepts, encode_messages
from wordgames.emergent.topsim import levenshtein_pairs, topographic_similarity


def _lev(a, b):
    d = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, d[0] = d[:], i
        for j, y in enumerate(b, 1):
            d[j] = min(prev[j] + 1, d[j - 1] + 1, prev[j - 1] + (x != y))
    return d[-1]


def test_levenshtein_against_textbook_dp():
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, 4, (500, 7)), rng.integers(0, 4, (500, 6))
    la, lb = rng.integers(0, 8, 500), rng.integers(0, 7, 500)
    expected = [_lev(a[p, : la[p]].tolist(), b[p, : lb[p]].tolist()) for p in range(500)]
    assert levenshtein_pairs(a, la, b, lb).tolist() == expected
    # classic: kitten -> sitting = 3
    k, s = [ord(c) for c in "kitten"], [ord(c) for c in "sitting"]
    assert levenshtein_pairs(np.array([k + [0]]), [6], np.array([s]), [7]).tolist() == [3]


def test_levenshtein_matrix_against_textbook_dp():
    from wordgames.emergent.topsim import levenshtein_matrix

    rng = np.random.default_rng(4)
    lengths = rng.integers(0, 6, 90)
    codes = np.where(np.arange(5)[None, :] < lengths[:, None], rng.integers(0, 3, (90, 5)), -1)
    d = levenshtein_matrix(codes, lengths)
    words = [codes[i, : lengths[i]].tolist() for i in range(90)]
    assert d.tolist() == [[_lev(a, b) for b in words] for a in words]


def test_topsim_by_hand():
    # messages "a b", "a c", "d c", "b d"; objects = one-hots of (first attr, second attr):
    # o1 (1,0,1,0)  o2 (1,0,0,1)  o3 (0,1,0,1)  o4 (0,1,1,0)
    # pairs 12 13 14 23 24 34: edit 1 2 2 1 2 2; cosine distance .5 1 .5 .5 1 .5
    # ranks: edit 1.5 4.5 4.5 1.5 4.5 4.5; distance 2.5 5.5 2.5 2.5 5.5 2.5
    # centred: x = -2 1 1 -2 1 1, y = -1 2 -1 -1 2 -1; sum xy = 6, sum x^2 = sum y^2 = 12
    # -> rho = 6 / 12 = 0.5
    m = encode_messages([["a", "b"], ["a", "c"], ["d", "c"], ["b", "d"]])
    objs = np.array([[1, 0, 1, 0], [1, 0, 0, 1], [0, 1, 0, 1], [0, 1, 1, 0]], dtype=float)
    assert topographic_similarity(m, objs) == (pytest.approx(0.5), 6)


def test_topsim_matches_scipy_reference_with_repeats_and_sampling():
    from scipy.spatial.distance import pdist
    from scipy.stats import spearmanr

    rng = np.random.default_rng(1)
    msgs = rng.integers(1, 4, (150, 3))  # few distinct messages: the deduplicated path
    objs = rng.integers(0, 3, (150, 4)).astype(float) + 0.5
    # equal cosines computed in different ways differ by float noise (~1e-16); TopSim ties
    # distances on a 1e-9 grid, so the reference rounds to 9 decimals
    ref = spearmanr(
        pdist(msgs, lambda x, y: _lev(list(x), list(y))), np.round(pdist(objs, "cosine"), 9)
    ).correlation
    got, n_pairs = topographic_similarity(encode_messages(msgs), objs)
    assert got == pytest.approx(ref) and n_pairs == 150 * 149 // 2
    # more pairs than the cap: all pairs of a seeded subset of 77 messages (77 * 76 / 2 = 2926
    # <= 3000 < 78 * 77 / 2); same seed same number
    a = topographic_similarity(encode_messages(msgs), objs, max_pairs=3000, random_state=5)
    b = topographic_similarity(encode_messages(msgs), objs, max_pairs=3000, random_state=5)
    c = topographic_similarity(encode_messages(msgs), objs, max_pairs=3000, random_state=6)
    assert a == b and a[1] == 2926 and a[0] != c[0]
    rows = np.sort(np.random.default_rng(5).choice(150, 77, replace=False))
    sub = spearmanr(
        pdist(msgs[rows], lambda x, y: _lev(list(x), list(y))),
        np.round(pdist(objs[rows], "cosine"), 9),
    ).correlation
    assert a[0] == pytest.approx(sub, abs=1e-12)


def test_topsim_normalized_edit_like_egg():
    from scipy.spatial.distance import pdist
    from scipy.stats import spearmanr

    rng = np.random.default_rng(5)
    lengths = rng.integers(1, 5, 80)
    codes = np.where(np.arange(4)[None, :] < lengths[:, None], rng.integers(1, 4, (80, 4)), 0)
    objs = rng.random((80, 3))
    words = [codes[i, : lengths[i]].tolist() for i in range(80)]
    idx = np.arange(80, dtype=float)[:, None]
    ref_edit = pdist(
        idx,
        lambda x, y: (
            _lev(words[int(x[0])], words[int(y[0])])
            / ((len(words[int(x[0])]) + len(words[int(y[0])])) / 2)
        ),
    )
    ref = spearmanr(np.round(ref_edit, 9), np.round(pdist(objs, "cosine"), 9)).correlation
    got, _ = topographic_similarity(encode_messages(codes, eos_id=0), objs, normalize=True)
    assert got == pytest.approx(ref, abs=1e-12)


def test_ami_by_hand():
    # perfect one-to-one correspondence (phrase = set: concept order does not matter)
    m = encode_messages([["a", "b"], ["a", "b"], ["c"], ["c"]])
    assert adjusted_mutual_information(
        m, encode_concepts([["r", "x"], ["x", "r"], ["g"], ["g"]])
    ) == pytest.approx(1.0)
    # independent: messages a a b b, phrases x y x y. MI = 0. Hypergeometric expectation:
    # each of the 4 cells (row and column sums 2, N = 4) holds n = 0, 1, 2 with probability
    # 1/6, 4/6, 1/6; only n = 2 contributes 2/4 ln(4*2/(2*2)) = ln2/2 -> E[MI] = 4 * ln2/12 = ln2/3.
    # H(M) = H(L) = ln 2 -> AMI = (0 - ln2/3) / (ln2 - ln2/3) = -0.5
    m = encode_messages([["a"], ["a"], ["b"], ["b"]])
    c = encode_concepts([["x"], ["y"], ["x"], ["y"]])
    assert adjusted_mutual_information(m, c) == pytest.approx(-0.5)
    # word order makes different messages
    m = encode_messages([["a", "b"], ["b", "a"], ["c"], ["c"]])
    assert adjusted_mutual_information(m, encode_concepts([["r"], ["r"], ["g"], ["g"]])) < 1.0


WORLD = [
    ["color=r", "shape=x"],
    ["color=r", "shape=y"],
    ["color=b", "shape=x"],
    ["color=b", "shape=y"],
]


def test_posdis_bosdis_by_hand():
    c = encode_concepts(WORLD)
    attrs, feats = concept_attributes(c)
    assert feats == ["color", "shape"] and attrs.shape == (4, 2) and (attrs > 0).all()
    # position 0 = colour, position 1 = "z" except "q" for (b, y):
    # pos 0: I(s;color) = 1 bit, I(s;shape) = 0, H = 1 -> gap 1
    # pos 1: P(q) = 1/4, H = h(1/4) = 0.8113; I with colour = I with shape = 0.8113 - 0.5 -> gap 0
    # posdis = (1 + 0) / 2 = 0.5
    m = encode_messages([["R", "z"], ["R", "z"], ["B", "z"], ["B", "q"]])
    assert positional_disentanglement(m, c) == pytest.approx(0.5)
    # holistic: one symbol per object. pos 0: I = 1 bit with both attributes -> gap 0 -> posdis 0;
    # each symbol's count is 1 for one object: I = 0.3113 with both attributes -> bosdis 0
    m = encode_messages([["w1"], ["w2"], ["w3"], ["w4"]])
    assert positional_disentanglement(m, c) == pytest.approx(0.0)
    assert bag_of_symbols_disentanglement(m, c) == pytest.approx(0.0)
    # a bag-of-symbols language with free order: posdis low, bosdis 1
    m = encode_messages([["R", "X"], ["Y", "R"], ["B", "X"], ["Y", "B"]])
    assert bag_of_symbols_disentanglement(m, c) == pytest.approx(1.0)
    assert positional_disentanglement(m, c) < 0.5


def test_bosdis_egg_miniature_language():
    # Chaabouni et al. 2020, appendix 8.2 (as in EGG's Disent doctest): bosdis = 1
    attributes = [(a, b) for a in range(4) for b in range(4)]
    messages = [
        [0, 0, 4],
        [0, 0, 5],
        [0, 0, 6],
        [0, 0, 7],
        [1, 4, 1],
        [1, 5, 1],
        [1, 6, 1],
        [1, 7, 1],
        [2, 4, 2],
        [2, 5, 2],
        [2, 6, 2],
        [2, 7, 2],
        [3, 4, 3],
        [3, 3, 5],
        [3, 3, 6],
        [3, 3, 7],
    ]
    c = encode_concepts([[f"a={a}", f"b={b}"] for a, b in attributes])
    assert bag_of_symbols_disentanglement(encode_messages(np.array(messages)), c) == pytest.approx(
        1.0
    )


def test_concepts_without_features_are_binary_attributes():
    c = encode_concepts([["red"], ["blue"], ["red", "blue"]])
    attrs, names = concept_attributes(c)
    assert names == ["blue", "red"] and attrs.tolist() == [[0, 1], [1, 0], [1, 1]]


@pytest.mark.parametrize(
    "n, k1, k2", [(50, 3, 4), (600, 20, 80), (30, 30, 30), (10, 1, 3), (8, 1, 1)]
)
@pytest.mark.parametrize("method", ["max", "arithmetic", "min", "geometric"])
def test_grouped_ami_equals_sklearn(n, k1, k2, method):
    from sklearn.metrics import adjusted_mutual_info_score

    from wordgames.emergent.information import adjusted_mutual_info

    rng = np.random.default_rng(n + k1 + k2)
    x = rng.integers(0, k1, n)
    y = (x * 7 + rng.integers(0, k2, n)) % k2
    assert adjusted_mutual_info(x, y, average_method=method) == pytest.approx(
        adjusted_mutual_info_score(x, y, average_method=method), abs=1e-12
    )


def test_grouped_ami_equals_sklearn_on_large_clusters():
    # clusters of ~1,000 samples: the sum over cell counts is cut around the hypergeometric mean
    from sklearn.metrics import adjusted_mutual_info_score

    from wordgames.emergent.information import adjusted_mutual_info

    rng = np.random.default_rng(0)
    x = rng.integers(0, 30, 30_000)
    y = np.where(rng.random(30_000) < 0.7, x, rng.integers(0, 40, 30_000))
    assert adjusted_mutual_info(x, y) == pytest.approx(
        adjusted_mutual_info_score(x, y, average_method="max"), abs=1e-12
    )


@pytest.mark.parametrize("kind", ["continuous", "ties", "few"])
def test_grouped_spearman_equals_scipy(kind):
    from scipy.stats import spearmanr

    from wordgames.emergent.topsim import spearman_small_int

    rng = np.random.default_rng(2)
    g = rng.integers(0, 9, 50_000)
    x = {
        "continuous": rng.random(50_000) + g * 0.05,
        "ties": (rng.integers(0, 1000, 50_000) + 3 * g) / 8.0,  # exact in binary: true ties
        "few": rng.integers(0, 6, 50_000) / 4.0 + (g > 4) * 0.25,
    }[kind]  # dyadic: exact
    assert spearman_small_int(g, x) == pytest.approx(spearmanr(g, x).correlation, abs=1e-12)


def test_float_noise_does_not_split_ties():
    from wordgames.emergent.topsim import _average_ranks, spearman_small_int

    # 0.1 + 0.2 = 0.30000000000000004: the same distance as 0.3 up to float noise
    assert _average_ranks(np.array([0.1 + 0.2, 0.3, 0.5])).tolist() == [1.5, 1.5, 3.0]
    g = np.array([0, 1, 2] * 3000)
    x = np.array([0.1 + 0.2, 0.3, 0.5] * 3000)
    # x ranks tie the first two values: identical ranks for g = 0 and g = 1
    expected = np.corrcoef(
        np.repeat([1500.5, 4500.5, 7500.5], 1)[g], np.array([3000.5, 3000.5, 7500.5])[g]
    )[0, 1]
    assert spearman_small_int(g, x) == pytest.approx(expected, abs=1e-12)
