"""wales measures."""
