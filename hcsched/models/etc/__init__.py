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
import math
from pathlib import Path
from typing import Any

import numpy as np

from hcsched.metrics import STRETCH_NOTE, Metric, schedule_metrics
from hcsched.models.base import Model
from hcsched.models.etc import bounds, engine, spec
from hcsched.models.etc.claims import CLAIMS
from hcsched.models.etc.heuristics import HEURISTICS
from hcsched.models.etc.presets import PRESETS, sweeps
from hcsched.models.etc.simulation import EtcRun, run_heuristic
from hcsched.models.etc.workload import Workload, make_workload, range_based_etc
from hcsched.sampling import cov_based_etc
from hcsched.scenario import Scenario
from hcsched.stats import gamma_row_minima, uniform_row_minima

# CPU seconds on one core of the 2-core machine, kernels compiled (fitted to one trial of 2000 tasks on 8, 20
# and 80 machines, 500 and 8000 tasks on 20, at loads 0.4-3.7 and all tasks at once; bench/estimates.py checks runs).
_DRAW = 3.3e-8  # per task and machine: the trial's ETC matrix and actual times
_SMALLEST = 4e-6  # per task: semiconsistent "smallest" rearranges half the rows one by one
_MATRIX = 4e-8  # per task and machine of a user's matrix: read from the scenario's rows (and unpickled by workers)
_RUN = 8e-8  # per task and heuristic: its schedule and metrics
_SCAN, _RANK = 4e-9, 5e-9  # immediate mode, per task and machine: MCT's scan of the ready times; x log2 m for KPB's ranking
_EVENT, _EVENT_MACHINE = 4.5e-7, 3.5e-9  # batch mode, per mapping event (about 1.8 per task) and per machine
# batch mode, per task, unmapped task and machine^0.75 rescanned, and the backlog's shape: the share of the tasks
# waiting unmapped is 1 / (1 + (rho0 / rho)^p) at load rho (Max-min maps so badly that it is overloaded from 0.6 on)
_REMAP = {"min-min": (2.1e-9, 2.0, 3), "max-min": (7e-9, 0.6, 10), "sufferage": (2.3e-9, 1.3, 6)}
_SEARCH = 1.8e-5  # lp-search, per mapping event and iteration of its search (the LP and the starts included)
_SAMPLE_ROWS, _SAMPLE_MACHINES = 64, 256  # the load is estimated from 64 rows drawn whole up to 256 machines
# bytes of one trial: the ETC and actual matrices with the temporaries of their draws (about 3.4 matrices measured
# at 4000 x 1000) and a batch heuristic's rows of the meta-task's ETC, per task and machine; per task and machine,
# the arrays of the event loops and the bounds; per entry of a user's matrix, its Python floats in a worker
_MATRIX_BYTES, _TASK_BYTES, _MACHINE_BYTES, _USER_ENTRY_BYTES = 6 * 8, 40 * 8, 40 * 8, 32


def _load(s: spec.EtcModelSpec) -> float:
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


class EtcModel(Model):
    name = "etc"
    heuristics = HEURISTICS
    title = "Tasks with ETC times (Maheswaran et al.)"
    paper = "Maheswaran, Ali, Siegel, Hensgen and Freund, JPDC 59 (1999)"
    paper_title = "Dynamic Mapping of a Class of Independent Tasks onto Heterogeneous Computing Systems"
    summary = "Independent tasks arrive over time and are mapped, one at a time (immediate mode) or in batches (batch mode), onto machines whose expected times to compute (ETC) differ by task and machine."
    spec_type = spec.EtcModelSpec
    spec_keys = spec.SPEC_KEYS
    metrics = (
        Metric("makespan", "Makespan", "s", bar=True, normalize=True,
               doc="When the last task finishes (section 3.1); normalised to the benchmark heuristic of the same trial."),
        Metric("sum_flow", "Sum of flow times", "s", doc="Sum over tasks of finish minus arrival."),
        Metric("mean_flow", "Mean flow time", "s", bar=True, doc="Mean over tasks of finish minus arrival."),
        Metric("max_flow", "Max flow time", "s", doc="The longest finish minus arrival."),
        Metric("mean_stretch", "Mean stretch", "", ci="bootstrap", doc="Mean over tasks of flow time over actual "
               "execution time (1: no waiting). " + STRETCH_NOTE),
        Metric("max_stretch", "Max stretch", "", bar=True, ci="bootstrap",
               doc="The largest flow time over actual execution time. " + STRETCH_NOTE),
        Metric("utilization", "Utilisation", "", "", bar=True, fmt=".1%", ci="auto-fraction",
               doc="Busy machine time over machines x makespan: how much of the suite's capacity the run used. Neither "
                   "way is better: a heuristic that puts tasks on slow machines (MCT, OLB) keeps them busier for the same "
                   "work, so its utilisation rises while its makespan and flow times get worse."),
        Metric("mapping_events", "Mapping events", "", "",
               doc="How often a batch heuristic mapped its meta-task (section 3.3); 0 in immediate mode."),
        Metric("min_etc_share", "Share on min-ETC machine", "", "", fmt=".1%",
               doc="The share of tasks that ran on the machine with their smallest ETC (1 for MET, section 3.2)."),
        Metric("makespan_bound", "Makespan / lower bound", "", bar=True, of="makespan",
               doc="The makespan over the trial's lower bound: a makespan that no mapping of its tasks can beat, even "
                   "knowing their actual times in advance (1 is the best possible; 1.05 is at most 5% from the optimum)."),
        Metric("lower_bound", "Makespan lower bound", "s", "",
               doc="The trial's lower bound on the makespan: the linear-programming relaxation of the mapping, through "
                   "its Lagrangian dual, from the actual times, with the arrival times (docs/models/etc.md). The same "
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
        return run_heuristic(heuristic, workload)

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
        """Drawing the workload, n m _DRAW (+ n m _MATRIX for a user's matrix, + n _SMALLEST for semiconsistent
        "smallest"), then per heuristic n _RUN and: in immediate mode a scan of the m machines per task, n m _SCAN
        (KPB ranks them, n m log2(m) _RANK); in batch mode about 1.8 n mapping events that cost _EVENT + m
        _EVENT_MACHINE each, and at each the S unmapped tasks rescanned against the machines, c n S m^0.75, where the
        backlog S = n (1 - m / n) / (1 + (rho0 / rho)^p) grows with the load rho (:func:`_load`) and c, rho0, p are
        the heuristic's (_REMAP): Min-min is O(n S m), not O(n^2 m). lp-search: its search at each of the 1.8 n
        events, about _SEARCH per iteration at the presets' backlogs."""
        n, m, rho = s.tasks, s.machines, _load(s)
        smallest = s.etc.consistency == "semiconsistent" and s.etc.semiconsistent_mode == "smallest"
        seconds = n * m * (_DRAW + _MATRIX * (s.etc.method == "matrix")) + n * _SMALLEST * smallest
        seconds += n * _RUN * len(heuristics)
        for h in heuristics:
            if h.heuristic.mode == "immediate":
                seconds += n * m * (_RANK * math.log2(m + 1) if h.name == "kpb" else _SCAN)
            elif h.name == "lp-search":
                seconds += 1.8 * n * _SEARCH * max(1, h.kwargs["iterations"])
            else:
                c, rho0, p = _REMAP[h.name]
                backlog = n * max(0.0, 1 - m / n) / (1 + (rho0 / max(rho, 1e-9)) ** p)
                seconds += 1.8 * n * (_EVENT + _EVENT_MACHINE * m) + c * n * backlog * m**0.75
        return seconds

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
