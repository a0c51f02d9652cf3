"""The time-shared servers of Caniou and Jeannot, "Scheduling on the Grid: Historical Trace and Dynamic Heuristics"
(INRIA RR-4620, 2002): servers that run all their tasks at once, sharing processor and network card equally among
the tasks in each phase, and the historical trace manager (HTM) that predicts every task's completion.

Its spec (:mod:`.spec`; a user's own tables, :mod:`.tables`, read from CSV by :mod:`.readers`), workload
(:mod:`.workload`), engine (:mod:`.engine`, numba), HTM (:mod:`.htm`), heuristics (:mod:`.heuristics`, each one
object), the plug-in interface (:mod:`.plugin`), runs and metrics (:mod:`.simulation`), presets (:mod:`.presets`) and
charts (:mod:`.charts`) live here. Imports point down: htm and simulation, heuristics, claims and workload, presets
and spec, readers, charts, engine, reference and tables, plugin.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from hcsched.errors import HcschedError
from hcsched.metrics import (
    MAKESPAN_GLOSS,
    MAX_FLOW_GLOSS,
    MAX_STRETCH_GLOSS,
    STRETCH_SAID,
    SUM_FLOW_GLOSS,
    Metric,
    gain_said,
)
from hcsched.models.base import Model
from hcsched.models.timeshared import engine, plugin, spec
from hcsched.models.timeshared.claims import CLAIMS
from hcsched.models.timeshared.heuristics import HEURISTICS, NUMBA_FACTOR, PYTHON_FACTOR, TimesharedHeuristic
from hcsched.models.timeshared.htm import HTM, Prediction, explain_problem, what_if
from hcsched.models.timeshared.presets import PRESETS, sweeps
from hcsched.models.timeshared.simulation import TimesharedRun, measure_run, run_heuristic
from hcsched.models.timeshared.workload import TimesharedWorkload, make_workload, sharing
from hcsched.scenario import HeuristicSpec, Scenario

# bytes of one trial: per task and server, the servers' task tables (ten arrays of servers x (tasks + 1)); per task
# and per server, the workload, the schedule and the predictions
_MATRIX_BYTES, _TASK_BYTES, _MACHINE_BYTES = 12 * 8, 60 * 8, 40 * 8


def size_limit(s: spec.TimesharedSpec) -> str:
    """A note when the cost rule limits the drawn data sizes (the fastest server's card is too slow for the largest
    sizes: :mod:`.workload`), else ""."""
    most = s.size_mb[1] * (2 if s.transfer == "in+out" else 1)
    if s.task_table is not None or s.max_moved_mb >= most:
        return ""
    moved = "input + output" if s.transfer == "in+out" else "input"
    return (f"; data sizes limited to {moved} <= {s.max_moved_mb:.4g} MB, so that compute_ratio x the transfer on the "
            f"fastest server's {s.fastest_bandwidth:g} Mbit/s card fits under max_compute_s (section 3.3)")


_VS = ("than with the benchmark (earliest completion by the servers' reported load, NetSolve's rule, by default; "
       "scenario key reference) on the same simulation")


class TimesharedModel(Model):
    name = "timeshared"
    title = "Time-shared servers with a historical trace (Caniou and Jeannot)"
    paper = "Caniou and Jeannot, INRIA RR-4620, 2002"
    paper_title = "Scheduling on the Grid: Historical Trace and Dynamic Heuristics"
    summary = ("NetSolve-like servers run all their tasks at once, sharing processor and network; a historical trace "
               "manager predicts completion dates, and heuristics use it to place each arriving task.")
    spec_type = spec.TimesharedSpec
    spec_keys = frozenset(spec.KEYS)
    # The bars (also what `hcsched run` prints and what a sweep summarises) are the panels of the paper's Figs. 4-14:
    # % of tasks sooner and the four gains against NetSolve MCT; and the makespan itself.
    metrics = (
        Metric("makespan", "Makespan", "s", bar=True, gloss=MAKESPAN_GLOSS,
               doc="When the last task finishes (section 5.1)."),
        Metric("sum_flow", "Total flow time", "s", gloss=SUM_FLOW_GLOSS,
               doc="The total time tasks spend in the system: the sum over tasks of finish minus arrival (the paper's "
                   "sum-flow, section 5.2)."),
        Metric("max_flow", "Max flow time", "s", gloss=MAX_FLOW_GLOSS,
               doc="The longest time a task spends in the system, finish minus arrival (the paper's max-flow, "
                   "section 5.3)."),
        Metric("max_stretch", "Max stretch", "", ci="bootstrap", gloss=MAX_STRETCH_GLOSS, said=STRETCH_SAID,
               doc="The worst slowdown of a task: its time in the system over its time alone on its server (the "
                   "paper's max-stretch, section 5.4)."),
        Metric("pct_sooner", "Tasks finishing sooner", "%", "higher", bar=True,
               doc="Percent of tasks finishing earlier " + _VS + " (section 5.5); finishes closer than the 'same time' "
                   "tolerance count as a tie."),
        Metric("pct_same", "Tasks finishing at the same time", "%", "",
               doc="Percent of tasks finishing as with the benchmark, within the 'same time' tolerance (scenario key "
                   "same_tolerance): a tie."),
        Metric("pct_later", "Tasks finishing later", "%", "lower", doc="Percent of tasks finishing later " + _VS + "."),
        Metric("gain_makespan", "Gain on makespan", "%", "higher", bar=True,
               gloss=MAKESPAN_GLOSS, said=gain_said("makespan"),
               doc="How much sooner the last task finishes than with the benchmark, in % of the benchmark's makespan: "
                   "100 (M_ref - M) / M_ref on the same simulation; positive is better (section 6.1)."),
        Metric("gain_sum_flow", "Gain on total flow time", "%", "higher", bar=True,
               gloss=SUM_FLOW_GLOSS, said=gain_said("total flow time"),
               doc="As the makespan gain, on the total time tasks spend in the system (the paper's sum-flow)."),
        Metric("gain_max_flow", "Gain on max flow time", "%", "higher", bar=True,
               gloss=MAX_FLOW_GLOSS, said=gain_said("max flow time"),
               doc="As the makespan gain, on the longest time a task spends in the system (the paper's max-flow)."),
        Metric("gain_max_stretch", "Gain on max stretch", "%", "higher", bar=True,
               gloss=MAX_STRETCH_GLOSS, said=gain_said("max stretch"),
               doc="As the makespan gain, on the worst slowdown of a task (the paper's max-stretch)."),
    )
    benchmarks = ("netsolve-mct",)
    time_unit = "s"
    compile_seconds = 16.0  # CPU seconds into an empty cache on the 2-core machine (bench/first_run.py)
    default_preset = "caniou-mu10"
    schedule_columns = ("input_end", "compute_end")
    heuristics = HEURISTICS
    dedicated = False  # time-shared servers run all their tasks at once

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
        """Each heuristic's run (its own cost model, :meth:`.heuristics.TimesharedHeuristic.trial_seconds`) and the
        reference's run once more (every trial runs it for the comparisons)."""
        reference = HeuristicSpec.make(s.reference, model=self.name)
        return sum(h.heuristic.trial_seconds(s, h) for h in (*heuristics, reference))

    def plugin(self, rule: Callable, *, name: str, title: str, description: str, params: tuple, section: str,
               paper: str, origin: str, **capabilities: Any) -> TimesharedHeuristic:
        """A heuristic of this model around a user's rule (:mod:`.plugin`: the server an arriving task goes to).

        Parameters
        ----------
        rule : Callable
            ``rule(now, cost, start, before, after, t_new, load, params, rng) -> server``, plain Python or numba.
        name, title, description, params, section, paper, origin
            What :func:`hcsched.heuristic` gives.
        **capabilities
            ``predicts``: "full" (default), "new" or "off", what the rule asks of the HTM; ``cost``: a function
            ``(spec, heuristic_spec) -> seconds`` replacing the default cost model (a built-in's run x 1.2 for a
            numba rule, x 500 for a plain Python one).

        Returns
        -------
        TimesharedHeuristic
            The heuristic, not yet registered.
        """
        unknown = sorted(set(capabilities) - {"predicts", "cost"})
        if unknown:
            raise HcschedError(f"heuristic {name!r}: capability {unknown[0]!r} is not one of the time-shared "
                               "model's; allowed: predicts, cost")
        predicts = capabilities.get("predicts", "full")
        plugin.predict_code(predicts, name)
        cost = capabilities.get("cost")
        if cost is not None and not callable(cost):
            raise HcschedError(f"heuristic {name!r}: cost must be a function (spec, heuristic) -> seconds")
        return TimesharedHeuristic(name, title, "immediate", engine.PLUGIN, section, description, tuple(params),
                                   models=(self.name,), paper=paper, origin=origin, rule=rule, predicts=predicts,
                                   cost=cost, cost_factor=NUMBA_FACTOR if plugin.is_compiled(rule) else PYTHON_FACTOR)

    def explain_problem(self, scenario: Scenario, heuristic: HeuristicSpec) -> str | None:
        """Whether the HTM's replay of the heuristic's decisions on trial 0 (what Explain shows) ends in its run's
        mapping: None, or the first task where they differ."""
        return explain_problem(scenario, heuristic)

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
__all__ = ["HTM", "MODEL", "Prediction", "TimesharedHeuristic", "TimesharedModel", "TimesharedRun",
           "TimesharedWorkload", "sharing", "what_if"]
