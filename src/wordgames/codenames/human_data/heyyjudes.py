"""Loader of Shen, Hofer, Felbo & Levy (2018), "Comparing Models of Associative Meaning".

From heyyjudes/codenames-language-game: Experiment 1, rebuilt as
``derived/shen2018_ex1_scenarios.json``.

A simplified, multiple-choice Codenames: boards of 5 nouns, 2 of them targets. A **speaker**
chose one adjective from 8 candidates to describe the targets; a **listener** saw the board and
one candidate adjective and picked the pair of nouns meant. The file holds aggregate counts per
item (40 boards x 2 candidate sets = 80 items).

Canonical mapping (one record per *distinct* decision, with its ``count`` of people):

* sender (490 records, sum of counts 3,225): ``blue`` = ``targets`` = the 2 targets, ``red`` =
  the 3 other nouns (words to avoid), ``clue`` = the chosen adjective, ``number`` 2,
  ``meta["candidate_clues"]`` = the 8 allowed adjectives (rank only those);
* receiver (3,358 records, sum of counts 13,280): ``board`` = the 5 nouns, ``clue`` = a
  candidate adjective (not produced by a person: ``clue_source`` = the candidate set,
  ``"bigram"`` or ``"glove"``), ``chosen`` = the noun pair (unordered, as stored), ``intended``
  = ``blue`` = the targets, ``red`` = the others.

Decisions with count 0 are not observations and give no record. ``expand_counts=True`` gives
one record per person instead (count 1 each) for code that ignores ``count``.
"""

from __future__ import annotations

from pathlib import Path

from wordgames.codenames.human_data._common import expect_keys, norm, norm_all, read_json
from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord, LoadedHumanData
from wordgames.errors import DataFormatError

FILE = "derived/shen2018_ex1_scenarios.json"
KEYS = (
    "item_id",
    "adjective_set",
    "target_nouns",
    "nontarget_nouns",
    "board",
    "candidate_clues",
    "speaker_choice_counts",
    "listener_pair_counts_by_clue",
)


def _emit(records: list, record, count: int, expand: bool) -> None:
    if expand:
        from dataclasses import replace

        records.extend(
            replace(record, record_id=f"{record.record_id}#{j}", count=1) for j in range(count)
        )
    else:
        records.append(record)


def load(base: Path, data: LoadedHumanData, *, expand_counts: bool = False) -> None:
    """Fill ``data`` with Experiment 1's sender and receiver records (see the module docstring).

    ``expand_counts`` gives one record per person (count 1) instead of one per distinct decision.
    """
    path = base / FILE
    items = read_json(path)
    if not isinstance(items, list):
        raise DataFormatError(path, 1, "expected a list of items")
    for n, item in enumerate(items):
        if not isinstance(item, dict):
            raise DataFormatError(path, None, f"item {n + 1}: expected an object")
        expect_keys(path, item, KEYS, f"item {n + 1}")
        iid = str(item["item_id"])
        targets, others = norm_all(item["target_nouns"]), norm_all(item["nontarget_nouns"])
        board = norm_all(item["board"])
        candidates = norm_all(item["candidate_clues"])
        if set(board) != set(targets) | set(others) or len(targets) != 2:
            raise DataFormatError(
                path, None, f"item {iid}: board must be the 2 targets plus the non-targets"
            )
        meta = {
            "item": iid,
            "adjective_set": item["adjective_set"],
            "candidate_clues": list(candidates),
        }
        for adj, count in item["speaker_choice_counts"].items():
            if int(count) <= 0:
                continue
            clue = norm(adj)
            _emit(
                data.sender,
                HumanSenderRecord(
                    dataset=data.dataset,
                    record_id=f"{iid}/{clue}",
                    blue=targets,
                    red=others,
                    clue=clue,
                    targets=targets,
                    number=2,
                    meta=meta,
                    count=int(count),
                ),
                int(count),
                expand_counts,
            )
        for adj, pairs in item["listener_pair_counts_by_clue"].items():
            clue = norm(adj)
            for entry in pairs:
                count = int(entry["count"])
                if count <= 0:
                    continue
                pair = norm_all(entry["pair"])
                if len(pair) != 2 or not set(pair) <= set(board):
                    data.count("dropped", "heyyjudes: listener pair not two board nouns")
                    continue
                _emit(
                    data.receiver,
                    HumanReceiverRecord(
                        dataset=data.dataset,
                        record_id=f"{iid}/{clue}/{'+'.join(pair)}",
                        board=board,
                        clue=clue,
                        chosen=pair,
                        clue_source=str(item["adjective_set"]),
                        number=2,
                        intended=targets,
                        blue=targets,
                        red=others,
                        meta={**meta, "unordered": True},
                        count=count,
                    ),
                    count,
                    expand_counts,
                )
    data.notes.append(
        "Shen et al. 2018, Experiment 1: multiple-choice adjective clues for noun pairs; one "
        "record per distinct decision with its count of people (weight by record.count). "
        "Sender clues were chosen from 8 candidates: meta['candidate_clues']."
    )
