"""Max-Min and Min-Min of Kim et al. (2007), section 4.3, with step 7's rebuild of every queue by priority and
deadlines, as numba kernels of one mapping event; the kernel contract is :mod:`.shared`'s.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hcsched.models.value.shared import mct


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


@njit(cache=True)
def max_min(fp, rows, now, end, mat, out_t, out_m):
    """Max-Min (section 4.3), :func:`max_min_min`; ``fp`` = [step 7 on]."""
    return max_min_min(True, fp[0] != 0.0, rows, mat, out_t, out_m)


@njit(cache=True)
def min_min(fp, rows, now, end, mat, out_t, out_m):
    """Min-Min (section 4.3), :func:`max_min_min`; ``fp`` = [step 7 on]."""
    return max_min_min(False, fp[0] != 0.0, rows, mat, out_t, out_m)


def pack_step7(params: dict, spec, w) -> np.ndarray:
    """Max-Min's and Min-Min's ``fp``: [step7 on]."""
    return np.array([params["step7"] == "on"], float)
