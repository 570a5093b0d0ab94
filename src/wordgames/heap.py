"""The objects alive when a computation starts are left out of Python's full collections.

A measure's run makes many small objects (records, tuples, results), so Python's cyclic
collector runs a full collection now and then, and a full collection walks every object
alive, the loaded embeddings' vocabularies and data sets included: 0.1 s each on the human
Codenames data, three times a run, and all that while holding the GIL, so the threads that
count wait too (0.32 s of a 4.0 s run). :func:`long_lived_heap` moves what is alive at the
start out of the collector's sight (:func:`gc.freeze`) and puts it back at the end: what the
computation makes is still collected as before.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0  # computations inside a long_lived_heap, on any thread
_frozen = False  # whether the outermost one froze the heap (the collector was on)


@contextmanager
def long_lived_heap() -> Iterator[None]:
    """Context in which the objects alive at its start are not walked by full collections.

    Nested and concurrent uses share one freeze: the first to enter freezes, the last to
    leave puts the objects back among the collected ones. A caller who turned the collector
    off, or froze objects of their own (a server before it forks), keeps the heap as it is.

    Examples
    --------
    >>> import gc
    >>> with long_lived_heap():
    ...     gc.get_freeze_count() > 0
    True
    """
    global _depth, _frozen
    with _lock:
        _depth += 1
        if _depth == 1:
            _frozen = gc.isenabled() and gc.get_freeze_count() == 0
            if _frozen:
                gc.freeze()
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _frozen:
                gc.unfreeze()
                _frozen = False
