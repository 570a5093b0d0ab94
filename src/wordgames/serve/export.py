"""``wordgames collect export``: a study database written as the documented user formats.

* ``codenames.jsonl``: human-receiver and human-sender records in the user JSONL format of
  ``docs/codenames-data.md`` (read by ``read_user_file``, ``wordgames codenames evaluate
  --file``, and ``wordgames.evaluate(options={"codenames": {"files": [...]}})``);
* ``wiki_paths_finished.tsv`` / ``wiki_paths_unfinished.tsv``: Wikispeedia's layout (read by
  ``wordgames.wales.loaders.read_wikispeedia_paths``; the WALES human baseline);
* ``oddmanout_answers.jsonl``: one line per answered puzzle, a puzzle file for
  ``read_puzzles`` with the person's ``choice`` and ``named_category`` beside it;
  ``oddmanout_validated.jsonl``: the puzzles whose intended odd man was picked by a majority
  of the people who saw them (the paper's validation of crowdsourced puzzles);
* ``oddmanout_seeds.jsonl`` (protocol seeds, ``read_protocol_seeds``) and
  ``oddmanout_crowd_puzzles.jsonl`` (the protocol's puzzles from people's categories);
* ``participants.tsv`` (hashed ids, condition, status, times) and ``manifest.json``.

Attention checks are never exported as records; participants who failed one are left out
unless ``include_flagged``.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import select

from wordgames.serve import store
from wordgames.serve.db import Database
from wordgames.serve.models import Answer, Participant

log = logging.getLogger("wordgames.serve")
FILES = (
    "codenames.jsonl",
    "wiki_paths_finished.tsv",
    "wiki_paths_unfinished.tsv",
    "oddmanout_answers.jsonl",
    "oddmanout_validated.jsonl",
    "oddmanout_seeds.jsonl",
    "oddmanout_crowd_puzzles.jsonl",
)


@dataclass
class Row:
    """One exported answer: study, participant, item payload, answer, outcome."""

    study: store.LoadedStudy
    participant: Participant
    answer: Answer
    payload: dict
    data: dict
    outcome: dict

    @property
    def rid(self) -> str:
        """A stable record id: ``<study>:p<participant number>:t<position>``."""
        return f"{self.study.slug}:p{self.participant.seq}:t{self.answer.position}"

    @property
    def meta(self) -> dict:
        """What a record's ``meta`` holds: never personal data, the participant only hashed."""
        return {
            "study": self.study.slug,
            "participant": self.participant.pid_hash[:16],
            "condition": self.participant.condition,
            "position": self.answer.position,
            "rt_ms": self.answer.rt_ms,
            "client_rt_ms": self.answer.client_rt_ms,
            "time": self.answer.created_at.isoformat(timespec="seconds") + "Z",
        }


@dataclass
class ExportReport:
    """What was written: file -> number of lines/records, and what was left out."""

    out_dir: Path
    counts: dict = field(default_factory=dict)
    left_out: dict = field(default_factory=dict)

    def files(self) -> list[Path]:
        """The files written."""
        return [self.out_dir / f for f, n in self.counts.items() if n]


def collect_rows(
    db: Database,
    studies: list[str] | None = None,
    *,
    include_flagged: bool = False,
    completed_only: bool = False,
    left_out: dict | None = None,
) -> list[Row]:
    """The trial answers of the given studies (default: all), attention checks excluded."""
    left_out = {} if left_out is None else left_out
    rows = []
    for slug in studies or store.list_studies(db):
        study = store.load_study(db, slug)
        if study is None:
            raise store.StudyError(f"no study {slug!r} in the database")
        with db.read() as s:
            parts = {
                p.id: p
                for p in s.scalars(select(Participant).where(Participant.study_id == study.id))
            }
            answers = list(
                s.scalars(
                    select(Answer)
                    .where(Answer.study_id == study.id)
                    .order_by(Answer.participant_id, Answer.position)
                )
            )
        for a in answers:
            p = parts[a.participant_id]
            why = (
                "attention check"
                if a.kind == "attention"
                else "participant failed an attention check"
                if p.attention_failed and not include_flagged
                else "participant did not complete"
                if completed_only and p.status != "completed"
                else None
            )
            if why:
                left_out[why] = left_out.get(why, 0) + 1
                continue
            rows.append(
                Row(
                    study,
                    p,
                    a,
                    study.items[a.item_id][3],
                    Answer.loads(a.payload),
                    Answer.loads(a.outcome),
                )
            )
    return rows


def codenames_records(rows: list[Row]) -> list[dict]:
    """User-format JSONL objects of the Codenames answers."""
    out = []
    for r in rows:
        game, pl, d = r.study.cfg.game, r.payload, r.data
        if game == "codenames-receiver":
            out.append(
                {
                    "kind": "receiver",
                    "id": r.rid,
                    "board": pl["board"],
                    "clue": pl["clue"],
                    "chosen": d["chosen"],
                    "clue_source": pl["clue_source"],
                    "number": pl["number"],
                    "blue": pl["blue"],
                    "red": pl["red"],
                    "meta": {
                        **r.meta,
                        "agent": pl.get("agent", {}),
                        "agent_number": pl.get("agent_number"),
                    },
                }
            )
        elif game == "codenames-sender":
            meta = {
                **r.meta,
                **({"agent_feedback": r.outcome["feedback"]} if "feedback" in r.outcome else {}),
            }
            out.append(
                {
                    "kind": "sender",
                    "id": r.rid,
                    "blue": pl["blue"],
                    "red": pl["red"],
                    "clue": d["clue"],
                    "targets": d["targets"],
                    "number": d["number"],
                    "clue_source": "human",
                    "meta": meta,
                }
            )
    return out


def wiki_lines(rows: list[Row]) -> tuple[list[str], list[str]]:
    """Wikispeedia ``paths_finished.tsv`` and ``paths_unfinished.tsv`` data lines."""
    finished, unfinished = [], []
    for r in rows:
        if r.study.cfg.game != "wiki":
            continue
        d = r.data
        path = ";".join(t if t == "<" else quote(t, safe="") for t in d["path"])
        head = [
            r.participant.pid_hash[:16],
            str(int(r.answer.created_at.replace(tzinfo=UTC).timestamp())),
            str(round(d["duration_ms"] / 1000)),
        ]
        if d["success"]:
            finished.append("\t".join([*head, path, "NULL"]))
        else:
            unfinished.append("\t".join([*head, path, quote(d["target"], safe=""), d["end"]]))
    return finished, unfinished


def oddmanout_records(rows: list[Row]) -> tuple[list[dict], list[dict]]:
    """Answered puzzles (with the person's choice) and the majority-validated puzzles."""
    answers, votes = [], defaultdict(lambda: [0, 0])
    first: dict = {}
    for r in rows:
        if r.study.cfg.game != "oddmanout":
            continue
        pl, d = r.payload, r.data
        answers.append(
            {
                "words": pl["words"],
                "answer": pl["answer"],
                "category": pl["category"],
                "choice": d["choice"],
                "named_category": d["category"],
                "source": pl["source"],
                "line": pl["line"],
                "id": r.rid,
                **r.meta,
            }
        )
        key = (tuple(sorted(pl["words"])), pl["answer"])
        first.setdefault(
            key, {"words": pl["words"], "answer": pl["answer"], "category": pl["category"]}
        )
        votes[key][0] += d["choice"] == pl["answer"]
        votes[key][1] += 1
    validated = [
        {**first[k], "agree": v[0], "n": v[1]} for k, v in votes.items() if 2 * v[0] > v[1]
    ]
    return answers, validated


def crowd_records(rows: list[Row], seed: int = 0) -> tuple[list[dict], list[dict]]:
    """Protocol seeds (categories with everyone's examples) and the protocol's puzzles."""
    from wordgames.oddmanout.generate import protocol_puzzles

    cats: dict[str, dict[str, list[str]]] = defaultdict(dict)
    for r in rows:
        if r.study.cfg.game == "oddmanout-crowd":
            ex = cats[r.payload["seed"]].setdefault(r.payload["category"], [])
            ex.extend(w for w in r.data["examples"] if w not in ex)
    seeds, puzzles = [], []
    for word, c in cats.items():
        seeds.append({"seed": word, "categories": c})
        usable = {k: v for k, v in c.items() if len(v) >= 3}
        if len(usable) >= 2:
            puzzles.extend(protocol_puzzles(word, usable, seed=seed).to_records())
    return seeds, puzzles


def export(
    db: Database,
    out_dir: str | Path,
    studies: list[str] | None = None,
    *,
    include_flagged: bool = False,
    completed_only: bool = False,
) -> ExportReport:
    """Write every file of the module docstring that has data into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rep = ExportReport(out)
    rows = collect_rows(
        db,
        studies,
        include_flagged=include_flagged,
        completed_only=completed_only,
        left_out=rep.left_out,
    )
    answers, validated = oddmanout_records(rows)
    seeds, crowd = crowd_records(rows, seed=rows[0].study.cfg.seed if rows else 0)
    finished, unfinished = wiki_lines(rows)
    _jsonl(rep, "codenames.jsonl", codenames_records(rows))
    _tsv(
        rep,
        "wiki_paths_finished.tsv",
        finished,
        "# hashedIpAddress   timestamp   durationInSec   path   rating",
    )
    _tsv(
        rep,
        "wiki_paths_unfinished.tsv",
        unfinished,
        "# hashedIpAddress   timestamp   durationInSec   path   target   type",
    )
    _jsonl(rep, "oddmanout_answers.jsonl", answers)
    _jsonl(rep, "oddmanout_validated.jsonl", validated)
    _jsonl(rep, "oddmanout_seeds.jsonl", seeds)
    _jsonl(rep, "oddmanout_crowd_puzzles.jsonl", crowd)
    _participants(db, rep, studies)
    manifest = {
        "files": rep.counts,
        "left_out": rep.left_out,
        "studies": {
            s: store.load_study(db, s).cfg.to_dict() for s in (studies or store.list_studies(db))
        },
        "include_flagged": include_flagged,
        "completed_only": completed_only,
    }
    (out / "manifest.json").write_text(
        json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8"
    )
    return rep


def _jsonl(rep: ExportReport, name: str, records: list[dict]) -> None:
    path = rep.out_dir / name
    if not records:
        path.unlink(missing_ok=True)
        return
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
    )
    rep.counts[name] = len(records)


def _tsv(rep: ExportReport, name: str, lines: list[str], header: str) -> None:
    path = rep.out_dir / name
    if not lines:
        path.unlink(missing_ok=True)
        return
    path.write_text(header + "\n" + "".join(line + "\n" for line in lines), encoding="utf-8")
    rep.counts[name] = len(lines)


def _participants(db: Database, rep: ExportReport, studies) -> None:
    lines = [
        "study\tparticipant\tsource\tcondition\tstatus\tposition\tattention_failed\t"
        "created\tcompleted"
    ]
    for slug in studies or store.list_studies(db):
        study = store.load_study(db, slug)
        with db.read() as s:
            for p in s.scalars(
                select(Participant)
                .where(Participant.study_id == study.id)
                .order_by(Participant.seq)
            ):
                lines.append(
                    "\t".join(
                        map(
                            str,
                            [
                                slug,
                                p.pid_hash[:16],
                                p.source,
                                p.condition,
                                p.status,
                                p.position,
                                p.attention_failed,
                                p.created_at.isoformat(timespec="seconds"),
                                p.completed_at.isoformat(timespec="seconds")
                                if p.completed_at
                                else "",
                            ],
                        )
                    )
                )
    (rep.out_dir / "participants.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rep.counts["participants.tsv"] = len(lines) - 1
