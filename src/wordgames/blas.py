"""BLAS on one thread, for code made of many small matrix products.

On such products OpenBLAS's threads cost more than they give (10 to 30 times the product on
this project's machines, more on a busy one), and results that depend on the thread count
would depend on the machine.
"""

from __future__ import annotations

import sys

#: (number of loaded modules, threadpoolctl controller): finding the loaded BLAS libraries
#: reads the process's memory map (about 3 ms), so it is done again only after an import
_CONTROLLER: list = [None, None]


def blas_controller():
    """A ``threadpoolctl.ThreadpoolController`` of the libraries loaded so far (remembered)."""
    from threadpoolctl import ThreadpoolController

    if _CONTROLLER[0] != len(sys.modules):
        _CONTROLLER[1] = ThreadpoolController()
        _CONTROLLER[0] = len(sys.modules)
    return _CONTROLLER[1]


def single_threaded_blas():
    """Context in which every BLAS library loaded so far runs on one thread (threadpoolctl)."""
    return blas_controller().limit(limits=1, user_api="blas")
