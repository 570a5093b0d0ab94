"""A results store that lets an interrupted run resume and several runs merge.

One JSON file per result, keyed by (embedding content hash, measure, measure version,
parameters). Writes go to a temporary file that is fsync'ed and renamed, so a run killed at
any point (even by SIGKILL) leaves every file either complete or absent: nothing already
written is lost, and nothing is half-written or duplicated. Resuming is a lookup of keys.

Layout::

    <root>/records/<embedding sha[:16]>/<measure>/<version>-<params sha[:16]>.json
    <root>/quarantine/...        records that could not be read, moved aside (then recomputed)
    <root>/locks/<key>.lock      one lock per unit while it is computed (two runs on one store)

Faults lose nothing: a record that is not valid JSON (a disk that filled, a copy cut short) is
moved to ``quarantine/`` with a warning naming it and its unit is computed again; temporary
files left by writers that died are removed when a run opens the store; two runs on one store
take a per-unit lock, so the second waits for the first's result and reuses it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from wordgames.results import SCHEMA_VERSION, jsonable, read_json, write_json_atomic
from wordgames.results.schema import check_record, check_result  # noqa: F401 (re-exported)
from wordgames.safeio import atomic_target, confine

log = logging.getLogger("wordgames.store")


def params_hash(params: dict) -> str:
    """Stable hash of a parameter mapping (key order does not matter)."""
    blob = json.dumps(jsonable(params), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


@dataclass(frozen=True)
class ResultKey:
    """What identifies a result: the same key means the same numbers."""

    embedding_sha256: str
    measure: str
    version: str
    params_sha256: str

    def relpath(self) -> Path:
        return (
            Path("records")
            / self.embedding_sha256[:16]
            / self.measure
            / f"{self.version}-{self.params_sha256[:16]}.json"
        )


def _load_record(path: Path) -> dict:
    """The record in the file ``path``, checked; ``ValueError`` (or a decoding error) says why not.

    A link or anything but a plain file is refused (never followed out of its store); a record
    of the current schema must validate (:func:`check_record`); one of an older schema is
    returned as it is (it is recomputed, never misread).
    """
    if path.is_symlink() or not path.is_file():
        raise ValueError("a symbolic link or not a plain file: refused")
    entry = read_json(path)
    if not isinstance(entry, dict):
        raise ValueError("not a JSON object")
    if entry.get("schema_version", 1) == SCHEMA_VERSION:
        check_record(entry)
    return entry


class ResultStore:
    """A folder of results, one atomic JSON file per :class:`ResultKey`.

    >>> import tempfile
    >>> store = ResultStore(tempfile.mkdtemp())
    >>> key = ResultKey("e" * 64, "toy", "1", params_hash({"seed": 0}))
    >>> store.has(key)
    False
    >>> result = {"measure": "toy", "version": "1", "notes": ["a"]}
    >>> _ = store.put(key, result, embedding={"name": "e"}, params={"seed": 0})
    >>> store.get(key)["result"]["notes"]
    ['a']
    """

    def __init__(self, root: str | Path):
        self.root = Path(root)
        self.quarantined: list[str] = []  # records moved aside by this object, in words

    def path(self, key: ResultKey) -> Path:
        return self.root / key.relpath()

    def has(self, key: ResultKey) -> bool:
        return self.get(key) is not None

    def get(self, key: ResultKey) -> dict | None:
        """The stored entry, or ``None`` when absent or written by an older schema.

        Results of an older schema lack typed scores: they are recomputed, never misread.
        """
        p = self.path(key)
        if not p.is_file():
            return None
        entry = self._read(p)
        if entry is None or entry.get("schema_version", 1) != SCHEMA_VERSION:
            return None
        return entry

    def _read(self, path: Path) -> dict | None:
        """A record, or ``None`` after moving an unreadable one to ``quarantine/``."""
        try:
            return _load_record(path)
        except (ValueError, UnicodeDecodeError) as exc:
            dest = self.root / "quarantine" / f"{path.relative_to(self.root)}.{time.time_ns()}"
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, dest)
            what = f"{path}: not a readable record ({exc}); moved to {dest}, recomputed"
            self.quarantined.append(what)
            log.warning("%s", what)
            return None

    @contextlib.contextmanager
    def lock(self, key: ResultKey, timeout: float = -1):
        """Hold the lock of one unit (other runs on this store wait for it)."""
        from filelock import FileLock

        folder = self.root / "locks"
        folder.mkdir(parents=True, exist_ok=True)
        name = f"{key.embedding_sha256[:16]}-{key.measure}-{key.version}-{key.params_sha256[:16]}"
        with FileLock(str(folder / f"{name}.lock"), timeout=timeout):
            yield

    def clean_temporary(self) -> int:
        """Remove the store's own temporary files left by writers that died; returns how many.

        Only files named by :mod:`wordgames.safeio` (``.NAME.PID.XXXX.wgtmp``) in the store's
        folder and its ``records/`` are touched: nobody else's ``*.tmp`` is ever deleted.
        """
        from wordgames.safeio import TMP_SUFFIX, is_own_temporary

        removed = 0
        own = [*self.root.glob(f".*{TMP_SUFFIX}"), *self.root.glob(f"records/*/*/.*{TMP_SUFFIX}")]
        for tmp in own:
            pid = is_own_temporary(tmp)
            if pid is None or tmp.is_symlink() or _alive(pid):
                continue  # a running writer (this machine): its file is still being written
            tmp.unlink(missing_ok=True)
            removed += 1
        if removed:
            log.info("removed %d temporary file(s) left by writers that died", removed)
        return removed

    def check_writable(self) -> None:
        """Fail before any work when the store's folder cannot be written."""
        import os
        import tempfile

        from wordgames.errors import WordgamesError

        self.check_links()
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=".write-check-", dir=self.root)
            os.close(fd)
            os.unlink(name)
        except OSError as exc:
            raise WordgamesError(
                f"cannot write to the output folder {self.root}: {exc.strerror or exc}"
            ) from None

    def check_links(self) -> None:
        """Refuse a store whose own folders hold a link to a folder (writes would follow it).

        A results folder someone sent you may link ``plots/`` or ``records/`` anywhere; a link
        to a file is harmless (every write replaces it) and a record that is a link is
        quarantined when read.
        """
        from wordgames.safeio import UnsafePathError

        for name in ("records", "plots", "quarantine", "locks"):
            top = self.root / name
            if top.is_symlink():
                raise UnsafePathError(f"{top} is a symbolic link: refused (the store writes there)")
            for folder, dirs, _ in os.walk(top):  # os.walk does not follow links
                for d in dirs:
                    if (Path(folder) / d).is_symlink():
                        raise UnsafePathError(
                            f"{Path(folder) / d} is a symbolic link: refused (the store "
                            "writes there)"
                        )

    def put(self, key: ResultKey, result: dict, *, embedding: dict, params: dict) -> Path:
        entry = {
            "schema_version": SCHEMA_VERSION,
            "key": {
                "embedding_sha256": key.embedding_sha256,
                "measure": key.measure,
                "version": key.version,
                "params_sha256": key.params_sha256,
            },
            "embedding": embedding,
            "params": params,
            "result": result,
        }
        with confine(self.root):
            return write_json_atomic(self.path(key), entry)

    def __iter__(self) -> Iterator[dict]:
        rec = self.root / "records"
        if not rec.is_dir():
            return iter(())
        return (
            e
            for e in (self._read(p) for p in sorted(rec.glob("*/*/*.json")))
            if e is not None and e.get("schema_version", 1) == SCHEMA_VERSION
        )

    def read_only(self) -> tuple[list[tuple[Path, dict]], int]:
        """Every record of the current schema with its file, read without moving anything.

        For readers of a folder that is not theirs (``wordgames report``): a record that cannot
        be read raises :class:`~wordgames.errors.DataFormatError` naming the file (where
        :meth:`__iter__` would set it aside and recompute it). Returns the records and how many
        of an older schema were left out.
        """
        from wordgames.errors import DataFormatError

        rec = self.root / "records"
        out, old = [], 0
        for p in sorted(rec.glob("*/*/*.json")) if rec.is_dir() else ():
            if p.is_symlink():  # a folder from elsewhere may link to any file of yours
                raise DataFormatError(p, None, "a symbolic link: refused (results are plain files)")
            try:
                entry = _load_record(p)
            except json.JSONDecodeError as exc:
                raise DataFormatError(p, exc.lineno, f"not valid JSON ({exc.msg})") from None
            except UnicodeDecodeError as exc:
                raise DataFormatError(p, None, f"not UTF-8 text ({exc.reason})") from None
            except OSError as exc:
                raise DataFormatError(p, None, f"cannot read it ({exc.strerror or exc})") from None
            except ValueError as exc:
                raise DataFormatError(
                    p, None, f"expected a store entry with 'key', 'embedding', 'params' and "
                    f"'result': {exc}",
                ) from None  # fmt: skip
            if entry.get("schema_version", 1) != SCHEMA_VERSION:
                old += 1
            else:
                out.append((p, entry))
        return out, old

    def __len__(self) -> int:
        rec = self.root / "records"
        return sum(1 for _ in rec.glob("*/*/*.json")) if rec.is_dir() else 0

    def merge_from(self, other: str | Path | ResultStore, *, overwrite: bool = False) -> int:
        """Copy the results of another store into this one; returns how many were added.

        Results are keyed by the embedding's content (sha256), so two different embeddings
        under one name are both kept; :meth:`name_clashes` lists such names, and
        :meth:`table` and the report tell them apart by a short sha256 suffix.
        """
        other = other if isinstance(other, ResultStore) else ResultStore(other)
        added = 0
        for src in sorted((other.root / "records").glob("*/*/*.json")):
            dst = self.root / src.relative_to(other.root)
            if dst.exists() and not overwrite:
                continue
            try:
                _load_record(src)
            except (ValueError, UnicodeDecodeError, OSError) as exc:
                # the other store is left as it is; its bad record is not copied
                what = f"{src}: not a readable record ({exc}); not merged"
                self.quarantined.append(what)
                log.warning("%s", what)
                continue
            with atomic_target(dst) as tmp:
                shutil.copyfile(src, tmp)
            added += 1
        return added

    def name_clashes(self) -> dict[str, list[str]]:
        """Embedding names shared by different embeddings: name -> their sha256, sorted.

        Examples
        --------
        >>> import tempfile
        >>> store = ResultStore(tempfile.mkdtemp())
        >>> toy = {"measure": "toy", "version": "1"}
        >>> for sha in ("a" * 64, "b" * 64):
        ...     _ = store.put(ResultKey(sha, "toy", "1", "p" * 64), toy, embedding={"name": "g"},
        ...                   params={})
        >>> {k: [s[:4] for s in v] for k, v in store.name_clashes().items()}
        {'g': ['aaaa', 'bbbb']}
        """
        shas: dict[str, set[str]] = {}
        for entry in self:
            key = entry["key"]
            name = entry["embedding"].get("name", key["embedding_sha256"][:12])
            shas.setdefault(name, set()).add(key["embedding_sha256"])
        return {n: sorted(s) for n, s in sorted(shas.items()) if len(s) > 1}

    def table(self):
        """Every Score row of the store as a long pandas DataFrame.

        Returns
        -------
        pandas.DataFrame
            Columns: subject, subject_sha256, measure, dataset, agent, partner, metric,
            value, ci_low, ci_high, n, n_skipped, n_oov, n_unread, skip_reason, coverage, thin,
            thin_reason. The subject is its name, with the first 8 hex digits of its sha256
            appended when different subjects share the name (after a merge): no subject hides
            another (:func:`wordgames.results.rows.embedding_labels`). Entries of an older
            schema are left out (see :meth:`get`); rows stored before the three names
            (``embedding``, ``subject``) are read in today's (:meth:`Score.from_dict`).

        Examples
        --------
        >>> import tempfile
        >>> store = ResultStore(tempfile.mkdtemp())
        >>> from wordgames.measure import Score
        >>> row = Score("e", "toy", "", "", "a", 1.0).as_dict()
        >>> _ = store.put(ResultKey("e" * 64, "toy", "1", "p" * 64),
        ...               {"measure": "toy", "version": "1", "scores": [row]},
        ...               embedding={"name": "e"}, params={})
        >>> store.table()[["subject", "measure", "metric", "value"]].values.tolist()
        [['e', 'toy', 'a', 1.0]]
        """
        import pandas as pd

        from wordgames.measure import ThinPolicy
        from wordgames.results.rows import embedding_labels, result_scores, stamp_thin

        cols = [
            "subject",
            "subject_sha256",
            "measure",
            "dataset",
            "agent",
            "partner",
            "metric",
            "value",
            "ci_low",
            "ci_high",
            "n",
            "n_skipped",
            "n_oov",
            "n_unread",
            "skip_reason",
            "coverage",
            "thin",
            "thin_reason",
        ]
        entries = list(self)
        names = [
            (
                str(e["embedding"].get("name", e["key"]["embedding_sha256"][:12])),
                e["key"]["embedding_sha256"],
            )
            for e in entries
        ]
        labels = embedding_labels(names)
        rows = []
        for entry, name in zip(entries, names, strict=True):
            key = entry["key"]
            pairs = "partner" in (entry.get("params") or {})  # a measure of pairs' unit
            scores = result_scores(entry["result"], key["measure"], pairs=pairs)
            # rows stored before the thin flag existed are judged by the same rule as the report
            stamp_thin(entry["result"].get("scores") or (), scores, ThinPolicy())
            for s in scores:
                rows.append(
                    {
                        "subject": labels[name],
                        "subject_sha256": key["embedding_sha256"],
                        "measure": key["measure"],
                        "dataset": s.dataset,
                        "agent": s.agent,
                        "partner": s.partner,
                        "metric": s.metric,
                        "value": s.value,
                        "ci_low": s.ci_low,
                        "ci_high": s.ci_high,
                        "n": s.n,
                        "n_skipped": s.n_skipped,
                        "n_oov": s.n_oov,
                        "n_unread": s.n_unread,
                        "skip_reason": s.skip_reason,
                        "coverage": s.coverage,
                        "thin": s.thin,
                        "thin_reason": s.thin_reason,
                    }
                )
        return pd.DataFrame(rows, columns=cols)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    return True
