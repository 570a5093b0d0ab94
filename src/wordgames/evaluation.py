"""The one entry path: :func:`evaluate` runs measures on embeddings and returns :class:`Results`.

The Python API, ``wordgames run``, every family command, the report and the human-play app
all go through :func:`evaluate` and :func:`compute_unit`. A run is a list of work units (one
embedding x one measure). With a results store, each unit is keyed by (embedding sha256,
measure, measure version, parameters); stored units are reused (an interrupted run resumes)
and the others are computed by an executor (:mod:`wordgames.executors`). Without a store the
run happens in memory and writes nothing.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wordgames.compute import Progress, compute_unit, finish_result
from wordgames.errors import WordgamesError
from wordgames.measure import Measure, Score, Skip, ThinPolicy, is_thin, options_dict

__all__ = ["Results", "compute_unit", "evaluate", "finish_result"]

log = logging.getLogger("wordgames")


# --------------------------------------------------------------------------- results
@dataclass
class Results:
    """What :func:`evaluate` returns: every result, every skipped unit, and the run's record.

    Parameters
    ----------
    subjects : list of dict
        Each subject's description (name, kind, source, fingerprint); written to
        ``results.json`` as its ``embeddings`` list (the file keeps its key).
    results : list of MeasureResult
        One per (subject, measure) unit computed or read from the store.
    skipped : list of Skip
        The units that did not run, each with its reason (``failed``: an error).
    parameters, timings : dict
        The run's record: settings, data checksums, tool version; seconds per step.
    missing : list of str
        The units computed (a dry run: the units it would compute).
    coverage : list
        The pre-check's coverage of each data set, before any unit ran.

    Examples
    --------
    >>> import numpy as np, wordgames
    >>> from wordgames.embeddings import Embedding
    >>> emb = Embedding(["a", "b", "c"], np.eye(3), name="eye")
    >>> res = wordgames.evaluate(emb, measures=["global-metrics"])
    >>> res.to_frame().query("metric == 'erank'")["value"].round(3).tolist()
    [3.0]
    """

    subjects: list[dict] = field(default_factory=list)
    results: list = field(default_factory=list)  # MeasureResult
    skipped: list[Skip] = field(default_factory=list)
    parameters: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)  # units computed (or, dry run, to compute)
    coverage: list = field(default_factory=list)  # precheck.Coverage, before any unit ran

    @property
    def embeddings(self) -> list[dict]:
        """Deprecated: the old name of :attr:`subjects` (a ``DeprecationWarning``)."""
        import warnings

        warnings.warn("Results.embeddings is now Results.subjects", DeprecationWarning, 2)
        return self.subjects

    @property
    def scores(self) -> list[Score]:
        return [s for r in self.results for s in r.scores]

    def to_frame(self):
        """Every :class:`~wordgames.measure.Score` row as a pandas DataFrame."""
        import pandas as pd

        from wordgames.measure import Score as _S

        cols = [f for f in _S.__dataclass_fields__]
        return pd.DataFrame([s.as_dict() for s in self.scores], columns=cols)

    def result(self, measure: str, subject: str | None = None):
        """The result of ``measure`` (on ``subject``, default: the first one)."""
        for r in self.results:
            if r.measure == measure and (subject is None or r.subject == subject):
                return r
        raise KeyError(
            f"no result for measure {measure!r}"
            + (f" on {subject!r}" if subject else "")
            + f"; have: {', '.join(f'{r.subject}/{r.measure}' for r in self.results)}"
        )

    @property
    def failed(self) -> list[Skip]:
        return [s for s in self.skipped if s.failed]

    def __repr__(self) -> str:
        scores = self.scores
        names = [e.get("name", "?") for e in self.subjects]
        measures = list(dict.fromkeys(r.measure for r in self.results))
        return (
            f"<Results: {len(names)} embedding(s) ({', '.join(names[:4])}"
            f"{', ...' if len(names) > 4 else ''}) x {len(measures)} measure(s) "
            f"({', '.join(measures)}); {len(scores):,} scores, "
            f"{sum(s.thin for s in scores):,} thin; {len(self.skipped)} skipped, "
            f"{len(self.failed)} failed>"
        )

    def leaderboard(self, measures: Sequence[str] | None = None):
        """The headline scores as a :class:`~wordgames.report.Leaderboard`, in memory.

        The same table ``wordgames report`` builds from a folder: embeddings x headline
        scores, with intervals, ranks (thin cells never ranked) and the best groups.
        """
        from wordgames.report.collect import collection_of
        from wordgames.report.leaderboard import leaderboard

        return leaderboard(collection_of(self), list(measures) if measures else None)

    def summary(self) -> str:
        """The headline scores in words: one line per (score, embedding), thin ones marked.

        It leads with how close to people each model is where a measure has the people's row
        (the subject ``people``): each ceiling and each model's share of it
        (:func:`wordgames.report.people.ceiling_lines`).

        Examples
        --------
        >>> import numpy as np, wordgames
        >>> from wordgames.embeddings import Embedding
        >>> emb = Embedding(["a", "b", "c"], np.eye(3), name="eye")
        >>> print(wordgames.evaluate(emb, measures=["global-metrics"]).summary())  # doctest: +ELLIPSIS
        <Results: 1 embedding(s) (eye) x 1 measure(s) (global-metrics); ...
        global-metrics  erank  eye  3 ...
        """
        import pandas as pd

        from wordgames.report.collect import collection_of
        from wordgames.report.people import ceiling_lines
        from wordgames.report.text import format_number, thin_text

        lb = self.leaderboard()
        lines = [repr(self), *ceiling_lines(collection_of(self))]  # how close to people first
        frame = lb.to_frame()
        order = {c: i for i, c in enumerate(lb.columns)}
        frame["_col"] = [
            order[(r.measure, r.dataset, r.agent, r.metric)] for r in frame.itertuples()
        ]
        frame = frame.sort_values("_col", kind="stable")
        for r in frame.itertuples(index=False):
            if pd.isna(r.value):  # a subject without this column (the people: no pooled row)
                continue
            ci = (
                f" [{format_number(r.ci_low)}, {format_number(r.ci_high)}]"
                if r.ci_low == r.ci_low
                else ""
            )
            n = "" if pd.isna(r.n) else f"  n = {format_number(int(r.n))}"
            name = "  ".join(x for x in (r.measure, r.dataset, r.agent, r.metric) if x)
            extra = [thin_text(r.thin_reason)] if r.thin else []
            extra += [r.skipped] if r.skipped else []
            lines.append(
                f"{name}  {r.subject}  {format_number(r.value)}{ci}{n}"
                + (f"  ({'; '.join(extra)})" if extra else "")
            )
        for s in self.skipped:
            lines.append(f"skipped {s.measure} on {s.subject}: {s.reason}")
        return "\n".join(lines)

    def plot(
        self,
        measure: str,
        metric: str,
        *,
        dataset: str | None = None,
        agent: str | None = None,
    ):
        """One bar per subject (and agent) with its interval; thin values hatched.

        Parameters
        ----------
        measure, metric : str
            The score to show (``"similarity"``, ``"spearman"``).
        dataset, agent : str, optional
            Narrow the rows (default: every data set and agent; several make several bars
            per subject, labelled).

        Returns
        -------
        matplotlib.figure.Figure
        """
        from wordgames.registry import get_measure
        from wordgames.report.figures import comparison_figure

        rows = [
            s
            for s in self.scores
            if s.measure == measure
            and s.metric == metric
            and (dataset is None or s.dataset == dataset)
            and (agent is None or s.agent == agent)
        ]
        if not rows:
            have = sorted({(s.measure, s.metric) for s in self.scores})
            raise KeyError(
                f"no score {measure}/{metric}"
                + (f" on {dataset!r}" if dataset else "")
                + (f" of {agent!r}" if agent else "")
                + f"; have: {', '.join(f'{m}/{x}' for m, x in have)}"
            )
        parts = [
            p for p in ("dataset", "agent", "partner") if len({getattr(s, p) for s in rows}) > 1
        ]
        labels = [" / ".join([s.subject, *(getattr(s, p) for p in parts)]) for s in rows]
        spec = get_measure(measure)
        title = " / ".join(x for x in (measure, dataset, agent, metric) if x)
        return comparison_figure(
            labels, rows, title=title, direction=spec.direction(metric), bounds=spec.bounds(metric)
        )

    def record(self) -> dict:
        """The run record written to ``results.json`` (:class:`~wordgames.results.RunRecord`)."""
        from dataclasses import asdict

        from wordgames.results import RunRecord

        return RunRecord(
            embeddings=self.subjects,
            results=[r.as_dict() for r in self.results],
            skipped=[asdict(s) for s in self.skipped],
            parameters=self.parameters,
            timings=self.timings,
        ).as_dict()

    def write(self, out: str | Path) -> Path:
        """Write ``out/results.json`` atomically; returns its path."""
        from wordgames.results import write_json_atomic

        return write_json_atomic(Path(out) / "results.json", self.record())


# --------------------------------------------------------------------------- planning
@dataclass(frozen=True)
class RunSettings:
    """The run-level settings every unit shares (recorded with every result)."""

    seed: int = 0
    quick: bool = False
    ci_resamples: int = 1000
    thin: ThinPolicy = field(default_factory=ThinPolicy)
    vocabulary: dict | None = None
    data_root: str | None = None
    out_dir: str | None = None


def measure_params(measure: Measure, options, settings: RunSettings) -> dict:
    """The parameters that decide a measure's numbers: part of its key in the results store.

    Input files among the options are identified by content (sha256), so an edited file is not
    mistaken for a stored one. The thinness policy is not part of it: it changes no number and
    is applied again whenever results are collected.
    """
    from wordgames.datasets import sha256_file

    def by_content(value):
        if isinstance(value, list | tuple):
            return [by_content(v) for v in value]
        if isinstance(value, str | Path) and Path(value).is_file():
            return {"file": str(value), "sha256": sha256_file(value)}
        return value

    own = {k: by_content(v) for k, v in sorted(options_dict(options).items())}
    params = {
        "seed": settings.seed,
        "quick": settings.quick,
        "options": own,
        "ci_resamples": settings.ci_resamples,
    }
    if settings.vocabulary is not None:
        params["vocabulary"] = settings.vocabulary
    return params


def resolve_options(
    measures: Sequence[Measure], options: Mapping | None, datasets: Sequence[str] | None
) -> dict[str, Any]:
    """Typed options per measure from ``{measure name: mapping or dataclass}`` and ``datasets``.

    ``datasets`` takes the names a Score's ``dataset`` shows (a benchmark such as
    ``simlex999``, a puzzle set, a Codenames data set) as well as declared data sets: each
    chosen measure's ``part_option`` is restricted to the named parts it reads. A name no
    chosen measure reads is an error with a "did you mean".
    """
    options = dict(options or {})
    names = {m.name for m in measures}
    for key in options:
        if key not in names:
            from wordgames.registry import get_measure

            get_measure(key)  # unknown: "did you mean"
            raise WordgamesError(
                f"options are given for measure {key!r}, which is not selected "
                f"(selected: {', '.join(sorted(names))})"
            )
    out, used = {}, set()
    for m in measures:
        given = options.get(m.name)
        given = (
            options_dict(given)
            if given is not None and not isinstance(given, Mapping)
            else dict(given or {})
        )
        mine = _selected_parts(m, datasets or ())
        if mine:
            used.update(d for d, _ in mine)
            given[m.part_option] = list(dict.fromkeys(p for _, parts in mine for p in parts))
        out[m.name] = m.make_options(given)
    unknown = [d for d in datasets or () if d not in used]
    if unknown:
        _refuse_datasets(unknown, measures)
    return out


def _parts(m: Measure) -> dict[str, list[str]]:
    """``{name: the parts it selects}`` for every name ``datasets=`` may give for ``m``."""
    from wordgames.datasets import get_dataset

    if not m.part_option:
        return {}
    if m.part_option == "datasets":
        return {d: [d] for d in m.datasets}
    out = {}
    for d in m.datasets:
        parts = [p for p, _ in get_dataset(d).items]
        out[d] = parts
        out.update({p: [p] for p in parts})
    return out


def _selected_parts(m: Measure, datasets: Sequence[str]) -> list[tuple[str, list[str]]]:
    known = _parts(m)
    return [(d, known[d]) for d in datasets if d in known]


def _refuse_datasets(unknown: list[str], measures: Sequence[Measure]) -> None:
    import difflib

    from wordgames.measure import OptionError

    known = sorted(
        {n for m in measures for n in _parts(m)} | {d for m in measures for d in m.datasets}
    )
    d = unknown[0]
    close = difflib.get_close_matches(d, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise OptionError(
        f"data set {d!r} is read by none of the selected measures{hint}; they read: "
        f"{', '.join(known)}"
    )


@dataclass
class Plan:
    """Every unit of a run, and which of them the store already holds."""

    units: list
    stored: set
    missing: list


def plan_units(
    embs, measures, typed_options: dict, *, store, settings: RunSettings, overwrite: bool = False
) -> Plan:
    """Every (embedding, measure) unit and whether the store already holds it."""
    from dataclasses import replace

    # workers (other processes, other machines) get absolute paths and the driver's data root
    from wordgames.datasets import data_root
    from wordgames.executors import EmbeddingRef, WorkUnit
    from wordgames.results.store import ResultKey, params_hash

    root = data_root(settings.data_root)  # $WORDGAMES_DATA, else the per-user folder
    settings = replace(
        settings,
        data_root=str(root.resolve()),
        out_dir=str(Path(settings.out_dir).resolve()) if settings.out_dir else None,
    )
    store_root = str(Path(store.root).resolve()) if store is not None else None
    units, stored = [], set()
    refs = [EmbeddingRef(e.name, e.fingerprint(), e.describe()) for e in embs]
    for ref in refs:
        for m in measures:
            for partner in refs if m.pairs else [None]:
                params = measure_params(m, typed_options[m.name], settings)
                if partner is not None:  # the pair's second subject, by content
                    params["partner"] = partner.sha256
                key = ResultKey(ref.sha256, m.name, m.version, params_hash(params))
                if store is not None and not overwrite and store.has(key):
                    stored.add(len(units))
                units.append(
                    WorkUnit(
                        ref,
                        m,
                        key,
                        params,
                        store_root,
                        settings.out_dir,
                        settings.data_root,
                        settings.seed,
                        settings.quick,
                        typed_options[m.name],
                        settings.ci_resamples,
                        settings.thin,
                        overwrite,
                        partner,
                    )  # fmt: skip
                )
    # two specs with the same content share their keys: compute each key once
    seen: set = set()
    missing = [
        u for i, u in enumerate(units) if i not in stored and not (u.key in seen or seen.add(u.key))
    ]
    return Plan(units, stored, missing)


# --------------------------------------------------------------------------- evaluate
def _subjects_arg(subjects, embeddings):
    """``subjects``, or the deprecated ``embeddings=`` keyword of older code."""
    if embeddings is None:
        return subjects
    if subjects is not None:
        raise TypeError("evaluate() got both subjects and embeddings (its old name): give one")
    import warnings

    warnings.warn(
        "evaluate(embeddings=...) is now evaluate(subjects=...)", DeprecationWarning, stacklevel=3
    )
    return embeddings


def evaluate(
    subjects=None,
    measures=None,
    *,
    datasets: Sequence[str] | None = None,
    options: Mapping | None = None,
    seed: int = 0,
    quick: bool = False,
    vocabulary=None,
    store=None,
    out_dir=None,
    executor=None,
    data_root=None,
    overwrite: bool = False,
    dry_run: bool = False,
    transformer_vocab=None,
    progress: Progress | None = None,
    on_plan: Callable[[Results], None] | None = None,
    ci_resamples: int = 1000,
    thin: ThinPolicy | None = None,
    trust_pickle: bool = False,
    skip_uncovered: bool = False,
    embeddings=None,
) -> Results:
    """Run measures on subjects and return every score.

    Parameters
    ----------
    subjects : str, path, Embedding, EmbeddingLike, subject or a list of them
        What is scored: built-in names (``"glove-6b-50d"``), vector files, subject specs
        (``"chat:MODEL"``, ``"people"``), loaded embeddings, or any object with ``name``,
        ``words`` and ``vectors``. Default: ``"glove-6b-50d"``.
    measures : str or list of str, optional
        Measure names (:func:`wordgames.list_measures`); default: every built-in measure.
    datasets : list of str, optional
        Restrict the measures to these declared data sets.
    options : dict, optional
        ``{measure name: {option: value}}`` (or the measure's options dataclass).
    seed, quick : int, bool
        Base seed of every random choice; smaller settings for a smoke run.
    vocabulary : VocabularyPolicy, optional
        Restriction applied to the embeddings (top-N, lower-case alphabetic, intersection).
    store : path or ResultStore, optional
        A results store: stored results are reused, new ones written (default: in memory).
    out_dir : path, optional
        Folder for plots (default: the store's folder; none in memory).
    executor : str or executor, optional
        ``"serial"`` (default), ``"process"``, ``"ray"`` or an executor object of
        :mod:`wordgames.executors`; the last two need a store.
    data_root : path, optional
        Data root (default: ``$WORDGAMES_DATA``).
    overwrite, dry_run : bool
        Recompute stored results; only plan (``Results.missing`` lists what would run).
    transformer_vocab : int, path or list of str, optional
        Vocabulary of ``transformer:MODEL`` embeddings.
    ci_resamples : int
        Bootstrap resamples of every confidence interval (0: none).
    thin : ThinPolicy, optional
        When a score is too thin to rank (default: coverage below 50 % or n below 30).
    trust_pickle : bool
        Load pickle-based embedding files with code execution allowed (only files you trust).
    skip_uncovered : bool
        Skip a unit whose every data set the embedding covers below the thin policy's share
        (:mod:`wordgames.precheck`, checked before anything is computed); by default such a unit
        runs and its scores come out thin. ``Results.coverage`` holds the pre-check either way.
    progress, on_plan : callable, optional
        ``progress(label, done, total)`` after each unit; ``on_plan(results)`` once the units
        are planned (``results.missing`` lists those to compute). The CLI shows both.
    embeddings : deprecated
        The old name of ``subjects`` (a ``DeprecationWarning``).

    Returns
    -------
    Results

    Examples
    --------
    >>> import wordgames
    >>> res = wordgames.evaluate("glove-6b-50d", measures=["global-metrics"])
    >>> res.to_frame().query("metric == 'rank'")["value"].tolist()
    [50.0]
    """
    from wordgames.embeddings.sets import VocabularyPolicy
    from wordgames.registry import select_measures

    t0 = time.perf_counter()
    policy = vocabulary or VocabularyPolicy()
    chosen = select_measures(measures)
    typed = resolve_options(chosen, options, datasets)
    runner = _executor(executor)
    store = _open_store(store, runner)
    embs = load_subjects(
        _subjects_arg(subjects, embeddings),
        policy,
        transformer_vocab=transformer_vocab,
        trust_pickle=trust_pickle,
    )
    settings = RunSettings(
        seed,
        quick,
        ci_resamples,
        thin or ThinPolicy(),
        policy.get_params(),
        data_root,
        out_dir or (store.root if store is not None else None),
    )
    timings = {"load_embeddings": round(time.perf_counter() - t0, 3)}
    plan = plan_units(embs, chosen, typed, store=store, settings=settings, overwrite=overwrite)
    res = Results(
        subjects=[e.describe() for e in embs],
        missing=[u.label for u in plan.missing],
        parameters=_run_parameters(
            embs, chosen, typed, runner, plan, settings, overwrite=overwrite
        ),
    )
    t = time.perf_counter()
    res.coverage = _precheck(embs, plan, typed, settings)
    # recorded in results.json with the run: the printed counts are the stored ones
    res.parameters["coverage_precheck"] = [dataclasses.asdict(c) for c in res.coverage]
    timings["coverage_precheck"] = round(time.perf_counter() - t, 3)
    uncovered = _uncovered(res.coverage, settings.thin) if skip_uncovered else {}
    if uncovered:
        plan = _without(plan, uncovered, res)
        res.missing = [u.label for u in plan.missing]
    if on_plan is not None:
        on_plan(res)
    if dry_run:
        return res
    computed = _run_units(runner, plan, embs, progress, timings)
    _collect(res, plan, computed, store, settings.thin)
    res.parameters["computed"] = sum(
        1 for o in computed.values() if o["status"] == "done" and not o.get("reused")
    )
    # a unit another run stored while this one waited for it is reused too (not "0 / 0")
    res.parameters["reused"] += sum(1 for o in computed.values() if o.get("reused"))
    timings["total"] = round(time.perf_counter() - t0, 3)
    res.timings = timings
    return res


def load_subjects(specs, policy, **kwargs) -> list:
    """The subjects of a run, in the order given: players as they are, the rest loaded.

    Embeddings load by :func:`~wordgames.embeddings.sets.load_embeddings`, with the policy.

    A player (:mod:`wordgames.subjects`) keeps its own vocabulary: the policy does not apply.
    """
    from wordgames.embeddings.sets import load_embeddings, spec_list
    from wordgames.subjects import People, from_spec, is_loaded, is_player

    given = [  # "prefix:rest" of a plug-in's subject kind; "people": the human ceiling
        People() if s == "people" else from_spec(s) or s for s in spec_list(specs)
    ]
    embs = iter(load_embeddings([s for s in given if not is_loaded(s)], policy, **kwargs))
    out = [s if is_loaded(s) else next(embs) for s in given]
    names = [s.name for s in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise WordgamesError(f"two subjects are called {dup[0]!r}: give each its own name")
    for s in out:  # a model server that cannot be reached fails now, before any work
        check = getattr(s, "check", None)
        if callable(check) and is_player(s):
            check()
    return out


def _precheck(embs, plan: Plan, typed: dict, settings: RunSettings) -> list:
    """The coverage pre-check of every unit to compute (:mod:`wordgames.precheck`)."""
    from wordgames.precheck import coverage_of
    from wordgames.subjects import is_loaded

    by_sha = {e.fingerprint(): e for e in embs}
    out = []
    for u in plan.missing:
        emb = by_sha.get(u.embedding.sha256)
        if emb is not None and not is_loaded(emb):  # a player's vocabulary is open
            out += coverage_of(emb, u.measure, typed[u.measure.name], settings.data_root)
    return out


def _uncovered(coverage: list, thin: ThinPolicy) -> dict:
    """``{(embedding, measure): reason}`` of the units every data set of which is thin."""
    groups: dict = {}
    for c in coverage:
        groups.setdefault((c.subject, c.measure), []).append(c)
    return {
        key: "coverage below {:.0%} on every data set ({})".format(
            thin.min_coverage, "; ".join(f"{c.dataset}: {c.known:,} of {c.total:,}" for c in rows)
        )
        for key, rows in groups.items()
        if all(c.share < thin.min_coverage for c in rows)
    }


def _without(plan: Plan, uncovered: dict, res: Results) -> Plan:
    """``plan`` less the uncovered units, each recorded as skipped with its reason."""
    keep = []
    for u in plan.missing:
        why = uncovered.get((u.embedding.name, u.measure.name))
        if why is None:
            keep.append(u)
        else:
            res.skipped.append(Skip(u.embedding.name, u.measure.name, f"not run: {why}"))
    dropped = {u.key for u in plan.missing} - {u.key for u in keep}
    return Plan([u for u in plan.units if u.key not in dropped], plan.stored, keep)


def _open_store(store, runner):
    """The results store (checked writable before any work), or ``None`` in memory."""
    from wordgames.results.store import ResultStore

    if store is not None and not isinstance(store, ResultStore):
        store = ResultStore(store)
    if runner.needs_files and store is None:
        raise WordgamesError(f"the {runner.name} executor writes results to files: give a store")
    if store is not None:
        store.check_writable()
        store.clean_temporary()
    return store


def _run_parameters(
    embs, chosen, typed, runner, plan: Plan, settings: RunSettings, *, overwrite: bool
) -> dict:
    """What the run record says about how it was run."""
    from wordgames.datasets import data_root

    root = str(data_root(settings.data_root))
    return {
        "embeddings": [e.name for e in embs],
        "measures": [m.name for m in chosen],
        "seed": settings.seed,
        "quick": settings.quick,
        "vocabulary": settings.vocabulary,
        "options": {m: options_dict(o) for m, o in typed.items()},
        "confidence_intervals": {
            "method": "percentile bootstrap",
            "confidence": 0.95,
            "resamples": settings.ci_resamples,
            "seed": settings.seed,
        },
        "thin": {"min_coverage": settings.thin.min_coverage, "min_n": settings.thin.min_n},
        "executor": runner.get_params(),
        "overwrite": overwrite,
        "units": len(plan.units),
        "reused": len(plan.units) - len(plan.missing),
        "data_root": str(Path(root).resolve()) if root else None,
    }


def _executor(executor):
    from wordgames.executors import make_executor

    if executor is None or isinstance(executor, str):
        return make_executor(executor or "serial")
    return executor


def _run_units(runner, plan: Plan, embs, progress: Progress | None, timings: dict) -> dict:
    """Compute the missing units; returns ``{key: outcome}`` (results in memory when serial)."""
    from wordgames.executors import materialize_embedding
    from wordgames.subjects import is_player

    by_sha = {e.fingerprint(): e for e in embs}
    missing = plan.missing
    players = [e.name for e in embs if is_player(e)]
    if runner.needs_files and players:
        raise WordgamesError(
            f"the {runner.name} executor runs units in other processes, which cannot reach "
            f"the player {players[0]!r}: use the serial executor"
        )
    if runner.needs_files and missing:
        t = time.perf_counter()
        try:
            needed = {u.embedding.sha256 for u in missing}
            needed |= {u.partner.sha256 for u in missing if u.partner is not None}
            refs = {sha: materialize_embedding(e) for sha, e in by_sha.items() if sha in needed}
        except OSError as exc:  # before any unit runs: workers read the embeddings from there
            raise WordgamesError(
                f"the {runner.name} executor needs a writable embedding cache: cannot write "
                f"{exc.filename or 'the cache'} ({exc.strerror or exc}); set WORDGAMES_CACHE "
                "to a writable folder, or use the serial executor"
            ) from None
        missing = [
            _with_folder(u, refs[u.embedding.sha256], refs[u.partner.sha256] if u.partner else None)
            for u in missing
        ]
        timings["materialize_embeddings"] = round(time.perf_counter() - t, 3)
    outcomes = {}
    try:
        for i, outcome in enumerate(runner.run(missing, by_sha), 1):
            outcomes[outcome["key"]] = outcome
            label = outcome["label"].replace(": ", "/")
            timings[label] = round(outcome["seconds"], 3)
            if "cpu_seconds" in outcome:  # what a bench reads: the unit's CPU and the peak so far
                timings[f"{label}/cpu"] = round(outcome["cpu_seconds"], 3)
                timings[f"{label}/peak_rss_mb"] = round(outcome["peak_rss_mb"], 1)
            if progress is not None:
                progress(outcome["label"], i, len(missing))
    finally:
        runner.close()
    return outcomes


def _with_folder(unit, ref, partner_ref=None):
    from dataclasses import replace

    unit = replace(unit, embedding=replace(unit.embedding, folder=ref.folder))
    if partner_ref is not None:
        unit = replace(unit, partner=replace(unit.partner, folder=partner_ref.folder))
    return unit


def _collect(res: Results, plan: Plan, outcomes: dict, store, thin: ThinPolicy) -> None:
    """Results in the units' order: computed ones from memory, the rest from the store."""
    from wordgames.measure import MeasureResult

    for u in plan.units:
        o = outcomes.get(u.key)
        if o is not None and o["status"] != "done":
            res.skipped.append(
                Skip(
                    u.embedding.name,
                    u.measure.name,
                    o["reason"],
                    failed=o["status"] == "failed",
                    error=o.get("error", ""),
                )
            )
            continue
        if o is not None and o.get("result") is not None:
            r = o["result"]
        else:
            entry = store.get(u.key) if store is not None else None
            if entry is None:
                res.skipped.append(
                    Skip(
                        u.embedding.name,
                        u.measure.name,
                        "result missing from the store after the run",
                        failed=True,
                    )
                )
                continue
            r = MeasureResult.from_dict(entry["result"], pairs=u.measure.pairs)
        if r.subject != u.embedding.name:  # a stored twin computed under another name
            r = r.renamed(u.embedding.name)
        if u.partner is not None:  # a pair's partner is named as this run names it
            r.set_partner(u.partner.name)
        for sc in r.scores:  # this run's policy, also for results stored under another one
            sc.thin, sc.thin_reason = is_thin(sc, thin)
        res.results.append(r)
        if r.usage and o is not None and o["status"] == "done" and not o.get("reused"):
            _add_usage(res, u.embedding.name, r.usage)  # what this run asked of a model


def _add_usage(res: Results, subject: str, usage: dict) -> None:
    """Sum a unit's model usage into ``res.parameters["usage"][subject]`` (this run's)."""
    mine = res.parameters.setdefault("usage", {}).setdefault(subject, {})
    for k, v in usage.items():
        if isinstance(v, int | float):
            mine[k] = mine.get(k, 0) + v
