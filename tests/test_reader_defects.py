"""Issue 38: the reader tracebacks fuzzing found, each now a clear error naming the file (or a
rebuild), and small garbage refused. Each test names what happened before."""

from __future__ import annotations

import gzip
import json

import pytest

from wordgames.errors import DataFormatError

ROWS = "".join(f"w{i} {i * 0.1:.3f} {i * 0.2:.3f} 0.5\n" for i in range(200))


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WORDGAMES_CACHE", str(tmp_path / "cache"))


def test_a_damaged_gzip_embedding_is_an_error_naming_it(tmp_path):
    """Before: ``zlib.error`` (1,829 of 10,000 mutants)."""
    from wordgames.embeddings import load_embedding

    raw = gzip.compress(ROWS.encode())
    path = tmp_path / "g.txt.gz"
    path.write_bytes(raw[:40] + bytes(b ^ 0xFF for b in raw[40:60]) + raw[60:])
    with pytest.raises(DataFormatError, match="gzip data is damaged") as err:
        load_embedding(path)
    assert str(path) in str(err.value)


@pytest.mark.parametrize("header", ["9" * 4400 + " 3", "200 " + "9" * 4400])
def test_a_vec_header_of_thousands_of_digits_is_an_error(tmp_path, header):
    """Before: ``ValueError: Exceeds the limit (4300 digits) for integer string conversion``."""
    from wordgames.embeddings import load_embedding

    path = tmp_path / "f.vec"
    path.write_text(header + "\n" + ROWS)
    with pytest.raises(DataFormatError, match="expected a header line") as err:
        load_embedding(path)
    assert str(path) in str(err.value) and len(str(err.value)) < 300


def test_an_infinite_count_in_a_cache_manifest_rebuilds_the_cache(tmp_path):
    """Before: ``OverflowError`` on every command that used the embedding."""
    from wordgames.embeddings import load_embedding

    path = tmp_path / "g.txt"
    path.write_text(ROWS)
    first = load_embedding(path)
    (manifest,) = (tmp_path / "cache").rglob("manifest.json")
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps(data).replace(f'"n_rows": {data["n_rows"]}', '"n_rows": 1e309'))
    again = load_embedding(path)
    assert list(again.words) == list(first.words)
    assert (again.vectors == first.vectors).all()


def test_an_empty_protocol_seed_file_is_an_error(tmp_path):
    """Before: an empty list, and nothing generated without a word."""
    from wordgames.oddmanout.generate import read_protocol_seeds

    for text in ("", "\n\n", "# only a comment\n"):
        path = tmp_path / "seeds.jsonl"
        path.write_text(text)
        with pytest.raises(DataFormatError, match="holds no seed") as err:
            read_protocol_seeds(path)
        assert str(path) in str(err.value)


@pytest.mark.parametrize(
    "change, what",
    [({"plots": [1]}, "plots"), ({"plots": [None]}, "plots"), ({"notes": [3]}, "notes")],
)
def test_a_record_with_plots_that_are_not_paths_is_refused(change, what):
    """Before: ``wordgames report`` crashed on ``plots: [1]`` or ``[null]``."""
    from wordgames.results.schema import check_result

    with pytest.raises(ValueError, match=f"{what} have the wrong type"):
        check_result({"measure": "m", "version": "1", **change})


@pytest.mark.parametrize("value", [float("inf"), float("-inf")])
def test_an_infinite_score_is_refused(value):
    """Before: accepted, and printed as a score."""
    from wordgames.results.schema import check_result

    score = {"embedding": "e", "measure": "m", "dataset": "d", "subject": "", "metric": "x",
             "value": value}  # fmt: skip
    with pytest.raises(ValueError, match="value of the wrong type or out of range"):
        check_result({"measure": "m", "version": "1", "scores": [score]})


def test_report_of_a_folder_with_a_bad_plots_record_is_an_error_naming_it(tmp_path):
    """Before: a traceback. Now: the record's file and what is wrong in it, exit 2."""
    from typer.testing import CliRunner

    from wordgames.cli import app
    from wordgames.measure import Score
    from wordgames.results import MeasureResult
    from wordgames.results.store import ResultKey, ResultStore

    root = tmp_path / "out"
    r = MeasureResult("similarity", "3", subject="e")
    r.scores.append(Score("e", "similarity", "men", "", "spearman", 0.5, 0.4, 0.6, 90))
    key = ResultKey("1" * 64, "similarity", "3", "p" * 64)
    record = ResultStore(root).put(key, r.as_dict(), embedding={"name": "e", "sha256": "1" * 64},
                                   params={"seed": 0})  # fmt: skip
    entry = json.loads(record.read_text())
    entry["result"]["plots"] = [None]
    record.write_text(json.dumps(entry))
    res = CliRunner().invoke(app, ["report", str(root)], env={"COLUMNS": "400"})
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    assert record.name in res.output and "plots have the wrong type" in res.output


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_output_files_follow_the_umask(tmp_path, umask, mode):
    """Before: every file written through a temporary name was 0600, whatever the umask."""
    import subprocess
    import sys

    code = (f"import os; os.umask({umask}); from wordgames.results import write_json_atomic; "
            f"write_json_atomic({str(tmp_path / 'r.json')!r}, {{'a': 1}})")  # fmt: skip
    subprocess.run([sys.executable, "-c", code], check=True)
    assert (tmp_path / "r.json").stat().st_mode & 0o777 == mode
