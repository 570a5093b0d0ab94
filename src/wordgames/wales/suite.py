"""The compute function of the WALES measure (declared in :mod:`wordgames.wales.spec`).

Options: :class:`~wordgames.wales.spec.WalesOptions`. Scores (``dataset``, ``subject``,
``metric``): per task distribution (``human``, ``powerlaw-a<a>``, ``top-b<b>``) the
``greedy`` agent's ``score`` (gamma = 1, lengths in edges), ``score_nodes`` (the authors'
node convention) and ``failure_rate``; the gamma sweep on ``powerlaw-a16`` as subjects
``greedy(gamma=<g>)``; per graph the ``w-path`` baseline (``w_path``) and the
``title_coverage``. ``n`` counts the tasks scored, ``n_skipped`` those left out (targets
without a vector) with the reason in words, so the coverage is ``n / (n + n_skipped)``.

Intervals: every score, failure rate and w-path carries a seeded percentile-bootstrap 95 %
interval over its tasks (w-path: over its node pairs), ``ctx.ci_resamples`` resamples seeded
by ``ctx.seed``, inside the metric's bounds. ``title_coverage`` is a count over every page,
not a sample: no interval.

Tables (declared in :mod:`wordgames.wales.spec`): ``distributions`` (one row per task set and
length convention), ``gamma_sweep``, ``table1`` (the paper's Table 1 layout), ``w_path`` and,
on Wikispeedia, ``human_reference_wikigame``.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from wordgames.measure import MeasureResult, Timer
from wordgames.reading import answers_read_row, format_failure_score

VERSION = "2"
DEFAULT_TASK_SET = "human"


def effective_options(options, quick: bool):
    """The options of a run.

    Under ``quick``, the smaller values of :data:`~wordgames.wales.spec.QUICK` for every option left
    at its default.

    Examples
    --------
    >>> from wordgames.wales.spec import WalesOptions
    >>> opts = effective_options(WalesOptions(k=60), quick=True)
    >>> opts.k, opts.human_k, opts.gammas
    (60, 100, (0.0, 1.0))
    >>> effective_options(WalesOptions(), quick=False) == WalesOptions()
    True
    """
    from wordgames.wales.spec import QUICK, WalesOptions

    options = options if options is not None else WalesOptions()
    if not quick:
        return options
    defaults = WalesOptions()
    small = {k: v for k, v in QUICK.items() if getattr(options, k) == getattr(defaults, k)}
    if options.graph != "wikispeedia" and options.challenges is None:
        small.pop("human_k", None)  # no human-played pairs to take the first of
    return dataclasses.replace(options, **small)


def run(embedding, ctx) -> MeasureResult:
    """WALES of one embedding (``ctx.options``: :class:`~wordgames.wales.spec.WalesOptions`)."""
    from wordgames.subjects import is_player
    from wordgames.wales.report import evaluate_embedding, load_setup

    name = ctx.options.navigator or ("player" if is_player(embedding) else "greedy")
    if name != "greedy":
        return run_navigator(embedding, name, ctx)
    opts = effective_options(ctx.options, ctx.quick)
    timings: dict[str, float] = {}
    with Timer(timings, "load"):
        setup = load_setup(
            opts.graph,
            names=opts.names,
            challenges=opts.challenges,
            data_root=ctx.data_root,
            require_scc=opts.require_scc,
        )
    with Timer(timings, "evaluate"):
        rep = evaluate_embedding(
            setup,
            embedding,
            seed=ctx.seed,
            n_resamples=ctx.ci_resamples,
            **_measure_kwargs(opts),
        )
    timings.update({f"evaluate/{k}": round(v, 4) for k, v in rep["timings"].items()})
    items = {r["task_set"]: r.pop("_items") for r in rep["distributions"] if "_items" in r}
    result = MeasureResult(
        "wales",
        VERSION,
        timings=timings,
        tables={k: rep[k] for k in ("distributions", "gamma_sweep", "table1", "w_path")},
        notes=list(setup.notes),
        datasets=dict(setup.datasets),
    )
    add_scores(result, rep, setup.graph.name, items)
    if opts.graph == "wikispeedia":
        _add_human_reference(result, ctx)
    if ctx.quick:
        changed = _changed(opts, ctx.options)
        result.notes.append(
            "quick mode: " + "; ".join(f"{k} {_words(v)}" for k, v in changed.items())
        )
    result.oov = _oov_record(rep)
    result.parameters = _parameters(rep, setup, opts, ctx)
    _plot(result, rep, ctx.plot_dir("wales", embedding.name))
    return result


def run_navigator(subject, name: str, ctx) -> MeasureResult:
    """A navigator chosen by name (a player's by default) on every task set.

    The agent is built by its registered factory (the subject, ``max_steps``) and runs
    ``run(graph, sources, targets)``; the tasks and the score are the greedy agent's (shortest
    path / its path, 0 for a failure) and the rows' subject is ``name``. The gamma sweep,
    Table 1 and w-path belong to the greedy agent and are not run.
    """
    from wordgames.agents import get_agent
    from wordgames.errors import SkipMeasure
    from wordgames.wales.report import _task_sets, load_setup

    opts = effective_options(ctx.options, ctx.quick)
    if ctx.quick:  # every step of a player is a request: fewer tasks, a shorter walk
        from wordgames.wales.spec import QUICK_PLAYER, WalesOptions

        default = WalesOptions()
        small = {
            k: v for k, v in QUICK_PLAYER.items() if getattr(ctx.options, k) == getattr(default, k)
        }
        opts = dataclasses.replace(opts, **small)
    spec = get_agent("wales", name)
    why = spec.reason_unusable(subject)
    if why is not None:
        raise SkipMeasure(f"wales navigator {name!r} {why}")
    nav = spec.build(subject, max_steps=opts.max_steps)
    result = MeasureResult("wales", VERSION)
    with Timer(result.timings, "load"):
        setup = load_setup(
            opts.graph, names=opts.names, challenges=opts.challenges,
            data_root=ctx.data_root, require_scc=opts.require_scc,
        )  # fmt: skip
    asked = 0
    for tasks in _task_sets(setup, opts.k, ctx.seed, opts.exponents, opts.percents, opts.human_k):
        with Timer(result.timings, tasks.name):
            run, row = _navigate(nav, setup.graph, tasks, ctx)
        asked += int(run.get("questions", 0))
        unread = int((np.asarray(run["reason"]).astype(str) == "unreadable-answer").sum())
        _task_rows(result, row, name, with_failures=True, n_unread=unread)
        if run.get("reading") is not None:  # a player: its format failures, how it was read
            format_failure_score(result, row["task_set"], name, "format_failures", unread,
                                 row["n_scored"])  # fmt: skip
            result.tables.setdefault("answers_read", []).append(
                answers_read_row(row["task_set"], name, run["reading"], "navigator")
            )
        reasons = np.asarray(run["reason"])[~run["success"]].astype(str)
        counts = dict(zip(*np.unique(reasons, return_counts=True), strict=True))
        result.tables.setdefault("distributions", []).append(
            {"embedding": getattr(subject, "name", ""), **row, "failures_by_reason": counts}
        )
    result.notes += list(setup.notes) + [
        f"navigator {name!r}: every link of a page is shown; the gamma sweep, Table 1 and "
        "w-path belong to the greedy agent and were not run"
    ] + ([f"quick run of a navigator: {opts.human_k} human-played pairs, at most "
          f"{opts.max_steps} links a task"] if ctx.quick else [])  # fmt: skip
    result.datasets = dict(setup.datasets)
    result.parameters = {
        "navigator": {"name": name, **_plain_params(nav)},
        "questions": asked,
        "seed": ctx.seed,
        "quick": ctx.quick,
    }
    return result


def _navigate(nav, graph, tasks, ctx) -> tuple[dict, dict]:
    """``nav`` on the tasks that have a path: its run and the task set's summary row."""
    from wordgames.wales.evaluate import TaskResults

    s, t = tasks.sources, tasks.targets
    shortest = graph.shortest_path_lengths(s, t)
    included = (s != t) & (shortest > 0)
    run = nav.run(graph, s[included], t[included])
    n_steps, success = np.zeros(s.size, np.int64), np.zeros(s.size, bool)
    n_steps[included], success[included] = run["n_steps"], run["success"]
    res = TaskResults(
        tasks.name, s, t, shortest, n_steps, success, included, _plain_params(nav),
        n_unreachable=int(((s != t) & (shortest < 0)).sum()), n_trivial=int((s == t).sum()),
    )  # fmt: skip
    return run, res.summary(n_resamples=ctx.ci_resamples, seed=ctx.seed)


def _plain_params(agent) -> dict:
    """The agent's parameters for the record: a subject among them by its identity or name."""
    out = {}
    for k, v in (agent.get_params() if hasattr(agent, "get_params") else {}).items():
        ident = getattr(v, "identity", None)
        out[k] = ident() if callable(ident) else (v if isinstance(v, int | float | str) else str(v))
    return out


def run_agents(embedding, ctx) -> MeasureResult:
    """``wales-agents``: greedy and stochastic agents on the human pairs and power-law tasks."""
    from wordgames.wales.agent import GreedyAgent
    from wordgames.wales.report import wikispeedia_setup
    from wordgames.wales.spec import AGENTS
    from wordgames.wales.stochastic import StochasticAgent
    from wordgames.wales.tasks import power_law_tasks
    from wordgames.wales.titles import title_vectors

    opts = ctx.options
    k = min(opts.k, 100) if ctx.quick else opts.k
    result = MeasureResult(AGENTS.name, AGENTS.version)
    with Timer(result.timings, "load"):
        setup = wikispeedia_setup(ctx.data_root)
    g = setup.graph
    sets = [setup.human] + [
        power_law_tasks(g, a, k, ctx.seed + 101 * i) for i, a in enumerate(opts.exponents)
    ]
    agents = {
        "greedy": GreedyAgent(gamma=1.0, max_steps=opts.max_steps),
        "stochastic": StochasticAgent(max_steps=opts.max_steps, seed=ctx.seed),
    }
    vectors = title_vectors(g.names, embedding)
    with Timer(result.timings, "navigate"):
        for ts in sets:
            for name, agent in agents.items():
                _agent_rows(result, g, vectors, ts, agent, name, ctx)
    result.notes += list(setup.notes)
    result.datasets = dict(setup.datasets)
    result.parameters = {
        "agents": {name: a.get_params() for name, a in agents.items()},
        "k": k,
        "exponents": list(opts.exponents),
        "seed": ctx.seed,
        "quick": ctx.quick,
    }
    return result


def run_power_law(embedding, ctx) -> MeasureResult:
    """``wales-power-law``: the exponent and KS tests of each human sample's task ends.

    Samples: the Wikispeedia human-played pairs and The Wiki Game's challenges whose two pages
    are in the graph (when the ``wales`` data set is there). A row's subject is
    ``people:<ends>`` (targets, starts or both): the people's tasks, not the embedding's.
    With ``greedy``, the subject's greedy agent plays each sample and 1000 tasks of each fitted
    exponent and of ``a``.
    """
    from wordgames.datasets import dataset_file, is_available
    from wordgames.wales.experiments import power_law_check, wiki_game_tasks
    from wordgames.wales.loaders import read_challenges
    from wordgames.wales.report import wikispeedia_setup
    from wordgames.wales.spec import POWER_LAW

    opts = ctx.options
    result = MeasureResult(POWER_LAW.name, POWER_LAW.version)
    setup = wikispeedia_setup(ctx.data_root)
    samples = {"wikispeedia-human": setup.human}
    result.datasets = dict(setup.datasets)
    if is_available("wales", ctx.data_root):
        pairs = read_challenges(dataset_file("wales", "challenges.txt", ctx.data_root))
        wg, n = wiki_game_tasks(setup.graph, pairs)
        result.notes.append(
            f"The Wiki Game: {n} of {len(pairs)} challenges have both pages in the graph"
        )
        if n:
            samples["wikigame"] = wg
    rows = power_law_check(setup.graph, samples, opts.a)
    for row in rows:
        _power_law_rows(result, row, opts.a)
    if opts.greedy:
        _power_law_greedy(result, setup.graph, embedding, samples, rows, opts.a, ctx)
    result.parameters = {"a": opts.a, "greedy": opts.greedy, "samples": list(samples)}
    return result


def _power_law_rows(result: MeasureResult, row: dict, a: float) -> None:
    """The Score rows of one sample's ends (``power_law_check`` row)."""
    who, n = f"people:{row['ends']}", int(row["n"])
    half = 1.959963984540054 * row["se"]
    result.score(
        row["sample"], who, "a_mle", row["a"], ci=(max(row["a"] - half, 0.0), row["a"] + half), n=n
    )
    for metric, key in (("ks_fit", "ks"), ("ks_claim", f"ks_a{a:g}")):
        result.score(row["sample"], who, metric, row[key], n=n)
        result.score(row["sample"], who, f"{metric}_p", row[f"{key}_p"], n=n)
    result.score(row["sample"], who, "median_position", row["median_position"], n=n)


def _power_law_greedy(result, graph, embedding, samples, rows, a, ctx) -> None:
    """The greedy agent on each sample and on 1000 tasks of each fitted exponent and of ``a``."""
    from wordgames.wales.agent import GreedyAgent
    from wordgames.wales.tasks import TaskSet, power_law_tasks
    from wordgames.wales.titles import title_vectors

    sets = [TaskSet(label, ts.sources, ts.targets) for label, ts in samples.items()]
    exps = sorted({round(r["a"], 1) for r in rows if r["ends"] == "both"} | {a})
    sets += [power_law_tasks(graph, x, 1000, 4242 + i) for i, x in enumerate(exps)]
    vectors = title_vectors(graph.names, embedding)
    for ts in sets:
        _agent_rows(result, graph, vectors, ts, GreedyAgent(), "greedy", ctx)


def run_baselines(embedding, ctx) -> MeasureResult:
    """``wales-baselines``: The Wiki Game's human baseline (both conventions) and w-path.

    A human row's subject is ``people:<convention>`` (``nodes``: the authors' convention,
    ``edges``: ours); ``n`` counts the challenges. Wikispeedia's unfinished games are counted
    in the notes (its finished games are not in the shared data: no success rate).
    """
    from wordgames.datasets import dataset_file, is_available, verify_dataset
    from wordgames.errors import DatasetMissingError
    from wordgames.wales.baselines import human_baseline, human_success_rate, w_path_baseline
    from wordgames.wales.loaders import read_human_results, read_wikispeedia_paths
    from wordgames.wales.report import wikispeedia_setup
    from wordgames.wales.spec import BASELINES

    opts, boot = ctx.options, {"n_resamples": ctx.ci_resamples, "seed": ctx.seed}
    result = MeasureResult(BASELINES.name, BASELINES.version)
    if opts.finished or opts.unfinished:
        return collected_people(result, opts, ctx)
    if is_available("wales", ctx.data_root):
        df = read_human_results(dataset_file("wales", "human_results_wales.tsv", ctx.data_root))
        result.datasets["wales"] = verify_dataset("wales", ctx.data_root)
        for conv in ("nodes", "edges"):
            hb = human_baseline(df, conv, **boot)
            for key in ("best", "average", "median"):
                ci = (hb[f"{key}_ci_low"], hb[f"{key}_ci_high"])
                result.score(
                    "wales", f"people:{conv}", f"human_{key}", hb[key], ci=ci, n=hb["n_tasks"]
                )
    if not is_available("wikispeedia", ctx.data_root):
        if not result.scores:
            raise DatasetMissingError("neither 'wales' nor 'wikispeedia' is available")
        return result
    setup = wikispeedia_setup(ctx.data_root)
    result.datasets.update(setup.datasets)
    unf = read_wikispeedia_paths(dataset_file("wikispeedia", "paths_unfinished.tsv", ctx.data_root))
    sr = human_success_rate(unf, None, setup.graph)
    result.notes.append(
        f"Wikispeedia: {sr['n_unfinished']} unfinished games ({sr['n_unfinished_timeout']} "
        f"timeout, {sr['n_unfinished_restart']} restart; {sr['n_unfinished_target_not_in_graph']} "
        f"with a target outside the LSCC); success rate: {sr['note']}"
    )
    if opts.w_path:
        from wordgames.wales.titles import title_vectors

        vectors = title_vectors(setup.graph.names, embedding)
        wp = w_path_baseline(
            setup.graph, vectors, opts.pairs, ctx.seed, n_resamples=ctx.ci_resamples
        )
        result.score(
            setup.graph.name, "w-path", "w_path", wp["w_path"], ci=(wp["ci_low"], wp["ci_high"]),
            n=wp["n_pairs"], n_skipped=wp["n_no_path"],
            skip_reason="node pairs without a path" if wp["n_no_path"] else "",
        )  # fmt: skip
    result.parameters = {"w_path": opts.w_path, "pairs": opts.pairs, "seed": ctx.seed}
    return result


def collected_people(result: MeasureResult, opts, ctx) -> MeasureResult:
    """People's own games (a wiki study's export) as the WALES human baseline, with intervals.

    Per (start, target) pair of the finished games: shortest path / the best, average and
    median clicks (edges), averaged over the pairs (``n``; coverage: the games inside the
    graph), with a seeded bootstrap interval over the pairs; the success rate is finished /
    all games (``n``: the games), its interval a bootstrap over the games.
    """
    from wordgames.stats import bootstrap_ci
    from wordgames.wales.baselines import wikispeedia_human_table
    from wordgames.wales.loaders import read_edge_list, read_wikispeedia_paths

    boot = {"n_resamples": ctx.ci_resamples, "seed": ctx.seed}
    if opts.graph == "wikispeedia":
        from wordgames.wales.report import wikispeedia_setup

        setup = wikispeedia_setup(ctx.data_root)
        graph = setup.graph
        result.datasets.update(setup.datasets)
    else:
        graph = read_edge_list(opts.graph, names_path=opts.names)[0]
    fin = read_wikispeedia_paths(opts.finished, finished=True) if opts.finished else None
    unf = read_wikispeedia_paths(opts.unfinished, finished=False) if opts.unfinished else None
    who = "people:collected"
    if fin is not None and fin.starts.size:
        table = wikispeedia_human_table(graph, fin)
        outside = int(table.attrs.get("n_games_outside_graph", 0))
        games = int(table["n_games"].sum()) + outside
        opt = table["opt"].to_numpy()
        for key in ("best", "average", "median"):
            r = opt[opt > 0] / table[key].to_numpy()[opt > 0]
            row = result.score(
                "collected", who, f"human_{key}", r.mean() if r.size else float("nan"),
                ci=bootstrap_ci(r, bounds=(0.0, None), **boot), n=int(r.size),
            )  # fmt: skip
            row.coverage = (games - outside) / games if games else float("nan")
        if outside:
            result.notes.append(f"{outside} finished game(s) outside the graph left out")
    n_fin = 0 if fin is None else int(fin.starts.size)
    n_unf = 0 if unf is None else int(unf.starts.size)
    done = np.r_[np.ones(n_fin), np.zeros(n_unf)]
    if done.size:
        ci = bootstrap_ci(done, bounds=(0.0, 1.0), **boot)
        result.score("collected", who, "success_rate", done.mean(), ci=ci, n=int(done.size))
    result.notes.append(
        "people's own games: mean over (start, target) pairs of shortest path / clicks"
    )
    result.parameters = {"graph": opts.graph, "seed": ctx.seed, "games": n_fin + n_unf}
    return result


def _agent_rows(result: MeasureResult, graph, vectors, tasks, agent, subject: str, ctx) -> None:
    """One agent's score and failure rate on one task set, with its per-task scores kept.

    The per-task scores are what the report's paired comparisons resample ("best").
    """
    from wordgames.wales.evaluate import evaluate_tasks
    from wordgames.wales.report import task_items

    res = evaluate_tasks(graph, vectors, tasks, agent)
    row = res.summary("edges", n_resamples=ctx.ci_resamples, seed=ctx.seed)
    result.keep_items(_task_rows(result, row, subject, with_failures=True), task_items(res))


def _measure_kwargs(opts) -> dict:
    """The options :func:`~wordgames.wales.report.evaluate_embedding` takes."""
    names = (
        "k",
        "human_k",
        "gammas",
        "exponents",
        "percents",
        "table1_trials",
        "table1_pool",
        "table1_method",
        "max_steps",
        "w_path_pairs",
    )
    return {name: getattr(opts, name) for name in names}


def _words(value) -> str:
    """An option's value for a note: numbers plainly, lists comma-separated.

    Examples
    --------
    >>> _words((0.0, 1.0)), _words(100), _words(None)
    ('0, 1', '100', 'none')
    """
    if value is None:
        return "none"
    if isinstance(value, tuple | list):
        return ", ".join(_words(v) for v in value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def _changed(opts, given) -> dict:
    from wordgames.wales.spec import WalesOptions

    given = given if given is not None else WalesOptions()
    return {
        f.name: getattr(opts, f.name)
        for f in dataclasses.fields(opts)
        if getattr(opts, f.name) != getattr(given, f.name)
    }


def _excluded(row: dict) -> tuple[int, str]:
    """Tasks left out of a score and why, in words."""
    causes = (
        ("n_excluded_target_no_vector", "target page without a vector"),
        ("n_excluded_unreachable", "target not reachable"),
        ("n_excluded_start_is_target", "start page is the target"),
    )
    counts = [(row.get(key, 0), why) for key, why in causes]
    return (
        sum(n for n, _ in counts),
        "; ".join(f"{n} task{'s' if n != 1 else ''}: {why}" for n, why in counts if n),
    )


def add_scores(
    result: MeasureResult, rep: dict, graph_name: str, items: dict | None = None
) -> None:
    """The Score rows of one embedding's report (see the module docstring).

    ``items``: per task set, the per-task scores behind its ``score`` (kept for the paired
    comparisons of the report).
    """
    for row in rep["distributions"]:
        metric = "score_nodes" if row["convention"] == "nodes" else "score"
        head = _task_rows(result, row, "greedy", with_failures=metric == "score", metric=metric)
        if metric == "score" and (items or {}).get(row["task_set"]):
            result.keep_items(head, items[row["task_set"]])
    for row in rep["gamma_sweep"]:
        _task_rows(result, row, f"greedy(gamma={row['gamma']:g})", with_failures=True)
    wp = rep["w_path"][0]
    result.score(
        graph_name,
        "w-path",
        "w_path",
        wp["w_path"],
        ci=(wp.get("ci_low", math.nan), wp.get("ci_high", math.nan)),
        n=wp["n_pairs"],
        n_skipped=wp["n_no_path"],
        skip_reason="node pairs without a path" if wp["n_no_path"] else "",
    )
    cov = rep["coverage"]
    result.score(graph_name, "", "title_coverage", cov["coverage"], n=cov["n_nodes"])


def _task_rows(
    result: MeasureResult, row: dict, subject: str, *, with_failures: bool, metric: str = "score",
    n_unread: int = 0,
):  # fmt: skip
    """The score (and the failure rate) of one task-set row, with their intervals; the score.

    ``n_unread``: tasks ended by an answer that could not be read (failures, in ``n``).
    """
    skipped, why = _excluded(row)
    kw = {"n": row["n_scored"], "n_skipped": skipped, "skip_reason": why, "n_unread": n_unread}
    head = result.score(
        row["task_set"], subject, metric, row["score"], ci=(row["ci_low"], row["ci_high"]), **kw
    )
    if with_failures:
        ci = (row["failure_ci_low"], row["failure_ci_high"])
        result.score(row["task_set"], subject, "failure_rate", row["failure_rate"], ci=ci, **kw)
    return head


def _add_human_reference(result: MeasureResult, ctx) -> None:
    """The WALES authors' The Wiki Game results (another graph: a loose reference only)."""
    from wordgames.datasets import dataset_file, is_available, verify_dataset
    from wordgames.wales.baselines import human_baseline
    from wordgames.wales.loaders import read_human_results

    data_root = ctx.data_root
    if is_available("wales", data_root):
        df = read_human_results(dataset_file("wales", "human_results_wales.tsv", data_root))
        boot = {"n_resamples": ctx.ci_resamples, "seed": ctx.seed}
        hb = human_baseline(df, "nodes", **boot)
        result.tables["human_reference_wikigame"] = [hb, human_baseline(df, "edges", **boot)]
        result.datasets["wales"] = verify_dataset("wales", data_root)
        result.notes.append(
            f"Human reference (The Wiki Game, authors' graph, lengths in nodes): best "
            f"{hb['best']:.4f}, average {hb['average']:.4f}, median {hb['median']:.4f}; it is "
            "on another graph and in the node convention: compare with wales/score_nodes only "
            "loosely."
        )
    result.notes.append(
        "Wikispeedia human success rate unavailable: paths_finished.tsv is "
        "missing from the shared data (see its PROVENANCE.md)."
    )


def _oov_record(rep: dict) -> dict:
    cov = rep["coverage"]
    return {
        "title_rule": cov["rule"],
        "n_nodes": cov["n_nodes"],
        "n_nodes_without_vector": cov["n_no_vector"],
        "n_nodes_partial_title": cov["n_partial"],
        "n_oov_title_tokens": cov["n_oov_tokens"],
        "examples_without_vector": cov["examples_no_vector"],
        "tasks_excluded_target_without_vector": {
            r["task_set"]: r["n_excluded_target_no_vector"]
            for r in rep["distributions"]
            if r["convention"] == "edges"
        },
    }


def _parameters(rep: dict, setup, opts, ctx) -> dict:
    from wordgames.measure import options_dict
    from wordgames.wales.report import SWEEP_EXPONENT

    return {
        "graph": setup.info,
        "agent": rep["agent"],
        "default_task_set": DEFAULT_TASK_SET,
        "convention": "edges (m/n); *_nodes: (m+1)/(n+1)",
        "seed": ctx.seed,
        "sweep_exponent": SWEEP_EXPONENT,
        "quick": ctx.quick,
        "intervals": {
            "method": "95% percentile bootstrap over tasks (w-path: over node pairs)",
            "resamples": ctx.ci_resamples,
            "seed": ctx.seed,
        },
        "options": {
            k: list(v) if isinstance(v, tuple) else v for k, v in options_dict(opts).items()
        },
    }


def _plot(result: MeasureResult, rep: dict, folder) -> None:
    """Figures 4 and 5 of this embedding (none in memory)."""
    if folder is None:
        return
    from wordgames.wales.report import plot_figure4, plot_figure5

    with Timer(result.timings, "plot"):
        result.plots.append(
            str(plot_figure4(rep["distributions"], folder / "figure4_distributions.png"))
        )
        result.plots.append(str(plot_figure5(rep["gamma_sweep"], folder / "figure5_gamma.png")))
