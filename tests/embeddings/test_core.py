"""The Embedding type and vocabulary restriction, on hand-computed tiny cases."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.embeddings import Embedding, intersect_vocabularies, lower_alpha_mask, restrict
from wordgames.errors import OOVError


@pytest.fixture
def toy():
    words = ["the", "Cat", "dog", "a1", "eel", "fish"]
    vecs = np.array([[1, 0], [0, 1], [3, 4], [1, 1], [0, 0], [-1, 0]], dtype=np.float64)
    return Embedding(words, vecs, name="toy")


def test_basic_properties(toy):
    assert len(toy) == 6 and toy.dim == 2
    assert toy.vectors.dtype == np.float32
    assert toy.index("dog") == 2
    assert "dog" in toy and "cow" not in toy


def test_unit_view_and_zero_row(toy):
    np.testing.assert_allclose(toy.unit[2], [0.6, 0.8], rtol=1e-6)
    np.testing.assert_array_equal(toy.unit[4], [0.0, 0.0])  # zero vector stays zero, no NaN


def test_cosine_and_euclidean(toy):
    assert toy.cosine("the", "dog") == pytest.approx(0.6)
    assert toy.cosine("the", "fish") == pytest.approx(-1.0)
    assert toy.euclidean("the", "dog") == pytest.approx(np.hypot(2, 4))


def test_oov_policies(toy):
    with pytest.raises(OOVError, match="cow"):
        toy.index("cow")
    with pytest.raises(OOVError):
        toy.vectors_for(["dog", "cow"])
    mat, look = toy.vectors_for(["dog", "cow", "the"], oov="skip")
    assert mat.shape == (2, 2) and look.n_oov == 1 and look.oov == ["cow"]
    mat, look = toy.vectors_for(["dog", "cow"], oov="zero")
    np.testing.assert_array_equal(mat[1], [0, 0])
    assert look.indices.tolist() == [2, -1]


def test_nearest_excludes_query(toy):
    top = toy.nearest("the", 2)
    assert [w for w, _ in top] == ["a1", "dog"]  # cos 0.707 then 0.6


def test_lower_alpha_mask():
    assert lower_alpha_mask(["cat", "Cat", "ice-cream", "x1", "café", "dog"]).tolist() == [
        True,
        False,
        False,
        False,
        False,
        True,
    ]


def test_restrict_order_of_filters(toy, tmp_path):
    assert restrict(toy, lower_alpha=True).words.tolist() == ["the", "dog", "eel", "fish"]
    assert restrict(toy, top_n=2).words.tolist() == ["the", "Cat"]
    assert restrict(toy, lower_alpha=True, top_n=2).words.tolist() == ["the", "dog"]
    lst = tmp_path / "words.txt"
    lst.write_text("fish\r\n# comment\n\neel\nunknown\n")
    r = restrict(toy, words=lst)
    assert r.words.tolist() == ["eel", "fish"]  # frequency order, not list order
    np.testing.assert_array_equal(r.vector("fish"), toy.vector("fish"))


def test_restrict_does_not_mutate(toy):
    before = toy.vectors.copy()
    r = restrict(toy, top_n=3)
    assert len(toy) == 6
    np.testing.assert_array_equal(toy.vectors, before)
    assert len(r) == 3


def test_intersection_same_rows():
    a = Embedding(["x", "y", "z", "w"], np.eye(4), name="a")
    b = Embedding(["w", "z", "x", "q"], np.eye(4) * 2, name="b")
    ra, rb = intersect_vocabularies([a, b])
    assert ra.words.tolist() == rb.words.tolist() == ["x", "z", "w"]
    np.testing.assert_array_equal(rb.vector("x"), [0, 0, 2, 0])
    assert ra.name == "a" and rb.name == "b"


def test_fingerprint_depends_on_content_not_name():
    a = Embedding(["x", "y"], np.eye(2), name="a")
    b = Embedding(["x", "y"], np.eye(2), name="b")
    c = Embedding(["x", "y"], np.eye(2) * 2, name="a")
    assert a.fingerprint() == b.fingerprint() != c.fingerprint()


def test_constructor_validates():
    with pytest.raises(ValueError, match="2 words but 3"):
        Embedding(["a", "b"], np.zeros((3, 2)))
    with pytest.raises(ValueError, match="oov policy"):
        Embedding(["a"], np.zeros((1, 2)), oov="ignore")
    with pytest.raises(ValueError, match="duplicate"):
        _ = Embedding(["a", "a"], np.zeros((2, 2))).word_index
