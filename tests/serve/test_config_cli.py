"""Study configuration, database URLs, migrations and the two commands' options."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from tests.serve.helpers import study_dicts
from wordgames.cli import app
from wordgames.serve.config import StudyConfigError, load_study_file, study_from_dict
from wordgames.serve.db import Database, DatabaseError, migrate, normalise_url, require_current

runner = CliRunner()


def test_help_of_both_commands():
    r = runner.invoke(app, ["serve", "--help"])
    assert r.exit_code == 0 and "--db" in r.output and "--study" in r.output
    r = runner.invoke(app, ["collect", "export", "--help"])
    assert r.exit_code == 0 and "--out" in r.output and "--db" in r.output


def test_cli_start_up_imports_no_web_stack():
    code = (
        "import sys; from wordgames.cli import app; "
        "print(sorted(m for m in ('fastapi', 'sqlalchemy', 'uvicorn', 'alembic') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"slug": "Bad Slug"}, "'slug'"),
        ({"game": "chess"}, "'game'"),
        ({"trials": 0}, "'trials'"),
        ({"trials": 10, "pool_size": 5}, "'pool_size'"),
        ({"colour": "red"}, "unknown study option(s) colour"),
        ({"texts": {"footer": "x"}}, "'texts'"),
        ({"attention": {"positions": [99]}}, "attention.positions"),
        ({"attention": {"action": "ban"}}, "attention.action"),
        ({"codenames": {"agentz": []}}, "[codenames] takes"),
        ({"completion_code": "a b"}, "completion_code"),
        ({"completion_url": "javascript:alert(1)"}, "completion_url"),
    ],
)
def test_bad_study_options_are_named(change, message):
    base = {"slug": "s", "game": "oddmanout", "trials": 2, "pool_size": 4}
    with pytest.raises(StudyConfigError) as err:
        study_from_dict({**base, **change})
    assert message in str(err.value)


def test_study_files_toml_json_and_builtins(tmp_path):
    from wordgames.serve.config import builtin_studies

    names = {p.stem for p in builtin_studies()}
    assert names == {
        "codenames-receiver",
        "codenames-sender",
        "wiki",
        "oddmanout",
        "oddmanout-crowd",
    }
    cfgs = [load_study_file(p) for p in builtin_studies()]
    assert {c.game for c in cfgs} == names
    bad = tmp_path / "bad.toml"
    bad.write_text("slug = [", encoding="utf-8")
    with pytest.raises(StudyConfigError, match="cannot parse"):
        load_study_file(bad)
    with pytest.raises(StudyConfigError, match="no such study file"):
        load_study_file(tmp_path / "missing.toml")


def test_design_hash_ignores_texts_only():
    d = study_dicts({"words": "w", "graph": "g", "puzzles": "p"})[3]
    a, b = study_from_dict(d), study_from_dict({**d, "texts": {"title": "New title"}})
    c = study_from_dict({**d, "trials": d["trials"] + 1})
    assert a.design_sha() == b.design_sha() != c.design_sha()


def test_database_urls_and_migrations(tmp_path):
    assert normalise_url("postgresql://u:p@127.0.0.1:5/db").startswith("postgresql+psycopg://")
    with pytest.raises(DatabaseError, match="expected sqlite"):
        normalise_url("mysql://x/y")
    with pytest.raises(DatabaseError, match="in-memory"):
        Database("sqlite:///:memory:")
    db = Database(f"sqlite:///{tmp_path / 'a.db'}")
    with pytest.raises(DatabaseError, match="schema revision None"):
        require_current(db)
    assert migrate(db) == migrate(db) == "0002"  # idempotent
    require_current(db)
    with db.read() as s:
        assert s.connection().exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    db.dispose()


def test_changed_design_is_refused(tmp_path, inputs):
    from wordgames.serve.store import StudyError, init_study

    db = Database(f"sqlite:///{tmp_path / 'a.db'}")
    migrate(db)
    d = study_dicts(inputs)[3]
    sid = init_study(db, study_from_dict(d))
    assert init_study(db, study_from_dict({**d, "texts": {"title": "T2"}})) == sid
    with pytest.raises(StudyError, match="another design"):
        init_study(db, study_from_dict({**d, "seed": 5}))
    db.dispose()


def test_serve_init_only_and_errors(tmp_path, inputs):
    d = study_dicts(inputs)[3]
    f = tmp_path / "omo.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    r = runner.invoke(app, ["serve", "--study", str(f), "--init-only"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "omo.db").is_file()  # the database beside the study file
    f.write_text(json.dumps({**d, "trials": 99}), encoding="utf-8")
    r = runner.invoke(app, ["serve", "--study", str(f), "--init-only"])
    assert r.exit_code == 2 and "'pool_size'" in r.output
    r = runner.invoke(app, ["serve", "--game", "oddmanout", "--study", str(f), "--init-only"])
    assert r.exit_code == 2 and "not both" in r.output
    r = runner.invoke(
        app,
        [
            "serve",
            "--db",
            f"sqlite:///{tmp_path / 'g.db'}",
            "--game",
            "oddmanout-crowd",
            "--trials",
            "3",
            "--init-only",
        ],
    )
    assert r.exit_code == 0, r.output


def test_collect_migrate_and_measures_commands(tmp_path, inputs):
    url = f"sqlite:///{tmp_path / 'm.db'}"
    r = runner.invoke(app, ["collect", "migrate", "--db", url])
    assert r.exit_code == 0 and "schema revision 0002" in r.output
    d = study_dicts(inputs)[3]
    (tmp_path / "omo.json").write_text(json.dumps(d), encoding="utf-8")
    assert (
        runner.invoke(
            app, ["serve", "--study", str(tmp_path / "omo.json"), "--db", url, "--init-only"]
        ).exit_code
        == 0
    )
    r = runner.invoke(app, ["collect", "measures", "--db", url, "--slug", "omo"])
    assert r.exit_code == 0 and "0 record(s)" in r.output and "no answers yet" in r.output


def test_serve_without_data_names_only_what_it_serves(tmp_path, monkeypatch, caplog, data_root):
    """Issue 44: with no data, the demo studies that need it are left out (named), and the
    line of what is set up names only the rest; with nothing to set up, a message saying how
    to get the data and a non-zero exit. The studies set up first with the data do not leave
    their words, graph or puzzles behind for another data root (before: cached by name)."""
    import logging

    from wordgames.serve.config import builtin_studies

    monkeypatch.setenv("WORDGAMES_DATA", str(data_root))
    with caplog.at_level(logging.INFO, logger="wordgames.serve"):
        r = runner.invoke(app, ["serve", "--db", f"sqlite:///{tmp_path / 'w.db'}", "--init-only"])
    assert r.exit_code == 0, r.output
    assert ("studies set up: codenames-receiver, codenames-sender, oddmanout-crowd, oddmanout, "
            "wiki") in caplog.messages  # fmt: skip
    caplog.clear()
    monkeypatch.setenv("WORDGAMES_DATA", str(tmp_path / "no-data"))
    with caplog.at_level(logging.INFO, logger="wordgames.serve"):
        r = runner.invoke(app, ["serve", "--db", f"sqlite:///{tmp_path / 'a.db'}", "--init-only"])
    assert r.exit_code == 0, r.output
    left = sorted(
        m.split()[1] for m in caplog.messages if m.startswith("study ") and "left out" in m
    )
    assert left == ["codenames-receiver", "codenames-sender", "oddmanout", "wiki"]
    assert "studies set up: oddmanout-crowd" in caplog.messages
    needing = [str(p) for p in builtin_studies() if p.stem in ("wiki", "codenames-receiver")]
    args = [a for p in needing for a in ("--study", p)]
    r = runner.invoke(
        app, ["serve", *args, "--db", f"sqlite:///{tmp_path / 'b.db'}", "--init-only"]
    )
    assert r.exit_code == 2
    out = " ".join(r.output.split())
    assert "nothing to serve: none of the 2 studies could be set up" in out
    assert "wordgames datasets fetch" in out
