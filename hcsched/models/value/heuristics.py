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

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from hcsched.heuristics import Heuristic, Param
from hcsched.models.value import editing, max_max, min_min, rounds, shared
from hcsched.models.value.kinds import Kind
from hcsched.models.value.static.annealing import TPSA_PARAMS
from hcsched.models.value.static.genetic import GA_PARAMS

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
class DynamicHeuristic(Heuristic):
    """A dynamic heuristic of the value model: its ``kind`` (the :class:`~hcsched.models.value.kinds.Kind` named
    like the heuristic, e.g. ``MAX_MAX`` for max-max, stored as an int) selects its kernel in
    :func:`~hcsched.models.value.event.mapping_event`, and ``pack(params, spec, workload)`` makes the float vector
    ``fp`` that kernel reads."""

    pack: Callable[[dict, object, object], np.ndarray] = field(default=None, repr=False)


def _h(name: str, title: str, kind: Kind, pack, section: str, description: str, params: tuple = (),
       checks: tuple = ()) -> DynamicHeuristic:
    return DynamicHeuristic(name, title, "batch", int(kind), section, description, params, models=(MODEL,), paper=KIM,
                            checks=checks, pack=pack)


def _thresholds(v: dict) -> str | None:
    return None if v["low"] <= v["high"] else f"low ({v['low']:g}) must not exceed high ({v['high']:g})"


DYNAMIC: tuple[Heuristic, ...] = (
    _h("max-max", "Max-Max", Kind.MAX_MAX, max_max.pack_max_max, "4.2",
       "Fitness = worth / ETC, worth = priority weight x the deadline factor of the estimated completion. Each "
       "mappable task finds its maximum-fitness machine; the best pair is mapped (appended to the queue), mat is "
       "updated and the rest repeat."),
    _h("max-min", "Max-Min", Kind.MAX_MIN, min_min.pack_step7, "4.3",
       "Each mappable task finds its minimum completion time machine; the pair with the largest completion time is "
       "mapped first, and so on. Step 7 then rebuilds every queue: high-priority tasks meeting D100, D50, D25 in "
       "turn (in queue order), then medium, then low, then the tasks missing D25 by priority.", (STEP7,)),
    _h("min-min", "Min-Min", Kind.MIN_MIN, min_min.pack_step7, "4.3",
       "As Max-Min, but the pair with the smallest completion time is mapped first; the same step-7 rebuild of the "
       "queues (section 4.3: 'the difference is in step (3)').", (STEP7,)),
    _h("percent-best", "Percent Best", Kind.PERCENT_BEST, rounds.pack_percent_best, "4.4",
       "Priority groups high, medium, low in turn. In rounds, each task of the group picks its minimum completion "
       "time machine among its m fastest (m = 3, 4, 8 of 8 machines; here a percent of the machines, rounded, at "
       "least 1) and the idle ones; uncontended tasks are mapped, a contended machine goes to the earliest D100.",
       (Param("percent_high", 37.5, float, 0.0, 100.0, low_open=True, doc="m of high-priority tasks, % of machines"),
        Param("percent_medium", 50.0, float, 0.0, 100.0, low_open=True, doc="m of medium-priority tasks, %"),
        Param("percent_low", 100.0, float, 0.0, 100.0, low_open=True, doc="m of low-priority tasks, %"))),
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
                  "(default) or at the end of the queue"))),
    _h("relative-cost", "Relative Cost", Kind.RELATIVE_COST, shared.pack_contention, "4.6",
       "RC = minimum completion time / mean completion time over the machines; worth = weight x the deadline factor "
       "at the minimum completion time. Each round takes the tasks tied at the highest worth; tasks alone on their "
       "minimum completion time machine are mapped, and a contended machine goes to the lowest RC.", (CONTENTION,)),
    _h("slack-sufferage", "Slack Sufferage", Kind.SLACK_SUFFERAGE, shared.pack_contention, "4.7, Tables 3 and 5",
       "Percentage slack PS = 1 - ETC / (deadline - mat), -1 where the deadline is missed, with D100 (else D50, "
       "D25, the end of the evaluation period when missed everywhere). Each task picks its maximum-PS machine; the "
       "tasks tied at the highest worth are mapped, a contended machine going to the most critical task (largest "
       "best minus second-best PS).",
       (CONTENTION,
        Param("end_factor", 0.05, float, 0.0, 1.0, doc="worth factor when only the end of the evaluation period can "
              "be met (default 0.05, the factor after D25)"))),
    _h("switching", "Switching Algorithm", Kind.SWITCHING, editing.pack_switching, "4.8",
       "Only the new task is mapped: to its minimum completion time machine, or to its minimum execution time "
       "machine once the load balance ratio min mat / max mat exceeds the high threshold (back to MCT below the "
       "low one); that queue is then ordered by priority and earliest D100. Thresholds are unpublished: defaults "
       f"{SWITCH_LOW:g} / {SWITCH_HIGH:g} (see the docs).",
       (Param("low", SWITCH_LOW, float, 0.0, 1.0, doc="back to MCT when the ratio falls below this"),
        Param("high", SWITCH_HIGH, float, 0.0, 1.0, doc="to MET when the ratio rises above this"),
        Param("ratio", "relative", "choice", choices=("relative", "absolute"),
              doc="relative: of mat - now (default); absolute: of mat as the text says")),
       (_thresholds,)),
)


STATIC_REFERENCE = "a static benchmark computed after the fact with the whole workload known"  # section 5
STATIC = (
    Heuristic("tpsa", "Two-phase simulated annealing (static)", "batch", -1, "5.2",
              "A static benchmark with full knowledge of arrivals and actual times: simulated annealing from the "
              "trial's best dynamic mapping, moving single tasks (phase 1) then swapping pairs (phase 2), five "
              "runs; never worse than the best dynamic heuristic of the trial. Runs after the dynamic heuristics.",
              TPSA_PARAMS, models=(MODEL,), paper=KIM, reference=STATIC_REFERENCE),
    Heuristic("ga", "Genetic algorithm (static)", "batch", -1, "5.3",
              "A static benchmark with full knowledge: a population of 100 mappings seeded with the trial's best "
              "dynamic mapping, rank-based roulette with elitism, one-cut crossover and mutation; never worse "
              "than the best dynamic heuristic of the trial. Runs after the dynamic heuristics.",
              GA_PARAMS, models=(MODEL,), paper=KIM, reference=STATIC_REFERENCE),
)
HEURISTICS = DYNAMIC + STATIC
NAMES = tuple(h.name for h in HEURISTICS)
DYNAMIC_NAMES = tuple(h.name for h in DYNAMIC)
