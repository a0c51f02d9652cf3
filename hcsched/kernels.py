"""numba rules more than one model uses: the earliest completion over all machines or over a subset (MCT and KPB of
seed 000, and MCT, KPB and LPAS of seed 002; ties go to the lowest machine index); and ``exp``, ``log`` and
``power``, the same to the last bit on every machine.

numpy's own exp, log and power run different code on a CPU with AVX-512 (Intel's SVML) than on one without, and
their results differ in the last bit: a workload drawn with them, and every decision made on it, would differ between
two machines for the same seed. The ufuncs here call the C library's functions, as numba's kernels and Python's math
module do, on every CPU alike.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, vectorize


@vectorize(["float64(float64)"], cache=True)
def exp(x):
    """e**x, elementwise, as the C library computes it (``math.exp``)."""
    return math.exp(x)


@vectorize(["float64(float64)"], cache=True)
def log(x):
    """The natural logarithm, elementwise, as the C library computes it (``math.log``)."""
    return math.log(x)


@vectorize(["float64(float64, float64)"], cache=True)
def power(x, y):
    """x**y, elementwise (broadcast as numpy does), as the C library computes it (``pow``)."""
    return x ** y


@njit(cache=True)
def best_machine(e, ready):
    """Earliest completion time of one task: (machine, completion), lowest index on ties."""
    best, best_c = 0, np.inf
    for j in range(e.size):
        c = ready[j] + e[j]
        if c < best_c:
            best, best_c = j, c
    return best, best_c


@njit(cache=True)
def earliest_among(cands, count, ready, e):
    """Of the first ``count`` machines in ``cands``, the one with the earliest completion ready_j + e_j;
    the lowest machine index on ties."""
    best, best_c = -1, np.inf
    for k in range(count):
        j = cands[k]
        c = ready[j] + e[j]
        if c < best_c or (c == best_c and j < best):
            best, best_c = j, c
    return best
