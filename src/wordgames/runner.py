"""``wordgames run``: every measure on every embedding, resumable, on one machine or many.

The run is a list of work units (one embedding x one measure). Each unit is keyed in the
results store of the output folder by (embedding sha256, measure, measure version,
parameters hash); a unit whose key is stored is reused, the others are computed by an
executor (:mod:`wordgames.executors`) that writes each result atomically as soon as it is
done. A run killed at any point therefore resumes where it stopped when run again.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from wordgames.results import RunRecord, write_json_atomic
from wordgames.results.store import ResultKey, ResultStore, params_hash
from wordgames.suite import SuiteContext, selected_measures


@dataclass(frozen=True)
class VocabularyPolicy:
    """How the vocabularies are restricted before measuring (recorded with every result).

    Parameters
    ----------
    top_n : keep each embedding's ``top_n`` most frequent words (``None``: all)
    lower_alpha : keep only words made of the letters a-z
    intersect : restrict every embedding to the words all of them share (after the above)
    """

    top_n: int | None = None
    lower_alpha: bool = False
    intersect: bool = False

    def get_params(self) -> dict:
        return {"top_n": self.top_n, "lower_alpha": self.lower_alpha, "intersect": self.intersect}

    def describe(self) -> str:
        parts = ([f"top {self.top_n:,}"] if self.top_n else []) + (["lower-alpha"] if self.lower_alpha else []) \
            + (["intersection"] if self.intersect else [])
        return ", ".join(parts) or "none"


def resolve_specs(specs, *, family: bool = False) -> list[str]:
    """The embedding specs to load: those given, then (``family``) the built-in family."""
    out = [str(s) for s in (specs or [])]
    if family:
        from wordgames.embeddings.family import FAMILY_NAMES

        out += [n for n in FAMILY_NAMES if n not in out]
    return out


def load_one(spec: str, *, transformer_vocab=None):
    """Load one embedding by spec; ``transformer:MODEL`` specs take ``transformer_vocab``."""
    from wordgames.embeddings import load_embedding

    if isinstance(spec, str) and spec.startswith("transformer:") and transformer_vocab is not None:
        from wordgames.embeddings.transformer import transformer_embedding

        return transformer_embedding(spec.split(":", 1)[1], vocab=transformer_vocab)
    return load_embedding(spec)


def load_embeddings(specs, *, top_n=None, intersect=False, lower_alpha=False, transformer_vocab=None,
                    log=print):
    """Load every embedding once and apply the vocabulary policy."""
    from wordgames.embeddings import intersect_vocabularies

    embs = []
    for spec in specs:
        t = time.perf_counter()
        emb = load_one(spec, transformer_vocab=transformer_vocab)
        if top_n or lower_alpha:
            emb = emb.restrict(top_n=top_n, lower_alpha=lower_alpha)
        log(f"loaded {emb.name}: {len(emb):,} words x {emb.dim} in {time.perf_counter() - t:.2f} s")
        embs.append(emb)
    names = [e.name for e in embs]
    if len(set(names)) != len(names):
        # results are shown by name: two files with one stem would be indistinguishable
        seen: dict[str, int] = {}
        for i, e in enumerate(embs):
            seen[e.name] = seen.get(e.name, 0) + 1
            if names.count(e.name) > 1:
                embs[i] = e.with_name(f"{e.name}#{seen[e.name]}")
    if intersect and len(embs) > 1:
        embs = intersect_vocabularies(embs)
        log(f"restricted to the shared vocabulary: {len(embs[0]):,} words")
    return embs


def measure_params(spec, ctx: SuiteContext, vocabulary: dict | None = None) -> dict:
    """The parameters that decide a measure's numbers: part of its key in the results store.

    Options named after the measure (``cbm``, ``cbm_logs``...) belong to it; input files among
    them are identified by content (sha256), so an edited log is not mistaken for a stored one.
    The vocabulary policy is recorded too (the restricted embedding's sha256 is in the key).
    """
    from wordgames.datasets import sha256_file

    def by_content(value):
        if isinstance(value, list | tuple):
            return [by_content(v) for v in value]
        if isinstance(value, str | Path) and Path(value).is_file():
            return {"file": str(value), "sha256": sha256_file(value)}
        return value

    own = {k: by_content(v) for k, v in sorted(ctx.options.items())
           if k == spec.name or k.startswith(spec.name + "_")}
    params = {"seed": ctx.seed, "quick": ctx.quick, "options": own}
    if vocabulary is not None:
        params["vocabulary"] = vocabulary
    return params


def plan_units(embs, chosen, ctx: SuiteContext, store: ResultStore, *, vocabulary: dict,
               overwrite: bool = False):
    """Every (embedding, measure) unit and whether the store already holds it.

    Returns ``(units, stored)``: all units in order, and the set of indices already stored.
    """
    from wordgames.executors import EmbeddingRef, WorkUnit

    # workers (other processes, other machines) get absolute paths and the driver's data root
    data_root = ctx.data_root or os.environ.get("WORDGAMES_DATA") or None
    data_root = str(Path(data_root).resolve()) if data_root else None
    units, stored = [], set()
    for emb in embs:
        ref = EmbeddingRef(emb.name, emb.fingerprint(), emb.describe())
        for spec in chosen:
            params = measure_params(spec, ctx, vocabulary)
            key = ResultKey(ref.sha256, spec.name, spec.version, params_hash(params))
            if not overwrite and store.has(key):
                stored.add(len(units))
            units.append(WorkUnit(ref, spec, key, params, str(Path(store.root).resolve()),
                                  str(Path(ctx.out_dir).resolve()), data_root, ctx.seed,
                                  ctx.quick, dict(ctx.options)))
    return units, stored


def run_main(specs, *, out: Path, measures=None, data_root=None, seed=0, quick=False, top_n=None,
             intersect=False, lower_alpha=False, options=None, overwrite=False, only_missing=False,
             dry_run=False, executor="local", workers=1, address=None, blas_threads=None,
             transformer_vocab=None, unit_timeout_s=None, console=None):
    """Run the suite; returns the :class:`RunRecord` written to ``out/results.json``.

    Stored results are reused (resuming an interrupted run) unless ``overwrite``;
    ``only_missing`` lists the missing units before computing them; ``dry_run`` only
    counts and lists them. ``executor`` is ``"local"`` (in this process for one worker, a
    process pool for more), ``"serial"``, ``"process"`` or ``"ray"`` (``address``;
    ``unit_timeout_s`` bounds the wait for the next Ray unit).
    """
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from wordgames.executors import make_executor, materialize_embedding

    if overwrite and only_missing:
        from wordgames.errors import WordgamesError

        raise WordgamesError("--overwrite and --only-missing contradict each other: choose one")
    console = console or Console()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    policy = VocabularyPolicy(top_n=top_n, lower_alpha=lower_alpha, intersect=intersect)
    embs = load_embeddings(specs, top_n=top_n, intersect=intersect, lower_alpha=lower_alpha,
                           transformer_vocab=transformer_vocab, log=console.print)
    chosen = selected_measures(measures)
    ctx = SuiteContext(out_dir=out, data_root=Path(data_root) if data_root else None, seed=seed,
                       quick=quick, options=options or {}, log=console.print)
    store = ResultStore(out)
    timings = {"load_embeddings": round(time.perf_counter() - t0, 3)}
    units, stored = plan_units(embs, chosen, ctx, store, vocabulary=policy.get_params(),
                               overwrite=overwrite)
    missing = [u for i, u in enumerate(units) if i not in stored]
    # two specs with the same content (glove-6b-50d and glove-6b-50d-top400k) share their keys:
    # compute each key once
    seen: set = set()
    missing = [u for u in missing if not (u.key in seen or seen.add(u.key))]
    console.print(f"{len(missing)} of {len(units)} result(s) missing from the store in {out}"
                  + ("; computing them" if missing and not dry_run else ""))
    if only_missing or dry_run:
        for u in missing:
            console.print(f"  missing: {u.label}")
    if dry_run:
        return None

    runner = make_executor(executor, workers=workers, address=address, blas_threads=blas_threads,
                           timeout_s=unit_timeout_s)
    if runner.name == "serial":  # in this process: the measures' log lines as they come
        runner.log = console.print
    by_sha = {e.fingerprint(): e for e in embs}
    if runner.needs_files and missing:
        t = time.perf_counter()
        refs = {sha: materialize_embedding(e) for sha, e in by_sha.items()
                if any(u.embedding.sha256 == sha for u in missing)}
        missing = [_with_folder(u, refs[u.embedding.sha256]) for u in missing]
        timings["materialize_embeddings"] = round(time.perf_counter() - t, 3)
    outcomes: dict[tuple[str, str], dict] = {}
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(),
                      TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                      console=console, transient=True) as progress:
            task = progress.add_task("measures", total=len(missing))
            for outcome in runner.run(missing, by_sha):
                outcomes[(outcome["embedding_sha256"], outcome["measure"])] = outcome
                for line in outcome.get("log", []):
                    console.print(f"[dim]{outcome['label']}:[/] {line}", highlight=False)
                progress.update(task, description=outcome["label"])
                progress.advance(task)
    finally:
        runner.close()

    results, skipped, failed = [], [], []
    for u in units:
        o = outcomes.get((u.embedding.sha256, u.measure.name))
        timings[u.label.replace(": ", "/")] = round(o["seconds"], 3) if o else 0.0
        if o is not None and o["status"] != "done":
            row = {"embedding": u.embedding.name, "measure": u.measure.name, "reason": o["reason"]}
            (skipped if o["status"] == "skipped" else failed).append(row)
            if o["status"] == "failed":
                row["error"] = o.get("error", "")
            continue
        entry = store.get(u.key)
        if entry is None:  # pragma: no cover - a unit reported done always stored its file
            failed.append({"embedding": u.embedding.name, "measure": u.measure.name,
                           "reason": "result missing from the store after the run"})
            continue
        res = dict(entry["result"])
        res["embedding"] = u.embedding.name
        results.append(res)
    timings["total"] = round(time.perf_counter() - t0, 3)
    record = RunRecord(
        embeddings=[e.describe() for e in embs],
        results=results,
        skipped=skipped + [{**f, "failed": True} for f in failed],
        parameters={"embeddings": list(map(str, specs)), "measures": [m.name for m in chosen],
                    "seed": seed, "quick": quick, "vocabulary": policy.get_params(),
                    "top_n": top_n, "intersect": intersect, "lower_alpha": lower_alpha,
                    "overwrite": overwrite, "only_missing": only_missing,
                    "executor": runner.get_params(),
                    "units": len(units), "reused": len(units) - len(missing),
                    "computed": sum(o["status"] == "done" for o in outcomes.values()),
                    "data_root": str(ctx.data_root) if ctx.data_root else None},
        timings=timings,
    )
    path = write_json_atomic(out / "results.json", record.as_dict())
    _print_summary(console, results, skipped, failed, reused=len(units) - len(missing), out=out,
                   path=path, seconds=timings["total"], vocabulary=policy.describe())
    return record


def _with_folder(unit, ref):
    """The unit with its embedding's materialised folder (its own name and description kept)."""
    from dataclasses import replace

    return replace(unit, embedding=replace(unit.embedding, folder=ref.folder))


def _print_summary(console, results, skipped, failed, *, reused, out, path, seconds, vocabulary):
    """The headline metrics of each result with the OOV counts beside them; the rest (often
    hundreds of metrics) is in results.json and in ``wordgames report``."""
    from rich.table import Table

    from wordgames.report.leaderboard import HEADLINES, is_count, oov_companions, oov_index

    table = Table(title=f"wordgames results (vocabulary: {vocabulary})", show_lines=False)
    for col in ("embedding", "measure", "metric", "value", "OOV / skipped"):
        table.add_column(col)
    hidden = 0
    for res in results:
        metrics, heads = res["metrics"], HEADLINES.get(res["measure"])
        index = oov_index(metrics)
        for key, value in metrics.items():
            shown_here = (any(h.matches(key) for h in heads) if heads
                          else isinstance(value, int | float) and not is_count(key))
            if not shown_here:
                hidden += 1
                continue
            shown = f"{value:.4g}" if isinstance(value, float) else str(value)
            oov = oov_companions(metrics, key, measure=res["measure"], oov=res.get("oov"), index=index)
            table.add_row(res["embedding"], res["measure"], key, shown,
                          ", ".join(f"{k} {v:g}" for k, v in oov.items()))
    console.print(table)
    if hidden:
        console.print(f"{hidden} more metrics in {path}; `wordgames report {out}` shows them all")
    for s in skipped:
        console.print(f"[yellow]skipped[/] {s['measure']} for {s['embedding']}: {s['reason']}")
    for f in failed:
        console.print(f"[bold red]failed[/] {f['measure']} for {f['embedding']}: {f['reason']}\n"
                      f"{f.get('error', '')}", highlight=False)
    if reused:
        console.print(f"{reused} result(s) reused from the store in {out} (use --overwrite to recompute)")
    console.print(f"results: {path}  ({seconds:.1f} s)")
