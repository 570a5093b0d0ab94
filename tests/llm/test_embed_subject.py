"""``embed:MODEL``: an embeddings service encodes a vocabulary; the vectors play as an embedding."""

from __future__ import annotations

import numpy as np
import pytest

import wordgames
from wordgames.llm.embed import embed_embedding

pytestmark = pytest.mark.slow  # a real model server

WORDS = ["car", "automobile", "gem", "jewel", "noon", "string", "coast", "shore"]


def test_the_service_encodes_once_and_the_vectors_play(embed_server, tmp_path):
    cache = str(tmp_path / "cache.sqlite")
    before = embed_server.requests("/v1/embeddings")
    emb = embed_embedding("smollm2", base_url=embed_server.base_url, vocab=WORDS, batch_size=3,
                          cache_path=cache)  # fmt: skip
    assert emb.name == "embed:smollm2" and list(emb.words) == WORDS
    assert emb.vectors.shape[0] == len(WORDS) and np.isfinite(emb.vectors).all()
    assert embed_server.requests("/v1/embeddings") - before == 3  # 8 words, 3 a request
    assert emb.usage_at_load["requests"] == 3
    again = embed_embedding(
        "smollm2", base_url=embed_server.base_url, vocab=WORDS, cache_path=cache
    )
    assert embed_server.requests("/v1/embeddings") - before == 3  # every vector from the cache
    assert again.usage_at_load == {**again.usage_at_load, "requests": 0, "cache_hits": 8}
    np.testing.assert_array_equal(again.vectors, emb.vectors)
    assert again.fingerprint() == emb.fingerprint()  # the same content: the same store key
    # the vectors play every game an embedding plays: here the word-similarity benchmark
    res = wordgames.evaluate(emb, ["similarity"], options={"similarity": {"benchmarks": ["mc30"]}})
    row = res.result("similarity").find("spearman", "mc30")
    # car-automobile, gem-jewel, coast-shore, noon-string are MC-30 pairs; the other 26 are OOV
    assert row.n == 4 and row.n_skipped == 26
    assert -1.0 <= row.value <= 1.0
