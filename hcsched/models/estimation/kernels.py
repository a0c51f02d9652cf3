"""Alg. 2 of Page, Keane and Naughton (section 3.2) for the monotone costs FA, FE and FZ (eqs. 11, 13, 14) at the cost
of the decision, not of its rescans.

:func:`heuristics.greedy <hcsched.models.estimation.heuristics.greedy>` re-evaluates a task on every processor (O(M))
each time the processor of its best pair gets a task. When most tasks share a best processor (one whose estimates are
low for every task), every pick makes every task's best stale, and a mapping event costs O(S^2 M). Here each task
keeps its processors in a heap of the costs they had when last computed: the cost of (i, j) never falls as ST_j
grows (FA = ETC + C + ST_j; FE, FZ multiply it by a positive EW^(+-beta)), so an old cost is a lower bound, and a
task's best is found by recomputing the processors at the top of its heap that got a task since, O(log M) each. An
event costs O(S M) once (every waiting task on every processor, Alg. 2's own work) plus O(S) a pick. The pairs and
their order are those of :func:`heuristics.greedy`, ties included (the same cost function, the same keys).

:func:`knn_estimates` reads a mapping event's (S, M) estimates in one pass (no temporary (S, M) arrays).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hcsched.models.estimation import heuristics as H

MONOTONE = (H.FA, H.FE, H.FZ)


@njit(cache=True)
def _before(va, ja, vb, jb, last):
    """The order of one task's processors: the smaller cost, then the lower processor (the higher with ``last``), as
    ``heuristics._row_best`` breaks ties."""
    if va != vb:
        return va < vb
    return ja > jb if last else ja < jb


@njit(cache=True)
def _sift(v, j, seen, pos, size, last):
    """Restores one task's heap of processors below ``pos`` (its cost grew): the entry moves down a hole."""
    item_v, item_j, item_seen = v[pos], j[pos], seen[pos]
    while True:
        child = 2 * pos + 1
        if child >= size:
            break
        if child + 1 < size and _before(v[child + 1], j[child + 1], v[child], j[child], last):
            child += 1
        if not _before(v[child], j[child], item_v, item_j, last):
            break
        v[pos], j[pos], seen[pos] = v[child], j[child], seen[child]
        pos = child
    v[pos], j[pos], seen[pos] = item_v, item_j, item_seen


@njit(cache=True)
def _pair(kind, e, wb, st, i, c):
    """X(i, c) of Alg. 2 with ST_c now: FA = e + ST (eq. 11), FE and FZ = FA x EW^(+-beta) (eqs. 13, 14), the
    arithmetic of ``heuristics._cost`` (so the same ties) without its other kinds."""
    fa = e[i, c] + st[c]
    return fa if kind == H.FA else fa * wb[i, c]


@njit(cache=True)
def _current(kind, e, wb, st, i, last, version, v, j, seen, built):
    """Task i's best processor now, from its heap of processors (v, j, seen: its rows of the workspace; v starts as
    the first pass's costs), heapified on the first call; the top is recomputed while its processor got a task since
    it was computed."""
    m = st.size
    if not built[i]:  # v holds the costs of the first pass, computed at version 0 of every processor
        for c in range(m):
            j[c] = c
            seen[c] = 0
        for pos in range(m // 2 - 1, -1, -1):
            _sift(v, j, seen, pos, m, last)
        built[i] = True
    while seen[0] != version[j[0]]:
        v[0] = _pair(kind, e, wb, st, i, j[0])
        seen[0] = version[j[0]]
        _sift(v, j, seen, 0, m, last)
    return v[0], j[0]


@njit(cache=True)
def _greedy_monotone(kind, e, wb, st0, idle, stop_early, last):
    """Alg. 2 with the global minimum over all pairs (as ``heuristics._greedy``): each pick takes the best task (the
    smallest cost, then the lowest processor, then the lowest task; with ``last`` the highest task); the tasks whose
    best was on the processor just loaded find theirs again from their heaps. Stops, with ``stop_early``, once every
    processor flagged ``idle`` has a task. Returns (task, processor) in mapping order, and False (nothing mapped) if a
    pair's cost is NaN (NaN has no order: ``heuristics.greedy`` keeps its own rule for it)."""
    s, m = e.shape
    st = st0.copy()
    out = np.empty((s, 2), np.int64)
    best = np.empty(s)
    arg = np.empty(s, np.int64)
    v_ws, j_ws, seen_ws = np.empty((s, m)), np.empty((s, m), np.int32), np.empty((s, m), np.int32)
    for i in range(s):  # each task's best processor (heuristics._row_best), refusing any NaN
        best[i], arg[i] = np.inf, -1
        for c in range(m):
            v = _pair(kind, e, wb, st, i, c)
            v_ws[i, c] = v
            if v != v:
                return out[:0], False
            if v < best[i] or arg[i] < 0 or (last and v == best[i]):
                best[i], arg[i] = v, c
    left = np.arange(s)  # the tasks not yet mapped (in any order: the key names the task)
    n_left = s
    version = np.zeros(m, np.int32)
    built = np.zeros(s, np.bool_)
    waiting = 0
    for c in range(m):
        waiting += idle[c]
    served = np.zeros(m, np.bool_)
    b = -1
    for step in range(s):
        pos, a = -1, -1
        for r in range(n_left):
            i = left[r]
            if arg[i] == b:  # its best processor just got a task: find its best now
                best[i], arg[i] = _current(kind, e, wb, st, i, last, version, v_ws[i], j_ws[i], seen_ws[i], built)
            if a < 0 or best[i] < best[a] or (best[i] == best[a] and (i > a if last else (arg[i] < arg[a] or (
                    arg[i] == arg[a] and i < a)))):
                pos, a = r, i
        b = arg[a]
        n_left -= 1
        left[pos] = left[n_left]
        out[step, 0], out[step, 1] = a, b
        st[b] += e[a, b]
        version[b] += 1
        if idle[b] and not served[b]:
            served[b] = True
            waiting -= 1
        if stop_early and waiting <= 0:
            return out[:step + 1], True
    return out, True


@njit(cache=True)
def knn_estimates(knn, tasks, problem, count, T, rate, Cg, mean_et):
    """ETC, C and the predicted ET (k-NN readings) of ``tasks`` on every processor, (S, M) each, in one pass: the
    stored k-NN estimates where U_j of the task's problem holds observations, else T/P_j (eq. 6), Gamma of c and the
    problem's mean ET, which is also the predicted ET where U_j holds only round-robin returns (NaN: no error to
    predict from; issue 22) (``EstimatorState.estimates``, the same arithmetic)."""
    s, m = tasks.size, rate.size
    etc, comm, err = np.empty((s, m)), np.empty((s, m)), np.empty((s, m))
    for r in range(s):
        i, p = tasks[r], problem[r]
        for j in range(m):
            if count[p, j] > 0:
                etc[r, j], comm[r, j], err[r, j] = knn[0, i, j], knn[1, i, j], knn[2, i, j]
                if err[r, j] != err[r, j]:
                    err[r, j] = mean_et[r]
            else:
                etc[r, j], comm[r, j], err[r, j] = T[p] / rate[j], Cg[p], mean_et[r]
    return etc, comm, err


def greedy(kind: int, e: np.ndarray, ew: np.ndarray, st0: np.ndarray, beta: float = 1.0, once: bool = True,
           idle: np.ndarray | None = None, stop_early: bool = False, ties: str = "lowest") -> np.ndarray:
    """:func:`heuristics.greedy` (same arguments, same result): FA, FE and FZ here, the other kinds (and costs with a
    NaN, which have no order) there."""
    e = np.asarray(e, float)
    if kind in MONOTONE:
        # FA ignores EW: e stands in for its unused weights (no S x M array of ones)
        wb = e if kind == H.FA else np.asarray(ew, float) ** (-beta if kind == H.FZ else beta)
        idle_ = np.ones(e.shape[1], np.bool_) if idle is None else np.asarray(idle, np.bool_)
        out, ok = _greedy_monotone(kind, e, wb, np.asarray(st0, float), idle_, bool(stop_early), ties == "last")
        if ok:
            return out
    return H.greedy(kind, e, ew, st0, beta, once, idle, stop_early, ties)


def warm_up() -> None:
    e = np.ones((2, 2))
    for kind in MONOTONE:
        greedy(kind, e, e, np.zeros(2), 1.0, True, np.ones(2, np.bool_), True)
    knn_estimates(np.ones((3, 2, 2)), np.arange(2), np.zeros(2, np.int64), np.ones((1, 2), np.int64), np.ones(1),
                  np.ones(2), np.ones(1), np.ones(2))
