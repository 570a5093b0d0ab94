"""A Ray cluster of several nodes on this machine, on loopback only (for the tests and benches).

:func:`local_cluster` starts a head and ``n_nodes - 1`` worker nodes with ``ray start``, each its
own process group with its own temporary folder, ``$WORDGAMES_CACHE`` and no
``$WORDGAMES_DATA`` (so nothing is shared through the filesystem but what Ray itself moves), all
listening on 127.0.0.1 only, with a token of its own (Ray's token authentication). It yields a
:class:`LocalCluster` (its address, the nodes' process ids, :meth:`LocalCluster.kill_node`) and
stops every node by its process group when done.

Ray rewrites a loopback address to the machine's own IP (it assumes a cluster spans machines):
the head is started with ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` (then its node IP is
127.0.0.1 and its servers listen there only), and each worker node by a small launcher that
keeps the loopback address it is given (:data:`NODE_LAUNCHER`). The driver that connects must
not rewrite it either: :func:`driver_env` is the environment it needs (set before ``ray`` is
imported).
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

#: ``ray start`` for a worker node that keeps its loopback address (run with ``python -c``)
NODE_LAUNCHER = (
    "import sys\n"
    "import ray._private.services as services\n"
    "services.resolve_ip_for_localhost = lambda host: host  # stay on loopback\n"
    "from ray.scripts.scripts import main\n"
    "sys.argv = ['ray', 'start', *sys.argv[1:]]\n"
    "main()\n"
)


@dataclass
class LocalCluster:
    """A running loopback cluster: ``address`` (``127.0.0.1:PORT``), nodes' process ids."""

    address: str
    token: str
    root: Path
    pids: list[int] = field(default_factory=list)  # process group leaders: head first

    def driver_env(self) -> dict[str, str]:
        """What a driver process needs in its environment to join on loopback."""
        return driver_env(self.token)

    def kill_node(self, i: int) -> None:
        """Kill worker node ``i`` (1-based; 0 is the head) and all its processes at once."""
        _kill_group(self.pids[i], signal.SIGKILL)

    def node_folders(self, i: int) -> dict[str, Path]:
        base = self.root / f"node{i}"
        return {"tmp": base / "tmp", "cache": base / "cache"}


def driver_env(token: str) -> dict[str, str]:
    """The environment of a driver (or node) of a loopback cluster with ``token``."""
    return {
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": token,
        "RAY_USAGE_STATS_ENABLED": "0",
        "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",  # a loopback address stays loopback
    }


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _own_ports() -> list[str]:
    """Ports of a node's agents: fixed by default (52365...), so two nodes on one IP collide."""
    names = ("dashboard-agent-listen-port", "dashboard-agent-grpc-port", "metrics-export-port",
             "runtime-env-agent-port")  # fmt: skip
    ports: set[int] = set()
    while len(ports) < len(names):  # distinct, and none another node was given
        port = free_port()
        if port not in _GIVEN:
            ports.add(port)
    _GIVEN.update(ports)
    return [f"--{n}={p}" for n, p in zip(names, sorted(ports), strict=True)]


_GIVEN: set[int] = set()


def _kill_group(pid: int, sig) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _node_env(cluster: LocalCluster, i: int, head: bool) -> dict[str, str]:
    folders = cluster.node_folders(i)
    for f in folders.values():
        f.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "WORDGAMES_DATA"}
    env.update(driver_env(cluster.token))
    env.update(WORDGAMES_CACHE=str(folders["cache"]), TMPDIR=str(folders["tmp"]))
    if not head:  # a worker node must be allowed to join (the launcher keeps loopback)
        env["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "1"
    return env


def _start(cmd: list[str], env: dict, log: Path) -> int:
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    return proc.pid


def _wait_port(port: int, timeout: float) -> None:
    """Until the head's GCS accepts connections on 127.0.0.1:``port``."""
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            s.settimeout(1.0)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise RuntimeError(f"the Ray head did not listen on 127.0.0.1:{port} in {timeout:.0f} s")


def _wait_nodes(cluster: LocalCluster, n: int, timeout: float) -> None:
    """Until ``n`` nodes are alive (asked by one child process: this one stays Ray-free)."""
    code = (
        "import time, ray\n"
        f"ray.init(address={cluster.address!r}, logging_level='ERROR')\n"
        f"end = time.monotonic() + {timeout}\n"
        "alive = 0\n"
        "while time.monotonic() < end:\n"
        "    alive = sum(1 for x in ray.nodes() if x['Alive'])\n"
        f"    if alive >= {n}:\n"
        "        break\n"
        "    time.sleep(0.5)\n"
        "print(alive)\n"
    )
    env = {**os.environ, **cluster.driver_env()}
    r = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout + 60
    )
    lines = r.stdout.strip().splitlines()
    alive = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    if alive < n:
        raise RuntimeError(
            f"only {alive} of {n} Ray nodes came up in {timeout:.0f} s (logs: {cluster.root}); "
            + r.stderr[-300:]
        )


def _add_node(cluster: LocalCluster, i: int, common: list[str], timeout: float) -> None:
    """Start worker node ``i`` and wait until it has joined (a second try if it does not)."""
    log = cluster.root / f"node{i}.log"
    for attempt in (1, 2):
        cmd = [sys.executable, "-c", NODE_LAUNCHER, f"--address={cluster.address}", *common,
               *_own_ports()]  # fmt: skip
        pid = _start(cmd, _node_env(cluster, i, False), log.with_suffix(f".{attempt}.log"))
        try:
            _wait_nodes(cluster, i + 1, timeout / 2)
        except RuntimeError:
            _kill_group(pid, signal.SIGKILL)
            if attempt == 2:
                raise
            continue
        cluster.pids.append(pid)
        return


@contextmanager
def local_cluster(
    n_nodes: int = 2, *, cpus_per_node: int = 1, root: str | Path | None = None, timeout=180.0
) -> Iterator[LocalCluster]:
    """A cluster of ``n_nodes`` Ray nodes on 127.0.0.1 (a head and ``n_nodes - 1`` workers).

    Parameters
    ----------
    n_nodes : int
        Nodes, the head included (at least 1).
    cpus_per_node : int
        CPUs each node offers (units run one per CPU).
    root : path, optional
        Where the nodes' folders go (default: a new temporary folder, removed afterwards).
    timeout : float
        Seconds to wait for every node to join.
    """
    if n_nodes < 1:
        raise ValueError(f"n_nodes must be at least 1, got {n_nodes}")
    owned = root is None
    base = Path(tempfile.mkdtemp(prefix="wg-ray-")) if owned else Path(root)
    port = free_port()
    cluster = LocalCluster(f"127.0.0.1:{port}", secrets.token_hex(16), base)
    ray_cli = str(Path(sys.executable).with_name("ray"))
    common = ["--node-ip-address=127.0.0.1", f"--num-cpus={cpus_per_node}", "--block",
              "--disable-usage-stats"]  # fmt: skip
    try:
        head = [ray_cli, "start", "--head", f"--port={port}", "--include-dashboard=false",
                f"--temp-dir={base / 'ray'}", *common, *_own_ports()]  # fmt: skip
        cluster.pids.append(_start(head, _node_env(cluster, 0, True), base / "node0.log"))
        _wait_port(port, timeout)
        for i in range(1, n_nodes):  # one at a time: nodes starting together time out here
            _add_node(cluster, i, common, timeout)
        yield cluster
    finally:
        for pid in reversed(cluster.pids):
            _kill_group(pid, signal.SIGTERM)
        time.sleep(1.0)
        for pid in reversed(cluster.pids):
            _kill_group(pid, signal.SIGKILL)
        if owned:
            import shutil

            shutil.rmtree(base, ignore_errors=True)


def listening_addresses(pids) -> set[str]:
    """The local addresses the processes of these process groups listen on (``ss -tlnp``)."""
    import re

    groups = {int(p) for p in pids}
    out = subprocess.run(["ss", "-tlnpH"], capture_output=True, text=True).stdout
    addrs = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        for pid in map(int, re.findall(r"pid=(\d+)", line)):
            try:
                if os.getpgid(pid) in groups:
                    addrs.add(parts[3].rsplit(":", 1)[0])
            except ProcessLookupError:
                continue
    return addrs
