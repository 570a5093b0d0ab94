"""Read a results folder: every stored result, the run record, the skipped measures.

A folder written by ``wordgames run --out DIR`` holds the results store
(``DIR/records/<emb>/<measure>/<version>-<params>.json``), the last run's record
(``DIR/results.json``) and plots (``DIR/plots/<embedding>/<measure>/*.png``). The report is
built from the **store**, so results of several runs merged into one folder show together; a
folder with no store (an older layout, or a copied ``results.json``) falls back to the
``results`` list of ``results.json``.

When the store holds several results for one (embedding, measure) -- another version of the
measure or other parameters, e.g. a ``--quick`` run and a full run -- all of them are kept in
the long table, and the leaderboard uses one: the non-quick one if there is one, then the
most recently written. :attr:`Collection.notes` says so.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from wordgames.errors import DataFormatError, WordgamesError


@dataclass
class Entry:
    """One measure's result on one embedding, with where it came from.

    ``label`` is the embedding's display name: its ``name``, with the first 8 hex digits of its
    sha256 appended when two different embeddings share a name.
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

    @property
    def sha256(self) -> str:
        return str(self.embedding.get("sha256") or "")

    @property
    def variant(self) -> str:
        return f"{self.version}-{self.params_sha256[:8]}" if self.params_sha256 else self.version

    @property
    def quick(self) -> bool:
        return bool(self.params.get("quick", self.result.get("parameters", {}).get("quick", False)))


@dataclass
class Collection:
    """Everything the report shows, read from one results folder."""

    root: Path
    entries: list[Entry]
    run: dict | None = None  # results.json (RunRecord) when present
    skipped: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    from_store: bool = True

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
        """Measure names in the suite's order, then any others alphabetically."""
        from wordgames.registry import builtin_measures

        have = {e.measure for e in self.entries}
        order = [m.name for m in builtin_measures() if m.name in have]
        return order + sorted(have - set(order))

    def entry(self, label: str, measure: str) -> Entry | None:
        for e in self.entries:
            if e.selected and e.label == label and e.measure == measure:
                return e
        return None


def _label_for(desc: dict, entries: list[Entry]) -> str | None:
    for e in entries:
        if e.sha256 and e.sha256 == desc.get("sha256"):
            return e.label
    return desc.get("name")


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataFormatError(path, exc.lineno, f"not valid JSON ({exc.msg})") from exc


def load_results(root: str | Path) -> Collection:
    """Read the results folder ``root`` (see the module docstring).

    Raises :class:`~wordgames.errors.WordgamesError` when the folder holds neither a store nor a
    ``results.json``, and :class:`~wordgames.errors.DataFormatError` on a damaged JSON file.
    """
    root = Path(root)
    if not root.is_dir():
        raise WordgamesError(f"results folder {root} does not exist")
    run_path = root / "results.json"
    run = _read(run_path) if run_path.is_file() else None
    entries: list[Entry] = []
    store_files = sorted((root / "records").glob("*/*/*.json")) if (root / "records").is_dir() else []
    for p in store_files:
        d = _read(p)
        if not isinstance(d, dict) or "result" not in d:
            raise DataFormatError(p, None, "expected a store entry with 'key', 'embedding', "
                                           "'params' and 'result'")
        key = d.get("key", {})
        emb = dict(d.get("embedding") or {})
        emb.setdefault("sha256", key.get("embedding_sha256", ""))
        emb.setdefault("name", emb["sha256"][:12])
        res = d["result"]
        entries.append(Entry(embedding=emb, measure=key.get("measure", res.get("measure", "?")),
                             version=str(key.get("version", res.get("version", ""))),
                             params=d.get("params") or {}, params_sha256=key.get("params_sha256", ""),
                             result=res, source=str(p), written=p.stat().st_mtime))
    coll = Collection(root=root, entries=entries, run=run, from_store=bool(entries))
    if not entries and run is not None:
        by_name = {e.get("name"): e for e in run.get("embeddings", [])}
        for res in run.get("results", []):
            emb = dict(by_name.get(res.get("embedding"), {"name": res.get("embedding", "?")}))
            entries.append(Entry(embedding=emb, measure=res.get("measure", "?"),
                                 version=str(res.get("version", "")), params={}, params_sha256="",
                                 result=res, source=str(run_path), written=run_path.stat().st_mtime))
        coll.notes.append("no results store in this folder: the report is built from results.json")
    if not entries and run is None:
        raise WordgamesError(f"{root} holds no results: expected {root / 'records'} (the store "
                             f"written by 'wordgames run --out {root}') or {run_path}")
    if run is not None:
        coll.skipped = [s for s in run.get("skipped", []) if isinstance(s, dict)]
        # a measure skipped in the last run but stored from an earlier run is not "skipped"
        have = {(e.embedding.get("name"), e.measure) for e in entries}
        coll.skipped = [s for s in coll.skipped if (s.get("embedding"), s.get("measure")) not in have]
    _label(entries)
    coll.notes.extend(_select(entries))
    return coll


def _label(entries: list[Entry]) -> None:
    shas_by_name: dict[str, set[str]] = defaultdict(set)
    for e in entries:
        shas_by_name[e.embedding.get("name", "?")].add(e.sha256)
    for e in entries:
        name = str(e.embedding.get("name", "?"))
        e.label = f"{name} ({e.sha256[:8]})" if len(shas_by_name[name]) > 1 else name


def _select(entries: list[Entry]) -> list[str]:
    """Choose one entry per (embedding, measure) for the leaderboard; notes on the choices."""
    groups: dict[tuple[str, str], list[Entry]] = defaultdict(list)
    for e in entries:
        groups[(e.label, e.measure)].append(e)
    notes = []
    for (label, measure), group in groups.items():
        if len(group) == 1:
            continue
        best = max(group, key=lambda e: (not e.quick, e.written))
        for e in group:
            e.selected = e is best
        notes.append(f"{measure} on {label}: {len(group)} stored results (variants "
                     f"{', '.join(e.variant for e in group)}); the leaderboard uses {best.variant}"
                     f"{' (not quick)' if not best.quick else ''}, the newest"
                     f"{' non-quick' if not best.quick else ''} one")
    by_measure: dict[str, set[str]] = defaultdict(set)
    for e in entries:
        if e.selected and e.params_sha256:
            by_measure[e.measure].add(e.variant)
    for measure, variants in sorted(by_measure.items()):
        if len(variants) > 1:
            notes.append(f"{measure}: the embeddings' results come from different settings "
                         f"({', '.join(sorted(variants))}); compare them with care")
    return notes
