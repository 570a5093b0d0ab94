"""Doctest collection of ``wordgames``.

An example that needs an optional extra is skipped, with the reason, where the extra is not
installed (a ``--minimal`` install).
"""

import importlib.util

import pytest

#: doctests (by name prefix) and the optional module each needs
NEEDS = {"wordgames.embeddings.trained.train": "gensim"}


def pytest_collection_modifyitems(items):
    """Mark the doctests of :data:`NEEDS` skipped where their module is missing."""
    for item in items:
        for prefix, module in NEEDS.items():
            if item.name.startswith(prefix) and importlib.util.find_spec(module) is None:
                why = f"needs the optional package {module!r} (pip install 'wordgames[{module}]')"
                item.add_marker(pytest.mark.skip(reason=why))
