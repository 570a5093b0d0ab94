"""The Odd-Man-Out family's manifest: its measure, data sets, the solver role and its agents.

Registered in ``pyproject.toml`` under ``wordgames.families`` (:mod:`wordgames.manifest`).
"""

from wordgames.agents import AgentSpec
from wordgames.manifest import FamilyManifest, Role

MANIFEST = FamilyManifest(
    name="oddmanout",
    order=40,
    measures=("wordgames.oddmanout.spec:MEASURE",),
    datasets=("wordgames.datasets.declarations.oddmanout",),
    roles=(Role("oddmanout", "solver", "wordgames.oddmanout.checks:solver"),),
    agent_modules=("wordgames.oddmanout.embedding_solver", "wordgames.oddmanout.players"),
    agents=(
        AgentSpec("embedding", "oddmanout", "solver", "vectors",
                  "wordgames.oddmanout.embedding_solver:EmbeddingSolver",
                  "the word whose removal leaves the most cohesive rest (compactness)"),
        AgentSpec("wordnet", "oddmanout", "solver", "", "wordgames.oddmanout.wordnet:wordnet_solver",
                  "the word left out of the most specific WordNet explanation (baseline)"),
        AgentSpec("player", "oddmanout", "solver", "player",
                  "wordgames.oddmanout.players:PlayerSolver",
                  "asks the player which word does not belong (or none)"),
    ),
)  # fmt: skip
