"""Loader of itsLuisa/codenames: real 25-word Codenames games and a small Prolific study.

Two kinds of source, both with real two-team colours (``blue``/``red``/``white`` or
``lightgrey`` = neutral/``black`` = assassin):

* game JSONs (``codenamesexp.json``: a games night; ``data_Polygon.json``, ``data_MCDM.json``:
  transcribed YouTube games; ``more_data.json``: no colours but the giver's intended words),
  keyed ``"game N" -> {"color distribution": {word: colour}, "round K": {...}}``. Each round
  gives one sender record (the spymaster's clue on the remaining board) and one receiver record
  (the operatives' guesses in play order);
* the evaluation study (``derived/eval_study_responses_deidentified.csv``, 260 responses, plus
  the item files ``eval_study_groups/group*.csv``): spymaster responses are sender records,
  operative responses receiver records (``intended`` = group-file field 9, read as the clue
  giver's intended words).

Canonical colours: ``blue`` = the words of the team whose turn it is (the clue giver's team),
``red`` = the other team's words, ``neutral`` = white/lightgrey, ``assassin`` = black. In
``more_data.json`` (no colours) ``blue`` = the intended words and ``red`` = every other
remaining word for sender records; its receiver records have no colours.

Damage, counted: one Polygon word has the colour ``"contract"`` (the word itself typed into
the colour field); its colour is inferred from the board's 9/8/7/1 distribution. Clue numbers
``"inf"`` (unlimited) become ``number=None`` (flagged). Stray keys ``previous guess(es)`` in
``codenamesexp.json`` are ignored. One spymaster named a neutral word as a target: it is
removed from ``targets`` (kept in ``meta["targets_not_team_words"]``). An item listed twice
in the group files keeps its later row (counted as dropped; not in the real files).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from wordgames.codenames.human_data._common import (
    INTEGER,
    check_record,
    norm,
    norm_all,
    read_csv_rows,
    read_csv_table,
    read_json,
    show,
    word,
    words,
)
from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord, LoadedHumanData
from wordgames.errors import DataFormatError
from wordgames.textio import BAD_WORD_CHARS, parse_json

GAME_FILES = ("codenamesexp.json", "data_Polygon.json", "data_MCDM.json", "more_data.json")
STUDY_FILE = "derived/eval_study_responses_deidentified.csv"
GROUP_FILES = tuple(f"eval_study_groups/group{i}.csv" for i in range(1, 9))
STUDY_COLUMNS = [
    "group",
    "list_number",
    "scenario",
    "item",
    "question_id",
    "participant",
    "board_words",
    "board_colors",
    "team_turn",
    "given_clue",
    "given_clue_number",
    "response_clue",
    "response_clue_number",
    "response_words",
]
COLOURS = {
    "blue": "blue",
    "red": "red",
    "white": "neutral",
    "lightgrey": "neutral",
    "black": "assassin",
}
ROUND_KEYS = ("team", "remaining words", "clue", "guesses")


def _split_colours(words, colour_of: dict, team: str) -> dict[str, tuple[str, ...]]:
    """Board words by canonical colour for the team ``team`` (``blue``/``red``)."""
    out = {"blue": [], "red": [], "neutral": [], "assassin": []}
    for w in words:
        c = colour_of[w]
        if c in ("blue", "red"):
            out["blue" if c == team else "red"].append(w)
        else:
            out[COLOURS[c]].append(w)
    return {k: tuple(v) for k, v in out.items()}


def _game_colours(path: Path | None, game: str, raw: object, data: LoadedHumanData) -> dict:
    """``word -> colour`` of a game's ``color distribution`` (checked); one bad colour repaired."""
    where = f"{game}: 'color distribution'"
    if not isinstance(raw, dict):
        raise DataFormatError(path, None, f"{where}: expected an object word -> colour")
    colours = {word(path, None, w, where): word(path, None, c, where) for w, c in raw.items()}
    if len(colours) != len(raw):
        raise DataFormatError(path, None, f"{where}: a word is listed twice")
    bad = [w for w, c in colours.items() if c not in COLOURS]
    if not bad:
        return colours
    counts = Counter(c for c in colours.values() if c in COLOURS)
    counts["white"] += counts.pop("lightgrey", 0)
    # a standard board: starting team 9, other team 8, 7 bystanders, 1 assassin
    target = Counter({"white": 7, "black": 1})
    first = max(("blue", "red"), key=lambda t: counts[t])
    target[first] = 9
    target["red" if first == "blue" else "blue"] = 8
    missing = target - counts
    if len(bad) == 1 and sum(missing.values()) == 1:
        colours[bad[0]] = next(iter(missing))
        data.count("repairs", "itsluisa: invalid colour inferred from the 9/8/7/1 distribution")
    else:
        for w in bad:
            colours[w] = "white"
            data.count("flagged", "itsluisa: unknown colour treated as neutral")
    return colours


def _number(path: Path, line: int | None, where: str, value: object, data) -> int | None:
    """A clue number: an integer, ``"inf"`` (unlimited: ``None``, flagged) or empty (``None``)."""
    if type(value) is int:
        return value
    text = value.strip(" ").lower() if isinstance(value, str) else None
    if text in ("inf", "infinity", "unlimited"):
        data.count("flagged", "itsluisa: unlimited clue number ('inf') kept as number=None")
        return None
    if text == "":
        return None
    if text is not None and INTEGER.fullmatch(text):
        return int(text)
    raise DataFormatError(
        path, line, f"{where}: a clue number must be a whole number or 'inf', found {show(value)}"
    )


def _load_games(base: Path, data: LoadedHumanData) -> None:
    for fname in GAME_FILES:
        path = base / fname
        doc = read_json(path)
        if not isinstance(doc, dict):
            raise DataFormatError(path, 1, "expected an object keyed by 'game N'")
        source = fname.removesuffix(".json")
        for game, content in doc.items():
            if not isinstance(content, dict) or "color distribution" not in content:
                raise DataFormatError(
                    path,
                    None,
                    f"{show(game)}: expected an object with a 'color distribution' and "
                    "'round K' entries",
                )
            colours = _game_colours(path, show(game), content["color distribution"], data)
            for rkey, rnd in content.items():
                if not rkey.startswith("round"):
                    continue
                where = f"{show(game)} {show(rkey)}"
                if not isinstance(rnd, dict):
                    raise DataFormatError(path, None, f"{where}: expected an object")
                missing = [k for k in ROUND_KEYS if k not in rnd]
                if missing:
                    raise DataFormatError(path, None, f"{where}: missing {missing}")
                rid = f"{source}/{game.replace(' ', '')}/{rkey.replace(' ', '')}"
                meta = {"source": source, "game": game, "round": rkey}
                _round_records(
                    path, where, _round(path, where, rnd, data), rid, meta, colours, data
                )
    data.notes.append(
        "itsluisa game rounds: blue = the playing team's remaining words, red = the other "
        "team's, neutral = white, assassin = black; more_data.json has no colours (sender blue "
        "= intended words)."
    )


def _round(path: Path, where: str, rnd: dict, data: LoadedHumanData) -> dict:
    """The fields of a game round, each word checked and normalised."""
    clue = rnd["clue"]
    if not (isinstance(clue, list) and len(clue) == 2):
        raise DataFormatError(path, None, f"{where}: 'clue' must be [word, number]")
    return {
        "board": words(path, None, rnd["remaining words"], f"{where}: 'remaining words'"),
        "team": word(path, None, rnd["team"], f"{where}: 'team'"),
        "clue": word(path, None, clue[0], f"{where}: 'clue'"),
        "number": _number(path, None, where, clue[1], data),
        "guesses": words(path, None, rnd["guesses"], f"{where}: 'guesses'"),
        "intended": words(
            path, None, rnd.get("intended words") or [], f"{where}: 'intended words'"
        ),
        "wrong": words(path, None, rnd.get("wrong guesses") or [], f"{where}: 'wrong guesses'"),
    }


def _round_sender(r: dict, rid: str, meta: dict, colours: dict, data) -> HumanSenderRecord | None:
    """The sender record of a round (``r`` from :func:`_round`), or ``None`` (counted)."""
    board, team, intended = r["board"], r["team"], r["intended"]
    if colours:
        split = _split_colours(board, colours, team)
        return HumanSenderRecord(
            dataset=data.dataset,
            record_id=rid,
            blue=split["blue"],
            red=split["red"],
            clue=r["clue"],
            targets=intended,
            number=r["number"],
            neutral=split["neutral"],
            assassin=split["assassin"],
            meta=meta,
        )
    if intended:
        return HumanSenderRecord(
            dataset=data.dataset,
            record_id=rid,
            blue=intended,
            red=tuple(w for w in board if w not in set(intended)),
            clue=r["clue"],
            targets=intended,
            number=r["number"],
            meta={**meta, "colours": "none: blue = intended words"},
        )
    data.count("dropped", "itsluisa: round without colours or intended words (sender)")
    return None


def _round_records(path, where, r: dict, rid, meta, colours, data: LoadedHumanData) -> None:
    """Add the sender and receiver records of a game round (``r`` from :func:`_round`)."""
    board, team, guesses = r["board"], r["team"], r["guesses"]
    meta = {**meta, "team": team}
    if r["number"] is None:
        meta["unlimited"] = True
    if colours and (team not in ("blue", "red") or not set(board) <= set(colours)):
        data.count("dropped", "itsluisa: round with an unknown team or uncoloured word")
        return
    sender = _round_sender(r, rid, meta, colours, data)
    if sender is not None:
        check_record(path, None, sender, where)
        data.sender.append(sender)
    if not guesses:
        data.count("dropped", "itsluisa: round without guesses (receiver)")
        return
    if not set(guesses) <= set(board):
        data.count("dropped", "itsluisa: guess not on the remaining board")
        return
    split = _split_colours(board, colours, team) if colours else {}
    receiver = HumanReceiverRecord(
        dataset=data.dataset,
        record_id=rid,
        board=board,
        clue=r["clue"],
        chosen=guesses,
        clue_source="human",
        number=r["number"],
        intended=r["intended"],
        blue=split.get("blue", ()),
        red=split.get("red", ()),
        neutral=split.get("neutral", ()),
        assassin=split.get("assassin", ()),
        meta={**meta, "wrong_guesses": list(r["wrong"])},
    )
    check_record(path, None, receiver, where)
    data.receiver.append(receiver)


def _no_control(path: Path, line: int, row: list[str]) -> None:
    """Raise :class:`DataFormatError` when a field of a CSV row holds a control character."""
    found = BAD_WORD_CHARS.search("".join(row))
    if found:
        raise DataFormatError(
            path, line, f"a field holds the control character U+{ord(found.group()):04X}"
        )


def _read_groups(base: Path, data: LoadedHumanData | None = None) -> dict[tuple, list[str]]:
    """``(group, scenario, item) -> the 10 fields`` of the eval-study item files.

    An item listed twice keeps its later row (counted in ``data``).
    """
    items = {}
    for fname in GROUP_FILES:
        path = base / fname
        for line, row in read_csv_rows(path, delimiter=";", data=data):
            if not any(row):
                continue
            if len(row) != 10:
                raise DataFormatError(
                    path, line, f"expected 10 ';'-separated fields, found {len(row)}"
                )
            _no_control(path, line, row)
            key = (row[0].strip(), row[1].strip(), row[2].strip())
            if key in items and data is not None:
                data.count("dropped", "itsluisa study: item listed twice (the later row kept)")
            items[key] = row
    return items


@dataclass(frozen=True)
class _Response:
    """One row of the evaluation study, parsed and checked, before it becomes a record.

    Attributes
    ----------
    row : the raw CSV row (``scenario``, ``group``, ``item``, the given and response clues)
    line : its line in the CSV file (header = line 1)
    board : the board words, lower-cased, in file order
    split : the board words by canonical colour for the team whose turn it is
    words : the response words (spymaster: intended targets; operative: picks)
    record_id : ``study/g<group>/<scenario>/<item>/<participant>``
    meta : the record's ``meta``
    """

    row: Any
    line: int
    board: tuple[str, ...]
    split: dict[str, tuple[str, ...]]
    words: tuple[str, ...]
    record_id: str
    meta: dict


def _read_study(path: Path, data: LoadedHumanData | None = None) -> tuple[pd.DataFrame, list]:
    """The evaluation-study responses (every field a string, the columns checked), their lines."""
    lines, rows = read_csv_table(path, STUDY_COLUMNS, data)
    for line, row in zip(lines, rows, strict=True):
        _no_control(path, line, row)
    return pd.DataFrame(rows, columns=STUDY_COLUMNS, dtype=object), lines


def _parse_response(path: Path, line: int, row, board: tuple[str, ...], cols: list) -> _Response:
    """Check one study row (board/colour alignment, ``response_words`` JSON) and parse it.

    Parameters
    ----------
    path : Path
        The study CSV (for error messages).
    line : int
        The row's line in that file.
    row : namedtuple
        The row, as :meth:`pandas.DataFrame.itertuples` gives it.
    board, cols : sequence of str
        The row's board words and their colours, lower-cased and split.

    Returns
    -------
    _Response

    Raises
    ------
    DataFormatError
        The board and its colours do not align, or ``response_words`` is not a JSON list.
    """
    if len(board) != len(cols) or not set(cols) <= set(COLOURS):
        raise DataFormatError(
            path,
            line,
            f"board_words and board_colors must align, with colours among {', '.join(COLOURS)}",
        )
    team = norm(row.team_turn)
    if team not in ("blue", "red"):
        raise DataFormatError(path, line, f"team_turn must be blue or red, found {show(team)}")
    picked = parse_json(
        row.response_words or "[]", path, line, "response_words: expected a JSON list ({})"
    )
    return _Response(
        row=row,
        line=line,
        board=board,
        split=_split_colours(board, dict(zip(board, cols, strict=True)), team),
        words=words(path, line, picked, "response_words"),
        record_id=f"study/g{row.group}/{row.scenario}/{row.item}/{row.participant}",
        meta={
            "source": "eval_study",
            "group": row.group,
            "item": row.item,
            "participant": row.participant,
            "line": line,
        },
    )


def _spymaster_record(path: Path, resp: _Response, data: LoadedHumanData) -> None:
    """Add the sender record of a spymaster response, or count why it is dropped."""
    row, split, targets, meta = resp.row, resp.split, resp.words, resp.meta
    clue = norm(row.response_clue)
    if not clue:
        data.count("dropped", "itsluisa study: spymaster response without a clue")
        return
    stray = [w for w in targets if w not in set(split["blue"])]
    if stray:
        # a participant named a non-team word as a target: the clue stays a human clue
        # for this board; the target list keeps the team words only
        targets = tuple(w for w in targets if w not in stray)
        meta = {**meta, "targets_not_team_words": stray}
        data.count(
            "repairs",
            "itsluisa study: spymaster target that is not a team word removed from targets",
        )
    number = _number(path, resp.line, "response_clue_number", row.response_clue_number, data)
    record = HumanSenderRecord(
        dataset=data.dataset,
        record_id=resp.record_id,
        blue=split["blue"],
        red=split["red"],
        clue=clue,
        targets=targets,
        number=number if number is not None else (len(targets) or None),
        neutral=split["neutral"],
        assassin=split["assassin"],
        meta=meta,
    )
    check_record(path, resp.line, record)
    data.sender.append(record)


def _operative_record(path: Path, resp: _Response, groups: dict, data: LoadedHumanData) -> None:
    """Add the receiver record of an operative response, or count why it is dropped.

    ``groups`` are the item files (:func:`_read_groups`): the item must be there with the same
    board, and its field 9 gives the clue giver's intended words.
    """
    row, split = resp.row, resp.split
    item = groups.get((row.group, "operative", row.item))
    if item is None or tuple(item[3].lower().split()) != resp.board:
        data.count("dropped", "itsluisa study: operative item missing from its group file")
        return
    if not resp.words or not set(resp.words) <= set(resp.board):
        data.count("dropped", "itsluisa study: operative picks empty or not on the board")
        return
    record = HumanReceiverRecord(
        dataset=data.dataset,
        record_id=resp.record_id,
        board=resp.board,
        clue=norm(row.given_clue),
        chosen=resp.words,
        clue_source="experimenter",
        number=_number(path, resp.line, "given_clue_number", row.given_clue_number, data),
        intended=norm_all(item[8].split()),
        blue=split["blue"],
        red=split["red"],
        neutral=split["neutral"],
        assassin=split["assassin"],
        meta=resp.meta,
    )
    check_record(path, resp.line, record)
    data.receiver.append(record)


def _load_study(base: Path, data: LoadedHumanData) -> None:
    """Add the records of the evaluation study: one per spymaster or operative response."""
    path = base / STUDY_FILE
    df, lines = _read_study(path, data)
    groups = _read_groups(base, data)
    boards = df["board_words"].str.lower().str.split()
    colour_lists = df["board_colors"].str.lower().str.split()
    for i, row in enumerate(df.itertuples(index=False)):
        line = lines[i]
        resp = _parse_response(path, line, row, tuple(boards[i]), colour_lists[i])
        if row.scenario == "spymaster":
            _spymaster_record(path, resp, data)
        elif row.scenario == "operative":
            _operative_record(path, resp, groups, data)
        else:
            raise DataFormatError(
                path, line, f"scenario must be 'operative' or 'spymaster', found {row.scenario!r}"
            )
    data.notes.append(
        "itsluisa eval study (Prolific): spymaster responses -> sender records (targets = the "
        "participant's intended words, empty for 40), operative responses -> receiver records "
        "(clue from the experimenter, origin undocumented; intended = group-file field 9)."
    )


def load(base: Path, data: LoadedHumanData) -> None:
    """Fill ``data`` with the records of the games and of the study (see the module docstring)."""
    _load_games(base, data)
    _load_study(base, data)
