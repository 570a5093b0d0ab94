"""``embed:MODEL``: an embeddings service (``/v1/embeddings``) as a subject.

The service encodes a vocabulary (by default the ``transformer:`` one: GloVe's 10,000 most
frequent lower-case words and every word the games on the available data ask about,
:func:`~wordgames.embeddings.transformer.default_vocabulary`) in batches; the vectors make an
:class:`~wordgames.embeddings.Embedding` that plays every game an embedding plays. Each word's
vector is cached by content (the model the server reports and the word) in the response cache's
SQLite file, so a second run sends no request; the embedding's store key is its content. A
server that sends one vector per token (llama.cpp's, which does not pool) gets their mean.
"""

from __future__ import annotations

import os

import numpy as np

from wordgames.errors import WordgamesError


def embed_embedding(
    model: str,
    *,
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    vocab=None,
    batch_size: int = 256,
    name: str | None = None,
    timeout: float = 120.0,
    max_retries: int = 4,
    cache_path: str | None = None,
    max_requests: int | None = None,
):
    """The :class:`~wordgames.embeddings.Embedding` of ``vocab`` encoded by the service.

    Parameters
    ----------
    model : the embedding model's name on the server
    base_url : the OpenAI-compatible server (default ``$OPENAI_BASE_URL``)
    api_key_env : the environment variable holding the key (never written anywhere)
    vocab : words, a number of GloVe's top words, a word-list file, or None (the default
        vocabulary with the game words)
    batch_size : words per request
    max_requests : at most this many requests are sent (``--max-requests``; None: no cap);
        past it the encoding stops with the cap named, and what was answered is cached

    Returns
    -------
    Embedding
        Named ``embed:MODEL``; ``source`` names the model and server; ``usage_at_load`` the
        requests, cache hits and tokens of the encoding.
    """
    from wordgames.embeddings import Embedding
    from wordgames.embeddings.transformer import resolve_vocabulary
    from wordgames.llm.cache import ResponseCache
    from wordgames.llm.client import ChatClient, server_url

    base_url = server_url(base_url, f"embed:{model}")
    words = resolve_vocabulary(vocab)
    client = ChatClient(
        model,
        base_url,
        os.environ.get(api_key_env) or "no-key",
        timeout=timeout,
        max_retries=max_retries,
        max_requests=max_requests,
        cache=ResponseCache(cache_path) if cache_path else None,
    )
    matrix = np.asarray(client.embed(words, batch_size), dtype=np.float32)
    if matrix.ndim != 2 or not np.isfinite(matrix).all():
        raise WordgamesError(f"embed:{model}: the server at {base_url} sent malformed vectors")
    emb = Embedding(
        words,
        matrix,
        name=name or f"embed:{model}",
        source=f"embed:{client.reported_model} at {base_url}",
    )
    emb.load_report.format = "embeddings service"
    emb.load_report.n_rows_read = len(words)
    emb.usage_at_load = client.usage.as_dict()  # requests, cache hits, tokens of the encoding
    return emb


def from_spec(rest: str, **kwargs):
    """The embedding of an ``"embed:MODEL"`` string (``rest`` is ``MODEL``)."""
    if not rest:
        raise WordgamesError("embed: needs a model name, e.g. embed:text-embedding-3-small")
    return embed_embedding(rest, **kwargs)
