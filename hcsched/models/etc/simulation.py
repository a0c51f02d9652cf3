"""One heuristic on one workload of the ETC model: immediate mode (Maheswaran et al. 1999, section 3.2) or batch
mode (section 3.3), with the decision work its definition implies."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hcsched.metrics import Schedule
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


def make_run(w: Workload, machine, start, finish, events: int, work: int) -> EtcRun:
    """The run of a heuristic that mapped the tasks of ``w`` to ``machine`` (started and finished at ``start`` and
    ``finish``) at ``events`` mapping events, with its decision ``work``."""
    n, m = w.etc.shape
    rows = np.arange(n)
    return EtcRun(w.arrival, machine, start, finish, w.etc[rows, machine], w.actual[rows, machine], m, events,
                  np.argmin(w.etc, axis=1), int(work), w.makespan_bound, w.flow_bound)


def run_heuristic(heuristic, w: Workload) -> EtcRun:
    """Simulate one heuristic (a resolved :class:`~hcsched.scenario.HeuristicSpec`) on one workload: its object
    runs it (:meth:`.heuristics.EtcHeuristic.run`)."""
    return heuristic.heuristic.run(None, heuristic, w)
