"""The fuzzing registry of ``bench/fuzz_readers.py``, importable by the tests.

The bench script holds the mutations, the seeds and the registry of readers; the tests run
the same registry under hypothesis with a bounded budget.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "bench" / "fuzz_readers.py"
_NAME = "wordgames_bench_fuzz_readers"


def load():
    """The ``bench/fuzz_readers.py`` module (loaded once)."""
    if _NAME not in sys.modules:
        spec = importlib.util.spec_from_file_location(_NAME, _PATH)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[_NAME] = mod  # dataclasses look their module up while it executes
        spec.loader.exec_module(mod)
    return sys.modules[_NAME]


def mutate_under_hypothesis(
    readers: dict, tmp_path: Path, max_examples: int, *, lenient: bool = False
):
    """Run ``max_examples`` mutations under hypothesis; each must end cleanly.

    ``readers`` maps a label (a reader's name, or a file of a human-data source) to a reader of
    the registry; each example draws one and mutates its seed file. Every outcome must be
    neither ``unexpected`` nor ``unclear`` (the assertion names the mutation), and the
    mutations must exercise both sides: some inputs refused, some still read (a ``lenient``
    reader skips what it cannot read and counts it: repaired, never refused). Derandomised,
    no example database, no deadline, so CI sees the same examples every run.

    Returns ``(counts, drawn)``: outcomes by kind, and how often each label was drawn.
    """
    import random
    import tempfile
    from collections import Counter

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    fuzz = load()
    counts: Counter = Counter()
    drawn: Counter = Counter()

    @settings(
        max_examples=max_examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(label=st.sampled_from(sorted(readers)), rnd=st.randoms(use_true_random=False))
    def check(label: str, rnd: random.Random):
        with tempfile.TemporaryDirectory(dir=tmp_path) as work:
            out = fuzz.run_one(readers[label], Path(work) / "w", rnd)
        counts[out.kind] += 1
        drawn[label] += 1
        assert out.kind not in ("unexpected", "unclear"), f"{label} {out.ops}: {out.detail}"

    check()
    assert counts["rejected" if not lenient else "repaired"] > 0, counts
    assert counts["accepted"] + counts["repaired"] > 0, counts
    return counts, drawn


def assert_seed_read_as_written(reader, tmp_path: Path, words: list[str], repairs: dict) -> None:
    """The unmutated seed file reads cleanly, with exactly ``repairs`` and the words ``words``."""
    result = reader.read(reader.seed(tmp_path))
    assert reader.check(result) == []
    assert dict(reader.repairs(result)) == repairs
    assert sorted(set(reader.words(result))) == words
