"""Discrete-event engine for independent, non-preemptive tasks on dedicated machines.

Model of Maheswaran et al. (1999), section 3.1. Each machine runs the tasks
assigned to it one at a time, in the order they were assigned. A task's actual
execution time on each machine is drawn before the run, so it does not depend on
the mapping. Mappers see *expected* ready times: a machine's running task ends
at its start plus its ETC, but never before now (section 3.1); tasks waiting
in its queue add their ETC.

Simultaneous events are taken in the order: completions, arrivals, mapping
event. The loops are numba kernels, compiled once for explicit signatures: an immediate loop takes its rule as a
first-class function (:data:`.immediate.RULE_TYPE`: the papers' rules and a user's numba rule alike), and a batch
loop takes the integer ``kind`` of a step kernel of :mod:`.batch` or ``RULE`` with a batch rule
(:data:`.batch.RULE_TYPE`), so the engine knows nothing about any particular rule. A user's plain Python rule runs
the same loops' ``.py_func`` (:mod:`.plugin`). Each loop seeds the random generator (numba's in compiled code,
numpy's global one in ``.py_func``) from the trial's ``seed`` first, for rules that draw random numbers.
"""

from __future__ import annotations

import math
import warnings
from collections import namedtuple

import numpy as np
from numba import njit, objmode, typeof, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from hcsched.models.etc import batch, immediate, search

# the loops take their rule as a first-class function, which numba 0.68 still calls experimental: said once, here
warnings.filterwarnings("ignore", "First-class function type", NumbaExperimentalFeatureWarning)

INTERVAL, COUNT = 0, 1
STATE_SIZE = 16  # a rule's own state (:mod:`.plugin`): zeros at the start of a trial, kept from call to call

BatchPlan = namedtuple("BatchPlan", "strategy interval kappa sigma iterations seed", defaults=(0, 0))
BatchPlan.__doc__ = """When a batch heuristic maps (section 3.3): ``strategy`` INTERVAL or COUNT, ``interval``
seconds, ``kappa``
tasks, and ``sigma`` of the aging factor (0: no aging); LP_SEARCH's ``iterations`` and ``seed`` (:mod:`.search`; 0
for the others). A batch heuristic's parameters packed for :func:`run_batch`."""

_F, _I = types.float64, types.int64
_PLAN = typeof(BatchPlan(INTERVAL, 1.0, 1, 0.0, 0, 0))
_IMMEDIATE = types.Tuple((_I[::1], _F[::1], _F[::1]))(_I, immediate.RULE_TYPE, _F[::1], _F[::1], _F[:, ::1],
                                                       _F[:, ::1], _I)
_STATIC = types.Tuple((_I[::1], _F[::1], _F[::1]))(_I, immediate.RULE_TYPE, _F[::1], _F[:, ::1], _F[::1], _I)
_BATCH = types.Tuple((_I[::1], _F[::1], _F[::1], _I, _I))(_I, batch.RULE_TYPE, _PLAN, _F[::1], _F[::1], _F[:, ::1],
                                                          _F[:, ::1], _I)
_BATCH_STATIC = types.Tuple((_I[::1], _F[::1], _F[::1], _I[::1]))(_I, batch.RULE_TYPE, _F[::1], _F[::1], _F[:, ::1],
                                                                  _F[::1], _I, _I, _I)


@njit(cache=True)
def seed_rules(seed):
    """Seed the random generator that rules draw from (numba's in compiled code; numpy's in ``.py_func``)."""
    np.random.seed(seed)


@njit(cache=True)
def check_machine(j, m):
    """A rule's machine: an index of the m machines, else ValueError."""
    if j < 0 or j >= m:
        raise ValueError("the rule returned a machine index out of range")


@njit(cache=True)
def check_assignments(count, size, m, out_task, out_machine, seen):
    """A batch rule's ``count`` assignments: every task of the meta-task of ``size`` once, each to one of the m
    machines (``seen``: a scratch array of at least ``size`` booleans), else ValueError."""
    if count != size:
        raise ValueError("the rule did not assign every task of the meta-task exactly once (its count is not the "
                         "meta-task's size)")
    seen[:size] = False
    for g in range(count):
        s = out_task[g]
        if s < 0 or s >= size:
            raise ValueError("the rule returned a task index out of range")
        if seen[s]:
            raise ValueError("the rule assigned a task twice")
        seen[s] = True
        check_machine(out_machine[g], m)


@njit(_IMMEDIATE, cache=True)
def run_immediate(kind, rule, params, arrival, etc, actual, seed):
    """Immediate mode: each task is mapped once, at its arrival (section 3.2), to the machine the paper's rule
    ``kind`` chooses (:mod:`.immediate`, inline) or, with ``kind`` RULE, ``rule(e, ready, now, params, state)``
    (:data:`.immediate.RULE_SIGNATURE`); an unknown kind raises ValueError.

    Returns (machine, start, finish) per task. Tasks must be sorted by arrival.
    """
    seed_rules(seed)
    n, m = etc.shape
    machine = np.empty(n, np.int64)
    start = np.empty(n)
    finish = np.empty(n)
    head = np.full(m, -1)  # the task running on the machine, -1 if idle
    tail = np.full(m, -1)  # the last task in the machine's queue
    nxt = np.full(n, -1)  # the task queued after this one on its machine
    waiting = np.zeros(m)  # sum of ETC of the tasks queued behind the running one
    # The running task's finish and expected end (start + ETC), per machine: the scan over the machines at each
    # arrival reads these m values, not rows of the n x m matrices (which leave the cache on large systems).
    head_finish = np.full(m, np.inf)
    head_end = np.zeros(m)
    ready = np.empty(m)
    state = np.zeros(STATE_SIZE)
    for i in range(n):
        now = arrival[i]
        for j in range(m):
            if head_finish[j] <= now:
                h = head[j]
                while h >= 0 and finish[h] <= now:
                    h = nxt[h]
                    if h >= 0:
                        waiting[j] -= etc[h, j]
                head[j] = h
                if h >= 0:
                    head_finish[j], head_end[j] = finish[h], start[h] + etc[h, j]
                    if h == tail[j]:
                        waiting[j] = 0.0  # no rounding residue once the queue is empty
                else:
                    head_finish[j] = np.inf
                    waiting[j] = 0.0
            ready[j] = now if head[j] < 0 else max(now, head_end[j]) + waiting[j]
        e = etc[i]
        # MCT, the common case, without the dispatch: numba does not inline choose(), and the call costs 2x here.
        if kind == immediate.MCT:
            j = immediate.best_machine(e, ready)[0]
        elif kind == immediate.RULE:
            j = rule(e, ready, now, params, state)
            check_machine(j, m)
        else:
            j = immediate.choose(kind, e, ready, state, params)
        machine[i] = j
        if head[j] < 0:
            start[i] = now
            head[j] = i
        else:
            start[i] = finish[tail[j]]
            nxt[tail[j]] = i
            waiting[j] += etc[i, j]
        tail[j] = i
        finish[i] = start[i] + actual[i, j]
        if head[j] == i:
            head_finish[j], head_end[j] = finish[i], now + etc[i, j]
    return machine, start, finish


@njit(cache=True)
def _next_grid(t, interval, last):
    """The first mapping time of the regular-interval grid at or after t, after ``last``."""
    tau = math.ceil(t / interval) * interval
    if tau <= last:
        tau = last + interval
    return tau


CompletionHeap = namedtuple("CompletionHeap", "time machine size")
CompletionHeap.__doc__ = """The running tasks' finish times and machines as a binary min-heap on (time, machine),
``size[0]`` entries:
the next completion in O(log m) instead of a scan of every machine; equal times go to the lowest machine."""


@njit(cache=True)
def _before(h, a, b):
    return h.time[a] < h.time[b] or (h.time[a] == h.time[b] and h.machine[a] < h.machine[b])


@njit(cache=True)
def _swap(h, a, b):
    h.time[a], h.time[b] = h.time[b], h.time[a]
    h.machine[a], h.machine[b] = h.machine[b], h.machine[a]


@njit(cache=True)
def heap_first(h):
    """(time, machine) of the next completion; (inf, -1) when no task runs."""
    return (h.time[0], h.machine[0]) if h.size[0] > 0 else (np.inf, -1)


@njit(cache=True)
def heap_push(h, t, j):
    k = h.size[0]
    h.time[k], h.machine[k] = t, j
    h.size[0] = k + 1
    while k > 0 and _before(h, k, (k - 1) // 2):
        _swap(h, k, (k - 1) // 2)
        k = (k - 1) // 2


@njit(cache=True)
def heap_pop(h):
    """Remove the first entry."""
    n = h.size[0] - 1
    h.size[0] = n
    _swap(h, 0, n)
    k = 0
    while True:
        c = 2 * k + 1
        if c >= n:
            break
        if c + 1 < n and _before(h, c + 1, c):
            c += 1
        if not _before(h, c, k):
            break
        _swap(h, k, c)
        k = c


@njit(cache=True)
def unstarted_tasks(meta, size, start, mapped, arrived):
    """Every arrived task that has not started, in arrival order (section 3.1), written over ``meta``: the
    unstarted ones of the previous meta-task (its first ``size`` entries), then those of the tasks
    ``mapped``..``arrived``-1 that arrived since. Returns its size; O(that size), not O(the tasks so far)."""
    count = 0
    for s in range(size):
        i = meta[s]
        if np.isnan(start[i]):
            meta[count] = i
            count += 1
    for i in range(mapped, arrived):
        if np.isnan(start[i]):
            meta[count] = i
            count += 1
    return count


@njit(cache=True)
def lp_search(E, ready, best_j, iterations, seed):
    """LP_SEARCH's mapping of the meta-task ``E`` into ``best_j``, through object mode: the search's kernels are
    compiled on their own, when it is first used, and not into every batch heuristic's."""
    with objmode(a="int64[:]"):
        a = search.map_rows(E, ready, iterations, seed)
    best_j[:E.shape[0]] = a


@njit(_BATCH, cache=True)
def run_batch(kind, rule, plan, params, arrival, etc, actual, seed):
    """Batch mode with remapping of every arrived task that has not started (section 3.1), by the step kernel
    ``kind`` of :mod:`.batch`, or with ``kind`` RULE by ``rule(E, zeta, ready, now, params, state, out_task,
    out_machine)`` (:data:`.batch.RULE_SIGNATURE`), which maps each meta-task whole; an unknown kind raises ValueError.

    Mapping events (section 3.3, ``plan``): ``strategy`` INTERVAL maps at multiples of
    ``interval`` (a grid starting at 0; a task arriving exactly at a grid
    point is included), skipping redundant events (no arrival and no
    completion since the last one); COUNT maps when (a) an arrival makes the
    number of arrived, unstarted tasks at least ``kappa``, or (b) all tasks
    have arrived and a task completes while at least ``kappa`` have yet to
    begin. Under COUNT the last arrival also triggers an event, so that a
    final batch smaller than kappa is mapped (the paper leaves this case open).

    Aging (section 3.3) with ``sigma`` > 0: a task's age is 0 at its first
    mapping and grows by one at each remapping; zeta = 1 + age / sigma.

    Returns (machine, start, finish, number of mapping events, decision work): the work is the sum over the
    heuristic's steps run (iterations of Fig. 1, passes of Fig. 2) of the unmapped tasks; times m, the task-machine
    pairs its definition compares (the engine itself updates only what changed); a rule's, the tasks it mapped.
    """
    if kind < batch.MIN_MIN or kind > batch.RULE:
        raise ValueError("unknown heuristic kind")
    seed_rules(seed)
    strategy, interval, kappa, sigma = plan.strategy, plan.interval, plan.kappa, plan.sigma
    n, m = etc.shape
    machine = np.full(n, -1)
    start = np.full(n, np.nan)
    finish = np.full(n, np.nan)
    age = np.full(n, -1)
    running = np.full(m, -1)
    ends = CompletionHeap(np.empty(m), np.empty(m, np.int64), np.zeros(1, np.int64))  # the running tasks' finishes
    run_exp = np.empty(m)  # the expected end (start + ETC) of each machine's running task
    ready = np.empty(m)
    # The current mapping event's meta-task: its first S entries (buffers of n, reused from event to event; E grows
    # by doubling), so that an event costs its meta-task, not the tasks so far.
    S = 0
    meta = np.empty(n, np.int64)
    E_rows = np.empty((min(n, 64), m))
    zeta = np.ones(n)
    alive = np.zeros(n, np.bool_)
    best_j = np.empty(n, np.int64)
    best_c = np.empty(n)
    meta_task = batch.MetaTask(E_rows[:0], zeta, alive, best_j, best_c)
    out_task = np.empty(m, np.int64)
    out_machine = np.empty(m, np.int64)
    state = np.zeros(STATE_SIZE)
    rule_task = np.empty(n if kind == batch.RULE else 0, np.int64)  # a rule's assignments, in its order
    rule_machine = np.empty(n if kind == batch.RULE else 0, np.int64)
    seen = np.zeros(n if kind == batch.RULE else 0, np.bool_)
    left = 0  # tasks of the current meta-task not yet assigned by the heuristic
    qhead = np.full(m, -1)  # per machine, its queue of meta-task indices
    qtail = np.full(m, -1)
    qnext = np.empty(n, np.int64)

    events, work = 0, 0
    ia = 0  # tasks that have arrived
    mapped_ia = 0  # tasks that had arrived at the last mapping event
    n_started = 0
    last_map = -np.inf
    pending = np.inf  # the next non-redundant regular-interval mapping time

    while n_started < n or ends.size[0] > 0:
        t_arr = arrival[ia] if ia < n else np.inf
        t_comp, jc = heap_first(ends)
        if t_comp == np.inf and t_arr == np.inf and pending == np.inf:
            break  # unreachable for valid input; guards against an endless loop
        map_now = False
        if t_comp <= t_arr and t_comp <= pending:
            now = t_comp
            heap_pop(ends)
            running[jc] = -1
            if strategy == INTERVAL:
                if pending == np.inf:
                    pending = _next_grid(now, interval, last_map)
            elif ia == n and n - n_started >= kappa:
                map_now = True
            free = jc
        elif t_arr <= pending:
            now = t_arr
            ia += 1
            if strategy == INTERVAL:
                if pending == np.inf:
                    pending = _next_grid(now, interval, last_map)
            elif ia - n_started >= kappa or ia == n:
                map_now = True
            free = -1
        else:
            now = pending
            pending = np.inf
            map_now = True
            free = -1

        if map_now:
            last_map = now
            S = unstarted_tasks(meta, S, start, mapped_ia, ia)
            mapped_ia = ia
            if S > E_rows.shape[0]:
                E_rows = np.empty((max(S, 2 * E_rows.shape[0]), m))
            E = E_rows[:S]
            for s in range(S):
                i = meta[s]
                E[s] = etc[i]
                age[i] += 1
                zeta[s] = 1.0 + age[i] / sigma if sigma > 0.0 else 1.0
            for j in range(m):
                ready[j] = now if running[j] < 0 else max(now, run_exp[j])
            alive[:S] = True
            qhead[:] = -1
            qtail[:] = -1
            qnext[:S] = -1
            left = S
            meta_task = batch.MetaTask(E, zeta, alive, best_j, best_c)
            if S > 0 and kind == batch.RULE:
                events += 1
                work += S
                got = rule(E, zeta[:S], ready, now, params, state, rule_task, rule_machine)
                check_assignments(got, S, m, rule_task, rule_machine, seen)
                for g in range(got):
                    s, jj = rule_task[g], rule_machine[g]
                    if qhead[jj] < 0:
                        qhead[jj] = s
                    else:
                        qnext[qtail[jj]] = s
                    qtail[jj] = s
                left = 0
            elif S > 0:
                events += 1
                batch.start_mapping(kind, meta_task, ready)
                if kind == batch.LP_SEARCH:
                    lp_search(E, ready, best_j, plan.iterations, plan.seed)

        # Start queued tasks on idle machines (every machine at a mapping event, else the one just freed), running
        # the heuristic as far as needed.
        lo, hi = (0, m) if map_now else (free, free + 1) if free >= 0 else (0, 0)
        for j in range(lo, hi):
            if running[j] >= 0:
                continue
            while qhead[j] < 0 and left > 0:
                work += left
                got = batch.step(kind, meta_task, ready, out_task, out_machine)
                left -= got
                for g in range(got):
                    s, jj = out_task[g], out_machine[g]
                    if qhead[jj] < 0:
                        qhead[jj] = s
                    else:
                        qnext[qtail[jj]] = s
                    qtail[jj] = s
            s = qhead[j]
            if s >= 0:
                qhead[j] = qnext[s]
                i = meta[s]
                machine[i] = j
                start[i] = now
                finish[i] = now + actual[i, j]
                running[j] = i
                run_exp[j] = now + etc[i, j]
                heap_push(ends, finish[i], j)
                n_started += 1
    return machine, start, finish, events, work


@njit(_STATIC, cache=True)
def map_immediate_static(kind, rule, params, etc, ready, seed):
    """Map tasks that all arrive at time 0, one at a time in row order (section 3.2 example), by the paper's rule
    ``kind`` or, with ``kind`` RULE, by ``rule``.

    Returns (machine, completion, final ready times).
    """
    seed_rules(seed)
    ready = ready.copy()
    n, m = etc.shape
    machine = np.empty(n, np.int64)
    completion = np.empty(n)
    state = np.zeros(STATE_SIZE)
    for i in range(n):
        e = etc[i]
        if kind == immediate.MCT:
            j = immediate.best_machine(e, ready)[0]
        elif kind == immediate.RULE:
            j = rule(e, ready, 0.0, params, state)
            check_machine(j, m)
        else:
            j = immediate.choose(kind, e, ready, state, params)
        ready[j] += e[j]
        machine[i], completion[i] = j, ready[j]
    return machine, completion, ready


@njit(_BATCH_STATIC, cache=True)
def map_batch_static(kind, rule, params, sigma_zeta, etc, ready, iterations, search_seed, seed):
    """Map one meta-task completely (section 3.3) by the step kernel ``kind`` (LP_SEARCH with ``iterations`` and
    ``search_seed``) or, with ``kind`` RULE, by the batch ``rule``. Returns (machine, completion, ready, order)."""
    if kind < batch.MIN_MIN or kind > batch.RULE:
        raise ValueError("unknown heuristic kind")
    seed_rules(seed)
    ready = ready.copy()
    n, m = etc.shape
    meta = batch.MetaTask(etc, sigma_zeta, np.ones(n, np.bool_), np.empty(n, np.int64), np.empty(n))
    out_task = np.empty(max(n, m), np.int64)
    out_machine = np.empty(max(n, m), np.int64)
    machine = np.full(n, -1)
    completion = np.empty(n)
    order = np.empty(n, np.int64)
    if kind == batch.RULE:
        got = rule(etc, sigma_zeta, ready.copy(), 0.0, params, np.zeros(STATE_SIZE), out_task, out_machine)
        check_assignments(got, n, m, out_task, out_machine, np.zeros(n, np.bool_))
        for g in range(got):
            i, j = out_task[g], out_machine[g]
            ready[j] += etc[i, j]
            machine[i], completion[i] = j, ready[j]
            order[g] = i
        return machine, completion, ready, order
    batch.start_mapping(kind, meta, ready)
    if kind == batch.LP_SEARCH:
        lp_search(etc, ready, meta.best_j, iterations, search_seed)
    done = 0
    while done < n:
        got = batch.step(kind, meta, ready, out_task, out_machine)
        for g in range(got):
            i, j = out_task[g], out_machine[g]
            machine[i], completion[i] = j, ready[j]
            order[done] = i
            done += 1
    return machine, completion, ready, order


_WARM = False


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the ETC model's kernels, once per process.

    Call it before forking worker processes: a child forked while another
    thread holds numba's compiler lock would wait for it forever. LP_SEARCH's own kernels are left to
    :func:`.search.warm_up`.
    """
    global _WARM
    if _WARM:
        return
    etc = np.array([[1.0, 2.0], [2.0, 1.0], [1.0, 1.0]])
    arrival = np.array([0.0, 0.5, 1.0])
    rules = (immediate.mct_rule, immediate.met_rule, immediate.olb_rule, immediate.sa_rule, immediate.kpb_rule)
    for kind, rule in enumerate(rules):
        run_immediate(kind, rule, np.array([50.0, 90.0]), arrival, etc, etc, 0)
        map_immediate_static(kind, rule, np.array([50.0, 90.0]), etc, np.zeros(2), 0)
    for kind in range(batch.LP_SEARCH):  # LP_SEARCH runs the same kernels (its search is called in object mode)
        for strategy in (INTERVAL, COUNT):
            run_batch(kind, batch.no_rule, BatchPlan(strategy, 1.0, 2, 0.0, 2, 0), np.zeros(1), arrival, etc, etc, 0)
        map_batch_static(kind, batch.no_rule, np.zeros(1), np.ones(3), etc, np.zeros(2), 0, 0, 0)
    _WARM = True
