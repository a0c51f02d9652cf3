"""The run estimate's cost model of the value model (Kim et al. 2007): what one trial of a heuristic costs, read by
each heuristic object's ``trial_seconds`` (:mod:`.heuristics`).

CPU seconds on one core of the 2-core machine, kernels compiled. A dynamic heuristic: n DYNAMIC_TASK + w REBUILD n
S^2 / m, each arrival rebuilding the machines' queues of the S tasks waiting (:func:`waiting`). S depends on the
heuristic: n PILE_SHARE / (1 + (rho_h / rho)^PILE_STEEPNESS), rho the load of the machines (:func:`load`, from each
task's fastest machine) and rho_h the load past which the heuristic's own waiting tasks pile up (its
:class:`QueueCost`): Max-Min, which maps the longest tasks first and not to their fastest machines, piles up from
rho = 0.75, Min-Min only past 1.3; past it, tasks that can no longer earn anything leave the queues, so S stays under
about PILE_SHARE n. The weights w and loads rho_h were fitted to the CPU seconds of each dynamic heuristic on two
trials of the four kim-*-heavy presets with the arrival rate x1 to x3 (rho 0.35 to 3.1; 33 runs of each): a trial of
the eight within 0.66-1.08 of its measured seconds, but at rho = 0.35, where each costs milliseconds. TPSA and GA
(section 5): the schedules their parameters let them evaluate x their ``evaluation`` seconds per schedule at
STATIC_TASKS tasks x (n / STATIC_TASKS)^g (:func:`static_seconds`; so that a run made far longer is refused before it
starts), and their seed once per trial (:func:`.heuristics.trial_seconds`). Their stopping rules (a mapping unchanged
for so many moves or generations) end the searches early, and the more so the more tasks a trial has: measured on
three trials of kim-loose-high-heavy with the arrival rate x0.5, x1 and x2 (n = 664, 1329, 2657), TPSA's search took
0.14, 0.16 and 0.19-0.28 CPU seconds (g = 0.5, not less: a move re-evaluates a machine's queue, which grows with n),
GA's 0.24, 0.39 and 0.74 (g = 0.9). With the machines, measured on six trials of kim-loose-high-heavy at 8, 16 and 32
machines: TPSA's trial took 0.23, 0.20 and 0.19 CPU seconds (no growth), GA's 0.46, 0.63 and 1.05 (m^0.6: the
dashboard's "Twice the machines" of the default preset took 1.5 times its estimate without it). The evaluation
seconds before them
(8e-10 and 5e-9, g = 1) said 0.25 and 0.66 at n = 1329, and made the preset's estimate 1.6 times its run (bench/
estimates.py), and its what-if "Twice the arrival rate", whose pace the pool measured on the preset's run, half of it.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from hcsched.models.value.spec import ValueSpec
from hcsched.sampling import cov_based_etc
from hcsched.stats import gamma_row_minima

DYNAMIC_TASK = 2.75e-6  # a dynamic heuristic, per task: its mapping events at a short queue, schedule and metrics
REBUILD = 1e-8  # per task x (waiting tasks)^2 / machines: a rebuilding heuristic's queues under a backlog, at w = 1
PILE_SHARE = 0.24  # the waiting tasks stay under about this share of a trial's tasks (the rest leave, worthless)
PILE_STEEPNESS = 4.6  # how sharply the waiting tasks pile up as the load passes a heuristic's own rho_h
STATIC_TASKS = 1329.0  # the tasks of a trial at which a static search's ``evaluation`` seconds were measured
STATIC_MACHINES = 8  # and the machines
_SAMPLE_ROWS, _SAMPLE_MACHINES = 256, 256  # the load is estimated from 256 rows, drawn whole up to 256 machines


@functools.lru_cache(maxsize=64)
def load(s: ValueSpec) -> float:
    """rho = mean arrival rate x the mean over tasks of their smallest ETC / machines (256 rows of the CVB ETC drawn
    with a fixed seed; beyond 256 machines each row's smallest from its order statistic, so that the estimate never
    allocates with the machines): above about 1 the waiting tasks pile up."""
    rng = np.random.default_rng(0)
    if s.machines > _SAMPLE_MACHINES:
        smallest = gamma_row_minima(rng, _SAMPLE_ROWS, s.machines, s.task_mean, *s.covs)
    else:
        smallest = cov_based_etc(rng, _SAMPLE_ROWS, s.machines, s.task_mean, *s.covs).min(axis=1)
    return s.expected_tasks / s.duration * float(smallest.mean()) / s.machines


class QueueCost(NamedTuple):
    """What a dynamic heuristic's queues cost (see the module's text): ``weight`` w of its rebuilds, and ``pile_load``
    rho_h, the load past which its waiting tasks pile up."""

    weight: float = 1.0
    pile_load: float = 1.0


def waiting(s: ValueSpec, queues: QueueCost) -> float:
    """S, the mean number of tasks waiting under a heuristic whose queues are ``queues`` (see the module's text)."""
    return s.expected_tasks * PILE_SHARE / (1 + (queues.pile_load / max(load(s), 1e-9)) ** PILE_STEEPNESS)


def dynamic_seconds(s: ValueSpec, queues: QueueCost, per_task: float = DYNAMIC_TASK) -> float:
    """One trial of a dynamic heuristic whose queues are ``queues`` (see the module's text)."""
    n = s.expected_tasks
    return n * per_task + queues.weight * REBUILD * n * waiting(s, queues) ** 2 / s.machines


def static_seconds(s: ValueSpec, evaluation: float, schedules: float, growth: float,
                   machine_growth: float = 0.0) -> float:
    """One trial's search of a static benchmark (TPSA, GA; section 5) that may evaluate ``schedules`` schedules, each
    ``evaluation`` seconds at STATIC_TASKS tasks and STATIC_MACHINES machines, growing as (n / STATIC_TASKS)^``growth``
    and (m / STATIC_MACHINES)^``machine_growth`` (see the module's text)."""
    return evaluation * schedules * STATIC_TASKS * (s.expected_tasks / STATIC_TASKS) ** growth \
        * (s.machines / STATIC_MACHINES) ** machine_growth
