"""Codenames self-play as a measure of pairs (Table 1): one unit per (sender, receiver) subject.

The unit's subject gives the clues (ExhaustiveSearchSender, the paper's first optimal clue) and
``ctx.partner`` guesses (EmbeddingNearestReceiver) on the same seeded random boards; the
Score rows' ``subject`` is the receiver (stamped by :func:`wordgames.compute.finish_result`).
``wordgames codenames selfplay`` and the report's sender x receiver matrix read these rows.
"""

from __future__ import annotations

import numpy as np

from wordgames.codenames.spec import SELFPLAY, SELFPLAY_BOARDS
from wordgames.measure import MeasureResult

#: quick runs play at most this many boards per pair
QUICK_GAMES = 5


def run(sender_subject, ctx) -> MeasureResult:
    """Every board played by the unit's subject (sender) and ``ctx.partner`` (receiver)."""
    from wordgames.blas import single_threaded_blas
    from wordgames.codenames.agents import EmbeddingNearestReceiver, ExhaustiveSearchSender
    from wordgames.codenames.board import codenames_word_list
    from wordgames.codenames.game import play_boards, random_boards
    from wordgames.datasets import verify_dataset

    opts = ctx.options
    receiver_subject = ctx.partner if ctx.partner is not None else sender_subject
    games = min(opts.games, QUICK_GAMES) if ctx.quick else opts.games
    pool = list(opts.words) if opts.words else codenames_word_list(ctx.data_root)
    boards = random_boards(
        pool, games, opts.n_blue, opts.n_red, seed=ctx.seed,
        embeddings=[sender_subject, receiver_subject],
    )  # fmt: skip
    sender = ExhaustiveSearchSender(sender_subject, opts.tie_break, vocab_size=opts.vocab_size)
    receiver = EmbeddingNearestReceiver(receiver_subject)
    with single_threaded_blas():  # many small products: one thread (see game.cross_matrix)
        turns, solved, limit = play_boards(sender, receiver, boards, opts.max_turns)
    result = MeasureResult(SELFPLAY.name, SELFPLAY.version)
    _scores(result, turns, solved, limit, ctx)
    result.parameters = {
        "sender": sender.describe(),
        "receiver": receiver.describe(),
        "games": games,
        "n_blue": opts.n_blue,
        "n_red": opts.n_red,
        "max_turns": opts.max_turns,
        "board_pool": len(pool),
        "seed": ctx.seed,
        "unsolved_counts_as": "turn limit + 1",
    }
    if not opts.words:
        result.datasets = {"codenames-pilot": verify_dataset("codenames-pilot", ctx.data_root)}
    result.notes.append(
        f"{games} seeded random boards of {opts.n_blue} blue and {opts.n_red} red words from "
        f"{'the given' if opts.words else 'the Codenames'} word list, restricted to the "
        "words both subjects know"
    )
    return result


def _scores(result: MeasureResult, turns, solved, limit: int, ctx) -> None:
    """mean_turns, solve_rate and mean_turns_solved with their bootstrap intervals."""
    from wordgames.paired import item_record
    from wordgames.stats import bootstrap_ci

    t, s = np.asarray(turns, float), np.asarray(solved, bool)
    n = int(t.size)
    boot = {"n_resamples": ctx.ci_resamples, "seed": ctx.seed}
    ci = bootstrap_ci(t, bounds=(1.0, float(limit + 1)), **boot)
    row = result.score(SELFPLAY_BOARDS, "", "mean_turns", float(t.mean()), ci=ci, n=n)
    result.keep_items(row, item_record(np.arange(n), t))
    ci = bootstrap_ci(s.astype(float), bounds=(0.0, 1.0), **boot)
    result.score(SELFPLAY_BOARDS, "", "solve_rate", float(s.mean()), ci=ci, n=n)
    ts = t[s]
    ci = bootstrap_ci(ts, bounds=(1.0, float(limit)), **boot) if ts.size else (np.nan, np.nan)
    result.score(
        SELFPLAY_BOARDS, "", "mean_turns_solved",
        float(ts.mean()) if ts.size else float("nan"), ci=ci, n=int(ts.size),
        n_skipped=n - int(ts.size), skip_reason="games not solved" if n > ts.size else "",
    )  # fmt: skip
