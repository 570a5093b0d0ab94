"""Property-based fuzzing of every embedding reader (hypothesis, bounded and reproducible).

Each reader of ``bench/fuzz_readers.py``'s registry tagged ``embeddings`` gets 200 mutated
copies of its small valid seed file (byte flips, truncation, control characters, byte-order
marks, NUL, huge and tiny numbers, duplicated, deleted and tab-separated lines). Whatever the
mutation, the reader raises only the project's own errors, naming the file, or returns an
embedding with no control character in any word, finite vectors and unique words. The longer
campaign is ``python bench/fuzz_readers.py --n 10000``.
"""

from __future__ import annotations

import pytest

from tests.embeddings import fuzzbench

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is in the 'test' extra")

fuzz = fuzzbench.load()
READERS = sorted(name for name, r in fuzz.READERS.items() if "embeddings" in r.tags)
MAX_EXAMPLES = 200


def test_every_embedding_format_is_fuzzed():
    assert {
        "word2vec-text",
        "glove-text",
        "fasttext-vec",
        "word2vec-binary",
        "npy-matrix",
        "npy-words",
        "gensim-pickle",
        "gensim-vectors-npy",
        "text-cache-roundtrip",
    } <= set(READERS)


@pytest.mark.slow
@pytest.mark.parametrize("name", READERS)
def test_reader_survives_mutations(name, tmp_path, monkeypatch):
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    fuzzbench.mutate_under_hypothesis({name: fuzz.READERS[name]}, tmp_path, MAX_EXAMPLES)


def test_seed_files_are_read_unchanged(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    for name in READERS:
        reader = fuzz.READERS[name]
        folder = tmp_path / name
        folder.mkdir()
        emb = reader.read(reader.seed(folder))
        assert emb.words.tolist() == fuzz.WORDS, name
        assert dict(reader.repairs(emb)) == {}, name


def test_mutations_are_reproducible():
    import random

    a = fuzz.mutate(b"3 3\nthe 0.1 0.2 0.3\n", random.Random(7))
    b = fuzz.mutate(b"3 3\nthe 0.1 0.2 0.3\n", random.Random(7))
    assert a == b and a[0] != b"3 3\nthe 0.1 0.2 0.3\n"
