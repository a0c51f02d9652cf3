"""The task-class model of Al-Azzoni and Down, "Linear Programming Based Affinity Scheduling of Independent Tasks on
Heterogeneous Computing Systems" (IEEE TPDS): classes with Poisson arrival rates alpha_i, machines with execution
rates mu_ij and FCFS queues, and the allocation LP.

Its spec (:mod:`.spec`), heuristics (:mod:`.heuristics`), the LP (:mod:`.lp`), kernels (:mod:`.kernels`),
workload, runs and metrics (:mod:`.simulation`), presets (:mod:`.presets`,
Tables 1 and 6) and charts (:mod:`.charts`) live here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from hcsched.formatting import readable_amount
from hcsched.metrics import MAX_FLOW_GLOSS, MAX_STRETCH_GLOSS, MEAN_FLOW_GLOSS, STRETCH_NOTE, STRETCH_SAID, Metric
from hcsched.models.base import Model
from hcsched.models.classes import kernels, spec
from hcsched.models.classes.heuristics import HEURISTICS, make_plugin, sentence_name
from hcsched.models.classes.lp import times
from hcsched.models.classes.presets import PRESETS, sweeps
from hcsched.models.classes.simulation import ClassRun, class_metrics, make_class_workload
from hcsched.scenario import Scenario

# CPU seconds per arrival on one core of the 2-core machine, kernels compiled (fitted to one replication of
# every preset; bench/estimates.py checks runs): drawing its class and times (each heuristic's own part is on its
# object: hcsched.models.classes.heuristics.ClassHeuristic.trial_seconds).
_DRAW = 3.7e-8
# bytes of one trial: per arrival, the workload's draws, the event loop's and the schedule's arrays (the arrivals of a
# trial, at most this many times their expected number plus a margin: Poisson counts); per class and machine, the
# rates, the policy and the counts; the allocation LP's constraint matrix, (classes + columns) x classes x columns
_TASK_BYTES, _CLASS_MACHINE_BYTES, _TASKS_MARGIN = 40 * 8, 8 * 8, 1.2
#: The headline metric and the state-information discount in words (the paper's names in their docs).
IN_SYSTEM = "Average backlog"
NOT_ASKED = "Load checks skipped (%)"  # one name with the lines' "skips the load check" (a tryout read three)
#: What the share of machines not asked is and why it matters, said beside it where a line first says it (section IV,
#: the state-information discount: asking fewer machines how busy they are costs less messaging).
NOT_ASKED_GLOSS = "the share of machines not asked how busy they are when a task arrives; each saves a message"
#: A heuristic's win on it as a line below another lead says it: "But kpb sends fewer messages: when a task arrives,
#: it skips the load check on half of the machines."
NOT_ASKED_TRADE = "sends fewer messages: when a task arrives, it skips the load check on {} of the machines"
#: "..., while lpas skips only 19% of them" (of the machines, as "half of the machines" before it): a tryout read
#: "(lpas: only 19%)" as cryptic, and "lpas on only 19%" needed a second reading
NOT_ASKED_BESIDE = "while {label} skips {} of them"


class ClassModel(Model):
    name = "classes"
    heuristics = HEURISTICS
    title = "Task classes with rates (Al-Azzoni and Down)"
    paper = "Al-Azzoni and Down, IEEE TPDS"
    paper_title = "Linear Programming Based Affinity Scheduling of Independent Tasks on Heterogeneous Computing Systems"
    summary = ("Tasks of a few classes arrive as Poisson streams at machines with class-dependent rates and FCFS "
               "queues; an allocation LP tells each machine which classes to prefer.")
    spec_type = spec.ClassModelSpec
    spec_keys = frozenset(spec.CLASS_KEYS)
    metrics = (
        Metric("mean_in_system", IN_SYSTEM, "tasks", bar=True, gloss="tasks waiting or running, over time",
               doc="Tasks waiting or running, all machines together, averaged over time over [warmup, horizon]: the "
                   "paper's mean number in system (section III-B)."),
        Metric("mean_response", "Mean response time", "time units", bar=True, gloss=MEAN_FLOW_GLOSS,
               doc="Mean finish minus arrival of the tasks that arrived after the warm-up and finished."),
        Metric("sum_flow", "Sum of flow times", "time units", table=False, doc="Sum of finish minus arrival after the "
                                                                               "warm-up."),
        Metric("mean_flow", "Mean flow time", "time units", table=False, gloss=MEAN_FLOW_GLOSS,
               doc="The same as the mean response time."),
        Metric("max_flow", "Max flow time", "time units", gloss=MAX_FLOW_GLOSS,
               doc="The longest finish minus arrival after the warm-up."),
        Metric("mean_stretch", "Mean stretch", "", ci="bootstrap",
               doc="Mean flow time over execution time. " + STRETCH_NOTE),
        Metric("max_stretch", "Max stretch", "", ci="bootstrap", gloss=MAX_STRETCH_GLOSS, said=STRETCH_SAID,
               doc="The largest flow time over execution time. " + STRETCH_NOTE),
        Metric("utilization", "Utilisation", "", "", bar=True, fmt=".1%", ci="auto-fraction",
               doc="Busy machine time over machines x time, over [warmup, horizon]. Neither is better: in a stable "
                   "system every heuristic completes the same arrivals, so utilisation is the machine time their "
                   "mapping costs, high when tasks run on machines slow for their class (MCT) and low with affinity "
                   "(LPAS, sections II-III); a heuristic that cannot keep up can have it low too. Compare the number "
                   "in system and the response time."),
        Metric("state_info", "Machines consulted per task", "", doc="N_s: machines whose state a mapping asked for "
                                                                    "(section IV)."),
        Metric("discount", NOT_ASKED, "%", "higher", bar=True, gloss=NOT_ASKED_GLOSS, trade=NOT_ASKED_TRADE,
               trade_beside=NOT_ASKED_BESIDE,
               doc="Of all the machines, the share the scheduler does not ask how busy they are when a task arrives, "
                   "on average; asking fewer costs less messaging. The paper's state-information discount, "
                   "(1 - N_s / M) x 100, N_s the machines asked per task, M all machines (section IV)."),
        Metric("guided_overrides", "Guided-LPAS overrides", "", "", doc="Arrivals where condition (iii) removed "
                                                                        "LPAS's choice (section V)."),
        Metric("arrivals", "Arrivals", "", "", table=False),
        Metric("completed", "Completed", "", "", table=False),
        Metric("lambda_restricted", "Restricted lambda*", "", "higher", table=False,
               doc="lambda* of the LP restricted to the machines the heuristic may use (Theorem 2)."),
        Metric("unstable", "Unstable", "", "", table=False,
               doc="Restricted lambda* < 1 (Theorem 2), or the number in system keeps growing: after the first "
                   "quarter of "
                   "the run, its rise is above a driftless random walk's at the 1% level and above a tenth of its "
                   "level (hcsched.models.classes.stability)."),
        Metric("mean_in_system_class", IN_SYSTEM, "tasks", table=False, per="class"),
        Metric("mean_in_system_machine", IN_SYSTEM, "tasks", table=False, per="machine"),
        Metric("utilization_machine", "Utilisation", "", "", table=False, per="machine", fmt=".1%",
               ci="auto-fraction"),
    )
    time_unit = "time units"
    compile_seconds = 5.0  # CPU seconds into an empty cache on the 2-core machine (bench/first_run.py)
    default_preset = "alazzoni-B"
    commands_module = "hcsched.models.classes.commands"  # hcsched lp; solve_allocation
    schedule_columns = ("class",)
    every_task_done = False  # tasks still queued or running at the horizon never start or finish

    def family_size(self, s: spec.ClassModelSpec, per: str) -> int:
        return len(s.classes.arrival_rates) if per == "class" else super().family_size(s, per)

    def spec_from_dict(self, data: dict[str, Any], base_dir: Path | None = None) -> spec.ClassModelSpec:
        return spec.spec_from_dict(data, base_dir)

    def spec_to_dict(self, s: spec.ClassModelSpec) -> dict[str, Any]:
        return spec.spec_to_dict(s)

    def describe(self, s: spec.ClassModelSpec) -> str:
        c = s.classes
        horizon = readable_amount(c.horizon, "time units")
        return f"{s.machines} machines, {len(c.arrival_rates)} task classes, {horizon} (about " \
               f"{readable_amount(s.tasks, 'arrivals')})"

    def scale(self, s: spec.ClassModelSpec) -> tuple[int, int]:
        """The expected arrivals of every class over [0, horizon], sum of alpha_i x horizon, rounded (Poisson streams
        at rates alpha_i, section II-A; the warm-up's tasks are mapped too), and the machines of every group."""
        return s.tasks, s.machines

    def headline(self, s: spec.ClassModelSpec) -> str:
        lam = s.classes.allocation().lam
        return f"lambda* = {lam:.4f} ({'stabilisable' if lam > 1 else 'overloaded: no heuristic can stabilise it'})"

    def workload(self, s: spec.ClassModelSpec, seed_seq: np.random.SeedSequence):
        return make_class_workload(s.classes, seed_seq)

    def run(self, s: spec.ClassModelSpec, heuristic, workload) -> ClassRun:
        return heuristic.heuristic.run(s.classes, heuristic, workload)

    def measure(self, s: spec.ClassModelSpec, heuristic, run: ClassRun) -> dict[str, Any]:
        return class_metrics(run, heuristic, s.classes)

    def schedule_extras(self, run: ClassRun) -> dict[str, np.ndarray]:
        return {"class": run.cls}

    def warnings(self, results: pd.DataFrame) -> list[str]:
        """A line per heuristic unstable in some trial: why, in words ("mct cannot keep up in 30 of 30 trials: on
        the machines it uses, they can take only 0.67 times the arrivals."; else its number in system kept growing;
        the LP's lambda* restricted to them, Theorem 2, which the model's page explains). Plain text: the pages show it
        as such."""
        out = []
        for label, group in results.groupby("heuristic", sort=False):
            if group["unstable"].any():
                restricted = group["lambda_restricted"].iloc[0]
                why = (f"on the machines it uses, they can take only {times(restricted)} times the arrivals"
                       if restricted < 1 else
                       f"its number in system kept growing, though the machines it uses could take "
                       f"{times(restricted)} times the arrivals")
                out.append(f"{sentence_name(label)} cannot keep up in {int(group['unstable'].sum())} of {len(group)} "
                           f"{self.trial_word}s: {why}.")
        return out

    def overloaded(self, results: pd.DataFrame) -> tuple[str, ...]:
        """The heuristics unstable in every trial (its ``unstable`` column: restricted lambda* below 1, or a
        number in system that kept growing)."""
        every = results.groupby("heuristic", sort=False)["unstable"].all()
        return tuple(str(label) for label, growing in every.items() if growing)

    def overload_words(self, s: spec.ClassModelSpec) -> str:
        """"the machines cannot keep up whatever the mapping (they can take 0.67 times these arrivals)" where the
        allocation LP's lambda* is not above 1 (Theorem 2); "" where some mapping keeps up (Theorem 1)."""
        lam = s.classes.allocation().lam
        return "" if lam > 1 else (f"the machines cannot keep up whatever the mapping (they can take {times(lam)} "
                                   "times these arrivals)")

    def trial_bytes(self, s: spec.ClassModelSpec) -> int:
        """The per-arrival arrays, the per-class and machine ones and the allocation LP's matrix."""
        c, g = len(s.classes.arrival_rates), len(s.classes.exec_rates[0])
        n = int(_TASKS_MARGIN * s.tasks) + 100
        return _TASK_BYTES * n + _CLASS_MACHINE_BYTES * c * (s.machines + 1) + 8 * (c + g) * (c * g + 1)

    def trial_seconds(self, s: spec.ClassModelSpec, heuristics) -> float:
        """Linear in the arrivals n (sum of alpha_i x horizon): the workload's draws, n _DRAW, and each heuristic's
        own cost model (:meth:`hcsched.models.classes.heuristics.ClassHeuristic.trial_seconds`)."""
        return s.tasks * _DRAW + super().trial_seconds(s, heuristics)

    def plugin(self, rule, *, name: str, title: str, description: str, params: tuple, section: str, paper: str,
               origin: str, **capabilities):
        """A heuristic of this model around a user's rule (:mod:`hcsched.models.classes.plugin`:
        ``rule(task, machines, params) -> machine``), made by :func:`hcsched.models.classes.heuristics.make_plugin`;
        capabilities: ``cost`` (a cost model of one's own) and ``mode`` ("immediate" only)."""
        return make_plugin(rule, name=name, title=title, description=description, params=params, section=section,
                           paper=paper, origin=origin, **capabilities)

    def presets(self):
        return PRESETS

    def sweeps(self):
        return sweeps()

    def claims(self):
        # imported when asked, to keep `import hcsched` fast: the claims load scipy.optimize (0.4 s)
        from hcsched.models.classes.claims import CLAIMS

        return CLAIMS

    def tiny(self):
        return Scenario.from_dict({"name": "classes-tiny", "description": "A tiny task-class scenario: System B for "
                                                                          "200 "
                                   "time units.", "model": self.name, "arrival_rates": [5, 8], "exec_rates": [[8, 3],
                                                                                                              [4, 10]],
                                   "horizon": 200.0, "heuristics": ["mct", "lpas", {"name": "kpb", "kbar": 1}],
                                   "trials": 3, "seed": 7})

    def warm_up(self) -> None:
        kernels.warm_up()


MODEL = ClassModel()
