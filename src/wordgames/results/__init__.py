"""Versioned result records: what was measured, on what, with which parameters and data.

A :class:`MeasureResult` is what one measure returns for one embedding; a run of
``wordgames run`` writes a :class:`RunRecord` (JSON) holding them, with the tool version,
parameters, seeds, data checksums, timings and OOV counts.
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from wordgames._version import __version__

SCHEMA_VERSION = 1


@dataclass
class MeasureResult:
    """The outcome of one measure on one embedding.

    Parameters
    ----------
    measure : unique measure name, e.g. ``"codenames"``
    version : version of the measure's definition (bump when numbers would change)
    metrics : flat mapping of headline numbers (``"pilot/receiver/map": 0.41``)
    tables : named tables, each a list of row dicts, for reports
    oov : counts of out-of-vocabulary words or records, next to what they affect
    parameters : every parameter of the agents and the measure (constructor = configuration)
    datasets : data set name -> {file: sha256}
    plots : paths of plot files written
    timings : seconds per phase
    notes : free-text remarks (repairs in the data, skipped parts)
    """

    measure: str
    version: str
    metrics: dict[str, float] = field(default_factory=dict)
    tables: dict[str, list[dict]] = field(default_factory=dict)
    oov: dict[str, Any] = field(default_factory=dict)
    parameters: dict[str, Any] = field(default_factory=dict)
    datasets: dict[str, dict[str, str]] = field(default_factory=dict)
    plots: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return jsonable(asdict(self))


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
    import numpy
    import scipy

    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "numpy": numpy.__version__,
        "scipy": scipy.__version__,
    }


def jsonable(obj):
    """Make numpy scalars, paths and non-finite floats JSON-safe (NaN -> None)."""
    import numpy as np

    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, Path):
        return str(obj)
    return obj


def write_json_atomic(path: str | Path, data: dict) -> Path:
    """Write JSON so that a reader never sees a half-written file (temp file + rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(jsonable(data), fh, indent=2, sort_keys=False)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return path


def read_json(path: str | Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


class Timer:
    """Context manager that stores elapsed seconds in ``timings[key]``."""

    def __init__(self, timings: dict[str, float], key: str):
        self.timings, self.key = timings, key

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.timings[self.key] = round(time.perf_counter() - self.start, 4)
        return False
