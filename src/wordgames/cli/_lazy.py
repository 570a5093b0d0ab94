"""Build the ``wordgames`` click command with its sub-apps converted only when used.

Typer turns every command of every sub-app into a click command up front, evaluating each
parameter's type hints: with ~60 commands that is most of the start-up time of
``wordgames --help``. Here the top-level commands are converted as usual and each sub-app
(``codenames``, ``wales``...) only when the command line names it; the top-level help lists
the sub-apps from their help strings without converting them.
"""

from __future__ import annotations


def lazy_command(app):
    """The click group of typer ``app`` with its sub-apps (typer groups) built on demand."""
    import click
    import typer.main as tm

    groups = list(app.registered_groups)
    lazy = {info.name: info for info in groups if info.name and info.typer_instance is not None}
    app.registered_groups = [g for g in groups if g.name not in lazy]
    try:
        root = tm.get_command(app)
    finally:
        app.registered_groups = groups
    built: dict[str, click.Command] = {}
    base_get, base_list = root.get_command, root.list_commands

    def get_command(ctx, name):
        if name in lazy:
            if name not in built:
                sub = lazy[name].typer_instance
                sub._add_completion = False  # completion is the top level's business
                cmd = tm.get_command(sub)
                cmd.name = name
                built[name] = cmd
            return built[name]
        return base_get(ctx, name)

    def list_commands(ctx):
        names = list(base_list(ctx))
        return names + [n for n in lazy if n not in names]

    def short_help(name, limit):
        info = lazy[name]
        text = info.help if isinstance(info.help, str) else None
        text = text or info.typer_instance.info.help
        text = text if isinstance(text, str) else ""
        return click.utils.make_default_short_help(text, limit)

    def format_commands(ctx, formatter):
        rows = []
        names = list_commands(ctx)
        limit = formatter.width - 6 - max((len(n) for n in names), default=0)
        for name in names:
            if name in lazy:
                rows.append((name, short_help(name, limit)))
                continue
            cmd = base_get(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    root.get_command = get_command
    root.list_commands = list_commands
    root.format_commands = format_commands
    return root
