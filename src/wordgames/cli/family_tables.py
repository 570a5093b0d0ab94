"""The family tables that ``wordgames run --tables`` prints: one printer per measure, declared once.

A measure's console tables (Codenames' per-data-set agent tables, Odd-Man-Out's Table 3, the
similarity benchmarks, WALES' task tables, the self-play matrix) are printed by one function,
``printer(console, results)``, declared under the measure's name in the entry-point group
``wordgames.tables``: the built-ins in wordgames' own ``pyproject.toml``, a plug-in in its own
(no file of wordgames changes). The family command (``wordgames codenames evaluate``) and
``wordgames run -m codenames --tables`` call the same printer on the same stored results, so
the two print the same tables. A printer reads what it shows from the results (their declared
tables and Score rows, their recorded parameters), never from the command line.
"""

from __future__ import annotations

import dataclasses
import functools

#: the entry-point group of the printers, by measure name
GROUP = "wordgames.tables"


@functools.cache
def printers() -> dict:
    """``{measure name: entry point}`` of every declared printer (loaded when used)."""
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=GROUP)}


def print_family_tables(con, res) -> list[str]:
    """Print each measure's tables of ``res``, in the order the measures ran.

    Returns the names of the measures whose tables were printed. A measure without a printer
    prints nothing here (its headline scores are in the summary). A printer that fails is
    named with its error, and the others still print.
    """
    from wordgames.textio import literal

    done = []
    for name in dict.fromkeys(r.measure for r in res.results):
        ep = printers().get(name)
        if ep is None:
            continue
        part = dataclasses.replace(res, results=[r for r in res.results if r.measure == name])
        con.rule(literal(f"{name}: its tables"))
        try:
            ep.load()(con, part)
        except Exception as exc:  # a plug-in's printer: say so, print the rest
            con.print(
                f"[red]the tables of {literal(name)} could not be printed[/] "
                f"({literal(ep.value)}: {literal(type(exc).__name__)}: {literal(str(exc))})",
                highlight=False,
                soft_wrap=True,
            )
            continue
        done.append(name)
    return done
