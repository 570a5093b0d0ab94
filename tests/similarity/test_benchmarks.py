"""Similarity benchmarks: hand-computed correlations, OOV accounting, and each real file's quirks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.conftest import require_dataset
from wordgames.embeddings import Embedding
from wordgames.errors import DataFormatError
from wordgames.similarity.benchmarks import (
    BENCHMARKS,
    evaluate_benchmark,
    load_benchmark,
    load_benchmarks,
    read_pairs_tsv,
)

# unit vectors at known angles: cos(a,b)=0.8, cos(a,c)=0.6, cos(a,d)=0, cos(b,c)=0.96
TOY = Embedding(
    ["a", "b", "c", "d"], np.array([[1, 0], [0.8, 0.6], [0.6, 0.8], [0, 1]]), name="toy"
)


def _write(tmp_path, text: bytes, name="bench.tsv"):
    p = tmp_path / name
    p.write_bytes(text)
    return p


def test_hand_computed_spearman_and_pearson(tmp_path):
    path = _write(tmp_path, b"a\tb\t3\na\tc\t1\na\td\t2\nb\tc\t4\n")
    s = evaluate_benchmark(TOY, read_pairs_tsv(path))
    # cosine ranks (3, 2, 1, 4) vs human ranks (3, 1, 2, 4): sum d^2 = 2, rho = 1 - 6*2/(4*15)
    assert s.spearman == pytest.approx(0.8, abs=1e-12)
    # Pearson by hand: x = (.8, .6, 0, .96), y = (3, 1, 2, 4)
    assert s.pearson == pytest.approx(0.94 / math.sqrt(0.5292 * 5), abs=1e-6)  # float32 vectors
    assert (s.n_pairs, s.n_scored, s.n_oov_pairs, s.n_oov_words) == (4, 4, 0, 0)


def test_oov_pairs_skipped_or_scored_fixed_and_always_counted(tmp_path):
    path = _write(tmp_path, b"a\tb\t3\na\tc\t1\na\td\t2\nb\tc\t4\na\tzzz\t5\n")
    bench = read_pairs_tsv(path)
    skip = evaluate_benchmark(TOY, bench)
    assert skip.spearman == pytest.approx(0.8, abs=1e-12)
    assert (skip.n_pairs, skip.n_scored, skip.n_oov_pairs, skip.n_oov_words) == (5, 4, 1, 1)
    assert skip.oov_policy == "skip" and skip.oov_similarity is None
    assert skip.oov_examples == ("zzz",)
    fixed = evaluate_benchmark(TOY, bench, oov="fixed", oov_similarity=0.0)
    # x = (.8, .6, 0, .96, 0) -> ranks (4, 3, 1.5, 5, 1.5); y ranks (3, 1, 2, 4, 5)
    # centred products sum to 0.5; squares sum to 9.5 and 10
    assert fixed.spearman == pytest.approx(0.5 / math.sqrt(95), abs=1e-12)
    assert (fixed.n_scored, fixed.n_oov_pairs, fixed.oov_similarity) == (5, 1, 0.0)
    with pytest.raises(ValueError, match="oov policy"):
        evaluate_benchmark(TOY, bench, oov="zero")


def test_pair_with_both_words_oov_counts_once_as_pair_twice_as_words(tmp_path):
    path = _write(tmp_path, b"a\tb\t3\na\tc\t1\nb\tc\t4\nqqq\tzzz\t5\nqqq\ta\t1\n")
    s = evaluate_benchmark(TOY, read_pairs_tsv(path))
    assert (s.n_oov_pairs, s.n_oov_words, s.n_scored) == (2, 2, 3)


def test_too_few_pairs_or_constant_scores_give_nan(tmp_path):
    s = evaluate_benchmark(TOY, read_pairs_tsv(_write(tmp_path, b"a\tb\t3\na\tc\t1\n")))
    assert math.isnan(s.spearman) and math.isnan(s.pearson) and s.n_scored == 2
    s = evaluate_benchmark(
        TOY, read_pairs_tsv(_write(tmp_path, b"a\tb\t3\na\tc\t3\na\td\t3\n", "c.tsv"))
    )
    assert math.isnan(s.spearman)


def test_capitals_lowercased_and_cased_vocabulary_fallback(tmp_path):
    path = _write(tmp_path, b"A\tB\t3\na\tC\t1\na\td\t2\nParis\tb\t4\n")
    bench = read_pairs_tsv(path)
    assert bench.word1.tolist() == ["a", "a", "a", "paris"]
    assert bench.repairs["lowercased_rows"] == 3
    cased = Embedding(
        ["a", "b", "c", "d", "Paris"],
        np.array([[1, 0], [0.8, 0.6], [0.6, 0.8], [0, 1], [0.6, 0.8]]),
    )
    s = evaluate_benchmark(cased, bench)
    assert s.n_oov_pairs == 0 and s.cased_fallback == 1
    # paris ~ c, so cos(paris, b) = 0.96: same as the first hand-computed case
    assert s.spearman == pytest.approx(0.8, abs=1e-12)


def test_line_endings_header_comments_and_whitespace_rows_are_repaired_and_counted(tmp_path):
    path = _write(
        tmp_path, b"\xef\xbb\xbfword1\tword2\tscore\r\n# comment\r\na\tb\t3\r\n\r\na c 1\ra\td\t2"
    )
    b = read_pairs_tsv(path)
    assert b.word2.tolist() == ["b", "c", "d"] and b.scores.tolist() == [3.0, 1.0, 2.0]
    assert b.repairs == {
        "crlf_lines": 4,
        "missing_final_newline": 1,
        "blank_lines": 1,
        "header_skipped": 1,
        "whitespace_separated_rows": 1,
        "bom_removed": 1,
    }
    assert b.lines.tolist() == [3, 5, 6]


@pytest.mark.parametrize(
    ("text", "line", "match"),
    [
        (b"a\tb\t1\na\tb\n", 2, "expected 3 tab-separated columns"),
        (b"a\tb\t1\na\tc\t2\na\td\tlots\n", 3, "score must be a number"),
        (b"a\tb\tnan\n", 1, "must be finite"),
        (b"a\tb\t1\n\xff\xfe\tb\t2\n", 2, "UTF-8"),
    ],
)
def test_bad_input_names_file_and_line(tmp_path, text, line, match):
    path = _write(tmp_path, text)
    with pytest.raises(DataFormatError, match=match) as exc:
        read_pairs_tsv(path)
    assert exc.value.line == line and exc.value.path == str(path)


def test_empty_file_is_an_error(tmp_path):
    with pytest.raises(DataFormatError, match="no word pairs"):
        read_pairs_tsv(_write(tmp_path, b"\n# only a comment\n"))


# ---------------------------------------------------------------- the 13 real files
ROWS = {
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
    "verb143": 144,
}


@pytest.fixture(scope="module")
def real():
    root = require_dataset("word-similarity").parent
    return load_benchmarks(None, root)


def test_every_real_file_reads_with_the_documented_row_count(real):
    assert set(real) == set(BENCHMARKS) == set(ROWS)
    assert {n: len(b) for n, b in real.items()} == ROWS


def test_real_line_endings_are_counted(real):
    assert real["ws353-all"].repairs["crlf_lines"] == 353
    assert real["mturk771"].repairs["crlf_lines"] == 771
    assert real["simverb3500"].repairs["crlf_lines"] == 3499
    assert real["simverb3500"].repairs["missing_final_newline"] == 1
    assert real["mturk287"].repairs == {"missing_final_newline": 1}  # wc -l says 286, we read 287
    assert "crlf_lines" not in real["men"].repairs


def test_real_capitals_are_lowercased(real):
    ws = real["ws353-all"]
    assert ws.repairs["lowercased_rows"] == 18
    assert "jerusalem" in ws.vocabulary() and "Jerusalem" in set(ws.raw1) | set(ws.raw2)
    assert all(w == w.lower() for b in real.values() for w in b.vocabulary())


def test_verb143_extra_row_is_kept_and_reported(real):
    b = real["verb143"]
    assert len(b) == 144
    assert any("144 pairs" in n and "143" in n for n in b.notes)


def test_repeated_pairs_are_kept_and_reported(real):
    assert any("2 repeated pair" in n for n in real["ws353-all"].notes)
    assert len(real["men"].notes) == 0
    assert real["men"].scores.max() == 50.0  # MEN is on a 0-50 scale


@pytest.mark.slow
def test_glove_scores_and_oov_on_real_benchmarks(glove, real):
    men = evaluate_benchmark(glove, real["men"])
    assert men.n_oov_pairs == 0 and 0.6 < men.spearman < 0.7
    rw = evaluate_benchmark(glove, real["rw"])
    assert rw.n_oov_pairs == 252 and rw.n_scored == 2034 - 252
    # cutting the vocabulary can only add OOV pairs
    small = evaluate_benchmark(glove.restrict(top_n=10_000), real["men"])
    assert small.n_oov_pairs > 0 and small.n_scored + small.n_oov_pairs == 3000


def test_vectorised_scores_equal_a_per_pair_loop(glove, real):
    from scipy import stats

    b = real["simlex999"]
    s = evaluate_benchmark(glove, b)
    cos = [glove.cosine(w1, w2) for w1, w2 in zip(b.word1, b.word2, strict=True)]
    assert s.spearman == pytest.approx(stats.spearmanr(cos, b.scores).statistic, abs=1e-6)
    assert s.pearson == pytest.approx(stats.pearsonr(cos, b.scores).statistic, abs=1e-6)


def test_unknown_benchmark_name():
    with pytest.raises(KeyError, match="unknown similarity benchmark"):
        load_benchmark("nope")


def test_pair_cosines_same_for_row_and_column_major():
    from wordgames.similarity.benchmarks import pair_cosines

    rng = np.random.default_rng(0)
    u = rng.standard_normal((50, 7)).astype(np.float32)
    i1, i2 = rng.integers(0, 50, 20), rng.integers(0, 50, 20)
    expected = np.array(
        [float(u[a].astype(np.float64) @ u[b]) for a, b in zip(i1, i2, strict=True)]
    )
    np.testing.assert_allclose(pair_cosines(u, i1, i2), expected, rtol=1e-6)
    np.testing.assert_allclose(pair_cosines(np.asfortranarray(u), i1, i2), expected, rtol=1e-6)
