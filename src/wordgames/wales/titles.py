"""Article titles become vectors.

The rule (applied to every node name, vectorised with pandas string methods):

1. URL-decode (``%C3%85land`` -> ``Åland``), replace ``_`` by a space, lower-case, strip.
2. If ``drop_qualifier`` (default), remove a trailing parenthesised qualifier:
   ``"mercury (planet)"`` -> ``"mercury"``.
3. If the whole remaining title is a word of the embedding (``time-sharing``, ``l'idea``),
   its vector is that word's unit vector.
4. Otherwise the title is split on spaces and punctuation (every character that is not a
   letter, a digit or an apostrophe) into tokens; the title vector is the mean of the unit
   vectors of the tokens that are in the vocabulary. Tokens out of the vocabulary are left
   out of the mean and counted.
5. A title with no token in the vocabulary has **no vector**. Such a node can still be
   walked through (its similarity is the agent's ``oov_similarity``), but a task whose
   *target* has no vector is excluded from the score and counted (see
   :func:`wordgames.wales.evaluate.evaluate_tasks`).

The result is a :class:`NodeVectors`: for each node a row of a unit-vector matrix, or -1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wordgames.exact import dots, unit_grid

_SPLIT = r"[^\w']+|_"


@dataclass
class NodeVectors:
    """Unit vectors of graph nodes.

    Parameters
    ----------
    rows : int array, shape (n_nodes,)
        Row of ``unit`` holding node ``v``'s vector, or -1 when the node has none.
    unit : float32 array, shape (n_rows, dim)
        Unit-norm rows (several nodes may share a row).
    report : dict
        Coverage: counts of nodes with a whole-title vector, a partial one, none, and examples.
    """

    rows: np.ndarray
    unit: np.ndarray
    report: dict = field(default_factory=dict)

    def __post_init__(self):
        self.rows = np.asarray(self.rows, dtype=np.int64)
        # on the exact grid (wordgames.exact): every similarity below is exact, so the greedy
        # step between two near-equal links is the same on every machine
        self.unit = unit_grid(np.ascontiguousarray(self.unit, dtype=np.float32))

    def node_matrix(self) -> np.ndarray:
        """Dense (n_nodes, dim) float32 matrix, zero rows for nodes without a vector (cached)."""
        if getattr(self, "_node_matrix", None) is None:
            m = self.unit[np.maximum(self.rows, 0)]
            m[self.rows < 0] = 0.0
            self._node_matrix = m
        return self._node_matrix

    def node_matrix64(self) -> np.ndarray:
        """:meth:`node_matrix` in float64 (cached): the exact products' left side."""
        if getattr(self, "_node_matrix64", None) is None:
            self._node_matrix64 = self.node_matrix().astype(np.float64)
        return self._node_matrix64

    @property
    def n_nodes(self) -> int:
        return int(self.rows.size)

    @property
    def has_vector(self) -> np.ndarray:
        return self.rows >= 0

    def similarity(
        self, nodes: np.ndarray, target: int, oov_similarity: float = -1.0
    ) -> np.ndarray:
        """cos(f(node), f(target)) for ``nodes``; ``oov_similarity`` where a node has no vector.

        Values are clipped to [-1, 1] and the target's similarity to itself is exactly 1,
        so no other node can outscore the target through rounding.
        """
        nodes = np.asarray(nodes, dtype=np.int64)
        tr = self.rows[target]
        if tr < 0:
            raise ValueError(f"target node {target} has no vector")
        r = self.rows[nodes]
        sims = np.clip(dots(self.unit[r], self.unit[tr]), -1.0, 1.0)
        sims[r < 0] = oov_similarity
        sims[nodes == target] = 1.0
        return sims

    def cosine_pairs(self, a, b) -> np.ndarray:
        """Cosines of node pairs (NaN where either node has no vector)."""
        ra, rb = self.rows[np.asarray(a)], self.rows[np.asarray(b)]
        ok = (ra >= 0) & (rb >= 0)
        out = np.full(ra.size, np.nan)
        a64, b64 = self.unit[ra[ok]].astype(np.float64), self.unit[rb[ok]].astype(np.float64)
        out[ok] = np.einsum("ij,ij->i", a64, b64)  # exact on the grid, in any order
        return out


def normalise_titles(titles, *, drop_qualifier: bool = True):
    """Steps 1-2 of the rule, as a pandas Series of str."""
    import urllib.parse

    import pandas as pd

    s = pd.Series(list(titles), dtype=object).astype(str)
    if s.str.contains("%", regex=False).any():
        s = s.map(urllib.parse.unquote)  # only titles in URL form need it; C-level per item
    s = s.str.replace("_", " ", regex=False).str.lower().str.strip()
    if drop_qualifier:
        stripped = s.str.replace(r"\s*\([^()]*\)$", "", regex=True).str.strip()
        s = stripped.where(stripped.str.len() > 0, s)
    return s


def title_vectors(
    titles, embedding, *, drop_qualifier: bool = True, n_examples: int = 10
) -> NodeVectors:
    """Vectors of article titles by the rule of this module.

    Examples
    --------
    >>> from wordgames.embeddings import Embedding
    >>> emb = Embedding(["new", "york", "paris"], np.eye(3), name="toy")
    >>> nv = title_vectors(["New_York", "Paris_(France)", "Xyzzy"], emb)
    >>> nv.rows.tolist(), nv.report["n_no_vector"]
    ([0, 1, -1], 1)
    >>> [round(float(x), 3) for x in nv.unit[0]]
    [0.707, 0.707, 0.0]
    """
    import pandas as pd

    titles = list(titles)
    norm = normalise_titles(titles, drop_qualifier=drop_qualifier)
    vocab = pd.Index(embedding.words)
    whole = vocab.get_indexer(norm.to_numpy())
    unit = embedding.unit
    n = len(titles)
    need = np.flatnonzero(whole < 0)

    tokens = norm.iloc[need].str.split(_SPLIT, regex=True).explode()
    tokens = tokens[tokens.notna() & (tokens.str.len() > 0)]
    owner = tokens.index.to_numpy()  # position in `norm` (== node id)
    tok_idx = vocab.get_indexer(tokens.to_numpy())
    n_tok = np.bincount(owner, minlength=n)
    found = tok_idx >= 0
    n_found = np.bincount(owner[found], minlength=n)

    sums = np.zeros((n, unit.shape[1]), dtype=np.float64)
    np.add.at(sums, owner[found], unit[tok_idx[found]])
    has_tokens = n_found > 0
    has_tokens[whole >= 0] = False
    with np.errstate(invalid="ignore", divide="ignore"):
        sums[has_tokens] /= n_found[has_tokens, None]
    sums[whole >= 0] = unit[whole[whole >= 0]]
    covered = (whole >= 0) | has_tokens
    norms = np.linalg.norm(sums, axis=1)
    # a mean of opposite unit vectors can vanish: such a title has no direction, so no vector
    covered &= norms > 1e-12
    rows = np.full(n, -1, dtype=np.int64)
    rows[covered] = np.arange(int(covered.sum()))
    mat = (sums[covered] / norms[covered, None]).astype(np.float32)

    partial = has_tokens & covered & (n_found < n_tok)
    no_vec = np.flatnonzero(~covered)
    oov_tokens = tokens[~found]
    report = {
        "rule": (
            "url-decode, '_'->' ', lower-case"
            + (", drop '(qualifier)'" if drop_qualifier else "")
            + "; whole title if in vocabulary, else mean of in-vocabulary token unit vectors"
        ),
        "embedding": embedding.name,
        "n_nodes": n,
        "n_whole_title": int((whole >= 0).sum()),
        "n_token_mean": int((has_tokens & covered).sum()),
        "n_partial": int(partial.sum()),
        "n_no_vector": int(no_vec.size),
        "coverage": float(covered.mean()) if n else float("nan"),
        "n_oov_tokens": int(oov_tokens.size),
        "examples_no_vector": [titles[i] for i in no_vec[:n_examples].tolist()],
        "examples_oov_tokens": oov_tokens.drop_duplicates().head(n_examples).tolist(),
    }
    return NodeVectors(rows, mat, report)
