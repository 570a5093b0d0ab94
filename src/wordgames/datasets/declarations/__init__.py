"""Importing this package registers every declared data set."""

from wordgames.datasets.declarations import codenames, oddmanout, similarity, wales  # noqa: F401
