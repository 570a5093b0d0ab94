"""The declaration of the Odd-Man-Out measure (Stanovsky & Hopkins, EMNLP 2018).

Scores: ``dataset`` is the puzzle set, ``subject`` the solver (``embedding`` for the
embedding solver, ``wordnet`` for the WordNet baseline).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from wordgames.measure import HIGHER, LOWER, Headline, Measure, Metric


@dataclass(frozen=True)
class OddManOutOptions:
    """Options of the Odd-Man-Out measure.

    Parameters
    ----------
    sets : tuple of str or None
        Names from :data:`wordgames.oddmanout.data.FILES` (default: all but the 322,602-puzzle
        unfiltered file; in quick runs the three test sets).
    puzzles : tuple of str
        Paths of users' own puzzle files (TSV / JSONL).
    mwe : str
        Multi-word policy of the embedding solver.
    case : str
        Case policy of the embedding solver.
    wordnet : bool or None
        Run the WordNet baseline and the polysemy analysis (default: yes, not in quick runs).
    wordnet_root : str or None
        WordNet folder (default: the system's).
    instances : bool
        Follow instance hypernyms.
    missing : str
        Specificity of a word with no explanation.
    """

    sets: tuple[str, ...] | None = None
    puzzles: tuple[str, ...] = ()
    mwe: str = "phrase-or-mean"
    case: str = "fallback-lower"
    wordnet: bool | None = None
    wordnet_root: str | None = None
    instances: bool = False
    missing: Literal["least-specific", "zero"] | str = "least-specific"


_PCT = (0.0, 100.0)

MEASURE = Measure(
    name="oddmanout",
    version="1",
    family="oddmanout",
    description="Odd-Man-Out puzzles: %correct / %wrong / %abstained",
    compute="wordgames.oddmanout.suite:run",
    datasets=("oddmanout-anomia", "oddmanout-crowdsourced"),
    metrics=(
        Metric("pct_correct", HIGHER, _PCT, "% of puzzles solved"),
        Metric("pct_wrong", LOWER, _PCT, "% of puzzles answered wrongly"),
        Metric("pct_abstained", None, _PCT, "% of puzzles the solver abstained on"),
        Metric("accuracy_answered", HIGHER, _PCT, "% correct among the puzzles answered"),
    ),
    headlines=(
        Headline("pct_correct", dataset="crowdsourced-filtered", subject="embedding",
                 primary=True, description="% puzzles solved"),
        Headline("pct_correct", subject="embedding", primary=True, description="% puzzles solved"),
        Headline("pct_wrong", subject="embedding", description="% puzzles answered wrongly"),
    ),
    citation="Stanovsky, G. and Hopkins, M. Spot the Odd Man Out: Exploring the Associative "
             "Power of Lexical Resources. EMNLP 2018.",
    options=OddManOutOptions,
)
