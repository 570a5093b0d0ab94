"""Read a results folder: every stored result with its Score rows, the run record, the skips.

A folder written by ``wordgames run --out DIR`` (or ``wordgames.evaluate(..., store=DIR)``)
holds the results store (``DIR/records/<emb>/<measure>/<version>-<params>.json``), the last
run's record (``DIR/results.json``) and plots (``DIR/plots/<embedding>/<measure>/*.png``). The
report is built from the **store**, so results of several runs merged into one folder show
together; a folder with no store (a copied ``results.json``) falls back to the ``results`` list
of ``results.json``.

Every result is read as typed :class:`~wordgames.measure.Score` rows (``result["scores"]``).
Store entries and run records of an older schema (before typed scores) are ignored with a
note: their flat metric names are never guessed apart. Every measure, a plug-in's too, gives
its numbers as Score rows (:func:`result_scores`).

When the store holds several results for one (embedding, measure) -- another version of the
measure or other parameters, e.g. a ``--quick`` run and a full run -- all of them are kept in
the long table, and the leaderboard uses one: the non-quick one if there is one, then the
most recently written. :attr:`Collection.notes` says so.

**Thin scores**: a Score row's ``thin`` flag (set when it was computed) is kept; rows of a store
written before the flag existed are judged here by the same rule,
:func:`wordgames.measure.is_thin` (the last run's policy, else coverage below 50 % or n below
30), with the coverage ``n / (n + n_skipped)``.

**Plots** are read only from inside the results folder (:func:`resolve_plot`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from wordgames.errors import DataFormatError, WordgamesError
from wordgames.measure import Measure, MeasureResult, Score, ThinPolicy
from wordgames.results import SCHEMA_VERSION
from wordgames.results.rows import (  # noqa: F401 - re-exported: the report's names
    embedding_labels,
    result_scores,
    stamp_thin,
)


@cache
def _builtin_spec(name: str) -> Measure | None:
    from wordgames.registry import builtin_measures

    return next((m for m in builtin_measures() if m.name == name), None)


def measure_spec(name: str) -> Measure | None:
    """The registry's declaration of measure ``name``, or ``None`` for a measure it does not know.

    Such a measure is a plug-in that is not configured here: its stored Score rows carry their
    directions.
    """
    spec = _builtin_spec(name)
    if spec is not None:
        return spec
    from wordgames.registry import extra_measures

    try:
        return next((m for m in extra_measures() if m.name == name), None)
    except WordgamesError:  # a malformed $WORDGAMES_EXTRA_MEASURES does not stop a report
        return None


@dataclass
class Entry:
    """One measure's result on one embedding, with where it came from.

    ``label`` is the embedding's display name: its ``name``, with the first 8 hex digits of its
    sha256 appended when two different embeddings share a name. ``scores`` are the result's
    Score rows under that label (:func:`result_scores`).
    """

    embedding: dict  # Embedding.describe(): name, source, n_words, dim, sha256...
    measure: str
    version: str
    params: dict
    params_sha256: str
    result: dict  # MeasureResult.as_dict()
    source: str  # file it was read from
    written: float = 0.0  # modification time (newest wins among variants)
    label: str = ""
    selected: bool = True
    scores: list[Score] = field(default_factory=list)

    @property
    def sha256(self) -> str:
        return str(self.embedding.get("sha256") or "")

    @property
    def variant(self) -> str:
        return f"{self.version}-{self.params_sha256[:8]}" if self.params_sha256 else self.version

    @property
    def partner(self) -> str:
        """The sha256 of a measure-of-pairs' second subject (``""`` for other measures)."""
        return str(self.params.get("partner") or "")

    @property
    def setting(self) -> str:
        """The variant less the partner: entries of one pair measure run alike share it."""
        if not self.partner:
            return self.variant
        from wordgames.results.store import params_hash

        rest = {k: v for k, v in self.params.items() if k != "partner"}
        return f"{self.version}-{params_hash(rest)[:8]}"

    @property
    def quick(self) -> bool:
        return bool(self.params.get("quick", self.result.get("parameters", {}).get("quick", False)))

    def value(self, dataset: str, agent: str, metric: str) -> Score | None:
        """The Score row of (dataset, agent, metric), or ``None``.

        ``agent`` may be a shared column's label (:func:`column_agent`).
        """
        return next(
            (
                s
                for s in self.scores
                if (s.dataset, s.metric) == (dataset, metric) and agent in (s.agent, column_of(s))
            ),
            None,
        )


@dataclass
class Collection:
    """Everything the report shows, read from one results folder."""

    root: Path
    entries: list[Entry]
    run: dict | None = None  # results.json (RunRecord) when present
    skipped: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    from_store: bool = True
    #: paired comparisons already made (the report builds its leaderboard more than once)
    paired: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def selected(self) -> list[Entry]:
        return [e for e in self.entries if e.selected]

    def embeddings(self) -> list[dict]:
        """One description per embedding label (with ``label``), in first-seen order."""
        # the last run's order first (the order the user gave), then the store's
        seen: dict[str, dict] = {}
        stored = {e.label: e.embedding for e in self.entries}
        for d in (self.run or {}).get("embeddings", []):
            label = _label_for(d, self.entries)
            if label and label not in seen:
                seen[label] = {**d, **stored.get(label, {}), "label": label}
        for e in self.entries:
            seen.setdefault(e.label, {**e.embedding, "label": e.label})
        return list(seen.values())

    def labels(self) -> list[str]:
        return [d["label"] for d in self.embeddings()]

    def measures(self) -> list[str]:
        """Measure names in the registry's order, then any others alphabetically."""
        from wordgames.registry import builtin_measures

        have = {e.measure for e in self.entries}
        order = [m.name for m in builtin_measures() if m.name in have]
        return order + sorted(have - set(order))

    def entries_of(self, label: str, measure: str) -> list[Entry]:
        """The selected entries of one embedding and measure.

        One, or, for a measure of pairs, one per partner.
        """
        return [e for e in self.entries if e.selected and e.label == label and e.measure == measure]

    def entry(self, label: str, measure: str, key=None) -> Entry | None:
        """The selected entry of one embedding and measure.

        With ``key`` (dataset, subject, metric): the one holding that score, since a measure of
        pairs has one entry per partner.
        """
        found = self.entries_of(label, measure)
        if key is not None:
            return next((e for e in found if e.value(*key) is not None), None)
        return found[0] if found else None


def column_of(score: Score) -> str:
    """The agent level of ``score``'s leaderboard column.

    Its agent's shared column (:func:`column_agent`) or, for a row of a measure of pairs (a
    partner and no agent), the partner's name: one column per receiver, Table 1's matrix.
    """
    if score.partner and not score.agent:
        return score.partner
    return column_agent(score.measure, score.agent)


def column_agent(measure: str, agent: str) -> str:
    """The leaderboard column of ``agent`` in ``measure`` (:meth:`Measure.column_agent`)."""
    spec = _builtin_spec(measure)
    return spec.column_agent(agent) if spec is not None else agent


def _label_for(desc: dict, entries: list[Entry]) -> str | None:
    for e in entries:
        if e.sha256 and e.sha256 == desc.get("sha256"):
            return e.label
    return desc.get("name")


def _read(path: Path) -> dict:
    """A JSON object from the results folder, or a :class:`DataFormatError` naming the file."""
    if path.is_symlink():  # a folder from elsewhere may link to any file of yours
        raise DataFormatError(path, None, "a symbolic link: refused (results are plain files)")
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataFormatError(path, exc.lineno, f"not valid JSON ({exc.msg})") from exc
    except UnicodeDecodeError as exc:
        raise DataFormatError(path, None, f"not UTF-8 text ({exc.reason})") from None
    except RecursionError:
        raise DataFormatError(path, None, "JSON nested too deeply") from None
    except OSError as exc:
        raise DataFormatError(path, None, f"cannot read it ({exc.strerror or exc})") from None
    if not isinstance(d, dict):
        raise DataFormatError(path, None, "expected a JSON object")
    return d


def _check_run(run: dict, path: Path) -> None:
    """A :class:`DataFormatError` naming ``results.json`` when its parts have the wrong shape."""
    from wordgames.results.schema import check_result

    for key, kind in (("embeddings", list), ("results", list), ("skipped", list),
                      ("parameters", dict), ("timings", dict)):  # fmt: skip
        if key in run and not isinstance(run[key], kind):
            raise DataFormatError(path, None, f"'{key}' must be a JSON {kind.__name__}")
    if any(not isinstance(e, dict) for e in run.get("embeddings", ())):
        raise DataFormatError(path, None, "every entry of 'embeddings' must be a JSON object")
    bad = [s for s in run.get("skipped", ()) if not isinstance(s, dict)]
    if bad:
        raise DataFormatError(path, None, "every entry of 'skipped' must be a JSON object")
    for i, res in enumerate(run.get("results", ())):
        try:
            check_result(res)
        except ValueError as exc:
            raise DataFormatError(path, None, f"result {i + 1}: {exc}") from None


def _is_current(record: Mapping) -> bool:
    return record.get("schema_version", 1) == SCHEMA_VERSION


def _store_entries(root: Path) -> tuple[list[Entry], int]:
    """The store's entries of the current schema, and how many older ones were left out.

    Read through :meth:`~wordgames.results.store.ResultStore.read_only`, the store's one
    reader: nothing in the folder is moved or changed.
    """
    from wordgames.results.store import ResultStore

    records, old = ResultStore(root).read_only()
    entries = []
    for p, d in records:
        key = d.get("key", {})
        emb = dict(d.get("embedding") or {})
        emb.setdefault("sha256", key.get("embedding_sha256", ""))
        emb.setdefault("name", emb["sha256"][:12])
        res = d["result"]
        entries.append(
            Entry(
                embedding=emb,
                measure=key.get("measure", res.get("measure", "?")),
                version=str(key.get("version", res.get("version", ""))),
                params=d.get("params") or {},
                params_sha256=key.get("params_sha256", ""),
                result=res,
                source=str(p),
                written=p.stat().st_mtime,
            )
        )
    return entries, old


def _run_entries(run: dict, run_path: Path) -> list[Entry]:
    """The results listed in ``results.json`` (a folder without a store)."""
    by_name = {e.get("name"): e for e in run.get("embeddings", [])}
    out = []
    for res in run.get("results", []):
        name = res.get("subject", res.get("embedding"))  # its name before the three names
        emb = dict(by_name.get(name, {"name": name or "?"}))
        out.append(
            Entry(
                embedding=emb,
                measure=res.get("measure", "?"),
                version=str(res.get("version", "")),
                params={},
                params_sha256="",
                result=res,
                source=str(run_path),
                written=run_path.stat().st_mtime,
            )
        )
    return out


def _old_schema_note(n: int, where: str, root: Path) -> str:
    return (
        f"{n} result(s) in {where} were written by an older wordgames (schema before "
        f"{SCHEMA_VERSION}, no typed scores) and are ignored; recompute them with "
        f"'wordgames run --out {root}'"
    )


def load_results(root: str | Path) -> Collection:
    """Read the results folder ``root`` (see the module docstring).

    Parameters
    ----------
    root : str or Path
        A folder written by ``wordgames run --out`` or ``wordgames.evaluate(..., store=...)``.

    Returns
    -------
    Collection

    Raises
    ------
    WordgamesError
        When the folder holds neither a store nor a ``results.json``, or only results of an
        older schema.
    DataFormatError
        On a damaged JSON file.
    """
    root = Path(root)
    if not root.is_dir():
        raise WordgamesError(f"results folder {root} does not exist")
    run_path = root / "results.json"
    run = _read(run_path) if run_path.is_file() or run_path.is_symlink() else None
    if run is not None and _is_current(run):
        _check_run(run, run_path)
    entries, old = _store_entries(root)
    notes = [_old_schema_note(old, f"the store {root / 'records'}", root)] if old else []
    from_store = bool(entries)
    if not entries and run is not None:
        if _is_current(run):
            entries = _run_entries(run, run_path)
            notes.append("no results store in this folder: the report is built from results.json")
        else:
            old += len(run.get("results", []))
            notes.append(_old_schema_note(len(run.get("results", [])), str(run_path), root))
            run = None
    if not entries:
        if old:
            raise WordgamesError(f"{root} holds only results of an older wordgames: {notes[0]}")
        raise WordgamesError(
            f"{root} holds no results: expected {root / 'records'} (the store "
            f"written by 'wordgames run --out {root}') or {run_path}"
        )
    coll = Collection(root=root, entries=entries, run=run, from_store=from_store, notes=notes)
    if run is not None:
        coll.skipped = _still_skipped(run, entries)
    _label(entries)
    policy = thin_policy(run)
    judged = 0
    for e in entries:
        if _of_pairs(e) and _before_the_three_names(e.result):  # its item keys move too
            e.result = MeasureResult.from_dict(e.result, pairs=True).as_dict()
        rows = result_scores(e.result, e.measure, pairs=_of_pairs(e))
        e.scores = [replace(s, subject=e.label) for s in rows]
        judged += stamp_thin(e.result.get("scores") or (), e.scores, policy)
    if judged:
        coll.notes.append(
            f"{judged:,} score(s) were stored before wordgames marked thin scores: judged here "
            f"by the same rule (coverage below {policy.min_coverage:.0%} or n below "
            f"{policy.min_n} is thin, not ranked)"
        )
    coll.notes.extend(_select(entries))
    coll.notes.extend(_shared_column_notes(entries))
    return coll


def _before_the_three_names(result: dict) -> bool:
    """Whether a stored result's rows name ``embedding`` and ``subject`` (no ``agent``)."""
    rows = result.get("scores") or ()
    return any(isinstance(r, dict) and "agent" not in r for r in rows)


def _of_pairs(entry: Entry) -> bool:
    """Whether ``entry`` is a measure of pairs' (its declaration says, else its partner)."""
    spec = _builtin_spec(entry.measure)
    return spec.pairs if spec is not None else bool(entry.partner)


def _shared_column_notes(entries: list[Entry]) -> list[str]:
    """Say which agents' scores stand in another agent's leaderboard column."""
    notes = []
    for measure in dict.fromkeys(e.measure for e in entries):
        spec = _builtin_spec(measure)
        agents = {s.agent for e in entries if e.measure == measure for s in e.scores}
        for group in spec.shared_columns if spec is not None else ():
            moved = [g for g in group[1:] if g in agents]
            for who, what in ((
                [g for g in moved if g != "people"], "a player's own agent"),
                (["people"] if "people" in moved else [], "each held-out person by the others' "
                 "answers: the human ceiling"),
            ):  # fmt: skip
                if who:
                    notes.append(
                        f"{measure}: the scores of {', '.join(who)} ({what}) are in the "
                        f"leaderboard column of {group[0]} (an embedding's own agent in the "
                        "same role), side by side"
                    )
    return notes


def collection_of(results) -> Collection:
    """A :class:`Collection` of a :class:`~wordgames.Results` in memory (no folder needed).

    The leaderboard, the correlation table and the figures read it as they read a folder.
    """
    by_name = {d.get("name"): d for d in results.subjects}
    entries = [
        Entry(
            embedding=dict(by_name.get(r.subject, {"name": r.subject})),
            measure=r.measure,
            version=str(r.version),
            params={},
            params_sha256="",
            result=r.as_dict(),
            source="(in memory)",
        )
        for r in results.results
    ]
    run = {
        "embeddings": list(results.subjects),
        "parameters": dict(results.parameters),
        "skipped": [
            {"subject": s.subject, "measure": s.measure, "reason": s.reason}
            for s in results.skipped
        ],
    }
    coll = Collection(root=Path("."), entries=entries, run=run, from_store=False)
    coll.skipped = run["skipped"]
    _label(entries)
    for e, r in zip(entries, results.results, strict=True):
        e.scores = [replace(s, subject=e.label) for s in r.scores]
    coll.notes.extend(_select(entries))
    return coll


def thin_policy(run: Mapping | None) -> ThinPolicy:
    """The thinness policy recorded by the last run (``parameters.thin``), else the default."""
    given = ((run or {}).get("parameters") or {}).get("thin") or {}
    try:
        return ThinPolicy(
            min_coverage=float(given.get("min_coverage", ThinPolicy.min_coverage)),
            min_n=int(given.get("min_n", ThinPolicy.min_n)),
        )
    except (TypeError, ValueError):
        return ThinPolicy()


class PlotPathError(WordgamesError):
    """A stored plot path that points outside the results folder."""


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def resolve_plot(root: Path, plot: str, record: str) -> Path | None:
    """The file of a stored plot path, read only from inside the results folder ``root``.

    A relative path is taken relative to ``root``; an absolute one (stores written before
    plot paths were relative) must lie inside ``root``, or, when the folder was moved since,
    its ``plots/...`` tail is looked up under ``root``. Symbolic links are followed before the
    check.

    Returns
    -------
    Path or None
        ``None`` when the file is missing (the report lists it).

    Raises
    ------
    PlotPathError
        When the path leads outside ``root``; the message names ``record``.
    """
    base = Path(root).resolve()
    p = Path(plot)
    if not p.is_absolute():
        q = (base / p).resolve()
        if not _inside(q, base):
            raise _outside(plot, record, root)
        return q if q.is_file() else None
    q = p.resolve()
    if _inside(q, base):
        return q if q.is_file() else None
    parts = p.parts
    if "plots" in parts:  # the folder moved: the same plots/... under root
        i = len(parts) - 1 - parts[::-1].index("plots")
        moved = base.joinpath(*parts[i:]).resolve()
        if _inside(moved, base):
            return moved if moved.is_file() else None
    raise _outside(plot, record, root)


def _outside(plot: str, record: str, root: Path) -> PlotPathError:
    return PlotPathError(
        f"{record}: plot path {plot!r} lies outside the results folder {root}; the report "
        "reads plots only from inside it (move the plot under the folder's plots/ and store "
        "its relative path, or recompute with 'wordgames run --out FOLDER')"
    )


def _still_skipped(run: dict, entries: list[Entry]) -> list[dict]:
    """The last run's skipped measures, less those stored from an earlier run."""
    have = {(e.embedding.get("name"), e.measure) for e in entries}
    rows = [_skip_row(s) for s in run.get("skipped", []) if isinstance(s, dict)]
    return [s for s in rows if (s.get("subject"), s.get("measure")) not in have]


def _skip_row(s: dict) -> dict:
    """A skipped unit of ``results.json``; one written before the three names is mapped."""
    if "embedding" in s and "subject" not in s:
        s = {**s, "subject": s["embedding"]}
    return {k: v for k, v in s.items() if k != "embedding"}


def _label(entries: list[Entry]) -> None:
    pairs = [(str(e.embedding.get("name", "?")), e.sha256) for e in entries]
    labels = embedding_labels(pairs)
    for e, pair in zip(entries, pairs, strict=True):
        e.label = labels[pair]


def _select(entries: list[Entry]) -> list[str]:
    """Choose one entry per (embedding, measure) for the leaderboard; notes on the choices."""
    groups: dict[tuple[str, str, str], list[Entry]] = defaultdict(list)
    for e in entries:
        groups[(e.label, e.measure, e.partner)].append(e)
    notes = []
    for (label, measure, _), group in groups.items():
        if len(group) == 1:
            continue
        best = max(group, key=lambda e: (not e.quick, e.written))
        for e in group:
            e.selected = e is best
        notes.append(
            f"{measure} on {label}: {len(group)} stored results (variants "
            f"{', '.join(e.variant for e in group)}); the leaderboard uses {best.variant}"
            f"{' (not quick)' if not best.quick else ''}, the newest"
            f"{' non-quick' if not best.quick else ''} one"
        )
    by_measure: dict[str, set[str]] = defaultdict(set)
    for e in entries:
        if e.selected and e.params_sha256:
            by_measure[e.measure].add(e.setting)
    for measure, variants in sorted(by_measure.items()):
        if len(variants) > 1:
            notes.append(
                f"{measure}: the embeddings' results come from different settings "
                f"({', '.join(sorted(variants))}); compare them with care"
            )
    return notes
