"""Issue 22, items 10 and 11: study files and their options are checked when the study is set
up (``serve --init-only``), each error naming the file, the key and what is allowed."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tests.serve.helpers import study_dicts
from wordgames.cli import app
from wordgames.serve.config import StudyConfigError, load_study_file, study_from_dict

runner = CliRunner()
BASE = {"slug": "s", "game": "oddmanout", "trials": 2, "pool_size": 4}


@pytest.mark.parametrize(
    "change, key",
    [
        ({"attention": {"items": [{}]}}, "attention.items[0]"),
        ({"attention": {"items": ["x"]}}, "attention.items[0]"),
        ({"attention": {"items": [{"words": "a b", "answer": "a"}]}}, "attention.items[0]"),
        ({"attention": {"positions": 3}}, "attention.positions"),
        ({"game": "wiki", "wiki": {"max_clicks": "many"}}, "wiki.max_clicks"),
        ({"game": "wiki", "wiki": {"max_clicks": 0}}, "wiki.max_clicks"),
        ({"game": "wiki", "wiki": {"min_distance": 5, "max_distance": 2}}, "wiki.min_distance"),
        ({"game": "oddmanout-crowd", "oddmanout": {"min_examples": 6, "n_examples": 5}},
         "oddmanout.min_examples"),
        ({"game": "oddmanout-crowd", "oddmanout": {"n_examples": 50_000_000}},
         "oddmanout.n_examples"),
        ({"game": "oddmanout-crowd", "oddmanout": {"n_examples": 5e7}}, "oddmanout.n_examples"),
        ({"game": "codenames-receiver", "codenames": {"n_blue": True}}, "codenames.n_blue"),
        ({"game": "codenames-receiver", "codenames": {"agents": "cluster"}}, "codenames.agents"),
        ({"oddmanout": {"ask_category": "yes"}}, "oddmanout.ask_category"),
        ({"oddmanout": {"puzzles": 7}}, "oddmanout.puzzles"),
    ],
)  # fmt: skip
def test_bad_game_options_are_refused_at_set_up(change, key):
    with pytest.raises(StudyConfigError) as err:
        study_from_dict({**BASE, **change}, source="study.toml")
    assert key in str(err.value) and "study.toml" in str(err.value), str(err.value)


def test_a_valid_attention_item_is_accepted():
    item = {"words": ["cat", "dog", "owl", "fox", "table"], "answer": "table"}
    cfg = study_from_dict({**BASE, "attention": {"items": [item]}})
    assert cfg.attention.items == (item,)


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("bad.toml", b'slug = "s\xff"\n', "not UTF-8"),
        ("deep.json", b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        ("deep.toml", b"x = " + b"[" * 100_000 + b"]" * 100_000, "cannot parse"),
        ("big.toml", b"# " + b"x" * (2 << 20), "larger than"),
    ],
)
def test_unreadable_study_files_name_the_file(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(StudyConfigError) as err:
        load_study_file(path)
    assert str(path) in str(err.value) and message in str(err.value), str(err.value)
    r = runner.invoke(app, ["serve", "--study", str(path), "--init-only"])
    assert r.exit_code == 2 and str(path) in r.output, r.output


def test_init_only_refuses_an_option_that_would_break_play(tmp_path, inputs):
    d = study_dicts(inputs)[2]  # the wiki study
    assert d["game"] == "wiki"
    f = tmp_path / "wiki.json"
    f.write_text(json.dumps({**d, "wiki": {**d.get("wiki", {}), "max_clicks": "many"}}))
    r = runner.invoke(app, ["serve", "--study", str(f), "--init-only"])
    assert r.exit_code == 2, r.output
    assert "wiki.max_clicks" in r.output and "from 1 to 1000" in r.output


@pytest.mark.parametrize(
    "change, key",
    [
        ({"slug": float("nan")}, "slug"),  # before: init_study looped for ever on "nan"
        ({"slug": 10**5000}, "slug"),  # before: a traceback (str() of a 5,000-digit integer)
        ({"slug": 0}, "slug"),  # before: accepted and served as "0"
        ({"slug": float("inf")}, "slug"),
        ({"slug": __import__("datetime").date(2024, 1, 1)}, "slug"),  # a TOML date
        ({"game": ["oddmanout"]}, "game"),
        ({"completion_code": 12345}, "completion_code"),
        ({"completion_url": 7}, "completion_url"),
        ({"seed": 10**5000}, "seed"),
        ({"seed": -1}, "seed"),
        ({"require_pid": "yes"}, "require_pid"),
        ({"texts": {"title": 3}}, "texts"),
        ({"game": "wiki", "wiki": {"max_clicks": 10**5000}}, "wiki.max_clicks"),
        ({"game": "codenames-receiver", "codenames": {"clue_vocabulary": 10**5000}},
         "codenames.clue_vocabulary"),
    ],
)  # fmt: skip
def test_every_field_has_its_type_checked_with_a_message(change, key):
    with pytest.raises(StudyConfigError) as err:
        study_from_dict({**BASE, **change}, source="study.toml")
    text = str(err.value)
    assert key in text and "study.toml" in text and len(text) < 400, text


def test_a_toml_study_file_with_a_date_or_nan_slug_is_refused_naming_it(tmp_path):
    for value in ("nan", "inf", "1979-05-27", "0"):
        path = tmp_path / "study.toml"
        path.write_text(f'slug = {value}\ngame = "oddmanout"\ntrials = 2\npool_size = 4\n')
        with pytest.raises(StudyConfigError, match="option .slug.: expected a string"):
            load_study_file(path)
