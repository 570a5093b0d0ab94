"""The paper's experiments across embeddings, and the authors' clue vocabulary.

* **Clue vocabularies** (:func:`clue_vocabulary`): a word list (the authors' ``nounlist.csv``,
  :data:`~wordgames.codenames.spec.CLUE_VOCABULARIES`) as the senders' clue vocabulary. The
  embedding is reordered so that the listed words it knows come first, in its own frequency
  order, and the senders take those rows as their vocabulary (``vocab_size``): the measure's
  one path (:mod:`wordgames.codenames.measures`) then ranks the clues among the listed words
  alone and skips a person's clue that is not listed as ``oov_clue``.
* **Experiment 2** (Figures 3 and 5 of Solomon & Ben Zion): :func:`by_embedding` lays the
  measure's ``senders`` / ``receivers`` tables of several embeddings side by side, one row per
  data set and initial model (clue source), one column per embedding.
* **Self-play, Table 1**: :func:`same_vs_different` summarises the cross matrix of
  :func:`wordgames.codenames.game.cross_matrix`; :data:`PAPER_SELFPLAY` holds the paper's
  settings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from wordgames.errors import DataFormatError

#: the paper's self-play settings (section 3.3): 30 random boards of 100 words, 50 of them
#: blue; the turn limit is the number of blue words; ExhaustiveSearchSender taking the first
#: optimal clue (``tie_break="frequency"``) and EmbeddingNearestReceiver
PAPER_SELFPLAY = {
    "games": 30,
    "n_blue": 50,
    "n_red": 50,
    "max_turns": None,
    "tie_break": "frequency",
}


@dataclass
class ClueVocabulary:
    """An embedding whose first ``n_clues`` rows are the listed words it knows.

    Attributes
    ----------
    name : str
        The list's name (``"nounlist"``).
    embedding : Embedding
        The same words and vectors, reordered: the listed words first (in the embedding's
        order), then every other word (board words stay known).
    n_clues : int
        Listed words the embedding knows: the senders' ``vocab_size``.
    n_listed : int
        Distinct words of the list.
    oov : list of str
        Listed words the embedding lacks (left out of the clue vocabulary).
    """

    name: str
    embedding: object
    n_clues: int
    n_listed: int
    oov: list[str] = field(default_factory=list)

    def note(self) -> str:
        """The clue vocabulary in words, for the result's notes."""
        return (
            f"clue vocabulary: {self.name}, {self.n_clues:,} of its {self.n_listed:,} words "
            f"(the {len(self.oov):,} others are not in {self.embedding.name})"
        )


def read_word_list(path: str | Path) -> list[str]:
    """The words of a list with one word a line, lower case, each once, in file order.

    There is no header (``nounlist.csv`` starts with ``ATM``, kept as ``atm``).

    Raises
    ------
    DataFormatError
        On an empty line (naming file and line).
    """
    words = []
    for i, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        w = line.strip().lower()
        if not w:
            raise DataFormatError(path, i, "an empty line; expected one word a line")
        words.append(w)
    return list(dict.fromkeys(words))


def clue_vocabulary(embedding, words: Sequence[str], name: str = "list") -> ClueVocabulary:
    """Reorder ``embedding`` so that the listed words it knows come first.

    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> emb = Embedding(["the", "dog", "run", "cat"], np.eye(4), name="toy")
    >>> cv = clue_vocabulary(emb, ["cat", "dog", "unicorn"], "nouns")
    >>> cv.embedding.words.tolist(), cv.n_clues, cv.oov
    (['dog', 'cat', 'the', 'run'], 2, ['unicorn'])
    """
    import numpy as np

    listed = list(dict.fromkeys(words))
    look = embedding.lookup(listed)
    first = np.unique(look.indices[look.found])  # the embedding's (frequency) order
    rest = np.setdiff1d(np.arange(len(embedding)), first, assume_unique=True)
    return ClueVocabulary(
        name=name,
        embedding=embedding.take(np.concatenate([first, rest])),
        n_clues=int(first.size),
        n_listed=len(listed),
        oov=look.oov,
    )


def load_clue_vocabulary(embedding, name: str, data_root=None) -> ClueVocabulary:
    """The declared clue vocabulary ``name`` (``"nounlist"``) for ``embedding``."""
    from wordgames.codenames.spec import CLUE_VOCABULARIES
    from wordgames.datasets import dataset_file

    dataset, file = CLUE_VOCABULARIES[name]
    return clue_vocabulary(embedding, read_word_list(dataset_file(dataset, file, data_root)), name)


#: clue vocabularies of agents that play with people (``codenames play``, ``serve``)
PLAY_CLUE_VOCABULARIES = ("auto", "nounlist", "content", "embedding")
#: the frequency band of the ``content`` vocabulary: the embedding's most frequent words
CONTENT_TOP = 20_000


#: frequent words scikit-learn's stop list lacks that make poor clues all the same
EXTRA_STOP_WORDS = frozenset(
    "just like said would could also get got make made may might say says use used way well "
    "yes new want know think going really lot much did does doing let told tell thing things "
    "year years time times day days people percent".split()
)


def content_words(embedding, top: int = CONTENT_TOP, lexicon=None) -> list[str]:
    """The embedding's ``top`` most frequent words that make plain clues.

    Lower-case letters only, three or more, no English stop word (scikit-learn's list and
    :data:`EXTRA_STOP_WORDS`) and, where WordNet is installed, a WordNet lemma: no ``the``,
    ``one``, ``just``, ``(310)``, nor ``mgm``. ``lexicon``: the words to keep (default:
    WordNet's lower-case lemmas, :func:`wordgames.embeddings.wordnet_lex.read_lexicon`).

    >>> import numpy as np
    >>> from wordgames.embeddings import Embedding
    >>> words = ["the", "dog", "(310)", "MGM", "mgm", "go", "just", "river"]
    >>> content_words(Embedding(words, np.eye(8), name="toy"), lexicon=["dog", "river", "just"])
    ['dog', 'river']
    """
    import numpy as np
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    words = np.asarray(embedding.words[:top], dtype=str)
    plain = np.strings.isalpha(words) & (np.strings.lower(words) == words)
    plain &= np.strings.str_len(words) >= 3
    plain &= ~np.isin(words, sorted(ENGLISH_STOP_WORDS | EXTRA_STOP_WORDS))
    if lexicon is None:
        lexicon = _wordnet_lemmas()
    if lexicon is not None:
        plain &= np.isin(words, np.asarray(list(lexicon), dtype=str))
    return [w for w in words[plain].tolist() if w.isascii()]


@cache
def _wordnet_lemmas():
    """WordNet's lower-case single-word lemmas, or ``None`` where WordNet is not installed."""
    from wordgames.embeddings.wordnet_lex import read_lexicon
    from wordgames.errors import DatasetMissingError

    try:
        return read_lexicon().words
    except DatasetMissingError:
        return None


def play_clue_vocabulary(
    embedding, choice: str = "auto", data_root=None, *, top: int = CONTENT_TOP
) -> ClueVocabulary | None:
    """The clue vocabulary of an agent that gives clues to people.

    ``"nounlist"``: the authors' 6,801 common nouns (``codenames-pilot`` data): every clue is
    a plain noun, as in the games people played for the paper. ``"content"``: the embedding's
    :data:`CONTENT_TOP` most frequent plain words without stop words (:func:`content_words`),
    which needs no data. ``"auto"`` (the default): the noun list where the data is available,
    else the content words. ``"embedding"``: ``None``, the embedding's own most frequent
    words, stop words and all (the measures against human data keep the paper's settings).
    """
    from wordgames.errors import WordgamesError

    if choice not in PLAY_CLUE_VOCABULARIES:
        raise WordgamesError(
            f"clue vocabulary {choice!r}: expected one of {', '.join(PLAY_CLUE_VOCABULARIES)}"
        )
    if choice == "embedding":
        return None
    if choice in ("auto", "nounlist"):
        from wordgames.datasets import is_available

        if choice == "nounlist" or is_available("codenames-pilot", data_root):
            return load_clue_vocabulary(embedding, "nounlist", data_root)
    return clue_vocabulary(embedding, content_words(embedding, top), f"content-{top // 1000}k")


def by_embedding(
    rows: Iterable[Mapping],
    *,
    agent: str,
    data: str = "human_receiver",
    statistic: str = "mean_rank",
) -> tuple[list[str], list[dict]]:
    """One row per (data set, clue source), one column per embedding (Figures 3 and 5).

    ``rows`` are the measure's ``senders`` or ``receivers`` table rows of several embeddings
    (``MeasureResult.tables``); ``statistic`` is a column of them (``"mean_rank"``,
    ``"score"``...). Sender rows ranked among candidates are left out. Returns the embeddings
    (in order of appearance) and the rows, each ``{"dataset", "clue_source", embedding: value,
    "n": {embedding: n}}``; a missing cell is NaN.

    >>> rows = [{"embedding": e, "dataset": "d", "data": "human_receiver", "agent": "cluster",
    ...          "clue_source": "all", "mean_rank": v, "n": 5} for e, v in (("a", 3.0), ("b", 9.0))]
    >>> names, table = by_embedding(rows, agent="cluster")
    >>> names, table[0]["a"], table[0]["b"]
    (['a', 'b'], 3.0, 9.0)
    """
    names: dict[str, None] = {}
    cells: dict[tuple[str, str], dict] = {}
    for r in rows:
        if r["agent"] != agent or r["data"] != data:
            continue
        if r.get("ranked_among", "vocabulary") != "vocabulary":
            continue
        names.setdefault(r["embedding"])
        cell = cells.setdefault((r["dataset"], r["clue_source"]), {"n": {}})
        cell[r["embedding"]] = float(r[statistic])
        cell["n"][r["embedding"]] = r.get("n")
    table = []
    for (dataset, source), cell in sorted(cells.items(), key=_row_order):
        row = {"dataset": dataset, "clue_source": source}
        row.update({e: cell.get(e, float("nan")) for e in names})
        row["n"] = cell["n"]
        table.append(row)
    return list(names), table


def _row_order(item) -> tuple:
    (dataset, source), _ = item
    return (dataset, source != "all", source)


def same_vs_different(rows: Iterable[Mapping]) -> dict:
    """Table 1 in two numbers: mean turns of same-embedding pairs and of different pairs.

    ``rows`` are :func:`~wordgames.codenames.game.cross_matrix` rows (``sender``, ``receiver``,
    ``mean_turns``). Each pair counts once.

    >>> same_vs_different([
    ...     {"sender": "a", "receiver": "a", "mean_turns": 9.0},
    ...     {"sender": "a", "receiver": "b", "mean_turns": 51.0},
    ...     {"sender": "b", "receiver": "a", "mean_turns": 49.0},
    ...     {"sender": "b", "receiver": "b", "mean_turns": 8.0}])
    {'same': 8.5, 'different': 50.0, 'n_same': 2, 'n_different': 2}
    """
    import numpy as np

    rows = list(rows)
    same = [r["mean_turns"] for r in rows if r["sender"] == r["receiver"]]
    diff = [r["mean_turns"] for r in rows if r["sender"] != r["receiver"]]
    return {
        "same": float(np.mean(same)) if same else float("nan"),
        "different": float(np.mean(diff)) if diff else float("nan"),
        "n_same": len(same),
        "n_different": len(diff),
    }


#: the agents of experiment 2 by role and the statistic each table shows
SENDER_STATISTIC, RECEIVER_STATISTIC = "mean_rank", "score"


def experiment2_markdown(
    srows: Sequence[Mapping],
    rrows: Sequence[Mapping],
    *,
    agents: Sequence[str] | None = None,
    by_source: bool = True,
) -> str:
    """Experiment 2 as Markdown: per agent and kind of data, data sets x embeddings.

    Senders show the mean rank of the people's clue (lower is better: Figure 3 for
    ``cluster``), receivers their score (MAP on receiver data, higher is better: Figure 5 for
    ``nearest``; Algorithm 7's guess score on sender data). ``agents``: default every agent of
    the rows; ``by_source``: one row per initial model (clue source) besides ``all``.

    >>> s = [{"embedding": e, "dataset": "d", "data": "human_receiver", "agent": "cluster",
    ...       "clue_source": c, "mean_rank": v, "n": 2}
    ...      for e, c, v in (("a", "all", 3.0), ("b", "all", 9.0), ("a", "m1", 2.0))]
    >>> print(experiment2_markdown(s, []))
    **cluster**, human_receiver data: mean rank of the people's clue (lower is better)
    <BLANKLINE>
    | data set | clue source | a | b | n |
    |---|---|---|---|---|
    | d | all | 3.0 | 9.0 | 2 |
    | d | m1 | 2.0 | - | 2 |
    """
    parts = []
    for rows, statistic, what in (
        (srows, SENDER_STATISTIC, "mean rank of the people's clue (lower is better)"),
        (rrows, RECEIVER_STATISTIC, "score (MAP / guess score, higher is better)"),
    ):
        found = dict.fromkeys((r["agent"], r["data"]) for r in rows)
        for agent, data in found:
            if agents is not None and agent not in agents:
                continue
            names, table = by_embedding(rows, agent=agent, data=data, statistic=statistic)
            table = [t for t in table if by_source or t["clue_source"] == "all"]
            cells = [
                [t["dataset"].removeprefix("codenames-human-"), t["clue_source"]]
                + [_cell(t[e], statistic) for e in names]
                + [_n(t["n"])]
                for t in table
            ]
            head = f"**{agent}**, {data} data: {what}"
            parts.append(
                head + "\n\n" + markdown_table(["data set", "clue source", *names, "n"], cells)
            )
    return "\n\n".join(parts)


def _cell(value: float, statistic: str) -> str:
    if value != value:  # NaN: nothing scored
        return "-"
    return f"{value:,.1f}" if statistic == SENDER_STATISTIC else f"{value:.3f}"


def _n(ns: Mapping) -> str:
    """The records scored: one number when every embedding scored as many."""
    values = sorted({v for v in ns.values() if v is not None})
    return "-" if not values else "/".join(f"{v:,}" for v in values)


def markdown_table(columns: Sequence[str], rows: Iterable[Sequence]) -> str:
    """A Markdown table (cells already formatted).

    >>> print(markdown_table(["a", "b"], [["1", "2"]]))
    | a | b |
    |---|---|
    | 1 | 2 |
    """
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(map(str, r)) + " |" for r in rows]
    return "\n".join(lines)
