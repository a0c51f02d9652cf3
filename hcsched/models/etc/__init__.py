"""The ETC model of Maheswaran, Ali, Siegel, Hensgen and Freund (JPDC 59, 1999): independent tasks arriving over
time at dedicated machines, with an expected time to compute (ETC) per task and machine.

Its spec (:mod:`.spec`), workload generators (:mod:`.workload`, section 4),
event loops (:mod:`.engine`, sections 3.1-3.3) and one heuristic's run on a
workload (:mod:`.simulation`), calibration of the arrival
rate (:mod:`.calibration`, section 5.1), presets (:mod:`.presets`, Figs. 4-11)
and charts (:mod:`.charts`) live here, with its heuristics (:mod:`.heuristics`)
and their rules, the numba kernels of :mod:`.immediate` and :mod:`.batch`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from hcsched.metrics import (
    MAKESPAN_GLOSS,
    MAX_FLOW_GLOSS,
    MAX_STRETCH_GLOSS,
    MEAN_FLOW_GLOSS,
    STRETCH_NOTE,
    STRETCH_SAID,
    SUM_FLOW_GLOSS,
    Metric,
    schedule_metrics,
)
from hcsched.models.base import Model
from hcsched.models.etc import bounds, cost, engine, rules, spec
from hcsched.models.etc.claims import CLAIMS
from hcsched.models.etc.heuristics import HEURISTICS, plugin_heuristic
from hcsched.models.etc.presets import PRESETS, sweeps
from hcsched.models.etc.simulation import EtcRun, run_heuristic  # noqa: F401  (its public function)
from hcsched.models.etc.workload import Workload, make_workload, range_based_etc  # noqa: F401  (as before)
from hcsched.sampling import trial_seeds
from hcsched.scenario import Scenario

# bytes of one trial: the ETC and actual matrices with the temporaries of their draws (about 3.4 matrices measured
# at 4000 x 1000) and a batch heuristic's rows of the meta-task's ETC, per task and machine; per task and machine,
# the arrays of the event loops and the bounds; per entry of a user's matrix, its Python floats in a worker
_MATRIX_BYTES, _TASK_BYTES, _MACHINE_BYTES, _USER_ENTRY_BYTES = 6 * 8, 40 * 8, 40 * 8, 32
_load = cost.load  # the load rho of the run estimate (:func:`.cost.load`), by its former name


class EtcModel(Model):
    name = "etc"
    heuristics = (*HEURISTICS, *rules.discovered())  # the papers' rules, then those of .rules
    title = "Tasks with ETC times (Maheswaran et al.)"
    paper = "Maheswaran, Ali, Siegel, Hensgen and Freund, JPDC 59 (1999)"
    paper_title = "Dynamic Mapping of a Class of Independent Tasks onto Heterogeneous Computing Systems"
    summary = ("Independent tasks arrive over time and are mapped, one at a time (immediate mode) or in batches (batch "
               "mode), onto machines whose expected times to compute (ETC) differ by task and machine.")
    spec_type = spec.EtcModelSpec
    spec_keys = spec.SPEC_KEYS
    metrics = (
        Metric("makespan", "Makespan", "s", bar=True, normalize=True, gloss=MAKESPAN_GLOSS,
               doc="When the last task finishes (section 3.1); normalised to the benchmark heuristic of the same "
                   "trial."),
        Metric("sum_flow", "Sum of flow times", "s", gloss=SUM_FLOW_GLOSS,
               doc="Sum over tasks of finish minus arrival."),
        Metric("mean_flow", "Mean flow time", "s", bar=True, gloss=MEAN_FLOW_GLOSS,
               doc="Mean over tasks of finish minus arrival."),
        Metric("max_flow", "Max flow time", "s", gloss=MAX_FLOW_GLOSS, doc="The longest finish minus arrival."),
        Metric("mean_stretch", "Mean stretch", "", ci="bootstrap", doc="Mean over tasks of flow time over actual "
               "execution time (1: no waiting). " + STRETCH_NOTE),
        Metric("max_stretch", "Max stretch", "", bar=True, ci="bootstrap", gloss=MAX_STRETCH_GLOSS, said=STRETCH_SAID,
               doc="The largest flow time over actual execution time. " + STRETCH_NOTE),
        Metric("utilization", "Utilisation", "", "", bar=True, fmt=".1%", ci="auto-fraction",
               doc="Busy machine time over machines x makespan: how much of the suite's capacity the run used. Neither "
                   "way is better: a heuristic that puts tasks on slow machines (MCT, OLB) keeps them busier for the "
                   "same "
                   "work, so its utilisation rises while its makespan and flow times get worse."),
        Metric("mapping_events", "Mapping events", "", "",
               doc="How often a batch heuristic mapped its meta-task (section 3.3); 0 in immediate mode."),
        Metric("min_etc_share", "Share on min-ETC machine", "", "", fmt=".1%",
               doc="The share of tasks that ran on the machine with their smallest ETC (1 for MET, section 3.2)."),
        Metric("makespan_bound", "Makespan / lower bound", "", bar=True, of="makespan",
               doc="The makespan over the trial's lower bound: a makespan that no mapping of its tasks can beat, even "
                   "knowing their actual times in advance (1 is the best possible; 1.05 is at most 5% from the "
                   "optimum)."),
        Metric("lower_bound", "Makespan lower bound", "s", "",
               doc="The trial's lower bound on the makespan: the linear-programming relaxation of the mapping, through "
                   "its Lagrangian dual, from the actual times, with the arrival times (the etc model's page of the "
                   "documentation). The same "
                   "for every heuristic of the trial."),
        Metric("mean_flow_bound", "Mean flow time / lower bound", "",
               doc="The mean flow time over its lower bound, the mean of each task's fastest actual time (every task "
                   "started on arrival on its fastest machine; 1 is the best possible)."),
    )
    benchmarks = ("min-min", "mct")  # section 5.1: Min-min for batch mode, MCT for immediate mode
    bound_columns = {"makespan": "lower_bound"}  # the benchmark "lower bound" divides the makespan by this column
    compile_seconds = 9.0  # CPU seconds into an empty cache on the 2-core machine (bench/first_run.py)
    default_preset = "quickstart"
    commands_module = "hcsched.models.etc.commands"  # hcsched map and calibrate; map_tasks, calibrate

    def spec_from_dict(self, data: dict[str, Any], base_dir: Path | None = None) -> spec.EtcModelSpec:
        return spec.spec_from_dict(data, base_dir)

    def spec_to_dict(self, s: spec.EtcModelSpec) -> dict[str, Any]:
        return spec.spec_to_dict(s)

    def scale(self, s: spec.EtcModelSpec) -> tuple[int, int]:
        """The meta-task's fixed |K| tasks on its machines (section 3.1; a user's ETC matrix sets both by its shape):
        Poisson arrivals draw when the tasks come, not how many."""
        return s.tasks, s.machines

    def workload(self, s: spec.EtcModelSpec, seed_seq: np.random.SeedSequence) -> Workload:
        w = make_workload(s, seed_seq)
        if not s.lower_bound:
            return w
        makespan, flow = bounds.trial_bounds(w.arrival, w.actual)
        return dataclasses.replace(w, makespan_bound=makespan, flow_bound=flow)

    def run(self, s: spec.EtcModelSpec, heuristic, workload: Workload) -> EtcRun:
        return heuristic.heuristic.run(s, heuristic, workload)

    def measure(self, s: spec.EtcModelSpec, heuristic, run: EtcRun) -> dict[str, Any]:
        out = schedule_metrics(run)
        out["makespan_bound"] = out["makespan"] / run.makespan_bound if run.makespan_bound > 0 else float("nan")
        out["lower_bound"] = run.makespan_bound
        out["mean_flow_bound"] = out["mean_flow"] / run.flow_bound if run.flow_bound > 0 else float("nan")
        return out

    def trial_bytes(self, s: spec.EtcModelSpec) -> int:
        """The ETC and actual matrices with their draws' temporaries and a batch heuristic's copy of the meta-task's
        rows, tasks x machines; the event loops' and the bounds' arrays per task and per machine; a user's matrix
        unpickled in a worker."""
        n, m = s.tasks, s.machines
        user = _USER_ENTRY_BYTES * n * m * (s.etc.method == "matrix")
        return _MATRIX_BYTES * n * m + _TASK_BYTES * n + _MACHINE_BYTES * m + user

    def trial_seconds(self, s: spec.EtcModelSpec, heuristics) -> float:
        """Drawing the workload, n m DRAW (+ n m MATRIX for a user's matrix, + n SMALLEST for semiconsistent
        "smallest"), then each heuristic's own cost model (its object's ``trial_seconds``: its schedule and metrics,
        n RUN, and its rule's part, :mod:`.cost`)."""
        n, m = s.tasks, s.machines
        smallest = s.etc.consistency == "semiconsistent" and s.etc.semiconsistent_mode == "smallest"
        seconds = n * m * (cost.DRAW + cost.MATRIX * (s.etc.method == "matrix")) + n * cost.SMALLEST * smallest
        return seconds + sum(h.heuristic.trial_seconds(s, h) for h in heuristics)

    def plugin(self, rule: Callable, *, name: str, title: str, description: str, params: tuple, section: str,
               paper: str, origin: str, **capabilities: Any):
        """A heuristic of the ETC model around a user's rule (the interface of :mod:`.plugin`): an immediate rule,
        or a batch rule with ``mode="batch"``; ``cost=`` gives its own cost model.

        Parameters
        ----------
        rule : Callable
            The decision function, numba ``@njit`` or plain Python (:mod:`hcsched.models.etc.plugin`).
        name, title, description, section, paper, origin : str
            What it is.
        params : tuple of Param
            Its own parameters.
        **capabilities
            ``mode`` ("immediate" or "batch") and ``cost`` (a function (spec, heuristic) -> seconds of one trial).

        Returns
        -------
        hcsched.models.etc.heuristics.EtcHeuristic
        """
        return plugin_heuristic(rule, name=name, title=title, description=description, params=params,
                                section=section, paper=paper, origin=origin, **capabilities)

    def explain_problem(self, scenario: Scenario, heuristic) -> str | None:
        """Explain (:func:`hcsched.map_tasks` with ``trace=True``, the Explain page) on the ETC matrix of the
        scenario's first trial: None when the trace's decisions end in the assignment and ready times that
        ``map_tasks`` returns (and, in immediate mode, that a run of the same tasks all arriving at 0 makes), else
        why not in one line."""
        w = self.workload(scenario.spec, trial_seeds(scenario.seed, 1)[0])
        etc = w.etc
        h = heuristic.heuristic
        ready = np.zeros(etc.shape[1])
        machine, _, final = h.map_static(heuristic, etc, ready)
        steps = h.explain(heuristic, etc, ready)
        traced = np.full(etc.shape[0], -1)
        for step in steps:
            for i, j in step.assignments:
                traced[i] = j
        if not np.array_equal(traced, machine):
            wrong = int(np.flatnonzero(traced != machine)[0])
            return (f"Explain's trace ends with task {wrong} on machine {traced[wrong]}, but the heuristic maps it "
                    f"to machine {machine[wrong]}: the trace must show this heuristic's own decisions")
        if steps and not np.allclose(steps[-1].ready_after, final, rtol=1e-12, atol=0.0):
            return "Explain's trace ends in other ready times than the heuristic's mapping"
        if h.mode == "immediate":
            static = dataclasses.replace(w, arrival=np.zeros_like(w.arrival), actual=etc, seed=0)
            run = h.run(scenario.spec, heuristic, static)
            if not np.array_equal(run.machine, machine):
                return "its run of the same tasks, all arriving at 0, assigns them otherwise than Explain shows"
        return None

    def presets(self):
        return PRESETS

    def sweeps(self):
        return sweeps()

    def claims(self):
        return CLAIMS

    def tiny(self):
        return Scenario(name="etc-tiny", description="A tiny ETC scenario: 4 machines, 40 tasks.", model=self.name,
                        machines=4, tasks=40, arrivals=spec.ArrivalSpec("poisson", 0.05),
                        heuristics=("mct", "kpb", "min-min"), trials=3, seed=7)

    def warm_up(self) -> None:
        engine.warm_up()
        bounds.warm_up()


MODEL = EtcModel()
