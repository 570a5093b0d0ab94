"""The Codenames family's manifest: its measures, data sets, roles and agents.

Registered in ``pyproject.toml`` under the entry-point group ``wordgames.families``, as a
plug-in's manifest is (:mod:`wordgames.manifest`).
"""

from wordgames.agents import AgentSpec
from wordgames.manifest import FamilyManifest, Role

_CN = "wordgames.codenames.agents"
_PL = "wordgames.codenames.players"

MANIFEST = FamilyManifest(
    name="codenames",
    order=10,
    measures=("wordgames.codenames.spec:MEASURE", "wordgames.codenames.spec:SELFPLAY"),
    datasets=("wordgames.datasets.declarations.codenames",),
    roles=(
        Role("codenames", "sender", "wordgames.codenames.checks:sender"),
        Role("codenames", "receiver", "wordgames.codenames.checks:receiver"),
    ),
    # an agent declared on its class with @wordgames.agents.agent in one of these is registered too
    agent_modules=(_CN, _PL),
    agents=(
        AgentSpec("cluster", "codenames", "sender", "vectors", f"{_CN}:ClusterSender",
                  "clue nearest the centroid of a k-means cluster of blue words (the paper's)"),
        AgentSpec("exhaustive", "codenames", "sender", "vectors", f"{_CN}:ExhaustiveSearchSender",
                  "clue that covers the most blue words before any red one (Algorithm 2)"),
        AgentSpec("random-sender", "codenames", "sender", "vectors", f"{_CN}:RandomSender",
                  "a random clue of the vocabulary (baseline)"),
        AgentSpec("nearest", "codenames", "receiver", "vectors",
                  f"{_CN}:EmbeddingNearestReceiver",
                  "board words by similarity to the clue (Algorithm 3)"),
        AgentSpec("random-receiver", "codenames", "receiver", "", f"{_CN}:RandomReceiver",
                  "board words in a random order (baseline)"),
        AgentSpec("player-receiver", "codenames", "receiver", "player", f"{_PL}:PlayerReceiver",
                  "asks the player to order the board words for the clue"),
        AgentSpec("player-sender", "codenames", "sender", "player", f"{_PL}:PlayerSender",
                  "asks the player for its 10 best clues (hits@10 and mrr@10 against people's "
                  "clues)"),
        AgentSpec("logprob-receiver", "codenames", "receiver", "scorer", f"{_PL}:LogprobReceiver",
                  "orders the board words by their log-probability after the clue (a scorer)"),
        AgentSpec("logprob-sender", "codenames", "sender", "scorer", f"{_PL}:LogprobSender",
                  "ranks the clues a person chose from by their log-probability (a scorer)"),
    ),
)  # fmt: skip
