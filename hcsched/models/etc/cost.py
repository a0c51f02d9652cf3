"""The cost model of the ETC model's run estimate: the workload's draw, and the parts each heuristic object takes
(:meth:`hcsched.models.etc.heuristics.EtcHeuristic.trial_seconds`) with the numbers it carries.

CPU seconds on one core of the 2-core machine, kernels compiled (fitted to one trial of 2000 tasks on 8, 20 and 80
machines, 500 and 8000 tasks on 20, at loads 0.4-3.7 and all tasks at once; ``bench/estimates.py`` checks runs).
"""

from __future__ import annotations

import math

import numpy as np

from hcsched.models.etc import spec
from hcsched.models.etc.workload import range_based_etc
from hcsched.sampling import cov_based_etc
from hcsched.stats import gamma_row_minima, uniform_row_minima

DRAW = 3.3e-8  # per task and machine: the trial's ETC matrix and actual times
SMALLEST = 4e-6  # per task: semiconsistent "smallest" rearranges half the rows one by one
MATRIX = 4e-8  # per task and machine of a user's matrix: read from the scenario's rows (and unpickled by workers)
RUN = 8e-8  # per task and heuristic: its schedule and metrics
SCAN, RANK = 4e-9, 5e-9  # immediate mode, per task and machine: MCT's scan of the ready times; x log2 m for KPB
EVENT, EVENT_MACHINE = 4.5e-7, 3.5e-9  # batch mode, per mapping event (about 1.8 per task) and per machine
SEARCH = 1.8e-5  # lp-search, per mapping event and iteration of its search (the LP and the starts included)
PY_CALL, PY_PAIR = 3e-6, 2.5e-7  # a plain Python rule: per call, and per task and machine of the loop's .py_func
_SAMPLE_ROWS, _SAMPLE_MACHINES = 64, 256  # the load is estimated from 64 rows drawn whole up to 256 machines


def load(s: spec.EtcModelSpec) -> float:
    """rho = arrival rate x the mean over tasks of their smallest ETC / machines: the share of the suite's capacity
    the arrivals ask for if every task ran on its fastest machine (infinite when all arrive at once); the smallest
    ETCs from 64 rows of the matrix (drawn with a fixed seed, or the user's). Beyond 256 machines each row's smallest
    is drawn from its order statistic, not the whole row, so that the estimate never allocates with the machines."""
    if s.arrivals.process == "static":
        return float("inf")
    e, rng = s.etc, np.random.default_rng(0)
    if e.method == "matrix":
        smallest = [min(r) for r in e.matrix[:: max(1, len(e.matrix) // _SAMPLE_ROWS)]]
    elif s.machines > _SAMPLE_MACHINES and e.method == "range":
        q = rng.uniform(1.0, e.task_het, size=_SAMPLE_ROWS)
        smallest = q * (1.0 + (e.machine_het - 1.0) * uniform_row_minima(rng, _SAMPLE_ROWS, s.machines))
    elif s.machines > _SAMPLE_MACHINES:
        smallest = gamma_row_minima(rng, _SAMPLE_ROWS, s.machines, e.task_mean, e.task_cov, e.machine_cov)
    elif e.method == "range":
        smallest = range_based_etc(rng, _SAMPLE_ROWS, s.machines, e.task_het, e.machine_het).min(axis=1)
    else:
        smallest = cov_based_etc(rng, _SAMPLE_ROWS, s.machines, e.task_mean, e.task_cov, e.machine_cov).min(axis=1)
    return s.arrivals.rate * float(np.mean(smallest)) / s.machines


def scan_seconds(s: spec.EtcModelSpec, per_pair: float = SCAN) -> float:
    """An immediate rule's scan of the m machines per task: n m ``per_pair``."""
    return s.tasks * s.machines * per_pair


def rank_seconds(s: spec.EtcModelSpec) -> float:
    """KPB's ranking of the machines per task: n m log2(m + 1) RANK."""
    return s.tasks * s.machines * RANK * math.log2(s.machines + 1)


def remap_seconds(s: spec.EtcModelSpec, c: float, rho0: float, p: float) -> float:
    """A batch heuristic: about 1.8 n mapping events that cost EVENT + m EVENT_MACHINE each, and at each the S
    unmapped tasks rescanned against the machines, c n S m^0.75, where the backlog S = n (1 - m / n) / (1 + (rho0 /
    rho)^p) grows with the load rho (:func:`load`); c, rho0 and p are the heuristic's own (Min-min is O(n S m), not
    O(n^2 m))."""
    n, m = s.tasks, s.machines
    backlog = n * max(0.0, 1 - m / n) / (1 + (rho0 / max(load(s), 1e-9)) ** p)
    return 1.8 * n * (EVENT + EVENT_MACHINE * m) + c * n * backlog * m**0.75


def search_seconds(s: spec.EtcModelSpec, iterations: int) -> float:
    """lp-search: its search at each of the 1.8 n events, about SEARCH per iteration at the presets' backlogs."""
    return 1.8 * s.tasks * SEARCH * max(1, iterations)
