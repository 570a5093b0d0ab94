"""``wordgames run`` entry point of the Odd-Man-Out measure (``"oddmanout"``).

For one embedding: the embedding solver on every available published set (Table 3 layout:
%correct / %wrong / %abstained, accuracy when answering, OOV counts beside them), the WordNet
solver as an embedding-independent baseline row (computed once per process and reused for
every embedding), the polysemy analysis of the wrong answers on AnomiaCommon dev and the
paper's cocktail substitution experiment.

Options (``ctx.options["oddmanout"]``):

* ``sets`` -- names from :data:`wordgames.oddmanout.data.FILES` (default: all but the
  322,602-puzzle unfiltered file; in quick mode the three test sets);
* ``puzzles`` -- paths of users' own puzzle files (TSV / JSONL);
* ``mwe`` -- multi-word policy (default ``"phrase-or-mean"``), ``case``;
* ``wordnet`` -- True/False (default True, False in quick mode), ``wordnet_root``,
  ``instances`` (default False), ``missing`` (default ``"least-specific"``).
"""

from __future__ import annotations

from functools import cache

from wordgames.results import MeasureResult, Timer

VERSION = "1"
QUICK_SETS = ("anomia-common-test", "anomia-proper-test", "crowdsourced-filtered")


@cache
def _puzzles(name: str, root: str | None, seed: int):
    from wordgames.oddmanout.data import load_dataset

    return load_dataset(name, root, seed=seed)


@cache
def _wordnet_scores(sets: tuple[str, ...], root: str | None, seed: int, wordnet_root: str | None,
                    instances: bool, missing: str) -> tuple[list[dict], dict, dict]:
    """WordNet solver rows, once per process (they do not depend on the embedding)."""
    import time

    from wordgames.oddmanout.metrics import score, table3_row
    from wordgames.oddmanout.taxonomy import TaxonomySolver
    from wordgames.oddmanout.wordnet import wordnet_taxonomy

    t0 = time.perf_counter()
    tax = wordnet_taxonomy(wordnet_root, instances=instances)
    t1 = time.perf_counter()
    solver = TaxonomySolver(tax, missing=missing)
    rows, oov = [], {}
    for name in sets:
        ps = _puzzles(name, root, seed)
        sol = solver.solve(ps)
        s = score(ps, sol)
        rows.append(table3_row(solver.name, name, s))
        oov[name] = sol.oov
    return rows, oov, {"wordnet_load": round(t1 - t0, 3),
                       "wordnet_solve": round(time.perf_counter() - t1, 3)}


def run(embedding, ctx) -> MeasureResult:
    from wordgames.datasets import verify_dataset
    from wordgames.oddmanout.data import DEFAULT_SETS, FILES, available_sets
    from wordgames.oddmanout.embedding_solver import EmbeddingSolver
    from wordgames.oddmanout.metrics import format_table3, score, table3_row
    from wordgames.oddmanout.puzzles import read_puzzles
    from wordgames.errors import SkipMeasure

    opts = dict((getattr(ctx, "options", {}) or {}).get("oddmanout", {}))
    root = None if ctx.data_root is None else str(ctx.data_root)
    wanted = list(opts.get("sets") or (QUICK_SETS if ctx.quick else DEFAULT_SETS))
    unknown = [s for s in wanted if s not in FILES]
    if unknown:
        raise KeyError(f"unknown Odd-Man-Out set(s) {unknown}; known: {', '.join(FILES)}")
    from wordgames.errors import DatasetMissingError

    try:
        sets = available_sets(root, wanted)
    except DatasetMissingError:
        sets = []
    user_files = list(opts.get("puzzles", ()))
    if not sets and not user_files:
        raise DatasetMissingError("no Odd-Man-Out data set is available (set WORDGAMES_DATA to "
                                  "a data root holding oddmanout/, or pass puzzle files)")
    timings: dict[str, float] = {}
    notes: list[str] = []
    solver = EmbeddingSolver(embedding, mwe=opts.get("mwe", "phrase-or-mean"),
                             case=opts.get("case", "fallback-lower"))
    with Timer(timings, "load"):
        puzzle_sets = {n: _puzzles(n, root, ctx.seed) for n in sets}
        for path in user_files:
            ps = read_puzzles(path, seed=ctx.seed)
            puzzle_sets[ps.name] = ps
        datasets = {spec: verify_dataset(spec, root, strict=False)
                    for spec in sorted({FILES[n][0] for n in sets})}
    metrics: dict[str, float] = {}
    rows: list[dict] = []
    oov: dict = {"mwe_policy": solver.mwe, "case_policy": solver.case}
    with Timer(timings, "solve"):
        for name, ps in puzzle_sets.items():
            sol = solver.solve(ps)
            s = score(ps, sol)
            rows.append(table3_row(embedding.name, name, s))
            for key in ("pct_correct", "pct_wrong", "pct_abstained", "accuracy_answered",
                        "puzzles_with_oov", "oov_words"):
                metrics[f"{name}/{key}"] = float(s[key])
            metrics[f"{name}/n"] = float(s["n"])
            oov[name] = sol.oov
    load_rows = [{"dataset": n, **{k: v for k, v in ps.report.items()
                                   if k not in ("malformed_lines", "sha256")}}
                 for n, ps in puzzle_sets.items()]
    for r in load_rows:
        fixes = {k: r.get(k, 0) for k in ("stripped_fields", "glued_lines_repaired",
                                          "malformed_records", "duplicates_dropped",
                                          "repeated_word_dropped")}
        if any(fixes.values()):
            notes.append(f"{r['dataset']}: " + ", ".join(f"{k}={v}" for k, v in fixes.items()))
    tables: dict[str, list[dict]] = {"table3": rows, "load_reports": load_rows}
    use_wordnet = bool(opts.get("wordnet", not ctx.quick))
    if use_wordnet and sets:
        try:
            with Timer(timings, "wordnet"):
                wn_rows, wn_oov, wn_t = _wordnet_scores(
                    tuple(sets), root, ctx.seed, opts.get("wordnet_root"),
                    bool(opts.get("instances", False)), opts.get("missing", "least-specific"))
            tables["table3"] = rows + wn_rows
            oov["wordnet"] = wn_oov
            timings.update(wn_t)
            for r in wn_rows:
                metrics[f"wordnet/{r['dataset']}/pct_correct"] = r["pct_correct"]
                metrics[f"wordnet/{r['dataset']}/pct_wrong"] = r["pct_wrong"]
                metrics[f"wordnet/{r['dataset']}/pct_abstained"] = r["pct_abstained"]
            with Timer(timings, "analysis"):
                tables.update(_analysis(solver, puzzle_sets, opts.get("wordnet_root")))
        except (DatasetMissingError, ImportError) as exc:
            notes.append(f"WordNet baseline skipped: {exc}")
    elif not use_wordnet:
        notes.append("WordNet baseline and polysemy analysis not run (quick mode or wordnet=False)")
    if not rows:
        raise SkipMeasure("no puzzle set could be solved")
    notes.append("words are shown to solvers in a seeded random order (the files put the answer "
                 f"second); seed={ctx.seed}")
    notes.append(f"multi-word expressions: policy {solver.mwe!r}; case: {solver.case!r}")
    result = MeasureResult(
        measure="oddmanout", version=VERSION, metrics=metrics, tables=tables, oov=oov,
        parameters={"solver": solver.get_params(), "sets": list(puzzle_sets), "seed": ctx.seed,
                    "quick": ctx.quick, "wordnet": use_wordnet,
                    "wordnet_instances": bool(opts.get("instances", False)),
                    "wordnet_missing": opts.get("missing", "least-specific")},
        datasets=datasets, timings=timings, notes=notes)
    ctx.log(format_table3(tables["table3"]))
    with Timer(result.timings, "plot"):
        result.plots.append(str(plot_table3(tables["table3"],
                                            ctx.plot_dir("oddmanout", embedding.name))))
    return result


def _analysis(solver, puzzle_sets: dict, wordnet_root) -> dict[str, list[dict]]:
    from wordgames.oddmanout.analysis import COCKTAILS, polysemy_of_errors, substitution_experiment
    from wordgames.oddmanout.wordnet import sense_counts

    out: dict[str, list[dict]] = {}
    dev = puzzle_sets.get("anomia-common-dev") or next(iter(puzzle_sets.values()))
    sol = solver.solve(dev)
    poly = polysemy_of_errors(dev, sol, lambda ws: sense_counts(ws, wordnet_root))
    examples = poly.pop("examples")
    out["polysemy_of_errors"] = [{"dataset": dev.name, **poly}]
    out["error_examples"] = [{**e, "words": ", ".join(e["words"])} for e in examples]
    c = COCKTAILS
    sub = substitution_experiment(solver, c["odd"], c["others"], c["target"],
                                  {k: c[k] for k in ("monosemous", "polysemous")})
    out["substitution_cocktails"] = sub["rows"]
    return out


def plot_table3(rows: list[dict], folder):
    """Stacked bars of %correct / %wrong / %abstained per solver and data set."""
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
    ax.bar(x, c, label="correct", color="#4c9a2a")
    ax.bar(x, w, bottom=c, label="wrong", color="#c0392b")
    ax.bar(x, a, bottom=c + w, label="abstained", color="#bbbbbb")
    ax.set_xticks(x, labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("% of puzzles")
    ax.set_ylim(0, 100)
    ax.set_title("Odd-Man-Out (Table 3 layout)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = folder / "oddmanout_table3.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
