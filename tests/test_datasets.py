"""The data-set registry: validation, lookup, missing-data errors, checksums."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from wordgames.datasets import (
    DataFile,
    DatasetSpec,
    all_datasets,
    data_root,
    dataset_dir,
    dataset_file,
    get_dataset,
    verify_dataset,
)
from wordgames.datasets import registry as reg
from wordgames.errors import (
    ChecksumMismatchError,
    DatasetMissingError,
    UnknownDatasetError,
    WordgamesError,
)

SHA = "0" * 64


def _spec(**kw):
    base = dict(
        name="toy-set",
        folder="toy",
        family="test",
        title="Toy",
        upstream="https://example.org@abc",
        citation="Nobody 2024",
        licence="MIT",
        files=(DataFile("a.txt", SHA),),
    )
    base.update(kw)
    return DatasetSpec(**base)


def test_spec_validation():
    with pytest.raises(ValueError, match="must match"):
        _spec(name="Bad Name")
    with pytest.raises(ValueError, match="citation"):
        _spec(citation="")
    with pytest.raises(ValueError, match="sha256"):
        DataFile("a.txt", "xyz")
    with pytest.raises(ValueError, match="relative path"):
        DataFile("../a.txt", SHA)
    with pytest.raises(ValueError, match="twice"):
        _spec(files=(DataFile("a.txt", SHA), DataFile("a.txt", SHA)))


def test_every_declaration_is_complete():
    specs = all_datasets()
    assert len(specs) >= 8
    for spec in specs.values():
        for attr in ("title", "upstream", "citation", "licence"):
            assert getattr(spec, attr) and getattr(spec, attr) != "TODO", (spec.name, attr)


def test_unknown_dataset():
    with pytest.raises(KeyError, match="unknown data set"):
        get_dataset("no-such-set")


def test_without_wordgames_data_the_root_is_the_per_user_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("WORDGAMES_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_root() == tmp_path / "wordgames"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG rule: only absolute
    assert data_root() == Path.home() / ".local" / "share" / "wordgames"
    monkeypatch.setenv("WORDGAMES_DATA", str(tmp_path / "mine"))
    assert data_root() == tmp_path / "mine" and data_root("given") == Path("given")


def test_missing_files_message(tmp_path, monkeypatch):
    monkeypatch.setitem(reg._REGISTRY, "toy-set", _spec())
    monkeypatch.setattr(reg, "all_datasets", lambda: dict(reg._REGISTRY))
    with pytest.raises(DatasetMissingError) as exc:
        dataset_dir("toy-set", tmp_path)
    msg = str(exc.value)
    assert "a.txt" in msg and "https://example.org@abc" in msg and "WORDGAMES_DATA" in msg
    assert "`wordgames datasets fetch toy-set`" in msg


def test_checksum_verification(tmp_path, monkeypatch):
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "a.txt").write_text("hello")
    good = hashlib.sha256(b"hello").hexdigest()
    monkeypatch.setitem(reg._REGISTRY, "toy-set", _spec(files=(DataFile("a.txt", good),)))
    assert verify_dataset("toy-set", tmp_path) == {"a.txt": good}
    monkeypatch.setitem(reg._REGISTRY, "toy-set", _spec())
    with pytest.raises(ChecksumMismatchError, match="a.txt"):
        verify_dataset("toy-set", tmp_path)
    assert verify_dataset("toy-set", tmp_path, strict=False) == {"a.txt": good}


def test_real_data_checksums(data_root):
    """CI has the shared data: every declared file must be there, unchanged."""
    for name in all_datasets():
        sums = verify_dataset(name, data_root)
        assert len(sums) == len(get_dataset(name).files)


@pytest.mark.parametrize("name", ["../../etc", "../codenames", "/etc/passwd", "similarity/../.."])
def test_unknown_or_climbing_name_is_a_clear_error(name):
    with pytest.raises(UnknownDatasetError) as exc:
        verify_dataset(name, "/nonexistent")
    msg = str(exc.value)
    assert msg.startswith(f"unknown data set {name!r}, known: ")
    assert "similarity" in msg  # the known names are listed
    assert isinstance(exc.value, WordgamesError) and isinstance(exc.value, KeyError)


def test_undeclared_file_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(reg._REGISTRY, "toy-set", _spec())
    with pytest.raises(UnknownDatasetError, match="declares no file '../b.txt'"):
        dataset_file("toy-set", "../b.txt", "/nonexistent")


@pytest.mark.parametrize("folder", ["../outside", "/abs/folder", "a/../../b", "a\\..\\b"])
def test_folder_must_stay_inside_the_root(folder):
    with pytest.raises(ValueError, match="relative path inside the data root"):
        _spec(folder=folder)


def test_symlink_out_of_the_root_is_refused(tmp_path, monkeypatch):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "a.txt").write_text("secret")
    (root / "toy").mkdir()
    (root / "toy" / "a.txt").symlink_to(outside / "a.txt")
    monkeypatch.setitem(reg._REGISTRY, "toy-set", _spec())
    monkeypatch.setattr(reg, "all_datasets", lambda: dict(reg._REGISTRY))
    with pytest.raises(DatasetMissingError, match="outside the data root"):
        verify_dataset("toy-set", root)
    (root / "toy" / "a.txt").unlink()
    (root / "toy").rmdir()
    (root / "toy").symlink_to(outside)  # the whole folder
    with pytest.raises(DatasetMissingError, match="outside the data root"):
        dataset_dir("toy-set", root)


def test_a_relative_data_root_means_the_folder_where_it_was_given(tmp_path):
    # the README's test command gives WORDGAMES_DATA=../shared/data; code that changes folder
    # afterwards (the docs tests run each page in a temporary folder) still finds it
    import subprocess
    import sys

    (tmp_path / "data").mkdir()
    (tmp_path / "work").mkdir()
    code = (
        "import os, wordgames\n"
        "from wordgames.datasets.registry import data_root\n"
        "os.chdir('/')\n"
        "print(data_root(), os.environ['WORDGAMES_DATA'], os.environ['WORDGAMES_CACHE'])\n"
    )
    env = {**os.environ, "WORDGAMES_DATA": "../data", "WORDGAMES_CACHE": "cache"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path / "work", env=env,
                         capture_output=True, text=True, check=True).stdout.split()  # fmt: skip
    data = str((tmp_path / "data").resolve())
    assert out == [data, data, str((tmp_path / "work" / "cache").resolve())]
