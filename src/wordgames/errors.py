"""Domain exceptions. Every error about a file names the file and, where there is one, the line."""

from __future__ import annotations

from pathlib import Path


class WordgamesError(Exception):
    """Base class of every error raised on purpose by wordgames.

    Its message is redacted when it is made (:func:`wordgames.redact.redact`): an error that
    quotes a server's text never carries a key the process holds.
    """

    def __init__(self, *args):
        from wordgames.redact import redact

        super().__init__(*(redact(a) if isinstance(a, str) else a for a in args))


class DataFormatError(WordgamesError, ValueError):
    """A file does not have the expected format.

    Parameters
    ----------
    path : path of the offending file
    line : 1-based line number (or record number for binary files), if known
    message : what was found and what was expected
    """

    def __init__(self, path: str | Path | None, line: int | None, message: str):
        self.path = None if path is None else str(path)
        self.line = line
        self.detail = message
        where = self.path or "<input>"
        if line is not None:
            where += f", line {line}"
        super().__init__(f"{where}: {message}")


class DatasetMissingError(WordgamesError, FileNotFoundError):
    """A declared data set cannot be found under the data root."""


class UnknownDatasetError(WordgamesError, KeyError):
    """A data-set name that is not declared (a ``KeyError`` too, for older callers)."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else "unknown data set"


class UnsafeFileError(DataFormatError):
    """A file would run code or reach outside its folder if it were read as asked.

    Raised for pickle-based formats (gensim ``KeyedVectors``, PyTorch ``.bin`` weights) that
    hold something other than plain data, unless the caller explicitly trusts the file.
    """


class ChecksumMismatchError(WordgamesError):
    """A data file exists but its sha256 differs from the declared one."""


class OOVError(WordgamesError, KeyError):
    """A word has no vector and the out-of-vocabulary policy is ``"raise"``."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message readable
        return str(self.args[0]) if self.args else "out-of-vocabulary word"


class SkipMeasure(WordgamesError):
    """Raised by a measure that cannot run here (missing data, optional dependency, no input)."""


class OptionalDependencyError(WordgamesError, ImportError):
    """An optional extra (torch, gensim, ray, ...) is needed but not installed."""

    def __init__(self, package: str, extra: str, purpose: str):
        super().__init__(
            f"{purpose} needs the optional package '{package}'. "
            f"Install it with: pip install 'wordgames[{extra}]'"
        )


def require(module: str, extra: str, purpose: str):
    """Import an optional module or raise :class:`OptionalDependencyError`."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise OptionalDependencyError(module, extra, purpose) from exc


class FetchError(WordgamesError):
    """A data set's file could not be fetched: the file, the address and why are named."""
