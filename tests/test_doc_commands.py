"""Every fenced ```bash block of README.md and docs/*.md runs (issue 44), so a renamed command
or option breaks the docs' test, not a reader's first try.

Each page runs in a fresh folder holding the files its commands name (small vector files cut
from GloVe, a Codenames file of one's own, a CBM log), with the test data root: a line that
sets ``WORDGAMES_DATA`` sets it to the test data root. A command that takes ``--quick`` runs
with it (quick samples, not minutes). A block can be marked in the Markdown, on the line before
its fence:

``<!-- doc-test: parse-only: REASON -->``
    Its ``wordgames`` commands are parsed, not run (``--help`` appended: the command and every
    option it names must exist), because running them serves until stopped, waits for a
    player, trains for minutes or needs the internet.
``<!-- doc-test: skip: REASON -->``
    Not run at all: what the tests cannot have (root for an install, several machines).

The first block of README.md (the install and this test suite, which CI runs as written) is
skipped. The counts of blocks run, parsed and skipped, per page, are printed at the end of the
run.
"""

from __future__ import annotations

import glob
import re
import shlex
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # real data: a minute or so a page

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(?:<!-- doc-test: (\S+): (.*?) -->\n)?```bash\n(.*?)^```", re.S | re.M)
MARKS = ("parse-only", "skip")

#: page -> {"run": n, "parse-only": n, "skip": n} (printed by tests/conftest.py)
COUNTS: dict[str, dict[str, int]] = {}
#: (page and block, command, seconds) of every command run or parsed
TIMES: list[tuple[str, str, float]] = []


def bash_blocks(path: Path) -> list[tuple[str, str, str]]:
    """``(mark, reason, text)`` of each bash block; mark ``"run"`` where none is given."""
    out = []
    for mark, reason, text in FENCE.findall(path.read_text(encoding="utf-8")):
        if mark and mark not in MARKS:
            raise AssertionError(f"{path.name}: unknown doc-test mark {mark!r}; known: {MARKS}")
        out.append((mark or "run", reason, text))
    return out


def commands(text: str) -> list[str]:
    """The block's commands: continuation lines joined, comments and blank lines dropped, a
    ``&&`` chain split into its parts."""
    joined = re.sub(r"\s*\\\n\s*", " ", text)
    out = []
    for line in joined.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line).strip()
        out += [part.strip() for part in line.split(" && ") if part.strip()]
    return out


def _vectors(folder: Path) -> None:
    """The vector files the pages name, cut from GloVe (its 20,000 most frequent words)."""
    from wordgames.embeddings import Embedding, load_embedding
    from wordgames.embeddings.writers import save_embedding

    glove = load_embedding("glove-6b-50d")
    words = list(glove.words[:20_000])
    small = Embedding(words, glove.vectors[:20_000], name="small")
    for name in ("my.vec", "a.vec", "b.vec", "A.txt", "B.txt", "vectors.txt", "my_vectors.txt",
                 "path/to/vectors.txt"):  # fmt: skip
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        save_embedding(small, folder / name)
    save_embedding(small, folder / "other.bin", format="word2vec-binary")


def _user_files(folder: Path) -> None:
    """A Codenames file of one's own, similarity pairs, and a CBM log, as the pages name them."""
    import gzip
    import json

    rows = []
    for i in range(40):  # boards of the game's words, a clue and the people's picks
        board = ["dog", "cat", "car", "tree", "ship", "bank", "bear", "fire"][i % 3 :][:6]
        rows.append({"kind": "receiver", "board": board, "clue": "animal", "chosen": board[:2]})
    (folder / "my_games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    pairs = ["cat\tdog\t8.5", "car\ttrain\t6.0", "tree\tcup\t0.5", "king\tqueen\t9.0"]
    (folder / "my_pairs.tsv").write_text("\n".join(pairs) + "\n")
    log = ROOT / "src/wordgames/reproductions/cbm/thing-qt-l1/messages.jsonl.gz"
    (folder / "messages.jsonl").write_bytes(gzip.decompress(log.read_bytes()))


def _takes_quick(args: list[str]) -> bool:
    """Whether the ``wordgames`` command ``args`` names has a ``--quick`` option."""
    import click
    import typer

    from wordgames.cli import app

    cmd = typer.main.get_command(app)
    for word in args:
        if not isinstance(cmd, click.Group) or word not in cmd.list_commands(None):
            break
        cmd = cmd.get_command(None, word)
    return any("--quick" in p.opts for p in getattr(cmd, "params", ()))


def _run(command: str, mark: str, env: dict, where: str) -> str:
    """Run (or parse) one ``wordgames`` command in process; a failure names the page's line.

    Returns ``""``, or why it could not run here: an optional extra this install lacks (a
    minimal install skips what needs one, with the reason).
    """
    from typer.testing import CliRunner

    from wordgames.cli import app

    args = shlex.split(command)
    if args[:2] == ["nice", "-n"]:  # a lower priority changes nothing of what runs
        args = args[3:]
    assert args[0] == "wordgames", f"{where}: only wordgames commands run here: {command!r}"
    # the shell's globbing, in the page's folder (a pattern matching nothing stays as it is)
    args = [x for a in args[1:] for x in (sorted(glob.glob(a)) if "*" in a else []) or [a]]
    if mark == "parse-only":
        args = [a for a in args if a != "--help"] + ["--help"]
    elif _takes_quick(args) and "--quick" not in args:
        args.append("--quick")
    start = time.perf_counter()
    r = CliRunner().invoke(app, args, env=env, terminal_width=200)
    TIMES.append((where, command, round(time.perf_counter() - start, 1)))
    extra = re.search(r"needs the optional package '[^']+'", r.output)
    if r.exit_code != 0 and extra:
        return extra.group(0)
    assert r.exit_code == 0, f"{where}: `{command}` exited {r.exit_code}:\n{r.output[-3000:]}"
    assert "Traceback" not in r.output, f"{where}: `{command}`:\n{r.output[-3000:]}"
    return ""


def _export(command: str, env: dict, data_root: Path) -> bool:
    """Apply ``export NAME=VALUE`` to ``env`` (the data root is always the test's)."""
    m = re.fullmatch(r"export (\w+)=(\S+)", command)
    if not m:
        return False
    env[m.group(1)] = str(data_root) if m.group(1) == "WORDGAMES_DATA" else m.group(2)
    return True


@pytest.mark.parametrize("doc", [d for d in DOCS if bash_blocks(d)], ids=lambda d: d.name)
def test_doc_bash_blocks_run(doc, tmp_path, monkeypatch, data_root):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    _vectors(tmp_path)
    _user_files(tmp_path)
    env = {"WORDGAMES_DATA": str(data_root), "WORDGAMES_CACHE": str(tmp_path / ".cache"),
           "COLUMNS": "200"}  # fmt: skip
    counts = COUNTS.setdefault(doc.name, dict.fromkeys(("run", *MARKS), 0))
    missing = []
    for i, (mark, reason, text) in enumerate(bash_blocks(doc), 1):
        if doc.name == "README.md" and i == 1:  # the install and the tests: CI runs them
            mark, reason = "skip", "the install (root) and this test suite; CI runs both"
        counts[mark] += 1
        if mark == "skip":
            assert reason, f"{doc.name}, bash block {i}: a skipped block says why"
            continue
        for command in commands(text):
            if not _export(command, env, data_root):
                why = _run(command, mark, env, f"{doc.name}, bash block {i}")
                missing += [f"`{command}`: {why}"] if why else []
    counts["not run (optional extra missing)"] = len(missing)
    if missing:
        pytest.skip(f"{doc.name}: the rest ran; {len(missing)} command(s) need: {missing}")


def test_the_parser_reads_marks_continuations_and_chains(tmp_path):
    page = tmp_path / "p.md"
    page.write_text(
        "text\n```bash\nwordgames a \\\n    --b 1   # a comment\n# only a comment\n"
        "wordgames c && wordgames d\n```\n"
        "<!-- doc-test: skip: needs root -->\n```bash\napt-get install x\n```\n",
        encoding="utf-8",
    )
    (run, _, text), (skip, reason, _) = bash_blocks(page)
    assert (run, skip, reason) == ("run", "skip", "needs root")
    assert commands(text) == ["wordgames a --b 1", "wordgames c", "wordgames d"]
    page.write_text("<!-- doc-test: later: x -->\n```bash\nwordgames\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="unknown doc-test mark 'later'"):
        bash_blocks(page)
