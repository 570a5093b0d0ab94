"""The built-in offline embedding family: names, shapes, determinism, what each member is."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.embeddings import family
from wordgames.embeddings.family import (
    FAMILY_NAMES,
    family_members,
    load_family,
    load_family_member,
)
from wordgames.errors import WordgamesError


def test_names_and_members():
    assert FAMILY_NAMES == tuple(m.name for m in family_members())
    assert len(FAMILY_NAMES) == len(set(FAMILY_NAMES)) == 10
    for name in ("glove-6b-50d-pca10", "glove-6b-50d-top50k", "random-50d"):
        assert name in FAMILY_NAMES
    with pytest.raises(WordgamesError, match="unknown family member"):
        load_family_member("glove-6b-50d-pca7")


def test_shapes(glove):
    shapes = {e.name: e.vectors.shape for e in load_family()}
    assert shapes["glove-6b-50d-pca5"] == (400_000, 5)
    assert shapes["glove-6b-50d-pca30"] == (400_000, 30)
    assert shapes["glove-6b-50d-top10k"] == (10_000, 50)
    assert shapes["glove-6b-50d-top400k"] == (400_000, 50)
    assert shapes["random-50d"] == glove.vectors.shape


def test_top_members_are_glove_prefixes(glove):
    e = load_family_member("glove-6b-50d-top50k")
    assert e.words.tolist() == glove.words[:50_000].tolist()
    np.testing.assert_array_equal(e.vectors, glove.vectors[:50_000])
    assert e.name == "glove-6b-50d-top50k" and e.source == "family:glove-6b-50d-top50k"


def test_pca_members_are_nested_centred_and_ordered_by_variance(glove):
    p50 = load_family_member("glove-6b-50d-pca50").vectors.astype(np.float64)
    p10 = load_family_member("glove-6b-50d-pca10").vectors
    np.testing.assert_array_equal(p10, p50[:, :10].astype(np.float32))
    assert np.abs(p50.mean(axis=0)).max() < 1e-4
    var = p50.var(axis=0)
    assert np.all(np.diff(var) <= 1e-9)
    corr = np.corrcoef(p50.T)  # principal components are uncorrelated over all rows
    np.testing.assert_allclose(corr, np.eye(50), atol=1e-4)
    # a full-rank PCA is a rotation of the centred vectors: distances are preserved
    g = glove.vectors[:200].astype(np.float64)
    d_glove = np.linalg.norm(g[:, None] - g[None], axis=-1)
    d_pca = np.linalg.norm(p50[:200, None] - p50[None, :200], axis=-1)
    np.testing.assert_allclose(d_pca, d_glove, rtol=1e-4, atol=1e-4)


def test_deterministic_across_rebuilds_and_seeded():
    a = load_family_member("random-50d", seed=3)
    assert load_family_member("random-50d", seed=3) is a  # memoised
    family._build.cache_clear()
    b = load_family_member("random-50d", seed=3)
    assert b is not a
    np.testing.assert_array_equal(a.vectors, b.vectors)
    c = load_family_member("random-50d", seed=4)
    assert not np.array_equal(a.vectors, c.vectors)
    assert b.source.endswith("seed=3")
    assert abs(float(a.vectors.std()) - 1.0) < 0.01  # standard normal
    p = load_family_member("glove-6b-50d-pca20").vectors.copy()
    family._build.cache_clear()
    family._pca_scores.cache_clear()
    family._pca_basis.cache_clear()
    np.testing.assert_array_equal(p, load_family_member("glove-6b-50d-pca20").vectors)
