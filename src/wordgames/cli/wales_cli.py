"""`wordgames wales` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

import typer

app = typer.Typer(help="wales commands.", no_args_is_help=True)
