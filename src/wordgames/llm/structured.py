"""Structured answers: a JSON schema for each kind of question, so an answer is legal by construction.

A server that constrains its output (OpenAI's ``response_format`` with a JSON schema, vLLM's
guided decoding, Ollama's ``format``, llama.cpp's grammars behind ``response_format`` with a
``schema``) is given the schema of the question's :attr:`~wordgames.subjects.Question.form`:
Odd-Man-Out's answer is one of the five words or ``none`` and a short category; a WALES step one
of the page's links; a Codenames ranking the board's words; guesses up to the number asked; a
clue a word (never a board word, which the reader still checks) and a number. The JSON reply is
turned back into the plain answer the game's reader reads (:func:`structured_text`), so one
reader serves free and structured answers, and a structured answer is counted as read by the
rule ``structured``.

:func:`probe_request` is the one question :meth:`~wordgames.llm.client.ChatClient.answer_mode`
asks a server before any work to learn which flavour, if any, it honours.

This module imports nothing heavy.
"""

from __future__ import annotations

import json

from wordgames.errors import WordgamesError
from wordgames.subjects import AnswerError, Question

#: the flavours of ``response_format``, in the order they are tried: OpenAI's (vLLM, Ollama and
#: hosted servers), then llama.cpp's (``json_object`` with a ``schema``)
FLAVOURS = ("json_schema", "json_object")
#: the ``--answers`` choices: free text, structured (an error when the server has none), auto
MODES = ("free", "structured", "auto")


def _enum(values) -> dict:
    return {"type": "string", "enum": [str(v) for v in values]}


def answer_schema(question: Question) -> dict | None:
    """The JSON schema of an answer to ``question`` (``None``: the question has no form).

    >>> q = Question("wales", "navigator", {"links": ("A", "B")}, form="choice")
    >>> answer_schema(q)["properties"]["answer"]["enum"]
    ['A', 'B']
    """
    f, form = question.fields, question.form
    if form == "choice":
        props = {"answer": _enum(f["links"] if "links" in f else f["options"])}
    elif form == "word-category":
        props = {"word": _enum([*f["words"], "none"]),
                 "category": {"type": "string", "maxLength": 60}}  # fmt: skip
    elif form == "ranking":
        n = len(f["board"])
        props = {"ranking": {"type": "array", "items": _enum(f["board"]), "minItems": n,
                             "maxItems": n}}  # fmt: skip
    elif form == "guesses":
        props = {"guesses": {"type": "array", "items": _enum(f["board"]), "minItems": 1,
                             "maxItems": int(f["number"])}}  # fmt: skip
    elif form == "clues":
        clue = {"type": "object", "properties": {
            "clue": {"type": "string", "pattern": "^[a-z][a-z'-]{0,29}$"},
            "number": {"type": "integer", "minimum": 0, "maximum": 9}},
            "required": ["clue", "number"], "additionalProperties": False}  # fmt: skip
        k = int(f["n_clues"])
        props = {"clues": {"type": "array", "items": clue, "minItems": k, "maxItems": k}}
    elif not form:
        return None
    else:
        raise WordgamesError(f"no schema for a question of form {form!r}")
    return {"type": "object", "properties": props, "required": list(props),
            "additionalProperties": False}  # fmt: skip


def response_format(schema: dict, flavour: str) -> dict:
    """The request's ``response_format`` for ``schema`` in a server's ``flavour``."""
    if flavour == "json_schema":
        return {"type": "json_schema",
                "json_schema": {"name": "answer", "schema": schema, "strict": True}}  # fmt: skip
    if flavour == "json_object":
        return {"type": "json_object", "schema": schema}
    raise WordgamesError(f"no structured-output flavour {flavour!r}; known: {', '.join(FLAVOURS)}")


def structured_text(question: Question, reply: str) -> str:
    r"""The plain answer a structured ``reply`` stands for, as the game's reader reads it.

    >>> q = Question("oddmanout", "solver", {"words": ("a", "b")}, form="word-category")
    >>> structured_text(q, '{"word": "b", "category": "letters"}')
    'b: letters'
    >>> structured_text(Question("c", "sender", {"n_clues": 1}, form="clues"),
    ...                 '{"clues": [{"clue": "pet", "number": 2}]}')
    'pet 2'
    """
    try:
        obj = json.loads(reply)
    except (json.JSONDecodeError, TypeError):
        raise AnswerError(f"the structured answer {str(reply)[:80]!r} is not JSON") from None
    if not isinstance(obj, dict):
        raise AnswerError(f"the structured answer {str(reply)[:80]!r} is not a JSON object")
    form = question.form
    try:
        if form == "choice":
            return str(obj["answer"])
        if form == "word-category":
            cat = str(obj.get("category") or "").strip()
            return f"{obj['word']}: {cat}" if cat else str(obj["word"])
        if form in ("ranking", "guesses"):
            return "\n".join(map(str, obj[form]))
        if form == "clues":
            return "\n".join(f"{c['clue']} {c['number']}" for c in obj["clues"])
    except (KeyError, TypeError) as exc:
        raise AnswerError(f"the structured answer lacks {exc}: {str(reply)[:80]!r}") from None
    return str(reply)


#: the question the server is probed with: a server that honours the schema can only answer
#: one of two made-up words; one that ignores it names a colour
PROBE_OPTIONS = ("zorvex", "quillam")


def probe_request(flavour: str) -> dict:
    """The probe's chat request (messages and ``response_format``) in ``flavour``."""
    q = Question("probe", "probe", {"options": PROBE_OPTIONS}, form="choice")
    return {
        "messages": [{"role": "user", "content": "Name a colour."}],
        "response_format": response_format(answer_schema(q), flavour),
        "max_tokens": 16,
        "temperature": 0.0,
    }


def probe_passes(reply: str) -> bool:
    """Whether the probe's reply is one of its options as the schema says."""
    q = Question("probe", "probe", {"options": PROBE_OPTIONS}, form="choice")
    try:
        return structured_text(q, reply) in PROBE_OPTIONS
    except AnswerError:
        return False
