"""Every input kind, EOS/padding, EGG interactions and log files."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from wordgames.emergent.inputs import (
    encode_concepts,
    encode_messages,
    from_interaction,
    read_log,
    to_word_lists,
)
from wordgames.emergent.measures import evaluate_interaction, evaluate_language, evaluate_log
from wordgames.errors import DataFormatError

EOS, PAD = 0, 7


def _language(n=120, seed=0):
    """A partly compositional language as ids B x 5: words 1..6, EOS 0, padding 7."""
    rng = np.random.default_rng(seed)
    msgs = np.full((n, 5), PAD)
    labels = []
    for b in range(n):
        c, s = rng.integers(0, 3), rng.integers(0, 2)
        words = [1 + c, 4 + s] if rng.random() < 0.8 else [1 + c, 1 + c, 6]
        msgs[b, : len(words)] = words
        msgs[b, len(words)] = EOS
        if len(words) + 1 < 5:
            msgs[b, len(words) + 1] = rng.integers(1, 7)  # junk after EOS
        labels.append([f"color=c{c}", f"shape=s{s}"])
    return msgs, labels


def test_eos_truncates_and_padding_is_dropped():
    assert to_word_lists(np.array([[3, 5, 0, 9], [5, 0, 0, 0]]), eos_id=0) == [["3", "5"], ["5"]]
    assert to_word_lists(np.array([[3, 2, 2, 5]]), pad_id=2) == [["3", "5"]]
    assert to_word_lists(np.array([[0, 4, 4]]), eos_id=0) == [[]]
    # without an EOS id the zeros are ordinary words
    assert to_word_lists(np.array([[3, 0]])) == [["3", "0"]]
    m = encode_messages(np.array([[3, 0, 9], [9, 9, 0]]), eos_id=0)
    assert list(m.vocab) == ["3", "9"] and m.lengths.tolist() == [1, 2]
    # after-EOS symbols never enter the vocabulary
    assert list(encode_messages(np.array([[3, 0, 8]]), eos_id=0).vocab) == ["3"]
    # token lists get the same treatment (compared as strings)
    assert to_word_lists([[3, 7, 5, 0, 4], "1 0 2"], eos_id=0, pad_id=7) == [["3", "5"], ["1"]]


def test_onehot_and_binary_words():
    ids = np.array([[2, 1, 0], [1, 0, 0]])
    onehot = np.eye(3)[ids]
    onehot[1, 2] = 0  # an all-zero row is padding
    assert to_word_lists(onehot, eos_id=0) == [["2", "1"], ["1"]]
    soft = onehot * 0.7 + 0.1  # Gumbel-Softmax probabilities: argmax
    assert to_word_lists(soft, kind="onehot", eos_id=0) == [["2", "1"], ["1"]]
    bits = np.array([[[1, 0, 1], [0, 1, 1], [0, 0, 0]], [[1, 0, 1], [1, 0, 1], [0, 0, 0]]])
    assert encode_messages(bits).kind == "binary"
    # each distinct bit vector is one word; EOS given as the integer 0b000 = 0
    assert to_word_lists(bits, eos_id=0) == [["101", "011"], ["101", "101"]]
    assert to_word_lists(bits, kind="binary") == [["101", "011", "000"], ["101", "101", "000"]]
    wide = np.zeros((1, 2, 70), dtype=int)
    wide[0, 0, 69] = 1
    wide[0, 1, 0] = 1
    assert len(encode_messages(wide, kind="binary").vocab) == 2


def test_every_input_kind_gives_the_same_report():
    msgs, labels = _language()
    objects = np.array(
        [
            [float(c == f"color=c{k}") for k in range(3)] + [float(s == "shape=s1")]
            for c, s in labels
        ]
    )
    base = evaluate_language(msgs, labels, objects=objects, eos_id=EOS, pad_id=PAD)
    onehot = np.eye(8)[msgs]
    bits = (msgs[..., None] >> np.arange(2, -1, -1)) & 1  # 3-bit words, EOS = 000 = 0, PAD = 111
    tokens = [list(row) for row in msgs]
    names = sorted({c for lab in labels for c in lab})
    matrix = np.array([[n in lab for n in names] for lab in labels], dtype=int)
    variants = [
        evaluate_language(onehot, labels, objects=objects, eos_id=EOS, pad_id=PAD),
        evaluate_language(
            bits, labels, objects=objects, message_kind="binary", eos_id=EOS, pad_id=PAD
        ),
        evaluate_language(tokens, labels, objects=objects, eos_id=EOS, pad_id=PAD),
        evaluate_language(
            msgs, matrix, concept_names=names, objects=objects, eos_id=EOS, pad_id=PAD
        ),
    ]
    keys = [k for k in base.METRICS]
    for v in variants:
        assert {k: getattr(v, k) for k in keys} == pytest.approx(
            {k: getattr(base, k) for k in keys}, nan_ok=True
        )
    # same translation up to the word names
    assert sorted(c for c, _ in variants[0].translation.values()) == sorted(
        c for c, _ in base.translation.values()
    )
    assert base.n_unique_words == 6 and 0 < base.cbm < 1


def test_torch_tensors_and_egg_interaction():
    torch = pytest.importorskip("torch")
    msgs, labels = _language(60, seed=1)
    names = sorted({c for lab in labels for c in lab})
    matrix = np.array([[n in lab for n in names] for lab in labels], dtype=np.float32)
    objects = np.random.default_rng(0).random((60, 2, 3))
    base = evaluate_language(msgs, labels, objects=objects.reshape(60, -1), eos_id=EOS, pad_id=PAD)
    t = evaluate_language(
        torch.tensor(msgs),
        labels,
        objects=torch.tensor(objects.reshape(60, -1)),
        eos_id=EOS,
        pad_id=PAD,
    )
    assert t.cbm == base.cbm and t.topsim == pytest.approx(base.topsim)
    # an EGG-like Interaction: labels as a concept matrix, sender_input as objects (flattened)
    inter = SimpleNamespace(
        message=torch.nn.functional.one_hot(torch.tensor(msgs), 8).float(),
        labels=torch.tensor(matrix),
        sender_input=torch.tensor(objects),
        aux_input={"concept_names": names},
        receiver_output=None,
    )
    r = evaluate_interaction(inter, eos_id=EOS, pad_id=PAD)
    assert r.cbm == base.cbm and r.topsim == pytest.approx(base.topsim)
    assert r.ami == pytest.approx(base.ami) and r.topsim_input == "objects"


def test_interaction_with_concept_lists_in_aux_input():
    msgs, labels = _language(40, seed=2)
    inter = SimpleNamespace(
        message=msgs, labels=np.arange(40), sender_input=None, aux_input={"concepts": labels}
    )
    log = from_interaction(inter)
    assert log.objects is None
    r = evaluate_interaction(inter, eos_id=EOS, pad_id=PAD)
    assert r.cbm == evaluate_language(msgs, labels, eos_id=EOS, pad_id=PAD).cbm
    with pytest.raises(ValueError, match="concept names"):
        from_interaction(SimpleNamespace(message=msgs, labels=np.zeros((40, 3)), aux_input=None))
    with pytest.raises(ValueError, match="message"):
        from_interaction(SimpleNamespace(labels=np.zeros((40, 3))))


def test_concepts_are_sets_and_duplicates_are_counted():
    c = encode_concepts([["b", "a", "a"], "a b"])
    assert c.matrix.toarray().tolist() == [[1, 1], [1, 1]] and c.n_duplicates == 1
    assert c.phrase_ids()[1] == 1  # order of concepts does not make a new phrase
    r = evaluate_language([["x"], ["x"]], [["a", "a"], ["a"]])
    assert r.cbm == 1.0 and any("counted once" in n for n in r.notes)
    with pytest.raises(ValueError, match="binary"):
        encode_concepts(np.array([[0, 2]]))


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_jsonl_and_csv_logs_read_the_same(tmp_path):
    msgs, labels = _language(30, seed=3)
    rows = [
        {"message": [int(t) for t in m], "concepts": lab, "object": [float(i), 1.0]}
        for i, (m, lab) in enumerate(zip(msgs, labels, strict=True))
    ]
    jsonl = _write(
        tmp_path / "log.jsonl",
        [json.dumps(r) for r in rows[:10]] + [""] + [json.dumps(r) for r in rows[10:]],
    )
    csv_lines = ["message,concepts,object"] + [
        f"{' '.join(map(str, r['message']))},{' '.join(r['concepts'])},{r['object'][0]} 1"
        for r in rows
    ]
    csvf = _write(tmp_path / "log.csv", csv_lines)
    a = evaluate_log(read_log(jsonl), eos_id=EOS, pad_id=PAD)
    b = evaluate_log(read_log(csvf), eos_id=EOS, pad_id=PAD)
    direct = evaluate_language(
        msgs, labels, objects=np.array([r["object"] for r in rows]), eos_id=EOS, pad_id=PAD
    )
    for k in direct.METRICS:
        assert getattr(a, k) == pytest.approx(getattr(direct, k), nan_ok=True)
        assert getattr(b, k) == pytest.approx(getattr(direct, k), nan_ok=True)
    assert a.counts["repaired/blank_lines_skipped"] == 1
    assert any("blank lines" in n for n in a.notes)


@pytest.mark.parametrize(
    "lines, line, match",
    [
        (
            ['{"message": [1, 2], "concepts": ["a"]}', '{"message": [1, 2], "concepts": ["a"'],
            2,
            "invalid JSON",
        ),
        (['{"message": [1], "concepts": ["a"]}', "[1, 2]"], 2, "JSON object"),
        (['{"message": [1], "concepts": ["a"]}', '{"message": [1]}'], 2, "missing 'concepts'"),
        (['{"message": {"a": 1}, "concepts": ["a"]}'], 1, "list of tokens"),
        (['{"message": [1], "concepts": []}'], 1, "empty 'concepts'"),
        (
            [
                '{"message": [1], "concepts": ["a"], "object": [1, 2]}',
                '{"message": [1], "concepts": ["a"]}',
            ],
            2,
            "some lines",
        ),
        (
            [
                '{"message": [1], "concepts": ["a"], "object": [1, 2]}',
                '{"message": [1], "concepts": ["a"], "object": [1]}',
            ],
            2,
            "differ in length",
        ),
        (['{"message": [1], "concepts": ["a"], "object": ["x"]}'], 1, "numbers"),
    ],
)
def test_bad_jsonl_lines_name_file_and_line(tmp_path, lines, line, match):
    path = _write(tmp_path / "bad.jsonl", lines)
    with pytest.raises(DataFormatError, match=match) as info:
        read_log(path)
    assert info.value.line == line and info.value.path == str(path)
    assert f"line {line}" in str(info.value)


def test_bad_csv_and_empty_files(tmp_path):
    with pytest.raises(DataFormatError, match="'concepts' column") as info:
        read_log(_write(tmp_path / "a.csv", ["message,labels", "1 2,a"]))
    assert info.value.line == 1
    with pytest.raises(DataFormatError, match="more fields") as info:
        read_log(_write(tmp_path / "b.csv", ["message,concepts", "1 2,a", "1,a,zzz"]))
    assert info.value.line == 3
    with pytest.raises(DataFormatError, match="no records"):
        read_log(_write(tmp_path / "c.jsonl", ["", ""]))
    with pytest.raises(DataFormatError, match="no such file"):
        read_log(tmp_path / "missing.jsonl")


def test_row_ids_partition_like_numpy_unique():
    from wordgames.emergent.inputs import row_ids

    rng = np.random.default_rng(0)
    rows = rng.integers(-1, 3, (500, 4))
    ids, n = row_ids(rows)
    _, ref = np.unique(rows, axis=0, return_inverse=True)
    ref = ref.reshape(-1)
    assert n == ref.max() + 1
    # same partition: equal ids exactly where the rows are equal
    assert ((ids[:, None] == ids[None, :]) == (ref[:, None] == ref[None, :])).all()
    assert ids[0] == 0  # ids in order of first appearance
