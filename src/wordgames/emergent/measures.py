"""Every measure of an emergent language in one call: :func:`evaluate_language`.

CBM and its by-products (:mod:`wordgames.emergent.cbm`), TopSim
(:mod:`wordgames.emergent.topsim`), AMI, PosDis and BosDis
(:mod:`wordgames.emergent.information`) on one set of messages with their labels. The definitions
(including how repeated words, EOS and padding count) are in those modules' docstrings.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from wordgames.emergent.cbm import (
    CBMResult,
    cbm_sensitivity,
    check_counting,
    concept_best_matching,
)
from wordgames.emergent.information import (
    adjusted_mutual_information,
    bag_of_symbols_disentanglement,
    positional_disentanglement,
)
from wordgames.emergent.inputs import (
    EncodedConcepts,
    EncodedMessages,
    LanguageLog,
    encode_concepts,
    encode_messages,
    from_interaction,
    read_log,
)
from wordgames.emergent.topsim import topographic_similarity
from wordgames.measure import jsonable

MEASURE_VERSION = "3"  # 2: counting="occurrences" by default, ties as the authors' script;
# 3: the counts table carries Q ("edges")
ALL_MEASURES = ("cbm", "sensitivity", "topsim", "ami", "disentanglement")


@dataclass
class LanguageReport:
    """All measures of one emergent language (NaN where a measure was not computed).

    Attributes
    ----------
    n_samples : number of messages (= labels)
    cbm : Concept-Best-Matching score in [0, 1]
    ambiguity_rate, paraphrase_rate, omission_rate, unmatched_concept_rate : class counts over
        their denominators (:mod:`wordgames.emergent.cbm`): ambiguity and paraphrase over Q;
        omission and unmatched concept over the concept occurrences (``counting="occurrences"``)
        or over Q (``"types"``)
    precision, recall : mean per-message precision and recall of the best match
    topsim : topographic similarity; ``topsim_pairs`` pairs were used, objects from
        ``topsim_input`` ("objects" or, without objects, "concepts": the label's indicator vector)
    ami : adjusted mutual information between messages and phrases
    posdis, bosdis : positional and bag-of-symbols disentanglement
    n_unique_words, n_unique_messages, n_unique_concepts, n_unique_phrases : distinct counts
    n_matched : matched word-concept pairs
    translation : matched word -> (concept, edge weight), heaviest first
    counts : occurrence counts behind the rates (``cbm.CBMResult.counts``)
    sensitivity : rows ``{n_samples, accumulated, segment}`` (paper, appendix E)
    parameters, timings, notes : how it was computed
    cbm_literal : the paper's CBM formula read literally (``|m_i|`` the size of the message's
        word set): can exceed 1 (:attr:`~wordgames.emergent.cbm.CBMResult.score_literal`)
    cbm_result : the full :class:`~wordgames.emergent.cbm.CBMResult` (graph, per-message arrays)
    """

    n_samples: int
    cbm: float = float("nan")
    cbm_literal: float = float("nan")
    ambiguity_rate: float = float("nan")
    paraphrase_rate: float = float("nan")
    omission_rate: float = float("nan")
    unmatched_concept_rate: float = float("nan")
    precision: float = float("nan")
    recall: float = float("nan")
    topsim: float = float("nan")
    topsim_pairs: int = 0
    topsim_input: str = "none"
    ami: float = float("nan")
    posdis: float = float("nan")
    bosdis: float = float("nan")
    n_unique_words: int = 0
    n_unique_messages: int = 0
    n_unique_concepts: int = 0
    n_unique_phrases: int = 0
    n_matched: int = 0
    translation: dict[str, tuple[str, float]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    sensitivity: list[dict] = field(default_factory=list)
    parameters: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    cbm_result: CBMResult | None = field(default=None, repr=False)
    #: the log's per-turn receiver accuracy, when the log is a game's (``accuracy`` field)
    turn_accuracy: np.ndarray | None = field(default=None, repr=False)

    METRICS = (
        "cbm",
        "cbm_literal",
        "ambiguity_rate",
        "paraphrase_rate",
        "omission_rate",
        "unmatched_concept_rate",
        "precision",
        "recall",
        "topsim",
        "ami",
        "posdis",
        "bosdis",
        "n_samples",
        "n_unique_words",
        "n_unique_messages",
        "n_unique_concepts",
        "n_unique_phrases",
        "n_matched",
        "topsim_pairs",
    )

    def metrics(self) -> dict[str, float]:
        """The headline numbers, flat (with the spread of the sensitivity scores)."""
        out = {k: getattr(self, k) for k in self.METRICS}
        if len(self.sensitivity) > 1:
            acc = [r["accumulated"] for r in self.sensitivity]
            seg = [r["segment"] for r in self.sensitivity]
            out["sensitivity_accumulated_std"] = float(np.std(acc))
            out["sensitivity_segment_std"] = float(np.std(seg))
        return out

    def table1_row(self) -> dict[str, float]:
        """The measures in the columns of the paper's Table 1 (accuracy comes from the game).

        Cons / Phrs: distinct concepts and phrases; #w / #m: distinct words and messages.
        """
        return {
            "Cons": self.n_unique_concepts,
            "Phrs": self.n_unique_phrases,
            "#w": self.n_unique_words,
            "#m": self.n_unique_messages,
            "TopSim": self.topsim,
            "AMI": self.ami,
            "CBM": self.cbm,
            "Amb": self.ambiguity_rate,
            "Para": self.paraphrase_rate,
            "Unm": self.unmatched_concept_rate,
        }

    def as_dict(self) -> dict:
        """JSON-ready dict (NaN -> None); the graph and per-message arrays are left out."""
        out = self.metrics()
        out.update(
            topsim_input=self.topsim_input,
            translation={w: [c, wt] for w, (c, wt) in self.translation.items()},
            counts=dict(self.counts),
            sensitivity=list(self.sensitivity),
            parameters=dict(self.parameters),
            timings=dict(self.timings),
            notes=list(self.notes),
        )
        return jsonable(out)


def evaluate_language(
    messages,
    concepts,
    *,
    objects=None,
    concept_names=None,
    message_kind: str = "auto",
    eos_id=None,
    pad_id=None,
    topsim_max_pairs: int | None = 2_000_000,
    topsim_normalize: bool = False,
    ami_average_method: str = "max",
    sensitivity_step: int = 100,
    sensitivity_max_samples: int | None = 2000,
    measures=ALL_MEASURES,
    random_state=0,
    counting: str = "occurrences",
) -> LanguageReport:
    """Evaluate an emergent language against the concepts of its labels.

    Parameters
    ----------
    messages : integer array ``B x L``, one-hot array ``B x L x V``, quantized binary words
        ``B x L x d`` (numpy or torch), or a list of token lists
        (:mod:`wordgames.emergent.inputs`)
    concepts : list (length ``B``) of lists of concept strings (``"color=red"``), or a binary
        ``B x C`` matrix whose column names are ``concept_names``
    objects : optional ``B x D`` object vectors for TopSim (default: the concept indicator
        vectors of the labels)
    concept_names : names of the concept columns (matrix input) or the full concept list
    message_kind : ``"auto"``, ``"ids"``, ``"onehot"``, ``"binary"`` or ``"tokens"``
    eos_id, pad_id : end-of-sentence and padding symbols; a message ends at its first EOS,
        padding is dropped; neither ever counts as a word
    topsim_max_pairs : above this many pairs TopSim uses all pairs of a seeded random subset of
        messages (the largest whose pairs fit)
    topsim_normalize : divide edit distances by the mean message length (EGG's variant)
    ami_average_method : sklearn ``average_method`` ("max" = the paper's equation 3)
    sensitivity_step, sensitivity_max_samples : CBM against evaluation-set size (appendix E)
    measures : which of ``"cbm"``, ``"sensitivity"``, ``"topsim"``, ``"ami"``,
        ``"disentanglement"`` to compute
    random_state : seed of every random choice (the TopSim pair sample)
    counting : how CBM counts a word repeated within a message: ``"occurrences"`` (default, the
        paper's and the authors' script's: every occurrence, in the edge weights, in Q and in the
        rates) or ``"types"`` (once per message); see :mod:`wordgames.emergent.cbm`

    Examples
    --------
    >>> import numpy as np
    >>> msgs = np.array([[1, 3, 0, 0], [1, 4, 0, 0], [2, 3, 0, 0], [2, 4, 0, 0]])
    >>> labels = [["c=red", "s=box"], ["c=red", "s=orb"], ["c=blue", "s=box"], ["c=blue", "s=orb"]]
    >>> r = evaluate_language(msgs, labels, eos_id=0)
    >>> r.cbm, r.precision, r.recall, r.unmatched_concept_rate, r.translation["1"]
    (1.0, 1.0, 1.0, 0.0, ('c=red', 2.0))
    """
    check_counting(counting)
    unknown = set(measures) - set(ALL_MEASURES)
    if unknown:
        raise ValueError(f"unknown measures {sorted(unknown)}; known: {ALL_MEASURES}")
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    enc_m = encode_messages(messages, kind=message_kind, eos_id=eos_id, pad_id=pad_id)
    enc_c = encode_concepts(concepts, concept_names=concept_names)
    if len(enc_m) != len(enc_c):
        raise ValueError(f"{len(enc_m)} messages but {len(enc_c)} labels")
    timings["encode"] = time.perf_counter() - t0
    report = _new_report(
        enc_m,
        enc_c,
        {
            "message_kind": enc_m.kind,
            "eos_id": eos_id,
            "pad_id": pad_id,
            "topsim_max_pairs": topsim_max_pairs,
            "topsim_normalize": topsim_normalize,
            "ami_average_method": ami_average_method,
            "sensitivity_step": sensitivity_step,
            "sensitivity_max_samples": sensitivity_max_samples,
            "measures": list(measures),
            "random_state": random_state,
            "counting": counting,
            "measure_version": MEASURE_VERSION,
        },
    )
    steps = {
        "cbm": lambda: _cbm_step(report, enc_m, enc_c, counting),
        "sensitivity": lambda: setattr(
            report,
            "sensitivity",
            cbm_sensitivity(
                enc_m,
                enc_c,
                step=sensitivity_step,
                max_samples=sensitivity_max_samples,
                counting=counting,
            ),
        ),
        "topsim": lambda: _topsim_step(
            report,
            enc_m,
            enc_c,
            objects,
            max_pairs=topsim_max_pairs,
            random_state=random_state,
            normalize=topsim_normalize,
        ),
        "ami": lambda: setattr(
            report,
            "ami",
            adjusted_mutual_information(enc_m, enc_c, average_method=ami_average_method),
        ),
        "disentanglement": lambda: _disentanglement_step(report, enc_m, enc_c),
    }
    for name in ALL_MEASURES:  # in this order, each timed
        if name in measures:
            t = time.perf_counter()
            steps[name]()
            timings[name] = time.perf_counter() - t
    report.timings = {k: round(v, 4) for k, v in timings.items()}
    return report


def _new_report(enc_m: EncodedMessages, enc_c: EncodedConcepts, parameters: dict) -> LanguageReport:
    """The report with the distinct counts of the encoded language and its parameters."""
    _, n_msg = enc_m.message_ids()
    _, n_phr = enc_c.phrase_ids()
    occurring = np.asarray(enc_c.matrix.sum(axis=0)).ravel() > 0
    report = LanguageReport(
        n_samples=len(enc_m),
        n_unique_words=enc_m.n_words,
        n_unique_messages=n_msg,
        n_unique_concepts=int(occurring.sum()),
        n_unique_phrases=n_phr,
        parameters=parameters,
    )
    if enc_c.n_duplicates:
        report.notes.append(
            f"{enc_c.n_duplicates} concepts listed twice in one label were counted once"
        )
    return report


def _cbm_step(
    report: LanguageReport, enc_m: EncodedMessages, enc_c: EncodedConcepts, counting: str
) -> None:
    """CBM and its by-products (rates, precision/recall, translation) into the report."""
    res = concept_best_matching(enc_m, enc_c, counting=counting)
    report.cbm_result = res
    report.cbm = res.score
    report.cbm_literal = res.score_literal
    report.ambiguity_rate = res.rates["ambiguity"]
    report.paraphrase_rate = res.rates["paraphrase"]
    report.omission_rate = res.rates["omission"]
    report.unmatched_concept_rate = res.rates["unmatched_concept"]
    report.precision, report.recall = res.precision, res.recall
    report.n_matched = res.counts["matched_pairs"]
    report.translation = res.translation()
    report.counts = dict(res.counts)
    if res.counts["messages_without_words"]:
        report.notes.append(
            f"{res.counts['messages_without_words']} messages have no word "
            "(left out of the mean precision)"
        )


def _topsim_step(
    report: LanguageReport,
    enc_m: EncodedMessages,
    enc_c: EncodedConcepts,
    objects,
    *,
    max_pairs,
    random_state,
    normalize: bool,
) -> None:
    """TopSim against the objects, or (without objects) the labels' concept indicator vectors."""
    if objects is not None:
        obj = np.asarray(
            objects.detach().cpu().numpy() if hasattr(objects, "detach") else objects,
            dtype=np.float64,
        )
        report.topsim_input = "objects"
    else:
        obj = enc_c.matrix.toarray()
        report.topsim_input = "concepts"
    report.topsim, report.topsim_pairs = topographic_similarity(
        enc_m, obj, max_pairs=max_pairs, random_state=random_state, normalize=normalize
    )


def _disentanglement_step(
    report: LanguageReport, enc_m: EncodedMessages, enc_c: EncodedConcepts
) -> None:
    report.posdis = positional_disentanglement(enc_m, enc_c)
    report.bosdis = bag_of_symbols_disentanglement(enc_m, enc_c)


def evaluate_log(log: LanguageLog, **kwargs) -> LanguageReport:
    """:func:`evaluate_language` on a :class:`~wordgames.emergent.inputs.LanguageLog`."""
    kwargs.setdefault("concept_names", log.concept_names)
    report = evaluate_language(log.messages, log.concepts, objects=log.objects, **kwargs)
    report.turn_accuracy = log.accuracy
    for what, n in log.repairs.items():
        report.notes.append(f"{n} {what.replace('_', ' ')}")
    report.counts.update({f"repaired/{k}": v for k, v in log.repairs.items()})
    if log.source:
        report.parameters["source"] = log.source
    return report


def evaluate_interaction(interaction, *, concept_names=None, **kwargs) -> LanguageReport:
    """:func:`evaluate_language` on an object with EGG's ``Interaction`` fields (duck typing)."""
    return evaluate_log(from_interaction(interaction, concept_names=concept_names), **kwargs)


def report_to_result(
    report: LanguageReport, *, name: str = "cbm", plot_paths=(), datasets=None, log: str = ""
) -> Any:
    """The report as a :class:`wordgames.measure.MeasureResult`.

    One Score row per number of :meth:`LanguageReport.metrics` (``dataset``: ``log``, the log's
    name) and the declared tables ``translation``, ``sensitivity`` and ``counts``, each row
    naming its ``log``.
    """
    from wordgames.measure import MeasureResult

    translation = report.cbm_result.translation_table() if report.cbm_result else []
    result = MeasureResult(
        measure=name,
        version=MEASURE_VERSION,
        tables={
            "translation": [{"log": log, **r} for r in translation],
            "sensitivity": [{"log": log, **r} for r in report.sensitivity],
            "counts": [{"log": log, "count": k, "value": v} for k, v in report.counts.items()],
        },
        oov={},
        parameters=dict(report.parameters),
        datasets=datasets or {},
        plots=[str(p) for p in plot_paths],
        timings=dict(report.timings),
        notes=list(report.notes),
    )
    add_scores(result, log, report)
    return result


def add_scores(result, dataset: str, report: LanguageReport) -> None:
    """Score rows of one log's report: every number of ``report.metrics()``.

    ``precision`` leaves out the messages without words; TopSim above ``topsim_max_pairs`` is
    computed on a seeded uniform subsample of messages, which estimates the whole log's TopSim
    rather than losing part of it, so its ``coverage`` is 1 (see :mod:`wordgames.emergent.suite`).
    """
    n = report.n_samples
    no_words = int(report.counts.get("messages_without_words", 0))
    all_pairs = n * (n - 1) // 2
    for metric, value in report.metrics().items():
        kw = {"n": n}
        if metric == "precision" and no_words:
            kw = {"n": n - no_words, "n_skipped": no_words, "skip_reason": "messages without words"}
        elif metric == "topsim" and not math.isnan(report.topsim):
            kw = {
                "n": report.topsim_pairs,
                "n_skipped": all_pairs - report.topsim_pairs,
                "skip_reason": "message pairs outside the seeded subsample (topsim_max_pairs)"
                if all_pairs > report.topsim_pairs
                else "",
            }
        row = result.score(dataset, "", metric, value, **kw)
        if metric == "topsim" and kw.get("n_skipped"):
            row.coverage = 1.0
    if report.turn_accuracy is not None:
        _accuracy_score(result, dataset, report)


def _accuracy_score(result, dataset: str, report: LanguageReport) -> None:
    """The game's accuracy on the logged turns, with a seeded bootstrap interval over them."""
    from wordgames.stats import bootstrap_ci

    acc = report.turn_accuracy
    seed = int(report.parameters.get("random_state") or 0)
    ci = bootstrap_ci(acc, n_resamples=1000, seed=seed, bounds=(0.0, 1.0))
    result.score(dataset, "", "accuracy", float(acc.mean()), ci=ci, n=len(acc))


# read_log and from_interaction (from :mod:`.inputs`) are re-exported: evaluate_log(read_log(path))
__all__ = [
    "LanguageReport",
    "evaluate_language",
    "evaluate_log",
    "evaluate_interaction",
    "report_to_result",
    "add_scores",
    "read_log",
    "from_interaction",
    "EncodedMessages",
    "EncodedConcepts",
]
