"""Doctest collection of ``wordgames``.

An example that needs an optional extra is skipped, with the reason, where the extra is not
installed (a ``--minimal`` install).
"""

import importlib.util
import os

import pytest

#: doctests (by name prefix) and the optional module each needs
NEEDS = {"wordgames.embeddings.trained.train": "gensim"}
#: doctests (by name prefix) that read the data root ``$WORDGAMES_DATA``
NEEDS_DATA = ("wordgames.datasets.fetch.fetch_dataset",)


def pytest_collection_modifyitems(items):
    """Mark the doctests of :data:`NEEDS` skipped where their module is missing."""
    for item in items:
        for prefix, module in NEEDS.items():
            if item.name.startswith(prefix) and importlib.util.find_spec(module) is None:
                why = f"needs the optional package {module!r} (pip install 'wordgames[{module}]')"
                item.add_marker(pytest.mark.skip(reason=why))
        if item.name.startswith(NEEDS_DATA) and not os.environ.get("WORDGAMES_DATA"):
            why = "needs the data sets: set WORDGAMES_DATA (the README's test command does)"
            item.add_marker(pytest.mark.skip(reason=why))
