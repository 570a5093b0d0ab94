"""The plain JSONL / CSV format in which users bring their own human Codenames play.

JSONL: one JSON object per line (blank lines are skipped), each a receiver or a sender record::

    {"kind": "receiver", "board": ["dog", "ice cream", "bank"], "clue": "pet",
     "chosen": ["dog"], "clue_source": "human"}
    {"kind": "sender", "blue": ["dog", "cat"], "red": ["bank"], "clue": "pet",
     "targets": ["dog", "cat"], "number": 2}

Receiver keys: ``board``, ``clue``, ``chosen`` (required); ``clue_source``, ``number``,
``intended``, ``blue``, ``red``, ``neutral``, ``assassin``, ``id``, ``meta``, ``count``
(optional). Sender keys: ``blue``, ``clue`` and the words to avoid (required: ``red``, or
``neutral``/``assassin`` where the board has no opponent, as in Codenames Duet); ``targets``,
``number``, ``clue_source``, ``id``, ``meta``, ``count`` (optional). ``red`` is the opponent's
words, or every word to avoid when the data does not tell opponent from neutral words.
A sender line may give ``"red": []`` where the board has no other words to avoid.
``count`` (a positive integer, default 1) is how many people made exactly this decision: a file
of aggregated choices gives one line per distinct decision with its count, and every mean
weights the line by it.

CSV: a header row with the same names (``kind`` and ``clue`` required); list fields hold the
words separated by ``|`` (board words may contain spaces); empty cells mean "absent"; ``meta``
is not available in CSV. Every word is stripped and lower-cased.

:func:`write_user_jsonl` writes any loaded data set so that :func:`read_user_file` reads it
back equal: every field, ``count`` and ``meta`` (``meta`` gains ``line``, the line it was read
from, where it had none).
"""

from __future__ import annotations

import json
from pathlib import Path

from wordgames.codenames.human_data._common import norm, norm_all, read_csv_rows
from wordgames.codenames.records import HumanReceiverRecord, HumanSenderRecord, LoadedHumanData
from wordgames.datasets import sha256_file
from wordgames.errors import DataFormatError

RECEIVER_REQUIRED = ("board", "clue", "chosen")
SENDER_REQUIRED = ("blue", "clue")
#: a sender record needs words to avoid: at least one of these, not empty
SENDER_AVOID = ("red", "neutral", "assassin")
LIST_FIELDS = ("board", "chosen", "intended", "blue", "red", "neutral", "assassin", "targets")
KNOWN = set(LIST_FIELDS) | {"kind", "clue", "clue_source", "number", "id", "meta", "count"}
LIST_SEP = "|"


def read_user_file(path: str | Path, *, dataset: str | None = None) -> LoadedHumanData:
    """Read a user's human-play file: the JSONL/CSV format above, or a paper table's layout.

    A paper table is recognised from the CSV/TSV header: ``Initial model`` for Table 2, ``BWord1``
    for Table 3.

    Parameters
    ----------
    path : ``.jsonl``/``.json`` (JSON lines) or ``.csv``/``.tsv``
    dataset : name put in the records (default ``user:<file name>``)

    Raises
    ------
    DataFormatError : naming the file, the line and what was expected
    """
    path = Path(path)
    name = dataset or f"user:{path.name}"
    if not path.is_file():
        raise DataFormatError(path, None, "no such file")
    if path.suffix.lower() in (".jsonl", ".json", ".ndjson"):
        data = LoadedHumanData(dataset=name, files={path.name: sha256_file(path)})
        _read_jsonl(path, data)
        return data
    if path.suffix.lower() not in (".csv", ".tsv", ".txt"):
        raise DataFormatError(path, None, "expected a .jsonl, .csv or .tsv file")
    from wordgames.codenames.human_data.paper_tables import (
        detect_delimiter,
        read_receiver_table,
        read_sender_table,
    )

    delimiter = detect_delimiter(path)
    rows = read_csv_rows(path, delimiter=delimiter)
    if not rows:
        raise DataFormatError(path, 1, "empty file: expected a header row")
    header = [c.strip() for c in rows[0][1]]
    lowered = [c.lower() for c in header]
    if "initial model" in lowered:
        return read_receiver_table(path, dataset=dataset)
    if "bword1" in lowered:
        return read_sender_table(path, dataset=dataset)
    data = LoadedHumanData(dataset=name, files={path.name: sha256_file(path)})
    _read_csv(path, header, rows[1:], data)
    return data


def _record_from_dict(path: Path, line: int, obj: dict, data: LoadedHumanData):
    if not isinstance(obj, dict):
        raise DataFormatError(path, line, "expected a JSON object per line")
    kind = obj.get("kind")
    unknown = set(obj) - KNOWN
    if unknown:
        raise DataFormatError(
            path,
            line,
            f"unknown key(s) {', '.join(sorted(unknown))}; "
            f"expected some of {', '.join(sorted(KNOWN))}",
        )
    if kind not in ("receiver", "sender"):
        raise DataFormatError(path, line, f"'kind' must be 'receiver' or 'sender', found {kind!r}")
    required = RECEIVER_REQUIRED if kind == "receiver" else SENDER_REQUIRED
    missing = [k for k in required if obj.get(k) in (None, "", [])]
    if kind == "sender" and "red" not in obj and not any(obj.get(k) for k in SENDER_AVOID):
        missing.append("red (or neutral/assassin: the words to avoid)")
    if missing:
        raise DataFormatError(path, line, f"{kind} record without {', '.join(missing)}")
    lists = {}
    for k in LIST_FIELDS:
        v = obj.get(k)
        if v is None:
            continue
        if isinstance(v, str) or not isinstance(v, list | tuple):
            raise DataFormatError(path, line, f"'{k}' must be a list of words, found {v!r}")
        lists[k] = norm_all(v)
    number = _integer(path, line, obj, "number", least=None)
    count = _integer(path, line, obj, "count", least=1)
    rid = str(obj.get("id") or f"{path.name}:{line}")
    meta = obj.get("meta") or {}
    meta = {"line": line, **meta} if isinstance(meta, dict) else {"meta": meta, "line": line}
    clue = norm(obj["clue"])
    if kind == "receiver":
        board = lists["board"]
        if not set(lists["chosen"]) <= set(board):
            raise DataFormatError(path, line, "every 'chosen' word must be on the 'board'")
        data.receiver.append(
            HumanReceiverRecord(
                dataset=data.dataset,
                record_id=rid,
                board=board,
                clue=clue,
                chosen=lists["chosen"],
                clue_source=str(obj.get("clue_source") or "unknown"),
                number=number,
                intended=lists.get("intended", ()),
                blue=lists.get("blue", ()),
                red=lists.get("red", ()),
                neutral=lists.get("neutral", ()),
                assassin=lists.get("assassin", ()),
                meta=meta,
                count=1 if count is None else count,
            )
        )
    else:
        targets = lists.get("targets", ())
        if not set(targets) <= set(lists["blue"]):
            raise DataFormatError(path, line, "every 'targets' word must be a 'blue' word")
        data.sender.append(
            HumanSenderRecord(
                dataset=data.dataset,
                record_id=rid,
                blue=lists["blue"],
                red=lists.get("red", ()),
                clue=clue,
                targets=targets,
                number=number if number is not None else (len(targets) or None),
                neutral=lists.get("neutral", ()),
                assassin=lists.get("assassin", ()),
                clue_source=str(obj.get("clue_source") or "human"),
                meta=meta,
                count=1 if count is None else count,
            )
        )


def _integer(path: Path, line: int, obj: dict, key: str, least: int | None) -> int | None:
    """``obj[key]`` as an integer (``None`` when absent), at least ``least``."""
    value = obj.get(key)
    if value in (None, ""):
        return None
    try:
        if isinstance(value, bool) or float(value) != int(float(value)):
            raise ValueError
        out = int(float(value))
    except (TypeError, ValueError):
        raise DataFormatError(path, line, f"'{key}' must be an integer, found {value!r}") from None
    if least is not None and out < least:
        raise DataFormatError(path, line, f"'{key}' must be at least {least}, found {out}")
    return out


def _read_jsonl(path: Path, data: LoadedHumanData) -> None:
    with open(path, encoding="utf-8") as fh:
        for line, text in enumerate(fh, start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise DataFormatError(
                    path, line, f"invalid JSON ({exc.msg}): expected one JSON object per line"
                ) from exc
            _record_from_dict(path, line, obj, data)


def _read_csv(path: Path, header: list[str], rows, data: LoadedHumanData) -> None:
    unknown = set(header) - KNOWN - {""}
    if "kind" not in header or "clue" not in header or unknown:
        raise DataFormatError(
            path,
            1,
            "expected a header naming 'kind', 'clue' and some of "
            f"{', '.join(sorted(KNOWN - {'meta'}))}"
            + (f"; unknown: {', '.join(sorted(unknown))}" if unknown else ""),
        )
    for line, row in rows:
        if not any(c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise DataFormatError(path, line, f"expected {len(header)} fields, found {len(row)}")
        obj = {}
        for k, v in zip(header, row, strict=True):
            v = v.strip()
            if not k or v == "":
                continue
            obj[k] = [w for w in v.split(LIST_SEP)] if k in LIST_FIELDS else v
        _record_from_dict(path, line, obj, data)


def write_user_jsonl(data: LoadedHumanData, path: str | Path) -> Path:
    """Write the records of ``data`` in the user JSONL format.

    The inverse of :func:`read_user_file`: every field, ``count`` (written where it is not 1)
    and ``meta`` (its values must be JSON-serialisable; tuples come back as lists) read back
    equal. The lists to avoid of a sender record are written even when empty where the record
    has none at all, so that the line stays a valid sender record.
    """
    path = Path(path)
    with open(path, "w", encoding="utf-8") as fh:
        for r in data.receiver:
            fh.write(json.dumps(_receiver_obj(r), ensure_ascii=False) + "\n")
        for s in data.sender:
            fh.write(json.dumps(_sender_obj(s), ensure_ascii=False) + "\n")
    return path


def _compact(obj: dict, meta: dict, count: int) -> dict:
    out = {k: v for k, v in obj.items() if v not in (None, [])}
    if count != 1:
        out["count"] = int(count)
    if meta:
        out["meta"] = meta
    return out


def _receiver_obj(r: HumanReceiverRecord) -> dict:
    obj = {
        "kind": "receiver",
        "id": r.record_id,
        "board": list(r.board),
        "clue": r.clue,
        "chosen": list(r.chosen),
        "clue_source": r.clue_source,
        "number": r.number,
        "intended": list(r.intended),
        "blue": list(r.blue),
        "red": list(r.red),
        "neutral": list(r.neutral),
        "assassin": list(r.assassin),
    }
    return _compact(obj, dict(r.meta or {}), r.count)


def _sender_obj(s: HumanSenderRecord) -> dict:
    obj = {
        "kind": "sender",
        "id": s.record_id,
        "blue": list(s.blue),
        "red": list(s.red),
        "clue": s.clue,
        "targets": list(s.targets),
        "number": s.number,
        "neutral": list(s.neutral),
        "assassin": list(s.assassin),
        "clue_source": s.clue_source,
    }
    out = _compact(obj, dict(s.meta or {}), s.count)
    if not s.avoid:
        out["red"] = []
    return out
