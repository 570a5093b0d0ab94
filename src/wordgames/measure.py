"""The measure model: one declarative :class:`Measure` record per measure family.

A measure family declares, once and next to its code, what it measures: its name and version,
the data sets it reads, every metric it reports (with direction and bounds), which of those are
headlines, its citation, and its options as a typed dataclass. The registry
(:mod:`wordgames.registry`), :func:`wordgames.evaluate`, the results store, the report and every
CLI command read everything from this record; no caller keeps its own copy.

A measure is computed by one function ``compute(embedding, ctx) -> MeasureResult``; its result
holds typed, long-format :class:`Score` rows.

This module imports nothing heavy: the registry reads every family's record at start-up.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
import logging
import math
import time
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from wordgames.errors import WordgamesError

HIGHER, LOWER = "higher", "lower"
DIRECTIONS = (HIGHER, LOWER, None)


class OptionError(WordgamesError):
    """An option that a measure does not know, or a value of the wrong type.

    Examples
    --------
    >>> try:
    ...     check_range("wales.k", 0, 1)
    ... except OptionError as exc:
    ...     print(exc)
    option wales.k: must be at least 1, got 0
    """


@dataclass(frozen=True)
class Metric:
    """One kind of number a measure reports.

    Parameters
    ----------
    name : str
        The metric's name in :class:`Score` rows (e.g. ``"map"``, ``"spearman"``).
    direction : {"higher", "lower", None}
        Which way is better; ``None`` for descriptive numbers that are never ranked.
    bounds : tuple of (float or None, float or None)
        The metric's natural range; confidence intervals are kept inside it.
    description : str
        One line for tables and ``wordgames measures``.

    Examples
    --------
    >>> Metric("map", "higher", (0.0, 1.0)).bounds
    (0.0, 1.0)
    """

    name: str
    direction: str | None = HIGHER
    bounds: tuple[float | None, float | None] = (None, None)
    description: str = ""

    def __post_init__(self):
        if self.direction not in DIRECTIONS:
            raise ValueError(
                f"metric {self.name!r}: direction must be 'higher', 'lower' or None, "
                f"got {self.direction!r}"
            )
        lo, hi = self.bounds
        if lo is not None and hi is not None and lo > hi:
            raise ValueError(f"metric {self.name!r}: bounds {self.bounds} are reversed")


@dataclass(frozen=True)
class Headline:
    """A headline score of a measure: the rows of one metric, optionally of one agent/data set.

    Parameters
    ----------
    metric : str
        A metric the measure declares.
    dataset, agent : str or None
        Only the rows of this data set and agent (``None``: any).
    primary : bool
        The measure's single number for the cross-measure correlation (the first primary
        headline present wins).
    description : str
        One line for the leaderboard.

    Examples
    --------
    >>> h = Headline("map", agent="nearest")
    >>> h.matches(Score("e", "codenames", "pilot", "nearest", "map", 0.5))
    True
    >>> h.matches(Score("e", "codenames", "pilot", "random", "map", 0.1))
    False
    """

    metric: str
    dataset: str | None = None
    agent: str | None = None
    primary: bool = False
    description: str = ""

    def matches(self, score: Score) -> bool:
        return (
            score.metric == self.metric
            and (self.dataset is None or score.dataset == self.dataset)
            and (self.agent is None or score.agent == self.agent)
        )


@dataclass(slots=True)
class Score:
    """One number of one measure on one subject: a long-format row.

    The three names of a row say who played: the *subject* is the thing scored (an embedding,
    a model, ``people``), the *agent* the way it played (a receiver, a solver: ``nearest``), and
    the *partner* the other subject of a measure of pairs (self-play's receiver).

    Parameters
    ----------
    subject : str
        Display name of the subject scored (``"glove-6b-50d"``, ``"chat:m"``).
    measure : str
        Measure name (``"codenames"``).
    dataset : str
        Data set the number was computed on (``""`` when none, e.g. a matrix statistic).
    agent : str
        The agent, solver or benchmark that produced it (``""`` when the measure has none).
    metric : str
        A metric declared by the measure (:class:`Metric`).
    value : float
        The number (NaN when undefined).
    ci_low, ci_high : float
        95 % confidence interval (NaN when the measure gives none).
    n : int or None
        Items the number is computed on. ``n + n_skipped`` is always the data set's item
        count (its records, pairs, puzzles or tasks; weighted decisions where a record stands
        for several), whatever the vocabulary: the base of coverage and thinness.
    n_skipped : int
        Items of the data set left out of the value (``skip_reason`` says why, e.g.
        out-of-vocabulary words). Abstentions are not skips: they are in ``n`` (and a metric).
    skip_reason : str
        Why items were skipped, or why ``n_oov`` items were kept all the same, in words.
    direction : {"higher", "lower", None}
        Filled from the measure's declaration.
    coverage : float
        Share of the available items that the value reflects, in [0, 1]; NaN when unknown.
        :func:`wordgames.compute.compute_unit` fills ``n / (n + n_skipped)`` where the measure
        leaves it NaN (a measure whose skipped items stay in ``n`` sets it itself).
    thin : bool
        Built on too little data to be ranked (:func:`is_thin`); ``thin_reason`` says why.
    n_oov : int
        Items *inside* ``n`` that hold an out-of-vocabulary word and are scored by the
        measure's rule for them (an Odd-Man-Out solver abstains, ``oov="fixed"`` gives a pair
        a fixed cosine). They count against ``coverage``.
    partner : str
        The partner subject of a measure of pairs (``""`` for every other measure).
    n_unread : int
        Items *inside* ``n`` whose player's answer could not be read, even after a re-prompt,
        and that are scored by the game's "no move" for them (:mod:`wordgames.reading`): an
        abstention, a failed task, the board left as shown, no guess, no clue. Every printer
        shows them beside the value; a ``format_failures`` row gives their share with its
        interval. They do not count against ``coverage`` (the item was played).

    Examples
    --------
    >>> s = Score("glove", "similarity", "men", "", "spearman", 0.68, n=2950, n_skipped=50)
    >>> s.total, round(s.n / s.total, 3)
    (3000, 0.983)
    """

    subject: str
    measure: str
    dataset: str
    agent: str
    metric: str
    value: float
    ci_low: float = math.nan
    ci_high: float = math.nan
    n: int | None = None
    n_skipped: int = 0
    skip_reason: str = ""
    direction: str | None = None
    coverage: float = math.nan
    thin: bool = False
    thin_reason: str = ""
    n_oov: int = 0
    n_unread: int = 0
    partner: str = ""

    @property
    def total(self) -> int | None:
        """The data set's item count, ``n + n_skipped`` (``None`` when ``n`` is unknown)."""
        return None if self.n is None else self.n + (self.n_skipped or 0)

    def known_coverage(self) -> float:
        """The share of the data set the value reflects with every word known.

        ``(n - n_oov) / (n + n_skipped)``; NaN when the counts are unknown.
        """
        total = self.total
        if not total:
            return math.nan
        return (self.n - (self.n_oov or 0)) / total

    @property
    def key(self) -> tuple[str, str, str, str, str, str]:
        return (self.subject, self.measure, self.dataset, self.agent, self.partner, self.metric)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping, *, pairs: bool = False) -> Score:
        """The row of :meth:`as_dict`; a row stored before the three names is mapped.

        A row without an ``agent`` key is of the older schema: its ``embedding`` was the
        subject and its ``subject`` the agent or, in a measure of ``pairs``, the partner.

        Examples
        --------
        >>> old = {"embedding": "g", "measure": "m", "dataset": "d", "subject": "nearest",
        ...        "metric": "map", "value": 0.5}
        >>> s = Score.from_dict(old)
        >>> s.subject, s.agent, s.partner
        ('g', 'nearest', '')
        >>> Score.from_dict({**old, "subject": "w"}, pairs=True).partner
        'w'
        >>> Score.from_dict(s.as_dict()) == s
        True
        """
        d = old_row(d, pairs) if "agent" not in d else d
        names = {f.name for f in dataclasses.fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        for k in ("value", "ci_low", "ci_high", "coverage"):
            kw[k] = math.nan if kw.get(k) is None else float(kw[k])
        return cls(**kw)


def old_row(d: Mapping, pairs: bool = False) -> dict:
    """A Score row of the schema before the three names, in today's names.

    ``embedding`` becomes ``subject``; ``subject`` becomes ``agent``, or ``partner`` in a
    measure of ``pairs`` (where it held the partner's name).
    """
    d = dict(d)
    second = d.pop("subject", "")
    d["subject"] = d.pop("embedding", "")
    d["agent"], d["partner"] = ("", second) if pairs else (second, d.get("partner", ""))
    return d


@dataclass(frozen=True)
class ThinPolicy:
    """When a score is built on too little data to be ranked.

    Parameters
    ----------
    min_coverage : float
        Scores reflecting less than this share of the available items are thin.
    min_n : int
        Scores computed on fewer items are thin.

    Examples
    --------
    >>> is_thin(Score("e", "m", "d", "", "map", 0.5, n=12, coverage=1.0), ThinPolicy(min_n=10))
    (False, '')
    """

    min_coverage: float = 0.5
    min_n: int = 30


def is_thin(score: Score, policy: ThinPolicy | None = None) -> tuple[bool, str]:
    """Whether ``score`` is too thin to rank, and why in words.

    Parameters
    ----------
    score : Score
    policy : ThinPolicy or None
        Default: :class:`ThinPolicy`'s (coverage below 50 % or n below 30).

    Returns
    -------
    tuple of (bool, str)
        Thin or not, and the reason (``""`` when not).

    Examples
    --------
    >>> is_thin(Score("e", "m", "pilot", "", "map", 0.5, n=4, n_skipped=192, coverage=4 / 196))
    (True, 'coverage 4 of 196 (2%) is below 50%')
    >>> is_thin(Score("e", "m", "d", "", "map", 0.5, n=12, coverage=1.0))
    (True, 'n = 12 is below 30')
    >>> is_thin(Score("e", "m", "d", "", "map", 0.5, n=300, coverage=1.0))
    (False, '')
    """
    policy = policy or ThinPolicy()
    reasons = []
    cov = score.coverage
    if math.isfinite(cov) and cov < policy.min_coverage:
        total = score.total
        known = None if total is None else score.n - (score.n_oov or 0)
        if total and abs(cov - known / total) < 1e-9:  # the counts say it
            reasons.append(
                f"coverage {known:,} of {total:,} ({cov:.0%}) is below {policy.min_coverage:.0%}"
            )
        else:
            reasons.append(f"coverage {cov:.0%} is below {policy.min_coverage:.0%}")
    elif score.n is not None and score.n < policy.min_n:
        reasons.append(f"n = {score.n:,} is below {policy.min_n}")
    return bool(reasons), "; ".join(reasons)


@dataclass
class MeasureContext:
    """What a measure's ``compute`` receives besides the embedding.

    Parameters
    ----------
    options : dataclass instance
        The measure's typed options (validated by :meth:`Measure.make_options`).
    seed : int
        Base seed of every random choice.
    quick : bool
        Smaller settings for smoke runs (recorded with the result).
    data_root : Path or None
        Data root (``None``: ``$WORDGAMES_DATA``).
    out_dir : Path or None
        Folder for plots; ``None`` in memory (no plot is written).
    progress : callable or None
        ``progress(label, done, total)``, called as work advances.
    ci_resamples : int
        Bootstrap resamples of every confidence interval (0: no interval).
    partner : subject or None
        The second subject of a measure that plays two against each other (``pairs``): the
        receiver's subject when the unit's subject gives the clues.

    Examples
    --------
    >>> ctx = MeasureContext(seed=3, quick=True, measure="toy")
    >>> ctx.plot_dir("toy", "glove") is None, ctx.logger.name  # in memory: no plot folder
    (True, 'wordgames.toy')
    """

    options: Any = None
    seed: int = 0
    quick: bool = False
    data_root: Path | None = None
    out_dir: Path | None = None
    progress: Callable[[str, int, int], None] | None = None
    measure: str = ""
    ci_resamples: int = 1000
    partner: Any = None

    @property
    def logger(self) -> logging.Logger:
        return logging.getLogger(f"wordgames.{self.measure or 'measure'}")

    def log(self, message: str) -> None:
        """A diagnostic line (``logging`` at INFO: silent unless a handler shows it)."""
        self.logger.info("%s", message)

    def plot_dir(self, measure: str, embedding_name: str) -> Path | None:
        """Folder for this measure's plots of one embedding, or ``None`` when in memory."""
        if self.out_dir is None:
            return None
        from wordgames.paths import safe_name

        d = Path(self.out_dir) / "plots" / safe_name(embedding_name) / safe_name(measure)
        d.mkdir(parents=True, exist_ok=True)
        return d


@dataclass(frozen=True)
class NoOptions:
    """A measure without options.

    Examples
    --------
    >>> options_dict(NoOptions())
    {}
    """


@dataclass(frozen=True)
class Measure:
    """The declaration of one measure family (see the module docstring).

    Parameters
    ----------
    name : str
        Unique name (``"codenames"``).
    version : str
        Bump when the numbers would change: stored results of other versions are recomputed.
    family : str
        The paper family (``"codenames"``, ``"wales"``, ``"oddmanout"``, ``"emergent"``...).
    description : str
        One line.
    compute : str
        ``"module:function"`` of ``compute(embedding, ctx) -> MeasureResult``; imported lazily.
    datasets : tuple of str
        Names of the declared data sets it reads (:mod:`wordgames.datasets`).
    metrics : tuple of Metric
        Every metric its scores use.
    headlines : tuple of Headline
        The scores shown first and ranked, in display order.
    citation : str
        The paper.
    options : type
        A frozen dataclass of the options, with defaults.
    uses_embedding : bool
        False for measures of other representations (CBM reads message logs).
    baseline_agents : tuple of str
        Agents whose scores do not depend on the subject (the WordNet solver, people);
        a trailing ``*`` matches a prefix. Their coverage says nothing of a vocabulary.
    part_option : str
        The option that selects the parts a Score's ``dataset`` names (``"benchmarks"``,
        ``"sets"``; ``"datasets"`` where the parts are the declared data sets themselves), so
        that ``evaluate(datasets=[...])`` takes the names ``to_frame()`` shows.
    subjects : tuple of str
        The kinds of subject it can score (:data:`wordgames.subjects.CAPABILITIES`): a unit
        whose subject has none of them is skipped with that reason. Default: ``vectors``.
    pairs : bool
        The measure plays two subjects against each other: ``evaluate`` runs one unit per
        ordered pair of its subjects (the unit's subject and ``ctx.partner``), and every Score
        row's ``partner`` is the partner's name (a sender x receiver matrix).
    in_default_run : bool
        Run when no measure is named (``False``: only when named, e.g. self-play).
    coverage : str
        ``"module:function"`` of ``coverage(embedding, options, data_root)``: the rows of the
        coverage pre-check (:mod:`wordgames.precheck`) before anything is computed; ``""``:
        none.
    game_words : str
        ``"module:function"`` of ``game_words(data_root)``: every word the measure asks an
        embedding about (an encoder encodes them beside its frequency list); ``""``: none.
    tables : tuple of Table
        Every table its results hold (:mod:`wordgames.tables`), with typed columns; a result
        with a table that is not declared, or does not match, is not stored.
    people : str
        Why the measure has no row for the people of its data (the subject ``people``, the
        human ceiling), when it does not declare the kind ``people``: shown in the result.
    shared_columns : tuple of tuple of str
        Groups of agents that are each kind of subject's own agent in one role (the
        embedding's nearest receiver, then a player's receiver): the leaderboard shows each
        group in the column of its first agent, so that an embedding and a chat model stand
        side by side (the report's notes say so).
    item_noun : str
        What one of its items is, as the console counts them ("records", "puzzles", "pairs").

    Examples
    --------
    A plug-in's measure, named in its family manifest (or its own entry point):

    >>> m = Measure("word-count", "1", "mine", "how many words the embedding has",
    ...             "mypkg.suite:run", metrics=(Metric("n_words", None, (0.0, None)),))
    >>> m.option_names(), m.uses_embedding
    ([], True)
    """

    name: str
    version: str
    family: str
    description: str
    compute: str
    datasets: tuple[str, ...] = ()
    metrics: tuple[Metric, ...] = ()
    headlines: tuple[Headline, ...] = ()
    citation: str = ""
    options: type = NoOptions
    uses_embedding: bool = True
    baseline_agents: tuple[str, ...] = ()
    part_option: str = ""
    subjects: tuple[str, ...] = ("vectors",)
    pairs: bool = False
    in_default_run: bool = True
    coverage: str = ""
    game_words: str = ""
    tables: tuple = ()
    shared_columns: tuple[tuple[str, ...], ...] = ()
    people: str = ""
    item_noun: str = "items"

    def __post_init__(self):
        names = [m.name for m in self.metrics]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"measure {self.name!r}: metrics declared twice: {sorted(dup)}")
        for h in self.headlines:
            if h.metric not in names:
                raise ValueError(
                    f"measure {self.name!r}: headline {h.metric!r} is not a declared "
                    f"metric ({', '.join(names)})"
                )
        if not dataclasses.is_dataclass(self.options):
            raise TypeError(f"measure {self.name!r}: options must be a dataclass type")
        if self.part_option and self.part_option not in self.option_names():
            raise ValueError(f"measure {self.name!r}: part_option is not one of its options")
        tables = [t.name for t in self.tables]
        if len(set(tables)) != len(tables):
            raise ValueError(f"measure {self.name!r}: a table is declared twice: {tables}")

    # ------------------------------------------------------------------ metrics
    def metric(self, name: str) -> Metric | None:
        return next((m for m in self.metrics if m.name == name), None)

    def direction(self, metric: str) -> str | None:
        m = self.metric(metric)
        return m.direction if m else None

    def bounds(self, metric: str) -> tuple[float | None, float | None]:
        m = self.metric(metric)
        return m.bounds if m else (None, None)

    def column_agent(self, agent: str) -> str:
        """The leaderboard column's agent: the first of its shared group (else itself).

        >>> m = Measure("x", "1", "f", "d", "m:f", shared_columns=(("nearest", "player"),))
        >>> m.column_agent("player"), m.column_agent("random")
        ('nearest', 'random')
        """
        for group in self.shared_columns:
            if agent in group:
                return group[0]
        return agent

    def is_baseline(self, agent: str) -> bool:
        """Whether ``agent``'s scores do not depend on the subject (see ``baseline_agents``)."""
        return not self.uses_embedding or any(
            agent == b or (b.endswith("*") and agent.startswith(b[:-1]))
            for b in self.baseline_agents
        )

    def headline_of(self, score: Score) -> Headline | None:
        """The headline ``score`` is, else ``None``.

        The people's rows (agent ``"people"``, the human ceiling) are the headline of the
        agent whose column they share (:attr:`shared_columns`): the people's MAP stands in the
        nearest receiver's column, on the leaderboard and in every printer.
        """
        hit = next((h for h in self.headlines if h.matches(score)), None)
        if hit is None and score.agent == "people" and self.column_agent("people") != "people":
            shadow = dataclasses.replace(score, agent=self.column_agent("people"))
            hit = next((h for h in self.headlines if h.matches(shadow)), None)
        return hit

    # ------------------------------------------------------------------ options
    def option_names(self) -> list[str]:
        return [f.name for f in dataclasses.fields(self.options)]

    def make_options(self, given: Mapping[str, Any] | Any | None = None, **overrides):
        """The typed options from a mapping (or an instance), checked.

        Unknown keys raise :class:`OptionError` naming the key, a close match and the known
        keys; values are checked against the field types (ints are accepted for floats,
        lists for tuples).

        Examples
        --------
        >>> from wordgames.registry import get_measure
        >>> get_measure("similarity").make_options({"oov": "skip"}).oov
        'skip'
        >>> get_measure("similarity").make_options({"ovv": "skip"})
        Traceback (most recent call last):
        ...
        wordgames.measure.OptionError: measure 'similarity' has no option 'ovv' (did you mean 'oov'?); known: benchmarks, extra, oov, oov_similarity
        """
        if isinstance(given, self.options):
            values = dataclasses.asdict(given)
        else:
            values = dict(given or {})
        values.update(overrides)
        known = self.option_names()
        for key in values:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise OptionError(
                    f"measure {self.name!r} has no option {key!r}{hint}; "
                    f"known: {', '.join(known) or 'none'}"
                )
        hints = typing.get_type_hints(self.options)
        checked = {k: check_type(f"{self.name}.{k}", v, hints[k]) for k, v in values.items()}
        return self.options(**checked)

    def load(self) -> Callable:
        """The ``compute`` function (imports the family's module)."""
        return load_entry(self.compute)


def load_entry(entry: str):
    """The object ``"module:attribute"`` names, imported when asked for.

    Every declaration that names code by a string (a measure's ``compute``, ``coverage`` and
    ``game_words``, an agent's factory, a plug-in's entry) is resolved here.

    >>> load_entry("math:pi") > 3
    True
    """
    module, _, attr = entry.partition(":")
    return getattr(importlib.import_module(module), attr)


def check_type(where: str, value: Any, hint: Any) -> Any:
    """``value`` checked against a type hint.

    Lists are turned into tuples where a tuple is expected; :class:`OptionError` names ``where``
    when it does not fit.

    Parameters
    ----------
    where : str
        The option's name in the message (``"wales.k"``).
    value : object
    hint : type hint
        As an options dataclass declares it (``int | None``, ``tuple[str, ...]``, a
        ``Literal``).

    Returns
    -------
    object
        ``value``, converted where the hint allows (a list to a tuple, an int to a float).

    Examples
    --------
    >>> check_type("x", [1, 2], tuple[int, ...])
    (1, 2)
    >>> check_type("x", 3, float)
    3.0
    >>> check_type("x", "a", int | None)
    Traceback (most recent call last):
    ...
    wordgames.measure.OptionError: option x: expected int or None, got 'a'
    """
    ok, out = _fit(value, hint)
    if not ok:
        choices = [a for a in _literals(hint) if isinstance(a, str)]
        close = difflib.get_close_matches(value, choices, n=1) if isinstance(value, str) else []
        hint_text = f" (did you mean {close[0]!r}?)" if close else ""
        raise OptionError(f"option {where}: expected {_hint_name(hint)}, got {value!r}{hint_text}")
    return out


def _literals(hint) -> tuple:
    """Every value a ``Literal`` inside ``hint`` allows (``()`` when none)."""
    if typing.get_origin(hint) is typing.Literal:
        return typing.get_args(hint)
    return tuple(v for arm in typing.get_args(hint) for v in _literals(arm))


def check_names(where: str, values, known, what: str) -> None:
    """Refuse a name in ``values`` that is not in ``known``, with a "did you mean".

    Parameters
    ----------
    where : str
        The option's name in the message.
    values : iterable of str or None
    known : iterable of str
    what : str
        What a name names, in the message (``"a benchmark"``).

    Examples
    --------
    >>> check_names("similarity.benchmarks", ["men", "mem"], ["men", "rw", "mc30"], "a benchmark")
    Traceback (most recent call last):
    ...
    wordgames.measure.OptionError: option similarity.benchmarks: 'mem' is not a benchmark (did you mean 'men'?); known: men, rw, mc30
    """
    known = list(known)
    for value in values or ():
        if value in known:
            continue
        close = difflib.get_close_matches(str(value), known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise OptionError(
            f"option {where}: {value!r} is not {what}{hint}; known: {', '.join(known)}"
        )


def check_range(where: str, value, low=None, high=None) -> None:
    """Refuse a number outside ``[low, high]`` (``None``: unbounded; ``value`` ``None`` passes).

    Parameters
    ----------
    where : str
        The option's name in the message.
    value : number or None
    low, high : number or None
        The bounds, inclusive.

    Examples
    --------
    >>> check_range("wales.k", 0, 1)
    Traceback (most recent call last):
    ...
    wordgames.measure.OptionError: option wales.k: must be at least 1, got 0
    """
    if value is None:
        return
    values = value if isinstance(value, tuple | list) else (value,)
    for v in values:
        if (low is not None and v < low) or (high is not None and v > high) or v != v:
            rng = (
                f"between {low} and {high}"
                if low is not None and high is not None
                else (f"at least {low}" if low is not None else f"at most {high}")
            )
            raise OptionError(f"option {where}: must be {rng}, got {v}")


def _fit(value, hint) -> tuple[bool, Any]:
    origin = typing.get_origin(hint)
    if hint is Any:
        return True, value
    if origin in (typing.Union, types.UnionType):
        for arm in typing.get_args(hint):
            ok, out = _fit(value, arm)
            if ok:
                return True, out
        return False, value
    if hint is type(None):
        return value is None, value
    if origin is typing.Literal:
        return value in typing.get_args(hint), value
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            return False, value
        arm = args[0] if args else Any
        outs = []
        for v in value:
            ok, o = _fit(v, arm)
            if not ok:
                return False, value
            outs.append(o)
        return True, tuple(outs)
    if origin is dict or hint is dict:
        return isinstance(value, dict), value
    if hint is bool:
        return isinstance(value, bool), value
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool), value
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return ok, float(value) if ok else value
    if hint is str:
        return isinstance(value, str), value
    if hint is Path:
        return isinstance(value, str | Path), Path(value) if isinstance(
            value, str | Path
        ) else value
    if isinstance(hint, type):
        return isinstance(value, hint), value
    return True, value


def _hint_name(hint) -> str:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_hint_name(a) for a in typing.get_args(hint))
    if hint is type(None):
        return "None"
    if origin is typing.Literal:
        return "one of " + ", ".join(map(repr, typing.get_args(hint)))
    if origin is tuple:
        args = typing.get_args(hint)
        return f"a list of {_hint_name(args[0]) if args else 'values'}"
    return getattr(hint, "__name__", str(hint))


def options_dict(options) -> dict:
    """The options as a plain dict (for the result record and the store key).

    Parameters
    ----------
    options : dataclass instance or None

    Returns
    -------
    dict

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Opts:
    ...     k: int = 3
    >>> options_dict(Opts()), options_dict(None)
    ({'k': 3}, {})
    """
    if options is None:
        return {}
    return {f.name: getattr(options, f.name) for f in dataclasses.fields(options)}


@dataclass
class Skip:
    """A measure that did not run on a subject, and why.

    Parameters
    ----------
    subject, measure : str
        The unit's subject and measure.
    reason : str
        Why, in words (data missing, a capability the subject lacks, an error).
    failed : bool
        An error, not a skip: the run exits non-zero.
    error : str
        The error's type and text, when it failed.

    Examples
    --------
    >>> Skip("glove", "wales", "data set 'wikispeedia' is not available").failed
    False
    """

    subject: str
    measure: str
    reason: str
    failed: bool = False
    error: str = ""


# --------------------------------------------------------------------------- results
@dataclass
class MeasureResult:
    """The outcome of one measure on one subject.

    Parameters
    ----------
    measure : unique measure name, e.g. ``"codenames"``
    version : version of the measure's definition (bump when numbers would change)
    tables : named tables of typed rows, each declared in the measure's record
        (:mod:`wordgames.tables`)
    oov : counts of out-of-vocabulary words or records, next to what they affect
    parameters : every parameter of the agents and the measure (constructor = configuration)
    datasets : data set name -> {file: sha256}
    plots : paths of plot files written
    timings : seconds per phase
    notes : free-text remarks (repairs in the data, skipped parts)
    scores : typed long-format rows (:class:`~wordgames.measure.Score`): what the report,
        the leaderboard and ``Results.to_frame`` read
    subject : name of the subject it was computed on
    items : per-item values behind the headline scores, by :func:`item_key`
        (:mod:`wordgames.paired`): what a paired comparison of two subjects resamples
    usage : what the unit cost a subject that sends requests (a chat model): ``requests``,
        ``cache_hits``, ``tokens_in``, ``tokens_out``, ``failed``, ``unreadable``; empty for
        others

    Examples
    --------
    >>> r = MeasureResult("toy", "1", subject="glove")
    >>> row = r.score("men", "", "spearman", 0.7, n=2950, n_skipped=50)
    >>> (row.subject, row.measure, row.metric, row.total), len(r.scores)
    (('glove', 'toy', 'spearman', 3000), 1)
    """

    measure: str
    version: str
    tables: dict[str, list[dict]] = field(default_factory=dict)
    oov: dict[str, Any] = field(default_factory=dict)
    parameters: dict[str, Any] = field(default_factory=dict)
    datasets: dict[str, dict[str, str]] = field(default_factory=dict)
    plots: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    scores: list = field(default_factory=list)
    subject: str = ""
    items: dict[str, dict] = field(default_factory=dict)
    usage: dict[str, int] = field(default_factory=dict)

    def keep_items(self, score, record: dict) -> None:
        """Keep the per-item values behind ``score`` (:func:`wordgames.paired.item_record`).

        The report's paired comparisons ("best only when it is") read them.
        """
        from wordgames.paired import pack

        self.items[score_item_key(score)] = pack(record)

    def score(
        self,
        dataset: str,
        agent: str,
        metric: str,
        value,
        *,
        ci=None,
        n=None,
        n_skipped: int = 0,
        skip_reason: str = "",
        n_oov: int = 0,
        n_unread: int = 0,
    ):
        """Append one :class:`~wordgames.measure.Score` row; returns it.

        Subject, partner and direction are filled in by :func:`wordgames.compute.compute_unit`.
        """
        import math

        from wordgames.measure import Score

        lo, hi = ci if ci is not None else (math.nan, math.nan)
        row = Score(
            self.subject,
            self.measure,
            dataset,
            agent,
            metric,
            _float(value),
            _float(lo),
            _float(hi),
            None if n is None else int(n),
            int(n_skipped),
            skip_reason,
            n_oov=int(n_oov),
            n_unread=int(n_unread),
        )
        self.scores.append(row)
        return row

    def find(self, metric: str, dataset: str | None = None, agent: str | None = None):
        """The one Score row of ``metric`` (and ``dataset`` / ``agent`` where given).

        Raises KeyError naming the rows there are when none or several match.

        >>> r = MeasureResult("m", "1")
        >>> _ = r.score("men", "", "spearman", 0.7, n=3)
        >>> r.find("spearman").value, r.value("spearman", "men")
        (0.7, 0.7)
        """
        rows = [
            s
            for s in self.scores
            if s.metric == metric
            and (dataset is None or s.dataset == dataset)
            and (agent is None or s.agent == agent)
        ]
        if len(rows) != 1:
            have = sorted({score_item_key(s) for s in self.scores})
            what = "no" if not rows else f"{len(rows)}"
            raise KeyError(
                f"{what} score row(s) of {self.measure} for dataset={dataset!r} "
                f"agent={agent!r} metric={metric!r}; rows: {', '.join(have[:20])}"
                + (" ..." if len(have) > 20 else "")
            )
        return rows[0]

    def value(self, metric: str, dataset: str | None = None, agent: str | None = None) -> float:
        """The value of :meth:`find`'s row."""
        return self.find(metric, dataset, agent).value

    def as_dict(self) -> dict:
        d = asdict(self)
        return jsonable(d)

    @classmethod
    def from_dict(cls, d: dict, *, pairs: bool = False) -> MeasureResult:
        """The result of :meth:`as_dict` (as stored), with its Score rows typed again.

        A result stored before the three names (its ``embedding`` is the subject) is read in
        today's names (:func:`old_row`); ``pairs``: a measure of pairs, whose rows' old
        ``subject`` was the partner. Its item records move with the rows.
        """
        from dataclasses import fields

        from wordgames.measure import Score

        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        if "embedding" in d and "subject" not in d:
            kw["subject"] = d["embedding"]
        rows = d.get("scores") or ()
        kw["scores"] = [Score.from_dict(s, pairs=pairs) for s in rows]
        if pairs and isinstance(kw.get("items"), dict):  # old item keys named the partner second
            # the old key is item_key with the partner where the agent is now
            old = {item_key(s.dataset, s.partner, s.metric): score_item_key(s) for s, r in
                   zip(kw["scores"], rows, strict=True) if "agent" not in r}  # fmt: skip
            kw["items"] = {old.get(k, k): v for k, v in kw["items"].items()}
        return cls(**kw)

    def renamed(self, subject: str) -> MeasureResult:
        """A copy under another subject name (a stored twin of the same vectors)."""
        from dataclasses import replace

        return replace(
            self, subject=subject, scores=[replace(s, subject=subject) for s in self.scores]
        )

    def set_partner(self, partner: str) -> None:
        """Make ``partner`` every row's partner (a measure of pairs: the second subject).

        The item records behind the rows move with them, so that the paired comparisons find
        them under the rows' keys.

        >>> r = MeasureResult("m", "1")
        >>> row = r.score("d", "", "t", 1.0)
        >>> r.items[item_key("d", "", "t")] = {"x": 1}
        >>> r.set_partner("b")
        >>> row.partner, list(r.items)
        ('b', ['d||t|b'])
        """
        moved = {}
        for s in self.scores:
            record = self.items.pop(score_item_key(s), None)
            s.partner = partner
            if record is not None:
                moved[score_item_key(s)] = record
        self.items.update(moved)


def item_key(dataset: str, agent: str, metric: str, partner: str = "") -> str:
    """The key of a score's item record in :attr:`MeasureResult.items`.

    The partner enters the key of a measure of pairs' rows: a paired comparison pairs the
    games of one partner only.

    >>> item_key("men", "", "spearman"), item_key("", "", "turns", "glove")
    ('men||spearman', '||turns|glove')
    """
    return f"{dataset}|{agent}|{metric}" + (f"|{partner}" if partner else "")


def score_item_key(score: Score) -> str:
    """:func:`item_key` of a Score row."""
    return item_key(score.dataset, score.agent, score.metric, score.partner)


def _float(v) -> float:
    import math

    try:
        return math.nan if v is None else float(v)
    except (TypeError, ValueError):
        return math.nan


def jsonable(obj):
    """Make numpy scalars, paths and non-finite floats JSON-safe (NaN -> None)."""
    import numpy as np

    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, Path):
        return str(obj)
    return obj


class Timer:
    """Context manager that stores elapsed seconds in ``timings[key]``.

    Parameters
    ----------
    timings : dict
        A result's ``timings``.
    key : str
        The phase's name.

    Examples
    --------
    >>> timings = {}
    >>> with Timer(timings, "solve"):
    ...     pass
    >>> list(timings), timings["solve"] >= 0
    (['solve'], True)
    """

    def __init__(self, timings: dict[str, float], key: str):
        self.timings, self.key = timings, key

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.timings[self.key] = round(time.perf_counter() - self.start, 4)
        return False


__all__ = [
    "HIGHER",
    "LOWER",
    "Headline",
    "Measure",
    "MeasureContext",
    "Metric",
    "NoOptions",
    "OptionError",
    "Score",
    "MeasureResult",
    "Skip",
    "Timer",
    "ThinPolicy",
    "check_names",
    "check_range",
    "check_type",
    "is_thin",
    "options_dict",
]
