"""Loader of "Cultural Codes" (Shaikh et al. 2023, SALT-NLP): Codenames Duet, val + test splits.

Three task files per split, aligned row by row (each row is one turn):

* ``target_selection_task``: ``base_text = "green: [...], black: [...], tan: [...]"`` -- the clue
  giver's key (green: the giver's unfound agents; black: 3 assassins; tan: bystanders),
  ``output`` = the target word(s) the giver chose;
* ``clue_generation_task``: ``"black: [...], tan: [...], targets: [...]"``, ``output`` = the
  human clue;
* ``generate_guess_task``: ``"remaining: [...], hint: <clue>"`` (the board as the guesser sees
  it), ``output`` = the human guesser's picks in order.

Canonical colours: ``blue`` = green, ``assassin`` = black, ``neutral`` = tan; Duet has no
opponent, so ``red`` is empty (every word to avoid is in ``avoid``). Only ``base_text`` and
``output`` are read: the other columns hold player demographics and are never loaded.

Damage, counted: the val clue-generation turn ``pass``/``bus`` is there twice (rows 65-66) but
once in target selection; the repeated sender turn is dropped as a duplicate (its guess row is
kept: the first of the two has no guess); so is the turn ``space, light, beat``/``sound`` (val rows
254-255, there in all three files, the first again without a guess). Guess rows with no guess
(13) are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from wordgames.codenames.human_data._common import norm
from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord, LoadedHumanData
from wordgames.errors import DataFormatError

SPLITS = ("val", "test")
TASKS = {
    "target_selection_task": r"^green: \[(?P<green>.*)\], black: \[(?P<black>.*)\], tan: \[(?P<tan>.*)\]$",
    "clue_generation_task": r"^black: \[(?P<black>.*)\], tan: \[(?P<tan>.*)\], targets: \[(?P<targets>.*)\]$",
    "generate_guess_task": r"^remaining: \[(?P<remaining>.*)\], hint: (?P<hint>.*)$",
}


def _word_lists(s: pd.Series) -> pd.Series:
    """``"'a', 'Ice cream'"`` -> ``('a', 'ice cream')`` for a whole column at once.

    Parses the quoted items of a Python list literal; an item may hold an apostrophe inside double
    quotes.
    """
    inner = s.str.strip().str.lower().str[1:-1]  # drop the first and last quote
    parts = inner.str.split(r"['\"]\s*,\s*['\"]", regex=True)
    return parts.map(lambda items: tuple(w for w in (x.strip() for x in items) if w))


def _comma_lists(s: pd.Series) -> pd.Series:
    parts = s.fillna("").str.lower().str.split(",")
    return parts.map(lambda items: tuple(w for w in (x.strip() for x in items) if w))


def read_task(path: Path, task: str) -> pd.DataFrame:
    """The parsed ``base_text`` fields and ``output`` of one task file (demographics unread)."""
    try:
        df = pd.read_csv(path, usecols=["base_text", "output"], dtype=str, keep_default_na=False)
    except ValueError as exc:  # a missing column
        raise DataFormatError(
            path, 1, f"expected columns 'base_text' and 'output' ({exc})"
        ) from exc
    except pd.errors.ParserError as exc:
        raise DataFormatError(path, None, f"unreadable CSV: {exc}") from exc
    parts = df["base_text"].str.strip().str.extract(TASKS[task])
    bad = parts.isna().any(axis=1).to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise DataFormatError(
            path,
            None,
            f"data row {i + 1}: base_text {df['base_text'][i][:60]!r} "
            f"does not match the {task} layout {TASKS[task]!r}",
        )
    out = pd.DataFrame(index=df.index)
    for col in parts.columns:
        out[col] = parts[col].str.strip() if col == "hint" else _word_lists(parts[col])
    out["output"] = df["output"]
    return out


def load(base: Path, data: LoadedHumanData) -> None:
    """Fill ``data`` with a sender and a receiver record per turn (see the module docstring)."""
    for split in SPLITS:
        ts = read_task(base / "target_selection_task" / f"{split}.csv", "target_selection_task")
        cg = read_task(base / "clue_generation_task" / f"{split}.csv", "clue_generation_task")
        gg = read_task(base / "generate_guess_task" / f"{split}.csv", "generate_guess_task")
        if len(cg) != len(gg):
            raise DataFormatError(
                base / "generate_guess_task" / f"{split}.csv",
                None,
                f"expected {len(cg)} rows (one per clue-generation row), found {len(gg)}",
            )
        _load_split(split, ts, cg, gg, data, base / "target_selection_task" / f"{split}.csv")
    data.notes.append(
        "Cultural Codes (Codenames Duet), val + test splits only (828 of 7,703 turns): one sender "
        "and one receiver record per turn. blue = the giver's green words, assassin = black, "
        "neutral = tan, red empty (Duet has no opponent)."
    )


@dataclass(frozen=True)
class _Turn:
    """One turn of a split: its clue-generation row with the target-selection and guess rows.

    Attributes
    ----------
    split : ``"val"`` or ``"test"``
    row : the clue-generation (and guess) row, 0-based
    ts_row : the target-selection row aligned with it
    key_matches : whether that target-selection row has the same key (black, tan) and targets
    logged_twice : whether the turn repeats the previous row (same key, targets as a set, clue)
    hint_matches : whether the guess row's hint is the clue
    green, black, tan : the giver's key (unfound agents, assassins, bystanders)
    targets, clue : the giver's targets and clue
    remaining, chosen : the board the guesser saw and the guesser's picks in order
    """

    split: str
    row: int
    ts_row: int
    key_matches: bool
    logged_twice: bool
    hint_matches: bool
    green: tuple[str, ...]
    black: tuple[str, ...]
    tan: tuple[str, ...]
    targets: tuple[str, ...]
    clue: str
    remaining: tuple[str, ...]
    chosen: tuple[str, ...]

    @property
    def record_id(self) -> str:
        """``<split>/<row>``, the id of both records of the turn."""
        return f"{self.split}/{self.row}"


def _repeated_turns(cg: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Clue-generation rows repeating the row before: ``(targets in the same order, as a set)``.

    A turn repeated on the next row (same key, targets and clue) is one turn logged twice.
    Where the repeat has the targets in the same order it is missing from target selection
    (val rows 65-66); in another order it is there too (val rows 254-255). ``cg`` needs the
    normalised ``clue`` column.
    """
    board_key = cg["black"].map("|".join) + "#" + cg["tan"].map("|".join) + "#" + cg["clue"]
    exact = board_key + "#" + cg["targets"].map("|".join)
    as_set = board_key + "#" + cg["targets"].map(lambda t: "|".join(sorted(t)))
    return (exact == exact.shift()).to_numpy(), (as_set == as_set.shift()).to_numpy()


def _aligned_turns(
    split: str, ts: pd.DataFrame, cg: pd.DataFrame, gg: pd.DataFrame, ts_path: Path
) -> list[_Turn]:
    """The turns of a split: the three task files (from :func:`read_task`) aligned row by row.

    Raises
    ------
    DataFormatError
        Target selection does not have one row per distinct clue-generation turn.
    """
    cg = cg.assign(clue=cg["output"].map(norm))
    dup_exact, dup = _repeated_turns(cg)
    ts_row = np.cumsum(~dup_exact) - 1  # the target-selection row of each clue-generation row
    if ts_row[-1] + 1 != len(ts):
        raise DataFormatError(
            ts_path,
            None,
            f"expected {ts_row[-1] + 1} rows (one per distinct "
            f"clue-generation turn), found {len(ts)}",
        )
    tsm = ts.iloc[ts_row].reset_index(drop=True)
    ts_targets = _comma_lists(tsm["output"])
    match = (
        (tsm["black"] == cg["black"])
        & (tsm["tan"] == cg["tan"])
        & (ts_targets.map(frozenset) == cg["targets"].map(frozenset))
    ).to_numpy()
    hint_ok = (gg["hint"].map(norm) == cg["clue"]).to_numpy()
    greens, blacks, tans = tsm["green"].tolist(), tsm["black"].tolist(), tsm["tan"].tolist()
    all_targets, clues = cg["targets"].tolist(), cg["clue"].tolist()
    boards, all_guesses = gg["remaining"].tolist(), _comma_lists(gg["output"]).tolist()
    return [
        _Turn(
            split=split,
            row=i,
            ts_row=int(ts_row[i]),
            key_matches=bool(match[i]),
            logged_twice=bool(dup[i]),
            hint_matches=bool(hint_ok[i]),
            green=greens[i],
            black=blacks[i],
            tan=tans[i],
            targets=all_targets[i],
            clue=clues[i],
            remaining=boards[i],
            chosen=all_guesses[i],
        )
        for i in range(len(cg))
    ]


def _sender_record(turn: _Turn, data: LoadedHumanData) -> None:
    """Add the sender record of a turn, or count why it is dropped."""
    if turn.logged_twice:
        data.count("dropped", "salt: sender turn logged twice (same key, targets, clue)")
    elif not turn.clue or not set(turn.targets) <= set(turn.green):
        data.count("dropped", "salt: empty clue or targets not among the green words")
    else:
        data.sender.append(
            HumanSenderRecord(
                dataset=data.dataset,
                record_id=turn.record_id,
                blue=turn.green,
                red=(),
                clue=turn.clue,
                targets=turn.targets,
                number=len(turn.targets),
                neutral=turn.tan,
                assassin=turn.black,
                meta={"split": turn.split, "row": turn.row, "target_selection_row": turn.ts_row},
            )
        )


def _receiver_record(turn: _Turn, data: LoadedHumanData) -> None:
    """Add the receiver record of a turn, or count why it is dropped."""
    if not turn.hint_matches:
        data.count("dropped", "salt: guess row whose hint differs from the clue")
    elif not turn.chosen:
        data.count("dropped", "salt: guess row with no guess")
    elif not set(turn.chosen) <= set(turn.remaining):
        data.count("dropped", "salt: guess not on the remaining board")
    else:
        on_board = set(turn.remaining)
        in_key = set(turn.green) | set(turn.black) | set(turn.tan)
        data.receiver.append(
            HumanReceiverRecord(
                dataset=data.dataset,
                record_id=turn.record_id,
                board=turn.remaining,
                clue=turn.clue,
                chosen=turn.chosen,
                clue_source="human",
                number=len(turn.targets),
                intended=turn.targets,
                blue=tuple(w for w in turn.green if w in on_board),
                red=(),
                neutral=tuple(w for w in turn.tan if w in on_board),
                assassin=tuple(w for w in turn.black if w in on_board),
                meta={
                    "split": turn.split,
                    "row": turn.row,
                    "not_in_giver_key": [w for w in turn.remaining if w not in in_key],
                },
            )
        )


def _load_split(
    split: str,
    ts: pd.DataFrame,
    cg: pd.DataFrame,
    gg: pd.DataFrame,
    data: LoadedHumanData,
    ts_path: Path,
) -> None:
    """Add a sender and a receiver record per turn of one split, or count why each is dropped.

    Parameters
    ----------
    split : str
        ``"val"`` or ``"test"``.
    ts, cg, gg : pandas.DataFrame
        The target-selection, clue-generation and guess task files (:func:`read_task`).
    data : LoadedHumanData
        Where the records and counts go.
    ts_path : Path
        The target-selection file, for error messages.
    """
    for turn in _aligned_turns(split, ts, cg, gg, ts_path):
        if not turn.key_matches:
            data.count("dropped", "salt: turn without a matching target-selection row")
            continue
        _sender_record(turn, data)
        _receiver_record(turn, data)
