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

from functools import lru_cache
from pathlib import Path

from wordgames.codenames.human_data.paper_tables import read_receiver_table, read_sender_table
from wordgames.codenames.human_data.user_format import read_user_file, write_user_jsonl
from wordgames.codenames.records import LoadedHumanData


def _loaders() -> dict[str, str]:
    """``{data set: "module:function"}``: each declared Codenames data set and its loader."""
    from wordgames.codenames.spec import DATASETS
    from wordgames.datasets import get_dataset

    return {name: get_dataset(name).loader for name in DATASETS}


#: declared data set name -> its loader (``load(base, data, **options)``, named by the
#: declaration's ``loader``). The order is the order of listings (the pilot, then by name).
HUMAN_DATASETS: dict[str, str] = _loaders()


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


def load_human_data(
    name: str, root: str | Path | None = None, *, verify: bool = True, **options
) -> LoadedHumanData:
    """Load one declared human data set into canonical records.

    Parameters
    ----------
    name : a name from :data:`HUMAN_DATASETS` (``codenames-pilot``, ``codenames-human-salt``...)
    root : data root (``None``: ``$WORDGAMES_DATA``)
    verify : check every file's sha256 against its declaration (the default). ``False`` is for
        tests and the fuzz bench, which load modified copies of the files: the files are parsed
        afresh each call (nothing is cached) and ``files`` holds their actual sha256
    **options : loader options (e.g. ``prefilled="drop"`` for the pilot, see each module)

    Returns
    -------
    LoadedHumanData
        a fresh copy each call (the parsed data is cached per root and options)

    Raises
    ------
    UnknownDatasetError : ``name`` is not a human Codenames data set (a ``KeyError`` too)
    DatasetMissingError : the files are not under the data root
    ChecksumMismatchError : a file differs from the declared one (only when ``verify``)
    DataFormatError : a file is malformed beyond the documented, repairable damage
    """
    if name not in HUMAN_DATASETS:
        from wordgames.errors import UnknownDatasetError

        raise UnknownDatasetError(
            f"{name!r} is not a human Codenames data set; known: {', '.join(HUMAN_DATASETS)}"
        )
    from wordgames.datasets import data_root

    if not verify:
        return _load(name, data_root(root), options, strict=False)
    base_root = str(data_root(root).resolve())
    cached = _load_cached(name, base_root, tuple(sorted(options.items())))
    return _copy(cached)


@lru_cache(maxsize=32)
def _load_cached(name: str, root: str, options: tuple) -> LoadedHumanData:
    return _load(name, Path(root), dict(options), strict=True)


def _load(name: str, root: Path, options: dict, *, strict: bool) -> LoadedHumanData:
    """Parse data set ``name`` under ``root``; ``strict``: every sha256 must be the declared one."""
    from wordgames.datasets import dataset_dir, verify_dataset

    base = dataset_dir(name, root)
    data = LoadedHumanData(dataset=name, files=verify_dataset(name, root, strict=strict))
    from wordgames.measure import load_entry

    load_entry(HUMAN_DATASETS[name])(base, data, **options)
    _check_unique_ids(base, data)
    return data


def _check_unique_ids(base: Path, data: LoadedHumanData) -> None:
    """Raise :class:`DataFormatError` when two records of one kind share an id."""
    from wordgames.errors import DataFormatError

    for kind, records in (("receiver", data.receiver), ("sender", data.sender)):
        ids = [r.record_id for r in records]
        if len(set(ids)) != len(ids):
            seen: set[str] = set()
            twice = next(i for i in ids if i in seen or seen.add(i))
            raise DataFormatError(
                base, None, f"two {kind} records have the id {twice!r}: a row, item or key repeats"
            )


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
