"""Every import the Odd-Man-Out documentation shows works, and its examples run as shown."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"
IMPORT = re.compile(r"^(?:>>> )?from (wordgames[\w.]*) import (\([^)]*\)|[^\n]*)", re.MULTILINE)


def test_documented_imports_exist():
    found = IMPORT.findall((DOCS / "oddmanout.md").read_text(encoding="utf-8"))
    assert len(found) >= 3
    for module, names in found:
        mod = importlib.import_module(module)
        for name in re.sub(r"#[^\n]*", "", names).strip("() \n").split(","):
            assert hasattr(mod, name.strip()), f"from {module} import {name.strip()} fails"


def test_doc_examples_run():
    text = (DOCS / "oddmanout.md").read_text(encoding="utf-8")
    text = re.sub(r"^```.*$", "", text, flags=re.MULTILINE)  # a fence is not expected output
    test = doctest.DocTestParser().get_doctest(text, {}, "oddmanout.md", "oddmanout.md", 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
