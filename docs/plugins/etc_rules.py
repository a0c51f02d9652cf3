"""Two heuristics of one's own for the ETC model: hcsched run SCENARIO --plugin docs/plugins/etc_rules.py"""
import numpy as np
from numba import njit

import hcsched


@hcsched.heuristic("etc", title="Random among the k best", params={"k": 3},
                   description="MCT's k earliest completions, one of them at random (numba: runs compiled).")
@njit
def random_k_best(e, ready, now, params, state):
    k = min(int(params[0]), e.size)
    best = np.argsort(ready + e, kind="mergesort")[:k]
    return best[np.random.randint(k)]


@hcsched.heuristic("etc", mode="batch", title="Longest task first, earliest completion",
                   description="At each mapping event, the longest tasks (mean ETC) first, each where it completes "
                               "earliest (plain Python).")
def longest_first(E, zeta, ready, now, params, state, out_task, out_machine):
    ready = ready.copy()
    for g, i in enumerate(np.argsort(-E.mean(axis=1), kind="stable")):
        j = int(np.argmin(ready + E[i]))
        ready[j] += E[i, j]
        out_task[g], out_machine[g] = i, j
    return len(E)
