"""A real multi-node Ray cluster on this machine, with no shared filesystem: same scores as serial.

Starts a head and N - 1 worker nodes with ``ray start`` on 127.0.0.1 only
(:func:`wordgames.ray_local.local_cluster`: each node with its own temporary folder and
``$WORDGAMES_CACHE``, none with ``$WORDGAMES_DATA``), checks with ``ss -tlnp`` that every node
listens on loopback only, runs the same units serially and on the cluster (embeddings through
Ray's object store, the data sets shipped once, results back to the driver, which alone writes
the store), and prints the wall times, their ratio, where the units ran and ``identical: True``
when every Score row is the same. ``--kill-worker`` kills worker node 1 (every process of it,
SIGKILL) once the first unit is back: Ray runs its units again elsewhere and the scores must
still be identical. The nodes are stopped by their process groups at the end.

Run::

    WORDGAMES_DATA=../shared/data python bench/bench_ray.py --nodes 3 --quick
    WORDGAMES_DATA=../shared/data python bench/bench_ray.py --nodes 3 --quick --kill-worker
    WORDGAMES_DATA=../shared/data python bench/bench_ray.py --nodes 3 --family

On a 2-core machine the cluster cannot be faster than serial (three nodes share two cores and
each unit's data crosses the object store): the figures show what it costs, and that it is right.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

QUICK_EMBEDDINGS = ["glove-6b-50d", "random-50d"]
QUICK_MEASURES = ["similarity", "oddmanout", "codenames"]


def _rows(res) -> list[tuple]:
    """Every Score row as plain values (NaN as a string, so that NaN equals NaN)."""
    out = []
    for s in res.scores:
        vals = [s.value, s.ci_low, s.ci_high]
        out.append((s.subject, s.measure, s.dataset, s.agent, s.metric, s.n, s.n_skipped,
                    *(repr(v) for v in vals)))  # fmt: skip
    return sorted(out)


def _load(args):
    from wordgames.embeddings import load_embedding
    from wordgames.embeddings.family import load_family

    return load_family() if args.family else [load_embedding(n) for n in QUICK_EMBEDDINGS]


def _kill_after_first(cluster, store: Path, done: threading.Event) -> None:
    """Kill worker node 1 as soon as the store holds a first result."""
    while not done.is_set():
        if any((store / "records").rglob("*.json")) if (store / "records").exists() else False:
            cluster.kill_node(1)
            print(f"killed worker node 1 (process group {cluster.pids[1]}) after the first result")
            return
        time.sleep(0.2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=3, help="nodes, the head included")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--quick", action="store_true", help="2 embeddings x 3 measures, quick")
    group.add_argument("--family", action="store_true", help="the --family sweep, full")
    ap.add_argument("--kill-worker", action="store_true", help="kill node 1 mid-run")
    args = ap.parse_args()
    if args.kill_worker and args.nodes < 2:
        sys.exit("--kill-worker needs --nodes 2 or more (the head stays)")
    if not os.environ.get("WORDGAMES_DATA"):
        sys.exit("set WORDGAMES_DATA (the driver's data root; the nodes get none)")

    import wordgames
    from wordgames.executors import RayExecutor
    from wordgames.ray_local import listening_addresses, local_cluster

    measures = QUICK_MEASURES if not args.family else None
    print(f"load average: {os.getloadavg()[0]:.2f}")
    embs = _load(args)
    with tempfile.TemporaryDirectory(prefix="bench-ray-") as tmp:
        tmp = Path(tmp)
        t = time.perf_counter()
        serial = wordgames.evaluate(
            embs, measures, quick=args.quick, store=tmp / "serial", executor="serial"
        )
        t_serial = time.perf_counter() - t
        t = time.perf_counter()
        with local_cluster(args.nodes, root=tmp / "nodes") as cluster:
            t_start = time.perf_counter() - t
            addrs = listening_addresses(cluster.pids)
            print(f"cluster: {args.nodes} nodes up in {t_start:.1f} s at {cluster.address}; "
                  f"listening on: {', '.join(sorted(addrs))}; loopback only: "
                  f"{bool(addrs) and addrs <= {'127.0.0.1', '[::ffff:127.0.0.1]'}}")  # fmt: skip
            os.environ.update(cluster.driver_env())  # before ray is first imported
            done = threading.Event()
            if args.kill_worker:
                threading.Thread(
                    target=_kill_after_first, args=(cluster, tmp / "ray", done), daemon=True
                ).start()
            t = time.perf_counter()
            on_ray = wordgames.evaluate(
                embs, measures, quick=args.quick, store=tmp / "ray",
                executor=RayExecutor(address=cluster.address),
            )  # fmt: skip
            t_ray = time.perf_counter() - t
            done.set()
            # a node that ran a unit wrote the shipped data into its own cache, once
            ran = [i for i in range(args.nodes)
                   if (cluster.node_folders(i)["cache"] / "ray-data").is_dir()]  # fmt: skip
        units = len(serial.results) + len(serial.skipped)
        print(f"units: {units} ({len(serial.results)} results, {len(serial.skipped)} skipped)")
        print(f"nodes that ran units: {', '.join(f'node{i}' for i in ran) or 'none'}")
        print(f"serial: {t_serial:.1f} s; ray ({args.nodes} nodes): {t_ray:.1f} s; "
              f"ray / serial: {t_ray / t_serial:.2f}")  # fmt: skip
        failed = [s for s in on_ray.skipped if s.failed]
        for s in failed:
            print(f"failed on ray: {s.subject}: {s.measure}: {s.reason}")
        same = _rows(serial) == _rows(on_ray) and not failed and len(serial.scores) > 0
        print(f"score rows: {len(serial.scores)} serial, {len(on_ray.scores)} ray")
        print(f"identical: {same}")
        print(f"load average: {os.getloadavg()[0]:.2f}")
        sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
