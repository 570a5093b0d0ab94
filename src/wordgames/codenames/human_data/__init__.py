"""Loaders of real human Codenames play, each source mapped into the canonical records.

Every declared human data set has a loader for its own file format (one module each); they
all return :class:`~wordgames.codenames.records.LoadedHumanData`: the records, every repair
and every dropped row counted with its reason, and the sha256 of each file.

>>> from wordgames.codenames.human_data import HUMAN_DATASETS
>>> "codenames-pilot" in HUMAN_DATASETS
True

Users bring their own data as JSONL/CSV (:func:`read_user_file`, see ``docs/codenames-data.md``)
or in the paper's two table layouts (:func:`read_receiver_table`, Table 2;
:func:`read_sender_table`, Table 3).
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import Path

from wordgames.codenames.human_data.paper_tables import read_receiver_table, read_sender_table
from wordgames.codenames.human_data.user_format import read_user_file, write_user_jsonl
from wordgames.codenames.records import LoadedHumanData

#: declared data set name -> module (in this package) whose ``load(base, data, **options)``
#: reads it. The order is the order of listings.
HUMAN_DATASETS: dict[str, str] = {
    "codenames-pilot": "pilot",
    "codenames-human-salt": "salt",
    "codenames-human-noahprescott": "noahprescott",
    "codenames-human-itsluisa": "itsluisa",
    "codenames-human-xerevity": "xerevity",
    "codenames-human-heyyjudes": "heyyjudes",
    "codenames-human-stanfordhci": "stanfordhci",
}


def available_human_datasets(root: str | Path | None = None) -> list[str]:
    """Names of the declared human data sets whose files are all present under ``root``.

    ``root=None`` means ``$WORDGAMES_DATA``; an unset variable gives an empty list.
    """
    from wordgames.datasets import is_available
    from wordgames.errors import DatasetMissingError

    try:
        return [name for name in HUMAN_DATASETS if is_available(name, root)]
    except DatasetMissingError:  # no data root at all
        return []


def load_human_data(name: str, root: str | Path | None = None, **options) -> LoadedHumanData:
    """Load one declared human data set into canonical records.

    Parameters
    ----------
    name : a name from :data:`HUMAN_DATASETS` (``codenames-pilot``, ``codenames-human-salt``...)
    root : data root (``None``: ``$WORDGAMES_DATA``)
    **options : loader options (e.g. ``prefilled="drop"`` for the pilot, see each module)

    Returns
    -------
    LoadedHumanData
        a fresh copy each call (the parsed data is cached per root and options)

    Raises
    ------
    DatasetMissingError : the files are not under the data root
    ChecksumMismatchError : a file differs from the declared one
    DataFormatError : a file is malformed beyond the documented, repairable damage
    """
    if name not in HUMAN_DATASETS:
        raise KeyError(
            f"{name!r} is not a human Codenames data set; known: {', '.join(HUMAN_DATASETS)}"
        )
    from wordgames.datasets import data_root

    base_root = str(data_root(root).resolve())
    cached = _load_cached(name, base_root, tuple(sorted(options.items())))
    return _copy(cached)


@lru_cache(maxsize=32)
def _load_cached(name: str, root: str, options: tuple) -> LoadedHumanData:
    from wordgames.datasets import dataset_dir, verify_dataset

    base = dataset_dir(name, root)
    data = LoadedHumanData(dataset=name, files=verify_dataset(name, root))
    module = importlib.import_module(f"{__name__}.{HUMAN_DATASETS[name]}")
    module.load(base, data, **dict(options))
    return data


def _copy(data: LoadedHumanData) -> LoadedHumanData:
    # records are frozen; only the containers need copying so callers cannot alter the cache
    return LoadedHumanData(
        dataset=data.dataset,
        receiver=list(data.receiver),
        sender=list(data.sender),
        repairs=dict(data.repairs),
        dropped=dict(data.dropped),
        files=dict(data.files),
        notes=list(data.notes),
        flagged=dict(data.flagged),
    )


def load_all_human_data(root: str | Path | None = None) -> dict[str, LoadedHumanData]:
    """Every available human data set, loaded."""
    return {name: load_human_data(name, root) for name in available_human_datasets(root)}


__all__ = [
    "HUMAN_DATASETS",
    "available_human_datasets",
    "load_all_human_data",
    "load_human_data",
    "read_receiver_table",
    "read_sender_table",
    "read_user_file",
    "write_user_jsonl",
]
