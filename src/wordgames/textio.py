"""Reading text files the same way everywhere: UTF-8, errors that name the file and line."""

from __future__ import annotations

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
