"""Coverage before compute: how much of each data set an embedding's vocabulary covers.

A vocabulary lookup is cheap; a measure is not. Before any unit runs, :func:`coverage_of`
counts, for every (embedding, measure) and data set, the items whose words the embedding
knows (Codenames records: the board and the clue; Odd-Man-Out puzzles: every word;
word-similarity pairs: both words). :func:`wordgames.evaluate` records it
(``Results.coverage``), the CLI prints it first, and a unit whose every data set is covered
below the thin policy's share is warned about -- or skipped, with ``skip_uncovered``.

It is a pre-check: the measures' own rules (case fallbacks, multi-word phrases) can cover a few
more items, and the Scores' ``n``/``n_skipped``/``n_oov`` are what counts in the end.
Measures without a pre-check (WALES' title vectors, the global metrics) are not listed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Coverage:
    """The items of one data set whose words an embedding knows."""

    embedding: str
    measure: str
    dataset: str
    known: int
    total: int
    unit: str

    @property
    def share(self) -> float:
        return self.known / self.total if self.total else float("nan")

    def text(self) -> str:
        """``glove: codenames-pilot: 192 of 196 records (98%)``."""
        return (
            f"{self.embedding}: {self.measure} {self.dataset}: {self.known:,} of "
            f"{self.total:,} {self.unit} ({self.share:.0%})"
        )


def known_rows(embedding, groups: list[list[str]]) -> np.ndarray:
    """Per group of words: whether the embedding knows every one (one vectorised lookup).

    >>> from wordgames.embeddings import Embedding
    >>> known_rows(Embedding(["a", "b"], np.eye(2)), [["a", "b"], ["a", "zz"], []]).tolist()
    [True, False, True]
    """
    sizes = np.fromiter((len(g) for g in groups), dtype=np.int64, count=len(groups))
    flat = [w for g in groups for w in g]
    if not flat:
        return np.ones(len(groups), dtype=bool)
    found = embedding.lookup(flat).indices >= 0
    group = np.repeat(np.arange(len(groups)), sizes)
    missing = np.bincount(group, weights=(~found).astype(float), minlength=len(groups))
    return missing == 0


def coverage_of(embedding, measure, options, data_root=None) -> list[Coverage]:
    """The pre-check of one unit (``[]`` when the measure has none or its data is missing)."""
    from wordgames.errors import DatasetMissingError, WordgamesError

    check = _CHECKS.get(measure.name)
    if check is None or not getattr(measure, "uses_embedding", True):
        return []
    try:
        rows = check(embedding, options, data_root)
    except (DatasetMissingError, WordgamesError, OSError):
        return []  # the unit itself will say what is missing
    return [Coverage(embedding.name, measure.name, d, k, t, u) for d, k, t, u in rows]


def _similarity(embedding, opts, root):
    from wordgames.similarity.benchmarks import _indices, load_benchmarks

    if opts.benchmarks == ():
        return []
    out = []
    for name, b in load_benchmarks(opts.benchmarks, root).items():
        i1, _ = _indices(embedding, b.word1, b.raw1)
        i2, _ = _indices(embedding, b.word2, b.raw2)
        out.append((name, int(((i1 >= 0) & (i2 >= 0)).sum()), len(b), "pairs"))
    return out


def _oddmanout(embedding, opts, root):
    from wordgames.oddmanout.data import DEFAULT_SETS, available_sets, load_dataset

    out = []
    for name in available_sets(root, opts.sets or DEFAULT_SETS):
        ps = load_dataset(name, root, seed=0)
        words = [[str(w) for w in row] for row in ps.words]
        lowered = [[w.lower() for w in row] for row in words]
        known = known_rows(embedding, words) | known_rows(embedding, lowered)
        out.append((name, int(known.sum()), len(words), "puzzles"))
    return out


def _codenames(embedding, opts, root):
    from wordgames.codenames.suite import load_chosen

    out = []
    for name, data in load_chosen(opts, root).items():
        for role, records, words_of in (
            ("human_receiver", data.receiver, lambda r: [*r.board, r.clue]),
            ("human_sender", data.sender, lambda r: [*r.blue, *r.avoid, r.clue]),
        ):
            if not records:
                continue
            groups = [[str(w).lower() for w in words_of(r)] for r in records]
            weights = np.array([max(1, int(getattr(r, "count", 1) or 1)) for r in records])
            known = known_rows(embedding, groups)
            out.append(
                (f"{name} ({role})", int(weights[known].sum()), int(weights.sum()), "records")
            )
    return out


_CHECKS = {"similarity": _similarity, "oddmanout": _oddmanout, "codenames": _codenames}


def game_words(data_root=None) -> list[str]:
    """Every word the games on the available data ask an embedding about, sorted.

    Codenames board words (the 400-word list and every human data set's boards) and clues,
    Odd-Man-Out puzzle words (the default sets), and both words of every word-similarity pair:
    an encoder that can encode any word (``transformer:MODEL``) encodes these beside its
    frequency list, so that its coverage of the games is not a frequency list's. Data sets that
    are missing add nothing. (WALES titles are phrases, encoded by the measure itself.)
    """
    from wordgames.embeddings.validate import bad_word_reason
    from wordgames.errors import WordgamesError

    words: set[str] = set()
    for part in (_codenames_words, _oddmanout_words, _similarity_words):
        try:
            words.update(part(data_root))
        except (WordgamesError, OSError, KeyError):  # missing or damaged data adds no word
            continue
    return sorted(w for w in words if w and not bad_word_reason(w))


def _codenames_words(root) -> set[str]:
    from wordgames.codenames.board import codenames_word_list
    from wordgames.codenames.spec import CodenamesOptions
    from wordgames.codenames.suite import load_chosen

    out = set(codenames_word_list(root))
    for data in load_chosen(CodenamesOptions(), root).values():
        for r in data.receiver:
            out.update(str(w).lower() for w in (*r.board, r.clue))
        for r in data.sender:
            out.update(str(w).lower() for w in (*r.blue, *r.avoid, r.clue))
    return out


def _oddmanout_words(root) -> set[str]:
    from wordgames.oddmanout.data import DEFAULT_SETS, available_sets, load_dataset

    out: set[str] = set()
    for name in available_sets(root, DEFAULT_SETS):
        out.update(str(w) for w in np.asarray(load_dataset(name, root, seed=0).words).ravel())
    return out


def _similarity_words(root) -> set[str]:
    from wordgames.similarity.benchmarks import load_benchmarks

    out: set[str] = set()
    for b in load_benchmarks(None, root).values():
        out.update(map(str, b.word1))
        out.update(map(str, b.word2))
    return out
