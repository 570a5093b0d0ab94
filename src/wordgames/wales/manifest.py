"""The WALES family's manifest: its measures, data sets, the navigator role and its agents.

Registered in ``pyproject.toml`` under ``wordgames.families`` (:mod:`wordgames.manifest`).
"""

from wordgames.agents import AgentSpec
from wordgames.manifest import FamilyManifest, Role

MANIFEST = FamilyManifest(
    name="wales",
    order=30,
    measures=(
        "wordgames.wales.spec:MEASURE",
        "wordgames.wales.spec:AGENTS",
        "wordgames.wales.spec:POWER_LAW",
        "wordgames.wales.spec:BASELINES",
    ),
    datasets=("wordgames.datasets.declarations.wales",),
    roles=(Role("wales", "navigator", "wordgames.wales.checks:navigator"),),
    agent_modules=("wordgames.wales.agent", "wordgames.wales.players"),
    agents=(
        AgentSpec("greedy", "wales", "navigator", "vectors", "wordgames.wales.agent:GreedyAgent",
                  "follows the link whose title is most similar to the target's (WALES)"),
        AgentSpec("player", "wales", "navigator", "player",
                  "wordgames.wales.players:PlayerNavigator",
                  "asks the player which link to follow towards the target"),
    ),
)  # fmt: skip
