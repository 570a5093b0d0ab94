"""Agents fit to play with people (issue 21, item 8): plain clues, no variant of a board word,
and the targets revealed after a receiver round."""

from __future__ import annotations

import re

import pytest

from tests.serve.helpers import Player, board_words, clue_of, study_dicts
from wordgames.codenames.board import ClueRules

pytestmark = pytest.mark.slow


def test_a_spelling_variant_of_a_board_word_is_no_clue(glove):
    rules = ClueRules(no_shared_stem=True)
    for clue, board in (("centre", "center"), ("colours", "color"), ("organised", "organize")):
        assert rules.why_illegal(clue, [board, "bank"]) is not None, clue
        rows = rules.excluded_rows(glove.words, glove.word_index, [board])
        assert glove.word_index[clue] in set(rows.tolist()), clue
    assert rules.is_legal("toe", ["foot"]) and rules.is_legal("four", ["for"])


def _study_clues(inputs, data_root, slug="cn-recv", agents=("cluster", "exhaustive:avg_blue_dist")):
    from wordgames.serve.config import study_from_dict
    from wordgames.serve.games import game_for

    d = next(x for x in study_dicts(inputs, trials=10) if x["slug"] == slug)
    d = {**d, "pool_size": 10, "codenames": {**d["codenames"], "agents": list(agents)}}
    cfg = study_from_dict(d)
    items = game_for(cfg.game).generate(cfg)
    return [(it["clue"], it["board"]) for cond in items for it in items[cond]]


def test_demo_study_agents_give_plain_nouns_never_a_variant_of_a_board_word(
    inputs, data_root, monkeypatch
):
    from wordgames.codenames.board import stem
    from wordgames.codenames.experiments import read_word_list
    from wordgames.datasets import dataset_file

    monkeypatch.setenv("WORDGAMES_DATA", str(data_root))
    nouns = set(read_word_list(dataset_file("codenames-pilot", "nounlist.csv", data_root)))
    clues = _study_clues(inputs, data_root)
    assert len(clues) == 20  # two agents x ten boards
    for clue, board in clues:
        assert re.fullmatch(r"[a-z]+", clue), clue
        assert clue in nouns, clue  # "auto": the authors' noun list where the data is
        assert all(stem(clue) != stem(w) for w in board), (clue, board)


def test_receiver_round_reveals_the_targets_unless_turned_off(app_for, inputs, tmp_path):
    from tests.serve.helpers import study_dicts as dicts

    url = f"sqlite:///{tmp_path / 'r.db'}"
    app, client = app_for(url, slugs=["cn-recv"])
    # the test studies turn the page off for their flows: this study keeps the default
    from wordgames.serve.config import study_from_dict
    from wordgames.serve.db import Database
    from wordgames.serve.store import init_study

    d = next(x for x in dicts(inputs) if x["slug"] == "cn-recv")
    cn = {k: v for k, v in d["codenames"].items() if k != "reveal_targets"}
    db = Database(url)
    init_study(db, study_from_dict({**d, "slug": "cn-reveal", "codenames": cn}))
    db.dispose()
    pl = Player(client(), "cn-reveal")
    page = pl.start()
    if 'name="pick1"' not in page:
        pytest.skip("the first trial is an attention check here")
    words = board_words(page)
    _, n = clue_of(page)
    r = pl.post("answer", {f"pick{i + 1}": words[i] for i in range(n)}, page)
    assert r.status_code == 200 and 'id="targets"' in r.text, r.text[:500]
    targets = re.findall(r'<span class="word blue">([^<]*)<span', r.text)
    assert targets and set(targets) <= set(words)
    assert re.search(r'id="score">\d+ of \d+ picks were targets', r.text)
