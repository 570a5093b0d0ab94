"""Loader of Mills, Prescott & Phillips (NoahPrescott/Codenames).

The paper: "Strategy and structure in Codenames: comparing human and GPT-4 gameplay".

400 boards of 12 words without team colours. On each board a human clue giver chose 3 words
and gave a clue (``human_clue``, ``human_intended_words``); GPT-4 did the same (``GPT_clue``,
``GPT_intended_words``). Online participants saw the 12 words and one clue and picked 3 words.

Canonical mapping:

* sender (400): ``blue`` = ``targets`` = the human giver's 3 intended words, ``red`` = the other
  9 words (words to avoid -- there are no colours, so no opponent/neutral split), ``number`` 3;
* receiver (one per human guess list): ``board`` = the 12 words, ``chosen`` = the 3 picks in
  stored order, ``intended`` = ``blue`` = the clue giver's intended words, ``red`` = the rest,
  ``clue_source`` = ``"human"`` or ``"gpt-4"``. GPT-4's own guesses are not human data: unread.

``combined-data.json`` is read; ``boards_and_responses.json`` (human clues) and
``cluesAndBoardsHumanDataFullTrial.json`` (GPT-4 clues) hold the same records and are checked
to agree with it rather than loaded twice. Counted: a human clue that is itself a board word
cannot be ranked by a sender (board words are never clues): its sender record is dropped and
its receiver records are kept but flagged (``meta["clue_on_board"]``). GPT-4 twice named an
intended word that is not on the board (``QUEEN``, ``PUP``): removed from ``intended`` (counted).
"""

from __future__ import annotations

from pathlib import Path

from wordgames.codenames.human_data._common import expect_keys, norm, norm_all, read_json
from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord, LoadedHumanData
from wordgames.errors import DataFormatError

COMBINED = "combined-data.json"
HUMAN_CLUES = "boards_and_responses.json"
GPT_CLUES = "cluesAndBoardsHumanDataFullTrial.json"
KEYS = (
    "words",
    "human_clue",
    "human_intended_words",
    "human_guess_human_clue",
    "GPT_clue",
    "GPT_intended_words",
    "human_guess_GPT_clue",
)


def _signature(words, clue, intended, responses) -> tuple:
    return (tuple(words), clue, tuple(intended), tuple(map(tuple, responses)))


def load(base: Path, data: LoadedHumanData, *, check_copies: bool = True) -> None:
    """Fill ``data`` with the sender and receiver records (see the module docstring).

    ``check_copies`` checks that the two other JSON files agree with ``combined-data.json``.
    """
    path = base / COMBINED
    combined = read_json(path)
    if not isinstance(combined, dict):
        raise DataFormatError(path, 1, "expected a JSON object keyed by board")
    human_sig, gpt_sig = set(), set()
    for b, (key, item) in enumerate(combined.items()):
        if not isinstance(item, dict):
            raise DataFormatError(path, None, f"board {key}: expected an object")
        expect_keys(path, item, KEYS, f"board {b} ({key[:40]}...)")
        human_sig.add(
            _signature(
                item["words"],
                item["human_clue"],
                item["human_intended_words"],
                item["human_guess_human_clue"],
            )
        )
        gpt_sig.add(
            _signature(
                item["words"],
                item["GPT_clue"],
                item["GPT_intended_words"],
                item["human_guess_GPT_clue"],
            )
        )
        board = norm_all(item["words"])
        on_board = set(board)
        if len(board) != 12 or len(on_board) != 12:
            data.count("dropped", "noahprescott: board without 12 distinct words")
            continue
        for source, clue_key, intended_key, guesses_key in (
            ("human", "human_clue", "human_intended_words", "human_guess_human_clue"),
            ("gpt-4", "GPT_clue", "GPT_intended_words", "human_guess_GPT_clue"),
        ):
            clue, intended = norm(item[clue_key]), norm_all(item[intended_key])
            if not set(intended) <= on_board:
                # GPT-4 twice named a word that is not on the board (QUEEN, PUP): the human
                # guesses stay valid; keep the intended words that are on the board
                intended = tuple(w for w in intended if w in on_board)
                data.count(
                    "repairs", f"noahprescott: {source} intended word not on the board removed"
                )
            if not intended:
                data.count("dropped", f"noahprescott: {source} clue without intended board words")
                continue
            avoid = tuple(w for w in board if w not in set(intended))
            clue_on_board = clue in on_board
            if source == "human":
                if clue_on_board:
                    data.count("dropped", "noahprescott: human clue is a board word (sender)")
                else:
                    data.sender.append(
                        HumanSenderRecord(
                            dataset=data.dataset,
                            record_id=f"b{b}",
                            blue=intended,
                            red=avoid,
                            clue=clue,
                            targets=intended,
                            number=3,
                            meta={"board": b},
                        )
                    )
            for j, picks in enumerate(item[guesses_key]):
                chosen = norm_all(picks)
                if not chosen or not set(chosen) <= on_board or len(set(chosen)) != len(chosen):
                    data.count("dropped", "noahprescott: guess list not distinct board words")
                    continue
                meta = {"board": b, "response": j}
                if clue_on_board:
                    meta["clue_on_board"] = True
                    data.count(
                        "flagged", f"noahprescott: {source} clue is a board word (receiver, kept)"
                    )
                data.receiver.append(
                    HumanReceiverRecord(
                        dataset=data.dataset,
                        record_id=f"b{b}/{source}/{j}",
                        board=board,
                        clue=clue,
                        chosen=chosen,
                        clue_source=source,
                        number=3,
                        intended=intended,
                        blue=intended,
                        red=avoid,
                        meta=meta,
                    )
                )
    if check_copies:
        _check_copy(base / HUMAN_CLUES, human_sig, data, list_form=True)
        _check_copy(base / GPT_CLUES, gpt_sig, data, list_form=False)
    data.notes.append(
        "Mills, Prescott & Phillips: 400 twelve-word boards without colours; human (and GPT-4) "
        "clue givers chose 3 intended words. blue = intended words, red = the other 9 words "
        "(every word to avoid). boards_and_responses.json and "
        "cluesAndBoardsHumanDataFullTrial.json repeat combined-data.json and are only checked."
    )


def _check_copy(path: Path, expected: set, data: LoadedHumanData, *, list_form: bool) -> None:
    """Count the boards of a copy file that are not exactly in ``combined-data.json``."""
    doc = read_json(path)
    items = doc if list_form else list(doc.values()) if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise DataFormatError(path, 1, "expected a list (or object) of board records")
    seen = set()
    for n, item in enumerate(items):
        if not isinstance(item, dict):
            raise DataFormatError(path, None, f"record {n + 1}: expected an object")
        expect_keys(path, item, ("words", "clue", "intended_words", "responses"), f"record {n + 1}")
        seen.add(_signature(item["words"], item["clue"], item["intended_words"], item["responses"]))
    differ = len(seen ^ expected)
    if differ:
        data.count(
            "flagged", f"noahprescott: boards of {path.name} differing from {COMBINED}", differ
        )
