"""The declaration of the Codenames measure (Solomon & Ben Zion): read by the registry.

Scores: ``dataset`` is the human data set, ``subject`` the agent (``cluster``,
``exhaustive-<tie-break>``, ``random-sender``, ``nearest``, ``random-receiver``...), ``metric``
is ``<kind of data>.<statistic>``: ``human_receiver`` records (a person picked words for a
clue: Algorithms 4 and 5) or ``human_sender`` records (a person gave the clue: Algorithms 6
and 7).

The data set ``"all"`` holds the headline metrics as the mean over the data sets, each data set
weighted equally (:data:`AGGREGATES`, computed by
:func:`wordgames.codenames.suite.aggregate_scores`): the headlines read those rows, so a
headline is always the same defined aggregate whichever data sets are available.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from wordgames.measure import (
    HIGHER,
    LOWER,
    Headline,
    Measure,
    Metric,
    OptionError,
    check_names,
    check_range,
)
from wordgames.tables import Table, answers_read_table, answers_table, columns

_STATS = (
    "mean_rank:float? median_rank:float? mrr:float? hits@10:float? hits@100:float? mrr@10:float? "
    "mean_rank_best:float? mean_rank_worst:float? mean_rank_fraction:float? n:int "
    "n_skipped_oov:int ci_low:float? ci_high:float?"
)
#: the tables of the Codenames measure (:func:`wordgames.codenames.suite.tables`)
TABLES = (
    answers_table(),
    answers_read_table(),
    Table(
        "senders",
        columns(
            "embedding:str dataset:str data:str ranked_among:str agent:str clue_source:str "
            + _STATS
            + " skipped:dict"
        ),
        "one sender on one data set: the rank of the person's clue in its ranking (Algorithm 4)",
    ),
    Table(
        "receivers",
        columns(
            "embedding:str dataset:str data:str agent:str clue_source:str measure:str "
            "score:float? ci_low:float? ci_high:float? n:int n_skipped_oov:int skipped:dict"
        ),
        "one receiver on one data set: MAP or guess score against people (Algorithms 5-7)",
    ),
    Table(
        "aggregates",
        columns(
            "metric:str agent:str value:float? ci_low:float? ci_high:float? n:int "
            "n_skipped:int coverage:float? datasets:list n_datasets:int "
            "datasets_without_scores:list"
        ),
        "a headline pooled over every data set that scored it",
    ),
    Table(
        "ceiling",
        columns(
            "dataset:str metric:str value:float ci_low:float? ci_high:float? n_people:int "
            "n_items:int n_alone:int n_copies:int bootstrap:str participants:str"
        ),
        "the people's row of one data set (the human ceiling): held-out people, the items "
        "answered by several, and how the interval was drawn",
    ),
)

#: the default sample size of ``wordgames run`` and ``wordgames codenames evaluate``: every
#: record (all seven data sets take about 40 s with glove-6b-50d on two cores)
SUITE_MAX_RECORDS: int | None = None
#: quick runs score at most this many records of each kind per data set
QUICK_MAX_RECORDS = 30
#: the data sets of a quick run of a player subject (every answer is a request)
QUICK_PLAYER_DATASETS = ("codenames-pilot",)
#: the data set name of the aggregates over the data sets
ALL_DATASETS = "all"
#: the rank of the person's clue among the clues they chose from (Shen et al.: 8 adjectives)
CANDIDATES_METRIC = "human_sender.mean_rank_candidates"
#: the headline metrics aggregated over data sets: (kind of data, role, agent, statistic)
AGGREGATES = (
    ("human_receiver", "receiver", "nearest", "map"),
    ("human_receiver", "sender", "cluster", "mean_rank"),
    ("human_receiver", "sender", "cluster", "hits@10"),
    ("human_receiver", "sender", "player-sender", "hits@10"),
    ("human_receiver", "sender", "player-sender", "mrr@10"),
    ("human_receiver", "sender", "cluster", "mrr@10"),
    ("human_sender", "receiver", "nearest", "guess_score"),
    ("human_receiver", "receiver", "player-receiver", "map"),
    ("human_sender", "receiver", "player-receiver", "guess_score"),
)
#: the clue vocabularies of the measure's senders: the embedding's own words (``None``), or a word
#: list: ``"nounlist"`` is the authors' (Solomon & Ben Zion) 6,801 English nouns,
#: ``nounlist.csv`` of the ``codenames-pilot`` data (:mod:`wordgames.codenames.experiments`)
CLUE_VOCABULARIES = {"nounlist": ("codenames-pilot", "nounlist.csv")}


def _declared_datasets() -> tuple[str, ...]:
    """The Codenames data sets declared in :mod:`wordgames.datasets`: the pilot, then by name.

    Read from the declarations, so that a new human-data source is named in one place.
    """
    from wordgames.datasets import all_datasets

    names = [n for n, d in all_datasets().items() if d.family == "codenames"]
    return tuple(sorted(names, key=lambda n: (n != "codenames-pilot", n)))


#: the declared human data sets (:data:`wordgames.codenames.human_data.HUMAN_DATASETS` gives
#: each its loader)
DATASETS = _declared_datasets()


@dataclass(frozen=True)
class CodenamesOptions:
    """Options of the Codenames measure.

    Parameters
    ----------
    datasets : tuple of str or None
        Human data sets to score (default: every available one).
    files : tuple of str
        Users' own human data (JSONL/CSV, docs/codenames-data.md); with files and no
        ``datasets``, no declared data set is read.
    max_records : int or None
        Seeded sample of at most this many records of each kind per data set (``None``, the
        default: every record; quick runs cap it at 30).
    n_restarts : int or None
        k-means restarts of ClusterSender (default 10; 3 in quick runs).
    distance : {"cosine", "euclidean"}
        How the agents compare words: cosine similarity (the paper's) or Euclidean distance.
    vocab_size : int or None
        Clue vocabulary: the embedding's N most frequent words (default: the agents' own).
    clue_vocabulary : str or None
        A word list as the senders' clue vocabulary (:data:`CLUE_VOCABULARIES`: ``"nounlist"``,
        the authors' nouns), the listed words the embedding knows, in its frequency order
        (default ``None``: the embedding's vocabulary). A person's clue not in the list is
        skipped as ``oov_clue``; the listed words the embedding lacks are counted in the
        result's notes and ``parameters``. Not combined with ``vocab_size``.
    target_score, blue_score, red_score : float
        Algorithm 7's reward of a guessed target, other blue word and non-blue word (the
        paper: 1, 0, -1), inside the guess score's range [-1, 1].
    senders, receivers : tuple of str or None
        Agents by name (``wordgames agents``; plug-ins' too) instead of the subject's default
        line-up (the paper's agents for vectors, the player's for a player). An agent the
        subject cannot drive is left out and named in the notes with the reason.
    """

    datasets: tuple[str, ...] | None = None
    files: tuple[str, ...] = ()
    max_records: int | None = SUITE_MAX_RECORDS
    n_restarts: int | None = None
    distance: Literal["cosine", "euclidean"] = "cosine"
    vocab_size: int | None = None
    clue_vocabulary: str | None = None
    target_score: float = 1.0
    blue_score: float = 0.0
    red_score: float = -1.0
    senders: tuple[str, ...] | None = None
    receivers: tuple[str, ...] | None = None

    def __post_init__(self):
        if not -1.0 <= self.red_score <= self.blue_score <= self.target_score <= 1.0:
            # inside [-1, 1], the guess score's declared range
            raise OptionError(
                "codenames.target_score, blue_score and red_score: expected -1 <= red <= blue "
                f"<= target <= 1; got target {self.target_score}, blue {self.blue_score}, "
                f"red {self.red_score}"
            )
        if self.clue_vocabulary is not None and self.clue_vocabulary not in CLUE_VOCABULARIES:
            raise OptionError(
                f"codenames.clue_vocabulary: {self.clue_vocabulary!r} is not a clue vocabulary; "
                f"known: {', '.join(CLUE_VOCABULARIES)}"
            )
        if self.clue_vocabulary is not None and self.vocab_size is not None:
            raise OptionError(
                "codenames.clue_vocabulary and codenames.vocab_size exclude each other"
            )
        check_names("codenames.datasets", self.datasets, DATASETS, "a human Codenames data set")
        from wordgames.agents import check_agent_option

        for role in ("sender", "receiver"):
            check_agent_option(f"codenames.{role}s", "codenames", getattr(self, f"{role}s"), role)
        for name, least in (("max_records", 0), ("n_restarts", 1), ("vocab_size", 1)):
            value = getattr(self, name)
            if value is not None and value < least:
                raise OptionError(f"codenames.{name} must be at least {least}, got {value}")


_RANK = (1.0, None)
_UNIT = (0.0, 1.0)


def _sender_metrics(kind: str) -> tuple[Metric, ...]:
    who = "people's picks" if kind == "human_receiver" else "people's clues"
    return (
        Metric(f"{kind}.mean_rank", LOWER, _RANK, f"mean rank of the clue given for {who}"),
        Metric(f"{kind}.median_rank", LOWER, _RANK, "median rank of the clue"),
        Metric(f"{kind}.mrr", HIGHER, _UNIT, "mean reciprocal rank of the clue"),
        Metric(f"{kind}.hits@10", HIGHER, _UNIT, "share of clues ranked in the top 10"),
        Metric(f"{kind}.hits@100", HIGHER, _UNIT, "share of clues ranked in the top 100"),
        Metric(
            f"{kind}.mrr@10",
            HIGHER,
            _UNIT,
            "reciprocal rank of the clue, 0 below the top 10 (defined for a player sender too)",
        ),
        Metric(
            f"{kind}.mean_rank_best", LOWER, _RANK, "mean rank, ties broken in the clue's favour"
        ),
        Metric(f"{kind}.mean_rank_worst", LOWER, _RANK, "mean rank, ties broken against the clue"),
        Metric(f"{kind}.mean_rank_fraction", LOWER, _UNIT, "mean rank over the vocabulary size"),
    )


def _ceiling_metrics() -> tuple[Metric, ...]:
    """A model's share of the human ceiling and its gap to a held-out person (issue 39)."""
    out = []
    for kind, stat in (("human_receiver", "map"), ("human_sender", "hits@10"),
                       ("human_sender", "mrr@10")):  # fmt: skip
        out += [
            Metric(f"{kind}.{stat}.share_of_ceiling", HIGHER, (0.0, None),
                   f"the agent's {stat} over the people's (leave one person out) on the same "
                   "responses: 1 is as close to people as a held-out person"),
            Metric(f"{kind}.{stat}.gap_to_people", HIGHER, (-1.0, 1.0),
                   f"the agent's {stat} minus a held-out person's, on the same responses "
                   "(an interval without 0: distinguishable from people)"),
        ]  # fmt: skip
    return tuple(out)


#: what a ``format_failures`` row is, in the measures' declarations
FORMAT_FAILURES = (
    "share of a player's decisions whose answer could not be read, even after a re-prompt "
    "(scored by the game's no move: the board as shown, no guess, no clue)"
)

MEASURE = Measure(
    item_noun="records",
    name="codenames",
    # 7: the people's rows and each agent's share of them (issue 39); 6: a player's
    # unreadable answer is the game's no move, in n (issue 37); 5: exact
    # similarities (issue 36); 4: mrr@10 and the player sender; 3: skipped records by weight
    version="7",
    family="codenames",
    description="Codenames senders and receivers against human play (Solomon & Ben Zion)",
    compute="wordgames.codenames.suite:run",
    datasets=DATASETS,
    part_option="datasets",
    metrics=(
        Metric(
            "human_receiver.map",
            HIGHER,
            _UNIT,
            "receiver vs people's picks: mean average precision (Algorithm 5)",
        ),
        Metric(
            "human_sender.guess_score",
            HIGHER,
            (-1.0, 1.0),
            "receiver on people's clues: Algorithm 7 guess score",
        ),
        *_sender_metrics("human_receiver"),
        *_sender_metrics("human_sender"),
        *(
            Metric(f"{kind}.format_failures", LOWER, _UNIT, FORMAT_FAILURES)
            for kind in ("human_receiver", "human_sender")
        ),
        Metric(
            CANDIDATES_METRIC,
            LOWER,
            _RANK,
            "mean rank of the people's clue among the clues they chose from "
            "(Shen et al. 2018: 8 given adjectives)",
        ),
        *_ceiling_metrics(),
    ),
    headlines=(
        Headline(
            "human_receiver.map",
            dataset=ALL_DATASETS,
            agent="nearest",
            primary=True,
            description="nearest receiver vs people's picks: MAP, mean over the data sets",
        ),
        Headline(
            "human_receiver.mean_rank",
            dataset=ALL_DATASETS,
            agent="cluster",
            description="cluster sender: mean rank of the people's clue, mean over the data "
            "sets (lower is better)",
        ),
        Headline(
            "human_sender.guess_score",
            dataset=ALL_DATASETS,
            agent="nearest",
            description="nearest receiver on people's clues: Algorithm 7 guess score, mean "
            "over the data sets",
        ),
        Headline(
            "human_receiver.map",
            agent="nearest",
            description="nearest receiver vs people's picks: MAP, per data set (the people's "
            "row: each held-out person by the others' picks, the human ceiling)",
        ),
        Headline(
            "human_receiver.map.share_of_ceiling",
            agent="nearest",
            description="nearest receiver's MAP as a share of the people's, on the same "
            "responses, per data set (how close to people)",
        ),
        Headline(
            "human_receiver.hits@10",
            dataset=ALL_DATASETS,
            agent="cluster",
            description="cluster sender: share of the people's clues in its top 10, mean over "
            "the data sets",
        ),
        Headline(
            "human_receiver.hits@10",
            dataset=ALL_DATASETS,
            agent="player-sender",
            description="a player subject's sender: share of the people's clues among its 10 "
            "best, mean over the data sets",
        ),
        Headline(
            "human_receiver.map",
            dataset=ALL_DATASETS,
            agent="player-receiver",
            description="a player subject's receiver vs people's picks: MAP, mean over the "
            "data sets",
        ),
    ),
    citation="Solomon, S. and Ben Zion, E. Word-Embedding Data-Driven Evaluation Measures "
    "through the game of Codenames.",
    options=CodenamesOptions,
    subjects=("vectors", "player", "people"),
    coverage="wordgames.codenames.suite:coverage",
    game_words="wordgames.codenames.suite:game_words",
    tables=TABLES,
    shared_columns=(("nearest", "player-receiver", "people"), ("cluster", "player-sender")),
)


#: ExhaustiveSearchSender's tie-breaks (:data:`wordgames.codenames.agents.TIE_BREAKS`)
TIE_BREAKS = ("avg_blue_dist", "max_blue_dist", "max_radius", "red_blue_diff", "frequency")
#: the data set name of self-play scores: seeded random boards of the Codenames word list
SELFPLAY_BOARDS = "random-boards"


@dataclass(frozen=True)
class SelfplayOptions:
    """Options of Codenames self-play (Table 1); the defaults are the paper's settings.

    Parameters
    ----------
    games : int
        Boards every (sender, receiver) pair plays (quick runs: at most 5).
    n_blue, n_red : int
        Blue and red words per board.
    max_turns : int or None
        Turn limit (default: the number of blue words); an unsolved game counts limit + 1.
    tie_break : str
        ExhaustiveSearchSender's tie-break (the paper: ``"frequency"``, the first optimal clue).
    vocab_size : int or None
        The sender's clue vocabulary: the N most frequent words.
    words : tuple of str or None
        The board word pool (default: the 400-word Codenames list), restricted to the words
        both subjects know; the same pool gives every pair the same boards.
    """

    games: int = 30
    n_blue: int = 50
    n_red: int = 50
    max_turns: int | None = None
    tie_break: str = "frequency"
    vocab_size: int | None = 50000
    words: tuple[str, ...] | None = None

    def __post_init__(self):
        for name, least in (("games", 1), ("n_blue", 1), ("n_red", 0), ("max_turns", 1)):
            check_range(f"codenames-selfplay.{name}", getattr(self, name), least)
        if self.tie_break not in TIE_BREAKS:
            raise OptionError(
                f"codenames-selfplay.tie_break: expected one of {', '.join(TIE_BREAKS)}, got "
                f"{self.tie_break!r}"
            )


SELFPLAY = Measure(
    name="codenames-selfplay",
    version="2",  # 2: exact similarities (issue 36)
    family="codenames",
    description="Codenames self-play: every sender subject with every receiver subject "
    "(Table 1 of Solomon & Ben Zion); the subject of a score is the receiver",
    compute="wordgames.codenames.selfplay:run",
    datasets=("codenames-pilot",),
    metrics=(
        Metric(
            "mean_turns",
            LOWER,
            (1.0, None),
            "mean turns to find every blue word (an unsolved game counts the limit + 1)",
        ),
        Metric("solve_rate", HIGHER, _UNIT, "share of games solved within the turn limit"),
        Metric("mean_turns_solved", LOWER, (1.0, None), "mean turns of the solved games"),
    ),  # fmt: skip
    headlines=(
        Headline(
            "mean_turns",
            dataset=SELFPLAY_BOARDS,
            description="self-play: mean turns (sender = the row, receiver = the column)",
        ),
    ),  # fmt: skip
    citation=MEASURE.citation,
    options=SelfplayOptions,
    pairs=True,
    in_default_run=False,
    subjects=("vectors", "player"),
    tables=(answers_table(),),
)
