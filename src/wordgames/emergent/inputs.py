"""Turn emergent-communication logs of every shape into one encoding: words and concepts.

Every measure of :mod:`wordgames.emergent.measures` works on two encodings built here:

* :class:`EncodedMessages` -- one row per message, the message's words as integer codes into a
  vocabulary of word names, left-aligned, ``-1`` after the last word;
* :class:`EncodedConcepts` -- a binary ``B x C`` sparse matrix: sample ``b`` has concept ``c``.

Message inputs (``kind`` says which; ``"auto"`` guesses from the shape and values):

``"ids"``
    integer array ``B x L`` (numpy or torch). Word name = ``str(id)``.
``"onehot"``
    array ``B x L x V`` as a Gumbel-Softmax channel emits (one-hot or soft). The word is the
    ``argmax`` over ``V``; an all-zero row is no word (padding). Word name = ``str(argmax)``.
``"binary"``
    quantized words ``B x L x d`` with 0/1 entries: each distinct bit vector is one word. Word
    name = the bits as a string, e.g. ``"0110"``. For ``eos_id``/``pad_id`` a bit vector is read
    as the integer whose binary expansion it is, most significant bit first (``d <= 63``).
``"tokens"``
    a list of token lists (any hashable tokens; names are ``str(token)``), or a list of strings
    split on whitespace.

EOS and padding, the same for every kind: a message ends at its first ``eos_id`` (the EOS symbol
and everything after it are ignored); ``pad_id`` symbols are dropped wherever they occur. Neither
is ever a word, so neither counts in any measure. ``"auto"`` reads a 3-D 0/1 array whose rows
hold at most one 1 as one-hot (the words are the same partition either way; pass ``kind`` when
the EOS id must be read as a bit vector).

Concept inputs: a list (length ``B``) of lists of concept strings (``"color=red"``) or of
whitespace-separated phrases, or a binary ``B x C`` matrix (numpy, torch or scipy sparse) with
``concept_names``. A concept repeated within one label counts once (labels are sets).

Objects with EGG's ``Interaction`` fields (``message``, ``labels``, ``sender_input``,
``aux_input``) are read by duck typing with :func:`from_interaction`; JSONL and CSV files with
:func:`read_log`.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from wordgames.errors import DataFormatError
from wordgames.textio import (
    BAD_WORD_CHARS,
    bad_word_reason,
    decode_utf8,
    parse_json,
    read_bytes,
    strip_bom,
)

#: a gzipped log may unpack to at most this many times its size (its object vectors repeat)
LOG_GZIP_MAX_RATIO = 400

MESSAGE_KINDS = ("auto", "ids", "onehot", "binary", "tokens")


@dataclass(frozen=True)
class EncodedMessages:
    """Messages as word codes.

    Attributes
    ----------
    codes : int64 array ``B x L``; ``codes[b, :lengths[b]]`` are the words of message ``b`` in
        order (EOS, everything after it and padding removed), ``-1`` after them
    vocab : object array of word names; code ``k`` is word ``vocab[k]``
    lengths : int64 array ``B``, number of words (tokens, repeats included) per message
    kind : the input kind that was read
    """

    codes: np.ndarray
    vocab: np.ndarray
    lengths: np.ndarray
    kind: str

    def __len__(self) -> int:
        return int(self.codes.shape[0])

    @property
    def n_words(self) -> int:
        return int(len(self.vocab))

    def word_lists(self) -> list[list[str]]:
        """The messages as lists of word names."""
        vocab = self.vocab
        return [list(vocab[row[:n]]) for row, n in zip(self.codes, self.lengths, strict=True)]

    def message_ids(self) -> tuple[np.ndarray, int]:
        """Integer id of each distinct message (word sequence) and the number of distinct ones."""
        return row_ids(self.codes)

    def take(self, rows) -> EncodedMessages:
        """A subset of the messages (same vocabulary)."""
        rows = np.asarray(rows)
        return EncodedMessages(self.codes[rows], self.vocab, self.lengths[rows], self.kind)


@dataclass(frozen=True)
class EncodedConcepts:
    """Labels as a binary sparse matrix.

    Attributes
    ----------
    matrix : ``scipy.sparse.csr_matrix`` ``B x C`` of 0/1 (float64), row ``b`` = concepts of sample b
    names : object array of concept names, length ``C``
    n_duplicates : concepts listed twice in one label (counted once; reported as repairs)
    """

    matrix: sp.csr_matrix
    names: np.ndarray
    n_duplicates: int = 0

    def __len__(self) -> int:
        return int(self.matrix.shape[0])

    def concept_lists(self) -> list[list[str]]:
        m = self.matrix
        return [
            list(self.names[m.indices[m.indptr[b] : m.indptr[b + 1]]]) for b in range(m.shape[0])
        ]

    def phrase_ids(self) -> tuple[np.ndarray, int]:
        """Integer id of each distinct phrase (the set of concepts of a label)."""
        m = self.matrix.tocsr()
        m.sort_indices()
        b = m.shape[0]
        counts = np.diff(m.indptr)
        width = int(counts.max()) if b else 0
        if b == 0:
            return np.zeros(0, dtype=np.int64), 0
        # each label as a fixed-width row of its sorted concept ids, -1 after them
        rows = np.full((b, max(width, 1)), -1, dtype=np.int64)
        pos = np.arange(m.nnz) - np.repeat(m.indptr[:-1], counts)
        rows[np.repeat(np.arange(b), counts), pos] = m.indices
        return row_ids(rows)

    def take(self, rows) -> EncodedConcepts:
        return EncodedConcepts(self.matrix[np.asarray(rows)], self.names, 0)


@dataclass
class LanguageLog:
    """A log of an emergent language: messages, concepts and optional object vectors."""

    messages: Any
    concepts: Any
    objects: np.ndarray | None = None
    concept_names: list[str] | None = None
    source: str | None = None
    #: per turn, the receiver's share of candidates classified correctly (a game's log)
    accuracy: np.ndarray | None = None
    notes: list[str] = field(default_factory=list)
    repairs: dict[str, int] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------
# messages


def row_ids(rows: np.ndarray) -> tuple[np.ndarray, int]:
    """Id of each distinct row of an integer matrix (ids in order of first appearance).

    One hash factorization per column (``np.unique(axis=0)`` sorts rows as byte strings, which
    is many times slower on 10^5 rows).
    """
    import pandas as pd

    b = rows.shape[0]
    if b == 0:
        return np.zeros(0, dtype=np.int64), 0
    if rows.ndim < 2 or rows.shape[1] == 0:
        return np.zeros(b, dtype=np.int64), 1
    ids = np.zeros(b, dtype=np.int64)
    n = 1
    for col in rows.T:  # a loop over the message length, not over rows
        _, col_codes = np.unique(col, return_inverse=True)
        ids, uniq = pd.factorize(ids * (int(col_codes.max()) + 1) + col_codes.reshape(-1))
        n = len(uniq)
    return ids.astype(np.int64), n


def _to_numpy(x):
    """NumPy view of a torch tensor (duck-typed) or array-like."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):
        x = x.detach().cpu().numpy()
    return x


def _guess_kind(x) -> str:
    if isinstance(x, np.ndarray):
        if x.ndim == 2:
            return "ids"
        if x.ndim == 3:
            if x.size == 0:
                return "onehot"
            is_binary = bool(np.isin(x, (0, 1)).all())
            if not is_binary or bool((x.sum(axis=-1) <= 1).all()):
                return "onehot"
            return "binary"
        raise ValueError(
            f"a message array must have 2 (B x L) or 3 (B x L x V) axes, got {x.shape}"
        )
    return "tokens"


def _compact(tokens: np.ndarray, valid: np.ndarray, names_of, kind: str) -> EncodedMessages:
    """Codes from token ids with a validity mask: left-align the valid tokens, factorize them."""
    b, length = tokens.shape
    lengths = valid.sum(axis=1).astype(np.int64)
    uniques, inverse = np.unique(tokens[valid], return_inverse=True)
    codes = np.full((b, length), -1, dtype=np.int64)
    codes[valid] = inverse.reshape(-1)
    # stable sort of "invalid" moves the kept tokens to the front in their original order
    order = np.argsort(~valid, axis=1, kind="stable")
    codes = np.take_along_axis(codes, order, axis=1)
    width = int(lengths.max()) if b else 0
    vocab = np.array(names_of(uniques), dtype=object)
    return EncodedMessages(np.ascontiguousarray(codes[:, :width]), vocab, lengths, kind)


def _mask(tokens: np.ndarray, present: np.ndarray, eos_id, pad_id) -> np.ndarray:
    valid = present.copy()
    if eos_id is not None:
        is_eos = (tokens == eos_id) & present
        valid &= np.cumsum(is_eos, axis=1) == 0  # the EOS itself and everything after it go
    if pad_id is not None:
        valid &= tokens != pad_id
    return valid


def encode_messages(messages, *, kind: str = "auto", eos_id=None, pad_id=None) -> EncodedMessages:
    """Encode messages of any supported kind (see the module docstring).

    Examples
    --------
    >>> m = encode_messages(np.array([[3, 5, 0, 9], [5, 0, 0, 0]]), eos_id=0)
    >>> m.word_lists()
    [['3', '5'], ['5']]
    """
    if kind not in MESSAGE_KINDS:
        raise ValueError(f"unknown message kind {kind!r}; expected one of {MESSAGE_KINDS}")
    if isinstance(messages, EncodedMessages):
        return messages
    x = _to_numpy(messages)
    if kind == "auto":
        kind = _guess_kind(x if isinstance(x, np.ndarray) else messages)
    if kind == "tokens":
        return _encode_tokens(x, eos_id=eos_id, pad_id=pad_id)
    x = np.asarray(x)
    if kind == "ids":
        if x.ndim != 2:
            raise ValueError(f"integer messages must be B x L, got shape {x.shape}")
        if x.size and not np.issubdtype(x.dtype, np.integer):
            if not np.all(np.equal(np.mod(x, 1), 0)):
                raise ValueError("integer messages hold non-integer values; pass kind='onehot'?")
            x = x.astype(np.int64)
        present = np.ones(x.shape, dtype=bool)
        return _compact(
            x, _mask(x, present, eos_id, pad_id), lambda u: [str(int(t)) for t in u], "ids"
        )
    if x.ndim != 3:
        raise ValueError(f"{kind} messages must be B x L x V, got shape {x.shape}")
    if kind == "onehot":
        tokens = (
            x.argmax(axis=-1).astype(np.int64) if x.shape[-1] else np.zeros(x.shape[:2], np.int64)
        )
        present = x.any(axis=-1)
        return _compact(
            tokens,
            _mask(tokens, present, eos_id, pad_id),
            lambda u: [str(int(t)) for t in u],
            "onehot",
        )
    # binary (quantized) words
    d = x.shape[-1]
    if x.size and not np.isin(x, (0, 1)).all():
        raise ValueError("quantized words must hold only 0 and 1")
    bits = x.astype(np.int64)
    if d <= 63:
        tokens = bits @ (np.int64(1) << np.arange(d - 1, -1, -1, dtype=np.int64))
        present = np.ones(tokens.shape, dtype=bool)

        def names(u):
            return [format(int(t), f"0{d}b") if d else "" for t in u]

        return _compact(tokens, _mask(tokens, present, eos_id, pad_id), names, "binary")
    if eos_id is not None or pad_id is not None:
        raise ValueError("eos_id/pad_id for quantized words need d <= 63 bits")
    flat = bits.reshape(-1, d)
    uniq, inverse = np.unique(flat, axis=0, return_inverse=True)
    tokens = inverse.reshape(x.shape[:2]).astype(np.int64)
    strings = ["".join(map(str, row)) for row in uniq]
    return _compact(
        tokens, np.ones(tokens.shape, dtype=bool), lambda u: [strings[t] for t in u], "binary"
    )


def _encode_tokens(messages, *, eos_id, pad_id) -> EncodedMessages:
    import pandas as pd

    rows = [
        m.split()
        if isinstance(m, str)
        else _to_numpy(m).tolist()
        if hasattr(m, "detach") or isinstance(m, np.ndarray)
        else m
        for m in messages
    ]
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    flat = np.empty(int(lengths.sum()), dtype=object)
    flat[:] = list(chain.from_iterable(rows))
    raw_codes, raw_uniques = pd.factorize(flat)
    # tokens are words by their names: 1 and "1" are the same word
    name_codes, names = pd.factorize(
        np.array([str(u) for u in raw_uniques], dtype=object), sort=True
    )
    width = int(lengths.max()) if len(rows) else 0
    tokens = np.full((len(rows), width), -1, dtype=np.int64)
    if flat.size:
        r = np.repeat(np.arange(len(rows)), lengths)
        c = np.arange(flat.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        tokens[r, c] = name_codes[raw_codes]
    index = {n: i for i, n in enumerate(names)}
    eos = index.get(str(eos_id), -2) if eos_id is not None else None
    pad = index.get(str(pad_id), -2) if pad_id is not None else None
    names = np.asarray(names, dtype=object)
    return _compact(tokens, _mask(tokens, tokens >= 0, eos, pad), lambda u: names[u], "tokens")


def to_word_lists(messages, *, kind: str = "auto", eos_id=None, pad_id=None) -> list[list[str]]:
    """The words of each message as a list of word names (EOS, after-EOS and padding removed).

    Examples
    --------
    >>> to_word_lists([[1, 2, 0, 7]], eos_id=0)
    [['1', '2']]
    >>> to_word_lists(np.array([[[0, 1], [1, 1]]]), kind="binary")
    [['01', '11']]
    """
    return encode_messages(messages, kind=kind, eos_id=eos_id, pad_id=pad_id).word_lists()


# --------------------------------------------------------------------------------------------
# concepts


def encode_concepts(concepts, *, concept_names=None) -> EncodedConcepts:
    """Encode labels as a binary ``B x C`` sparse matrix (see the module docstring).

    Examples
    --------
    >>> c = encode_concepts([["color=red", "shape=box"], ["color=red"]])
    >>> list(c.names), c.matrix.toarray().tolist()
    (['color=red', 'shape=box'], [[1.0, 1.0], [1.0, 0.0]])
    """
    if isinstance(concepts, EncodedConcepts):
        return concepts
    if sp.issparse(concepts) or isinstance(_to_numpy(concepts), np.ndarray):
        m = sp.csr_matrix(concepts if sp.issparse(concepts) else np.asarray(_to_numpy(concepts)))
        if m.ndim != 2:
            raise ValueError("a concept matrix must be B x C")
        if m.nnz and not np.isin(m.data, (0, 1)).all():
            raise ValueError("a concept matrix must be binary (0/1)")
        m.eliminate_zeros()
        m = m.astype(np.float64)
        names = (
            np.array([str(n) for n in concept_names], dtype=object)
            if concept_names is not None
            else np.array([f"c{i}" for i in range(m.shape[1])], dtype=object)
        )
        if len(names) != m.shape[1]:
            raise ValueError(f"{len(names)} concept names for {m.shape[1]} concept columns")
        return EncodedConcepts(m, names, 0)
    import pandas as pd

    rows = [c.split() if isinstance(c, str) else c for c in concepts]
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    flat = np.empty(int(lengths.sum()), dtype=object)
    flat[:] = list(chain.from_iterable(rows))
    if flat.size:
        raw_codes, raw_uniques = pd.factorize(flat)
        # concepts are compared by their names (str)
        name_codes, uniques = pd.factorize(
            np.array([str(u) for u in raw_uniques], dtype=object), sort=True
        )
        codes = name_codes[raw_codes]
    else:
        codes, uniques = np.zeros(0, dtype=np.int64), np.array([], dtype=object)
    names = np.asarray(uniques, dtype=object)
    if concept_names is not None:  # fixed column order (e.g. every concept of a world)
        names = np.array([str(n) for n in concept_names], dtype=object)
        index = {n: i for i, n in enumerate(names)}
        missing = sorted(set(uniques) - set(index))
        if missing:
            raise ValueError(f"concepts not in concept_names: {missing[:5]}")
        codes = (
            np.array([index[u] for u in uniques], dtype=np.int64)[codes] if len(codes) else codes
        )
    r = np.repeat(np.arange(len(rows)), lengths)
    m = sp.csr_matrix((np.ones(len(codes)), (r, codes)), shape=(len(rows), len(names)))
    m.sum_duplicates()
    n_dup = int(m.data.sum() - m.nnz)
    m.data[:] = 1.0
    return EncodedConcepts(m, names, n_dup)


# --------------------------------------------------------------------------------------------
# EGG interactions and files


def from_interaction(interaction, *, concept_names=None) -> LanguageLog:
    """Read an object with EGG's ``Interaction`` fields (duck typing; torch tensors or numpy).

    ``message`` holds the messages (any array kind above). The concepts are taken from, in this
    order: ``aux_input["concepts"]`` (lists of concept strings or a binary matrix, names in
    ``aux_input["concept_names"]`` or ``concept_names``), else ``labels`` when it is a binary
    ``B x C`` matrix with concept names. ``sender_input`` (flattened to ``B x D``) is the object
    representation used by TopSim.
    """
    message = getattr(interaction, "message", None)
    if message is None:
        raise ValueError("the interaction has no 'message' field")
    aux = getattr(interaction, "aux_input", None) or {}
    names = concept_names
    if isinstance(aux, dict) and aux.get("concept_names") is not None and names is None:
        names = list(aux["concept_names"])
    concepts = aux.get("concepts") if isinstance(aux, dict) else None
    if concepts is None:
        labels = getattr(interaction, "labels", None)
        if labels is None:
            raise ValueError("the interaction has neither aux_input['concepts'] nor 'labels'")
        arr = np.asarray(_to_numpy(labels))
        if arr.ndim != 2:
            raise ValueError(
                "interaction.labels must be a binary B x C concept matrix "
                "(or put concept lists in aux_input['concepts'])"
            )
        if names is None:
            raise ValueError(
                "concept names are needed for interaction.labels: pass concept_names "
                "or set aux_input['concept_names']"
            )
        concepts = arr
    concepts = _to_numpy(concepts)
    objects = getattr(interaction, "sender_input", None)
    if objects is not None:
        objects = np.asarray(_to_numpy(objects), dtype=np.float64)
        objects = objects.reshape(objects.shape[0], -1)
    return LanguageLog(
        messages=_to_numpy(message),
        concepts=concepts,
        objects=objects,
        concept_names=names,
        source=type(interaction).__name__,
    )


def _parse_tokens(value, path, line, what):
    """The tokens of a ``message`` or ``concepts`` field, each checked to be a word.

    A string is split at whitespace once it is known to hold no control character other than
    tabs and line ends (``str.split`` would take a form feed or ``U+0085`` for a space); a list
    holds strings or integers. An empty token or one holding a control character raises
    :class:`DataFormatError`.
    """
    if isinstance(value, str):
        m = _CONTROL.search(value)
        if m:  # str.split would take some of them (form feed, U+0085...) for a space
            raise DataFormatError(
                path, line, f"'{what}' {value!r} holds the control character U+{ord(m.group()):04X}"
            )
        return value.split()  # no empty token, no control character
    if isinstance(value, list) and all(
        isinstance(t, str | int) and not isinstance(t, bool) for t in value
    ):
        tokens = [str(t) for t in value]
    else:
        raise DataFormatError(
            path,
            line,
            f"'{what}' must be a list of tokens or a space-separated "
            f"string, got {type(value).__name__}",
        )
    if "" in tokens or BAD_WORD_CHARS.search(" ".join(tokens)):  # one scan, then the culprit
        i, tok = next((i, t) for i, t in enumerate(tokens, start=1) if bad_word_reason(t))
        raise DataFormatError(path, line, f"token {i} {tok!r} of '{what}' {bad_word_reason(tok)}")
    return tokens


#: control characters a space-separated field may not hold (tabs and line ends separate tokens)
_CONTROL = re.compile(BAD_WORD_CHARS.pattern.replace("\x00-\x1f", "\x00-\x08\x0b-\x0c\x0e-\x1f"))


def _parse_object(value, path, line):
    if value is None:
        return None
    if isinstance(value, str):
        m = _CONTROL.search(value)
        if m:
            raise DataFormatError(
                path, line, f"'object' holds the control character U+{ord(m.group()):04X}"
            )
        value = value.split()
    try:
        vec = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise DataFormatError(path, line, "'object' must be a list of numbers") from None
    if vec.ndim != 1 or vec.size == 0 or not np.isfinite(vec).all():
        raise DataFormatError(
            path, line, "'object' must be a flat, non-empty list of finite numbers"
        )
    return vec


def _parse_accuracy(value, path, line) -> float | None:
    """A turn's ``accuracy``: a number in [0, 1] (None when the line has none)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        acc = float(value)
    except (TypeError, ValueError, OverflowError):
        raise DataFormatError(path, line, "'accuracy' must be a number in [0, 1]") from None
    if isinstance(value, bool) or not 0.0 <= acc <= 1.0:
        raise DataFormatError(path, line, f"'accuracy' must be a number in [0, 1], got {value!r}")
    return acc


def _accuracy_array(values: list, lines: list[int], path: Path) -> np.ndarray | None:
    """The turns' accuracies as one array (``None`` when no line has one)."""
    has = [v is not None for v in values]
    if not any(has):
        return None
    if not all(has):
        raise DataFormatError(
            path, lines[has.index(False)], "'accuracy' is given on some lines but not this one"
        )
    return np.asarray(values, dtype=np.float64)


def _log_format(path: Path, fmt: str) -> str:
    if fmt == "auto":
        suffixes = [x.lower() for x in path.suffixes[-2:]]
        inner = suffixes[0] if suffixes[-1:] == [".gz"] and len(suffixes) == 2 else path.suffix
        fmt = "csv" if inner.lower() in (".csv", ".tsv") else "jsonl"
    if fmt not in ("jsonl", "csv"):
        raise ValueError(f"unknown log format {fmt!r}; expected 'jsonl' or 'csv'")
    return fmt


def _jsonl_records(text: str, path: Path) -> tuple[list[tuple[int, dict]], int]:
    """(line number, record) of every non-blank line, and the number of blank lines."""
    records, blank = [], 0
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip(" \t"):
            blank += lineno < len(lines)  # the empty piece after the final newline is no line
            continue
        rec = parse_json(raw, path, lineno, "invalid JSON ({})")
        if not isinstance(rec, dict):
            raise DataFormatError(
                path, lineno, "expected a JSON object with 'message' and 'concepts'"
            )
        records.append((lineno, rec))
    return records, blank


def _csv_records(text: str, path: Path) -> tuple[list[tuple[int, dict]], int]:
    """(line number, row) of every non-blank CSV (or ``.tsv``) row, and the blank rows."""
    dialect = "excel-tab" if path.suffix.lower() == ".tsv" else "excel"
    reader = csv.DictReader(io.StringIO(text, newline=""), dialect=dialect)
    try:
        fields = reader.fieldnames or []
        for col in fields:
            why = bad_word_reason(col)
            if why:
                raise DataFormatError(path, 1, f"CSV header column {col!r} {why}")
        for col in ("message", "concepts"):
            if col not in fields:
                raise DataFormatError(
                    path, 1, f"CSV header lacks the '{col}' column (found {fields})"
                )
        records, blank = [], 0
        for rec in reader:
            lineno = reader.line_num
            if all((v or "").strip(" \t") == "" for k, v in rec.items() if k is not None):
                blank += 1
                continue
            if None in rec:
                raise DataFormatError(path, lineno, "more fields than header columns")
            records.append((lineno, rec))
    except csv.Error as exc:
        raise DataFormatError(
            path, reader.reader.line_num or None, f"not valid CSV ({exc})"
        ) from None
    return records, blank


def _object_array(objects: list, object_lines: list[int], path: Path) -> np.ndarray | None:
    """The object vectors as one ``B x D`` array (``None`` when no line has one)."""
    has = [o is not None for o in objects]
    if not any(has):
        return None
    if not all(has):
        first = object_lines[has.index(False)]
        raise DataFormatError(path, first, "'object' is given on some lines but not this one")
    dims = {o.shape[0] for o in objects}
    if len(dims) != 1:
        first = object_lines[
            next(i for i, o in enumerate(objects) if o.shape[0] != objects[0].shape[0])
        ]
        raise DataFormatError(path, first, f"'object' vectors differ in length ({sorted(dims)})")
    return np.vstack(objects)


def read_log(path, *, fmt: str = "auto") -> LanguageLog:
    """Read a message + concepts log file (JSONL or CSV).

    JSONL: one JSON object per line, ``{"message": [3, 7, 1] | "3 7 1", "concepts":
    ["color=red", "shape=box"] | "color=red shape=box", "object": [0.0, 1.0, ...], "accuracy":
    0.95}`` (``object`` and ``accuracy`` optional, but each either on every line or on none;
    ``accuracy`` is the receiver's share of candidates classified correctly on that turn, as
    ``wordgames cbm train`` writes it). CSV: a header with columns ``message`` and ``concepts``
    (tokens separated by spaces) and optionally ``object`` (numbers separated by spaces) and
    ``accuracy``. A gzip file (``.jsonl.gz``) is unpacked, to at most :data:`LOG_GZIP_MAX_RATIO`
    times its size. Blank lines are skipped and counted, a leading byte-order mark is dropped and
    counted (``repairs``). Tokens are kept as strings; the EOS and padding ids are applied by
    :func:`encode_messages`. A malformed line raises :class:`~wordgames.errors.DataFormatError`
    naming the file and line: invalid UTF-8 or JSON, a missing field, an empty token or one
    holding a control character (NUL, escape, ``U+0085``...), an ``object`` that is not a
    non-empty list of finite numbers.

    Parameters
    ----------
    path : str or Path
        The log file.
    fmt : {"auto", "jsonl", "csv"}
        ``"auto"``: CSV for ``.csv`` and ``.tsv`` files, JSONL otherwise.

    Returns
    -------
    LanguageLog
    """
    path = Path(path)
    if not path.is_file():
        raise DataFormatError(path, None, "no such file")
    fmt = _log_format(path, fmt)
    # logs of images (the Shape world) pack about 90 to 1
    data = read_bytes(path, gzip_ratio=LOG_GZIP_MAX_RATIO)
    text, bom = strip_bom(decode_utf8(data, path))
    records, blank = (_jsonl_records if fmt == "jsonl" else _csv_records)(text, path)
    messages, concepts, objects, object_lines, accuracy = [], [], [], [], []
    for lineno, rec in records:
        for col in ("message", "concepts"):
            if col not in rec or rec[col] is None:
                raise DataFormatError(path, lineno, f"missing '{col}'")
        messages.append(_parse_tokens(rec["message"], path, lineno, "message"))
        cons = _parse_tokens(rec["concepts"], path, lineno, "concepts")
        if not cons:
            raise DataFormatError(path, lineno, "empty 'concepts': every message needs its label")
        concepts.append(cons)
        obj = rec.get("object")
        if isinstance(obj, str) and not obj.strip():
            obj = None
        objects.append(_parse_object(obj, path, lineno))
        object_lines.append(lineno)
        accuracy.append(_parse_accuracy(rec.get("accuracy"), path, lineno))
    if not messages:
        raise DataFormatError(path, None, "no records")
    repairs = {"blank_lines_skipped": blank} if blank else {}
    if bom:
        repairs["bom_removed"] = 1
    return LanguageLog(
        messages=messages,
        concepts=concepts,
        objects=_object_array(objects, object_lines, path),
        source=str(path),
        repairs=repairs,
        accuracy=_accuracy_array(accuracy, object_lines, path),
    )
