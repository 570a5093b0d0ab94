"""Property-based fuzzing of the word-similarity readers (hypothesis, bounded and reproducible).

The readers of ``bench/fuzz_readers.py``'s registry tagged ``similarity``:
``word1<TAB>word2<TAB>score`` files. Each gets 200 mutated copies of its small valid seed file
(byte flips, truncation, control characters, byte-order marks, bad UTF-8, huge numbers,
duplicated, deleted and tab-separated lines). Whatever the mutation, the reader raises only the
project's own errors, naming the file, or returns a result in which no word is empty or holds a
control character, with every repair counted. The longer campaign: ``python
bench/fuzz_readers.py --n 10000 --readers ...``.
"""

from __future__ import annotations

import pytest

from tests.embeddings import fuzzbench

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is in the 'test' extra")

fuzz = fuzzbench.load()
READERS = sorted(name for name, r in fuzz.READERS.items() if "similarity" in r.tags)
MAX_EXAMPLES = 200
SEED_WORDS = {
    "similarity-tsv": ["book", "cat", "computer", "island", "keyboard", "paper", "tiger", "åland"],
}
SEED_REPAIRS = {}


def test_every_similarity_reader_is_fuzzed():
    assert set(READERS) == {"similarity-tsv"}


@pytest.mark.parametrize("name", READERS)
def test_reader_survives_mutations(name, tmp_path):
    fuzzbench.mutate_under_hypothesis({name: fuzz.READERS[name]}, tmp_path, MAX_EXAMPLES)


@pytest.mark.parametrize("name", READERS)
def test_seed_file_is_read_as_written(name, tmp_path):
    fuzzbench.assert_seed_read_as_written(
        fuzz.READERS[name], tmp_path, SEED_WORDS[name], SEED_REPAIRS.get(name, {})
    )
