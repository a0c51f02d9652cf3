"""Runs and metrics of the time-shared model (Caniou and Jeannot, sections 5 and 6.1).

The environment behaves exactly as the HTM predicts (sections 3.3 and 4.1: the SimGrid environment is read as the HTM's
model, docs/models/timeshared.md), so a run's completion dates are the HTM's final predictions. Comparisons with the
reference heuristic (NetSolve MCT by default) need its run on the same trial: :func:`reference_run` computes it once per
workload and keeps it in the workload's memo, so every heuristic of the trial is measured against the same run without
the generic layer knowing (the run is deterministic, so computing it inside any heuristic's run gives the same numbers).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hcsched.heuristics import get_heuristic
from hcsched.metrics import Schedule
from hcsched.models.timeshared.spec import TimesharedSpec
from hcsched.models.timeshared.workload import TimesharedWorkload
from hcsched.scenario import HeuristicSpec

BASE = ("makespan", "sum_flow", "max_flow", "max_stretch")


@dataclass(frozen=True)
class TimesharedRun:
    schedule: Schedule  # start = arrival (the input phase begins at once); expected = actual = d, the unloaded time
    input_end: np.ndarray
    compute_end: np.ndarray
    reference_finish: np.ndarray
    reference_metrics: dict


def _memo_run(h, params: dict, spec: TimesharedSpec, w: TimesharedWorkload):
    """The heuristic object's run (:meth:`.heuristics.TimesharedHeuristic.mapping`), once per workload."""
    key = (h, tuple(sorted(params.items())), spec.duplex, spec.tie_tolerance)
    if key not in w.memo:
        w.memo[key] = h.mapping(spec, params, w)
    return w.memo[key]


def base_metrics(arrival: np.ndarray, finish: np.ndarray, d: np.ndarray) -> dict:
    """Makespan, sum-flow, max-flow and max-stretch (section 5); stretch = flow / unloaded duration on its server."""
    flow = finish - arrival
    with np.errstate(divide="ignore", invalid="ignore"):
        stretch = np.where(d > 0, flow / np.where(d > 0, d, 1.0), 1.0)
    return {"makespan": float(finish.max()), "sum_flow": float(flow.sum()), "max_flow": float(flow.max()),
            "max_stretch": float(stretch.max())}


def run_heuristic(spec: TimesharedSpec, heuristic: HeuristicSpec, w: TimesharedWorkload) -> TimesharedRun:
    machine, ends = _memo_run(heuristic.heuristic, heuristic.kwargs, spec, w)
    ref_h = get_heuristic(spec.reference, "timeshared")
    ref_machine, ref_ends = _memo_run(ref_h, ref_h.defaults(), spec, w)
    n = w.arrival.size
    d = w.alone[np.arange(n), machine].sum(axis=1)
    ref_d = w.alone[np.arange(n), ref_machine].sum(axis=1)
    schedule = Schedule(w.arrival, machine, w.arrival.copy(), ends[:, 2], d, d, int(w.speed.size))
    return TimesharedRun(schedule, ends[:, 0], ends[:, 1], ref_ends[:, 2],
                         base_metrics(w.arrival, ref_ends[:, 2], ref_d))


def measure_run(spec: TimesharedSpec, run: TimesharedRun) -> dict:
    """The paper's metrics, and against the reference on the same trial: % of tasks finishing sooner / at the same
    time (within ``same_tolerance``) / later, and the gain in % on each metric, 100 (M_ref - M) / M_ref (positive
    is better; per simulation, then averaged: section 6.1, docs/models/timeshared.md)."""
    s = run.schedule
    row = base_metrics(s.arrival, s.finish, s.actual)
    diff = s.finish - run.reference_finish
    tol = spec.same_tolerance
    n = diff.size
    row["pct_sooner"] = 100.0 * float((diff < -tol).sum()) / n
    row["pct_same"] = 100.0 * float((np.abs(diff) <= tol).sum()) / n
    row["pct_later"] = 100.0 * float((diff > tol).sum()) / n
    for key in BASE:
        ref = run.reference_metrics[key]
        row[f"gain_{key}"] = 100.0 * (ref - row[key]) / ref if ref > 0 else 0.0
    return row
