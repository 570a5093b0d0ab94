"""``wordgames run -m FAMILY --tables`` prints the family command's own tables (issue 42).

The family command runs first into a results store; ``run`` then reuses its result (the same
parameters: no record is added) and prints the measure's tables with the printer declared in
the entry-point group ``wordgames.tables``, which the family command calls too. The block
under ``run``'s "MEASURE: its tables" rule must stand, line for line, in the family command's
output.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from wordgames.cli import app
from wordgames.cli.family_tables import print_family_tables, printers

SMALL = "glove-6b-50d-top10k"

#: measure -> (the family command, run's arguments giving the same parameters)
CASES = {
    "codenames": (["codenames", "evaluate", "--quick"], ["--quick"]),
    "oddmanout": (["oddmanout", "evaluate", "--quick"], ["--quick", "-O", "oddmanout.wordnet=true"]),
    "similarity": (["similarity", "evaluate", "--quick"], ["--quick"]),
    "global-metrics": (["similarity", "global-metrics"], []),
    "wales": (["wales", "evaluate", "--quick"], ["--quick"]),
    "codenames-selfplay": (["codenames", "selfplay", "--quick"], ["--quick"]),
}  # fmt: skip


def _invoke(args, data_root):
    r = CliRunner().invoke(
        app, args, env={"WORDGAMES_DATA": str(data_root)}, terminal_width=160,
        catch_exceptions=False,
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    return [line.rstrip() for line in r.output.splitlines()]


def _block(lines: list[str], measure: str) -> list[str]:
    """The lines under run's ``MEASURE: its tables`` rule, up to the next rule or skip line."""
    start = next(i for i, ln in enumerate(lines) if f" {measure}: its tables " in ln) + 1
    end = next(
        (i for i in range(start, len(lines)) if ": its tables " in lines[i]
         or lines[i].startswith("skipped ")),
        len(lines),
    )  # fmt: skip
    return lines[start:end]


def _records(root) -> int:
    return len(list((root / "records").rglob("*.json")))


def test_every_built_in_printer_is_declared_and_tested():
    assert set(printers()) == set(CASES)


@pytest.mark.parametrize("measure", list(CASES))
def test_run_prints_the_family_commands_tables(measure, tmp_path, data_root):
    family, same = CASES[measure]
    store = tmp_path / "store"
    own = _invoke([*family, "-e", SMALL, "-o", str(store)], data_root)
    kept = _records(store)
    out = _invoke(
        ["run", "-e", SMALL, "-m", measure, *same, "--no-people", "--tables", "-q",
         "-o", str(store)], data_root,
    )  # fmt: skip
    assert _records(store) == kept, "run computed again: not the family command's parameters"
    block = _block(out, measure)
    assert len(block) >= 3, out  # a table: its title or header, a rule, rows
    first = own.index(block[0])
    assert own[first : first + len(block)] == block


def test_without_tables_run_prints_none(tmp_path, data_root):
    out = _invoke(["run", "-e", SMALL, "-m", "global-metrics", "-o", str(tmp_path)], data_root)
    assert not [ln for ln in out if ": its tables " in ln]


def test_a_failing_printer_is_named_and_the_others_still_print(monkeypatch):
    import io

    import numpy as np
    from rich.console import Console

    import wordgames
    from wordgames.cli import family_tables
    from wordgames.embeddings import Embedding

    class Broken:
        value = "plug:broken"

        def load(self):
            def broken(con, res):
                raise ValueError("no table today")

            return broken

    fine = family_tables.printers()["global-metrics"]
    monkeypatch.setattr(
        family_tables, "printers", lambda: {"similarity": Broken(), "global-metrics": fine}
    )
    emb = Embedding(["a", "b", "c"], np.eye(3), name="eye")
    res = wordgames.evaluate(emb, ["global-metrics"])
    res.results = [*res.results, type(res.results[0])("similarity", "1", subject="eye")]
    buf = io.StringIO()
    done = print_family_tables(Console(file=buf, width=120), res)
    text = buf.getvalue()
    assert done == ["global-metrics"]
    assert "the tables of similarity could not be printed" in text and "no table today" in text
    assert "eye" in text.split("global-metrics: its tables")[1]
