"""similarity measures."""
