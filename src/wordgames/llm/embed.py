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

    Returns
    -------
    Embedding
        Named ``embed:MODEL``; ``source`` names the model and server; ``usage_at_load`` the
        requests, cache hits and tokens of the encoding.
    """
    from wordgames.embeddings import Embedding
    from wordgames.embeddings.transformer import resolve_vocabulary
    from wordgames.llm.cache import ResponseCache, request_key
    from wordgames.llm.client import ChatClient

    base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or "").rstrip("/")
    if not base_url:
        raise WordgamesError(f"embed:{model}: no server: give --base-url or set OPENAI_BASE_URL")
    words = resolve_vocabulary(vocab)
    client = ChatClient(
        model,
        base_url,
        os.environ.get(api_key_env) or "no-key",
        timeout=timeout,
        max_retries=max_retries,
        cache=ResponseCache(cache_path) if cache_path else None,
    )
    reported = client.check()
    keys = [request_key(reported, {"embedding_of": w}, "embed-1") for w in words]
    vectors: list = [None] * len(words)
    todo = []
    for i, k in enumerate(keys):
        hit = client.cache.get(k)
        if hit is None:
            todo.append(i)
        else:
            vectors[i] = hit["vector"]
            client.usage.cache_hits += 1
    for lo in range(0, len(todo), batch_size):
        part = todo[lo : lo + batch_size]
        got = _encode(client, [words[i] for i in part])
        for i, vec in zip(part, got, strict=True):
            vectors[i] = vec
            client.cache.put(keys[i], reported, {"embedding_of": words[i]}, {"vector": vec}, 0, 0)
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim != 2 or not np.isfinite(matrix).all():
        raise WordgamesError(f"embed:{model}: the server at {base_url} sent malformed vectors")
    emb = Embedding(
        words,
        matrix,
        name=name or f"embed:{model}",
        source=f"embed:{reported} at {base_url}",
    )
    emb.load_report.format = "embeddings service"
    emb.load_report.n_rows_read = len(words)
    emb.usage_at_load = client.usage.as_dict()  # requests, cache hits, tokens of the encoding
    return emb


def _encode(client, texts: list[str]) -> list[list[float]]:
    """One ``/v1/embeddings`` request (the client's retries and back-off), in input order."""
    import openai

    from wordgames.llm.client import ServerError

    with client._lock:
        client.usage.requests += 1
    try:
        reply = client._openai().embeddings.create(model=client.model, input=texts)
    except (openai.APIStatusError, openai.APIConnectionError) as exc:
        raise ServerError(f"the embeddings server at {client.base_url} failed ({exc})") from None
    data = sorted(reply.data, key=lambda d: d.index)
    if len(data) != len(texts):
        raise ServerError(
            f"the embeddings server at {client.base_url} sent {len(data)} vectors for "
            f"{len(texts)} words"
        )
    tokens = getattr(reply.usage, "prompt_tokens", 0) or 0
    with client._lock:
        client.usage.tokens_in += tokens
    return [_pooled(d.embedding) for d in data]


def _pooled(embedding) -> list[float]:
    """One vector: a server without pooling (llama.cpp's) sends one per token: their mean.

    >>> _pooled([1.0, 2.0]), _pooled([[1.0, 2.0], [3.0, 4.0]])
    ([1.0, 2.0], [2.0, 3.0])
    """
    arr = np.asarray(embedding, dtype=np.float64)
    if arr.ndim == 2:
        arr = arr.mean(axis=0)
    if arr.ndim != 1:
        raise WordgamesError(f"an embedding of shape {arr.shape}: expected a vector")
    return arr.tolist()


def from_spec(rest: str, **kwargs):
    """The embedding of an ``"embed:MODEL"`` string (``rest`` is ``MODEL``)."""
    if not rest:
        raise WordgamesError("embed: needs a model name, e.g. embed:text-embedding-3-small")
    return embed_embedding(rest, **kwargs)
