"""`wordgames similarity` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

import typer

app = typer.Typer(help="similarity commands.", no_args_is_help=True)
