"""Issue 41: `wordgames datasets fetch` against a real HTTP server on 127.0.0.1.

The server serves a copy of the shared data as a mirror (this machine has no internet). It
answers ``Range`` requests, and each test can make it cut a file in the middle, hang, answer
404 or ignore ranges, for one file, on its first request or on every one.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from typer.testing import CliRunner

from tests.conftest import remount_read_only
from wordgames.datasets import all_datasets, get_dataset
from wordgames.datasets.fetch import fetch_dataset, file_source, shown
from wordgames.datasets.registry import dataset_status, user_data_root
from wordgames.errors import DatasetMissingError, FetchError


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet: the test reads server.requests instead
        pass

    def do_GET(self):
        srv = self.server
        rel = unquote(urlsplit(self.path).path).lstrip("/")
        rng = self.headers.get("Range")
        srv.requests.append((rel, rng))
        fault = srv.faults.get(rel)
        if fault is not None and fault[1] == 0:  # used up
            fault = None
        if fault is not None and fault[1] > 0:
            srv.faults[rel] = (fault[0], fault[1] - 1)
        mode = fault[0] if fault else None
        if mode == "hang":
            time.sleep(srv.hang_s)
            return
        file = srv.root / rel
        if mode == "404" or not file.is_file() or ".." in Path(rel).parts:
            self.send_error(404, "Not Found")
            return
        data = file.read_bytes()
        start = 0
        m = re.fullmatch(r"bytes=(\d+)-", rng or "")
        if m and mode != "no-range":
            start = int(m.group(1))
            if start >= len(data):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(data)}")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if mode == "cut":  # half of it, then the connection goes
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # a client that stops reading (a full disk, a refused file) breaks the pipe: expected
        self.errors = getattr(self, "errors", 0) + 1


@pytest.fixture(scope="module")
def mirror_copy(tmp_path_factory, data_root):
    """A copy of the shared data laid out as a data root (the mirror's files)."""
    root = tmp_path_factory.mktemp("mirror")
    for spec in all_datasets().values():
        for f in spec.files:
            dest = root / spec.folder / f.path
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(data_root / spec.folder / f.path, dest)
    return root


@pytest.fixture
def mirror(mirror_copy):
    """The HTTP server on 127.0.0.1 (a free port) serving the copy; stopped after the test."""
    srv = _Server(("127.0.0.1", 0), _Handler)
    srv.root, srv.requests, srv.faults, srv.hang_s = mirror_copy, [], {}, 3.0
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    srv.url = f"http://127.0.0.1:{srv.server_address[1]}/"
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def _cli(*args, env=None):
    from wordgames.cli import app

    return CliRunner().invoke(app, list(args), env=env)


def test_fetch_all_from_the_mirror_then_every_data_set_is_present_and_not_fetched_again(
    tmp_path, mirror
):
    root = tmp_path / "data"
    r = _cli("datasets", "fetch", "--mirror", mirror.url, "--data-root", str(root))
    assert r.exit_code == 0, r.output
    files = sum(len(s.files) for s in all_datasets().values())
    assert len(mirror.requests) == files  # one request per declared file, no more
    for name, spec in all_datasets().items():
        assert dataset_status(name, root)["state"] == "present", name
        assert f"{name}: {len(spec.files)} fetched" in r.output
        assert spec.licence[:40] in r.output and spec.citation[:40] in r.output
    assert not list(root.rglob("*.part")) and not list(root.rglob("*.lock"))
    mirror.requests.clear()
    again = _cli("datasets", "fetch", "--mirror", mirror.url, "--data-root", str(root))
    assert again.exit_code == 0 and mirror.requests == []  # intact files are not fetched again
    assert "0 fetched, 13 already present" in again.output
    listed = _cli("datasets", "list", "--data-root", str(root))
    assert listed.exit_code == 0 and "missing" not in listed.output


def test_a_tampered_file_is_refused_named_and_nothing_of_it_kept(tmp_path, mirror, mirror_copy):
    spec = get_dataset("word-similarity")
    victim = mirror_copy / spec.folder / "EN-RG-65.txt"
    original = victim.read_bytes()
    victim.write_bytes(original.replace(b"\t", b" ", 1))
    try:
        root = tmp_path / "data"
        r = _cli("datasets", "fetch", "word-similarity", "--mirror", mirror.url,
                 "--data-root", str(root))  # fmt: skip
    finally:
        victim.write_bytes(original)
    assert r.exit_code == 1
    assert "EN-RG-65.txt" in r.output and "differs from the declared" in r.output
    assert "refused, nothing of it kept" in r.output and "1 file(s) not fetched" in r.output
    folder = root / spec.folder
    assert not (folder / "EN-RG-65.txt").exists() and not list(folder.glob(".*part"))
    st = dataset_status("word-similarity", root)
    assert st["state"] == "partial" and st["missing"] == ["EN-RG-65.txt"]


def test_a_download_cut_in_the_middle_is_resumed_with_a_range_request(tmp_path, mirror):
    spec = get_dataset("oddmanout-crowdsourced")
    rel = f"{spec.folder}/crowdsourced_unfiltered.tsv"  # 15.9 MB
    mirror.faults[rel] = ("cut", 1)  # the first answer stops half way
    got = fetch_dataset("oddmanout-crowdsourced", tmp_path, mirror=mirror.url, attempts=2)
    assert got.ok, [f.reason for f in got.files]
    size = spec.file("crowdsourced_unfiltered.tsv").size
    asked = [rng for path, rng in mirror.requests if path == rel]
    assert asked == [None, f"bytes={size // 2}-"]  # the second asked only for the rest
    (done,) = [f for f in got.files if f.path == "crowdsourced_unfiltered.tsv"]
    assert done.resumed_from == size // 2 and done.status == "fetched"
    digest = hashlib.sha256((tmp_path / rel).read_bytes()).hexdigest()
    assert digest == spec.file("crowdsourced_unfiltered.tsv").sha256


def test_an_interrupted_fetch_keeps_its_part_and_the_next_one_resumes(tmp_path, mirror):
    spec = get_dataset("wikispeedia")
    rel = f"{spec.folder}/links.tsv"
    mirror.faults[rel] = ("cut", 1)
    first = fetch_dataset("wikispeedia", tmp_path, mirror=mirror.url, attempts=1)
    (cut,) = [f for f in first.files if f.status == "failed"]
    assert cut.path == "links.tsv" and "resumes from there" in cut.reason
    assert "connection ended after" in cut.reason
    part = tmp_path / spec.folder / ".links.tsv.part"
    kept = part.stat().st_size
    assert 0 < kept < spec.file("links.tsv").size and not (tmp_path / rel).exists()
    mirror.requests.clear()
    second = fetch_dataset("wikispeedia", tmp_path, mirror=mirror.url, attempts=1)
    assert second.ok and second.count("fetched") == 1 and second.count("present") == 4
    assert mirror.requests == [(rel, f"bytes={kept}-")] and not part.exists()
    assert dataset_status("wikispeedia", tmp_path)["state"] == "present"


def test_a_server_that_ignores_ranges_sends_the_whole_file_again(tmp_path, mirror):
    spec = get_dataset("wikispeedia")
    rel = f"{spec.folder}/links.tsv"
    part = tmp_path / spec.folder / ".links.tsv.part"
    part.parent.mkdir(parents=True)
    part.write_bytes((mirror.root / rel).read_bytes()[:1000])
    mirror.faults[rel] = ("no-range", -1)
    got = fetch_dataset("wikispeedia", tmp_path, mirror=mirror.url)
    assert got.ok and dataset_status("wikispeedia", tmp_path)["state"] == "present"


def test_a_404_is_reported_with_the_file_and_address_and_the_rest_is_fetched(tmp_path, mirror):
    spec = get_dataset("wales")
    mirror.faults[f"{spec.folder}/nodes.tsv"] = ("404", -1)
    r = _cli("datasets", "fetch", "wales", "--mirror", mirror.url, "--data-root", str(tmp_path))
    assert r.exit_code == 1
    assert f"nodes.tsv from {mirror.url}wales/nodes.tsv: HTTP 404" in " ".join(r.output.split())
    assert "wales: 5 fetched, 0 already present, 1 FAILED" in r.output
    assert dataset_status("wales", tmp_path)["missing"] == ["nodes.tsv"]


def test_a_server_that_stops_answering_is_given_up_after_the_timeout(tmp_path, mirror):
    spec = get_dataset("codenames-human-stanfordhci")
    mirror.faults[f"{spec.folder}/codenames.json"] = ("hang", -1)
    mirror.hang_s = 3.0
    t0 = time.monotonic()
    got = fetch_dataset(spec.name, tmp_path, mirror=mirror.url, timeout=0.5, attempts=2)
    took = time.monotonic() - t0
    (bad,) = [f for f in got.files if f.status == "failed"]
    assert bad.path == "codenames.json" and "no answer within 0.5 s (2 attempt(s))" in bad.reason
    assert took < 2.9  # bounded by the timeout and the attempts, not by the server
    assert got.count("fetched") == 1  # the LICENSE file came


def test_a_read_only_data_folder_is_refused_with_a_message(tmpfs, mirror):
    remount_read_only(tmpfs)
    with pytest.raises(FetchError, match=r"cannot write the data folder .*similarity"):
        fetch_dataset("word-similarity", tmpfs, mirror=mirror.url)
    r = _cli("datasets", "fetch", "word-similarity", "--mirror", mirror.url,
             "--data-root", str(tmpfs))  # fmt: skip
    assert r.exit_code == 1 and "cannot write the data folder" in r.output
    assert "Read-only file system" in r.output and mirror.requests == []


def test_a_file_longer_than_declared_is_cut_off_and_refused(tmp_path, mirror, mirror_copy):
    spec = get_dataset("codenames-human-stanfordhci")
    victim = mirror_copy / spec.folder / "LICENSE"
    original = victim.read_bytes()
    victim.write_bytes(original + b"x" * 100_000)
    try:
        got = fetch_dataset(spec.name, tmp_path, mirror=mirror.url)
    finally:
        victim.write_bytes(original)
    (bad,) = [f for f in got.files if f.status == "failed"]
    assert bad.path == "LICENSE" and f"more than its declared {len(original):,} bytes" in bad.reason
    assert not list((tmp_path / spec.folder).glob(".LICENSE*"))


def test_two_fetches_at_once_both_end_with_intact_files(tmp_path, mirror):
    outcomes = []

    def one():
        outcomes.append(fetch_dataset("word-similarity", tmp_path, mirror=mirror.url))

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(outcomes) == 2 and all(o.ok for o in outcomes)
    assert sum(o.count("fetched") for o in outcomes) == 13  # each file downloaded once
    assert dataset_status("word-similarity", tmp_path)["state"] == "present"


def test_a_damaged_local_copy_is_replaced(tmp_path, mirror):
    first = fetch_dataset("word-similarity", tmp_path, mirror=mirror.url)
    assert first.ok
    path = tmp_path / "similarity" / "EN-MC-30.txt"
    path.write_text("broken")
    assert dataset_status("word-similarity", tmp_path)["damaged"] == ["EN-MC-30.txt"]
    listed = _cli("datasets", "list", "--data-root", str(tmp_path))
    assert "damaged (1 damaged: EN-MC-30.txt)" in listed.output
    r = _cli("datasets", "fetch", "word-similarity", "--mirror", mirror.url,
             "--data-root", str(tmp_path))  # fmt: skip
    assert "1 fetched, 12 already present, 1 replacing a damaged copy" in r.output
    path.write_text("broken again")
    again = fetch_dataset("word-similarity", tmp_path, mirror=mirror.url)
    (redone,) = [f for f in again.files if f.status == "fetched"]
    assert redone.path == "EN-MC-30.txt" and redone.replaced_damaged
    assert dataset_status("word-similarity", tmp_path)["state"] == "present"


def test_a_derived_file_without_a_mirror_says_a_mirror_is_needed(tmp_path):
    got = fetch_dataset("codenames-human-heyyjudes", tmp_path, mirror="")
    (bad,) = got.files
    assert bad.status == "failed" and "has no upstream copy" in bad.reason
    assert "--mirror URL" in bad.reason


def test_a_local_folder_is_a_mirror_too(tmp_path, mirror_copy):
    got = fetch_dataset("word-similarity", tmp_path, mirror=str(mirror_copy))
    assert got.ok and got.count("fetched") == 13
    assert all(f.source.startswith("file://") for f in got.files)


def test_the_mirror_environment_variable_is_read(tmp_path, mirror, monkeypatch):
    monkeypatch.setenv("WORDGAMES_MIRROR", mirror.url)
    r = _cli("datasets", "fetch", "wales", "--data-root", str(tmp_path))
    assert r.exit_code == 0, r.output
    assert {p for p, _ in mirror.requests} == {
        f"wales/{f.path}" for f in get_dataset("wales").files
    }


def test_a_password_in_the_mirror_address_is_never_printed(tmp_path, mirror):
    url = mirror.url.replace("http://", "http://lab:sup3rs3cret@")
    mirror.faults["wales/nodes.tsv"] = ("404", -1)
    r = _cli("datasets", "fetch", "wales", "--mirror", url, "--data-root", str(tmp_path))
    assert r.exit_code == 1 and "HTTP 404" in r.output and "sup3rs3cret" not in r.output
    assert shown(url) == mirror.url


def test_every_declared_file_has_its_size_and_a_pinned_upstream_address_or_none(data_root):
    """A url is the raw file of the declared upstream repository at a 40-digit commit."""
    raw = re.compile(r"https://raw\.githubusercontent\.com/([^/]+/[^/]+)/([0-9a-f]{40})/.+")
    with_url = 0
    for spec in all_datasets().values():
        for f in spec.files:
            assert f.size == (data_root / spec.folder / f.path).stat().st_size, f.path
            if f.path.startswith("derived/"):
                assert not f.url, f.path  # made here: only a mirror has it
            if not f.url:
                continue
            with_url += 1
            m = raw.fullmatch(f.url)
            assert m, f.url
            repo, commit = m.groups()
            # the repository is the declared upstream (a second one is named beside it there)
            known = spec.upstream.lower() + spec.notes.lower()
            assert repo.lower() in known or repo == "Mark-Hopkins-at-Reed/oddoneout", f.url
            assert commit[:7] in spec.upstream or repo == "Mark-Hopkins-at-Reed/oddoneout"
            assert file_source(spec, f, None) == f.url
    assert with_url >= 60


def test_without_wordgames_data_the_data_root_is_the_per_user_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("WORDGAMES_DATA", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert user_data_root() == tmp_path / "wordgames"
    with pytest.raises(DatasetMissingError) as exc:
        from wordgames.datasets import dataset_dir

        dataset_dir("wales")
    msg = str(exc.value)
    assert str(tmp_path / "wordgames" / "wales") in msg
    assert "`wordgames datasets fetch wales`" in msg


def test_progress_is_told_each_files_size_and_every_byte(tmp_path, mirror):
    from wordgames.datasets.fetch import Progress

    class Recorder(Progress):
        def __init__(self):
            self.started, self.bytes, self.ended = [], 0, 0

        def start(self, label, total, done):
            self.started.append((label, total, done))

        def advance(self, n):
            self.bytes += n

        def end(self):
            self.ended += 1

    rec = Recorder()
    spec = get_dataset("wales")
    assert fetch_dataset("wales", tmp_path, mirror=mirror.url, progress=rec).ok
    assert rec.started == [(f.path, f.size, 0) for f in spec.files]
    assert rec.bytes == sum(f.size for f in spec.files) and rec.ended == len(spec.files)


def test_a_full_disk_keeps_what_was_written_and_says_so(tmpfs, mirror):
    # a 1 MB file system: the 15.9 MB file cannot fit; the 0.1 MB one can
    got = fetch_dataset("oddmanout-crowdsourced", tmpfs, mirror=mirror.url, attempts=1)
    bad = {f.path: f.reason for f in got.files if f.status == "failed"}
    assert "crowdsourced_unfiltered.tsv" in bad
    assert "No space left on device" in bad["crowdsourced_unfiltered.tsv"]
    assert "resumes from there" in bad["crowdsourced_unfiltered.tsv"]
    assert not (tmpfs / "oddmanout" / "crowdsourced_unfiltered.tsv").exists()


def test_a_run_without_its_data_names_the_fetch_command(tmp_path):
    import wordgames

    res = wordgames.evaluate(measures=["similarity"], data_root=str(tmp_path), quick=True)
    assert not res.scores
    (skip,) = [s for s in res.skipped if s.measure == "similarity"]
    assert "`wordgames datasets fetch word-similarity`" in skip.reason


def test_verify_says_what_is_missing_or_damaged_and_exits_non_zero(tmp_path, mirror):
    """Issue 44: ``datasets verify`` on an empty root is no silent success; a damaged or a
    partly missing data set is named file by file, with exit 1; intact ones say ok."""
    empty = _cli("datasets", "verify", "--data-root", str(tmp_path / "none"))
    assert empty.exit_code == 1
    assert "no data set is under" in empty.output and "wordgames datasets fetch" in empty.output
    assert fetch_dataset("word-similarity", tmp_path, mirror=mirror.url).ok
    ok = _cli("datasets", "verify", "--data-root", str(tmp_path))
    assert ok.exit_code == 0, ok.output
    assert "ok       word-similarity (13 files)" in ok.output
    absent = len(all_datasets()) - 1
    assert f"not fetched ({absent}):" in ok.output and "FAILED" not in ok.output
    (tmp_path / "similarity" / "EN-MC-30.txt").write_text("broken")
    (tmp_path / "similarity" / "EN-RG-65.txt").unlink()
    bad = _cli("datasets", "verify", "--data-root", str(tmp_path))
    assert bad.exit_code == 1
    assert ("FAILED   word-similarity: 1 of 13 missing, 1 damaged (sha256 differs) "
            "(missing: EN-RG-65.txt; damaged: EN-MC-30.txt)") in bad.output  # fmt: skip
    named = _cli("datasets", "verify", "wikispeedia", "--data-root", str(tmp_path))
    assert named.exit_code == 1 and "FAILED   wikispeedia: " in named.output  # asked, absent
    unknown = _cli("datasets", "verify", "word-similarty", "--data-root", str(tmp_path))
    assert unknown.exit_code == 2 and "did you mean" in unknown.output
