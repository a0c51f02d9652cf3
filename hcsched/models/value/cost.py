"""The run estimate's cost model of the value model (Kim et al. 2007): what one trial of a heuristic costs, read by
each heuristic object's ``trial_seconds`` (:mod:`.heuristics`).

CPU seconds on one core of the 2-core machine, kernels compiled (fitted to one trial of the paper's workload at 793,
1329 and 2400 tasks on 4, 8 and 16 machines, both heterogeneities; bench/estimates.py checks runs). A dynamic
heuristic: n DYNAMIC_TASK + w n S^2 / m REBUILD, each arrival rebuilding the machines' queues of the S waiting tasks,
S = n / (1 + (1 / rho)^4) at load rho (:func:`load`; S is small below rho = 1), w the heuristic's own weight (its
``rebuild_weight``: Max-min's queues cost most, Queueing Table and Switching edit them). TPSA and GA: the schedules
their parameters let them evaluate x n x their ``evaluation`` seconds (so that a run made far longer is refused
before it starts).
"""

from __future__ import annotations

import functools

import numpy as np

from hcsched.models.value.spec import ValueSpec
from hcsched.sampling import cov_based_etc
from hcsched.stats import gamma_row_minima

DYNAMIC_TASK = 2.75e-6  # a dynamic heuristic, per task: its mapping events at a short queue, schedule and metrics
REBUILD = 8.8e-10  # per task x (waiting tasks)^2 / machines: a rebuilding heuristic's queues under a backlog
_SAMPLE_ROWS, _SAMPLE_MACHINES = 256, 256  # the load is estimated from 256 rows, drawn whole up to 256 machines


@functools.lru_cache(maxsize=64)
def load(s: ValueSpec) -> float:
    """rho = mean arrival rate x the mean over tasks of their smallest ETC / machines (256 rows of the CVB ETC drawn
    with a fixed seed; beyond 256 machines each row's smallest from its order statistic, so that the estimate never
    allocates with the machines): above about 1 the waiting tasks pile up."""
    rng = np.random.default_rng(0)
    if s.machines > _SAMPLE_MACHINES:
        smallest = gamma_row_minima(rng, _SAMPLE_ROWS, s.machines, s.task_mean, *s.covs)
    else:
        smallest = cov_based_etc(rng, _SAMPLE_ROWS, s.machines, s.task_mean, *s.covs).min(axis=1)
    return s.expected_tasks / s.duration * float(smallest.mean()) / s.machines


def dynamic_seconds(s: ValueSpec, rebuild_weight: float, per_task: float = DYNAMIC_TASK) -> float:
    """One trial of a dynamic heuristic whose queues cost ``rebuild_weight`` (see the module's text)."""
    n, m = s.expected_tasks, s.machines
    waiting = n / (1 + (1 / max(load(s), 1e-9)) ** 4)
    return n * per_task + rebuild_weight * REBUILD * n * waiting**2 / m
