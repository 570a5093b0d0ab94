"""The category a player names for a puzzle, compared with the WordNet solver's explanation.

The WordNet solver (paper section 4) explains the four words it keeps by their most specific
common hypernym, its *explanation*. A player (:class:`~wordgames.oddmanout.players.PlayerSolver`)
names the category the other words share in words (``bus: fruits``). On a puzzle where both
chose the same odd word, the category *agrees* with WordNet when one of the WordNet synsets it
names is the explanation or a hypernym of it: a name for the same class or a more general one
that still holds all four words (``fruit`` for ``edible_fruit.n.01``). A category is looked up
as a phrase (``musical instrument``) and, failing that, by its last word (``kinds of fruit``),
after leaving out words that name no class (``kinds``, ``of``, ``the``...).

The explanation is one class over any senses (for apple, pear, cherry and plum it is
``fruit_tree.n.01``), so a player may name a good class that is not it; the category therefore
also *holds* when it names a class of WordNet that contains a sense of each of the four kept
words, whatever WordNet chose. Every answered puzzle is accounted for in both: compared, or
left out with its reason (:data:`LEFT_OUT`), so each share carries its ``n`` and what was
skipped.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

#: words of a category phrase that name no class
FILLER = frozenset(
    "a an the of kinds kind types type sorts sort things thing all are is they words word "
    "some different".split()
)

#: why an answered puzzle is not compared, in the order they are checked
LEFT_OUT = (
    "no category named",
    "category unreadable",
    "WordNet gave no explanation",
    "another odd word than WordNet's",
    "category not in WordNet",
)


def category_vertices(taxonomy, phrase: str) -> list[int]:
    """The taxonomy's vertices a category phrase names: the phrase, else its last word.

    >>> from wordgames.oddmanout.taxonomy import Taxonomy
    >>> t = Taxonomy(3, [1, 2], [0, 0], ["thing", "fruit", "musical_instrument"], range(3))
    >>> category_vertices(t, "kinds of fruit"), category_vertices(t, "musical instrument")
    ([1], [2])
    >>> category_vertices(t, "the vehicles")
    []
    """
    words = [w for w in phrase.split() if w not in FILLER]
    if not words:
        return []
    found = taxonomy.vertices_of(" ".join(words))
    return found if found or len(words) == 1 else taxonomy.vertices_of(words[-1])


def compare_categories(puzzles, player, wordnet, taxonomy) -> dict:
    """Each answered puzzle's category against WordNet, two ways.

    * ``holds``: the category names a WordNet class that holds the four words the player kept
      (one of its synsets is a hypernym, or the synset, of a sense of each), whatever the
      WordNet solver chose: WordNet confirms the player's own explanation.
    * ``agrees``: on a puzzle where the WordNet solver chose the same odd word, the category
      names its explanation or a hypernym of it.

    Parameters
    ----------
    puzzles : PuzzleSet
    player : Solution of a :class:`~wordgames.oddmanout.players.PlayerSolver` (its ``extra``
        holds ``category`` and ``category_status``)
    wordnet : Solution of a :class:`~wordgames.oddmanout.taxonomy.TaxonomySolver` over
        ``taxonomy`` (its ``extra`` holds ``explanation_vertex``)
    taxonomy : the WordNet taxonomy

    Returns
    -------
    dict with ``holds`` and ``agrees`` (1.0 / 0.0 per compared puzzle), ``holds_left_out``
    and ``agrees_left_out`` (the answered puzzles not compared, by reason: :data:`LEFT_OUT`)
    and ``rows`` (one per answered puzzle: the ``categories`` table).
    """
    closure = taxonomy.closure
    explained = wordnet.extra["explanation_vertex"]
    out = {"holds": [], "agrees": [], "holds_left_out": Counter(), "agrees_left_out": Counter()}
    rows = []
    for p in np.flatnonzero(player.choice >= 0).tolist():
        words = [str(w) for w in puzzles.words[p]]
        odd, wn_odd = int(player.choice[p]), int(wordnet.choice[p])
        category, status = player.extra["category"][p], player.extra["category_status"][p]
        named = category_vertices(taxonomy, category) if status == "named" else []
        holds = _holds(taxonomy, named, words[:odd] + words[odd + 1 :]) if named else None
        why = _unnamed(status) or (None if named else LEFT_OUT[4])
        _tally(out, "holds", holds, why)
        vertex = int(explained[p, wn_odd]) if wn_odd >= 0 else -1
        why_not = why or _unmatched(wn_odd, odd, vertex)
        agree = None if why_not else bool(closure[vertex, named].toarray().any())
        _tally(out, "agrees", agree, why_not)
        rows.append(
            {
                "words": ", ".join(words),
                "odd": words[odd],
                "category": category,
                "holds": holds,
                "wordnet_odd": words[wn_odd] if wn_odd >= 0 else None,
                "explanation": taxonomy.vertex_name(vertex) if vertex >= 0 else None,
                "agrees": agree,
                "left_out": why_not,
            }
        )
    out = {k: np.asarray(v, dtype=np.float64) if isinstance(v, list) else v for k, v in out.items()}
    out["rows"] = rows
    return out


def _holds(taxonomy, named: list[int], kept: list[str]) -> bool:
    """Whether one of the ``named`` vertices covers a sense of every kept word."""
    cover = taxonomy.coverage(kept)[:, named].toarray()
    return bool(cover.all(axis=0).any())


def _tally(out: dict, key: str, value: bool | None, why: str | None) -> None:
    if value is None:
        out[f"{key}_left_out"][why] += 1
    else:
        out[key].append(1.0 if value else 0.0)


def _unnamed(status: str) -> str | None:
    """Why no category can be looked up (None: one was named)."""
    if status == "named":
        return None
    return LEFT_OUT[0] if status == "not-named" else LEFT_OUT[1]


def _unmatched(wn_odd: int, odd: int, vertex: int) -> str | None:
    """Why a named category cannot be set against WordNet's explanation (None: it can)."""
    if wn_odd < 0 or vertex < 0:
        return LEFT_OUT[2]
    if wn_odd != odd:
        return LEFT_OUT[3]
    return None
