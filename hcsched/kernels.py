"""numba rules more than one model uses: the earliest completion over all machines or over a subset (MCT and KPB of
seed 000, and MCT, KPB and LPAS of seed 002). Ties go to the lowest machine index."""

from __future__ import annotations

import numpy as np
from numba import njit


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
