"""Measure options written as text: ``-O codenames.receivers=nearest,random-receiver``.

The command line is generated from the declarations: every field of a measure's options
dataclass (built-in or plug-in) is settable as ``MEASURE.FIELD=VALUE``, read by the field's
type hint (:func:`parse_value`) and checked by :meth:`~wordgames.measure.Measure.make_options`.
:func:`option_rows` lists them with their type, default and the numpydoc description of the
options class, for ``wordgames options``.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
import types
import typing
from typing import Any

from wordgames.measure import OptionError, _hint_name, _literals

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NONE = {"none", "null", ""}


def parse_value(text: str, hint: Any) -> Any:
    """The value ``text`` stands for under the type ``hint`` (``make_options`` checks it).

    Lists are comma-separated; ``none`` (or nothing) is ``None`` where the hint allows it; a
    ``dict`` is JSON.

    Parameters
    ----------
    text : str
        What follows ``=`` in ``-O MEASURE.OPTION=VALUE``.
    hint : type hint
        The option field's.

    Returns
    -------
    object
        The value; a text that fits no arm of the hint is returned as it is, for
        :meth:`~wordgames.measure.Measure.make_options` to refuse with the expected type.

    Raises
    ------
    ValueError
        A number, a boolean or JSON that does not parse.

    Examples
    --------
    >>> parse_value("nearest,random-receiver", tuple[str, ...] | None)
    ('nearest', 'random-receiver')
    >>> parse_value("none", int | None), parse_value("3", int | None), parse_value("0.5", float)
    (None, 3, 0.5)
    >>> parse_value("0", int | str | None), parse_value("<eos>", int | str | None)
    (0, '<eos>')
    >>> parse_value("yes", bool), parse_value("[]", tuple[str, ...])
    (True, ())
    """
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        arms = typing.get_args(hint)
        if type(None) in arms and text.strip().lower() in _NONE:
            return None
        for arm in (a for a in arms if a is not type(None)):
            try:
                return parse_value(text, arm)
            except ValueError:
                continue
        return text
    if origin is typing.Literal:
        for value in typing.get_args(hint):
            if str(value) == text:
                return value
        return text  # make_options names the choices, with a "did you mean"
    if origin is tuple or origin is list:
        if text.strip() in ("", "[]", "()"):
            return ()
        arm = (typing.get_args(hint) or (str,))[0]
        return tuple(parse_value(part.strip(), arm) for part in text.split(","))
    if hint is bool:
        low = text.strip().lower()
        if low in _TRUE | _FALSE:
            return low in _TRUE
        raise ValueError(text)
    if hint is int:
        return int(text)
    if hint is float:
        return float(text)
    if origin is dict or hint is dict:
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"expected a JSON object: {exc}") from None
    return text


def parse_options(items, measures) -> dict[str, dict[str, Any]]:
    """``{measure: {field: value}}`` from ``MEASURE.FIELD=VALUE`` texts (``-O``), checked.

    Parameters
    ----------
    items : sequence of str
        ``MEASURE.OPTION=VALUE`` texts.
    measures : sequence of Measure
        The records that can be named.

    Returns
    -------
    dict
        ``{measure name: {option: typed value}}``, ready for ``evaluate(options=...)``.

    Raises
    ------
    OptionError
        An unknown measure or option, a value of the wrong type, an option given twice: the
        known names are given, with a "did you mean".

    Examples
    --------
    >>> from wordgames.registry import get_measure
    >>> parse_options(["similarity.oov=fixed", "similarity.oov_similarity=0.25"],
    ...               [get_measure("similarity")])
    {'similarity': {'oov': 'fixed', 'oov_similarity': 0.25}}
    >>> parse_options(["similarty.oov=fixed"], [get_measure("similarity")])
    Traceback (most recent call last):
    ...
    wordgames.measure.OptionError: -O similarty.oov=fixed: no measure 'similarty' (did you mean 'similarity'?); known: similarity
    >>> parse_options(["similarity.oov=fixd"], [get_measure("similarity")])
    Traceback (most recent call last):
    ...
    wordgames.measure.OptionError: option similarity.oov: expected one of 'skip', 'fixed', got 'fixd' (did you mean 'fixed'?)
    """
    by_name = {m.name: m for m in measures}
    out: dict[str, dict[str, Any]] = {}
    for item in items or ():
        key, sep, text = str(item).partition("=")
        name, dot, field = key.strip().rpartition(".")
        if not sep or not dot or not name or not field:
            raise OptionError(f"-O {item}: expected MEASURE.OPTION=VALUE")
        m = by_name.get(name)
        if m is None:
            raise OptionError(f"-O {item}: no measure {name!r}{_close(name, by_name)}; known: "
                              f"{', '.join(by_name)}")  # fmt: skip
        hints = typing.get_type_hints(m.options)
        if field not in hints:
            raise OptionError(f"-O {item}: measure {name!r} has no option {field!r}"
                              f"{_close(field, hints)}; known: {', '.join(m.option_names())}")  # fmt: skip
        given = out.setdefault(name, {})
        if field in given:
            raise OptionError(f"-O {item}: {name}.{field} is given twice")
        try:
            given[field] = parse_value(text, hints[field])
        except ValueError:
            raise OptionError(
                f"-O {item}: expected {_hint_name(hints[field])}, got {text!r}"
            ) from None
        m.make_options(given)  # the field's type and choices, checked now
    return out


def _close(word: str, known) -> str:
    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def option_rows(measure) -> list[dict]:
    """One row per option of ``measure``, as ``wordgames options`` lists them.

    Parameters
    ----------
    measure : Measure

    Returns
    -------
    list of dict
        Each row: ``name`` (``MEASURE.FIELD``), ``type``, ``default`` (as ``-O`` writes it),
        ``choices`` and ``description`` (the options class's numpydoc).

    Examples
    --------
    >>> from wordgames.registry import get_measure
    >>> row = option_rows(get_measure("similarity"))[2]
    >>> row["name"], row["choices"], row["default"]
    ('similarity.oov', 'skip, fixed', 'skip')
    """
    if measure.options is None:
        return []
    hints = typing.get_type_hints(measure.options)
    docs = parameter_docs(measure.options.__doc__ or "")
    rows = []
    for f in dataclasses.fields(measure.options):
        default = f.default if f.default is not dataclasses.MISSING else None
        if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            default = f.default_factory()  # type: ignore[misc]
        rows.append({
            "name": f"{measure.name}.{f.name}",
            "type": _hint_name(hints[f.name]),
            "default": text_of(default),
            "choices": ", ".join(str(v) for v in _literals(hints[f.name])),
            "description": docs.get(f.name, ""),
        })  # fmt: skip
    return rows


def text_of(value) -> str:
    """``value`` as ``-O`` takes it back (lists comma-separated, ``None`` as ``none``).

    >>> text_of(None), text_of(("a", "b")), text_of(()), text_of(True), text_of(0.5)
    ('none', 'a,b', '()', 'true', '0.5')
    """
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(text_of(v) for v in value) if value else "()"
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


_SECTION = re.compile(r"^\s*Parameters\s*\n\s*-{3,}\s*$", re.MULTILINE)


def parameter_docs(doc: str) -> dict[str, str]:
    """``{name: description}`` from a numpydoc ``Parameters`` section (``a, b : type`` too).

    Examples
    --------
    >>> parameter_docs('''Options.
    ...
    ... Parameters
    ... ----------
    ... oov : str
    ...     What to do with
    ...     a missing word.
    ... a, b : int
    ...     Two of them.
    ... ''')
    {'oov': 'What to do with a missing word.', 'a': 'Two of them.', 'b': 'Two of them.'}
    """
    found = _SECTION.search(doc)
    if not found:
        return {}
    lines = doc[found.end() :].splitlines()
    indent = None
    out, names, text = {}, [], []

    def flush():
        for n in names:
            out[n] = " ".join(text).strip()

    for line in lines:
        if not line.strip():
            continue
        lead = len(line) - len(line.lstrip())
        if indent is None:
            indent = lead
        if lead < indent or re.match(r"^\s*-{3,}\s*$", line):
            break  # the next section
        if lead == indent:
            if re.match(r"^\s*\w[\w ]*$", line) and names:  # a section title after the list
                break
            flush()
            names = [n.strip() for n in line.split(":")[0].split(",") if n.strip()]
            text = []
        else:
            text.append(line.strip())
    flush()
    return out
