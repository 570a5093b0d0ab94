"""A chat model as the partner of people in a `wordgames serve` study (the real server)."""

from __future__ import annotations

import pytest

from tests.llm.conftest import PROBE
from wordgames.errors import WordgamesError

pytestmark = pytest.mark.slow  # a real model server


def _study(game: str, base_url: str, **codenames):
    from wordgames.serve.config import study_from_dict

    cn = {"embedding": "glove-6b-50d", "word_list": "codenames", "n_blue": 3, "n_red": 3,
          "base_url": base_url, **codenames}  # fmt: skip
    return study_from_dict(
        {"slug": f"llm-{game}", "game": game, "trials": 2, "pool_size": 4,
         "completion_code": "LLM1", "codenames": cn}
    )  # fmt: skip


def test_a_chat_model_gives_the_clues_people_guess(llm_server, data_root, fresh, monkeypatch):
    from wordgames.codenames.board import Board
    from wordgames.serve.config import StudyConfigError
    from wordgames.serve.games import game_for

    monkeypatch.setenv("WORDGAMES_DATA", str(data_root))
    cfg = _study("codenames-receiver", llm_server.base_url, agents=["chat:smollm2"])
    before = llm_server.requests()
    try:
        items = game_for(cfg.game).generate(cfg)["chat:smollm2"]
    except StudyConfigError as exc:  # the model gave no readable clue at all: said so
        assert "no readable clue for any of 4 boards" in str(exc)
        items = []
    assert llm_server.requests() - before == 4 + PROBE  # one request a board, and the probe
    for it in items:
        board = Board(tuple(it["blue"]), tuple(it["red"]))
        assert board.check_clue(it["clue"]) == it["clue"]  # legal for its board
        assert 1 <= it["number"] <= 3 and it["clue_source"] == "chat:smollm2"
        assert it["agent"]["player"]["kind"] == "chat"  # the model is recorded, never a key
    # a second generation (a restart of the app) asks nothing: the answers are cached
    try:
        game_for(cfg.game).generate(cfg)
    except StudyConfigError:
        pass
    assert llm_server.requests() - before == 4 + PROBE


def test_a_chat_model_guesses_a_persons_clue(llm_server, data_root, fresh, monkeypatch):
    from wordgames.serve.games import _receiver_feedback

    monkeypatch.setenv("WORDGAMES_DATA", str(data_root))
    cfg = _study("codenames-sender", llm_server.base_url, feedback_agents=["chat:smollm2"])
    board = ["dog", "cat", "car", "tree", "ship", "apple"]
    payload = {"board": board, "blue": ["dog", "cat", "apple"], "red": ["car", "tree", "ship"]}
    fb = _receiver_feedback(cfg, payload, {"clue": "pet", "number": 2}, "chat:smollm2")
    assert fb["agent"] == "chat:smollm2"
    if fb.get("unreadable"):
        assert fb["guess"] == []
    else:
        assert len(fb["guess"]) == 2 and set(fb["guess"]) <= set(board)
        assert fb["colours"] == ["blue" if g in payload["blue"] else "red" for g in fb["guess"]]


def test_an_unreachable_model_server_is_an_error_naming_it_at_start(fresh):
    pytest.importorskip("openai", reason="the llm extra (openai) is not installed")
    from wordgames.serve import resources

    cfg = _study("codenames-receiver", "http://127.0.0.1:9/v1", agents=["chat:smollm2"])
    with pytest.raises(WordgamesError, match="127.0.0.1:9"):
        resources.agent("sender", "chat:smollm2", cfg)
