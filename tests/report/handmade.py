"""A hand-made results folder whose leaderboard, ranks and correlations are known by hand.

Every result holds typed Score rows (``result["scores"]``), as the measures write them; the
values are those of the flat metrics the fixture held before the Score model.
"""

from __future__ import annotations

import math
from pathlib import Path

from wordgames.measure import HIGHER, LOWER, Headline, Measure, Metric, Score
from wordgames.results import RunRecord, write_json_atomic
from wordgames.results.store import ResultKey, ResultStore, params_hash

LABELS = ("A", "B", "C", "D<i>")  # D's name needs escaping in HTML
SHAS = {lab: c * 64 for lab, c in zip(LABELS, "abcd", strict=True)}
SIM = {"A": 0.8, "B": 0.6, "C": 0.4, "D<i>": 0.2}  # ranks 1 2 3 4
SIM_OOV = {"A": 3, "B": 5, "C": 7, "D<i>": 9}
SIM_PAIRS = 100
WALES = {"A": 0.5, "B": 0.3, "C": 0.4, "D<i>": 0.1}  # ranks 1 3 2 4: rho(sim, wales) = 0.8
WALES_NO_VECTOR = 2
CN_MAP = {"A": 0.9, "B": 0.7, "C": 0.5, "D<i>": 0.3}
CN_RANK = {"A": 10.0, "B": 30.0, "C": 20.0, "D<i>": 40.0}  # lower is better: ranks 1 3 2 4
CN_MAP_SKIPPED = 4
#: the Codenames data set of the means over the data sets, which its headlines read
CN_ALL = "all"
ODD = {"A": 50.0, "B": 40.0, "C": 45.0, "D<i>": 10.0}
ODD_OOV = 11
TURNS = {"A": 1.0, "B": 2.0, "C": 3.0, "D<i>": 4.0}  # lower-better twin of SIM
EVIL_NOTE = "<script>alert('x')</script> & \"quoted\""
#: people of The Wiki Game (WALES paper): the same for every embedding, a baseline
WIKIGAME = {"best": (0.7, 0.01), "average": (0.5, 0.01), "median": (0.53, 0.01)}

#: "toy" declared with a lower-better primary headline (plugged in by one test)
TOY_TURNS = Measure(
    name="toy",
    version="1",
    family="extra",
    description="toy",
    compute="tests._toy_measures:toy1",
    metrics=(Metric("accuracy", HIGHER, (0.0, 1.0)), Metric("turns", LOWER)),
    headlines=(Headline("turns", primary=True),),
)


def png(path: Path, color=(200, 30, 30)) -> Path:
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 6), color).save(path)
    return path


def _score(
    emb,
    measure,
    dataset,
    subject,
    metric,
    value,
    direction,
    *,
    ci=None,
    n=None,
    n_skipped=0,
    skip_reason="",
) -> dict:
    lo, hi = ci if ci is not None else (math.nan, math.nan)
    return Score(
        emb,
        measure,
        dataset,
        subject,
        metric,
        float(value),
        lo,
        hi,
        n,
        n_skipped,
        skip_reason,
        direction,
    ).as_dict()


def _wales(lab: str) -> dict:
    rows = [
        _score(
            lab,
            "wales",
            "human",
            "greedy",
            "score",
            WALES[lab],
            HIGHER,
            ci=(WALES[lab] - 0.05, WALES[lab] + 0.05),
            n=1000 - WALES_NO_VECTOR,
            n_skipped=WALES_NO_VECTOR,
            skip_reason="target page has no vector",
        )
    ]
    rows += [
        _score(
            lab,
            "wales",
            "wikigame",
            f"people ({who} player)",
            "score_nodes",
            v,
            HIGHER,
            ci=(v - half, v + half),
            n=1000,
        )
        for who, (v, half) in WIKIGAME.items()
    ]
    return {
        "measure": "wales",
        "version": "1",
        "scores": rows,
        "oov": {"n_nodes_without_vector": 17},
        "timings": {"total": 2.0},
    }


def results(root: Path, lab: str) -> dict[str, dict]:
    """MeasureResult dicts of every measure for embedding ``lab``."""
    plot = png(root / "plots" / lab.replace("<", "_").replace(">", "_") / "similarity" / "sim.png")
    wordnet_row = {"solver": "wordnet", "dataset": "crowdsourced-filtered", "pct_correct": 60.0}
    oov_why = "pairs with an out-of-vocabulary word"
    return {
        "similarity": {
            "measure": "similarity",
            "version": "1",
            "scores": [
                _score(
                    lab,
                    "similarity",
                    "men",
                    "",
                    "spearman",
                    SIM[lab],
                    HIGHER,
                    n=SIM_PAIRS - SIM_OOV[lab],
                    n_skipped=SIM_OOV[lab],
                    skip_reason=oov_why,
                )
            ],
            "tables": {
                "benchmarks": [
                    {"benchmark": "men", "spearman": SIM[lab], "oov_pairs": SIM_OOV[lab]}
                ]
            },
            "oov": {"men": {"oov_pairs": SIM_OOV[lab], "oov_words": 2 * SIM_OOV[lab]}},
            "plots": [str(plot)],
            "notes": [EVIL_NOTE],
            "timings": {"total": 1.5},
            "datasets": {"word-similarity": {"men.txt": "f" * 64}},
        },
        "wales": _wales(lab),
        "codenames": {
            "measure": "codenames",
            "version": "1",
            "scores": [
                # the headlines read the "all" rows: the mean over the data sets
                _score(
                    lab,
                    "codenames",
                    CN_ALL,
                    "nearest",
                    "human_receiver.map",
                    CN_MAP[lab],
                    HIGHER,
                    n=100,
                    n_skipped=CN_MAP_SKIPPED,
                    skip_reason="records with a word not in vocabulary",
                ),
                _score(
                    lab,
                    "codenames",
                    CN_ALL,
                    "cluster",
                    "human_receiver.mean_rank",
                    CN_RANK[lab],
                    LOWER,
                    ci=(CN_RANK[lab] - 1.5, CN_RANK[lab] + 1.5),
                    n=100,
                    n_skipped=6,
                    skip_reason="records with a word not in vocabulary",
                ),
                _score(
                    lab,
                    "codenames",
                    "codenames-pilot",
                    "nearest",
                    "human_receiver.map",
                    CN_MAP[lab],
                    HIGHER,
                    n=100,
                    n_skipped=CN_MAP_SKIPPED,
                    skip_reason="records with a word not in vocabulary",
                ),
            ],
            "tables": {
                "senders": [
                    {
                        "dataset": "codenames-pilot",
                        "data": "human_receiver",
                        "agent": "cluster",
                        "clue_source": "all",
                        "mean_rank": CN_RANK[lab],
                        "ci_low": CN_RANK[lab] - 1.5,
                        "ci_high": CN_RANK[lab] + 1.5,
                    }
                ]
            },
        },
        "oddmanout": {
            "measure": "oddmanout",
            "version": "1",
            "scores": [
                _score(
                    lab,
                    "oddmanout",
                    "crowdsourced-filtered",
                    "embedding",
                    "pct_correct",
                    ODD[lab],
                    HIGHER,
                    n=200,
                    n_skipped=ODD_OOV,
                    skip_reason="puzzles with a word without vector",
                ),
                _score(
                    lab,
                    "oddmanout",
                    "crowdsourced-filtered",
                    "wordnet",
                    "pct_correct",
                    60.0,
                    HIGHER,
                    n=200,
                ),
            ],
            "tables": {
                "table3": [
                    {"solver": lab, "dataset": "crowdsourced-filtered", "pct_correct": ODD[lab]},
                    wordnet_row,
                ]
            },
        },
        "toy": {  # a measure the registry does not know: its rows carry their directions
            "measure": "toy",
            "version": "1",
            "scores": [
                _score(
                    lab,
                    "toy",
                    "game",
                    "",
                    "accuracy",
                    SIM[lab],
                    HIGHER,
                    ci=(SIM[lab] - 0.1, SIM[lab] + 0.1),
                    n=30,
                ),
                _score(lab, "toy", "game", "", "turns", TURNS[lab], LOWER, n=30),
            ],
        },
    }


def plugin_result(lab: str) -> dict:
    """A plug-in measure's result: Score rows with their directions, no declared record."""
    return {
        "measure": "plugin",
        "version": "1",
        "scores": [
            _score(lab, "plugin", "game", "", "accuracy", SIM[lab], HIGHER, n=100),
            _score(lab, "plugin", "game", "", "turns", TURNS[lab], LOWER, n=100),
            _score(lab, "plugin", "", "", "n_words", 30.0, None, n=30),
        ],
    }


def describe(lab: str) -> dict:
    return {
        "name": lab,
        "source": f"/vectors/{lab}.txt",
        "n_words": 1000 * (LABELS.index(lab) + 1),
        "dim": 25,
        "sha256": SHAS[lab],
        "oov_policy": "raise",
    }


def make_store(
    root: Path, labels=LABELS, measures=None, *, params=None, run_json=True, legacy=False
) -> Path:
    """Write the store (and a results.json) for ``labels`` into ``root``; ``legacy`` adds the
    ``plugin`` measure, which the registry does not know."""
    store = ResultStore(root)
    params = params or {"seed": 0, "quick": False, "options": {}}
    all_results = []
    for lab in labels:
        per = results(root, lab) | ({"plugin": plugin_result(lab)} if legacy else {})
        for name, res in per.items():
            if measures and name not in measures:
                continue
            key = ResultKey(SHAS[lab], name, res["version"], params_hash(params))
            store.put(key, {**res, "subject": lab}, embedding=describe(lab), params=params)
            all_results.append({**res, "subject": lab})
    if run_json:
        rec = RunRecord(
            embeddings=[describe(lab) for lab in labels],
            results=all_results,
            skipped=[
                {
                    "subject": labels[0],
                    "measure": "cbm",
                    "reason": "no emergent-communication logs given (use --cbm-log)",
                }
            ],
            parameters={"seed": 0, "quick": False},
            timings={"total": 9.0},
        )
        write_json_atomic(root / "results.json", rec.as_dict())
    return root


def write_schema1_entry(root: Path, lab: str = "A") -> Path:
    """A store entry as wordgames wrote it before typed scores (schema 1: flat metrics)."""
    key = ResultKey(SHAS[lab], "similarity", "1", params_hash({"seed": 0, "old": True}))
    entry = {
        "key": {
            "embedding_sha256": key.embedding_sha256,
            "measure": key.measure,
            "version": key.version,
            "params_sha256": key.params_sha256,
        },
        "embedding": describe(lab),
        "params": {"seed": 0},
        "result": {
            "measure": "similarity",
            "version": "1",
            "metrics": {"men/spearman": 0.99, "men/oov_pairs": 1.0},
        },
    }
    return write_json_atomic(root / key.relpath(), entry)
