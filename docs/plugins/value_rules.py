"""Two heuristics of one's own for the value model: hcsched run SCENARIO --plugin docs/plugins/value_rules.py"""

import numpy as np
from numba import njit

import hcsched


@hcsched.heuristic("value", title="Random machine", description="Each mappable task to a random machine.")
def random_machine(now, end, tasks, machines, params):
    """Each mappable task, in arrival order, appended to a machine drawn at random (np.random, seeded per trial)."""
    return np.column_stack([np.arange(tasks.id.size), np.random.randint(0, machines.ready.size, tasks.id.size)])


@hcsched.heuristic("value", title="Priority-first MCT", section="4.3")
@njit(cache=True)
def priority_mct(now, end, tasks, machines, params):
    """High-priority tasks first (then by D100), each to its minimum completion time machine (compiled)."""
    mat = machines.ready.copy()
    out = np.empty((tasks.id.size, 2), np.int64)
    for k, i in enumerate(np.argsort(tasks.priority * 1e12 + tasks.d100, kind="mergesort")):
        j = np.argmin(mat + tasks.etc[i])
        mat[j] += tasks.etc[i, j]
        out[k, 0], out[k, 1] = i, j
    return out
