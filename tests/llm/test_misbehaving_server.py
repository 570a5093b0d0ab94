"""The model client against a server that misbehaves on purpose (one fault a mode).

No model is loaded: ``tests/llm/misbehaving_server.py`` answers on 127.0.0.1. Each test names
the fault it checks; every error must name the server's URL and say what was wrong, and a
secret the client holds must never reach a message, a file or the console.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.llm.misbehaving_server import MisbehavingServer

pytest.importorskip("openai", reason="the llm extra (openai) is not installed")

SENTINEL = "sk-SENTINEL-4d1f9c2a7b"  # a key no message or file may hold
OTHER_SENTINEL = "sk-OTHER-SENTINEL-8e3b"


def _client(server, tmp_path, **kwargs):
    from wordgames.llm.cache import ResponseCache
    from wordgames.llm.client import ChatClient

    kwargs.setdefault("max_retries", 0)
    cache = ResponseCache(tmp_path / "r.sqlite")
    return ChatClient("m", server.base_url, SENTINEL, cache=cache, **kwargs)


def _chat(client, text="hello"):
    return client.chat([{"role": "user", "content": text}], prompt_version="t-1")


# ----------------------------------------------------------------------------- secrets
@pytest.mark.parametrize("mode", ["quote-key-error", "quote-key-401"])
def test_a_server_quoting_the_key_in_an_error_never_shows_it(tmp_path, mode):
    from wordgames.llm.client import ServerError

    with MisbehavingServer(mode) as srv:
        with pytest.raises(ServerError) as err:
            _chat(_client(srv, tmp_path))
        assert SENTINEL in srv.last_auth  # the server did quote it back
    assert srv.base_url in str(err.value) and SENTINEL not in str(err.value)
    assert "[redacted]" in str(err.value)


def test_an_answer_quoting_the_key_is_stored_redacted(tmp_path):
    with MisbehavingServer("quote-key-answer") as srv:
        client = _client(srv, tmp_path)
        text, _ = _chat(client)
    assert SENTINEL not in text and "[redacted]" in text
    assert SENTINEL.encode() not in (tmp_path / "r.sqlite").read_bytes()


def _all_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


@pytest.mark.parametrize("mode", ["quote-key-error", "quote-key-401", "quote-key-answer"])
def test_the_sentinel_key_is_in_no_file_a_run_writes_nor_on_the_console(tmp_path, mode, data_root):
    """A run with ``--api-key-env OTHER``: neither key in its output, cache, stdout or stderr."""
    from typer.testing import CliRunner

    from wordgames.cli import app

    with MisbehavingServer(mode) as srv:
        env = {"OTHER": SENTINEL, "OPENAI_API_KEY": OTHER_SENTINEL, "COLUMNS": "200",
               "WORDGAMES_CACHE": str(tmp_path / "cache"), "WORDGAMES_DATA": str(data_root)}  # fmt: skip
        args = ["run", "-e", "chat:m", "--base-url", srv.base_url, "--api-key-env", "OTHER",
                "-m", "oddmanout", "--quick", "--max-requests", "5", "--reprompts", "0",
                "-o", str(tmp_path / "out")]  # fmt: skip
        r = CliRunner().invoke(app, args, env=env)
        assert SENTINEL in srv.last_auth  # the key was sent, and quoted back
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    for secret in (SENTINEL, OTHER_SENTINEL):
        assert secret not in r.output
        assert secret.encode() not in _all_bytes(tmp_path)


def test_redact_removes_known_secrets_and_bearer_tokens():
    from wordgames.redact import redact, remember_secret

    remember_secret("hunter2-very-secret")
    text = "auth Bearer abc.def-123 and hunter2-very-secret; 'Authorization': 'Bearer xyz12345678'"
    out = redact(text)
    assert "abc.def-123" not in out and "hunter2-very-secret" not in out and "xyz1234" not in out
    assert out.count("[redacted]") == 3
    assert redact("nothing secret here") == "nothing secret here"
    assert redact("a standard bearer of the team") == "a standard bearer of the team"


# ----------------------------------------------------------------------------- the cache
def test_a_null_answer_is_not_cached_and_a_repaired_server_is_asked_again(tmp_path):
    with MisbehavingServer("null-content") as srv:
        client = _client(srv, tmp_path)
        assert _chat(client) == ("", False)
        srv.mode, srv.answer = "ok", "dog"
        assert _chat(client) == ("dog", False)  # asked again: the empty answer was not kept
        assert srv.posts == 2
        assert _chat(client) == ("dog", True)
        assert srv.posts == 2


def test_nan_vectors_are_refused_naming_the_server_and_never_cached(tmp_path):
    from wordgames.llm.client import ServerError

    with MisbehavingServer("nan-vector") as srv:
        client = _client(srv, tmp_path)
        with pytest.raises(ServerError, match="not a finite number") as err:
            client.embed(["a", "b"])
        assert srv.base_url in str(err.value)
        srv.mode = "ok"
        assert client.embed(["a", "b"]) == [[0.5] * 3] * 2  # the good server is asked again
        assert srv.posts == 2


def test_the_cache_key_holds_the_servers_address(tmp_path):
    with MisbehavingServer("ok", answer="one") as a, MisbehavingServer("ok", answer="two") as b:
        assert _chat(_client(a, tmp_path))[0] == "one"
        assert _chat(_client(b, tmp_path)) == ("two", False)  # the same model name elsewhere
        assert _chat(_client(a, tmp_path)) == ("one", True)


def test_a_subjects_cached_answers_can_be_dropped(tmp_path):
    with MisbehavingServer("ok", answer="one") as a, MisbehavingServer("ok", answer="two") as b:
        _chat(_client(a, tmp_path))
        _chat(_client(a, tmp_path), "another")
        _chat(_client(b, tmp_path))
        cache = _client(a, tmp_path).cache
        assert cache.drop("m", a.base_url) == 2
        assert _chat(_client(a, tmp_path)) == ("one", False)  # asked again
        assert _chat(_client(b, tmp_path)) == ("two", True)  # the other server's are kept


# ----------------------------------------------------------------------------- malformed 200s
@pytest.mark.parametrize(
    ("mode", "what"),
    [("invalid-json", "not JSON"), ("non-utf8", "not JSON"), ("no-choices", "no choices"),
     ("empty-choices", "no choices")],
)  # fmt: skip
def test_a_malformed_chat_answer_is_an_error_naming_the_server(tmp_path, mode, what):
    from wordgames.llm.client import ServerError

    with MisbehavingServer(mode) as srv:
        with pytest.raises(ServerError, match=what) as err:
            _chat(_client(srv, tmp_path))
    assert srv.base_url in str(err.value)


@pytest.mark.parametrize(
    ("mode", "what"),
    [("no-data", "malformed answer .No embedding data"), ("mixed-dims", "vectors of 3 and 4"),
     ("invalid-json", "not JSON"), ("non-utf8", "not JSON")],
)  # fmt: skip
def test_a_malformed_embeddings_answer_is_an_error_naming_the_server(tmp_path, mode, what):
    from wordgames.llm.client import ServerError

    with MisbehavingServer(mode) as srv:
        with pytest.raises(ServerError, match=what) as err:
            _client(srv, tmp_path).embed(["a", "b"])
    assert srv.base_url in str(err.value)


def test_a_model_list_that_is_not_json_is_an_error_naming_the_server(tmp_path):
    from wordgames.llm.client import ServerError

    with MisbehavingServer("models-invalid-json") as srv:
        with pytest.raises(ServerError, match="model list") as err:
            _client(srv, tmp_path).check()
    assert srv.base_url in str(err.value)


# ----------------------------------------------------------------------------- bounds
def test_the_timeout_is_a_deadline_for_an_answer_sent_a_byte_at_a_time(tmp_path):
    """The body would take about 60 s; each try ends at the timeout (1 s), 2 tries."""
    from wordgames.llm.client import ServerError

    with MisbehavingServer("slow-body") as srv:
        srv.byte_delay = 0.2
        client = _client(srv, tmp_path, timeout=1.0, max_retries=1)
        start = time.monotonic()
        with pytest.raises(ServerError, match="within 1 s") as err:
            _chat(client)
        took = time.monotonic() - start
    assert took < 6.0, took  # 2 tries of 1 s, the back-off between them
    assert srv.base_url in str(err.value)


def test_an_answer_over_the_cap_is_refused_without_reading_it_all(tmp_path):
    import tracemalloc

    from wordgames.llm.client import ServerError

    with MisbehavingServer("huge") as srv:
        srv.huge_bytes = 24 * 2**20
        srv.huge_body()  # made before memory is measured: the server shares this process
        client = _client(srv, tmp_path)
        client.check()
        tracemalloc.start()
        with pytest.raises(ServerError, match="more than 1 MiB") as err:
            _chat(client)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < 8 * 2**20, peak  # the 24 MiB answer was never held
    assert srv.base_url in str(err.value)
    assert (tmp_path / "r.sqlite").stat().st_size < 2**20


@pytest.mark.parametrize(
    ("change", "what"),
    [({"index": [0, 0]}, "indexed 0, 0"), ({"numbers": "0.5"}, "'0.5', not a number"),
     ({"numbers": None}, "None, not a number")],
)  # fmt: skip
def test_small_garbage_in_vectors_is_refused(tmp_path, change, what):
    """Before: duplicate indexes and numbers given as strings were accepted."""
    from wordgames.llm.client import ServerError

    with MisbehavingServer("ok") as srv:
        srv.vector_change = change
        with pytest.raises(ServerError, match=what):
            _client(srv, tmp_path).embed(["a", "b"])
        assert len(_client(srv, tmp_path).cache) == 0


def test_names_print_as_given_not_as_emoji_codes():
    """Before: "chat:m:" printed as "chat" and an emoji (rich's emoji codes)."""
    import io

    from wordgames.cli.common import console

    out = io.StringIO()
    con = console(file=out, width=200)
    con.print("chat:m: joy:smile:.txt", highlight=False, markup=False)
    assert out.getvalue().strip() == "chat:m: joy:smile:.txt"


def test_wordgames_cache_drop_forgets_one_models_answers_on_one_server(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from wordgames.cli import app
    from wordgames.llm.cache import ResponseCache
    from wordgames.llm.client import ChatClient

    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    with MisbehavingServer("ok", answer="one") as a, MisbehavingServer("ok", answer="two") as b:
        for srv in (a, b):
            _chat(ChatClient("m", srv.base_url, SENTINEL, max_retries=0))
        r = CliRunner().invoke(app, ["cache", "drop", "chat:m", "--base-url", a.base_url])
        assert r.exit_code == 0, r.output
        assert "dropped 1 cached answer(s) of m from " + a.base_url in r.output
        assert len(ResponseCache()) == 1  # b's answer is kept
        info = CliRunner().invoke(app, ["cache", "info"])
        assert "1 answer(s)" in info.output
        bad = CliRunner().invoke(app, ["cache", "drop", "gpt"])
        assert bad.exit_code == 2 and "expected chat:MODEL" in bad.output


def test_a_request_that_fails_after_its_retries_is_counted_once(tmp_path):
    from wordgames.llm.client import ServerError

    with MisbehavingServer("quote-key-error") as srv:
        client = _client(srv, tmp_path)
        for _ in range(2):
            with pytest.raises(ServerError):
                _chat(client)
    assert (client.usage.requests, client.usage.failed, client.usage.cache_hits) == (2, 2, 0)


def test_the_end_of_a_model_run_says_what_was_sent_cached_failed_and_unreadable(tmp_path):
    """Issue 44: one line per model subject at the end of the run. "ok" is no word of any
    puzzle: each of the 102 puzzles is asked twice (one re-prompt) and stays unreadable. The
    server's well-formed answers are cached by content, so a second run in a new folder is
    answered from the cache; the same folder reuses the stored result and asks nothing."""
    from typer.testing import CliRunner

    from wordgames.cli import app

    env = {"COLUMNS": "300", "WORDGAMES_CACHE": str(tmp_path / "cache")}

    def run(folder):
        args = ["run", "-e", "chat:m", "--base-url", srv.base_url, "-m", "oddmanout", "--quick",
                "--answers", "free", "--reprompts", "1", "-o", str(tmp_path / folder)]  # fmt: skip
        r = CliRunner().invoke(app, args, env=env)
        assert r.exit_code == 0, r.output
        return " ".join(r.output.split())

    with MisbehavingServer("ok", answer="ok") as srv:
        first = run("a")
        line = ("chat:m: 204 request(s) sent, 0 answered from the cache, 0 failed, 102 answer(s) "
                "unreadable after re-prompts")  # fmt: skip
        assert line in first and srv.posts == 204
        cached = ("chat:m: 0 request(s) sent, 204 answered from the cache, 0 failed, 102 "
                  "answer(s) unreadable after re-prompts")  # fmt: skip
        assert cached in run("b") and srv.posts == 204
        assert "chat:m: 0 requests sent (every result reused from the store)" in run("a")
        assert srv.posts == 204


def test_progress_bars_count_each_question_once_and_its_cached_answers(tmp_path, monkeypatch):
    """Issue 44: a bar per subject, game and role over its questions (done / total / cached),
    drawn on a terminal only; quiet, not a terminal, or no model: no bars."""
    import io

    import wordgames
    from wordgames.cli.common import console
    from wordgames.cli.progress import request_bars
    from wordgames.subjects import chat

    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    key = ("chat:m", "oddmanout", "solver")
    settings = {"quick": True}
    with MisbehavingServer("ok", answer="none") as srv:  # "none": a legal answer (abstain)
        m = chat("m", base_url=srv.base_url, answers="free", reprompts=0)
        tty = console(file=io.StringIO(), force_terminal=True, width=160)
        plain = console(file=io.StringIO(), width=160)
        assert request_bars(tty, [m], ["oddmanout"], quiet=True, **settings) is None
        assert request_bars(plain, [m], ["oddmanout"], quiet=False, **settings) is None
        assert request_bars(tty, ["glove-6b-50d"], ["oddmanout"], quiet=False) is None
        for run, cached in ((1, 0), (2, 102)):
            bars = request_bars(tty, [m], ["oddmanout"], quiet=False, **settings)
            (row,) = bars.rows
            assert (row["requests"], row["cached"]) == (102 - cached, cached)
            with bars:
                wordgames.evaluate([m], ["oddmanout"], ci_resamples=0, **settings)
            assert bars.done[key] == (102, cached), run
        assert srv.posts == 102  # the second run was answered by the cache
    drawn = tty.file.getvalue()
    assert "chat:m oddmanout solver" in drawn and "102/102" in drawn and "cached 102" in drawn
