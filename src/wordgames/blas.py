"""BLAS on one thread, for code made of many small matrix products.

On such products OpenBLAS's threads cost more than they give (10 to 30 times the product on
this project's machines, more on a busy one), and results that depend on the thread count
would depend on the machine.
"""

from __future__ import annotations


def single_threaded_blas():
    """Context in which every BLAS library loaded so far runs on one thread (threadpoolctl)."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")
