"""Fixtures of the web-app tests: the databases (SQLite, and a throwaway PostgreSQL started from
the installed binaries on 127.0.0.1), the small study files, a running server.

A test that needs PostgreSQL or Chromium skips when the binaries are missing, except in CI
(``CI`` set), where it fails: CI must run them."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # in CI a missing 'serve' extra is an error, not a skip
    pytest.importorskip("fastapi")
    pytest.importorskip("sqlalchemy")
    pytest.importorskip("selenium")

PG_BIN = next(
    (
        Path(p)
        for p in (
            os.environ.get("WORDGAMES_PG_BIN", ""),
            *sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True),
        )
        if p and (Path(p) / "initdb").is_file()
    ),
    None,
)


def need(ok: bool, why: str) -> None:
    """Skip (or, in CI, fail) when a required tool is missing."""
    if ok:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{why} (CI must run this test: install it with scripts/install.sh)")
    pytest.skip(why)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_postgres(cmd: list[str]) -> list[str]:
    if os.geteuid() == 0:  # initdb refuses to run as root
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory):
    """A PostgreSQL server for this test session: ``postgresql://postgres@127.0.0.1:PORT``."""
    need(PG_BIN is not None, "PostgreSQL binaries not found (apt-get install postgresql)")
    import tempfile

    # not under pytest's root-only temporary folder: the server runs as 'postgres' under root
    base = Path(tempfile.mkdtemp(prefix="wordgames-pg-"))
    base.chmod(0o755)
    data, sock = base / "data", base / "sock"
    data.mkdir()
    sock.mkdir()
    if os.geteuid() == 0:
        for p in (base, data, sock):
            shutil.chown(p, "postgres", "postgres")
    res = subprocess.run(
        _as_postgres(
            [
                str(PG_BIN / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        ),
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    port = free_port()
    opts = f"-h 127.0.0.1 -p {port} -k {sock} -c fsync=off -c max_connections=200"
    subprocess.run(
        _as_postgres(
            [
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(data),
                "-o",
                opts,
                "-w",
                "-l",
                str(base / "log"),
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)


def new_pg_database(server: str) -> str:
    import psycopg

    name = "wg_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return f"{server}/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'study.db'}"
    return new_pg_database(request.getfixturevalue("pg_server"))


@pytest.fixture(scope="session")
def inputs(tmp_path_factory):
    from tests.serve.helpers import write_inputs

    return write_inputs(tmp_path_factory.mktemp("inputs"))


ADMIN = "admin-token-for-tests-0123456789"


@pytest.fixture
def app_for(inputs):
    """``app_for(db_url, slugs=None)``: a TestClient factory on a migrated database holding the
    test studies."""
    from fastapi.testclient import TestClient

    from tests.serve.helpers import study_dicts
    from wordgames.serve.app import create_app
    from wordgames.serve.config import study_from_dict
    from wordgames.serve.db import Database, migrate
    from wordgames.serve.store import init_study

    made = []

    def make(url: str, slugs=None):
        db = Database(url)
        migrate(db)
        for d in study_dicts(inputs):
            if slugs is None or d["slug"] in slugs:
                init_study(db, study_from_dict(d))
        db.dispose()
        app = create_app(url, ADMIN)
        made.append(app)
        return app, (lambda: TestClient(app, base_url="http://127.0.0.1"))

    yield make
    for app in made:
        app.state.ctx.db.dispose()


class Server:
    """``wordgames serve`` in a subprocess (127.0.0.1, a free port)."""

    def __init__(self, args: list[str], cwd: Path, env: dict | None = None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = args
        self.cwd = cwd
        self.env = {**os.environ, "WORDGAMES_ADMIN_TOKEN": ADMIN, **(env or {})}
        self.proc = None

    def start(self, timeout: float = 60) -> Server:
        import httpx

        with open(self.cwd / f"server-{self.port}.log", "ab") as log:
            self._spawn(log)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                log = (self.cwd / f"server-{self.port}.log").read_text()
                raise RuntimeError(f"server exited: {log[-3000:]}")
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def _spawn(self, log) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from wordgames.cli import main; main()",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                *self.args,
            ],
            cwd=self.cwd,
            env=self.env,
            stdout=log,
            stderr=log,
        )

    def kill9(self) -> None:
        self.proc.kill()  # SIGKILL
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
