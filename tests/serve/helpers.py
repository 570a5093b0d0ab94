"""Study files made for the tests (small: own word list, graph and puzzles), and a scripted
participant that plays through the HTML forms like a browser without JavaScript."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

WORDS = (
    "dog cat horse cow sheep lion tiger rabbit piano guitar violin drum trumpet flute "
    "apple banana cherry grape orange lemon car truck bus train plane boat ship bicycle "
    "river lake ocean mountain forest desert island valley"
).split()

# a small link graph (names, not ids); every page reaches every other
EDGES = """source target
Animal Dog
Animal Cat
Animal Music
Dog Cat
Dog Animal
Cat Animal
Cat Lion
Lion Africa
Lion Cat
Africa Animal
Africa Music
Music Piano
Music Animal
Piano Music
Piano Guitar
Guitar Music
Guitar Piano
"""

PUZZLES = [
    {
        "words": ["apple", "banana", "cherry", "grape", "truck"],
        "answer": "truck",
        "category": "fruit",
    },
    {"words": ["dog", "cat", "horse", "cow", "piano"], "answer": "piano", "category": "animal"},
    {
        "words": ["guitar", "violin", "drum", "flute", "river"],
        "answer": "river",
        "category": "instrument",
    },
    {"words": ["car", "bus", "train", "plane", "lemon"], "answer": "lemon", "category": "vehicle"},
    {
        "words": ["lake", "ocean", "river", "island", "tiger"],
        "answer": "tiger",
        "category": "water",
    },
    {"words": ["lion", "tiger", "rabbit", "sheep", "boat"], "answer": "boat", "category": "animal"},
]


CROWD_EXAMPLES = {
    "nocturnal mammal": ["badger", "hedgehog", "fox"],
    "baseball equipment": ["glove", "cap", "ball", "helmet"],
    "fish": ["trout", "salmon", "carp"],
    "instrument": ["guitar", "cello", "drum"],
}


def write_inputs(folder: Path) -> dict:
    """Word list, graph and puzzle files for the test studies."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "words.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    (folder / "graph.tsv").write_text(EDGES, encoding="utf-8")
    (folder / "puzzles.jsonl").write_text(
        "".join(json.dumps(p) + "\n" for p in PUZZLES), encoding="utf-8"
    )
    return {
        k: str(folder / f)
        for k, f in (("words", "words.txt"), ("graph", "graph.tsv"), ("puzzles", "puzzles.jsonl"))
    }


def study_dicts(inputs: dict, *, trials: int = 3) -> list[dict]:
    """One small study per game."""
    cn = {
        "embedding": "glove-6b-50d",
        "vocab_size": 20000,
        "word_list": inputs["words"],
        "n_restarts": 2,
    }
    return [
        {
            "slug": "cn-recv",
            "game": "codenames-receiver",
            "trials": trials,
            "pool_size": 6,
            "completion_code": "RECV1",
            "attention": {"positions": [1]},
            "texts": {"title": "Guess <b>the</b> clue"},
            "codenames": {
                **cn,
                "agents": ["cluster", "exhaustive:avg_blue_dist"],
                "n_blue": 4,
                "n_red": 4,
                "max_number": 2,
                # the flows below answer trial after trial; the page that reveals the
                # targets after a round (the default) has a test of its own
                "reveal_targets": False,
            },
        },
        {
            "slug": "cn-send",
            "game": "codenames-sender",
            "trials": trials,
            "pool_size": 6,
            "completion_code": "SEND1",
            "attention": {"positions": [1]},
            "codenames": {
                **cn,
                "feedback_agents": ["nearest"],
                "n_blue": 3,
                "n_red": 3,
                "no_shared_stem": True,
            },
        },
        {
            "slug": "wiki",
            "game": "wiki",
            "trials": 2,
            "pool_size": 4,
            "completion_code": "WIKI1",
            "wiki": {
                "graph": inputs["graph"],
                "pairs": "random",
                "min_distance": 2,
                "max_distance": 3,
                "max_clicks": 6,
            },
        },
        {
            "slug": "omo",
            "game": "oddmanout",
            "trials": trials,
            "pool_size": 6,
            "completion_code": "OMO1",
            "attention": {"positions": [0], "action": "end"},
            "oddmanout": {"puzzles": inputs["puzzles"]},
        },
        {
            "slug": "crowd",
            "game": "oddmanout-crowd",
            "trials": 4,
            "pool_size": 4,
            "completion_code": "CROWD1",
            "attention": {"positions": [1]},
            "oddmanout": {
                "seeds": [
                    {"seed": "bat", "categories": ["nocturnal mammal", "baseball equipment"]},
                    {"seed": "bass", "categories": ["fish", "instrument"]},
                ]
            },
        },
    ]


def write_study_files(folder: Path, inputs: dict, **kw) -> list[Path]:
    paths = []
    for d in study_dicts(inputs, **kw):
        p = folder / f"{d['slug']}.json"
        p.write_text(json.dumps(d), encoding="utf-8")
        paths.append(p)
    return paths


# --------------------------------------------------------------------------- page parsing
def hidden(page: str, name: str) -> str | None:
    m = re.search(rf'name="{name}" value="([^"]*)"', page)
    return html.unescape(m.group(1)) if m else None


def all_hidden(page: str, name: str) -> list[str]:
    return [html.unescape(v) for v in re.findall(rf'name="{name}" value="([^"]*)"', page)]


def board_words(page: str) -> list[str]:
    return [html.unescape(w) for w in re.findall(r'data-word="([^"]*)"', page)]


def clue_of(page: str) -> tuple[str, int]:
    m = re.search(r'Clue: <strong>([^<]*)</strong> <span class="number">(\d+)</span>', page)
    return html.unescape(m.group(1)), int(m.group(2))


def sender_board(page: str) -> tuple[list[str], list[str]]:
    words = re.findall(r'<span class="word (blue|red)">([^<]*)<span', page)
    return (
        [html.unescape(w) for c, w in words if c == "blue"],
        [html.unescape(w) for c, w in words if c == "red"],
    )


def links(page: str) -> list[str]:
    return [html.unescape(v) for v in re.findall(r'name="to" value="([^"]*)" class="link', page)]


def current_page(page: str) -> str:
    return html.unescape(re.search(r'<h2 id="page">([^<]*)</h2>', page).group(1))


def target(page: str) -> str:
    return html.unescape(re.search(r'<strong id="target">([^<]*)</strong>', page).group(1))


class Player:
    """A participant driving the forms with an httpx-like client (TestClient or httpx)."""

    def __init__(self, client, slug: str, pid: str | None = None, session: str = "se1"):
        self.c = client
        self.slug = slug
        self.pid = pid
        self.session = session

    def link(self) -> str:
        """The study link the platform gave this participant."""
        q = f"?PROLIFIC_PID={self.pid}&STUDY_ID=st1&SESSION_ID={self.session}" if self.pid else ""
        return f"/s/{self.slug}/{q}"

    def start(self) -> str:
        r = self.c.get(self.link(), follow_redirects=True)
        assert r.status_code == 200, r.text
        if 'name="consent"' not in r.text:
            return r.text
        r = self.c.post(
            f"/s/{self.slug}/consent",
            data={
                "csrf": hidden(r.text, "csrf"),
                "pid": hidden(r.text, "pid"),
                "sid": hidden(r.text, "sid"),
                "ses": hidden(r.text, "ses"),
                "consent": "yes",
            },
            follow_redirects=True,
        )
        assert r.status_code == 200 and 'id="start"' in r.text, r.text
        return self.play()

    def play(self) -> str:
        r = self.c.get(f"/s/{self.slug}/play", follow_redirects=True)
        assert r.status_code == 200, r.text
        return r.text

    def post(self, path: str, data: dict, page: str, follow: bool = True):
        return self.c.post(
            f"/s/{self.slug}/{path}", data={"t": hidden(page, "t"), **data}, follow_redirects=follow
        )


def good_answer(game: str, page: str) -> tuple[str, dict]:
    """A valid answer for the trial on ``page`` (the attention checks answered correctly)."""
    if game == "codenames-receiver":
        clue, n = clue_of(page)
        words = board_words(page)
        animals = [
            w
            for w in words
            if w in ("dog", "cat", "horse", "cow", "sheep", "lion", "tiger", "rabbit")
        ]
        picks = animals[:n] if clue == "animal" else words[:n]
        return "answer", {f"pick{i + 1}": w for i, w in enumerate(picks)}
    if game == "codenames-sender":
        blue, red = sender_board(page)
        return "answer", {
            "clue": "zebra" if "zebra" not in blue + red else "yellow",
            "number": str(len(blue)),
            "targets": blue,
        }
    if game == "oddmanout":
        words = re.findall(r'name="choice" value="([^"]*)" id="c-\d', page)
        known = {frozenset(p["words"]): p["answer"] for p in PUZZLES}
        odd = known.get(frozenset(words), "table")
        return "answer", {"choice": odd, "category": "things"}
    if game == "oddmanout-crowd":
        if "type <strong>banana" in page:
            return "answer", {"ex1": "banana", "ex2": "pear", "ex3": "plum"}
        cat = html.unescape(re.search(r'id="category-name">([^<]*)<', page).group(1))
        ex = CROWD_EXAMPLES.get(cat, ["owl", "moth", "fox"])
        return "answer", {f"ex{i + 1}": w for i, w in enumerate(ex)}
    raise ValueError(game)


def graph_next(frm: str, to: str) -> str:
    """The next page on a shortest path from ``frm`` to ``to`` in :data:`EDGES` (BFS)."""
    adj: dict[str, list[str]] = {}
    for line in EDGES.splitlines()[1:]:
        a, b = line.split()
        adj.setdefault(a, []).append(b)
    prev, queue = {frm: None}, [frm]
    while queue:
        v = queue.pop(0)
        for u in adj.get(v, []):
            if u not in prev:
                prev[u] = v
                queue.append(u)
    step = to
    while prev[step] != frm:
        step = prev[step]
    return step


def play_to_end(player: Player, game: str, page: str, limit: int = 60) -> str:
    """Answer every trial correctly until the completion page; returns it."""
    for _ in range(limit):
        if 'id="code"' in page or 'id="ended"' in page:
            return page
        if game == "wiki":
            r = player.post("move", {"to": graph_next(current_page(page), target(page))}, page)
        else:
            path, data = good_answer(game, page)
            r = player.post(path, data, page)
        assert r.status_code == 200, r.text[:2000]
        page = r.text
        if 'id="next"' in page:  # the sender's feedback page
            page = player.play()
    raise AssertionError("did not reach the end")


def admin_login(client, token: str, follow: bool = True):
    """Log in on the admin form as a browser does: the form (its CSRF token), then the POST."""
    page = client.get("/admin").text
    return client.post(
        "/admin/login",
        data={"token": token, "csrf": hidden(page, "csrf")},
        follow_redirects=follow,
    )
