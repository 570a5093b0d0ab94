"""Measures on the data collected so far: the admin page's live measures.

:func:`evaluate_study` gives them to scripts too. The study's answers are exported to the
documented user formats and read back by the families' own code.

* Codenames: ``wordgames.evaluate(embedding, "codenames", options={"codenames": {"files":
  [codenames.jsonl], "datasets": None}})``: the agents' MAP against these people's picks and
  the ranks of the clues (Algorithms 4 to 7), exactly as for any human data set.
* Odd-Man-Out: the people as a solver, scored by ``wordgames.oddmanout.metrics.score`` (the
  %correct / %wrong / %abstained of Table 3), and the embedding solver on the same puzzles
  through ``wordgames.evaluate(..., "oddmanout", options={"oddmanout": {"puzzles": [...]}})``.
* Wiki: the WALES human baseline (``wikispeedia_human_table`` / ``wikispeedia_human_baseline``)
  and success rate (``human_success_rate``) on the exported paths.

Every row carries ``n``, ``coverage`` and ``thin`` / ``thin_reason``
(:func:`wordgames.measure.is_thin`, also for the people's own scores); :func:`display_rows`
formats them for the admin page and ``wordgames collect measures``.
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
    "n_oov",
    "skip_reason",
    "coverage",
    "thin",
    "thin_reason",
)
NAN2 = (math.nan, math.nan)


def _clean(v):
    return None if isinstance(v, float) and not math.isfinite(v) else v


def _score_row(score) -> dict:
    return {k: _clean(getattr(score, k)) for k in SCORE_COLUMNS}


def _score_rows(results) -> list[dict]:
    return [_score_row(s) for s in results.scores]


def _people_row(
    measure: str, metric: str, value, n: int, *, ci=NAN2, coverage: float = math.nan
) -> dict:
    """A row of the people's own scores, judged thin by the same rule as every Score."""
    from wordgames.measure import Score, is_thin

    score = Score(
        "",
        measure,
        "collected",
        "people",
        metric,
        math.nan if value is None else float(value),
        ci_low=ci[0],
        ci_high=ci[1],
        n=n,
        coverage=coverage,
    )
    score.thin, score.thin_reason = is_thin(score)
    return _score_row(score)


def evaluate_study(
    db: Database,
    slug: str,
    embedding: str | None = None,
    *,
    out_dir: str | Path | None = None,
    seed: int = 0,
) -> dict:
    """Measures on a study's data so far.

    Returns ``{"n_records": int, "rows": [score rows...], "notes": [...]}``. ``out_dir`` keeps
    the exported files (default: a temporary folder).
    """
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
    from wordgames.oddmanout.metrics import score, score_intervals
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
    people = Solution("people", choice, reason, np.zeros(ps.words.shape))
    s = score(ps, people)
    ci = score_intervals(ps, people, seed=seed)
    rows = [  # every answer is used: coverage 1
        _people_row("oddmanout", k, s[k], s["n"], ci=ci.get(k, NAN2), coverage=1.0)
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
        games = base["n_games"] + base["n_games_outside_graph"]
        cov = base["n_games"] / games if games else math.nan
        rows += [
            _people_row("wales-human", f"human_{k}", base[k], base["n_pairs"], coverage=cov)
            for k in ("best", "average", "median")
        ]
    if unf.is_file():
        rate = human_success_rate(read_wikispeedia_paths(unf, finished=False), finished)
        rows.append(_people_row("wales-human", "success_rate", rate["success_rate"], n))
    else:
        rows.append(_people_row("wales-human", "success_rate", 1.0, n))
    return {
        "n_records": n,
        "rows": rows,
        "notes": [
            "WALES human baseline: mean over (start, target) pairs of shortest path / clicks"
        ],
    }


# --------------------------------------------------------------------------- display
def fmt_number(value) -> str:
    """A value or interval bound as the admin page shows it, the same for every row.

    Thousands separated from 1,000 on, else 4 significant digits; never in scientific
    notation; ``"—"`` when missing.

    Examples
    --------
    >>> [fmt_number(v) for v in (31860.2, 0.07968, 12.3456, 100.0, -0.0893, 999.97, None)]
    ['31,860', '0.07968', '12.35', '100', '-0.0893', '1,000', '—']
    """
    if value is None or isinstance(value, bool) or not math.isfinite(float(value)):
        return "—"
    v = float(value)
    if v == 0:
        return "0"
    decimals = min(8, max(0, 3 - math.floor(math.log10(abs(v)))))
    if abs(round(v, decimals)) >= 1000:
        return f"{v:,.0f}"
    text = f"{v:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("0", "-0") else text


def fmt_coverage(coverage) -> str:
    """A coverage in whole percent, rounded down (``"—"`` when unknown).

    Examples
    --------
    >>> fmt_coverage(1.0), fmt_coverage(0.996), fmt_coverage(4 / 196), fmt_coverage(0.001)
    ('100%', '99%', '2%', '<1%')
    """
    if coverage is None or not math.isfinite(float(coverage)):
        return "—"
    pct = math.floor(float(coverage) * 100 + 1e-9)
    return "<1%" if pct == 0 and coverage > 0 else f"{pct}%"


def _thinness(row: dict) -> tuple[bool, str]:
    """A row's ``(thin, reason)``; judged again for snapshots stored before rows carried it."""
    if row.get("thin") is not None:
        return bool(row["thin"]), row.get("thin_reason") or ""
    from wordgames.measure import Score, is_thin

    return is_thin(Score.from_dict(row))


def display_rows(rows: list[dict]) -> list[dict]:
    """Score rows of a snapshot as the admin page and ``wordgames collect measures`` show them.

    Every number column has one format (:func:`fmt_number`; counts thousands separated). A thin
    score (too few items or too little coverage, :func:`wordgames.measure.is_thin`) is marked
    ``thin`` and its ``note`` says why it is not ranked.

    Examples
    --------
    >>> (r,) = display_rows([{"embedding": "glove", "measure": "codenames", "dataset": "collected",
    ...     "subject": "cluster", "metric": "map", "value": 0.4, "ci_low": 0.1, "ci_high": 0.7,
    ...     "n": 3, "n_skipped": 0}])
    >>> r["value"], r["ci"], r["n"], r["coverage"], r["thin"], r["note"]
    ('0.4', '0.1 – 0.7', '3', '100%', True, 'thin: n = 3 is below 30, not ranked')
    """
    from wordgames.measure import Score
    from wordgames.report.text import score_skipped_text

    out = []
    for r in rows:
        thin, reason = _thinness(r)
        score = Score.from_dict({**r, "n_skipped": r.get("n_skipped") or 0})
        cov = r.get("coverage")
        if cov is None:
            cov = score.known_coverage()
        lo, hi = r.get("ci_low"), r.get("ci_high")
        n = score.n
        notes = [f"thin: {reason or 'too little data'}, not ranked"] if thin else []
        if score_skipped_text(score):
            notes.append(score_skipped_text(score))
        out.append(
            {
                **{k: r.get(k, "") for k in ("embedding", "dataset", "subject", "metric")},
                "value": fmt_number(r.get("value")),
                "ci": "—" if lo is None or hi is None else f"{fmt_number(lo)} – {fmt_number(hi)}",
                "n": "—" if n is None else f"{n:,}",
                "coverage": fmt_coverage(cov),
                "thin": thin,
                "note": "; ".join(notes),
            }
        )
    return out
