"""User text on the console is printed as text: rich markup in a file never breaks or styles
the output, and bad input gives a message, not a traceback."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from wordgames.cli import app


@pytest.mark.parametrize("tag", ["[bold]", "[red]X", "[link=x]"])
def test_markup_in_a_bad_file_is_printed_literally(tmp_path, data_root, tag):
    bad = tmp_path / f"{tag}mine.jsonl"  # the message names the file: markup and all
    record = {"kind": "receiver", "board": ["a", "b"], "clue": "c", "chosen": ["zz"]}
    bad.write_text(json.dumps(record) + "\n", encoding="utf-8")
    r = CliRunner().invoke(
        app,
        [
            "codenames",
            "evaluate",
            "--file",
            str(bad),
            "--data-root",
            str(data_root),
            "-o",
            str(tmp_path / "out"),
        ],
        terminal_width=200,
    )
    assert r.exit_code == 1
    assert f"{tag}mine.jsonl,line1:" in "".join(r.output.split())  # wrapped lines joined
    assert "Traceback" not in r.output and "MarkupError" not in r.output


def test_markup_in_an_error_message_is_literal(tmp_path):
    bad = tmp_path / "[bold]vec.txt"
    bad.write_text("2 3\n[/] 1 2 3\nb 1 2\n", encoding="utf-8")
    r = CliRunner().invoke(
        app,
        ["run", "-e", str(bad), "-m", "global-metrics", "-o", str(tmp_path / "out")],
        terminal_width=200,
    )
    assert r.exit_code == 2
    assert "[bold]vec.txt,line3:" in "".join(r.output.split())  # wrapped lines joined
    assert "Traceback" not in r.output


def test_a_truncated_embedding_is_said_on_the_console_and_in_the_results(tmp_path, monkeypatch):
    from tests._toy_measures import ENTRIES

    monkeypatch.setenv("WORDGAMES_EXTRA_MEASURES", ENTRIES)
    vec = tmp_path / "cut.txt"  # the header promises 6 rows, 3 follow: a cut-off download
    vec.write_text("6 3\ndog 1 0 0\ncat 0 1 0\n[red]x[/red] 0 0 1\n", encoding="utf-8")
    out = tmp_path / "out"
    r = CliRunner().invoke(
        app, ["run", "-e", str(vec), "-m", "toy1", "-o", str(out)], terminal_width=300
    )
    assert r.exit_code == 0, r.output
    said = " ".join(r.output.split())
    assert "warning: embeddings: cut: the header promises 6 rows but the file holds 3" in said
    record = json.loads((out / "results.json").read_text(encoding="utf-8"))
    (emb,) = record["embeddings"]
    assert emb["load_report"]["repairs"] == {"header_count_mismatch": 3}
    assert "truncated?" in emb["load_report"]["repair_lines"][0]


NASTY = ["chat:m:", "[bold]x[/]", "[/]", "a\x1b[31mred\x1b[0m", "b\x07\r\x00\x7f\u202e"]


def _printed(*lines, terminal=False) -> str:
    import io

    from wordgames.cli.common import console
    from wordgames.cli.tables import print_table
    from wordgames.textio import literal

    out = io.StringIO()
    con = console(file=out, width=200, force_terminal=terminal)
    for name in lines:
        con.print(f"[bold]subject[/] {literal(name)}", highlight=False)
    print_table(con, ["name", "n"], [[literal(x), "1"] for x in lines])
    return out.getvalue()


@pytest.mark.parametrize("terminal", [False, True])
def test_every_user_string_prints_as_given(terminal):
    """Issue 44: one helper (``wordgames.textio.literal``) and the console print a name as
    given: no emoji code read, no markup applied, and a control character shown as its
    escape (an escape sequence in a name can neither colour nor clear the terminal)."""
    from wordgames.textio import visible

    text = _printed(*NASTY, terminal=terminal)
    plain = text if not terminal else __import__("re").sub(r"\x1b\[[0-9;]*m", "", text)
    for name in NASTY:
        assert f"subject {visible(name)}\n" in plain  # the line, exactly
        assert f"│ {visible(name)}" in plain  # the table's cell
    assert "Ⓜ" not in text and "\x07" not in text and "\x00" not in text and "\r" not in text
    assert "\u202e" not in text and "\\u202e" in text
    # a terminal gets only the console's own style codes: none from a name
    assert "\x1b[31m" not in text and "\\x1b[31mred" in plain


def test_a_chat_subject_named_m_prints_as_chat_m(tmp_path):
    """Issue 44's must-show: ``wordgames run -e chat:m --base-url ... --dry-run`` prints
    ``chat:m`` (before: ``chat`` and an emoji, ``:m:`` read as an emoji code)."""
    from tests.llm.misbehaving_server import MisbehavingServer

    with MisbehavingServer("ok") as srv:
        args = ["run", "-e", "chat:m", "--base-url", srv.base_url, "-m", "oddmanout",
                "--quick", "--dry-run", "-o", str(tmp_path / "out")]  # fmt: skip
        r = CliRunner().invoke(app, args, env={"COLUMNS": "200",
                                               "WORDGAMES_CACHE": str(tmp_path / "c")})  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "  missing: chat:m: oddmanout\n" in r.output and "│ chat:m  │ oddmanout │" in r.output
    assert "chat:m: 0 answer(s) already in the response cache" in r.output
    assert "Ⓜ" not in r.output and srv.posts == 0  # a dry run sends nothing
