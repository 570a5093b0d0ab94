"""Emergent communication: Concept-Best-Matching and the other measures of emergent languages.

* :mod:`wordgames.emergent.inputs` -- messages (integer ids, one-hot, quantized bits, token
  lists, EGG interactions, JSONL/CSV logs) and concepts to one encoding;
* :mod:`wordgames.emergent.cbm` -- the best match of words to concepts and its by-products;
* :mod:`wordgames.emergent.topsim`, :mod:`wordgames.emergent.information` -- TopSim, AMI,
  PosDis, BosDis;
* :mod:`wordgames.emergent.measures` -- :func:`~wordgames.emergent.measures.evaluate_language`,
  everything in one call;
* :mod:`wordgames.emergent.plots` -- the best-match graph and the sensitivity curve;
* :mod:`wordgames.emergent.games` -- games that produce emergent languages (torch, optional).

The public functions are loaded on first use (``wordgames.emergent.evaluate_language``), so
``import wordgames.emergent`` stays light.

>>> import wordgames.emergent as em
>>> em.evaluate_language([["a"], ["b"]], [["red"], ["blue"]]).cbm
1.0
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "evaluate_language": "measures",
    "evaluate_log": "measures",
    "evaluate_interaction": "measures",
    "report_to_result": "measures",
    "LanguageReport": "measures",
    "read_log": "inputs",
    "from_interaction": "inputs",
    "encode_messages": "inputs",
    "encode_concepts": "inputs",
    "LanguageLog": "inputs",
    "concept_best_matching": "cbm",
    "cbm_sensitivity": "cbm",
    "best_match": "cbm",
    "topographic_similarity": "topsim",
    "adjusted_mutual_information": "information",
    "positional_disentanglement": "information",
    "bag_of_symbols_disentanglement": "information",
    "plot_best_match_graph": "plots",
    "plot_sensitivity": "plots",
    "evaluate_log_file": "logfile",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        module = importlib.import_module(f"wordgames.emergent.{_EXPORTS[name]}")
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
