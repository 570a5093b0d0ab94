"""Shared fixtures. Tests that need real data use ``data_root`` and skip with a reason without it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import wordgames  # noqa: F401 - pins a relative $WORDGAMES_DATA before any test changes folder

_DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _root() -> Path | None:
    env = os.environ.get("WORDGAMES_DATA")
    root = Path(env) if env else _DEFAULT
    return root if root.is_dir() else None


@pytest.fixture(scope="session")
def data_root() -> Path:
    """The data root ($WORDGAMES_DATA, else ../shared/data beside the checkout)."""
    root = _root()
    if root is None:
        pytest.skip("real data not available: set WORDGAMES_DATA to the shared data folder")
    return root


def require_dataset(name: str) -> Path:
    """Folder of data set ``name``, or skip the calling test with the reason."""
    from wordgames.datasets import dataset_dir
    from wordgames.errors import DatasetMissingError

    root = _root()
    if root is None:
        pytest.skip("real data not available: set WORDGAMES_DATA to the shared data folder")
    try:
        return dataset_dir(name, root)
    except DatasetMissingError as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def glove():
    """The built-in GloVe 6B 50d, loaded once per test session."""
    from wordgames.embeddings import load_embedding

    return load_embedding("glove-6b-50d")


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    # converted-vector caches of tests go to a temporary folder, never to ~/.cache
    if "WORDGAMES_CACHE" not in os.environ:
        monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
    # the per-user data folder (the data root without $WORDGAMES_DATA) is never the user's own
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "xdg-data"))


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A new response cache, and no chat subject the web app's resources kept from before."""
    from wordgames.serve import resources

    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))
    resources.chat_subject.cache_clear()
    yield
    resources.chat_subject.cache_clear()


@pytest.fixture
def tmpfs(tmp_path):
    """A small tmpfs mounted at a new folder (root only); unmounted after the test.

    Read-only and full-disk states are real file systems here: root ignores a folder's mode
    bits, so ``chmod`` cannot make a folder read-only for the tests CI runs as root.
    """
    import subprocess

    where = tmp_path / "mnt"
    where.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)],
                       capture_output=True, text=True)  # fmt: skip
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {r.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def remount_read_only(where) -> None:
    """Make the tmpfs at ``where`` (the ``tmpfs`` fixture) read-only."""
    import subprocess

    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)


def pytest_terminal_summary(terminalreporter):
    """The docs' bash blocks run, parsed and skipped, per page (tests/test_doc_commands.py)."""
    import sys

    module = sys.modules.get("tests.test_doc_commands")
    counts = getattr(module, "COUNTS", None)
    if not counts:
        return
    terminalreporter.section("docs' bash blocks")
    slow = sorted(getattr(module, "TIMES", ()), key=lambda t: -t[2])[:5]
    for where, command, seconds in slow:
        terminalreporter.write_line(f"slowest: {seconds:6.1f} s  {where}: {command}")
    for page, c in counts.items():
        extra = c.get("not run (optional extra missing)", 0)
        terminalreporter.write_line(
            f"{page}: {c['run']} block(s) run, {c['parse-only']} parsed only, {c['skip']} "
            f"skipped" + (f"; {extra} command(s) needing a missing extra not run" if extra else "")
        )
