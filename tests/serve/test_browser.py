"""End to end in a real browser: headless Chromium (Debian's ``chromium`` driven by Selenium
through Debian's ``chromium-driver``; nothing is downloaded) plays one participant through each
game to the completion code against ``wordgames serve`` in a subprocess. The test then checks the
database rows and that the exported files give the expected measure records.

A screenshot of each game screen is saved under the test's temporary folder (``screens/``) and,
when ``WORDGAMES_SERVE_SCREENS`` names a folder, copied there too."""

from __future__ import annotations

import json
import os
import shutil
import warnings
from pathlib import Path

import pytest

from tests.serve.conftest import Server, need
from tests.serve.helpers import CROWD_EXAMPLES, PUZZLES, graph_next, write_study_files

pytestmark = pytest.mark.slow  # real data, a browser or servers: seconds each

CHROMIUM = next(
    (p for p in (shutil.which("chromium"), "/usr/bin/chromium") if p and os.path.exists(p)), None
)
DRIVER = next(
    (p for p in (shutil.which("chromedriver"), "/usr/bin/chromedriver") if p and os.path.exists(p)),
    None,
)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)
ANIMALS = {"dog", "cat", "horse", "cow", "sheep", "lion", "tiger", "rabbit"}


class Browser:
    """A Chromium session (Selenium + Debian's chromedriver), restartable."""

    def __init__(self, profiles):
        self.profiles = profiles
        self.drv = None
        self.restart()

    def restart(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        if self.drv is not None:
            self.drv.quit()
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for f in FLAGS:
            opts.add_argument(f)
        opts.add_argument(f"--user-data-dir={self.profiles.mktemp('profile')}")
        opts.add_argument("--window-size=1100,900")
        self.drv = webdriver.Chrome(service=Service(executable_path=DRIVER), options=opts)
        self.drv.set_page_load_timeout(240)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    need(
        CHROMIUM is not None and DRIVER is not None,
        "headless Chromium not installed (apt-get install chromium chromium-driver)",
    )
    b = Browser(tmp_path_factory)
    yield b
    b.drv.quit()


@pytest.fixture(scope="module")
def server(tmp_path_factory, inputs):
    folder = tmp_path_factory.mktemp("browser")
    files = write_study_files(folder, inputs)
    args = [x for f in files for x in ("--study", str(f))]
    srv = Server([*args, "--db", f"sqlite:///{folder / 'study.db'}"], folder).start()
    yield srv, folder
    srv.stop()


def shot(drv, folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    assert drv.save_screenshot(str(path))
    return path


def _by(drv, css):
    from selenium.webdriver.common.by import By

    return drv.find_element(By.CSS_SELECTOR, css)


def _all(drv, css):
    from selenium.webdriver.common.by import By

    return drv.find_elements(By.CSS_SELECTOR, css)


def _go(drv, element, timeout: float = 60) -> None:
    """Click something that loads a page, and wait until the new page replaced the old."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    # a mark on the old page's window: a new page has none (no element handle goes stale,
    # which chromedriver sometimes reports as "node does not belong to the document")
    drv.execute_script("window.__wordgamesOldPage = true;")
    element.click()
    WebDriverWait(drv, timeout, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script(
            "return window.__wordgamesOldPage === undefined && document.readyState === 'complete'"
        )
    )


def _enter(drv, srv, slug, pid, screens):
    drv.delete_all_cookies()
    drv.get(f"{srv.url}/s/{slug}/?PROLIFIC_PID={pid}&STUDY_ID=s1&SESSION_ID=x1")
    if slug == "cn-recv":
        shot(drv, screens, "00-consent")
    _by(drv, "#consent").click()
    _go(drv, _by(drv, "#go"))
    if slug == "cn-recv":
        shot(drv, screens, "01-instructions")
    _go(drv, _by(drv, "#start"))


def _receiver_turn(drv, screens, k):
    clue = _by(drv, "#clue strong").text
    n = int(_by(drv, "#clue .number").text)
    words = [b.get_attribute("data-word") for b in _all(drv, "button.word")]
    picks = [w for w in words if w in ANIMALS][:n] if clue == "animal" else words[:n]
    for w in picks:  # clicking the cards fills the picks (the page's script)
        _by(drv, f'button.word[data-word="{w}"]').click()
    assert [_by(drv, f"#pick{i + 1}").get_attribute("value") for i in range(n)] == picks
    shot(drv, screens, f"10-codenames-receiver-{k}")
    _go(drv, _by(drv, "#submit"))


def _sender_turn(drv, screens, k):
    blue = [e.text.split("\n")[0].replace(" (blue)", "") for e in _all(drv, ".word.blue")]
    _by(drv, "#clue").send_keys("zebra")
    from selenium.webdriver.support.ui import Select

    Select(_by(drv, "#number")).select_by_value(str(len(blue)))
    for box in _all(drv, "input[name=targets]"):
        box.click()
    shot(drv, screens, f"20-codenames-sender-{k}")
    _go(drv, _by(drv, "#submit"))
    if _all(drv, "#guesses"):
        shot(drv, screens, f"21-codenames-sender-feedback-{k}")
        _go(drv, _by(drv, "#next"))


def _wiki_turn(drv, screens, k):
    goal = _by(drv, "#target").text.replace(" ", "_")
    page = _by(drv, "#page").text.replace(" ", "_")
    if k == 0:
        shot(drv, screens, "30-wiki")
    nxt = graph_next(page, goal)
    for b in _all(drv, "button.link"):
        if b.get_attribute("value") == nxt:
            _go(drv, b)
            return
    raise AssertionError(f"no link to {nxt} on {page}")


def _omo_turn(drv, screens, k):
    words = [e.get_attribute("value") for e in _all(drv, "input[name=choice]")][:-1]
    known = {frozenset(p["words"]): p["answer"] for p in PUZZLES}
    odd = known.get(frozenset(words), "table")
    _by(drv, f'input[name=choice][value="{odd}"]').click()
    _by(drv, "#category").send_keys("a group")
    shot(drv, screens, f"40-oddmanout-{k}")
    _go(drv, _by(drv, "#submit"))


def _crowd_turn(drv, screens, k):
    if _all(drv, ".note"):
        words = ["banana", "pear", "plum"]
    else:
        words = CROWD_EXAMPLES[_by(drv, "#category-name").text]
    for i, w in enumerate(words, start=1):
        _by(drv, f"#ex{i}").send_keys(w)
    shot(drv, screens, f"50-oddmanout-crowd-{k}")
    _go(drv, _by(drv, "#submit"))


def _play_game(browser: Browser, srv, slug: str, turn, screens) -> str:
    """One participant through one game; returns the completion code shown. A crash of the
    browser itself (not a failed check) is retried once in a new session, as a new person."""
    from selenium.common.exceptions import WebDriverException

    for attempt in (0, 1):
        try:
            drv = browser.drv
            _enter(drv, srv, slug, f"BROWSER{slug.replace('-', '')}{attempt}", screens)
            for k in range(40):
                if _all(drv, "#code"):
                    break
                turn(drv, screens, k)
            return _by(drv, "#code").text
        except WebDriverException as exc:
            if attempt:
                raise
            warnings.warn(f"Chromium failed during {slug} ({exc.msg}); new session", stacklevel=1)
            browser.restart()
    raise AssertionError("unreachable")


TURNS = {
    "cn-recv": _receiver_turn,
    "cn-send": _sender_turn,
    "wiki": _wiki_turn,
    "omo": _omo_turn,
    "crowd": _crowd_turn,
}


def test_each_game_in_chromium_to_the_completion_code(browser, server, tmp_path):
    from tests.serve.test_api import rows
    from wordgames.serve.models import Answer, Participant

    srv, folder = server
    screens = tmp_path / "screens"
    codes = {}
    for slug, turn in TURNS.items():
        codes[slug] = _play_game(browser, srv, slug, turn, screens)
        shot(browser.drv, screens, f"9{len(codes)}-done-{slug}")
    browser = browser.drv
    assert codes == {
        "cn-recv": "RECV1",
        "cn-send": "SEND1",
        "wiki": "WIKI1",
        "omo": "OMO1",
        "crowd": "CROWD1",
    }
    # a phone-sized screen of the receiver's board
    browser.set_window_size(390, 844)
    _enter(browser, srv, "cn-recv", "PHONE", screens)
    shot(browser, screens, "11-codenames-receiver-phone")
    browser.set_window_size(1100, 900)

    _admin(browser, srv, screens)
    url = f"sqlite:///{folder / 'study.db'}"
    parts = [p for p in rows(url, Participant) if p.status == "completed"]
    assert len(parts) == 5 and all(p.attention_failed == 0 for p in parts)
    answers = [a for a in rows(url, Answer) if a.participant_id in {p.id for p in parts}]
    assert sum(len(json.loads(p.plan)) for p in parts) == len(answers)
    assert all(a.client_rt_ms is not None and a.client_rt_ms >= 0 for a in answers)
    _check_export(folder)
    if os.environ.get("WORDGAMES_SERVE_SCREENS"):
        dest = Path(os.environ["WORDGAMES_SERVE_SCREENS"])
        dest.mkdir(parents=True, exist_ok=True)
        for f in screens.glob("*.png"):
            shutil.copy(f, dest / f.name)
    assert len(list(screens.glob("*.png"))) >= 12


def _admin(drv, srv, screens) -> None:
    """The admin page: log in with the token, compute the live measures, look at them."""
    from tests.serve.conftest import ADMIN

    drv.get(f"{srv.url}/admin")
    _by(drv, "#token").send_keys(ADMIN)
    _go(drv, _by(drv, "#login"))
    shot(drv, screens, "96-admin")
    drv.get(f"{srv.url}/admin/s/cn-recv")
    _go(drv, _by(drv, "#compute"), timeout=240)  # wordgames.evaluate runs meanwhile
    cells = [td.text for td in _all(drv, "#measures td")]
    assert "human_receiver.map" in cells and "nearest" in cells, _by(drv, "main").text[:3000]
    drv.set_window_size(1300, 1400)
    shot(drv, screens, "97-admin-measures")
    drv.set_window_size(1100, 900)


def _check_export(folder: Path) -> None:
    from typer.testing import CliRunner

    import wordgames
    from wordgames.cli import app
    from wordgames.codenames.human_data import read_user_file
    from wordgames.oddmanout.puzzles import read_puzzles
    from wordgames.wales.loaders import read_wikispeedia_paths

    out = folder / "export"
    r = CliRunner().invoke(
        app, ["collect", "export", "--db", f"sqlite:///{folder / 'study.db'}", "-o", str(out)]
    )
    assert r.exit_code == 0, r.output
    data = read_user_file(out / "codenames.jsonl")
    assert len(data.receiver) == 3 and len(data.sender) == 3
    assert all(s.clue == "zebra" and len(s.targets) == 3 for s in data.sender)
    res = wordgames.evaluate(
        "glove-6b-50d",
        measures=["codenames"],
        options={
            "codenames": {
                "files": [str(out / "codenames.jsonl")],
                "datasets": None,
                "max_records": None,
                "n_restarts": 2,
            }
        },
    )
    f = res.to_frame()
    f = f[f.dataset == "user:codenames.jsonl"].set_index(["agent", "metric"])  # the file's rows
    assert f.loc[("nearest", "human_receiver.map"), "n"] == 3
    assert f.loc[("nearest", "human_sender.guess_score"), "n"] == 3
    assert len(read_wikispeedia_paths(out / "wiki_paths_finished.tsv").paths) == 2
    assert len(read_puzzles(out / "oddmanout_answers.jsonl")) == 3
