"""Names that become paths: user text (embedding and measure names) never climbs out of a folder."""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def safe_name(name: str, *, max_len: int = 120) -> str:
    """A file-name-safe form of ``name``: every other character becomes ``_``, no leading dot.

    >>> safe_name("../etc/passwd")
    '_.._etc_passwd'
    >>> safe_name("glove-6b-50d[∩10k]")
    'glove-6b-50d__10k_'
    """
    out = _UNSAFE.sub("_", str(name))[:max_len]
    if not out or out.startswith("."):
        out = "_" + out
    return out
