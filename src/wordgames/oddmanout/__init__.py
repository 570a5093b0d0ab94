"""Odd-Man-Out (Stanovsky & Hopkins, EMNLP 2018): puzzles, solvers, metrics, generation.

Light to import: nltk (WordNet), torch and transformers (contextual senses) and matplotlib
are imported inside the functions that use them.

>>> from wordgames.oddmanout import PuzzleSet, EmbeddingSolver, score
"""

from wordgames.oddmanout.data import FILES, load_dataset, load_file
from wordgames.oddmanout.embedding_solver import (
    EmbeddingSolver,
    Solution,
    cohesion,
    leave_one_out_cohesion,
    sense_leave_one_out_cohesion,
)
from wordgames.oddmanout.generate import (
    protocol_count,
    protocol_puzzles,
    read_categories,
    sample_puzzles,
    wordnet_categories,
)
from wordgames.oddmanout.metrics import format_table3, score
from wordgames.oddmanout.phrases import MWE_POLICIES, resolve
from wordgames.oddmanout.puzzles import PuzzleSet, read_puzzles, write_puzzles
from wordgames.oddmanout.senses import SenseEmbedding
from wordgames.oddmanout.taxonomy import Taxonomy, TaxonomySolver

__all__ = [
    "FILES",
    "MWE_POLICIES",
    "EmbeddingSolver",
    "PuzzleSet",
    "SenseEmbedding",
    "Solution",
    "Taxonomy",
    "TaxonomySolver",
    "cohesion",
    "format_table3",
    "leave_one_out_cohesion",
    "load_dataset",
    "load_file",
    "protocol_count",
    "protocol_puzzles",
    "read_categories",
    "read_puzzles",
    "resolve",
    "sample_puzzles",
    "score",
    "sense_leave_one_out_cohesion",
    "wordnet_categories",
    "write_puzzles",
]
