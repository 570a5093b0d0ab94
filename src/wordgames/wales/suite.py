"""``wordgames run`` entry point of WALES: ``run(embedding, ctx) -> MeasureResult``.

Headline ``wales/score``: mean task score (gamma = 1, lengths in edges) on the default
distribution, the 1000 human-played pairs of Wikispeedia's largest strongly connected
component. Per-distribution keys ``wales/<task set>/score`` (and ``.../ci_half_width``,
``.../failure_rate``, ``.../n_excluded_target_no_vector``), the gamma sweep
``wales/gamma=<g>/score``, ``wales/score_nodes`` (the authors' node-count convention) and
the w-path baseline ``wales/w-path``.
"""

from __future__ import annotations

from wordgames.results import MeasureResult, Timer

VERSION = "1"
DEFAULT_TASK_SET = "human"


def _options(ctx) -> dict:
    opts = dict(ctx.options.get("wales", {})) if isinstance(ctx.options, dict) else {}
    if ctx.quick:
        base = {"k": 100, "human_k": 100, "gammas": (0.0, 1.0), "exponents": (1, 32),
                "percents": (10,), "table1_trials": 3, "table1_pool": 300, "w_path_pairs": 300}
    else:
        base = {}
    base.update(opts)
    return base


def run(embedding, ctx) -> MeasureResult:
    from wordgames.datasets import is_available, verify_dataset
    from wordgames.wales.baselines import human_baseline
    from wordgames.wales.loaders import read_human_results
    from wordgames.wales.report import (
        SWEEP_EXPONENT,
        evaluate_embedding,
        plot_figure4,
        plot_figure5,
        wikispeedia_setup,
    )

    timings: dict[str, float] = {}
    with Timer(timings, "load"):
        setup = wikispeedia_setup(ctx.data_root)
    opts = _options(ctx)
    with Timer(timings, "evaluate"):
        rep = evaluate_embedding(setup, embedding, seed=ctx.seed, log=ctx.log, **opts)
    timings.update({f"evaluate/{k}": round(v, 4) for k, v in rep["timings"].items()})

    metrics: dict[str, float] = {}
    for row in rep["distributions"]:
        key = f"wales/{row['task_set']}"
        if row["convention"] == "nodes":
            metrics[f"{key}/score_nodes"] = row["score"]
            continue
        metrics[f"{key}/score"] = row["score"]
        metrics[f"{key}/ci_half_width"] = row["ci_half_width"]
        metrics[f"{key}/failure_rate"] = row["failure_rate"]
        metrics[f"{key}/n_excluded_target_no_vector"] = row["n_excluded_target_no_vector"]
    head = next(r for r in rep["distributions"]
                if r["task_set"] == DEFAULT_TASK_SET and r["convention"] == "edges")
    head_nodes = next(r for r in rep["distributions"]
                      if r["task_set"] == DEFAULT_TASK_SET and r["convention"] == "nodes")
    metrics["wales/score"] = head["score"]
    metrics["wales/score_nodes"] = head_nodes["score"]
    metrics["wales/ci_half_width"] = head["ci_half_width"]
    metrics["wales/n_excluded_target_no_vector"] = head["n_excluded_target_no_vector"]
    for row in rep["gamma_sweep"]:
        metrics[f"wales/gamma={row['gamma']:g}/score"] = row["score"]
    metrics["wales/w-path"] = rep["w_path"][0]["w_path"]
    metrics["wales/title_coverage"] = rep["coverage"]["coverage"]

    tables = {k: rep[k] for k in ("distributions", "gamma_sweep", "table1", "w_path")}
    notes = list(setup.notes)
    datasets = dict(setup.datasets)
    if is_available("wales", ctx.data_root):
        root = ctx.data_root
        from wordgames.datasets import dataset_file

        df = read_human_results(dataset_file("wales", "human_results_wales.tsv", root))
        hb = human_baseline(df, "nodes")
        tables["human_reference_wikigame"] = [hb, human_baseline(df, "edges")]
        datasets["wales"] = verify_dataset("wales", root)
        notes.append(
            f"Human reference (The Wiki Game, authors' graph, lengths in nodes): best "
            f"{hb['best']:.4f}, average {hb['average']:.4f}, median {hb['median']:.4f}; it is "
            "on another graph and in the node convention: compare with wales/score_nodes only "
            "loosely.")
    notes.append("Wikispeedia human success rate unavailable: paths_finished.tsv is missing "
                 "from the shared data (see its PROVENANCE.md).")
    if ctx.quick:
        notes.append(f"quick mode: {opts}")

    plots = []
    pdir = ctx.plot_dir("wales", embedding.name)
    plots.append(str(plot_figure4(rep["distributions"], pdir / "figure4_distributions.png")))
    plots.append(str(plot_figure5(rep["gamma_sweep"], pdir / "figure5_gamma.png")))

    cov = rep["coverage"]
    oov = {
        "title_rule": cov["rule"],
        "n_nodes": cov["n_nodes"],
        "n_nodes_without_vector": cov["n_no_vector"],
        "n_nodes_partial_title": cov["n_partial"],
        "n_oov_title_tokens": cov["n_oov_tokens"],
        "examples_without_vector": cov["examples_no_vector"],
        "tasks_excluded_target_without_vector": {
            r["task_set"]: r["n_excluded_target_no_vector"]
            for r in rep["distributions"] if r["convention"] == "edges"},
    }
    params = {"graph": setup.info, "agent": rep["agent"], "default_task_set": DEFAULT_TASK_SET,
              "convention": "edges (m/n); *_nodes: (m+1)/(n+1)", "seed": ctx.seed,
              "sweep_exponent": SWEEP_EXPONENT, "quick": ctx.quick,
              "options": {k: list(v) if isinstance(v, tuple) else v for k, v in opts.items()}}
    return MeasureResult("wales", VERSION, metrics=metrics, tables=tables, oov=oov,
                         parameters=params, datasets=datasets, plots=plots, timings=timings,
                         notes=notes)
