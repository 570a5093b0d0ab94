"""The package's layers: no import circles between modules nor between packages, and the lower
layers import no measure family, and no family imports another (an import inside a function
counts too, and so does one under ``TYPE_CHECKING``)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _families() -> tuple[str, ...]:
    """The family packages: the built-in manifests' (no list to keep), each checked to be the
    package of its measures' compute entries."""
    from wordgames.manifest import manifests
    from wordgames.registry import builtin_measures

    names = tuple(m.name for m in manifests(builtin=True))
    assert {m.compute.split(".")[1] for m in builtin_measures()} <= set(names)
    return names


FAMILIES = _families()


def _modules() -> dict[str, Path]:
    out = {}
    for p in (SRC / "wordgames").rglob("*.py"):
        name = ".".join(p.relative_to(SRC).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = p
    return out


def _imports(path: Path, name: str, known: dict, typing_too: bool = True) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for n in ast.walk(node)
        if not typing_too
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


@functools.cache
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


def _packages(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph between ``wordgames.<package>`` (a top-level module counts as one)."""

    def top(m: str) -> str:
        return ".".join(m.split(".")[:2])

    out: dict[str, set[str]] = {}
    for m, deps in graph.items():
        out.setdefault(top(m), set()).update(top(d) for d in deps if top(d) != top(m))
    return out


def test_no_circles_between_packages():
    """e.g. the store (results) never imports the report, which reads the store."""
    cycles = _cycles(_packages(_graph()))
    assert cycles == [], cycles


def test_no_family_imports_another():
    graph = _graph()

    def family(m: str) -> str:
        return m.split(".")[1] if m.count(".") and m.split(".")[1] in FAMILIES else ""

    bad = {
        m: sorted(d for d in deps if family(d) and family(d) != family(m))
        for m, deps in graph.items()
        if family(m)
    }
    assert {m: ds for m, ds in bad.items() if ds} == {}


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_families_are_found():
    assert {"codenames", "emergent", "oddmanout", "similarity", "wales"} <= set(FAMILIES)


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


def test_no_family_calls_evaluate():
    """Studies over many units live in the experiments layer, above every family."""
    above = {"wordgames", "wordgames.evaluation", "wordgames.experiments", "wordgames.executors"}
    graph = _graph()
    bad = {
        m: sorted(deps & above)
        for m, deps in graph.items()
        if m.count(".") and m.split(".")[1] in FAMILIES and deps & above
    }
    assert bad == {}


#: The layers, bottom first: a module imports only from its own layer and those below it
#: (docs/architecture.md, "Layers"). Each entry is a top-level module or package of wordgames;
#: a new one must be placed here (the test below says where it is missing).
LAYERS: tuple[tuple[str, ...], ...] = (
    # the base: no wordgames import but each other's
    ("_fixed", "_version", "redact", "errors", "textio", "safeio", "params", "exact", "stats",
     "heap", "blas", "paths", "prompts", "ray_local"),
    # the measure model: Score, Metric, Measure; paired comparisons; the ceiling's arithmetic
    ("paired", "ceiling", "measure", "plugins", "manifest"),
    # declarations and what reads them: the registry, the pre-check, the option texts; subjects
    ("registry", "precheck", "optiontext", "subjects", "reading", "tables"),
    # data: the data sets, embeddings, the results store; the agents by name
    ("datasets", "embeddings", "results", "agents"),
    # the families: their manifests name them (a new family needs no line here)
    FAMILIES,
    # one unit of work and its executors; the report, which reads stores and Score rows
    ("compute", "executors", "warm", "report"),
    # the one entry path
    ("evaluation",),
    # above it: studies over many units, the model subjects (whose request plan is one),
    # the conformance checks (which play every family's games)
    ("experiments", "llm", "testing"),
    # the surfaces
    ("wordgames", "__main__", "conftest", "cli", "serve"),
)  # fmt: skip


def _layer_of() -> dict[str, int]:
    return {name: k for k, layer in enumerate(LAYERS) for name in layer}


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "wordgames"


def test_every_module_has_a_layer():
    layer = _layer_of()
    missing = sorted({_top(m) for m in _graph()} - set(layer))
    assert missing == [], f"place these in LAYERS: {missing}"


def test_the_layers_are_a_checked_order():
    """No import reaches a higher layer (an import inside a function counts too)."""
    layer = _layer_of()
    upward = sorted(
        f"{m} -> {d}"
        for m, deps in _graph().items()
        for d in deps
        if layer[_top(d)] > layer[_top(m)] and _top(m) != "conftest"
    )
    assert upward == []


def test_the_order_check_finds_an_upward_import():
    graph = dict(_graph())
    graph["wordgames.measure"] = graph["wordgames.measure"] | {"wordgames.evaluation"}
    layer = _layer_of()
    upward = [(m, d) for m, deps in graph.items() for d in deps if layer[_top(d)] > layer[_top(m)]]
    assert ("wordgames.measure", "wordgames.evaluation") in upward
