"""wordgames: evaluate word representations by playing associative language games.

>>> import wordgames
>>> results = wordgames.evaluate("glove-6b-50d", measures=["global-metrics"], seed=0)
>>> results.to_frame()[["measure", "metric"]].head(1).values.tolist()
[['global-metrics', 'erank']]

Heavy modules (numpy, torch, nltk, matplotlib, ray) are imported only where they are used, so
``import wordgames`` and ``wordgames --help`` stay fast: the names below load on first use.
"""

import os as _os

from wordgames._version import __version__


def _pin_relative_roots() -> None:
    """A relative ``$WORDGAMES_DATA`` or ``$WORDGAMES_CACHE`` is made absolute, once, here.

    It means the folder relative to where it was given (``WORDGAMES_DATA=../shared/data
    wordgames run``), so it is resolved against the working folder at import: code that
    changes folder later (a test in a temporary folder, a server) and the processes it starts
    still find it.
    """
    for key in ("WORDGAMES_DATA", "WORDGAMES_CACHE"):
        value = _os.environ.get(key)
        if value and not _os.path.isabs(value):
            _os.environ[key] = _os.path.abspath(value)


_pin_relative_roots()

_LAZY = {
    "evaluate": "wordgames.evaluation",
    "Results": "wordgames.evaluation",
    "compute_unit": "wordgames.evaluation",
    "list_measures": "wordgames.registry",
    "get_measure": "wordgames.registry",
    "Measure": "wordgames.measure",
    "Metric": "wordgames.measure",
    "Headline": "wordgames.measure",
    "Score": "wordgames.measure",
    "load_embeddings": "wordgames.embeddings.sets",
    "VocabularyPolicy": "wordgames.embeddings.sets",
    "Embedding": "wordgames.embeddings.core",
}

__all__ = ["__version__", *_LAZY]


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'wordgames' has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
