"""Embeddings in and out (issue 21, item 10): gensim objects, ``Embedding.save``, ``.gz`` files."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

import wordgames
from wordgames.embeddings import Embedding, load_embedding
from wordgames.errors import DataFormatError, WordgamesError

WORDS = ["cat", "dog", "car", "city", "naïve"]


def _emb():
    rng = np.random.default_rng(0)
    return Embedding(WORDS, rng.normal(size=(5, 4)).astype(np.float32), name="toy")


@pytest.mark.parametrize(
    "fmt,name",
    [
        ("word2vec", "v.txt"),
        ("fasttext", "v.vec"),
        ("glove", "v.glove.txt"),
        ("word2vec-binary", "v.bin"),
        ("npy", "v.npy"),
        ("word2vec", "v.txt.gz"),
        ("word2vec-binary", "v.bin.gz"),
    ],
)
def test_save_then_load_gives_the_same_vectors_bit_for_bit(tmp_path, fmt, name):
    emb = _emb()
    path = emb.save(tmp_path / name, format=fmt)
    back = load_embedding(path, use_cache=False)
    assert list(back.words) == WORDS
    assert np.array_equal(back.vectors, emb.vectors)  # 9 significant digits: float32 exact
    assert not list(tmp_path.glob(".*tmp"))  # written by rename, nothing left behind


def test_save_gensim_round_trip(tmp_path):
    pytest.importorskip("gensim", reason="the gensim extra is not installed")
    emb = _emb()
    back = load_embedding(emb.save(tmp_path / "v.kv", format="gensim"))
    assert list(back.words) == WORDS and np.array_equal(back.vectors, emb.vectors)


def test_save_gensim_with_the_vectors_beside_the_pickle(tmp_path):
    """Issue 22 (found by the per-word bench): gensim stores an array of over 10 Mi values in a
    side file named after the file it writes; the atomic rename left it under the temporary
    name."""
    pytest.importorskip("gensim", reason="the gensim extra is not installed")
    rng = np.random.default_rng(0)
    n, dim = 220_000, 50  # 11 million values
    words = [f"w{i}" for i in range(n)]
    emb = Embedding(words, rng.standard_normal((n, dim), dtype=np.float32), name="big")
    path = emb.save(tmp_path / "big.kv", format="gensim")
    assert (tmp_path / "big.kv.vectors.npy").is_file()
    back = load_embedding(path)
    assert len(back) == n and np.array_equal(back.vectors, emb.vectors)
    assert not list(tmp_path.glob(".*"))


def test_save_refuses_what_the_format_cannot_hold(tmp_path):
    spaced = Embedding(["new york", "b"], np.eye(2), name="s")
    with pytest.raises(WordgamesError, match="'new york' is empty or holds white space"):
        spaced.save(tmp_path / "s.txt")
    spaced.save(tmp_path / "s.npy", format="npy")  # one word per line: fine
    assert load_embedding(tmp_path / "s.npy").words.tolist() == ["new york", "b"]
    with pytest.raises(WordgamesError, match="unknown format 'parquet'"):
        spaced.save(tmp_path / "s.pq", format="parquet")


def test_a_gzip_bomb_and_a_cut_gzip_file_are_refused_with_the_file_named(tmp_path):
    bomb = tmp_path / "bomb.txt.gz"
    bomb.write_bytes(gzip.compress(b"a" * 200_000_000))  # 200 MB from ~200 kB: 1000x
    with pytest.raises(DataFormatError, match="bomb.txt.gz.*gzip bomb"):
        load_embedding(bomb, use_cache=False)
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(gzip.compress(b"cat 0.1 0.2\ndog 0.3 0.4\n")[:-12])
    with pytest.raises(DataFormatError, match="cut.txt.gz.*truncated"):
        load_embedding(cut, use_cache=False)


def test_a_gz_file_is_named_without_its_suffixes(tmp_path):
    path = _emb().save(tmp_path / "vectors.txt.gz")
    assert load_embedding(path, use_cache=False).name == "vectors"


def test_evaluate_takes_a_gensim_keyedvectors_object():
    gensim_models = pytest.importorskip("gensim.models", reason="the gensim extra is not installed")
    kv = gensim_models.KeyedVectors(3)
    kv.add_vectors(["a", "b", "c", "d"], np.eye(4, 3, dtype=np.float32) + 0.1)
    res = wordgames.evaluate(kv, measures=["global-metrics"])
    assert res.subjects[0]["n_words"] == 4
    erank = res.to_frame().query("metric == 'rank'")["value"].tolist()
    assert erank == [3.0]


def test_a_keyedvectors_like_object_is_one_embedding_not_a_list():
    class FakeKV:  # what gensim's KeyedVectors offers, without gensim
        index_to_key = ["x", "y", "z"]
        vectors = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [9.0, 9.0]])  # a spare row

    class FakeModel:
        wv = FakeKV()

    for obj in (FakeKV(), FakeModel()):
        res = wordgames.evaluate(obj, measures=["global-metrics"])
        (emb,) = res.subjects
        assert emb["n_words"] == 3 and emb["name"] == "gensim-fakekv"
