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

#: 2: results hold typed Score rows (``scores``); records of schema 1 are recomputed.
SCHEMA_VERSION = 2


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
    scores : typed long-format rows (:class:`~wordgames.measure.Score`): what the report,
        the leaderboard and ``Results.to_frame`` read
    embedding : name of the embedding it was computed on
    items : per-item values behind the headline scores, by :func:`item_key`
        (:mod:`wordgames.paired`): what a paired comparison of two embeddings resamples
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
    scores: list = field(default_factory=list)
    embedding: str = ""
    items: dict[str, dict] = field(default_factory=dict)

    def keep_items(self, score, record: dict) -> None:
        """Keep the per-item values behind ``score`` (:func:`wordgames.paired.item_record`).

        The report's paired comparisons ("best only when it is") read them.
        """
        from wordgames.paired import pack

        self.items[item_key(score.dataset, score.subject, score.metric)] = pack(record)

    def score(
        self,
        dataset: str,
        subject: str,
        metric: str,
        value,
        *,
        ci=None,
        n=None,
        n_skipped: int = 0,
        skip_reason: str = "",
        n_oov: int = 0,
    ):
        """Append one :class:`~wordgames.measure.Score` row; returns it.

        Embedding and direction are filled in by :func:`wordgames.evaluation.compute_unit`.
        """
        import math

        from wordgames.measure import Score

        lo, hi = ci if ci is not None else (math.nan, math.nan)
        row = Score(
            self.embedding,
            self.measure,
            dataset,
            subject,
            metric,
            _float(value),
            _float(lo),
            _float(hi),
            None if n is None else int(n),
            int(n_skipped),
            skip_reason,
            n_oov=int(n_oov),
        )
        self.scores.append(row)
        return row

    def as_dict(self) -> dict:
        d = asdict(self)
        return jsonable(d)

    @classmethod
    def from_dict(cls, d: dict) -> MeasureResult:
        """The result of :meth:`as_dict` (as stored), with its Score rows typed again."""
        from dataclasses import fields

        from wordgames.measure import Score

        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        kw["scores"] = [Score.from_dict(s) for s in d.get("scores") or ()]
        return cls(**kw)

    def renamed(self, embedding: str) -> MeasureResult:
        """A copy under another embedding name (a stored twin of the same vectors)."""
        from dataclasses import replace

        return replace(
            self, embedding=embedding, scores=[replace(s, embedding=embedding) for s in self.scores]
        )


def item_key(dataset: str, subject: str, metric: str) -> str:
    """The key of a score's item record in :attr:`MeasureResult.items`.

    >>> item_key("men", "", "spearman")
    'men||spearman'
    """
    return f"{dataset}|{subject}|{metric}"


def _float(v) -> float:
    import math

    try:
        return math.nan if v is None else float(v)
    except (TypeError, ValueError):
        return math.nan


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
