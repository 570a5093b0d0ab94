"""Benchmark: training the Thing game (l = 1) on CPU until it communicates.

Target (issue 5): at least 0.8 test accuracy on held-out turns in under 10 minutes of training
on the 2-core CPU. The script first times one training step with 1 and with 2 torch
threads (``torch.set_num_threads``), then trains with ``--threads`` (default 1, the faster). For each channel the script trains with the
default configuration, notes the first logged step whose validation accuracy reaches 0.8 (and
its wall time), keeps training up to ``--steps`` or ``--time-limit`` seconds, then measures the
test accuracy on ``--test-turns`` held-out turns and every language measure (the Table 1 row).
The paper's own runs took about 10 hours for 200 epochs on an A100 (appendix C); the ratio
printed is our wall time against the 600 s target. The load average is printed: on a shared
machine the times are inflated.

    python bench/bench_games.py --out bench-games-runs
    wordgames cbm table bench-games-runs/* -o table1
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

TARGET_ACC = 0.8
TARGET_S = 600.0


def step_seconds(threads: int, n_steps: int = 30, preset: str | None = None) -> float:
    """Mean wall time of one training step with ``threads`` torch threads.

    The default QT configuration (batch 32), or the configuration of ``preset`` (batch 10).
    """
    import numpy as np
    import torch

    from wordgames.emergent.games.presets import get_preset
    from wordgames.emergent.games.train import GameTrainer

    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        params = get_preset(preset).trainer_params() if preset else {"channel": "qt"}
        t = GameTrainer(**{**params, "steps": 0})
        t._build()
        rng = np.random.default_rng(0)
        opt = torch.optim.Adam(list(t.sender_.parameters()) + list(t.receiver_.parameters()))
        for _ in range(5):  # warm-up
            t._train_step(torch, opt, rng)
        t0 = time.perf_counter()
        for _ in range(n_steps):
            t._train_step(torch, opt, rng)
        return (time.perf_counter() - t0) / n_steps
    finally:
        torch.set_num_threads(old)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--channels", default="qt,gs")
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--time-limit", type=float, default=TARGET_S)
    ap.add_argument("--test-turns", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None, help="keep the run folders here")
    ap.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch threads for training (the step timing below compares 1 and 2)",
    )
    ap.add_argument(
        "--step-presets",
        default="thing-gs-l1,thing-qt-l4,shape-qt-l1",
        help="presets whose training step is also timed with 1 and 2 threads ('' for none)",
    )
    ap.add_argument("--only-steps", action="store_true", help="time the steps, train nothing")
    args = ap.parse_args(argv)

    import tempfile

    import torch

    from wordgames.emergent.games.runs import format_table1, train_and_evaluate
    from wordgames.emergent.games.train import GameTrainer

    out = args.out or Path(tempfile.mkdtemp(prefix="bench-games-"))
    print(f"torch {torch.__version__}, load average before {os.getloadavg()}")
    for preset in [None, *filter(None, args.step_presets.split(","))]:
        times = {threads: step_seconds(threads, 200, preset) for threads in (1, 2)}
        print(
            f"one training step of {preset or 'the default QT game (batch 32 x 40 candidates)'}: "
            f"{times[1]:.4f} s with 1 thread, {times[2]:.4f} s with 2 "
            f"(ratio 2/1: {times[2] / times[1]:.1f}); load average {os.getloadavg()}"
        )
    if args.only_steps:
        return 0
    rows = []
    for channel in args.channels.split(","):
        trainer = GameTrainer(
            world="thing",
            channel=channel,
            rule_length=1,
            steps=args.steps,
            time_limit=args.time_limit,
            n_threads=args.threads,
            random_state=args.seed,
        )
        t0 = time.perf_counter()
        ev = train_and_evaluate(trainer, out / f"thing-{channel}-l1", test_turns=args.test_turns)
        total = time.perf_counter() - t0
        reached = next((h for h in trainer.history_ if h["val_accuracy"] >= TARGET_ACC), None)
        print(
            f"\n[{channel}] {trainer.n_steps_} steps in {trainer.train_seconds_:.1f} s "
            f"({trainer.stopped_because_}); evaluation+writing {total - trainer.train_seconds_:.1f} s"
        )
        if reached:
            print(
                f"[{channel}] validation accuracy {reached['val_accuracy']:.3f} >= {TARGET_ACC} "
                f"at step {reached['step']}, {reached['elapsed_s']:.1f} s "
                f"({reached['elapsed_s'] / TARGET_S:.3f} of the {TARGET_S:.0f} s target)"
            )
        else:
            print(f"[{channel}] validation accuracy never reached {TARGET_ACC}")
        # the target: 0.8 reached within 600 s of training (validation turns), confirmed on
        # the held-out test turns after the whole run
        ok = reached is not None and reached["elapsed_s"] <= TARGET_S and ev.accuracy >= TARGET_ACC
        print(
            f"[{channel}] TEST accuracy {ev.accuracy:.3f} on {args.test_turns} held-out turns "
            f"after {trainer.train_seconds_:.1f} s of training -> target "
            f"{'MET' if ok else 'NOT met'}; load average {os.getloadavg()}"
        )
        rows.append(ev.table1_row())
    print("\n" + format_table1(rows))
    print(f"run folders: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
