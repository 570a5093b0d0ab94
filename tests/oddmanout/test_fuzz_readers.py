"""Property-based fuzzing of the Odd-Man-Out readers (hypothesis, bounded and reproducible).

The readers of ``bench/fuzz_readers.py``'s registry tagged ``oddmanout``: users' TSV and JSONL
puzzles, the upstream layout. Each gets 200 mutated copies of its small valid seed file (byte
flips, truncation, control characters, byte-order marks, bad UTF-8, huge numbers, duplicated,
deleted and tab-separated lines). Whatever the mutation, the reader raises only the project's
own errors, naming the file, or returns a result in which no word is empty or holds a control
character, with every repair counted. The longer campaign: ``python bench/fuzz_readers.py --n
10000 --readers ...``.
"""

from __future__ import annotations

import pytest

from tests.embeddings import fuzzbench

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is in the 'test' extra")

fuzz = fuzzbench.load()
READERS = sorted(name for name, r in fuzz.READERS.items() if "oddmanout" in r.tags)
MAX_EXAMPLES = 200
OMO_WORDS = sorted(
    "apple bell boat car cherry cymbal drum gong grape grass motel orange paris spaceship train".split()
)
SEED_WORDS = {
    "oddmanout-jsonl": OMO_WORDS,
    "oddmanout-tsv": OMO_WORDS,
    "oddmanout-upstream": sorted(
        "apple boat car cherry fog grape grass hail motel orange pencil rain snow spaceship train".split()
    ),
}
SEED_REPAIRS = {"oddmanout-upstream": {"malformed_records": 1, "duplicates_dropped": 1}}


def test_every_oddmanout_reader_is_fuzzed():
    assert set(READERS) == {"oddmanout-jsonl", "oddmanout-tsv", "oddmanout-upstream"}


@pytest.mark.parametrize("name", READERS)
@pytest.mark.slow
def test_reader_survives_mutations(name, tmp_path):
    fuzzbench.mutate_under_hypothesis({name: fuzz.READERS[name]}, tmp_path, MAX_EXAMPLES)


@pytest.mark.parametrize("name", READERS)
def test_seed_file_is_read_as_written(name, tmp_path):
    fuzzbench.assert_seed_read_as_written(
        fuzz.READERS[name], tmp_path, SEED_WORDS[name], SEED_REPAIRS.get(name, {})
    )
