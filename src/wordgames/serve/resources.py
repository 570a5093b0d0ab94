"""What the games are built from, loaded once per process and cached.

Embeddings, Codenames agents, word lists, link graphs, puzzle sets. Everything goes through the
public entry points of the families (``wordgames.embeddings.load_embedding``,
``codenames.agents.default_senders``, ``wales.report.wikispeedia_setup``,
``oddmanout.data.load_dataset``...).
"""

from __future__ import annotations

import functools
import logging
from functools import lru_cache
from pathlib import Path

from wordgames.serve.config import StudyConfigError

log = logging.getLogger("wordgames.serve")
DEFAULT_EMBEDDING = "glove-6b-50d"


def per_data_root(maxsize: int):
    """``lru_cache`` keyed by the arguments and the data root of the call.

    The decorated function takes the root (a string) as its last argument; its callers give
    the others, and the data root in force (``$WORDGAMES_DATA``) is added, so that another
    root reads its own files instead of the first one's.
    """

    def wrap(fn):
        cached = lru_cache(maxsize=maxsize)(fn)

        @functools.wraps(fn)
        def call(*args):
            from wordgames.datasets import data_root

            return cached(*args, str(data_root()))

        call.cache_clear = cached.cache_clear
        return call

    return wrap


@lru_cache(maxsize=4)
def embedding(name: str = DEFAULT_EMBEDDING):
    """An embedding by built-in name or path (cached)."""
    from wordgames.embeddings import load_embedding

    return load_embedding(name)


@lru_cache(maxsize=16)
def senders(
    emb_name: str,
    seed: int,
    vocab_size: int | None,
    n_restarts: int | None,
    no_shared_stem: bool,
    no_substring: bool,
    clue_vocabulary: str = "auto",
) -> dict:
    """The paper's senders on an embedding, by name, with the study's clue rules.

    Names are ``cluster``, ``exhaustive:<tie-break>`` and ``random-sender``. Their clues come
    from ``clue_vocabulary`` (:func:`wordgames.codenames.experiments.play_clue_vocabulary`:
    by default the authors' noun list, else plain content words; ``"embedding"``: the
    embedding's ``vocab_size`` most frequent words as they are).
    """
    from wordgames.codenames.agents import default_senders
    from wordgames.codenames.board import ClueRules
    from wordgames.codenames.experiments import play_clue_vocabulary

    emb = embedding(emb_name)
    cv = play_clue_vocabulary(emb, clue_vocabulary)
    if cv is not None:
        if not cv.n_clues:
            raise StudyConfigError(
                f"codenames.clue_vocabulary {cv.name!r}: the embedding knows none of its words"
            )
        emb, vocab_size = cv.embedding, cv.n_clues
    rules = ClueRules(no_substring=no_substring, no_shared_stem=no_shared_stem)
    out = {}
    for agent in default_senders(
        emb, random_state=seed, vocab_size=vocab_size, n_restarts=n_restarts
    ):
        if "rules" in agent.get_params():
            agent.set_params(rules=rules)
        out[agent.name] = agent
    return out


@lru_cache(maxsize=8)
def receivers(emb_name: str, seed: int) -> dict:
    """The paper's receivers (``nearest``, ``random-receiver``) by name."""
    from wordgames.codenames.agents import default_receivers

    return {r.name: r for r in default_receivers(embedding(emb_name), random_state=seed)}


@lru_cache(maxsize=8)
def chat_subject(model: str, base_url: str | None, api_key_env: str):
    """A chat model (``chat:MODEL`` in a study's agents), its server checked once."""
    from wordgames.llm import ChatSubject

    subject = ChatSubject(model, base_url=base_url, api_key_env=api_key_env)
    subject.check()  # an unreachable server or unknown model: an error naming the URL, at start
    return subject


def agent(kind: str, name: str, cfg) -> object:
    """The sender (``kind="sender"``) or receiver named ``name`` for a study.

    ``chat:MODEL`` is a chat model behind the study's ``codenames.base_url`` (default
    ``$OPENAI_BASE_URL``; the key in the environment variable ``codenames.api_key_env``): it
    gives clues as :class:`~wordgames.codenames.players.PlayerSender` (its first listed clue)
    and guesses as :class:`~wordgames.codenames.players.PlayerReceiver`; its answers are cached
    by content like every chat subject's.
    """
    cn = cfg.codenames
    if name.startswith("chat:"):
        from wordgames.codenames.players import PlayerReceiver, PlayerSender

        subject = chat_subject(
            name[len("chat:") :], cn.get("base_url"), cn.get("api_key_env", "OPENAI_API_KEY")
        )
        return PlayerSender(subject) if kind == "sender" else PlayerReceiver(subject)
    emb = cn.get("embedding", DEFAULT_EMBEDDING)
    if kind == "sender":
        pool = senders(
            emb,
            cfg.seed,
            cn.get("vocab_size", 50000),
            cn.get("n_restarts"),
            bool(cn.get("no_shared_stem", True)),
            bool(cn.get("no_substring", False)),
            cn.get("clue_vocabulary", "auto"),
        )
    else:
        pool = receivers(emb, cfg.seed)
    if name in pool:
        return pool[name]
    return _registered_agent(kind, name, emb, cfg, list(pool))


def _registered_agent(kind: str, name: str, emb: str, cfg, pool: list[str]):
    """An agent of the registry (a plug-in's too) that plays ``kind`` from the embedding.

    The paper's line-up (``pool``) is built with the study's clue rules; any other agent by
    name is built by its declaration with the study's seed.
    """
    from wordgames.agents import get_agent
    from wordgames.errors import WordgamesError

    try:
        spec = get_agent("codenames", name)
    except WordgamesError:
        from wordgames.agents import list_agents

        known = pool + [a.name for a in list_agents("codenames", kind) if a.name not in pool]
        raise StudyConfigError(
            f"study {cfg.slug}: unknown {kind} {name!r}; known: {', '.join(known)}, or chat:MODEL"
        ) from None
    if spec.role != kind or spec.needs not in ("vectors", ""):
        raise StudyConfigError(
            f"study {cfg.slug}: agent {name!r} is a {spec.role} that needs "
            f"{spec.needs or 'nothing'}; a study's {kind} plays from its embedding (a chat "
            "model: chat:MODEL)"
        )
    return _built(name, emb, cfg.seed)


@lru_cache(maxsize=16)
def _built(name: str, emb: str, seed: int):
    from wordgames.agents import get_agent

    return get_agent("codenames", name).build(embedding(emb), random_state=seed)


@per_data_root(maxsize=8)
def word_list(spec: str, emb_name: str, root: str) -> tuple[str, ...]:
    """Board words that the embedding knows.

    ``"codenames"`` (the 400-word list of the ``codenames-pilot`` data set) or a text file with
    one word a line; words the embedding does not know are left out (logged).
    """
    from wordgames.codenames.board import codenames_word_list

    if spec == "codenames":
        words = codenames_word_list(root)
    else:
        path = Path(spec)
        if not path.is_file():
            raise StudyConfigError(f"word list {spec!r}: no such file (or use 'codenames')")
        words = [
            w.strip().lower()
            for w in path.read_text(encoding="utf-8").splitlines()
            if w.strip() and not w.startswith("#")
        ]
    words = list(dict.fromkeys(words))
    look = embedding(emb_name).lookup(words)
    known = tuple(w for w, i in zip(words, look.indices.tolist(), strict=True) if i >= 0)
    if len(known) < len(words):
        log.info(
            "word list %s: %d of %d words have no vector in %s and are left out",
            spec,
            len(words) - len(known),
            len(words),
            emb_name,
        )
    return known


@per_data_root(maxsize=4)
def graph(spec: str, names: str | None, root: str):
    """A link graph for the wiki game.

    ``"wikispeedia"`` (the largest strongly connected component of Wikispeedia, as WALES uses
    it) or an edge-list file (optionally with a name table).
    """
    if spec == "wikispeedia":
        from wordgames.wales.report import wikispeedia_setup

        return wikispeedia_setup(root, verify=False).graph
    from wordgames.wales.loaders import read_edge_list

    return read_edge_list(spec, names_path=names)[0]


@per_data_root(maxsize=2)
def wikispeedia_human_pairs(root: str) -> tuple[tuple[str, str], ...]:
    """The 1000 human-played Wikispeedia (start, target) pairs of the WALES suite."""
    from wordgames.wales.report import wikispeedia_setup

    setup = wikispeedia_setup(root, verify=False)
    names = setup.graph.names
    return tuple(
        (str(names[s]), str(names[t]))
        for s, t in zip(setup.human.sources.tolist(), setup.human.targets.tolist(), strict=True)
    )


@per_data_root(maxsize=8)
def puzzles(spec: str, seed: int, root: str):
    """An Odd-Man-Out puzzle set: a published set's name or a TSV/JSONL file."""
    from wordgames.oddmanout.data import FILES, load_dataset
    from wordgames.oddmanout.puzzles import read_puzzles

    if spec in FILES:
        return load_dataset(spec, root, seed=seed)
    if not Path(spec).is_file():
        raise StudyConfigError(
            f"puzzles {spec!r}: neither a published set ({', '.join(FILES)}) nor a file"
        )
    return read_puzzles(spec, seed=seed)
