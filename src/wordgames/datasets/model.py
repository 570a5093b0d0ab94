"""The records that declare a data set and the table they are registered in.

The records are :class:`DatasetSpec` and :class:`DataFile`. The declarations
(``wordgames.datasets.declarations``) import this module; the registry functions
(:mod:`wordgames.datasets.registry`) import both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from wordgames.errors import UnknownDatasetError

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9\-]*$")
_SHA_RE = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class DataFile:
    """One file of a data set.

    Parameters
    ----------
    path : str
        Its path inside the data set's folder (relative, never ``..``).
    sha256 : str
        The sha256 of its bytes: what ``wordgames datasets fetch`` and ``verify`` check.
    description : str
        What it holds (optional).
    size : int
        Its size in bytes (0: not declared). A download longer than a declared size is cut
        off and refused, so a server that sends without end cannot fill the disk.
    url : str
        Where the very same bytes are upstream, pinned to a commit (``https://`` only);
        empty for a file that was converted or derived, which only a mirror can give.

    Examples
    --------
    >>> DataFile("a.txt", "0" * 64, size=5).path
    'a.txt'
    >>> DataFile("../a.txt", "0" * 64)
    Traceback (most recent call last):
    ...
    ValueError: ../a.txt: must be a relative path inside the data set's folder
    """

    path: str
    sha256: str
    description: str = ""
    size: int = 0
    url: str = ""

    def __post_init__(self):
        if not _SHA_RE.match(self.sha256):
            raise ValueError(f"{self.path}: sha256 must be 64 lower-case hex digits")
        if not isinstance(self.size, int) or self.size < 0:
            raise ValueError(f"{self.path}: size must be a whole number of bytes (0: unknown)")
        if self.url and not self.url.startswith("https://"):
            raise ValueError(f"{self.path}: url must be an https:// address, or empty")
        if Path(self.path).is_absolute() or ".." in Path(self.path).parts or "\\" in self.path:
            raise ValueError(f"{self.path}: must be a relative path inside the data set's folder")


@dataclass(frozen=True)
class DatasetSpec:
    """Metadata of one data set.

    Parameters
    ----------
    name : unique lower-case name (``[a-z0-9-]``), used on the command line and in results
    folder : folder under the data root that holds the files
    family : the measure family that uses it (codenames, wales, oddmanout, similarity, emergent)
    title : a human-readable title
    files : the files with their sha256
    upstream : where the files come from, pinned (repository URL and commit)
    citation : what to cite
    licence : licence note (as found upstream)
    notes : known damage in the files and how the loader deals with it
    items : the item count of each part that scores name, as ``(part, count)`` pairs: a part
        is what a Score's ``dataset`` names (a puzzle set, a benchmark), or ``<role>`` for a
        data set whose scores prefix their metric with it (``human_receiver.map``). Every
        score on it has ``n + n_skipped`` equal to that count, whatever the vocabulary.
    items_unit : what one item is (records, weighted decisions, pairs, puzzles, titles)
    loader : ``"module:function"`` that reads the files into its family's records, for a family
        whose sources each have a reader of their own (the Codenames human data: called as
        ``load(folder, records, **options)``); empty where the family's one reader serves

    Examples
    --------
    A plug-in's declaration (its module is named in its family manifest's ``datasets``):

    >>> spec = DatasetSpec(name="my-puzzles", folder="my-puzzles", family="oddmanout",
    ...                    title="My puzzles", files=(DataFile("p.tsv", "0" * 64),),
    ...                    upstream="https://example.org/p @ 1234567", citation="Me (2026)",
    ...                    licence="CC-BY-4.0", items=(("my-puzzles", 40),))
    >>> spec.item_count("my-puzzles")
    40
    """

    name: str
    folder: str
    family: str
    title: str
    files: tuple[DataFile, ...]
    upstream: str
    citation: str
    licence: str
    notes: str = ""
    items: tuple[tuple[str, int], ...] = ()
    items_unit: str = ""
    loader: str = ""
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self):
        if not _NAME_RE.match(self.name):
            raise ValueError(f"data set name {self.name!r} must match [a-z0-9][a-z0-9-]*")
        for attr in ("folder", "family", "title", "upstream", "citation", "licence"):
            if not getattr(self, attr):
                raise ValueError(f"data set {self.name}: '{attr}' must not be empty")
        folder = Path(self.folder)
        if folder.is_absolute() or ".." in folder.parts or "\\" in self.folder:
            raise ValueError(
                f"data set {self.name}: folder {self.folder!r} must be a relative path inside "
                "the data root"
            )
        if not self.files:
            raise ValueError(f"data set {self.name}: declares no files")
        if self.loader and ":" not in self.loader:
            raise ValueError(f"data set {self.name}: loader must be 'module:function'")
        paths = [f.path for f in self.files]
        if len(set(paths)) != len(paths):
            raise ValueError(f"data set {self.name}: a file is declared twice")

    def item_count(self, part: str) -> int | None:
        """The declared item count of ``part`` (``None`` when none is declared)."""
        return dict(self.items).get(part)

    def file(self, path: str) -> DataFile:
        for f in self.files:
            if f.path == path:
                return f
        raise UnknownDatasetError(f"data set {self.name} declares no file {path!r}")

    def describe(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "upstream": self.upstream,
            "citation": self.citation,
            "licence": self.licence,
        }


_REGISTRY: dict[str, DatasetSpec] = {}


def register(spec: DatasetSpec) -> DatasetSpec:
    """Add ``spec`` to the table of declared data sets; returns it.

    Declaring the same spec again is harmless; another spec under the same name is a
    ``ValueError``. A family's declaration module (named in its manifest) calls it for each.

    Parameters
    ----------
    spec : DatasetSpec

    Returns
    -------
    DatasetSpec

    Examples
    --------
    >>> from wordgames.datasets import get_dataset
    >>> register(get_dataset("wales")) is get_dataset("wales")  # the same again: harmless
    True
    """
    if spec.name in _REGISTRY and _REGISTRY[spec.name] != spec:
        raise ValueError(f"data set {spec.name!r} is declared twice")
    _REGISTRY[spec.name] = spec
    return spec
