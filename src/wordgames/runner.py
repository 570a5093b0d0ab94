"""``wordgames run``: load each embedding once, run every selected measure, write results."""

from __future__ import annotations

import time
from pathlib import Path

from wordgames.results import RunRecord, write_json_atomic
from wordgames.results.store import ResultKey, ResultStore, params_hash
from wordgames.suite import SuiteContext, run_measure, selected_measures


def load_embeddings(specs, *, top_n=None, intersect=False, log=print):
    from wordgames.embeddings import intersect_vocabularies, load_embedding

    embs = []
    for spec in specs:
        t = time.perf_counter()
        emb = load_embedding(spec)
        if top_n:
            emb = emb.restrict(top_n=top_n)
        log(f"loaded {emb.name}: {len(emb):,} words x {emb.dim} in {time.perf_counter() - t:.2f} s")
        embs.append(emb)
    if intersect and len(embs) > 1:
        embs = intersect_vocabularies(embs)
        log(f"restricted to the shared vocabulary: {len(embs[0]):,} words")
    return embs


def measure_params(spec, ctx: SuiteContext) -> dict:
    """The parameters that decide a measure's numbers: part of its key in the results store.

    Options named after the measure (``cbm``, ``cbm_logs``...) belong to it; input files among
    them are identified by content (sha256), so an edited log is not mistaken for a stored one.
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
    return {"seed": ctx.seed, "quick": ctx.quick, "options": own}


def run_main(specs, *, out: Path, measures=None, data_root=None, seed=0, quick=False, top_n=None,
             intersect=False, options=None, overwrite=False):
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    console = Console()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    embs = load_embeddings(specs, top_n=top_n, intersect=intersect, log=console.print)
    chosen = selected_measures(measures)
    ctx = SuiteContext(out_dir=out, data_root=Path(data_root) if data_root else None, seed=seed,
                       quick=quick, options=options or {}, log=console.print)
    store = ResultStore(out)
    results, skipped, timings = [], [], {"load_embeddings": round(time.perf_counter() - t0, 3)}
    reused = 0
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=console, transient=True) as progress:
        task = progress.add_task("measures", total=len(embs) * len(chosen))
        for emb in embs:
            for spec in chosen:
                progress.update(task, description=f"{emb.name}: {spec.name}")
                params = measure_params(spec, ctx)
                key = ResultKey(emb.fingerprint(), spec.name, spec.version, params_hash(params))
                stored = None if overwrite else store.get(key)
                if stored is not None:
                    res, reason, secs = stored["result"], None, 0.0
                    reused += 1
                else:
                    res, reason, secs = run_measure(spec, emb, ctx)
                timings[f"{emb.name}/{spec.name}"] = round(secs, 3)
                if res is None:
                    skipped.append({"embedding": emb.name, "measure": spec.name, "reason": reason})
                else:
                    res["embedding"] = emb.name
                    if stored is None:
                        store.put(key, res, embedding=emb.describe(), params=params)
                    results.append(res)
                progress.advance(task)
    timings["total"] = round(time.perf_counter() - t0, 3)
    record = RunRecord(
        embeddings=[e.describe() for e in embs],
        results=results,
        skipped=skipped,
        parameters={"embeddings": list(map(str, specs)), "measures": [m.name for m in chosen],
                    "seed": seed, "quick": quick, "top_n": top_n, "intersect": intersect,
                    "overwrite": overwrite,
                    "data_root": str(ctx.data_root) if ctx.data_root else None},
        timings=timings,
    )
    path = write_json_atomic(out / "results.json", record.as_dict())

    table = Table(title="wordgames results", show_lines=False)
    for col in ("embedding", "measure", "metric", "value"):
        table.add_column(col)
    for res in results:
        for key, value in res["metrics"].items():
            shown = f"{value:.4g}" if isinstance(value, float) else str(value)
            table.add_row(res["embedding"], res["measure"], key, shown)
    console.print(table)
    for s in skipped:
        console.print(f"[yellow]skipped[/] {s['measure']} for {s['embedding']}: {s['reason']}")
    if reused:
        console.print(f"{reused} result(s) reused from the store in {out} (use --overwrite to recompute)")
    console.print(f"results: {path}  ({timings['total']:.1f} s)")
    return record
