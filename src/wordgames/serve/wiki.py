"""Wiki navigation: from a start article to a target by following links, with back.

Every click is a row of ``wg_move`` (written before the next page is served), so a participant
who drops out resumes on the page they were on. The path is kept the Wikispeedia way: page
titles, ``<`` for a back click; when the target is reached (or the person gives up, or
``max_clicks`` is used up) the game becomes one answer row: the path, back clicks, time and
success, which the export writes as Wikispeedia ``paths_finished.tsv`` /
``paths_unfinished.tsv`` for the WALES human baseline.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wordgames.serve import resources
from wordgames.serve.config import StudyConfigError
from wordgames.serve.gamebase import AnswerError, Game, seeded_rng


@dataclass
class WikiState:
    """Where a navigation stands: ``tokens`` (pages and ``<``), the page stack, the clicks."""

    tokens: list[str]
    stack: list[str]
    n_back: int
    rt_ms: int

    @property
    def page(self) -> str:
        return self.stack[-1]

    @property
    def clicks(self) -> int:
        return len(self.tokens) - 1


def replay(start: str, moves) -> WikiState:
    """The state after ``moves`` (objects with ``page``, ``back``, ``rt_ms``, in order).

    >>> from types import SimpleNamespace as M
    >>> s = replay("A", [M(page="B", back=False, rt_ms=5), M(page="A", back=True, rt_ms=2)])
    >>> s.tokens, s.page, s.n_back, s.rt_ms
    (['A', 'B', '<'], 'A', 1, 7)
    """
    tokens, stack, n_back, rt = [start], [start], 0, 0
    for m in moves:
        rt += int(m.rt_ms or 0)
        if m.back:
            stack.pop()
            tokens.append("<")
            n_back += 1
        else:
            stack.append(m.page)
            tokens.append(m.page)
    return WikiState(tokens, stack, n_back, rt)


def _graph(cfg):
    w = cfg.wiki
    return resources.graph(w.get("graph", "wikispeedia"), w.get("names"))


def links(cfg, page: str) -> list[str]:
    """Titles linked from ``page``, sorted."""
    g = _graph(cfg)
    v = g.node_index.get(page)
    if v is None:
        return []
    return sorted(str(g.names[u]) for u in g.successors(v).tolist())


def title(name: str) -> str:
    """How a page name is shown: underscores as spaces.

    >>> title("Isaac_Newton")
    'Isaac Newton'
    """
    return name.replace("_", " ")


class WikiGame(Game):
    """Start/target pairs from the graph; the moves are checked by :func:`check_move`."""

    name = "wiki"

    def generate(self, cfg):
        g = _graph(cfg)
        pairs = self._pairs(cfg, g)
        index = g.node_index
        s = np.array([index[a] for a, _ in pairs], dtype=np.int64)
        t = np.array([index[b] for _, b in pairs], dtype=np.int64)
        dist = g.shortest_path_lengths(s, t)
        items = [
            {"start": a, "target": b, "shortest": int(d)}
            for (a, b), d in zip(pairs, dist.tolist(), strict=True)
            if 0 < d < 10**6
        ]
        if len(items) < cfg.trials:
            raise StudyConfigError(
                f"study {cfg.slug}: only {len(items)} reachable start/target "
                f"pairs, fewer than the {cfg.trials} trials"
            )
        return {"default": items[: cfg.pool_size]}

    def _pairs(self, cfg, g) -> list[tuple[str, str]]:
        w = cfg.wiki
        spec = w.get(
            "pairs", "human" if w.get("graph", "wikispeedia") == "wikispeedia" else "random"
        )
        rng = seeded_rng(cfg.seed, 17)
        if spec == "human":
            pool = list(resources.wikispeedia_human_pairs())
            idx = rng.choice(len(pool), min(len(pool), cfg.pool_size * 2), replace=False)
            return [pool[i] for i in sorted(idx.tolist())]
        if spec != "random":
            from wordgames.wales.loaders import read_challenges

            return [tuple(p) for p in read_challenges(spec, known_names=g.node_index)]
        lo, hi = int(w.get("min_distance", 2)), int(w.get("max_distance", 4))
        out = []
        for _ in range(200 * cfg.pool_size):
            a, b = rng.integers(g.n_nodes, size=2).tolist()
            if a != b and lo <= g.distance(a, b) <= hi:
                out.append((str(g.names[a]), str(g.names[b])))
            if len(out) >= cfg.pool_size:
                break
        return out

    def attention(self, cfg):
        own = super().attention(cfg)
        if own:
            return own
        g = _graph(cfg)
        rng = seeded_rng(cfg.seed, 19)
        for v in rng.permutation(g.n_nodes).tolist():
            succ = g.successors(v)
            if len(succ):
                u = int(succ[rng.integers(len(succ))])
                return [{"start": str(g.names[v]), "target": str(g.names[u]), "shortest": 1}]
        raise StudyConfigError(f"study {cfg.slug}: the graph has no link")

    def public(self, payload):
        return {"start": payload["start"], "target": payload["target"]}

    def warm(self, cfg):
        _graph(cfg).node_index  # noqa: B018 (builds the name index once)

    def check(self, cfg, payload, form):
        """Only 'give up' is an answer form in this game."""
        if form.get("action") != "giveup":
            raise AnswerError("use the links, 'Back' or 'Give up'")
        return {"action": "giveup"}

    def outcome(self, cfg, payload, answer, condition, kind):
        ok = bool(answer.get("success"))
        return {"attention_ok": ok if kind == "attention" else None, "success": ok}


def check_move(cfg, payload: dict, state: WikiState, to: str) -> tuple[str, bool]:
    """Validate a click; returns ``(page, back)``.

    ``to`` must be ``"<"`` (back) or a title linked from the current page, else
    :class:`~wordgames.serve.gamebase.AnswerError`.
    """
    if to == "<":
        if len(state.stack) < 2:
            raise AnswerError("there is no page to go back to")
        return state.stack[-2], True
    if len(to) > 300 or to not in set(links(cfg, state.page)):
        raise AnswerError("that is not a link on this page")
    return to, False


def finished_answer(payload: dict, state: WikiState, *, success: bool, why: str) -> dict:
    """The answer row of a navigation that ended.

    ``why`` is ``target``, ``restart`` (gave up) or ``timeout`` (clicks used up), as in
    Wikispeedia's unfinished games.
    """
    return {
        "path": state.tokens,
        "n_back": state.n_back,
        "clicks": state.clicks,
        "success": success,
        "end": why,
        "target": payload["target"],
        "duration_ms": state.rt_ms,
    }
