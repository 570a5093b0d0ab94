"""The install script compiles the numba kernels: a real run afterwards compiles nothing more."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow  # compiles every kernel (seconds) unless they are on disk


def _signatures():
    import wordgames._fixed as fx
    import wordgames.codenames._kernels as cn
    import wordgames.wales._kernels as wa

    return {
        f"{m.__name__}.{name}": list(fn.signatures)
        for m in (cn, wa, fx)
        for name, fn in vars(m).items()
        if hasattr(fn, "signatures") and callable(getattr(fn, "py_func", None))
    }


def test_a_real_run_after_warming_compiles_no_kernel(data_root):
    import wordgames
    from wordgames.warm import warm_kernels

    assert set(warm_kernels()) == {"codenames", "wales"}
    before = _signatures()
    # the kernels Python calls (the others are compiled into them)
    entry = ("count_columns", "drop_columns", "clue_values", "lloyd", "blue_cluster_codes",
             "kmeans_codes", "link_bits", "refresh_tops", "search_levels",
             "weighted_sums")  # fmt: skip
    assert all(before[k] for k in before if k.rsplit(".", 1)[1] in entry)
    wordgames.evaluate(
        ["glove-6b-50d"], ["codenames", "wales"], quick=True, data_root=data_root, ci_resamples=0
    )
    after = _signatures()
    assert {k: v for k, v in after.items() if v != before[k]} == {}
