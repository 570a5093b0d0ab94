"""Property-based fuzzing of every Codenames reader (hypothesis, bounded and reproducible).

The user JSONL and CSV readers and the paper's two table layouts get 200 mutated copies each of
a small valid seed file; every human-data source loader gets mutated copies of its real files
(one file mutated per example, drawn among the files the loader reads) loaded with
``verify=False``. Whatever the mutation, a reader raises only the project's own errors, naming
the file, or returns records that obey ``record_problem`` (no word with a control character,
unique board words, disjoint colours, numbers and counts in range). The budget of each source
is set by its loading time so that this file runs in about 30 seconds; the longer campaign is
``python bench/fuzz_readers.py --n 10000 --readers codenames-user-jsonl,...``.
"""

from __future__ import annotations

import random

import pytest

from tests.conftest import require_dataset
from tests.embeddings import fuzzbench
from wordgames.codenames.human_data import HUMAN_DATASETS, load_human_data

pytestmark = pytest.mark.slow  # real data, a browser or servers: seconds each

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is in the 'test' extra")

fuzz = fuzzbench.load()
USER_READERS = [
    "codenames-user-jsonl",
    "codenames-user-csv",
    "codenames-table2",
    "codenames-table3",
]
#: mutations per source in CI, by loading time (salt and noahprescott take ~0.1 s a load)
SOURCE_EXAMPLES = {
    "codenames-pilot": 80,
    "codenames-human-salt": 25,
    "codenames-human-noahprescott": 20,
    "codenames-human-itsluisa": 80,
    "codenames-human-xerevity": 80,
    "codenames-human-heyyjudes": 60,
    "codenames-human-stanfordhci": 150,
}


def test_every_codenames_reader_is_registered():
    names = {name for name, r in fuzz.READERS.items() if "codenames" in r.tags}
    assert set(USER_READERS) <= names
    assert set(SOURCE_EXAMPLES) == set(HUMAN_DATASETS)


@pytest.mark.parametrize("name", USER_READERS)
def test_user_reader_survives_mutations(name, tmp_path):
    fuzzbench.mutate_under_hypothesis({name: fuzz.READERS[name]}, tmp_path, 200)


@pytest.mark.parametrize("name", list(SOURCE_EXAMPLES))
def test_source_loader_survives_mutations_of_its_real_files(name, tmp_path):
    folder = require_dataset(name)
    from wordgames.datasets import get_dataset

    root = str(folder.parents[len(get_dataset(name).folder.split("/")) - 1])
    files = fuzz.human_source_files(name)
    readers = {f: fuzz.human_source_reader(name, f, root) for f in files}
    _, mutated = fuzzbench.mutate_under_hypothesis(readers, tmp_path, SOURCE_EXAMPLES[name])
    assert len(mutated) > 1 or len(files) == 1, mutated


@pytest.mark.parametrize("name", list(SOURCE_EXAMPLES))
def test_an_unmutated_copy_loads_exactly_as_the_real_files(name, tmp_path):
    """The fuzz seed (a copy of the real files) loads with verify=False to the same records."""
    folder = require_dataset(name)
    from wordgames.datasets import get_dataset

    root = str(folder.parents[len(get_dataset(name).folder.split("/")) - 1])
    reader = fuzz.human_source_reader(name, None, root)
    copy = reader.read(reader.seed(tmp_path))
    real = load_human_data(name, root)
    assert copy.receiver == real.receiver and copy.sender == real.sender
    assert [r.meta for r in copy.receiver + copy.sender] == [
        r.meta for r in real.receiver + real.sender
    ]
    assert copy.summary() == real.summary() and copy.files == real.files
    assert reader.repairs(copy) == {} and reader.check(copy) == []


def test_user_seed_files_are_read_unchanged(tmp_path):
    for name in USER_READERS:
        reader = fuzz.READERS[name]
        folder = tmp_path / name
        folder.mkdir()
        data = reader.read(reader.seed(folder))
        assert reader.repairs(data) == {} and reader.check(data) == [], name
        assert len(data.receiver) + len(data.sender) in (2, 4), name
    data = fuzz.READERS["codenames-user-jsonl"].read(tmp_path / "codenames-user-jsonl/mine.jsonl")
    assert data.receiver[0].board == ("dog", "ice cream", "bank", "cat", "straße")
    assert data.receiver[0].count == 3 and data.sender[1].record_id == "17"


def test_source_mutations_are_reproducible(tmp_path):
    require_dataset("codenames-human-stanfordhci")
    reader = fuzz.READERS.get("codenames-stanfordhci") or pytest.skip("not registered")
    a = fuzz.run_one(reader, tmp_path / "a", random.Random(3))
    b = fuzz.run_one(reader, tmp_path / "a", random.Random(3))
    assert a.ops == b.ops and a.kind == b.kind
