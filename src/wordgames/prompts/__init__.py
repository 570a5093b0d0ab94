"""The prompts of the player agents, one text file each, versioned by their content.

A prompt's version is the first 12 hex digits of its file's sha256: editing a file changes the
version, hence the identity of every chat subject that reads it (the store recomputes) and the
key of every cached response (the cache does not answer a question asked in other words).

>>> text, version = template("oddmanout_solver")
>>> "{words}" in text, len(version)
(True, 12)
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources


@cache
def template(name: str) -> tuple[str, str]:
    """The text of prompt ``name`` (``<name>.txt`` in this package) and its version."""
    text = resources.files(__package__).joinpath(f"{name}.txt").read_text(encoding="utf-8")
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def versions() -> dict[str, str]:
    """``{name: version}`` of every prompt file."""
    names = sorted(
        p.name[:-4] for p in resources.files(__package__).iterdir() if p.name.endswith(".txt")
    )
    return {n: template(n)[1] for n in names}
