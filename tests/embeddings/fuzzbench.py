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
