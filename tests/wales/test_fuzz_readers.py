"""Property-based fuzzing of the WALES readers (hypothesis, bounded and reproducible).

The readers of ``bench/fuzz_readers.py``'s registry tagged ``wales``: edge lists with and
without a name table, name tables, the networkx pickle, the Wikispeedia files and the WALES
authors' files. Each gets 200 mutated copies of its small valid seed file (byte flips,
truncation, control characters, byte-order marks, bad UTF-8, huge numbers, duplicated, deleted
and tab-separated lines). Whatever the mutation, the reader raises only the project's own
errors, naming the file, or returns a result in which no word is empty or holds a control
character, with every repair counted. The longer campaign: ``python bench/fuzz_readers.py --n
10000 --readers ...``.
"""

from __future__ import annotations

import pytest

from tests.embeddings import fuzzbench

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is in the 'test' extra")

fuzz = fuzzbench.load()
READERS = sorted(name for name, r in fuzz.READERS.items() if "wales" in r.tags)
MAX_EXAMPLES = 200
SEED_WORDS = {
    "edge-list-ids": ["0", "1", "2", "3"],
    "edge-list-ids-with-names": ["augment", "choirboy", "l'idea", "åland"],
    "edge-list-names": ["berlin", "france", "paris", "åland"],
    "edge-list-urls": ["France", "Paris", "Åland"],
    "name-table": ["augment", "choirboy", "l'idea", "åland"],
    "networkx-pickle": ["16", "27", "29", "31", "35"],
    "wales-challenges": ["asthma", "berlin", "mammal", "nebraska", "paris", "åland"],
    "wales-human-results": ["asthma", "berlin", "mammal", "nebraska", "paris", "åland"],
    "wikigame-paths": ["asthma", "france", "lung", "nebraska", "paris", "åland"],
    "wikispeedia-articles": ["Berlin", "France", "Paris", "Åland"],
    "wikispeedia-links": ["Berlin", "France", "Paris", "Åland"],
    "wikispeedia-paths": ["Berlin", "France", "Paris", "Åland"],
}
SEED_REPAIRS = {}


def test_every_wales_reader_is_fuzzed():
    assert set(READERS) == {
        "edge-list-ids",
        "edge-list-ids-with-names",
        "edge-list-names",
        "edge-list-urls",
        "name-table",
        "networkx-pickle",
        "wales-challenges",
        "wales-human-results",
        "wikigame-paths",
        "wikispeedia-articles",
        "wikispeedia-links",
        "wikispeedia-paths",
    }


@pytest.mark.slow
@pytest.mark.parametrize("name", READERS)
def test_reader_survives_mutations(name, tmp_path):
    fuzzbench.mutate_under_hypothesis({name: fuzz.READERS[name]}, tmp_path, MAX_EXAMPLES)


@pytest.mark.parametrize("name", READERS)
def test_seed_file_is_read_as_written(name, tmp_path):
    fuzzbench.assert_seed_read_as_written(
        fuzz.READERS[name], tmp_path, SEED_WORDS[name], SEED_REPAIRS.get(name, {})
    )
