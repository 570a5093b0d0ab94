"""Writing files so that a folder someone sent you cannot redirect the writes.

Every file the store, the report and ``run -o`` write goes through :func:`atomic_target`: the
data is written to a fresh temporary file that this process created itself (``O_EXCL``, so never
a link planted under a guessable name) in the destination's folder, then renamed onto the
destination. A rename replaces a symbolic link at the destination; it never writes through it.
Inside a folder being written (:func:`confine`), a destination whose folder resolves outside it
(a planted link to a folder elsewhere) is refused.

Temporary files end in :data:`TMP_SUFFIX` and carry the writer's process id, so that a store
removes only the leftovers it made (:func:`is_own_temporary`).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from wordgames.errors import WordgamesError

#: the ending of every temporary file written here (nothing else is ever cleaned up)
TMP_SUFFIX = ".wgtmp"

_ROOTS: contextvars.ContextVar[tuple[Path, ...]] = contextvars.ContextVar(
    "wordgames_write_roots", default=()
)

__all__ = [
    "TMP_SUFFIX",
    "UnsafePathError",
    "atomic_target",
    "check_inside",
    "confine",
    "is_own_temporary",
    "save_figure",
    "write_bytes_atomic",
    "write_text_atomic",
]


class UnsafePathError(WordgamesError):
    """A write or a read would follow a link out of the folder it belongs to."""


@contextlib.contextmanager
def confine(root: str | Path) -> Iterator[Path]:
    """Refuse, inside the block, writes under ``root`` whose folder resolves outside it."""
    root = Path(os.path.abspath(root))
    token = _ROOTS.set((*_ROOTS.get(), root))
    try:
        yield root
    finally:
        _ROOTS.reset(token)


def check_inside(path: str | Path, root: str | Path) -> Path:
    """``path``, or :class:`UnsafePathError` when it resolves outside ``root`` (a link out).

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> (d / "out").symlink_to(tempfile.mkdtemp())
    >>> check_inside(d / "a.json", d).name
    'a.json'
    >>> try:
    ...     check_inside(d / "out" / "a.json", d)
    ... except UnsafePathError as exc:
    ...     print("refused:", "through a symbolic link" in str(exc))
    refused: True
    """
    path, root = Path(path), Path(root)
    real_root = root.resolve()
    real = path.resolve()
    if real != real_root and real_root not in real.parents:
        raise UnsafePathError(
            f"{path} leads out of {root} through a symbolic link: refused (a results folder "
            "from elsewhere may hold links planted to overwrite your files)"
        )
    return path


def _check_confined(path: Path) -> None:
    absolute = Path(os.path.abspath(path))
    for root in _ROOTS.get():
        if absolute == root or root in absolute.parents:
            check_inside(absolute.parent, root)


def current_umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux).

    >>> 0 <= current_umask() <= 0o777
    True
    """
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:  # elsewhere: set and restore it (under a lock: it is the process's)
        old = os.umask(0o022)
        os.umask(old)
    return old


_UMASK_LOCK = threading.Lock()


@contextlib.contextmanager
def atomic_target(path: str | Path) -> Iterator[Path]:
    """A fresh temporary file beside ``path``, renamed onto ``path`` when the block succeeds.

    A reader never sees half a file; a link at ``path`` is replaced, never written through; on an
    error (a full disk, a read-only folder) the temporary file is removed and
    :class:`~wordgames.errors.WordgamesError` names ``path``.
    """
    path = Path(path)
    _check_confined(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _check_confined(path)  # mkdir may have followed a link planted meanwhile
        fd, name = tempfile.mkstemp(
            prefix=f".{path.name[:80]}.{os.getpid()}.", suffix=TMP_SUFFIX, dir=path.parent
        )
        try:  # mkstemp makes it 0600: the file a user asked for follows their umask
            os.fchmod(fd, 0o666 & ~current_umask())
        finally:
            os.close(fd)
    except OSError as exc:
        raise WordgamesError(f"cannot write {path}: {exc.strerror or exc}") from None
    tmp = Path(name)
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise WordgamesError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_bytes_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through :func:`atomic_target` (flushed to disk); returns it."""
    with atomic_target(path) as tmp, open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    return Path(path)


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through :func:`atomic_target`; returns it."""
    return write_bytes_atomic(path, text.encode("utf-8"))


def save_figure(fig, path: str | Path, **kwargs) -> Path:
    """``fig.savefig`` through :func:`atomic_target` (the format from ``path``'s suffix)."""
    path = Path(path)
    kwargs.setdefault("format", path.suffix.lstrip(".").lower() or "png")
    with atomic_target(path) as tmp:
        fig.savefig(tmp, **kwargs)
    return path


def is_own_temporary(path: Path) -> int | None:
    """The writer's process id when ``path`` is a temporary file made here, else None.

    >>> is_own_temporary(Path(".results.json.4242.k2j3h_a" + TMP_SUFFIX))
    4242
    >>> is_own_temporary(Path(".notes.tmp")) is None
    True
    """
    name = path.name
    if not (name.startswith(".") and name.endswith(TMP_SUFFIX)):
        return None
    parts = name[: -len(TMP_SUFFIX)].rsplit(".", 2)
    return int(parts[-2]) if len(parts) == 3 and parts[-2].isdigit() else None
