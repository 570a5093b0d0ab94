"""Coverage before compute (issue 21, item 7): the pre-check agrees with the scores."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import wordgames
from wordgames.embeddings import Embedding
from wordgames.precheck import known_rows

pytestmark = pytest.mark.slow


def test_known_rows_by_hand():
    emb = Embedding(["a", "b", "c"], np.eye(3))
    groups = [["a"], [], ["a", "zz"], ["c", "b", "a"], ["zz"]]
    assert known_rows(emb, groups).tolist() == [True, True, False, True, False]


@pytest.mark.parametrize("subject", ["glove-6b-50d-top10k", "glove-6b-50d"])
def test_the_precheck_counts_what_the_measures_score(data_root, subject):
    """Issue 44: the warning before a run and the ``n used`` after it are one count, for a
    small vocabulary and for the README's main job (GloVe's 400k words)."""
    res = wordgames.evaluate(
        subject,
        measures=["similarity", "oddmanout", "codenames"],
        data_root=data_root,
        ci_resamples=0,
    )
    pre = {(c.measure, c.dataset): c for c in res.coverage}
    checked = 0
    for s in res.scores:
        if s.measure == "similarity" and s.metric == "spearman":
            c = pre[("similarity", s.dataset)]
            assert (c.known, c.total) == (s.n, s.total)  # the same lookup: exact
            checked += 1
        elif s.measure == "codenames" and s.agent == "nearest" and s.dataset != "all":
            if s.metric == "human_receiver.map":
                c = pre[("codenames", f"{s.dataset} (human_receiver)")]
                assert (c.known, c.total) == (s.n, s.total)  # board and clue known: exact
                checked += 1
        elif s.measure == "oddmanout" and s.agent == "embedding" and s.metric == "pct_correct":
            c = pre[("oddmanout", s.dataset)]
            # the solver's own phrase and case rules (EmbeddingSolver.answerable): exact
            assert (c.known, c.total) == (s.n - s.n_oov, s.total)
            checked += 1
    assert checked >= 13 + 6 + 5


def test_run_prints_the_precheck_first_and_can_skip_what_it_cannot_cover(tmp_path, data_root):
    from wordgames.cli import app

    out = tmp_path / "o"
    args = ["run", "-e", "glove-6b-50d-top10k", "-m", "oddmanout", "-m", "similarity"]
    args += ["--quick", "--skip-uncovered", "--data-root", str(data_root), "-o", str(out)]
    r = CliRunner().invoke(app, args, terminal_width=200)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("coverage checked before"))
    computing = next(i for i, ln in enumerate(lines) if "missing from the store" in ln)
    assert first < computing
    warn = next(ln for ln in lines if "oddmanout: below 50%" in ln)
    assert "skipped (--skip-uncovered)" in warn and "anomia-common-test 4 of 102 puzzles" in warn
    # similarity covers most benchmarks: it ran, thin where it must be
    res = wordgames.evaluate(
        "glove-6b-50d-top10k", measures=["oddmanout"], quick=True, data_root=data_root,
        skip_uncovered=True,
    )  # fmt: skip
    (skip,) = res.skipped
    assert skip.measure == "oddmanout" and "coverage below 50% on every data set" in skip.reason


def test_encoders_encode_the_words_the_games_need(data_root, monkeypatch):
    from wordgames.codenames.board import codenames_word_list
    from wordgames.embeddings.transformer import default_vocabulary
    from wordgames.precheck import game_words
    from wordgames.similarity.benchmarks import load_benchmark

    monkeypatch.setenv("WORDGAMES_DATA", str(data_root))
    words = set(game_words(data_root))
    assert set(codenames_word_list(data_root)) <= words
    rw = load_benchmark("rw", data_root)
    assert set(map(str, rw.word1)) | set(map(str, rw.word2)) <= words
    vocab = default_vocabulary(1000)
    assert vocab[:1000] == default_vocabulary(1000, with_game_words=False)
    assert words <= set(vocab) and len(vocab) == len(set(vocab))
    # a rare word of the Rare Words benchmark that a 1,000-word list lacks is encoded all the same
    rare = next(w for w in map(str, rw.word1) if w not in vocab[:1000])
    assert rare in vocab


def test_known_rows_with_empty_groups_anywhere():
    emb = Embedding(["a", "b"], np.eye(2))
    assert known_rows(emb, [["a", "b"], ["a", "zz"], []]).tolist() == [True, False, True]
    assert known_rows(emb, [[], [], ["zz"]]).tolist() == [True, True, False]


def test_the_precheck_is_recorded_with_the_run(tmp_path, data_root):
    res = wordgames.evaluate(
        "glove-6b-50d-top10k", measures=["similarity"], data_root=data_root, ci_resamples=0
    )
    path = res.write(tmp_path)
    import json

    stored = json.loads(path.read_text())["parameters"]["coverage_precheck"]
    assert [(c["dataset"], c["known"], c["total"]) for c in stored] == [
        (c.dataset, c.known, c.total) for c in res.coverage
    ]
    assert len(stored) == 13


def _table_counts(output: str) -> dict[str, set[str]]:
    """Data set -> the ``n used`` counts its table rows show (``"7 of 223"``, ``"3,000"``)."""
    import re

    rows: dict[str, set[str]] = {}
    dataset = None
    for line in output.splitlines():
        if re.fullmatch(r"  \S+", line):
            dataset = line.strip()
        elif dataset and line.startswith("    "):
            found = re.search(r"\s(\d[\d,]*(?: of \d[\d,]*)?)\s+(?:thin|\[|best|tied|$)", line)
            if found:
                rows.setdefault(dataset, set()).add(found.group(1))
        elif not line.startswith(" "):
            dataset = None
    return rows


def test_no_coverage_figure_of_a_warning_differs_from_the_table(tmp_path, data_root):
    """Issue 44's must-show: every count the warnings give, before the run (the pre-check) and
    after it, is a count the table shows for that data set. A 10k vocabulary leaves most data
    sets thin, so there are warnings to check on three families."""
    import re

    from wordgames.cli import app

    args = ["run", "-e", "glove-6b-50d-top10k", "-m", "oddmanout", "-m", "codenames", "-m",
            "similarity", "--no-people", "--data-root", str(data_root), "-o", str(tmp_path)]  # fmt: skip
    r = CliRunner().invoke(app, args, terminal_width=250)
    assert r.exit_code == 0, r.output
    table = _table_counts(r.output)
    said = []
    for line in r.output.splitlines():
        if line.startswith("warning:") and "thin scores:" in line:  # the pre-check's
            for part in line.split("thin scores: ", 1)[1].split("; "):
                m = re.fullmatch(r"(\S+)(?: \(\w+\))? ([\d,]+ of [\d,]+) \w+", part)
                said.append((m.group(1), m.group(2)))
        elif line.startswith("warning:") and "covered by" in line:  # the run's
            m = re.match(r"warning: (\S+): ([\d,]+ of [\d,]+) ", line)
            said.append((m.group(1), m.group(2)))
    assert len(said) >= 2 * (5 + 5 + 5)  # each family's thin data sets, said twice
    wrong = [(d, c) for d, c in said if c not in table.get(d, set())]
    assert wrong == [], (wrong, table)
