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

from hcsched.formatting import minutes_beside
from hcsched.metrics import Metric
from hcsched.models.base import Model
from hcsched.models.value import engine, spec, static
from hcsched.models.value.claims import CLAIMS
from hcsched.models.value.heuristics import (
    DYNAMIC,
    DYNAMIC_NAMES,
    HEURISTICS,
    PluginHeuristic,
    make_plugin,
    trial_seconds,
)
from hcsched.models.value.presets import PRESETS
from hcsched.models.value.simulation import ValueRun, measure_run, run_dynamic
from hcsched.models.value.spec import PRIORITIES
from hcsched.models.value.workload import ValueWorkload, make_workload
from hcsched.models.value.worth import EARLY_WORDS, OUTCOME_LABELS, OUTCOME_MEANINGS, OUTCOMES
from hcsched.scenario import Scenario

# bytes of one trial, per task and machine: the ETC and ATC matrices, the machines' queues (machines x tasks), the
# rebuilding heuristics' members and rows (about 3.6 matrices measured at 443 x 2000); per task and per machine, the
# rest; the tasks of a trial, at most this many times their expected number plus a margin (Poisson counts)
_MATRIX_BYTES, _TASK_BYTES, _MACHINE_BYTES = 8 * 8, 60 * 8, 40 * 8
_TASKS_MARGIN = 1.5


_BETTER = {"met_d100": "higher", "late": "lower", "never_started": "lower"}  # the deadline outcomes' directions


def _metrics() -> tuple[Metric, ...]:
    out = [
        Metric("value_pct_ub", "Value, % of the upper bound", "%", "higher", bar=True, fmt=".2f", ci="auto-percent",
               gloss="what finished tasks earn, by priority and deadline, against the upper bound (100%), which no "
                     "schedule reaches; a point is 1% of that bound",
               doc="V / UB x 100 on the same trial: UB (section 2.3) is 100%."),
        Metric("value", "Value V", "", "higher", doc="Sum of p d b over the tasks (section 2.2.3): priority weight x "
               "deadline factor x the share of its execution inside the evaluation window."),
        Metric("upper_bound", "Upper bound UB", "", "", doc="The bound of section 2.3 (from B to E, a true "
               "bound; the same for every heuristic of a trial)."),
        Metric("upper_bound_later", "Upper bound on the value of the later tasks", "", "",
               doc="UB of section 2.3 over the tasks that arrive at or after B alone: a true bound on what they earn "
                   "(V without the start-up tasks), the same for every heuristic of a trial."),
    ]
    out += [Metric(f"value_{p}", f"Value of {p}-priority tasks", "", "higher", doc=f"V earned by {p}-priority tasks.")
            for p in PRIORITIES]
    out.append(Metric("value_early", f"Value of {EARLY_WORDS}", "", "higher",
                      part_of="value", fmt=",.0f", rest_bound="upper_bound_later",
                      gloss="sent in fast to fill the machines before scoring starts; only their work after it starts "
                            "counts, so one finished before then earns nothing",
                      lighter_why="less loaded, the machines now finish them before scoring starts",
                      doc="V earned by the tasks that arrive before B: the part of their run before B earns nothing "
                          "(section 2.2.3), so more machines can finish them early for less."))
    out += [Metric(o, f"Tasks: {OUTCOME_LABELS[o]}", "tasks", _BETTER.get(o, ""),
                   doc=f"Tasks, each of which {OUTCOME_MEANINGS[o]}.") for o in OUTCOMES]
    out += [Metric(f"{o}_{p}", f"{p.capitalize()}-priority tasks: {OUTCOME_LABELS[o]}", "tasks", "", table=False,
                   doc=f"{p.capitalize()}-priority tasks, each of which {OUTCOME_MEANINGS[o]} (the stacked bar of "
                   "tasks by priority and deadline outcome).")
            for p in PRIORITIES for o in OUTCOMES]
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
    summary = ("An oversubscribed system whose tasks carry priorities and three soft deadlines; heuristics remap the "
               "waiting tasks at each arrival to earn the most value within an evaluation window.")
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
    every_task_done = False  # in an oversubscribed trial some tasks are still waiting when no task may start

    def spec_from_dict(self, data: dict[str, Any], base_dir: Path | None = None) -> spec.ValueSpec:
        return spec.spec_from_dict(data)

    def spec_to_dict(self, s: spec.ValueSpec) -> dict[str, Any]:
        return spec.spec_to_dict(s)

    def describe(self, s: spec.ValueSpec) -> str:
        over = minutes_beside(s.duration, s.stop)  # in the unit of the window's times (:meth:`headline`)
        return (f"{s.machines} machines, about {s.expected_tasks:,.0f} tasks over {over}, "
                f"{s.heterogeneity} heterogeneity, {s.deadlines} deadlines, {s.weighting} weighting")

    def scale(self, s: spec.ValueSpec) -> tuple[int, int]:
        """The expected arrivals of every priority over the duration, start-up and bursts included (section 6: 1328.6
        with the paper's rates), rounded, and the machines."""
        return round(s.expected_tasks), s.machines

    def headline(self, s: spec.ValueSpec) -> str:
        B, E = s.window
        return (f"score: the total value earned from {minutes_beside(B, s.stop)} to "
                f"{minutes_beside(E, s.stop)}, as % of the upper bound on value")

    def workload(self, s: spec.ValueSpec, seed_seq: np.random.SeedSequence) -> ValueWorkload:
        return make_workload(s, seed_seq)

    def run(self, s: spec.ValueSpec, heuristic, workload: ValueWorkload) -> ValueRun:
        """The heuristic object runs itself (:meth:`hcsched.models.value.heuristics.ValueHeuristic.run`)."""
        return heuristic.heuristic.run(s, heuristic, workload)

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
        """Each heuristic's cost, and the static benchmarks' seed once (:func:`.heuristics.trial_seconds`)."""
        return trial_seconds(s, heuristics)

    def plugin(self, rule, *, name: str, title: str, description: str, params: tuple, section: str, paper: str,
               origin: str, **capabilities) -> PluginHeuristic:
        """A heuristic around ``rule``, the decision of a mapping event (:mod:`hcsched.models.value.plugin`):
        :func:`hcsched.models.value.heuristics.make_plugin`."""
        return make_plugin(rule, name=name, title=title, description=description, params=params, section=section,
                           paper=paper, origin=origin, **capabilities)

    def explain_problem(self, scenario: Scenario, heuristic) -> str | None:
        """Whether Explain's steps of the heuristic agree with its runs (the heuristic object answers)."""
        return heuristic.heuristic.explain_problem(scenario, heuristic)

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
        """Compile the event loop of every dynamic heuristic, a run's metrics (V, UB, the outcomes), and TPSA's and
        GA's kernels on a three-task problem."""
        small = spec.ValueSpec(machines=2)
        tiny = make_workload(small, np.random.SeedSequence(0))
        engine.warm_up([(h.kind, h.pack(h.defaults(), small, tiny)) for h in DYNAMIC])
        few = self.tiny().spec  # a run's metrics on a few tasks
        few_tasks = make_workload(few, np.random.SeedSequence(0))
        measure_run(few, run_dynamic(few, DYNAMIC[0], DYNAMIC[0].defaults(), few_tasks))
        d = np.array([5.0, 6.0, 7.0])
        problem = static.StaticProblem(np.zeros(3), np.array([[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]]), np.ones(3), d,
                                       d + 1, d + 2, 0.0, 10.0)
        machine, order = np.array([0, 1, 0]), np.array([0.0, 0.0, 1.0])
        static.tpsa(problem, machine, order, np.random.default_rng(0), runs=1, phase1_iterations=5,
                    phase1_unchanged=2, phase2_unchanged=2)
        static.ga(problem, machine, order, np.random.default_rng(0), population=4, generations=2, elite_unchanged=1)


MODEL = ValueModel()
