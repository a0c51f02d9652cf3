"""Priorities, soft deadlines and value: the oversubscribed system of Kim, Shivle, Siegel et al., "Dynamic mapping
in a heterogeneous environment with tasks having priorities and multiple deadlines" (JPDC 2007).

Tasks of three priorities with three soft deadlines arrive in bursts at eight machines; a mapping event at every
arrival remaps the waiting tasks; success is the value V of the work done in time over an evaluation window, against
an upper bound UB. Its spec (:mod:`.spec`), workload (:mod:`.workload`), value and bound (:mod:`.worth`), engine
(:mod:`.engine`, numba), mapping event and its one dispatcher (:mod:`.event`) over the kind codes (:mod:`.kinds`),
the rebuilding heuristics' kernels by family (:mod:`.max_max`, :mod:`.min_min`, :mod:`.rounds`, :mod:`.sufferage`,
:mod:`.shared`) and the editing ones (:mod:`.editing`), the registry entries (:mod:`.heuristics`), static benchmarks
(:mod:`.static`, :mod:`.static_runs`), runs and metrics (:mod:`.simulation`), presets (:mod:`.presets`) and charts
(:mod:`.charts`) live here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from hcsched.metrics import Metric
from hcsched.models.base import Model
from hcsched.models.value import engine, spec, static
from hcsched.models.value.claims import CLAIMS
from hcsched.models.value.heuristics import DYNAMIC, DYNAMIC_NAMES, HEURISTICS
from hcsched.models.value.presets import PRESETS
from hcsched.models.value.simulation import ValueRun, measure_run, run_dynamic
from hcsched.models.value.spec import PRIORITIES
from hcsched.models.value.static_runs import SEARCH, run_static
from hcsched.models.value.workload import ValueWorkload, make_workload
from hcsched.sampling import cov_based_etc
from hcsched.scenario import Scenario
from hcsched.stats import gamma_row_minima

# CPU seconds on one core of the 2-core machine, kernels compiled (fitted to one trial of the paper's
# workload at 793, 1329 and 2400 tasks on 4, 8 and 16 machines, both heterogeneities; bench/estimates.py checks runs).
_DYNAMIC_TASK = 2.75e-6  # a dynamic heuristic, per task: its mapping events at a short queue, schedule and metrics
_REBUILD = 8.8e-10  # per task x (waiting tasks)^2 / machines: a rebuilding heuristic's queues under a backlog
_REBUILD_WEIGHT = {"max-max": 0.36, "max-min": 2.45, "min-min": 0.36, "percent-best": 1.33, "queueing-table": 0.02,
                   "relative-cost": 1.96, "slack-sufferage": 1.5, "switching": 0.02}  # 8 in all
_EVALUATION = {"tpsa": 8e-10, "ga": 8.5e-9}  # a static search, per schedule it may evaluate and task


_SAMPLE_ROWS, _SAMPLE_MACHINES = 256, 256  # the load is estimated from 256 rows, drawn whole up to 256 machines
# bytes of one trial, per task and machine: the ETC and ATC matrices, the machines' queues (machines x tasks), the
# rebuilding heuristics' members and rows (about 3.6 matrices measured at 443 x 2000); per task and per machine, the
# rest; the tasks of a trial, at most this many times their expected number plus a margin (Poisson counts)
_MATRIX_BYTES, _TASK_BYTES, _MACHINE_BYTES = 8 * 8, 60 * 8, 40 * 8
_TASKS_MARGIN = 1.5


def _load(s: spec.ValueSpec) -> float:
    """rho = mean arrival rate x the mean over tasks of their smallest ETC / machines (256 rows of the CVB ETC drawn
    with a fixed seed; beyond 256 machines each row's smallest from its order statistic, so that the estimate never
    allocates with the machines): above about 1 the waiting tasks pile up."""
    rng = np.random.default_rng(0)
    if s.machines > _SAMPLE_MACHINES:
        smallest = gamma_row_minima(rng, _SAMPLE_ROWS, s.machines, s.task_mean, *s.covs)
    else:
        smallest = cov_based_etc(rng, _SAMPLE_ROWS, s.machines, s.task_mean, *s.covs).min(axis=1)
    return s.expected_tasks / s.duration * float(smallest.mean()) / s.machines


_OUTCOME_DOC = {"met_d100": "finished by its 100% deadline", "met_d50": "finished after D100, by D50",
                "met_d25": "finished after D50, by D25", "late": "finished after D25",
                "never_started": "never started during the evaluation period (still waiting at its end)"}


def _metrics() -> tuple[Metric, ...]:
    out = [
        Metric("value_pct_ub", "Value, % of the upper bound", "%", "higher", bar=True, fmt=".2f", ci="auto-percent",
               doc="V / UB x 100 on the same trial: UB (section 2.3) is 100%."),
        Metric("value", "Value V", "", "higher", doc="Sum of p d b over the tasks (section 2.2.3): priority weight x "
               "deadline factor x the share of its execution inside the evaluation window."),
        Metric("upper_bound", "Upper bound UB", "", "", doc="The bound of section 2.3 (from B to E, a true "
               "bound; the same for every heuristic of a trial)."),
    ]
    out += [Metric(f"value_{p}", f"Value of {p}-priority tasks", "", "higher", doc=f"V earned by {p}-priority tasks.")
            for p in PRIORITIES]
    out += [Metric(name, f"Tasks: {name.replace('_', ' ').replace('met d', 'met D')}", "tasks",
                   "higher" if name == "met_d100" else ("lower" if name in ("late", "never_started") else ""),
                   doc=f"Tasks that {_OUTCOME_DOC[name]}.") for name in _OUTCOME_DOC]
    out += [Metric(f"{name}_{p}", f"{p.capitalize()}-priority tasks: {name.replace('_', ' ').replace('met d', 'met D')}",
                   "tasks", "", table=False, doc=f"{p.capitalize()}-priority tasks that {_OUTCOME_DOC[name]} (the "
                   "stacked bar of tasks by priority and deadline outcome).")
            for p in PRIORITIES for name in _OUTCOME_DOC]
    out += [
        Metric("tasks", "Tasks", "tasks", "", doc="Tasks that arrived in the trial."),
        Metric("max_waiting", "Largest number of waiting tasks", "tasks", "",
               doc="The most tasks waiting (arrived, not started; the new one included) at a mapping event."),
        Metric("mean_waiting", "Mean number of waiting tasks", "tasks", "",
               doc="Waiting tasks at a mapping event, averaged over the events (the work of an event grows with it)."),
        Metric("mean_event_ms", "Mean mapping event time", "ms", "lower",
               doc="Wall-clock time of a mapping event, measured (scenario key event_timing) and never fed into the "
                   "simulated clock; NaN when not measured and for the static benchmarks."),
    ]
    return tuple(out)


class ValueModel(Model):
    name = "value"
    title = "Priorities, soft deadlines and value (Kim et al.)"
    paper = "Kim, Shivle, Siegel et al., JPDC 67 (2007)"
    paper_title = "Dynamically mapping tasks with priorities and multiple deadlines in a heterogeneous environment"
    summary = "An oversubscribed system whose tasks carry priorities and three soft deadlines; heuristics remap the waiting tasks at each arrival to earn the most value within an evaluation window."
    spec_type = spec.ValueSpec
    spec_keys = frozenset(spec.KEYS)
    metrics = _metrics()
    benchmarks = ()
    trial_word = "trial"
    time_unit = "s"
    compile_seconds = 44.0  # CPU seconds into an empty cache on the 2-core machine (bench/first_run.py: a first Run
    # of 48.0 s, 3.0 s of it the run)
    default_preset = "kim-loose-high-heavy"
    schedule_columns = ("priority", "weight", "d100", "d50", "d25")
    heuristics = HEURISTICS

    def spec_from_dict(self, data: dict[str, Any], base_dir: Path | None = None) -> spec.ValueSpec:
        return spec.spec_from_dict(data)

    def spec_to_dict(self, s: spec.ValueSpec) -> dict[str, Any]:
        return spec.spec_to_dict(s)

    def describe(self, s: spec.ValueSpec) -> str:
        return (f"{s.machines} machines, about {s.expected_tasks:.0f} tasks over {s.duration / 60:g} min, "
                f"{s.heterogeneity} heterogeneity, {s.deadlines} deadlines, {s.weighting} weighting")

    def scale(self, s: spec.ValueSpec) -> tuple[int, int]:
        """The expected arrivals of every priority over the duration, start-up and bursts included (section 6: 1328.6
        with the paper's rates), rounded, and the machines."""
        return round(s.expected_tasks), s.machines

    def headline(self, s: spec.ValueSpec) -> str:
        B, E = s.window
        return f"value V over [{B / 60:g}, {E / 60:g}] min as % of the upper bound UB (section 2.3)"

    def workload(self, s: spec.ValueSpec, seed_seq: np.random.SeedSequence) -> ValueWorkload:
        return make_workload(s, seed_seq)

    def run(self, s: spec.ValueSpec, heuristic, workload: ValueWorkload) -> ValueRun:
        if heuristic.name in SEARCH:
            return run_static(s, heuristic, workload)
        return run_dynamic(s, heuristic.name, heuristic.kwargs, workload)

    def measure(self, s: spec.ValueSpec, heuristic, run: ValueRun) -> dict[str, Any]:
        row = measure_run(s, run)
        return {m.name: row[m.name] for m in self.metrics}

    def schedule_extras(self, run: ValueRun) -> dict[str, np.ndarray]:
        w = run.workload
        return {"priority": np.array(PRIORITIES, dtype=object)[w.priority], "weight": w.weight, "d100": w.d100,
                "d50": w.d50, "d25": w.d25}

    def trial_bytes(self, s: spec.ValueSpec) -> int:
        """Tasks x machines matrices (ETC, ATC, the queues, the heuristics' rows) for the most tasks a trial is
        likely to draw, and per-task and per-machine arrays."""
        n, m = int(_TASKS_MARGIN * s.expected_tasks) + 100, s.machines
        return _MATRIX_BYTES * n * m + _TASK_BYTES * n + _MACHINE_BYTES * m

    def trial_seconds(self, s: spec.ValueSpec, heuristics) -> float:
        """n tasks on m machines. A dynamic heuristic: n _DYNAMIC_TASK + w n S^2 / m _REBUILD, each arrival rebuilding
        the machines' queues of the S waiting tasks, S = n / (1 + (1 / rho)^4) at load rho (:func:`_load`; S is small
        below rho = 1), w the heuristic's weight (_REBUILD_WEIGHT: Max-min's queues cost most, Queueing Table and
        Switching edit them). TPSA and GA: the schedules their parameters let them evaluate (static.search_work) x n x
        _EVALUATION (so that a run made far longer is refused before it starts)."""
        n, m = s.expected_tasks, s.machines
        waiting = n / (1 + (1 / max(_load(s), 1e-9)) ** 4)
        seconds = 0.0
        for h in heuristics:
            if h.name in _EVALUATION:
                seconds += _EVALUATION[h.name] * static.search_work(h.name, h.kwargs) * n
            else:
                seconds += n * _DYNAMIC_TASK + _REBUILD_WEIGHT.get(h.name, 1.0) * _REBUILD * n * waiting**2 / m
        return seconds

    def presets(self):
        return PRESETS

    def claims(self):
        return CLAIMS

    def tiny(self):
        return Scenario.from_dict({
            "name": "value-tiny", "description": "A tiny value scenario: 4 machines, 20 min, one burst.",
            "model": self.name, "machines": 4, "duration": 1200.0, "startup": 120.0, "bursts": 1,
            "burst_length": 120.0, "window": [120.0, 1200.0], "gap": 30.0,
            "heuristics": [*DYNAMIC_NAMES, {"name": "tpsa", "runs": 1, "phase1_iterations": 200,
                                            "phase2_unchanged": 100},
                           {"name": "ga", "population": 10, "generations": 10}],
            "trials": 2, "seed": 9})

    def warm_up(self) -> None:
        """Compile the event loop of every dynamic heuristic, and TPSA's and GA's kernels on a three-task problem."""
        small = spec.ValueSpec(machines=2)
        tiny = make_workload(small, np.random.SeedSequence(0))
        engine.warm_up([(h.kind, h.pack(h.defaults(), small, tiny)) for h in DYNAMIC])
        d = np.array([5.0, 6.0, 7.0])
        problem = static.StaticProblem(np.zeros(3), np.array([[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]]), np.ones(3), d,
                                       d + 1, d + 2, 0.0, 10.0)
        machine, order = np.array([0, 1, 0]), np.array([0.0, 0.0, 1.0])
        static.tpsa(problem, machine, order, np.random.default_rng(0), runs=1, phase1_iterations=5,
                    phase1_unchanged=2, phase2_unchanged=2)
        static.ga(problem, machine, order, np.random.default_rng(0), population=4, generations=2, elite_unchanged=1)


MODEL = ValueModel()
