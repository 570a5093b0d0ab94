"""A chat model behind a real OpenAI-compatible server (llama.cpp, SmolLM2-135M) plays.

The model plays close to random: these tests check the plumbing (every answer a request, cached
by content, counted, capped, retried), never the model's skill.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import wordgames
from tests.llm.conftest import PROBE
from tests.llm.proxy import FaultyProxy
from wordgames.llm import ChatSubject

pytestmark = pytest.mark.slow  # a real model server: seconds each

PUZZLES = [
    ("dog", ["cat", "horse", "cow", "sheep"]),
    ("spoon", ["red", "blue", "green", "yellow"]),
    ("paris", ["one", "two", "three", "four"]),
    ("carrot", ["apple", "pear", "plum", "cherry"]),
    ("piano", ["oak", "pine", "birch", "maple"]),
    ("river", ["monday", "friday", "sunday", "tuesday"]),
]


def _puzzle_file(tmp_path):
    path = tmp_path / "toy.jsonl"
    path.write_text(
        "".join(json.dumps({"words": [odd, *rest], "answer": odd}) + "\n" for odd, rest in PUZZLES)
    )
    return path


def _play(subject, tmp_path, store=None):
    opts = {"puzzles": [str(_puzzle_file(tmp_path))], "sets": (), "wordnet": False}
    return wordgames.evaluate(
        subject, ["oddmanout"], options={"oddmanout": opts}, store=store, ci_resamples=200
    )


def _subject(server_or_url, tmp_path, **kw):
    url = getattr(server_or_url, "base_url", server_or_url)
    return ChatSubject("smollm2", base_url=url, cache_path=str(tmp_path / "cache.sqlite"), **kw)


def test_a_chat_model_plays_odd_man_out_and_a_second_run_makes_no_request(llm_server, tmp_path):
    before = llm_server.requests()
    res = _play(_subject(llm_server, tmp_path), tmp_path)
    (r,) = res.results
    n = len(PUZZLES)
    # one request a puzzle, counted by the server, after the structured-output probe
    assert llm_server.requests() - before == n + PROBE
    assert r.usage["requests"] == n and r.usage["cache_hits"] == 0 and r.usage["tokens_in"] > 0
    pct = {m: r.value(m, "toy", "player") for m in ("pct_correct", "pct_wrong", "pct_abstained")}
    assert sum(pct.values()) == pytest.approx(100.0)
    assert r.find("pct_correct", "toy", "player").n == n
    answers = r.tables["answers"]  # every raw answer is kept, for error analysis
    assert len(answers) == n and all(a["game"] == "oddmanout" for a in answers)
    assert {a["question"].split("=")[0] for a in answers} == {"words"}
    # a new subject, no store: every answer comes from the response cache
    again = _play(_subject(llm_server, tmp_path), tmp_path).results[0]
    assert llm_server.requests() - before == n + PROBE  # the probe's outcome is cached too
    assert again.usage["requests"] == 0 and again.usage["cache_hits"] == n
    np.testing.assert_array_equal([s.value for s in again.scores], [s.value for s in r.scores])
    assert [a["answer"] for a in again.tables["answers"]] == [a["answer"] for a in answers]


def test_429_and_500_are_retried_and_give_the_same_numbers(llm_server, tmp_path):
    # free answers: no structured-output probe, so the proxy sees the puzzles' requests only
    clean = _play(_subject(llm_server, tmp_path / "a", answers="free"), tmp_path).results[0]
    with FaultyProxy(llm_server.base_url, failures=[429, 500, 503]) as proxy:
        res = _play(_subject(proxy.base_url, tmp_path / "b", answers="free"), tmp_path)
    (r,) = res.results
    assert proxy.failed == 3 and proxy.seen == len(PUZZLES) + 3  # each failure sent again
    np.testing.assert_array_equal([s.value for s in r.scores], [s.value for s in clean.scores])
    assert r.usage["requests"] == len(PUZZLES)


def test_max_requests_stops_cleanly_and_a_rerun_resumes_from_the_cache(llm_server, tmp_path):
    capped = _play(_subject(llm_server, tmp_path, max_requests=2), tmp_path)
    assert not capped.results and "the cap (--max-requests) is reached" in capped.skipped[0].reason
    assert not capped.failed  # a skip with its reason, not a failure
    before = llm_server.requests()
    full = _play(_subject(llm_server, tmp_path), tmp_path).results[0]
    # the two answered requests are not sent again
    assert full.usage["cache_hits"] == 2 and full.usage["requests"] == len(PUZZLES) - 2
    assert llm_server.requests() - before == len(PUZZLES) - 2


def test_unreachable_server_and_unknown_model_are_clear_errors_before_any_work(
    llm_server, tmp_path
):
    from wordgames.llm.client import ServerError
    from wordgames.llm.local import free_port

    url = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(ServerError, match=f"cannot reach the model server at {url}"):
        _play(_subject(url, tmp_path, max_retries=0, timeout=5), tmp_path)
    other = ChatSubject("no-such-model", base_url=llm_server.base_url)
    with pytest.raises(ServerError, match="has no model 'no-such-model'; it serves: smollm2"):
        _play(other, tmp_path)


def test_the_key_is_read_from_the_environment_and_written_nowhere(
    llm_server, tmp_path, monkeypatch
):
    monkeypatch.setenv("WG_TEST_KEY", "sk-secret-123")
    out = tmp_path / "out"
    _play(_subject(llm_server, tmp_path, api_key_env="WG_TEST_KEY"), tmp_path, store=out)
    for path in out.rglob("*"):
        if path.is_file():
            assert b"sk-secret-123" not in path.read_bytes(), path
    assert b"sk-secret-123" not in (tmp_path / "cache.sqlite").read_bytes()


def test_a_chat_model_gives_clues_scored_against_peoples_and_plays_a_cross_play_pair(
    llm_server, tmp_path
):
    """Algorithm 4 on 6 records of the pilot, and one self-play pair with an embedding."""
    from wordgames.embeddings import Embedding

    chat = _subject(llm_server, tmp_path)
    opts = {"datasets": ["codenames-pilot"], "max_records": 6, "senders": ["player-sender"],
            "receivers": []}  # fmt: skip
    before = llm_server.requests()
    (r,) = wordgames.evaluate(chat, ["codenames"], options={"codenames": opts}).results
    hits = r.find("human_receiver.hits@10", "codenames-pilot", "player-sender")
    mrr = r.find("human_receiver.mrr@10", "codenames-pilot", "player-sender")
    asked = r.usage["requests"]
    assert llm_server.requests() - before - PROBE == asked == len(r.tables["answers"]) > 0
    assert hits.n + hits.n_skipped == 6 == mrr.n + mrr.n_skipped  # scored or counted, never lost
    assert hits.n == 0 or 0.0 <= mrr.value <= hits.value <= 1.0
    with pytest.raises(KeyError):  # a free list of 10 clues defines no mean rank
        r.find("human_receiver.mean_rank", "codenames-pilot", "player-sender")
    # cross-play: the chat model gives the clues on boards of an embedding's words
    words = ["dog", "cat", "car", "tree", "ship", "apple"]
    emb = Embedding(words, np.random.default_rng(0).normal(size=(6, 4)), name="toy")
    play = {"games": 1, "n_blue": 2, "n_red": 2, "words": words, "vocab_size": None}
    res = wordgames.evaluate(
        [chat, emb], ["codenames-selfplay"], options={"codenames-selfplay": play},
        ci_resamples=50,
    )  # fmt: skip
    pair = next(x for x in res.results if x.subject == chat.name and x.scores[0].partner == "toy")
    turns = pair.find("mean_turns", "random-boards")
    assert (turns.agent, turns.partner) == ("", "toy")
    assert turns.n == 1 and 1.0 <= turns.value <= 3.0  # solved in 1 or 2 turns, or limit + 1
    assert all(a["role"] == "sender" for a in pair.tables["answers"])


def test_a_dry_run_counts_the_self_play_turns_with_an_embedding(llm_server, tmp_path):
    """Self-play pairs of a chat subject with an embedding are played dry, both ways: the
    sender's and the receiver's questions are counted, nothing is sent."""
    from wordgames.embeddings import Embedding
    from wordgames.llm.plan import estimate_requests

    words = ["dog", "cat", "car", "tree", "ship", "apple"]
    emb = Embedding(words, np.random.default_rng(0).normal(size=(6, 4)), name="toy")
    play = {"games": 2, "n_blue": 2, "n_red": 2, "words": words, "vocab_size": None}
    chat = _subject(llm_server, tmp_path / "fresh")  # an empty response cache
    before = llm_server.requests()
    rows, cached = estimate_requests(
        [chat, emb], ["codenames-selfplay"], options={"codenames-selfplay": play}
    )
    by_role = {(r["game"], r["role"]): r for r in rows}
    assert set(by_role) == {("codenames", "sender"), ("codenames", "receiver")}
    # the chat model's first turn on each board, as sender (with toy and itself) and as
    # receiver (of toy's clues); a lost turn asks the same question again: counted once
    assert all(1 <= r["requests"] <= 3 * play["games"] * 4 for r in rows)
    assert {r["subject"] for r in rows} == {chat.name} and cached == {chat.name: 0}
    assert llm_server.requests() == before
