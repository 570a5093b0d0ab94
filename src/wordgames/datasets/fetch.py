"""Getting the declared data sets: each file from its pinned upstream address or a mirror.

``wordgames datasets fetch`` calls :func:`fetch_dataset`. Every file is downloaded into a
hidden ``.<name>.part`` beside its place, checked against its declared sha256 (and size), and
only then renamed into place, so a reader never sees half a file. A cut download keeps its
part and the next attempt asks for the rest (an HTTP ``Range`` request; a server that ignores
it sends the whole file again). A file whose checksum differs is refused and deleted, part and
all. Nothing here runs unless a user asks: no command fetches data on its own.

Where the bytes come from:

- ``mirror`` (``--mirror URL`` or ``$WORDGAMES_MIRROR``): a folder laid out as a data root
  (``<mirror>/<data set folder>/<file>``), served over ``http(s)://`` or given as a local path
  (``file://``). A lab behind a firewall serves one; the tests serve a copy of the shared data.
- otherwise each file's declared ``url``: the same bytes upstream, pinned to a commit. Files
  that were converted or derived from upstream (``derived/...``, the WALES TSVs made from
  pickles) have none; they are named as needing a mirror.
"""

from __future__ import annotations

import http.client
import os
import socket
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.parse import quote, urlsplit, urlunsplit
from urllib.request import Request, urlopen

from wordgames.datasets.registry import data_root, get_dataset, sha256_file
from wordgames.errors import FetchError

#: the environment variable naming a mirror (what ``--mirror`` sets for one command)
MIRROR_ENV = "WORDGAMES_MIRROR"
#: seconds without a byte from the server before an attempt is given up
DEFAULT_TIMEOUT = 30.0
#: attempts per file (a cut connection resumes; 404 and a wrong checksum are not retried)
DEFAULT_ATTEMPTS = 4
_CHUNK = 1 << 16
#: HTTP answers worth another attempt (a busy or restarting server)
_RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass
class FileFetch:
    """What happened to one file: ``fetched``, ``present`` (already intact) or ``failed``."""

    path: str
    status: str
    bytes: int = 0
    source: str = ""
    resumed_from: int = 0
    replaced_damaged: bool = False
    reason: str = ""


@dataclass
class DatasetFetch:
    """The outcome of :func:`fetch_dataset` for one data set."""

    name: str
    folder: Path
    files: list[FileFetch] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(f.status != "failed" for f in self.files)

    def count(self, status: str) -> int:
        return sum(f.status == status for f in self.files)


class Progress:
    """What :func:`fetch_dataset` reports while it downloads (the CLI draws a bar from it)."""

    def start(self, label: str, total: int | None, done: int) -> None:
        """A file's download starts: ``total`` bytes (``None``: unknown), ``done`` already kept."""

    def advance(self, n: int) -> None:
        """``n`` more bytes arrived."""

    def end(self) -> None:
        """The file's download ended (in success or not)."""


def shown(url: str) -> str:
    """``url`` without a user name or password, as every message prints it.

    Examples
    --------
    >>> shown("https://lab:s3cret@mirror.example.org/data/")
    'https://mirror.example.org/data/'
    """
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))


def mirror_base(mirror: str) -> str:
    """The mirror as a URL ending in ``/``: a local folder becomes a ``file://`` URL.

    Raises :class:`~wordgames.errors.FetchError` for another scheme.

    Examples
    --------
    >>> mirror_base("http://127.0.0.1:8000")
    'http://127.0.0.1:8000/'
    >>> mirror_base("/srv/wordgames-data")
    'file:///srv/wordgames-data/'
    """
    scheme = urlsplit(mirror).scheme.lower()
    if not scheme:
        mirror = Path(mirror).resolve().as_uri()
    elif scheme not in ("http", "https", "file"):
        raise FetchError(f"mirror {shown(mirror)!r}: expected an http://, https:// or file:// URL")
    from wordgames.redact import remember_secret

    remember_secret(urlsplit(mirror).password)  # a password in the URL is never printed
    return mirror if mirror.endswith("/") else mirror + "/"


def file_source(spec, f, mirror: str | None) -> str:
    """Where file ``f`` of ``spec`` is fetched from (raises ``FetchError`` when nowhere)."""
    if mirror:
        return mirror_base(mirror) + quote(f"{spec.folder}/{f.path}")
    if f.url:
        return f.url
    raise FetchError(
        f"{spec.name}: {f.path} has no upstream copy (it was converted or derived from "
        f"{spec.upstream}); fetch it from a mirror: --mirror URL or ${MIRROR_ENV}"
    )


def _check_writable(folder: Path) -> None:
    """``folder`` made and written once, or a ``FetchError`` saying why it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder, prefix=".wordgames-write-test-"):
            pass
    except OSError as exc:
        raise FetchError(
            f"cannot write the data folder {folder}: {exc.strerror or exc}. Fetch into a "
            "folder you can write: set WORDGAMES_DATA or pass --data-root"
        ) from None


def fetch_dataset(
    name: str,
    root: str | Path | None = None,
    *,
    mirror: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    attempts: int = DEFAULT_ATTEMPTS,
    progress: Progress | None = None,
) -> DatasetFetch:
    """Fetch every file of data set ``name`` that is not already there, intact.

    Parameters
    ----------
    name : str
        A declared data set (``wordgames datasets list`` names them).
    root : str or Path, optional
        The data root (default: ``$WORDGAMES_DATA``, else the per-user folder).
    mirror : str, optional
        A mirror laid out as a data root (default: ``$WORDGAMES_MIRROR``; none: upstream).
    timeout : float
        Seconds without a byte before an attempt is given up.
    attempts : int
        Attempts per file; each one resumes what the last one kept.
    progress : Progress, optional
        Told about each download (sizes, bytes as they arrive).

    Returns
    -------
    DatasetFetch
        One :class:`FileFetch` per declared file; ``ok`` when none failed.

    Raises
    ------
    FetchError
        The data folder cannot be written (nothing is tried then).

    Examples
    --------
    A local folder laid out as a data root serves as a mirror (here the test data root):

    >>> import os, tempfile
    >>> got = fetch_dataset("word-similarity", tempfile.mkdtemp(), mirror=os.environ["WORDGAMES_DATA"])
    >>> got.ok, got.count("fetched"), got.count("failed")
    (True, 13, 0)
    """
    spec = get_dataset(name)
    mirror = mirror if mirror is not None else (os.environ.get(MIRROR_ENV) or None)
    top = data_root(root)
    base = top / spec.folder
    _check_writable(base)
    result = DatasetFetch(name, base)
    for f in spec.files:
        result.files.append(_fetch_file(spec, f, base, mirror, timeout, attempts, progress))
    return result


def _fetch_file(spec, f, base: Path, mirror, timeout, attempts, progress) -> FileFetch:
    from filelock import FileLock

    dest = base / f.path
    damaged = dest.is_file()
    if damaged and sha256_file(dest) == f.sha256:
        return FileFetch(f.path, "present", dest.stat().st_size)
    try:
        url = file_source(spec, f, mirror)
        dest.parent.mkdir(parents=True, exist_ok=True)
        part = dest.with_name(f".{dest.name}.part")
        lock = Path(f"{part}.lock")
        try:
            with FileLock(lock):  # two fetches at once: one downloads, the other waits
                if dest.is_file() and sha256_file(dest) == f.sha256:  # the other one did
                    return FileFetch(f.path, "present", dest.stat().st_size)
                resumed = _download(url, part, f, timeout, attempts, progress)
                _verify_and_place(part, dest, f, url)
        finally:
            lock.unlink(missing_ok=True)
    except FetchError as exc:
        return FileFetch(f.path, "failed", reason=str(exc), replaced_damaged=damaged)
    return FileFetch(f.path, "fetched", dest.stat().st_size, shown(url), resumed, damaged)


def _verify_and_place(part: Path, dest: Path, f, url: str) -> None:
    """``part`` renamed to ``dest`` if its sha256 is the declared one; else deleted, refused."""
    digest = sha256_file(part)
    if digest != f.sha256:
        part.unlink(missing_ok=True)
        raise FetchError(
            f"{f.path} from {shown(url)}: sha256 {digest[:12]}… differs from the declared "
            f"{f.sha256[:12]}…; refused, nothing of it kept"
        )
    os.replace(part, dest)
    _fsync_folder(dest.parent)


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _download(url: str, part: Path, f, timeout: float, attempts: int, progress) -> int:
    """Bytes of ``url`` into ``part``, resumed across attempts.

    Returns the byte the last attempt started from (0: the whole file in one answer).
    """
    for attempt in range(1, max(1, attempts) + 1):
        try:
            return _one_attempt(url, part, f, timeout, progress)
        except _Retry as exc:
            if attempt >= attempts:
                kept = part.stat().st_size if part.exists() else 0
                raise FetchError(
                    f"{f.path} from {shown(url)}: {exc} ({attempts} attempt(s)); the {kept:,} "
                    "bytes received are kept and the next fetch resumes from there"
                ) from None
            time.sleep(min(0.25 * 2**attempt, 4.0))
    raise AssertionError("unreachable")  # pragma: no cover


class _Retry(Exception):
    """An attempt that may succeed when made again (cut, timed out, a busy server)."""


def _one_attempt(url: str, part: Path, f, timeout: float, progress) -> int:
    """One request for what ``part`` lacks; returns the byte it started from."""
    have = part.stat().st_size if part.exists() else 0
    if f.size and have > f.size:  # a part longer than the file: start again
        part.unlink()
        have = 0
    from wordgames._version import __version__

    headers = {"User-Agent": f"wordgames/{__version__}"}
    if have:
        headers["Range"] = f"bytes={have}-"
    url, opener = _with_credentials(url, headers)
    try:
        resp = opener(Request(url, headers=headers), timeout=timeout)
    except HTTPError as exc:
        if exc.code == 416 and have:  # nothing after what we have: the part may be whole
            return have
        if exc.code in _RETRY_STATUS:
            raise _Retry(f"HTTP {exc.code} {exc.reason}") from None
        raise FetchError(f"{f.path} from {shown(url)}: HTTP {exc.code} {exc.reason}") from None
    except (URLError, OSError) as exc:
        raise _Retry(_reason(exc, timeout)) from None
    with resp:
        status = getattr(resp, "status", None) or 200
        if have and status != 206:  # the server sends the whole file: start again
            have = 0
        start = have
        length = resp.headers.get("Content-Length")
        total = have + int(length) if length and length.isdigit() else (f.size or None)
        _receive(resp, part, have, total, f, url, timeout, progress)
    return start


def _with_credentials(url: str, headers: dict):
    """``url`` without its user and password, sent instead as HTTP basic authentication.

    With credentials, redirects are refused: urllib would send them on to another host.
    """
    import base64
    import urllib.request

    parts = urlsplit(url)
    if parts.username is None:
        return url, urlopen
    from urllib.parse import unquote

    from wordgames.redact import remember_secret

    token = base64.b64encode(
        f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
    ).decode()
    remember_secret(token)
    headers["Authorization"] = f"Basic {token}"

    class _Refuse(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, hdrs, newurl):
            raise FetchError(
                f"{shown(url)} redirects to {shown(newurl)}: refused, the mirror's credentials "
                "are not sent on"
            )

    return shown(url), urllib.request.build_opener(_Refuse).open


def _receive(resp, part: Path, have: int, total, f, url: str, timeout, progress) -> None:
    if progress is not None:
        progress.start(f.path, total, have)
    try:
        with open(part, "ab" if have else "wb") as out:
            while True:
                try:
                    chunk = resp.read(_CHUNK)
                except (OSError, http.client.HTTPException) as exc:
                    raise _Retry(_reason(exc, timeout)) from None
                if not chunk:
                    break
                have += len(chunk)
                if f.size and have > f.size:
                    out.close()
                    part.unlink(missing_ok=True)
                    raise FetchError(
                        f"{f.path} from {shown(url)}: more than its declared {f.size:,} bytes; "
                        "refused, nothing of it kept"
                    )
                out.write(chunk)
                if progress is not None:
                    progress.advance(len(chunk))
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:  # the disk, not the network: full, or taken away
        raise FetchError(
            f"{f.path}: writing {part} failed: {exc.strerror or exc}; the bytes written so far "
            "are kept and the next fetch resumes from there"
        ) from None
    finally:
        if progress is not None:
            progress.end()
    if total is not None and have < total:
        raise _Retry(f"the connection ended after {have:,} of {total:,} bytes")


def _reason(exc: BaseException, timeout: float) -> str:
    inner = getattr(exc, "reason", exc)
    if isinstance(inner, socket.timeout | TimeoutError):
        return f"no answer within {timeout:g} s"
    if isinstance(inner, ConnectionRefusedError):
        return "connection refused (is the server running?)"
    return f"{type(inner).__name__}: {inner}"
