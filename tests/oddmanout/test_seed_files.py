"""Issue 22, items 10 and 14: seed and category files are read by one checked reader, and
words are bounded everywhere."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wordgames.errors import DataFormatError
from wordgames.oddmanout.generate import read_categories, read_protocol_seeds


def _seed(seed="bat", cats=None):
    cats = cats or {"mammal": ["fox", "owl"], "sport tool": ["club", "racket"]}
    return json.dumps({"seed": seed, "categories": cats})


@pytest.mark.parametrize(
    "content, line, message",
    [
        (b"\xff\xfe not utf-8\n", 1, "UTF-8"),
        (("[" * 100_000 + "\n").encode(), 1, "not valid JSON"),
        ((_seed() + "\n" + _seed(cats={"a": [1, 2], "b": ["x"]}) + "\n").encode(), 2, "expected words"),
        (_seed("b\x00at").encode(), 1, "control character"),
        (_seed("bat", {"mam\u2028mal": ["fox"], "b": ["x"]}).encode("utf-8"), 1, "U+2028"),
    ],
    ids=["not-utf8", "deep-json", "number-example", "nul-seed", "line-separator"],
)  # fmt: skip
def test_bad_seed_files_name_the_file_and_line(tmp_path, content, line, message):
    path = tmp_path / "seeds.jsonl"
    path.write_bytes(content)
    with pytest.raises(DataFormatError) as err:
        read_protocol_seeds(path)
    assert err.value.path == str(path) or str(path) in str(err.value)
    assert err.value.line == line and message in str(err.value), str(err.value)


def test_a_category_file_with_a_control_character_is_refused(tmp_path):
    path = tmp_path / "cats.tsv"
    path.write_text("fruit\tapple\tpear\tplum\tfig\nanimal\tcat\tdog\tow\x00l\tfox\n")
    with pytest.raises(DataFormatError, match="line 2.*control character"):
        read_categories(path)


def test_a_two_million_character_word_is_not_a_word(tmp_path):
    from wordgames.embeddings import load_embedding

    path = tmp_path / "long.txt"
    path.write_text("cat 1 0\n" + "a" * 2_000_000 + " 0 1\ndog 0.5 0.5\n")
    emb = load_embedding(path)
    assert list(emb.words) == ["cat", "dog"]
    assert emb.load_report.repairs["bad_words_dropped"] == 1
    assert np.allclose(emb.vector("dog"), [0.5, 0.5])
