"""The trained CBM runs that ship inside wordgames (``wordgames/reproductions/cbm/``).

The 24 runs of docs/cbm-games.md (the 8 presets of the paper's Table 1 and the 16 experiments
of its appendix D) are kept as their logs, in the wheel too. The CBM measure evaluates the
Table 1 runs when no ``--cbm-log`` is given, so the main job computes every measure family.
"""

from __future__ import annotations

from pathlib import Path

#: the file a run folder holds its held-out messages in (what ``wordgames cbm train`` writes)
MESSAGES = "messages.jsonl.gz"


def shipped_folder() -> Path:
    """The folder of the shipped runs (it may be missing from a stripped install)."""
    return Path(__file__).resolve().parents[1] / "reproductions" / "cbm"


def shipped_logs(table: str = "1") -> list[Path]:
    """The message logs of the shipped runs of the paper's ``table`` ("1", "3" or "4").

    Examples
    --------
    >>> [p.parent.name for p in shipped_logs()][:3]
    ['shape-gs-l1', 'shape-gs-l4', 'shape-qt-l1']
    >>> len(shipped_logs())
    8
    """
    from wordgames.emergent.games.presets import PRESETS

    folder = shipped_folder()
    names = sorted(n for n, p in PRESETS.items() if p.table == table)
    return [folder / n / MESSAGES for n in names if (folder / n / MESSAGES).is_file()]


def log_name(path: str | Path) -> str:
    """The name a log's scores carry in ``dataset``: its file stem, or its run's folder.

    A run folder's ``messages.*`` file takes the folder's name, so the runs stay apart.

    Examples
    --------
    >>> log_name("runs/thing-qt-l1/messages.jsonl.gz"), log_name("my_game.jsonl")
    ('thing-qt-l1', 'my_game')
    """
    path = Path(path)
    if path.name.split(".")[0] == "messages" and path.parent.name not in ("", ".", ".."):
        return path.parent.name
    return path.stem
