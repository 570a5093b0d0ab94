"""The declaration of the Odd-Man-Out measure (Stanovsky & Hopkins, EMNLP 2018).

Scores: ``dataset`` is the puzzle set, ``subject`` the solver (``embedding`` for the
embedding solver, ``wordnet`` for the WordNet baseline, ``senses:<name>`` for a sense
embedding). ``pct_*`` are percentages of all puzzles of the set; ``accuracy_answered`` is the
share (0-1) of correct answers among the answered puzzles. ``n`` is the number of puzzles the
value is computed on: every puzzle of the set for ``pct_*``, where the puzzles with a word the
solver does not know count as abstained and as ``n_oov`` (``coverage`` is the share without
one); the answered puzzles for ``accuracy_answered``, whose ``n_skipped`` are the abstained.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from wordgames.measure import HIGHER, LOWER, Headline, Measure, Metric, check_names
from wordgames.tables import Table, answers_read_table, answers_table, columns

#: the tables of the Odd-Man-Out measure (:mod:`wordgames.oddmanout.suite`)
TABLES = (
    answers_table(),
    answers_read_table(),
    Table(
        "table3",
        columns(
            "solver:str dataset:str n:int pct_correct:float pct_wrong:float pct_abstained:float "
            "accuracy_answered:float? oov_words:int puzzles_with_oov:int pct_correct_ci:list?"
        ),
        "the paper's Table 3: one solver on one puzzle set, percentages rounded to 0.1",
    ),
    Table(
        "load_reports",
        columns(
            "dataset:str file:str? format:str? line_ends:str? physical_lines:int? "
            "blank_lines:int? stripped_fields:int? glued_lines_repaired:int? "
            "records_after_repair:int? malformed_records:int? duplicates_dropped:int? "
            "repeated_word_puzzles:int? repeated_word_dropped:int? multiword_words:int? "
            "puzzles:int bom_removed:int? order:str?"
        ),
        "what the reader of one puzzle file found and repaired",
    ),
    Table(
        "error_concentration",
        columns(
            "solver:str dataset:str n_wrong:int wrong_words:int possible:int top_words:str "
            "top_share:float? even_share:float?"
        ),
        "how concentrated one solver's wrong answers are on few words",
    ),
    Table(
        "substitution_*",
        columns(
            "kind:str replacement:str chosen:str? correct:bool chose_replacement:bool "
            "abstained:bool"
        ),
        "one puzzle of a substitution experiment (section 5.2)",
    ),
    Table(
        "polysemy_of_errors",
        columns(
            "dataset:str n_wrong:int chosen_mean_senses:float? others_mean_senses:float? "
            "chosen_polysemous:int chosen_not_in_inventory:int "
            "chosen_most_polysemous_of_puzzle:int base_rate_polysemous:float?"
        ),
        "WordNet senses of the words the embedding solver wrongly chose (section 5.1)",
    ),
    Table(
        "categories",
        columns(
            "dataset:str words:str odd:str category:str? holds:bool? wordnet_odd:str? "
            "explanation:str? agrees:bool? left_out:str?"
        ),
        "a player's odd word and category beside the WordNet solver's explanation, a puzzle a row",
    ),
    Table(
        "error_examples",
        columns("words:str answer:str chosen:str? chosen_senses:int? answer_senses:int?"),
        "puzzles the embedding solver got wrong, with WordNet sense counts",
    ),
)

#: The WordNet solver's modes: ``"ours"`` (default: the paper's definitions over the full noun
#: and verb hypernym DAG) and ``"published"`` (the authors' code, puzzle for puzzle:
#: :class:`wordgames.oddmanout.wordnet.PublishedWordNetTaxonomy`).
WordnetMode = Literal["ours", "published"]
WORDNET_MODES: tuple[str, ...] = get_args(WordnetMode)


@dataclass(frozen=True)
class OddManOutOptions:
    """Options of the Odd-Man-Out measure.

    Parameters
    ----------
    sets : tuple of str or None
        Names from :data:`wordgames.oddmanout.data.FILES` (default: all but the 322,602-puzzle
        unfiltered file; in quick runs the three test sets; ``()``: none, only ``puzzles``).
    puzzles : tuple of str
        Paths of users' own puzzle files (TSV / JSONL).
    senses : tuple of str
        Sense-embedding ``.npz`` files (``wordgames oddmanout senses``) solved beside the
        embedding; their rows (subject ``senses:<name>``) do not depend on the embedding.
    embedding_solver : bool
        Solve with the embedding itself (False: only the WordNet baseline and ``senses``).
    mwe : str
        Multi-word policy of the embedding solvers.
    case : str
        Case policy of the embedding solvers.
    wordnet : bool or None
        Run the WordNet baseline and the polysemy analysis (default: yes, not in quick runs).
    wordnet_root : str or None
        WordNet folder (default: the system's).
    instances : bool
        Follow instance hypernyms.
    missing : str
        Specificity of a word with no explanation (``"least-specific"``) or abstain.
    wordnet_mode : str
        One of :data:`WORDNET_MODES`: ``"ours"`` (default) or ``"published"``, the authors'
        solver reproduced puzzle for puzzle (``instances`` and ``missing`` must keep their
        defaults then).
    solver : str or None
        The agent that solves for the subject, by name (``wordgames agents``; plug-ins' too):
        default ``"embedding"`` for vectors, ``"player"`` for a player. Its rows' subject is
        its name. The WordNet baseline is the ``wordnet`` option, not a solver name here.
    """

    sets: tuple[str, ...] | None = None
    puzzles: tuple[str, ...] = ()
    senses: tuple[str, ...] = ()
    embedding_solver: bool = True
    mwe: Literal["phrase", "mean", "phrase-or-mean", "abstain"] = "phrase-or-mean"
    case: Literal["fallback-lower", "exact"] = "fallback-lower"
    wordnet: bool | None = None
    wordnet_root: str | None = None
    instances: bool = False
    missing: Literal["least-specific", "abstain"] = "least-specific"
    wordnet_mode: WordnetMode = "ours"
    solver: str | None = None

    def __post_init__(self):
        from wordgames.oddmanout.data import FILES

        check_names("oddmanout.sets", self.sets, FILES, "a published puzzle set")
        if self.solver is not None:
            _check_solver(self.solver)


def _check_solver(name: str) -> None:
    """A registered Odd-Man-Out solver other than the WordNet baseline, or :class:`OptionError`."""
    from wordgames.agents import check_agent_option
    from wordgames.measure import OptionError

    if name == "wordnet":
        raise OptionError("oddmanout.solver: the WordNet baseline is the 'wordnet' option")
    check_agent_option("oddmanout.solver", "oddmanout", [name])


_PCT = (0.0, 100.0)

MEASURE = Measure(
    item_noun="puzzles",
    name="oddmanout",
    # 3: one meaning of n (OOV puzzles as n_oov, abstained ones skipped by accuracy);
    # 4: a player names the category, compared with WordNet's explanation; 5: exact
    # similarities (issue 36)
    version="6",  # 6: a player's answers re-prompted, read by rules, counted (issue 37)
    family="oddmanout",
    description="Odd-Man-Out puzzles: %correct / %wrong / %abstained",
    compute="wordgames.oddmanout.suite:run",
    datasets=("oddmanout-anomia", "oddmanout-crowdsourced"),
    part_option="sets",
    metrics=(
        Metric("pct_correct", HIGHER, _PCT, "% of puzzles solved"),
        Metric("pct_wrong", LOWER, _PCT, "% of puzzles answered wrongly"),
        Metric("pct_abstained", None, _PCT, "% of puzzles the solver abstained on"),
        Metric(
            "format_failures",
            LOWER,
            (0.0, 1.0),
            "share of puzzles whose player's answer could not be read, even after a re-prompt "
            "(scored as abstentions)",
        ),
        Metric(
            "accuracy_answered",
            HIGHER,
            (0.0, 1.0),
            "share of correct answers among the puzzles answered (0-1)",
        ),
        Metric(
            "category_named",
            HIGHER,
            _PCT,
            "% of the puzzles a player answered whose answer names the others' category",
        ),
        Metric(
            "category_holds_wordnet",
            HIGHER,
            _PCT,
            "% of the puzzles with a category in WordNet where it is a class of the four kept "
            "words",
        ),
        Metric(
            "category_agrees_wordnet",
            HIGHER,
            _PCT,
            "% of the compared puzzles whose category names WordNet's explanation or a "
            "hypernym of it",
        ),
    ),
    headlines=(
        Headline(
            "pct_correct",
            dataset="crowdsourced-filtered",
            agent="embedding",
            primary=True,
            description="% puzzles solved",
        ),
        Headline("pct_correct", agent="embedding", primary=True, description="% puzzles solved"),
        Headline("pct_wrong", agent="embedding", description="% puzzles answered wrongly"),
        Headline("pct_correct", agent="player", description="% puzzles a player solved"),
    ),
    citation="Stanovsky, G. and Hopkins, M. Spot the Odd Man Out: Exploring the Associative "
    "Power of Lexical Resources. EMNLP 2018.",
    options=OddManOutOptions,
    baseline_agents=("wordnet", "senses:*"),
    subjects=("vectors", "player"),
    people="the puzzle sets give one answer per puzzle (the puzzle maker's odd one out), no "
    "annotator's answer: no held-out person can be scored. The paper reports that 3 AMT "
    "annotators per puzzle gave a majority vote for the intended word on 84.3 % of 1,000 "
    "sampled crowdsourced puzzles (section 3.2; the 843 kept are CROWDSOURCED843), an "
    "agreement of another kind than %C, and the filtered set keeps only agreed puzzles",
    coverage="wordgames.oddmanout.suite:coverage",
    game_words="wordgames.oddmanout.suite:game_words",
    tables=TABLES,
    shared_columns=(("embedding", "player"),),
)
