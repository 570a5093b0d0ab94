"""Readers for link graphs and human navigation data.

* plain edge lists (SNAP style: ``#`` comments, two columns of integer ids, optional name
  table; or two columns of node names, optionally with a ``source target`` header);
* Wikispeedia (West & Leskovec): ``articles.tsv``, ``links.tsv`` (URL-encoded titles,
  ``#`` comments), ``paths_finished.tsv`` / ``paths_unfinished.tsv`` (``;``-separated paths,
  ``<`` = back click);
* the WALES authors' files (``nodes.tsv``, ``challenges.txt``, ``human_results_wales.tsv``,
  ``early_results_wikigame.tsv``, ``wikigame_human_paths.jsonl``, ``graph100_edges.tsv``),
  and their networkx pickle ``wiki_graph.p`` through a restricted unpickler.

Every format error raises :class:`~wordgames.errors.DataFormatError` naming the file and line.
"""

from __future__ import annotations

import io
import json
import pickle
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordgames.errors import DataFormatError
from wordgames.wales.graph import DiGraph

# ---------------------------------------------------------------------------- helpers


def _data_lines(path: Path, comment: str | None = "#"):
    """(1-based line number, text) of non-empty, non-comment lines.

    Used on error paths and for small files.
    """
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            line = line.rstrip("\r\n")
            if not line.strip() or (comment and line.startswith(comment)):
                continue
            yield no, line


def _nth_data_line(path: Path, row: int, comment: str | None = "#") -> int | None:
    for i, (no, _) in enumerate(_data_lines(path, comment)):
        if i == row:
            return no
    return None


def _read_table(
    path: Path,
    n_cols: int,
    *,
    comment: str | None = "#",
    header: list[str] | None = None,
    names: list[str] | None = None,
):
    """Read a tab-separated table of strings with pandas, checking the column count.

    A row with fewer than ``n_cols`` fields raises a DataFormatError with its line number.
    """
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise DataFormatError(path, None, "file not found")
    try:
        df = pd.read_csv(
            path,
            sep="\t",
            header=None,
            comment=comment,
            dtype=str,
            keep_default_na=False,
            quoting=3,
            skip_blank_lines=True,
            names=names or list(range(n_cols)),
            engine="c",
            on_bad_lines="error",
            encoding="utf-8",
        )
    except pd.errors.ParserError as exc:
        raise DataFormatError(
            path, None, f"expected {n_cols} tab-separated columns: {exc}"
        ) from None
    if header is not None and len(df) and [str(v).strip().lower() for v in df.iloc[0]] == header:
        df = df.iloc[1:].reset_index(drop=True)
        skip = 1
    else:
        skip = 0
    # with names given, missing trailing fields come back as '' (keep_default_na=False)
    bad = np.flatnonzero((df.iloc[:, :n_cols] == "").any(axis=1).to_numpy())
    if bad.size:
        line = _nth_data_line(path, int(bad[0]) + skip, comment)
        raise DataFormatError(
            path,
            line,
            f"expected {n_cols} non-empty tab-separated columns; {bad.size} such row(s) in all",
        )
    return df


def _unquote_all(values) -> np.ndarray:
    return np.array([urllib.parse.unquote(v) for v in values], dtype=object)


# ---------------------------------------------------------------------------- edge lists


def read_edge_list(
    path: str | Path,
    *,
    names_path: str | Path | None = None,
    name: str | None = None,
    url_decode: bool = False,
) -> tuple[DiGraph, dict]:
    r"""Read a directed edge list (two tab- or space-separated columns, ``#`` comments).

    If every field is an integer the columns are node ids (SNAP style); a name table
    (``node_id<TAB>name``, optional header) then names them, and ids are renumbered to
    0..n-1 in the table's order. Otherwise the columns are node names (a first row
    ``source target`` is taken as a header). Returns the graph and a report of duplicates.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "e.tsv")
    >>> _ = open(p, "w").write("# demo\n0\t1\n1\t0\n")
    >>> g, rep = read_edge_list(p)
    >>> g.n_nodes, g.n_edges
    (2, 2)
    """
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise DataFormatError(path, None, "file not found")
    try:
        df = pd.read_csv(
            path,
            sep=r"\s+",
            header=None,
            comment="#",
            dtype=str,
            names=[0, 1, 2],
            keep_default_na=False,
            engine="c",
            skip_blank_lines=True,
        )
    except pd.errors.ParserError as exc:
        raise DataFormatError(path, None, f"expected two columns (source, target): {exc}") from None
    if df.shape[0] and (df[2] != "").any():
        row = int(np.flatnonzero((df[2] != "").to_numpy())[0])
        raise DataFormatError(
            path, _nth_data_line(path, row), "expected two columns (source, target), found more"
        )
    if df.shape[0] and [df.iloc[0, 0].lower(), df.iloc[0, 1].lower()] in (
        ["source", "target"],
        ["fromnodeid", "tonodeid"],
        ["linksource", "linktarget"],
    ):
        df = df.iloc[1:]
        skip = 1
    else:
        skip = 0
    missing = np.flatnonzero((df[1] == "").to_numpy())
    if missing.size:
        raise DataFormatError(
            path,
            _nth_data_line(path, int(missing[0]) + skip),
            f"expected two columns (source, target), found one; {missing.size} such row(s)",
        )
    a, b = df[0].to_numpy(), df[1].to_numpy()
    numeric = (
        a.size > 0
        and pd.Series(a).str.fullmatch(r"\d+").all()
        and pd.Series(b).str.fullmatch(r"\d+").all()
    )
    report = {"source": str(path), "rows": int(a.size)}
    if numeric:
        src, dst = a.astype(np.int64), b.astype(np.int64)
        if names_path is not None:
            ids, table_names = read_name_table(names_path)
            lookup = pd.Index(ids)
            si, di = lookup.get_indexer(src), lookup.get_indexer(dst)
            bad = np.flatnonzero((si < 0) | (di < 0))
            if bad.size:
                r = int(bad[0])
                raise DataFormatError(
                    path,
                    _nth_data_line(path, r + skip),
                    f"node id {src[r] if si[r] < 0 else dst[r]} is not in the "
                    f"name table {names_path}; {bad.size} such edge(s)",
                )
            graph, rep = DiGraph.from_edges_report(
                si, di, len(ids), table_names, name=name or path.stem
            )
        else:
            graph, rep = DiGraph.from_edges_report(src, dst, name=name or path.stem)
    else:
        if url_decode:
            a, b = _unquote_all(a), _unquote_all(b)
        labels, inv = np.unique(np.concatenate([a, b]).astype(str), return_inverse=True)
        graph, rep = DiGraph.from_edges_report(
            inv[: a.size], inv[a.size :], labels.size, labels.astype(object), name=name or path.stem
        )
    report.update(rep)
    return graph, report


def read_name_table(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """``node_id<TAB>name`` rows (header ``node_id name`` optional): ids and names."""
    path = Path(path)
    df = _read_table(path, 2, header=["node_id", "name"], comment=None)
    ids = df[0].to_numpy()
    isnum = df[0].str.fullmatch(r"\d+").to_numpy()
    if not isnum.all():
        row = int(np.flatnonzero(~isnum)[0])
        line = _nth_data_line(path, row + 1 if df is not None else row, None)
        raise DataFormatError(path, line, f"node id {ids[row]!r} is not an integer")
    ids = ids.astype(np.int64)
    names = df[1].to_numpy(dtype=object)
    dup = np.flatnonzero(df[1].duplicated().to_numpy())
    if dup.size:
        raise DataFormatError(path, None, f"node name {names[dup[0]]!r} appears twice")
    return ids, names


# ---------------------------------------------------------------------------- Wikispeedia


@dataclass
class WikispeediaGraph:
    """The Wikispeedia graph, as :func:`load_wikispeedia` returns it.

    Parameters
    ----------
    graph : DiGraph
        Every article and link.
    report : dict
        What loading counted: articles, links read, duplicate links merged.
    """

    graph: DiGraph  # every article; names are decoded titles (underscores kept)
    report: dict = field(default_factory=dict)


def load_wikispeedia(folder: str | Path) -> WikispeediaGraph:
    """Articles and links of Wikispeedia, titles URL-decoded (``%C3%85land`` -> ``Åland``).

    Links whose ends are not in ``articles.tsv`` raise a DataFormatError; duplicate links are
    merged and counted.
    """
    folder = Path(folder)
    arts = _read_table(folder / "articles.tsv", 1)
    names = _unquote_all(arts[0].to_numpy())
    links = _read_table(folder / "links.tsv", 2)
    index = {n: i for i, n in enumerate(names.tolist())}
    src_names, dst_names = _unquote_all(links[0].to_numpy()), _unquote_all(links[1].to_numpy())
    src = np.fromiter((index.get(n, -1) for n in src_names), np.int64, len(src_names))
    dst = np.fromiter((index.get(n, -1) for n in dst_names), np.int64, len(dst_names))
    bad = np.flatnonzero((src < 0) | (dst < 0))
    if bad.size:
        r = int(bad[0])
        raise DataFormatError(
            folder / "links.tsv",
            _nth_data_line(folder / "links.tsv", r),
            f"link end {src_names[r] if src[r] < 0 else dst_names[r]!r} is not in "
            f"articles.tsv; {bad.size} such link(s)",
        )
    graph, rep = DiGraph.from_edges_report(src, dst, len(names), names, name="wikispeedia")
    rep.update({"n_articles": len(names), "n_links_read": int(len(links))})
    return WikispeediaGraph(graph, rep)


@dataclass
class HumanPaths:
    """Human games: one row per game."""

    starts: np.ndarray  # decoded titles
    targets: np.ndarray
    paths: list  # resolved page sequences (back clicks replaced by the page returned to)
    n_clicks: np.ndarray  # links followed including back clicks (= len(path) - 1)
    n_back: np.ndarray
    finished: bool
    extra: dict = field(default_factory=dict)  # durations, types, ratings
    report: dict = field(default_factory=dict)


def resolve_back_clicks(tokens: list[str]) -> tuple[list[str], int]:
    """Replace every ``<`` by the page it returns to.

    Returns the page sequence and the number of back clicks.

    >>> resolve_back_clicks(["A", "B", "C", "<", "<", "D"])
    (['A', 'B', 'C', 'B', 'A', 'D'], 2)
    """
    stack: list[str] = []
    out: list[str] = []
    n_back = 0
    for tok in tokens:
        if tok == "<":
            if len(stack) < 2:
                raise ValueError("back click before any forward click")
            stack.pop()
            out.append(stack[-1])
            n_back += 1
        else:
            stack.append(tok)
            out.append(tok)
    return out, n_back


def read_wikispeedia_paths(path: str | Path, *, finished: bool | None = None) -> HumanPaths:
    """Read ``paths_finished.tsv`` or ``paths_unfinished.tsv``.

    The first has 5 columns (ip, timestamp, duration, path, rating), the second 6 (ip, timestamp,
    duration, path, target, type).

    In a finished path the target is the last page. Back clicks (``<``) are resolved; a path
    whose back click has nothing to go back to raises a DataFormatError with its line.
    """
    path = Path(path)
    if finished is None:
        finished = "unfinished" not in path.name
    n_cols = 5 if finished else 6
    # the rating of a finished game is 'NULL' when the player gave none
    df = _read_table(path, n_cols, names=list(range(n_cols)))
    raw = df[3].str.split(";")
    paths, n_back = [], np.zeros(len(df), dtype=np.int64)
    for i, toks in enumerate(raw.tolist()):
        toks = [urllib.parse.unquote(t) for t in toks]
        try:
            seq, nb = resolve_back_clicks(toks)
        except ValueError as exc:
            raise DataFormatError(path, _nth_data_line(path, i), str(exc)) from None
        paths.append(seq)
        n_back[i] = nb
    starts = np.array([p[0] for p in paths], dtype=object)
    if finished:
        targets = np.array([p[-1] for p in paths], dtype=object)
        extra = {"rating": df[4].to_numpy()}
    else:
        targets = _unquote_all(df[4].to_numpy())
        extra = {"type": df[5].to_numpy()}
    extra["duration_s"] = df[2].astype(float).to_numpy()
    n_clicks = np.array([len(p) - 1 for p in paths], dtype=np.int64)
    report = {"source": str(path), "rows": len(df), "with_back_clicks": int((n_back > 0).sum())}
    return HumanPaths(starts, targets, paths, n_clicks, n_back, finished, extra, report)


# ---------------------------------------------------------------------------- WALES files


def read_wales_nodes(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """``nodes.tsv`` of the WALES graph: original node ids (not contiguous) and names."""
    return read_name_table(path)


def read_challenges(path: str | Path, known_names=None) -> list[tuple[str, str]]:
    """``start<TAB>target`` pairs.

    From ``challenges.txt`` (no header), or with a ``start target`` header as in
    ``challenges_1000_seed0.tsv``. With ``known_names``, an unknown name raises a DataFormatError
    giving its line.
    """
    path = Path(path)
    df = _read_table(path, 2, header=["start", "target"], comment=None)
    pairs = list(zip(df[0].tolist(), df[1].tolist(), strict=True))
    if known_names is not None:
        known = known_names if isinstance(known_names, dict | set) else set(known_names)
        for i, (s, t) in enumerate(pairs):
            if s not in known or t not in known:
                skip = 1 if _has_header(path) else 0
                raise DataFormatError(
                    path,
                    _nth_data_line(path, i + skip, None),
                    f"unknown node {s if s not in known else t!r}",
                )
    return pairs


def _has_header(path: Path) -> bool:
    with open(path, encoding="utf-8") as fh:
        return fh.readline().strip().lower().split("\t") == ["start", "target"]


def read_human_results(path: str | Path):
    """``human_results_wales.tsv`` / ``early_results_wikigame.tsv`` as a DataFrame.

    Lengths are in **nodes** (start and target included): ``human_best``, ``human_avg``,
    ``human_median`` (and ``human_worst``) over successful attempts, ``opt`` = shortest
    path in edges + 1 on the authors' graph.
    """
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise DataFormatError(path, None, "file not found")
    df = pd.read_csv(path, sep="\t", keep_default_na=False, dtype={"start": str, "target": str})
    need = ["start", "target", "human_best", "human_avg", "human_median", "opt"]
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise DataFormatError(path, 1, f"header lacks column(s) {missing}; expected {need}")
    for c in need[2:]:
        vals = pd.to_numeric(df[c], errors="coerce")
        bad = np.flatnonzero(vals.isna().to_numpy())
        if bad.size:
            raise DataFormatError(
                path, int(bad[0]) + 2, f"column {c!r}: {df[c].iloc[bad[0]]!r} is not a number"
            )
        df[c] = vals
    return df


def read_wikigame_paths(path: str | Path) -> list[dict]:
    """``wikigame_human_paths.jsonl``: one ``{"start", "target", "paths": [[page, ...]]}`` a line."""
    path = Path(path)
    out = []
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataFormatError(path, no, f"not valid JSON: {exc.msg}") from None
            if not isinstance(rec, dict) or not {"start", "target", "paths"} <= rec.keys():
                raise DataFormatError(path, no, "expected an object with keys start, target, paths")
            out.append(rec)
    return out


# ---------------------------------------------------------------------------- safe pickle


class _GraphStub:
    """Stands in for a networkx graph class while unpickling: stores the state, runs nothing."""

    def __init__(self, *args, **kwargs):
        self.__dict__["_state"] = {}

    def __setstate__(self, state):
        self.__dict__["_state"] = state

    def __setattr__(self, key, value):  # protocol 0/1 pickles set the state via __dict__
        self.__dict__.setdefault("_state", {})[key] = value


_NX_CLASSES = {
    ("networkx.classes.digraph", "DiGraph"),
    ("networkx.classes.graph", "Graph"),
}
_SAFE_GLOBALS = {
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "dict"),
    ("builtins", "list"),
    ("builtins", "tuple"),
    ("builtins", "object"),
    ("builtins", "int"),
    ("builtins", "float"),
    ("builtins", "str"),
    ("collections", "OrderedDict"),
}
_NUMPY_GLOBALS = {
    ("numpy.core.multiarray", "scalar"),
    ("numpy._core.multiarray", "scalar"),
    ("numpy", "dtype"),
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy", "ndarray"),
}


class SafeGraphUnpickler(pickle.Unpickler):
    """An unpickler that accepts only networkx Graph/DiGraph, a few builtins and numpy scalars.

    networkx classes are replaced by an inert stub, so networkx need not be installed and no
    method of any class runs. Anything else (``os.system``, ``subprocess.Popen``, ...) is
    refused with :class:`pickle.UnpicklingError`.
    """

    def find_class(self, module: str, name: str):
        # protocol 0-2 pickles written by Python 2 era code name these modules the old way
        module = {"copy_reg": "copyreg", "__builtin__": "builtins"}.get(module, module)
        if (module, name) in _NX_CLASSES:
            return _GraphStub
        if (module, name) == ("copyreg", "_reconstructor"):
            import copyreg

            return copyreg._reconstructor
        if (module, name) in _SAFE_GLOBALS:
            import builtins
            import collections

            return getattr(builtins if module == "builtins" else collections, name)
        if (module, name) in _NUMPY_GLOBALS:
            import importlib

            return getattr(importlib.import_module(module), name)
        raise pickle.UnpicklingError(
            f"refusing to load global {module}.{name}: only networkx "
            "graphs, numpy scalars and plain containers are allowed"
        )


def safe_load_pickle(path: str | Path):
    """Unpickle ``path`` with :class:`SafeGraphUnpickler`; errors name the file."""
    path = Path(path)
    try:
        with open(path, "rb") as fh:
            return SafeGraphUnpickler(io.BufferedReader(fh)).load()
    except pickle.UnpicklingError as exc:
        raise DataFormatError(path, None, f"unsafe or invalid pickle: {exc}") from None
    except (EOFError, ValueError, TypeError, AttributeError) as exc:
        raise DataFormatError(path, None, f"not a readable pickle: {exc}") from None


def read_networkx_pickle(
    path: str | Path, *, names: dict | None = None, name: str | None = None
) -> DiGraph:
    """The WALES authors' ``wiki_graph.p`` (a pickled networkx DiGraph) as a :class:`DiGraph`.

    ``names`` maps the pickle's node keys to names (e.g. from ``nodes.tsv``); otherwise the
    keys themselves (as str) are the names. Nodes are numbered in sorted key order.
    """
    path = Path(path)
    obj = safe_load_pickle(path)
    state = getattr(obj, "_state", None) if isinstance(obj, _GraphStub) else None
    if not isinstance(state, dict):
        raise DataFormatError(path, None, "the pickle does not hold a networkx graph")
    adj = state.get("_succ", state.get("_adj"))
    nodes = state.get("_node", adj)
    if not isinstance(adj, dict) or not isinstance(nodes, dict):
        raise DataFormatError(path, None, "the networkx graph has no adjacency dictionary")
    keys = sorted(nodes.keys(), key=lambda k: (str(type(k)), k))
    index = {k: i for i, k in enumerate(keys)}
    src = np.fromiter((index[u] for u, nb in adj.items() for _ in nb), np.int64)
    dst = np.fromiter((index[v] for nb in adj.values() for v in nb), np.int64)
    if names is not None:
        missing = [k for k in keys if k not in names]
        if missing:
            raise DataFormatError(
                path, None, f"{len(missing)} node key(s) have no name, e.g. {missing[0]!r}"
            )
        labels = [names[k] for k in keys]
    else:
        labels = [str(k) for k in keys]
    directed = "_pred" in state or "_succ" in state
    if not directed:  # an undirected Graph: both directions
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    return DiGraph.from_edges(src, dst, len(keys), labels, name=name or path.stem)
