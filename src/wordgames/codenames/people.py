"""The people of the Codenames human data as a subject: the human ceiling (issue 39).

Each person whose item several people answered is held out and the *other* people play the
agent, scored by the same metric on the same records as the agents (leave one person out):

* **receiver, Algorithm 5** (receiver data): an item is a board, a clue and its number. The
  others' pick counts order the board and the held-out person's picks are the relevant words;
  the AP is averaged over every order of the tied words (:func:`wordgames.ceiling.expected_ap`:
  every word nobody else picked is tied, and a tie-break would be luck).
* **sender, Algorithm 6** (sender data): an item is a board with its colours (what a sender is
  shown; the targets are the person's own choice, part of the answer). The others' clues,
  ordered by how many gave each, rank the held-out person's clue: the mean of its tied
  positions, as for every sender. A clue nobody else gave is not in the list: the list says
  only that it is below, so only ``hits@10`` and ``mrr@10`` are defined (0 for it), as for a
  player sender's list. Where the person chose from given candidates (Shen et al.), the others'
  counts also rank every candidate (``human_sender.mean_rank_candidates``).

A response alone on its item has nobody to predict it: it is counted under ``n_skipped``
("the only response to its item"), never dropped silently. The pilot's prefilled copies (one
worker's answer listed under a second configuration) are not a second person: left out of the
others and skipped, counted. The records carry no participant id (the sources' worker ids are
not kept), so each response is taken as one person; a source where one person answered an
item twice would count them twice. Algorithm 4 (a sender on receiver data) has no people row:
the clue of such a record was given, not chosen by the people whose picks it is scored on; nor
has Algorithm 7: its truth is the clue giver's targets, and the receiver data's guessers saw
other clues.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from wordgames.ceiling import Clustered, expected_ap, tied_positions
from wordgames.codenames.board import _norm

#: the agent name of the people's rows (the leaderboard shows it in the nearest receiver's column)
PEOPLE = "people"
#: the statistics of the people's sender that a list of the others' clues defines
SENDER_STATS = ("hits@10", "mrr@10")
#: why a response has no people value, in words (keys of :attr:`PeopleValues.skipped`)
SKIP_REASONS = {
    "single_response": "the only response to its item (nobody else to predict it)",
    "copy": "a copy of another response (the pilot's prefilled rows), not another person",
    "clue_not_candidate": "clue not among its candidates",
}


@dataclass
class PeopleValues:
    """Each held-out response's value by the others' answers, on one kind of data.

    ``values[stat][i]`` belongs to ``record_ids[i]`` (item ``items[i]``, standing for
    ``weights[i]`` people); ``skipped`` counts the responses (by weight) with no value and why.
    """

    data: str
    stats: tuple[str, ...]
    record_ids: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    values: dict = field(default_factory=dict)
    weights: list[int] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)

    def add(self, record, item: str, **values: float) -> None:
        self.record_ids.append(record.record_id)
        self.items.append(item)
        self.weights.append(max(1, int(record.count or 1)))
        for k in self.stats:
            self.values.setdefault(k, []).append(float(values[k]))

    @property
    def n(self) -> int:
        """People scored (responses weighted by their count)."""
        return int(sum(self.weights))

    @property
    def n_items(self) -> int:
        return len(set(self.items))

    def clustered(self, rows: Sequence[int] | None = None) -> Clustered:
        """The items and weights of all responses, or of ``rows`` (indexes), for the bootstrap."""
        rows = range(len(self.items)) if rows is None else rows
        return Clustered(tuple(self.items[i] for i in rows), tuple(self.weights[i] for i in rows))

    def column(self, stat: str) -> np.ndarray:
        return np.asarray(self.values.get(stat, []), float)


def _weight(r) -> int:
    return max(1, int(r.count or 1))


def _is_copy(r) -> bool:
    return bool((r.meta or {}).get("prefilled_copy_of"))


def receiver_item(r) -> str:
    """The item of a receiver record: its board (as a set), clue and number."""
    return "\x1f".join([*sorted(_norm(w) for w in r.board), "|", _norm(r.clue), str(r.number)])


def sender_item(r) -> str:
    """The item of a sender record: its board with the colours a sender is shown."""
    blue, avoid = sorted(map(_norm, r.blue)), sorted(map(_norm, r.avoid))
    return "\x1f".join([*blue, "|", *avoid])


def people_receiver(pool: Sequence, held_out: Sequence) -> PeopleValues:
    """Algorithm 5's AP of each held-out receiver record by the others' pick counts.

    Parameters
    ----------
    pool : sequence of HumanReceiverRecord
        Every response of the data set (the others come from here).
    held_out : sequence of HumanReceiverRecord
        The responses scored (the agents' records: the pool or a sample of it).

    Returns
    -------
    PeopleValues
        ``values["map"]``: each response's expected AP.

    Examples
    --------
    >>> from wordgames.codenames.records import HumanReceiverRecord as R
    >>> board = ("dog", "cat", "car", "bus")
    >>> rs = [R("d", "1", board, "pet", ("dog", "cat")), R("d", "2", board, "pet", ("dog",)),
    ...       R("d", "3", board, "pet", ("cat", "dog")), R("d", "4", board, "van", ("bus",))]
    >>> v = people_receiver(rs, rs)
    >>> [round(x, 4) for x in v.values["map"]], dict(v.skipped)
    ([1.0, 0.75, 1.0], {'single_response': 1})

    (Person 2 picked ``dog``; the others picked ``dog`` and ``cat`` twice each: ``dog`` is
    first or second with equal chance, AP 1 or 1/2.)
    """
    counts: dict[str, Counter] = defaultdict(Counter)
    total: Counter = Counter()
    for r in pool:
        if _is_copy(r):
            continue
        key = receiver_item(r)
        total[key] += _weight(r)
        for w in set(map(_norm, r.chosen)):
            counts[key][w] += _weight(r)
    out = PeopleValues("human_receiver", ("map",))
    for r in held_out:
        if _is_copy(r):
            out.skipped["copy"] += _weight(r)
            continue
        key = receiver_item(r)
        if total[key] - 1 < 1:
            out.skipped["single_response"] += _weight(r)
            continue
        mine = set(map(_norm, r.chosen))
        others = {w: counts[key][w] - (w in mine) for w in map(_norm, r.board)}
        out.add(r, key, map=expected_ap(others, mine))
    return out


def people_sender(pool: Sequence, held_out: Sequence) -> PeopleValues:
    """Algorithm 6's ``hits@10`` and ``mrr@10`` of each held-out clue in the others' clues.

    The others' clues for the same board and colours, ordered by how many gave each, rank the
    person's clue at the mean of its tied positions; a clue nobody else gave is below the list
    (0 for both). ``mean_rank_candidates`` (where the person chose from candidates, else NaN):
    the others' counts rank every candidate, ties at the mean of their positions.

    Examples
    --------
    >>> from wordgames.codenames.records import HumanSenderRecord as S
    >>> b = dict(blue=("dog", "cat"), red=("car",))
    >>> rs = [S("d", "1", clue="pet", **b), S("d", "2", clue="pet", **b),
    ...       S("d", "3", clue="fur", **b), S("d", "4", clue="pet", **b)]
    >>> v = people_sender(rs, rs)
    >>> v.values["hits@10"], v.values["mrr@10"]
    ([1.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0])
    """
    from wordgames.codenames.measures import SenderRanks, candidates_of

    clues: dict[str, Counter] = defaultdict(Counter)
    for r in pool:
        clues[sender_item(r)][_norm(r.clue)] += _weight(r)
    out = PeopleValues("human_sender", (*SENDER_STATS, "mean_rank_candidates"))
    ranks = SenderRanks(PEOPLE, {}, listed=0)  # its statistics: one definition for all senders
    for r in held_out:
        key, clue = sender_item(r), _norm(r.clue)
        others = Counter(clues[key])
        others[clue] -= 1  # one person held out (a record may stand for several)
        others = +others
        if not others:
            out.skipped["single_response"] += _weight(r)
            continue
        at = tied_positions(others, clue) or (max(10, len(others)) + 1,) * 2
        ranks.best.append(at[0])
        ranks.worst.append(at[1])
        ranks.n_candidates.append(max(at[1], len(others)))
        ranks.weights.append(_weight(r))
        cands = candidates_of(r)
        among = float("nan")
        if cands and clue in cands:  # (best + worst) / 2 among the candidates
            c = others.get(clue, 0)
            higher = sum(others.get(x, 0) > c for x in cands)
            among = (1 + 2 * higher + sum(others.get(x, 0) == c for x in cands)) / 2
        out.add(r, key, **{"hits@10": 0.0, "mrr@10": 0.0, "mean_rank_candidates": among})
    if ranks.best:
        per, _ = ranks.per_record()
        for k in SENDER_STATS:
            out.values[k] = [float(x) for x in per[k]]
    return out


# --------------------------------------------------------------------------- scores
#: the statistics of each kind of data that the people have and the agents share
COMPARED = (("human_receiver", "map"), ("human_sender", "hits@10"), ("human_sender", "mrr@10"))
#: the metric of a model's share of the ceiling, and of its gap to a held-out person
SHARE, GAP = "share_of_ceiling", "gap_to_people"


def people_values(data, receiver: Sequence, sender: Sequence) -> dict[str, PeopleValues]:
    """Both kinds of data's people values: the held-out records against all of ``data``'s."""
    out = {}
    if receiver:
        out["human_receiver"] = people_receiver(data.receiver, receiver)
    if sender:
        out["human_sender"] = people_sender(data.sender, sender)
    return out


def _metric(data: str, stat: str) -> str:
    from wordgames.codenames.spec import CANDIDATES_METRIC

    return CANDIDATES_METRIC if stat == "mean_rank_candidates" else f"{data}.{stat}"


def skip_text(skipped: Counter, extra: dict | None = None) -> str:
    """The reasons of ``skipped`` (and ``extra``: ``{reason in words: count}``) in words."""
    parts = [(n, SKIP_REASONS.get(k, k)) for k, n in skipped.items() if n]
    parts += [(n, k) for k, n in (extra or {}).items() if n]
    parts.sort(key=lambda t: (-t[0], t[1]))
    return "; ".join(f"{why} ({n:,})" for n, why in parts)


def people_scores(result, evaluations, intervals) -> None:
    """The people's rows of every data set, the ``ceiling`` table, and why one is missing."""
    from wordgames.ceiling import BOOTSTRAP, cluster_mean_ci, weighted_mean
    from wordgames.codenames.spec import MEASURE
    from wordgames.paired import item_record

    table = result.tables.setdefault("ceiling", [])
    for ev in evaluations:
        for data, pv in ev.people.items():
            if not pv.n:
                result.notes.append(_no_ceiling(ev.dataset, data, pv))
                continue
            for stat in pv.stats:
                vals = pv.column(stat)
                rows = [i for i in range(len(vals)) if np.isfinite(vals[i])]
                if not rows:
                    continue
                metric = _metric(data, stat)
                cl = pv.clustered(rows)
                value = weighted_mean(vals[rows], cl.weights)
                ci = cluster_mean_ci(
                    cl, vals[rows], bounds=MEASURE.bounds(metric), **intervals.kw()
                )
                n = int(sum(cl.weights))
                extra = {"no candidate clues recorded": pv.n - n}
                row = result.score(ev.dataset, PEOPLE, metric, value, ci=ci, n=n,
                                   n_skipped=sum(pv.skipped.values()) + pv.n - n,
                                   skip_reason=skip_text(pv.skipped, extra))  # fmt: skip
                if MEASURE.headline_of(row) is not None:
                    ids = [f"{ev.dataset}:{pv.record_ids[i]}" for i in rows]
                    result.keep_items(row, item_record(ids, vals[rows], weights=cl.weights))
                table.append(
                    {
                        "dataset": ev.dataset,
                        "metric": metric,
                        "value": value,
                        "ci_low": ci[0],
                        "ci_high": ci[1],
                        "n_people": n,
                        "n_items": len(set(cl.items)),
                        "n_alone": pv.skipped["single_response"],
                        "n_copies": pv.skipped["copy"],
                        "bootstrap": BOOTSTRAP,
                        "participants": PARTICIPANTS,
                    }  # fmt: skip
                )


#: what a person is in the records, in words (kept with every ceiling)
PARTICIPANTS = (
    "each response is taken as one person: the records carry no participant id; responses "
    "to the same item are different people"
)


def _no_ceiling(dataset: str, data: str, pv: PeopleValues) -> str:
    kind = (
        "receiver data (Algorithm 5)" if data == "human_receiver" else "sender data (Algorithm 6)"
    )
    why = skip_text(pv.skipped) or "no records"
    return f"{dataset}, {kind}: no people row: no item has two responses ({why})"


def share_scores(result, evaluations, intervals) -> None:
    """Each agent's share of the ceiling and gap to people, on the responses both scored."""
    for ev in evaluations:
        for data, stat in COMPARED:
            pv = ev.people.get(data)
            agents = dict(ev.receiver_results() if stat == "map" else ev.sender_results())[data]
            if pv is None or not pv.n:
                continue
            index = {rid: i for i, rid in enumerate(pv.record_ids)}
            for agent, res in agents.items():
                if stat == "map":
                    values = res.scores
                elif stat in res.defined():
                    values = res.per_record()[0][stat]
                else:
                    continue
                _share_rows(
                    result, ev.dataset, data, stat, agent, pv, index, res, values, intervals
                )


def _share_rows(result, dataset, data, stat, agent, pv, index, res, values, intervals) -> None:
    from wordgames.ceiling import share_of_ceiling

    pairs = [(index[rid], float(v)) for rid, v in zip(res.record_ids, values, strict=True)
             if rid in index]  # fmt: skip
    if not pairs:
        return
    rows = [i for i, _ in pairs]
    s = share_of_ceiling(pv.clustered(rows), [v for _, v in pairs], pv.column(stat)[rows],
                         gap_bounds=(-1.0, 1.0), **intervals.kw())  # fmt: skip
    if not np.isfinite(s.share):  # a ceiling of 0 has no share (said once per data set)
        note = f"{dataset}: no share of the ceiling for {data}.{stat}: the people's value is 0"
        if note not in result.notes:
            result.notes.append(note)
        return
    why = skip_text(pv.skipped, {f"not scored for {agent}": pv.n - s.n})
    kw = dict(n=s.n, n_skipped=sum(pv.skipped.values()) + pv.n - s.n, skip_reason=why,
              n_unread=min(int(getattr(res, "unread", 0)), s.n))  # fmt: skip
    result.score(dataset, agent, f"{data}.{stat}.{SHARE}", s.share, ci=s.share_ci, **kw)
    result.score(dataset, agent, f"{data}.{stat}.{GAP}", s.gap, ci=s.gap_ci, **kw)
