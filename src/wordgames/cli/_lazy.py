"""Build the ``wordgames`` click command: one plain help style, sub-apps converted only when used.

Typer turns every command of every sub-app into a click command up front, evaluating each
parameter's type hints: with ~60 commands that is most of the start-up time of
``wordgames --help``. Here the top-level commands are converted as usual and each sub-app
(``codenames``, ``wales``...) only when the command line names it; the top-level help lists
the sub-apps from their help strings without converting them.

One help style, plain click help, for every command (the decision of issue 10). Rich's help
renderer adds 0.05-0.1 s of imports to a ``wordgames --help`` that takes ~0.1 s without them
(budget: 0.3 s, on a loaded machine too), and plain text reads the same in a pipe, a log or
under ``NO_COLOR``. Sub-apps are therefore
built with the top level's markup mode (typer would otherwise give a lazily built sub-app its
own default, rich), exactly as ``typer.main.get_command(app)`` builds them.

Typer (0.2x) shows each value's Python type in the help (``--seed <int>``,
``-e <list[str]>``); :func:`plain_metavars` gives every parameter without a metavar a click
style one instead (``INTEGER``, ``TEXT``, ``PATH``, ``[a|b]``), so no Python type hint reaches
a user whatever a command module declares.
"""

from __future__ import annotations

import inspect
import types
from enum import Enum

import typer.main as tm
from typer.core import TyperGroup

#: click-style metavars of the Python types typer would show as ``<int>``, ``<str>``...
_TYPE_METAVARS = {int: "INTEGER", float: "FLOAT", str: "TEXT", bool: "BOOLEAN"}


def _metavar(param) -> str | None:
    """A click-style metavar for ``param`` from its typer type descriptor (``None``: keep)."""
    desc = getattr(param, "type_descriptor", None)
    if desc is None:  # not a typer parameter (or an older typer that shows click's names)
        return None
    if desc.is_choice:
        values = [str(c.value) if isinstance(c, Enum) else str(c) for c in desc.choices or ()]
        return "[" + "|".join(values) + "]"
    if desc.is_path:
        return {"file": "FILE", "dir": "FOLDER"}.get(desc.path_type, "PATH")
    annotation = desc.annotation
    args = getattr(annotation, "__args__", ())
    if desc.is_list and len(args) == 1:
        annotation = args[0]
    if desc.is_tuple:
        return " ".join(_TYPE_METAVARS.get(a, "VALUE") for a in args)
    if getattr(annotation, "__name__", "") == "Path":
        return "PATH"
    return _TYPE_METAVARS.get(annotation, "VALUE")


def plain_metavars(cmd) -> None:
    """Give every parameter of ``cmd`` and of its sub-commands a click-style metavar.

    Options keep the metavar they declare; flags get none. Arguments are shown by their
    name (their metavar) without typer's type suffix. Idempotent.
    """
    if getattr(cmd, "_wordgames_plain", False):
        return
    cmd._wordgames_plain = True
    for param in cmd.params:
        if getattr(param, "param_type_name", "") == "argument":
            if hasattr(param, "display_type_rich"):
                param.display_type_rich = _no_type
            continue
        if param.metavar is None and not getattr(param, "is_flag", False):
            param.metavar = _metavar(param)
    subs = getattr(cmd, "commands", None)
    if subs is not None and not isinstance(cmd, WordgamesGroup):
        # a sub-group lists its commands as the top level does
        cmd.format_commands = types.MethodType(_format_commands, cmd)
    for sub in (subs or {}).values():
        plain_metavars(sub)


def _no_type(ctx=None):
    return None


def _short_help_of(group, ctx, name: str) -> str | None:
    """The first sentence of command ``name``'s help (``None``: hidden or unknown)."""
    cmd = group.get_command(ctx, name)
    if cmd is None or cmd.hidden:
        return None
    return first_sentence(cmd.short_help or cmd.help)


def _format_commands(group, ctx, formatter) -> None:
    """The "Commands" section: each command's first sentence, whole (wrapped), never cut."""
    short = getattr(group, "short_help_of", None) or types.MethodType(_short_help_of, group)
    rows = [(n, short(ctx, n)) for n in group.list_commands(ctx)]
    rows = [(n, h) for n, h in rows if h is not None]
    if rows:
        with formatter.section("Commands"):
            formatter.write_dl(rows)


class WordgamesGroup(TyperGroup):
    """The top-level group: every command it hands out has plain, click-style metavars.

    Used as ``typer.Typer(cls=WordgamesGroup)``, so ``typer.main.get_command(app)`` (tests,
    ``CliRunner``) and the console entry point (:func:`lazy_command`) show the same help.
    """

    def get_command(self, ctx, cmd_name):
        cmd = super().get_command(ctx, cmd_name)
        if cmd is not None:
            plain_metavars(cmd)
        return cmd

    def format_help(self, ctx, formatter):
        plain_metavars(self)
        super().format_help(ctx, formatter)

    def short_help_of(self, ctx, name: str) -> str | None:
        """The first sentence of command ``name``'s help (``None``: hidden or unknown)."""
        return _short_help_of(self, ctx, name)

    def format_commands(self, ctx, formatter):
        _format_commands(self, ctx, formatter)


def first_sentence(text: str | None) -> str:
    r"""The first sentence of a help text (its first paragraph when it has no full stop).

    Examples
    --------
    >>> first_sentence("List data sets. Each with its files.\n\nMore.")
    'List data sets.'
    >>> first_sentence("No full stop here\n\nsecond paragraph")
    'No full stop here'
    """
    paragraph = " ".join(inspect.cleandoc(text or "").split("\n\n", 1)[0].split())
    words = paragraph.split(" ")
    for i, word in enumerate(words):
        if word.endswith("."):
            return " ".join(words[: i + 1])
    return paragraph


def _build_group(app, info):
    """The click group of sub-app ``info``, built as ``typer.main.get_command(app)`` builds it."""
    kwargs = {
        "pretty_exceptions_short": app.pretty_exceptions_short,
        "rich_markup_mode": app.rich_markup_mode,
        "suggest_commands": getattr(app, "suggest_commands", True),
    }
    accepted = inspect.signature(tm.get_group_from_info).parameters
    group = tm.get_group_from_info(info, **{k: v for k, v in kwargs.items() if k in accepted})
    plain_metavars(group)
    return group


def lazy_command(app):
    """The click group of typer ``app`` with its sub-apps (typer groups) built on demand."""
    groups = list(app.registered_groups)
    lazy = {info.name: info for info in groups if info.name and info.typer_instance is not None}
    app.registered_groups = [g for g in groups if g.name not in lazy]
    try:
        root = tm.get_command(app)
    finally:
        app.registered_groups = groups
    plain_metavars(root)
    built: dict = {}
    base_get, base_list = root.get_command, root.list_commands
    base_short = root.short_help_of

    def get_command(ctx, name):
        if name in lazy:
            if name not in built:
                built[name] = _build_group(app, lazy[name])
            return built[name]
        return base_get(ctx, name)

    def list_commands(ctx):
        names = list(base_list(ctx))
        return names + [n for n in lazy if n not in names]

    def short_help_of(ctx, name):
        if name not in lazy:
            return base_short(ctx, name)
        info = lazy[name]
        text = info.help if isinstance(info.help, str) else None
        text = text or info.typer_instance.info.help
        return first_sentence(text if isinstance(text, str) else "")

    root.get_command = get_command
    root.list_commands = list_commands
    root.short_help_of = short_help_of
    return root
