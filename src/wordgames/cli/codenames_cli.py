"""`wordgames codenames` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from wordgames.cli.common import DataRoot, Datasets, JsonOut, Quick, StoreOut
from wordgames.codenames.experiments import PAPER_SELFPLAY

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

ClueVocab = Annotated[
    str | None,
    typer.Option(
        "--clue-vocabulary",
        help="The senders' clue vocabulary: 'nounlist' (the authors' 6,801 nouns). Default: "
        "the embedding's vocabulary.",
    ),
]


@app.command()
def evaluate(
    embedding: Emb = None,
    dataset: Datasets = None,
    out: StoreOut = None,
    json_out: JsonOut = None,
    data_root: DataRoot = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    quick: Quick = False,
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
    clue_vocabulary: ClueVocab = None,
    target_score: Annotated[
        float, typer.Option(help="Algorithm 7: the reward of a guessed target (paper: 1).")
    ] = 1.0,
    blue_score: Annotated[
        float, typer.Option(help="Algorithm 7: the reward of another blue word (paper: 0).")
    ] = 0.0,
    red_score: Annotated[
        float,
        typer.Option(help="Algorithm 7: the reward (penalty) of a non-blue word (paper: -1)."),
    ] = -1.0,
):
    """Every sender and receiver on every record of every available human data set.

    Writes tables, a results store and plots. The numbers come from wordgames.evaluate (measure
    "codenames").
    """
    from wordgames.cli.common import (
        console,
        end_command,
        fail,
        json_to_stdout,
        run_evaluation,
    )
    from wordgames.embeddings.sets import VocabularyPolicy

    if distance not in ("cosine", "euclidean"):
        fail(f"--distance must be cosine or euclidean, got {distance!r}")
    options = {
        "max_records": max_records,
        "n_restarts": n_restarts,
        "distance": distance,
        "files": [str(f) for f in file or []],
        "clue_vocabulary": clue_vocabulary,
        "target_score": target_score,
        "blue_score": blue_score,
        "red_score": red_score,
    }
    con = console(stderr=json_to_stdout(json_out))
    res = run_evaluation(
        con,
        embedding or None,
        ["codenames"],
        store=out,
        datasets=dataset or None,
        options={"codenames": options},
        data_root=data_root,
        seed=seed,
        quick=quick,
        vocabulary=VocabularyPolicy(top_n=top_n, intersect=intersect),
    )
    _print_results(con, res, out)
    end_command(con, res, json_out)


@app.command()
def compare(
    embedding: Emb = None,
    real: Annotated[
        bool, typer.Option("--real", help="Every real embedding of `wordgames embeddings list`.")
    ] = False,
    dataset: Datasets = None,
    agent: Annotated[
        list[str] | None,
        typer.Option("--agent", "-a", help="Agent to show (repeatable). Default: every agent."),
    ] = None,
    by_source: Annotated[
        bool, typer.Option(help="One row per initial model (clue source) besides 'all'.")
    ] = True,
    intersect: Annotated[
        bool, typer.Option(help="Restrict all embeddings to their shared vocabulary (paper).")
    ] = True,
    max_records: Annotated[
        int | None, typer.Option(help="Seeded sample of at most N records per data set and kind.")
    ] = None,
    clue_vocabulary: ClueVocab = None,
    out: StoreOut = None,
    json_out: JsonOut = None,
    data_root: DataRoot = None,
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    quick: Quick = False,
):
    """Experiment 2 (Figures 3 and 5): every agent over several embeddings, as Markdown tables.

    The numbers are those of `codenames evaluate` (wordgames.evaluate, measure "codenames");
    by default the embeddings share one vocabulary, as in the paper.
    """
    from wordgames.cli.common import (
        console,
        end_command,
        fail,
        json_to_stdout,
        run_evaluation,
    )
    from wordgames.codenames.experiments import experiment2_markdown
    from wordgames.embeddings.real import REAL_NAMES
    from wordgames.embeddings.sets import VocabularyPolicy
    from wordgames.textio import literal

    names = list(dict.fromkeys([*(embedding or []), *(REAL_NAMES if real else [])]))
    if len(names) < 2:
        fail("compare needs at least two embeddings (-e NAME -e NAME, or --real)")
    con = console(stderr=json_to_stdout(json_out))
    res = run_evaluation(
        con,
        names,
        ["codenames"],
        store=out,
        datasets=dataset or None,
        options={"codenames": {"max_records": max_records, "clue_vocabulary": clue_vocabulary}},
        data_root=data_root,
        seed=seed,
        quick=quick,
        vocabulary=VocabularyPolicy(intersect=intersect),
    )
    srows = [row for r in res.results for row in r.tables.get("senders", [])]
    rrows = [row for r in res.results for row in r.tables.get("receivers", [])]
    markdown = experiment2_markdown(srows, rrows, agents=agent or None, by_source=by_source)
    con.print(markdown, markup=False, highlight=False)
    if out is not None:
        from wordgames.codenames.plots import plot_figures_3_and_5

        for path in plot_figures_3_and_5(srows, rrows, out / "plots"):
            con.print(f"wrote {literal(str(path))}", highlight=False, soft_wrap=True)
    end_command(con, res, json_out, markdown=markdown)


def print_codenames_tables(con, res) -> None:
    """Each subject's Codenames tables: the records used, the aggregates, every data set.

    The ``codenames`` printer of ``wordgames run --tables`` (:mod:`wordgames.cli.family_tables`).
    """
    from wordgames.textio import literal

    for r in res.results:
        _print_embedding(con, r)
        con.print(
            f"{literal(r.subject)}: {r.timings.get('total', float('nan')):.1f} s", highlight=False
        )


def _print_results(con, res, out: Path | None) -> None:
    """Each subject's tables; with ``out``, the comparison plots of several subjects."""
    from wordgames.textio import literal

    print_codenames_tables(con, res)
    all_s = [row for r in res.results for row in r.tables.get("senders", [])]
    all_r = [row for r in res.results for row in r.tables.get("receivers", [])]
    if out is None:
        return
    if len(res.results) > 1:
        from wordgames.codenames.plots import plot_by_embedding, plot_figures_3_and_5

        plot_by_embedding(all_s, all_r, out / "plots")
        plot_figures_3_and_5(all_s, all_r, out / "plots")
    con.print(
        f"wrote the results store, results.json and plots under {literal(str(out))} "
        f"(wordgames report {literal(str(out))})",
        highlight=False,
    )


#: what each kind of data is, in words
KIND_WORDS = {
    "human_receiver": "people picked board words for a clue (senders: Alg. 4, receivers: "
    "Alg. 5 MAP)",
    "human_sender": "people gave the clue (senders: Alg. 6, receivers: Alg. 7 guess score)",
}


def _with_ci(value: float, lo: float, hi: float, fmt: str) -> str:
    """``value`` over its interval on a second line (no interval: the value alone).

    A stored result holds an undefined number as ``null``: it reads ``n/a`` as NaN does.

    >>> print(_with_ci(0.5, 0.4, 0.6, "{:.3f}"))
    0.500
    0.400–0.600
    >>> _with_ci(None, None, None, "{:.3f}")
    'n/a'
    """
    from wordgames.report.text import finite

    text = _number(value, fmt)
    if finite(lo) and finite(hi):
        text += "\n" + fmt.format(lo) + "\u2013" + fmt.format(hi)
    return text


def _number(value, fmt: str) -> str:
    """``value`` in ``fmt``; ``n/a`` when undefined (NaN, or ``null`` in a stored result)."""
    from wordgames.report.text import finite

    return fmt.format(value) if finite(value) else "n/a"


def compact_table(*columns: str, title: str | None = None):
    """A table without vertical rules (two spaces between columns).

    The first column (names) is never wrapped or cut; the others are right-aligned. Print it
    with :func:`print_table`.
    """
    from rich import box
    from rich.table import Table

    from wordgames.textio import literal

    t = Table(
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        pad_edge=False,
        show_edge=False,
        collapse_padding=True,
        title=literal(title) if title else None,
        title_justify="left",
    )
    for i, c in enumerate(columns):
        if i == 0:
            t.add_column(c, no_wrap=True)
        else:
            t.add_column(c, justify="right", overflow="fold")
    return t


def print_table(con, t) -> None:
    """Print ``t`` with every column at least as wide as its longest line (numbers never fold)."""
    for col in t.columns:
        cells = [str(c) for c in col._cells] + [str(col.header)]
        col.min_width = max((len(line) for c in cells for line in c.split("\n")), default=1)
    con.print(t)


def _table(con, title: str, *columns: str):
    """A :func:`compact_table`, its title printed first as a line of its own (wrapped at spaces).

    The senders' table (names of 24 characters, six columns) fits 80 columns.
    """
    from wordgames.textio import literal

    con.print(literal(title), highlight=False, style="bold")
    return compact_table(*columns)


def _print_embedding(con, r) -> None:
    """One embedding: the records used, the aggregates, then every data set."""
    from wordgames.textio import literal

    con.rule(literal(r.subject))
    for note in r.notes:
        if note.startswith("records:"):
            con.print(literal(note), highlight=False)
    _print_aggregates(con, r.tables.get("aggregates", []), thin_index(r.scores))
    srows = [x for x in r.tables.get("senders", []) if x["clue_source"] == "all"]
    rrows = [x for x in r.tables.get("receivers", []) if x["clue_source"] == "all"]
    n_records = r.parameters.get("n_records", {})
    n_available = r.parameters.get("n_available", {})
    for ds in dict.fromkeys([x["dataset"] for x in srows + rrows]):
        con.rule(literal(ds), align="left", style="dim")
        for kind in ("human_receiver", "human_sender"):
            used = n_records.get(ds, {}).get(kind, 0)
            if not used:
                continue
            avail = n_available.get(ds, {}).get(kind, used)
            of = f"{used:,} records" if used == avail else f"a sample of {used:,} of {avail:,}"
            con.print(literal(f"{of}: {KIND_WORDS[kind]}"), highlight=False)
            _print_kind(
                con,
                [x for x in srows if x["dataset"] == ds and x["data"] == kind],
                [x for x in rrows if x["dataset"] == ds and x["data"] == kind],
                thin_index(r.scores),
            )


AGGREGATE_WORDS = {
    "human_receiver.map": "MAP on people's picks",
    "human_receiver.mean_rank": "mean rank of people's clues",
    "human_sender.guess_score": "guess score on people's clues",
}


def _print_aggregates(con, rows, thin: dict | None = None) -> None:
    if not rows:
        return
    thin, notes = thin or {}, {}
    t = _table(
        con,
        "mean over the data sets (each data set weighted equally), with 95% intervals",
        "agent: score",
        "value",
        "sets",
        "n",
        "cover",
    )
    for a in rows:
        fmt = "{:,.0f}" if "rank" in a["metric"] else "{:.3f}"
        t.add_row(
            f"{a['agent']}: {AGGREGATE_WORDS.get(a['metric'], a['metric'])}",
            _thin_cell(
                _with_ci(a["value"], a["ci_low"], a["ci_high"], fmt),
                thin,
                ("all", a["agent"], a["metric"]),
                notes,
            ),
            str(a["n_datasets"]),
            f"{a['n']:,}",
            f"{a['coverage']:.0%}",
        )
    print_table(con, t)
    _print_thin_notes(con, notes)


def _skipped_words(rows) -> str:
    from wordgames.codenames.suite import skip_reason

    skipped = rows[0].get("skipped") or {}
    n = sum(skipped.values())
    return f"; {n:,} skipped: {skip_reason(skipped)}" if n else ""


THIN_MARK = " (thin)"


def thin_index(scores) -> dict:
    """``{(dataset, agent, metric): thin reason}`` of the thin scores among ``scores``."""
    return {(s.dataset, s.agent, s.metric): s.thin_reason for s in scores if s.thin}


def _thin_cell(text: str, thin: dict, key: tuple, notes: dict) -> str:
    """``text`` marked thin (the reason goes to ``notes``, printed once under the table)."""
    reason = thin.get(key)
    if reason is None:
        return text
    notes.setdefault(reason, None)
    return text.replace("\n", THIN_MARK + "\n", 1) if "\n" in text else text + THIN_MARK


def _print_thin_notes(con, notes: dict) -> None:
    from wordgames.textio import literal

    for reason in notes:
        con.print(literal(f"(thin): not ranked, {reason}"), highlight=False, style="dim")


def _print_kind(con, srows, rrows, thin: dict | None = None) -> None:
    """The senders' and the receivers' table of one kind of data of one data set.

    A value whose Score is thin (:func:`wordgames.measure.is_thin`) is marked ``(thin)`` and the
    reason is printed under the table.
    """
    from wordgames.textio import literal

    thin = thin or {}

    for among in ("vocabulary", "candidates"):
        rows = [x for x in srows if x.get("ranked_among", "vocabulary") == among]
        if not rows:
            continue
        title = (
            "senders: rank of the people's clue (lower is better)"
            if among == "vocabulary"
            else "senders: rank among the clues people chose from"
        )
        hits = ("hits@10", "hits@100") if among == "vocabulary" else ()
        t = _table(
            con,
            f"{title}, n = {rows[0]['n']:,}{_skipped_words(rows)}",
            "agent",
            "mean rank",
            "median",
            "MRR",
            *hits,
        )
        fmt = "{:,.0f}" if among == "vocabulary" else "{:,.2f}"
        notes: dict = {}
        metric = f"{rows[0]['data']}.mean_rank" + ("" if among == "vocabulary" else "_candidates")
        for x in rows:
            key = (x["dataset"], x["agent"], metric)
            t.add_row(
                literal(x["agent"]),
                _thin_cell(
                    _with_ci(x["mean_rank"], x["ci_low"], x["ci_high"], fmt), thin, key, notes
                ),
                _number(x["median_rank"], fmt),
                _number(x["mrr"], "{:.4f}"),
                *(_number(x[h], "{:.3f}") for h in hits),
            )
        print_table(con, t)
        _print_thin_notes(con, notes)
    if rrows:
        metric = "MAP" if rrows[0]["measure"] == "map" else "guess score"
        t = _table(
            con,
            f"receivers: {metric} (higher is better), n = {rrows[0]['n']:,}{_skipped_words(rrows)}",
            "agent",
            metric,
        )
        notes = {}
        for x in rrows:
            key = (x["dataset"], x["agent"], f"{x['data']}.{x['measure']}")
            cell = _with_ci(x["score"], x["ci_low"], x["ci_high"], "{:.3f}")
            t.add_row(literal(x["agent"]), _thin_cell(cell, thin, key, notes))
        print_table(con, t)
        _print_thin_notes(con, notes)


@app.command()
def datasets(
    details: Annotated[
        bool, typer.Option(help="List every repair, drop and flag with its reason.")
    ] = False,
    file: Annotated[
        list[Path] | None, typer.Option("--file", help="Also read your own file(s).")
    ] = None,
    as_json: Annotated[
        Path | None,
        typer.Option(
            "--json",
            help="Write the counts as JSON to this file ('-': print them) instead of the table.",
        ),
    ] = None,
    data_root: DataRoot = None,
):
    """Every human Codenames data set: records, repairs, drops (see docs/codenames-data.md)."""
    from wordgames.cli.common import console as make_console
    from wordgames.cli.common import fail, write_json
    from wordgames.codenames.human_data import HUMAN_DATASETS, load_human_data, read_user_file
    from wordgames.errors import DatasetMissingError, WordgamesError
    from wordgames.textio import literal

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
    if as_json is not None:
        summaries = [d.summary() | {"files": d.files} for d in loaded]
        write_json(as_json, {"datasets": summaries, "missing": missing})
        return
    console = make_console()
    t = compact_table("data set", "sender", "receiver", "repaired", "dropped", "flagged")

    people = []
    for d in loaded:
        s = d.summary()
        t.add_row(
            literal(d.dataset),
            f"{s['n_sender']:,}",
            f"{s['n_receiver']:,}",
            f"{sum(s['repairs'].values()):,}",
            f"{sum(s['dropped'].values()):,}",
            f"{sum(s['flagged'].values()):,}",
        )
        if (s["sender_decisions"], s["receiver_decisions"]) != (s["n_sender"], s["n_receiver"]):
            people.append(
                f"{d.dataset}: the records stand for {s['sender_decisions']:,} sender and "
                f"{s['receiver_decisions']:,} receiver decisions (aggregated: record.count)"
            )
    for name in missing:
        t.add_row(literal(name), "-", "-", "-", "-", "missing")
    print_table(console, t)
    for line in people:
        console.print(literal(line), highlight=False)
    if details:
        for d in loaded:
            for kind in ("repairs", "dropped", "flagged"):
                for reason, n in getattr(d, kind).items():
                    console.print(literal(f"{d.dataset}: {kind}: {n} x {reason}"), highlight=False)


@app.command()
def selfplay(
    embedding: Emb = None,
    games: Annotated[int, typer.Option(help="Boards per pair.")] = PAPER_SELFPLAY["games"],
    n_blue: Annotated[int, typer.Option(help="Blue words per board.")] = PAPER_SELFPLAY["n_blue"],
    n_red: Annotated[int, typer.Option(help="Red words per board.")] = PAPER_SELFPLAY["n_red"],
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
    tie_break: Annotated[
        str, typer.Option(help="ExhaustiveSearchSender tie-break.")
    ] = PAPER_SELFPLAY["tie_break"],
    intersect: Annotated[
        bool,
        typer.Option(
            help="Restrict all embeddings to their shared vocabulary (the paper; default), so "
            "every agent can use every clue and board word."
        ),
    ] = True,
    top_n: Annotated[
        int | None, typer.Option(help="Restrict each vocabulary to its N most frequent words.")
    ] = None,
    quick: Quick = False,
    data_root: DataRoot = None,
    out: StoreOut = None,
    json_out: JsonOut = None,
):
    """Sender x receiver matrix of self-play turns (Table 1): every embedding pair.

    Defaults: the paper's settings (30 boards of 50 blue and 50 red words, at most 50 turns).
    The numbers come from wordgames.evaluate (measure "codenames-selfplay", one unit per
    pair): with -o they are stored, resumable, and shown by `wordgames report`.
    """
    from wordgames.cli.common import (
        console,
        end_command,
        fail,
        json_to_stdout,
        run_evaluation,
    )
    from wordgames.embeddings.sets import VocabularyPolicy
    from wordgames.textio import decode_utf8, read_bytes

    options = {
        "games": games, "n_blue": n_blue, "n_red": n_red, "max_turns": max_turns,
        "tie_break": tie_break, "vocab_size": vocab_size,
    }  # fmt: skip
    if words is not None:
        try:
            options["words"] = decode_utf8(read_bytes(words), words).split()
        except (OSError, ValueError) as exc:
            fail(f"{words}: {exc}")
    con = console(stderr=json_to_stdout(json_out))
    several = len(embedding or []) > 1
    res = run_evaluation(
        con,
        embedding or None,
        ["codenames-selfplay"],
        store=out,
        options={"codenames-selfplay": options},
        data_root=data_root,
        seed=seed,
        quick=quick,
        vocabulary=VocabularyPolicy(top_n=top_n, intersect=intersect and several),
    )
    policy = VocabularyPolicy(top_n=top_n, intersect=intersect and several)
    con.print(
        f"vocabulary: {policy.describe()} ("
        + ", ".join(f"{e['name']}: {e['n_words']:,} words" for e in res.subjects)
        + ")",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )
    print_selfplay_tables(con, res)
    end_command(con, res, json_out)


def print_selfplay_tables(con, res) -> None:
    """The sender x receiver matrix of self-play turns, titled by the stored parameters.

    The ``codenames-selfplay`` printer of ``wordgames run --tables``.
    """
    if not res.results:
        return
    p = res.results[0].parameters  # what was played (a quick run plays fewer boards)
    _print_matrix(
        con,
        res.scores,
        f"mean turns to find {p.get('n_blue')} blue words ({p.get('games')} boards; "
        f"unsolved = {p.get('max_turns') or p.get('n_blue')} + 1)",
    )


def _print_matrix(console, scores, title: str) -> None:
    """The sender x receiver table of self-play turns, from the stored Score rows."""
    from wordgames.cli.tables import Col, print_table
    from wordgames.report.text import ci_text, format_number, pair_matrix, thin_text
    from wordgames.textio import literal

    def score_text(s) -> str:
        ci = f" {ci_text(s.ci_low, s.ci_high)}" if ci_text(s.ci_low, s.ci_high) else ""
        thin = f" ({thin_text(s.thin_reason)})" if s.thin else ""
        return f"{format_number(s.value)}{ci}{thin}"

    senders, receivers, cell = pair_matrix(scores)
    rows = []
    for snd in senders:
        rows.append([literal(snd)])
        for rcv in receivers:
            turns, solved = cell.get((snd, rcv, "mean_turns")), cell.get((snd, rcv, "solve_rate"))
            rows[-1].append(
                f"{score_text(turns)} (solved {solved.value:.0%})" if turns and solved else "-"
            )
    print_table(
        console,
        ["sender \\ receiver", *(Col(literal(n), "right") for n in receivers)],
        rows,
        title=literal(title),
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
    agent: Annotated[
        str | None,
        typer.Option(
            help="The agent in the other role, by name (`wordgames agents --game codenames`; "
            "one that plays from an embedding). Default: cluster (a sender) when you guess, "
            "nearest (a receiver) when you give clues.",
        ),
    ] = None,
    vocab_size: Annotated[
        int | None,
        typer.Option(
            help="With --clue-vocabulary embedding: the N most frequent words of the embedding."
        ),
    ] = 50000,
    clue_vocabulary: Annotated[
        str,
        typer.Option(
            metavar="auto|nounlist|content|embedding",
            help="The agent's clues: 'nounlist' (the paper authors' 6,801 nouns, from the "
            "codenames-pilot data), 'content' (the embedding's 20,000 most frequent plain words "
            "without stop words), 'auto' (nounlist where the data is, else content), "
            "'embedding' (its most frequent words as they are, stop words and all).",
        ),
    ] = "auto",
    words: Annotated[
        Path | None, typer.Option(help="Board word list. Default: the Codenames list.")
    ] = None,
    stem_rule: Annotated[
        bool,
        typer.Option(
            help="Forbid clues that share a stem with a board word ('feet' for 'foot'), "
            "for you and the agent."
        ),
    ] = True,
    data_root: DataRoot = None,
):
    """Play Codenames at the terminal with an embedding agent.

    The board keeps its places, every word has a text marker besides its colour (NO_COLOR
    works), a score line comes before every move and a summary at the end.
    """
    from wordgames.cli.common import fail
    from wordgames.codenames.board import ClueRules, codenames_word_list
    from wordgames.codenames.game import random_boards
    from wordgames.codenames.play import play_terminal
    from wordgames.embeddings.sets import load_embeddings
    from wordgames.errors import WordgamesError

    if role not in ("sender", "receiver"):
        fail("--role must be sender or receiver")
    spec = _play_agent(agent, "sender" if role == "receiver" else "receiver")
    rules = ClueRules(no_shared_stem=stem_rule)
    try:
        emb = load_embeddings(embedding)[0]
        pool = (
            words.read_text(encoding="utf-8").split() if words else codenames_word_list(data_root)
        )
        board = random_boards(pool, 1, n_blue, n_red, seed=seed, embeddings=[emb], rules=rules)[0]
    except (WordgamesError, ValueError, OSError) as exc:
        fail(str(exc))
    if spec.role == "sender":
        from wordgames.codenames.experiments import play_clue_vocabulary

        try:
            cv = play_clue_vocabulary(emb, clue_vocabulary, data_root)
        except WordgamesError as exc:
            fail(str(exc))
        if cv is not None and not cv.n_clues:
            fail(
                f"the embedding knows none of the {cv.name} words: use --clue-vocabulary embedding"
            )
        if cv is not None:
            emb, vocab_size = cv.embedding, cv.n_clues
            typer.echo(f"the agent's clues: {cv.name}, {cv.n_clues:,} words")
    # the factory takes those of these its signature names (AgentSpec.build)
    bot = spec.build(emb, random_state=seed, vocab_size=vocab_size, rules=rules)
    play_terminal(board, role, bot, max_turns=max_turns)  # a game played to its end is a success


def _play_agent(name: str | None, other: str):
    """The registered agent that plays ``other`` against you from an embedding (exit 2 if not)."""
    from wordgames.agents import get_agent
    from wordgames.cli.common import fail
    from wordgames.errors import WordgamesError

    name = name or ("cluster" if other == "sender" else "nearest")
    try:
        spec = get_agent("codenames", name)
    except WordgamesError as exc:
        fail(str(exc))
    if spec.role != other:
        fail(
            f"--agent {name} is a {spec.role}: against you as the {'receiver' if other == 'sender' else 'sender'} the agent is a {other}"
        )
    if spec.needs not in ("vectors", ""):
        fail(
            f"--agent {name} needs a subject with {spec.needs}; codenames play gives it an embedding"
        )
    return spec
