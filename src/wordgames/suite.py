"""The suite: every measure family, run on one or more embeddings.

Each measure family exposes one function ``run(embedding, ctx) -> MeasureResult`` and is
declared here by its import path, so nothing heavy is imported until a measure runs. A
measure whose data is missing raises :class:`~wordgames.errors.DatasetMissingError`, and
the runner records it as skipped with the reason.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wordgames.errors import DatasetMissingError, OptionalDependencyError, WordgamesError


class SkipMeasure(WordgamesError):
    """Raised by a measure that cannot run here (missing data, optional dependency, no input)."""


@dataclass(frozen=True)
class MeasureSpec:
    name: str
    family: str
    entry: str  # "module:function"
    description: str
    version: str = "1"  # bump when the measure's numbers would change: old stored results then miss
    datasets: tuple[str, ...] = ()

    def load(self) -> Callable:
        module, func = self.entry.split(":")
        return getattr(importlib.import_module(module), func)


MEASURES: tuple[MeasureSpec, ...] = (
    MeasureSpec("codenames", "codenames", "wordgames.codenames.suite:run",
                "Codenames senders and receivers against human play (Solomon & Ben Zion)"),
    MeasureSpec("similarity", "similarity", "wordgames.similarity.suite:run",
                "Word-similarity benchmarks (Spearman, Pearson)"),
    MeasureSpec("global-metrics", "similarity", "wordgames.similarity.global_metrics:run",
                "erank, perank, edim of the embedding matrix"),
    MeasureSpec("wales", "wales", "wordgames.wales.suite:run",
                "WALES: greedy navigation of the Wikipedia link graph"),
    MeasureSpec("oddmanout", "oddmanout", "wordgames.oddmanout.suite:run",
                "Odd-Man-Out puzzles: %correct / %wrong / %abstained"),
    MeasureSpec("cbm", "emergent", "wordgames.emergent.suite:run",
                "Concept-Best-Matching of emergent-communication logs (needs --cbm-log; skipped otherwise)"),
)


EXTRA_MEASURES_ENV = "WORDGAMES_EXTRA_MEASURES"


def extra_measures(value: str | None = None) -> tuple[MeasureSpec, ...]:
    """Measures added through ``$WORDGAMES_EXTRA_MEASURES`` (plug-ins and test measures).

    The variable holds comma-separated ``name=module:function`` entries; each function has
    the signature of a family's ``run(embedding, ctx) -> MeasureResult``. An optional
    ``@version`` after the entry sets the measure version.

    >>> [m.name for m in extra_measures("toy=my.module:run, other=my.mod:f@2")]
    ['toy', 'other']
    >>> extra_measures("other=my.mod:f@2")[0].version
    '2'
    """
    value = os.environ.get(EXTRA_MEASURES_ENV, "") if value is None else value
    specs = []
    for item in filter(None, (part.strip() for part in value.split(","))):
        name, sep, entry = item.partition("=")
        entry, _, version = entry.partition("@")
        if not sep or ":" not in entry or not name.strip():
            raise WordgamesError(f"${EXTRA_MEASURES_ENV}: expected 'name=module:function', got {item!r}")
        specs.append(MeasureSpec(name.strip(), "extra", entry.strip(),
                                 f"extra measure {entry.strip()}", version=version.strip() or "1"))
    return tuple(specs)


def all_measures() -> tuple[MeasureSpec, ...]:
    """The built-in measures followed by those of ``$WORDGAMES_EXTRA_MEASURES``."""
    return MEASURES + extra_measures()


def get_measure(name: str) -> MeasureSpec:
    known = all_measures()
    for m in known:
        if m.name == name:
            return m
    raise KeyError(f"unknown measure {name!r}; known: {', '.join(m.name for m in known)}")


@dataclass
class SuiteContext:
    """What every measure receives besides the embedding.

    Parameters
    ----------
    out_dir : folder for plots and per-measure files
    data_root : data root (``None``: ``$WORDGAMES_DATA``)
    seed : base seed of every random choice
    quick : smaller settings for smoke runs (fewer tasks, fewer restarts), recorded in results
    options : measure-specific options, e.g. ``{"codenames": {"senders": [...]}}``
    """

    out_dir: Path
    data_root: Path | None = None
    seed: int = 0
    quick: bool = False
    options: dict = field(default_factory=dict)
    log: Callable[[str], None] = print

    def plot_dir(self, measure: str, embedding_name: str) -> Path:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in embedding_name)
        d = self.out_dir / "plots" / safe / measure
        d.mkdir(parents=True, exist_ok=True)
        return d


def run_measure(spec: MeasureSpec, embedding, ctx: SuiteContext):
    """Run one measure; returns ``(result_dict | None, skip_reason | None, seconds)``."""
    start = time.perf_counter()
    try:
        fn = spec.load()
        result = fn(embedding, ctx)
    except (DatasetMissingError, SkipMeasure, OptionalDependencyError) as exc:
        return None, str(exc), time.perf_counter() - start
    seconds = time.perf_counter() - start
    result.timings.setdefault("total", round(seconds, 4))
    return result.as_dict(), None, seconds


def selected_measures(names: Sequence[str] | None) -> list[MeasureSpec]:
    """The measures to run (default: the built-in ones; extra measures only when named)."""
    if not names:
        return list(MEASURES)
    return [get_measure(n) for n in dict.fromkeys(names)]
