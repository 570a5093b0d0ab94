"""The shared UTF-8 reader names the line of a bad byte whatever the line ends."""

from __future__ import annotations

import pytest

from wordgames.errors import DataFormatError
from wordgames.textio import bad_word_reason, decode_utf8, parse_json, strip_bom


@pytest.mark.parametrize("sep", [b"\n", b"\r\n", b"\r"])
def test_bad_byte_line_number(sep):
    data = sep.join([b"one", b"two", b"thr\xffee", b"four"])
    with pytest.raises(DataFormatError) as exc:
        decode_utf8(data, "f.txt", hint="; re-encode it")
    assert exc.value.line == 3 and exc.value.path == "f.txt"
    assert str(exc.value).endswith("; re-encode it")


def test_valid_text_round_trips():
    assert decode_utf8("café\r\nx".encode(), "f.txt") == "café\r\nx"


@pytest.mark.parametrize(
    "word,reason",
    [
        ("cat", None),
        ("café", None),
        ("ice cream", None),
        ("", "is empty"),
        ("a\x00b", "holds the control character U+0000"),
        ("a\tb", "holds the control character U+0009"),
        ("a\r", "holds the control character U+000D"),
        ("\x1b[31m", "holds the control character U+001B"),
        ("x\x85", "holds the control character U+0085"),
        ("a\u2028b", "holds the control character U+2028"),
        ("\ufeffcat", "holds the control character U+FEFF"),
        ("\ud800", "holds the control character U+D800"),
        (3, "is not a string (int)"),
    ],
)
def test_bad_word_reason(word, reason):
    assert bad_word_reason(word) == reason


def test_strip_bom():
    assert strip_bom("\ufeffa\ufeff") == ("a\ufeff", True)
    assert strip_bom("a") == ("a", False)


def test_parse_json_names_file_line_and_reason():
    from wordgames.errors import DataFormatError

    assert parse_json('[1, {"a": null}]', "f.jsonl", 2, "bad ({})") == [1, {"a": None}]
    with pytest.raises(DataFormatError, match=r"^f\.jsonl, line 2: bad \(Expecting value\)$"):
        parse_json('{"a": ', "f.jsonl", 2, "bad ({})")
    # nesting too deep for the parser is bad input too, not a RecursionError
    with pytest.raises(DataFormatError, match=r"^f\.jsonl, line 7: bad: maximum recursion depth"):
        parse_json("[" * 100_000, "f.jsonl", 7, "bad: {}")
