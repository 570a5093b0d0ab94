"""Codenames self-play as a measure of pairs (Table 1): one unit per (sender, receiver) subject.

The unit's subject gives the clues and ``ctx.partner`` guesses on the same seeded random
boards; the Score rows' ``partner`` is the receiver (stamped by
:func:`wordgames.compute.finish_result`). A vectors subject plays with the paper's agents
(ExhaustiveSearchSender's first optimal clue; EmbeddingNearestReceiver), a player with its own
(:class:`~wordgames.codenames.players.PlayerSender`, its first listed clue not yet given;
:class:`~wordgames.codenames.players.PlayerReceiver`), so Table 1's matrix gets LLM rows and
columns. A turn lost to a player's unreadable answer still counts as a turn (counted in the
notes). ``wordgames codenames selfplay`` and the report's sender x receiver matrix read these
rows.
"""

from __future__ import annotations

import numpy as np

from wordgames.codenames.spec import SELFPLAY, SELFPLAY_BOARDS
from wordgames.measure import MeasureResult

#: quick runs play at most this many boards per pair
QUICK_GAMES = 5


def run(sender_subject, ctx) -> MeasureResult:
    """Every board played by the unit's subject (sender) and ``ctx.partner`` (receiver)."""
    from collections import Counter

    from wordgames.blas import single_threaded_blas
    from wordgames.codenames.board import codenames_word_list
    from wordgames.codenames.game import play_boards, random_boards
    from wordgames.datasets import verify_dataset
    from wordgames.subjects import is_player

    opts = ctx.options
    receiver_subject = ctx.partner if ctx.partner is not None else sender_subject
    games = min(opts.games, QUICK_GAMES) if ctx.quick else opts.games
    pool = list(opts.words) if opts.words else codenames_word_list(ctx.data_root)
    pair = [sender_subject, receiver_subject]
    boards = random_boards(
        pool, games, opts.n_blue, opts.n_red, seed=ctx.seed,
        embeddings=[s for s in pair if not is_player(s)],  # a player reads any word
    )  # fmt: skip
    sender, receiver = _agents(sender_subject, receiver_subject, opts)
    lost: Counter = Counter()
    with single_threaded_blas():  # many small products: one thread (see game.cross_matrix)
        turns, solved, limit = play_boards(sender, receiver, boards, opts.max_turns, lost)
    result = MeasureResult(SELFPLAY.name, SELFPLAY.version)
    _scores(result, turns, solved, limit, ctx)
    if lost:
        result.notes.append(
            "turns lost to a player's unreadable answer (each still counts as a turn): "
            + ", ".join(f"{role} {n}" for role, n in sorted(lost.items()))
        )
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


def _agents(sender_subject, receiver_subject, opts):
    """The pair's agents: the paper's for vectors, the player's own for a player."""
    from wordgames.codenames.agents import EmbeddingNearestReceiver, ExhaustiveSearchSender
    from wordgames.codenames.players import PlayerReceiver, PlayerSender
    from wordgames.subjects import is_player

    if is_player(sender_subject):
        sender = PlayerSender(sender_subject)
    else:
        sender = ExhaustiveSearchSender(sender_subject, opts.tie_break, vocab_size=opts.vocab_size)
    if is_player(receiver_subject):
        return sender, PlayerReceiver(receiver_subject)
    return sender, EmbeddingNearestReceiver(receiver_subject)


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
