"""Issue 10 in the report: thin scores, intervals inside bounds, results first, words for
skipped items, plot paths inside the folder, one label per distinct embedding, whole names on
the console."""

from __future__ import annotations

import json
import math
import os
import re

import pytest

from tests.report.handmade import describe, make_store, png
from tests.report.htmltables import find_table, parse, row_of
from wordgames.measure import HIGHER, Score
from wordgames.report import correlation_table, leaderboard, load_results, long_table
from wordgames.report.collect import PlotPathError
from wordgames.report.html import write_html
from wordgames.results import RunRecord, write_json_atomic
from wordgames.results.store import ResultKey, ResultStore, params_hash

PARAMS = {"seed": 0, "quick": False, "options": {}, "ci_resamples": 1000}
SIMLEX = ("similarity", "simlex999", "", "spearman")
MEN = ("similarity", "men", "", "spearman")
WALES = ("wales", "human", "greedy", "score")


def _row(emb, measure, dataset, subject, metric, value, **kw) -> dict:
    d = Score(emb, measure, dataset, subject, metric, float(value), direction=HIGHER, **kw)
    return d.as_dict()


def _put(root, name, sha, measure, rows, *, params=PARAMS, plots=(), notes=(), oov=None):
    store = ResultStore(root)
    res = {"measure": measure, "version": "1", "scores": rows, "embedding": name}
    res |= {"plots": list(plots), "notes": list(notes), "oov": oov or {}}
    key = ResultKey(sha, measure, "1", params_hash(params))
    emb = {"name": name, "sha256": sha, "n_words": 1000, "dim": 25, "source": f"/v/{name}"}
    store.put(key, res, embedding=emb, params=params)
    return res


def _sim_rows(lab, simlex, men, *, simlex_n=999, simlex_skipped=0, thin=False, reason=""):
    return [
        _row(
            lab,
            "similarity",
            "simlex999",
            "",
            "spearman",
            simlex,
            n=simlex_n,
            n_skipped=simlex_skipped,
            skip_reason="pairs with an out-of-vocabulary word" if simlex_skipped else "",
            coverage=simlex_n / (simlex_n + simlex_skipped),
            thin=thin,
            thin_reason=reason,
        ),
        _row(lab, "similarity", "men", "", "spearman", men, n=3000, coverage=1.0),
    ]


@pytest.fixture
def thin_store(tmp_path):
    """Four embeddings; C's SimLex score is thin (flag set), D's is stored without a flag
    (an older store) but covers 4 of 999 pairs; wales on all four."""
    root = tmp_path / "thin"
    reason = "coverage 4 of 999 (0%) is below 50%"
    sims = {
        "A": _sim_rows("A", 0.40, 0.70),
        "B": _sim_rows("B", 0.30, 0.60),
        "C": _sim_rows("C", 0.99, 0.50, simlex_n=4, simlex_skipped=995, thin=True, reason=reason),
        "D": _sim_rows("D", 0.98, 0.40, simlex_n=4, simlex_skipped=995),
    }
    for r in sims["D"]:  # written before the flag existed: no thin, no coverage
        del r["thin"], r["thin_reason"], r["coverage"]
    wales = {"A": 0.5, "B": 0.4, "C": 0.3, "D": 0.2}
    for lab, c in zip("ABCD", "abcd", strict=True):
        _put(root, lab, c * 64, "similarity", sims[lab])
        _put(
            root,
            lab,
            c * 64,
            "wales",
            [_row(lab, "wales", "human", "greedy", "score", wales[lab], n=1000, coverage=1.0)],
        )
    return root


def test_thin_cells_are_not_ranked_nor_highlighted(thin_store):
    coll = load_results(thin_store)
    lb = leaderboard(coll)
    assert lb.thin[SIMLEX].tolist() == [False, False, True, True]
    # C and D hold the best values but are thin: A ranks first of the two ranked ones
    assert lb.ranks[SIMLEX].tolist()[:2] == [1.0, 2.0]
    assert math.isnan(lb.ranks.at["C", SIMLEX]) and math.isnan(lb.ranks.at["D", SIMLEX])
    # these stored rows keep no per-item values: no paired comparison can separate A from B,
    # so nothing is best and A and B form the tied top group (issue 21)
    assert lb.best()[SIMLEX].tolist() == [False, False, False, False]
    assert lb.tied_top()[SIMLEX].tolist() == [True, True, False, False]
    # D was judged by the same rule (coverage 4 / 999), with a note saying so
    assert lb.thin_reason.at["D", SIMLEX] == "coverage 4 of 999 (0%) is below 50%"
    assert any("judged here by the same rule" in n for n in coll.notes)
    p = parse(write_html(coll, thin_store / "report.html").read_text(encoding="utf-8"))
    row = row_of(find_table(p, "metric", "simlex999/spearman"), "simlex999/spearman")
    assert row[1].startswith("0.4 ") and "rank 1/2" in row[1]
    assert "thin, not ranked: coverage 4 of 999 (0%) is below 50%" in row[3]
    assert "rank " not in row[3] and "rank " not in row[4]  # no "rank k/n"
    html = (thin_store / "report.html").read_text(encoding="utf-8")
    cells = re.findall(r'<td class="([^"]*)"><span class="v">0\.9[89]</span>', html)
    assert cells and all("thin" in c and "best" not in c for c in cells)


def test_thin_cell_keeps_its_column_and_headline(thin_store):
    # SimLex is the first primary headline; thin or undefined values never move the
    # similarity column of the overview (and the correlation) to MEN
    for r_path in thin_store.rglob("records/*/similarity/*.json"):
        d = json.loads(r_path.read_text())
        for r in d["result"]["scores"]:
            if r["dataset"] == "simlex999" and d["embedding"]["name"] in "BCD":
                r["value"] = None  # every pair skipped: undefined
        r_path.write_text(json.dumps(d))
    coll = load_results(thin_store)
    assert correlation_table(coll).primary["similarity"] == ("simlex999", "", "spearman")
    lb = leaderboard(coll)
    assert SIMLEX in lb.columns and lb.columns.index(SIMLEX) < lb.columns.index(MEN)


def test_correlation_leaves_thin_cells_out(thin_store):
    cor = correlation_table(load_results(thin_store))
    # only A and B have a SimLex value that is not thin: 2 < 3 embeddings, not computed
    assert cor.n.at["similarity", "wales"] == 2
    assert math.isnan(cor.matrix.at["similarity", "wales"])


def test_leaderboard_csv_says_thin_and_skipped_in_words(thin_store):
    df = leaderboard(load_results(thin_store)).to_frame()
    c = df[(df.subject == "C") & (df.dataset == "simlex999")].iloc[0]
    assert bool(c.thin) and c.skipped == "skipped 995 of 999: pairs with an out-of-vocabulary word"
    assert c.coverage == pytest.approx(4 / 999) and math.isnan(c["rank"])
    a = df[(df.subject == "A") & (df.dataset == "simlex999")].iloc[0]
    assert not a.thin and a.skipped == "" and a["rank"] == 1


def test_intervals_outside_bounds_are_clipped_with_a_note(tmp_path):
    root = tmp_path / "old"
    rows = {  # MAP-like: an old t-interval [0.225, 1.203] on a metric bounded by [-1, 1]
        "A": [
            _row("A", "similarity", "men", "", "spearman", 0.7, ci_low=0.225, ci_high=1.203, n=3000)
        ],
        "B": [_row("B", "similarity", "men", "", "spearman", 0.6, ci_low=0.5, ci_high=0.7, n=3000)],
    }
    for lab, c in zip("AB", "ab", strict=True):
        _put(root, lab, c * 64, "similarity", rows[lab], params={"seed": 0})
    coll = load_results(root)
    lb = leaderboard(coll)
    assert (lb.ci_low.at["A", MEN], lb.ci_high.at["A", MEN]) == (0.225, 1.0)
    assert bool(lb.ci_clipped.at["A", MEN]) and not bool(lb.ci_clipped.at["B", MEN])
    lt = long_table(coll)
    assert lt.ci_high.max() <= 1.0 and lt.ci_clipped.sum() == 1
    p = parse(write_html(coll, root / "report.html").read_text(encoding="utf-8"))
    row = row_of(find_table(p, "metric", "men/spearman"), "men/spearman")
    assert "[0.225, 1] clipped" in row[1] and "1.203" not in " ".join(p.text)
    assert "1 stored interval(s) reached outside their metric's range" in " ".join(p.text)
    # the Methods note says the results did not record their resamples
    assert "do not record their resamples" in " ".join(p.text)


def _headings_in_order(html: str) -> list[str]:
    return re.findall(r'<(?:h2|details)[^>]* id="([^"]+)"', html)


@pytest.mark.slow
def test_report_leads_with_results_and_folds_the_run_details(tmp_path):
    root = make_store(tmp_path / "r")
    html = write_html(load_results(root), root / "report.html").read_text(encoding="utf-8")
    order = _headings_in_order(html)
    assert order[:4] == ["leaderboard", "methods", "comparison", "plots"]
    assert order.index("correlation") < order.index("details")
    # environment, parameters, checksums and timings: folded, after every result
    for ident in ("summary", "embeddings", "parameters", "datasets", "timings", "skipped"):
        assert re.search(rf'<details class="fold" id="{ident}">', html), ident
        assert order.index(ident) > order.index("details")
    assert html.index('id="leaderboard-table"') < html.index('id="details"')
    methods = html[
        html.index('id="methods"') : html.index("</details>", html.index('id="methods"'))
    ]
    assert "percentile bootstrap" in methods and "declared range" in methods
    assert "less than 50% of the available items" in methods and "fewer than 30 items" in methods


def test_one_embedding_has_no_rank_and_no_highlight(tmp_path):
    root = make_store(tmp_path / "one", labels=("A",))
    html = write_html(load_results(root), root / "report.html").read_text(encoding="utf-8")
    assert "rank 1/1" not in html and 'class="num best"' not in html and "rank 1" not in html
    p = parse(html)
    assert "mean rank" not in find_table(p, "subject", "similarity")[0]


def test_all_tied_cells_are_not_highlighted(tmp_path):
    root = tmp_path / "tie"
    for lab, c in zip("AB", "ab", strict=True):
        _put(
            root,
            lab,
            c * 64,
            "similarity",
            [_row(lab, "similarity", "men", "", "spearman", 0.5, n=3000)],
        )
    lb = leaderboard(load_results(root))
    assert lb.ranks[MEN].tolist() == [1.0, 1.0] and not lb.best()[MEN].any()


def test_notes_and_oov_in_words_never_dict_reprs(tmp_path):
    root = tmp_path / "words"
    note = "codenames-pilot: {'repairs': {'empty trailing fields cut': 99}, 'dropped': {}}"
    oov = {"codenames-pilot/cluster/human_receiver": {"skipped": {"oov_clue": 4}, "n_oov_words": 4}}
    rows = [
        _row(
            "A",
            "codenames",
            "codenames-pilot",
            "cluster",
            "human_receiver.mean_rank",
            12.0,
            n=192,
            n_skipped=4,
            skip_reason="clue not in vocabulary",
        ),
        _row(
            "A",
            "codenames",
            "codenames-pilot",
            "cluster",
            "human_receiver.mrr",
            0.1,
            n=192,
            n_skipped=4,
            skip_reason="clue not in vocabulary",
        ),
    ]
    _put(root, "A", "a" * 64, "codenames", rows, notes=[note], oov=oov)
    text = " ".join(parse(write_html(load_results(root), root / "r.html").read_text()).text)
    assert "codenames-pilot: repairs: empty trailing fields cut (99); dropped: none" in text
    # the two metrics of one agent on the same records: said once
    assert text.count("codenames-pilot (cluster): skipped 4 of 196: clue not in vocabulary") == 1
    assert "out-of-vocabulary clue: 4" in text and "number of out-of-vocabulary words" in text
    assert "{'" not in text and "oov_clue" not in text and "n_oov_words" not in text


# --------------------------------------------------------------------------- plot paths
def _one_plot_store(tmp_path, plot: str):
    root = tmp_path / "res"
    _put(root, "A", "a" * 64, "similarity", _sim_rows("A", 0.4, 0.7), plots=[plot])
    return root


def test_relative_plot_paths_are_read_from_the_folder(tmp_path):
    root = _one_plot_store(tmp_path, "plots/A/similarity/sim.png")
    png(root / "plots" / "A" / "similarity" / "sim.png")
    moved = root.rename(tmp_path / "elsewhere")
    p = parse(write_html(load_results(moved), moved / "report.html").read_text())
    assert len([s for s in p.imgs if s.startswith("data:image/png;base64,")]) == 1


@pytest.mark.parametrize("kind", ["absolute", "dotdot", "symlink"])
def test_plot_path_outside_the_folder_is_refused(tmp_path, kind):
    secret = png(tmp_path / "secret.png")
    plot = {"absolute": str(secret), "dotdot": "../secret.png", "symlink": "plots/link.png"}[kind]
    root = _one_plot_store(tmp_path, plot)
    if kind == "symlink":
        (root / "plots").mkdir()
        os.symlink(secret, root / "plots" / "link.png")
    coll = load_results(root)
    with pytest.raises(PlotPathError, match="outside the results folder") as err:
        write_html(coll, root / "report.html")
    assert "records" in str(err.value) and ".json" in str(err.value)  # names the record
    assert not (root / "report.html").exists()


def test_legacy_absolute_plot_path_inside_the_folder_is_read(tmp_path):
    root = tmp_path / "res"
    plot = png(root / "plots" / "A" / "similarity" / "sim.png")
    _put(root, "A", "a" * 64, "similarity", _sim_rows("A", 0.4, 0.7), plots=[str(plot)])
    p = parse(write_html(load_results(root), root / "report.html").read_text())
    assert len(p.imgs) == 1


# --------------------------------------------------------------------------- names
def _two_glove_stores(tmp_path):
    for folder, sha, v in (("full", "a" * 64, 0.5), ("cut", "b" * 64, 0.3)):
        rows = [_row("glove-6b-50d", "similarity", "men", "", "spearman", v, n=3000)]
        _put(tmp_path / folder, "glove-6b-50d", sha, "similarity", rows)
    return tmp_path / "full", tmp_path / "cut"


def _app(*registrations):
    import typer

    app = typer.Typer()

    @app.callback()
    def _main():
        """test app"""

    for reg in registrations:
        reg(app)
    return app


def test_merge_of_one_name_two_embeddings_keeps_both(tmp_path):
    from typer.testing import CliRunner

    from wordgames.cli import results_cli

    app = _app(lambda a: a.add_typer(results_cli.app, name="results"))
    full, cut = _two_glove_stores(tmp_path)
    into = tmp_path / "all"
    res = CliRunner().invoke(app, ["results", "merge", str(full), str(cut), "--into", str(into)])
    assert res.exit_code == 0, res.output
    assert "2 different embeddings are named 'glove-6b-50d'" in res.output
    res = CliRunner().invoke(app, ["results", "table", str(into), "--wide", "--format", "csv"])
    assert res.exit_code == 0, res.output
    header = res.output.splitlines()[0].split(",")
    assert header == [
        "measure",
        "dataset",
        "agent",
        "partner",
        "metric",
        "glove-6b-50d (aaaaaaaa)",
        "glove-6b-50d (bbbbbbbb)",
    ]
    assert res.output.splitlines()[1].endswith(",0.5,0.3")
    # the report too: two rows, never one dropped
    assert load_results(into).labels() == ["glove-6b-50d (aaaaaaaa)", "glove-6b-50d (bbbbbbbb)"]


LONG_NAMES = (
    "glove-6b-50d[∩10k]",
    "codenames-human-noahprescott",
    "exhaustive:avg_blue_dist",
    "human_receiver.mean_rank_fraction",
)


@pytest.mark.parametrize("wide", [False, True])
def test_results_table_never_cuts_a_name_at_80_columns(tmp_path, wide):
    from typer.testing import CliRunner

    from wordgames.cli import results_cli

    root = tmp_path / "long"
    rows = [
        _row(
            LONG_NAMES[0],
            "codenames",
            LONG_NAMES[1],
            LONG_NAMES[2],
            LONG_NAMES[3],
            0.25,
            ci_low=0.2,
            ci_high=0.3,
            n=20,
            n_skipped=180,
            skip_reason="clue not in vocabulary",
            thin=True,
            thin_reason="coverage 20 of 200 (10%) is below 50%",
        ),
    ]
    _put(root, LONG_NAMES[0], "c" * 64, "codenames", rows)
    app = _app(lambda a: a.add_typer(results_cli.app, name="results"))
    args = ["results", "table", str(root)] + (["--wide"] if wide else [])
    res = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    assert "…" not in res.output
    for name in LONG_NAMES:
        assert name in res.output, (name, res.output)
    boxes = [line for line in res.output.splitlines() if line[:1] in "┏┃┡│└"]
    assert boxes and max(len(line) for line in boxes) <= 80
    assert (
        ("0.25 (thin)" in res.output) if wide else ("thin, not ranked: coverage 20" in res.output)
    )


def test_report_command_prints_whole_lines_at_80_columns(tmp_path):
    from typer.testing import CliRunner

    from wordgames.cli.report_cli import register

    root = tmp_path / ("a-rather-long-folder-name-" * 3) / "results"
    make_store(root, labels=("A", "B"))
    out = tmp_path / "site"
    res = CliRunner().invoke(
        _app(register), ["report", str(root), "-o", str(out)], env={"COLUMNS": "80"}
    )
    assert res.exit_code == 0, res.output
    assert f"report: {out / 'report.html'}" in res.output  # one line, not cut
    assert (out / "report.html").is_file() and (out / "leaderboard.csv").is_file()


def test_run_record_policy_is_used_for_old_rows(tmp_path):
    root = tmp_path / "pol"
    rows = _sim_rows("A", 0.4, 0.7, simlex_n=600, simlex_skipped=399)
    for r in rows:
        del r["thin"], r["thin_reason"]
    _put(root, "A", "a" * 64, "similarity", rows)
    rec = RunRecord(
        embeddings=[describe("A")],
        results=[],
        skipped=[],
        parameters={"thin": {"min_coverage": 0.75, "min_n": 30}},
        timings={},
    )
    write_json_atomic(root / "results.json", rec.as_dict())
    lb = leaderboard(load_results(root))
    # 600 of 999 = 60 %: thin under the run's 75 % policy (not under the default 50 %)
    assert lb.thin.iloc[0][SIMLEX] and "below 75%" in lb.thin_reason.iloc[0][SIMLEX]


def test_copied_plots_never_leave_the_report_folder(tmp_path):
    """A crafted store (an embedding named '..', a measure named '../../x') cannot make
    ``--images copy`` write outside the report's folder."""
    import json as _json

    root = _one_plot_store(tmp_path, "plots/A/similarity/sim.png")
    png(root / "plots" / "A" / "similarity" / "sim.png")
    (record,) = (root / "records").rglob("*.json")
    entry = _json.loads(record.read_text())
    entry["key"]["measure"] = entry["result"]["measure"] = "../../../escaped"
    entry["embedding"]["name"] = entry["result"]["subject"] = ".."
    for row in entry["result"]["scores"]:
        row["measure"], row["subject"] = "../../../escaped", ".."
    record.write_text(_json.dumps(entry))
    out = tmp_path / "site" / "report.html"
    write_html(load_results(root), out, images="copy")
    copied = [p for p in tmp_path.rglob("*.png") if p != root / "plots/A/similarity/sim.png"]
    assert copied, "the plot was copied"
    site = (tmp_path / "site").resolve()
    assert all(p.resolve().is_relative_to(site) for p in copied)
    assert not list(tmp_path.rglob("escaped*"))


def test_results_table_as_latex_booktabs_with_thin_marked(thin_store):
    from typer.testing import CliRunner

    from wordgames.cli import app

    r = CliRunner().invoke(
        app, ["results", "table", str(thin_store), "--format", "latex", "-m", "similarity"]
    )
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == r"\begin{tabular}{llllllrrr}" and lines[1] == r"\toprule"
    assert r"\midrule" in lines and r"\bottomrule" in lines and r"\end{tabular}" in lines
    assert lines[2] == (
        r"subject & measure & dataset & agent & partner & metric & value & 95\% CI & n \\"
    )
    simlex = [ln for ln in lines if "& simlex999 &" in ln]
    by_emb = {ln.split(" & ")[0]: ln for ln in simlex}
    # C (flagged) and D (judged by the same rule) are thin: marked; A and B are not
    assert r"$^\dagger$" in by_emb["C"] and r"$^\dagger$" in by_emb["D"]
    assert r"$^\dagger$" not in by_emb["A"] and r"$^\dagger$" not in by_emb["B"]
    assert r"$^\dagger$ thin" in r.output
    # every row has the same number of cells as the header
    body = lines[lines.index(r"\midrule") + 1 : lines.index(r"\bottomrule")]
    assert all(ln.count(" & ") == 8 and ln.endswith(r" \\") for ln in body)
