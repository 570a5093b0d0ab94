"""The built-in families' data-set declarations, one module per family.

Each family's manifest (:mod:`wordgames.manifest`) names its module here; importing that module
registers its :class:`~wordgames.datasets.DatasetSpec` records.
"""
