"""Training and evaluation of sender and receiver in the multi-target referential game. Needs torch.

:class:`GameTrainer` holds the whole configuration (scikit-learn style, a
:class:`~wordgames.params.Params`: constructor = configuration, ``get_params``); :meth:`GameTrainer.fit` trains both agents
jointly with binary cross-entropy on identifying the targets, on freshly drawn turns at every
step; :meth:`GameTrainer.evaluate` plays held-out turns with discrete messages and measures the
language with :func:`wordgames.emergent.measures.evaluate_language`.

Reproducibility: the turns come from ``np.random.default_rng([random_state, stream])`` (stream 0:
training, 1: test, 2: validation), the weights are initialised under ``torch.manual_seed`` inside
``torch.random.fork_rng`` (the global torch generator is left as it was) and the Gumbel noise
comes from a local ``torch.Generator``. With the same seed and the same number of threads, the
losses are the same.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from wordgames.emergent.games.game import ReferentialGame, Turns
from wordgames.errors import require
from wordgames.params import Params

__all__ = ["GameEvaluation", "GameTrainer", "PlayResult"]

TRAIN_STREAM, TEST_STREAM, VALID_STREAM = 0, 1, 2
CHECKPOINT = "checkpoint.pt"
EOS_ID = 0  # GS messages with ``eos`` end at their first symbol 0
# settings a resumed run may change: how long to train, how often to log and save
RESUMABLE = frozenset({"steps", "time_limit", "target_accuracy", "checkpoint_seconds", "n_threads"})


@dataclass
class PlayResult:
    """The agents' play on a batch of turns (numpy arrays).

    Attributes
    ----------
    word_ids : int64 ``(T, max_len)`` id of every word (GS: the symbol; QT: the bits as a number)
    words : float32 ``(T, max_len, word_dim)`` the word vectors (one-hots or bit vectors)
    scores : float32 ``(T, C)`` receiver logits (``> 0`` predicts a target)
    accuracy : fraction of candidates classified correctly
    sender_inputs : float32 ``(T, D)`` mean target features seen by the sender, flattened
    turn_accuracy : float64 ``(T,)`` each turn's share of candidates classified correctly
        (``accuracy`` is their mean: every turn has the same number of candidates)
    """

    word_ids: np.ndarray
    words: np.ndarray
    scores: np.ndarray
    accuracy: float
    sender_inputs: np.ndarray
    turn_accuracy: np.ndarray | None = None


@dataclass
class GameEvaluation:
    """Accuracy and language measures of trained agents on held-out turns."""

    accuracy: float
    report: Any  # wordgames.emergent.measures.LanguageReport
    play: PlayResult
    concepts: list[list[str]]
    parameters: dict = field(default_factory=dict)

    def table1_row(self) -> dict:
        """One row in the layout of the paper's Table 1."""
        p = self.parameters
        d = p["vocab_size"] if p["channel"] == "gs" else p["word_dim"]
        row = {
            "Game": p["world"].capitalize(),
            "Com": p["channel"].upper(),
            "l": p["rule_length"],
            "d": d,
        }
        row.update(self.report.table1_row())
        row["Acc"] = self.accuracy
        return row

    def as_dict(self) -> dict:
        return {
            "accuracy": self.accuracy,
            "n_turns": len(self.concepts),
            "table1_row": self.table1_row(),
            "parameters": self.parameters,
            "language": self.report.as_dict(),
        }


class GameTrainer(Params):
    """Sender and receiver of the multi-target referential game, with their training.

    Parameters
    ----------
    world : ``"thing"`` or ``"shape"``
    channel : ``"gs"`` (Gumbel-Softmax, one-hot words) or ``"qt"`` (quantized binary words)
    rule_length : concepts per conjunctive rule (``l``)
    n_targets, n_distractors : candidates per turn (the paper's Table 1: 20 and 20)
    max_len : words per message (default: 4 for QT, as in the paper's appendix D, and 1 for
        GS, which without straight-through learns much more slowly with longer messages)
    vocab_size : GS symbols (default: the world's number of concepts, as in Table 1)
    word_dim : QT bits per word (default: 6 for Thing, 5 for Shape, as in Table 1)
    temperature : fixed Gumbel-Softmax temperature
    hidden, embed : widths of the encoders / recurrent states and of the word embeddings
    sender_hidden, sender_embed, receiver_hidden, receiver_embed : the same per agent (None:
        ``hidden`` / ``embed``; the paper's Table 2: 60, 60, 40, 40)
    cell : recurrent cell of both agents, ``"gru"`` or ``"lstm"`` (the paper's Table 2)
    eos : GS messages end at their first EOS (symbol 0 of the vocabulary, as in EGG), so they
        have between 0 and ``max_len`` words (:func:`~wordgames.emergent.games.agents.stop_weights`)
    batch_size : turns per step
    lr : Adam learning rate
    steps : maximum training steps
    eval_every : steps between validation measurements (and lines of the training log)
    eval_turns : validation turns (a fixed held-out set, discrete messages)
    target_accuracy : stop as soon as the validation accuracy reaches it (None: never)
    time_limit : stop after this many seconds of training (None: never)
    p_violate : how distractors are drawn (:class:`~wordgames.emergent.games.ReferentialGame`)
    world_params : parameters of the world (e.g. ``{"image_size": 32}`` for Shape)
    n_threads : ``torch.set_num_threads`` during :meth:`fit` (None: leave as it is). The
        default is 1: the networks are so small that intra-op threads only add
        synchronisation (measured in ``bench/bench_games.py``: on the shared 2-core machine a
        step took 0.03 s with one thread and 0.5 s with two)
    checkpoint_seconds : :meth:`fit` with an output folder writes ``checkpoint.pt`` at the first
        log record after this many seconds since the last one, and at the end; ``fit(...,
        resume=True)`` continues from it with the same result as an uninterrupted run
    random_state : seed of every random choice
    """

    def __init__(
        self,
        world: str = "thing",
        channel: str = "gs",
        rule_length: int = 1,
        n_targets: int = 20,
        n_distractors: int = 20,
        max_len: int | None = None,
        vocab_size: int | None = None,
        word_dim: int | None = None,
        temperature: float = 1.0,
        hidden: int = 64,
        embed: int = 32,
        batch_size: int = 32,
        lr: float = 3e-3,
        steps: int = 3000,
        eval_every: int = 100,
        eval_turns: int = 200,
        target_accuracy: float | None = None,
        time_limit: float | None = None,
        p_violate: float | None = None,
        world_params: dict | None = None,
        n_threads: int | None = 1,
        cell: str = "gru",
        sender_hidden: int | None = None,
        sender_embed: int | None = None,
        receiver_hidden: int | None = None,
        receiver_embed: int | None = None,
        eos: bool = False,
        checkpoint_seconds: float = 60.0,
        random_state: int = 0,
    ):
        self.world = world
        self.channel = channel
        self.rule_length = rule_length
        self.n_targets = n_targets
        self.n_distractors = n_distractors
        self.max_len = max_len
        self.vocab_size = vocab_size
        self.word_dim = word_dim
        self.temperature = temperature
        self.hidden = hidden
        self.embed = embed
        self.batch_size = batch_size
        self.lr = lr
        self.steps = steps
        self.eval_every = eval_every
        self.eval_turns = eval_turns
        self.target_accuracy = target_accuracy
        self.time_limit = time_limit
        self.p_violate = p_violate
        self.world_params = world_params
        self.n_threads = n_threads
        self.cell = cell
        self.sender_hidden = sender_hidden
        self.sender_embed = sender_embed
        self.receiver_hidden = receiver_hidden
        self.receiver_embed = receiver_embed
        self.eos = eos
        self.checkpoint_seconds = checkpoint_seconds
        self.random_state = random_state
        self._check()  # a bad configuration fails here, not after minutes of training

    # -- configuration --------------------------------------------------------------------------
    def _make_game(self) -> ReferentialGame:
        return ReferentialGame(
            self.world,
            self.rule_length,
            self.n_targets,
            self.n_distractors,
            self.p_violate,
            self.world_params,
        )

    def _check(self) -> None:
        self._make_game()  # checks the world and the rule
        if str(self.channel).lower() not in ("gs", "qt"):
            raise ValueError(f"unknown channel {self.channel!r}; choose 'gs' or 'qt'")
        if (
            (self.max_len is not None and self.max_len < 1)
            or self.batch_size < 1
            or self.steps < 0
            or self.eval_every < 1
        ):
            raise ValueError("max_len, batch_size and eval_every must be positive, steps >= 0")
        if str(self.cell).lower() not in ("gru", "lstm"):
            raise ValueError(f"unknown cell {self.cell!r}; choose 'gru' or 'lstm'")
        if self.eos and str(self.channel).lower() != "gs":
            raise ValueError("eos needs the gs channel (EOS is symbol 0 of the one-hot words)")

    @cached_property
    def game_(self) -> ReferentialGame:
        """The turn generator of this configuration (built on first use)."""
        return self._make_game()

    @property
    def game(self) -> ReferentialGame:
        """The turn generator (:attr:`game_`)."""
        return self.game_

    def resolved_params(self) -> dict:
        """:meth:`get_params` with the defaults that depend on the world filled in."""
        p = self.get_params()
        p["world"] = self.game.world_.name
        p["channel"] = str(self.channel).lower()
        p["vocab_size"] = self.vocab_size or self.game.world_.n_concepts
        p["word_dim"] = self.word_dim or math.ceil(math.log2(self.game.world_.n_concepts))
        p["max_len"] = self.max_len or (4 if p["channel"] == "qt" else 1)
        return p

    def _build(self):
        torch = require("torch", "torch", "Training the referential game")
        from wordgames.emergent.games.agents import Receiver, Sender
        from wordgames.emergent.games.channels import make_channel

        p = self.resolved_params()
        shape = self.game.world_.feature_shape
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(self.random_state)
            channel = make_channel(
                p["channel"],
                vocab_size=p["vocab_size"],
                word_dim=p["word_dim"],
                temperature=self.temperature,
            )
            self.sender_ = Sender(
                shape,
                channel,
                self.sender_hidden or self.hidden,
                self.sender_embed or self.embed,
                p["max_len"],
                cell=self.cell,
            )
            self.receiver_ = Receiver(
                shape,
                channel.word_dim,
                self.receiver_hidden or self.hidden,
                self.receiver_embed or self.embed,
                cell=self.cell,
                eos=self.eos,
            )
        self.generator_ = torch.Generator().manual_seed(self.random_state)
        return torch

    # -- training -------------------------------------------------------------------------------
    def _tensors(self, turns: Turns, rng: np.random.Generator):
        import torch

        feats = torch.from_numpy(self.game.world_.features(turns.objects, rng))
        return feats, torch.from_numpy(turns.labels)

    def fit(
        self, out_dir: str | Path | None = None, callback=None, resume: bool = False
    ) -> GameTrainer:
        """Train sender and receiver; write ``train_log.jsonl`` and checkpoints into ``out_dir``.

        Every ``eval_every`` steps one log record is written and passed to ``callback``:
        ``step``, ``loss`` and ``accuracy`` (means over the steps since the last record, on
        training turns with the channel's training-time words: soft one-hots for GS),
        ``val_accuracy`` (fixed held-out turns, discrete words), ``elapsed_s`` (training seconds
        of all sessions of the run), ``device`` and ``threads`` (torch's thread count).

        ``checkpoint.pt`` (agents, optimiser, both random generators, step, history) is written
        at log records every ``checkpoint_seconds`` and at the end. With ``resume=True`` and a
        checkpoint in ``out_dir``, training continues from it up to ``steps``: the same seed gives
        the same weights and log as an uninterrupted run. ``time_limit`` bounds this session.
        """
        torch = self._build()
        old_threads = torch.get_num_threads()
        if self.n_threads:
            torch.set_num_threads(self.n_threads)
        try:
            return self._fit(torch, out_dir, callback, resume)
        finally:
            if self.n_threads:
                torch.set_num_threads(old_threads)

    def _fit(self, torch, out_dir, callback, resume: bool) -> GameTrainer:
        params = list(self.sender_.parameters()) + list(self.receiver_.parameters())
        opt = torch.optim.Adam(params, lr=self.lr)
        rng = np.random.default_rng([self.random_state, TRAIN_STREAM])
        val_turns = self.game.sample_turns(
            self.eval_turns, np.random.default_rng([self.random_state, VALID_STREAM])
        )
        out_dir = None if out_dir is None else Path(out_dir)
        done, elapsed0 = 0, 0.0
        self.history_: list[dict] = []
        self.sessions_: list[dict] = []
        if resume and out_dir is not None and (out_dir / CHECKPOINT).is_file():
            done, elapsed0 = self._load_checkpoint(out_dir / CHECKPOINT, opt, rng)
        session = {"start_step": done, "device": "cpu", "threads": torch.get_num_threads()}
        self.sessions_.append(session)
        log_fh = None
        if out_dir is not None:
            out_dir.mkdir(parents=True, exist_ok=True)
            log_fh = open(out_dir / "train_log.jsonl", "w", encoding="utf-8")
            for rec in self.history_:  # the log as of the checkpoint, then this session's
                log_fh.write(json.dumps(rec) + "\n")
        self.stopped_because_ = "steps"
        losses, accs = [], []
        start = last_save = time.perf_counter()
        step = done
        try:
            for step in range(done + 1, self.steps + 1):
                loss, acc = self._train_step(torch, opt, rng)
                losses.append(loss)
                accs.append(acc)
                if step % self.eval_every and step != self.steps:
                    continue
                val = self.play(
                    val_turns, np.random.default_rng([self.random_state, VALID_STREAM, 1])
                )
                now = time.perf_counter()
                rec = {
                    "step": step,
                    "loss": float(np.mean(losses)),
                    "accuracy": float(np.mean(accs)),
                    "val_accuracy": val.accuracy,
                    "elapsed_s": round(elapsed0 + now - start, 3),
                    "device": session["device"],
                    "threads": session["threads"],
                }
                losses, accs = [], []
                self.history_.append(rec)
                if log_fh is not None:
                    log_fh.write(json.dumps(rec) + "\n")
                    log_fh.flush()
                if callback is not None:
                    callback(rec)
                if self.target_accuracy is not None and val.accuracy >= self.target_accuracy:
                    self.stopped_because_ = "target_accuracy"
                elif self.time_limit is not None and now - start >= self.time_limit:
                    self.stopped_because_ = "time_limit"
                if out_dir is not None and (
                    now - last_save >= self.checkpoint_seconds or self.stopped_because_ != "steps"
                ):
                    self._save_checkpoint(out_dir / CHECKPOINT, opt, rng, step, rec["elapsed_s"])
                    last_save = now
                if self.stopped_because_ != "steps":
                    break
        finally:
            if log_fh is not None:
                log_fh.close()
        self.n_steps_ = step
        self.train_seconds_ = elapsed0 + time.perf_counter() - start
        if out_dir is not None and self.history_ and self.history_[-1]["step"] == step:
            self._save_checkpoint(out_dir / CHECKPOINT, opt, rng, step, self.train_seconds_)
        return self

    def _train_step(self, torch, opt, rng) -> tuple[float, float]:
        """One step on ``batch_size`` fresh turns: loss expected over the messages' stops."""
        from wordgames.emergent.games.agents import stop_weights

        self.sender_.train()
        self.receiver_.train()
        feats, labels = self._tensors(self.game.sample_turns(self.batch_size, rng), rng)
        words = self.sender_(feats, labels, self.generator_)
        steps = self.receiver_.step_scores(words, feats)  # (B, L, C)
        stop = stop_weights(words, self.receiver_.eos)[..., None]  # (B, L, 1)
        target = labels.to(steps.dtype)[:, None, :].expand_as(steps)
        bce = torch.nn.functional.binary_cross_entropy_with_logits(steps, target, reduction="none")
        loss = (stop * bce).sum(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        logits = (stop * steps).sum(1).detach()
        return float(loss.detach()), float(((logits > 0) == labels).float().mean())

    def _save_checkpoint(self, path: Path, opt, rng, step: int, elapsed: float) -> None:
        """Write everything :meth:`fit` needs to go on after ``step`` (atomically)."""
        import torch

        state = {
            "params": json.loads(json.dumps(self.get_params())),
            "step": int(step),
            "elapsed_s": float(elapsed),
            "stopped_because": self.stopped_because_,
            "history": self.history_,
            "sessions": self.sessions_,
            "sender": self.sender_.state_dict(),
            "receiver": self.receiver_.state_dict(),
            "optimizer": opt.state_dict(),
            "numpy_rng": json.dumps(rng.bit_generator.state),
            "torch_generator": self.generator_.get_state(),
        }
        tmp = path.with_suffix(".tmp")
        torch.save(state, tmp)
        tmp.replace(path)

    def _load_checkpoint(self, path: Path, opt, rng) -> tuple[int, float]:
        """Restore a checkpoint of this configuration; returns (steps done, seconds trained)."""
        import torch

        from wordgames.errors import DataFormatError

        try:
            state = torch.load(path, weights_only=True)
            self.sender_.load_state_dict(state["sender"])
            self.receiver_.load_state_dict(state["receiver"])
            opt.load_state_dict(state["optimizer"])
        except (RuntimeError, KeyError, ValueError) as exc:
            raise DataFormatError(
                path, None, f"expected a checkpoint of this run ({exc})"
            ) from None
        fixed = {k: v for k, v in state["params"].items() if k not in RESUMABLE}
        mine = {k: v for k, v in json.loads(json.dumps(self.get_params())).items()}
        changed = sorted(k for k, v in fixed.items() if mine.get(k) != v)
        if changed:
            raise DataFormatError(
                path, None, f"the checkpoint was trained with other settings: {changed}"
            )
        rng.bit_generator.state = json.loads(state["numpy_rng"])
        self.generator_.set_state(state["torch_generator"])
        self.history_ = list(state["history"])
        self.sessions_ = list(state["sessions"])
        return int(state["step"]), float(state["elapsed_s"])

    def _check_fitted(self):
        if not hasattr(self, "sender_"):
            raise RuntimeError("the agents are not trained: call fit() or load() first")

    # -- playing --------------------------------------------------------------------------------
    def play(
        self, turns: Turns, rng: np.random.Generator | None = None, chunk: int = 100
    ) -> PlayResult:
        """Play ``turns`` with discrete messages (evaluation mode), ``chunk`` turns at a time."""
        import torch

        self._check_fitted()
        rng = rng if rng is not None else np.random.default_rng([self.random_state, 9])
        self.sender_.eval()
        self.receiver_.eval()
        ids, words, scores, inputs = [], [], [], []
        with torch.no_grad():
            for lo in range(0, len(turns), chunk):
                part = Turns(
                    turns.world,
                    turns.objects[lo : lo + chunk],
                    turns.labels[lo : lo + chunk],
                    turns.rule_attributes[lo : lo + chunk],
                    turns.rule_values[lo : lo + chunk],
                )
                feats, labels = self._tensors(part, rng)
                w = self.sender_(feats, labels)
                s = self.receiver_(w, feats)
                ids.append(self.sender_.channel.word_ids(w).numpy())
                words.append(w.numpy())
                scores.append(s.numpy())
                lab = labels.to(feats.dtype)
                mean = (feats.flatten(2) * lab[..., None]).sum(1) / lab.sum(1, keepdim=True)
                inputs.append(mean.numpy())
        scores_np = np.concatenate(scores)
        per_turn = ((scores_np > 0) == turns.labels).mean(axis=1)
        return PlayResult(
            np.concatenate(ids).astype(np.int64),
            np.concatenate(words),
            scores_np,
            float(((scores_np > 0) == turns.labels).mean()),
            np.concatenate(inputs),
            per_turn.astype(np.float64),
        )

    def evaluate(
        self, n_turns: int = 1000, random_state: int | None = None, **measure_options
    ) -> GameEvaluation:
        """Play ``n_turns`` held-out turns and measure the language.

        The turns come from the test stream of ``random_state`` (default: the trainer's), never
        seen in training. Messages are the word ids (QT: each distinct bit vector is one word);
        labels are the rules' concepts; TopSim compares messages with the sender's input (the
        mean of the target features). ``measure_options`` go to ``evaluate_language``.
        """
        from wordgames.emergent.measures import evaluate_language

        seed = self.random_state if random_state is None else random_state
        rng = np.random.default_rng([seed, TEST_STREAM])
        turns = self.game.sample_turns(n_turns, rng)
        result = self.play(turns, rng)
        concepts = turns.concepts()
        measure_options.setdefault("random_state", seed)
        if self.eos:
            measure_options.setdefault("eos_id", EOS_ID)
        report = evaluate_language(
            result.word_ids, concepts, objects=result.sender_inputs, **measure_options
        )
        params = self.resolved_params()
        params.update(
            eval_turns_test=n_turns,
            eval_seed=seed,
            n_steps=getattr(self, "n_steps_", None),
            train_seconds=getattr(self, "train_seconds_", None),
            stopped_because=getattr(self, "stopped_because_", None),
            sessions=getattr(self, "sessions_", None),
            n_distinct_rules=self.game.n_rules(),
        )
        return GameEvaluation(result.accuracy, report, result, concepts, params)

    # -- persistence ----------------------------------------------------------------------------
    def save(self, out_dir: str | Path) -> Path:
        """Write ``config.json`` and ``agents.pt`` (state dicts) into ``out_dir``."""
        import torch

        self._check_fitted()
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "config.json").write_text(
            json.dumps(self.get_params(), indent=2), encoding="utf-8"
        )
        torch.save(
            {"sender": self.sender_.state_dict(), "receiver": self.receiver_.state_dict()},
            out_dir / "agents.pt",
        )
        return out_dir

    @classmethod
    def load(cls, out_dir: str | Path) -> GameTrainer:
        """Rebuild trained agents written by :meth:`save`."""
        import torch

        out_dir = Path(out_dir)
        trainer = cls(**json.loads((out_dir / "config.json").read_text(encoding="utf-8")))
        trainer._build()
        state = torch.load(out_dir / "agents.pt", weights_only=True)
        trainer.sender_.load_state_dict(state["sender"])
        trainer.receiver_.load_state_dict(state["receiver"])
        return trainer
