"""The shared UTF-8 reader names the line of a bad byte whatever the line ends."""

from __future__ import annotations

import pytest

from wordgames.errors import DataFormatError
from wordgames.textio import decode_utf8


@pytest.mark.parametrize("sep", [b"\n", b"\r\n", b"\r"])
def test_bad_byte_line_number(sep):
    data = sep.join([b"one", b"two", b"thr\xffee", b"four"])
    with pytest.raises(DataFormatError) as exc:
        decode_utf8(data, "f.txt", hint="; re-encode it")
    assert exc.value.line == 3 and exc.value.path == "f.txt"
    assert str(exc.value).endswith("; re-encode it")


def test_valid_text_round_trips():
    assert decode_utf8("café\r\nx".encode(), "f.txt") == "café\r\nx"
