"""`wordgames codenames` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Codenames: agents against human play, self-play, and a terminal game.",
    no_args_is_help=True,
)

Emb = Annotated[
    list[str] | None,
    typer.Option(
        "-e",
        "--embedding",
        help="Built-in name or vector file; repeat for several. Default: glove-6b-50d.",
    ),
]
DataRoot = Annotated[
    Path | None,
    typer.Option("--data-root", help="Folder holding the data sets (default: $WORDGAMES_DATA)."),
]


@app.command()
def evaluate(
    embedding: Emb = None,
    dataset: Annotated[
        list[str] | None,
        typer.Option(
            "--dataset",
            "-d",
            help="Human data set name (repeatable). Default: every available one.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "-o",
            help="Results store (read by 'wordgames report'), results.json and plots.",
        ),
    ] = None,
    data_root: DataRoot = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    max_records: Annotated[
        int | None,
        typer.Option(
            help="Seeded sample of at most N records of each kind per data set. Default: all."
        ),
    ] = None,
    n_restarts: Annotated[
        int | None, typer.Option(help="k-means restarts of ClusterSender (default 10).")
    ] = None,
    distance: Annotated[str, typer.Option(help="cosine or euclidean.")] = "cosine",
    top_n: Annotated[
        int | None, typer.Option(help="Restrict each vocabulary to its N most frequent words.")
    ] = None,
    intersect: Annotated[
        bool, typer.Option(help="Restrict all embeddings to their shared vocabulary.")
    ] = False,
    file: Annotated[
        list[Path] | None,
        typer.Option(
            "--file",
            help="Your own human data (JSONL/CSV, see docs/codenames-data.md); repeatable. "
            "With --file only, no declared data set is read.",
        ),
    ] = None,
):
    """Every sender and receiver on every record of every available human data set.

    Writes tables, a results store and plots. The numbers come from wordgames.evaluate (measure
    "codenames").
    """
    from wordgames.cli.common import console, fail, print_skipped, run_evaluation
    from wordgames.embeddings.sets import VocabularyPolicy

    if distance not in ("cosine", "euclidean"):
        fail(f"--distance must be cosine or euclidean, got {distance!r}")
    options = {
        "max_records": max_records,
        "n_restarts": n_restarts,
        "distance": distance,
        "files": [str(f) for f in file or []],
    }
    con = console()
    res = run_evaluation(
        con,
        embedding or None,
        ["codenames"],
        store=out,
        datasets=dataset or None,
        options={"codenames": options},
        data_root=data_root,
        seed=seed,
        vocabulary=VocabularyPolicy(top_n=top_n, intersect=intersect),
    )
    _print_results(con, res, out)
    print_skipped(con, res)
    if res.failed or not res.results:
        raise typer.Exit(1)


def _print_results(con, res, out: Path | None) -> None:
    """Each embedding's tables; with ``out``, the comparison plots of several embeddings."""
    from rich.markup import escape

    all_s, all_r = [], []
    for r in res.results:
        srows, rrows = r.tables.get("senders", []), r.tables.get("receivers", [])
        all_s += srows
        all_r += rrows
        _print_tables(con, r.embedding, srows, rrows)
        con.print(
            f"{escape(r.embedding)}: {r.timings.get('total', float('nan')):.1f} s", highlight=False
        )
    if out is None:
        return
    if len(res.results) > 1:
        from wordgames.codenames.plots import plot_by_embedding

        plot_by_embedding(all_s, all_r, out / "plots")
    con.print(
        f"wrote the results store, results.json and plots under {escape(str(out))} "
        f"(wordgames report {escape(str(out))})",
        highlight=False,
    )


def _print_tables(console, emb_name, srows, rrows) -> None:
    from rich.markup import escape
    from rich.table import Table

    t = Table(title=escape(f"senders ({emb_name}): rank of the human clue (lower is better)"))
    for c in (
        "dataset",
        "data",
        "agent",
        "mean rank",
        "median",
        "MRR",
        "hits@100",
        "n",
        "skipped OOV",
    ):
        t.add_column(c)
    for r in srows:
        if r["clue_source"] != "all":
            continue
        t.add_row(
            escape(r["dataset"]),
            r["data"],
            escape(r["agent"]),
            f"{r['mean_rank']:.0f}",
            f"{r['median_rank']:.0f}",
            f"{r['mrr']:.4f}",
            f"{r['hits@100']:.3f}",
            str(r["n"]),
            str(r["n_skipped_oov"]),
        )
    console.print(t)
    t = Table(
        title=escape(
            f"receivers ({emb_name}): MAP (human receiver data), guess score (human sender data)"
        )
    )
    for c in ("dataset", "data", "agent", "measure", "score", "95% CI", "n", "skipped OOV"):
        t.add_column(c)
    for r in rrows:
        if r["clue_source"] != "all":
            continue
        ci = f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]" if r["n"] > 1 else ""
        t.add_row(
            escape(r["dataset"]),
            r["data"],
            escape(r["agent"]),
            r["measure"],
            f"{r['score']:.3f}",
            ci,
            str(r["n"]),
            str(r["n_skipped_oov"]),
        )
    console.print(t)


@app.command()
def datasets(
    details: Annotated[
        bool, typer.Option(help="List every repair, drop and flag with its reason.")
    ] = False,
    file: Annotated[
        list[Path] | None, typer.Option("--file", help="Also read your own file(s).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    data_root: DataRoot = None,
):
    """Every human Codenames data set: records, repairs, drops (see docs/codenames-data.md)."""
    import json

    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from wordgames.cli.common import fail
    from wordgames.codenames.human_data import HUMAN_DATASETS, load_human_data, read_user_file
    from wordgames.errors import DatasetMissingError, WordgamesError

    loaded, missing = [], {}
    for name in HUMAN_DATASETS:
        try:
            loaded.append(load_human_data(name, data_root))
        except DatasetMissingError as exc:
            missing[name] = str(exc)
        except WordgamesError as exc:
            fail(f"{name}: {exc}")
    for f in file or []:
        try:
            loaded.append(read_user_file(f))
        except WordgamesError as exc:
            fail(str(exc))
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "datasets": [d.summary() | {"files": d.files} for d in loaded],
                    "missing": missing,
                },
                indent=2,
            )
        )
        return
    console = Console()
    t = Table("data set", "sender", "receiver", "repaired", "dropped", "flagged")
    for d in loaded:
        s = d.summary()
        t.add_row(
            escape(d.dataset),
            str(s["n_sender"]),
            str(s["n_receiver"]),
            str(sum(s["repairs"].values())),
            str(sum(s["dropped"].values())),
            str(sum(s["flagged"].values())),
        )
    for name in missing:
        t.add_row(name, "-", "-", "-", "-", "missing")
    console.print(t)
    if details:
        for d in loaded:
            for kind in ("repairs", "dropped", "flagged"):
                for reason, n in getattr(d, kind).items():
                    console.print(escape(f"{d.dataset}: {kind}: {n} x {reason}"), highlight=False)


@app.command()
def selfplay(
    embedding: Emb = None,
    games: Annotated[int, typer.Option(help="Boards per pair.")] = 30,
    n_blue: Annotated[int, typer.Option(help="Blue words per board.")] = 9,
    n_red: Annotated[int, typer.Option(help="Red words per board.")] = 16,
    max_turns: Annotated[
        int | None, typer.Option(help="Turn limit (default: the number of blue words).")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the boards.")] = 0,
    words: Annotated[
        Path | None,
        typer.Option(help="Board word list (one per line). Default: the Codenames list."),
    ] = None,
    vocab_size: Annotated[
        int | None, typer.Option(help="Clue vocabulary: the N most frequent words.")
    ] = 50000,
    tie_break: Annotated[str, typer.Option(help="ExhaustiveSearchSender tie-break.")] = "frequency",
    data_root: DataRoot = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write the matrix as JSON here.")
    ] = None,
):
    """Sender x receiver cross matrix of self-play turns (Table 1): every embedding pair."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from wordgames.cli.common import fail
    from wordgames.codenames.agents import (
        TIE_BREAKS,
        EmbeddingNearestReceiver,
        ExhaustiveSearchSender,
    )
    from wordgames.codenames.board import codenames_word_list
    from wordgames.codenames.game import cross_matrix, random_boards
    from wordgames.embeddings.sets import VocabularyPolicy, load_embeddings
    from wordgames.errors import WordgamesError
    from wordgames.results import write_json_atomic

    if tie_break not in TIE_BREAKS:
        fail(f"--tie-break must be one of {', '.join(TIE_BREAKS)}")
    try:
        embs = load_embeddings(embedding or None, VocabularyPolicy(intersect=True))
        pool = (
            words.read_text(encoding="utf-8").split() if words else codenames_word_list(data_root)
        )
        boards = random_boards(pool, games, n_blue, n_red, seed=seed, embeddings=embs)
    except (WordgamesError, ValueError, OSError) as exc:
        fail(str(exc))
    console = Console()
    with console.status("playing...") as status:
        rows = cross_matrix(
            embs,
            boards,
            max_turns=max_turns,
            make_sender=lambda e: ExhaustiveSearchSender(e, tie_break, vocab_size=vocab_size),
            make_receiver=EmbeddingNearestReceiver,
            progress=lambda s: status.update(f"playing {s}"),
        )
    t = Table(
        title=f"mean turns to find {n_blue} blue words ({games} boards; "
        f"unsolved = {max_turns or n_blue} + 1)"
    )
    t.add_column("sender \\ receiver")
    names = list(dict.fromkeys(r["receiver"] for r in rows))
    for n in names:
        t.add_column(escape(n))
    for s in dict.fromkeys(r["sender"] for r in rows):
        cells = {r["receiver"]: r for r in rows if r["sender"] == s}
        t.add_row(
            escape(s),
            *[f"{cells[n]['mean_turns']:.2f} (solved {cells[n]['solve_rate']:.0%})" for n in names],
        )
    console.print(t)
    if out:
        write_json_atomic(
            out / "codenames-selfplay.json",
            {
                "rows": rows,
                "parameters": {
                    "games": games,
                    "n_blue": n_blue,
                    "n_red": n_red,
                    "max_turns": max_turns,
                    "seed": seed,
                    "vocab_size": vocab_size,
                    "tie_break": tie_break,
                },
                "embeddings": [e.describe() for e in embs],
            },
        )


@app.command()
def play(
    role: Annotated[
        str, typer.Option(help="Your role: sender (you give clues) or receiver (you guess).")
    ] = "receiver",
    embedding: Annotated[
        str, typer.Option("-e", "--embedding", help="The agent's embedding.")
    ] = "glove-6b-50d",
    seed: Annotated[int, typer.Option(help="Seed of the board.")] = 0,
    n_blue: Annotated[int, typer.Option(help="Blue words.")] = 5,
    n_red: Annotated[int, typer.Option(help="Red words.")] = 10,
    max_turns: Annotated[int, typer.Option(help="Turn limit.")] = 10,
    agent: Annotated[str, typer.Option(help="Agent sender: cluster or exhaustive.")] = "cluster",
    vocab_size: Annotated[
        int | None, typer.Option(help="The agent's clue vocabulary: the N most frequent words.")
    ] = 50000,
    words: Annotated[
        Path | None, typer.Option(help="Board word list. Default: the Codenames list.")
    ] = None,
    data_root: DataRoot = None,
):
    """Play Codenames at the terminal with an embedding agent."""
    from wordgames.cli.common import fail
    from wordgames.codenames.agents import (
        ClusterSender,
        EmbeddingNearestReceiver,
        ExhaustiveSearchSender,
    )
    from wordgames.codenames.board import codenames_word_list
    from wordgames.codenames.game import random_boards
    from wordgames.codenames.play import play_terminal
    from wordgames.embeddings.sets import load_embeddings
    from wordgames.errors import WordgamesError

    if role not in ("sender", "receiver"):
        fail("--role must be sender or receiver")
    if agent not in ("cluster", "exhaustive"):
        fail("--agent must be cluster or exhaustive")
    try:
        emb = load_embeddings(embedding)[0]
        pool = (
            words.read_text(encoding="utf-8").split() if words else codenames_word_list(data_root)
        )
        board = random_boards(pool, 1, n_blue, n_red, seed=seed, embeddings=[emb])[0]
    except (WordgamesError, ValueError, OSError) as exc:
        fail(str(exc))
    if role == "sender":
        bot = EmbeddingNearestReceiver(emb)
    elif agent == "cluster":
        bot = ClusterSender(emb, random_state=seed, vocab_size=vocab_size)
    else:
        bot = ExhaustiveSearchSender(emb, vocab_size=vocab_size)
    res = play_terminal(board, role, bot, max_turns=max_turns)
    raise typer.Exit(0 if res.solved else 1)
