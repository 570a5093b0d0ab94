"""A hand-made results folder whose leaderboard, ranks and correlations are known by hand."""

from __future__ import annotations

from pathlib import Path

from wordgames.results import RunRecord, write_json_atomic
from wordgames.results.store import ResultKey, ResultStore, params_hash

LABELS = ("A", "B", "C", "D<i>")  # D's name needs escaping in HTML
SHAS = {lab: c * 64 for lab, c in zip(LABELS, "abcd", strict=True)}
SIM = {"A": 0.8, "B": 0.6, "C": 0.4, "D<i>": 0.2}  # ranks 1 2 3 4
SIM_OOV = {"A": 3, "B": 5, "C": 7, "D<i>": 9}
WALES = {"A": 0.5, "B": 0.3, "C": 0.4, "D<i>": 0.1}  # ranks 1 3 2 4: rho(sim, wales) = 0.8
CN_MAP = {"A": 0.9, "B": 0.7, "C": 0.5, "D<i>": 0.3}
CN_RANK = {"A": 10.0, "B": 30.0, "C": 20.0, "D<i>": 40.0}  # lower is better: ranks 1 3 2 4
ODD = {"A": 50.0, "B": 40.0, "C": 45.0, "D<i>": 10.0}
TURNS = {"A": 1.0, "B": 2.0, "C": 3.0, "D<i>": 4.0}  # lower-better twin of SIM
EVIL_NOTE = "<script>alert('x')</script> & \"quoted\""


def png(path: Path, color=(200, 30, 30)) -> Path:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 6), color).save(path)
    return path


def results(root: Path, lab: str) -> dict[str, dict]:
    """MeasureResult dicts of every measure for embedding ``lab``."""
    plot = png(root / "plots" / lab.replace("<", "_").replace(">", "_") / "similarity" / "sim.png")
    wordnet_row = {"solver": "wordnet", "dataset": "crowdsourced-filtered", "pct_correct": 60.0}
    return {
        "similarity": {
            "measure": "similarity", "version": "1",
            "metrics": {"men/spearman": SIM[lab], "men/oov_pairs": float(SIM_OOV[lab]),
                        "men/n_pairs": 100.0},
            "tables": {"benchmarks": [{"benchmark": "men", "spearman": SIM[lab],
                                       "oov_pairs": SIM_OOV[lab]}]},
            "oov": {"men": {"oov_pairs": SIM_OOV[lab], "oov_words": 2 * SIM_OOV[lab]}},
            "plots": [str(plot)], "notes": [EVIL_NOTE], "timings": {"total": 1.5},
            "datasets": {"word-similarity": {"men.txt": "f" * 64}}},
        "wales": {
            "measure": "wales", "version": "1",
            "metrics": {"wales/score": WALES[lab], "wales/ci_half_width": 0.05,
                        "wales/n_excluded_target_no_vector": 2.0},
            "tables": {"human_reference_wikigame": [
                {"convention": "nodes", "n_tasks": 1000, "best": 0.7, "best_ci_half_width": 0.01,
                 "average": 0.5, "average_ci_half_width": 0.01, "median": 0.53,
                 "median_ci_half_width": 0.01}]},
            "oov": {"n_nodes_without_vector": 17}, "timings": {"total": 2.0}},
        "codenames": {
            "measure": "codenames", "version": "1",
            "metrics": {"codenames-pilot/nearest/human_receiver.map": CN_MAP[lab],
                        "codenames-pilot/nearest/human_receiver.n_skipped_oov": 4.0,
                        "codenames-pilot/cluster/human_receiver.mean_rank": CN_RANK[lab],
                        "codenames-pilot/cluster/human_receiver.n_skipped_oov": 6.0},
            "tables": {"senders": [{"dataset": "codenames-pilot", "data": "human_receiver",
                                    "agent": "cluster", "clue_source": "all",
                                    "mean_rank": CN_RANK[lab], "ci_low": CN_RANK[lab] - 1.5,
                                    "ci_high": CN_RANK[lab] + 1.5}]}},
        "oddmanout": {
            "measure": "oddmanout", "version": "1",
            "metrics": {"crowdsourced-filtered/pct_correct": ODD[lab],
                        "crowdsourced-filtered/puzzles_with_oov": 11.0,
                        "wordnet/crowdsourced-filtered/pct_correct": 60.0},
            "tables": {"table3": [{"solver": lab, "dataset": "crowdsourced-filtered",
                                   "pct_correct": ODD[lab]}, wordnet_row]}},
        "toy": {
            "measure": "toy", "version": "1",
            "metrics": {"game/accuracy": SIM[lab], "game/accuracy/ci_low": SIM[lab] - 0.1,
                        "game/accuracy/ci_high": SIM[lab] + 0.1, "game/turns": TURNS[lab],
                        "game/n": 30.0}},
    }


def describe(lab: str) -> dict:
    return {"name": lab, "source": f"/vectors/{lab}.txt", "n_words": 1000 * (LABELS.index(lab) + 1),
            "dim": 25, "sha256": SHAS[lab], "oov_policy": "raise"}


def make_store(root: Path, labels=LABELS, measures=None, *, params=None, run_json=True) -> Path:
    """Write the store (and a results.json) for ``labels`` into ``root``."""
    store = ResultStore(root)
    params = params or {"seed": 0, "quick": False, "options": {}}
    all_results = []
    for lab in labels:
        for name, res in results(root, lab).items():
            if measures and name not in measures:
                continue
            key = ResultKey(SHAS[lab], name, res["version"], params_hash(params))
            store.put(key, {**res, "embedding": lab}, embedding=describe(lab), params=params)
            all_results.append({**res, "embedding": lab})
    if run_json:
        rec = RunRecord(embeddings=[describe(lab) for lab in labels], results=all_results,
                        skipped=[{"embedding": labels[0], "measure": "cbm",
                                  "reason": "no emergent-communication logs given (use --cbm-log)"}],
                        parameters={"seed": 0, "quick": False}, timings={"total": 9.0})
        write_json_atomic(root / "results.json", rec.as_dict())
    return root
