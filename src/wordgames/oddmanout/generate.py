"""Puzzle generation: the crowdsourcing protocol's automatic stage, and sampled sets.

The protocol is that of paper section 3.2; the sampled sets are HYPERNYMS500 / COLORS500-style
(sections 5.2 and 6).

Protocol
--------
A polysemous seed word ``w`` has categories ``c_1, ..., c_m`` (m >= 2) with example lists
``E_1, ..., E_m`` (the seed itself excluded). For every ordered pair ``i != j``, every
combination of three words of ``E_i`` plus ``w`` forms the four words that belong, and every
word of ``E_j`` is an odd man. For two categories of sizes ``a`` and ``b`` that is

    N(a, b) = C(a, 3) * b + C(b, 3) * a

puzzles (100 for a = b = 5), in general ``sum_{i != j} C(a_i, 3) * a_j``
(:func:`protocol_count`).

Sampled sets
------------
:func:`sample_puzzles` draws puzzles from categories (ten members each for HYPERNYMS500, 8-13
objects per colour for COLORS500): a category, another category, 4 words of the first and 1 of
the second, all seeded. Categories come from a user's file (:func:`read_categories`: one
category a line, ``NAME<tab>word<tab>word...``) or from WordNet hypernyms
(:func:`wordnet_categories`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np

from wordgames.errors import DataFormatError
from wordgames.oddmanout.puzzles import PuzzleSet
from wordgames.textio import bad_word_reason, decode_utf8, parse_json, read_bytes, strip_bom


def protocol_count(sizes: Sequence[int]) -> int:
    """Number of puzzles the protocol creates from categories with these example counts.

    >>> protocol_count([5, 5]), protocol_count([4, 2]), protocol_count([3, 1])
    (100, 8, 1)
    """
    sizes = list(sizes)
    return sum(
        comb(sizes[i], 3) * sizes[j] for i in range(len(sizes)) for j in range(len(sizes)) if i != j
    )


def _clean_categories(
    categories: dict[str, Sequence[str]], exclude: Sequence[str] = ()
) -> tuple[dict[str, list[str]], dict]:
    """Strip and deduplicate the lists.

    Drop words listed in several categories (they would make ambiguous puzzles) and the excluded
    words. Both are counted.
    """
    excl = {w.strip().lower() for w in exclude}
    lists = {
        c.strip(): list(dict.fromkeys(w.strip() for w in ws if w.strip()))
        for c, ws in categories.items()
    }
    seen: dict[str, int] = {}
    for ws in lists.values():
        for w in ws:
            seen[w.lower()] = seen.get(w.lower(), 0) + 1
    shared = {w for w, c in seen.items() if c > 1}
    out = {
        c: [w for w in ws if w.lower() not in shared and w.lower() not in excl]
        for c, ws in lists.items()
    }
    report = {
        "shared_words_dropped": sorted(shared),
        "excluded_words_dropped": sum(w.lower() in excl for ws in lists.values() for w in ws),
    }
    return out, report


def protocol_puzzles(
    seed_word: str, categories: dict[str, Sequence[str]], *, seed: int = 0, name: str | None = None
) -> PuzzleSet:
    """Every puzzle of the protocol's automatic stage for one seed word (module doc).

    >>> ps = protocol_puzzles("bat", {"nocturnal mammal": ["beaver", "badger", "hedgehog"],
    ...                               "baseball equipment": ["ball", "cap", "glove"]})
    >>> len(ps), protocol_count([3, 3])
    (6, 6)
    """
    if len(categories) < 2:
        raise ValueError("the protocol needs at least two categories")
    cats, report = _clean_categories(categories, exclude=[seed_word])
    rows, labels = [], []
    names = list(cats)
    for i, ci in enumerate(names):
        combos = np.asarray(list(combinations(cats[ci], 3)), dtype=object).reshape(-1, 3)
        for j, cj in enumerate(names):
            if i == j or not len(combos):
                continue
            odds = np.asarray(cats[cj], dtype=object)
            block = np.empty((len(combos) * len(odds), 5), dtype=object)
            block[:, 0] = np.repeat(odds, len(combos))
            block[:, 1] = seed_word
            block[:, 2:] = np.tile(combos, (len(odds), 1))
            rows.append(block)
            labels.extend([ci] * len(block))
    rows_arr = np.concatenate(rows) if rows else np.empty((0, 5), dtype=object)
    report.update(
        {
            "seed_word": seed_word,
            "sizes": {c: len(v) for c, v in cats.items()},
            "puzzles": len(rows_arr),
        }
    )
    return PuzzleSet.from_odd_first(
        name or f"protocol-{seed_word}", rows_arr, categories=labels, seed=seed, report=report
    )


def read_protocol_seeds(path: str | Path) -> list[tuple[str, dict[str, list[str]]]]:
    """JSONL: ``{"seed": "bat", "categories": {"nocturnal mammal": [...], ...}}`` per line."""
    path = Path(path)
    out = []
    for lineno, raw in enumerate(_lines(path), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        obj = parse_json(raw, path, lineno, "not valid JSON ({})")
        cats = obj.get("categories") if isinstance(obj, dict) else None
        if (
            not isinstance(obj, dict)
            or not isinstance(obj.get("seed"), str)
            or not isinstance(cats, dict)
            or len(cats) < 2
            or not all(isinstance(v, list) for v in cats.values())
        ):
            raise DataFormatError(
                path,
                lineno,
                'expected {"seed": "word", "categories": '
                '{"category": ["word", ...], ...}} with two or more categories',
            )
        _check_words(path, lineno, [obj["seed"], *cats, *(w for ws in cats.values() for w in ws)])
        out.append((obj["seed"], cats))
    if not out:  # an empty file is no protocol: nothing would be generated, silently
        raise DataFormatError(path, None, 'holds no seed: expected one {"seed": ..., '
                              '"categories": ...} object a line')  # fmt: skip
    return out


def _lines(path: Path) -> list[str]:
    """The lines of a text file (split at line feeds only: U+2028 is no line end of ours)."""
    if not path.exists():
        raise DataFormatError(path, None, "file not found")
    text, _ = strip_bom(decode_utf8(read_bytes(path), path))
    return text.replace("\r\n", "\n").split("\n")


def _check_words(path: Path, lineno: int, words) -> None:
    """Every seed, category and example is a word our puzzle reader accepts."""
    for w in words:
        reason = bad_word_reason(w)
        if reason:
            raise DataFormatError(path, lineno, f"{w!r:.60} {reason}: expected words")


def read_categories(path: str | Path) -> dict[str, list[str]]:
    """A category file: one category a line, ``NAME<tab>word<tab>word...`` (``#`` comments)."""
    path = Path(path)
    out: dict[str, list[str]] = {}
    for lineno, raw in enumerate(_lines(path), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in raw.split("\t")]
        words = [f for f in fields[1:] if f]
        if not fields[0] or len(words) < 4:
            raise DataFormatError(
                path,
                lineno,
                f"expected NAME<tab>word<tab>word... with at least 4 words, found {len(words)}",
            )
        if fields[0] in out:
            raise DataFormatError(path, lineno, f"category {fields[0]!r} is listed twice")
        _check_words(path, lineno, [fields[0], *words])
        out[fields[0]] = words
    if len(out) < 2:
        raise DataFormatError(path, None, "need at least two categories")
    return out


def write_categories(categories: dict[str, Sequence[str]], path: str | Path) -> Path:
    """Write ``categories`` as a file that :func:`read_categories` reads; returns its path."""
    path = Path(path)
    path.write_text(
        "".join("\t".join([c, *ws]) + "\n" for c, ws in categories.items()), encoding="utf-8"
    )
    return path


def sample_puzzles(
    categories: dict[str, Sequence[str]],
    n_puzzles: int = 500,
    *,
    n_belong: int = 4,
    seed: int = 0,
    name: str = "sampled",
) -> PuzzleSet:
    """Sample puzzles: ``n_belong`` words of one category and 1 of another (all seeded).

    Categories need at least ``n_belong`` words; a word listed in two categories is dropped
    from both (counted in ``report["shared_words_dropped"]``).

    >>> cats = {"metal": ["iron", "gold", "lead", "tin", "zinc"],
    ...         "tool": ["saw", "drill", "hammer", "wrench", "chisel"]}
    >>> ps = sample_puzzles(cats, 20, seed=1)
    >>> len(ps), ps.n_words
    (20, 5)
    """
    cats, report = _clean_categories(categories)
    names = [c for c, ws in cats.items() if len(ws) >= n_belong]
    if len(names) < 2:
        raise ValueError(f"need two or more categories with at least {n_belong} words each")
    sizes = np.asarray([len(cats[c]) for c in names])
    width = int(sizes.max())
    table = np.full((len(names), width), None, dtype=object)
    for i, c in enumerate(names):
        table[i, : sizes[i]] = cats[c]
    rng = np.random.default_rng(seed)
    C = len(names)
    a = rng.integers(C, size=n_puzzles)
    b = (a + rng.integers(1, C, size=n_puzzles)) % C  # another category, uniform
    keys = rng.random((n_puzzles, width))
    keys[np.arange(width)[None, :] >= sizes[a][:, None]] = np.inf  # padding never drawn
    members = np.argsort(keys, axis=1)[:, :n_belong]
    odd = (rng.random(n_puzzles) * sizes[b]).astype(np.int64)
    rows = np.concatenate([table[b, odd][:, None], table[a[:, None], members]], axis=1)
    report.update(
        {"categories": names, "sizes": sizes.tolist(), "seed": seed, "puzzles": n_puzzles}
    )
    return PuzzleSet.from_odd_first(
        name, rows, categories=np.asarray(names, dtype=object)[a], seed=seed, report=report
    )


def wordnet_categories(
    taxonomy,
    n_categories: int = 10,
    size: int = 10,
    *,
    seed: int = 0,
    vocabulary: Callable[[str], bool] | None = None,
    min_descendants: int = 12,
    max_descendants: int = 400,
) -> dict[str, list[str]]:
    """Categories of ``size`` members from WordNet hypernyms (HYPERNYMS500-style).

    Candidate categories are noun synsets with ``min_descendants .. max_descendants``
    descendants, visited in a seeded random order; a candidate is kept when at least
    ``size`` single-word lemmas among its descendants pass ``vocabulary`` (e.g. "is in the
    embedding's 50,000 most frequent words") and it shares no descendant with a kept one. From
    each kept category ``size`` members are drawn at random.
    """
    rng = np.random.default_rng(seed)
    ndesc = taxonomy.descendant_counts()
    cand = np.flatnonzero(
        (ndesc >= min_descendants) & (ndesc <= max_descendants) & (taxonomy._pos == "n")
    )
    cand = cand[rng.permutation(len(cand))]
    closure_t = taxonomy.closure.T.tocsr()  # row v: the descendants of v
    lab_v, lab_w = taxonomy.label_arrays()
    order = np.argsort(lab_v, kind="stable")
    lab_v, lab_w = lab_v[order], lab_w[order]
    starts = np.searchsorted(lab_v, np.arange(taxonomy.n_vertices + 1))
    taken = np.zeros(taxonomy.n_vertices, dtype=bool)
    used_words: set[str] = set()
    out: dict[str, list[str]] = {}
    for v in cand.tolist():  # stops after a few dozen candidates
        desc = closure_t.indices[closure_t.indptr[v] : closure_t.indptr[v + 1]]
        if taken[desc].any():
            continue
        words = sorted(
            {
                w
                for d in desc[desc != v].tolist()
                for w in lab_w[starts[d] : starts[d + 1]].tolist()
                if "_" not in w and "-" not in w and w.isalpha() and w.islower()
            }
        )
        words = [w for w in words if w not in used_words and (vocabulary is None or vocabulary(w))]
        if len(words) < size:
            continue
        pick = rng.choice(len(words), size=size, replace=False)
        members = [words[i] for i in sorted(pick.tolist())]
        out[taxonomy.vertex_name(v)] = members
        taken[desc] = True
        used_words.update(members)
        if len(out) == n_categories:
            break
    if len(out) < 2:
        raise ValueError("found fewer than two categories; loosen the vocabulary or the limits")
    return out
