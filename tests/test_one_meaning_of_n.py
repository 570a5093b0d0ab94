"""One meaning of ``n`` (issue 21, items 1 and 2), checked over every score of a real run.

``n`` is the items a value is computed on and ``n_skipped`` the items left out, so
``n + n_skipped`` is the data set's item count as declared with the data set, whatever the
embedding's vocabulary; the console, the report and the CSV print the same fraction.
"""

from __future__ import annotations

import re

import pytest

import wordgames
from wordgames.datasets import declared_items

pytestmark = pytest.mark.slow

EMBEDDINGS = ["glove-6b-50d", "glove-6b-50d-top10k"]


def _checked_measures() -> list[str]:
    """Every measure of the default run that reads declared data sets (from the registry, so a
    new family is checked too); CBM reads logs, whose size no declaration holds."""
    from wordgames.registry import select_measures

    return [m.name for m in select_measures() if m.datasets]


#: measures whose quick mode keeps the check whole: WALES's task sets are generated, of the
#: run's size (the others' quick modes sample records)
QUICK_IS_WHOLE = {"wales"}


@pytest.fixture(scope="module")
def run(tmp_path_factory, data_root):
    out = tmp_path_factory.mktemp("one-n")
    kw = dict(store=out, data_root=data_root, ci_resamples=50)
    names = _checked_measures()
    res = wordgames.evaluate(
        EMBEDDINGS, measures=[n for n in names if n not in QUICK_IS_WHOLE], **kw
    )
    quick = [n for n in names if n in QUICK_IS_WHOLE]
    if quick:
        res.results += wordgames.evaluate(EMBEDDINGS, measures=quick, quick=True, **kw).results
    return res, out


def _base(score, res) -> int | None:
    """The declared item count (WALES task sets: the run's ``k`` tasks, ``w_path_pairs``)."""
    if score.measure == "wales" and score.metric != "title_coverage":
        opts = res.result("wales", score.subject).parameters["options"]
        return opts["w_path_pairs"] if score.agent == "w-path" else opts["k"]
    if score.dataset == "all":  # Codenames pooled over the data sets that have the role
        from wordgames.datasets import all_datasets

        role = score.metric.split(".")[0]
        counts = [s.item_count(role) for s in all_datasets().values() if s.family == "codenames"]
        return sum(c for c in counts if c)
    return declared_items(score.dataset, score.metric)


def test_n_plus_skipped_is_the_declared_item_count_for_every_score(run):
    res, _ = run
    measures = {s.measure for s in res.scores}
    assert measures == set(_checked_measures()) >= {"codenames", "oddmanout", "similarity", "wales"}
    checked, bad, undeclared = 0, [], set()
    for s in res.scores:
        if s.n is None or s.dataset == "":
            continue  # a matrix statistic (global metrics): no data set
        base = _base(s, res)
        if base is None:
            undeclared.add((s.measure, s.dataset))
            continue
        checked += 1
        if s.n + s.n_skipped != base or not 0 <= s.n_oov <= s.n:
            bad.append((s.subject, s.measure, s.dataset, s.agent, s.metric, s.n, s.n_skipped))
    assert undeclared == set(), "every data set a score names declares its item count"
    assert checked > 500
    assert bad == []


def test_the_base_does_not_depend_on_the_vocabulary(run):
    res, _ = run
    totals: dict = {}
    for s in res.scores:
        if s.n is not None and s.dataset:
            totals.setdefault((s.measure, s.dataset, s.agent, s.metric), set()).add(s.total)
    assert all(len(v) == 1 for v in totals.values())
    # and the small vocabulary does leave items out, so the check above has teeth
    small = [s for s in res.scores if s.subject.endswith("top10k") and s.n_skipped + s.n_oov]
    assert {s.measure for s in small} >= {"codenames", "oddmanout", "similarity"}


def test_oddmanout_abstentions_are_a_metric_not_a_skip(run):
    res, _ = run
    rows = {
        s.metric: s
        for s in res.result("oddmanout", "glove-6b-50d-top10k").scores
        if s.dataset == "crowdsourced-filtered" and s.agent == "embedding"
    }
    pct = rows["pct_correct"]
    assert (pct.n, pct.n_skipped) == (585, 0)
    assert 0 < pct.n_oov < 585
    assert pct.coverage == pytest.approx((585 - pct.n_oov) / 585)
    acc = rows["accuracy_answered"]
    abstained = round(rows["pct_abstained"].value * 585 / 100)
    assert (acc.n, acc.n_skipped) == (585 - abstained, abstained)


def _fraction(text: str) -> tuple[int, int]:
    m = re.search(r"(?:out of vocabulary|skipped) ([\d,]+) of ([\d,]+)", text)
    assert m, text
    return tuple(int(g.replace(",", "")) for g in m.groups())


def test_console_report_and_csv_print_the_same_fraction(run):
    import pandas as pd
    from typer.testing import CliRunner

    from wordgames.cli import app
    from wordgames.cli.summary import coverage_counts, fmt_counts
    from wordgames.report.text import score_skipped_text

    res, out = run
    s = next(
        s
        for s in res.result("oddmanout", "glove-6b-50d-top10k").scores
        if s.dataset == "crowdsourced-filtered" and s.metric == "pct_correct"
    )
    text = score_skipped_text(s)
    assert _fraction(text) == (s.n_oov, 585)
    # the console's coverage column: known items of the data set's 585
    assert fmt_counts(coverage_counts(s)) == f"{585 - s.n_oov:,} of 585"
    r = CliRunner().invoke(app, ["report", str(out)], terminal_width=200)
    assert r.exit_code == 0, r.output
    html = (out / "report.html").read_text()
    assert text.split(":")[0] in html
    assert not re.search(r"skipped [\d,]+ of (641|189)\b", html)
    csv = pd.read_csv(out / "metrics_long.csv")
    row = csv[
        (csv.subject.str.endswith("top10k"))
        & (csv.dataset == "crowdsourced-filtered")
        & (csv.metric == "pct_correct")
        & (csv.agent == "embedding")
    ].iloc[0]
    assert _fraction(row.skipped) == (s.n_oov, 585)
    assert int(row.n) + int(row.n_skipped) == 585
