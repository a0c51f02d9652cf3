"""One heuristic on one workload of the ETC model: immediate mode (Maheswaran et al. 1999, section 3.2) or batch
mode (section 3.3), with the decision work its definition implies."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hcsched.metrics import Schedule
from hcsched.models.etc import engine
from hcsched.models.etc.workload import Workload


@dataclass(frozen=True)
class EtcRun(Schedule):
    """A run's schedule, with ``decision_work``: the task-machine pairs the heuristic's definition compares (tasks x
    machines in immediate mode; in batch mode, for each iteration of Fig. 1 or pass of Fig. 2 that ran, the unmapped
    tasks x machines). It is the unit of ``bench/scaling.py``; no metric reads it. ``makespan_bound`` and
    ``flow_bound``: the workload's (:class:`~.workload.Workload`)."""

    decision_work: int = 0
    makespan_bound: float = float("nan")
    flow_bound: float = float("nan")


def run_heuristic(heuristic, w: Workload) -> EtcRun:
    """Simulate one heuristic (a resolved :class:`~hcsched.scenario.HeuristicSpec`) on one workload."""
    h = heuristic.heuristic
    n, m = w.etc.shape
    packed = h.pack(heuristic.kwargs)
    if h.mode == "immediate":
        machine, start, finish = engine.run_immediate(h.kind, packed, w.arrival, w.etc, w.actual)
        events, work = 0, n * m
    else:
        machine, start, finish, events, unmapped = engine.run_batch(h.kind, packed, w.arrival, w.etc, w.actual)
        work = unmapped * m
    rows = np.arange(n)
    return EtcRun(w.arrival, machine, start, finish, w.etc[rows, machine], w.actual[rows, machine], m, events,
                  np.argmin(w.etc, axis=1), int(work), w.makespan_bound, w.flow_bound)
