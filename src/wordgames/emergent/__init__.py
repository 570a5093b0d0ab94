"""emergent measures."""
