"""The emergent-communication family's manifest: the CBM measure.

Registered in ``pyproject.toml`` under ``wordgames.families`` (:mod:`wordgames.manifest`).
"""

from wordgames.manifest import FamilyManifest

MANIFEST = FamilyManifest(name="emergent", order=50, measures=("wordgames.emergent.spec:MEASURE",))
