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

    Parameters
    ----------
    data : bytes
    path : str, Path or None
        The file the bytes come from, named in the error.
    hint : str
        Appended to the error's reason (what the reader expected).

    Returns
    -------
    str

    Raises
    ------
    DataFormatError
        Not valid UTF-8: the file and the line of the first bad byte.

    Examples
    --------
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


#: the longest word accepted anywhere (a line of two million characters is no word)
MAX_WORD_CHARS = 1000


def bad_word_reason(word: object) -> str | None:
    r"""Why ``word`` cannot be a word, or ``None`` when it can.

    Parameters
    ----------
    word : object
        A word read from a user's file (anything: a number is no word either).

    Returns
    -------
    str or None
        The reason in words, for an error or a counted repair.

    Examples
    --------
    >>> bad_word_reason("cat") is None
    True
    >>> bad_word_reason("c\tat")
    'holds the control character U+0009'
    >>> bad_word_reason("")
    'is empty'
    >>> bad_word_reason(" ")
    'is empty'
    """
    if not isinstance(word, str):
        return f"is not a string ({type(word).__name__})"
    if not word:
        return "is empty"
    if len(word) > MAX_WORD_CHARS:
        return f"is {len(word):,} characters long (a word has at most {MAX_WORD_CHARS:,})"
    m = BAD_WORD_CHARS.search(word)
    if m:
        return f"holds the control character U+{ord(m.group()):04X}"
    if word.isspace():  # " " is no word: it would print as nothing and match nothing
        return "is empty"
    return None


def strip_bom(text: str) -> tuple[str, bool]:
    """``text`` without a leading byte-order mark, and whether there was one.

    Parameters
    ----------
    text : str

    Returns
    -------
    tuple of (str, bool)
        The text, and whether a mark was removed (a reader counts it as a repair).

    Examples
    --------
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

    Parameters
    ----------
    text : str
    path : str, Path or None
    line : int or None
        Where the text was read, named in the error.
    message : str
        The error's reason, with ``{}`` for the parser's.

    Returns
    -------
    object
        The parsed value.

    Examples
    --------
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


#: a gzip file may unpack to at most this many times its size (a gzip bomb is refused)
GZIP_MAX_RATIO = 50
GZIP_MAGIC = b"\x1f\x8b"


def gunzip(path: Path, data: bytes, ratio: int = GZIP_MAX_RATIO) -> bytes:
    """A gzip file's content, bounded by ``ratio`` times its size (a gzip bomb is refused).

    Parameters
    ----------
    path : Path
        Named in the error.
    data : bytes
        The file's bytes (one gzip member or several, concatenated).
    ratio : int
        The most it may unpack to, as a multiple of its size (at least 1 MiB).

    Returns
    -------
    bytes

    Raises
    ------
    DataFormatError
        Not gzip, cut short, or unpacking to more than the bound.

    Examples
    --------
    >>> import gzip
    >>> gunzip(Path("v.txt.gz"), gzip.compress(b"a 1 2"))
    b'a 1 2'
    """
    import zlib

    limit = max(1 << 20, ratio * len(data))
    out, rest = [], data
    try:
        while rest[:2] == GZIP_MAGIC:  # concatenated members, as gzip writes them
            inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
            out.append(inflate.decompress(rest, limit - sum(map(len, out))))
            if inflate.unconsumed_tail:
                raise DataFormatError(
                    path, None, f"it unpacks to more than {limit:,} bytes ({ratio}x "
                    "its size): refused as a gzip bomb",
                )  # fmt: skip
            if not inflate.eof:
                raise DataFormatError(path, None, "the gzip data is cut short (truncated?)")
            rest = inflate.unused_data
    except zlib.error as exc:
        raise DataFormatError(path, None, f"not valid gzip data ({exc})") from None
    return b"".join(out)


def read_bytes(path: Path, gzip_ratio: int = GZIP_MAX_RATIO) -> bytes:
    """The bytes of ``path``, or :class:`DataFormatError` saying why not.

    A ``.gz`` file is unpacked, to at most ``gzip_ratio`` times its size.

    Parameters
    ----------
    path : Path
    gzip_ratio : int
        As :func:`gunzip`'s ``ratio``.

    Returns
    -------
    bytes

    Examples
    --------
    >>> read_bytes(Path("/nonexistent/f.txt"))
    Traceback (most recent call last):
    ...
    wordgames.errors.DataFormatError: /nonexistent/f.txt: cannot read the file (No such file or directory)
    """
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise DataFormatError(path, None, "is a folder, not a file") from None
    except OSError as exc:
        raise DataFormatError(path, None, f"cannot read the file ({exc.strerror})") from None
    return gunzip(path, data, gzip_ratio) if data[:2] == GZIP_MAGIC else data


# C0 controls but tab and newline, DEL, C1 controls, and the Unicode line/paragraph
# separators and bidi overrides: shown as escapes, so no user text can move the cursor, colour
# or clear a terminal, or reorder what follows it
_INVISIBLE = {
    c: f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"
    for c in (
        *range(0x00, 0x09), *range(0x0B, 0x20), 0x7F, *range(0x80, 0xA0),
        0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A),
    )
}  # fmt: skip


def visible(text: str) -> str:
    r"""``text`` with every control character written as its escape, the rest as given.

    What a terminal would act on instead of showing (escape sequences, a carriage return, a
    bell, bidi overrides) becomes ``\x1b``, ``\x0d``..., so a name prints as what it is.

    Parameters
    ----------
    text : str
        Any text (a subject, file or model name; a server's answer).

    Returns
    -------
    str

    Examples
    --------
    >>> visible("a\x1b[31mred\r")
    'a\\x1b[31mred\\x0d'
    >>> visible("tab\tand\nnewline stay")
    'tab\tand\nnewline stay'
    """
    return text.translate(_INVISIBLE)


def literal(text) -> str:
    r"""User text as console markup that prints exactly as given.

    A subject, file, data set or model name, a server's answer: markup (``[bold]``, ``[/]``)
    is escaped; emoji codes (``chat:m:``) are never read, as every console of
    :func:`wordgames.cli.common.console` has them off; control characters print as escapes
    (:func:`visible`).

    Parameters
    ----------
    text : object
        Printed as ``str(text)``.

    Returns
    -------
    str
        Markup for a rich console.

    Examples
    --------
    >>> literal("[bold]chat:m:\x1b[0m")
    '\\[bold]chat:m:\\x1b[0m'
    """
    from rich.markup import escape

    return escape(visible(str(text)))
