"""Word2vec (skip-gram, CBOW) and fastText trained here with gensim on offline text.

The corpus is WordNet 3.0's glosses and example sentences, each synset one sentence led by its
lemmas (:func:`wordgames.embeddings.wordnet_lex.corpus_sentences`: 117,659 sentences,
1,759,553 tokens), the largest English text every install has (Debian's ``wordnet-base``).
Training uses one worker thread and a fixed seed, so two runs give bit-identical vectors (gensim
seeds its initial vectors from ``numpy.random.default_rng(seed)``; more threads would make the
order of the updates, and so the result, depend on scheduling).

Hyper-parameters are gensim's defaults (Mikolov et al. 2013; Bojanowski et al. 2017: 100
dimensions, window 5, 5 negative samples, sub-sampling 1e-3, character n-grams 3-6 for
fastText) except ``epochs = 10`` and ``min_count = 3``, chosen for a corpus of 1.8 million
tokens. Needs the ``gensim`` extra.
"""

from __future__ import annotations

import numpy as np

from wordgames.errors import require

#: the settings of each trained embedding (passed to gensim as they are)
TRAIN_DEFAULTS = {"vector_size": 100, "window": 5, "min_count": 3, "epochs": 10, "negative": 5}
ALGORITHMS = ("word2vec-sg", "word2vec-cbow", "fasttext")


def train(
    sentences: list[list[str]], algorithm: str, *, seed: int = 0, **params
) -> tuple[list[str], np.ndarray]:
    """Train one model on ``sentences`` and return its words (by frequency) and vectors.

    Parameters
    ----------
    sentences : token lists
    algorithm : ``"word2vec-sg"``, ``"word2vec-cbow"`` or ``"fasttext"`` (CBOW with n-grams,
        gensim's default for fastText)
    seed : gensim's ``seed``; with one worker thread the result is bit-identical per seed
    params : overrides of :data:`TRAIN_DEFAULTS`

    Returns
    -------
    tuple
        ``(words, vectors)``, float32 vectors of the in-vocabulary words.

    Examples
    --------
    >>> words, vecs = train([["a", "b", "c"]] * 20, "word2vec-sg", min_count=1, vector_size=4)
    >>> sorted(words), vecs.shape
    (['a', 'b', 'c'], (3, 4))
    """
    models = require("gensim.models", "gensim", "Training word2vec and fastText here")
    if algorithm not in ALGORITHMS:
        from wordgames.errors import WordgamesError

        raise WordgamesError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
    settings = {**TRAIN_DEFAULTS, **params, "seed": int(seed), "workers": 1}
    if algorithm == "fasttext":
        model = models.FastText(sentences=sentences, sg=0, **settings)
    else:
        sg = 1 if algorithm == "word2vec-sg" else 0
        model = models.Word2Vec(sentences=sentences, sg=sg, **settings)
    kv = model.wv
    return list(kv.index_to_key), np.asarray(kv.vectors, dtype=np.float32).copy()
