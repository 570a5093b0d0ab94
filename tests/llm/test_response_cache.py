"""A response cache in every state a disk or a person can leave it: read what can be read.

Each state used to end in a traceback (issue 38). Now a damaged file is moved aside and what
can be read of it is copied into a new cache; a read-only cache is read; a full disk is
counted. The read-only and full-disk states are real file systems (a tmpfs mounted here:
root only, else skipped with the reason).
"""

from __future__ import annotations

import json
import sqlite3
import uuid

from tests.conftest import remount_read_only
from wordgames.llm.cache import ResponseCache, request_key


def _filled(path, n=50):
    cache = ResponseCache(path)
    keys = [request_key("m", {"q": i}, "p1", "http://h/v1") for i in range(n)]
    for i, key in enumerate(keys):
        cache.put(key, "m", {"q": i}, {"text": f"answer {i} " + "x" * 200}, 3, 1,
                  server="http://h/v1")  # fmt: skip
    _close(cache)
    return keys


def _close(cache):
    con = getattr(cache._local, "con", None)
    if con is not None:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        cache._local.con = None


def _works(cache):
    key = request_key("m", {"new": uuid.uuid4().hex}, "p1")
    cache.put(key, "m", {}, {"text": "fresh"}, 0, 0)
    return cache.get(key) == {"text": "fresh"}


def test_garbage_is_moved_aside_and_a_new_cache_made(tmp_path):
    path = tmp_path / "r.sqlite"
    path.write_bytes(b"this is not a database\n" * 100)
    cache = ResponseCache(path)
    assert _works(cache) and len(cache) == 1
    assert (tmp_path / "r.sqlite.damaged-1").read_bytes().startswith(b"this is not")
    assert "damaged" in cache.problems[0] and "r.sqlite.damaged-1" in cache.problems[0]


def test_an_empty_file_is_a_new_cache(tmp_path):
    path = tmp_path / "r.sqlite"
    path.write_bytes(b"")
    cache = ResponseCache(path)
    assert _works(cache) and cache.problems == []  # SQLite's own empty database


def test_a_truncated_cache_keeps_the_rows_that_can_be_read(tmp_path):
    path = tmp_path / "r.sqlite"
    keys = _filled(path, 200)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    cache = ResponseCache(path)
    assert _works(cache)
    assert "damaged" in cache.problems[0]
    kept = sum(cache.get(k) is not None for k in keys)
    assert f"{kept} answer(s) read from it" in cache.problems[0]
    assert kept < 200


def test_a_cache_of_another_schema_is_moved_aside(tmp_path):
    path = tmp_path / "r.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE responses (key TEXT, other TEXT)")
    con.execute("INSERT INTO responses VALUES ('k', 'v')")
    con.commit()
    con.close()
    cache = ResponseCache(path)
    assert _works(cache)
    assert "lacks the columns" in cache.problems[0]


def test_rows_that_cannot_be_read_are_misses_then_replaced(tmp_path):
    path = tmp_path / "r.sqlite"
    keys = _filled(path, 3)
    con = sqlite3.connect(path)
    con.execute("UPDATE responses SET response = 'not json{' WHERE key = ?", (keys[0],))
    con.execute("UPDATE responses SET response = '[1, 2]' WHERE key = ?", (keys[1],))
    con.commit()
    con.close()
    cache = ResponseCache(path)
    assert cache.get(keys[0]) is None and cache.get(keys[1]) is None
    assert cache.unreadable_rows == 2
    assert cache.get(keys[2])["text"].startswith("answer 2")
    cache.put(keys[0], "m", {"q": 0}, {"text": "again"}, 0, 0)
    assert cache.get(keys[0]) == {"text": "again"}


def test_a_folder_in_the_caches_place_is_moved_aside(tmp_path):
    path = tmp_path / "r.sqlite"
    (path / "inside").mkdir(parents=True)
    cache = ResponseCache(path)
    assert _works(cache) and path.is_file()
    assert (tmp_path / "r.sqlite.damaged-1" / "inside").is_dir()
    assert "not a file" in cache.problems[0]


def test_a_read_only_cache_with_every_answer_is_read_and_nothing_written(tmpfs):
    path = tmpfs / "llm" / "r.sqlite"
    keys = _filled(path, 20)
    remount_read_only(tmpfs)
    cache = ResponseCache(path)
    assert cache.read_only and "read-only" in cache.problems[0]
    assert all(cache.get(k) is not None for k in keys)  # every answer: nothing to ask
    cache.put(request_key("m", {"new": 1}, "p1"), "m", {}, {"text": "x"}, 0, 0)
    assert cache.unsaved == 1 and len(cache) == 20


def test_a_read_only_folder_without_a_cache_keeps_nothing_and_fails_nothing(tmpfs):
    remount_read_only(tmpfs)
    cache = ResponseCache(tmpfs / "llm" / "r.sqlite")
    assert cache.read_only and cache.get("k") is None and len(cache) == 0
    cache.put("k", "m", {}, {"text": "x"}, 0, 0)
    assert cache.unsaved == 1


def test_a_full_disk_is_counted_and_the_answers_read_so_far_kept(tmpfs):
    path = tmpfs / "r.sqlite"
    cache = ResponseCache(path)
    big = "y" * 12000
    written = 0
    for i in range(100):  # 1.2 MB of answers on a 1 MB disk
        cache.put(request_key("m", {"q": i}, "p1"), "m", {"q": i}, {"text": big}, 0, 0)
        written += cache.unsaved == 0
    assert cache.unsaved > 0 and "could not be written" in cache.problems[-1]
    assert 0 < written < 100
    assert cache.get(request_key("m", {"q": 0}, "p1")) == {"text": big}


def test_a_response_that_is_kept_is_json_of_a_dict():
    # the rows a damaged cache gives back go through the same check as a fresh one's
    from wordgames.llm.cache import _valid_row

    key = "a" * 64
    assert _valid_row((key, "m", "{}", json.dumps({"text": "t"}), 1, 1, 0.0, ""))
    assert not _valid_row((key, "m", "{}", "[1]", 1, 1, 0.0, ""))
    assert not _valid_row(("short", "m", "{}", "{}", 1, 1, 0.0, ""))
