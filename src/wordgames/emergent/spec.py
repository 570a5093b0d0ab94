"""The declaration of the Concept-Best-Matching measure (Carmeli, Belinkov & Meir 2024).

CBM evaluates emergent-communication logs, not the word embedding. Scores: ``dataset`` is the
log's file stem, ``subject`` is empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from wordgames.measure import HIGHER, LOWER, Headline, Measure, Metric


@dataclass(frozen=True)
class CBMOptions:
    """Options of the CBM measure.

    Parameters
    ----------
    logs : tuple of str
        Emergent-communication logs (JSONL/CSV); without logs the measure is skipped.
    eos_id, pad_id : int or None
        End-of-sentence and padding symbol ids in the logs.
    format : str
        ``auto``, ``jsonl`` or ``csv``.
    """

    logs: tuple[str, ...] = ()
    eos_id: int | None = None
    pad_id: int | None = None
    format: str = "auto"


_UNIT = (0.0, 1.0)

MEASURE = Measure(
    name="cbm",
    version="1",
    family="emergent",
    description="Concept-Best-Matching of emergent-communication logs (needs logs; skipped otherwise)",
    compute="wordgames.emergent.suite:run",
    metrics=(
        Metric("cbm", HIGHER, _UNIT, "Concept-Best-Matching score"),
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
)
