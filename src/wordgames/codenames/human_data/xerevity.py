"""Loader of Cserháti, Kollath, Kicsi & Berend (2022), English evaluation data.

"Codenames as a Game of Co-occurrence Counting" (xerevity/CodeNamesAgent).

Human Receiver data on model clues only: volunteers saw a 20-word board (10 good, 10 bad words;
no neutral or assassin) and one agent clue with its number, and clicked words in order.

Files (no headers except the responses): ``boards_en.csv`` (board id, 20 words),
``board_colors.csv`` (board id, 20 codes: **2 = good = canonical blue, 1 = bad = canonical red**,
the words to avoid), ``clues.csv`` (``;``-separated: board id, then ``clue;number`` pairs, clue
*k* (0-based) at fields 2k+1, 2k+2), ``dataclips_userdata_en.csv`` (``tablaid`` = board,
``utalasid`` = 0-based clue index, ``tipp`` = number of guesses, ``tipp1..tipp12`` = guesses in
click order; the ``sessionid`` hash is never loaded into records) and ``<relatedness>_en.csv``
(board, scoring function, clue, number: which agent configuration gave which clue).

``clue_source`` is the relatedness source(s) whose agents produced that (board, clue, number),
joined with ``+`` (e.g. ``"fasttext"``, ``"graph+sqrt"``); every producing configuration is in
``meta["configs"]``. The agents' intended words were not stored: ``intended`` is empty.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import pandas as pd

from wordgames.codenames.human_data._common import norm, norm_all, read_csv_rows
from wordgames.codenames.records import HumanReceiverRecord, LoadedHumanData
from wordgames.errors import DataFormatError

RESPONSES = "dataclips_userdata_en.csv"
RESPONSE_COLUMNS = ["sessionid", "tablaid", "utalasid", "kezdes", "befejezes", "tipp"] + [
    f"tipp{i}" for i in range(1, 13)
]
RELATEDNESS = ("fasttext", "graph", "sqrt", "sqrt2")


def _boards(base: Path) -> tuple[dict[int, tuple], dict[int, np.ndarray]]:
    words, colours = {}, {}
    for fname, store in (("boards_en.csv", words), ("board_colors.csv", colours)):
        path = base / fname
        for line, row in read_csv_rows(path):
            if not any(row):
                continue
            if len(row) != 21 or not row[0].strip().isdigit():
                raise DataFormatError(
                    path, line, f"expected a board id and 20 fields, found {len(row)} fields"
                )
            store[int(row[0])] = row[1:]
    path = base / "board_colors.csv"
    out_colours = {}
    for b, codes in colours.items():
        codes = [c.strip() for c in codes]
        if not set(codes) <= {"1", "2"}:
            raise DataFormatError(
                path, None, f"board {b}: colour codes must be 1 (bad) or 2 (good)"
            )
        out_colours[b] = np.array(codes) == "2"
    return {b: norm_all(w) for b, w in words.items()}, out_colours


def _clues(base: Path) -> dict[int, list[tuple[str, int]]]:
    path = base / "clues.csv"
    out = {}
    for line, row in read_csv_rows(path, delimiter=";"):
        if not any(row):
            continue
        fields = list(row[1:])
        while fields and not fields[-1].strip():
            fields.pop()
        if len(fields) % 2 or not row[0].strip().isdigit():
            raise DataFormatError(path, line, "expected a board id and clue;number pairs")
        try:
            out[int(row[0])] = [
                (norm(fields[i]), int(fields[i + 1])) for i in range(0, len(fields), 2)
            ]
        except ValueError as exc:
            raise DataFormatError(path, line, f"a clue number is not an integer ({exc})") from exc
    return out


def _configs(base: Path) -> dict[tuple[int, str, int], list[str]]:
    out = defaultdict(list)
    for rel in RELATEDNESS:
        path = base / f"{rel}_en.csv"
        for line, row in read_csv_rows(path):
            if not any(row):
                continue
            if len(row) != 4:
                raise DataFormatError(
                    path,
                    line,
                    f"expected 4 fields (board, scoring, clue, number), found {len(row)}",
                )
            out[(int(row[0]), norm(row[2]), int(row[3]))].append(f"{rel}/{row[1].strip()}")
    return out


def load(base: Path, data: LoadedHumanData) -> None:
    """Fill ``data`` with the human receiver records (see the module docstring)."""
    boards, good = _boards(base)
    clues = _clues(base)
    configs = _configs(base)
    path = base / RESPONSES
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    if list(df.columns) != RESPONSE_COLUMNS:
        raise DataFormatError(path, 1, f"expected the columns {', '.join(RESPONSE_COLUMNS)}")
    picks = df[[f"tipp{i}" for i in range(1, 13)]].apply(lambda c: c.str.strip().str.lower())
    n_picks = picks.ne("").sum(axis=1).to_numpy()
    declared = pd.to_numeric(df["tipp"], errors="coerce").to_numpy()
    board_ids = pd.to_numeric(df["tablaid"], errors="coerce")
    clue_ids = pd.to_numeric(df["utalasid"], errors="coerce")
    bad = board_ids.isna() | clue_ids.isna()
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise DataFormatError(path, i + 2, "tablaid and utalasid must be integers")
    pick_lists = picks.to_numpy().tolist()
    for i, (b, k) in enumerate(zip(board_ids.astype(int), clue_ids.astype(int), strict=True)):
        if b not in boards or b not in clues or not 0 <= k < len(clues[b]):
            data.count("dropped", "xerevity: response to an unknown board or clue index")
            continue
        board, clue_number = boards[b], clues[b][k]
        chosen = tuple(w for w in pick_lists[i] if w)
        if n_picks[i] != declared[i]:
            data.count(
                "repairs", "xerevity: 'tipp' count differs from the filled guesses (guesses kept)"
            )
        if not chosen or not set(chosen) <= set(board) or len(set(chosen)) != len(chosen):
            data.count("dropped", "xerevity: guesses empty, repeated or not on the board")
            continue
        clue, number = clue_number
        made_by = sorted(configs.get((b, clue, number), []))
        if not made_by:
            data.count("flagged", "xerevity: clue of no listed agent configuration")
        source = "+".join(sorted({c.split("/")[0] for c in made_by})) or "unknown"
        mask = good[b]
        data.receiver.append(
            HumanReceiverRecord(
                dataset=data.dataset,
                record_id=f"r{i}",
                board=board,
                clue=clue,
                chosen=chosen,
                clue_source=source,
                number=number,
                blue=tuple(w for w, g in zip(board, mask, strict=True) if g),
                red=tuple(w for w, g in zip(board, mask, strict=True) if not g),
                meta={"board": b, "clue_index": k, "configs": made_by, "line": i + 2},
            )
        )
    data.notes.append(
        "Cserháti et al. 2022 (English): human guessers on agent clues, 20-word boards of 10 "
        "good (blue) and 10 bad (red = words to avoid) words. No sender data, no intended words."
    )
