"""What a run of chat subjects would send, before it sends anything (``wordgames run --dry-run``).

:func:`estimate_requests` plays every unit of the chat subjects through
:func:`wordgames.evaluate` with a *dry* copy of each subject: a question the response cache
answers is answered from it (free, and it lets a game go on), any other is noted with an estimate
of its prompt tokens (:data:`~wordgames.llm.subject.CHARS_PER_TOKEN` characters a token: no
tokenizer is loaded) and its cap on answer tokens, and answered ``""``. Nothing is stored.

Where a game's next question depends on the answer, only the first is known: a WALES task's
first step (each further step costs about as much, up to the step cap: the ``up_to`` column).
A self-play game goes on: its unanswered turns are lost, so every turn up to the game's limit is
asked (an upper bound). Self-play pairs (measures of pairs) are played with every subject of the
run, so a chat subject's games with an embedding are counted; the embeddings play their own
pairs too (no request), and nothing else of theirs runs.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

__all__ = ["estimate_requests"]


def dry_copy(subject):
    """A copy of a chat subject that sends nothing (its own client, an empty plan)."""
    dry = copy.copy(subject)  # through __getstate__: no client, no transcript of the original
    dry.dry_run, dry.planned, dry._planned_keys = True, [], set()
    dry.planned_cached, dry.on_answer = {}, None
    return dry


def estimate_requests(
    subjects: Sequence, measures=None, **evaluate_kwargs
) -> tuple[list[dict], dict]:
    """The requests a run of ``subjects``' chat subjects would send, by subject, game and role.

    Parameters
    ----------
    subjects : sequence
        Subjects of a run; those that are not chat subjects are left out.
    measures : sequence of str or None
        As for :func:`wordgames.evaluate`.
    **evaluate_kwargs
        The run's settings (``quick``, ``seed``, ``options``, ``datasets``, ``data_root``).

    Returns
    -------
    list of dict
        One row per (subject, game, role): ``requests`` (questions the cache cannot answer),
        ``cached`` (questions it answers), ``up_to`` (the requests, with each first step
        multiplied by its step cap), ``tokens_in`` (estimated) and ``max_tokens_out`` (the
        caps' sum).
    dict
        ``{subject name: answers the response cache already holds}``.
    """
    from wordgames.evaluation import evaluate
    from wordgames.llm.subject import ChatSubject
    from wordgames.registry import select_measures

    dry = [dry_copy(s) for s in subjects if isinstance(s, ChatSubject)]
    if not dry:
        return [], {}
    others = [s for s in subjects if not isinstance(s, ChatSubject)]
    chosen = select_measures(measures)
    pairs = [m for m in chosen if m.pairs] if others else []
    kwargs = {**evaluate_kwargs, "store": None, "ci_resamples": 0}
    alone = [m for m in chosen if m not in pairs]
    if alone:
        evaluate(dry, alone, **kwargs)
    if pairs:  # a chat subject against the embeddings, both ways
        evaluate(dry + others, pairs, **kwargs)
    rows, cached = [], {}
    for s in dry:
        by_role: dict = {}
        for p in s.planned:
            row = _row(by_role, s.name, p["game"], p["role"])
            row["requests"] += 1
            row["up_to"] += p["step_cap"]
            row["tokens_in"] += p["tokens_in"]
            row["max_tokens_out"] += p["max_tokens_out"]
        for (game, role), k in s.planned_cached.items():
            _row(by_role, s.name, game, role)["cached"] = k
        rows += by_role.values()
        cached[s.name] = s.usage.cache_hits
    return rows, cached


def _row(by_role: dict, subject: str, game: str, role: str) -> dict:
    """The plan's row of (``game``, ``role``) in ``by_role``, made empty the first time."""
    return by_role.setdefault(
        (game, role),
        {"subject": subject, "game": game, "role": role, "requests": 0, "cached": 0, "up_to": 0,
         "tokens_in": 0, "max_tokens_out": 0},
    )  # fmt: skip
