"""Two heuristics of one's own for the task-class model: hcsched run SCENARIO --plugin docs/plugins/classes_rules.py"""
import numpy as np
from numba import njit

import hcsched


@hcsched.heuristic("classes", title="Least queued", section="II-B", params={"weight": 1.0},
                   description="The capable machine with the fewest tasks, ties to the faster one for the class.")
def least_queued(task, machines, params):
    mu = machines.mu[task.cls]
    score = np.where(mu > 0, machines.queued + params[0] / np.where(mu > 0, mu, 1.0), np.inf)
    return int(np.argmin(score))  # a plain Python rule: runs in the event loop's Python form


@hcsched.heuristic("classes", title="Random capable machine", section="IV-A.2",
                   description="A machine drawn uniformly among those that can run the class (no state asked).")
@njit
def random_capable(task, machines, params):
    mu = machines.mu[task.cls]
    pick = int(task.u[0] * np.sum(mu > 0))  # the task's own uniform: common random numbers
    for j in range(mu.size):
        if mu[j] > 0:
            if pick == 0:
                return j
            pick -= 1
    return -1  # unreachable: every class has a capable machine
