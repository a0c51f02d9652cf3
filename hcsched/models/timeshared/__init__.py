"""The time-shared servers of Caniou and Jeannot, "Scheduling on the Grid: Historical Trace and Dynamic Heuristics"
(INRIA RR-4620, 2002): servers that run all their tasks at once, sharing processor and network card equally among
the tasks in each phase, and the historical trace manager (HTM) that predicts every task's completion.

Its spec (:mod:`.spec`; a user's own tables, :mod:`.tables`, read from CSV by :mod:`.readers`), workload
(:mod:`.workload`), engine (:mod:`.engine`, numba), HTM (:mod:`.htm`), heuristics (:mod:`.heuristics`), runs and
metrics (:mod:`.simulation`), presets (:mod:`.presets`) and charts (:mod:`.charts`) live here. Imports point down:
charts and claims, presets, simulation and htm, workload, spec, readers, tables, heuristics, engine.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np

from hcsched.metrics import Metric
from hcsched.models.base import Model
from hcsched.models.timeshared import engine, spec
from hcsched.models.timeshared.claims import CLAIMS
from hcsched.models.timeshared.heuristics import HEURISTICS
from hcsched.models.timeshared.htm import HTM, Prediction, what_if
from hcsched.models.timeshared.presets import PRESETS, sweeps
from hcsched.models.timeshared.simulation import TimesharedRun, measure_run, run_heuristic
from hcsched.models.timeshared.workload import BITS_PER_MB, TimesharedWorkload, make_workload
from hcsched.scenario import Scenario

# Seconds of one trial, per heuristic run (the reference run counted once more): a fixed cost per run, a cost per task
# (its workload, schedule and metrics), and per task and server a base cost, one per task sharing a server and one per
# its square (each arrival simulates every server's k tasks to their ends, at a cost that grows faster than k). Fitted
# by bench/estimates.py's scenarios (CPU seconds of one trial in one process on the
# 2-core machine: caniou-table3 and mu0/10/30/70, three slow servers a user uploaded, and caniou-mu30 with servers, tasks
# and rate x4 and x16, tasks x4, mu10 x4 and mu0 with tasks x4). Refitted with the faster kernels (the median of three trials
# each, kernels compiled, least squares on the ratio): within 0.80-1.27 of each, no margin (the estimate is checked
# both ways, within 1.5x of the runs).
_COST_RUN, _COST_TASK = 1.03e-4, 0.80e-6
_COST_BASE, _COST_SHARING, _COST_SHARING2 = 0.239e-6, 0.100e-6, 0.0119e-6


_SAMPLE_TASKS, _SAMPLE_SERVERS = 100_000, 10_000  # the sharing estimate draws at most these (a sample of the arrivals)
# bytes of one trial: per task and server, the servers' task tables (ten arrays of servers x (tasks + 1)); per task
# and per server, the workload, the schedule and the predictions
_MATRIX_BYTES, _TASK_BYTES, _MACHINE_BYTES = 12 * 8, 60 * 8, 40 * 8


def sharing(s: spec.TimesharedSpec) -> tuple[float, float]:
    """E[k] and E[k^2]: k, the tasks a server holds when a task arrives, averaged over the arrivals of one drawn
    workload. A fluid model of the servers pooled: each task brings its unloaded duration on a server of mean speed
    and mean card, the pool serves ``servers`` such seconds a second, the work in the system after arrival i follows
    Lindley's recursion B_i = max(0, B_(i-1) - servers (a_i - a_(i-1))) + d_i (computed in closed form), and
    k_i = B_i / mean d / servers. Slow servers or cards, or many tasks arriving at once, make it large. A drawn
    workload beyond 100,000 tasks or 10,000 servers is estimated from its first ones (the estimate never allocates
    with the scenario's size)."""
    w = make_workload(_sample(s), np.random.SeedSequence(0))
    d = (w.input_mb + w.output_mb) * BITS_PER_MB / w.bandwidth.mean() + w.mflop / w.speed.mean()
    a, d = w.arrival[w.order], d[w.order]
    total = np.cumsum(d)
    backlog = (total - s.servers * a) - np.minimum.accumulate(total - d - s.servers * a)
    k = backlog / max(float(d.mean()), 1e-300) / s.servers
    return float(k.mean()), float((k * k).mean())


def _sample(s: spec.TimesharedSpec) -> spec.TimesharedSpec:
    """The spec with at most _SAMPLE_TASKS drawn tasks and _SAMPLE_SERVERS drawn servers (a user's tables as they are)."""
    smaller = {}
    if s.task_table is None and s.tasks > _SAMPLE_TASKS:
        smaller["tasks"] = _SAMPLE_TASKS
    if s.platform is None and s.servers > _SAMPLE_SERVERS:
        smaller["servers"] = _SAMPLE_SERVERS
    return dataclasses.replace(s, **smaller) if smaller else s


def size_limit(s: spec.TimesharedSpec) -> str:
    """A note when the cost rule limits the drawn data sizes (the fastest server's card is too slow for the largest
    sizes: :mod:`.workload`), else ""."""
    most = s.size_mb[1] * (2 if s.transfer == "in+out" else 1)
    if s.task_table is not None or s.max_moved_mb >= most:
        return ""
    moved = "input + output" if s.transfer == "in+out" else "input"
    return (f"; data sizes limited to {moved} <= {s.max_moved_mb:.4g} MB, so that compute_ratio x the transfer on the "
            f"fastest server's {s.fastest_bandwidth:g} Mbit/s card fits under max_compute_s (section 3.3)")


_VS = "than the benchmark (NetSolve MCT by default; scenario key reference) on the same trial"


class TimesharedModel(Model):
    name = "timeshared"
    title = "Time-shared servers with a historical trace (Caniou and Jeannot)"
    paper = "Caniou and Jeannot, INRIA RR-4620, 2002"
    paper_title = "Scheduling on the Grid: Historical Trace and Dynamic Heuristics"
    summary = "NetSolve-like servers run all their tasks at once, sharing processor and network; a historical trace manager predicts completion dates, and heuristics use it to place each arriving task."
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
               doc="Percent of tasks finishing earlier " + _VS + " (section 5.5); finishes equal within "
                   "same_tolerance count as a tie."),
        Metric("pct_same", "Tasks finishing at the same time", "%", "",
               doc="Percent of tasks whose completion is within same_tolerance of the benchmark's (a tie)."),
        Metric("pct_later", "Tasks finishing later", "%", "lower", doc="Percent of tasks finishing later " + _VS + "."),
        Metric("gain_makespan", "Gain on makespan", "%", "higher", bar=True,
               doc="100 (M_ref - M) / M_ref, M_ref the benchmark's makespan, on the same trial: positive is "
                   "better (section 6.1)."),
        Metric("gain_sum_flow", "Gain on sum-flow", "%", "higher", bar=True, doc="As the makespan gain, on the sum-flow."),
        Metric("gain_max_flow", "Gain on max-flow", "%", "higher", bar=True, doc="As the makespan gain, on the max-flow."),
        Metric("gain_max_stretch", "Gain on max-stretch", "%", "higher", bar=True,
               doc="As the makespan gain, on the max-stretch."),
    )
    benchmarks = ("netsolve-mct",)
    trial_word = "simulation"
    time_unit = "s"
    compile_seconds = 16.0  # CPU seconds into an empty cache on the 2-core machine (bench/first_run.py)
    default_preset = "caniou-mu10"
    schedule_columns = ("input_end", "compute_end")
    heuristics = HEURISTICS

    def spec_from_dict(self, data: dict[str, Any], base_dir: Path | None = None) -> spec.TimesharedSpec:
        return spec.spec_from_dict(data, base_dir)

    def spec_to_dict(self, s: spec.TimesharedSpec) -> dict[str, Any]:
        return spec.spec_to_dict(s)

    def describe(self, s: spec.TimesharedSpec) -> str:
        mu = "" if s.task_table is not None else f", mean inter-arrival {s.mean_interarrival:g} s"
        return f"{s.servers} time-shared servers, {s.tasks} tasks{mu}, {s.duplex} duplex{size_limit(s)}"

    def scale(self, s: spec.TimesharedSpec) -> tuple[int, int]:
        """The metatask's fixed number of tasks (nbtasks, section 3.3; a user's task table's rows) and the servers (a
        user's server table's rows): the gaps of mean mu draw when the tasks come, not how many."""
        return s.tasks, s.servers

    def workload(self, s: spec.TimesharedSpec, seed_seq: np.random.SeedSequence) -> TimesharedWorkload:
        return make_workload(s, seed_seq)

    def run(self, s: spec.TimesharedSpec, heuristic, workload: TimesharedWorkload) -> TimesharedRun:
        return run_heuristic(s, heuristic, workload)

    def measure(self, s: spec.TimesharedSpec, heuristic, run: TimesharedRun) -> dict[str, Any]:
        return measure_run(s, run)

    def schedule_extras(self, run: TimesharedRun) -> dict[str, np.ndarray]:
        return {"input_end": run.input_end, "compute_end": run.compute_end}

    def trial_bytes(self, s: spec.TimesharedSpec) -> int:
        """The servers' task tables, servers x tasks, and the per-task and per-server arrays."""
        n, m = s.tasks, s.servers
        return _MATRIX_BYTES * n * m + _TASK_BYTES * n + _MACHINE_BYTES * m

    def trial_seconds(self, s: spec.TimesharedSpec, heuristics) -> float:
        """(h + 1) runs (the reference run once more) of _COST_RUN + n (_COST_TASK + S (_COST_BASE + _COST_SHARING k +
        _COST_SHARING2 k^2)): n tasks, S servers, each arrival predicting every server's k tasks to their ends
        (k, k^2: :func:`sharing`), so the cost grows with tasks x servers and faster than linearly with the load."""
        k, k2 = sharing(s)
        per_server = _COST_BASE + _COST_SHARING * k + _COST_SHARING2 * k2
        return (_COST_RUN + s.tasks * (_COST_TASK + s.servers * per_server)) * (len(heuristics) + 1)

    def presets(self):
        return PRESETS

    def sweeps(self):
        return sweeps()

    def claims(self):
        return CLAIMS

    def tiny(self):
        return Scenario.from_dict({"name": "timeshared-tiny", "description": "A tiny time-shared scenario: 4 servers, "
                                   "20 tasks arriving every 10 s on average.", "model": self.name, "servers": 4,
                                   "tasks": 20, "mean_interarrival": 10.0,
                                   "heuristics": ["netsolve-mct", "hmct", "mp", "msf"], "trials": 3, "seed": 3})

    def warm_up(self) -> None:
        engine.warm_up()


MODEL = TimesharedModel()
__all__ = ["HTM", "MODEL", "Prediction", "TimesharedModel", "TimesharedRun", "TimesharedWorkload", "what_if"]
