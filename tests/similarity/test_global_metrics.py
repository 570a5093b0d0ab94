"""erank / perank / edim on matrices whose answers are known by hand or from the spec's table."""

from __future__ import annotations

import math

import numpy as np
import pytest

from wordgames.embeddings import Embedding
from wordgames.similarity.global_metrics import (
    GlobalMetrics,
    edim,
    edim_from_singular_values,
    erank,
    erank_from_singular_values,
    perank,
    perank_from_singular_values,
    singular_values,
)


def _compute(emb, **kw):
    from wordgames.compute import compute_unit
    from wordgames.registry import get_measure

    return compute_unit(get_measure("global-metrics"), emb, **kw)


A = np.array([[3, 0, 0], [0, 2, 0], [0, 0, 1], [0, 0, 0]], dtype=float)
B = np.array([[1, 2, 0], [0, 1, 1], [2, 0, 1], [1, 1, 1]], dtype=float)

# specs/global-metrics.md section 7: erank, perank 2.5, perank 2, edim 1, edim 2
SPEC_TABLE = [
    (A, {}, (2.749459, 2.089312, 2.294401, 2.571429, 2.000000)),
    (A, {"center": True}, (2.632607, 1.880539, 2.089019, 2.408396, 1.800000)),
    (A, {"rownorm": True}, (3.0, 3.0, 3.0, 3.0, 3.0)),
    (B, {}, (2.717189, 1.904814, 2.157894, 2.499497, 1.800000)),
    (B, {"center": True}, (2.416667, 1.843241, 1.966475, 2.208570, 1.796020)),
    (B, {"rownorm": True}, (2.730165, 1.879486, 2.150490, 2.507594, 1.767305)),
]


def test_hand_computed_diagonal_case():
    # s = (3, 2, 1): q = (1/2, 1/3, 1/6)
    q = np.array([1 / 2, 1 / 3, 1 / 6])
    assert erank(A) == pytest.approx(math.exp(-(q * np.log(q)).sum()), abs=1e-12)
    assert edim(A, 1.0) == pytest.approx(36 / 14, abs=1e-12)  # (3+2+1)^2 / (9+4+1)
    assert edim(A, 2.0) == pytest.approx(14**2 / 98, abs=1e-12)  # (9+4+1)^2 / (81+16+1)
    w = np.array([3.0, 2.0, 1.0]) ** 2.5
    qw = w / w.sum()
    assert perank(A, 2.5) == pytest.approx(math.exp(-(qw * np.log(qw)).sum()), abs=1e-12)


@pytest.mark.parametrize("method", ["svd", "gram"])
@pytest.mark.parametrize(("matrix", "kw", "expected"), SPEC_TABLE)
def test_spec_worked_examples(matrix, kw, expected, method):
    s = singular_values(matrix, method=method, **kw)
    got = (
        erank_from_singular_values(s),
        perank_from_singular_values(s, 2.5),
        perank_from_singular_values(s, 2.0),
        edim_from_singular_values(s, 1.0),
        edim_from_singular_values(s, 2.0),
    )
    np.testing.assert_allclose(got, expected, atol=1e-6)


def test_renyi_variant_of_perank_matches_spec():
    assert perank(A, 2.5, variant="renyi") == pytest.approx(2.504723, abs=1e-6)
    assert perank(B, 2.5, variant="renyi") == pytest.approx(2.415499, abs=1e-6)


def test_rank_one_gives_one_everywhere():
    m = np.outer([1, 2, 3, 4], [1, 1, 0])
    assert erank(m) == pytest.approx(1.0, abs=1e-12)
    assert perank(m) == pytest.approx(1.0, abs=1e-12)
    assert edim(m) == pytest.approx(1.0, abs=1e-12)


def test_isotropic_matrix_gives_its_rank():
    m = np.eye(4)[:, :3]
    for f in (erank, perank, edim):
        assert f(m) == pytest.approx(3.0, abs=1e-12)


def test_perank_p1_is_erank_and_edim_p2_is_participation_ratio():
    s = singular_values(B)
    assert perank_from_singular_values(s, 1.0) == pytest.approx(erank(B), abs=1e-12)
    lam = s**2
    assert edim(B, 2.0) == pytest.approx(lam.sum() ** 2 / (lam**2).sum(), abs=1e-12)
    # larger p concentrates the spectrum: perank decreases for a non-flat spectrum
    assert perank(B, 1.0) > perank(B, 2.5) > perank(B, 10.0) > 1.0


def test_invariant_to_scale_and_rotation_but_not_to_centring():
    rng = np.random.default_rng(0)
    m = rng.standard_normal((200, 6)) @ np.diag([5, 3, 2, 1, 0.5, 0.1]) + 2.0
    q_left, _ = np.linalg.qr(rng.standard_normal((200, 200)))
    q_right, _ = np.linalg.qr(rng.standard_normal((6, 6)))
    for f in (erank, perank, edim):
        ref = f(m)
        assert f(7.0 * m) == pytest.approx(ref, rel=1e-10)
        assert f(q_left @ m @ q_right) == pytest.approx(ref, rel=1e-10)
        assert abs(f(m, center=True) - ref) > 1e-3


def test_degenerate_inputs_give_nan():
    assert math.isnan(erank(np.zeros((5, 3))))
    assert math.isnan(perank(np.zeros((0, 3))))
    bad = B.copy()
    bad[1, 1] = np.nan
    assert math.isnan(edim(bad))
    assert math.isnan(erank(bad, rownorm=True))


def test_gram_route_resolves_exact_low_rank_tall_matrix():
    rng = np.random.default_rng(1)
    q, _ = np.linalg.qr(rng.standard_normal((20_000, 3)))
    v, _ = np.linalg.qr(rng.standard_normal((20, 3)))
    m = q @ v.T  # singular values exactly (1, 1, 1), rank 3
    for method in ("gram", "auto", "svd"):
        s = singular_values(m, method=method)
        assert s.size == 3
        assert erank_from_singular_values(s) == pytest.approx(3.0, abs=1e-9)


def test_gram_route_agrees_with_svd_on_glove(glove):
    x = glove.vectors[:20_000]
    for kw in ({}, {"center": True}, {"rownorm": True}):
        s_gram = singular_values(x, method="gram", **kw)
        s_svd = singular_values(x, method="svd", **kw)
        np.testing.assert_allclose(s_gram, s_svd, rtol=1e-8)


def test_run_records_reconstructed_definitions_and_plot(tmp_path):
    emb = Embedding(["a", "b", "c", "d"], A, name="diag")
    res = _compute(emb, out_dir=tmp_path, options={"center": False})
    assert res.measure == "global-metrics"
    assert res.value("erank") == pytest.approx(2.749459, abs=1e-6)
    assert res.value("perank", agent="p=2.5") == pytest.approx(2.089312, abs=1e-6)
    assert res.value("edim", agent="p=1.0") == pytest.approx(2.571429, abs=1e-6)
    assert res.value("rank") == 3 and res.find("erank").n == 4
    assert res.parameters["definitions"]["perank"] == "reconstructed"
    assert any("RECONSTRUCTED" in n for n in res.notes)
    assert (
        len(res.plots) == 1
        and (tmp_path / "plots" / "diag" / "global-metrics" / "spectrum.png").is_file()
    )


def test_config_top_n_uses_the_most_frequent_rows():
    rows = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 5], [0, 0, 9]], dtype=float)
    emb = Embedding(["a", "b", "c", "d"], rows)
    # the first two rows: s = (1, 1), erank 2; all four: s = (sqrt(106), 1, 1)
    assert GlobalMetrics(top_n=2).compute(emb)["erank"] == pytest.approx(2.0, abs=1e-12)
    q = np.array([math.sqrt(106), 1, 1]) / (math.sqrt(106) + 2)
    assert GlobalMetrics().compute(emb)["erank"] == pytest.approx(
        math.exp(-(q * np.log(q)).sum()), abs=1e-12
    )


def test_run_rejects_unknown_option(tmp_path):
    from wordgames.errors import WordgamesError

    emb = Embedding(["a", "b", "c", "d"], A, name="diag")
    # the typed options name the measure, the unknown option and the close match
    with pytest.raises(
        WordgamesError,
        match="measure 'global-metrics' has no option 'centre' .did you mean 'center'",
    ):
        _compute(emb, out_dir=tmp_path, options={"centre": True})


def _metrics(s):
    return np.array([erank_from_singular_values(s), perank_from_singular_values(s),
                     edim_from_singular_values(s)])  # fmt: skip


@pytest.mark.parametrize("kw", [{}, {"center": True}, {"rownorm": True}])
def test_float32_gram_holds_the_metrics_on_glove_and_auto_takes_it(glove, kw):
    """Issue 40: float32 chunk products added in float64 give the metrics to 1e-6."""
    x = np.asarray(glove.vectors)
    truth = _metrics(singular_values(x, method="svd", **kw))
    s32 = singular_values(x, method="gram32", **kw)
    np.testing.assert_allclose(_metrics(s32), truth, rtol=1e-6)
    assert not np.array_equal(_metrics(s32), _metrics(singular_values(x, method="gram", **kw)))
    assert singular_values(x, **kw).tobytes() == s32.tobytes()  # what auto chose


def test_auto_leaves_the_float32_gram_where_it_does_not_hold():
    """A spread spectrum (s_1 / s_d = 3,000): float32 products lose the small values."""
    rng = np.random.default_rng(3)
    q, _ = np.linalg.qr(rng.standard_normal((60_000, 12)))
    v, _ = np.linalg.qr(rng.standard_normal((12, 12)))
    x = ((q * np.geomspace(1, 1 / 3000, 12)) @ v.T).astype(np.float32)
    s64 = singular_values(x, method="gram")
    err32 = np.abs(_metrics(singular_values(x, method="gram32")) / _metrics(s64) - 1).max()
    assert err32 > 1e-6  # the float32 route does not hold here...
    assert singular_values(x).tobytes() == s64.tobytes()  # ...and auto takes the float64 one
