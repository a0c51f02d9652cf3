"""Batch-mode heuristics of Maheswaran et al. (1999), section 3.3, as numba kernels.

A mapping event gives a :class:`MetaTask` (the S tasks to map: their S x m
expected times ``E``, aging factors ``zeta`` (1 without aging), which are
still unmapped, and each one's best machine and completion so far) and
``ready`` (m expected ready times, modified in place as tasks are
assigned). A heuristic is
run in *steps*: Min-min and Max-min assign one task per step (one iteration of
the do-loop of Fig. 1); Sufferage assigns up to m tasks per step (one execution
of the for-statement of Fig. 2); LP_SEARCH (:mod:`.search`) maps the whole meta-task when the event starts and
hands out one task per machine per step. Running the steps to the end gives the full
mapping; the engine runs them lazily, only as far as machines need their next
task, which yields exactly the same assignments.

Ties: lowest task index (the meta-task is in arrival order), then lowest
machine index.

A batch rule behind the plug-in interface (:mod:`.plugin`, kind ``RULE``) maps the whole meta-task at once:
``rule(E, zeta, ready, now, params, state, out_task, out_machine) -> count`` writes its assignments in the order it
makes them (:data:`RULE_SIGNATURE`). The papers' rules keep their step kernels (above), which the engine runs lazily.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, types

from hcsched.kernels import best_machine

MIN_MIN, MAX_MIN, SUFFERAGE, LP_SEARCH, RULE = range(5)

# rule(E, zeta, ready, now, params, state, out_task, out_machine) -> count: a batch rule's decision (:mod:`.plugin`)
RULE_SIGNATURE = types.int64(types.float64[:, ::1], types.float64[::1], types.float64[::1], types.float64,
                             types.float64[::1], types.float64[::1], types.int64[::1], types.int64[::1])
RULE_TYPE = types.FunctionType(RULE_SIGNATURE)  # the rule as an argument of the engine's compiled loops

MetaTask = namedtuple("MetaTask", "E zeta alive best_j best_c")
MetaTask.__doc__ = """The tasks of one mapping event, row i each: ``E`` (S x m expected times), ``zeta`` (aging
factors),
``alive`` (not yet mapped), ``best_j`` / ``best_c`` (Min-min and Max-min: its earliest completion machine and time).
The arrays may be longer than S; rows are counted by ``E``."""


def meta_task(E: np.ndarray, zeta: np.ndarray | None = None) -> MetaTask:
    """A fresh meta-task of the rows of ``E``, every task unmapped (aging factors 1 unless given)."""
    n = E.shape[0]
    return MetaTask(E, np.ones(n) if zeta is None else zeta, np.ones(n, np.bool_), np.empty(n, np.int64), np.empty(n))


@njit(cache=True)
def init_best(meta, ready):
    """Lines (1)-(3) and (5) of Fig. 1: each task's earliest completion time and machine."""
    E, alive, best_j, best_c = meta.E, meta.alive, meta.best_j, meta.best_c
    for i in range(E.shape[0]):
        if alive[i]:
            best_j[i], best_c[i] = best_machine(E[i], ready)


@njit(cache=True)
def min_max_step(maximize, meta, ready):
    """One iteration of Fig. 1's do-loop (Min-min; Max-min when ``maximize``).

    Aging (section 3.3): Min-min selects on completion / zeta, Max-min on
    completion * zeta. After machine l is assigned, only tasks whose best
    machine was l can change their best (the other c_ij are unchanged and
    c_il only grew), so only those rows are recomputed.
    """
    E, zeta, alive, best_j, best_c = meta.E, meta.zeta, meta.alive, meta.best_j, meta.best_c
    k, key_k = -1, 0.0
    for i in range(E.shape[0]):
        if alive[i]:
            key = best_c[i] * zeta[i] if maximize else best_c[i] / zeta[i]
            if k < 0 or (key > key_k if maximize else key < key_k):
                k, key_k = i, key
    l = best_j[k]
    ready[l] = best_c[k]
    alive[k] = False
    for i in range(E.shape[0]):
        if alive[i] and best_j[i] == l:
            best_j[i], best_c[i] = best_machine(E[i], ready)
    return k, l


@njit(cache=True)
def sufferage_pass(meta, ready, out_task, out_machine):
    """One execution of the for-statement of Fig. 2 (lines 5-16).

    Tasks are visited in index order. A task's sufferage is its second
    earliest minus its earliest completion time (0 with one machine), times
    zeta under aging. A task tentatively takes its best machine if no task
    holds it, or displaces the holder whose sufferage is strictly smaller; a
    displaced task waits for the next pass. Ready times are updated only
    after the pass (line 15). Returns the number of assignments written to
    ``out_task``/``out_machine``, in machine order.
    """
    E, zeta, alive = meta.E, meta.zeta, meta.alive
    m = E.shape[1]
    holder = np.full(m, -1)
    held = np.zeros(m)
    for k in range(E.shape[0]):
        if not alive[k]:
            continue
        j1, c1 = best_machine(E[k], ready)
        c2 = np.inf
        for j in range(m):
            if j != j1:
                c2 = min(c2, ready[j] + E[k, j])
        suff = (c2 - c1) * zeta[k] if m > 1 else 0.0
        if holder[j1] < 0 or held[j1] < suff:
            holder[j1], held[j1] = k, suff
    return assign_holders(meta, ready, holder, out_task, out_machine)


@njit(cache=True)
def assign_holders(meta, ready, holder, out_task, out_machine):
    """Give each machine j, in index order, its task ``holder[j]`` (-1: none): its ready time grows by the task's
    time, the task is mapped, and the pair is written to ``out_task``/``out_machine``. Returns how many."""
    count = 0
    for j in range(holder.size):
        k = holder[j]
        if k >= 0:
            ready[j] += meta.E[k, j]
            meta.alive[k] = False
            out_task[count], out_machine[count] = k, j
            count += 1
    return count


@njit(cache=True)
def hand_out(meta, ready, out_task, out_machine):
    """LP_SEARCH's step: its mapping is in ``best_j`` (written by the search when the event starts); each machine, in
    index order, gets its lowest-index unmapped task. Returns the number of assignments written."""
    E, alive, best_j = meta.E, meta.alive, meta.best_j
    m = E.shape[1]
    first = np.full(m, -1)
    for i in range(E.shape[0]):
        if alive[i] and first[best_j[i]] < 0:
            first[best_j[i]] = i
    return assign_holders(meta, ready, first, out_task, out_machine)


@njit(cache=True)
def start_mapping(kind, meta, ready):
    """Prepare the per-event state of heuristic ``kind`` (LP_SEARCH's is the search's mapping, written by the
    engine); an unknown kind raises ValueError."""
    if kind == MIN_MIN or kind == MAX_MIN:
        init_best(meta, ready)
    elif kind != SUFFERAGE and kind != LP_SEARCH:
        raise ValueError("unknown heuristic kind")


@njit(cache=True)
def step(kind, meta, ready, out_task, out_machine):
    """Run one step of heuristic ``kind``; returns how many assignments it wrote. An unknown kind raises
    ValueError."""
    if kind == SUFFERAGE:
        return sufferage_pass(meta, ready, out_task, out_machine)
    if kind == LP_SEARCH:
        return hand_out(meta, ready, out_task, out_machine)
    if kind == MIN_MIN or kind == MAX_MIN:
        out_task[0], out_machine[0] = min_max_step(kind == MAX_MIN, meta, ready)
        return 1
    raise ValueError("unknown heuristic kind")


@njit(RULE_SIGNATURE, cache=True)
def no_rule(E, zeta, ready, now, params, state, out_task, out_machine):
    """The rule argument of a step kernel's run (never called)."""
    return 0


@njit(cache=True)
def min_max_order(maximize, E, zeta, ready, out_task, out_machine):
    """Min-min's (Max-min's, when ``maximize``) whole mapping of the meta-task ``E`` from ``ready`` (modified), its
    assignments in the order made, as a batch rule writes them. Returns how many (the rows of ``E``)."""
    S = E.shape[0]
    meta = MetaTask(E, zeta, np.ones(S, np.bool_), np.empty(S, np.int64), np.empty(S))
    init_best(meta, ready)
    for g in range(S):
        out_task[g], out_machine[g] = min_max_step(maximize, meta, ready)
    return S
