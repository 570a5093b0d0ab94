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

from wordgames.measure import load_entry


@dataclass(frozen=True)
class Coverage:
    """The items of one data set whose words a subject knows.

    Parameters
    ----------
    subject : str
        The subject's name.
    measure, dataset : str
        The measure and the data set counted.
    known, total : int
        Items whose every word the subject knows, and the data set's items.
    unit : str
        What an item is, in words (``"records"``, ``"pairs"``, ``"puzzles"``).
    metrics : str
        The metrics these counts stand behind (a prefix such as ``human_sender``; ``""``:
        all): the console's warning names a row only where the measure's table shows such a
        score.

    Examples
    --------
    >>> c = Coverage("glove", "codenames", "codenames-pilot", 192, 196, "records")
    >>> c.text()
    'glove: codenames codenames-pilot: 192 of 196 records (98%)'
    """

    subject: str
    measure: str
    dataset: str
    known: int
    total: int
    unit: str
    metrics: str = ""

    def shown_by(self, headlines) -> bool:
        """Whether a headline (a row of the printed table) shows scores of these counts.

        >>> from wordgames.measure import Headline
        >>> c = Coverage("e", "codenames", "pilot (human_sender)", 1, 2, "records", "human_sender")
        >>> c.shown_by([Headline("human_sender.guess_score", dataset="all")])
        False
        >>> c.shown_by([Headline("human_sender.guess_score")])
        True
        """
        name = self.dataset.split(" (")[0]
        return not headlines or any(
            (h.dataset is None or h.dataset == name) and h.metric.startswith(self.metrics)
            for h in headlines
        )

    @property
    def share(self) -> float:
        return self.known / self.total if self.total else float("nan")

    def text(self) -> str:
        """``glove: codenames-pilot: 192 of 196 records (98%)``."""
        return (
            f"{self.subject}: {self.measure} {self.dataset}: {self.known:,} of "
            f"{self.total:,} {self.unit} ({self.share:.0%})"
        )


def known_rows(embedding, groups: list[list[str]]) -> np.ndarray:
    """Per group of words: whether the embedding knows every one (one vectorised lookup).

    Parameters
    ----------
    embedding : Embedding
        Anything with ``lookup(words).indices`` (-1: unknown).
    groups : list of list of str
        The words of each item.

    Returns
    -------
    numpy.ndarray
        One bool per group (an empty group is known).

    Examples
    --------
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
    """The pre-check of one unit (``[]`` when the measure has none or its data is missing).

    The measure's ``coverage`` function gives ``(data set, known, total, unit)`` per data set,
    and optionally the metric prefix the counts stand behind (:attr:`Coverage.metrics`).

    Parameters
    ----------
    embedding : Embedding
        The unit's subject.
    measure : Measure
        The unit's measure.
    options : dataclass instance
        The measure's typed options.
    data_root : path, optional
        Default: ``$WORDGAMES_DATA``.

    Returns
    -------
    list of Coverage

    Examples
    --------
    >>> from wordgames.embeddings import Embedding
    >>> from wordgames.registry import get_measure
    >>> m = get_measure("global-metrics")
    >>> coverage_of(Embedding(["a"], np.eye(1)), m, m.make_options())
    []
    """
    from wordgames.errors import DatasetMissingError, WordgamesError

    if not measure.coverage or not measure.uses_embedding:
        return []
    check = load_entry(measure.coverage)
    try:
        rows = check(embedding, options, data_root)
    except (DatasetMissingError, WordgamesError, OSError):
        return []  # the unit itself will say what is missing
    return [Coverage(embedding.name, measure.name, *row) for row in rows]


def game_words(data_root=None) -> list[str]:
    """Every word the games on the available data ask an embedding about, sorted.

    Codenames board words (the 400-word list and every human data set's boards) and clues,
    Odd-Man-Out puzzle words (the default sets), and both words of every word-similarity pair:
    an encoder that can encode any word (``transformer:MODEL``) encodes these beside its
    frequency list, so that its coverage of the games is not a frequency list's. Data sets that
    are missing add nothing. (WALES titles are phrases, encoded by the measure itself.)

    Parameters
    ----------
    data_root : path, optional
        Default: ``$WORDGAMES_DATA``.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import tempfile
    >>> game_words(tempfile.mkdtemp())  # a data root with no data set: no word
    []
    """
    from wordgames.errors import WordgamesError
    from wordgames.registry import builtin_measures
    from wordgames.textio import bad_word_reason

    words: set[str] = set()
    entries = dict.fromkeys(m.game_words for m in builtin_measures() if m.game_words)
    for entry in entries:
        try:
            words.update(load_entry(entry)(data_root))
        except (WordgamesError, OSError, KeyError):  # missing or damaged data adds no word
            continue
    return sorted(w for w in words if w and not bad_word_reason(w))
