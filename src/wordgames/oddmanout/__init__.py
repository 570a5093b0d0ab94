"""oddmanout measures."""
