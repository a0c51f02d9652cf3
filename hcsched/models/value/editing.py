"""The editing heuristics of Kim et al. (2007), section 4 (Queueing Table, Switching Algorithm), as numba kernels of one
mapping event, each with the packing of its parameters.

An editing heuristic takes the queues themselves (:class:`~hcsched.models.value.event.Queues`: ``queue[j, :qlen[j]]``,
task ids, position 0 the fixed first task; ``base[j]``, when machine j's running task ends) and inserts the new task
or moves tasks, so their order persists from event to event. Every kernel takes ``(fp, state, new, now, queues,
trial)``: ``fp`` is the float vector its ``pack_*`` function makes from the heuristic's parameters (the registry
entry carries that function), ``state`` what it keeps between events, ``trial`` the trial's per-task arrays
(:class:`~hcsched.models.value.event.Trial`). It returns the machine the new task went to.
:func:`~hcsched.models.value.event.mapping_event` calls it by its kind code
(:class:`~hcsched.models.value.kinds.Kind`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hcsched.models.value.shared import mct

NEG_INF = -math.inf


@njit(cache=True)
def qt_rank(level, slow, sooner):
    """The queueing rank 1-12 of Table 1 from priority level (0 high), slow (RET > cutoff) and sooner (urgency >
    cutoff)."""
    if level == 0:
        return (1 if slow else 2) if sooner else (3 if slow else 4)
    if slow:
        return (9 if sooner else 10) if level == 1 else (11 if sooner else 12)
    if level == 1:
        return 5 if sooner else 7
    return 6 if sooner else 8


@njit(cache=True)
def _urgency(mean_e, d100, now):
    """Section 4.5: mean_j ETC(i, j) / (D100 - now), or -inf once D100 is not after now."""
    gap = d100 - now
    return mean_e / gap if gap > 0 else NEG_INF


@njit(cache=True)
def _insert(queue, qlen, j, pos, task):
    for k in range(qlen[j], pos, -1):
        queue[j, k] = queue[j, k - 1]
    queue[j, pos] = task
    qlen[j] += 1


@njit(cache=True)
def _remove(queue, qlen, j, pos):
    for k in range(pos, qlen[j] - 1):
        queue[j, k] = queue[j, k + 1]
    qlen[j] -= 1


@njit(cache=True)
def queueing_table(fp, state, new, now, queues, trial):
    """Queueing Table (section 4.5, Table 1): place the new task by rank, then move late tasks. ``fp``: see
    :func:`pack_queueing_table`; ``state[1]``, ``state[2]``: the sum of the mean ETCs of the tasks arrived so far and
    their count (RET's reference with ``ret_reference = "arrived"``).

    RET = mean ETC / ``ref_mean``; slow when RET > ``ret_cutoff``; urgency per :func:`_urgency`, sooner when >
    ``urgency_cutoff``; ranks are recomputed for every waiting task at this event (step 1). Steps (3)-(4): on each
    machine, scan its queue behind the fixed first task (never ahead of it; docs/models/value.md, "Readings of the
    paper"): with no task of the new task's rank, the position is before the first higher-numbered rank; otherwise
    before the first task of that rank that is less urgent; if none of them is less urgent, right after the last
    task of that rank (``after_rank``; otherwise the end of the queue, the other reading). Keep the machine where
    the new task's completion time at that position is smallest (the delay to tasks behind is ignored).

    Steps (5)-(8), machines in order: the first waiting task (not the fixed one) estimated to miss D100 moves to the
    front (behind the fixed task) of the machine with the smallest completion time among those other machines where
    (a) its priority is at least the highest priority waiting there (the garbled sign read as >=, as the docs page
    explains), (b) no waiting task that meets D100 there would miss it, and (c) it meets D100. At most one move per
    machine.
    """
    queue, qlen, base = queues
    etc, prio, d100, mean_e = trial.etc, trial.prio, trial.d100, trial.mean_e
    state[1] += mean_e[new]
    state[2] += 1.0
    ret_cutoff, urgency_cutoff, after_rank = fp[0], fp[1], fp[2] != 0.0
    ref_mean = fp[4] if fp[3] == 0.0 else state[1] / state[2]
    M = base.size
    slow_new = mean_e[new] / ref_mean > ret_cutoff
    u_new = _urgency(mean_e[new], d100[new], now)
    r_new = qt_rank(prio[new], slow_new, u_new > urgency_cutoff)
    best_j, best_pos, best_ct = -1, 0, math.inf
    for j in range(M):
        L = qlen[j]
        t = base[j]
        if L > 0:
            t += etc[queue[j, 0], j]
        pos, first_higher, last_same, found = L, L, -1, False
        acc = t
        pos_t, higher_t, after_same_t = t, -1.0, t
        for k in range(1, L):
            i = queue[j, k]
            u = _urgency(mean_e[i], d100[i], now)
            r = qt_rank(prio[i], mean_e[i] / ref_mean > ret_cutoff, u > urgency_cutoff)
            if r == r_new:
                if u < u_new and not found:
                    pos, pos_t, found = k, acc, True
                last_same = k
                after_same_t = acc + etc[i, j]
            elif r > r_new and first_higher == L:
                first_higher, higher_t = k, acc
            acc += etc[i, j]
        if not found:
            if last_same >= 0:
                if after_rank:
                    pos, pos_t = last_same + 1, after_same_t
                else:
                    pos, pos_t = L, acc
            elif first_higher < L:
                pos, pos_t = first_higher, higher_t
            else:
                pos, pos_t = L, acc
        ct = pos_t + etc[new, j]
        if ct < best_ct:
            best_j, best_pos, best_ct = j, pos, ct
    _insert(queue, qlen, best_j, best_pos, new)
    info = (np.empty(M, np.int64), np.empty(M), np.empty(M))  # what conditions (a) and (b) need of each queue
    for j in range(M):
        _queue_info(j, queues, trial, info)
    for k in range(M):
        L = qlen[k]
        t = base[k]
        late = -1
        for q in range(L):
            i = queue[k, q]
            t += etc[i, k]
            if q >= 1 and t > d100[i]:
                late = q
                break
        if late < 0:
            continue
        i = queue[k, late]
        target = _qt_target(i, k, queues, trial, info)
        if target >= 0:
            _remove(queue, qlen, k, late)
            _insert(queue, qlen, target, min(1, qlen[target]), i)
            _queue_info(k, queues, trial, info)
            _queue_info(target, queues, trial, info)
    return best_j


@njit(cache=True)
def _queue_info(j, queues, trial, info):
    """What step (5) of Queueing Table checks of machine j's queue, into ``info`` = (top, slack, span): the lowest
    priority level in it (the highest priority; 3 when empty), the least slack D100 - estimated start among its
    waiting tasks behind the fixed one that meet D100 (inf when none), and its estimated last completion."""
    queue, qlen, base = queues
    etc, prio, d100 = trial.etc, trial.prio, trial.d100
    top, slack = 3, math.inf
    L = qlen[j]
    t = base[j]
    front = min(1, L)
    for q in range(L):
        x = queue[j, q]
        top = min(top, prio[x])
        if q < front:
            t += etc[x, j]
            continue
        before = t + etc[x, j]  # x's estimated completion: "before" in _qt_target_ct
        if before <= d100[x]:
            slack = min(slack, d100[x] - before)
        t = before
    info[0][j], info[1][j], info[2][j] = top, slack, t


@njit(cache=True)
def _qt_target(i, k, queues, trial, info):
    """Where task i, late on machine k, moves: the other machine where its completion time at the front of the queue
    (behind the fixed task) is smallest among those where conditions (a)-(c) of section 4.5 step (5) hold; -1 if
    none (ties: lowest machine).

    ``info`` (:func:`_queue_info`) answers (a) at once, and (b) unless the delay ETC(i, j) is within a rounding
    margin of the queue's least slack: a waiting task that meets D100 misses it once delayed by ETC(i, j) exactly
    when ETC(i, j) exceeds its slack. The completion times behind i are sums in another order than the slack's, so
    near the boundary (b) is decided by the exact scan (:func:`_delays_a_met_task`), as the paper's test reads.
    (c) and the bound of the best machine so far come before (b)."""
    queue, qlen, base = queues
    etc, prio, d100 = trial.etc, trial.prio, trial.d100
    top, slack, span = info
    target, target_ct = -1, math.inf
    for j in range(base.size):
        if j == k or top[j] < prio[i]:  # (a): a waiting task of higher priority (lower level)
            continue
        t = base[j]
        front = min(1, qlen[j])
        for q in range(front):
            t += etc[queue[j, q], j]
        e = etc[i, j]
        ct = t + e
        if ct > d100[i] or not ct < target_ct:  # (c), or it would not be chosen
            continue
        margin = 1e-9 * (span[j] + e)  # far above the rounding of sums of up to millions of terms
        if e > slack[j] + margin:  # (b) fails for the task of least slack
            continue
        if e >= slack[j] - margin and _delays_a_met_task(j, front, t, ct, queue, qlen, etc, d100):
            continue
        target, target_ct = j, ct
    return target


@njit(cache=True)
def _delays_a_met_task(j, front, t, ct, queue, qlen, etc, d100):
    """Condition (b) fails: a waiting task x of machine j that meets D100 (estimated completion ``before``, from
    ``t``) would miss it behind a task that completes at ``ct`` (``after``)."""
    before, after = t, ct
    for q in range(front, qlen[j]):
        x = queue[j, q]
        before += etc[x, j]
        after += etc[x, j]
        if before <= d100[x] < after:
            return True
    return False


def pack_queueing_table(params: dict, spec, w) -> np.ndarray:
    """Queueing Table's ``fp``: [RET cutoff, urgency cutoff, placement after-rank, RET reference arrived, RET's
    denominator otherwise (the trial's mean ETC, or the scenario's task_mean)]."""
    ref = {"trial": float(w.etc.mean()) if w.etc.size else 1.0, "task-mean": spec.task_mean, "arrived": 0.0}
    return np.array([params["ret_cutoff"], params["urgency_cutoff"], params["placement"] == "after-rank",
                     params["ret_reference"] == "arrived", ref[params["ret_reference"]]], float)


@njit(cache=True)
def switching(fp, state, new, now, queues, trial):
    """Switching Algorithm (section 4.8): the load balance ratio r = min mat / max mat (``relative``: of mat - now, a
    reading explained in docs/models/value.md, since absolute times drive r toward 1 late in a run; r = 1 when every
    machine is idle) switches the mode to MET when r > ``high`` and back to MCT when r < ``low`` (MCT first;
    ``state[0]`` keeps the mode). The new task goes to the end of its machine's queue, and that queue behind the fixed
    first task is reordered by priority, then earliest D100 (then task id). ``fp`` = [low, high, relative]
    (:func:`pack_switching`)."""
    queue, qlen, base = queues
    etc, prio, d100 = trial.etc, trial.prio, trial.d100
    low, high, relative = fp[0], fp[1], fp[2] != 0.0
    M = base.size
    mat = np.empty(M)
    for j in range(M):
        t = base[j]
        for q in range(qlen[j]):
            t += etc[queue[j, q], j]
        mat[j] = t - now if relative else t
    lo, hi = mat.min(), mat.max()
    r = 1.0 if hi <= 0 else lo / hi
    if r > high:
        state[0] = 1.0
    elif r < low:
        state[0] = 0.0
    e = etc[new]
    if state[0] == 1.0:
        j = int(np.argmin(e))
    else:
        j, _ = mct(e, mat)
    L = qlen[j]
    queue[j, L] = new
    qlen[j] = L + 1
    for a in range(2, L + 1):  # insertion sort of positions 1..L (already sorted but for the new task)
        x = queue[j, a]
        b = a - 1
        while b >= 1 and _before(x, queue[j, b], prio, d100):
            queue[j, b + 1] = queue[j, b]
            b -= 1
        queue[j, b + 1] = x
    return j


@njit(cache=True)
def _before(x, y, prio, d100):
    """Switching's queue order: higher priority, then earlier D100, then lower task id."""
    if prio[x] != prio[y]:
        return prio[x] < prio[y]
    if d100[x] != d100[y]:
        return d100[x] < d100[y]
    return x < y


def pack_switching(params: dict, spec, w) -> np.ndarray:
    """Switching's ``fp``: [low, high, ratio relative]."""
    return np.array([params["low"], params["high"], params["ratio"] == "relative"], float)

