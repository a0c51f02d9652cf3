"""The time-shared servers of Caniou and Jeannot, "Scheduling on the Grid: Historical Trace and Dynamic Heuristics"
(INRIA RR-4620, 2002): servers that run all their tasks at once, sharing processor and network card equally among
the tasks in each phase, and the historical trace manager (HTM) that predicts every task's completion.

Its spec (:mod:`.spec`, :mod:`.readers`), workload (:mod:`.workload`), engine (:mod:`.engine`, numba), HTM
(:mod:`.htm`), heuristics (:mod:`.heuristics`), runs and metrics (:mod:`.simulation`), presets (:mod:`.presets`)
and charts (:mod:`.charts`) live here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from hcsched.models.base import Metric, Model
from hcsched.models.timeshared import engine, spec
from hcsched.models.timeshared.heuristics import HEURISTICS
from hcsched.models.timeshared.htm import HTM, Prediction, what_if
from hcsched.models.timeshared.simulation import TimesharedRun, measure_run, run_heuristic
from hcsched.models.timeshared.workload import BITS_PER_MB, TimesharedWorkload, make_workload

# Seconds per task, server and heuristic of a simulation: a base cost and one per task sharing a server, fitted to
# bench/estimates.py's caniou-mu0/10/30/70 on the 2-core machine (3.0, 1.5, 1.0, 1.0 us at 10, 2.5, 1, 1 tasks per
# server; the reference run counted once more).
_COST_BASE, _COST_SHARING = 0.8e-6, 0.22e-6


def _tasks_per_server(s: spec.TimesharedSpec) -> float:
    """How many tasks share a server on average (at least 1), by Little's law on one drawn workload: the tasks'
    unloaded durations on a server of mean speed over the time from the first arrival to the last plus one mean
    duration (all at once when mu = 0: every task in the system)."""
    w = make_workload(s, np.random.SeedSequence(0))
    alone = (w.input_mb + w.output_mb) * BITS_PER_MB / w.bandwidth.mean() + w.mflop / w.speed.mean()
    span = float(w.arrival.max() - w.arrival.min()) + float(alone.mean())
    return max(1.0, float(alone.sum()) / span / s.servers) if span > 0 else 1.0

_VS = "than the reference heuristic (NetSolve MCT by default) on the same trial"


class TimesharedModel(Model):
    name = "timeshared"
    title = "Time-shared servers with a historical trace (Caniou and Jeannot)"
    paper = "Caniou and Jeannot, INRIA RR-4620, 2002"
    spec_type = spec.TimesharedSpec
    spec_keys = frozenset(spec.KEYS)
    # The bars (also what `hcsched run` prints and what a sweep summarises) are the panels of the paper's Figs. 4-14:
    # % of tasks sooner and the four gains against NetSolve MCT; and the makespan itself.
    metrics = (
        Metric("makespan", "Makespan", "s", bar=True, doc="Completion of the last task (section 5.1)."),
        Metric("sum_flow", "Sum-flow", "s", doc="Sum over tasks of completion minus arrival (section 5.2)."),
        Metric("max_flow", "Max-flow", "s", doc="The longest completion minus arrival (section 5.3)."),
        Metric("max_stretch", "Max-stretch", "", ci="bootstrap",
               doc="The largest flow over the task's duration alone on its server (section 5.4)."),
        Metric("pct_sooner", "Tasks finishing sooner", "%", "higher", bar=True,
               doc="Percent of tasks finishing earlier " + _VS + " (section 5.5); equal within same_tolerance."),
        Metric("pct_same", "Tasks finishing at the same time", "%", "",
               doc="Percent of tasks whose completion is within same_tolerance of the reference's."),
        Metric("pct_later", "Tasks finishing later", "%", "lower", doc="Percent of tasks finishing later " + _VS + "."),
        Metric("gain_makespan", "Gain on makespan", "%", "higher", bar=True,
               doc="100 (M_ref - M) / M_ref on the same trial: positive is better (section 6.1)."),
        Metric("gain_sum_flow", "Gain on sum-flow", "%", "higher", bar=True, doc="As the makespan gain, on the sum-flow."),
        Metric("gain_max_flow", "Gain on max-flow", "%", "higher", bar=True, doc="As the makespan gain, on the max-flow."),
        Metric("gain_max_stretch", "Gain on max-stretch", "%", "higher", bar=True,
               doc="As the makespan gain, on the max-stretch."),
    )
    benchmarks = ("netsolve-mct",)
    trial_word = "simulation"
    time_unit = "s"
    default_preset = "caniou-mu10"
    schedule_columns = ("input_end", "compute_end")
    heuristics = HEURISTICS

    def spec_from_dict(self, data: dict[str, Any], base_dir: Path | None = None) -> spec.TimesharedSpec:
        return spec.spec_from_dict(data, base_dir)

    def spec_to_dict(self, s: spec.TimesharedSpec) -> dict[str, Any]:
        return spec.spec_to_dict(s)

    def describe(self, s: spec.TimesharedSpec) -> str:
        mu = "" if s.task_table is not None else f", mean inter-arrival {s.mean_interarrival:g} s"
        return f"{s.servers} time-shared servers, {s.tasks} tasks{mu}, {s.duplex} duplex"

    def workload(self, s: spec.TimesharedSpec, seed_seq: np.random.SeedSequence) -> TimesharedWorkload:
        return make_workload(s, seed_seq)

    def run(self, s: spec.TimesharedSpec, heuristic, workload: TimesharedWorkload) -> TimesharedRun:
        return run_heuristic(s, heuristic, workload)

    def measure(self, s: spec.TimesharedSpec, heuristic, run: TimesharedRun) -> dict[str, Any]:
        return measure_run(s, run)

    def schedule_extras(self, run: TimesharedRun) -> dict[str, np.ndarray]:
        return {"input_end": run.input_end, "compute_end": run.compute_end}

    def trial_seconds(self, s: spec.TimesharedSpec, heuristics) -> float:
        per_task = _COST_BASE + _COST_SHARING * _tasks_per_server(s)
        return per_task * s.tasks * s.servers * (len(heuristics) + 1)

    def presets(self):
        from hcsched.models.timeshared.presets import PRESETS

        return PRESETS

    def sweeps(self):
        from hcsched.models.timeshared.presets import sweeps

        return sweeps()

    def tiny(self):
        from hcsched.scenario import Scenario

        return Scenario.from_dict({"name": "timeshared-tiny", "description": "A tiny time-shared scenario: 4 servers, "
                                   "20 tasks arriving every 10 s on average.", "model": self.name, "servers": 4,
                                   "tasks": 20, "mean_interarrival": 10.0,
                                   "heuristics": ["netsolve-mct", "hmct", "mp", "msf"], "trials": 3, "seed": 3})

    def warm_up(self) -> None:
        engine.warm_up()


MODEL = TimesharedModel()
__all__ = ["HTM", "MODEL", "Prediction", "TimesharedModel", "TimesharedRun", "TimesharedWorkload", "what_if"]
