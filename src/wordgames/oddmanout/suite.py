"""The compute function of the Odd-Man-Out measure (declared in :mod:`wordgames.oddmanout.spec`).

For one embedding: the embedding solver on every available published set and on the user's
puzzle files (Table 3 layout: %correct / %wrong / %abstained, accuracy when answering, OOV
counts beside them); the solvers of sense-embedding files; the WordNet solver as an
embedding-independent baseline (computed once per process and reused for every embedding);
the polysemy analysis of the wrong answers on AnomiaCommon dev (with WordNet), the paper's
substitution experiments (cocktails, groups of animals: tables ``substitution_cocktails`` and
``substitution_animals``) and, for every solver and set, how concentrated the wrong answers are
on a few words (table ``error_concentration``). Version 3 added the last two and the option
``wordnet_mode``; stored version-2 results are recomputed.

Options: :class:`~wordgames.oddmanout.spec.OddManOutOptions`. Scores: one row per puzzle set
(``dataset``), solver (``subject``: ``embedding``, ``wordnet``, ``senses:<name>``) and metric
(``pct_correct``, ``pct_wrong``, ``pct_abstained`` in percent, ``accuracy_answered`` as a share),
with every puzzle of the set as ``n`` and the puzzles holding an unknown word as ``n_oov``.

Those puzzles stay in ``n`` (the solver abstains on them, and the percentages are of all
puzzles), so the coverage is the share of puzzles without an out-of-vocabulary word,
``(n - n_oov) / n``. A vocabulary that drops most words thus gives a thin score, not a
confident 5 %. ``accuracy_answered`` is over the answered puzzles: its ``n_skipped`` are the
abstained ones (``n + n_skipped`` is the set's size in every row).

Intervals: seeded percentile bootstraps over the per-puzzle outcomes
(:func:`~wordgames.oddmanout.metrics.score_intervals`; ``ctx.ci_resamples`` resamples seeded
by ``ctx.seed``), inside [0, 100] for the percentages and [0, 1] for ``accuracy_answered``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from functools import cache

from wordgames.measure import MeasureResult, Timer
from wordgames.paired import item_record
from wordgames.reading import answers_read_row, format_failure_score
from wordgames.safeio import save_figure

VERSION = "3"
QUICK_SETS = ("anomia-common-test", "anomia-proper-test", "crowdsourced-filtered")
#: the sets of a quick run of a player subject (every answer is a request)
QUICK_PLAYER_SETS = ("anomia-common-test",)
SCORE_METRICS = ("pct_correct", "pct_wrong", "pct_abstained", "accuracy_answered")
_FIXES = (
    "stripped_fields",
    "glued_lines_repaired",
    "malformed_records",
    "duplicates_dropped",
    "repeated_word_dropped",
)


@cache
def _puzzles(name: str, root: str | None, seed: int):
    from wordgames.oddmanout.data import load_dataset

    return load_dataset(name, root, seed=seed)


@cache
def _wordnet_solver(wordnet_root: str | None, instances: bool, missing: str, mode: str = "ours"):
    """The WordNet solver, loaded once per process (loading WordNet takes seconds)."""
    from wordgames.oddmanout.wordnet import wordnet_solver

    return wordnet_solver(wordnet_root, mode=mode, instances=instances, missing=missing)


@dataclass
class SolvedSet:
    """One solver's scores on one puzzle set (:func:`wordgames.oddmanout.metrics.score`)."""

    dataset: str
    score: dict
    oov: dict
    ci: dict = field(default_factory=dict)
    errors: dict = field(default_factory=dict)  # analysis.error_concentration
    outcomes: object = None  # per puzzle: 1 solved, 0 wrong, -1 abstained
    ids: object = None  # per puzzle: its line in the source (stable across seeds)
    solution: object = None  # the solver's Solution


@dataclass
class WordNetRows:
    """The WordNet baseline on the published sets: Table-3 rows, scores, OOV, timings."""

    rows: list[dict]
    solved: list[SolvedSet]
    timings: dict[str, float]


@cache
def _wordnet_scores(
    sets: tuple[str, ...],
    root: str | None,
    seed: int,
    wordnet_root: str | None,
    instances: bool,
    missing: str,
    n_resamples: int = 1000,
    mode: str = "ours",
) -> WordNetRows:
    """WordNet solver rows, once per process (they do not depend on the embedding)."""
    import time

    from wordgames.oddmanout.metrics import table3_row

    t0 = time.perf_counter()
    solver = _wordnet_solver(wordnet_root, instances, missing, mode)
    t1 = time.perf_counter()
    sets_ = {name: _puzzles(name, root, seed) for name in sets}
    solved = solve_sets(solver, sets_, {"n_resamples": n_resamples, "seed": seed})
    rows = [table3_row(solver.name, x.dataset, x.score, x.ci) for x in solved]
    return WordNetRows(
        rows,
        solved,
        {"wordnet_load": round(t1 - t0, 3), "wordnet_solve": round(time.perf_counter() - t1, 3)},
    )


# --------------------------------------------------------------------------- inputs
@dataclass
class Inputs:
    """The puzzle sets of one run: published ones (by name) and the user's files."""

    published: list[str]
    sets: dict = field(default_factory=dict)  # name -> PuzzleSet
    datasets: dict = field(default_factory=dict)  # declared data sets read, with checksums


def wanted_sets(opts, quick: bool) -> list[str]:
    """The published set names the options ask for (checked against the known ones)."""
    from wordgames.measure import OptionError
    from wordgames.oddmanout.data import DEFAULT_SETS, FILES

    wanted = list(opts.sets if opts.sets is not None else (QUICK_SETS if quick else DEFAULT_SETS))
    unknown = [s for s in wanted if s not in FILES]
    if unknown:
        raise OptionError(f"unknown Odd-Man-Out set(s) {unknown}; known: {', '.join(FILES)}")
    return wanted


def load_inputs(opts, root: str | None, seed: int, quick: bool) -> Inputs:
    """Load the available published sets and the user's puzzle files (words shuffled by ``seed``).

    Raises :class:`~wordgames.errors.DatasetMissingError` when there is nothing to solve.
    """
    from wordgames.datasets import verify_dataset
    from wordgames.errors import DatasetMissingError
    from wordgames.oddmanout.data import FILES, available_sets
    from wordgames.oddmanout.puzzles import read_puzzles

    wanted = wanted_sets(opts, quick)
    try:
        published = available_sets(root, wanted)
    except DatasetMissingError:
        published = []
    if not published and not opts.puzzles:
        raise DatasetMissingError(
            "no Odd-Man-Out data set is available (set WORDGAMES_DATA to "
            "a data root holding oddmanout/, or pass puzzle files)"
        )
    inputs = Inputs(published, {n: _puzzles(n, root, seed) for n in published})
    for path in opts.puzzles:
        ps = read_puzzles(path, seed=seed)
        inputs.sets[ps.name] = ps
    inputs.datasets = {
        spec: verify_dataset(spec, root, strict=False)
        for spec in sorted({FILES[n][0] for n in published})
    }
    return inputs


def load_reports(inputs: Inputs) -> tuple[list[dict], list[str]]:
    """The readers' reports of every set (table rows) and a note per set with repairs."""
    rows = [
        {
            "dataset": n,
            **{k: v for k, v in ps.report.items() if k not in ("malformed_lines", "sha256")},
        }
        for n, ps in inputs.sets.items()
    ]
    notes = []
    for r in rows:
        fixes = {k: r.get(k, 0) for k in _FIXES}
        if any(fixes.values()):
            notes.append(f"{r['dataset']}: " + ", ".join(f"{k}={v}" for k, v in fixes.items()))
    return rows, notes


# --------------------------------------------------------------------------- scores
def add_scores(result: MeasureResult, subject: str, solved: SolvedSet, unknown: str) -> None:
    """The four Score rows of one solver on one set; ``unknown`` names what the solver lacks.

    The percentages are of every puzzle (``n`` = the set, nothing skipped); the puzzles with an
    unknown word are abstained on and counted as ``n_oov``. ``accuracy_answered`` is computed
    on the answered puzzles: the abstained ones are its ``n_skipped``.
    """
    s = solved.score
    n, n_oov = int(s["n"]), int(s["puzzles_with_oov"])
    n_abstained = int(s["abstained"])
    sol = solved.solution
    reasons = getattr(sol, "reason", None)
    n_unread = 0 if reasons is None else int(sum(r == "unreadable-answer" for r in reasons))
    why = f"puzzles with a word not in {unknown} (counted as abstained)" if n_oov else ""
    nan2 = (math.nan, math.nan)
    for metric in SCORE_METRICS:
        answered_only = metric == "accuracy_answered"
        skipped = n_abstained if answered_only else 0
        reason = "abstained puzzles (accuracy is over the answered ones)" if skipped else ""
        row = result.score(
            solved.dataset,
            subject,
            metric,
            s[metric],
            ci=solved.ci.get(metric, nan2),
            n=n - skipped,
            n_skipped=skipped,
            skip_reason="; ".join(x for x in (reason, why) if x),
            n_oov=0 if answered_only else n_oov,
            n_unread=0 if answered_only else n_unread,
        )
        kind = {"pct_correct": 1, "pct_wrong": 0}.get(metric)
        if kind is not None and solved.outcomes is not None:
            per = 100.0 * (solved.outcomes == kind)
            result.keep_items(row, item_record(solved.ids, per))
    tally = (getattr(sol, "extra", None) or {}).get("reading")
    if tally is not None:  # a player: its format failures, and how its answers were read
        format_failure_score(result, solved.dataset, subject, "format_failures", n_unread, n)
        result.tables.setdefault("answers_read", []).append(
            answers_read_row(solved.dataset, subject, tally, "solver")
        )


def solve_sets(solver, sets: dict, boot: dict | None = None) -> list[SolvedSet]:
    """``solver`` on every puzzle set: the scores, OOV counts and intervals of each.

    ``boot``: ``n_resamples`` and ``seed`` of :func:`~wordgames.oddmanout.metrics.score_intervals`
    (``None``: no interval).
    """
    import numpy as np

    from wordgames.oddmanout.analysis import error_concentration
    from wordgames.oddmanout.metrics import outcomes, score, score_intervals

    out = []
    for name, ps in sets.items():
        sol = solver.solve(ps)
        ci = score_intervals(ps, sol, **boot) if boot else {}
        lines = np.asarray(ps.lines if ps.lines is not None else [])
        ids = lines if lines.size and lines.all() else np.arange(len(ps.answer))
        out.append(
            SolvedSet(
                name,
                score(ps, sol),
                sol.oov,
                ci,
                error_concentration(ps, sol),
                outcomes(ps, sol),
                ids,
                sol,
            )
        )
    return out


def concentration_row(solver: str, solved: SolvedSet) -> dict:
    """One row of the ``error_concentration`` table (a few words cause most errors?)."""
    e = solved.errors
    return {
        "solver": solver,
        "dataset": solved.dataset,
        "n_wrong": e["n_wrong"],
        "wrong_words": e["wrong_words"],
        "possible": e["possible"],
        "top_words": ", ".join(f"{w} ({c})" for w, c in e["top_words"]),
        "top_share": e["top_share"],
        "even_share": e["even_share"],
    }


def _add_concentration(result: MeasureResult, solver: str, solved: list[SolvedSet]) -> None:
    result.tables.setdefault("error_concentration", []).extend(
        concentration_row(solver, x) for x in solved
    )


def embedding_part(
    result: MeasureResult,
    solver,
    label: str,
    inputs: Inputs,
    boot: dict | None = None,
    subject: str = "embedding",
    keep: list | None = None,
) -> list[dict]:
    """The subject's solver on every set: Score rows and OOV; returns Table-3 rows.

    ``keep``: a list that gets the :class:`SolvedSet` of every set.
    """
    from wordgames.oddmanout.metrics import table3_row

    rows = []
    solved_sets = solve_sets(solver, inputs.sets, boot)
    if keep is not None:
        keep.extend(solved_sets)
    _add_concentration(result, label, solved_sets)
    for solved in solved_sets:
        s, name = solved.score, solved.dataset
        rows.append(table3_row(label, name, s, solved.ci))
        result.oov[name] = solved.oov
        add_scores(result, subject, solved, f"the {subject}")
    return rows


def senses_part(
    result: MeasureResult, opts, inputs: Inputs, boot: dict | None = None
) -> list[dict]:
    """The solvers of the sense-embedding files on every set; returns Table-3 rows."""
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver
    from wordgames.oddmanout.metrics import table3_row
    from wordgames.oddmanout.senses import SenseEmbedding

    rows = []
    for path in opts.senses:
        solver = EmbeddingSolver(SenseEmbedding.load(path), mwe=opts.mwe, case=opts.case)
        subject = f"senses:{solver.embedding.name}"
        oov = result.oov.setdefault("senses", {}).setdefault(solver.embedding.name, {})
        solved_sets = solve_sets(solver, inputs.sets, boot)
        _add_concentration(result, solver.name, solved_sets)
        for solved in solved_sets:
            rows.append(table3_row(solver.name, solved.dataset, solved.score, solved.ci))
            oov[solved.dataset] = solved.oov
            add_scores(result, subject, solved, "the sense embedding")
    return rows


def wordnet_part(
    result: MeasureResult, opts, inputs: Inputs, root: str | None, boot: dict
) -> list[dict]:
    """The WordNet baseline: cached rows of the published sets, then the user's files."""
    from wordgames.oddmanout.metrics import table3_row

    wn = _wordnet_scores(
        tuple(inputs.published),
        root,
        boot["seed"],
        opts.wordnet_root,
        opts.instances,
        opts.missing,
        boot["n_resamples"],
        opts.wordnet_mode,
    )
    rows = list(wn.rows)
    solved = list(wn.solved)
    user = {n: ps for n, ps in inputs.sets.items() if n not in inputs.published}
    if user:
        solver = _wordnet_solver(opts.wordnet_root, opts.instances, opts.missing, opts.wordnet_mode)
        for extra in solve_sets(solver, user, boot):
            rows.append(table3_row(solver.name, extra.dataset, extra.score, extra.ci))
            solved.append(extra)
    result.oov["wordnet"] = {x.dataset: x.oov for x in solved}
    _add_concentration(result, rows[0]["solver"] if rows else "wordnet", solved)
    result.timings.update(wn.timings)
    for x in solved:
        add_scores(result, "wordnet", x, "WordNet")
    return rows


def substitution_tables(solver) -> dict[str, list[dict]]:
    """The substitution experiments of section 5.2 (cocktails, groups of animals) with ``solver``."""
    from wordgames.oddmanout.analysis import SUBSTITUTIONS, substitution_experiment

    out = {}
    for name, c in SUBSTITUTIONS.items():
        alts = {k: c[k] for k in ("monosemous", "polysemous")}
        sub = substitution_experiment(solver, c["odd"], c["others"], c["target"], alts)
        out[f"substitution_{name}"] = sub["rows"]
    return out


def _analysis(solver, puzzle_sets: dict, wordnet_root) -> dict[str, list[dict]]:
    from wordgames.oddmanout.analysis import polysemy_of_errors
    from wordgames.oddmanout.wordnet import sense_counts

    out: dict[str, list[dict]] = {}
    dev = puzzle_sets.get("anomia-common-dev") or next(iter(puzzle_sets.values()))
    sol = solver.solve(dev)
    poly = polysemy_of_errors(dev, sol, lambda ws: sense_counts(ws, wordnet_root))
    examples = poly.pop("examples")
    out["polysemy_of_errors"] = [{"dataset": dev.name, **poly}]
    out["error_examples"] = [{**e, "words": ", ".join(e["words"])} for e in examples]
    return out


# --------------------------------------------------------------------------- run
def run(embedding, ctx) -> MeasureResult:
    """Every solver on every puzzle set.

    ``ctx.options`` is a :class:`~wordgames.oddmanout.spec.OddManOutOptions`.
    """
    from wordgames.errors import SkipMeasure
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver
    from wordgames.oddmanout.metrics import format_table3
    from wordgames.subjects import is_player

    opts = ctx.options
    root = None if ctx.data_root is None else str(ctx.data_root)
    result = MeasureResult(measure="oddmanout", version=VERSION)
    if ctx.quick and is_player(embedding) and opts.sets is None:
        # every answer of a player is a request: a quick run asks one set
        opts = dataclasses.replace(opts, sets=QUICK_PLAYER_SETS)
        ctx = dataclasses.replace(ctx, options=opts)
        result.notes.append(f"quick run of a player: only {', '.join(QUICK_PLAYER_SETS)}")
    with Timer(result.timings, "load"):
        inputs = load_inputs(opts, root, ctx.seed, ctx.quick)
    name = opts.solver or ("player" if is_player(embedding) else "embedding")
    if name != "embedding":
        solver = _solver_by_name(name, embedding, opts)
        return run_agent(result, solver, name, inputs, ctx, label=embedding.name)
    solver = EmbeddingSolver(embedding, mwe=opts.mwe, case=opts.case)
    result.oov.update({"mwe_policy": solver.mwe, "case_policy": solver.case})
    rows: list[dict] = []
    boot = {"n_resamples": ctx.ci_resamples, "seed": ctx.seed}
    with Timer(result.timings, "solve"):
        if opts.embedding_solver:
            rows += embedding_part(result, solver, embedding.name, inputs, boot)
        rows += senses_part(result, opts, inputs, boot)
    load_rows, result.notes = load_reports(inputs)
    result.tables.update({"table3": rows, "load_reports": load_rows})
    if opts.embedding_solver:
        with Timer(result.timings, "substitutions"):
            result.tables.update(substitution_tables(solver))
    use_wordnet = bool(opts.wordnet if opts.wordnet is not None else not ctx.quick)
    if use_wordnet:
        _wordnet_and_analysis(result, solver, opts, inputs, root, boot)
    else:
        result.notes.append(
            "WordNet baseline and polysemy analysis not run (quick mode or wordnet=False)"
        )
    if not result.tables["table3"]:
        raise SkipMeasure("no puzzle set could be solved")
    _finish(result, solver, opts, inputs, ctx, use_wordnet)
    ctx.logger.debug("Odd-Man-Out, Table 3 layout:\n%s", format_table3(result.tables["table3"]))
    folder = ctx.plot_dir("oddmanout", embedding.name)
    if folder is not None:
        with Timer(result.timings, "plot"):
            result.plots.append(str(plot_table3(result.tables["table3"], folder)))
    return result


def _solver_by_name(name: str, subject, opts):
    """The registered solver ``name`` built for ``subject`` (its factory's own options)."""
    from wordgames.agents import get_agent
    from wordgames.errors import SkipMeasure

    spec = get_agent("oddmanout", name)
    why = spec.reason_unusable(subject)
    if why is not None:
        raise SkipMeasure(f"oddmanout solver {name!r} {why}")
    return spec.build(subject, mwe=opts.mwe, case=opts.case)


def run_agent(
    result: MeasureResult, solver, name: str, inputs: Inputs, ctx, *, label: str
) -> MeasureResult:
    """A solver chosen by name (a player's by default) on every puzzle set, WordNet beside it.

    Its rows' subject is ``name``; the sense-embedding solvers and the error analysis are the
    embedding solver's companions and are not run (the notes say so).
    """
    from wordgames.errors import SkipMeasure

    opts = ctx.options
    root = None if ctx.data_root is None else str(ctx.data_root)
    boot = {"n_resamples": ctx.ci_resamples, "seed": ctx.seed}
    solved: list[SolvedSet] = []
    with Timer(result.timings, "solve"):
        rows = embedding_part(result, solver, label, inputs, boot, subject=name, keep=solved)
    load_rows, result.notes = load_reports(inputs)
    result.tables.update({"table3": rows, "load_reports": load_rows})
    if any("category" in (x.solution.extra or {}) for x in solved):
        with Timer(result.timings, "categories"):
            category_part(result, name, solved, inputs, opts, boot)
    result.notes.append(
        f"solver {name!r}: the sense-embedding solvers and the error analysis go with the "
        "embedding solver and were not run"
    )
    use_wordnet = bool(opts.wordnet if opts.wordnet is not None else not ctx.quick)
    if use_wordnet:
        try:
            with Timer(result.timings, "wordnet"):
                result.tables["table3"] += wordnet_part(result, opts, inputs, root, boot)
        except ImportError as exc:
            result.notes.append(f"WordNet baseline skipped: {exc}")
    if not result.tables["table3"]:
        raise SkipMeasure("no puzzle set could be solved")
    _finish(result, solver, opts, inputs, ctx, use_wordnet)
    return result


def category_part(result: MeasureResult, subject: str, solved, inputs: Inputs, opts, boot):
    """The categories a player named, against the WordNet solver's explanations, per set.

    Three Score rows a set: ``category_named`` (% of the answered puzzles whose answer names
    a readable category), ``category_holds_wordnet`` (% of those whose category is a WordNet
    class of the four kept words) and ``category_agrees_wordnet`` (% of the puzzles where the
    WordNet solver chose the same word whose category names its explanation or a hypernym of
    it); the answered puzzles not compared are ``n_skipped``, by reason
    (:mod:`wordgames.oddmanout.categories`); the ``categories`` table, one row a puzzle.
    A note instead when WordNet cannot be loaded.
    """
    from wordgames.errors import DatasetMissingError
    from wordgames.oddmanout.categories import compare_categories

    if opts.wordnet is False:
        result.notes.append("categories not compared with WordNet (wordnet=False)")
        return
    try:
        wordnet = _wordnet_solver(
            opts.wordnet_root, opts.instances, opts.missing, opts.wordnet_mode
        )
    except (DatasetMissingError, ImportError) as exc:
        result.notes.append(f"categories not compared with WordNet: {exc}")
        return
    rows = result.tables.setdefault("categories", [])
    for x in solved:
        ps = inputs.sets[x.dataset]
        found = compare_categories(ps, x.solution, wordnet.solve(ps), wordnet.taxonomy)
        rows.extend({"dataset": x.dataset, **r} for r in found["rows"])
        status = x.solution.extra["category_status"]
        answered = status[x.solution.choice >= 0]
        _share_score(result, x.dataset, subject, "category_named", answered == "named", boot)
        for key in ("holds", "agrees"):
            left_out = found[f"{key}_left_out"]
            why = "; ".join(f"{k}: {v}" for k, v in sorted(left_out.items()))
            _share_score(result, x.dataset, subject, f"category_{key}_wordnet", found[key], boot,
                         n_skipped=sum(left_out.values()), skip_reason=why)  # fmt: skip


def _share_score(result, dataset, subject, metric, hits, boot, **skipped) -> None:
    """A percentage of puzzles with a seeded bootstrap interval (NaN over no puzzle)."""
    import numpy as np

    from wordgames.stats import bootstrap_ci

    values = 100.0 * np.asarray(hits, dtype=np.float64)
    value = float(values.mean()) if len(values) else math.nan
    # (nan, nan) under two puzzles or without resamples
    ci = bootstrap_ci(values, n_resamples=boot["n_resamples"], seed=boot["seed"],
                      bounds=(0.0, 100.0))  # fmt: skip
    result.score(dataset, subject, metric, value, ci=ci, n=len(values), **skipped)


def _wordnet_and_analysis(result: MeasureResult, solver, opts, inputs: Inputs, root, boot):
    """WordNet rows and, with the embedding solver on the published sets, the error analysis.

    A note instead when WordNet is not available.
    """
    from wordgames.errors import DatasetMissingError

    try:
        with Timer(result.timings, "wordnet"):
            result.tables["table3"] = result.tables["table3"] + wordnet_part(
                result, opts, inputs, root, boot
            )
        if inputs.published and opts.embedding_solver:
            with Timer(result.timings, "analysis"):
                result.tables.update(_analysis(solver, inputs.sets, opts.wordnet_root))
    except (DatasetMissingError, ImportError) as exc:
        result.notes.append(f"WordNet baseline skipped: {exc}")


def _finish(result: MeasureResult, solver, opts, inputs: Inputs, ctx, use_wordnet: bool) -> None:
    """Notes, parameters and data sets of the result."""
    result.notes.append(
        "words are shown to solvers in a seeded random order (the files put the "
        f"answer second); seed={ctx.seed}"
    )
    mwe, case = getattr(solver, "mwe", "as given"), getattr(solver, "case", "as given")
    result.notes.append(f"multi-word expressions: policy {mwe!r}; case: {case!r}")
    result.datasets = inputs.datasets
    describe = getattr(solver, "describe", None)
    result.parameters = {
        "solver": describe() if callable(describe) else {"solver": type(solver).__name__},
        "sets": list(inputs.sets),
        "seed": ctx.seed,
        "quick": ctx.quick,
        "wordnet": use_wordnet,
        "wordnet_instances": opts.instances,
        "wordnet_missing": opts.missing,
        "wordnet_mode": opts.wordnet_mode,
        "mwe": opts.mwe,
        "case": opts.case,
        "embedding_solver": opts.embedding_solver,
        "senses": list(opts.senses),
        "intervals": {
            "method": "95% percentile bootstrap over the puzzles",
            "resamples": ctx.ci_resamples,
            "seed": ctx.seed,
        },
    }


def plot_table3(rows: list[dict], folder):
    """Stacked bars of %correct / %wrong / %abstained per solver and data set.

    The correct bars carry their 95 % bootstrap interval as error bars.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    labels = [f"{r['dataset']}\n{r['solver']}" for r in rows]
    c = np.array([r["pct_correct"] for r in rows])
    w = np.array([r["pct_wrong"] for r in rows])
    a = np.array([r["pct_abstained"] for r in rows])
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(rows) + 2), 4.5))
    x = np.arange(len(rows))
    ci = np.array([r.get("pct_correct_ci") or [np.nan, np.nan] for r in rows], dtype=float)
    yerr = np.nan_to_num(np.stack([c - ci[:, 0], ci[:, 1] - c]), nan=0.0).clip(min=0.0)
    ax.bar(x, c, yerr=yerr, capsize=2, label="correct", color="#4c9a2a")
    ax.bar(x, w, bottom=c, label="wrong", color="#c0392b")
    ax.bar(x, a, bottom=c + w, label="abstained", color="#bbbbbb")
    ax.set_xticks(x, labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("% of puzzles")
    ax.set_ylim(0, 100)
    ax.set_title("Odd-Man-Out (Table 3 layout)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = folder / "oddmanout_table3.png"
    save_figure(fig, path, dpi=110)
    plt.close(fig)
    return path


# --------------------------------------------------------------------------- pre-check
def coverage(embedding, opts, root):
    """``(data set, items known, items, unit)`` of each data set: the pre-check of a unit.

    Known: the puzzles the embedding solver answers, by its own phrase and case rules
    (:meth:`EmbeddingSolver.answerable`): the scores' ``n - n_oov``.
    """
    from wordgames.oddmanout.data import DEFAULT_SETS, available_sets, load_dataset
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver

    solver = EmbeddingSolver(embedding, mwe=opts.mwe, case=opts.case)
    out = []
    for name in available_sets(root, opts.sets or DEFAULT_SETS):
        ps = load_dataset(name, root, seed=0)
        out.append((name, int(solver.answerable(ps).sum()), len(ps.words), "puzzles"))
    return out


def game_words(root) -> set[str]:
    """Every word this game asks an embedding about on the available data."""
    import numpy as np

    from wordgames.oddmanout.data import DEFAULT_SETS, available_sets, load_dataset

    out: set[str] = set()
    for name in available_sets(root, DEFAULT_SETS):
        out.update(str(w) for w in np.asarray(load_dataset(name, root, seed=0).words).ravel())
    return out
