"""The value of a schedule (Kim et al. 2007, section 2.2) and its upper bound (section 2.3), as numba functions.

Every function here is ``numba.njit``: the scalar ones (:func:`deadline_factor`, :func:`outcome`,
:func:`boundary_factor`) can be called from the engine's and the static heuristics' kernels, and the array ones
(:func:`outcomes`, :func:`task_values`, :func:`value`, :func:`upper_bound`) take and return numpy arrays. A task that
was never started has ``start = finish = NaN``. The value model computes V, UB and the deadline outcomes only here.

Readings (Kim et al. section 2.2; docs/models/value.md):

- A task is *never started* (deadline factor 0, section 2.2.2) when its start is NaN or at or after E: "never
  started during the time period evaluated". Such a task has b_i = 0 by case (e) anyway, so the reading changes only
  the outcome counts, never V. A task that started before B counts as started.
- The boundary factor b_i (section 2.2.3) has case (d) garbled into (b)'s condition; the only consistent reading is
  st < B and ft > E.
- A task still running at E takes its deadline factor from its finish time, which lies after E.
- UB (section 2.3) starts at B with every task that arrived by B at its full minimum ATC and ends at E: a true
  bound. ``from_zero=True`` runs it from time 0 and credits all work up to E (also a bound, looser). Running it
  from 0 and crediting only [B, E] is not a bound and is not offered.
"""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit

#: Deadline factor d_i for a task that finishes by D100, D50, D25, or later (section 2.2.2).
DEADLINE_FACTORS = (1.0, 0.5, 0.25, 0.05)
#: Deadline outcome codes, in the order of :data:`OUTCOMES`.
MET_D100, MET_D50, MET_D25, LATE, NEVER_STARTED = 0, 1, 2, 3, 4
OUTCOMES = ("met_d100", "met_d50", "met_d25", "late", "never_started")
#: Each outcome in the words a manager reads first.
OUTCOME_LABELS = {"met_d100": "by 1st deadline", "met_d50": "by 2nd deadline", "met_d25": "by 3rd deadline",
                  "late": "after 3rd deadline", "never_started": "never started"}  # the paper's D100, D50, D25
#: What each outcome earns of the task's value (Kim et al. 2007, section 2.2.2: each task has three soft deadlines;
#: its value is multiplied by the deadline factor of the first one it meets: 1 by D100, 0.5 by D50, 0.25 by D25, 0.05
#: later, 0 if it never starts during the evaluation period): the one place these words are written.
OUTCOME_EARNS = {"met_d100": "full value", "met_d50": "half value", "met_d25": "a quarter of its value",
                 "late": "5% of its value", "never_started": "no value"}
#: The tasks that arrive before B (section 6's start-up period) in the words a manager reads, the one place they are
#: written: the part metric's title, the value bars' grey end and every line that names them (a tryout could not parse
#: "tasks that arrive before ..." as a name).
EARLY_WORDS = "start-up tasks"
#: What each outcome means in plain words.
OUTCOME_MEANINGS = {
    "met_d100": f"finished by its first deadline (D100): {OUTCOME_EARNS['met_d100']}",
    "met_d50": f"finished after its first deadline, by its second (D50): {OUTCOME_EARNS['met_d50']}",
    "met_d25": f"finished after its second deadline, by its last (D25): {OUTCOME_EARNS['met_d25']}",
    "late": f"finished after its last deadline: {OUTCOME_EARNS['late']}",
    "never_started": f"never started in the evaluation window: {OUTCOME_EARNS['never_started']}"}


@njit(cache=True)
def deadline_factor(finish, d100, d50, d25):
    """d_i of section 2.2.2 from the finish time: 1 by D100, 0.5 by D50, 0.25 by D25, 0.05 later; 0 when
    ``finish`` is NaN (never started). "At or before" a deadline counts as meeting it. Written as selects, not
    branches, so that loops over machines calling it vectorize."""
    f = finish
    return 1.0 if f <= d100 else (0.5 if f <= d50 else (0.25 if f <= d25 else (0.05 if f == f else 0.0)))


@njit(cache=True)
def outcome(start, finish, d100, d50, d25, E):
    """The deadline outcome code of one task (section 2.2.2): NEVER_STARTED when ``start`` is NaN or ``start >= E``
    (not started during the evaluation period), otherwise MET_D100 / MET_D50 / MET_D25 / LATE by its finish."""
    if start != start or start >= E:
        return NEVER_STARTED
    if finish <= d100:
        return MET_D100
    if finish <= d50:
        return MET_D50
    if finish <= d25:
        return MET_D25
    return LATE


@njit(cache=True)
def outcomes(start, finish, d100, d50, d25, E):
    """:func:`outcome` of every task (int64 codes)."""
    out = np.empty(start.size, np.int64)
    for i in range(start.size):
        out[i] = outcome(start[i], finish[i], d100[i], d50[i], d25[i], E)
    return out


@njit(cache=True)
def boundary_factor(start, finish, atc, B, E):
    """b_i of section 2.2.3: the share of the task's execution inside [B, E].

    (e) ft <= B or st >= E: 0; (d) st < B and ft > E: (E - B)/ATC; (a) st < B < ft <= E: (ft - B)/ATC;
    (c) B <= st < E < ft: (E - st)/ATC; (b) B <= st and ft <= E: 1. A NaN start (never started) gives 0.
    """
    if start != start or finish <= B or start >= E:
        return 0.0
    if start < B:
        if finish > E:
            return (E - B) / atc
        return (finish - B) / atc
    if finish > E:
        return (E - start) / atc
    return 1.0


@njit(cache=True)
def task_values(start, finish, weight, d100, d50, d25, B, E):
    """p_i * d_i * b_i per task (section 2.2.3), with ATC = finish - start; 0 for a task never started."""
    n = start.size
    out = np.zeros(n)
    for i in range(n):
        if start[i] != start[i] or start[i] >= E:
            continue
        b = boundary_factor(start[i], finish[i], finish[i] - start[i], B, E)
        if b > 0.0:
            out[i] = weight[i] * deadline_factor(finish[i], d100[i], d50[i], d25[i]) * b
    return out


@njit(cache=True)
def value(start, finish, weight, d100, d50, d25, B, E):
    """V = sum_i p_i d_i b_i over all tasks of the trial, start-up tasks included (section 2.2.3)."""
    return task_values(start, finish, weight, d100, d50, d25, B, E).sum()


@njit(cache=True)
def upper_bound(arrival, weight, min_atc, machines, B, E, from_zero=False):
    """UB of section 2.3: a greedy fill of the machines' aggregate time by priority weight per unit of minimum ATC.

    Q_i = p_i / min_j ATC(i, j) and each task's remaining time rATC_i starts at min_j ATC(i, j). The time from B
    (or 0 with ``from_zero``) to E is cut at every arrival; each slice offers TACT = its length x ``machines``,
    given to the arrived tasks with rATC > 0 in decreasing Q (ties: lowest task index), crediting Q x the time used;
    those tasks wait in a heap of their rank in Q, so a slice costs what it fills, not the trial's task count.
    This is the optimum of a relaxation (a task may use several machines at once, d = 1, the fastest machine), so
    V <= UB for every schedule (section 2.3; docs/models/value.md). Tasks arriving at or after E add nothing.
    """
    n = arrival.size
    t = 0.0 if from_zero else B
    if E <= t or n == 0:
        return 0.0
    q = weight / min_atc
    by_q = np.argsort(-q, kind="mergesort")  # decreasing Q, lowest index first on ties
    rank = np.empty(n, np.int64)
    rank[by_q] = np.arange(n)
    by_arrival = np.argsort(arrival, kind="mergesort")
    remaining = min_atc.copy()
    ready = [np.int64(0)]  # the ranks of the arrived tasks with rATC > 0, a heap (the first item is a typing seed)
    heapq.heappop(ready)
    total = 0.0
    k = 0
    while t < E:
        while k < n and arrival[by_arrival[k]] <= t:
            i = by_arrival[k]
            if remaining[i] > 0.0:
                heapq.heappush(ready, rank[i])
            k += 1
        nxt = E if k >= n else min(arrival[by_arrival[k]], E)
        tact = (nxt - t) * machines
        while tact > 0.0 and ready:
            i = by_q[ready[0]]
            used = min(tact, remaining[i])
            total += q[i] * used
            remaining[i] -= used
            tact -= used
            if not remaining[i] > 0.0:
                heapq.heappop(ready)
        t = nxt
    return total
