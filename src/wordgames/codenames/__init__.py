"""codenames measures."""
