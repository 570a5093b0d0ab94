"""Versioned result records: what was measured, on what, with which parameters and data.

A :class:`MeasureResult` is what one measure returns for one embedding; a run of
``wordgames run`` writes a :class:`RunRecord` (JSON) holding them, with the tool version,
parameters, seeds, data checksums, timings and OOV counts.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from wordgames._version import __version__

# the measure's output model lives beside Score in wordgames.measure; re-exported here
from wordgames.measure import MeasureResult, Timer, item_key, jsonable, score_item_key  # noqa: F401

#: 2: results hold typed Score rows (``scores``); records of schema 1 are recomputed.
SCHEMA_VERSION = 2


@dataclass
class RunRecord:
    """One run of the suite: several measures on one or more embeddings."""

    embeddings: list[dict]
    results: list[dict]
    skipped: list[dict]
    parameters: dict[str, Any]
    timings: dict[str, float]
    tool_version: str = __version__
    schema_version: int = SCHEMA_VERSION
    created_at: str = field(default_factory=lambda: time.strftime("%Y-%m-%dT%H:%M:%S%z"))
    environment: dict[str, str] = field(default_factory=lambda: environment())

    def as_dict(self) -> dict:
        return jsonable(asdict(self))


def environment() -> dict[str, str]:
    """Versions of Python, the platform, numpy and scipy, recorded with every run."""
    import numpy
    import scipy

    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
    }


def write_json_atomic(path: str | Path, data: dict) -> Path:
    """Write JSON so that a reader never sees a half-written file (:func:`safeio.atomic_target`).

    A link at ``path`` is replaced, never written through; a disk full or a read-only folder
    leaves nothing half-written and raises :class:`~wordgames.errors.WordgamesError`.
    """
    from wordgames.safeio import atomic_target

    path = Path(path)
    with atomic_target(path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        json.dump(jsonable(data), fh, indent=2, sort_keys=False)
        fh.flush()
        os.fsync(fh.fileno())
    return path


def read_json(path: str | Path) -> dict:
    """The JSON content of the file at ``path`` (UTF-8); ``ValueError`` when it is not JSON."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
