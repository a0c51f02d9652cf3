"""Two heuristics of one's own for the time-shared model:
hcsched run SCENARIO --plugin docs/plugins/timeshared_rules.py"""
import numpy as np
from numba import njit

import hcsched


@hcsched.heuristic("timeshared", title="Random among the k soonest", params={"k": 3}, predicts="new",
                   description="One of the k servers where the HTM predicts the new task ends first, at random "
                               "(numba: runs compiled; asks the HTM only for the new task's completion).")
@njit
def random_k_soonest(now, cost, start, before, after, t_new, load, params, rng):
    k = min(int(params[0]), t_new.size)
    best = np.argsort(t_new, kind="mergesort")[:k]
    return best[rng.integers(0, k)]


@hcsched.heuristic("timeshared", title="Perturbation plus weighted length", params={"w": 0.5},
                   description="The server minimising the sum of the perturbations the new task causes (MP) plus w "
                               "times its own predicted length (HMCT's key): between MP and HMCT (plain Python).")
def perturbation_plus_length(now, cost, start, before, after, t_new, load, params, rng):
    score = [(after[start[j]:start[j + 1]] - before[start[j]:start[j + 1]]).sum() + params[0] * (t_new[j] - now)
             for j in range(t_new.size)]
    return int(np.argmin(score))
