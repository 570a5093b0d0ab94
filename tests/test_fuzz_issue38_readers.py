"""Issue 38: property-based fuzzing of the caches (hypothesis, bounded and reproducible): the
LLM response cache (a SQLite file) and the embedding cache's manifest.

Each gets 200 mutated copies of its small valid seed. Whatever the mutation, opening the
response cache, reading every answer and writing one never raises: a damaged file is moved
aside and salvaged (a repair); a damaged manifest is rebuilt from the source file and gives
the file's own words and vectors. The longer campaign:
``python bench/fuzz_readers.py --n 10000 --readers response-cache,embedding-cache-manifest``.
"""

from __future__ import annotations

import logging

import pytest

from tests.embeddings import fuzzbench

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is in the 'test' extra")

fuzz = fuzzbench.load()
READERS = sorted(n for n, r in fuzz.READERS.items() if "cache" in r.tags)
MAX_EXAMPLES = 200


def test_both_caches_are_fuzzed():
    assert set(READERS) == {"response-cache", "embedding-cache-manifest"}


@pytest.mark.slow
@pytest.mark.parametrize("name", READERS)
def test_cache_survives_mutations(name, tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.ERROR)  # each cache moved aside is a warning: not the point here
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    # a cache is never refused: what cannot be read is moved aside or rebuilt (a repair)
    fuzzbench.mutate_under_hypothesis(
        {name: fuzz.READERS[name]}, tmp_path, MAX_EXAMPLES, lenient=True
    )


@pytest.mark.parametrize("name", READERS)
def test_seeds_are_read_without_repair(name, tmp_path, monkeypatch):
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    reader = fuzz.READERS[name]
    assert dict(reader.repairs(reader.read(reader.seed(tmp_path)))) == {}
