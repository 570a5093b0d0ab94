"""Fuzz the file readers: mutate small valid seed files, check every reader fails cleanly.

Each reader is registered once, as a :class:`FuzzReader`: a name, a seed factory (writes a small
valid file, and whatever goes with it, into a folder and returns the file to mutate) and a read
function. Every mutation is classified:

* ``rejected``: the reader raised one of the project's own errors (``WordgamesError``) whose
  message names the file (``unclear`` when it does not);
* ``repaired``: it read the file and counted repairs (``load_report.repairs``, or what the
  entry's ``repairs`` function returns);
* ``accepted``: it read the file and repaired nothing;
* ``unexpected``: any other exception, or a result that breaks an invariant (a word holding a
  control character, a non-finite matrix...). The goal is 0.

The CI tests (``tests/embeddings/test_fuzz_readers.py``) run the same registry and mutations
under hypothesis with a bounded budget; this script runs the longer campaign::

    python bench/fuzz_readers.py --n 10000            # every reader
    python bench/fuzz_readers.py --n 500 --readers glove-text,word2vec-binary

To add a reader, call :func:`register` at the bottom of this file (or from a module that
imports it) with a seed factory and a read function; give ``words``/``repairs``/``check`` when
the result is not an :class:`~wordgames.embeddings.Embedding`.
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import shutil
import struct
import sys
import tempfile
import time
import traceback
import types
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordgames.errors import WordgamesError

# --------------------------------------------------------------------------- mutations
#: what gets inserted: control characters, byte-order marks, bad UTF-8, huge/tiny numbers
TOKENS = (
    b"\x00", b"\t", b"\r", b"\n", b"\r\n", b"\x0b", b"\x1b", b"\x7f", b"\xef\xbb\xbf",
    "\u2028".encode(), "\x85".encode(), b"\xff", b"\xc3", b"\xed\xa0\x80", b" ", b"  ",
    b"3e38", b"-3e38", b"1e400", b"1e-30", b"nan", b"inf", b"-0", b"99999999999999999999",
    b"0", b"#", b'"', b"\\", "é".encode(), "²".encode(), b"1_0",
)  # fmt: skip
NUMBERS = (b"0", b"1", b"2", b"4", b"10", b"3e38", b"1e39", b"1e-30", b"-1", b"4294967297",
           b"99999999999999999999", b"0x10", b"1.5")  # fmt: skip


def _positions(data: bytes, rnd: random.Random) -> int:
    if data and rnd.random() < 0.4:  # a line start or end: where structure is decided
        cuts = [i for i, b in enumerate(data[:4096]) if b == 10]
        if cuts:
            return min(len(data), rnd.choice(cuts) + rnd.choice((0, 1)))
    return rnd.randrange(len(data) + 1)


def _lines_op(data: bytes, rnd: random.Random) -> tuple[bytes, str]:
    lines = data.split(b"\n")
    i = rnd.randrange(len(lines))
    what = rnd.choice(("duplicate", "delete", "swap", "tabs"))
    if what == "duplicate":
        lines.insert(i, lines[i])
    elif what == "delete" and len(lines) > 1:
        del lines[i]
    elif what == "swap":
        j = rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines[i] = lines[i].replace(b" ", b"\t")
    return b"\n".join(lines), f"{what} line {i + 1}"


def _number_op(data: bytes, rnd: random.Random) -> tuple[bytes, str]:
    starts = [i for i in range(min(len(data), 4096)) if 48 <= data[i] <= 57]
    if not starts:
        return data, "no digit to replace"
    i = rnd.choice(starts)
    j = i
    while j < len(data) and 48 <= data[j] <= 57:
        j += 1
    new = rnd.choice(NUMBERS)
    return data[:i] + new + data[j:], f"number at {i} -> {new!r}"


def mutate_once(data: bytes, rnd: random.Random) -> tuple[bytes, str]:
    """One random mutation of ``data`` and a description of it."""
    op = rnd.choice(("flip", "byte", "truncate", "insert", "insert", "lines", "number", "cut"))
    if op in ("flip", "byte") and data:
        i = rnd.randrange(len(data))
        value = data[i] ^ (1 << rnd.randrange(8)) if op == "flip" else rnd.randrange(256)
        return data[:i] + bytes([value]) + data[i + 1 :], f"{op} byte {i} -> {value:#04x}"
    if op == "truncate":
        i = rnd.randrange(len(data) + 1)
        return data[:i], f"truncate at {i}"
    if op == "cut" and data:
        i = rnd.randrange(len(data))
        j = min(len(data), i + rnd.randrange(1, 16))
        return data[:i] + data[j:], f"cut bytes {i}-{j}"
    if op == "lines":
        return _lines_op(data, rnd)
    if op == "number":
        return _number_op(data, rnd)
    token = rnd.choice(TOKENS)
    i = _positions(data, rnd)
    return data[:i] + token + data[i:], f"insert {token!r} at {i}"


def mutate(data: bytes, rnd: random.Random, max_ops: int = 3) -> tuple[bytes, list[str]]:
    """``data`` after 1 to ``max_ops`` random mutations, and their descriptions."""
    ops = []
    for _ in range(rnd.randint(1, max_ops)):
        data, what = mutate_once(data, rnd)
        ops.append(what)
    return data, ops


# --------------------------------------------------------------------------- registry
def _embedding_words(result) -> Iterable[str]:
    return result.words.tolist()


def _embedding_repairs(result) -> Mapping:
    return result.load_report.repairs


def _embedding_check(result) -> list[str]:
    problems = []
    mat = np.asarray(result.vectors)
    if len(result) == 0 or result.dim == 0:
        problems.append(f"degenerate shape {mat.shape}")
    if not np.isfinite(mat).all():
        problems.append("non-finite values")
    elif len(result) and not np.isfinite(result.unit).all():
        problems.append("non-finite unit vectors")
    if len(set(result.words.tolist())) != len(result):
        problems.append("duplicate words")
    return problems


@dataclass(frozen=True)
class FuzzReader:
    """One reader under fuzzing.

    Parameters
    ----------
    name : short name, used on the command line
    seed : writes a small valid input into the given folder, returns the file to mutate
    read : reads the (mutated) file; may raise only ``WordgamesError`` subclasses
    words : the words of a result (each is checked for control characters)
    repairs : the repair counts of a result (non-empty: the outcome is "repaired")
    check : further invariants of a result; each returned string is a failure
    """

    name: str
    seed: Callable[[Path], Path]
    read: Callable[[Path], object]
    words: Callable[[object], Iterable[str]] = _embedding_words
    repairs: Callable[[object], Mapping] = _embedding_repairs
    check: Callable[[object], list[str]] = _embedding_check
    tags: tuple[str, ...] = field(default=())


READERS: dict[str, FuzzReader] = {}


def register(reader: FuzzReader) -> FuzzReader:
    """Add ``reader`` to :data:`READERS` (by name; registering a name again replaces it)."""
    READERS[reader.name] = reader
    return reader


@dataclass
class Outcome:
    """The fate of one mutated input."""

    kind: str  # rejected, unclear, repaired, accepted, unexpected
    detail: str = ""
    ops: list[str] = field(default_factory=list)


def _control_words(words: Iterable[str]) -> list[str]:
    bad = []
    for w in words:
        if (
            not isinstance(w, str)
            or not w
            or any(unicodedata.category(c) in ("Cc", "Cs") for c in w)
        ):
            bad.append(w)
    return bad


def run_one(reader: FuzzReader, work: Path, rnd: random.Random) -> Outcome:
    """Seed ``work`` afresh, mutate the seed file once or more, read it and classify."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    target = reader.seed(work)
    data, ops = mutate(target.read_bytes(), rnd)
    target.write_bytes(data)
    try:
        result = reader.read(target)
    except WordgamesError as exc:
        kind = "rejected" if str(work) in str(exc) else "unclear"
        return Outcome(kind, f"{type(exc).__name__}: {exc}", ops)
    except Exception as exc:  # noqa: BLE001 - exactly what the fuzzing looks for
        tb = traceback.format_exc(limit=-3)
        return Outcome("unexpected", f"{type(exc).__name__}: {exc}\n{tb}", ops)
    bad_words = _control_words(reader.words(result))
    problems = [f"words with control characters: {bad_words[:3]!r}"] if bad_words else []
    problems += reader.check(result)
    if problems:
        return Outcome("unexpected", "; ".join(problems), ops)
    return Outcome("repaired" if reader.repairs(result) else "accepted", "", ops)


# --------------------------------------------------------------------------- embedding seeds
WORDS = ["the", "cat", "dog", "eel", "fish"]
VECS = np.array(
    [[0.1, 0.2, 0.3], [1.0, 0.0, -1.5], [-2.0, 0.5, 0.25], [0.5, 0.5, 0.5], [3.0, -1.0, 2.0]],
    dtype=np.float32,
)


def _text_rows() -> str:
    return "".join(
        f"{w} {' '.join(repr(float(x)) for x in v)}\n" for w, v in zip(WORDS, VECS, strict=True)
    )


def _seed_text(name: str, header: bool) -> Callable[[Path], Path]:
    def seed(folder: Path) -> Path:
        p = folder / name
        head = f"{len(WORDS)} {VECS.shape[1]}\n" if header else ""
        p.write_text(head + _text_rows(), encoding="utf-8")
        return p

    return seed


def _seed_binary(folder: Path) -> Path:
    out = f"{len(WORDS)} {VECS.shape[1]}\n".encode()
    for w, v in zip(WORDS, VECS, strict=True):
        out += w.encode() + b" " + struct.pack(f"<{len(v)}f", *v) + b"\n"
    p = folder / "v.bin"
    p.write_bytes(out)
    return p


def _seed_npy(target: str) -> Callable[[Path], Path]:
    def seed(folder: Path) -> Path:
        np.save(folder / "m.npy", VECS)
        (folder / "m.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
        return folder / ("m.npy" if target == "matrix" else "m.txt")

    return seed


def fake_gensim_pickle(state: dict, cls: str = "KeyedVectors", vocab: dict | None = None) -> bytes:
    """A protocol-2 pickle as gensim's ``KeyedVectors.save`` writes it, made without gensim.

    ``vocab`` (word -> index) adds a gensim 3 style ``vocab`` of ``Vocab`` objects.
    """
    fake = types.ModuleType("_wg_fake_gensim")
    for name in (cls, "Vocab"):
        setattr(fake, name, type(name, (), {"__module__": "_wg_fake_gensim"}))
    sys.modules["_wg_fake_gensim"] = fake
    try:
        obj = getattr(fake, cls)()
        obj.__dict__.update(state)
        if vocab is not None:
            entries = {}
            for word, index in vocab.items():
                entries[word] = fake.Vocab()
                entries[word].__dict__.update({"index": index, "count": 1})
            obj.__dict__["vocab"] = entries
        data = pickle.dumps(obj, protocol=2)
    finally:
        del sys.modules["_wg_fake_gensim"]
    return data.replace(b"c_wg_fake_gensim\n", b"cgensim.models.keyedvectors\n")


def _kv_state(separate: bool) -> dict:
    state = {"vector_size": 3, "index_to_key": list(WORDS), "next_index": 0, "norms": None,
             "key_to_index": {w: i for i, w in enumerate(WORDS)}, "expandos": {},
             "__numpys": ["vectors"] if separate else [], "__scipys": [], "__ignoreds": [],
             "__recursive_saveloads": []}  # fmt: skip
    if not separate:
        state["vectors"] = VECS.copy()
    return state


def _seed_gensim(target: str) -> Callable[[Path], Path]:
    def seed(folder: Path) -> Path:
        p = folder / "v.kv"
        p.write_bytes(fake_gensim_pickle(_kv_state(target == "npy")))
        if target == "npy":
            np.save(folder / "v.kv.vectors.npy", VECS)
            return folder / "v.kv.vectors.npy"
        return p

    return seed


def _load(fmt: str = "auto", **kw) -> Callable[[Path], object]:
    def read(path: Path):
        from wordgames.embeddings import load_embedding

        return load_embedding(path, fmt=fmt, use_cache=False, **kw)

    return read


def _read_cached(path: Path):
    """Parse into the cache, then read the cache back: both must agree."""
    from wordgames.embeddings import load_embedding

    first = load_embedding(path)
    second = load_embedding(path)
    if first.words.tolist() != second.words.tolist() or not np.array_equal(
        np.asarray(first.vectors), np.asarray(second.vectors)
    ):
        raise AssertionError("the cached copy differs from the parsed file")
    return second


register(
    FuzzReader("word2vec-text", _seed_text("v.txt", header=True), _load(), tags=("embeddings",))
)
register(FuzzReader("glove-text", _seed_text("g.txt", header=False), _load(), tags=("embeddings",)))
register(
    FuzzReader("fasttext-vec", _seed_text("f.vec", header=True), _load(), tags=("embeddings",))
)
register(FuzzReader("word2vec-binary", _seed_binary, _load(), tags=("embeddings",)))
register(FuzzReader("npy-matrix", _seed_npy("matrix"), _load(), tags=("embeddings",)))
register(
    FuzzReader(
        "npy-words",
        _seed_npy("words"),
        lambda p: _load()(p.with_suffix(".npy")),
        tags=("embeddings",),
    )
)
register(FuzzReader("gensim-pickle", _seed_gensim("pickle"), _load(), tags=("embeddings",)))
register(
    FuzzReader(
        "gensim-vectors-npy",
        _seed_gensim("npy"),
        lambda p: _load()(p.parent / "v.kv"),
        tags=("embeddings",),
    )
)
register(
    FuzzReader(
        "text-cache-roundtrip", _seed_text("c.txt", header=True), _read_cached, tags=("embeddings",)
    )
)


# --------------------------------------------------------------------------- campaign
KINDS = ("rejected", "unclear", "repaired", "accepted", "unexpected")


def campaign(reader: FuzzReader, n: int, seed: int, work: Path) -> tuple[Counter, list[Outcome]]:
    """Run ``n`` mutations of ``reader``; the counts per kind and the unexpected outcomes."""
    rnd = random.Random(f"{seed}:{reader.name}")
    counts: Counter = Counter()
    bad: list[Outcome] = []
    for _ in range(n):
        out = run_one(reader, work / reader.name, rnd)
        counts[out.kind] += 1
        if out.kind in ("unexpected", "unclear"):
            bad.append(out)
    return counts, bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10_000, help="mutations per reader")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--readers", default="", help="comma-separated names (default: all)")
    ap.add_argument("--show", type=int, default=3, help="unexpected outcomes shown per reader")
    args = ap.parse_args(argv)
    names = [r for r in args.readers.split(",") if r] or list(READERS)
    unknown = [r for r in names if r not in READERS]
    if unknown:
        ap.error(f"unknown reader(s) {unknown}; known: {', '.join(READERS)}")
    total_bad = 0
    with tempfile.TemporaryDirectory(prefix="wg-fuzz-") as tmp:
        os.environ["WORDGAMES_CACHE"] = str(Path(tmp) / "cache")
        print(f"{'reader':<22}{'tried':>8}" + "".join(f"{k:>12}" for k in KINDS) + f"{'s':>8}")
        for name in names:
            t = time.perf_counter()
            counts, bad = campaign(READERS[name], args.n, args.seed, Path(tmp) / "work")
            total_bad += counts["unexpected"] + counts["unclear"]
            print(f"{name:<22}{args.n:>8}" + "".join(f"{counts[k]:>12}" for k in KINDS)
                  + f"{time.perf_counter() - t:>8.1f}")  # fmt: skip
            for out in bad[: args.show]:
                print(f"    {out.kind}: {out.ops}\n      {out.detail.strip()[:600]}")
    print(f"unexpected or unclear: {total_bad}")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
