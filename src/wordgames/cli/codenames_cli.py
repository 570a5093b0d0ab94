"""`wordgames codenames` commands. Heavy imports stay inside the command bodies."""

from __future__ import annotations

import typer

app = typer.Typer(help="codenames commands.", no_args_is_help=True)
