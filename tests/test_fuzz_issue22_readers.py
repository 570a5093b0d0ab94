"""Issue 22: property-based fuzzing of the readers that were not fuzzed before (hypothesis,
bounded and reproducible): study files (TOML and JSON), Odd-Man-Out protocol seed and category
files, and results folders as ``report`` and ``results merge`` read them.

Each gets 200 mutated copies of its small valid seed (byte flips, truncation, control
characters, byte-order marks, bad UTF-8, huge numbers, duplicated, deleted and tab-separated
lines). Whatever the mutation, the reader raises only the project's own errors, naming the
file, or returns a result in which no word is empty or holds a control character. The longer
campaign: ``python bench/fuzz_readers.py --n 10000 --readers study-toml,...``.
"""

from __future__ import annotations

import logging

import pytest

from tests.embeddings import fuzzbench

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is in the 'test' extra")

fuzz = fuzzbench.load()
TAGS = ("study", "oddmanout-seeds", "results")
READERS = sorted(n for n, r in fuzz.READERS.items() if set(r.tags) & set(TAGS))
MAX_EXAMPLES = 200


def test_every_new_reader_is_fuzzed():
    assert set(READERS) == {
        "study-toml",
        "study-json",
        "omo-protocol-seeds",
        "omo-categories",
        "results-json",
        "results-record",
        "results-merge",
    }


@pytest.mark.slow
@pytest.mark.parametrize("name", READERS)
def test_reader_survives_mutations(name, tmp_path, monkeypatch, caplog):
    caplog.set_level(logging.ERROR)  # each quarantined record is a warning: not the point here
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    # merging skips (and counts) a record it cannot read: it never refuses the whole folder
    lenient = name == "results-merge"
    fuzzbench.mutate_under_hypothesis(
        {name: fuzz.READERS[name]}, tmp_path, MAX_EXAMPLES, lenient=lenient
    )


@pytest.mark.parametrize("name", READERS)
def test_seeds_are_read_without_repair(name, tmp_path):
    reader = fuzz.READERS[name]
    result = reader.read(reader.seed(tmp_path))
    assert dict(reader.repairs(result)) == {}
    assert list(reader.words(result))
