"""The similarity family's manifest: the word-similarity benchmarks and the global metrics.

Registered in ``pyproject.toml`` under ``wordgames.families`` (:mod:`wordgames.manifest`).
"""

from wordgames.manifest import FamilyManifest

MANIFEST = FamilyManifest(
    name="similarity",
    order=20,
    measures=("wordgames.similarity.spec:SIMILARITY", "wordgames.similarity.spec:GLOBAL_METRICS"),
    datasets=("wordgames.datasets.declarations.similarity",),
)
