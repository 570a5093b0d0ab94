"""Word embeddings: one :class:`Embedding` type, loaders and vocabulary restriction."""

from wordgames.embeddings.core import Embedding, LoadReport, Lookup
from wordgames.embeddings.loaders import (
    BUILTIN,
    DEFAULT_EMBEDDING,
    from_gensim,
    load_builtin,
)
from wordgames.embeddings.sets import (
    EmbeddingLike,
    VocabularyPolicy,
    load_embedding,
    load_embeddings,
)
from wordgames.embeddings.vocab import intersect_vocabularies, lower_alpha_mask, restrict

__all__ = [
    "BUILTIN",
    "DEFAULT_EMBEDDING",
    "Embedding",
    "EmbeddingLike",
    "LoadReport",
    "VocabularyPolicy",
    "Lookup",
    "from_gensim",
    "intersect_vocabularies",
    "load_builtin",
    "load_embedding",
    "load_embeddings",
    "lower_alpha_mask",
    "restrict",
]
