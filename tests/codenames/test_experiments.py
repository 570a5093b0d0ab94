"""The authors' clue vocabulary, the paper's self-play settings and the experiment tables."""

from __future__ import annotations

import inspect
import math

import pytest

from tests.codenames._toy import angles_embedding
from tests.conftest import require_dataset
from wordgames.codenames import Board, ExhaustiveSearchSender, HumanReceiverRecord
from wordgames.codenames.agents import ClusterSender
from wordgames.codenames.experiments import (
    PAPER_SELFPLAY,
    by_embedding,
    clue_vocabulary,
    experiment2_markdown,
    read_word_list,
    same_vs_different,
)
from wordgames.codenames.measures import sender_ranks_receiver_data
from wordgames.codenames.spec import CodenamesOptions
from wordgames.errors import DataFormatError
from wordgames.measure import OptionError

# cosine distance = angle: "pet" (10) and "animal" (35) lie on the blue side of dog (0) and cat
# (20), away from car (120); only "animal" and "engine" are nouns of the list
ANGLES = {
    "the": 200,
    "pet": 10,
    "dog": 0,
    "cat": 20,
    "car": 120,
    "animal": 35,
    "engine": 110,
    "zebra": 60,
}
NOUNS = ["engine", "animal", "unicorn", "animal"]
BOARD = Board(("dog", "cat"), ("car",))


def test_clue_vocabulary_selects_the_listed_words_in_frequency_order_and_counts_oov():
    emb = angles_embedding(ANGLES)
    cv = clue_vocabulary(emb, NOUNS, "nouns")
    # the listed words the embedding knows come first, in its own (frequency) order
    assert cv.embedding.words.tolist()[:2] == ["animal", "engine"]
    assert sorted(cv.embedding.words.tolist()) == sorted(ANGLES)  # no word lost
    assert (cv.n_clues, cv.n_listed, cv.oov) == (2, 3, ["unicorn"])
    assert "2 of its 3 words" in cv.note() and "the 1 others" in cv.note()
    # the vectors travel with their words
    assert cv.embedding.cosine("animal", "cat") == pytest.approx(math.cos(math.radians(15)))


def test_on_a_small_board_the_chosen_clue_must_come_from_the_list():
    emb = angles_embedding(ANGLES)
    # the embedding's own vocabulary: "pet" and "animal" both cover dog and cat; "pet" is the
    # more frequent (the paper's first optimal clue)
    assert ExhaustiveSearchSender(emb, "frequency").give_clue(BOARD) == ("pet", 2)
    cv = clue_vocabulary(emb, NOUNS, "nouns")
    sender = ExhaustiveSearchSender(cv.embedding, "frequency", vocab_size=cv.n_clues)
    assert sender.give_clue(BOARD) == ("animal", 2)
    assert sender.ranked_forward(["dog", "cat"], ["car"]) == ["animal", "engine"]
    # ClusterSender: the listed word nearest the centroid of dog and cat (10 degrees)
    cluster = ClusterSender(cv.embedding, n_restarts=2, vocab_size=cv.n_clues)
    assert cluster.give_clue(BOARD) == ("animal", 2)


def test_measure_ranks_among_the_list_and_skips_unlisted_clues_as_oov():
    cv = clue_vocabulary(angles_embedding(ANGLES), NOUNS, "nouns")
    sender = ExhaustiveSearchSender(cv.embedding, "frequency", vocab_size=cv.n_clues)
    records = [
        HumanReceiverRecord("toy", str(i), board=("dog", "cat", "car"), clue=c, chosen=picks)
        for i, (c, picks) in enumerate(
            [("animal", ("dog", "cat")), ("engine", ("car",)), ("pet", ("dog", "cat"))]
        )
    ]
    res = sender_ranks_receiver_data([sender], records)[sender.name]
    # animal is the best of the two listed clues for {dog, cat}; for {car} engine (10 degrees
    # from car, its only target) beats animal (85 degrees from car, nearer cat): both rank 1
    assert res.summary()["mean_rank"] == 1.0 and res.summary()["n"] == 2
    assert res.skipped["oov_clue"] == 1  # "pet" is a word of the embedding, not of the list


def test_read_word_list_reads_the_authors_nounlist_without_a_header():
    folder = require_dataset("codenames-pilot")
    words = read_word_list(folder / "nounlist.csv")
    # PROVENANCE.md: 6,801 lines, all distinct, no header (the first line is ATM)
    assert len(words) == 6801 and words[:2] == ["atm", "cd"]
    assert all(w == w.lower() for w in words)


def test_read_word_list_names_an_empty_line(tmp_path):
    path = tmp_path / "nouns.csv"
    path.write_text("dog\n\ncat\n", encoding="utf-8")
    with pytest.raises(DataFormatError) as err:
        read_word_list(path)
    assert err.value.line == 2 and "nouns.csv" in str(err.value)


def test_clue_vocabulary_is_an_option_of_the_measure():
    assert CodenamesOptions(clue_vocabulary="nounlist").clue_vocabulary == "nounlist"
    assert CodenamesOptions().clue_vocabulary is None
    with pytest.raises(OptionError, match="not a clue vocabulary"):
        CodenamesOptions(clue_vocabulary="adjectives")
    with pytest.raises(OptionError, match="exclude each other"):
        CodenamesOptions(clue_vocabulary="nounlist", vocab_size=100)


def test_nounlist_through_the_measure_on_the_pilot(glove, data_root):
    require_dataset("codenames-pilot")
    import wordgames

    opts = {"codenames": {"clue_vocabulary": "nounlist"}}
    r = wordgames.evaluate(glove, "codenames", datasets=["codenames-pilot"], options=opts)
    m = r.result("codenames")
    cv = m.parameters["clue_vocabulary"]
    nouns = set(read_word_list(data_root / "codenames" / "nounlist.csv"))
    known = {w for w in nouns if w in glove}
    assert (cv["n_clues"], cv["n_oov"], cv["n_listed"]) == (len(known), 6801 - len(known), 6801)
    # every record whose clue is not a noun GloVe knows is skipped as an unknown clue
    from wordgames.codenames.human_data import load_human_data

    data = load_human_data("codenames-pilot", data_root)
    unlisted = sum(r.clue.lower() not in known for r in data.receiver)
    row = next(
        s
        for s in m.tables["senders"]
        if s["agent"] == "cluster" and s["clue_source"] == "all" and s["data"] == "human_receiver"
    )
    assert row["skipped"]["oov_clue"] == unlisted > 0


def test_selfplay_defaults_are_the_papers_settings():
    # section 3.3: "a random board with 100 total words and 50 good words, and averaged the
    # metric over 30 calculations"; ExhaustiveSearchSender taking the first optimal clue
    assert PAPER_SELFPLAY == {
        "games": 30,
        "n_blue": 50,
        "n_red": 50,
        "max_turns": None,
        "tie_break": "frequency",
    }
    from wordgames.cli.codenames_cli import selfplay

    defaults = {k: p.default for k, p in inspect.signature(selfplay).parameters.items()}
    assert {k: defaults[k] for k in PAPER_SELFPLAY} == PAPER_SELFPLAY


def test_same_vs_different_on_the_papers_table_1():
    rows = [
        {"sender": "glove", "receiver": "glove", "mean_turns": 9.3},
        {"sender": "glove", "receiver": "word2vec", "mean_turns": 51.0},
        {"sender": "word2vec", "receiver": "glove", "mean_turns": 51.0},
        {"sender": "word2vec", "receiver": "word2vec", "mean_turns": 8.7},
    ]
    got = same_vs_different(rows)
    assert got["same"] == pytest.approx(9.0) and got["different"] == 51.0
    assert (got["n_same"], got["n_different"]) == (2, 2)


def _srow(emb, dataset, source, value, agent="cluster", among="vocabulary", n=4):
    return {
        "embedding": emb,
        "dataset": dataset,
        "data": "human_receiver",
        "ranked_among": among,
        "agent": agent,
        "clue_source": source,
        "mean_rank": value,
        "n": n,
    }


def test_by_embedding_lays_embeddings_side_by_side():
    rows = [
        _srow("w2v", "codenames-pilot", "gloveX", 7.0),
        _srow("glove", "codenames-pilot", "all", 10.0),
        _srow("w2v", "codenames-pilot", "all", 4.0, n=3),
        _srow("glove", "codenames-pilot", "gloveX", 5.0),
        _srow("glove", "codenames-pilot", "all", 99.0, agent="random-sender"),
        _srow("glove", "codenames-pilot", "all", 2.0, among="candidates"),
        _srow("glove", "b-data", "all", 1.0),
    ]
    names, table = by_embedding(rows, agent="cluster")
    assert names == ["w2v", "glove"]
    got = [(t["dataset"], t["clue_source"], t["w2v"], t["glove"]) for t in table]
    # "all" first within each data set; the other agent and the candidates rows left out
    assert got[0] == ("b-data", "all", pytest.approx(math.nan, nan_ok=True), 1.0)
    assert got[1:] == [
        ("codenames-pilot", "all", 4.0, 10.0),
        ("codenames-pilot", "gloveX", 7.0, 5.0),
    ]
    assert table[1]["n"] == {"w2v": 3, "glove": 4}


def test_experiment2_markdown_senders_and_receivers():
    srows = [_srow("a", "codenames-human-salt", "all", 1234.5, n=3)]
    rrows = [
        {
            "embedding": e,
            "dataset": "codenames-pilot",
            "data": "human_receiver",
            "agent": "nearest",
            "clue_source": src,
            "score": v,
            "n": 5,
        }
        for e, src, v in (("a", "all", 0.5), ("b", "all", 0.25), ("a", "m", 1.0))
    ]
    text = experiment2_markdown(srows, rrows)
    assert "| salt | all | 1,234.5 | 3 |" in text  # the data set without its prefix
    assert "| codenames-pilot | all | 0.500 | 0.250 | 5 |" in text
    assert "| codenames-pilot | m | 1.000 | - | 5 |" in text
    short = experiment2_markdown(srows, rrows, agents=["nearest"], by_source=False)
    assert "cluster" not in short and "| m |" not in short
