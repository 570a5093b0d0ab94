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
import math
import pickle
import struct
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from wordgames.errors import DataFormatError
from wordgames.textio import BAD_WORD_CHARS, bad_word_reason, decode_utf8, parse_json
from wordgames.wales.graph import MAX_NODES, DiGraph, GraphError

# ---------------------------------------------------------------------------- helpers

#: node ids of an edge list or a name table: ASCII digits, at most 18 of them (below 2**63)
_ID = r"[0-9]{1,18}"
#: integer node ids are used as node numbers while the largest id is below this many times the
#: number of distinct ids (plus 1024); sparser ids are remapped to 0..k-1
DENSE_FACTOR = 8


def _utf8_error(path: Path) -> DataFormatError:
    """The error for a file that is not valid UTF-8, naming the line of the first bad byte."""
    try:
        decode_utf8(Path(path).read_bytes(), path)
    except DataFormatError as exc:
        return exc
    return DataFormatError(path, None, "not valid UTF-8")


def _read_utf8(path: Path, what: str = "file") -> str:
    """The text of ``path``; :class:`DataFormatError` when it is missing or not UTF-8."""
    try:
        data = Path(path).read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        raise DataFormatError(path, None, f"{what} not found") from None
    return decode_utf8(data, path)


def _data_lines(path: Path, comment: str | None = "#"):
    """(1-based line number, text) of non-empty, non-comment lines.

    Used on error paths and for small files; undecodable bytes do not stop it.
    """
    with open(path, encoding="utf-8", errors="surrogateescape") as fh:
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


def _check_names(path: Path, values, rows, what: str, comment: str | None = "#") -> None:
    """Raise :class:`DataFormatError` at the first value that is empty or holds a control character.

    ``rows`` gives the data row (0-based, comments and blank lines not counted) of each value.
    """
    import pandas as pd

    values = np.asarray(values, dtype=object)
    try:  # one C-level scan for the usual case: nothing to report
        if not BAD_WORD_CHARS.search(" ".join(values.tolist())) and min(
            map(len, values), default=1
        ):
            return
    except TypeError:  # a value that is not a string: found below
        pass
    s = pd.Series(values, dtype=object)
    bad = (s.str.len() == 0) | s.str.contains(BAD_WORD_CHARS.pattern, regex=True)
    hits = np.flatnonzero(bad.fillna(True).to_numpy(dtype=bool))
    if hits.size:
        i = int(hits[0])
        value = s.iloc[i]
        raise DataFormatError(
            path,
            _nth_data_line(path, int(np.asarray(rows)[i]), comment),
            f"{what} {value!r} {bad_word_reason(value)}; {hits.size} such value(s) in all",
        )


def _read_table(
    path: Path,
    n_cols: int,
    *,
    comment: str | None = "#",
    header: list[str] | None = None,
    names: list[str] | None = None,
):
    """Read a tab-separated table of strings with pandas, checking the column count.

    A row with fewer than ``n_cols`` fields raises a DataFormatError with its line number;
    ``df.attrs["header_rows"]`` is 1 when a header row was skipped.
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
    except UnicodeDecodeError:
        raise _utf8_error(path) from None
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
    if not len(df):
        raise DataFormatError(
            path, None, f"no rows found (expected {n_cols} tab-separated columns)"
        )
    df.attrs["header_rows"] = skip
    return df


def _unquote_all(values, path: Path | None = None, rows=None, comment: str | None = "#"):
    """URL-decode every value; a percent-encoding that is not UTF-8 raises a DataFormatError."""
    out = np.array([urllib.parse.unquote(v) for v in values], dtype=object)
    if path is not None and "\ufffd" in "".join(out.tolist()):
        for i in np.flatnonzero(np.char.find(out.astype(str), "\ufffd") >= 0).tolist():
            if "\ufffd" not in values[i]:  # the replacement character came from the decoding
                row = i if rows is None else int(np.asarray(rows)[i])
                raise DataFormatError(
                    path,
                    _nth_data_line(path, row, comment),
                    f"{values[i]!r}: a percent-encoded byte sequence that is not valid UTF-8",
                )
    return out


# ---------------------------------------------------------------------------- edge lists


def _read_two_columns(path: Path):
    """The two whitespace-separated columns of an edge list (header row dropped) and its skip."""
    import pandas as pd

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
    except UnicodeDecodeError:
        raise _utf8_error(path) from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise DataFormatError(path, None, f"expected two columns (source, target): {exc}") from None
    if df.shape[0] and (df[2] != "").any():
        row = int(np.flatnonzero((df[2] != "").to_numpy())[0])
        raise DataFormatError(
            path, _nth_data_line(path, row), "expected two columns (source, target), found more"
        )
    skip = 0
    if df.shape[0] and [df.iloc[0, 0].lower(), df.iloc[0, 1].lower()] in (
        ["source", "target"],
        ["fromnodeid", "tonodeid"],
        ["linksource", "linktarget"],
    ):
        df, skip = df.iloc[1:], 1
    missing = np.flatnonzero((df[1] == "").to_numpy())
    if missing.size:
        raise DataFormatError(
            path,
            _nth_data_line(path, int(missing[0]) + skip),
            f"expected two columns (source, target), found one; {missing.size} such row(s)",
        )
    if not len(df):
        raise DataFormatError(path, None, "no edges found (expected 'source target' lines)")
    return df[0].to_numpy(dtype=object), df[1].to_numpy(dtype=object), skip


def _as_ids(path: Path, values: np.ndarray, rows: np.ndarray, comment: str | None = "#"):
    """Integer ids of ``values`` (ASCII digits, at most 18); a DataFormatError names the line."""
    import pandas as pd

    ok = pd.Series(values, dtype=object).str.fullmatch(_ID).fillna(False).to_numpy(dtype=bool)
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        too_long = bool(pd.Series([values[i]], dtype=object).str.fullmatch(r"[0-9]+").iloc[0])
        why = "has more than 18 digits" if too_long else "is not an integer"
        raise DataFormatError(
            path,
            _nth_data_line(path, int(rows[i]), comment),
            f"node id {values[i]!r} {why}; {int((~ok).sum())} such id(s) in all",
        )
    return values.astype(np.int64)


def _graph_from_ids(src: np.ndarray, dst: np.ndarray, name: str) -> tuple[DiGraph, dict]:
    """The graph of integer ids: ids are node numbers when dense, else remapped (no loop).

    A remapped node is named by its original id, as a node numbered by its id is.
    """
    uniq, inv = np.unique(np.concatenate([src, dst]), return_inverse=True)
    if uniq.size > MAX_NODES:
        raise GraphError(f"{name}: {uniq.size} nodes, more than the {MAX_NODES} a graph may have")
    top = int(uniq[-1])
    if top < DENSE_FACTOR * uniq.size + 1024:
        return DiGraph.from_edges_report(src, dst, top + 1, name=name)
    inv = inv.reshape(-1)
    names = uniq.astype(str).astype(object)
    graph, rep = DiGraph.from_edges_report(
        inv[: src.size], inv[src.size :], uniq.size, names, name=name
    )
    rep["ids_remapped"] = int(uniq.size)
    rep["note"] = (
        f"node ids are sparse (largest {top}, {uniq.size} distinct): remapped to 0..{uniq.size - 1} "
        "in id order; each node keeps its id as its name"
    )
    return graph, rep


def _graph_with_table(path: Path, src, dst, rows, names_path, name: str) -> tuple[DiGraph, dict]:
    """The graph of integer ids named by a name table (nodes in the table's order)."""
    import pandas as pd

    ids, table_names = read_name_table(names_path)
    lookup = pd.Index(ids)
    si, di = lookup.get_indexer(src), lookup.get_indexer(dst)
    bad = np.flatnonzero((si < 0) | (di < 0))
    if bad.size:
        r = int(bad[0])
        raise DataFormatError(
            path,
            _nth_data_line(path, int(rows[r])),
            f"node id {src[r] if si[r] < 0 else dst[r]} is not in the "
            f"name table {names_path}; {bad.size} such edge(s)",
        )
    return DiGraph.from_edges_report(si, di, len(ids), table_names, name=name)


def read_edge_list(
    path: str | Path,
    *,
    names_path: str | Path | None = None,
    name: str | None = None,
    url_decode: bool = False,
) -> tuple[DiGraph, dict]:
    r"""Read a directed edge list (two tab- or space-separated columns, ``#`` comments).

    If every field is an integer (ASCII digits, at most 18) the columns are node ids (SNAP
    style). A name table (``node_id<TAB>name``, optional header) then names them, and ids
    are renumbered to 0..n-1 in the table's order; with a name table, a field that is not an
    integer raises a DataFormatError naming its line. Without one, ids are node numbers
    while the largest id is below ``8 * distinct ids + 1024``; sparser ids (``3000000000``)
    are remapped to 0..k-1 in id order (``report["ids_remapped"]``), each node named by its
    id. Otherwise the columns are node names (a first row ``source target`` is taken as a
    header); a name holding a control character raises a DataFormatError naming its line.
    Returns the graph and a report of what was merged or remapped.

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
    name = name or path.stem
    a, b, skip = _read_two_columns(path)
    rows = np.arange(a.size) + skip
    numeric = bool(
        pd.Series(a, dtype=object).str.fullmatch("[0-9]+").all()
        and pd.Series(b, dtype=object).str.fullmatch("[0-9]+").all()
    )
    report = {"source": str(path), "rows": int(a.size)}
    if numeric or names_path is not None:
        both = np.concatenate([a, b])
        ids = _as_ids(path, both, np.concatenate([rows, rows]))
        src, dst = ids[: a.size], ids[a.size :]
        if names_path is not None:
            graph, rep = _graph_with_table(path, src, dst, rows, names_path, name)
        else:
            graph, rep = _graph_from_ids(src, dst, name)
    else:
        if url_decode:
            a, b = _unquote_all(a, path, rows), _unquote_all(b, path, rows)
        _check_names(path, np.concatenate([a, b]), np.concatenate([rows, rows]), "node name")
        labels, inv = np.unique(np.concatenate([a, b]).astype(str), return_inverse=True)
        inv = inv.reshape(-1)
        graph, rep = DiGraph.from_edges_report(
            inv[: a.size], inv[a.size :], labels.size, labels.astype(object), name=name
        )
    report.update(rep)
    return graph, report


def read_name_table(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """``node_id<TAB>name`` rows (header ``node_id name`` optional): ids and names.

    Ids are integers (ASCII digits, at most 18), each given once; names are unique and hold
    no control character. Anything else raises a DataFormatError naming the line.
    """
    path = Path(path)
    df = _read_table(path, 2, header=["node_id", "name"], comment=None)
    rows = np.arange(len(df)) + df.attrs.get("header_rows", 0)
    ids = _as_ids(path, df[0].to_numpy(dtype=object), rows, None)
    names = df[1].to_numpy(dtype=object)
    _check_names(path, names, rows, "node name", None)
    for values, what in ((ids, "node id"), (names, "node name")):
        _check_unique(path, values, rows, what, None)
    return ids, names


def _check_unique(path: Path, values: np.ndarray, rows, what: str, comment: str | None) -> None:
    """Raise :class:`DataFormatError` at the first value that repeats an earlier one."""
    import pandas as pd

    dup = np.flatnonzero(pd.Series(values).duplicated().to_numpy())
    if dup.size:
        i = int(dup[0])
        value = values[i].item() if isinstance(values[i], np.generic) else values[i]
        raise DataFormatError(
            path,
            _nth_data_line(path, int(np.asarray(rows)[i]), comment),
            f"{what} {value!r} appears twice; {dup.size} repeat(s) in all",
        )


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

    Links whose ends are not in ``articles.tsv`` raise a DataFormatError; so do a title that
    appears twice, holds a control character once decoded, or whose percent-encoding is not
    UTF-8. Duplicate links are merged and counted.
    """
    import pandas as pd

    folder = Path(folder)
    arts_path, links_path = folder / "articles.tsv", folder / "links.tsv"
    arts = _read_table(arts_path, 1)
    rows = np.arange(len(arts))
    names = _unquote_all(arts[0].to_numpy(dtype=object), arts_path, rows)
    _check_names(arts_path, names, rows, "article title")
    _check_unique(arts_path, names, rows, "article title", "#")
    links = _read_table(links_path, 2)
    rows = np.arange(len(links))
    src_names = _unquote_all(links[0].to_numpy(dtype=object), links_path, rows)
    dst_names = _unquote_all(links[1].to_numpy(dtype=object), links_path, rows)
    index = pd.Index(names)
    src, dst = index.get_indexer(src_names), index.get_indexer(dst_names)
    bad = np.flatnonzero((src < 0) | (dst < 0))
    if bad.size:
        r = int(bad[0])
        raise DataFormatError(
            links_path,
            _nth_data_line(links_path, r),
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


def _resolved_paths(path: Path, column) -> tuple[list, np.ndarray]:
    """Page sequences of a ``;``-separated path column (URL-decoded, back clicks resolved)."""
    raw = column.str.split(";").tolist()
    paths, n_back = [], np.zeros(len(raw), dtype=np.int64)
    unquote, bad_char = urllib.parse.unquote, BAD_WORD_CHARS.search
    for i, encoded in enumerate(raw):
        toks = [unquote(t) for t in encoded]
        if "" in toks or any(map(bad_char, toks)) or any("\ufffd" in t for t in toks):
            _unquote_all(encoded, path, np.full(len(encoded), i))  # names a bad percent-encoding
            bad = next(t for t in toks if bad_word_reason(t))
            raise DataFormatError(
                path, _nth_data_line(path, i), f"page {bad!r} of the path {bad_word_reason(bad)}"
            )
        try:
            seq, nb = resolve_back_clicks(toks)
        except ValueError as exc:
            raise DataFormatError(path, _nth_data_line(path, i), str(exc)) from None
        paths.append(seq)
        n_back[i] = nb
    return paths, n_back


def _paths_layout(path: Path) -> int:
    """The column count (5: finished paths, 6: unfinished) of the first data row of ``path``."""
    if not path.is_file():
        raise DataFormatError(path, None, "file not found")
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            line = raw.rstrip(b"\r\n")
            if not line.strip() or line.startswith(b"#"):
                continue
            n = line.count(b"\t") + 1
            if n not in (5, 6):
                raise DataFormatError(
                    path, lineno, f"{n} tab-separated columns: expected 5 (ip, timestamp, "
                    "duration, path, rating: paths_finished.tsv) or 6 (ip, timestamp, duration, "
                    "path, target, type: paths_unfinished.tsv)",
                )  # fmt: skip
            return n
    raise DataFormatError(path, None, "no paths in the file")


def read_wikispeedia_paths(path: str | Path, *, finished: bool | None = None) -> HumanPaths:
    """Read ``paths_finished.tsv`` or ``paths_unfinished.tsv``.

    The first has 5 columns (ip, timestamp, duration, path, rating), the second 6 (ip, timestamp,
    duration, path, target, type); which one a file is comes from its first row (``finished``
    overrides it), so a renamed copy reads the same.

    In a finished path the target is the last page. Back clicks (``<``) are resolved; a path
    whose back click has nothing to go back to, an empty page or one holding a control
    character, or a duration that is not a finite number raises a DataFormatError with its line.
    """
    import pandas as pd

    path = Path(path)
    if finished is None:  # the layout is read from the rows, not guessed from the file name
        finished = _paths_layout(path) == 5
    n_cols = 5 if finished else 6
    # the rating of a finished game is 'NULL' when the player gave none
    df = _read_table(path, n_cols, names=list(range(n_cols)))
    rows = np.arange(len(df))
    for c in [0, 1, 2, *range(4, n_cols)]:  # ip, timestamp, duration, rating / target, type
        _check_names(path, df[c].to_numpy(dtype=object), rows, f"column {c + 1} value")
    paths, n_back = _resolved_paths(path, df[3])
    starts = np.array([p[0] for p in paths], dtype=object)
    if finished:
        targets = np.array([p[-1] for p in paths], dtype=object)
        extra = {"rating": df[4].to_numpy()}
    else:
        targets = _unquote_all(df[4].to_numpy(dtype=object), path, np.arange(len(df)))
        _check_names(path, targets, np.arange(len(df)), "target")
        extra = {"type": df[5].to_numpy()}
    duration = pd.to_numeric(df[2], errors="coerce").to_numpy(dtype=np.float64)
    bad = np.flatnonzero(~np.isfinite(duration))
    if bad.size:
        i = int(bad[0])
        raise DataFormatError(
            path,
            _nth_data_line(path, i),
            f"duration {df[2].iloc[i]!r} is not a finite number of seconds",
        )
    extra["duration_s"] = duration
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
    ``challenges_1000_seed0.tsv``. A name holding a control character, or with
    ``known_names`` an unknown name, raises a DataFormatError giving its line.
    """
    path = Path(path)
    df = _read_table(path, 2, header=["start", "target"], comment=None)
    skip = df.attrs.get("header_rows", 0)
    rows = np.arange(len(df)) + skip
    _check_names(path, np.concatenate([df[0], df[1]]), np.concatenate([rows, rows]), "name", None)
    pairs = list(zip(df[0].tolist(), df[1].tolist(), strict=True))
    if known_names is not None:
        known = known_names if isinstance(known_names, dict | set) else set(known_names)
        for i, (s, t) in enumerate(pairs):
            if s not in known or t not in known:
                raise DataFormatError(
                    path,
                    _nth_data_line(path, i + skip, None),
                    f"unknown node {s if s not in known else t!r}",
                )
    return pairs


def read_human_results(path: str | Path):
    """``human_results_wales.tsv`` / ``early_results_wikigame.tsv`` as a DataFrame.

    Lengths are in **nodes** (start and target included): ``human_best``, ``human_avg``,
    ``human_median`` (and ``human_worst``) over successful attempts, ``opt`` = shortest
    path in edges + 1 on the authors' graph. Every length is a finite number, at least 1;
    start and target are names without control characters. Anything else raises a
    DataFormatError naming the line.
    """
    import pandas as pd

    path = Path(path)
    if not path.is_file():
        raise DataFormatError(path, None, "file not found")
    try:
        df = pd.read_csv(path, sep="\t", keep_default_na=False, dtype={"start": str, "target": str})
    except UnicodeDecodeError:
        raise _utf8_error(path) from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise DataFormatError(path, None, f"expected a tab-separated table: {exc}") from None
    need = ["start", "target", "human_best", "human_avg", "human_median", "opt"]
    missing = [c for c in need if c not in df.columns]
    if missing:
        raise DataFormatError(path, 1, f"header lacks column(s) {missing}; expected {need}")
    if not len(df):
        raise DataFormatError(path, None, "no rows after the header")
    rows = np.arange(len(df)) + 1  # data row i is row i + 1 of the file (after the header)
    for c in df.columns:  # names, and numbers that to_numeric would read around a control char
        if not pd.api.types.is_numeric_dtype(df[c]):
            values = df[c].astype(str).to_numpy(dtype=object)
            _check_names(path, values, rows, f"{c!r} value", None)
    for c in need[2:]:
        vals = pd.to_numeric(df[c], errors="coerce")
        bad = np.flatnonzero(~(vals.to_numpy(dtype=np.float64) >= 1) | ~np.isfinite(vals))
        if bad.size:
            raise DataFormatError(
                path,
                _nth_data_line(path, int(bad[0]) + 1, None),
                f"column {c!r}: {str(df[c].iloc[bad[0]])!r} is not a path length "
                "(a finite number of nodes, at least 1)",
            )
        df[c] = vals
    return df


def _path_entry_problem(rec) -> str | None:
    """What is wrong with one record of ``wikigame_human_paths.jsonl`` (``None``: nothing)."""
    if not isinstance(rec, dict) or not {"start", "target", "paths"} <= rec.keys():
        return "expected an object with keys start, target, paths"
    for key in ("start", "target"):
        why = bad_word_reason(rec[key])
        if why:
            return f"{key} {rec[key]!r} {why}"
    if not isinstance(rec["paths"], list) or not all(isinstance(p, list) for p in rec["paths"]):
        return "'paths' must be a list of lists of page names"
    for p in rec["paths"]:
        # one scan of the whole path; the page at fault is looked for only when there is one
        if all(isinstance(page, str) and page for page in p) and not BAD_WORD_CHARS.search(
            " ".join(p)
        ):
            continue
        page = next(page for page in p if bad_word_reason(page))
        return f"page {page!r} of a path {bad_word_reason(page)}"
    return None


def read_wikigame_paths(path: str | Path) -> list[dict]:
    """``wikigame_human_paths.jsonl``: one ``{"start", "target", "paths": [[page, ...]]}`` a line.

    Start, target and every page are non-empty strings without control characters; a line
    that is not such an object raises a DataFormatError naming the line.
    """
    path = Path(path)
    out = []
    for no, line in enumerate(_split_lines(_read_utf8(path)), 1):
        if not line.strip():
            continue
        rec = parse_json(line, path, no, "not valid JSON: {}")
        problem = _path_entry_problem(rec)
        if problem:
            raise DataFormatError(path, no, problem)
        out.append(rec)
    if not out:
        raise DataFormatError(path, None, "no records found (expected one JSON object a line)")
    return out


def _split_lines(text: str) -> list[str]:
    """Lines of ``text`` split at LF, CRLF and CR only (a control character stays in its line)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


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
#: networkx 3 caches views of the graph (``G.nodes``, ``G.adj``...) in it: inert stubs too
_NX_VIEW_MODULES = {"networkx.classes.reportviews", "networkx.classes.coreviews"}
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
    ("numpy.core.numeric", "_frombuffer"),  # arrays in protocol 5 pickles (sized by their bytes)
    ("numpy._core.numeric", "_frombuffer"),
}


def _array_request(func, args, makers: set) -> tuple | None:
    """``(shape, dtype)`` of the array that calling ``func(*args)`` would allocate, or ``None``."""
    import copyreg

    if not isinstance(args, tuple):
        return None
    if func is np.ndarray and args:
        return args[0], args[1] if len(args) > 1 else np.float64
    if id(func) in makers and len(args) >= 3:  # numpy's _reconstruct(subtype, shape, dtype)
        return args[1], args[2]
    if func is copyreg._reconstructor and len(args) == 3 and args[1] is np.ndarray:
        return args[2], np.float64  # ndarray.__new__(cls, state)
    return None


def _check_array_size(request: tuple, limit: int) -> None:
    """Raise :class:`pickle.UnpicklingError` when an array would take more than ``limit`` bytes."""
    shape, dtype = request
    dims = (shape,) if isinstance(shape, int) else shape
    if not isinstance(dims, tuple | list) or not all(isinstance(d, int) for d in dims):
        return  # numpy refuses such a shape itself
    try:
        itemsize = np.dtype(dtype).itemsize
    except (TypeError, ValueError):
        return  # numpy refuses such a dtype itself
    size = math.prod(max(d, 0) for d in dims) * max(itemsize, 1)
    if size > limit:
        raise pickle.UnpicklingError(
            f"an array of shape {tuple(dims)!r} would take {size} bytes, more than the "
            f"{limit} allowed for a pickle of this size"
        )


class SafeGraphUnpickler(pickle._Unpickler):
    """An unpickler that accepts only networkx Graph/DiGraph, a few builtins and numpy scalars.

    networkx classes are replaced by an inert stub, so networkx need not be installed and no
    method of any class runs. Anything else (``os.system``, ``subprocess.Popen``, ...) is
    refused with :class:`pickle.UnpicklingError`.

    It is the pure-Python unpickler (about twice as slow as the C one): its memo is a dict, so
    a ``LONG_BINPUT`` with a huge index costs nothing, where the C unpickler would allocate
    gigabytes for it. An array whose shape asks for more memory than the pickle's size (a
    crafted ``ndarray((10**10,))``) is refused before it is allocated.
    """

    dispatch = dict(pickle._Unpickler.dispatch)

    def __init__(self, file, *, size_limit: int = 2**20):
        super().__init__(file)
        self._limit = size_limit
        self._array_makers: set[int] = set()

    def _check_call(self, func, args) -> None:
        request = _array_request(func, args, self._array_makers)
        if request is not None:
            _check_array_size(request, self._limit)

    def _load_reduce(self):
        self._check_call(self.stack[-2], self.stack[-1])
        pickle._Unpickler.load_reduce(self)

    def _load_newobj(self):
        self._check_call(self.stack[-2], self.stack[-1])
        pickle._Unpickler.load_newobj(self)

    def _load_newobj_ex(self):
        self._check_call(self.stack[-3], self.stack[-2])
        pickle._Unpickler.load_newobj_ex(self)

    dispatch[pickle.REDUCE[0]] = _load_reduce
    dispatch[pickle.NEWOBJ[0]] = _load_newobj
    dispatch[pickle.NEWOBJ_EX[0]] = _load_newobj_ex

    def _instantiate(self, klass, args):  # the OBJ and INST opcodes of protocols 0 and 1
        self._check_call(klass, tuple(args))
        return super()._instantiate(klass, args)

    def find_class(self, module: str, name: str):
        # protocol 0-2 pickles written by Python 2 era code name these modules the old way
        module = {"copy_reg": "copyreg", "__builtin__": "builtins"}.get(module, module)
        if (module, name) in _NX_CLASSES or module in _NX_VIEW_MODULES:
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

            obj = getattr(importlib.import_module(module), name)
            if name == "_reconstruct":
                self._array_makers.add(id(obj))
            return obj
        raise pickle.UnpicklingError(
            f"refusing to load global {module}.{name}: only networkx "
            "graphs, numpy scalars and plain containers are allowed"
        )


#: what a damaged pickle makes the unpickler raise (besides pickle.UnpicklingError)
_PICKLE_ERRORS = (
    EOFError,
    ValueError,
    TypeError,
    AttributeError,
    IndexError,
    KeyError,
    OverflowError,
    MemoryError,
    RecursionError,
    struct.error,
)


def safe_load_pickle(path: str | Path):
    """Unpickle ``path`` with :class:`SafeGraphUnpickler`; errors name the file."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        raise DataFormatError(path, None, "file not found") from None
    try:
        # from memory: a length field that promises more than the file holds reads short
        return SafeGraphUnpickler(io.BytesIO(data), size_limit=16 * len(data) + 2**20).load()
    except pickle.UnpicklingError as exc:
        raise DataFormatError(path, None, f"unsafe or invalid pickle: {exc}") from None
    except _PICKLE_ERRORS as exc:
        raise DataFormatError(
            path, None, f"not a readable pickle: {type(exc).__name__}: {exc}"
        ) from None


def _node_order(path: Path, nodes: dict) -> list:
    """The node keys in sorted order: integers, then strings; a key of another type raises."""
    ints, strs = [], []
    for k in nodes:
        if isinstance(k, str):
            strs.append(k)
        elif isinstance(k, int | np.integer) and not isinstance(k, bool):
            ints.append(k)
        else:
            raise DataFormatError(
                path,
                None,
                f"node key {k!r} is a {type(k).__name__}: expected integer or string node keys",
            )
    return sorted(ints, key=int) + sorted(strs)


def _pickle_edges(path: Path, adj: dict, index: dict) -> tuple[np.ndarray, np.ndarray]:
    """Edge ends as node numbers; a neighbour table that is no dict or a dangling edge raises."""
    for u, nb in adj.items():
        if not isinstance(nb, dict):
            raise DataFormatError(
                path, None, f"the neighbours of node {u!r} are a {type(nb).__name__}, not a dict"
            )
    get = index.get
    counts = np.fromiter(map(len, adj.values()), np.int64, len(adj))
    src = np.repeat(np.fromiter((get(u, -1) for u in adj), np.int64, len(adj)), counts)
    dst = np.fromiter((get(v, -1) for nb in adj.values() for v in nb), np.int64, int(counts.sum()))
    bad = np.flatnonzero((src < 0) | (dst < 0))
    if bad.size:
        e = int(bad[0])
        u = list(adj)[int(np.searchsorted(np.cumsum(counts), e, side="right"))]
        v = next(v for v in adj[u] if get(v, -1) < 0) if get(u, -1) >= 0 else u
        raise DataFormatError(
            path,
            None,
            f"an edge of node {u!r} ends at {v!r}, which is not a node of the graph; "
            f"{bad.size} such edge(s)",
        )
    return src, dst


def _pickle_labels(path: Path, keys: list, names: dict | None) -> list[str]:
    """Node names: ``names[key]`` or ``str(key)``; each a unique word without control characters."""
    if names is not None:
        missing = [k for k in keys if k not in names]
        if missing:
            raise DataFormatError(
                path, None, f"{len(missing)} node key(s) have no name, e.g. {missing[0]!r}"
            )
        labels = [names[k] for k in keys]
    else:
        labels = [str(k) for k in keys]
    for k, label in zip(keys, labels, strict=True):
        why = bad_word_reason(label)
        if why:
            raise DataFormatError(path, None, f"the name {label!r} of node {k!r} {why}")
    if len(set(labels)) != len(labels):
        seen: set = set()
        dup = next(x for x in labels if x in seen or seen.add(x))
        raise DataFormatError(path, None, f"two nodes have the name {dup!r}")
    return labels


def read_networkx_pickle(
    path: str | Path, *, names: dict | None = None, name: str | None = None
) -> DiGraph:
    """The WALES authors' ``wiki_graph.p`` (a pickled networkx DiGraph) as a :class:`DiGraph`.

    ``names`` maps the pickle's node keys to names (e.g. from ``nodes.tsv``); otherwise the
    keys themselves (as str) are the names. Nodes are numbered in sorted key order (integer
    keys, then string keys). A key of another type, an edge to a node the graph lacks, or a
    name that is empty, repeated or holds a control character raises a DataFormatError.
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
    keys = _node_order(path, nodes)
    if len(keys) > MAX_NODES:
        raise DataFormatError(path, None, f"{len(keys)} nodes: a graph may have {MAX_NODES}")
    src, dst = _pickle_edges(path, adj, {k: i for i, k in enumerate(keys)})
    labels = _pickle_labels(path, keys, names)
    directed = "_pred" in state or "_succ" in state
    if not directed:  # an undirected Graph: both directions
        src, dst = np.concatenate([src, dst]), np.concatenate([dst, src])
    return DiGraph.from_edges(src, dst, len(keys), labels, name=name or path.stem)
