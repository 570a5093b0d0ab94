"""The whole Codenames measure gives the same Scores on a simulated other CPU.

numba compiles its kernels for a generic x86-64 (no AVX, no FMA: ``NUMBA_CPU_NAME=generic``)
and OpenBLAS takes another CPU's kernels (``OPENBLAS_CORETYPE``); every stored number (value,
interval, n, skipped) must be the one of the native run, bit for bit. Before the exact
similarities (issue 36) the ranks and the intervals' last bits moved under another core type.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import require_dataset

pytest.importorskip("numba")
pytestmark = pytest.mark.slow  # the measure twice, and every kernel compiled for "generic"

_SCRIPT = """
import json, sys
import wordgames
res = wordgames.evaluate("glove-6b-50d", measures=["codenames"], datasets=sys.argv[1:], seed=0)
print(json.dumps([[s.dataset, s.agent, s.metric, s.value, s.ci_low, s.ci_high, s.n,
                   s.n_skipped] for s in res.scores]))
"""

#: every Codenames human data set that the issue's failures came from, and the pilot
_DATASETS = ["codenames-pilot", "codenames-human-stanfordhci", "codenames-human-salt",
             "codenames-human-noahprescott"]  # fmt: skip


def _rows(res) -> list:
    return [[s.dataset, s.agent, s.metric, s.value, s.ci_low, s.ci_high, s.n, s.n_skipped]
            for s in res.scores]  # fmt: skip


def _comparable(rows: list) -> list:
    """Rows with NaN as a string (NaN equals nothing, itself included)."""
    return [[x if x == x else "nan" for x in row] for row in rows]


def other_core_type() -> str:
    """An OpenBLAS core type other than the one this process may have been given."""
    return "Haswell" if os.environ.get("OPENBLAS_CORETYPE") == "Sandybridge" else "Sandybridge"


def test_every_codenames_score_is_the_same_under_another_cpu(tmp_path):
    import wordgames

    for name in _DATASETS:
        require_dataset(name)
    native = wordgames.evaluate("glove-6b-50d", measures=["codenames"], datasets=_DATASETS)
    env = {**os.environ, "NUMBA_CPU_NAME": "generic", "OPENBLAS_CORETYPE": other_core_type(),
           "NUMBA_CACHE_DIR": str(tmp_path / "numba")}  # fmt: skip
    run = subprocess.run([sys.executable, "-c", _SCRIPT, *_DATASETS], env=env,
                         capture_output=True, text=True, timeout=600, check=False)  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    other = _comparable(json.loads(run.stdout.strip().splitlines()[-1]))
    mine = _comparable(json.loads(json.dumps(_rows(native))))  # as the other side reads them
    assert len(mine) == len(other) > 200
    assert [r for r, o in zip(mine, other, strict=True) if r != o] == []
