"""`wordgames cbm train` and `wordgames cbm table`: the games that produce emergent languages.

The games are in :mod:`wordgames.emergent.games`; torch is imported inside the command bodies;
``cbm_cli`` mounts these commands with :func:`register`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def _opt(help_text: str):
    return typer.Option(help=help_text, show_default=False)


def train(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            metavar="FOLDER",
            help="Run folder, created if missing: config, logs, checkpoint, agents, evaluation, "
            "messages (default: cbm-run). A folder holding a checkpoint is resumed.",
            show_default=False,
        ),
    ] = Path("cbm-run"),
    preset: Annotated[
        str | None,
        _opt(
            "A configuration of the paper (`wordgames cbm presets`): thing-gs-l1 ... "
            "shape-qt-l4 (Table 1), d01 ... d16 (appendix D); options given as well override it."
        ),
    ] = None,
    world: Annotated[str | None, _opt("World: thing or shape (default thing).")] = None,
    channel: Annotated[
        str | None, _opt("gs (Gumbel-Softmax) or qt (quantized); default gs.")
    ] = None,
    rule_length: Annotated[int | None, _opt("Concepts per rule (l, default 1).")] = None,
    steps: Annotated[
        int | None, _opt("Training steps in all (default 3000; presets 200,000).")
    ] = None,
    seed: Annotated[int | None, _opt("Seed of every random choice (default 0).")] = None,
    max_len: Annotated[
        int | None, _opt("Words per message (default: 4 for qt, 1 for gs; presets: l).")
    ] = None,
    vocab_size: Annotated[
        int | None, _opt("GS symbols (default: the world's number of concepts).")
    ] = None,
    word_dim: Annotated[
        int | None, _opt("QT bits per word (default: 6 for Thing, 5 for Shape).")
    ] = None,
    eos: Annotated[
        bool | None, _opt("GS messages end at their first EOS (symbol 0); default off.")
    ] = None,
    temperature: Annotated[float | None, _opt("Fixed Gumbel-Softmax temperature (1).")] = None,
    cell: Annotated[str | None, _opt("Recurrent cell: gru (default) or lstm (the paper).")] = None,
    hidden: Annotated[int | None, _opt("Width of encoders and recurrent states (64).")] = None,
    embed: Annotated[int | None, _opt("Width of the word embeddings (32).")] = None,
    batch_size: Annotated[int | None, _opt("Turns per training step (32; paper 10).")] = None,
    lr: Annotated[float | None, _opt("Adam learning rate (0.003; paper 0.0005).")] = None,
    n_targets: Annotated[int | None, _opt("Targets per turn (20).")] = None,
    n_distractors: Annotated[int | None, _opt("Distractors per turn (20).")] = None,
    eval_every: Annotated[int | None, _opt("Steps between log lines / validation (100).")] = None,
    val_turns: Annotated[int | None, _opt("Held-out validation turns (200).")] = None,
    test_turns: Annotated[int, typer.Option(help="Held-out test turns for the measures.")] = 1000,
    target_accuracy: Annotated[
        float | None, _opt("Stop when the validation accuracy reaches this.")
    ] = None,
    time_limit: Annotated[
        float | None, _opt("Stop this session after this many seconds (resume later).")
    ] = None,
    p_violate: Annotated[
        float | None,
        _opt(
            "Distractors violate each rule concept with this probability (at least one); "
            "default: uniform among the objects that break the rule."
        ),
    ] = None,
    image_size: Annotated[int | None, _opt("Shape world: image side in pixels (32).")] = None,
    threads: Annotated[
        int,
        typer.Option(help="torch threads during training (1 is fastest for these small networks)."),
    ] = 1,
):
    """Train sender and receiver in the multi-target referential game, then measure the language.

    Writes config.json, run.json, train_log.jsonl, checkpoint.pt, agents.pt, eval.json (accuracy,
    the Table 1 row, every measure), messages.jsonl (readable by `wordgames cbm evaluate`) and
    best_match.png to OUT. On a folder with a checkpoint, training resumes where it stopped.
    """
    from wordgames.cli.common import console as make_console
    from wordgames.cli.common import fail
    from wordgames.errors import OptionalDependencyError, WordgamesError

    given = {
        "world": world, "channel": channel, "rule_length": rule_length, "steps": steps,
        "random_state": seed, "max_len": max_len, "vocab_size": vocab_size,
        "word_dim": word_dim, "eos": eos, "temperature": temperature, "cell": cell,
        "hidden": hidden, "embed": embed, "batch_size": batch_size, "lr": lr,
        "n_targets": n_targets, "n_distractors": n_distractors, "eval_every": eval_every,
        "eval_turns": val_turns, "target_accuracy": target_accuracy, "time_limit": time_limit,
        "p_violate": p_violate,
    }  # fmt: skip
    console = make_console()
    try:
        from wordgames.emergent.games.runs import open_run

        params = _train_params(preset, {k: v for k, v in given.items() if v is not None})
        if image_size is not None and str(params.get("world", "thing")).lower() == "shape":
            params["world_params"] = {**params.get("world_params", {}), "image_size": image_size}
        params["n_threads"] = threads
        trainer, resume, preset = open_run(out, params, preset)
        if resume:
            console.print(f"resuming the run in {out}", markup=False, highlight=False)
        evaluation = _train_with_progress(console, trainer, out, test_turns, resume, preset)
    except OptionalDependencyError as exc:
        fail(str(exc))
    except (WordgamesError, ValueError) as exc:
        fail(str(exc))
    row = _measured_row(console, out, evaluation, trainer)
    _print_rows(console, [row])
    console.print(
        f"stopped after {trainer.n_steps_} steps ({trainer.stopped_because_}), "
        f"{trainer.train_seconds_:.1f} s of training in all"
    )
    console.print(f"run folder: {out}", markup=False, highlight=False)


def _measured_row(console, out: Path, evaluation, trainer) -> dict:
    """The run's Table 1 row from the Score rows of its message log, stored in the run folder."""
    from functools import partial

    from wordgames.cli.common import fail, run_evaluation
    from wordgames.errors import WordgamesError
    from wordgames.experiments import cbm_run_row

    config = evaluation.table1_row()
    try:
        row, _ = cbm_run_row(
            out,
            config,
            seed=trainer.random_state,
            evaluate=partial(run_evaluation, console),
        )
    except WordgamesError as exc:
        fail(str(exc))
    return row


def _train_params(preset: str | None, given: dict) -> dict:
    """The trainer's parameters: the preset's, overridden by the options given."""
    if preset is None:
        params = {}
    else:
        from wordgames.emergent.games.presets import get_preset

        params = get_preset(preset).trainer_params()
    params.update(given)
    return params


def _train_with_progress(console, trainer, out, test_turns, resume, preset):
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from wordgames.emergent.games.runs import train_and_evaluate

    with Progress(
        TextColumn("training"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total} steps"),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        console=console,
    ) as progress:
        task = progress.add_task("train", total=trainer.steps, info="")

        def show(rec):
            progress.update(
                task,
                completed=rec["step"],
                info=f"loss {rec['loss']:.3f} val acc {rec['val_accuracy']:.3f}",
            )

        return train_and_evaluate(
            trainer, out, test_turns=test_turns, callback=show, resume=resume, preset=preset
        )


def presets() -> None:
    """List the presets: the paper's Table 1 rows and appendix D configurations."""
    from wordgames.cli.common import console as make_console
    from wordgames.emergent.games.presets import PRESETS, TABLE2, TRAINING

    console = make_console()
    for p in PRESETS.values():
        console.print(f"{p.name:12s} {p.describe()}", markup=False, highlight=False)
    shared = ", ".join(f"{k}={v}" for k, v in {**TABLE2, **TRAINING}.items())
    console.print(
        f"all presets: {shared}; Thing inputs are the paper's 270-dim token one-hots",
        markup=False,
        highlight=False,
    )


def table(
    runs: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Run folders written by `cbm train`. Default: the 24 runs that ship with "
            "wordgames (the paper's Table 1 and appendix D, docs/cbm-games.md)."
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            metavar="FOLDER",
            help="Output folder: writes OUT/table1.md, OUT/table1.csv and each run's results "
            "(OUT/runs/RUN-HASH/results.json; a second table reuses them). Default: print only.",
        ),
    ] = None,
):
    """Print the runs in the layouts of the paper's Tables 1, 3 and 4, with the paper's values.

    Each run's message log is measured by the `cbm` measure (the numbers are its Score rows,
    not those eval.json recorded). Every measure cell reads `ours (paper)`; Tables 3 and 4
    appear for runs of the appendix D presets (d01 ... d16). Then the Pearson correlation of
    AMI and CBM over the runs, per game (the paper: 0.70 Shape, 0.79 Thing).
    """
    from functools import partial

    from wordgames.cli.common import console as make_console
    from wordgames.cli.common import fail, run_evaluation
    from wordgames.emergent.games.runs import (
        PAPER_CORRELATION,
        ami_cbm_correlation,
        format_appendix_d,
        format_table1,
        table_notes,
        write_table1,
    )
    from wordgames.errors import WordgamesError
    from wordgames.experiments import cbm_table

    console = make_console()
    if not runs:
        from wordgames.emergent.shipped import MESSAGES, shipped_folder

        folder = shipped_folder()
        runs = (
            sorted(p for p in folder.iterdir() if (p / MESSAGES).is_file())
            if folder.is_dir()
            else []
        )
        if not runs:
            fail(f"no run folder given and no shipped run in {folder} (a stripped install?)")
    store = None if out is None else Path(out) / "runs"
    try:
        rows, _ = cbm_table(runs, store=store, evaluate=partial(run_evaluation, console))
    except WordgamesError as exc:
        fail(str(exc))
    table1 = [r for r in rows if not str(r.get("preset") or "").startswith("d")]
    console.print("Table 1 layout (held-out turns; ours (paper))")
    console.print(format_table1(table1, paper=True), markup=False, highlight=False, soft_wrap=True)
    appendix = format_appendix_d(rows)
    if appendix:
        console.print(appendix, markup=False, highlight=False, soft_wrap=True)
    for note in table_notes(rows):
        console.print(note, markup=False, highlight=False, soft_wrap=True)
    for game, (r, n) in ami_cbm_correlation(rows).items():
        paper = PAPER_CORRELATION.get(game)
        note = f" (paper {paper:.2f})" if paper is not None else ""
        console.print(f"Pearson(AMI, CBM), {game}: {r:.2f} over {n} runs{note}", highlight=False)
    if out is not None:
        for path in write_table1(rows, Path(out) / "table1"):
            console.print(f"wrote {path}", markup=False, highlight=False)


def shapes(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            metavar="FOLDER",
            help="Folder for shape_samples.png. Default: the current folder.",
        ),
    ] = Path("."),
    seed: Annotated[int, typer.Option(help="Seed of the positions and the turn.")] = 0,
    image_size: Annotated[int, typer.Option(help="Image side in pixels (the presets: 32).")] = 32,
) -> None:
    """Render the Shape world to look at: every shape in every colour, and one 8 + 8 turn."""
    from wordgames.cli.common import console as make_console
    from wordgames.emergent.plots import plot_shape_samples

    path = plot_shape_samples(Path(out) / "shape_samples.png", seed=seed, image_size=image_size)
    make_console().print(f"wrote {path}", markup=False, highlight=False)


def _print_rows(console, rows) -> None:
    # a markdown table: readable in any terminal width and pasteable into reports
    from wordgames.emergent.games.runs import format_table1

    console.print("Table 1 layout (held-out turns)")
    console.print(format_table1(rows), markup=False, highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add the game commands (``train``, ``presets``, ``table``, ``shapes``) to the ``wordgames cbm`` typer app."""
    app.command("train")(train)
    app.command("presets")(presets)
    app.command("table")(table)
    app.command("shapes")(shapes)
