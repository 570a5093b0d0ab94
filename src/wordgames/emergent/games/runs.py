"""A training run on disk, and the paper's Table 1 assembled from several runs.

A run folder holds ``config.json`` (the trainer's parameters), ``train_log.jsonl`` (one line
per ``eval_every`` steps: step, loss, accuracy, val_accuracy, elapsed_s), ``agents.pt`` (the
state dicts), ``eval.json`` (test accuracy, the Table 1 row and every language measure),
``messages.jsonl`` (message word ids + the rule's concepts per test turn, readable by
``wordgames cbm evaluate``) and ``best_match.png`` (the best-match graph).
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

from wordgames.results import write_json_atomic

__all__ = ["TABLE1_COLUMNS", "format_table1", "read_table1_rows", "train_and_evaluate"]

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
    trainer, out_dir: str | Path, *, test_turns: int = 1000, callback=None, plot: bool = True
):
    """Fit ``trainer``, save it, evaluate it on ``test_turns`` held-out turns, write everything.

    Returns the :class:`~wordgames.emergent.games.train.GameEvaluation`.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    trainer.fit(out_dir, callback=callback)
    trainer.save(out_dir)
    evaluation = trainer.evaluate(test_turns)
    record = evaluation.as_dict()
    record["history"] = trainer.history_
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
    with open(out_dir / "messages.jsonl", "w", encoding="utf-8") as fh:
        for ids, concepts in zip(
            evaluation.play.word_ids.tolist(), evaluation.concepts, strict=True
        ):
            fh.write(json.dumps({"message": ids, "concepts": concepts}) + "\n")
    return evaluation


def read_table1_rows(run_dirs) -> list[dict]:
    """The Table 1 row of each run folder (from its ``eval.json``)."""
    from wordgames.errors import DataFormatError

    rows = []
    for run in run_dirs:
        path = Path(run) / "eval.json"
        if not path.is_file():
            raise DataFormatError(
                path, None, "no eval.json: is this a `wordgames cbm train` output folder?"
            )
        try:
            rec = json.loads(path.read_text(encoding="utf-8"))
            row = dict(rec["table1_row"])
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise DataFormatError(
                path, None, f"expected a JSON record with 'table1_row' ({exc})"
            ) from None
        row["run"] = str(run)
        rows.append(row)
    order = {"Shape": 0, "Thing": 1}
    return sorted(rows, key=lambda r: (order.get(r["Game"], 2), r["l"], r["Com"]))


def _fmt(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def format_table1(rows: list[dict]) -> str:
    """Markdown table in the column order of the paper's Table 1."""
    lines = ["| " + " | ".join(TABLE1_COLUMNS) + " |", "|" + "---|" * len(TABLE1_COLUMNS)]
    for row in rows:
        lines.append("| " + " | ".join(_fmt(row.get(c)) for c in TABLE1_COLUMNS) + " |")
    return "\n".join(lines) + "\n"


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
