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

Nothing is imported here, so ``import wordgames.emergent`` stays light.
"""
