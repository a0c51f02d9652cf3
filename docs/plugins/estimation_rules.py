"""Two heuristics of one's own for the estimation model (Page, Keane and Naughton): see docs/models/estimation.md."""
import numpy as np
from numba import njit

import hcsched


@hcsched.heuristic("estimation", title="Earliest finish with an error margin", params={"k": 1.0})
def margin_ef(now, tasks, processors, params, rng):
    """Each task in id order to the processor that finishes it earliest with its time inflated by k x its error."""
    st = processors.st.copy()
    out = np.empty(tasks.id.size, np.int64)
    for r in range(tasks.id.size):
        out[r] = np.argmin(st + tasks.e[r] * (1.0 + params[0] * tasks.error[r]))
        st[out[r]] += tasks.e[r, out[r]]
    return out


@hcsched.heuristic("estimation", title="Random among the two earliest finishes")
@njit(cache=True)
def random_two(now, tasks, processors, params, rng):
    """Each task in id order to one of its two earliest-finishing processors, drawn at random (numba)."""
    st = processors.st.copy()
    out = np.empty(tasks.id.size, np.int64)
    for r in range(tasks.id.size):
        best = np.argsort(st + tasks.e[r])[:2]
        out[r] = best[rng.integers(0, best.size)]
        st[out[r]] += tasks.e[r, out[r]]
    return out
