"""Channels, agents and a short seeded training run (needs the optional torch extra)."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from wordgames.emergent.games.agents import Receiver, Sender  # noqa: E402
from wordgames.emergent.games.channels import (  # noqa: E402
    GumbelSoftmaxChannel,
    QuantizedChannel,
    make_channel,
)
from wordgames.emergent.games.train import GameTrainer  # noqa: E402


def test_gumbel_softmax_is_soft_in_training_and_one_hot_in_evaluation():
    ch = GumbelSoftmaxChannel(vocab_size=7, temperature=1.0)
    logits = torch.randn(5, 7, requires_grad=True, generator=torch.Generator().manual_seed(0))
    ch.train()
    words = ch(logits, torch.Generator().manual_seed(1))
    assert words.shape == (5, 7)
    assert torch.allclose(words.sum(-1), torch.ones(5))
    # no straight-through: the forward values are soft, not one-hots
    assert ((words > 1e-4) & (words < 1 - 1e-4)).any()
    words[:, 0].sum().backward()
    assert logits.grad is not None and logits.grad.abs().sum() > 0
    # same generator seed, same sample
    again = ch(logits, torch.Generator().manual_seed(1))
    assert torch.equal(words.detach(), again.detach())
    ch.eval()
    hard = ch(logits)
    assert torch.equal(hard, torch.nn.functional.one_hot(logits.argmax(-1), 7).float())
    assert torch.equal(ch.word_ids(hard), logits.argmax(-1))


def test_quantized_channel_is_binary_with_straight_through_gradients():
    ch = QuantizedChannel(word_dim=4)
    assert ch.n_words == 16
    logits = torch.tensor([[2.0, -1.0, 0.3, -0.2]], requires_grad=True)
    bits = ch(logits)
    assert bits.detach().tolist() == [[1.0, 0.0, 1.0, 0.0]]  # forward: round(sigmoid)
    bits.sum().backward()
    s = torch.sigmoid(logits.detach())
    # backward: the gradient of sigmoid (rounding passes the gradient unchanged)
    assert torch.allclose(logits.grad, s * (1 - s))
    assert ch.word_ids(bits).tolist() == [1 + 4]  # bits 0 and 2 set
    with pytest.raises(ValueError):
        make_channel("morse")


@pytest.mark.parametrize("kind", ["gs", "qt"])
def test_agents_shapes_and_gradient_flow(kind):
    torch.manual_seed(0)
    ch = make_channel(kind, vocab_size=11, word_dim=5)
    sender = Sender((50,), ch, hidden=16, embed=8, max_len=3)
    receiver = Receiver((50,), ch.word_dim, hidden=16, embed=8)
    feats = torch.rand(4, 6, 50)
    labels = torch.tensor([[1, 1, 1, 0, 0, 0]] * 4, dtype=torch.bool)
    words = sender(feats, labels, torch.Generator().manual_seed(0))
    assert words.shape == (4, 3, ch.word_dim)
    if kind == "qt":
        assert set(words.detach().unique().tolist()) <= {0.0, 1.0}
    scores = receiver(words, feats)
    assert scores.shape == (4, 6)
    torch.nn.functional.binary_cross_entropy_with_logits(scores, labels.float()).backward()
    # the receiver's loss reaches the sender's encoder through the channel
    grad = sender.encoder[0].weight.grad
    assert grad is not None and grad.abs().sum() > 0


def test_image_agents_for_the_shape_world():
    ch = make_channel("qt", word_dim=5)
    sender = Sender((3, 16, 16), ch, hidden=16, embed=8, max_len=2)
    receiver = Receiver((3, 16, 16), ch.word_dim, hidden=16, embed=8)
    feats = torch.rand(2, 4, 3, 16, 16)
    labels = torch.tensor([[1, 0, 1, 0]] * 2, dtype=torch.bool)
    assert receiver(sender(feats, labels), feats).shape == (2, 4)


def _small(seed=0, **kw):
    params = dict(
        world="thing",
        channel="qt",
        rule_length=1,
        n_targets=5,
        n_distractors=5,
        max_len=2,
        hidden=32,
        embed=16,
        batch_size=16,
        lr=1e-2,
        steps=120,
        eval_every=20,
        eval_turns=50,
        random_state=seed,
    )
    params.update(kw)
    return GameTrainer(**params)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    return _small().fit(out), out


def test_training_loss_falls_and_is_logged(trained):
    trainer, out = trained
    hist = trainer.history_
    assert [h["step"] for h in hist] == [20, 40, 60, 80, 100, 120]
    assert hist[-1]["loss"] < hist[0]["loss"] - 0.02
    assert hist[-1]["loss"] < np.log(2)  # better than a constant 0.5 guess
    lines = [json.loads(x) for x in (out / "train_log.jsonl").read_text().splitlines()]
    assert [x["step"] for x in lines] == [20, 40, 60, 80, 100, 120]
    assert set(lines[0]) == {
        "step",
        "loss",
        "accuracy",
        "val_accuracy",
        "elapsed_s",
        "device",
        "threads",
    }
    assert (lines[0]["device"], lines[0]["threads"]) == ("cpu", 1)
    assert lines[-1]["loss"] == pytest.approx(hist[-1]["loss"])


def test_same_seed_same_losses(trained):
    trainer, _ = trained
    again = _small().fit()
    assert [h["loss"] for h in again.history_] == [h["loss"] for h in trainer.history_]
    other = _small(seed=1, steps=20).fit()
    assert other.history_[0]["loss"] != trainer.history_[0]["loss"]


def test_gs_training_is_seeded_too():
    a = _small(channel="gs", steps=20, vocab_size=10).fit()
    b = _small(channel="gs", steps=20, vocab_size=10).fit()
    assert a.history_[0]["loss"] == b.history_[0]["loss"]


def test_play_save_and_load(trained, tmp_path):
    trainer, _ = trained
    turns = trainer.game.sample_turns(30, np.random.default_rng(7))
    res = trainer.play(turns, np.random.default_rng(0), chunk=7)
    assert res.word_ids.shape == (30, 2) and res.scores.shape == (30, 10)
    assert res.word_ids.max() < 2**6  # 6 bits per word in the Thing world
    assert res.accuracy == pytest.approx(((res.scores > 0) == turns.labels).mean())
    trainer.save(tmp_path)
    loaded = GameTrainer.load(tmp_path)
    res2 = loaded.play(turns, np.random.default_rng(0))
    assert np.array_equal(res.word_ids, res2.word_ids)
    assert np.allclose(res.scores, res2.scores, atol=1e-5)


def test_target_accuracy_stops_early():
    trainer = _small(steps=100, target_accuracy=0.0).fit()
    assert trainer.n_steps_ == 20 and trainer.stopped_because_ == "target_accuracy"


def test_evaluation_in_table1_layout(trained):
    pytest.importorskip("wordgames.emergent.measures")
    trainer, _ = trained
    ev = trainer.evaluate(120)
    row = ev.table1_row()
    assert (row["Game"], row["Com"], row["l"], row["d"]) == ("Thing", "QT", 1, 6)
    assert 0.0 <= row["Acc"] <= 1.0
    assert 0.0 <= row["CBM"] <= 1.0
    assert row["Cons"] <= 50 and row["Phrs"] == row["Cons"]  # l = 1: one concept per phrase
    assert 1 <= row["#w"] <= 64 and row["#m"] <= 120
    # held-out turns come from the test stream, not from the training one
    train_turns = trainer.game.sample_turns(120, np.random.default_rng([0, 0]))
    assert ev.concepts != train_turns.concepts()
