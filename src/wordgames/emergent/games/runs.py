"""A training run on disk, and the paper's Table 1 assembled from several runs.

A run folder holds ``config.json`` (the trainer's parameters), ``train_log.jsonl`` (one line
per ``eval_every`` steps: step, loss, accuracy, val_accuracy, elapsed_s), ``agents.pt`` (the
state dicts), ``eval.json`` (test accuracy, the Table 1 row and every language measure),
``messages.jsonl`` (message word ids, the rule's concepts and the sender's object vector per
test turn, readable by ``wordgames cbm evaluate``, which re-measures the run to its own row) and ``best_match.png`` (the best-match graph).
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

from wordgames.emergent.games.train import EOS_ID
from wordgames.results import write_json_atomic
from wordgames.safeio import write_text_atomic

RUN_FILE = "run.json"

__all__ = [
    "TABLE1_COLUMNS",
    "format_table1",
    "open_run",
    "read_run_record",
    "table_row",
    "train_and_evaluate",
]

TABLE1_KEYS = frozenset({"Game", "Com", "l", "d"})
PAPER_CORRELATION = {"Shape": 0.70, "Thing": 0.79}
TABLE1_COLUMNS = (
    "Game",
    "Com",
    "l",
    "d",
    "Cons",
    "Phrs",
    "#w",
    "#m",
    "Acc",
    "TopSim",
    "AMI",
    "CBM",
    "Amb",
    "Para",
    "Unm",
)


def train_and_evaluate(
    trainer,
    out_dir: str | Path,
    *,
    test_turns: int = 1000,
    callback=None,
    plot: bool = True,
    resume: bool = False,
    preset: str | None = None,
):
    """Fit ``trainer`` (resuming its checkpoint in ``out_dir``), save, evaluate, write everything.

    ``config.json`` (and ``run.json`` with the preset's name) are written before training, so
    that an interrupted run can be resumed (:func:`open_run`). Returns the
    :class:`~wordgames.emergent.games.train.GameEvaluation`.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out_dir / "config.json", trainer.get_params())
    if preset is not None:
        write_json_atomic(out_dir / RUN_FILE, {"preset": preset})
    trainer.fit(out_dir, callback=callback, resume=resume)
    trainer.save(out_dir)
    evaluation = trainer.evaluate(test_turns)
    record = evaluation.as_dict()
    record["history"] = trainer.history_
    record["preset"] = preset or _run_preset(out_dir)
    if plot and evaluation.report.cbm_result is not None:
        from wordgames.emergent.plots import plot_best_match_graph

        row = evaluation.table1_row()
        title = (
            f"{row['Game']} {row['Com']} l={row['l']} d={row['d']}: CBM {evaluation.report.cbm:.2f}"
        )
        path = plot_best_match_graph(
            evaluation.report.cbm_result, out_dir / "best_match.png", title=title
        )
        record["plots"] = [str(path)]
    write_json_atomic(out_dir / "eval.json", record)
    _write_messages(out_dir / "messages.jsonl", evaluation, trainer.eos)
    return evaluation


#: the Table 1 column of each Score metric of the ``cbm`` measure
TABLE1_METRICS = {
    "Cons": "n_unique_concepts",
    "Phrs": "n_unique_phrases",
    "#w": "n_unique_words",
    "#m": "n_unique_messages",
    "Acc": "accuracy",
    "TopSim": "topsim",
    "AMI": "ami",
    "CBM": "cbm",
    "Amb": "ambiguity_rate",
    "Para": "paraphrase_rate",
    "Unm": "unmatched_concept_rate",
}
_COUNT_COLUMNS = frozenset({"Cons", "Phrs", "#w", "#m"})


def table1_row_from_scores(result, dataset: str, config: dict) -> dict:
    """A run's Table 1 row: its configuration and the ``cbm`` measure's Score rows.

    ``config`` gives ``Game``, ``Com``, ``l`` and ``d``; the measures are the Score rows of the
    message log named ``dataset``. A column whose Score row is missing (a log without per-turn accuracy) is None.
    """
    row = {k: config[k] for k in TABLE1_KEYS}
    for column, metric in TABLE1_METRICS.items():
        rows = [s for s in result.scores if s.dataset == dataset and s.metric == metric]
        value = rows[0].value if rows else None
        row[column] = int(value) if column in _COUNT_COLUMNS and value is not None else value
    return row


def _write_messages(path: Path, evaluation, eos: bool) -> None:
    """Each test turn's message, concepts, the object vector the sender saw and the accuracy.

    The objects are what TopSim compares the messages with: with them, ``wordgames cbm
    evaluate messages.jsonl`` re-measures a run to its own Table 1 row, accuracy included.
    """
    play = evaluation.play
    objects = play.sender_inputs.tolist()
    accuracy = play.turn_accuracy.tolist()
    lines = []
    for ids, concepts, obj, acc in zip(
        play.word_ids.tolist(), evaluation.concepts, objects, accuracy, strict=True
    ):
        if eos:  # the message ends at its first EOS, which is not a word
            ids = ids[: ids.index(EOS_ID)] if EOS_ID in ids else ids
        rec = {"message": ids, "concepts": concepts, "object": obj, "accuracy": acc}
        lines.append(json.dumps(rec) + "\n")
    write_text_atomic(path, "".join(lines))


def open_run(out_dir: str | Path, params: dict, preset: str | None = None):
    """The trainer of a run folder and whether it resumes: ``(trainer, resume, preset)``.

    A folder with ``checkpoint.pt`` and ``config.json`` resumes with its saved configuration;
    ``params`` may change only what a resumed run may change (``steps``, ``time_limit``, ...):
    any other value that differs from the saved one is an error. Otherwise a new trainer is
    built from ``params``.
    """
    from wordgames.emergent.games.train import CHECKPOINT, RESUMABLE, GameTrainer
    from wordgames.errors import WordgamesError

    out_dir = Path(out_dir)
    config = out_dir / "config.json"
    if not ((out_dir / CHECKPOINT).is_file() and config.is_file()):
        return GameTrainer(**params), False, preset
    saved = json.loads(config.read_text(encoding="utf-8"))
    saved_preset = _run_preset(out_dir)
    if preset is not None and preset != saved_preset:
        raise WordgamesError(f"{out_dir} is a run of preset {saved_preset!r}, not {preset!r}")
    clash = sorted(
        k for k, v in params.items() if k not in RESUMABLE and json_value(v) != saved.get(k)
    )
    if clash:
        raise WordgamesError(
            f"{out_dir} holds a run with other settings ({', '.join(clash)}); "
            "only steps, time limit, target accuracy, checkpointing and threads may change "
            "on resume: use another --out for a new run"
        )
    saved.update({k: v for k, v in params.items() if k in RESUMABLE})
    return GameTrainer(**saved), True, saved_preset


def json_value(value):
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def _run_preset(out_dir: Path) -> str | None:
    path = out_dir / RUN_FILE
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8")).get("preset")


def read_run_record(run) -> dict:
    """A run folder's configuration and training record (``eval.json``), without its measures.

    ``Game``, ``Com``, ``l`` and ``d``; ``run``; ``preset`` (None when the run was not trained
    from a preset); ``steps`` and ``train_s`` (training steps and seconds); ``max_len``;
    ``seed`` (the trainer's, which is the measure's seed: TopSim samples as the run did) and
    ``log`` (the message log, or None). The measures come from the log through
    :func:`wordgames.experiments.cbm_table`, never from the numbers ``eval.json`` recorded.
    """
    from wordgames.errors import DataFormatError

    path = Path(run) / "eval.json"
    if not path.is_file():
        raise DataFormatError(
            path, None, "no eval.json: is this a `wordgames cbm train` output folder?"
        )
    try:
        rec = json.loads(path.read_text(encoding="utf-8"))
        row = {k: rec["table1_row"][k] for k in TABLE1_KEYS}
        params = rec.get("parameters") or {}
        seed = int(params.get("random_state") or 0)
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataFormatError(
            path, None, f"expected a JSON record with 'table1_row' ({exc!r})"
        ) from None
    row.update(
        run=str(run),
        preset=rec.get("preset"),
        steps=params.get("n_steps"),
        train_s=params.get("train_seconds"),
        max_len=params.get("max_len"),
        seed=seed,
        log=messages_file(Path(run)),
    )
    return row


def table_row(result, dataset: str, record: dict) -> dict:
    """A run's row in the tables: its record and the Score rows of its log ``dataset``.

    Besides the Table 1 columns: ``language`` (the Table 4 rates and the ``counts`` table of
    the log), ``q`` (CBM's denominator, Table 4's "Totl Edgs") and ``thin`` (column -> why, for
    each thin Score: flagged by the printers, left out of the correlation).
    """
    row = {**record, **table1_row_from_scores(result, dataset, record)}
    scores = {s.metric: s for s in result.scores if s.dataset == dataset}
    row["thin"] = {
        col: scores[m].thin_reason
        for col, m in TABLE1_METRICS.items()
        if m in scores and scores[m].thin
    }
    counts = {
        r["count"]: r["value"] for r in result.tables.get("counts", []) if r.get("log") == dataset
    }
    rates = ("paraphrase_rate", "precision", "recall")
    row["language"] = {"counts": counts, **{m: scores[m].value for m in rates if m in scores}}
    row["q"] = counts.get("edges")
    return row


def sort_rows(rows: list[dict]) -> list[dict]:
    """The rows in the paper's order: Shape before Thing, then ``l``, channel and preset."""
    order = {"Shape": 0, "Thing": 1}
    return sorted(
        rows, key=lambda r: (order.get(r["Game"], 2), r["l"], r["Com"], r["preset"] or "")
    )


def messages_file(run: Path) -> Path | None:
    """A run's ``messages.jsonl``, or the ``messages.jsonl.gz`` of a shipped run (or None)."""
    for name in ("messages.jsonl", "messages.jsonl.gz"):
        if (run / name).is_file():
            return run / name
    return None


def _fmt(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def format_table1(rows: list[dict], paper: bool = False) -> str:
    """Markdown table in the column order of the paper's Table 1.

    With ``paper``, every measure cell reads ``ours (paper)`` where the paper has the row
    (same game, channel, ``l`` and ``d``), and a last column gives the training (steps, time).
    """
    from wordgames.emergent.games.presets import table1_preset

    columns = list(TABLE1_COLUMNS) + (["training"] if paper else [])
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        ref = table1_preset(row["Game"], row["Com"], row["l"]) if paper else None
        ref = ref.paper if ref is not None and ref.paper["d"] == row["d"] else {}
        thin = row.get("thin") or {}
        cells = [
            _pair(row.get(c), ref.get(c), c in TABLE1_KEYS) + (THIN_MARK if c in thin else "")
            for c in TABLE1_COLUMNS
        ]
        if paper:
            cells.append(_training(row))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


THIN_MARK = " †"


def table_notes(rows: list[dict]) -> list[str]:
    """What the tables cannot show: each thin cell (marked †) and each run without accuracy."""
    notes = [
        f"† {Path(r['run']).name} {col}: thin ({why}); left out of the correlation"
        for r in rows
        for col, why in (r.get("thin") or {}).items()
    ]
    no_acc = [Path(r["run"]).name for r in rows if r.get("Acc") is None]
    if no_acc:
        notes.append(
            f"Acc -: the message logs of {', '.join(no_acc)} carry no per-turn accuracy "
            "(logs-only runs); `wordgames cbm train --preset NAME` trains a run whose log has it"
        )
    return notes


def _pair(ours, theirs, key: bool = False) -> str:
    if key or theirs is None:
        return _fmt(ours)
    return f"{_fmt(ours)} ({_fmt(theirs)})"


def _training(row: dict) -> str:
    steps, secs = row.get("steps"), row.get("train_s")
    if steps is None or secs is None:
        return "-"
    return f"{steps:,} steps, {secs / 60:.1f} min"


def _fmt3(value) -> str:
    if isinstance(value, float) and not math.isnan(value):
        return f"{value:.3f}"
    return _fmt(value)


def table4_values(row: dict) -> dict:
    """Our values in the columns of the paper's Table 4 (from a run's measures)."""
    lang, counts = row.get("language", {}), row.get("language", {}).get("counts", {})
    good, amb, para = (counts.get(k) for k in ("good", "ambiguous", "paraphrase"))
    return {
        "Unq Msgs": row.get("#m"),
        "Unq Wrds": row.get("#w"),
        "Unq Prs": row.get("Phrs"),
        "Unq Cons": row.get("Cons"),
        "Totl Edgs": row.get("q"),
        "Good Edgs": good,
        "Amb Edgs": amb,
        "Phrs Edgs": para,
        "Totl Cons": counts.get("concept_occurrences"),
        "Unm Cons": counts.get("unmatched_concept"),
        "Par Scor": lang.get("paraphrase_rate"),
        "Prc": lang.get("precision"),
        "Rcl": lang.get("recall"),
    }


#: our Table 1 column of each measure column of the paper's Table 3
_TABLE3_OURS = {"Acc": "ACC", "AMI": "AMI", "CBM": "Best Match"}


def format_appendix_d(rows: list[dict]) -> str:
    """Tables 3 and 4 (markdown, ``ours (paper)``) for the runs of the appendix D presets."""
    from wordgames.emergent.games.presets import PRESETS, TABLE3_COLUMNS, TABLE4_COLUMNS

    runs = [(r, PRESETS[r["preset"]]) for r in rows if r.get("preset") in PRESETS]
    runs = [(r, p) for r, p in runs if p.table == "3"]
    if not runs:
        return ""
    t3 = ["| " + " | ".join(TABLE3_COLUMNS) + " | training |", "|" + "---|" * 11]
    t4 = ["| " + " | ".join(TABLE4_COLUMNS) + " |", "|" + "---|" * len(TABLE4_COLUMNS)]
    for row, preset in sorted(runs, key=lambda rp: rp[1].name):
        ref = preset.paper
        ours = {column: row.get(ours_of) for ours_of, column in _TABLE3_OURS.items()}
        cells = [_fmt(ref[c]) for c in TABLE3_COLUMNS[:6]] + ["-"]  # we have no epochs
        thin = {_TABLE3_OURS[c] for c in (row.get("thin") or {}) if c in _TABLE3_OURS}
        cells += [
            f"{_fmt3(ours[c])} ({_fmt3(ref[c])})" + (THIN_MARK if c in thin else "")
            for c in TABLE3_COLUMNS[7:]
        ]
        t3.append("| " + " | ".join(cells + [_training(row)]) + " |")
        vals = table4_values(row)
        cells = [_fmt(ref["Exp"])] + [
            f"{_fmt3(vals[c])} ({_fmt3(ref[c])})" for c in TABLE4_COLUMNS[1:]
        ]
        t4.append("| " + " | ".join(cells) + " |")
    return (
        "Table 3 layout (ours (paper); Best Epoch: the paper's, we train by steps)\n"
        + "\n".join(t3)
        + "\n\nTable 4 layout (ours (paper))\n"
        + "\n".join(t4)
        + "\n"
    )


def ami_cbm_correlation(rows: list[dict]) -> dict[str, tuple[float, int]]:
    """Pearson correlation of AMI and CBM over the runs, per game and over all: (r, n).

    The paper reports 0.70 (Shape) and 0.79 (Thing). ``r`` is NaN with fewer than three runs
    or when either measure is constant; runs with an undefined or thin AMI or CBM are left out.
    """
    import numpy as np

    out = {}
    for game in ("Shape", "Thing", "all"):
        pairs = [
            (r["AMI"], r["CBM"])
            for r in rows
            if game in ("all", r["Game"])
            and not {"AMI", "CBM"} & set(r.get("thin") or {})
            and all(
                isinstance(r.get(k), int | float) and math.isfinite(r[k]) for k in ("AMI", "CBM")
            )
        ]
        x = np.array(pairs, dtype=float).reshape(-1, 2)
        ok = len(x) >= 3 and x[:, 0].std() > 0 and x[:, 1].std() > 0
        out[game] = (float(np.corrcoef(x[:, 0], x[:, 1])[0, 1]) if ok else float("nan"), len(x))
    return out


def write_table1(rows: list[dict], path: str | Path) -> list[Path]:
    """Write ``<path>.md`` and ``<path>.csv``; returns the two paths."""
    path = Path(path)
    md, csv_path = path.with_suffix(".md"), path.with_suffix(".csv")
    md.parent.mkdir(parents=True, exist_ok=True)
    md.write_text(format_table1(rows), encoding="utf-8")
    with open(csv_path, "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=[*TABLE1_COLUMNS, "run"])
        writer.writeheader()
        for row in rows:
            writer.writerow({k: row.get(k) for k in (*TABLE1_COLUMNS, "run")})
    return [md, csv_path]
