"""Vocabulary restriction: top-N, a word list, lower-case alphabetic words, intersections.

The Codenames sender measure is very sensitive to the size of the clue vocabulary, so the
paper evaluates every agent on the intersection of the embeddings' vocabularies; these
functions make that setting explicit and recordable.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from wordgames.errors import DataFormatError
from wordgames.textio import decode_utf8


class Embedding(Protocol):
    """What vocab needs of an embedding (core imports this module, never the reverse)."""

    name: str

    def lookup(self, words): ...

    def take(self, rows, *, name: str): ...


def lower_alpha_mask(words: Sequence[str] | np.ndarray) -> np.ndarray:
    """Boolean mask of the words made only of the letters a-z.

    Parameters
    ----------
    words : sequence of str or numpy.ndarray

    Returns
    -------
    numpy.ndarray of bool

    Examples
    --------
    >>> lower_alpha_mask(["cat", "Cat", "ice-cream", "x1", "dog"]).tolist()
    [True, False, False, False, True]
    """
    arr = np.asarray(words, dtype=object).astype(str)
    if arr.size == 0:
        return np.zeros(0, dtype=bool)
    ascii_len = np.strings.str_len(np.strings.encode(arr, "ascii", "ignore"))
    return (
        np.strings.isalpha(arr) & np.strings.islower(arr) & (ascii_len == np.strings.str_len(arr))
    )


def read_word_list(path: str | Path) -> list[str]:
    r"""One word per line; blank lines and ``#`` comments ignored; CR, LF or CRLF line ends.

    Spaces around a word and a byte-order mark before the first line are dropped. A word that
    holds a control character (a tab, NUL, ...) is a :class:`DataFormatError` naming the line.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = Path(d) / "w.txt"
    ...     _ = p.write_bytes(b"\xef\xbb\xbfcat\r\n# note\n\n dog \n")
    ...     read_word_list(p)
    ['cat', 'dog']
    """
    from wordgames.embeddings.validate import bad_word_reason

    path = Path(path)
    try:
        text = decode_utf8(path.read_bytes(), path)
    except FileNotFoundError:
        raise DataFormatError(path, None, "word list file not found") from None
    except OSError as exc:
        raise DataFormatError(path, None, f"cannot read the word list ({exc.strerror})") from None
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    words = []
    for i, raw in enumerate(text.split("\n"), start=1):
        w = raw.strip(" ")
        if not w or w.startswith("#"):
            continue
        reason = bad_word_reason(w)
        if reason:
            raise DataFormatError(path, i, f"the word {w!r} {reason}")
        words.append(w)
    return words


def restrict(
    emb: Embedding,
    *,
    top_n: int | None = None,
    words: Iterable[str] | str | Path | None = None,
    lower_alpha: bool = False,
    name: str | None = None,
) -> Embedding:
    """Restrict an embedding's vocabulary, keeping frequency order.

    Filters apply in this order: ``lower_alpha`` (only ``[a-z]+`` words), ``words`` (a word
    list or the path of a word-list file), then ``top_n`` (the N most frequent survivors).

    Parameters
    ----------
    emb : Embedding
    top_n : int, optional
        Keep the N most frequent words left.
    words : iterable of str, or a path, optional
        Keep only these words (a word-list file: one word a line).
    lower_alpha : bool
        Keep only ``[a-z]+`` words.
    name : str, optional
        The restricted embedding's name (default: derived from the filters).

    Returns
    -------
    Embedding

    Examples
    --------
    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> e = Embedding(["the", "Cat", "dog", "a1", "eel"], np.eye(5))
    >>> restrict(e, lower_alpha=True, top_n=2).words.tolist()
    ['the', 'dog']
    """
    keep = np.ones(len(emb), dtype=bool)
    parts = []
    if lower_alpha:
        keep &= lower_alpha_mask(emb.words)
        parts.append("alpha")
    if words is not None:
        if isinstance(words, str | Path):
            words = read_word_list(words)
        look = emb.lookup(words)
        in_list = np.zeros(len(emb), dtype=bool)
        in_list[look.indices[look.found]] = True
        keep &= in_list
        parts.append(f"list{int(in_list.sum())}")
    rows = np.flatnonzero(keep)
    if top_n is not None:
        if top_n <= 0:
            raise ValueError(f"top_n must be positive, got {top_n}")
        rows = rows[:top_n]
        parts.append(f"top{top_n}")
    return emb.take(rows, name=name or (emb.name + ("[" + ",".join(parts) + "]" if parts else "")))


def intersect_vocabularies(embeddings: Sequence[Embedding]) -> list[Embedding]:
    """Restrict every embedding to the words all of them share.

    The shared words keep the frequency order of the first embedding, and every returned
    embedding lists them in that same order, so row ``i`` is the same word everywhere.

    Parameters
    ----------
    embeddings : sequence of Embedding

    Returns
    -------
    list of Embedding
        One per embedding given, each restricted to the shared words.

    Examples
    --------
    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> a = Embedding(["x", "y", "z"], np.eye(3), name="a")
    >>> b = Embedding(["z", "x", "w"], np.eye(3), name="b")
    >>> [e.words.tolist() for e in intersect_vocabularies([a, b])]
    [['x', 'z'], ['x', 'z']]
    """
    if not embeddings:
        return []
    first = embeddings[0]
    keep = np.ones(len(first), dtype=bool)
    for other in embeddings[1:]:
        keep &= other.lookup(first.words.tolist()).found
    common = first.words[keep].tolist()
    out = []
    for emb in embeddings:
        rows = emb.lookup(common).indices
        out.append(emb.take(rows, name=emb.name))
    return out
