"""The taxonomy solver on a tiny hand-built taxonomy, and on WordNet 3.0 against the paper."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from wordgames.oddmanout.puzzles import PuzzleSet
from wordgames.oddmanout.taxonomy import Taxonomy, TaxonomySolver, ancestor_closure

#   entity(0) -- element(1) -- metallic element(2) -- mercury(3) lead(4) silver(5) gold(6)
#             |             `- noble gas(7) -- helium(8)                         bronze(10)
#             |- alloy(9) -- bronze(10)   (bronze has two parents: alloy and metallic element)
#             `- tether(11) -- lead(12) leash(13) rope(14) chain(15)   ("lead" labels 4 and 12)
NAMES = [
    "entity",
    "element",
    "metallic element",
    "mercury",
    "lead",
    "silver",
    "gold",
    "noble gas",
    "helium",
    "alloy",
    "bronze",
    "tether",
    "lead",
    "leash",
    "rope",
    "chain",
]
EDGES = [
    (1, 0),
    (2, 1),
    (3, 2),
    (4, 2),
    (5, 2),
    (6, 2),
    (7, 1),
    (8, 7),
    (9, 0),
    (10, 9),
    (10, 2),
    (11, 0),
    (12, 11),
    (13, 11),
    (14, 11),
    (15, 11),
]


@pytest.fixture(scope="module")
def tax():
    child, parent = zip(*EDGES, strict=True)
    return Taxonomy(len(NAMES), child, parent, NAMES, range(len(NAMES)), name="tiny")


def test_descendant_counts_and_specificity_by_hand(tax):
    d = tax.descendant_counts()
    assert d[0] == 16  # everything
    assert d[1] == 9  # element, metallic element + 5, noble gas, helium
    assert d[2] == 6  # itself, 4 metals and bronze (second parent)
    assert d[9] == 2 and d[7] == 2 and d[11] == 5
    assert all(d[v] == 1 for v in (3, 4, 5, 6, 8, 10, 12, 13, 14, 15))  # leaves
    assert tax.specificity()[2] == pytest.approx(1 / 6)


def test_helium_puzzle_by_hand(tax):
    # the paper's example: the explanation of helium is "metallic element"
    ps = PuzzleSet.from_odd_first("t", [["helium", "mercury", "lead", "silver", "gold"]], seed=3)
    sol = TaxonomySolver(tax).solve(ps)
    assert sol.chosen_words(ps).tolist() == ["helium"]
    assert sol.extra["explanation"][0] == "metallic element"
    k = ps.answer[0]
    assert sol.scores[0, k] == pytest.approx(1 / 6)
    # the other words have no explanation: element and entity also cover helium
    assert (np.delete(sol.extra["explanation_vertex"][0], k) == -1).all()
    # read literally ("some word has no explanation -> abstain") the solver abstains
    strict = TaxonomySolver(tax, missing="abstain").solve(ps)
    assert strict.choice[0] == -1 and strict.reason[0] == "no-explanation"


def test_a_word_with_two_vertices(tax):
    # "lead" is a metal and a tether: {lead, leash, rope, chain} share "tether" (5 descendants)
    ps = PuzzleSet.from_odd_first("t", [["helium", "lead", "leash", "rope", "chain"]], seed=1)
    sol = TaxonomySolver(tax).solve(ps)
    assert sol.chosen_words(ps).tolist() == ["helium"]
    assert sol.extra["explanation"][0] == "tether"
    assert sol.scores[0, ps.answer[0]] == pytest.approx(1 / 5)


def test_dag_second_parent_removes_the_explanation(tax):
    # bronze lies under metallic element too, so nothing separates it from the metals
    ps = PuzzleSet.from_odd_first("t", [["bronze", "mercury", "lead", "silver", "gold"]])
    sol = TaxonomySolver(tax).solve(ps)
    assert sol.choice[0] == -1 and sol.reason[0] == "no-explanation"


def test_unknown_word_abstains_and_is_counted(tax):
    ps = PuzzleSet.from_odd_first("t", [["argon", "mercury", "lead", "silver", "gold"]])
    sol = TaxonomySolver(tax).solve(ps)
    assert sol.reason[0] == "oov" and sol.oov["oov_words"] == 1
    assert sol.oov["oov_examples"] == ["argon"]


def test_many_puzzles_in_small_batches_agree(tax):
    rows = [
        ["helium", "mercury", "lead", "silver", "gold"],
        ["helium", "lead", "leash", "rope", "chain"],
        ["bronze", "mercury", "lead", "silver", "gold"],
    ] * 7
    ps = PuzzleSet.from_odd_first("t", rows, seed=5)
    vocab, inv = np.unique(ps.words.astype(str).ravel(), return_inverse=True)
    cov = tax.coverage(vocab.tolist())
    full = tax.explanations(inv.reshape(len(ps), 5), cov)
    small = tax.explanations(inv.reshape(len(ps), 5), cov, batch=2)
    for a, b in zip(full, small, strict=True):
        assert (a == b).all()


def test_closure_matches_a_depth_first_search():
    rng = np.random.default_rng(0)
    n = 60
    child = rng.integers(1, n, size=120)
    parent = (rng.random(120) * child).astype(np.int64)  # parent < child: acyclic
    A = ancestor_closure(n, child, parent).toarray()
    parents = {v: set() for v in range(n)}
    for c, p in zip(child.tolist(), parent.tolist(), strict=True):
        parents[c].add(p)

    def ancestors(v):
        seen, stack = {v}, [v]
        while stack:
            for p in parents[stack.pop()]:
                if p not in seen:
                    seen.add(p)
                    stack.append(p)
        return seen

    for v in range(n):
        assert set(np.flatnonzero(A[v]).tolist()) == ancestors(v)


def test_cycle_is_rejected():
    t = Taxonomy(3, [1, 2, 0], [0, 1, 2], ["a", "b", "c"], [0, 1, 2])
    with pytest.raises(ValueError, match="cycle"):
        t.descendant_counts()


# --------------------------------------------------------------------------- WordNet
@pytest.fixture(scope="module")
def wordnet():
    from wordgames.errors import DatasetMissingError
    from wordgames.oddmanout.wordnet import wordnet_taxonomy

    try:
        return wordnet_taxonomy()
    except (DatasetMissingError, LookupError) as exc:
        pytest.skip(f"WordNet not available: {exc}")


def test_lexnames_file():
    from wordgames.oddmanout.wordnet import lexnames_text

    lines = lexnames_text().splitlines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3" and lines[3] == "03\tnoun.Tops\t1"
    assert lines[29] == "29\tverb.body\t2" and lines[44] == "44\tadj.ppl\t3"


def test_ensure_lexnames_copy_and_in_place(tmp_path):
    from pathlib import Path

    from wordgames.errors import DatasetMissingError
    from wordgames.oddmanout.wordnet import DEBIAN_ROOT, ensure_lexnames

    if not (DEBIAN_ROOT / "data.noun").is_file():
        pytest.skip("Debian wordnet-base not installed")
    copy = ensure_lexnames(DEBIAN_ROOT, cache=tmp_path / "wn")
    assert (copy / "lexnames").read_text().count("\n") == 45
    assert (copy / "data.noun").stat().st_size == (DEBIAN_ROOT / "data.noun").stat().st_size
    assert not (copy / "data.noun").is_symlink()
    # in place, on a writable copy without lexnames
    (copy / "lexnames").unlink()
    assert ensure_lexnames(copy, in_place=True) == copy and (copy / "lexnames").is_file()
    with pytest.raises(DatasetMissingError, match="not a WordNet"):
        ensure_lexnames(Path(tmp_path / "empty"))


# the paper's Table 2: WordNet explanations of solved puzzles (odd man first)
TABLE2 = [
    (["chicken", "screwdriver", "margarita", "mimosa", "daiquiri"], "chicken", "mixed_drink.n.01"),
    (["bronze", "silver", "steel", "brass", "pewter"], "silver", "alloy.n.01"),
    (["canoe", "school", "flock", "herd", "pack"], "canoe", "animal_group.n.01"),
    (["nightgown", "afternoon", "morning", "evening", "midnight"], "nightgown", "abstraction.n.06"),
    (["king", "president", "queen", "prince", "princess"], "king", "leader.n.01"),
    (["crab", "dinghy", "boat", "canoe", "raft"], "dinghy", "travel.v.01"),
    (["helium", "mercury", "lead", "silver", "gold"], "helium", "metallic_element.n.01"),
]


def test_wordnet_reproduces_table2(wordnet):
    ps = PuzzleSet.from_odd_first("table2", [r for r, _, _ in TABLE2], seed=0)
    sol = TaxonomySolver(wordnet).solve(ps)
    assert sol.chosen_words(ps).tolist() == [c for _, c, _ in TABLE2]
    assert sol.extra["explanation"].tolist() == [e for _, _, e in TABLE2]


def test_wordnet_on_anomia_is_close_to_the_paper(wordnet, data_root):
    from tests.conftest import require_dataset
    from wordgames.oddmanout.data import load_dataset
    from wordgames.oddmanout.metrics import score

    require_dataset("oddmanout-anomia")
    solver = TaxonomySolver(wordnet)
    tot = np.zeros(3)
    proper_correct = 0
    for name in ("anomia-common-dev", "anomia-common-test"):
        ps = load_dataset(name, data_root)
        s = score(ps, solver.solve(ps))
        tot += [s["correct"], s["wrong"], s["abstained"]]
    for name in ("anomia-proper-dev", "anomia-proper-test"):
        ps = load_dataset(name, data_root)
        proper_correct += score(ps, solver.solve(ps))["correct"]
    pct = 100 * tot / tot.sum()
    # paper: 40.6 % correct, 13.4 % wrong, 46.0 % abstained on AnomiaCommon (202 puzzles)
    np.testing.assert_allclose(pct, [40.6, 13.4, 46.0], atol=5.0)
    assert proper_correct <= 6  # paper: 1 of 202 AnomiaProper puzzles


def test_wordnet_sense_counts():
    from wordgames.errors import DatasetMissingError
    from wordgames.oddmanout.wordnet import sense_counts

    try:
        c = sense_counts(["bank", "daiquiri", "fire engine", "xyzzyq"])
    except DatasetMissingError as exc:
        pytest.skip(str(exc))
    assert c[0] == 18 and c[1] == 1 and c[2] == 1 and c[3] == 0


@pytest.mark.slow
def test_a_users_own_nltk_wordnet(tmp_path, monkeypatch):
    """An nltk_data/corpora/wordnet folder (what nltk.download makes) is found and used."""
    import nltk

    from wordgames.oddmanout import wordnet as wnmod

    if not (wnmod.DEBIAN_ROOT / "data.noun").is_file():
        pytest.skip("no WordNet files to build a user folder from")
    folder = tmp_path / "nltk_data" / "corpora" / "wordnet"
    folder.mkdir(parents=True)
    # built by hand: ensure_lexnames returns the system folder itself once it has lexnames
    # (after `wordgames oddmanout wordnet-setup --in-place`), and makes no copy then
    for name in wnmod._DATA_FILES + wnmod._OPTIONAL_FILES:
        if (wnmod.DEBIAN_ROOT / name).is_file():
            shutil.copyfile(wnmod.DEBIAN_ROOT / name, folder / name)
    (folder / "lexnames").write_text(wnmod.lexnames_text(), encoding="ascii")
    monkeypatch.delenv(wnmod.ENV, raising=False)
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path / "nltk_data")])
    assert wnmod.wordnet_source() == "nltk"
    wnmod._load.cache_clear()
    try:
        wn = wnmod.load_wordnet()
        assert wn.get_version() == "3.0"
        assert [s.name() for s in wn.synsets("daiquiri")] == ["daiquiri.n.01"]
    finally:
        wnmod._load.cache_clear()
