"""The declaration of the WALES measure (Giesen et al., IJCAI 2022): read by the registry.

Scores: ``dataset`` is the task distribution (``human``: the 1000 human-played Wikispeedia
pairs; ``powerlaw-a<a>``, ``top-b<b>``), ``subject`` the agent (``greedy`` at gamma = 1,
``greedy(gamma=<g>)`` in the sweep, on ``powerlaw-a16``). The w-path baseline (subject
``w-path``) and the title coverage (subject ``""``) are per graph: their ``dataset`` is the
graph's name (``wikispeedia-lscc``).
"""

from __future__ import annotations

from dataclasses import dataclass

from wordgames.measure import HIGHER, LOWER, Headline, Measure, Metric
from wordgames.tables import Table, answers_read_table, answers_table, columns

_SCORE_COLUMNS = (
    "embedding:str task_set:str convention:str score:float ci_low:float? ci_high:float? "
    "n_tasks:int n_scored:int n_failed:int failure_rate:float failure_ci_low:float? "
    "failure_ci_high:float? n_excluded_target_no_vector:int n_excluded_unreachable:int "
    "n_excluded_start_is_target:int mean_steps_success:float? gamma:float? "
)
#: the tables of the WALES measure (:mod:`wordgames.wales.suite`)
TABLES = (
    answers_table(),
    answers_read_table(),
    Table(
        "distributions",
        columns(
            _SCORE_COLUMNS + "param_distribution:str? param_a:float? param_b:float? "
            "param_pool_size:int? param_first:int? failures_by_reason:dict?"
        ),
        "one task distribution in one length convention: the agent's score and its failures",
    ),
    Table(
        "gamma_sweep",
        columns(_SCORE_COLUMNS),
        "the greedy agent with gamma-damped similarity on the power-law tasks (Figure 5)",
    ),
    Table(
        "table1",
        columns(
            "embedding:str k:int mean:float ci:float? sd_of_means:float? trials:int method:str "
            "pool_size:int? n_tasks_run:int convention:str"
        ),
        "the paper's Table 1: mean score over repeated draws of k tasks",
    ),
    Table(
        "w_path",
        columns(
            "embedding:str w_path:float ci_low:float? ci_high:float? p_value:float? n_pairs:int "
            "n_no_path:int n_nodes_without_vector:int seed:int"
        ),
        "the w-path baseline: Spearman of -path length and cosine over node pairs",
    ),
    Table(
        "human_reference_wikigame",
        columns(
            "convention:str n_tasks:int best:float best_ci_low:float? best_ci_high:float? "
            "average:float average_ci_low:float? average_ci_high:float? median:float "
            "median_ci_low:float? median_ci_high:float?"
        ),
        "people's own Wikispeedia games: best, average and median score per task",
    ),
)

#: How Table 1 draws its task sets (see ``WalesOptions.table1_method``).
TABLE1_METHODS = ("fresh", "bootstrap")


@dataclass(frozen=True)
class WalesOptions:
    """Options of the WALES measure.

    Parameters
    ----------
    k : int
        Tasks per sampled distribution.
    human_k : int or None
        Use only the first ``human_k`` human-played pairs (default: all 1000).
    gammas : tuple of float
        The gamma sweep (Figure 5).
    exponents : tuple of float or None
        Power-law exponents of the sampled distributions (default: the paper's).
    percents : tuple of float or None
        Top-percent distributions (default: the paper's).
    table1_trials, table1_pool : int
        Table 1: trials per k and the task pool (``bootstrap`` only).
    table1_method : {"fresh", "bootstrap"}
        Table 1 from ``table1_trials`` fresh task sets per k, as the paper does (default), or
        the bootstrap: each trial resamples k tasks of one pool of ``table1_pool`` tasks.
    max_steps : int
        Steps before an agent gives up.
    w_path_pairs : int
        Node pairs of the w-path baseline.
    graph : str
        ``"wikispeedia"`` (the largest SCC of the shared data set), an edge list
        (``.tsv``/``.txt``, SNAP ids or names) or the WALES authors' networkx pickle (``.p``).
    names : str or None
        Name table ``node_id<TAB>name`` for an edge list of ids or a pickle.
    challenges : str or None
        Human-played pairs ``start<TAB>target`` on a custom graph (the ``human`` task set).
    require_scc : bool
        Fail when a custom graph is not strongly connected (default: use its largest SCC).
    navigator : str or None
        The agent that navigates for the subject, by name (``wordgames agents``; plug-ins'
        too): default ``"greedy"`` (the paper's agent, with the gamma sweep, Table 1 and
        w-path) for vectors, ``"player"`` for a player. Another navigator plays the same task
        sets, scored the same way, under its own name.

    Under ``quick``, the options left at their defaults take smaller values
    (:data:`QUICK`). Options that do not apply are errors (:func:`check_graph_options`).
    """

    k: int = 1000
    human_k: int | None = None
    gammas: tuple[float, ...] = (0.0, 0.1, 0.3, 0.5, 1.0)
    exponents: tuple[float, ...] | None = None
    percents: tuple[float, ...] | None = None
    table1_trials: int = 50
    table1_pool: int = 5000
    table1_method: str = "fresh"
    max_steps: int = 100
    w_path_pairs: int = 1000
    graph: str = "wikispeedia"
    names: str | None = None
    challenges: str | None = None
    require_scc: bool = False
    navigator: str | None = None

    def __post_init__(self):
        if self.navigator is not None:
            from wordgames.agents import check_agent_option

            check_agent_option("wales.navigator", "wales", [self.navigator])
        if self.table1_method not in TABLE1_METHODS:
            from wordgames.measure import OptionError

            raise OptionError(
                f"option 'table1_method' (--table1-method) must be one of "
                f"{', '.join(TABLE1_METHODS)}, got {self.table1_method!r}"
            )
        from wordgames.measure import check_range

        for name in ("k", "table1_trials", "table1_pool", "max_steps", "w_path_pairs", "human_k"):
            check_range(f"wales.{name}", getattr(self, name), 1)
        check_range("wales.gammas", self.gammas, 0.0)
        check_range("wales.percents", self.percents, 0.0, 100.0)
        check_graph_options(
            self.graph,
            names=self.names,
            challenges=self.challenges,
            require_scc=self.require_scc,
            human_k=self.human_k,
        )


def check_graph_options(
    graph: str,
    *,
    names=None,
    challenges=None,
    require_scc: bool = False,
    human_k: int | None = None,
) -> None:
    """Refuse graph options that would be ignored.

    ``names``, ``challenges`` and ``require_scc`` apply to a custom graph only (the default
    graph, the largest SCC of Wikispeedia, has its own pairs and is strongly connected);
    ``human_k`` needs human-played pairs.

    Raises
    ------
    OptionError
        Naming the option, the command-line flag and what to do instead.

    Examples
    --------
    >>> check_graph_options("g.tsv", challenges="pairs.tsv", human_k=10)
    >>> check_graph_options("wikispeedia", challenges="pairs.tsv")
    Traceback (most recent call last):
    ...
    wordgames.measure.OptionError: option 'challenges' (--challenges) applies only to a custom graph (--graph FILE); the default graph 'wikispeedia' has its own 1000 human-played pairs
    """
    from wordgames.measure import OptionError

    if graph == "wikispeedia":
        why = {
            "names": "the default graph names its nodes by their article titles",
            "challenges": "the default graph 'wikispeedia' has its own 1000 human-played pairs",
            "require_scc": "the default graph is its largest SCC, strongly connected already",
        }
        given = {
            "names": names is not None,
            "challenges": challenges is not None,
            "require_scc": bool(require_scc),
        }
        for key, is_given in given.items():
            if is_given:
                flag = "--" + key.replace("_", "-")
                raise OptionError(
                    f"option {key!r} ({flag}) applies only to a custom graph "
                    f"(--graph FILE); {why[key]}"
                )
    elif human_k is not None and challenges is None:
        raise OptionError(
            f"option 'human_k' (--human-k) needs human-played pairs: graph {graph!r} has "
            "none (give them with --challenges)"
        )


#: The smaller settings of a quick run (for the options left at their defaults).
QUICK: dict = {
    "k": 100,
    "human_k": 100,
    "gammas": (0.0, 1.0),
    "exponents": (1.0, 32.0),
    "percents": (10.0,),
    "table1_trials": 3,
    "table1_pool": 300,
    "w_path_pairs": 300,
}


#: a quick run of a navigator chosen by name (a player: every step is a request), for the
#: options left at their defaults: 20 human-played pairs, no sampled task sets, 10 links
QUICK_PLAYER: dict = {"human_k": 20, "exponents": (), "percents": (), "max_steps": 10}


MEASURE = Measure(
    item_noun="tasks",
    name="wales",
    # 4: a player's unreadable answers counted (n_unread, format_failures; issue 37); 3: exact
    # similarities (issue 36)
    version="4",
    family="wales",
    description="WALES: greedy navigation of the Wikipedia link graph",
    compute="wordgames.wales.suite:run",
    datasets=("wikispeedia", "wales"),
    metrics=(
        Metric(
            "score",
            HIGHER,
            (0.0, 1.0),
            "mean task score: shortest path / agent path (lengths in edges)",
        ),
        Metric("score_nodes", HIGHER, (0.0, 1.0), "the same in the authors' node convention"),
        Metric("failure_rate", LOWER, (0.0, 1.0), "share of tasks the agent did not finish"),
        Metric("w_path", HIGHER, (-1.0, 1.0), "w-path: Spearman of -path length and cosine"),
        Metric("title_coverage", HIGHER, (0.0, 1.0), "share of pages with a vector"),
        Metric(
            "format_failures",
            LOWER,
            (0.0, 1.0),
            "share of a player's tasks ended by an answer that could not be read, even after a "
            "re-prompt (scored as failures)",
        ),
    ),
    headlines=(
        Headline(
            "score",
            dataset="human",
            agent="greedy",
            primary=True,
            description="mean task score on the human-played pairs (gamma = 1, edges)",
        ),
        Headline(
            "score_nodes",
            dataset="human",
            agent="greedy",
            description="the same in the authors' node convention",
        ),
        Headline("score", agent="greedy", description="score per task distribution"),
        Headline(
            "score",
            dataset="human",
            agent="player",
            description="a player subject's mean task score on the human-played pairs",
        ),
        Headline("w_path", description="w-path: Spearman of -path length and cosine"),
    ),
    citation="Giesen, J. et al. Leveraging the Wikipedia Graph for Evaluating Word Embeddings. "
    "IJCAI 2022.",
    options=WalesOptions,
    subjects=("vectors", "player"),
    people="a WALES score is a path's efficiency (shortest path / path taken), not agreement "
    "with people, so there is no held-out person to predict. The people's own efficiency is "
    "the human baseline ('wales-baselines': the authors' Wiki Game results); the finished "
    "Wikispeedia paths, which would give one per task, are absent here (its PROVENANCE.md)",
    tables=TABLES,
    shared_columns=(("greedy", "player"),),
)


@dataclass(frozen=True)
class AgentsOptions:
    """Options of the greedy-vs-stochastic comparison (``wales-agents``, the paper's 3.1).

    Parameters
    ----------
    k : int
        Tasks per power-law task set (quick runs: 100).
    exponents : tuple of float
        Power-law exponents of the sampled task sets (the human-played pairs come first).
    max_steps : int
        Step cap of both agents.
    """

    k: int = 1000
    exponents: tuple[float, ...] = (1.0, 32.0)
    max_steps: int = 100

    def __post_init__(self):
        from wordgames.measure import check_range

        for name in ("k", "max_steps"):
            check_range(f"wales-agents.{name}", getattr(self, name), 1)


AGENTS = Measure(
    name="wales-agents",
    version="2",  # 2: exact similarities (issue 36)
    family="wales",
    description="WALES: the greedy agent (gamma = 1) beside the stochastic P_q agent, on the "
    "human-played Wikispeedia pairs and power-law task sets (section 3.1)",
    compute="wordgames.wales.suite:run_agents",
    datasets=("wikispeedia",),
    metrics=(
        Metric("score", HIGHER, (0.0, 1.0), "mean task score m/n in edges (0 for a failure)"),
        Metric("failure_rate", LOWER, (0.0, 1.0), "share of tasks the agent did not finish"),
    ),
    headlines=(
        Headline("score", dataset="human", description="score on the human-played pairs, by agent"),
    ),
    citation=MEASURE.citation,
    options=AgentsOptions,
    in_default_run=False,
)


@dataclass(frozen=True)
class PowerLawOptions:
    """Options of the power-law check of human-played tasks (``wales-power-law``, supplement).

    Parameters
    ----------
    a : float
        The exponent to test against (the paper's 32).
    greedy : bool
        Also score the greedy agent (gamma = 1) of the subject on each sample and on 1000
        tasks of each fitted exponent and of ``a``.
    """

    a: float = 32.0
    greedy: bool = False


POWER_LAW = Measure(
    name="wales-power-law",
    version="1",
    family="wales",
    description="WALES supplement: do human-played tasks follow the power law of the task "
    "generator on the Wikispeedia LSCC? Maximum-likelihood exponent and KS tests of the task "
    "ends' in-degree positions",
    compute="wordgames.wales.suite:run_power_law",
    datasets=("wikispeedia", "wales"),
    metrics=(
        Metric(
            "a_mle", None, (0.0, None), "maximum-likelihood power-law exponent (95% Wald interval)"
        ),
        Metric("ks_fit", None, (0.0, 1.0), "KS statistic of the ends against the fitted law"),
        Metric("ks_fit_p", None, (0.0, 1.0), "p-value of ks_fit"),
        Metric("ks_claim", None, (0.0, 1.0), "KS statistic against the law of exponent a"),
        Metric("ks_claim_p", None, (0.0, 1.0), "p-value of ks_claim"),
        Metric("median_position", None, (0.0, 1.0), "median in-degree position of the ends"),
        Metric("score", HIGHER, (0.0, 1.0), "the greedy agent's mean task score (greedy=True)"),
        Metric("failure_rate", LOWER, (0.0, 1.0), "share of tasks the greedy agent did not finish"),
    ),  # fmt: skip
    headlines=(
        Headline("ks_claim", description="KS statistic of the task ends against exponent a"),
        Headline("score", agent="greedy", description="the greedy agent on each sample"),
    ),
    citation=MEASURE.citation,
    options=PowerLawOptions,
    baseline_agents=("people:*",),
    in_default_run=False,
)


@dataclass(frozen=True)
class BaselinesOptions:
    """Options of the WALES baselines (``wales-baselines``).

    Parameters
    ----------
    w_path : bool
        Also compute w-path for the subject (``pairs`` random node pairs, seeded by the run).
    pairs : int
        Node pairs of w-path.
    finished, unfinished : str or None
        Games people played elsewhere (a ``wordgames serve`` wiki study's export), in the
        Wikispeedia path format: with either, the measure scores *these* people (subject
        ``people:collected``) on ``graph`` instead of the authors' Wiki Game results.
    graph, names : str
        The graph of those games: ``"wikispeedia"`` (the shared LSCC) or an edge-list file
        (with an optional name table).
    """

    w_path: bool = False
    pairs: int = 1000
    finished: str | None = None
    unfinished: str | None = None
    graph: str = "wikispeedia"
    names: str | None = None


BASELINES = Measure(
    name="wales-baselines",
    version="2",  # 2: exact similarities (issue 36)
    family="wales",
    description="WALES baselines: people on The Wiki Game (the authors' results: shortest "
    "path / the best, average and median human path) and, for a subject, w-path",
    compute="wordgames.wales.suite:run_baselines",
    datasets=("wales", "wikispeedia"),
    metrics=(
        Metric("human_best", HIGHER, (0.0, None), "mean shortest / best human path"),
        Metric("human_average", HIGHER, (0.0, None), "mean shortest / average human path"),
        Metric("human_median", HIGHER, (0.0, None), "mean shortest / median human path"),
        Metric("w_path", HIGHER, (-1.0, 1.0), "w-path: Spearman of -path length and cosine"),
        Metric("success_rate", HIGHER, (0.0, 1.0), "share of the collected games finished"),
    ),
    headlines=(
        Headline("human_best", description="people on The Wiki Game: shortest / best path"),
        Headline("w_path", description="w-path: Spearman of -path length and cosine"),
    ),
    citation=MEASURE.citation,
    options=BaselinesOptions,
    baseline_agents=("people:*",),
    in_default_run=False,
)
