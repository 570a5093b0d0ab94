"""The declarations of the word-similarity measure and the global matrix metrics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from wordgames.measure import HIGHER, Headline, Measure, Metric, check_names, check_range
from wordgames.tables import Table, columns

#: the repairs the benchmark reader counts (:func:`wordgames.similarity.benchmarks.read_pairs_tsv`)
_REPAIRS = (
    "crlf_lines missing_final_newline blank_lines lowercased_rows header_skipped "
    "whitespace_separated_rows bom_removed"
)


@dataclass(frozen=True)
class SimilarityOptions:
    """Options of the word-similarity measure.

    Parameters
    ----------
    benchmarks : tuple of str or None
        Short names of the shipped benchmarks (default ``None``: all 13; ``()``: none, only
        the ``extra`` files, and the shipped data set is then not read).
    extra : tuple of str
        Paths of users' own ``word1<TAB>word2<TAB>score`` files (named by file stem).
    oov : {"skip", "fixed"}
        Leave pairs with an out-of-vocabulary word out, or score them ``oov_similarity``.
    oov_similarity : float
        The cosine of OOV pairs under ``oov="fixed"``.
    """

    benchmarks: tuple[str, ...] | None = None
    extra: tuple[str, ...] = ()
    oov: Literal["skip", "fixed"] = "skip"
    oov_similarity: float = 0.0

    def __post_init__(self):
        from wordgames.similarity.benchmarks import BENCHMARKS

        check_names("similarity.benchmarks", self.benchmarks, BENCHMARKS, "a shipped benchmark")
        check_range("similarity.oov_similarity", self.oov_similarity, -1.0, 1.0)


SIMILARITY = Measure(
    item_noun="pairs",
    name="similarity",
    # 4: exact cosines (issue 36); 3: OOV pairs kept under oov="fixed" counted as n_oov
    version="4",
    family="similarity",
    description="Word-similarity benchmarks (Spearman, Pearson)",
    compute="wordgames.similarity.suite:run",
    datasets=("word-similarity",),
    part_option="benchmarks",
    people="the benchmarks ship each pair's mean rating, not each rater's: no held-out rater "
    "can be scored. The agreement each benchmark's own paper reports (its definitions differ: "
    "pairwise or leave-one-out, Spearman or Pearson) is not declared here: none was checked "
    "against its paper on this machine, and an unchecked figure would mix definitions",
    metrics=(
        Metric("spearman", HIGHER, (-1.0, 1.0), "Spearman rho with human similarity ratings"),
        Metric("pearson", HIGHER, (-1.0, 1.0), "Pearson r with human similarity ratings"),
        Metric("coverage", HIGHER, (0.0, 1.0), "share of pairs with both words in vocabulary"),
    ),
    headlines=(
        Headline(
            "spearman",
            dataset="simlex999",
            primary=True,
            description="Spearman rho with SimLex-999",
        ),
        Headline("spearman", dataset="men", primary=True, description="Spearman rho with MEN"),
        Headline(
            "spearman", primary=True, description="Spearman rho with human similarity ratings"
        ),
    ),
    citation="Giesen et al., Leveraging the Wikipedia Graph for Evaluating Word Embeddings "
    "(IJCAI 2022), Figure 1",
    options=SimilarityOptions,
    coverage="wordgames.similarity.suite:coverage",
    game_words="wordgames.similarity.suite:game_words",
    tables=(
        Table(
            "benchmarks",
            columns(
                "benchmark:str spearman:float spearman_ci_low:float spearman_ci_high:float "
                "pearson:float pearson_ci_low:float pearson_ci_high:float spearman_p:float "
                "pearson_p:float n_pairs:int n_scored:int n_oov_pairs:int n_oov_words:int "
                "coverage:float oov_policy:str oov_similarity:float? cased_fallback:int"
            ),
            "one benchmark: both correlations with their bootstrap intervals and the OOV counts",
        ),
        Table(
            "repairs",
            columns("benchmark:str notes:str " + " ".join(f"{r}:int?" for r in _REPAIRS.split())),
            "what the reader repaired in one benchmark file (only the repairs it made)",
        ),
    ),
)


@dataclass(frozen=True)
class GlobalMetricsOptions:
    """Options of the global matrix metrics (:class:`~wordgames.similarity.global_metrics.GlobalMetrics`).

    Parameters
    ----------
    perank_p : float
        Exponent of perank (WALES: 2.5).
    edim_p : float
        Exponent of edim (WALES: 1.0).
    center : bool
        Subtract the column mean before the spectrum.
    rownorm : bool
        l2-normalise the rows before the spectrum.
    top_n : int or None
        Use only the ``top_n`` most frequent words (None: every row).
    perank_variant : {"power", "renyi"}
        The reading of perank (:func:`~wordgames.similarity.global_metrics.perank_from_singular_values`).
    """

    perank_p: float = 2.5
    edim_p: float = 1.0
    center: bool = False
    rownorm: bool = False
    top_n: int | None = None
    perank_variant: Literal["power", "renyi"] = "power"

    def __post_init__(self):
        check_range("global-metrics.top_n", self.top_n, 2)
        check_range("global-metrics.perank_p", self.perank_p, 0.0)
        check_range("global-metrics.edim_p", self.edim_p, 0.0)


GLOBAL_METRICS = Measure(
    name="global-metrics",
    version="2",
    family="similarity",
    description="erank, perank, edim of the embedding matrix",
    compute="wordgames.similarity.global_metrics:run",
    metrics=(
        Metric("erank", None, (1.0, None), "effective rank of the embedding matrix (descriptive)"),
        Metric("perank", None, (0.0, None), "perank (reconstructed definition; descriptive)"),
        Metric("edim", None, (0.0, None), "edim (reconstructed definition; descriptive)"),
        Metric("rank", None, (0.0, None), "number of singular values"),
    ),
    headlines=(
        Headline("erank", primary=True, description="effective rank (descriptive)"),
        Headline("perank", description="perank (descriptive)"),
        Headline("edim", description="edim (descriptive)"),
    ),
    citation="Roy & Vetterli 2007 (erank); Torregrossa et al. 2020 (perank, edim)",
    options=GlobalMetricsOptions,
    tables=(
        Table(
            "spectrum",
            columns("index:int singular_value:float share:float"),
            "one singular value of the matrix and its share of their sum",
        ),
    ),
)
