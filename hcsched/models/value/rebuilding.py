"""The rebuilding heuristics of Kim et al. (2007), section 4 (Max-Max, Max-Min, Min-Min, Percent Best, Relative Cost,
Slack Sufferage), as numba kernels of one mapping event, each with the packing of its parameters.

A rebuilding heuristic gets the mappable tasks (the new task and every waiting task except the first of each queue,
section 4.1) as :class:`Rows`: ``E`` (S x M ETCs) with their weight ``p``, level ``prio`` (0 high, 1 medium, 2 low)
and deadlines, and ``mat`` (M), each machine's available time after its fixed first task. It writes the tasks (row
numbers) in the order they are appended to the queues into ``out_t`` / ``out_m`` and returns how many; ``mat`` is
updated in place. Every kernel takes ``(fp, rows, now, end, mat, out_t, out_m)``: ``fp`` is the float vector its
``pack_*`` function makes from the heuristic's parameters (the registry entry carries that function), ``end`` the
end of the evaluation period. :func:`remap` dispatches on the kind code that stands beside each kernel.

Notation: CT(i, j) = mat(j) + ETC(i, j); the deadline factor of an estimated completion is
:func:`~hcsched.models.value.worth.deadline_factor` (never 0 here). Ties, unspecified by the paper, go to the lowest
task (row) index, then the lowest machine index (notes R1); rows are in increasing task id. Each step updates
only what changed: mat only grows, and every key a heuristic compares (fitness, completion time, slack) only gets
worse on a machine whose mat grew, so a task whose chosen machine was not assigned keeps it.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from hcsched.models.value.worth import deadline_factor

#: What :func:`remap` returns for a kind that is not a rebuilding heuristic's.
UNKNOWN = -1


class Rows(NamedTuple):
    """The mappable tasks of one event (section 4.1), in increasing task id: ETC rows (S x M), weight p, priority
    level, deadlines."""

    E: np.ndarray
    p: np.ndarray
    prio: np.ndarray
    d100: np.ndarray
    d50: np.ndarray
    d25: np.ndarray


def _no_params(params: dict, spec, w) -> np.ndarray:
    return np.zeros(1)


# --- shared pieces ----------------------------------------------------------------------------------------------
@njit(cache=True)
def mct(e, mat):
    """(machine, completion) of the minimum completion time; ties: lowest machine."""
    best, bc = 0, mat[0] + e[0]
    for j in range(1, e.size):
        c = mat[j] + e[j]
        if c < bc:
            best, bc = j, c
    return best, bc


GREEDY_MAX_MAX, GREEDY_MAX_MIN, GREEDY_MIN_MIN = 0, 1, 2


@njit(cache=True)
def _mkey(mode, e, p, m, d100, d50, d25):
    """How good a machine is for a task (larger is better): fitness p d(CT) / ETC for Max-Max (section 4.2), minus
    the completion time for Max-Min and Min-Min (section 4.3). It can only fall as the machine's mat grows."""
    if mode == GREEDY_MAX_MAX:
        return p * deadline_factor(m + e, d100, d50, d25) / e if e > 0 else math.inf
    return -(m + e)


@njit(cache=True)
def _keys(mode, e, p, mat, d100, d50, d25, keys):
    """:func:`_mkey` of every machine into ``keys``: a loop without branches (the deadline factor is chosen by
    selects), which the compiler vectorizes; scanning the keys after is about 5x faster than choosing in the same
    loop, where the deadline factor's branches, taken by chance machine after machine, are mispredicted."""
    for j in range(e.size):
        keys[j] = _mkey(mode, e[j], p, mat[j], d100, d50, d25)


@njit(cache=True)
def _best2(mode, e, p, mat, d100, d50, d25, keys):
    """(best machine, its key, the second-best key); ties: lowest machine. ``keys``: a buffer of M floats."""
    _keys(mode, e, p, mat, d100, d50, d25, keys)
    b, bv, v2 = -1, -math.inf, -math.inf
    for j in range(e.size):
        v = keys[j]
        if b < 0 or v > bv:
            if b >= 0:
                v2 = bv
            b, bv = j, v
        elif v > v2:
            v2 = v
    return b, bv, v2


@njit(cache=True)
def greedy(mode, E, p, d100, d50, d25, mat, out_t, out_m):
    """Steps (1)-(6) of Max-Max (section 4.2) or of Max-Min and Min-Min (section 4.3; ``mode``): each task's best
    machine (maximum fitness / minimum completion time); map the best pair (maximum fitness; maximum or minimum
    completion time), update that machine's mat, repeat. Ties: lowest task, then lowest machine. Used for Max-Max;
    for Max-Min and Min-Min most of a group moves at every step and :func:`max_min_min`'s plain scan is faster.

    Incremental: the tasks are grouped by their best machine. Assigning machine l changes only the keys on l (they
    fall), so only l's group is revisited; a task of it stays when its new key still beats a bound on its
    second-best key (cached; other keys only fell since), else its best machine is recomputed and it may move to
    another group. Each group knows its best task, and a tournament tree over the machines (:func:`_replay`) gives
    the best of those, so a step costs O(log M x the tasks that change group + the size of one group).
    """
    S = E.shape[0]
    bj = np.empty(S, np.int64)
    bv = np.empty(S)
    b2 = np.empty(S)
    keys = np.empty(mat.size)
    for i in range(S):
        bj[i], bv[i], b2[i] = _best2(mode, E[i], p[i], mat, d100[i], d50[i], d25[i], keys)
    return _greedy_steps(mode, E, np.arange(S), p, d100, d50, d25, mat, (bj, bv, b2), out_t, out_m)


@njit(cache=True)
def _greedy_steps(mode, E, ix, p, d100, d50, d25, mat, best, out_t, out_m):
    """:func:`greedy` from each task's best machine, its key and an upper bound on its second-best key (``best``,
    updated in place); task i's ETC row is ``E[ix[i]]``."""
    bj, bv, b2 = best
    S, M = ix.size, mat.size
    keys = np.empty(M)
    members = np.empty((M, S), np.int64)
    cnt = np.zeros(M, np.int64)
    where = np.empty(S, np.int64)
    for i in range(S):
        j = bj[i]
        members[j, cnt[j]] = i
        where[i] = cnt[j]
        cnt[j] += 1
    top = np.full(M, -1, np.int64)
    for j in range(M):
        for a in range(cnt[j]):
            i = members[j, a]
            if top[j] < 0 or _better(mode, bv[i], i, bv[top[j]], top[j]):
                top[j] = i
    P = 1
    while P < M:
        P *= 2
    tree = np.full(2 * P, -1, np.int64)
    tree[P:P + M] = top
    for n in range(P - 1, 0, -1):
        tree[n] = _winner(mode, tree[2 * n], tree[2 * n + 1], bv)
    for step in range(S):
        k = tree[1]
        l = bj[k]
        mat[l] += E[ix[k], l]
        out_t[step], out_m[step] = k, l
        last = members[l, cnt[l] - 1]  # remove k from group l
        members[l, where[k]] = last
        where[last] = where[k]
        cnt[l] -= 1
        top[l] = -1
        a = 0
        while a < cnt[l]:
            i = members[l, a]
            v = _mkey(mode, E[ix[i], l], p[i], mat[l], d100[i], d50[i], d25[i])
            if v > b2[i]:
                bv[i] = v
            else:
                bj[i], bv[i], b2[i] = _best2(mode, E[ix[i]], p[i], mat, d100[i], d50[i], d25[i], keys)
            j = bj[i]
            if j != l:  # move i to group j
                last = members[l, cnt[l] - 1]
                members[l, a] = last
                where[last] = a
                cnt[l] -= 1
                members[j, cnt[j]] = i
                where[i] = cnt[j]
                cnt[j] += 1
                if top[j] < 0 or _better(mode, bv[i], i, bv[top[j]], top[j]):
                    top[j] = i
                    _replay(mode, tree, P + j, i, bv)
                continue
            if top[l] < 0 or _better(mode, bv[i], i, bv[top[l]], top[l]):
                top[l] = i
            a += 1
        _replay(mode, tree, P + l, top[l], bv)
    return S


@njit(cache=True)
def _winner(mode, a, b, bv):
    """The task mapped first of tasks a and b (-1: none), by :func:`_better`."""
    if a < 0 or (b >= 0 and _better(mode, bv[b], b, bv[a], a)):
        return b
    return a


@njit(cache=True)
def _replay(mode, tree, n, i, bv):
    """Put task i at leaf n of the tournament tree (node 1 the root, node n's children 2n and 2n + 1) and replay the
    matches on its path to the root."""
    tree[n] = i
    n //= 2
    while n >= 1:
        tree[n] = _winner(mode, tree[2 * n], tree[2 * n + 1], bv)
        n //= 2


@njit(cache=True)
def _better(mode, v, i, w, k):
    """Whether task i (machine key v on its best machine) is mapped before task k (key w): Max-Max and Min-Min take
    the larger key (fitness; minus the completion time), Max-Min the smaller (the larger completion time); ties:
    lower task index."""
    if v == w:
        return i < k
    return v < w if mode == GREEDY_MAX_MIN else v > w


MAX_MAX = 0


@njit(cache=True)
def max_max(fp, rows, now, end, mat, out_t, out_m):
    """Max-Max (section 4.2): fitness = worth / ETC, worth = p x the deadline factor of CT (the divisor is ETC, not
    CT, as the text says); see :func:`greedy`. No parameters."""
    return greedy(GREEDY_MAX_MAX, rows.E, rows.p, rows.d100, rows.d50, rows.d25, mat, out_t, out_m)


pack_max_max = _no_params


class Carry(NamedTuple):
    """What Max-Max and Slack Sufferage keep from one mapping event to the next: ``mat`` at the start of the last
    event (NaN before the first), and for each task id there: Max-Max's best machine (-1: never computed), that
    machine's key and an upper bound on the second-best key; Slack Sufferage's deadline level (-1: never computed)
    and PS row (``ps``: tasks x machines, 0 x machines for another heuristic)."""

    mat: np.ndarray
    best: np.ndarray
    key: np.ndarray
    second: np.ndarray
    level: np.ndarray
    ps: np.ndarray


@njit(cache=True)
def new_carry(kind, tasks, machines):
    """An empty :class:`Carry` for heuristic ``kind`` on a trial of ``tasks`` tasks on ``machines`` machines."""
    rows = tasks if kind == SLACK_SUFFERAGE else 0
    return Carry(np.full(machines, np.nan), np.full(tasks, -1, np.int64), np.empty(tasks), np.empty(tasks),
                 np.full(tasks, -1, np.int64), np.empty((rows, machines)))


@njit(cache=True)
def _carried_best(mode, ids, E, p, d100, d50, d25, mat, carry, best):
    """Each mappable task's best machine, key and second-best bound (``best``) at ``mat``, from ``carry``; ``E``:
    the trial's ETC rows by task id (``ids``: the mappable tasks' ids).

    A key depends on the machine's mat only, and between two events only the machines that started a task or are
    idle (mat = now) change theirs; every waiting task but the new one was mappable at the last event. A task whose
    best machine kept its mat compares its cached best with the changed machines only (ties: lowest machine); the
    others scan every machine. The second-best bound stays an upper bound (it takes every value it does not pick),
    which is all :func:`_greedy_steps` needs. ``carry`` is then updated to this event."""
    bj, bv, b2 = best
    M = mat.size
    keys = np.empty(M)
    changed = np.empty(M, np.int64)
    moved = np.zeros(M, np.bool_)
    nc = 0
    for j in range(M):
        if mat[j] != carry.mat[j]:
            changed[nc] = j
            moved[j] = True
            nc += 1
    for a in range(ids.size):
        t = ids[a]
        c = carry.best[t]
        if c < 0 or moved[c]:
            bj[a], bv[a], b2[a] = _best2(mode, E[t], p[a], mat, d100[a], d50[a], d25[a], keys)
        else:
            b, v, v2 = c, carry.key[t], carry.second[t]
            for q in range(nc):
                j = changed[q]
                x = _mkey(mode, E[t, j], p[a], mat[j], d100[a], d50[a], d25[a])
                if x > v or (x == v and j < b):
                    v2 = max(v2, v)
                    b, v = j, x
                else:
                    v2 = max(v2, x)
            bj[a], bv[a], b2[a] = b, v, v2
        carry.best[t], carry.key[t], carry.second[t] = bj[a], bv[a], b2[a]
    carry.mat[:] = mat


@njit(cache=True)
def max_max_carried(rows, ids, etc, carry, mat, out_t, out_m):
    """:func:`max_max` with each task's best machine carried over from the last event (:func:`_carried_best`);
    ``ids``: the rows' task ids; the ETC rows are read from the trial's ``etc`` by id (``rows.E`` is not read)."""
    S = ids.size
    best = (np.empty(S, np.int64), np.empty(S), np.empty(S))
    _carried_best(GREEDY_MAX_MAX, ids, etc, rows.p, rows.d100, rows.d50, rows.d25, mat, carry, best)
    return _greedy_steps(GREEDY_MAX_MAX, etc, ids, rows.p, rows.d100, rows.d50, rows.d25, mat, best, out_t, out_m)


@njit(cache=True)
def rebuild_queue(mine, rows, l, start_mat, out):
    """Step 7 of section 4.3 on machine ``l``: ``mine`` (its rows in queue order) rewritten into ``out``.

    From the completion of the fixed first task (``start_mat``), for each priority level high, medium, low in turn:
    one pass in queue order appending the tasks that meet D100, then one for D50, then D25 (a task is appended when
    mat + ETC is at or before the deadline, and mat grows); last the tasks that meet none, high, then medium, then
    low, in queue order. The order is lexicographic (priority, then deadline met), as steps (b)-(f) say, although
    the text calls it "descending order according to their worth".
    """
    E, prio, d100, d50, d25 = rows.E, rows.prio, rows.d100, rows.d50, rows.d25
    n = mine.size
    used = np.zeros(n, np.bool_)
    t = start_mat
    w = 0
    for level in range(3):
        for dl in range(3):
            for a in range(n):
                i = mine[a]
                if used[a] or prio[i] != level:
                    continue
                d = d100[i] if dl == 0 else (d50[i] if dl == 1 else d25[i])
                if t + E[i, l] <= d:
                    t += E[i, l]
                    used[a] = True
                    out[w] = i
                    w += 1
    for level in range(3):
        for a in range(n):
            if not used[a] and prio[mine[a]] == level:
                out[w] = mine[a]
                w += 1
    return t


@njit(cache=True)
def _min_min_step(E, mat, order, head, alive):
    """The Min-Min pair: the smallest completion time over all (task, machine) pairs (ties: lowest task, then lowest
    machine), from the first living task of each ``order[j]`` (tasks by increasing ETC on machine j)."""
    S, M = E.shape
    best, best_c, best_j = -1, math.inf, -1
    for j in range(M):
        while head[j] < S and not alive[order[j, head[j]]]:
            head[j] += 1
        if head[j] < S:
            i = order[j, head[j]]
            c = mat[j] + E[i, j]
            if c < best_c or (c == best_c and i < best):
                best, best_c, best_j = i, c, j
    return best, best_j


@njit(cache=True)
def _max_min(E, mat, out_t, out_m):
    """Steps (1)-(6) of Max-Min: the pair of the largest minimum completion time first (ties: lowest task; MCT ties:
    lowest machine). After machine l is assigned, one pass recomputes the tasks whose MCT machine was l (no other
    completion time changed) and finds the next pair. The living tasks are kept compact (their ETC rows, ids, MCT
    machines and times in arrays that a removal fills from the end), so that pass reads memory in order: the queues
    of Max-Min grow longest (hundreds of tasks in low heterogeneity) and this pass is O(S) per step, O(S^2 M) per
    event."""
    S, M = E.shape
    lE = E.copy()
    lid = np.arange(S)
    lbj = np.empty(S, np.int64)
    lbc = np.empty(S)
    k = -1
    for a in range(S):
        lbj[a], lbc[a] = mct(lE[a], mat)
        if k < 0 or lbc[a] > lbc[k]:
            k = a
    n = S
    for step in range(S):
        l = lbj[k]
        mat[l] += lE[k, l]
        out_t[step], out_m[step] = lid[k], l
        n -= 1
        if k != n:  # fill k's slot from the end
            lid[k], lbj[k], lbc[k] = lid[n], lbj[n], lbc[n]
            for j in range(M):
                lE[k, j] = lE[n, j]
        k, kc, ki = -1, -math.inf, S
        for a in range(n):
            if lbj[a] == l:
                b, bc = 0, mat[0] + lE[a, 0]
                for j in range(1, M):
                    c = mat[j] + lE[a, j]
                    if c < bc:
                        b, bc = j, c
                lbj[a], lbc[a] = b, bc
            c = lbc[a]
            if c > kc or (c == kc and lid[a] < ki):
                k, kc, ki = a, c, lid[a]
    return S


@njit(cache=True)
def max_min_min(maximize, step7, rows, mat, out_t, out_m):
    """Max-Min (``maximize``) and Min-Min (section 4.3): each task's minimum completion time machine; map the pair
    of maximum (Max-Min) or minimum (Min-Min) completion time; repeat; then, with ``step7``, rebuild every queue
    (:func:`rebuild_queue`). No priority or deadline enters steps (1)-(6).

    Min-Min's pair is the smallest completion time over all pairs: each machine's tasks are sorted by ETC once per
    event (ties: lowest task first) and the pair is read from the heads of the lists (:func:`_min_min_step`).
    Max-Min keeps each task's minimum completion time and, after machine l is assigned, recomputes only the tasks
    whose best machine was l (the other completion times did not change)."""
    E = rows.E
    S, M = E.shape
    start = mat.copy()
    if maximize:
        _max_min(E, mat, out_t, out_m)
    else:
        alive = np.ones(S, np.bool_)
        order = np.empty((M, S), np.int64)
        for j in range(M):
            order[j] = np.argsort(E[:, j], kind="mergesort")
        head = np.zeros(M, np.int64)
        for step in range(S):
            k, l = _min_min_step(E, mat, order, head, alive)
            mat[l] += E[k, l]
            alive[k] = False
            out_t[step], out_m[step] = k, l
    if not step7:
        return S
    order_t = out_t[:S].copy()
    machines = out_m[:S].copy()
    w = 0
    buf = np.empty(S, np.int64)
    for l in range(M):
        mine = order_t[machines == l]
        if mine.size == 0:
            continue
        mat[l] = rebuild_queue(mine, rows, l, start[l], buf)
        for a in range(mine.size):
            out_t[w], out_m[w] = buf[a], l
            w += 1
    return S


MAX_MIN = 1


@njit(cache=True)
def max_min(fp, rows, now, end, mat, out_t, out_m):
    """Max-Min (section 4.3), :func:`max_min_min`; ``fp`` = [step 7 on]."""
    return max_min_min(True, fp[0] != 0.0, rows, mat, out_t, out_m)


MIN_MIN = 2


@njit(cache=True)
def min_min(fp, rows, now, end, mat, out_t, out_m):
    """Min-Min (section 4.3), :func:`max_min_min`; ``fp`` = [step 7 on]."""
    return max_min_min(False, fp[0] != 0.0, rows, mat, out_t, out_m)


def pack_step7(params: dict, spec, w) -> np.ndarray:
    """Max-Min's and Min-Min's ``fp``: [step7 on]."""
    return np.array([params["step7"] == "on"], float)


PERCENT_BEST = 3


@njit(cache=True)
def percent_best(fp, rows, now, end, mat, out_t, out_m):
    """Percent Best (section 4.4): the priority groups high, medium, low in turn, with ``counts[level]`` (m) of the
    machines. In a round each task of the group takes its minimum completion time machine among its m fastest (ETC;
    ties: lowest machine) and the idle ones (mat = now, notes R1); the tasks alone on their machine are mapped, and
    a machine several tasks chose goes to the earliest D100 (ties: lowest task); mat is updated and the round
    repeats until the group is mapped. A machine gets at most one task per round, appended in machine order.
    ``fp`` = m of the high, medium and low groups (:func:`pack_percent_best`)."""
    E, prio, d100 = rows.E, rows.prio, rows.d100
    S, M = E.shape
    counts = np.empty(3, np.int64)
    for g in range(3):
        counts[g] = int(fp[g])
    w = 0
    choice = np.empty(S, np.int64)
    cand = np.zeros((S, M), np.bool_)
    winner = np.empty(M, np.int64)
    taken = np.zeros(M, np.bool_)
    for level in range(3):
        members = np.flatnonzero(prio == level)
        if members.size == 0:
            continue
        m = min(M, counts[level])
        for i in members:
            order = np.argsort(E[i], kind="mergesort")
            for r in range(m):
                cand[i, order[r]] = True
            choice[i] = _pb_choice(E[i], cand[i], mat, now)
        alive = np.ones(members.size, np.bool_)
        left = members.size
        while left > 0:
            winner[:] = -1
            for a in range(members.size):
                if alive[a]:
                    i = members[a]
                    j = choice[i]
                    if winner[j] < 0 or d100[i] < d100[winner[j]]:
                        winner[j] = i
            taken[:] = False
            for j in range(M):
                i = winner[j]
                if i >= 0:
                    mat[j] += E[i, j]
                    taken[j] = True
                    out_t[w], out_m[w] = i, j
                    w += 1
            for a in range(members.size):
                if alive[a]:
                    i = members[a]
                    if winner[choice[i]] == i:
                        alive[a] = False
                        left -= 1
                    elif taken[choice[i]]:
                        choice[i] = _pb_choice(E[i], cand[i], mat, now)
    return w


@njit(cache=True)
def _pb_choice(e, cand, mat, now):
    best, bc = -1, math.inf
    for j in range(e.size):
        if cand[j] or mat[j] <= now:
            c = mat[j] + e[j]
            if c < bc:
                best, bc = j, c
    return best


def machine_count(percent: float, machines: int) -> int:
    """m of Percent Best: ``percent`` of the machines, rounded half up, at least 1 (3, 4, 8 of 8 by default)."""
    return max(1, min(machines, math.floor(machines * percent / 100.0 + 0.5)))


def pack_percent_best(params: dict, spec, w) -> np.ndarray:
    """Percent Best's ``fp``: m of the high, medium and low groups on ``spec.machines``."""
    return np.array([machine_count(params[f"percent_{g}"], spec.machines) for g in ("high", "medium", "low")], float)


RELATIVE_COST = 5


@njit(cache=True)
def relative_cost(fp, rows, now, end, mat, out_t, out_m):
    """Relative Cost (section 4.6): RC = min_j CT / mean_j CT and worth = p x d(min CT), recomputed every round.

    A round takes the tasks tied at the highest worth and their minimum completion time (MCT) machines. Without
    contention all are mapped. With contention, R1 (``single`` false): every task alone on its MCT machine is mapped
    and each contended machine goes to the lowest RC ("tasks with a unique minimum completion time machine are
    assigned"); R2 (``single``): only the lowest-RC task of the round is mapped. Ties: lowest task. ``fp`` =
    [single] (:func:`pack_contention`).
    """
    single = fp[0] != 0.0
    E, p, d100, d50, d25 = rows.E, rows.p, rows.d100, rows.d50, rows.d25
    S, M = E.shape
    alive = np.ones(S, np.bool_)
    bj = np.empty(S, np.int64)
    bc = np.empty(S)
    sum_e = np.empty(S)
    ix = np.arange(S)
    for i in range(S):
        bj[i], bc[i] = mct(E[i], mat)
        sum_e[i] = E[i].sum()
    winner = np.empty(M, np.int64)
    count = np.empty(M, np.int64)
    taken = np.zeros(M, np.bool_)
    w = 0
    while w < S:
        top = -1.0
        for i in range(S):
            if alive[i]:
                v = p[i] * deadline_factor(bc[i], d100[i], d50[i], d25[i])
                if v > top:
                    top = v
        total = mat.sum()
        winner[:] = -1
        count[:] = 0
        best_rc, first = math.inf, -1
        for i in range(S):
            if alive[i] and p[i] * deadline_factor(bc[i], d100[i], d50[i], d25[i]) == top:
                j = bj[i]
                rc = bc[i] * M / (total + sum_e[i])
                count[j] += 1
                if winner[j] < 0 or rc < bc[winner[j]] * M / (total + sum_e[winner[j]]):
                    winner[j] = i
                if rc < best_rc:
                    best_rc, first = rc, i
        w = _assign_round(single, first, (winner, count, alive, taken), E, ix, mat, out_t, out_m, w)
        for i in range(S):
            if alive[i] and taken[bj[i]]:
                bj[i], bc[i] = mct(E[i], mat)
    return S


@njit(cache=True)
def _assign_round(single, first, rnd, E, ix, mat, out_t, out_m, w):
    """Map a round's winners (one per machine, in machine order), or only ``first`` when ``single`` and some machine
    is contended; mark the machines whose mat grew in ``taken``. ``rnd`` = (winner and count per machine, alive,
    taken); task i's ETC row is ``E[ix[i]]``."""
    winner, count, alive, taken = rnd
    M = winner.size
    taken[:] = False
    contended = False
    for j in range(M):
        if count[j] > 1:
            contended = True
    for j in range(M):
        i = winner[j]
        if i < 0 or (single and contended and i != first):
            continue
        mat[j] += E[ix[i], j]
        taken[j] = True
        alive[i] = False
        out_t[w], out_m[w] = i, j
        w += 1
    return w


def pack_contention(params: dict, spec, w) -> np.ndarray:
    """Relative Cost's and Slack Sufferage's ``fp``: [contention single, end_factor (Slack Sufferage)]."""
    return np.array([params["contention"] == "single", params.get("end_factor", 0.05)], float)


@njit(cache=True)
def _deadline(level, d100, d50, d25, end, end_factor):
    """The deadline of level 0-3 (D100, D50, D25, the end of the evaluation period) and its worth factor."""
    if level == 0:
        return d100, 1.0
    if level == 1:
        return d50, 0.5
    if level == 2:
        return d25, 0.25
    return end, end_factor


@njit(cache=True, error_model="numpy")
def _ps(e, m, d):
    """PS(i, j, d) = 1 - ETC / (d - mat) where CT <= d, else -1 (section 4.7). Without branches (the quotient is
    computed and dropped where the deadline is missed; ``error_model="numpy"``: no check for a zero divisor), so that
    a loop over the machines vectorizes: about 1 ns a machine against 2.2-4.1 with the branches, which are taken by
    chance machine after machine."""
    x = 1.0 - e / (d - m)
    return x if (m + e <= d) & (d > m) else -1.0


@njit(cache=True)
def _two_best(row):
    """(best, second best machine, their PS) over a PS row; ties: lowest machine."""
    b1, b2 = -1, -1
    s1, s2 = -math.inf, -math.inf
    for j in range(row.size):
        ps = row[j]
        if ps > s1:
            b2, s2 = b1, s1
            b1, s1 = j, ps
        elif ps > s2:
            b2, s2 = j, ps
    return b1, b2, s1, s2


@njit(cache=True)
def _slack_out(out, b1, b2, s1, s2, worth, level):
    """:func:`_slack`'s ``out`` for a deadline met: criticality = best PS - second PS (-1 when there is one
    machine)."""
    out[0], out[1] = b1, b2
    out[2] = s1 - (s2 if b2 >= 0 else -1.0)
    out[3] = worth
    out[4] = s2
    out[5] = level


@njit(cache=True)
def _slack(e, p, d100, d50, d25, end, end_factor, mat, out, first, row):
    """Slack Sufferage step 2 for one task: the deadline used (D100, else D50, D25, then the end of the evaluation
    period when the task misses it on every machine), PS(i, j, d) = 1 - ETC / (d - mat) where CT <= d, else -1.
    Writes (best machine, second best machine, criticality = best PS - second PS, worth, second PS, the deadline's
    level 0-3, 4 for none) into ``out`` and the PS of every machine at the last level computed into ``row`` (M
    floats). A task that misses even ``end`` everywhere goes to its MCT machine with criticality 0 (notes R1). The
    deadlines before level ``first`` are known to be missed everywhere (mat only grows within an event, so a
    deadline missed on every machine stays missed). Each level's PS are computed in one pass (:func:`_ps`, which
    vectorizes) and then scanned for the two best (:func:`_two_best`)."""
    least = math.inf  # the least CT: a later deadline before it is met nowhere (every PS -1)
    for level in range(first, 4):
        d, factor = _deadline(level, d100, d50, d25, end, end_factor)
        if least > d and level > first:
            continue
        for j in range(e.size):
            row[j] = _ps(e[j], mat[j], d)
        b1, b2, s1, s2 = _two_best(row)
        if s1 >= 0.0:
            _slack_out(out, b1, b2, s1, s2, p * factor, level)
            return
        if least == math.inf:
            least = mct(e, mat)[1]
    j, _ = mct(e, mat)
    out[0], out[1], out[2], out[3], out[4], out[5] = j, -1, 0.0, p * end_factor, -1.0, 4


SLACK_SUFFERAGE = 6


@njit(cache=True)
def slack_sufferage(fp, rows, now, end, mat, out_t, out_m):
    """Slack Sufferage (section 4.7): each task's maximum percentage-slack machine (:func:`_slack`); the tasks tied
    at the highest worth are all mapped when their machines differ; otherwise (R1, ``single`` false) the tasks alone
    on their machine are mapped and each contended machine goes to its most critical task (largest best minus second
    best PS, Table 3 counting -1), or (R2, ``single``) only the most critical task of the round is mapped. Ties:
    lowest task.

    Incremental: a task's slack changes only if its best machine or a second-best machine with a PS of at least 0
    was assigned (other machines only lose slack, and a machine that misses the deadline keeps missing it, so a
    second best at -1 stays at -1 on the same machine); such a task is marked stale and recomputed only when it may
    be among the highest worth (a stale worth is an upper bound: as mat grows the deadline used can only move
    later), from the deadline it used (:func:`_slack`). ``fp`` = [single, end_factor] (:func:`pack_contention`).
    """
    end_factor = fp[1]
    S, M = rows.E.shape
    info = np.empty((S, 6))
    row = np.empty(M)
    for i in range(S):
        _slack(rows.E[i], rows.p[i], rows.d100[i], rows.d50[i], rows.d25[i], end, end_factor, mat, info[i], 0, row)
    return _slack_rounds(fp, rows, rows.E, np.arange(S), end, mat, info, out_t, out_m)[0]


@njit(cache=True)
def _worths(p, end_factor):
    """The worths a task can take in Slack Sufferage (p x 1, 0.5, 0.25, ``end_factor``; :func:`_deadline`), distinct
    and increasing."""
    kinds = np.unique(p)  # the distinct weights (one per priority level in the model's workloads)
    n = kinds.size
    v = np.empty(4 * n)
    for k in range(n):
        for level in range(4):
            v[4 * k + level] = kinds[k] * _deadline(level, 0.0, 0.0, 0.0, 0.0, end_factor)[1]
    return np.unique(v)


@njit(cache=True)
def _bucket(worths, v):
    """The list of worth v (one of ``worths``, increasing): 0 for the highest worth."""
    return worths.size - 1 - np.searchsorted(worths, v)


@njit(cache=True)
def _link(lists, i, k):
    """Put task i at the head of bucket k's list (``lists`` = heads per bucket, next and previous per task)."""
    head, nxt, prv = lists
    nxt[i], prv[i] = head[k], -1
    if head[k] >= 0:
        prv[head[k]] = i
    head[k] = i


@njit(cache=True)
def _unlink(lists, i, k):
    """Take task i out of bucket k's list."""
    head, nxt, prv = lists
    if prv[i] >= 0:
        nxt[prv[i]] = nxt[i]
    else:
        head[k] = nxt[i]
    if nxt[i] >= 0:
        prv[nxt[i]] = prv[i]


@njit(cache=True)
def _slack_rounds(fp, rows, E, ix, end, mat, info, out_t, out_m):
    """:func:`slack_sufferage`'s rounds from each task's :func:`_slack` ``info`` (task i's ETC row: ``E[ix[i]]``);
    returns (S, the number of recomputations).

    The tasks are kept in one list per worth (:func:`_worths`; :func:`_bucket` numbers them from the highest), so a
    round visits only the tasks at the highest worth: the stale ones among them are recomputed (and move to the list
    of their new, lower worth) until the highest non-empty list holds none. A task is stale when its best machine,
    or its second best with a PS of at least 0, was assigned in a round since the one it was computed in
    (``stamp``: that round; ``last``: each machine's last round assigned)."""
    single, end_factor = fp[0] != 0.0, fp[1]
    p, d100, d50, d25 = rows.p, rows.d100, rows.d50, rows.d25
    S, M = ix.size, mat.size
    worths = _worths(p, end_factor)
    lists = (np.full(worths.size, -1, np.int64), np.empty(S, np.int64), np.empty(S, np.int64))
    head = lists[0]
    for i in range(S - 1, -1, -1):
        _link(lists, i, _bucket(worths, info[i, 3]))
    alive = np.ones(S, np.bool_)
    stamp = np.zeros(S, np.int64)
    last = np.full(M, -1, np.int64)
    row = np.empty(M)
    recomputed = 0
    winner = np.empty(M, np.int64)
    count = np.empty(M, np.int64)
    taken = np.zeros(M, np.bool_)
    w = 0
    k = 0
    r = 0
    while w < S:
        while True:  # refresh the highest worth's stale tasks until it has none
            while head[k] < 0:
                k += 1
            i = head[k]
            while i >= 0:
                after = lists[1][i]
                if last[int(info[i, 0])] >= stamp[i] or (info[i, 4] >= 0.0 and last[int(info[i, 1])] >= stamp[i]):
                    _slack(E[ix[i]], p[i], d100[i], d50[i], d25[i], end, end_factor, mat, info[i], int(info[i, 5]), row)
                    stamp[i] = r
                    recomputed += 1
                    b = _bucket(worths, info[i, 3])
                    if b != k:
                        _unlink(lists, i, k)
                        _link(lists, i, b)
                i = after
            if head[k] >= 0:
                break
        winner[:] = -1
        count[:] = 0
        first = -1
        i = head[k]
        while i >= 0:
            j = int(info[i, 0])
            count[j] += 1
            if winner[j] < 0 or _more_critical(info, i, winner[j]):
                winner[j] = i
            if first < 0 or _more_critical(info, i, first):
                first = i
            i = lists[1][i]
        w = _assign_round(single, first, (winner, count, alive, taken), E, ix, mat, out_t, out_m, w)
        for j in range(M):
            if taken[j]:
                last[j] = r
                _unlink(lists, winner[j], k)
        r += 1
    return S, recomputed


@njit(cache=True)
def _more_critical(info, i, k):
    """Whether task i wins a machine over task k of the same worth: larger criticality; ties: lower task."""
    return info[i, 2] > info[k, 2] or (info[i, 2] == info[k, 2] and i < k)


@njit(cache=True)
def _carried_slack(e, p, d100, d50, d25, end, end_factor, mat, out, row, level, changed):
    """:func:`_slack` from scratch (``first`` = 0) for a task whose ``row`` holds its PS at ``level`` (-1: none) at
    the last event's start, where only the machines ``changed`` had another mat (higher or lower). The other
    machines keep their PS, and met no earlier deadline: the deadline used is the first met by a changed machine if
    it comes before ``level`` (every other machine's PS at it is -1), else ``level`` when a machine still meets it,
    else one computed in full after it."""
    if level < 0 or level == 4:
        _slack(e, p, d100, d50, d25, end, end_factor, mat, out, 0, row)
        return
    low = level
    for q in range(changed.size):
        j = changed[q]
        for lv in range(low):
            d, _ = _deadline(lv, d100, d50, d25, end, end_factor)
            if _ps(e[j], mat[j], d) >= 0.0:
                low = lv
                break
    if low < level:
        row[:] = -1.0
    d, factor = _deadline(low, d100, d50, d25, end, end_factor)
    for q in range(changed.size):
        j = changed[q]
        row[j] = _ps(e[j], mat[j], d)
    b1, b2, s1, s2 = _two_best(row)
    if s1 >= 0.0:
        _slack_out(out, b1, b2, s1, s2, p * factor, low)
    else:
        _slack(e, p, d100, d50, d25, end, end_factor, mat, out, low + 1, row)


@njit(cache=True)
def slack_sufferage_carried(fp, rows, ids, etc, carry, end, mat, out_t, out_m):
    """:func:`slack_sufferage` with each task's deadline level and PS row at the start of the last event carried
    over (``carry.level``, ``carry.ps`` by task id; ``ids``: the rows' task ids): between two events only the
    machines that started a task or are idle change their mat, and every waiting task but the new one was mappable
    at the last event, so a task divides again only on those machines (:func:`_carried_slack`). ``carry`` is then
    updated to this event. The ETC rows are read from the trial's ``etc`` by id (``rows.E`` is not read)."""
    end_factor = fp[1]
    S, M = ids.size, mat.size
    changed = np.empty(M, np.int64)
    nc = 0
    for j in range(M):
        if mat[j] != carry.mat[j]:
            changed[nc] = j
            nc += 1
    info = np.empty((S, 6))
    for a in range(S):
        t = ids[a]
        _carried_slack(etc[t], rows.p[a], rows.d100[a], rows.d50[a], rows.d25[a], end, end_factor, mat, info[a],
                       carry.ps[t], carry.level[t], changed[:nc])
        carry.level[t] = int(info[a, 5])
    carry.mat[:] = mat
    return _slack_rounds(fp, rows, etc, ids, end, mat, info, out_t, out_m)[0]


@njit(cache=True)
def remap(kind, fp, rows, now, end, mat, out_t, out_m):
    """Run the rebuilding heuristic ``kind`` on the mappable ``rows``; returns the number of rows written to out_t /
    out_m, or UNKNOWN when ``kind`` is no rebuilding heuristic's."""
    if kind == MAX_MAX:
        return max_max(fp, rows, now, end, mat, out_t, out_m)
    if kind == MAX_MIN:
        return max_min(fp, rows, now, end, mat, out_t, out_m)
    if kind == MIN_MIN:
        return min_min(fp, rows, now, end, mat, out_t, out_m)
    if kind == PERCENT_BEST:
        return percent_best(fp, rows, now, end, mat, out_t, out_m)
    if kind == RELATIVE_COST:
        return relative_cost(fp, rows, now, end, mat, out_t, out_m)
    if kind == SLACK_SUFFERAGE:
        return slack_sufferage(fp, rows, now, end, mat, out_t, out_m)
    return UNKNOWN


@njit(cache=True)
def reads_etc_by_id(kind):
    """Whether :func:`remap_carried`'s kernel for ``kind`` reads the ETC rows from the trial's ETC by task id, so
    that the caller need not copy them into ``Rows.E``: at 16x that copy, every mappable row at every event, took
    0.3 s of each heuristic's trial (Max-Max 2.3 s, Slack Sufferage 4.9 s with it)."""
    return kind == MAX_MAX or kind == SLACK_SUFFERAGE


@njit(cache=True)
def remap_carried(kind, fp, rows, ids, etc, carry, now, end, mat, out_t, out_m):
    """:func:`remap` within a run: Max-Max and Slack Sufferage use and update the :class:`Carry` (``ids``: the rows'
    task ids; ``etc``: the trial's ETC rows by task id, for the kinds of :func:`reads_etc_by_id`)."""
    if kind == MAX_MAX:
        return max_max_carried(rows, ids, etc, carry, mat, out_t, out_m)
    if kind == SLACK_SUFFERAGE:
        return slack_sufferage_carried(fp, rows, ids, etc, carry, end, mat, out_t, out_m)
    return remap(kind, fp, rows, now, end, mat, out_t, out_m)


def percentage_slack(etc, deadline, mat) -> np.ndarray:
    """PS(i, j, d) = 1 - ETC(i, j) / (d_i - mat(j)), or -1 where the task misses d on j (section 4.7; Tables 3 and
    5). ``etc``: tasks x machines; ``deadline``: one per task; ``mat``: one per machine."""
    etc = np.asarray(etc, float)
    d = np.asarray(deadline, float)[:, None]
    mat = np.asarray(mat, float)[None, :]
    room = d - mat
    with np.errstate(divide="ignore", invalid="ignore"):
        ps = 1.0 - etc / room
    return np.where((mat + etc <= d) & (room > 0), ps, -1.0)
