"""The examples in the docstrings of the measures run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["inputs", "cbm", "topsim", "information", "measures", "plots"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"wordgames.emergent.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
