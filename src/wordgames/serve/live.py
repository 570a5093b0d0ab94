"""Measures on the data collected so far: the admin page's live measures.

:func:`evaluate_study` gives them to scripts too. The study's answers are exported to the
documented user formats and read back by the families' own code.

* Codenames: ``wordgames.evaluate([embedding, People()], "codenames", options={"codenames":
  {"files": [codenames.jsonl], "datasets": None}})``: the agents' MAP against these people's
  picks and the ranks of the clues (Algorithms 4 to 7), exactly as for any human data set, and
  the people's own rows (each held-out participant by the others who played the same item:
  the study's ceiling) with each agent's share of it.
* Odd-Man-Out: the people (a player subject, :class:`RecordedAnswers`, whose answers are the
  participants') and the embedding on the same puzzles, both through ``wordgames.evaluate([people,
  embedding], "oddmanout", options={"oddmanout": {"puzzles": [...]}})``: the %correct / %wrong /
  %abstained of Table 3, with their intervals.
* Wiki: the WALES human baseline and success rate of the people's own games, by the
  ``wales-baselines`` measure on the exported paths (its ``finished`` / ``unfinished`` options).

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
from wordgames.subjects import PlayerSubject

log = logging.getLogger("wordgames.serve")
SCORE_COLUMNS = (
    "subject",
    "measure",
    "dataset",
    "agent",
    "partner",
    "metric",
    "value",
    "ci_low",
    "ci_high",
    "n",
    "n_skipped",
    "n_oov",
    "n_unread",
    "skip_reason",
    "coverage",
    "thin",
    "thin_reason",
)


def _clean(v):
    return None if isinstance(v, float) and not math.isfinite(v) else v


def _score_row(score) -> dict:
    return {k: _clean(getattr(score, k)) for k in SCORE_COLUMNS}


def _score_rows(results) -> list[dict]:
    return [_score_row(s) for s in results.scores]


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
            return _wiki(folder, rep, study, emb, seed)
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
    from wordgames.subjects import People

    res = wordgames.evaluate(  # the people too: a lab sees its own ceiling where several
        [emb, People()],  # participants answered the same board and clue
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
    notes = [f"{s.measure} on {s.subject}: {s.reason}" for s in res.skipped]
    notes += [  # why there is no ceiling yet (no board and clue played by two people)
        n for r in res.results if r.subject == "people" for n in r.notes if "no people row" in n
    ]
    return {"n_records": n, "rows": _score_rows(res), "notes": notes}


def _oddmanout(folder: Path, rep, emb: str, seed: int) -> dict:
    """The people and the embedding on the collected puzzles, both through the measure.

    The people are a *player* subject (:class:`RecordedAnswers`) whose answers are what each
    participant chose: the ``oddmanout`` measure scores them as it scores any player.
    """
    import wordgames

    path = folder / "oddmanout_answers.jsonl"
    n = rep.counts.get(path.name, 0)
    if not n:
        return {"n_records": 0, "rows": [], "notes": ["no answers yet"]}
    people = RecordedAnswers.from_oddmanout(path)
    res = wordgames.evaluate(
        [people, emb],
        measures=["oddmanout"],
        seed=seed,
        options={"oddmanout": {"puzzles": [str(path)], "sets": (), "wordnet": False}},
    )
    notes = [f"{s.measure} on {s.subject}: {s.reason}" for s in res.skipped]
    return {"n_records": n, "rows": _score_rows(res), "notes": notes}


class RecordedAnswers(PlayerSubject):
    """People as a player subject: each question gets the answer a participant gave to it.

    ``answers`` maps a question's key (game, role and its words, sorted) to the answers given,
    in the order they were given; a question asked again gets the next answer (the same
    puzzle may be played more than once). ``None`` is "none fits". A question nobody answered
    is an error: the subject only plays what was played.

    Examples
    --------
    >>> from wordgames.subjects import Question
    >>> people = RecordedAnswers("people", {("oddmanout", "solver", ("a", "b", "c")): ["b", None]},
    ...                          "0" * 64)
    >>> q = Question("oddmanout", "solver", {"words": ("c", "a", "b")})
    >>> people.answer(q), people.answer(q)
    ('b', 'none')
    """

    def __init__(self, name: str, answers: dict, source_sha256: str):
        super().__init__(name)
        self.answers = {k: list(v) for k, v in answers.items()}
        self.source_sha256 = source_sha256
        self._given: dict = {}

    @staticmethod
    def key(question) -> tuple:
        return (question.game, question.role, tuple(sorted(question.fields["words"])))

    def answer(self, question) -> str:
        key = self.key(question)
        given = self.answers.get(key)
        if not given:
            raise KeyError(f"nobody answered {key!r}")
        i = self._given.get(key, 0)
        self._given[key] = i + 1
        chosen = given[i % len(given)]
        return "none" if chosen is None else chosen

    def identity(self) -> dict:
        return {"kind": "recorded-answers", "sha256": self.source_sha256}

    @classmethod
    def from_oddmanout(cls, path: Path, name: str = "people") -> RecordedAnswers:
        """The answers of an exported ``oddmanout_answers.jsonl`` (``words`` and ``choice``)."""
        import hashlib
        import json

        data = path.read_bytes()
        answers: dict = {}
        for line in data.decode("utf-8").splitlines():
            if line.strip():
                rec = json.loads(line)
                key = ("oddmanout", "solver", tuple(sorted(rec["words"])))
                answers.setdefault(key, []).append(rec["choice"])
        return cls(name, answers, hashlib.sha256(data).hexdigest())


def _wiki(folder: Path, rep, study, emb: str, seed: int) -> dict:
    """The people's own games, scored by the ``wales-baselines`` measure (collected games)."""
    import wordgames

    fin, unf = folder / "wiki_paths_finished.tsv", folder / "wiki_paths_unfinished.tsv"
    n = rep.counts.get(fin.name, 0) + rep.counts.get(unf.name, 0)
    if not n:
        return {"n_records": 0, "rows": [], "notes": ["no answers yet"]}
    w = study.cfg.wiki
    options = {
        "finished": str(fin) if fin.is_file() else None,
        "unfinished": str(unf) if unf.is_file() else None,
        "graph": w.get("graph", "wikispeedia"),
        "names": w.get("names"),
    }
    res = wordgames.evaluate(
        emb, measures=["wales-baselines"], seed=seed, options={"wales-baselines": options}
    )
    notes = [f"{s.measure} on {s.subject}: {s.reason}" for s in res.skipped]
    notes += [n for r in res.results for n in r.notes]
    return {"n_records": n, "rows": _score_rows(res), "notes": notes}


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
    >>> (r,) = display_rows([{"subject": "glove", "measure": "codenames", "dataset": "collected",
    ...     "agent": "cluster", "metric": "map", "value": 0.4, "ci_low": 0.1, "ci_high": 0.7,
    ...     "n": 3, "n_skipped": 0}])
    >>> r["agent"], r["value"], r["ci"], r["n"], r["coverage"], r["thin"], r["note"]
    ('cluster', '0.4', '0.1 – 0.7', '3', '100%', True, 'thin: n = 3 is below 30, not ranked')

    A snapshot stored before the three names (``embedding``, ``subject``) reads the same:

    >>> (old,) = display_rows([{"embedding": "glove", "measure": "codenames",
    ...     "dataset": "collected", "subject": "cluster", "metric": "map", "value": 0.4,
    ...     "n": 3, "n_skipped": 0}])
    >>> old["subject"], old["agent"]
    ('glove', 'cluster')
    """
    from wordgames.measure import Score
    from wordgames.report.text import agent_text, score_skipped_text

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
                "subject": score.subject,
                "dataset": score.dataset,
                "agent": agent_text(score),
                "metric": score.metric,
                "value": fmt_number(r.get("value")),
                "ci": "—" if lo is None or hi is None else f"{fmt_number(lo)} – {fmt_number(hi)}",
                "n": "—" if n is None else f"{n:,}",
                "coverage": fmt_coverage(cov),
                "thin": thin,
                "note": "; ".join(notes),
            }
        )
    return out
