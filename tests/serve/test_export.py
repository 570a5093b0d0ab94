"""``wordgames collect export`` writes the documented user formats: they are read back by the
families' own readers and give the expected measure records through ``wordgames.evaluate``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tests.serve.helpers import Player, play_to_end
from tests.serve.test_api import GAMES, rows
from wordgames.serve.db import Database
from wordgames.serve.export import export
from wordgames.serve.models import Answer, Participant


@pytest.fixture(scope="module")
def played(tmp_path_factory, inputs):
    """Every test study played by two participants (and one who fails an attention check)."""
    from fastapi.testclient import TestClient

    from tests.serve.helpers import study_dicts
    from wordgames.serve.app import create_app
    from wordgames.serve.config import study_from_dict
    from wordgames.serve.db import migrate
    from wordgames.serve.store import init_study

    folder = tmp_path_factory.mktemp("played")
    url = f"sqlite:///{folder / 'study.db'}"
    db = Database(url)
    migrate(db)
    for d in study_dicts(inputs):
        init_study(db, study_from_dict(d))
    app = create_app(url, "x" * 20)
    for slug, game in GAMES.items():
        for k in range(2):
            pl = Player(TestClient(app, base_url="http://127.0.0.1"), slug, pid=f"P{k}{slug}")
            play_to_end(pl, game, pl.start())
    # a participant who fails the receiver study's attention check (position 1)
    pl = Player(TestClient(app, base_url="http://127.0.0.1"), "cn-recv")
    page = pl.start()
    from tests.serve.helpers import board_words, clue_of, good_answer

    page = pl.post("answer", good_answer("codenames-receiver", page)[1], page).text
    _, n = clue_of(page)
    bad = [
        w
        for w in board_words(page)
        if w not in ("dog", "cat", "horse", "cow", "sheep", "lion", "tiger", "rabbit")
    ][:n]
    pl.post("answer", {f"pick{i + 1}": w for i, w in enumerate(bad)}, page)
    app.state.ctx.db.dispose()
    out = folder / "export"
    rep = export(db, out)
    yield url, db, out, rep
    db.dispose()


def _trials(url, slug):
    from wordgames.serve.store import load_study

    db = Database(url)
    study = load_study(db, slug)
    out = [
        (a, study.items[a.item_id][3])
        for a in rows(url, Answer, study_id=study.id)
        if a.kind == "trial"
    ]
    flagged = {p.id for p in rows(url, Participant, study_id=study.id) if p.attention_failed}
    db.dispose()
    return [(a, pl) for a, pl in out if a.participant_id not in flagged], flagged


@pytest.mark.slow
def test_codenames_export_reads_back_through_user_format(played):
    from wordgames.codenames.human_data import read_user_file

    url, _, out, rep = played
    data = read_user_file(out / "codenames.jsonl")
    recv, flagged = _trials(url, "cn-recv")
    send, _ = _trials(url, "cn-send")
    assert flagged and rep.left_out["participant failed an attention check"] == 1
    assert len(data.receiver) == len(recv) == 2 * 3 and len(data.sender) == len(send) == 6
    by_id = {r.meta["position"]: r for r in data.receiver}
    assert len(by_id) >= 1
    for a, pl in recv:
        match = [
            r
            for r in data.receiver
            if r.record_id.endswith(f":t{a.position}")
            and r.chosen == tuple(json.loads(a.payload)["chosen"])
            and r.clue == pl["clue"]
        ]
        assert match, (a.position, pl["clue"])
        r = match[0]
        assert r.board == tuple(pl["board"]) and r.clue_source == pl["clue_source"]
        assert r.blue == tuple(pl["blue"]) and r.number == pl["number"]
        assert r.meta["agent"]["agent"] in ("ClusterSender", "ExhaustiveSearchSender")
    for s in data.sender:
        assert s.clue_source == "human" and set(s.targets) <= set(s.blue)
        assert s.meta["agent_feedback"]["agent"] == "nearest"


@pytest.mark.slow
def test_codenames_export_gives_the_measure_records(played, tmp_path):
    """The exported file and a file written here straight from the database rows give the same
    Score rows through wordgames.evaluate; the counts are those of the study."""
    import wordgames

    url, _, out, _ = played
    recv, _ = _trials(url, "cn-recv")
    send, _ = _trials(url, "cn-send")
    own = tmp_path / "codenames.jsonl"
    lines = [
        {
            "kind": "receiver",
            "board": pl["board"],
            "clue": pl["clue"],
            "chosen": json.loads(a.payload)["chosen"],
            "clue_source": pl["clue_source"],
            "number": pl["number"],
            "blue": pl["blue"],
            "red": pl["red"],
        }
        for a, pl in recv
    ]
    lines += [
        {"kind": "sender", "blue": pl["blue"], "red": pl["red"], **json.loads(a.payload)}
        for a, pl in send
    ]
    own.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")

    def scores(path):
        res = wordgames.evaluate(
            "glove-6b-50d",
            measures=["codenames"],
            options={
                "codenames": {
                    "files": [str(path)],
                    "datasets": None,
                    "max_records": None,
                    "n_restarts": 2,
                }
            },
        )
        f = res.to_frame()
        f = f[f.dataset == "user:codenames.jsonl"]  # the file's rows (not the "all" summary)
        return f.drop(columns=["dataset"]).sort_values(["agent", "metric"]).reset_index(drop=True)

    exported, direct = scores(out / "codenames.jsonl"), scores(own)
    assert len(exported) > 0
    assert exported[["agent", "metric", "value", "n"]].equals(
        direct[["agent", "metric", "value", "n"]]
    )
    m = exported.set_index(["agent", "metric"])
    assert m.loc[("nearest", "human_receiver.map"), "n"] == len(recv)
    assert 0 <= m.loc[("nearest", "human_receiver.map"), "value"] <= 1
    assert m.loc[("nearest", "human_sender.guess_score"), "n"] == len(send)
    assert m.loc[("cluster", "human_sender.mean_rank"), "value"] >= 1


def test_wiki_export_reads_back_as_wikispeedia_paths(played, inputs):
    from wordgames.wales.baselines import wikispeedia_human_baseline, wikispeedia_human_table
    from wordgames.wales.loaders import read_edge_list, read_wikispeedia_paths

    url, _, out, _ = played
    games, _ = _trials(url, "wiki")
    fin = read_wikispeedia_paths(out / "wiki_paths_finished.tsv")
    assert fin.finished and len(fin.paths) == len(games) == 4
    want = sorted(json.loads(a.payload)["path"] for a, _ in games)
    got = sorted([*p] for p in fin.paths)  # no back clicks in these games: same sequences
    assert got == want
    graph = read_edge_list(inputs["graph"])[0]
    base = wikispeedia_human_baseline(wikispeedia_human_table(graph, fin))
    assert base["n_games"] == 4 and base["best"] == pytest.approx(1.0)  # shortest paths played


def test_oddmanout_exports_read_back_as_puzzles(played):
    from wordgames.oddmanout.generate import protocol_count, read_protocol_seeds
    from wordgames.oddmanout.puzzles import read_puzzles

    url, _, out, rep = played
    games, _ = _trials(url, "omo")
    ps = read_puzzles(out / "oddmanout_answers.jsonl")
    assert len(ps) == len(games) == 6
    assert sorted(ps.answer_words().tolist()) == sorted(pl["answer"] for _, pl in games)
    val = read_puzzles(out / "oddmanout_validated.jsonl")
    assert len(val) == len({tuple(sorted(pl["words"])) for _, pl in games})  # all agreed
    seeds = dict(read_protocol_seeds(out / "oddmanout_seeds.jsonl"))
    # both participants gave the same examples: merged once, in order
    assert seeds["bat"]["baseball equipment"] == ["glove", "cap", "ball", "helmet"]
    crowd = read_puzzles(out / "oddmanout_crowd_puzzles.jsonl")
    want = protocol_count([3, 4]) + protocol_count([3, 3])  # bat, bass
    assert len(crowd) == rep.counts["oddmanout_crowd_puzzles.jsonl"] == want == 22
    assert "bat" in set(crowd.words.ravel().tolist())


def test_oddmanout_answers_feed_the_measure(played):
    import wordgames

    _, _, out, _ = played
    res = wordgames.evaluate(
        "glove-6b-50d",
        measures=["oddmanout"],
        options={
            "oddmanout": {
                "puzzles": [str(out / "oddmanout_answers.jsonl")],
                "sets": (),
                "wordnet": False,
            }
        },
    )
    f = res.to_frame()
    row = f[
        (f.metric == "pct_correct") & (f.agent == "embedding") & (f.dataset == "oddmanout_answers")
    ]
    assert len(row) == 1 and row["n"].iloc[0] == 6 and 0 <= row["value"].iloc[0] <= 100


def test_live_measures_of_each_game(played):
    from wordgames.serve.live import evaluate_study

    url, db, _, _ = played
    people = evaluate_study(db, "omo")
    # the people are a player subject scored by the oddmanout measure, as the embedding is
    got = {r["metric"]: r["value"] for r in people["rows"] if r["subject"] == "people"}
    assert {r["agent"] for r in people["rows"] if r["subject"] == "people"} == {"player"}
    assert got["pct_correct"] == 100.0 and people["n_records"] == 6
    wiki = evaluate_study(db, "wiki")
    got = {r["metric"]: r["value"] for r in wiki["rows"]}
    assert got["human_best"] == pytest.approx(1.0) and got["success_rate"] == 1.0
    crowd = evaluate_study(db, "crowd")
    assert crowd["n_records"] == 2 and "22 puzzles" in crowd["notes"][0]


def test_collect_measures_cli_shows_what_the_admin_page_shows(played):
    """n, interval, coverage and the thin note, in the admin page's formats."""
    from wordgames.cli import app as cmd

    url, _, _, _ = played
    r = CliRunner().invoke(
        cmd, ["collect", "measures", "--db", url, "--slug", "omo"], env={"COLUMNS": "220"}
    )
    assert r.exit_code == 0, r.output
    assert "95% CI" in r.output and "coverage" in r.output
    (line,) = [x for x in r.output.splitlines() if "people" in x and "pct_correct" in x]
    cells = [c.strip() for c in line.strip("│ ").split("│")]
    assert cells[0] == "people"
    assert cells[4:] == ["100", "100 – 100", "6", "100%", "thin: n = 6 is below 30, not ranked"]


def test_collect_export_cli(played, tmp_path):
    from wordgames.cli import app as cmd

    url, _, _, _ = played
    runner = CliRunner()
    r = runner.invoke(
        cmd,
        [
            "collect",
            "export",
            "--db",
            url,
            "-o",
            str(tmp_path / "x"),
            "--slug",
            "omo",
            "--completed-only",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "oddmanout_answers.jsonl: 6" in r.output
    assert not (tmp_path / "x" / "codenames.jsonl").exists()
    r = runner.invoke(
        cmd, ["collect", "export", "--db", url, "-o", str(tmp_path / "y"), "--slug", "nope"]
    )
    assert r.exit_code == 2 and "no study 'nope'" in r.output
    r = runner.invoke(cmd, ["collect", "export", "--db", "mysql://x", "-o", str(tmp_path)])
    assert r.exit_code == 2 and "expected sqlite:///FILE" in r.output
