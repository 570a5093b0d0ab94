"""wordgames: evaluate word representations by playing associative language games.

Heavy modules (torch, nltk, matplotlib, ray) are imported only where they are used, so
``import wordgames`` and ``wordgames --help`` stay fast.
"""

from wordgames._version import __version__

__all__ = ["__version__"]
