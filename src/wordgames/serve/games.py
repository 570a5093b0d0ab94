"""The five games: their items, trials, checked answers and outcomes.

How a study's items are generated, what a trial shows, how an answer is checked (server-side,
every field) and what it leads to (feedback, attention check outcome).

Each game is a :class:`Game` with

* ``generate(cfg)`` -> ``{condition: [payload, ...]}`` (``pool_size`` items per condition,
  seeded) and ``attention(cfg)`` -> ``[payload, ...]``;
* ``check(cfg, payload, form)`` -> the answer (a dict) or :class:`AnswerError` with a message
  for the participant;
* ``outcome(cfg, payload, answer, condition, kind)`` -> ``{"attention_ok": ..., ...}``.

Payloads are JSON; ``public(payload)`` is what the page may show (a receiver never sees the
colours). The wiki game's clicks are handled by :mod:`wordgames.serve.wiki`.
"""

from __future__ import annotations

import logging

from wordgames.serve import resources
from wordgames.serve.config import StudyConfig, StudyConfigError
from wordgames.serve.gamebase import (
    ANIMALS,
    CLUE_RE,
    UNRELATED,
    WORD_RE,
    AnswerError,
    Game,
    count_field,
    field,
    seeded_rng,
)
from wordgames.subjects import AnswerError as PlayerAnswerError

log = logging.getLogger("wordgames.serve")


# --------------------------------------------------------------------------- Codenames
def _boards(cfg: StudyConfig, n_blue: int, n_red: int):
    from wordgames.codenames.board import Board, ClueRules

    cn = cfg.codenames
    words = resources.word_list(
        cn.get("word_list", "codenames"), cn.get("embedding", resources.DEFAULT_EMBEDDING)
    )
    if len(words) < n_blue + n_red:
        raise StudyConfigError(
            f"study {cfg.slug}: the word list has {len(words)} usable words, "
            f"a board needs {n_blue + n_red}"
        )
    rules = ClueRules(
        no_substring=bool(cn.get("no_substring", False)),
        no_shared_stem=bool(cn.get("no_shared_stem", True)),
    )
    return [
        Board.random(words, n_blue, n_red, seed=cfg.seed * 1_000_003 + i, rules=rules)
        for i in range(cfg.pool_size)
    ]


def _attention_board(cfg: StudyConfig, n_blue: int, n_red: int) -> dict:
    """The paper's attention check: the blue words are all animals, the red ones unrelated."""
    rng = seeded_rng(cfg.seed, 7)
    k = min(max(n_blue, 2), 3)
    blue = [ANIMALS[i] for i in rng.choice(len(ANIMALS), k, replace=False)]
    red = [
        UNRELATED[i]
        for i in rng.choice(len(UNRELATED), min(n_blue + n_red - k, len(UNRELATED)), replace=False)
    ]
    board = blue + red
    return {"board": [board[i] for i in rng.permutation(len(board))], "blue": blue, "red": red}


class CodenamesReceiver(Game):
    """The Codenames receiver game: the person guesses the words of an agent's clue.

    An agent (the participant's condition) gives a clue and number; the person picks that many
    board words, best first. Stored as a human-receiver record.
    """

    name = "codenames-receiver"

    def generate(self, cfg):
        cn = cfg.codenames
        boards = _boards(cfg, int(cn.get("n_blue", 6)), int(cn.get("n_red", 6)))
        out = {}
        for cond in cfg.conditions:
            from wordgames.codenames.agents import agent_params

            sender = resources.agent("sender", cond, cfg)
            params = _json_safe(agent_params(sender))
            items = []
            cap = int(cn.get("max_number", 4))
            unread = 0
            for b in boards:
                try:
                    clue, number = sender.give_clue(b)
                except PlayerAnswerError:  # a chat model's unreadable clue: the board is left out
                    unread += 1
                    continue
                shown = max(1, min(int(number), len(b.blue), cap))
                items.append(
                    {
                        "board": list(b.words),
                        "blue": list(b.blue),
                        "red": list(b.red),
                        "clue": clue,
                        "number": shown,
                        "agent_number": int(number),
                        "clue_source": cond,
                        "agent": params,
                    }
                )
            if unread:
                log.warning(
                    "study %s: %s gave no readable clue for %d of %d boards: left out",
                    cfg.slug, cond, unread, len(boards),
                )  # fmt: skip
            if not items:
                raise StudyConfigError(
                    f"study {cfg.slug}: agent {cond!r} gave no readable clue for any of "
                    f"{len(boards)} boards"
                )
            out[cond] = items
        return out

    def attention(self, cfg):
        own = super().attention(cfg)
        if own:
            return own
        cn = cfg.codenames
        a = _attention_board(cfg, int(cn.get("n_blue", 6)), int(cn.get("n_red", 6)))
        return [
            {
                **a,
                "clue": "animal",
                "number": len(a["blue"]),
                "clue_source": "attention",
                "expect": a["blue"],
            }
        ]

    def public(self, payload):
        return {"board": payload["board"], "clue": payload["clue"], "number": payload["number"]}

    def check(self, cfg, payload, form):
        board = payload["board"]
        picks = [field(form, f"pick{i}", required=False) for i in range(1, payload["number"] + 1)]
        picks = [p.lower() for p in picks if p]
        if len(picks) != payload["number"]:
            raise AnswerError(f"please pick {payload['number']} word(s)")
        if any(p not in board for p in picks):
            raise AnswerError("every pick must be a word on the board")
        if len(set(picks)) != len(picks):
            raise AnswerError("pick each word only once")
        return {"chosen": picks}

    def outcome(self, cfg, payload, answer, condition, kind):
        if kind == "attention":
            return {"attention_ok": set(answer["chosen"]) <= set(payload["expect"])}
        out = {"attention_ok": None}
        if cfg.codenames.get("reveal_targets", True):
            # after the round the person learns which words the clue's team held
            blue = set(payload["blue"])
            out["feedback"] = {
                "reveal": True,
                "targets": list(payload["blue"]),
                "chosen": list(answer["chosen"]),
                "right": [w in blue for w in answer["chosen"]],
            }
        return out


class CodenamesSender(Game):
    """The Codenames sender game: the person gives a clue, optionally guessed by an agent.

    The person sees a coloured board and gives a one-word clue, a number and the words meant;
    optionally an agent receiver (the condition) guesses, shown as feedback.
    """

    name = "codenames-sender"

    def generate(self, cfg):
        cn = cfg.codenames
        boards = _boards(cfg, int(cn.get("n_blue", 3)), int(cn.get("n_red", 3)))
        items = [{"board": list(b.words), "blue": list(b.blue), "red": list(b.red)} for b in boards]
        return {cond: items for cond in cfg.conditions}

    def attention(self, cfg):
        own = super().attention(cfg)
        if own:
            return own
        cn = cfg.codenames
        a = _attention_board(cfg, int(cn.get("n_blue", 3)), int(cn.get("n_red", 3)))
        return [{**a, "expect": a["blue"]}]

    def public(self, payload):
        return {"board": payload["board"], "blue": payload["blue"], "red": payload["red"]}

    def check(self, cfg, payload, form):
        from wordgames.codenames.board import Board, ClueRules, IllegalClueError

        cn = cfg.codenames
        clue = field(form, "clue", max_len=40).lower()
        try:
            number = count_field(field(form, "number", max_len=3), "number", lo=1,
                                 hi=len(payload["blue"]))  # fmt: skip
        except AnswerError:
            raise AnswerError(f"the number must be between 1 and {len(payload['blue'])}") from None
        targets = (
            [t.strip().lower() for t in form.getlist("targets")]
            if hasattr(form, "getlist")
            else list(form.get("targets", []))
        )
        if len(targets) > len(payload["blue"]) or not set(targets) <= set(payload["blue"]):
            raise AnswerError("the words you meant must be blue words")
        if len(set(targets)) != number:
            raise AnswerError(
                f"tick exactly {number} blue word(s): the number says how many "
                "words your clue is for"
            )
        if " " not in clue and not CLUE_RE.fullmatch(clue):
            raise AnswerError("a clue is one word: letters, and ' or - inside it, only")
        rules = ClueRules(
            no_substring=bool(cn.get("no_substring", False)),
            no_shared_stem=bool(cn.get("no_shared_stem", True)),
        )
        board = Board(payload["blue"], payload["red"], rules, payload["board"])
        try:
            clue = board.check_clue(clue)
        except IllegalClueError:
            raise AnswerError(_clue_message(clue, rules)) from None
        if cn.get("clue_in_vocabulary", True):
            emb = resources.embedding(cn.get("embedding", resources.DEFAULT_EMBEDDING))
            if emb.lookup([clue]).indices[0] < 0:
                raise AnswerError(
                    f"we do not know the word '{clue}': please check the spelling "
                    "or use another common word"
                )
        return {
            "clue": clue,
            "number": number,
            "targets": [w for w in payload["blue"] if w in set(targets)],
        }

    def outcome(self, cfg, payload, answer, condition, kind):
        out = {"attention_ok": None}
        if kind == "attention":
            out["attention_ok"] = set(answer["targets"]) == set(payload["expect"])
        if condition not in ("none", "") and kind != "attention":
            out["feedback"] = _receiver_feedback(cfg, payload, answer, condition)
        return out


def _warm_codenames(cfg: StudyConfig) -> None:
    from wordgames.codenames.board import Board, ClueRules

    cn = cfg.codenames
    resources.embedding(cn.get("embedding", resources.DEFAULT_EMBEDDING))
    if cfg.game == "codenames-sender":
        rules = ClueRules(
            no_substring=bool(cn.get("no_substring", False)),
            no_shared_stem=bool(cn.get("no_shared_stem", True)),
        )
        Board(("dog",), ("cat",), rules).is_legal_clue("animal")  # imports the stemmer
        for cond in cfg.conditions:
            if cond != "none":
                resources.agent("receiver", cond, cfg).guess(["dog", "cat"], "animal", 1)


CodenamesReceiver.warm = CodenamesSender.warm = lambda self, cfg: _warm_codenames(cfg)


def _clue_message(clue: str, rules) -> str:
    if " " in clue:
        return "a clue is a single word (no spaces)"
    extra = []
    if rules.no_shared_stem:
        extra.append("share a stem with a board word")
    if rules.no_substring:
        extra.append("contain a board word or be part of one")
    more = f", nor {' or '.join(extra)}" if extra else ""
    return f"'{clue}' is not allowed: a clue may not be a board word (or part of one){more}"


def _receiver_feedback(cfg, payload, answer, condition) -> dict:
    from wordgames.errors import OOVError

    receiver = resources.agent("receiver", condition, cfg)
    unread = False
    try:
        guess = receiver.guess(payload["board"], answer["clue"], answer["number"])
    except OOVError:
        guess = []
    except PlayerAnswerError:  # a chat model's answer that names no guess: shown as none
        guess, unread = [], True
    colours = ["blue" if g in payload["blue"] else "red" for g in guess]
    out = {"agent": condition, "guess": list(guess), "colours": colours}
    return {**out, "unreadable": True} if unread else out


def _json_safe(value):
    import json

    return json.loads(json.dumps(value, default=str))


# --------------------------------------------------------------------------- Odd-Man-Out
class OddManOut(Game):
    """Pick the odd word of a puzzle or say none fits; optionally name the category."""

    name = "oddmanout"

    def generate(self, cfg):
        om = cfg.oddmanout
        spec = om.get("puzzles", "anomia-common-dev")
        ps = resources.puzzles(spec, cfg.seed)
        if len(ps) < cfg.trials:
            raise StudyConfigError(
                f"study {cfg.slug}: {spec} has {len(ps)} puzzles, fewer than "
                f"the {cfg.trials} trials"
            )
        rows = seeded_rng(cfg.seed, 11).choice(len(ps), min(cfg.pool_size, len(ps)), replace=False)
        items = [
            {
                "words": list(ps.words[r]),
                "answer": str(ps.words[r][ps.answer[r]]),
                "category": str(ps.categories[r]),
                "source": ps.name,
                "line": int(ps.lines[r]),
            }
            for r in sorted(rows.tolist())
        ]
        return {"default": items}

    def attention(self, cfg):
        own = super().attention(cfg)
        if own:
            return own
        rng = seeded_rng(cfg.seed, 13)
        animals = [ANIMALS[i] for i in rng.choice(len(ANIMALS), 4, replace=False)]
        words = animals + ["table"]
        return [
            {
                "words": [words[i] for i in rng.permutation(5)],
                "answer": "table",
                "category": "animal",
                "source": "attention",
                "line": 0,
            }
        ]

    def public(self, payload):
        return {"words": payload["words"]}

    def check(self, cfg, payload, form):
        choice = field(form, "choice", max_len=100)
        if choice != "__none__" and choice not in payload["words"]:
            raise AnswerError("pick one of the words shown, or 'none fits'")
        category = field(form, "category", required=False, max_len=60)
        return {"choice": None if choice == "__none__" else choice, "category": category}

    def outcome(self, cfg, payload, answer, condition, kind):
        ok = answer["choice"] == payload["answer"]
        return {"attention_ok": ok if kind == "attention" else None, "correct": ok}


class OddManOutCrowd(Game):
    """The paper's crowdsourcing stage (category expansion).

    For a polysemous seed word and one of its categories, the person gives more examples of the
    category; the protocol then makes puzzles from two categories of one seed
    (:func:`wordgames.oddmanout.generate.protocol_puzzles`).
    """

    name = "oddmanout-crowd"

    def generate(self, cfg):
        pairs = [(s["seed"], c) for s in _seeds(cfg) for c in s["categories"]]
        if len(pairs) < cfg.trials:
            raise StudyConfigError(
                f"study {cfg.slug}: {len(pairs)} (seed, category) pairs, fewer "
                f"than the {cfg.trials} trials"
            )
        return {"default": [{"seed": s, "category": c} for s, c in pairs[: cfg.pool_size]]}

    def attention(self, cfg):
        own = super().attention(cfg)
        return own or [{"seed": "apple", "category": "fruit", "instructed": "banana"}]

    def public(self, payload):
        return payload

    def check(self, cfg, payload, form):
        n = int(cfg.oddmanout.get("n_examples", 5))
        need = int(cfg.oddmanout.get("min_examples", 3))
        words = [field(form, f"ex{i}", required=False, max_len=40).lower() for i in range(1, n + 1)]
        words = [w for w in words if w]
        bad = [w for w in words if not WORD_RE.match(w)]
        if bad:
            raise AnswerError(f"'{bad[0]}': use letters only (a word or a short phrase)")
        if len(set(words)) != len(words):
            raise AnswerError("give each example only once")
        if payload["seed"].lower() in words:
            raise AnswerError(f"the examples must differ from '{payload['seed']}'")
        if len(words) < need:
            raise AnswerError(f"please give at least {need} examples")
        return {"examples": words}

    def outcome(self, cfg, payload, answer, condition, kind):
        if kind != "attention":
            return {"attention_ok": None}
        return {
            "attention_ok": bool(answer["examples"])
            and answer["examples"][0] == payload.get("instructed")
        }


def _seeds(cfg) -> list[dict]:
    """Seed words with their categories.

    ``oddmanout.seeds`` is a list of ``{"seed": ..., "categories": [...]}`` or a JSONL file of
    protocol seeds.
    """
    seeds = cfg.oddmanout.get("seeds")
    if isinstance(seeds, str):
        from wordgames.oddmanout.generate import read_protocol_seeds

        return [{"seed": s, "categories": list(c)} for s, c in read_protocol_seeds(seeds)]
    if not isinstance(seeds, list) or not seeds:
        raise StudyConfigError(
            f"study {cfg.slug}: [oddmanout] seeds must be a list of "
            '{seed = "bat", categories = ["...", "..."]} or a JSONL file'
        )
    for s in seeds:
        if (
            not isinstance(s, dict)
            or not isinstance(s.get("seed"), str)
            or not isinstance(s.get("categories"), list)
            or len(s["categories"]) < 2
        ):
            raise StudyConfigError(
                f"study {cfg.slug}: each seed needs 'seed' and two or more 'categories'; got {s!r}"
            )
    return seeds


def game_for(name: str) -> Game:
    """The :class:`Game` of a study type (the wiki game lives in :mod:`wordgames.serve.wiki`)."""
    if name == "wiki":
        from wordgames.serve.wiki import WikiGame

        return WikiGame()
    games = {
        g.name: g for g in (CodenamesReceiver(), CodenamesSender(), OddManOut(), OddManOutCrowd())
    }
    return games[name]
