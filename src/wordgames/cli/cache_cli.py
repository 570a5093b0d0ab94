"""`wordgames cache`: what the response cache holds, and dropping a model's answers.

Heavy imports stay inside the command bodies.
"""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(
    help="The response cache of model answers: show it, drop a model's answers.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.command("info")
def info():
    """Where the response cache is, how many answers it holds, and what was wrong with it."""
    from wordgames.cli.common import console
    from wordgames.llm.cache import ResponseCache

    cache = ResponseCache()
    con = console()
    con.print(f"{cache.path}: {len(cache):,} answer(s)", markup=False, highlight=False)
    for problem in cache.problems:
        con.print(f"warning: {problem}", markup=False, highlight=False)


@app.command("drop")
def drop(
    subject: Annotated[
        str, typer.Argument(metavar="chat:MODEL|embed:MODEL", help="The subject whose answers go.")
    ],
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", metavar="URL", help="Its server (default: $OPENAI_BASE_URL)."),
    ] = None,
):
    """Forget every cached answer of one model on one server (the next run asks again)."""
    from wordgames.cli.common import console, fail
    from wordgames.errors import WordgamesError
    from wordgames.llm.cache import ResponseCache
    from wordgames.llm.client import server_url

    kind, _, model = subject.partition(":")
    if kind not in ("chat", "embed") or not model:
        fail(f"expected chat:MODEL or embed:MODEL, got {subject!r}")
    try:
        url = server_url(base_url, subject)
    except WordgamesError as exc:
        fail(str(exc))
    cache = ResponseCache()
    if cache.read_only:
        fail(f"the response cache {cache.path} cannot be written: nothing dropped")
    n = cache.drop(model, url)
    console().print(f"dropped {n:,} cached answer(s) of {model} from {url} ({cache.path})",
                    markup=False, highlight=False)  # fmt: skip
