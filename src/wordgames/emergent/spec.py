"""The declaration of the Concept-Best-Matching measure (Carmeli, Belinkov & Meir 2024).

CBM evaluates emergent-communication logs, not the word embedding (by default the shipped
trained runs of Table 1). Scores: ``dataset`` is the log's name (its file stem, or its run
folder's for a ``messages.*`` file), ``subject`` is empty; ``n`` is the number of messages (TopSim: message pairs,
precision: messages with a word), ``n_skipped`` what was left out and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from wordgames.measure import HIGHER, LOWER, Headline, Measure, Metric
from wordgames.tables import Table, columns

#: CBM reads no word vectors; its results are keyed under the default embedding (so that
#: ``wordgames run --cbm-log``, ``cbm evaluate`` and ``cbm train`` share stored results)
KEY_EMBEDDING = "glove-6b-50d"

#: the tables of the CBM measure (:func:`wordgames.emergent.measures.report_to_result`)
TABLES = (
    Table(
        "translation",
        columns(
            "log:str word:str concept:str weight:float word_uses:int share:float "
            "concept_uses:int concept_share:float"
        ),
        "one word of the best match and the concept it translates to, heaviest first",
    ),
    Table(
        "sensitivity",
        columns("log:str n_samples:int accumulated:float segment:float"),
        "CBM on the first n messages (accumulated) and on the last segment of them",
    ),
    Table(
        "counts",
        columns("log:str count:str value:int"),
        "what the reader and the measures counted in the log (e.g. messages without words)",
    ),
)


@dataclass(frozen=True)
class CBMOptions:
    """Options of the CBM measure.

    Parameters
    ----------
    logs : tuple of str
        Emergent-communication logs (JSONL/CSV); none: the trained runs of the paper's
        Table 1 that ship with wordgames (:func:`wordgames.emergent.shipped.shipped_logs`).
    eos_id, pad_id : int, str or None
        End-of-sentence and padding symbols in the logs (tokens are compared by name, so
        ``0`` and ``"0"`` are the same symbol).
    format : str
        ``auto``, ``jsonl`` or ``csv``.
    topsim_max_pairs : int
        Above this many message pairs TopSim uses all pairs of a seeded random subset of
        messages (quick runs: at most 100,000 pairs).
    counting : str
        How CBM counts a word repeated within one message: ``occurrences`` (default; every
        occurrence counts in the edge weights, in Q and in the word-side rates, and the
        unmatched-concept and omission rates are over the concept occurrences -- the paper's
        and the authors' script's convention) or ``types`` (once per message, every rate over
        Q). Definitions in :mod:`wordgames.emergent.cbm`.
    """

    logs: tuple[str, ...] = ()
    eos_id: int | str | None = None
    pad_id: int | str | None = None
    format: Literal["auto", "jsonl", "csv"] = "auto"
    topsim_max_pairs: int = 2_000_000
    counting: Literal["occurrences", "types"] = "occurrences"


_UNIT = (0.0, 1.0)
_COUNT = (0.0, None)

MEASURE = Measure(
    item_noun="messages",
    name="cbm",
    # 5: a run folder's messages.* log is named by its folder; 4: cbm_literal;
    # 3: counting="occurrences", ties as the authors' script
    version="5",
    family="emergent",
    description="Concept-Best-Matching of emergent-communication logs (default: the shipped Table 1 runs)",
    compute="wordgames.emergent.suite:run",
    metrics=(
        Metric("cbm", HIGHER, _UNIT, "Concept-Best-Matching score"),
        Metric(
            "accuracy",
            HIGHER,
            _UNIT,
            "the game's accuracy on the logged turns (a log with an 'accuracy' field)",
        ),
        Metric(
            "cbm_literal",
            None,
            (0.0, None),
            "the paper's CBM formula read literally (|m_i| = distinct words): can exceed 1",
        ),
        Metric("ambiguity_rate", LOWER, _UNIT, "words matched to several concepts"),
        Metric("paraphrase_rate", LOWER, _UNIT, "concepts expressed by several words"),
        Metric("omission_rate", LOWER, _UNIT, "concepts left unexpressed"),
        Metric("unmatched_concept_rate", LOWER, _UNIT, "concept occurrences with no matched word"),
        Metric("precision", HIGHER, _UNIT, "matched words among the message's words"),
        Metric("recall", HIGHER, _UNIT, "label concepts expressed by a matched word"),
        Metric("topsim", HIGHER, (-1.0, 1.0), "topographic similarity"),
        Metric("ami", HIGHER, (-1.0, 1.0), "adjusted mutual information of messages and labels"),
        Metric("posdis", HIGHER, _UNIT, "positional disentanglement"),
        Metric("bosdis", HIGHER, _UNIT, "bag-of-symbols disentanglement"),
        Metric("n_samples", None, _COUNT, "messages (each with its label) in the log"),
        Metric("n_unique_words", None, _COUNT, "distinct words"),
        Metric("n_unique_messages", None, _COUNT, "distinct messages"),
        Metric("n_unique_concepts", None, _COUNT, "distinct concepts that occur in a label"),
        Metric("n_unique_phrases", None, _COUNT, "distinct labels (sets of concepts)"),
        Metric("n_matched", None, _COUNT, "word-concept pairs of the best match"),
        Metric("topsim_pairs", None, _COUNT, "message pairs TopSim was computed on"),
        Metric(
            "sensitivity_accumulated_std",
            None,
            _COUNT,
            "spread of CBM over growing prefixes of the log (paper, appendix E)",
        ),
        Metric(
            "sensitivity_segment_std",
            None,
            _COUNT,
            "spread of CBM over segments of the log (paper, appendix E)",
        ),
    ),
    headlines=(
        Headline("cbm", primary=True, description="Concept-Best-Matching score"),
        Headline("topsim", description="topographic similarity"),
        Headline("ami", description="adjusted mutual information"),
    ),
    citation="Carmeli, B., Belinkov, Y. and Meir, R. Concept-Best-Matching: Evaluating "
    "Compositionality in Emergent Communication. 2024.",
    options=CBMOptions,
    uses_embedding=False,
    tables=TABLES,
)
