"""The published WordNet solver's mode: each difference on hand-made taxonomies, and its figures.

The figures come from the published repository's own tests (Mark-Hopkins-at-Reed/oddoneout,
``test/test_wordnet.py``): 38 correct, 14 wrong, 50 abstained on AnomiaCommon test
(``common2.tsv``) with nltk 3.4.5; ``chromatic_color.n.01`` with 168 lemmas below it explains
``apple`` against four colours; ``poodle.n.01`` (4) explains ``beagle`` against the poodles.
"""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.oddmanout.puzzles import PuzzleSet
from wordgames.oddmanout.taxonomy import (
    Taxonomy,
    TaxonomySolver,
    distinct_labels_below,
    first_edges,
)


def _solve(tax, rows, missing="least-specific"):
    ps = PuzzleSet.from_odd_first("t", rows, seed=None)
    sol = TaxonomySolver(tax, missing=missing).solve(ps)
    return ps, sol


# --------------------------------------------------------------------------- first hypernym
#   entity(0) -- fruit(1) -- apple(4) pear(5) orange(3)
#             `- color(2) -- red(6) blue(7) green(8) orange(3)      (orange: two hypernyms)
COLOURS = ["entity", "fruit", "color", "orange", "apple", "pear", "red", "blue", "green"]
CHILD = [1, 2, 3, 3, 4, 5, 6, 7, 8]
PARENT = [0, 0, 1, 2, 1, 1, 2, 2, 2]


def _first_hypernym_taxonomy(key):
    child, parent = first_edges(CHILD, PARENT, key)
    sizes = distinct_labels_below(9, CHILD, PARENT, COLOURS, range(9))
    return Taxonomy(9, child, parent, COLOURS, range(9), sizes=sizes)


def test_first_edges_keeps_the_first_key_per_child():
    key = ["", "", "b-fruit", "a-color", "", "", "", "", ""]
    c, p = first_edges(CHILD, PARENT, key)
    assert dict(zip(c.tolist(), p.tolist(), strict=True)) == {
        1: 0,
        2: 0,
        3: 2,  # orange keeps color: "a-color" sorts first
        4: 1,
        5: 1,
        6: 2,
        7: 2,
        8: 2,
    }


def test_only_the_first_hypernym_is_followed():
    rows = [["apple", "orange", "red", "blue", "green"]]
    # orange -> color first: color (4 strings below: orange, red, blue, green) explains apple
    ps, sol = _solve(_first_hypernym_taxonomy(["", "", "b", "a", "", "", "", "", ""]), rows, "root")
    assert sol.chosen_words(ps).tolist() == ["apple"]
    assert sol.extra["explanation"].tolist() == ["color"]
    assert sol.scores[0, ps.words[0].tolist().index("apple")] == pytest.approx(1 / 4)
    # orange -> fruit first: only entity covers orange, red, blue and green, and it covers
    # apple too: no word has an explanation, every word gets the root's specificity, a tie
    ps, sol = _solve(_first_hypernym_taxonomy(["", "", "a", "b", "", "", "", "", ""]), rows, "root")
    assert sol.choice.tolist() == [-1]
    np.testing.assert_allclose(sol.scores[0], 1 / 8)  # root: 8 strings below entity
    # the full DAG (our mode) sees orange under color whatever the order
    full = Taxonomy(9, CHILD, PARENT, COLOURS, range(9))
    ps, sol = _solve(full, rows)
    assert sol.chosen_words(ps).tolist() == ["apple"]


# --------------------------------------------------------------------------- sizes
def test_distinct_lemma_strings_below_a_vertex():
    #   metal(0) -- lead(1) tin(2) ;  tether(3) -- lead(4) rope(5) chain(6) leash(7)
    #   all(8) above metal and tether; lead(1) and lead(4) are two synsets of one string
    labels = ["metal", "lead", "tin", "tether", "lead", "rope", "chain", "leash", "all"]
    child, parent = [1, 2, 4, 5, 6, 7, 0, 3], [0, 0, 3, 3, 3, 3, 8, 8]
    sizes = distinct_labels_below(9, child, parent, labels, range(9))
    # own labels are not counted; "lead" counts once below "all"
    assert sizes.tolist() == [2, 0, 0, 4, 0, 0, 0, 0, 7]
    # the descendant count of our mode counts synsets, the vertex itself included
    assert Taxonomy(9, child, parent, labels, range(9)).descendant_counts().tolist() == [
        3,
        1,
        1,
        5,
        1,
        1,
        1,
        1,
        9,
    ]
    # case-sensitive strings, as nltk's lemma names: "Lead" and "lead" are two
    assert distinct_labels_below(3, [1, 2], [0, 0], ["x", "Lead", "lead"], range(3))[0] == 2


def test_a_size_of_zero_is_infinitely_specific():
    # four words share a leaf synset (3), the odd one does not: 0 strings below the leaf
    #   root(0) -- a(1) -- shared(3) (labels w1..w4) ; root -- b(2) -- odd(4)
    labels = ["root", "a", "b", "w1", "w2", "w3", "w4", "odd"]
    verts = [0, 1, 2, 3, 3, 3, 3, 4]
    child, parent = [1, 2, 3, 4], [0, 0, 1, 2]
    sizes = distinct_labels_below(5, child, parent, labels, verts)
    tax = Taxonomy(5, child, parent, labels, verts, sizes=sizes)
    ps, sol = _solve(tax, [["odd", "w1", "w2", "w3", "w4"]], "root")
    assert sol.chosen_words(ps).tolist() == ["odd"]
    assert np.isinf(sol.scores[0, ps.words[0].tolist().index("odd")])


def test_sizes_are_checked():
    with pytest.raises(ValueError, match="one non-negative count per vertex"):
        Taxonomy(3, [1], [0], sizes=[1, 2])


# --------------------------------------------------------------------------- the root
#   root(0) -- A(1) -- x(3) ; root -- B(2) -- y(4) z(5) w(6) ; v(7) has no hypernym
#   (as a proper noun whose only edge is an instance hypernym)
ROOTED = ["root", "A", "B", "x", "y", "z", "w", "v"]


def test_a_puzzle_explained_only_by_the_root_ties_in_the_published_mode():
    child, parent = [1, 2, 3, 4, 5, 6], [0, 0, 1, 2, 2, 2]
    rows = [["v", "x", "y", "z", "w"]]
    ours = Taxonomy(8, child, parent, ROOTED, range(8))
    # ours: root explains v (1/7: root, A, B, x, y, z, w); no other word has an explanation
    # and gets specificity 0, so v wins
    ps, sol = _solve(ours, rows)
    assert sol.chosen_words(ps).tolist() == ["v"]
    assert sol.extra["explanation"].tolist() == ["root"]
    np.testing.assert_allclose(sorted(sol.scores[0]), [0, 0, 0, 0, 1 / 7])
    # published: a word without explanation gets the root's specificity, v ties with them
    ps, sol = _solve(ours, rows, "root")
    assert sol.choice.tolist() == [-1] and sol.reason.tolist() == ["tie"]
    np.testing.assert_allclose(sol.scores[0], 1 / 7)
    with_sizes = Taxonomy(
        8,
        child,
        parent,
        ROOTED,
        range(8),
        sizes=distinct_labels_below(8, child, parent, ROOTED, range(8)),
    )
    ps, sol = _solve(with_sizes, rows, "root")
    assert sol.choice.tolist() == [-1]
    np.testing.assert_allclose(sol.scores[0], 1 / 6)  # A, B, x, y, z, w


# --------------------------------------------------------------------------- WordNet
@pytest.fixture(scope="module")
def published():
    from wordgames.errors import DatasetMissingError
    from wordgames.oddmanout.wordnet import wordnet_solver

    try:
        return wordnet_solver(mode="published")
    except (DatasetMissingError, LookupError) as exc:
        pytest.skip(f"WordNet not available: {exc}")


def test_words_of_every_part_of_speech_and_no_space_mapping(published):
    from wordgames.oddmanout.wordnet import wordnet_taxonomy

    ours = wordnet_taxonomy()
    pub = published.taxonomy
    assert pub.vertices_of("rolling pin") == [] and ours.vertices_of("rolling pin")
    assert pub.vertices_of("rolling_pin") == ours.vertices_of("rolling pin")
    assert pub.vertices_of("democratic") and ours.vertices_of("democratic") == []  # adjective


# the published repository's test_ancestor_categories2: every synset of "orange" and the
# first-hypernym chain of each (orange.s.01, an adjective satellite, has no hypernym)
ORANGE_ANCESTORS = """abstraction.n.06 angiospermous_tree.n.01 attribute.n.02 chromatic_color.n.01
citrus.n.01 citrus.n.02 color.n.01 coloring_material.n.01 edible_fruit.n.01 entity.n.01 fruit.n.01
fruit_tree.n.01 living_thing.n.01 material.n.01 matter.n.03 natural_object.n.01 object.n.01
orange.n.01 orange.n.02 orange.n.03 orange.n.04 orange.n.05 orange.s.01 organism.n.01
physical_entity.n.01 pigment.n.01 plant.n.02 plant_organ.n.01 plant_part.n.01 property.n.02
reproductive_structure.n.01 substance.n.01 tree.n.01 vascular_plant.n.01 visual_property.n.01
whole.n.02 woody_plant.n.01""".split()


def test_the_published_repositorys_ancestors_of_orange(published):
    tax = published.taxonomy
    covered = tax.coverage(["orange"]).indices.tolist()
    assert sorted(tax.vertex_name(v) for v in covered) == ORANGE_ANCESTORS


def test_the_published_repositorys_explanations(published):
    rows = [
        ["apple", "orange", "red", "green", "blue"],
        ["gold", "orange", "red", "green", "blue"],
        ["beagle", "large_poodle", "miniature_poodle", "standard_poodle", "toy_poodle"],
    ]
    ps, sol = _solve(published.taxonomy, rows, "root")
    words = ps.words.tolist()
    odd = [w.index(r[0]) for w, r in zip(words, rows, strict=True)]
    vert = sol.extra["explanation_vertex"]
    tax = published.taxonomy
    # lowest_common_ancestor(['orange', 'red', 'green', 'blue'], 'apple') == (168, chromatic_color)
    assert tax.vertex_name(vert[0, odd[0]]) == "chromatic_color.n.01"
    assert sol.scores[0, odd[0]] == pytest.approx(1 / 168)
    # ... 'gold' -> (104999, 'entity.n.01'): no explanation, the root's size
    assert vert[1, odd[1]] == -1 and tax.root_size() == 104999
    assert sol.scores[1, odd[1]] == pytest.approx(1 / 104999)
    # solve_puzzle(beagle, poodles) == (0.25, 'poodle.n.01', 'beagle')
    assert sol.chosen_words(ps)[2] == "beagle"
    assert sol.extra["explanation"][2] == "poodle.n.01"
    assert sol.scores[2, odd[2]] == 0.25


def test_the_published_repositorys_common2_figures(published, data_root):
    from tests.conftest import require_dataset
    from wordgames.oddmanout.data import load_dataset
    from wordgames.oddmanout.metrics import score

    require_dataset("oddmanout-anomia")
    ps = load_dataset("anomia-common-test", data_root)  # common2.tsv
    s = score(ps, published.solve(ps))
    assert (s["correct"], s["wrong"], s["abstained"]) == (38, 14, 50)


# the documented example puzzles (odd man first): ours vs published, with the reason
EXAMPLES = [
    # only the first hypernym, lemma strings
    (["gunshot", "burp", "laugh", "gurgle", "hiccup"], "laugh", "hiccup"),
    # every part of speech: "democratic" is an adjective only (ours: out of vocabulary)
    (["garden", "libertarian", "republican", "green", "democratic"], None, "democratic"),
    # no space mapping: "rolling pin" is out of the published vocabulary
    (["rolling pin", "tractor", "pitchfork", "shovel", "plow"], "tractor", None),
    # explained only by the root: a tie in the published mode
    (["China", "Peru", "Chile", "Argentina", "Brazil"], "Peru", None),
]


def test_the_documented_examples(published):
    from wordgames.oddmanout.wordnet import wordnet_solver

    ps = PuzzleSet.from_odd_first("examples", [r for r, _, _ in EXAMPLES], seed=0)
    assert wordnet_solver().solve(ps).chosen_words(ps).tolist() == [o for _, o, _ in EXAMPLES]
    assert published.solve(ps).chosen_words(ps).tolist() == [p for _, _, p in EXAMPLES]


def test_flags_the_published_mode_would_ignore_are_errors():
    from wordgames.errors import WordgamesError
    from wordgames.oddmanout.wordnet import wordnet_solver

    with pytest.raises(WordgamesError, match="instances"):
        wordnet_solver(mode="published", instances=True)
    with pytest.raises(WordgamesError, match="missing"):
        wordnet_solver(mode="published", missing="abstain")
    with pytest.raises(WordgamesError, match="wordnet mode"):
        wordnet_solver(mode="nltk")


def test_one_path_api_and_cli(published, data_root, tmp_path):
    """The measure's option, the Python API and the command give the same 38 / 14 / 50."""
    from typer.testing import CliRunner

    import wordgames
    from tests.conftest import require_dataset
    from wordgames.cli import app

    require_dataset("oddmanout-anomia")
    opts = {"sets": ["anomia-common-test"], "wordnet": True, "embedding_solver": False}
    res = wordgames.evaluate(
        "glove-6b-50d",
        measures=["oddmanout"],
        options={"oddmanout": {**opts, "wordnet_mode": "published"}},
        data_root=data_root,
    )
    row = res.result("oddmanout").tables["table3"][0]
    assert row["solver"] == "wordnet-3.0-published"
    assert row["pct_correct"] == pytest.approx(100 * 38 / 102, abs=0.05)
    assert row["pct_abstained"] == pytest.approx(100 * 50 / 102, abs=0.05)
    assert res.result("oddmanout").parameters["wordnet_mode"] == "published"
    out = tmp_path / "r.json"
    args = ["oddmanout", "evaluate", "--wordnet-only", "--wordnet-mode", "published"]
    r = CliRunner().invoke(app, [*args, "--set", "anomia-common-test", "--json", str(out)])
    assert r.exit_code == 0, r.output
    import json

    cli_row = json.loads(out.read_text())["tables"]["table3"][0]
    assert (cli_row["solver"], cli_row["pct_correct"]) == (row["solver"], row["pct_correct"])
