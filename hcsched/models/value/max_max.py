"""Max-Max of Kim et al. (2007), section 4.2, and the greedy steps (1)-(6) it shares with Max-Min and Min-Min
(section 4.3), as numba kernels of one mapping event; the kernel contract is :mod:`.shared`'s.

The greedy steps keep each task's best machine incrementally (:func:`greedy`); within a run, Max-Max also carries
each task's best machine from one event to the next (:func:`max_max_carried`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hcsched.models.value.shared import changed_machines, no_params
from hcsched.models.value.worth import deadline_factor

#: The key :func:`greedy` compares (its ``mode``): Max-Max's fitness, or Max-Min's or Min-Min's completion time.
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
    for Max-Min and Min-Min most of a group moves at every step and
    :func:`~hcsched.models.value.min_min.max_min_min`'s plain scan is faster.

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


@njit(cache=True)
def max_max(fp, rows, now, end, mat, out_t, out_m):
    """Max-Max (section 4.2): fitness = worth / ETC, worth = p x the deadline factor of CT (the divisor is ETC, not
    CT, as the text says); see :func:`greedy`. No parameters."""
    return greedy(GREEDY_MAX_MAX, rows.E, rows.p, rows.d100, rows.d50, rows.d25, mat, out_t, out_m)


pack_max_max = no_params


@njit(cache=True)
def _carried_best(mode, ids, E, p, d100, d50, d25, mat, carry, best):
    """Each mappable task's best machine, key and second-best bound (``best``) at ``mat``, from ``carry``; ``E``:
    the trial's ETC rows by task id (``ids``: the mappable tasks' ids).

    A key depends on the machine's mat only, and between two events only some machines change theirs
    (:func:`~hcsched.models.value.shared.changed_machines`); every waiting task but the new one was mappable at the
    last event. A task whose
    best machine kept its mat compares its cached best with the changed machines only (ties: lowest machine); the
    others scan every machine. The second-best bound stays an upper bound (it takes every value it does not pick),
    which is all :func:`_greedy_steps` needs. ``carry`` is then updated to this event."""
    bj, bv, b2 = best
    M = mat.size
    keys = np.empty(M)
    changed, moved = changed_machines(mat, carry.mat)
    for a in range(ids.size):
        t = ids[a]
        c = carry.best[t]
        if c < 0 or moved[c]:
            bj[a], bv[a], b2[a] = _best2(mode, E[t], p[a], mat, d100[a], d50[a], d25[a], keys)
        else:
            b, v, v2 = c, carry.key[t], carry.second[t]
            for q in range(changed.size):
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
