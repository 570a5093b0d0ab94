"""Puzzle generation: protocol counts by hand, sampled sets, category files, determinism."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from wordgames.errors import DataFormatError
from wordgames.oddmanout.generate import (
    protocol_count,
    protocol_puzzles,
    read_categories,
    read_protocol_seeds,
    sample_puzzles,
    write_categories,
)
from wordgames.oddmanout.puzzles import read_puzzles, write_puzzles


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (3, 1, 1),  # one triple of E1, one odd from E2; E2 has no triple
        (3, 3, 6),  # 1*3 + 1*3
        (4, 2, 8),  # C(4,3)=4 triples x 2 odds; E2 has no triple
        (5, 5, 100),  # 10*5 + 10*5
        (6, 4, 104),  # 20*4 + 4*6
    ],
)
def test_protocol_count_by_hand(a, b, expected):
    assert protocol_count([a, b]) == expected == comb(a, 3) * b + comb(b, 3) * a


@pytest.mark.parametrize(("a", "b"), [(3, 1), (4, 2), (5, 5), (6, 4), (7, 3)])
def test_protocol_creates_exactly_the_counted_puzzles(a, b):
    e1 = [f"m{i}" for i in range(a)]
    e2 = [f"s{i}" for i in range(b)]
    ps = protocol_puzzles("bat", {"mammal": e1, "sport": e2}, seed=1)
    assert len(ps) == protocol_count([a, b])
    odd_first = ps.odd_first()
    keys = set()
    for row, cat in zip(odd_first.tolist(), ps.categories.tolist(), strict=True):
        odd, rest = row[0], row[1:]
        assert "bat" in rest and odd != "bat"
        same = e1 if cat == "mammal" else e2
        other = e2 if cat == "mammal" else e1
        assert odd in other
        assert sorted(w for w in rest if w != "bat") == sorted(set(rest) - {"bat"})
        assert all(w in same for w in rest if w != "bat")
        keys.add((odd, frozenset(rest)))
    assert len(keys) == len(ps)  # no puzzle twice


def test_protocol_example_from_the_paper():
    ps = protocol_puzzles(
        "bat",
        {
            "nocturnal mammal": ["beaver", "badger", "hedgehog"],
            "baseball instrument": ["ball", "cap", "glove"],
        },
    )
    puzzles = {(r[0], frozenset(r[1:])) for r in ps.odd_first().tolist()}
    assert ("cap", frozenset({"bat", "beaver", "badger", "hedgehog"})) in puzzles


def test_protocol_three_categories_and_cleaning():
    ps = protocol_puzzles(
        "gin",
        {
            "drink": ["rum", "vodka", "whisky", "trap"],
            "trap": ["snare", "net", "cage", "trap"],
            "card game": ["poker", "bridge", "rummy", "gin"],
        },
    )
    # "trap" is in two lists: dropped from both; the seed is dropped from its own list
    assert ps.report["shared_words_dropped"] == ["trap"]
    assert protocol_count([3, 3, 3]) == 18 == len(ps)


def test_protocol_is_deterministic_and_shuffled():
    a = protocol_puzzles("bat", {"x": list("abcde"), "y": list("fghij")}, seed=3)
    b = protocol_puzzles("bat", {"x": list("abcde"), "y": list("fghij")}, seed=3)
    assert (a.words == b.words).all()
    assert len(set(a.answer.tolist())) > 1


def test_read_protocol_seeds(tmp_path):
    path = tmp_path / "seeds.jsonl"
    path.write_text(
        '{"seed": "bat", "categories": {"a": ["x", "y", "z"], "b": ["u"]}}\n'
        '{"seed": "crane", "categories": {"a": ["x"]}}\n',
        encoding="utf-8",
    )
    with pytest.raises(DataFormatError, match="two or more") as err:
        read_protocol_seeds(path)
    assert err.value.line == 2


CATS = {
    "metal": [
        "iron",
        "gold",
        "lead",
        "tin",
        "zinc",
        "copper",
        "nickel",
        "silver",
        "cobalt",
        "chromium",
    ],
    "tool": [
        "saw",
        "drill",
        "hammer",
        "wrench",
        "chisel",
        "pliers",
        "file",
        "level",
        "clamp",
        "vise",
    ],
    "flower": [
        "rose",
        "tulip",
        "daisy",
        "lily",
        "orchid",
        "iris",
        "poppy",
        "violet",
        "peony",
        "aster",
    ],
}


def test_sample_puzzles_structure_and_determinism():
    ps = sample_puzzles(CATS, 500, seed=4, name="h500")
    assert len(ps) == 500 and ps.n_words == 5
    odd_first = ps.odd_first()
    for row, cat in zip(odd_first.tolist(), ps.categories.tolist(), strict=True):
        assert all(w in CATS[cat] for w in row[1:])
        assert len(set(row[1:])) == 4
        assert row[0] not in CATS[cat]
    again = sample_puzzles(CATS, 500, seed=4, name="h500")
    assert (again.words == ps.words).all() and (again.answer == ps.answer).all()
    other = sample_puzzles(CATS, 500, seed=5)
    assert not (other.words == ps.words).all()
    # categories are drawn about uniformly
    counts = np.unique(ps.categories.astype(str), return_counts=True)[1]
    assert counts.min() > 120


def test_sample_puzzles_uneven_categories_never_draw_padding():
    cats = {"a": list("abcd"), "b": [f"b{i}" for i in range(13)]}
    ps = sample_puzzles(cats, 300, seed=0)
    assert None not in ps.words.ravel().tolist()


def test_generated_set_roundtrips_and_solves(tmp_path, glove):
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver
    from wordgames.oddmanout.metrics import score

    ps = sample_puzzles(CATS, 200, seed=0, name="h200")
    path = write_puzzles(ps, tmp_path / "h200.tsv")
    back = read_puzzles(path)
    assert back.answer_words().tolist() == ps.answer_words().tolist()
    s = score(back, EmbeddingSolver(glove).solve(back))
    assert s["n"] == 200 and s["abstained"] == 0
    assert s["pct_correct"] > 60  # hypernym categories are easy (paper: 90.8 %)


def test_category_file_roundtrip_and_errors(tmp_path):
    path = write_categories(CATS, tmp_path / "cats.tsv")
    assert read_categories(path) == CATS
    bad = tmp_path / "bad.tsv"
    bad.write_text("metal\tiron\tgold\tlead\ttin\ntool\tsaw\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match="at least 4") as err:
        read_categories(bad)
    assert err.value.line == 2


@pytest.mark.slow
def test_wordnet_categories():
    from wordgames.errors import DatasetMissingError
    from wordgames.oddmanout.generate import wordnet_categories
    from wordgames.oddmanout.wordnet import wordnet_taxonomy

    try:
        tax = wordnet_taxonomy()
    except DatasetMissingError as exc:
        pytest.skip(str(exc))
    cats = wordnet_categories(tax, 10, 10, seed=0)
    again = wordnet_categories(tax, 10, 10, seed=0)
    assert cats == again and len(cats) == 10
    words = [w for ws in cats.values() for w in ws]
    assert len(words) == 100 == len(set(words))
    # every member lies below its category in WordNet
    wn = tax.wn
    for name, members in list(cats.items())[:3]:
        cat = wn.synset(name)
        for w in members:
            assert any(
                cat in s.closure(lambda x: x.hypernyms()) or s == cat for s in wn.synsets(w)
            ), (name, w)
