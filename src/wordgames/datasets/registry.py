"""Declarative, validated records of the data sets, and where to find them.

Every data set is declared once (:class:`DatasetSpec`: name, folder, files with sha256,
upstream location at a pinned commit, citation, licence note). The files are never part of
this project: they are found under one data root, ``$WORDGAMES_DATA`` when set (CI and tests
point it at ``../shared/data``), otherwise the per-user folder ``$XDG_DATA_HOME/wordgames``
(``~/.local/share/wordgames``), where ``wordgames datasets fetch`` puts them.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

from wordgames.datasets.model import _REGISTRY, DataFile, DatasetSpec, register
from wordgames.errors import ChecksumMismatchError, DatasetMissingError, UnknownDatasetError

__all__ = ["DATA_ENV", "DataFile", "DatasetSpec", "register"]

DATA_ENV = "WORDGAMES_DATA"

#: the command that gets the files (named in every "not available" message)
FETCH_COMMAND = "wordgames datasets fetch"


#: the entry-point group of plug-in data sets: each entry a module that calls ``register``
ENTRY_POINT_GROUP = "wordgames.datasets"


@cache
def _load_declarations() -> None:
    # The declaration modules hold only metadata, so importing them all is cheap.
    import importlib
    from importlib.metadata import entry_points

    from wordgames.manifest import manifests

    for family in manifests():  # the families' declaration modules, built-ins first
        for module in family.datasets:
            importlib.import_module(module)
    for ep in entry_points(group=ENTRY_POINT_GROUP):  # a plug-in's declarations
        ep.load()


def all_datasets() -> dict[str, DatasetSpec]:
    """Every declared data set by name, sorted: the families' and the plug-ins'.

    Returns
    -------
    dict of str to DatasetSpec

    Examples
    --------
    >>> "word-similarity" in all_datasets()
    True
    """
    _load_declarations()
    return dict(sorted(_REGISTRY.items()))


def get_dataset(name: str) -> DatasetSpec:
    """The declaration of data set ``name``.

    Parameters
    ----------
    name : str
        A declared name (``wordgames datasets list``).

    Returns
    -------
    DatasetSpec

    Raises
    ------
    UnknownDatasetError
        For any other name, ``../`` paths included, listing the known names (a
        ``WordgamesError`` and a ``KeyError``).

    Examples
    --------
    >>> get_dataset("wales").family
    'wales'
    """
    specs = all_datasets()
    if not isinstance(name, str) or name not in specs:
        import difflib

        # a path is no typo of a name: only a name gets a suggestion
        looks_named = isinstance(name, str) and "/" not in name and ".." not in name
        close = difflib.get_close_matches(name, specs, n=1) if looks_named else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownDatasetError(f"unknown data set {name!r}{hint}, known: {', '.join(specs)}")
    return specs[name]


def declared_items(dataset: str, metric: str = "") -> int | None:
    """The declared item count behind a score on ``dataset`` (``None``: not declared).

    Parameters
    ----------
    dataset : str
        A Score's ``dataset``: a declared data set whose parts are the roles that prefix its
        metrics (``codenames-human-salt`` with ``human_receiver.map``), or a part of one (the
        puzzle set ``anomia-common-dev``, the benchmark ``men``).
    metric : str
        The Score's metric (its role prefix picks the part).

    Returns
    -------
    int or None

    Examples
    --------
    >>> declared_items("codenames-pilot", "human_receiver.map"), declared_items("men", "spearman")
    (196, 3000)
    >>> declared_items("my-own-puzzles", "pct_correct") is None
    True
    """
    specs = all_datasets()
    spec = specs.get(dataset)
    if spec is not None:
        return spec.item_count(metric.split(".")[0])
    for spec in specs.values():
        count = spec.item_count(dataset)
        if count is not None:
            return count
    return None


def _inside(root: Path, path: Path, what: str) -> Path:
    """``path``, after checking that it resolves inside ``root`` (symbolic links followed)."""
    real_root, real = root.resolve(), path.resolve()
    if real != real_root and real_root not in real.parents:
        raise DatasetMissingError(
            f"{what} {path} resolves to {real}, outside the data root {real_root}: refused"
        )
    return path


def user_data_root() -> Path:
    """The per-user data folder: ``$XDG_DATA_HOME/wordgames``, else ``~/.local/share/wordgames``.

    Examples
    --------
    >>> import os
    >>> os.environ["XDG_DATA_HOME"] = "/srv/share"
    >>> str(user_data_root())
    '/srv/share/wordgames'
    >>> del os.environ["XDG_DATA_HOME"]
    """
    xdg = os.environ.get("XDG_DATA_HOME")
    # the XDG rule: a relative value is invalid and is ignored
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "wordgames"


def data_root(root: str | Path | None = None) -> Path:
    """The data root: ``root`` if given, else ``$WORDGAMES_DATA``, else :func:`user_data_root`.

    Every command reads the same one, and ``wordgames datasets fetch`` writes there.

    Parameters
    ----------
    root : str or Path, optional
        A folder given on the command line or in Python.

    Returns
    -------
    Path

    Examples
    --------
    >>> str(data_root("/srv/data"))
    '/srv/data'
    """
    if root is not None:
        return Path(root)
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else user_data_root()


def dataset_dir(name: str, root: str | Path | None = None) -> Path:
    """The folder of data set ``name``, checked to hold every declared file.

    Parameters
    ----------
    name : str
        A declared data set.
    root : str or Path, optional
        The data root (:func:`data_root`).

    Returns
    -------
    Path

    Raises
    ------
    DatasetMissingError
        A file is missing: the message names it and the ``wordgames datasets fetch``
        command that gets it. A file that resolves outside the data root is refused too.

    Examples
    --------
    >>> try:
    ...     dataset_dir("wales", "/nonexistent")
    ... except DatasetMissingError as exc:
    ...     print(str(exc).split(". Get them with ")[1].split(" (upstream")[0])
    `wordgames datasets fetch wales`
    """
    spec = get_dataset(name)
    top = data_root(root)
    base = _inside(top, top / spec.folder, f"the folder of data set {name!r}")
    missing = [f.path for f in spec.files if not (base / f.path).is_file()]
    if missing:
        raise DatasetMissingError(
            f"data set {name!r} ({spec.title}) is not available: {len(missing)} file(s) missing under "
            f"{base} (first: {missing[0]}). Get them with `{FETCH_COMMAND} {name}` "
            f"(upstream: {spec.upstream}), or set {DATA_ENV} to a data root that holds "
            f"'{spec.folder}/'."
        )
    for f in spec.files:
        _inside(top, base / f.path, f"the file {f.path!r} of data set {name!r}")
    return base


def dataset_file(name: str, path: str, root: str | Path | None = None) -> Path:
    """The path of the declared file ``path`` of data set ``name`` (checked inside the root).

    Parameters
    ----------
    name : str
        A declared data set.
    path : str
        One of its declared files (anything else is an ``UnknownDatasetError``).
    root : str or Path, optional
        The data root (:func:`data_root`).

    Returns
    -------
    Path

    Examples
    --------
    >>> dataset_file("wales", "nodes.tsv", "/nonexistent")
    Traceback (most recent call last):
    ...
    wordgames.errors.DatasetMissingError: data set 'wales' ... is not available: ...
    >>> dataset_file("wales", "../secrets.txt", "/nonexistent")
    Traceback (most recent call last):
    ...
    wordgames.errors.UnknownDatasetError: data set wales declares no file '../secrets.txt'
    """
    get_dataset(name).file(path)  # raises UnknownDatasetError for an undeclared file
    return dataset_dir(name, root) / path


def is_available(name: str, root: str | Path | None = None) -> bool:
    """Whether every declared file of ``name`` is under the data root (not their checksums).

    Parameters
    ----------
    name : str
        A declared data set.
    root : str or Path, optional
        The data root (:func:`data_root`).

    Returns
    -------
    bool

    Examples
    --------
    >>> is_available("wales", "/nonexistent")
    False
    """
    try:
        dataset_dir(name, root)
    except DatasetMissingError:
        return False
    return True


@cache
def _sha256_cached(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_file(path: str | Path) -> str:
    """The sha256 of the file ``path``, remembered per (path, size, modification time).

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    str
        64 lower-case hex digits.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile(delete=False) as fh:
    ...     _ = fh.write(b"hello")
    >>> sha256_file(fh.name)[:12]
    '2cf24dba5fb0'
    """
    st = os.stat(path)
    return _sha256_cached(str(Path(path).resolve()), st.st_size, st.st_mtime_ns)


def verify_dataset(
    name: str, root: str | Path | None = None, *, strict: bool = True
) -> dict[str, str]:
    """sha256 of every file of ``name``.

    Parameters
    ----------
    name : str
        A declared data set.
    root : str or Path, optional
        The data root (:func:`data_root`).
    strict : bool
        Raise on a file whose sha256 is not the declared one.

    Returns
    -------
    dict of str to str
        ``{file: sha256}``: what result records hold.

    Raises
    ------
    ChecksumMismatchError
        With ``strict``, naming each file that differs.

    Examples
    --------
    >>> import os
    >>> sums = verify_dataset("word-similarity", os.environ["WORDGAMES_DATA"])
    >>> len(sums), sums["EN-MC-30.txt"][:12]
    (13, '33ee05911496')
    """
    spec = get_dataset(name)
    base = dataset_dir(name, root)
    sums, bad = {}, []
    for f in spec.files:
        digest = sha256_file(base / f.path)
        sums[f.path] = digest
        if digest != f.sha256:
            bad.append(f"{f.path}: expected {f.sha256[:12]}…, found {digest[:12]}…")
    if bad and strict:
        raise ChecksumMismatchError(
            f"data set {name!r} under {base} differs from the declared files: " + "; ".join(bad)
        )
    return sums


def dataset_status(name: str, root: str | Path | None = None) -> dict:
    """Where data set ``name`` stands under the data root, file by file.

    Returns ``{"state": "present" | "missing" | "partial" | "damaged", "bytes": on disk,
    "declared_bytes": the declared sizes' sum, "missing": [paths], "damaged": [paths]}``.
    ``partial``: some files are missing, the rest intact; ``damaged``: a file's sha256 differs.

    Examples
    --------
    >>> dataset_status("word-similarity", "/nonexistent")["state"]
    'missing'
    """
    spec = get_dataset(name)
    top = data_root(root)
    base = top / spec.folder
    missing, damaged, size = [], [], 0
    for f in spec.files:
        path = base / f.path
        if not path.is_file():
            missing.append(f.path)
            continue
        _inside(top, path, f"the file {f.path!r} of data set {name!r}")
        size += path.stat().st_size
        if sha256_file(path) != f.sha256:
            damaged.append(f.path)
    if damaged:
        state = "damaged"
    elif not missing:
        state = "present"
    else:
        state = "missing" if len(missing) == len(spec.files) else "partial"
    declared = sum(f.size for f in spec.files)
    return {"state": state, "bytes": size, "declared_bytes": declared, "missing": missing,
            "damaged": damaged}  # fmt: skip
