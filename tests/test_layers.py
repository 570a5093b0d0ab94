"""The package's layers: no import circles between modules, and the lower layers import no
measure family (an import inside a function counts too; ``TYPE_CHECKING`` imports do not)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
FAMILIES = ("codenames", "wales", "oddmanout", "similarity", "emergent")


def _modules() -> dict[str, Path]:
    out = {}
    for p in (SRC / "wordgames").rglob("*.py"):
        name = ".".join(p.relative_to(SRC).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = p
    return out


def _imports(path: Path, name: str, known: dict) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
    }
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if id(node) in hidden or not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            targets = [".".join(base + ([node.module] if node.module else []))]
        else:
            targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name and t.startswith("wordgames"):
                out.add(t)
    return out


def _graph() -> dict[str, set[str]]:
    mods = _modules()
    return {m: _imports(p, m, mods) for m, p in mods.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_circles():
    assert _cycles(_graph()) == []


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_lower_layers_import_no_family():
    graph = _graph()
    lower = [
        m
        for m in graph
        if m.startswith(
            (
                "wordgames.embeddings",
                "wordgames.datasets",
                "wordgames.measure",
                "wordgames.registry",
                "wordgames.results",
                "wordgames.params",
            )
        )
    ]
    bad = {m: sorted(d for d in graph[m] if d.split(".")[1] in FAMILIES) for m in lower}
    # the registry reads each family's light declaration module, nothing else of it
    bad = {m: [d for d in ds if not d.endswith(".spec")] for m, ds in bad.items()}
    assert {m: ds for m, ds in bad.items() if ds} == {}
