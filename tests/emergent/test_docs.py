"""Every import the CBM documents show works, and their examples run as shown."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
# `from a.b import (x, y)` over several lines, or on one line; `#` comments dropped
IMPORT = re.compile(r"^from (wordgames[\w.]*) import (\([^)]*\)|[^\n]*)", re.MULTILINE)


def documented_imports(text: str) -> list[tuple[str, list[str]]]:
    out = []
    for module, names in IMPORT.findall(text):
        names = re.sub(r"#[^\n]*", "", names).strip("() \n")
        out.append((module, [n.strip() for n in names.split(",") if n.strip()]))
    return out


@pytest.mark.parametrize("doc", ["cbm.md", "cbm-games.md"])
def test_documented_imports_exist(doc):
    import importlib

    found = documented_imports((DOCS / doc).read_text(encoding="utf-8"))
    assert found, f"no import found in {doc}"
    for module, names in found:
        mod = importlib.import_module(module)
        for name in names:
            assert hasattr(mod, name) or importlib.util.find_spec(f"{module}.{name}"), (
                f"{doc}: from {module} import {name} fails"
            )


def test_package_exports_what_the_docs_name():
    import wordgames.emergent as em

    for name in em.__all__:
        assert callable(getattr(em, name)), name


def test_cbm_doc_examples_run():
    text = (DOCS / "cbm.md").read_text(encoding="utf-8")
    text = re.sub(r"^```.*$", "", text, flags=re.MULTILINE)  # a fence is not expected output
    test = doctest.DocTestParser().get_doctest(text, {}, "cbm.md", "cbm.md", 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
