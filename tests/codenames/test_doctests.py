"""The examples in the docstrings of the Codenames modules run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "wordgames.codenames",
    "wordgames.codenames.agents",
    "wordgames.codenames.measures",
    "wordgames.codenames.suite",
    "wordgames.codenames.game",
    "wordgames.codenames.experiments",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
