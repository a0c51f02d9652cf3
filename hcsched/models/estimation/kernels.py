"""Alg. 2 of Page, Keane and Naughton (section 3.2) for the monotone costs FA, FE and FZ (eqs. 11, 13, 14) at the cost
of the decision, not of its rescans.

:func:`alg2.greedy <hcsched.models.estimation.alg2.greedy>` re-evaluates a task on every processor (O(M))
each time the processor of its best pair gets a task. When most tasks share a best processor (one whose estimates are
low for every task), every pick makes every task's best stale, and a mapping event costs O(S^2 M). The cost of
(i, j) never falls as ST_j grows (FA = ETC + C + ST_j; FE, FZ multiply it by a positive EW^(+-beta)), so an old cost
is a lower bound. :func:`_greedy_by_processor` scans each processor's column once for its best task and keeps the
processors in a heap of their best pairs: a pick loads one processor and takes one task away, and only the stale
entries that come to the top are scanned again (O(S) each). Where one task is the best of many processors of equal
loads, which would rescan them all at each pick, it hands over to :func:`_greedy_monotone`: each task keeps its
processors in a heap of the costs they had when last computed, and its best is found by recomputing the processors
at the top that got a task since, O(log M) each. Either way an event costs O(S M) once (every waiting task on every
processor, Alg. 2's own work) plus what the picks make stale. The pairs and their order are those of
:func:`alg2.greedy`, ties included (the same cost function, the same keys).

:class:`CarriedFA` goes further for FA, whose cost on a processor is the task's estimate plus the processor's load:
each processor keeps its waiting tasks sorted by estimate from one mapping event to the next, so an event costs
O(M) plus the processors found again as picks load them, not S x M.

:func:`knn_estimates` reads a mapping event's (S, M) estimates in one pass (no temporary (S, M) arrays).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from numba import njit

from hcsched.models.estimation import alg2 as A

MONOTONE = (A.FA, A.FE, A.FZ)


@njit(cache=True)
def _before(va, ja, vb, jb, last):
    """The order of one task's processors: the smaller cost, then the lower processor (the higher with ``last``), as
    ``alg2._row_best`` breaks ties."""
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
def _unserved(idle):
    """How many processors are flagged idle, and a flag per processor for those given a task (none yet)."""
    waiting = 0
    for c in range(idle.size):
        waiting += idle[c]
    return waiting, np.zeros(idle.size, np.bool_)


@njit(cache=True)
def _record(out, step, a, b, add, st, version, idle, served, waiting):
    """Alg. 2's pick number ``step``: task a to processor b, whose load grows by ``add``; returns how many processors
    flagged idle still have no task."""
    out[step, 0], out[step, 1] = a, b
    st[b] += add
    version[b] += 1
    if idle[b] and not served[b]:
        served[b] = True
        waiting -= 1
    return waiting


@njit(cache=True)
def _pair(kind, e, wb, st, i, c):
    """X(i, c) of Alg. 2 with ST_c now: FA = e + ST (eq. 11), FE and FZ = FA x EW^(+-beta) (eqs. 13, 14), the
    arithmetic of ``alg2._cost`` (so the same ties) without its other kinds."""
    fa = e[i, c] + st[c]
    if kind == A.FA:
        return fa
    if kind == A.FE or kind == A.FZ:
        return fa * wb[i, c]
    raise ValueError("unknown heuristic kind")


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
    """Alg. 2 with the global minimum over all pairs (as ``alg2._greedy``): each pick takes the best task (the
    smallest cost, then the lowest processor, then the lowest task; with ``last`` the highest task); the tasks whose
    best was on the processor just loaded find theirs again from their heaps. Stops, with ``stop_early``, once every
    processor flagged ``idle`` has a task. Returns (task, processor) in mapping order, and False (nothing mapped) if a
    pair's cost is NaN (NaN has no order: ``alg2.greedy`` keeps its own rule for it)."""
    s, m = e.shape
    st = st0.copy()
    out = np.empty((s, 2), np.int64)
    best = np.empty(s)
    arg = np.empty(s, np.int64)
    v_ws, j_ws, seen_ws = np.empty((s, m)), np.empty((s, m), np.int32), np.empty((s, m), np.int32)
    for i in range(s):  # each task's best processor (alg2._row_best), refusing any NaN
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
    waiting, served = _unserved(idle)
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
        waiting = _record(out, step, a, b, e[a, b], st, version, idle, served, waiting)
        if stop_early and waiting <= 0:
            return out[:step + 1], True
    return out, True


@njit(cache=True)
def _column_scan(kind, e, wb, st, j, alive, last):
    """Processor j's best waiting task now: (cost, task), the lowest task on a tie (the highest with ``last``), a
    cost NaN if any is."""
    v, a = np.inf, -1
    for i in range(e.shape[0]):
        if not alive[i]:
            continue
        x = _pair(kind, e, wb, st, i, j)
        if x != x:
            return x, i
        if a < 0 or x < v or (last and x == v):
            v, a = x, i
    return v, a


@njit(cache=True)
def _greedy_by_processor(kind, e, wb, st0, idle, stop_early, last):
    """Alg. 2 (``_greedy_monotone``'s picks, ties included) seen from the processors: each processor's best task by a
    scan of its column, the processors in a heap of their best pairs (the key orders equal costs as Alg. 2:
    the processor, or with ``last`` task x M + processor, ``_before``). A pick raises one processor's load and takes
    one task away; costs only grow within an event, so a stale entry is a lower bound, scanned again only when it
    comes to the top. Where most tasks share a best processor this does O(S) a pick instead of a heap repair for
    every task; where one task is the best of many processors of equal loads it would scan them all at each pick,
    so after scans worth two full passes it hands the remaining tasks to ``_greedy_monotone``. Returns the pairs and
    False (nothing mapped) if a cost is NaN."""
    s, m = e.shape
    st = st0.copy()
    out = np.empty((s, 2), np.int64)
    alive = np.ones(s, np.bool_)
    hv, hk, ht = np.empty(m), np.empty(m, np.int64), np.empty(m, np.int64)
    for j in range(m):
        v, a = _column_scan(kind, e, wb, st, j, alive, last)
        if v != v:
            return out[:0], False
        hv[j], hk[j], ht[j] = v, a * m + j if last else j, a
    for q in range(m // 2 - 1, -1, -1):
        _sift(hv, hk, ht, q, m, last)
    seen = np.zeros(m, np.int64)
    version = np.zeros(m, np.int64)
    waiting, served = _unserved(idle)
    budget = 8 * s * m  # pairs the scans may evaluate before the tasks' heaps take over
    for step in range(s):
        while True:
            j, a = hk[0] % m, ht[0]
            if seen[j] == version[j] and alive[a]:
                break
            budget -= s - step
            if budget < 0:
                rest = np.flatnonzero(alive)
                tail, ok = _greedy_monotone(kind, e[rest], wb[rest], st, idle & ~served, stop_early, last)
                out[step:step + tail.shape[0], 0] = rest[tail[:, 0]]
                out[step:step + tail.shape[0], 1] = tail[:, 1]
                return out[:step + tail.shape[0]], ok
            v, a = _column_scan(kind, e, wb, st, j, alive, last)
            seen[j] = version[j]
            hv[0], hk[0], ht[0] = v, a * m + j if last else j, a
            _sift(hv, hk, ht, 0, m, last)
        alive[a] = False
        waiting = _record(out, step, a, j, e[a, j], st, version, idle, served, waiting)
        if stop_early and waiting <= 0:
            return out[:step + 1], True
    return out, True


@njit(cache=True)
def _knn_fill(knn, tasks, problem, count, T, rate, Cg, mean_et, etc, comm, err, planned, with_planned):
    """:func:`knn_estimates` into the given (S, M) arrays, and with ``with_planned`` ETC + C into ``planned``."""
    s, m = tasks.size, rate.size
    for r in range(s):
        i, p = tasks[r], problem[r]
        for j in range(m):
            if count[p, j] > 0:
                etc[r, j], comm[r, j], err[r, j] = knn[0, i, j], knn[1, i, j], knn[2, i, j]
                if err[r, j] != err[r, j]:
                    err[r, j] = mean_et[r]
            else:
                etc[r, j], comm[r, j], err[r, j] = T[p] / rate[j], Cg[p], mean_et[r]
            if with_planned:
                planned[r, j] = etc[r, j] + comm[r, j]


@njit(cache=True)
def knn_estimates(knn, tasks, problem, count, T, rate, Cg, mean_et):
    """ETC, C and the predicted ET (k-NN readings) of ``tasks`` on every processor, (S, M) each, in one pass: the
    stored k-NN estimates where U_j of the task's problem holds observations, else T/P_j (eq. 6), Gamma of c and the
    problem's mean ET, which is also the predicted ET where U_j holds only round-robin returns (NaN: no error to
    predict from) (``EstimatorState.estimates``, the same arithmetic)."""
    s, m = tasks.size, rate.size
    etc, comm, err = np.empty((s, m)), np.empty((s, m)), np.empty((s, m))
    _knn_fill(knn, tasks, problem, count, T, rate, Cg, mean_et, etc, comm, err, etc, False)
    return etc, comm, err


@njit(cache=True)
def knn_planned_estimates(knn, tasks, problem, count, T, rate, Cg, mean_et):
    """:func:`knn_estimates` and the planned time ETC + C (the best case) in the same pass, (S, M) each."""
    s, m = tasks.size, rate.size
    etc, comm, err, planned = np.empty((s, m)), np.empty((s, m)), np.empty((s, m)), np.empty((s, m))
    _knn_fill(knn, tasks, problem, count, T, rate, Cg, mean_et, etc, comm, err, planned, True)
    return etc, comm, err, planned



@njit(cache=True)
def knn_pair_estimates(knn, tasks, procs, problem, count, T, rate, Cg, mean_et):
    """:func:`knn_estimates` of each task on its own processor procs[s] only, (S,) each."""
    s = tasks.size
    etc, comm, err = np.empty(s), np.empty(s), np.empty(s)
    for r in range(s):
        i, j, p = tasks[r], procs[r], problem[r]
        if count[p, j] > 0:
            etc[r], comm[r], err[r] = knn[0, i, j], knn[1, i, j], knn[2, i, j]
            if err[r] != err[r]:
                err[r] = mean_et[r]
        else:
            etc[r], comm[r], err[r] = T[p] / rate[j], Cg[p], mean_et[r]
    return etc, comm, err


@njit(cache=True)
def running_plans(plan, procs, running, problem, returns, knn, count, T, rate, Cg):
    """The planned time ETC + C (best case, k-NN method) of the task running on each processor of ``procs`` whose
    problem is known, into plan: :func:`knn_pair_estimates`' ETC and C, added."""
    for x in range(procs.size):
        j = procs[x]
        i = running[j]
        p = problem[i]
        if returns[p] > 0:
            if count[p, j] > 0:
                plan[j] = knn[0, i, j] + knn[1, i, j]
            else:
                plan[j] = T[p] / rate[j] + Cg[p]


@njit(cache=True)
def queue_heads(picked, to, first_queue, running, dealt):
    """A remapping event's pairs (task picked[r] to processor to[r], in mapping order) as the queues would take them:
    a task not queued before first waits on to[r] (into ``first_queue``) when that processor runs a task
    (``running`` >= 0), holds a task just dealt (``dealt``: the processors) or was given an earlier task of this
    event. Returns the idle processors with an empty queue given a task, ascending, and the first task of each, the
    only one it can start before the next remap."""
    m = running.size
    blocked = running >= 0
    for x in range(dealt.size):
        blocked[dealt[x]] = True
    head = np.full(m, -1, np.int64)
    for r in range(picked.size):
        i, b = picked[r], to[r]
        if first_queue[i] < 0 and (blocked[b] or head[b] >= 0):
            first_queue[i] = b
        if head[b] < 0:
            head[b] = i
    n = 0
    for j in range(m):
        n += head[j] >= 0 and not blocked[j]
    procs, heads = np.empty(n, np.int64), np.empty(n, np.int64)
    n = 0
    for j in range(m):
        if head[j] >= 0 and not blocked[j]:
            procs[n], heads[n] = j, head[j]
            n += 1
    return procs, heads


@njit(cache=True)
def relative_loads(run_plan, procs, running, problem, returns, knn, count, T, rate, Cg):
    """ST_j of eq. 12 as printed, before a mapping adds to it: the planned time of each processor's running task
    (``run_plan``, or on the processors of ``procs`` the one :func:`running_plans` reads now), 0 where none is
    finite."""
    plan = run_plan.copy()
    running_plans(plan, procs, running, problem, returns, knn, count, T, rate, Cg)
    for j in range(plan.size):
        if not np.isfinite(plan[j]):
            plan[j] = 0.0
    return plan


@njit(cache=True, error_model="numpy")
def error_weights(err, etc, comm, eps):
    """EW (eq. 10) of (S, M) estimates, :func:`.error.ew`'s arithmetic in one pass: ET C / ETC, 1/eps where that is
    infinite, at least eps (NaN becomes eps)."""
    s, m = err.shape
    out = np.empty((s, m))
    for r in range(s):
        for j in range(m):
            v = err[r, j] * comm[r, j] / etc[r, j]
            if v == np.inf:
                v = 1.0 / eps
            out[r, j] = v if v >= eps else eps
    return out



# --- FA carried from one mapping event to the next ------------------------------------------------------------------
@njit(cache=True)
def _merge_into(col_e, col_t, col_n, j, tasks, knn):
    """Adds ``tasks`` to processor j's column (its tasks sorted by e = ETC + C of the k-NN estimates). False if an
    estimate is NaN (no order)."""
    k = tasks.size
    ne = np.empty(k)
    for a in range(k):
        ne[a] = knn[0, tasks[a], j] + knn[1, tasks[a], j]
        if ne[a] != ne[a]:
            return False
    order = np.argsort(ne)
    n = col_n[j]
    w, x, y = n + k - 1, n - 1, k - 1
    while y >= 0:
        if x >= 0 and col_e[j, x] > ne[order[y]]:
            col_e[j, w], col_t[j, w] = col_e[j, x], col_t[j, x]
            x -= 1
        else:
            col_e[j, w], col_t[j, w] = ne[order[y]], tasks[order[y]]
            y -= 1
        w -= 1
    col_n[j] = n + k
    return True


@njit(cache=True)
def _add_tasks(col_e, col_t, col_n, cols, tasks, knn):
    """Adds ``tasks`` (of one problem) to each of the columns ``cols``."""
    for c in range(cols.size):
        if not _merge_into(col_e, col_t, col_n, cols[c], tasks, knn):
            return False
    return True


@njit(cache=True)
def _refresh(col_e, col_t, col_n, j, p, problem, tasks, knn):
    """Processor j's column with problem p's estimates read again: its entries of p dropped, ``tasks`` added."""
    w = 0
    for x in range(col_n[j]):
        if problem[col_t[j, x]] != p:
            col_e[j, w], col_t[j, w] = col_e[j, x], col_t[j, x]
            w += 1
    col_n[j] = w
    return _merge_into(col_e, col_t, col_n, j, tasks, knn)


@njit(cache=True)
def _compact(col_e, col_t, col_n, inset):
    """Drops the entries of tasks no longer waiting."""
    for j in range(col_n.size):
        w = 0
        for x in range(col_n[j]):
            if inset[col_t[j, x]]:
                col_e[j, w], col_t[j, w] = col_e[j, x], col_t[j, x]
                w += 1
        col_n[j] = w


@njit(cache=True)
def _column_best(j, col_e, col_t, col_n, hp, alive, ue, unobs, p_tasks, lo, hi, st, last):
    """Processor j's best waiting task now: (cost, task, e), the cost FA = e + ST_j; on equal costs the lowest task
    (the highest with ``last``); task -1 if none. Its observed part is sorted by e, so the equal costs are a run
    from its first waiting task; each problem without observations on j has one e for all its tasks."""
    v, i, e = np.inf, -1, np.inf
    h, n = hp[j], col_n[j]
    while h < n and not alive[col_t[j, h]]:
        h += 1
    hp[j] = h
    if h < n:
        e, i = col_e[j, h], col_t[j, h]
        v = e + st[j]
        for x in range(h + 1, n):
            ex = col_e[j, x]
            if ex + st[j] != v:
                break
            t = col_t[j, x]
            if alive[t] and (t > i if last else t < i):
                i, e = t, ex
    for p in range(ue.shape[0]):
        if not unobs[p, j]:
            continue
        while lo[p] < hi[p] and not alive[p_tasks[lo[p]]]:
            lo[p] += 1
        while hi[p] > lo[p] and not alive[p_tasks[hi[p] - 1]]:
            hi[p] -= 1
        if lo[p] >= hi[p]:
            continue
        cand = p_tasks[hi[p] - 1] if last else p_tasks[lo[p]]
        vu = ue[p, j] + st[j]
        if i < 0 or vu < v or (vu == v and (cand > i if last else cand < i)):
            v, i, e = vu, cand, ue[p, j]
    return v, i, e


@njit(cache=True)
def _greedy_columns(tasks, pos, alive, col_e, col_t, col_n, ue, unobs, p_tasks, p_lo, p_hi, st0, idle, stop_early,
                    last):
    """Alg. 2 with FA (``_greedy_monotone``'s picks, ties included) over processors' columns: each processor's best
    waiting task (:func:`_column_best`), the processors in a heap of their best pairs. A pick raises one processor's
    ST and takes one task away: costs only grow within an event, so a stale entry is a lower bound and is found
    again only when it comes to the top. Returns (row of the task in ``tasks``, processor) in mapping order."""
    s, m = tasks.size, st0.size
    st = st0.copy()
    out = np.empty((s, 2), np.int64)
    hp = np.zeros(m, np.int64)
    lo, hi = p_lo.copy(), p_hi.copy()
    ce = np.empty(m)
    seen = np.zeros(m, np.int64)
    version = np.zeros(m, np.int64)
    # the heap of processors: cost, key, task; the key orders equal costs as Alg. 2 does (``_before``): the
    # processor (the lower first), or with ``last`` task x M + processor (the higher first)
    hv, hk, ht = np.empty(m), np.empty(m, np.int64), np.empty(m, np.int64)
    size = 0
    for j in range(m):
        v, i, e = _column_best(j, col_e, col_t, col_n, hp, alive, ue, unobs, p_tasks, lo, hi, st, last)
        if i >= 0:
            hv[size], hk[size], ht[size] = v, i * m + j if last else j, i
            ce[j] = e
            size += 1
    for q in range(size // 2 - 1, -1, -1):
        _sift(hv, hk, ht, q, size, last)
    waiting, served = _unserved(idle)
    for step in range(s):
        while True:
            j, i = hk[0] % m, ht[0]
            if seen[j] == version[j] and alive[i]:
                break
            v, i, e = _column_best(j, col_e, col_t, col_n, hp, alive, ue, unobs, p_tasks, lo, hi, st, last)
            seen[j] = version[j]
            if i < 0:
                size -= 1
                hv[0], hk[0], ht[0] = hv[size], hk[size], ht[size]
            else:
                hv[0], hk[0], ht[0], ce[j] = v, i * m + j if last else j, i, e
            _sift(hv, hk, ht, 0, size, last)
        alive[i] = False
        waiting = _record(out, step, pos[i], j, ce[j], st, version, idle, served, waiting)
        if stop_early and waiting <= 0:
            return out[:step + 1]
    return out

class CarriedFA:
    """Alg. 2 with FA (eq. 11) at each mapping event of one run, carrying from one event to the next what did not
    change. Each processor keeps a column: the waiting tasks of the problems it has observations of,
    sorted by e = ETC + C of their k-NN estimates. Between events only the columns whose estimates a return changed
    (``column_changed``) are sorted again, new tasks are merged in, and started ones dropped now and then; a
    problem's tasks on the processors without its observations share one e (T/P_j + C, eq. 6). ST (eq. 12) is
    added when a column is read, so loads that change between events cost nothing. An event then costs O(M) to
    find each processor's best task, plus the columns found again as picks raise their loads (a heap), instead
    of every task on every processor: the same picks as :func:`greedy`, ties included, for the best case
    (e = ETC + C), k-NN estimates and remapping at every event."""

    def __init__(self, tasks: int, machines: int, last: bool):
        self.M, self.last = machines, bool(last)
        self.inset = np.zeros(tasks, np.bool_)  # the tasks in the columns
        self.col_e, self.col_t = np.empty((machines, 0)), np.empty((machines, 0), np.int64)
        self.col_n = np.zeros(machines, np.int64)
        self.changed: dict[int, set[int]] = {}  # problem -> processors whose k-NN column changed since
        self.ok = True  # False once an estimate was NaN (no order): greedy from then on

    def column_changed(self, p: int, j: int) -> None:
        """The k-NN estimates of problem p's waiting tasks on processor j changed (a return, ``observe``)."""
        self.changed.setdefault(int(p), set()).add(int(j))

    def _room(self, more: int) -> None:
        need = int(self.col_n.max(initial=0)) + more
        cap = self.col_e.shape[1]
        if need > cap:
            cap = max(need, 2 * cap, 16)
            e, t = np.empty((self.M, cap)), np.empty((self.M, cap), np.int64)
            e[:, :self.col_e.shape[1]], t[:, :self.col_t.shape[1]] = self.col_e, self.col_t
            self.col_e, self.col_t = e, t

    def _update(self, est, tasks: np.ndarray) -> bool:
        """Brings the columns to this event: drops started tasks from the set, merges in the tasks new to the
        mapping, sorts again the columns whose estimates changed."""
        waiting = np.zeros(self.inset.size, np.bool_)
        waiting[tasks] = True
        self.inset &= waiting
        problem = est.problem
        new = tasks[~self.inset[tasks]]
        observed = est.count > 0
        ok = True
        for p in np.unique(problem[new]).tolist():
            mine = new[problem[new] == p]
            self._room(mine.size)
            ok = ok and _add_tasks(self.col_e, self.col_t, self.col_n, np.flatnonzero(observed[p]), mine, est.knn)
        self.inset[new] = True
        for p, cols in self.changed.items():
            mine = tasks[problem[tasks] == p]
            self._room(mine.size)
            for j in sorted(cols):
                ok = ok and _refresh(self.col_e, self.col_t, self.col_n, j, p, problem, mine, est.knn)
        self.changed.clear()
        live = (np.bincount(problem[tasks], minlength=observed.shape[0]) * observed.sum(axis=1)).sum()
        if self.col_n.sum() > 2 * live + self.M:
            _compact(self.col_e, self.col_t, self.col_n, self.inset)
        return ok

    def map(self, est, tasks: np.ndarray, st0: np.ndarray, idle: np.ndarray, stop_early: bool) -> np.ndarray | None:
        """:func:`greedy` (FA, best case) of ``tasks`` (waiting, of known problems, ascending) with estimates from
        ``est`` (an ``EstimatorState`` of the k-NN method) and loads ``st0``: (row in ``tasks``, processor) in
        mapping order; None where it cannot tell (a NaN estimate or load): then :func:`greedy` on the whole matrix
        decides."""
        if not self.ok or not np.isfinite(st0).all():
            return None
        if not self._update(est, tasks):
            self.ok = False
            return None
        problem = est.problem[tasks]
        unobs = est.count == 0
        with np.errstate(divide="ignore"):
            ue = est.T[:, None] / est.rate[None, :] + est.Cg[:, None]  # eq. 6 and C without observations
        mine = np.unique(problem)
        if np.isnan(ue[mine][unobs[mine]]).any():
            return None
        order = np.argsort(problem, kind="stable")
        p_tasks = tasks[order]
        bounds = np.searchsorted(problem[order], np.arange(unobs.shape[0] + 1))
        pos = np.zeros(self.inset.size, np.int64)
        pos[tasks] = np.arange(tasks.size)
        alive = np.zeros(self.inset.size, np.bool_)
        alive[tasks] = True
        return _greedy_columns(tasks, pos, alive, self.col_e, self.col_t, self.col_n, ue, unobs, p_tasks,
                               bounds[:-1].copy(), bounds[1:].copy(), np.asarray(st0, float),
                               np.asarray(idle, np.bool_), bool(stop_early), self.last)

def greedy(kind: int, e: np.ndarray, ew: np.ndarray, st0: np.ndarray, beta: float = 1.0, once: bool = True,
           idle: np.ndarray | None = None, stop_early: bool = False, ties: str = "lowest") -> np.ndarray:
    """:func:`alg2.greedy` (same arguments, same result): FA, FE and FZ here, the other kinds (and costs with a
    NaN, which have no order) there."""
    e = np.asarray(e, float)
    if kind in MONOTONE:
        # FA ignores EW: e stands in for its unused weights (no S x M array of ones)
        wb = e if kind == A.FA else A.error_weight(ew, -beta if kind == A.FZ else beta)
        idle_ = np.ones(e.shape[1], np.bool_) if idle is None else np.asarray(idle, np.bool_)
        out, ok = _greedy_by_processor(kind, e, wb, np.asarray(st0, float), idle_, bool(stop_early), ties == "last")
        if ok:
            return out
    return A.greedy(kind, e, ew, st0, beta, once, idle, stop_early, ties)


def warm_up() -> None:
    e = np.ones((2, 2))
    for kind in MONOTONE:
        greedy(kind, e, e, np.zeros(2), 1.0, True, np.ones(2, np.bool_), True)
    known = SimpleNamespace(problem=np.zeros(2, np.int64), count=np.array([[1, 0]]), knn=np.ones((3, 2, 2)),
                            T=np.ones(1), rate=np.ones(2), Cg=np.ones(1))  # what CarriedFA reads of an EstimatorState
    for last in (False, True):
        carry = CarriedFA(2, 2, last)
        carry.map(known, np.arange(2), np.zeros(2), np.ones(2, np.bool_), True)
        carry.column_changed(0, 0)
        carry.map(known, np.arange(1), np.ones(2), np.zeros(2, np.bool_), False)
    knn_estimates(np.ones((3, 2, 2)), np.arange(2), np.zeros(2, np.int64), np.ones((1, 2), np.int64), np.ones(1),
                  np.ones(2), np.ones(1), np.ones(2))
    knn_planned_estimates(np.ones((3, 2, 2)), np.arange(2), np.zeros(2, np.int64), np.ones((1, 2), np.int64),
                          np.ones(1), np.ones(2), np.ones(1), np.ones(2))
    knn_pair_estimates(np.ones((3, 2, 2)), np.arange(2), np.arange(2), np.zeros(2, np.int64),
                       np.ones((1, 2), np.int64), np.ones(1), np.ones(2), np.ones(1), np.ones(2))
    error_weights(e, e, e, 1e-6)
    for to in (np.zeros((2, 2), np.int64)[:, 1], np.zeros(2, np.int64)):  # the processors as the engine passes
        # them: a column of the batch's pairs, or a list of its own
        queue_heads(np.arange(2), to, np.full(2, -1, np.int64), np.full(2, -1, np.int64), np.zeros(0, np.int64))
    relative_loads(np.full(2, np.nan), np.arange(2), np.arange(2), np.zeros(2, np.int64), np.ones(1, np.int64),
                   np.ones((3, 2, 2)), np.array([[1, 0]]), np.ones(1), np.ones(2), np.ones(1))
    running_plans(np.full(2, np.nan), np.arange(2), np.arange(2), np.zeros(2, np.int64), np.ones(1, np.int64),
                  np.ones((3, 2, 2)), np.array([[1, 0]]), np.ones(1), np.ones(2), np.ones(1))
