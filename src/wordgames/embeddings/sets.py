"""One loader for a list of embeddings and the vocabulary policy applied to them.

Every caller (:func:`wordgames.evaluate`, ``wordgames run`` and each family command) loads
embeddings here: names, paths, :class:`~wordgames.embeddings.Embedding` objects and anything
with the embedding protocol (``name``, ``words``, ``vectors``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from wordgames.embeddings.core import Embedding
from wordgames.errors import DataFormatError, WordgamesError

log = logging.getLogger("wordgames.embeddings")


@runtime_checkable
class EmbeddingLike(Protocol):
    """What :func:`load_embeddings` accepts besides names, paths and :class:`Embedding`.

    Anything with a ``name``, its ``words`` in frequency order and a ``vectors`` matrix, one
    row per word (a gensim ``KeyedVectors`` wrapped by :func:`from_gensim` is another way in).

    Examples
    --------
    >>> import numpy as np
    >>> class Mine:
    ...     name = "mine"
    ...     words = ["cat", "dog"]
    ...     vectors = np.eye(2, dtype="float32")
    >>> isinstance(Mine(), EmbeddingLike)
    True
    """

    name: str

    @property
    def words(self) -> Sequence[str]: ...

    @property
    def vectors(self): ...


@dataclass(frozen=True)
class VocabularyPolicy:
    """How the vocabularies are restricted before measuring (recorded with every result).

    Parameters
    ----------
    top_n : int or None
        Keep each embedding's ``top_n`` most frequent words (``None``: all).
    lower_alpha : bool
        Keep only words made of the letters a-z.
    intersect : bool
        Restrict every embedding to the words all of them share (after the above).

    Examples
    --------
    >>> VocabularyPolicy(top_n=10_000, intersect=True).describe()
    'top 10,000, intersection'
    """

    top_n: int | None = None
    lower_alpha: bool = False
    intersect: bool = False

    def get_params(self) -> dict:
        return {"top_n": self.top_n, "lower_alpha": self.lower_alpha, "intersect": self.intersect}

    def describe(self) -> str:
        parts = (
            ([f"top {self.top_n:,}"] if self.top_n else [])
            + (["lower-alpha"] if self.lower_alpha else [])
            + (["intersection"] if self.intersect else [])
        )
        return ", ".join(parts) or "none"


def load_embedding(
    spec: str | Path | Embedding,
    *,
    fmt: str = "auto",
    name: str | None = None,
    words_path: str | Path | None = None,
    use_cache: bool = True,
    trust_pickle: bool = False,
) -> Embedding:
    r"""Load an embedding from a built-in name or a file.

    Parameters
    ----------
    spec : a built-in name (``"glove-6b-50d"``), a member of the built-in family
        (``"glove-6b-50d-pca10"``, ``"random-50d"``...: :mod:`wordgames.embeddings.family`),
        a real embedding (``"retrofit-glove-6b-50d"``, ``"fasttext-wordnet"``...:
        :mod:`wordgames.embeddings.real`, built on first use and cached),
        ``"transformer:MODEL"`` (a vocabulary encoded by a sentence-transformers model:
        :mod:`wordgames.embeddings.transformer`), a path, or an :class:`Embedding` (returned as is)
    fmt : one of ``"auto"``, ``"word2vec"``, ``"word2vec-binary"``, ``"glove"``, ``"fasttext"``,
        ``"npy"``, ``"gensim"``
    name : name used in results (default: the built-in name or the file's stem)
    words_path : word list for ``.npy`` matrices
    use_cache : convert text/binary files once to a memory-mappable cache
    trust_pickle : allow formats that unpickle (gensim ``KeyedVectors`` through gensim itself,
        PyTorch ``.bin`` weights of a transformer model folder). By default a gensim file is
        read by a restricted unpickler that runs no code from it, and a model folder must hold
        safetensors weights; set it only for files you made or trust (CLI ``--trust-pickle``).

    Returns
    -------
    Embedding
        Its ``load_report`` says what the reader found and repaired.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.txt"  # GloVe text: no header line
    >>> _ = path.write_text("cat 1.0 0.0\ndog 0.9 0.1\n")
    >>> emb = load_embedding(path, use_cache=False)
    >>> emb.name, emb.words.tolist(), emb.dim
    ('tiny', ['cat', 'dog'], 2)
    """
    from wordgames.embeddings.loaders import (
        BUILTIN,
        FORMATS,
        detect_format,
        load_builtin,
        load_cached,
        load_gensim,
        load_npy,
        parse_text,
        parse_word2vec_binary,
    )

    if isinstance(spec, Embedding):
        return spec
    if isinstance(spec, str) and spec in BUILTIN:
        emb = load_builtin(spec)
        return emb.with_name(name) if name else emb
    if isinstance(spec, str):
        from wordgames.embeddings.family import FAMILY_NAMES, load_family_member

        if spec in FAMILY_NAMES:
            emb = load_family_member(spec)
            return emb.with_name(name) if name else emb
        from wordgames.embeddings.real import REAL_NAMES, load_real

        if spec in REAL_NAMES:
            emb = load_real(spec)
            return emb.with_name(name) if name else emb
        if spec.startswith("transformer:"):
            from wordgames.embeddings.transformer import transformer_embedding

            return transformer_embedding(
                spec.split(":", 1)[1], name=name, trust_pickle=trust_pickle
            )
        if spec.startswith("hf:"):  # a sentence-transformers model of the local hub cache
            from wordgames.embeddings.transformer import resolve_hf, transformer_embedding

            folder = resolve_hf(spec.split(":", 1)[1])
            return transformer_embedding(str(folder), name=name or spec, trust_pickle=trust_pickle)
    path = Path(spec)
    if not path.exists():
        raise WordgamesError(
            f"embedding {str(spec)!r} is neither a built-in name ({', '.join(BUILTIN)}), "
            "a member of the built-in family (see wordgames.embeddings.family.FAMILY_NAMES), "
            "a real embedding (wordgames.embeddings.real.REAL_NAMES), "
            "'transformer:MODEL', nor an existing file"
        )
    if not (path.is_file() or path.is_dir()):  # reading /dev/zero or a pipe never ends
        raise DataFormatError(
            path, None, "not a regular file (a device such as /dev/zero, a named pipe or a "
            "socket): an embedding must be a file",
        )  # fmt: skip
    if name is None and path.suffix.lower() == ".gz":
        name = Path(path.stem).stem  # vectors.txt.gz is named "vectors"
    if fmt == "auto":
        fmt = detect_format(path)
    if fmt not in FORMATS:
        raise WordgamesError(f"unknown embedding format {fmt!r}; known: {FORMATS}")
    if fmt == "npy":
        return load_npy(path, words_path, name=name)
    if fmt == "gensim":
        return load_gensim(path, name=name, trust_pickle=trust_pickle)
    if fmt == "word2vec-binary":
        return load_cached(path, fmt, parse_word2vec_binary, name, use_cache)
    return load_cached(path, fmt, lambda p: parse_text(p, fmt=fmt), name, use_cache)


def load_one(spec, *, transformer_vocab=None, trust_pickle: bool = False) -> Embedding:
    """One embedding from a name, a path, an :class:`Embedding` or an :class:`EmbeddingLike`.

    ``transformer:MODEL`` specs encode ``transformer_vocab`` (a number of GloVe's top words or
    a word-list file) when given; ``trust_pickle`` is passed to :func:`load_embedding`.
    """
    if isinstance(spec, Embedding):
        return spec
    kv = keyed_vectors(spec)
    if kv is not None:
        return kv
    if not isinstance(spec, str | Path) and isinstance(spec, EmbeddingLike):
        return Embedding(
            list(spec.words),
            spec.vectors,
            name=str(spec.name),
            source=f"{type(spec).__name__} object",
        )
    if isinstance(spec, str) and spec.startswith("transformer:") and transformer_vocab is not None:
        from wordgames.embeddings.transformer import transformer_embedding

        return transformer_embedding(
            spec.split(":", 1)[1], vocab=transformer_vocab, trust_pickle=trust_pickle
        )
    if isinstance(spec, str) and spec.startswith("hf:") and transformer_vocab is not None:
        from wordgames.embeddings.transformer import resolve_hf, transformer_embedding

        return transformer_embedding(
            str(resolve_hf(spec.split(":", 1)[1])),
            vocab=transformer_vocab,
            name=spec,
            trust_pickle=trust_pickle,
        )
    return load_embedding(spec, trust_pickle=trust_pickle)


def keyed_vectors(obj) -> Embedding | None:
    """A gensim ``KeyedVectors`` (or a model holding one as ``.wv``) as an :class:`Embedding`.

    Duck-typed (``index_to_key`` and ``vectors``): gensim is not imported. ``None`` for
    anything else.
    """
    if isinstance(obj, str | Path | Embedding):
        return None
    kv = getattr(obj, "wv", obj)
    keys, vectors = getattr(kv, "index_to_key", None), getattr(kv, "vectors", None)
    if keys is None or vectors is None:
        return None
    name = getattr(obj, "name", None) or f"gensim-{type(kv).__name__.lower()}"
    mat = vectors[: len(keys)]  # gensim may preallocate rows
    return Embedding(list(keys), mat, name=str(name), source=f"{type(kv).__name__} object")


def spec_list(specs) -> list:
    """The specs of a run as a list: ``None`` is the built-in default, one spec a list of one.

    One spec is a name, a path, an embedding, an object with words and vectors, a gensim
    model, or anything that is not a collection (a player subject).
    """
    if specs is None:
        return ["glove-6b-50d"]
    if (
        isinstance(specs, str | Path | Embedding)
        or not isinstance(specs, Iterable)
        or (
            not isinstance(specs, list | tuple)
            and (
                isinstance(specs, EmbeddingLike)
                or hasattr(getattr(specs, "wv", specs), "index_to_key")
            )
        )
    ):
        return [specs]
    return list(specs)


def _unique_names(embs: list[Embedding]) -> list[Embedding]:
    # results are shown by name: two files with one stem would be indistinguishable
    names = [e.name for e in embs]
    seen: dict[str, int] = {}
    out = []
    for e in embs:
        seen[e.name] = seen.get(e.name, 0) + 1
        out.append(e.with_name(f"{e.name}#{seen[e.name]}") if names.count(e.name) > 1 else e)
    return out


def load_embeddings(
    specs=None,
    policy: VocabularyPolicy | None = None,
    *,
    transformer_vocab=None,
    trust_pickle: bool = False,
) -> list[Embedding]:
    """Load every embedding once and apply the vocabulary policy.

    Parameters
    ----------
    specs : str, path, Embedding, EmbeddingLike or a list of them
        Default: the built-in GloVe 6B 50d.
    policy : VocabularyPolicy, optional
        Restriction applied to every embedding (default: none).
    transformer_vocab : int, path or list of str, optional
        Vocabulary encoded by ``transformer:MODEL`` specs.
    trust_pickle : bool
        Allow pickle-based files (see :func:`load_embedding`); only for files you trust.

    Returns
    -------
    list of Embedding
        In the order given, with unique names (``name#2`` for a repeated name).

    Examples
    --------
    >>> import numpy as np
    >>> a = Embedding(["x", "y", "z"], np.eye(3), name="a")
    >>> b = Embedding(["z", "x", "w"], np.eye(3), name="b")
    >>> [len(e) for e in load_embeddings([a, b], VocabularyPolicy(intersect=True))]
    [2, 2]
    """
    from wordgames.embeddings.vocab import intersect_vocabularies

    policy = policy or VocabularyPolicy()
    embs = []
    for spec in spec_list(specs):
        t = time.perf_counter()
        emb = load_one(spec, transformer_vocab=transformer_vocab, trust_pickle=trust_pickle)
        if policy.top_n or policy.lower_alpha:
            emb = emb.restrict(top_n=policy.top_n, lower_alpha=policy.lower_alpha)
        log.info(
            "loaded %s: %s words x %d in %.2f s",
            emb.name,
            f"{len(emb):,}",
            emb.dim,
            time.perf_counter() - t,
        )
        # repairs change what is measured (a truncated file, dropped rows): say so every run
        for line in emb.load_report.repair_lines:
            log.warning("%s: %s", emb.name, line)
        embs.append(emb)
    embs = _unique_names(embs)
    if policy.intersect and len(embs) > 1:
        embs = intersect_vocabularies(embs)
        # the name says it: a full embedding and its intersection are different embeddings
        tag = f"∩{compact_count(len(embs[0]))}"
        embs = [e.with_name(f"{e.name}[{tag}]") for e in embs]
        log.info("restricted to the shared vocabulary: %s words", f"{len(embs[0]):,}")
    return embs


def compact_count(n: int) -> str:
    """A short count for names: ``10k``, ``9.8k``, ``1.2M``, ``512``.

    Examples
    --------
    >>> [compact_count(n) for n in (512, 10_000, 9_842, 400_000, 1_250_000)]
    ['512', '10k', '9.8k', '400k', '1.2M']
    """
    for size, unit in ((1_000_000, "M"), (1_000, "k")):
        if n >= size:
            return f"{n / size:.2g}{unit}" if n < 10 * size else f"{n / size:.0f}{unit}"
    return str(n)
