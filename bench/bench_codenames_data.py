"""Time the human Codenames data loaders (target: every data set in about 1-2 s in total).

Run: ``WORDGAMES_DATA=../shared/data python bench/bench_codenames_data.py``

Prints, per data set, the cold load time (parsing + sha256 of every file), the warm time
(cached), and the record counts; then the Cultural Codes parser against a naive baseline
(Python ``csv`` + ``ast.literal_eval`` per list + a per-word normalise loop).
"""

from __future__ import annotations

import ast
import csv
import sys
import time
from pathlib import Path


def naive_salt(base: Path) -> int:
    """The obvious loop: every row through csv and ast.literal_eval, words normalised one by one."""
    csv.field_size_limit(sys.maxsize)
    n = 0
    for task in ("target_selection_task", "clue_generation_task", "generate_guess_task"):
        for split in ("val", "test"):
            with open(base / task / f"{split}.csv", newline="", encoding="utf-8") as fh:
                reader = csv.DictReader(fh)
                for row in reader:
                    text = row["base_text"]
                    for part in text.split("], "):
                        if "[" in part:
                            lst = ast.literal_eval(part[part.index("[") :].rstrip("]") + "]")
                            n += len([str(w).strip().lower() for w in lst])
    return n


def main() -> None:
    from wordgames.codenames.human_data import (
        _load_cached,
        available_human_datasets,
        load_human_data,
    )
    from wordgames.datasets import dataset_dir
    from wordgames.datasets.registry import _sha256_cached

    names = available_human_datasets()
    if not names:
        sys.exit("no human data set found: set WORDGAMES_DATA")
    _load_cached.cache_clear()
    _sha256_cached.cache_clear()
    t0 = time.perf_counter()
    import pandas  # noqa: F401  (imported once by the loaders that need it; timed apart)

    print(f"import pandas: {time.perf_counter() - t0:.3f} s (not counted below)")
    total_cold = 0.0
    print(f"{'data set':32s} {'cold s':>8s} {'warm s':>8s} {'sender':>7s} {'receiver':>8s}")
    for name in names:
        t0 = time.perf_counter()
        data = load_human_data(name)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        load_human_data(name)
        warm = time.perf_counter() - t0
        total_cold += cold
        print(f"{name:32s} {cold:8.3f} {warm:8.4f} {len(data.sender):7d} {len(data.receiver):8d}")
    print(f"{'all (cold, incl. sha256)':32s} {total_cold:8.3f}")

    if "codenames-human-salt" in names:
        from wordgames.codenames.human_data import salt
        from wordgames.codenames.records import LoadedHumanData

        base = dataset_dir("codenames-human-salt")
        t0 = time.perf_counter()
        salt.load(base, LoadedHumanData("bench"))
        ours = time.perf_counter() - t0
        t0 = time.perf_counter()
        naive_salt(base)
        naive = time.perf_counter() - t0
        print(
            f"salt: vectorised parse+join {ours:.3f} s; naive list parsing alone {naive:.3f} s "
            f"(ratio {naive / ours:.1f}x)"
        )


if __name__ == "__main__":
    main()
