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
import contextlib
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


# --------------------------------------------------------------------------- Codenames readers
# The Codenames user format (JSONL, CSV), the paper's two table layouts (tag "codenames") and
# every human-data source loader on mutated copies of its real files (tag "codenames-source").
# A source's files are copied from the data root ($WORDGAMES_DATA) into a folder laid out as a
# data root, one of them is mutated (in turn: each registered source reader cycles through the
# files its loader reads) and the data set is loaded with verify=False (no sha256 check). A
# mutation that only changes what was repaired, dropped or flagged counts as "repaired".
CODENAMES_USER_JSONL = b"""\
{"kind": "receiver", "id": "r1", "board": ["dog", "Ice Cream", "bank", "cat", "Stra\\u00dfe"], \
"clue": "pet", "chosen": ["dog", "cat"], "clue_source": "glove", "number": 2, \
"intended": ["dog"], "blue": ["dog", "cat"], "red": ["bank"], "neutral": ["ice cream"], \
"assassin": ["stra\\u00dfe"], "count": 3, "meta": {"game": 7}}
{"kind": "sender", "blue": ["dog", "cat"], "red": ["bank"], "neutral": ["ice cream"], \
"clue": "pet", "targets": ["dog", "cat"], "number": 2, "meta": {"candidate_clues": ["pet", "fur"]}}

{"kind": "sender", "id": 17, "blue": ["sun"], "neutral": ["moon"], "assassin": ["star"], \
"clue": "day", "count": 12}
{"kind": "receiver", "board": ["a", "b", "c"], "clue": "x", "chosen": ["c", "a"], "number": 0}
"""
CODENAMES_USER_CSV = b"""\
kind,clue,board,chosen,blue,red,neutral,assassin,targets,number,clue_source,count,id
receiver,Pet,dog|Ice Cream|bank|cat,dog|cat,dog|cat,bank,ice cream,,,2,glove,3,r1
sender,pet,,,dog|cat,bank|ice cream,,,dog,1,,,
sender,day,,,sun,,moon,star,,,,12,
receiver,x,a|b|c,c|a,,,,,,0,,,
"""
CODENAMES_TABLE2 = b"""\
Initial model\tClue word\tWord1\tWord2\tWord3\tWord4\tWord5\tRank1\tRank2\tRank3
bertHKimFX\tanimal\tdog\tMouse\tcar\ttree\tairplane\tdog\tmouse\tnoMoreRelatedWords
glove\tfly\tdog\tmouse\tcar\ttree\tairplane\tairplane\t\t
"""
CODENAMES_TABLE3 = b"""\
BWord1,BWord2,BWord3,RWord1,RWord2,RWord3,Clue word,T1,T2,T3
ivory,duck,hotel,head,charge,comic,expensive,ivory,hotel,NoMoreTargets
sun,moon,star,sea,sand,rock,sky,sun,moon,star
"""


def _seed_bytes(name: str, content: bytes) -> Callable[[Path], Path]:
    def seed(folder: Path) -> Path:
        (folder / name).write_bytes(content)
        return folder / name

    return seed


def _human_words(data) -> list[str]:
    """Every word of a :class:`~wordgames.codenames.records.LoadedHumanData`."""
    out: list[str] = []
    for r in data.receiver:
        out += [*r.board, r.clue, *r.chosen, *r.intended, *r.blue, *r.red, *r.neutral]
        out += r.assassin
    for s in data.sender:
        out += [*s.blue, *s.red, *s.neutral, *s.assassin, *s.targets, s.clue]
        out += list((s.meta or {}).get("candidate_clues") or ())
    return out


def _human_check(data) -> list[str]:
    """Every record obeys the records' rules (``record_problem``); the summary works."""
    from wordgames.codenames.records import record_problem

    for r in [*data.receiver, *data.sender]:
        problem = record_problem(r)
        if problem:
            return [f"record {r.record_id!r}: {problem}"]
    data.summary()
    return []


def _user_check(data) -> list[str]:
    """As :func:`_human_check`, and the data reads back equal from the user JSONL format."""
    from wordgames.codenames.human_data import read_user_file, write_user_jsonl

    problems = _human_check(data)
    with tempfile.TemporaryDirectory() as tmp:
        back = read_user_file(write_user_jsonl(data, Path(tmp) / "b.jsonl"), dataset=data.dataset)
    if back.receiver != data.receiver or back.sender != data.sender:
        problems.append("the records differ once written and read back in the user format")
    return problems


def _read_user(path: Path):
    from wordgames.codenames.human_data import read_user_file

    return read_user_file(path)


def human_source_files(name: str) -> tuple[str, ...]:
    """The files (relative to the data set's folder) that the loader of source ``name`` reads."""
    from wordgames.codenames.human_data import itsluisa, noahprescott, pilot, salt, xerevity

    files = {
        "codenames-pilot": [f for batch, _inputs, key in pilot.BATCHES for f in (batch, key)],
        "codenames-human-salt": [f"{t}/{s}.csv" for t in salt.TASKS for s in salt.SPLITS],
        "codenames-human-noahprescott": [
            noahprescott.COMBINED, noahprescott.HUMAN_CLUES, noahprescott.GPT_CLUES
        ],
        "codenames-human-itsluisa": [
            *itsluisa.GAME_FILES, itsluisa.STUDY_FILE, *itsluisa.GROUP_FILES
        ],
        "codenames-human-xerevity": [
            "boards_en.csv", "board_colors.csv", "clues.csv", xerevity.RESPONSES,
            *(f"{rel}_en.csv" for rel in xerevity.RELATEDNESS),
        ],
        "codenames-human-heyyjudes": ["derived/shen2018_ex1_scenarios.json"],
        "codenames-human-stanfordhci": ["codenames.json"],
    }  # fmt: skip
    return tuple(files[name])


_HUMAN_BASELINES: dict[tuple, dict] = {}


def _human_baseline(name: str, root: str | None) -> dict:
    """What the real files of ``name`` repair, drop and flag: a mutation's counts differ."""
    from wordgames.codenames.human_data import load_human_data

    if (name, root) not in _HUMAN_BASELINES:
        data = load_human_data(name, root)
        _HUMAN_BASELINES[name, root] = {
            "repairs": data.repairs,
            "dropped": data.dropped,
            "flagged": data.flagged,
        }
    return _HUMAN_BASELINES[name, root]


def human_source_reader(name: str, file: str | None = None, root: str | None = None) -> FuzzReader:
    """A :class:`FuzzReader` for the loader of source ``name`` on copies of its real files.

    ``file``: always mutate that file (relative to the data set's folder); ``None``: each seed
    mutates the next file the loader reads, in turn. ``root``: where the real files are
    (``None``: ``$WORDGAMES_DATA``).
    """
    import itertools

    from wordgames.datasets import dataset_dir, get_dataset

    spec = get_dataset(name)
    turn = itertools.cycle([file] if file else human_source_files(name))

    def seed(folder: Path) -> Path:
        src, dst = dataset_dir(name, root), folder / "data" / spec.folder
        for f in spec.files:
            (dst / f.path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src / f.path, dst / f.path)
        return dst / next(turn)

    def read(target: Path):
        from wordgames.codenames.human_data import load_human_data

        data_root = target.as_posix().rsplit(f"/{spec.folder}/", 1)[0]
        return load_human_data(name, data_root, verify=False)

    def repairs(data) -> dict:
        base = _human_baseline(name, root)
        return {
            f"{kind}: {reason}": n
            for kind in ("repairs", "dropped", "flagged")
            for reason, n in getattr(data, kind).items()
            if base[kind].get(reason) != n
        } | {f"{kind}: {r}": 0 for kind in base for r in base[kind] if r not in getattr(data, kind)}

    return FuzzReader(
        "codenames-" + name.removeprefix("codenames-human-").removeprefix("codenames-"),
        seed,
        read,
        words=_human_words,
        repairs=repairs,
        check=_human_check,
        tags=("codenames-source",),
    )


for _name, _seed in (
    ("codenames-user-jsonl", _seed_bytes("mine.jsonl", CODENAMES_USER_JSONL)),
    ("codenames-user-csv", _seed_bytes("mine.csv", CODENAMES_USER_CSV)),
    ("codenames-table2", _seed_bytes("t2.tsv", CODENAMES_TABLE2)),
    ("codenames-table3", _seed_bytes("t3.csv", CODENAMES_TABLE3)),
):
    register(
        FuzzReader(
            _name,
            _seed,
            _read_user,
            words=_human_words,
            repairs=lambda data: data.repairs,
            check=_user_check,
            tags=("codenames",),
        )
    )


def _register_human_sources() -> None:
    """Register a reader per human-data source whose files are under ``$WORDGAMES_DATA``."""
    from wordgames.codenames.human_data import available_human_datasets

    for name in available_human_datasets():
        register(human_source_reader(name))


_register_human_sources()


# --------------------------------------------------------------------------- WALES graphs and files
# (tag "wales": tests/wales/test_fuzz_readers.py)
def _gm_graph(result):
    return result[0] if isinstance(result, tuple) else result


def _gm_graph_words(result) -> Iterable[str]:
    return _gm_graph(result).names.tolist()


def _gm_graph_repairs(result) -> Mapping:
    report = result[1] if isinstance(result, tuple) else {}
    keys = ("duplicate_edges_merged", "self_loops_dropped", "ids_remapped")
    return {k: report[k] for k in keys if report.get(k)}


def _gm_graph_check(result) -> list[str]:
    graph = _gm_graph(result)
    problems = [] if graph.n_nodes else ["a graph without nodes"]
    if len(set(graph.names.tolist())) != graph.n_nodes:
        problems.append("duplicate node names")
    if np.any(np.diff(graph.indptr) < 0):
        problems.append("indptr decreases")
    return problems


def _gm_no_check(result) -> list[str]:
    return []


def _gm_no_repairs(result) -> Mapping:
    return {}


def _gm_seed(name: str, text: str, target: str | None = None, **others: str):
    """Writes ``name`` (and ``others``, ``__`` for ``.`` in their names); returns ``target``."""

    def seed(folder: Path) -> Path:
        for fname, content in {name: text, **others}.items():
            (folder / fname.replace("__", ".")).write_bytes(content.encode("utf-8"))
        return folder / (target or name)

    return seed


_GM_EDGE_IDS = "# a SNAP-style edge list\n# FromNodeId\tToNodeId\n0\t1\n1\t2\n2\t0\n3\t1\n1\t3\n"
_GM_EDGE_NAMES = "source\ttarget\nparis\tfrance\nfrance\tberlin\nberlin\tparis\nåland\tparis\n"
_GM_EDGE_URLS = "%C3%85land\tParis\nParis\tFrance\nFrance\t%C3%85land\nFrance\tParis\n"
_GM_NAME_TABLE = "node_id\tname\n10\tl'idea\n20\taugment\n30\tchoirboy\n40\tåland\n"
_GM_TABLE_EDGES = "10\t20\n20\t30\n30\t10\n40\t10\n10\t40\n"
_GM_ARTICLES = "# The list of all articles.\n#\n%C3%85land\nParis\nFrance\nBerlin\n"
_GM_LINKS = (
    "# The list of all links.\n#\n%C3%85land\tParis\nParis\tFrance\nFrance\tBerlin\n"
    "Berlin\t%C3%85land\nFrance\tParis\n"
)
_GM_PATHS = (
    "# ip, timestamp, duration, path, rating\n\nip1\t1\t30\tParis;France;<;Berlin\tNULL\n"
    "ip2\t2\t10\t%C3%85land;Paris\t3\nip3\t3\t12\tBerlin;%C3%85land;Paris;France\t1\n"
)
_GM_CHALLENGES = "start\ttarget\nnebraska\tasthma\nmammal\tparis\nåland\tberlin\n"
_GM_HUMAN = (
    "start\ttarget\thuman_best\thuman_avg\thuman_median\topt\n"
    "nebraska\tasthma\t3\t3.5\t3\t3\nmammal\tparis\t2\t2.25\t2\t2\nåland\tberlin\t4\t5.0\t4\t3\n"
)
_GM_WIKIGAME = (
    '{"start": "nebraska", "target": "asthma", "paths": [["nebraska", "lung", "asthma"]]}\n'
    '{"start": "åland", "target": "paris", "paths": [["åland", "france", "paris"], '
    '["åland", "paris"]]}\n'
)


def _gm_read_edges(**kw) -> Callable[[Path], object]:
    def read(path: Path):
        from wordgames.wales.loaders import read_edge_list

        return read_edge_list(path, **kw)

    return read


def _gm_read_edges_with_table(path: Path):
    from wordgames.wales.loaders import read_edge_list

    return read_edge_list(path.parent / "e.txt", names_path=path.parent / "n.tsv")


def fake_networkx_pickle(succ: dict) -> bytes:
    """A pickled networkx ``DiGraph`` (protocol 2, ``_succ``, ``_pred``...), made without networkx."""
    fake = types.ModuleType("_wg_fake_nx")
    fake.DiGraph = type("DiGraph", (), {"__module__": "_wg_fake_nx"})
    sys.modules["_wg_fake_nx"] = fake
    try:
        g = fake.DiGraph()
        pred: dict = {u: {} for u in succ}
        for u, nbrs in succ.items():
            for v in nbrs:
                pred.setdefault(v, {})[u] = {}
        nodes = {u: {} for u in pred}
        g.__dict__.update({"graph": {}, "_node": nodes, "_adj": succ, "_succ": succ, "_pred": pred})
        data = pickle.dumps(g, protocol=2)
    finally:
        del sys.modules["_wg_fake_nx"]
    return data.replace(b"c_wg_fake_nx\nDiGraph\n", b"cnetworkx.classes.digraph\nDiGraph\n")


def _gm_seed_networkx(folder: Path) -> Path:
    succ = {16: {27: {}, 29: {}, 35: {}}, 27: {29: {}}, 29: {16: {}}, 31: {16: {}}, 35: {31: {}}}
    p = folder / "wiki_graph.p"
    p.write_bytes(fake_networkx_pickle(succ))
    return p


def _gm_read_networkx(path: Path):
    from wordgames.wales.loaders import read_networkx_pickle

    return read_networkx_pickle(path)


def _gm_read_wikispeedia(path: Path):
    from wordgames.wales.loaders import load_wikispeedia

    ws = load_wikispeedia(path.parent)
    return ws.graph, ws.report


def _gm_read_paths(path: Path):
    from wordgames.wales.loaders import read_wikispeedia_paths

    return read_wikispeedia_paths(path)


def _gm_paths_words(hp) -> Iterable[str]:
    return [*hp.starts.tolist(), *hp.targets.tolist(), *(p for path in hp.paths for p in path)]


def _gm_read_challenges(path: Path):
    from wordgames.wales.loaders import read_challenges

    return read_challenges(path)


def _gm_read_human(path: Path):
    from wordgames.wales.loaders import read_human_results

    return read_human_results(path)


def _gm_human_check(df) -> list[str]:
    cols = ["human_best", "human_avg", "human_median", "opt"]
    ok = len(df) and np.isfinite(df[cols].to_numpy(dtype=np.float64)).all()
    return [] if ok else ["non-finite lengths or no row"]


def _gm_read_wikigame(path: Path):
    from wordgames.wales.loaders import read_wikigame_paths

    return read_wikigame_paths(path)


def _gm_wikigame_words(recs) -> Iterable[str]:
    for r in recs:
        yield r["start"]
        yield r["target"]
        for p in r["paths"]:
            yield from p


def _gm_register(name, seed, read, words, repairs, check, tag) -> None:
    register(FuzzReader(name, seed, read, words=words, repairs=repairs, check=check, tags=(tag,)))


def _gm_register_wales() -> None:
    graph = (_gm_graph_words, _gm_graph_repairs, _gm_graph_check, "wales")
    with_table = {"n__tsv": _GM_NAME_TABLE}
    _gm_register("edge-list-ids", _gm_seed("e.txt", _GM_EDGE_IDS), _gm_read_edges(), *graph)
    _gm_register("edge-list-names", _gm_seed("e.tsv", _GM_EDGE_NAMES), _gm_read_edges(), *graph)
    _gm_register(
        "edge-list-urls", _gm_seed("e.tsv", _GM_EDGE_URLS), _gm_read_edges(url_decode=True), *graph
    )
    _gm_register(
        "edge-list-ids-with-names",
        _gm_seed("e.txt", _GM_TABLE_EDGES, **with_table),
        _gm_read_edges_with_table,
        *graph,
    )
    _gm_register(
        "name-table",
        _gm_seed("e.txt", _GM_TABLE_EDGES, "n.tsv", **with_table),
        _gm_read_edges_with_table,
        *graph,
    )
    _gm_register(
        "networkx-pickle", _gm_seed_networkx, _gm_read_networkx,
        _gm_graph_words, _gm_no_repairs, _gm_graph_check, "wales",
    )  # fmt: skip
    links = {"links__tsv": _GM_LINKS}
    _gm_register(
        "wikispeedia-articles",
        _gm_seed("articles.tsv", _GM_ARTICLES, **links),
        _gm_read_wikispeedia,
        *graph,
    )
    _gm_register(
        "wikispeedia-links",
        _gm_seed("articles.tsv", _GM_ARTICLES, "links.tsv", **links),
        _gm_read_wikispeedia,
        *graph,
    )
    _gm_register(
        "wikispeedia-paths", _gm_seed("paths_finished.tsv", _GM_PATHS), _gm_read_paths,
        _gm_paths_words, _gm_no_repairs, _gm_no_check, "wales",
    )  # fmt: skip
    _gm_register(
        "wales-challenges", _gm_seed("challenges.tsv", _GM_CHALLENGES), _gm_read_challenges,
        lambda pairs: [w for p in pairs for w in p], _gm_no_repairs,
        lambda pairs: [] if pairs else ["no pair"], "wales",
    )  # fmt: skip
    _gm_register(
        "wales-human-results", _gm_seed("human_results_wales.tsv", _GM_HUMAN), _gm_read_human,
        lambda df: [*df["start"].tolist(), *df["target"].tolist()], _gm_no_repairs,
        _gm_human_check, "wales",
    )  # fmt: skip
    _gm_register(
        "wikigame-paths", _gm_seed("wikigame_human_paths.jsonl", _GM_WIKIGAME), _gm_read_wikigame,
        _gm_wikigame_words, _gm_no_repairs, _gm_no_check, "wales",
    )  # fmt: skip


_gm_register_wales()


# --------------------------------------------------------------------------- Odd-Man-Out puzzles
# (tag "oddmanout": tests/oddmanout/test_fuzz_readers.py)
_GM_OMO_TSV = (
    "# category, odd man, four others\nfruit\tgrass\tcherry\torange\tapple\tgrape\n"
    "transport\tmotel\tboat\ttrain\tcar\tspaceship\n\tparis\tdrum\tcymbal\tgong\tbell\n"
)
_GM_OMO_JSONL = (
    '{"words": ["cherry", "orange", "grass", "apple", "grape"], "answer": "grass", '
    '"category": "fruit"}\n'
    '{"words": ["boat", "train", "motel", "car", "spaceship"], "answer": "motel", '
    '"category": "transport"}\n'
    '{"words": ["drum", "cymbal", "paris", "gong", "bell"], "answer": "paris"}\n'
)
# the upstream layout with its damage: CR line ends, a duplicate, a record of five fields
_GM_OMO_UPSTREAM = (
    "fruit\tgrass\tcherry\torange\tapple\tgrape\rtransport\tmotel\tboat\ttrain\tcar\tspaceship\r"
    "fruit\tgrass\tcherry\torange\tapple\tgrape\rtransport\tmotel\tboat\ttrain\tcar\r"
    "weather\tpencil\train\tsnow\thail\tfog\r"
)


def _gm_read_puzzles(path: Path):
    from wordgames.oddmanout.puzzles import read_puzzles

    return read_puzzles(path)


def _gm_read_upstream(path: Path):
    from wordgames.oddmanout.data import load_file

    return load_file(path)


def _gm_puzzle_words(ps) -> Iterable[str]:
    return ps.words.ravel().tolist()


def _gm_puzzle_repairs(ps) -> Mapping:
    keys = ("stripped_fields", "bom_removed", "glued_lines_repaired", "malformed_records",
            "duplicates_dropped", "repeated_word_dropped")  # fmt: skip
    return {k: ps.report[k] for k in keys if ps.report.get(k)}


def _gm_puzzle_check(ps) -> list[str]:
    problems = [f"category {c!r}" for c in ps.categories.tolist() if c and _control_words([c])]
    if len(ps) == 0:
        problems.append("no puzzle")
    if any(len(set(r)) != len(r) for r in ps.words.tolist()):
        problems.append("a word twice in a puzzle")
    return problems


def _gm_register_oddmanout() -> None:
    puzzles = (_gm_puzzle_words, _gm_puzzle_repairs, _gm_puzzle_check, "oddmanout")
    _gm_register("oddmanout-tsv", _gm_seed("p.tsv", _GM_OMO_TSV), _gm_read_puzzles, *puzzles)
    _gm_register("oddmanout-jsonl", _gm_seed("p.jsonl", _GM_OMO_JSONL), _gm_read_puzzles, *puzzles)
    _gm_register(
        "oddmanout-upstream", _gm_seed("common1.tsv", _GM_OMO_UPSTREAM), _gm_read_upstream, *puzzles
    )


_gm_register_oddmanout()


# --------------------------------------------------------------------------- similarity pairs
# (tag "similarity": tests/similarity/test_fuzz_readers.py)
_GM_PAIRS = (
    "# word1\tword2\tscore\nword1\tword2\tscore\ntiger\tcat\t7.35\nbook\tpaper\t7.46\n"
    "åland\tisland\t6\ncomputer\tkeyboard\t7.62\n"
)


def _gm_read_pairs(path: Path):
    from wordgames.similarity.benchmarks import read_pairs_tsv

    return read_pairs_tsv(path)


def _gm_pairs_words(b) -> Iterable[str]:
    return [*b.word1.tolist(), *b.word2.tolist(), *b.raw1.tolist(), *b.raw2.tolist()]


def _gm_pairs_repairs(b) -> Mapping:
    return {k: v for k, v in b.repairs.items() if k != "header_skipped"}  # the seed has a header


def _gm_pairs_check(b) -> list[str]:
    return [] if len(b) and np.isfinite(b.scores).all() else ["no pair or a non-finite score"]


_gm_register(
    "similarity-tsv", _gm_seed("pairs.tsv", _GM_PAIRS), _gm_read_pairs,
    _gm_pairs_words, _gm_pairs_repairs, _gm_pairs_check, "similarity",
)  # fmt: skip


# --------------------------------------------------------------------------- CBM logs
# (tag "cbm": tests/emergent/test_fuzz_readers.py)
_GM_CBM_JSONL = (
    '{"message": [3, 7, 0], "concepts": ["color=red", "shape=box"], "object": [1.0, 0.0]}\n'
    '{"message": "3 5 0", "concepts": "color=red shape=ball", "object": [1.0, 1.0]}\n'
    '{"message": ["4", "7"], "concepts": ["color=blue", "shape=box"], "object": [0.0, 0.0]}\n'
    '{"message": [4, 5], "concepts": ["color=blue", "shape=ball"], "object": [0.0, 1.0]}\n'
)
_GM_CBM_CSV = (
    "message,concepts,object\n3 7 0,color=red shape=box,1.0 0.0\n"
    "3 5 0,color=red shape=ball,1.0 1.0\n4 7,color=blue shape=box,0.0 0.0\n"
    '4 5,"color=blue shape=ball",0.0 1.0\n'
)


def _gm_read_cbm(path: Path):
    from wordgames.emergent.inputs import read_log

    return read_log(path)


def _gm_cbm_words(log) -> Iterable[str]:
    for tokens in (*log.messages, *log.concepts):
        yield from tokens


def _gm_cbm_check(log) -> list[str]:
    problems = [] if log.messages else ["no record"]
    if any(not c for c in log.concepts):
        problems.append("a record without concepts")
    if log.objects is not None and not np.isfinite(log.objects).all():
        problems.append("non-finite object vectors")
    return problems


def _gm_register_cbm() -> None:
    log = (_gm_cbm_words, lambda lg: lg.repairs, _gm_cbm_check, "cbm")
    _gm_register("cbm-jsonl", _gm_seed("log.jsonl", _GM_CBM_JSONL), _gm_read_cbm, *log)
    _gm_register("cbm-csv", _gm_seed("log.csv", _GM_CBM_CSV), _gm_read_cbm, *log)


_gm_register_cbm()


# --------------------------------------------------------------------------- campaign
KINDS = ("rejected", "unclear", "repaired", "accepted", "unexpected")


#: seconds one mutation may take before it counts as a hang (the inputs are a few kB)
HANG_SECONDS = 20


class Hang(Exception):
    """A reader took longer than :data:`HANG_SECONDS` on one input."""


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Raise :class:`Hang` inside the block after ``seconds`` (the main thread, POSIX)."""
    import signal

    if not hasattr(signal, "setitimer"):
        yield
        return

    def _raise(*_):
        raise Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _peak_mb() -> float:
    """The process's peak resident memory so far, in MB (Linux reports kB)."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def campaign(reader: FuzzReader, n: int, seed: int, work: Path) -> tuple[Counter, list[Outcome]]:
    """Run ``n`` mutations of ``reader``; the counts per kind and the unexpected outcomes."""
    rnd = random.Random(f"{seed}:{reader.name}")
    counts: Counter = Counter()
    bad: list[Outcome] = []
    for _ in range(n):
        with _time_limit(HANG_SECONDS):  # a hang is an unexpected outcome, not a stuck bench
            out = run_one(reader, work / reader.name, rnd)
        counts[out.kind] += 1
        if out.kind in ("unexpected", "unclear"):
            bad.append(out)
    return counts, bad


# --------------------------------------------------------------------------- issue 22's readers
# study files (tag "study": tests/serve/test_fuzz_study_files.py), Odd-Man-Out seed and
# category files (tag "oddmanout-seeds"), results folders read by `report` and `results merge`
# (tag "results": tests/results/test_fuzz_results_folders.py)
STUDY_TOML = b"""slug = "s"
game = "oddmanout"
trials = 2
pool_size = 4
seed = 0
completion_code = "C0DE"
[texts]
title = "A game"
[attention]
positions = [1]
action = "flag"
items = [{words = ["cat", "dog", "owl", "fox", "table"], answer = "table"}]
[oddmanout]
ask_category = true
"""
STUDY_JSON = (
    b'{"slug": "s", "game": "wiki", "trials": 2, "pool_size": 4, "seed": 0, "texts": '
    b'{"title": "A game"}, "attention": {"positions": [0], "action": "end"}, "wiki": '
    b'{"max_clicks": 30, "min_distance": 2, "max_distance": 4}}\n'
)
SEEDS_JSONL = (
    b'{"seed": "bat", "categories": {"mammal": ["fox", "owl", "cat"], "sport tool": ["club", '
    b'"racket", "cue"]}}\n{"seed": "bass", "categories": {"fish": ["cod", "eel", "carp"], '
    b'"instrument": ["cello", "harp", "drum"]}}\n'
)
CATEGORIES_TSV = b"fruit\tapple\tpear\tplum\tfig\nanimal\tcat\tdog\towl\tfox\n"


def _read_study(path: Path):
    from wordgames.serve.config import load_study_file

    return load_study_file(path)


def _study_words(cfg) -> Iterable[str]:
    return [cfg.slug, cfg.game] + ([cfg.completion_code] if cfg.completion_code else [])


def _read_seeds(path: Path):
    from wordgames.oddmanout.generate import read_protocol_seeds

    return read_protocol_seeds(path)


def _seeds_words(seeds) -> Iterable[str]:
    for seed, cats in seeds:
        yield seed
        for name, words in cats.items():
            yield name
            yield from words


def _read_categories(path: Path):
    from wordgames.oddmanout.generate import read_categories

    return read_categories(path)


def _categories_words(cats) -> Iterable[str]:
    for name, words in cats.items():
        yield name
        yield from words


def _results_seed(target: str) -> Callable[[Path], Path]:
    """A results folder (a store of one record and its results.json); the file to mutate."""

    def seed(folder: Path) -> Path:
        from wordgames.measure import Score
        from wordgames.results import MeasureResult, RunRecord, write_json_atomic
        from wordgames.results.store import ResultKey, ResultStore

        r = MeasureResult("similarity", "3", subject="tiny")
        r.scores.append(Score("tiny", "similarity", "men", "", "spearman", 0.5, 0.4, 0.6, 90, 10,
                              "10 pairs out of vocabulary", "higher", 0.9))  # fmt: skip
        root = folder / "out"
        key = ResultKey("a" * 64, "similarity", "3", "p" * 64)
        emb = {"name": "tiny", "sha256": "a" * 64}
        record = ResultStore(root).put(key, r.as_dict(), embedding=emb, params={"seed": 0})
        run = RunRecord([emb], [r.as_dict()], [], {"seed": 0}, {"total": 0.1}).as_dict()
        write_json_atomic(root / "results.json", run)
        return record if target == "record" else root / "results.json"

    return seed


def _read_results_folder(path: Path):
    """What ``wordgames report`` and ``results table`` read: the folder, its leaderboard."""
    from wordgames.report import leaderboard, load_results, long_table

    root = next(p for p in path.parents if (p / "results.json").exists() or p.name == "out")
    coll = load_results(root)
    leaderboard(coll).to_frame()
    return long_table(coll)


def _read_merged(path: Path):
    """``results merge``: the folder's store copied into a fresh one, then its table."""
    from wordgames.results.store import ResultStore

    root = next(p for p in path.parents if p.name == "out")
    merged = ResultStore(root.parent / "merged")
    merged.merge_from(root)
    return merged.table(), merged.quarantined


def _table_words(df) -> Iterable[str]:
    return [str(x) for x in df.get("subject", [])]


def _no_repairs(_result) -> Mapping:
    return {}


def _no_check(_result) -> list[str]:
    return []


def _register_issue22() -> None:
    for name, seed in (("study-toml", _seed_bytes("s.toml", STUDY_TOML)),
                       ("study-json", _seed_bytes("s.json", STUDY_JSON))):  # fmt: skip
        register(FuzzReader(name, seed, _read_study, words=_study_words, repairs=_no_repairs,
                            check=_no_check, tags=("study",)))  # fmt: skip
    register(FuzzReader("omo-protocol-seeds", _seed_bytes("seeds.jsonl", SEEDS_JSONL),
                        _read_seeds, words=_seeds_words, repairs=_no_repairs, check=_no_check,
                        tags=("oddmanout-seeds",)))  # fmt: skip
    register(FuzzReader("omo-categories", _seed_bytes("cats.tsv", CATEGORIES_TSV),
                        _read_categories, words=_categories_words, repairs=_no_repairs,
                        check=_no_check, tags=("oddmanout-seeds",)))  # fmt: skip
    for name, target in (("results-json", "run"), ("results-record", "record")):
        register(FuzzReader(name, _results_seed(target), _read_results_folder,
                            words=_table_words, repairs=_no_repairs, check=_no_check,
                            tags=("results",)))  # fmt: skip
    register(FuzzReader("results-merge", _results_seed("record"), _read_merged,
                        words=lambda r: _table_words(r[0]),
                        repairs=lambda r: {"not_merged": len(r[1])} if r[1] else {},
                        check=_no_check, tags=("results",)))  # fmt: skip


_register_issue22()


# --------------------------------------------------------------------------- issue 38
def _seed_gz(folder: Path) -> Path:
    """A gzip-compressed GloVe text file: the compressed bytes are what is mutated."""
    import gzip

    p = folder / "g.txt.gz"
    p.write_bytes(gzip.compress(_text_rows().encode("utf-8"), mtime=0))
    return p


_MANIFEST_SOURCE: dict[Path, Path] = {}  # the mutated manifest -> the file it caches


def _seed_manifest(folder: Path) -> Path:
    """A GloVe file parsed into the embedding cache; the cache's manifest is mutated."""
    from wordgames.embeddings import load_embedding

    # one place for the source: its path is in the cached report, so the manifest's bytes
    # are the same whatever the work folder (hypothesis replays an example byte for byte)
    cache = Path(os.environ["WORDGAMES_CACHE"])
    shutil.rmtree(cache, ignore_errors=True)  # a manifest an earlier example left is not the seed
    src = cache.parent / "manifest-source" / "g.txt"
    src.parent.mkdir(parents=True, exist_ok=True)
    src.write_text(_text_rows(), encoding="utf-8")
    load_embedding(src)
    manifest = next(cache.rglob("manifest.json"))
    _MANIFEST_SOURCE[manifest] = src
    return manifest


def _read_through_manifest(path: Path):
    """The embedding read again through its (mutated) cache: the file's words and vectors."""
    from wordgames.embeddings import load_embedding

    emb = load_embedding(_MANIFEST_SOURCE[path])
    if emb.words.tolist() != WORDS or not np.array_equal(np.asarray(emb.vectors), VECS):
        raise AssertionError("a damaged manifest gave other vectors than the file's")
    return emb


RESPONSE_KEYS = [f"{i:064x}" for i in range(5)]


def _seed_response_cache(folder: Path) -> Path:
    from wordgames.llm.cache import ResponseCache

    p = folder / "responses.sqlite"
    cache = ResponseCache(p)
    for i, key in enumerate(RESPONSE_KEYS):
        cache.put(key, "m", {"q": i}, {"text": f"answer {i}"}, 3, 1, server="http://h/v1")
    con = cache._connect()
    with con:  # the same bytes every time (hypothesis replays an example byte for byte)
        con.execute("UPDATE responses SET created = 0")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return p


def _read_response_cache(path: Path):
    """Open a (mutated) response cache, read every key, write one: never an exception."""
    from wordgames.llm.cache import ResponseCache

    cache = ResponseCache(path)
    got = {k: cache.get(k) for k in RESPONSE_KEYS}
    cache.put("f" * 64, "m", {}, {"text": "new"}, 0, 0)
    if not cache.read_only and cache.get("f" * 64) != {"text": "new"}:
        raise AssertionError("the cache kept no new answer")
    bad = [v for v in got.values() if v is not None and not isinstance(v, dict)]
    if bad:
        raise AssertionError(f"answers that are not objects: {bad[:2]}")
    return cache


def _cache_repairs(cache) -> Mapping:
    return {"problems": len(cache.problems), "unreadable_rows": cache.unreadable_rows,
            "unsaved": cache.unsaved} if (cache.problems or cache.unreadable_rows) else {}  # fmt: skip


def _register_issue38() -> None:
    register(FuzzReader("glove-text-gz", _seed_gz, _load(), tags=("embeddings",)))
    register(FuzzReader("embedding-cache-manifest", _seed_manifest, _read_through_manifest,
                        tags=("cache",)))  # fmt: skip
    register(FuzzReader("response-cache", _seed_response_cache, _read_response_cache,
                        words=lambda c: [], repairs=_cache_repairs, check=_no_check,
                        tags=("cache",)))  # fmt: skip


_register_issue38()


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
        print(f"{'reader':<26}{'tried':>8}" + "".join(f"{k:>12}" for k in KINDS) + f"{'s':>8}"
              + f"{'peak MB':>9}")  # fmt: skip
        for name in names:
            t = time.perf_counter()
            counts, bad = campaign(READERS[name], args.n, args.seed, Path(tmp) / "work")
            total_bad += counts["unexpected"] + counts["unclear"]
            # the peak after each reader: it stays flat when memory is bounded by the inputs
            print(f"{name:<26}{args.n:>8}" + "".join(f"{counts[k]:>12}" for k in KINDS)
                  + f"{time.perf_counter() - t:>8.1f}{_peak_mb():>9.0f}", flush=True)  # fmt: skip
            for out in bad[: args.show]:
                print(f"    {out.kind}: {out.ops}\n      {out.detail.strip()[:600]}")
    print(f"unexpected or unclear: {total_bad}")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
