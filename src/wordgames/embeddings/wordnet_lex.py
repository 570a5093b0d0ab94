"""WordNet 3.0 read straight from its ``data.*`` files: word relations and a text corpus.

The derived embeddings (:mod:`wordgames.embeddings.derived`) need WordNet's synonym, hypernym,
hyponym and antonym relations between single words, and the embeddings trained here
(:mod:`wordgames.embeddings.trained`) need its glosses and example sentences as text. Both are
read from the four data files (``data.noun``, ``data.verb``, ``data.adj``, ``data.adv``) of the
folder named by ``$WORDGAMES_WORDNET``, else Debian's ``wordnet-base`` in
``/usr/share/wordnet`` (installed by ``scripts/install.sh``). No nltk: this layer imports no
measure family, and parsing the four files takes about a second.

Only lower-case single-word lemmas are kept (``dog``; not ``hot_dog`` nor ``Paris``); the
adjective markers ``(a)``, ``(p)``, ``(ip)`` are stripped. Relations are returned as word-word
pairs made by sparse matrix products of the synset-word incidence matrix, never by a loop over
synsets.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordgames.errors import DataFormatError, DatasetMissingError

DEBIAN_ROOT = Path("/usr/share/wordnet")
DATA_FILES = ("data.noun", "data.verb", "data.adj", "data.adv")
_POS_FILE = {"n": 0, "v": 1, "a": 2, "s": 2, "r": 3}
_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?")


def wordnet_root() -> Path:
    """The WordNet folder: ``$WORDGAMES_WORDNET``, else ``/usr/share/wordnet``."""
    root = Path(os.environ.get("WORDGAMES_WORDNET") or DEBIAN_ROOT)
    if not all((root / f).is_file() for f in DATA_FILES):
        raise DatasetMissingError(
            f"WordNet 3.0 data files ({', '.join(DATA_FILES)}) not found in {root}: install "
            "Debian's wordnet-base (scripts/install.sh does) or set WORDGAMES_WORDNET"
        )
    return root


@dataclass(frozen=True)
class WordNetLexicon:
    """Single-word lemmas of WordNet and the synsets they belong to.

    Attributes
    ----------
    words : the distinct lower-case single-word lemmas, sorted
    member_synset, member_word : one entry per (synset, word) membership
    hyper_child, hyper_parent : one entry per hypernym pointer (synset ids)
    ant_a, ant_b : one entry per lexical antonym pointer (word ids, both single words)
    glosses : one text per synset: its lemmas, gloss and example sentences
    """

    words: np.ndarray
    member_synset: np.ndarray
    member_word: np.ndarray
    n_synsets: int
    hyper_child: np.ndarray
    hyper_parent: np.ndarray
    ant_a: np.ndarray
    ant_b: np.ndarray
    glosses: tuple[str, ...]

    def incidence(self):
        """The synset x word incidence matrix (CSR, 0/1)."""
        from scipy import sparse

        ones = np.ones(len(self.member_word), dtype=np.float32)
        m = sparse.csr_matrix(
            (ones, (self.member_synset, self.member_word)),
            shape=(self.n_synsets, len(self.words)),
        )
        m.data[:] = 1.0  # a word listed twice in a synset counts once
        return m


def _lemma(raw: str) -> str | None:
    word = raw.split("(", 1)[0]
    return word if word.isalpha() and word.islower() else None


def _parse_line(path: Path, lineno: int, line: str):
    head, _, gloss = line.partition(" | ")
    f = head.split()
    try:
        n_words = int(f[3], 16)
        lemmas = [f[4 + 2 * i] for i in range(n_words)]
        p = 4 + 2 * n_words
        n_ptr = int(f[p])
        ptrs = [tuple(f[p + 1 + 4 * i : p + 5 + 4 * i]) for i in range(n_ptr)]
    except (IndexError, ValueError):
        raise DataFormatError(
            path, lineno, "expected a WordNet data line: offset lex_filenum ss_type w_cnt ..."
        ) from None
    if any(len(ptr) != 4 for ptr in ptrs):
        raise DataFormatError(path, lineno, f"{n_ptr} pointers announced, fewer found")
    return int(f[0]), lemmas, ptrs, gloss


def read_lexicon(root: str | Path | None = None) -> WordNetLexicon:
    """Parse the four data files into a :class:`WordNetLexicon` (see the module)."""
    root = Path(root) if root is not None else wordnet_root()
    sid: dict[tuple[int, int], int] = {}
    rows = []  # (file, offset, lemmas, pointers, gloss)
    for fi, fname in enumerate(DATA_FILES):
        path = root / fname
        with open(path, encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                if line.startswith("  ") or not line.strip():
                    continue  # licence header
                off, lemmas, ptrs, gloss = _parse_line(path, lineno, line)
                sid[(fi, off)] = len(rows)
                rows.append((fi, lemmas, ptrs, gloss))
    words = sorted({w for r in rows for raw in r[1] if (w := _lemma(raw)) is not None})
    wid = {w: i for i, w in enumerate(words)}
    m_s, m_w, h_c, h_p, a_a, a_b, glosses = [], [], [], [], [], [], []
    for s, (_fi, lemmas, ptrs, gloss) in enumerate(rows):
        own = [_lemma(raw) for raw in lemmas]  # case kept: "Paris" is no word here
        for w in own:
            if w is not None:
                m_s.append(s)
                m_w.append(wid[w])
        for sym, off, pos, st in ptrs:
            target = sid.get((_POS_FILE.get(pos, -1), int(off)))
            if target is None:
                continue
            if sym == "@" and st == "0000":
                h_c.append(s)
                h_p.append(target)
            elif sym == "!" and st != "0000":
                src = own[int(st[:2], 16) - 1] if int(st[:2], 16) <= len(own) else None
                tgt_lemmas = rows[target][1]
                k = int(st[2:], 16) - 1
                tgt = _lemma(tgt_lemmas[k]) if k < len(tgt_lemmas) else None
                if src is not None and tgt is not None:
                    a_a.append(wid[src])
                    a_b.append(wid[tgt])
        text = " ".join(raw.split("(", 1)[0].replace("_", " ") for raw in lemmas)
        glosses.append(f"{text} {gloss.strip()}")
    i64 = np.int64
    return WordNetLexicon(
        np.array(words, dtype=object),
        np.array(m_s, dtype=i64),
        np.array(m_w, dtype=i64),
        len(rows),
        np.array(h_c, dtype=i64),
        np.array(h_p, dtype=i64),
        np.array(a_a, dtype=i64),
        np.array(a_b, dtype=i64),
        tuple(glosses),
    )


def _pairs(adj) -> tuple[np.ndarray, np.ndarray]:
    adj = adj.tocoo()
    keep = adj.row != adj.col
    return adj.row[keep].astype(np.int64), adj.col[keep].astype(np.int64)


def synonym_pairs(lex: WordNetLexicon) -> tuple[np.ndarray, np.ndarray]:
    """Word pairs (both orders, no self pairs) that share a synset."""
    inc = lex.incidence()
    return _pairs(inc.T @ inc)


def hypernym_pairs(lex: WordNetLexicon) -> tuple[np.ndarray, np.ndarray]:
    """Word pairs (both orders: hypernyms and hyponyms) whose synsets are linked by ``@``."""
    from scipy import sparse

    inc = lex.incidence()
    h = sparse.csr_matrix(
        (np.ones(len(lex.hyper_child), dtype=np.float32), (lex.hyper_child, lex.hyper_parent)),
        shape=(lex.n_synsets, lex.n_synsets),
    )
    up = inc.T @ h @ inc  # word of a synset -> word of its hypernym
    return _pairs(up + up.T)


def antonym_pairs(lex: WordNetLexicon) -> tuple[np.ndarray, np.ndarray]:
    """Word pairs (both orders, distinct) joined by a lexical antonym pointer ``!``."""
    from scipy import sparse

    n = len(lex.words)
    a = sparse.csr_matrix(
        (np.ones(len(lex.ant_a), dtype=np.float32), (lex.ant_a, lex.ant_b)), shape=(n, n)
    )
    return _pairs(a + a.T)


def corpus_sentences(lex: WordNetLexicon) -> list[list[str]]:
    """One token list per synset: its lemmas, gloss and examples, lower-cased, letters only."""
    return [_TOKEN.findall(text.lower()) for text in lex.glosses]


def data_files_sha256(root: str | Path | None = None) -> str:
    """sha256 of the four data files together (identifies the WordNet in cache keys)."""
    import hashlib

    from wordgames.embeddings.cache import source_sha256

    root = Path(root) if root is not None else wordnet_root()
    joined = "|".join(source_sha256(root / f) for f in DATA_FILES)
    return hashlib.sha256(joined.encode()).hexdigest()
