"""Word-similarity benchmarks: loading (with counted repairs) and vectorised scoring.

A benchmark is a list of word pairs with a human similarity or relatedness score. An embedding
is scored by the Spearman (and Pearson) correlation between the cosine similarity of each pair
and the human score, over the pairs it can score.

File format (the 13 shipped data sets and users' own files): one pair per line,
``word1<TAB>word2<TAB>score``. Blank lines and lines starting with ``#`` are ignored, LF, CRLF
and CR line ends are all accepted, a missing final newline is fine, and an optional header line
(whose third column is not a number) is skipped. Words are lower-cased (WordSim-353 has
capitalised words such as ``Jerusalem``); every repair is counted in
:attr:`SimilarityBenchmark.repairs`. A word that holds a control character (NUL, escape,
``U+0085``...) or a score that is not a plain finite number (``1_0``, ``nan``) raises a
:class:`~wordgames.errors.DataFormatError` naming the line.

Out-of-vocabulary pairs (a pair with at least one word the embedding lacks) are always counted
and reported next to the score, with the policy used:

* ``"skip"`` (default) -- the correlation is computed over the pairs with both words known;
* ``"fixed"`` -- OOV pairs are kept with the fixed cosine ``oov_similarity`` (default 0.0).
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordgames.errors import DataFormatError, WordgamesError
from wordgames.textio import bad_word_reason, decode_utf8

DATASET = "word-similarity"

# short name -> file in the data set's folder, with what the benchmark measures
BENCHMARKS: dict[str, str] = {
    "ws353-all": "EN-WS-353-ALL.txt",
    "ws353-rel": "EN-WS-353-REL.txt",
    "ws353-sim": "EN-WS-353-SIM.txt",
    "simlex999": "EN-SIMLEX-999.txt",
    "men": "EN-MEN-TR-3k.txt",
    "mturk287": "EN-MTurk-287.txt",
    "mturk771": "EN-MTurk-771.txt",
    "rw": "EN-RW-STANFORD.txt",
    "rg65": "EN-RG-65.txt",
    "mc30": "EN-MC-30.txt",
    "simverb3500": "EN-SimVerb-3500.txt",
    "yp130": "EN-YP-130.txt",
    "verb143": "EN-VERB-143.txt",
}

# rows the original publications report, to flag files that differ (EN-VERB-143 has 144)
EXPECTED_ROWS: dict[str, int] = {
    "ws353-all": 353,
    "ws353-rel": 252,
    "ws353-sim": 203,
    "simlex999": 999,
    "men": 3000,
    "mturk287": 287,
    "mturk771": 771,
    "rw": 2034,
    "rg65": 65,
    "mc30": 30,
    "simverb3500": 3500,
    "yp130": 130,
    "verb143": 143,
}

OOV_POLICIES = ("skip", "fixed")


class UnknownBenchmarkError(WordgamesError, KeyError):
    """A benchmark name that is not one of the shipped ones."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown similarity benchmark"


@dataclass(frozen=True)
class SimilarityBenchmark:
    """Word pairs with human scores, as read from one file.

    ``word1``/``word2`` are lower-cased; ``raw1``/``raw2`` keep the spelling of the file (used as
    a fallback for embeddings with a cased vocabulary). ``repairs`` counts what the reader fixed;
    ``notes`` says what it noticed and kept (reversed duplicate pairs, an unexpected row count).
    """

    name: str
    word1: np.ndarray
    word2: np.ndarray
    scores: np.ndarray
    raw1: np.ndarray
    raw2: np.ndarray
    path: str = ""
    lines: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    repairs: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.scores)

    def vocabulary(self) -> list[str]:
        return sorted(set(self.word1.tolist()) | set(self.word2.tolist()))


def read_pairs_tsv(
    path: str | Path,
    *,
    name: str | None = None,
    expected_rows: int | None = None,
    lowercase: bool = True,
) -> SimilarityBenchmark:
    r"""Read a ``word1<TAB>word2<TAB>score`` file (see the module docstring for the format).

    Raises :class:`~wordgames.errors.DataFormatError` (file, line, what was expected) for a
    line without three columns, a score that is not a finite number, or a file with no pairs.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".tsv", delete=False) as fh:
    ...     _ = fh.write(b"Tiger\tcat\t7.35\r\nbook\tpaper\t7.46")
    >>> b = read_pairs_tsv(fh.name)
    >>> b.word1.tolist(), b.scores.tolist(), b.repairs["lowercased_rows"], b.repairs["crlf_lines"]
    (['tiger', 'book'], [7.35, 7.46], 1, 1)
    >>> os.unlink(fh.name)
    """
    path = Path(path)
    text, repairs = _read_text(path)
    rows = _parse_rows(text, path, repairs)
    raw1 = np.array(rows.w1, dtype=object)
    raw2 = np.array(rows.w2, dtype=object)
    if lowercase:
        low1 = np.char.lower(raw1.astype(str)).astype(object)
        low2 = np.char.lower(raw2.astype(str)).astype(object)
        repairs["lowercased_rows"] = int(((low1 != raw1) | (low2 != raw2)).sum())
    else:
        low1, low2 = raw1, raw2
    notes = list(_pair_notes(low1, low2))
    if expected_rows is not None and len(rows.scores) != expected_rows:
        notes.append(
            f"{len(rows.scores)} pairs where the benchmark's name says {expected_rows}: all kept"
        )
    return SimilarityBenchmark(
        name=name or path.stem,
        word1=low1,
        word2=low2,
        scores=np.asarray(rows.scores, dtype=np.float64),
        raw1=raw1,
        raw2=raw2,
        path=str(path),
        lines=np.asarray(rows.lines, dtype=np.int64),
        repairs={k: v for k, v in repairs.items() if v},
        notes=tuple(notes),
    )


def _read_text(path: Path) -> tuple[str, dict[str, int]]:
    """The file's text, and the repairs counted so far (line ends, BOM, final newline)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DataFormatError(path, None, "similarity benchmark file not found") from None
    repairs = {
        "crlf_lines": data.count(b"\r\n"),
        "missing_final_newline": 0,
        "blank_lines": 0,
        "lowercased_rows": 0,
        "header_skipped": 0,
        "whitespace_separated_rows": 0,
        "bom_removed": 0,
    }
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        repairs["bom_removed"] = 1
    if data and not data.endswith((b"\n", b"\r")):
        repairs["missing_final_newline"] = 1
    return decode_utf8(data, path), repairs


@dataclass
class _Rows:
    """The pairs read so far: words as spelled in the file, scores, line numbers."""

    w1: list[str] = field(default_factory=list)
    w2: list[str] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)


def _parse_rows(text: str, path: Path, repairs: dict[str, int]) -> _Rows:
    rows = _Rows()
    # one pass over the file's lines while parsing: this is reading, not a hot path
    for lineno, raw in enumerate(_split_lines(text), start=1):
        line = raw.strip(_BLANK)
        if not line:
            repairs["blank_lines"] += 1
            continue
        if line.startswith("#"):
            continue
        parsed = _parse_line(line, raw, lineno, path, repairs, first=not rows.w1)
        if parsed is None:
            continue
        a, b, value = parsed
        rows.w1.append(a)
        rows.w2.append(b)
        rows.scores.append(value)
        rows.lines.append(lineno)
    if not rows.scores:
        raise DataFormatError(
            path, None, "no word pairs found (expected word1<TAB>word2<TAB>score lines)"
        )
    return rows


def _parse_line(
    line: str, raw: str, lineno: int, path: Path, repairs: dict[str, int], *, first: bool
) -> tuple[str, str, float] | None:
    """``(word1, word2, score)`` of one non-blank line.

    ``None`` for a header line before any pair; :class:`DataFormatError` naming the line otherwise.
    """
    parts = line.split("\t")
    if len(parts) != 3:
        ws = _WHITESPACE.split(line)
        if len(ws) != 3:
            raise DataFormatError(
                path,
                lineno,
                f"expected 3 tab-separated columns "
                f"(word1, word2, score), found {len(parts)}: {raw[:60]!r}",
            )
        parts = ws
        repairs["whitespace_separated_rows"] += 1
    a, b, s = (p.strip(_BLANK) for p in parts)
    if not _NUMBER.fullmatch(s) and not _NONFINITE.fullmatch(s):
        if first and not repairs["header_skipped"]:
            repairs["header_skipped"] = 1  # a header line before any pair
            return None
        raise DataFormatError(path, lineno, f"score must be a number, found {s!r}")
    value = float(s)
    if not math.isfinite(value):
        raise DataFormatError(path, lineno, f"score must be finite, found {s!r}")
    if not a or not b:
        raise DataFormatError(path, lineno, "empty word")
    for i, w in ((1, a), (2, b)):
        why = bad_word_reason(w)
        if why:
            raise DataFormatError(path, lineno, f"word{i} {w!r} {why}")
    return a, b, value


#: a score: ASCII digits with an optional sign, decimal point and exponent (no ``1_0``)
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NONFINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
#: what surrounds fields and separates the columns of a whitespace-separated row: spaces and
#: tabs only, so that a control character is never taken for a separator (it is rejected)
_BLANK = " \t"
_WHITESPACE = re.compile("[ \t]+")


def _split_lines(text: str) -> list[str]:
    """Lines of ``text`` split at LF, CRLF and CR only (a control character stays in its line)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _pair_notes(w1: np.ndarray, w2: np.ndarray):
    """Repeated pairs (in either order) are kept, as upstream has them, and reported."""
    a = np.where(w1 <= w2, w1, w2).astype(str)
    b = np.where(w1 <= w2, w2, w1).astype(str)
    keys = np.char.add(np.char.add(a, "\t"), b)
    _, counts = np.unique(keys, return_counts=True)
    extra = int((counts - 1).sum())
    if extra:
        yield f"{extra} repeated pair(s) (same two words, either order): kept, as upstream"


def load_benchmark(name: str, root: str | Path | None = None) -> SimilarityBenchmark:
    """One of the 13 shipped benchmarks by short name (see :data:`BENCHMARKS`)."""
    from wordgames.datasets import dataset_file

    if name not in BENCHMARKS:
        raise UnknownBenchmarkError(
            f"unknown similarity benchmark {name!r}; known: {', '.join(BENCHMARKS)}"
        )
    path = dataset_file(DATASET, BENCHMARKS[name], root)
    return read_pairs_tsv(path, name=name, expected_rows=EXPECTED_ROWS[name])


def load_benchmarks(names=None, root: str | Path | None = None) -> dict[str, SimilarityBenchmark]:
    """Several shipped benchmarks (default: all 13), keyed by short name."""
    return {n: load_benchmark(n, root) for n in (names or BENCHMARKS)}


@dataclass(frozen=True)
class BenchmarkScore:
    """The score of one embedding on one benchmark, with its OOV accounting."""

    benchmark: str
    spearman: float
    spearman_p: float
    pearson: float
    pearson_p: float
    n_pairs: int
    n_scored: int
    n_oov_pairs: int
    n_oov_words: int
    oov_policy: str
    oov_similarity: float | None
    oov_examples: tuple[str, ...] = ()
    cased_fallback: int = 0
    spearman_ci: tuple[float, float] = (math.nan, math.nan)
    pearson_ci: tuple[float, float] = (math.nan, math.nan)
    #: the scored pairs: (pair index in the benchmark, model cosine, people's rating)
    pairs: tuple = field(default=(), repr=False, compare=False)

    @property
    def coverage(self) -> float:
        return (self.n_pairs - self.n_oov_pairs) / self.n_pairs if self.n_pairs else float("nan")

    def as_row(self) -> dict:
        return {
            "benchmark": self.benchmark,
            "spearman": self.spearman,
            "spearman_ci_low": self.spearman_ci[0],
            "spearman_ci_high": self.spearman_ci[1],
            "pearson": self.pearson,
            "pearson_ci_low": self.pearson_ci[0],
            "pearson_ci_high": self.pearson_ci[1],
            "spearman_p": self.spearman_p,
            "pearson_p": self.pearson_p,
            "n_pairs": self.n_pairs,
            "n_scored": self.n_scored,
            "n_oov_pairs": self.n_oov_pairs,
            "n_oov_words": self.n_oov_words,
            "coverage": self.coverage,
            "oov_policy": self.oov_policy,
            "oov_similarity": self.oov_similarity,
            "cased_fallback": self.cased_fallback,
        }


def _correlations(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float, float]:
    from scipy import stats

    nan = float("nan")
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return nan, nan, nan, nan  # undefined on fewer than 3 points or a constant input
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sp = stats.spearmanr(x, y)
        pe = stats.pearsonr(x, y)
    return float(sp.statistic), float(sp.pvalue), float(pe.statistic), float(pe.pvalue)


def rowwise_pearson(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Pearson's r of each row pair of two ``(B, n)`` arrays (NaN for a constant row).

    Examples
    --------
    >>> rowwise_pearson(np.array([[1.0, 2.0, 4.0]]), np.array([[2.0, 4.0, 8.0]])).tolist()
    [1.0]
    """
    dx = xs - xs.mean(axis=1, keepdims=True)
    dy = ys - ys.mean(axis=1, keepdims=True)
    den = np.sqrt((dx * dx).sum(axis=1) * (dy * dy).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.clip((dx * dy).sum(axis=1) / den, -1.0, 1.0)


def correlation_intervals(
    x: np.ndarray, y: np.ndarray, *, n_resamples: int = 1000, seed: int = 0
) -> tuple[tuple[float, float], tuple[float, float]]:
    """95 % intervals of Spearman's rho and Pearson's r: a percentile bootstrap over the pairs.

    The pairs are resampled together (:func:`wordgames.stats.paired_bootstrap_ci`), seeded;
    both intervals lie inside [-1, 1]. ``n_resamples=0`` gives none (NaN).

    Examples
    --------
    >>> x = np.arange(30.0); y = x + np.random.default_rng(0).normal(scale=5, size=30)
    >>> (s_lo, s_hi), (p_lo, p_hi) = correlation_intervals(x, y, seed=1)
    >>> -1 <= s_lo < s_hi <= 1 and -1 <= p_lo < p_hi <= 1
    True
    """
    from wordgames.stats import paired_bootstrap_ci, rowwise_spearman

    kw = {"n_resamples": n_resamples, "seed": seed, "bounds": (-1.0, 1.0)}
    return (
        paired_bootstrap_ci(x, y, rowwise_spearman, **kw),
        paired_bootstrap_ci(x, y, rowwise_pearson, **kw),
    )


def _indices(embedding, words: np.ndarray, raw: np.ndarray) -> tuple[np.ndarray, int]:
    """Rows of ``words``; OOV lower-cased words fall back to the file's spelling."""
    idx = embedding.lookup(words.tolist()).indices
    miss = (idx < 0) & (raw != words)
    fallback = 0
    if miss.any():
        alt = embedding.lookup(raw[miss].tolist()).indices
        idx[np.flatnonzero(miss)] = alt
        fallback = int((alt >= 0).sum())
    return idx, fallback


def pair_cosines(unit: np.ndarray, i1: np.ndarray, i2: np.ndarray) -> np.ndarray:
    """Row-wise cosine of pairs of rows of a unit-normalised matrix (one batched dot product).

    >>> u = np.array([[1.0, 0.0], [0.6, 0.8]])
    >>> pair_cosines(u, np.array([0, 0]), np.array([1, 0])).round(2).tolist()
    [0.6, 1.0]
    """
    if unit.flags.f_contiguous and not unit.flags.c_contiguous:
        # a column-major matrix (GloVe's .npy is stored so): gathering rows would read one
        # cache line per element, gathering columns of the transpose reads runs per dimension
        a, b = np.take(unit.T, i1, axis=1), np.take(unit.T, i2, axis=1)
        return np.einsum("ji,ji->i", a, b, dtype=np.float64)
    return np.einsum("ij,ij->i", unit[i1], unit[i2], dtype=np.float64)


def evaluate_benchmark(
    embedding,
    benchmark: SimilarityBenchmark,
    *,
    oov: str = "skip",
    oov_similarity: float = 0.0,
    n_resamples: int = 1000,
    seed: int = 0,
) -> BenchmarkScore:
    """Spearman and Pearson of cosine similarity against the human scores of one benchmark.

    Parameters
    ----------
    embedding : :class:`~wordgames.embeddings.Embedding`
    benchmark : :class:`SimilarityBenchmark`
    oov : "skip" leaves out pairs with an OOV word; "fixed" scores them ``oov_similarity``
    oov_similarity : the cosine given to OOV pairs under ``oov="fixed"``
    n_resamples, seed : the bootstrap of the intervals (:func:`correlation_intervals`)

    Examples
    --------
    >>> from wordgames.embeddings import Embedding
    >>> emb = Embedding(["a", "b", "c", "d"], np.array([[1, 0], [1, 1], [0, 1], [-1, 0.1]]))
    >>> bench = SimilarityBenchmark("toy", np.array(["a", "a", "a", "a"], dtype=object),
    ...     np.array(["b", "c", "d", "zzz"], dtype=object), np.array([3.0, 2.0, 1.0, 5.0]),
    ...     np.array(["a"] * 4, dtype=object), np.array(["b", "c", "d", "zzz"], dtype=object))
    >>> s = evaluate_benchmark(emb, bench)
    >>> s.spearman, s.n_scored, s.n_oov_pairs, s.n_oov_words
    (1.0, 3, 1, 1)
    """
    if oov not in OOV_POLICIES:
        raise ValueError(f"oov policy must be one of {OOV_POLICIES}, got {oov!r}")
    i1, f1 = _indices(embedding, benchmark.word1, benchmark.raw1)
    i2, f2 = _indices(embedding, benchmark.word2, benchmark.raw2)
    found = (i1 >= 0) & (i2 >= 0)
    oov_words = set(benchmark.word1[i1 < 0].tolist()) | set(benchmark.word2[i2 < 0].tolist())
    cos = np.full(len(benchmark), float(oov_similarity))
    cos[found] = pair_cosines(embedding.unit, i1[found], i2[found])
    ids = np.flatnonzero(found) if oov == "skip" else np.arange(len(benchmark))
    x, y = cos[ids], benchmark.scores[ids]
    sp, sp_p, pe, pe_p = _correlations(x, y)
    if np.isfinite(sp):
        sp_ci, pe_ci = correlation_intervals(x, y, n_resamples=n_resamples, seed=seed)
    else:
        sp_ci = pe_ci = (math.nan, math.nan)
    return BenchmarkScore(
        benchmark=benchmark.name,
        spearman=sp,
        spearman_p=sp_p,
        pearson=pe,
        pearson_p=pe_p,
        n_pairs=len(benchmark),
        n_scored=len(x),
        n_oov_pairs=int((~found).sum()),
        n_oov_words=len(oov_words),
        oov_policy=oov,
        oov_similarity=float(oov_similarity) if oov == "fixed" else None,
        oov_examples=tuple(sorted(oov_words)[:10]),
        cased_fallback=f1 + f2,
        spearman_ci=sp_ci,
        pearson_ci=pe_ci,
        pairs=(ids, x, y),
    )


def evaluate(
    embedding,
    benchmarks: dict[str, SimilarityBenchmark] | list[SimilarityBenchmark],
    *,
    oov: str = "skip",
    oov_similarity: float = 0.0,
    n_resamples: int = 1000,
    seed: int = 0,
) -> list[BenchmarkScore]:
    r"""Score an embedding on several benchmarks (one batched dot product each).

    Parameters
    ----------
    embedding : Embedding
        The word vectors.
    benchmarks : dict or list of SimilarityBenchmark
        E.g. :func:`load_benchmarks` (the shipped ones) or :func:`read_pairs_tsv` (yours).
    oov : {"skip", "fixed"}
        Leave pairs with an out-of-vocabulary word out, or score them ``oov_similarity``.
    oov_similarity : float
        The cosine given to OOV pairs under ``oov="fixed"``.
    n_resamples, seed : int
        Bootstrap of the 95 % intervals over the pairs (0: no interval).

    Returns
    -------
    list of BenchmarkScore
        Spearman, Pearson (with p-values and intervals), pairs scored and OOV counts per
        benchmark.

    Examples
    --------
    >>> import tempfile, os
    >>> from wordgames.embeddings import Embedding
    >>> emb = Embedding(["car", "auto", "gem", "noon"],
    ...                 np.array([[1, 0], [0.9, 0.1], [0, 1], [-1, 0.2]]))
    >>> with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as fh:
    ...     _ = fh.write("car\tauto\t9\ncar\tgem\t3\ncar\tnoon\t1\ngem\tjewel\t9\n")
    >>> [s] = evaluate(emb, [read_pairs_tsv(fh.name, name="mine")])
    >>> s.benchmark, s.spearman, s.n_scored, s.n_oov_pairs
    ('mine', 1.0, 3, 1)
    >>> os.unlink(fh.name)
    """
    items = benchmarks.values() if isinstance(benchmarks, dict) else benchmarks
    return [
        evaluate_benchmark(
            embedding,
            b,
            oov=oov,
            oov_similarity=oov_similarity,
            n_resamples=n_resamples,
            seed=seed,
        )
        for b in items
    ]
