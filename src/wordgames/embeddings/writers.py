"""Writing an :class:`~wordgames.embeddings.Embedding` in the formats wordgames reads.

``word2vec`` (text with an ``n dim`` header), ``fasttext`` (the same, as ``.vec``), ``glove``
(text without a header), ``word2vec-binary``, ``npy`` (the matrix, with the word list beside it
as ``.txt``) and ``gensim`` (a ``KeyedVectors`` file; needs the ``gensim`` extra). A path
ending in ``.gz`` is gzip-packed (text and binary formats). Values are written with 9
significant digits, so float32 vectors read back bit for bit. Every file is written to a
temporary name and renamed: a reader never sees half a file.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np

from wordgames.errors import WordgamesError
from wordgames.safeio import write_bytes_atomic

SAVE_FORMATS = ("word2vec", "fasttext", "glove", "word2vec-binary", "npy", "gensim")
_CHUNK = 50_000  # rows formatted at once


def _check_words(words, fmt: str) -> None:
    """Text and binary formats separate the word from its values by a space."""
    bad = next((w for w in words if not w or any(c.isspace() for c in w)), None)
    if bad is not None:
        raise WordgamesError(
            f"cannot write {fmt}: the word {bad!r} is empty or holds white space, which the "
            "format uses as a separator (use format='npy', which keeps one word per line)"
        )


def _text_bytes(words: list[str], mat: np.ndarray, header: bool) -> bytes:
    out = io.BytesIO()
    if header:
        out.write(f"{len(words)} {mat.shape[1]}\n".encode())
    for start in range(0, len(words), _CHUNK):
        buf = io.BytesIO()
        np.savetxt(buf, mat[start : start + _CHUNK], fmt="%.9g")
        rows = buf.getvalue().split(b"\n")
        out.write(
            b"".join(
                w.encode("utf-8") + b" " + r + b"\n"
                for w, r in zip(words[start : start + _CHUNK], rows, strict=False)
            )
        )
    return out.getvalue()


def _binary_bytes(words: list[str], mat: np.ndarray) -> bytes:
    rows = np.ascontiguousarray(mat, dtype="<f4")
    head = f"{len(words)} {mat.shape[1]}\n".encode()
    return head + b"".join(
        w.encode("utf-8") + b" " + rows[i].tobytes() + b"\n" for i, w in enumerate(words)
    )


def save_embedding(emb, path: str | Path, *, format: str = "word2vec") -> Path:  # noqa: A002
    """Write ``emb`` to ``path`` in ``format`` (see the module docstring); returns ``path``.

    Examples
    --------
    >>> import numpy as np, tempfile
    >>> from wordgames.embeddings import Embedding, load_embedding
    >>> emb = Embedding(["cat", "dog"], np.array([[0.1, 0.2], [0.3, 0.4]]), name="toy")
    >>> p = save_embedding(emb, tempfile.mkdtemp() + "/toy.vec.gz", format="fasttext")
    >>> back = load_embedding(p, use_cache=False)
    >>> back.name, list(back.words), np.array_equal(back.vectors, emb.vectors)
    ('toy', ['cat', 'dog'], True)
    """
    if format not in SAVE_FORMATS:
        raise WordgamesError(f"unknown format {format!r}; known: {', '.join(SAVE_FORMATS)}")
    path = Path(path)
    words = [str(w) for w in emb.words]
    mat = np.asarray(emb.vectors, dtype=np.float32)
    gz = path.suffix.lower() == ".gz"
    if format == "npy":
        if gz:
            raise WordgamesError("format 'npy' is memory-mapped when read: it cannot be .gz")
        _save_npy(words, mat, path)
        return path
    if format == "gensim":
        _save_gensim(words, mat, path)
        return path
    _check_words(words, format)
    if format == "word2vec-binary":
        data = _binary_bytes(words, mat)
    else:
        data = _text_bytes(words, mat, header=format != "glove")
    if gz:
        import gzip

        data = gzip.compress(data, compresslevel=6, mtime=0)
    write_bytes_atomic(path, data)
    return path


def _save_npy(words: list[str], mat: np.ndarray, path: Path) -> None:
    bad = next((w for w in words if "\n" in w or "\r" in w), None)
    if bad is not None:
        raise WordgamesError(f"cannot write the word list: the word {bad!r} holds a line break")
    buf = io.BytesIO()
    np.save(buf, mat, allow_pickle=False)
    write_bytes_atomic(path, buf.getvalue())
    write_bytes_atomic(path.with_suffix(".txt"), "".join(w + "\n" for w in words).encode("utf-8"))


def _save_gensim(words: list[str], mat: np.ndarray, path: Path) -> None:
    from wordgames.errors import OptionalDependencyError

    try:
        from gensim.models import KeyedVectors
    except ImportError:
        raise OptionalDependencyError(
            "writing a gensim KeyedVectors file needs gensim: pip install 'wordgames[gensim]'"
        ) from None
    kv = KeyedVectors(mat.shape[1], dtype=np.float32)
    kv.add_vectors(words, mat)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    kv.save(str(tmp))
    # gensim stores a large array beside the pickle, named after it: the side file moves too
    # (first, so that the pickle never names a side file that is not there yet)
    for side in path.parent.glob(f"{tmp.name}.*.npy"):
        side.replace(path.with_name(path.name + side.name[len(tmp.name) :]))
    tmp.replace(path)
