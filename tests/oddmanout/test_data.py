"""The published files and their known damage (counts from PROVENANCE.md)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import require_dataset
from wordgames.errors import DataFormatError
from wordgames.oddmanout.data import FILES, load_dataset, load_file, overlap, parse_upstream


@pytest.fixture(scope="module")
def anomia_root():
    return require_dataset("oddmanout-anomia").parent


@pytest.fixture(scope="module")
def crowd_root():
    return require_dataset("oddmanout-crowdsourced").parent


@pytest.mark.parametrize(
    ("name", "n", "stripped", "multi"),
    [
        ("anomia-common-dev", 100, 2, 34),
        ("anomia-common-test", 102, 0, 32),
        ("anomia-proper-dev", 100, 2, 214),
        ("anomia-proper-test", 102, 2, 225),
    ],
)
def test_anomia_files(anomia_root, name, n, stripped, multi):
    ps = load_dataset(name, anomia_root)
    r = ps.report
    assert len(ps) == n and ps.n_words == 5
    assert r["line_ends"] == "CR"  # old-Mac line ends, read correctly
    assert r["stripped_fields"] == stripped  # 'boat ' x2, 'Smooth Criminal ', 'Egypt ', ...
    # multi-word counts of PROVENANCE.md count the 5 words of every puzzle (500 or 510)
    assert r["multiword_words"] == multi
    assert r["malformed_records"] == 0 and r["duplicates_dropped"] == 0
    assert not any(w != w.strip() for w in ps.words.ravel().tolist())


def test_common_dev_content(anomia_root):
    ps = load_dataset("anomia-common-dev", anomia_root)
    assert "éclair" in ps.vocabulary()
    cats = ps.categories.tolist()
    i = cats.index("house plant")
    assert ps.answer_words()[i] == "sequoia"
    assert sorted(ps.words[i].tolist()) == ["bonsai tree", "bromeliad", "fern", "orchid", "sequoia"]


def test_filtered_file_repairs_and_counts(crowd_root):
    ps = load_dataset("crowdsourced-filtered", crowd_root)
    r = ps.report
    assert r["physical_lines"] == 1173
    assert r["glued_lines_repaired"] == 1  # '...sea turtle\tdogconstruction\t...'
    assert r["records_after_repair"] == 1170  # 1173 - 4 malformed + 1 from the glue
    assert r["malformed_records"] == 4  # two 5-field records, each twice
    assert r["malformed_lines"] == [382, 560, 968, 1146]
    assert r["duplicates_dropped"] == 585  # the second copy
    assert len(ps) == 585
    assert len(set(ps.categories.tolist())) == 52
    rows = {(c, a) for c, a in zip(ps.categories.tolist(), ps.answer_words().tolist(), strict=True)}
    assert ("animal", "hunt") in rows and ("construction", "pelican") in rows
    # the record repaired out of the glued line
    sets = {tuple(sorted(w)) for w in ps.words.tolist()}
    assert ("cow", "dog", "fish", "hunt", "sea turtle") in sets
    assert ("crane", "excavator", "hoist", "pelican", "upraise") in sets


def test_filtered_file_read_naively_has_1173_lines(crowd_root):
    recs, lines, rep = parse_upstream(
        crowd_root / "oddmanout" / "crowdsourced_filtered.tsv", dedupe=False
    )
    assert len(recs) == 1170 and rep["duplicates_dropped"] == 0


@pytest.mark.slow
@pytest.mark.slow
def test_unfiltered_counts_and_overlap(crowd_root):
    raw = load_dataset("crowdsourced-unfiltered", crowd_root, dedupe=False, drop_repeated=False)
    assert len(raw) == 322_602
    ps = load_dataset("crowdsourced-unfiltered", crowd_root)
    r = ps.report
    assert r["duplicates_dropped"] == 322_602 - 322_147
    assert r["repeated_word_puzzles"] == 2238
    assert len(ps) == 322_147 - 2238
    test = load_dataset("crowdsourced-filtered", crowd_root)
    assert overlap(test, ps).all()  # every test puzzle is in the unfiltered file


def test_glued_line_in_a_small_file_and_bad_rows(tmp_path):
    path = tmp_path / "g.tsv"
    path.write_text(
        "fruit\tgrass\tcherry\torange\tapple\tgrape\n"
        "tools\tcake\tsaw\thammer\tdrill\twrenchfruit\tcarrot\tpear\tplum\tfig\tkiwi\n"
        "bad\tonly\tfour\tfields\n",
        encoding="utf-8",
    )
    ps = load_file(path)
    assert ps.report["glued_lines_repaired"] == 1
    assert ps.report["malformed_records"] == 1 and ps.report["malformed_lines"] == [3]
    assert sorted(ps.answer_words().tolist()) == ["cake", "carrot", "grass"]


def test_file_without_any_record_is_an_error(tmp_path):
    path = tmp_path / "x.tsv"
    path.write_text("just one field\nanother\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match="no well-formed record") as err:
        load_file(path)
    assert err.value.line == 1


def test_shuffle_hides_the_upstream_position(anomia_root):
    ps = load_dataset("anomia-common-test", anomia_root, seed=0)
    counts = np.bincount(ps.answer, minlength=5)
    assert counts.max() < 40  # upstream: always position 0
    again = load_dataset("anomia-common-test", anomia_root, seed=0)
    assert (again.words == ps.words).all()


def test_every_declared_set_is_known():
    assert set(FILES) == {
        "anomia-common-dev",
        "anomia-common-test",
        "anomia-proper-dev",
        "anomia-proper-test",
        "crowdsourced-filtered",
        "crowdsourced-unfiltered",
    }


def test_overlap_by_hand():
    from wordgames.oddmanout.puzzles import PuzzleSet

    a = PuzzleSet.from_odd_first("a", [list("abcde"), list("fghij"), list("abcdf")], seed=1)
    b = PuzzleSet.from_odd_first("b", [list("aedcb"), list("fghik")], seed=2)
    # same odd man and same set of others, in any order -> overlap; a different odd man or
    # a different set -> not
    assert overlap(a, b).tolist() == [True, False, False]
