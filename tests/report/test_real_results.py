"""The report of a real run (similarity and global metrics of GloVe, quick) through
``wordgames.evaluate(..., store=DIR)``."""

from __future__ import annotations

import pytest

from tests.conftest import require_dataset
from tests.report.htmltables import find_table, parse, row_of
from wordgames.report import correlation_table, leaderboard, load_results, write_report

pytestmark = pytest.mark.slow  # real data, a browser or servers: seconds each

MEN = ("similarity", "men", "", "spearman")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, data_root):
    require_dataset("word-similarity")
    import wordgames
    from wordgames.embeddings.sets import VocabularyPolicy

    out = tmp_path_factory.mktemp("run")
    res = wordgames.evaluate(
        "glove-6b-50d",
        measures=["similarity", "global-metrics"],
        data_root=data_root,
        quick=True,
        store=out,
        vocabulary=VocabularyPolicy(top_n=20_000),
    )
    res.write(out)  # results.json, as every CLI command writes it beside the store
    return out


def test_report_of_a_real_run(run_dir):
    import json

    coll = load_results(run_dir)
    assert coll.from_store and coll.measures() == ["similarity", "global-metrics"]
    stored = json.loads((run_dir / "results.json").read_text())
    sim = next(r for r in stored["results"] if r["measure"] == "similarity")
    lb = leaderboard(coll)
    label = coll.labels()[0]
    (men,) = [r for r in sim["tables"]["benchmarks"] if r["benchmark"] == "men"]
    assert lb.values.at[label, MEN] == men["spearman"]
    # the items skipped beside the value are the benchmark's OOV pairs
    assert lb.n_skipped.at[label, MEN] == men["n_oov_pairs"]
    assert lb.n.at[label, MEN] + lb.n_skipped.at[label, MEN] == men["n_pairs"]
    assert lb.directions[("global-metrics", "", "", "erank")] is None
    assert correlation_table(coll).matrix.isna().all().all()  # one embedding: refused

    p = parse(write_report(run_dir).read_text(encoding="utf-8"))
    row = row_of(find_table(p, "metric", "men/spearman"), "men/spearman")
    assert row[1].startswith(f"{men['spearman']:.4g} ")
    assert f"skipped {men['n_oov_pairs']:.0f} of {men['n_pairs']:,.0f}" in row[1]
    # the run's plots (similarity bars, global-metrics spectrum) are embedded
    assert len(p.imgs) == len(sim["plots"]) + 1
    assert all(s.startswith("data:image/png;base64,") for s in p.imgs)
    # every checksum of the data set used is listed
    sums = sim["datasets"]["word-similarity"]
    rows = [r for t in p.tables for r in t]
    assert sums and all([f, h] in rows for f, h in sums.items())


def test_every_interval_of_the_real_run_lies_within_its_bounds(run_dir):
    from wordgames.report import load_results, long_table
    from wordgames.report.collect import measure_spec

    coll = load_results(run_dir)
    checked = 0
    for e in coll.entries:
        spec = measure_spec(e.measure)
        for s in e.scores:
            lo, hi = spec.bounds(s.metric)
            for v in (s.ci_low, s.ci_high):
                if v == v:  # not NaN
                    checked += 1
                    assert lo is None or v >= lo, (e.measure, s.key, v)
                    assert hi is None or v <= hi, (e.measure, s.key, v)
    assert checked > 20
    assert not long_table(coll).ci_clipped.any()  # nothing had to be clipped
