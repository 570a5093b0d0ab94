"""Measures on the data collected so far (the admin page's live measures, and
:func:`evaluate_study` for scripts): the study's answers are exported to the documented user
formats and read back by the families' own code.

* Codenames: ``wordgames.evaluate(embedding, "codenames", options={"codenames": {"files":
  [codenames.jsonl], "datasets": None}})``: the agents' MAP against these people's picks and
  the ranks of the clues (Algorithms 4 to 7), exactly as for any human data set.
* Odd-Man-Out: the people as a solver, scored by ``wordgames.oddmanout.metrics.score`` (the
  %correct / %wrong / %abstained of Table 3), and the embedding solver on the same puzzles
  through ``wordgames.evaluate(..., "oddmanout", options={"oddmanout": {"puzzles": [...]}})``.
* Wiki: the WALES human baseline (``wikispeedia_human_table`` / ``wikispeedia_human_baseline``)
  and success rate (``human_success_rate``) on the exported paths.
"""

from __future__ import annotations

import logging
import math
import tempfile
from pathlib import Path

from wordgames.serve.db import Database

log = logging.getLogger("wordgames.serve")
SCORE_COLUMNS = (
    "embedding",
    "measure",
    "dataset",
    "subject",
    "metric",
    "value",
    "ci_low",
    "ci_high",
    "n",
    "n_skipped",
)


def _clean(v):
    return None if isinstance(v, float) and not math.isfinite(v) else v


def _score_rows(results) -> list[dict]:
    return [{k: _clean(getattr(s, k)) for k in SCORE_COLUMNS} for s in results.scores]


def evaluate_study(
    db: Database,
    slug: str,
    embedding: str | None = None,
    *,
    out_dir: str | Path | None = None,
    seed: int = 0,
) -> dict:
    """Measures on a study's data so far: ``{"n_records": int, "rows": [score rows...],
    "notes": [...]}``. ``out_dir`` keeps the exported files (default: a temporary folder)."""
    from wordgames.serve import store
    from wordgames.serve.export import export

    study = store.load_study(db, slug)
    if study is None:
        raise store.StudyError(f"no study {slug!r} in the database")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(out_dir or tmp)
        rep = export(db, folder, [slug])
        game = study.cfg.game
        emb = (
            embedding
            or study.cfg.codenames.get("embedding")
            or study.cfg.oddmanout.get("embedding")
            or "glove-6b-50d"
        )
        if game.startswith("codenames"):
            return _codenames(folder, rep, emb, seed)
        if game == "oddmanout":
            return _oddmanout(folder, rep, emb, seed)
        if game == "wiki":
            return _wiki(folder, rep, study)
        n = rep.counts.get("oddmanout_seeds.jsonl", 0)
        return {
            "n_records": n,
            "rows": [],
            "notes": [
                f"{rep.counts.get('oddmanout_crowd_puzzles.jsonl', 0)} puzzles generated from "
                f"{n} seed word(s) so far"
            ],
        }


def _codenames(folder: Path, rep, emb: str, seed: int) -> dict:
    import wordgames

    n = rep.counts.get("codenames.jsonl", 0)
    if not n:
        return {"n_records": 0, "rows": [], "notes": ["no answers yet"]}
    res = wordgames.evaluate(
        emb,
        measures=["codenames"],
        seed=seed,
        options={
            "codenames": {
                "files": [str(folder / "codenames.jsonl")],
                "datasets": None,
                "max_records": None,
            }
        },
    )
    notes = [f"{s.measure} on {s.embedding}: {s.reason}" for s in res.skipped]
    return {"n_records": n, "rows": _score_rows(res), "notes": notes}


def _oddmanout(folder: Path, rep, emb: str, seed: int) -> dict:
    import json

    import numpy as np

    import wordgames
    from wordgames.oddmanout.embedding_solver import Solution
    from wordgames.oddmanout.metrics import score
    from wordgames.oddmanout.puzzles import read_puzzles

    path = folder / "oddmanout_answers.jsonl"
    n = rep.counts.get(path.name, 0)
    if not n:
        return {"n_records": 0, "rows": [], "notes": ["no answers yet"]}
    ps = read_puzzles(path, name="people", seed=None)
    lines = path.read_text(encoding="utf-8").splitlines()
    choice = np.full(len(ps), -1, dtype=np.int64)
    for i, line in enumerate(lines):
        c = json.loads(line)["choice"]
        if c is not None:
            choice[i] = ps.words[i].tolist().index(c)
    reason = np.array(["" if c >= 0 else "none-fits" for c in choice], dtype=object)
    s = score(ps, Solution("people", choice, reason, np.zeros(ps.words.shape)))
    rows = [
        {
            "embedding": "",
            "measure": "oddmanout",
            "dataset": "collected",
            "subject": "people",
            "metric": k,
            "value": _clean(float(s[k])),
            "ci_low": None,
            "ci_high": None,
            "n": s["n"],
            "n_skipped": 0,
        }
        for k in ("pct_correct", "pct_wrong", "pct_abstained", "accuracy_answered")
    ]
    res = wordgames.evaluate(
        emb,
        measures=["oddmanout"],
        seed=seed,
        options={"oddmanout": {"puzzles": [str(path)], "sets": (), "wordnet": False}},
    )
    return {"n_records": n, "rows": rows + _score_rows(res), "notes": []}


def _wiki(folder: Path, rep, study) -> dict:
    from wordgames.serve import resources
    from wordgames.wales.baselines import (
        human_success_rate,
        wikispeedia_human_baseline,
        wikispeedia_human_table,
    )
    from wordgames.wales.loaders import read_wikispeedia_paths

    fin, unf = folder / "wiki_paths_finished.tsv", folder / "wiki_paths_unfinished.tsv"
    n = rep.counts.get(fin.name, 0) + rep.counts.get(unf.name, 0)
    if not n:
        return {"n_records": 0, "rows": [], "notes": ["no answers yet"]}
    w = study.cfg.wiki
    graph = resources.graph(w.get("graph", "wikispeedia"), w.get("names"))
    finished = read_wikispeedia_paths(fin, finished=True) if fin.is_file() else None
    rows = []
    if finished is not None:
        base = wikispeedia_human_baseline(wikispeedia_human_table(graph, finished))
        rows += [
            _wiki_row(f"human_{k}", base[k], base["n_pairs"]) for k in ("best", "average", "median")
        ]
    if unf.is_file():
        rate = human_success_rate(read_wikispeedia_paths(unf, finished=False), finished)
        rows.append(_wiki_row("success_rate", rate["success_rate"], n))
    else:
        rows.append(_wiki_row("success_rate", 1.0, n))
    return {
        "n_records": n,
        "rows": rows,
        "notes": [
            "WALES human baseline: mean over (start, target) pairs of shortest path / clicks"
        ],
    }


def _wiki_row(metric: str, value, n: int) -> dict:
    return {
        "embedding": "",
        "measure": "wales-human",
        "dataset": "collected",
        "subject": "people",
        "metric": metric,
        "value": _clean(value),
        "ci_low": None,
        "ci_high": None,
        "n": n,
        "n_skipped": 0,
    }
