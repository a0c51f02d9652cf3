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

from pathlib import Path
from typing import Any

import numpy as np

from hcsched.metrics import STRETCH_NOTE, Metric, schedule_metrics
from hcsched.models.base import Model
from hcsched.models.etc import engine, spec
from hcsched.models.etc.claims import CLAIMS
from hcsched.models.etc.heuristics import HEURISTICS
from hcsched.models.etc.presets import PRESETS, sweeps
from hcsched.models.etc.simulation import EtcRun, run_heuristic
from hcsched.models.etc.workload import Workload, make_workload
from hcsched.scenario import Scenario

# Rough costs per task and machine on one core, from bench/run.py on the 2-core CI machine (fig4 and fig6 presets):
# immediate mode is linear in the tasks; batch mode remaps a backlog that grows with them.
_IMMEDIATE_COST, _BATCH_COST = 1.5e-7, 4.3e-6


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
    )
    benchmarks = ("min-min", "mct")  # section 5.1: Min-min for batch mode, MCT for immediate mode
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
        return make_workload(s, seed_seq)

    def run(self, s: spec.EtcModelSpec, heuristic, workload: Workload) -> EtcRun:
        return run_heuristic(heuristic, workload)

    def measure(self, s: spec.EtcModelSpec, heuristic, run: EtcRun) -> dict[str, Any]:
        return schedule_metrics(run)

    def trial_seconds(self, s: spec.EtcModelSpec, heuristics) -> float:
        n, m = s.tasks, s.machines
        return sum(n * m * (_IMMEDIATE_COST if h.heuristic.mode == "immediate" else _BATCH_COST * max(1.0, n / 2000))
                   for h in heuristics)

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


MODEL = EtcModel()
