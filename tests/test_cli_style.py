"""One command-line style: every command of the real ``wordgames`` click tree, walked.

The tree is the one the console entry point builds (``wordgames.cli.main``: sub-apps built
lazily), every sub-app and every command in it. Each test collects every violation and names
them all, so one run lists what is left to fix.
"""

from __future__ import annotations

import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest
import typer.main

from wordgames.cli import app
from wordgames.cli._lazy import first_sentence, lazy_command

#: Python type hints that must never reach a user (typer's ``<int>``, ``<list[str]>``...)
TYPE_HINT = re.compile(
    r"<(?:int|str|float|bool|path|file|dir|datetime|list\[[^>]*\]|[a-z]+\[[^>]*\])>"
    r"|\blist\[|\[(?:str|int|float|bool|Path)\]|\bOptional\b|NoneType|<class |\btyping\."
    r"|\bpathlib\."
)
#: options that are one concept under two names (``run`` passes them to the cbm measure)
SAME_CONCEPT = {"--cbm-eos-id": "--eos-id", "--cbm-pad-id": "--pad-id"}


def walk(cmd, path=("wordgames",), parent=None):
    """``(path, command, context)`` for ``cmd`` and every command below it."""
    ctx = cmd.context_class(cmd, info_name=path[-1], parent=parent)
    yield path, cmd, ctx
    if hasattr(cmd, "list_commands"):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            assert sub is not None, f"{' '.join(path)} lists {name!r} but cannot build it"
            yield from walk(sub, (*path, name), ctx)


@pytest.fixture(scope="module")
def tree():
    return list(walk(lazy_command(app)))


def options(tree):
    """``(command path, option)`` for every option but ``--help``."""
    for path, cmd, _ in tree:
        for p in cmd.params:
            if p.param_type_name == "option" and "--help" not in p.opts:
                yield " ".join(path), p


def long_name(p) -> str:
    names = [o for o in p.opts if o.startswith("--")]
    return names[0] if names else p.opts[0]


def base_type(p):
    """The element type of an option: ``int`` for ``int | None``, ``list[int]``, a choice of ints."""
    desc = p.type_descriptor
    annotation = desc.annotation
    if desc.is_list:
        (annotation,) = typing.get_args(annotation)
    if desc.is_choice:  # a choice of strings is a string (its values differ by command)
        return type(next(iter(desc.choices)))
    return annotation


def test_tree_is_complete(tree):
    paths = {" ".join(p) for p, _, _ in tree}
    # every sub-app and the commands inside them (built lazily by the entry point)
    for expected in (
        "wordgames run",
        "wordgames codenames evaluate",
        "wordgames wales evaluate",
        "wordgames oddmanout evaluate",
        "wordgames similarity evaluate",
        "wordgames cbm evaluate",
        "wordgames results table",
        "wordgames embeddings list",
        "wordgames embeddings info",
        "wordgames datasets verify",
        "wordgames report",
    ):
        assert expected in paths
    assert len(paths) > 40


def test_one_plain_help_style(tree):
    """Plain click help everywhere: no rich panels, the same in both ways of building the tree."""
    full = dict((" ".join(p), (c, x)) for p, c, x in walk(typer.main.get_command(app)))
    bad = []
    for path, cmd, ctx in tree:
        text = cmd.get_help(ctx)
        name = " ".join(path)
        if any(ch in text for ch in "╭│╰─"):
            bad.append(f"{name}: rich panels in the help")
        if getattr(cmd, "rich_markup_mode", None) is not None:
            bad.append(f"{name}: rich_markup_mode={cmd.rich_markup_mode!r}")
        other, octx = full[name]
        if other.get_help(octx) != text:
            bad.append(f"{name}: help differs between the entry point and typer's tree")
    assert not bad, "\n".join(bad)


def test_no_python_type_hints_in_help_or_usage(tree):
    bad = []
    for path, cmd, ctx in tree:
        for text in (cmd.get_help(ctx), cmd.get_usage(ctx)):
            for m in TYPE_HINT.finditer(text):
                line = next(ln for ln in text.splitlines() if m.group(0) in ln)
                bad.append(f"{' '.join(path)}: {m.group(0)!r} in {line.strip()!r}")
    assert not bad, "\n".join(bad)


def test_every_option_and_argument_is_described(tree):
    bad = [f"{name}: {'/'.join(p.opts)}" for name, p in options(tree) if not (p.help or "").strip()]
    for path, cmd, _ in tree:
        bad += [
            f"{' '.join(path)}: argument {p.name}"
            for p in cmd.params
            if p.param_type_name == "argument" and not (getattr(p, "help", "") or "").strip()
        ]
    assert not bad, "options and arguments without help:\n" + "\n".join(bad)


def test_every_command_is_described(tree):
    bad = [" ".join(p) for p, c, _ in tree if not first_sentence(c.help or c.short_help)]
    assert not bad, "commands without help: " + ", ".join(bad)


def test_output_option_is_a_folder_with_its_default_stated(tree):
    """``-o``/``--out``/``--output``: always a folder (under one name), its default said."""
    bad, long_names = [], set()
    for name, p in options(tree):
        if not {"-o", "--out", "--output"} & set(p.opts):
            continue
        long_names.add(long_name(p))
        text = (p.help or "").lower()
        if "folder" not in text or "file" in text.split("folder")[0]:
            bad.append(f"{name} {'/'.join(p.opts)}: not a folder: {p.help!r}")
        if not ((p.show_default and p.default is not None) or "default" in text):
            bad.append(f"{name} {'/'.join(p.opts)}: no default stated: {p.help!r}")
        if "-o" not in p.opts:
            bad.append(f"{name} {'/'.join(p.opts)}: no -o")
    if len(long_names) > 1:
        bad.append(f"-o is spelled {sorted(long_names)}: one name")
    assert not bad, "\n".join(bad)


def test_json_option_takes_a_path(tree):
    bad = [
        f"{name} --json: {'a flag' if getattr(p, 'is_flag', False) else base_type(p)}"
        for name, p in options(tree)
        if "--json" in p.opts and (getattr(p, "is_flag", False) or not p.type_descriptor.is_path)
    ]
    assert not bad, "--json must take a path:\n" + "\n".join(bad)


def test_same_option_name_same_type_everywhere(tree):
    """``--eos-id``, ``--seed``, ``--data-root``, ``-e/--embedding``...: one type each."""
    types: dict = {}
    for name, p in options(tree):
        if getattr(p, "is_flag", False):
            continue
        key = SAME_CONCEPT.get(long_name(p), long_name(p))
        types.setdefault(key, {}).setdefault(base_type(p), []).append(name)
    bad = [
        f"{key}: "
        + "; ".join(
            f"{getattr(t, '__name__', t)} in {', '.join(where)}" for t, where in seen.items()
        )
        for key, seen in types.items()
        if len(seen) > 1
    ]
    # a CBM symbol is an integer id or a token ("<eos>"): text, made an int when it is one
    for key, expected in (
        ("--seed", int),
        ("--data-root", Path),
        ("--embedding", str),
        ("--eos-id", str),
        ("--pad-id", str),
    ):
        assert key in types, f"no command has {key}"
        if set(types[key]) != {expected}:
            bad.append(f"{key} must be {expected.__name__}: {sorted(map(str, types[key]))}")
    assert not bad, "\n".join(dict.fromkeys(bad))


def test_short_options_mean_the_same_everywhere(tree):
    """``-e`` is always ``--embedding``, ``-m`` always ``--measure``, ``-o`` always ``--out``."""
    seen: dict = {}
    for name, p in options(tree):
        for short in (o for o in p.opts if re.fullmatch(r"-[A-Za-z]", o)):
            seen.setdefault(short, {}).setdefault(long_name(p), []).append(name)
    bad = [f"{s}: {longs}" for s, longs in seen.items() if len(longs) > 1]
    assert not bad, "\n".join(bad)


def test_top_level_lists_each_command_by_its_own_help(tree):
    """The top-level help says of each command what that command's own help says."""
    (_, root, ctx), *_ = tree
    text = root.get_help(ctx)
    listing = text.split("Commands:")[1]
    by_name = {p[1]: c for p, c, _ in tree if len(p) == 2}
    flat = " ".join(listing.split())
    for name, cmd in by_name.items():
        assert f" {name} " in f" {flat}"
        assert first_sentence(cmd.help) in flat, (name, first_sentence(cmd.help))
    # a sub-app is a group of commands, even with a single command (embeddings was not)
    for name in (g.name for g in app.registered_groups):
        assert hasattr(by_name[name], "commands"), name


def test_help_starts_fast_without_rich():
    """``wordgames --help`` imports neither rich nor the scientific stack, and is quick."""
    probe = (
        "import sys, time; t = time.perf_counter(); from wordgames.cli import main\n"
        "sys.argv = ['wordgames', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'rich', 'numpy', 'pandas', 'scipy', 'click'}))\n"
        "print(time.perf_counter() - t, file=sys.stderr)"
    )
    times = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip().splitlines()[-1] == "[]"
        times.append(float(out.stderr.strip().splitlines()[-1]))
    # 0.3 s is the budget of the whole process; the import and the help take ~0.1 s of it
    assert min(times) < 0.3, times


@pytest.mark.slow
@pytest.mark.parametrize("width", ["80", "120"])
def test_listings_never_cut_a_name(monkeypatch, width):
    """``measures``, ``datasets list`` and ``embeddings list`` show every name whole."""
    from typer.testing import CliRunner

    from wordgames.datasets import all_datasets
    from wordgames.embeddings.family import FAMILY_NAMES
    from wordgames.registry import all_measures

    monkeypatch.setenv("COLUMNS", width)
    cli = CliRunner()
    for args, names in (
        (
            ["measures"],
            [m.name for m in all_measures()]
            + [d for m in all_measures() for d in m.datasets]
            + [o for m in all_measures() for o in m.option_names()],
        ),
        (["datasets", "list"], list(all_datasets())),
        (["embeddings", "list"], ["glove-6b-50d", *FAMILY_NAMES]),
    ):
        res = cli.invoke(app, args)
        assert res.exit_code == 0, res.output
        words = {w.strip(",│┃") for w in res.output.split()}
        missing = [n for n in names if n not in words]
        assert not missing, (args, missing, res.output)
        # tables fit the width; a line of text is never hard-wrapped (issue 21, item 12)
        table = [ln for ln in res.output.splitlines() if ln[:1] in "┏┃┡│└┗━─ "]
        assert max(map(len, table)) <= int(width)


@pytest.mark.parametrize(
    "command",
    [["run"], ["codenames", "evaluate"], ["similarity", "evaluate"], ["oddmanout", "evaluate"]],
)
def test_family_commands_share_one_option_set(command):
    """Issue 21, item 12: the same data-set selector, quick flag and data root everywhere."""
    from typer.testing import CliRunner

    from wordgames.cli import app

    r = CliRunner().invoke(app, [*command, "--help"], terminal_width=200)
    assert r.exit_code == 0, r.output
    for flag in ("-d,", "--dataset", "DATASET", "--quick", "--data-root", "FOLDER"):
        assert flag in r.output, (command, flag)


#: the family commands that score through ``wordgames.evaluate`` and may keep a results store
STORE_COMMANDS = (
    "wordgames codenames evaluate",
    "wordgames codenames compare",
    "wordgames wales evaluate",
    "wordgames oddmanout evaluate",
    "wordgames similarity evaluate",
    "wordgames similarity global-metrics",
    "wordgames similarity correlate",
    "wordgames cbm evaluate",
)


def test_store_commands_share_one_out_and_one_json(tree):
    """Issue 21, item 12: ``-o`` and ``--json`` mean the same, with the same default, everywhere."""
    from wordgames.cli.common import JsonOut, StoreOut

    store_help = typing.get_args(StoreOut)[1].help
    json_help = typing.get_args(JsonOut)[1].help
    params = {" ".join(path): {long_name(p): p for p in cmd.params} for path, cmd, _ in tree}
    bad = []
    for name in STORE_COMMANDS:
        out, js = params[name].get("--out"), params[name].get("--json")
        if out is None or (out.default, out.metavar, out.help) != (None, "FOLDER", store_help):
            bad.append(f"{name}: -o is not the shared store option")
        if js is None or (js.default, js.metavar, js.help) != (None, "FILE", json_help):
            bad.append(f"{name}: --json is not the shared option")
    assert not bad, "\n".join(bad)


def test_every_out_option_is_a_folder_metavar(tree):
    bad = [
        f"{name}: {p.metavar!r}"
        for name, p in options(tree)
        if "-o" in p.opts and p.metavar != "FOLDER"
    ]
    assert not bad, "-o must show FOLDER:\n" + "\n".join(bad)


def test_text_lines_are_never_hard_wrapped():
    """A path or a command in a message stays one token at any width (tables keep theirs)."""
    import io

    from wordgames.cli.common import console

    path = "/results/" + "a-very-long-folder-name/" * 6 + "results.json"
    buf = io.StringIO()
    con = console(file=buf, width=40)
    con.print(f"wrote the results store under {path} (wordgames report {path})")
    assert path in buf.getvalue().replace("\n", " ").split()
    assert f"(wordgames report {path})" in buf.getvalue()
    # on a terminal too (the terminal shows the long line as it can; a copy gets it whole)
    buf = io.StringIO()
    con = console(file=buf, width=40, force_terminal=True, no_color=True, highlight=False)
    con.print(f"wrote the results store under {path}")
    assert buf.getvalue() == f"wrote the results store under {path}\n"


def test_json_dash_prints_the_run_record_on_stdout(tmp_path):
    """``--json -``: stdout is the JSON alone (the tables go to stderr), with every Score."""
    import json

    from typer.testing import CliRunner

    from wordgames.measure import Score

    vecs = tmp_path / "vecs.txt"
    vecs.write_text("a 1 0\nb 0.8 0.6\nc 0.6 0.8\nd 0 1\n")
    bench = tmp_path / "mine.tsv"
    bench.write_text("a\tb\t3\na\tc\t1\na\td\t2\nb\tc\t4\n")
    r = CliRunner().invoke(
        app,
        ["similarity", "evaluate", "-e", str(vecs), "--tsv", str(bench), "--only-tsv"]
        + ["--json", "-"],
    )
    assert r.exit_code == 0, r.output
    record = json.loads(r.stdout)
    scores = [Score.from_dict(s) for res in record["results"] for s in res["scores"]]
    spearman = [s for s in scores if s.dataset == "mine" and s.metric == "spearman"]
    # ranks of (3, 1, 2, 4) against the cosines (0.8, 0.6, 0, 0.96): Spearman 0.8
    assert len(spearman) == 1 and abs(spearman[0].value - 0.8) < 1e-9
    assert record["tables"]["scores"]["vecs"][0]["benchmark"] == "mine"
    assert "mine" in r.stderr
