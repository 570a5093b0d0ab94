"""Reading text files the same way everywhere: UTF-8, errors that name the file and line.

Every reader of words (embeddings, puzzles, similarity pairs, CBM tokens) decodes with
:func:`decode_utf8`, skips a leading byte-order mark with :func:`strip_bom` (and counts it),
and checks each word with :func:`bad_word_reason`: a word that is empty or holds a control
character (NUL, tab, newline, CR, escape, U+0085, the Unicode line separators, a byte-order
mark, a lone surrogate) is rejected or repaired, never silently kept.
"""

from __future__ import annotations

import re
from pathlib import Path

from wordgames.errors import DataFormatError


def decode_utf8(data: bytes, path: str | Path | None, *, hint: str = "") -> str:
    r"""``data`` decoded as UTF-8, or :class:`DataFormatError` naming the line of the bad byte.

    LF, CRLF and CR-only line ends all count as line ends.

    >>> decode_utf8(b"a\rb\xff", "f.txt")
    Traceback (most recent call last):
    ...
    wordgames.errors.DataFormatError: f.txt, line 2: not valid UTF-8 (invalid start byte)
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        raise DataFormatError(
            path, head.count(b"\n") + 1, f"not valid UTF-8 ({exc.reason}){hint}"
        ) from None


#: characters no word may hold: C0 and C1 controls (NUL, tab, newline, CR, escape...), the
#: Unicode line and paragraph separators, a byte-order mark and lone surrogates
BAD_WORD_CHARS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff]")
BOM = "\ufeff"


def bad_word_reason(word: object) -> str | None:
    r"""Why ``word`` cannot be a word, or ``None`` when it can.

    Examples
    --------
    >>> bad_word_reason("cat") is None
    True
    >>> bad_word_reason("c\tat")
    'holds the control character U+0009'
    >>> bad_word_reason("")
    'is empty'
    """
    if not isinstance(word, str):
        return f"is not a string ({type(word).__name__})"
    if not word:
        return "is empty"
    m = BAD_WORD_CHARS.search(word)
    if m:
        return f"holds the control character U+{ord(m.group()):04X}"
    return None


def strip_bom(text: str) -> tuple[str, bool]:
    """``text`` without a leading byte-order mark, and whether there was one.

    >>> strip_bom("\ufeffword")
    ('word', True)
    """
    if text.startswith(BOM):
        return text[1:], True
    return text, False


def parse_json(text: str, path: str | Path | None, line: int | None, message: str):
    """``json.loads(text)``, or a :class:`DataFormatError` naming ``path`` and ``line``.

    A syntax error and a nesting too deep for the parser (``RecursionError``) are both bad
    input; ``message`` is formatted with the parser's reason, e.g. ``"not valid JSON ({})"``.

    >>> parse_json('{"a": 1}', "f.jsonl", 3, "not valid JSON ({})")
    {'a': 1}
    >>> parse_json('{"a": ', "f.jsonl", 3, "not valid JSON ({})")
    Traceback (most recent call last):
    ...
    wordgames.errors.DataFormatError: f.jsonl, line 3: not valid JSON (Expecting value)
    """
    import json

    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise DataFormatError(path, line, message.format(getattr(exc, "msg", exc))) from None
