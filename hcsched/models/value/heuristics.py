"""The heuristics of Kim et al. (2007), registered for the value model: the eight dynamic ones of section 4 (kernels in
:mod:`.max_max`, :mod:`.min_min`, :mod:`.rounds`, :mod:`.sufferage` and :mod:`.editing`; kind codes in :mod:`.kinds`)
and the two static benchmarks of section 5 (:mod:`.static`).

All dynamic heuristics are batch mode: one mapping event per arrival (section 4.1). Ties, never specified by the
paper, go to the lowest task index (tasks are numbered in arrival order), then the lowest machine index. Where the
paper can be read two ways, a parameter chooses; docs/models/value.md ("Readings of the paper") explains each
reading and why its default was chosen. The static benchmarks run with full knowledge (arrivals, ATC) after the
dynamic heuristics of the same trial, seeded with the trial's best dynamic mapping.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hcsched.errors import HcschedError
from hcsched.heuristics import Heuristic, Param
from hcsched.models.value import editing, engine, explain, max_max, min_min, rounds, shared, sufferage
from hcsched.models.value.cost import DYNAMIC_TASK, QueueCost, dynamic_seconds, static_seconds
from hcsched.models.value.kinds import PLUGIN, Kind
from hcsched.models.value.plugin import compiled, machines_view, tasks_view
from hcsched.models.value.simulation import ValueRun, replay, run_dynamic, run_plugin
from hcsched.models.value.static import annealing, ga, genetic, tpsa
from hcsched.models.value.static.annealing import TPSA_PARAMS
from hcsched.models.value.static.genetic import GA_PARAMS
from hcsched.models.value.static_runs import run_static

MODEL = "value"
KIM = "Kim et al. 2007"

#: Queueing Table's cutoffs (section 4.5: "determined experimentally", values unpublished). Chosen by a grid search
#: on trials not used by the tests (docs/models/value.md, "Queueing Table cutoffs").
RET_CUTOFF = 1.0
URGENCY_CUTOFF = 0.5
#: Switching's thresholds (section 4.8: unpublished); see docs/models/value.md.
SWITCH_LOW, SWITCH_HIGH = 0.6, 0.9

CONTENTION = Param("contention", "per-machine", "choice", choices=("per-machine", "single"),
                   doc="when the top-worth tasks contend: per-machine maps every task alone on its machine and one "
                       "task per contended machine (default); single maps only one task per round")
STEP7 = Param("step7", "on", "choice", choices=("on", "off"),
              doc="on: rebuild each queue by priority and deadlines after mapping (section 4.3, step 7); off: keep the "
                  "mapping order")


@dataclass(frozen=True)
class ValueHeuristic(Heuristic):
    """A heuristic of the value model: everything particular to it lives on it. ``run`` simulates it on a trial,
    ``trial_seconds`` is its cost model, ``explain`` its steps on a worked example of section 4 (Tables 2-5) and
    ``explain_problem`` whether Explain agrees with its runs; ``reference`` (the static benchmarks) marks a
    full-knowledge reference, never crowned."""

    def run(self, spec: Any, heuristic: Any, workload: Any) -> ValueRun:
        """One trial's run.

        Parameters
        ----------
        spec : ValueSpec
        heuristic : hcsched.scenario.HeuristicSpec
            This heuristic with its resolved parameters.
        workload : ValueWorkload

        Returns
        -------
        ValueRun
        """
        raise NotImplementedError(f"heuristic {self.name!r} of the value model cannot run")

    def explain(self, example: explain.Example) -> explain.Step | None:
        """Its steps on a worked example of section 4 (:data:`hcsched.models.value.explain.EXAMPLES`), or None where
        Explain does not show it (a static benchmark, a heuristic that only places the new task)."""
        return None

    def explain_problem(self, scenario: Any, heuristic: Any) -> str | None:
        """Why Explain's trace of its decisions does not end in the assignment its run makes, or None."""
        return None


@dataclass(frozen=True)
class DynamicHeuristic(ValueHeuristic):
    """A dynamic heuristic of the value model (section 4).

    Parameters
    ----------
    kind : int
        The :class:`~hcsched.models.value.kinds.Kind` named like the heuristic (``MAX_MAX`` for max-max), stored as
        an int: it selects its kernel in :func:`~hcsched.models.value.event.mapping_event`.
    pack : callable
        ``pack(params, spec, workload)``: the float vector ``fp`` that kernel reads.
    queues : QueueCost
        What its queues cost in the run estimate (:mod:`.cost`).
    event_kernel : callable, optional
        Its kernel of one event from scratch (:func:`~hcsched.models.value.engine.one_event`), beside ``trace``.
    trace : callable, optional
        Explain's plain steps ``trace(etc, d100, mat) -> Step`` (:mod:`.explain`) on a worked example.
    explain_params : tuple
        (name, value) parameters set when Explain's trace is compared with the kernel.
    """

    pack: Callable[[dict, object, object], np.ndarray] = field(default=None, repr=False)
    queues: QueueCost = QueueCost()
    event_kernel: Callable | None = field(default=None, repr=False)
    trace: Callable | None = field(default=None, repr=False)
    explain_params: tuple = ()

    def run(self, spec, heuristic, workload) -> ValueRun:
        return run_dynamic(spec, self, heuristic.kwargs, workload)

    def trial_seconds(self, spec, heuristic) -> float:
        return dynamic_seconds(spec, self.queues)

    def explain(self, example):
        if self.trace is None:
            return None
        return self.trace(np.array(example.etc, float), np.array(example.d100, float), np.array(example.mat, float))

    def explain_problem(self, scenario, heuristic) -> str | None:
        """Explain's trace on each worked example maps the pairs the kernel maps (from scratch, one event)."""
        if self.trace is None:
            return None
        fp = self.pack({**self.defaults(), **dict(self.explain_params)}, scenario.spec, None)
        for key, ex in explain.EXAMPLES.items():
            n = len(ex.etc)
            pairs, _ = engine.one_event(self.event_kernel, fp, ex.etc, np.ones(n), ex.d100, np.full(n, explain.FAR),
                                        np.full(n, explain.FAR), ex.mat)
            traced = [(t - 1, j - 1) for t, j, _ in self.explain(ex).mapped]
            if traced != pairs:
                return f"Explain's steps on {key} map {traced}, its kernel {pairs}"
        return None


def _h(name: str, title: str, kind: Kind, pack, section: str, description: str, params: tuple = (),
       checks: tuple = (), **more) -> DynamicHeuristic:
    return DynamicHeuristic(name, title, "batch", int(kind), section, description, params, models=(MODEL,), paper=KIM,
                            checks=checks, pack=pack, **more)


def _thresholds(v: dict) -> str | None:
    return None if v["low"] <= v["high"] else f"low ({v['low']:g}) must not exceed high ({v['high']:g})"


DYNAMIC: tuple[Heuristic, ...] = (
    _h("max-max", "Max-Max", Kind.MAX_MAX, max_max.pack_max_max, "4.2",
       "Fitness = worth / ETC, worth = priority weight x the deadline factor of the estimated completion. Each "
       "mappable task finds its maximum-fitness machine; the best pair is mapped (appended to the queue), mat is "
       "updated and the rest repeat.", queues=QueueCost(1.6, 1.7), event_kernel=max_max.max_max,
       trace=explain.max_max),
    _h("max-min", "Max-Min", Kind.MAX_MIN, min_min.pack_step7, "4.3",
       "Each mappable task finds its minimum completion time machine; the pair with the largest completion time is "
       "mapped first, and so on. Step 7 then rebuilds every queue: high-priority tasks meeting D100, D50, D25 in "
       "turn (in queue order), then medium, then low, then the tasks missing D25 by priority.", (STEP7,),
       queues=QueueCost(3.9, 0.75), event_kernel=min_min.max_min, trace=explain.max_min,
       explain_params=(("step7", "off"),)),
    _h("min-min", "Min-Min", Kind.MIN_MIN, min_min.pack_step7, "4.3",
       "As Max-Min, but the pair with the smallest completion time is mapped first; the same step-7 rebuild of the "
       "queues (section 4.3: 'the difference is in step (3)').", (STEP7,), queues=QueueCost(1.3, 1.3),
       event_kernel=min_min.min_min, trace=explain.min_min, explain_params=(("step7", "off"),)),
    _h("percent-best", "Percent Best", Kind.PERCENT_BEST, rounds.pack_percent_best, "4.4",
       "Priority groups high, medium, low in turn. In rounds, each task of the group picks its minimum completion "
       "time machine among its m fastest (m = 3, 4, 8 of 8 machines; here a percent of the machines, rounded, at "
       "least 1) and the idle ones; uncontended tasks are mapped, a contended machine goes to the earliest D100.",
       (Param("percent_high", 37.5, float, 0.0, 100.0, low_open=True, doc="m of high-priority tasks, % of machines"),
        Param("percent_medium", 50.0, float, 0.0, 100.0, low_open=True, doc="m of medium-priority tasks, %"),
        Param("percent_low", 100.0, float, 0.0, 100.0, low_open=True, doc="m of low-priority tasks, %")),
       queues=QueueCost(2.9, 1.1)),
    _h("queueing-table", "Queueing Table", Kind.QUEUEING_TABLE, editing.pack_queueing_table, "4.5, Table 1",
       "Only the new task is placed: in each queue by its rank of Table 1 (priority, slow/fast by relative "
       "execution time, sooner/later by urgency), on the machine where it then completes first. Then, machine by "
       "machine, the first waiting task estimated to miss D100 moves to the front of the best machine where it and "
       "every task there still meet D100 and no waiting task has a higher priority. The cutoffs are unpublished: "
       f"defaults RET {RET_CUTOFF:g}, urgency {URGENCY_CUTOFF:g} (chosen by a grid search, see the docs).",
       (Param("ret_cutoff", RET_CUTOFF, float, 0.0, low_open=True, doc="slow when RET > this"),
        Param("urgency_cutoff", URGENCY_CUTOFF, float, 0.0, low_open=True, doc="sooner when urgency > this"),
        Param("ret_reference", "trial", "choice", choices=("trial", "arrived", "task-mean"),
              doc="RET's denominator: the trial's whole ETC mean (default), the mean over tasks arrived so far, or "
                  "the scenario's task_mean"),
        Param("placement", "after-rank", "choice", choices=("after-rank", "end"),
              doc="where the new task goes when every task of its rank is at least as urgent: right after them "
                  "(default) or at the end of the queue")), queues=QueueCost(0.0066, 1.1)),
    _h("relative-cost", "Relative Cost", Kind.RELATIVE_COST, shared.pack_contention, "4.6",
       "RC = minimum completion time / mean completion time over the machines; worth = weight x the deadline factor "
       "at the minimum completion time. Each round takes the tasks tied at the highest worth; tasks alone on their "
       "minimum completion time machine are mapped, and a contended machine goes to the lowest RC.", (CONTENTION,),
       queues=QueueCost(3.5, 1.1), event_kernel=rounds.relative_cost, trace=explain.relative_cost),
    _h("slack-sufferage", "Slack Sufferage", Kind.SLACK_SUFFERAGE, shared.pack_contention, "4.7, Tables 3 and 5",
       "Percentage slack PS = 1 - ETC / (deadline - mat), -1 where the deadline is missed, with D100 (else D50, "
       "D25, the end of the evaluation period when missed everywhere). Each task picks its maximum-PS machine; the "
       "tasks tied at the highest worth are mapped, a contended machine going to the most critical task (largest "
       "best minus second-best PS).",
       (CONTENTION,
        Param("end_factor", 0.05, float, 0.0, 1.0, doc="worth factor when only the end of the evaluation period can "
              "be met (default 0.05, the factor after D25)")),
       queues=QueueCost(3.8, 1.3), event_kernel=sufferage.slack_sufferage, trace=explain.slack_sufferage),
    _h("switching", "Switching Algorithm", Kind.SWITCHING, editing.pack_switching, "4.8",
       "Only the new task is mapped: to its minimum completion time machine, or to its minimum execution time "
       "machine once the load balance ratio min mat / max mat exceeds the high threshold (back to MCT below the "
       "low one); that queue is then ordered by priority and earliest D100. Thresholds are unpublished: defaults "
       f"{SWITCH_LOW:g} / {SWITCH_HIGH:g} (see the docs).",
       (Param("low", SWITCH_LOW, float, 0.0, 1.0, doc="back to MCT when the ratio falls below this"),
        Param("high", SWITCH_HIGH, float, 0.0, 1.0, doc="to MET when the ratio rises above this"),
        Param("ratio", "relative", "choice", choices=("relative", "absolute"),
              doc="relative: of mat - now (default); absolute: of mat as the text says")),
       (_thresholds,), queues=QueueCost(9.4e-06, 5)),
)


#: What a static benchmark is (section 5), said so that nobody takes it for a scheduler to use
STATIC_REFERENCE = "an offline search that knows every task in advance, as no live scheduler can"


@dataclass(frozen=True)
class StaticHeuristic(ValueHeuristic):
    """A static benchmark of section 5 (TPSA, GA): a full-knowledge reference (``reference``), run after the
    dynamic heuristics of the trial from the best mapping of the built-in dynamic heuristics at their defaults
    (:func:`~hcsched.models.value.simulation.best_dynamic`), whatever else the scenario runs.

    Parameters
    ----------
    search : callable
        ``search(problem, machine, order, rng, **params)`` (:mod:`.static`).
    stream : int
        Its stream of the trial's ``static_seed``.
    evaluation, growth, machine_growth : float
        Seconds per schedule it may evaluate, and how they grow with the tasks and with the machines (the cost model:
        :func:`~hcsched.models.value.cost.static_seconds`).
    work : callable
        ``work(params)``: the most schedules it may evaluate.
    """

    search: Callable = field(default=None, repr=False)
    stream: int = 0
    evaluation: float = 0.0
    growth: float = 1.0
    work: Callable[[dict], float] = field(default=None, repr=False)
    machine_growth: float = 0.0

    def run(self, spec, heuristic, workload) -> ValueRun:
        return run_static(spec, self.search, self.stream, heuristic.kwargs, workload, DYNAMIC)

    def search_work(self, params: dict) -> float:
        """The most schedules the search may evaluate with ``params`` (for run-time estimates)."""
        return self.work(params)

    def trial_seconds(self, spec, heuristic) -> float:
        return static_seconds(spec, self.evaluation, self.search_work(heuristic.kwargs), self.growth,
                              self.machine_growth)


STATIC = (
    StaticHeuristic("tpsa", "Two-phase simulated annealing (static)", "batch", -1, "5.2",
                    "A static benchmark with full knowledge of arrivals and actual times: simulated annealing from the "
                    "trial's best dynamic mapping, moving single tasks (phase 1) then swapping pairs (phase 2), five "
                    "runs; never worse than the best dynamic heuristic of the trial. Runs after the dynamic "
                    "heuristics.", TPSA_PARAMS, models=(MODEL,), paper=KIM, reference=STATIC_REFERENCE,
                    search=tpsa, stream=0, evaluation=5.1e-10, growth=0.5, work=annealing.work),
    StaticHeuristic("ga", "Genetic algorithm (static)", "batch", -1, "5.3",
                    "A static benchmark with full knowledge: a population of 100 mappings seeded with the trial's best "
                    "dynamic mapping, rank-based roulette with elitism, one-cut crossover and mutation; never worse "
                    "than the best dynamic heuristic of the trial. Runs after the dynamic heuristics.",
                    GA_PARAMS, models=(MODEL,), paper=KIM, reference=STATIC_REFERENCE,
                    search=ga, stream=1, evaluation=2.9e-9, growth=0.9, work=genetic.work, machine_growth=0.6),
)
HEURISTICS = DYNAMIC + STATIC
NAMES = tuple(h.name for h in HEURISTICS)
DYNAMIC_NAMES = tuple(h.name for h in DYNAMIC)


def trial_seconds(spec, heuristics) -> float:
    """One trial of ``heuristics`` (each a :class:`~hcsched.scenario.HeuristicSpec`) on one core: each one's own
    cost and, once when a static benchmark is among them, its seed's (section 5.2): the built-in dynamic heuristics
    at their defaults that are not among them (a trial's dynamic runs are shared through its workload's memo,
    :func:`~hcsched.models.value.simulation.run_dynamic`, so GA and TPSA pay for one seed, and a dynamic heuristic
    run at its defaults beside them for none)."""
    own = sum(h.heuristic.trial_seconds(spec, h) for h in heuristics)
    if not any(isinstance(h.heuristic, StaticHeuristic) for h in heuristics):
        return own
    ran = {h.heuristic.name for h in heuristics
           if isinstance(h.heuristic, DynamicHeuristic) and h.kwargs == h.heuristic.defaults()}
    return own + sum(d.trial_seconds(spec, None) for d in DYNAMIC if d.name not in ran)


# --- plug-ins (hcsched.models.value.plugin) ----------------------------------------------------------------------
#: A plug-in's default cost model, from Min-Min's (a rebuilding heuristic of about its work): compiled, as Min-Min;
#: plain Python, PYTHON_EVENT seconds per event (the loop run as Python, measured at about 40 us plus the rule) and
#: PYTHON_REBUILD x Min-Min's weight for its queues.
PLUGIN_QUEUES = next(h.queues for h in DYNAMIC if h.name == "min-min")
PYTHON_EVENT, PYTHON_REBUILD = 1.5e-4, 50.0


@dataclass(frozen=True)
class PluginHeuristic(ValueHeuristic):
    """A plug-in heuristic of the value model: its ``rule`` (:mod:`hcsched.models.value.plugin`) decides every
    mapping event; ``kind`` is :data:`~hcsched.models.value.kinds.PLUGIN`.

    Parameters
    ----------
    jit_rule : JitRule, optional
        The compiled rule, for a numba ``@njit`` rule (None: a plain Python rule, run by the loop as Python).
    cost : callable, optional
        ``cost(spec, heuristic_spec) -> seconds``, the user's own cost model; default: :data:`PLUGIN_QUEUES` et al.
    """

    jit_rule: Any = field(default=None, repr=False, compare=False)
    cost: Callable | None = field(default=None, repr=False, compare=False)

    def pack(self, params: dict, spec=None, workload=None) -> np.ndarray:
        """The rule's ``params`` array: each parameter in declared order, a choice as the index of its value."""
        return self.rule_params(params)

    def seed(self, workload) -> int:
        """The ``np.random`` seed of its run on a trial: from the trial's workload and its own name."""
        mine = zlib.crc32(self.name.encode())
        return int(np.random.SeedSequence([*workload.static_seed.tolist(), 2, mine]).generate_state(1)[0])

    def run(self, spec, heuristic, workload) -> ValueRun:
        return run_plugin(spec, self, heuristic.kwargs, workload)

    def trial_seconds(self, spec, heuristic) -> float:
        if self.cost is not None:
            return float(self.cost(spec, heuristic))
        if self.jit_rule is not None:
            return dynamic_seconds(spec, PLUGIN_QUEUES)
        python = PLUGIN_QUEUES._replace(weight=PYTHON_REBUILD * PLUGIN_QUEUES.weight)
        return dynamic_seconds(spec, python, per_task=DYNAMIC_TASK + PYTHON_EVENT)

    def decisions(self, now: float, end: float, etc, weight, prio, d100, d50, d25, ready, params) -> list:
        """The rule's (row, machine) pairs on one event given as arrays (Explain's worked examples), read-only."""
        S = len(etc)
        tasks = tasks_view(np.arange(S, dtype=np.int64), np.ascontiguousarray(etc, float), np.asarray(prio, np.int64),
                           np.asarray(weight, float), np.asarray(d100, float), np.asarray(d50, float),
                           np.asarray(d25, float), np.zeros(S), frozen=True)
        machines = machines_view(np.asarray(ready, float), np.full(len(ready), -1, np.int64), frozen=True)
        pairs = np.asarray(self.rule(float(now), float(end), tasks, machines, params))
        return [(int(i), int(j)) for i, j in pairs.reshape(-1, 2)]

    def explain(self, example):
        """Only the assignment its rule returns on the example (a plug-in's rule shows no intermediate values)."""
        n = len(example.etc)
        far = np.full(n, explain.FAR)
        pairs = self.decisions(0.0, np.inf, example.etc, np.ones(n), np.zeros(n), example.d100, far, far,
                               example.mat, self.pack(self.defaults()))
        return explain.assignment(self.name, example, pairs)

    def explain_problem(self, scenario, heuristic) -> str | None:
        """Its run on the scenario's first trial replayed event by event in plain Python (as Explain shows a
        plug-in: the decisions of its rule, nothing compared) ends in the same machines, starts and finishes."""
        from_run, replayed = replay(scenario, heuristic, self)
        for what, a, b in zip(("machines", "starts", "finishes"), from_run, replayed, strict=True):
            if not np.array_equal(a, b, equal_nan=True):
                return f"its {what} on trial 0 differ between the run and the plain replay Explain shows"
        return None


CAPABILITIES = ("cost",)


def make_plugin(rule, *, name: str, title: str, description: str, params: tuple, section: str, paper: str,
                origin: str, **capabilities) -> PluginHeuristic:
    """A plug-in heuristic of the value model around ``rule`` (:mod:`hcsched.models.value.plugin`).

    Parameters
    ----------
    rule : callable
        ``rule(now, end, tasks, machines, params) -> pairs``: plain Python or numba ``@njit``.
    name, title, description, section, paper, origin : str
        As :func:`hcsched.heuristic` gives them.
    params : tuple of Param
        Its parameters; the rule reads them as a float array in this order (a choice: its index).
    **capabilities
        ``cost``: ``cost(spec, heuristic_spec) -> seconds`` of one trial (default: from Min-Min's).

    Returns
    -------
    PluginHeuristic
    """
    unknown = sorted(set(capabilities) - set(CAPABILITIES))
    if unknown:
        raise HcschedError(f"plug-in heuristic {name!r}: the value model takes no capability {unknown[0]!r}; allowed: "
                           f"{', '.join(CAPABILITIES)} (every value heuristic is batch mode: one event per arrival)")
    cost = capabilities.get("cost")
    if cost is not None and not callable(cost):
        raise HcschedError(f"plug-in heuristic {name!r}: cost must be a function (spec, heuristic) -> seconds")
    jit_rule = compiled(rule, name) if hasattr(rule, "py_func") and hasattr(rule, "compile") else None
    return PluginHeuristic(name, title, "batch", PLUGIN, section, description, tuple(params), models=(MODEL,),
                           paper=paper, origin=origin, rule=rule, jit_rule=jit_rule, cost=cost)
