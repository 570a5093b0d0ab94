"""`wordgames serve`: the web app where people play the games with the agents.

Heavy imports (fastapi, sqlalchemy, uvicorn) stay inside the command body so that
``wordgames --help`` stays fast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Serve the games to people: a web app where they play with the agents, "
    "every move stored in a database. Consent, instructions, trials with "
    "attention checks and a completion code; admin pages at /admin; "
    "GET /health. Migrates the database and sets up the studies first.",
    add_completion=False,
    pretty_exceptions_enable=False,
    subcommand_metavar="",
    no_args_is_help=False,
)


@app.callback(invoke_without_command=True)
def serve(
    study: Annotated[
        list[Path] | None,
        typer.Option(
            "--study",
            "-s",
            metavar="FILE",
            help="Study file (TOML/JSON, see docs/serve.md); repeat for several. Default: the "
            "built-in demo studies, one per game, or the one --game describes.",
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///FILE (default: a file beside the first study file, else "
            "./wordgames-study.db) or postgresql://USER:PASSWORD@HOST:PORT/DB."
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    workers: Annotated[
        int,
        typer.Option(
            help="Worker processes (they share only the database; use PostgreSQL for many)."
        ),
    ] = 1,
    admin_token: Annotated[
        str | None,
        typer.Option(
            envvar="WORDGAMES_ADMIN_TOKEN",
            help="Token of the admin pages (/admin), 16+ characters. Default: $WORDGAMES_ADMIN_TOKEN, "
            "else a random one, logged at start-up.",
        ),
    ] = None,
    game: Annotated[
        str | None,
        typer.Option(
            help="Instead of a file: one study of this game (codenames-receiver, codenames-sender, "
            "wiki, oddmanout, oddmanout-crowd)."
        ),
    ] = None,
    slug: Annotated[str | None, typer.Option(help="With --game: the study's URL name.")] = None,
    trials: Annotated[int, typer.Option(help="With --game: trials per participant.")] = 10,
    seed: Annotated[int, typer.Option(help="With --game: seed of every random choice.")] = 0,
    agent: Annotated[
        list[str] | None,
        typer.Option(
            "--agent",
            help="With --game codenames-*: agents balanced across participants "
            "(senders: cluster, exhaustive:avg_blue_dist...; receivers: nearest, "
            "random-receiver; any agent of `wordgames agents` that plays from an embedding, "
            "plug-ins' too; chat:MODEL); repeatable.",
        ),
    ] = None,
    completion_code: Annotated[str, typer.Option(help="With --game: completion code.")] = "",
    completion_url: Annotated[
        str,
        typer.Option(
            help="With --game: URL the participant is sent to at the end ({code} is replaced), "
            "e.g. https://app.prolific.com/submissions/complete?cc={code}."
        ),
    ] = "",
    secure_cookies: Annotated[
        bool, typer.Option(help="Mark cookies Secure (when served behind HTTPS).")
    ] = False,
    init_only: Annotated[
        bool,
        typer.Option("--init-only", help="Migrate the database and set up the studies, then exit."),
    ] = False,
):
    """Run the web app where people play the games with the agents.

    Consent, instructions, the game's trials with attention checks, a completion code; the admin
    pages at /admin; GET /health. Migrates the database and sets up the studies (boards, agents'
    clues, puzzles...) before it starts listening.
    """
    import logging
    import os
    import secrets

    from wordgames.cli.common import fail

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    log = logging.getLogger("wordgames.serve")
    try:
        configs = _configs(study, game, slug, trials, seed, agent, completion_code, completion_url)
        url = db or (
            f"sqlite:///{study[0].resolve().with_suffix('.db')}"
            if study
            else "sqlite:///wordgames-study.db"
        )
        configs = _setup(url, configs)  # those set up: the rest were left out, named
    except Exception as exc:  # WordgamesError, config and database errors: one clear line
        from wordgames.errors import WordgamesError

        if (
            not isinstance(exc, WordgamesError | ValueError | OSError)
            and type(exc).__module__.split(".")[0] != "sqlalchemy"
        ):
            raise
        fail(str(exc))
    log.info("studies set up: %s", ", ".join(c.slug for c in configs))
    if init_only:
        return
    token = admin_token or secrets.token_urlsafe(24)
    if len(token) < 16:
        fail("--admin-token needs at least 16 characters")
    if admin_token is None:
        log.info("admin token (set WORDGAMES_ADMIN_TOKEN to choose one): %s", token)
    log.info(
        "serving %s on http://%s:%d/ (admin: /admin)",
        ", ".join(c.slug for c in configs),
        host,
        port,
    )
    os.environ.update(
        {
            "WORDGAMES_SERVE_DB": url,
            "WORDGAMES_SERVE_ADMIN_TOKEN": token,
            "WORDGAMES_SERVE_SECURE": "1" if secure_cookies else "0",
        }
    )
    _run_uvicorn(host, port, workers)


def _run_uvicorn(host: str, port: int, workers: int) -> None:
    """Run uvicorn on the app factory.

    Several workers share one listening socket bound here with ``IPPROTO_TCP``: the socket
    uvicorn binds itself has protocol 0, so asyncio leaves Nagle's algorithm on for its
    connections and a page sent in two writes waits ~40 ms for a delayed ACK.
    """
    import socket

    import uvicorn

    app_ref = "wordgames.serve.app:create_app_from_env"
    if workers <= 1:
        uvicorn.run(
            app_ref, factory=True, host=host, port=port, log_level="warning", access_log=False
        )
        return
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config(
        app_ref,
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
        access_log=False,
    )
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    Multiprocess(config, sockets=[sock]).run()


def _configs(study, game, slug, trials, seed, agent, code, url) -> list:
    from wordgames.serve.config import builtin_studies, load_study_file, study_from_dict

    if study and game:
        raise ValueError("give study files (--study) or --game, not both")
    if game:
        data = {
            "slug": slug or game,
            "game": game,
            "trials": trials,
            "seed": seed,
            "pool_size": max(trials, 40 if game != "oddmanout-crowd" else trials),
            "completion_code": code,
            "completion_url": url,
        }
        if agent and game.startswith("codenames"):
            key = "agents" if game == "codenames-receiver" else "feedback_agents"
            data["codenames"] = {key: list(agent)}
        if game == "oddmanout-crowd":
            builtin = load_study_file(
                next(p for p in builtin_studies() if p.stem == "oddmanout-crowd")
            )
            data["oddmanout"] = builtin.oddmanout
            data["pool_size"] = trials
        return [study_from_dict(data, source="command-line options")]
    return [load_study_file(p) for p in (study or builtin_studies())]


def _setup(url: str, configs: list) -> list:
    """Migrate the database, then set up each study; the studies set up.

    A study whose data is missing is skipped with a message when the built-in demos are served;
    an explicit study must work. With none set up, the error says how to get the data.
    """
    import logging

    from wordgames.datasets.registry import FETCH_COMMAND
    from wordgames.errors import DatasetMissingError
    from wordgames.serve.db import Database, migrate
    from wordgames.serve.store import init_study

    log = logging.getLogger("wordgames.serve")
    db = Database(url)
    try:
        rev = migrate(db)
        log.info(
            "database %s at schema revision %s",
            db.engine.url.render_as_string(hide_password=True),
            rev,
        )
        done = []
        for cfg in configs:
            try:
                init_study(db, cfg)
                done.append(cfg)
            except DatasetMissingError as exc:
                if len(configs) == 1:
                    raise
                log.warning("study %s left out: %s", cfg.slug, exc)
        if not done:
            raise ValueError(
                f"nothing to serve: none of the {len(configs)} studies could be set up, the data "
                f"they need is missing (named above); get it with `{FETCH_COMMAND}` or point "
                "$WORDGAMES_DATA at a data root"
            )
        return done
    finally:
        db.dispose()
