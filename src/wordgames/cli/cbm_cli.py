"""`wordgames cbm` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

import typer

app = typer.Typer(help="Concept-Best-Matching and emergent-communication games.", no_args_is_help=True)
