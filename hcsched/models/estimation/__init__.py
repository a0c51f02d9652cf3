"""The estimation model of Page, Keane and Naughton, "Scheduling in a dynamic heterogeneous distributed system using
estimation error" (JPDC 2008): execution times learnt online (k-NN, smoothed average), the error of those
estimates, and heuristics that weigh it.

Spec (:mod:`.spec`), workload with hidden true times (:mod:`.workload`),
estimators (:mod:`.estimators`), error quantities (:mod:`.error`), heuristics
(:mod:`.heuristics`), the event loop (:mod:`.engine`), traces (:mod:`.traces`),
presets (:mod:`.presets`) and charts (:mod:`.charts`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from hcsched.metrics import MAKESPAN_GLOSS, Metric
from hcsched.models.base import Model
from hcsched.models.estimation import estimators, heuristics, kernels, spec
from hcsched.models.estimation.claims import CLAIMS
from hcsched.models.estimation.engine import EstimationRun, run_estimation, run_metrics
from hcsched.models.estimation.presets import PRESETS
from hcsched.models.estimation.workload import make_workload
from hcsched.scenario import Scenario

# bytes of one trial: per task and processor, the latencies and the kernels' work rows (estimates, transfers,
# errors and their orders); per task, the workload, the engine's state and the estimators' observations
_MATRIX_BYTES, _TASK_BYTES, _MACHINE_BYTES = 10 * 8, 80 * 8, 40 * 8
CURVE_SAMPLES = 60  # points of each run's curves over time kept in its results row (charts.mean_curves)
# results column family -> the curve of EstimationRun.curves it samples
CURVE_FAMILIES = {"idle_at": "idle", "efficiency_at": "efficiency", "error_at": "actual_error",
                  "predicted_error_at": "predicted_error"}


def curve_columns(run: EstimationRun, points: int = CURVE_SAMPLES) -> dict[str, float]:
    """One run's curves over time at (k + 1) / points of its makespan, as results columns ``<family><k>``: the curves
    of every trial cost one small measurement per run and no second simulation."""
    curves = run.curves(points)
    return {f"{family}{k}": float(v) for family, curve in CURVE_FAMILIES.items() for k, v in enumerate(curves[curve])}


def _trimmed_words(L: float) -> str:
    """L-smoothing of the most alike runs in words alone (section 2.1, eq. 2: "eliminate a fixed percentage L of the
    largest and smallest values" of their times): ", the longest and shortest 10% of those left out"; "" when none is
    left out. No symbol: the method's name (k-NN) is the Results page's table of names, folded."""
    if L <= 0:
        return ""
    return f", the longest and shortest {100 * L:g}% of those left out"


def _newest_words(nu: float, what: str) -> str:
    """The smoothing function's weight in words (section 2.3: nu sets the influence of the newest value, from none at
    0 to complete dominance at 1), the symbol after: "each new run counting 50% (ν = 0.5)"."""
    return f"each new {what} counting {100 * nu:g}% (ν = {nu:g})"


#: Efficiency in plain words (eq. 7), said beside it where a line first says it and under its chart.
EFFICIENCY_GLOSS = "the share of the processors' time spent on tasks, computing or moving data"


class EstimationModel(Model):
    name = "estimation"
    title = "Estimated execution times and error (Page, Keane and Naughton)"
    paper = "Page, Keane and Naughton, JPDC 2008"
    paper_title = "Scheduling in a dynamic heterogeneous distributed system using estimation error"
    summary = ("Execution times are unknown to the scheduler and learnt online from past runs; heuristics weigh "
               "each estimate by its predicted error when mapping staged problems onto shared processors.")
    spec_type = spec.EstimationSpec
    spec_keys = frozenset(spec.EST_KEYS)
    metrics = (
        Metric("makespan", "Makespan", "s", bar=True, gloss=MAKESPAN_GLOSS,
               doc="The last return, in seconds from the first release."),
        Metric("efficiency", "Efficiency", "%", "higher", bar=True, gloss=EFFICIENCY_GLOSS,
               doc="Eq. 7: 100 x the processors' busy seconds (communication and computation) / (makespan x M)."),
        Metric("estimation_error", "Estimation error", "", bar=True, fmt=".1%",
               gloss="how far a task's run time estimate was from its actual time, as a share of the actual",
               trade="has the closest run time estimates, off by {} of the actual time on average (the others' are "
                     "further off)",
               doc="Mean over tasks of |ETC - t| / t (eq. 8) for the estimate each task was dispatched with."),
        Metric("predicted_error", "Predicted error", "", "", fmt=".1%",
               doc="Mean over tasks of the estimation error the scheduler predicted at dispatch (estimator.error)."),
        Metric("round_robin_tasks", "Tasks mapped without an estimate", "", "",
               doc="Tasks started while nothing was known about their problem (dealt round robin, section 2.2)."),
        Metric("mapping_events", "Mapping events", "", "", table=False),
        # the curves over time: each run at CURVE_SAMPLES points of its own run (charts.curve_columns)
        Metric("idle_at", "Idle processors", "processors", table=False, per="point",
               doc="Processors with no task at point k + 1 of the run (time (k + 1) / 60 x makespan; Figs. 8-13): "
                   "while tasks remain, an idle processor is capacity lost."),
        Metric("efficiency_at", "Efficiency so far", "%", "higher", table=False, per="point",
               doc="Eq. 7 up to point k + 1 of the run: busy seconds so far over (time x M)."),
        Metric("error_at", "Estimation error", "", table=False, per="point", fmt=".1%",
               doc="Mean |ETC - t| / t (eq. 8) of the tasks returned around point k + 1 of the run (Figs. 4, 7)."),
        Metric("predicted_error_at", "Predicted error", "", "", table=False, per="point", fmt=".1%",
               doc="Mean predicted error of the tasks returned around point k + 1 of the run (Figs. 4, 7)."),
    )
    benchmarks = ("fa",)
    compile_seconds = 10.0  # CPU seconds into an empty cache on the 2-core machine (bench/first_run.py)
    default_preset = "page-system-a"
    schedule_columns = ("problem", "stage", "released", "estimate", "comm_estimate", "predicted_error",
                        "estimation_error", "observations")
    heuristics = heuristics.HEURISTICS

    def spec_from_dict(self, data: dict[str, Any], base_dir: Path | None = None) -> spec.EstimationSpec:
        return spec.spec_from_dict(data, base_dir)

    def spec_to_dict(self, s: spec.EstimationSpec) -> dict[str, Any]:
        return spec.spec_to_dict(s)

    def family_size(self, s: spec.EstimationSpec, per: str) -> int:
        return CURVE_SAMPLES if per == "point" else super().family_size(s, per)

    def describe(self, s: spec.EstimationSpec) -> str:
        n = len(s.problems) if s.trace is None else len({t.problem for t in s.trace})
        return f"{s.machines} processors, {s.tasks} tasks in {n} problem{'s' if n != 1 else ''}"

    def scale(self, s: spec.EstimationSpec) -> tuple[int, int]:
        """The tasks of every stage of every problem (section 2: a problem releases its tasks at once or stage by
        stage), or a trace's rows, a fixed count; and the processors."""
        return s.tasks, s.machines

    def headline(self, s: spec.EstimationSpec) -> str:
        """How run times are estimated and which error the schedulers weigh, in words first, the paper's symbols after
        (sections 2 and 3.1): "run times estimated from the most alike of each processor's last 100 runs of a
        problem, the longest and shortest 10% of those left out. The schedulers weigh the past errors of alike
        runs": two sentences, each at most 35 words where it is said after the tasks."""
        e = s.estimator
        runs = f"each processor's last {e.n} runs of a problem"
        how = {"knn": f"the most alike of {runs}{_trimmed_words(e.L)}", "average": f"the average of {runs}",
               "smoothed": f"{runs} by a running average, {_newest_words(e.nu, 'run')}"}[e.method]
        error = {"knn": "the past errors of alike runs", "smoothed": f"a running average of past errors, "
                 f"{_newest_words(e.nu, 'error')}", "mean": "the mean past error"}[e.error]
        return f"run times estimated from {how}. The schedulers weigh {error}"

    def workload(self, s: spec.EstimationSpec, seed_seq: np.random.SeedSequence):
        return make_workload(s, seed_seq)

    def run(self, s: spec.EstimationSpec, heuristic, workload) -> EstimationRun:
        return run_estimation(s, heuristic, workload)

    def measure(self, s: spec.EstimationSpec, heuristic, run: EstimationRun) -> dict[str, Any]:
        return {**run_metrics(run), **curve_columns(run)}

    def schedule_extras(self, run: EstimationRun) -> dict[str, np.ndarray]:
        return {"problem": run.problem, "stage": run.stage, "released": run.released, "estimate": run.estimate,
                "comm_estimate": run.comm_estimate, "predicted_error": run.predicted_error,
                "estimation_error": run.actual_error, "observations": run.observations}

    def trial_bytes(self, s: spec.EstimationSpec) -> int:
        """The tasks x processors arrays (latencies, the kernels' rows) and the per-task and per-processor ones."""
        n, m = s.tasks, s.machines
        return _MATRIX_BYTES * n * m + _TASK_BYTES * n + _MACHINE_BYTES * m + 8 * s.estimator.n * m

    def plugin(self, rule, *, name: str, title: str, description: str, params: tuple, section: str, paper: str,
               origin: str, **capabilities: Any) -> heuristics.PluginHeuristic:
        """A heuristic around a user's rule (:class:`.plugin.Rule`: the mapping of a mapping event's tasks given
        their estimates and errors, sections 3.2-3.4); ``cost=`` its own cost model (default: scaled from EF's).

        Parameters
        ----------
        rule : callable
            ``rule(now, tasks, processors, params, rng) -> decisions``, plain Python or numba.
        name, title, description, section, paper, origin : str
            What it is and where it comes from.
        params : tuple of Param
            Its parameters.
        **capabilities
            ``cost``: ``(spec, heuristic_spec) -> seconds`` of one trial.

        Returns
        -------
        PluginHeuristic
            The heuristic object.
        """
        return heuristics.make_plugin(rule, name=name, title=title, description=description, params=params,
                                      section=section, paper=paper, origin=origin, **capabilities)

    def presets(self):
        return PRESETS

    def claims(self) -> tuple:
        return CLAIMS

    def tiny(self):
        return Scenario.from_dict({
            "name": "estimation-tiny", "description": "A tiny estimation scenario: 4 processors, a staged and a "
            "single-stage problem.", "model": self.name,
            "processors": {"count": 4, "ratio": 0.5},
            "problems": [{"name": "staged", "stages": [8, 6], "work": [20000, 40000], "params": [50],
                          "exponents": [1.0]},
                         {"name": "single", "stages": [10], "work": [30000], "params": [20, 5],
                          "exponents": [1.5, -0.5], "release": 5.0}],
            "heuristics": ["fa", {"name": "fz", "beta": 0.1}, "la", "rr", "ef", {"name": "tabu", "iterations": 20}],
            "trials": 3, "seed": 11})

    def warm_up(self) -> None:
        heuristics.warm_up()
        kernels.warm_up()
        estimators.knn_estimate([[0.0]], [[1.0], [2.0]], [1.0, 2.0], 0.1)
        estimators.warm_up()


MODEL = EstimationModel()
