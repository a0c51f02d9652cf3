"""The time-shared server engine of Caniou and Jeannot (section 4.1) and the trial loop, as numba kernels.

A server has three resources: its network card's receive direction (inputs), its processor and its card's send
direction (outputs); in half duplex the two directions are one resource. A task goes through input, compute and
output phases; the ``k`` tasks in the same resource share it equally ("n tasks in the same phase on the same server
are assumed to take 1/n of the server power until one of them finishes"), recomputed at every phase change.

Exact event times, no time steps: each resource keeps a virtual clock ``V`` (service received by each of its
tasks), the time ``tr`` it was last brought up to date, and its count ``k``. A task entering a resource gets the
tag ``V + w`` (``w`` its alone time of that phase); the resource's next phase end is ``tr + (min tag - V) * k``.
A resource's clock is only brought up to date when a task enters or leaves *it* (lazy update). Hence a task that
never shares a resource with a new task, directly or through others, sees bit-for-bit the same arithmetic with and
without it: its perturbation is exactly 0, not a rounding residue (the notes' risk, section 4).

Simultaneous phase ends are deterministic: the tasks of a resource whose tags are within ``EPS`` (relative) of
the smallest leave together, resources are processed at the same instant in the order input, compute, output, and
the leaving tasks enter their next phase in the server's mapping order. A phase end at exactly the arrival time of
a new task happens before the new task arrives. Phases of zero length end at the instant they begin.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

EPS = 1e-12  # relative: tags this close to the smallest leave their resource together
FULL = np.array([0, 1, 2], np.int64)  # resource of each phase: full duplex (receive, cpu, send)
HALF = np.array([0, 1, 0], np.int64)  # half duplex: one network resource for inputs and outputs

# heuristic kinds (see heuristics.py)
NETSOLVE_MCT, HMCT, MMC, MP, MP_LOAD, MP_L2, CRES, CRES_INCR, DECRES, DECRES_INCR, MIN_LENGTH, MSF = range(12)
INF = math.inf


@njit(cache=True)
def _advance(V, tr, k, r, t):
    if k[r] > 0:
        V[r] += (t - tr[r]) / k[r]
    tr[r] = t


@njit(cache=True)
def simulate(L, mem, phase, tag, pend, V, tr, k, W, j, res, new_pos, a, stop_after_insert):
    """Run server ``j`` from its state until every member has finished (in place, on copies the caller owns).

    Members ``0..L-1`` (task ids ``mem``) are in ``phase`` 0, 1, 2 (input, compute, output) with ``tag`` in that
    phase's resource, or 3 (done); ``pend[i, p]`` is the end of member i's phase p. If ``new_pos >= 0``, that
    member (phase -1) arrives at time ``a`` and enters its input phase then; with ``stop_after_insert`` the run
    stops right after that arrival (the state to keep when the task is committed). ``W[t, j, p]`` is task t's
    alone time of phase p on server j.
    """
    pending = new_pos >= 0
    mint = np.empty(3)
    nxt = np.empty(3)
    leaving = np.zeros(L, np.bool_)
    done = np.zeros(3, np.bool_)
    while True:
        mint[:] = INF
        for i in range(L):
            p = phase[i]
            if 0 <= p < 3:
                r = res[p]
                if tag[i] < mint[r]:
                    mint[r] = tag[i]
        te = INF
        for r in range(3):
            nxt[r] = INF
            if k[r] > 0:
                nxt[r] = tr[r] + (mint[r] - V[r]) * k[r]
                if nxt[r] < te:
                    te = nxt[r]
        if pending and a < te:
            r = res[0]
            _advance(V, tr, k, r, a)
            phase[new_pos] = 0
            tag[new_pos] = V[r] + W[mem[new_pos], j, 0]
            k[r] += 1
            pending = False
            if stop_after_insert:
                return
            continue
        if te == INF:
            return
        for r in range(3):
            done[r] = False
            if k[r] > 0 and nxt[r] == te:
                done[r] = True
                V[r] = mint[r]
                tr[r] = te
        for i in range(L):
            leaving[i] = False
            p = phase[i]
            if 0 <= p < 3:
                r = res[p]
                if done[r] and tag[i] - mint[r] <= EPS * max(1.0, abs(mint[r])):
                    leaving[i] = True
                    k[r] -= 1
                    pend[i, p] = te
        for i in range(L):
            if leaving[i]:
                p = phase[i] + 1
                phase[i] = p
                if p < 3:
                    r = res[p]
                    _advance(V, tr, k, r, te)
                    tag[i] = V[r] + W[mem[i], j, p]
                    k[r] += 1


@njit(cache=True)
def _copy(j, L, mem, phase, tag, pend, V, tr, k, sm, sp, st, se, sV, str_, sk):
    for i in range(L):
        sm[i] = mem[j, i]
        sp[i] = phase[j, i]
        st[i] = tag[j, i]
        for p in range(3):
            se[i, p] = pend[j, i, p]
    for r in range(3):
        sV[r] = V[j, r]
        str_[r] = tr[j, r]
        sk[r] = k[j, r]


@njit(cache=True)
def new_state(m, n):
    """The HTM's knowledge of m servers for n tasks: per server its members (tasks mapped there since the oldest
    one unfinished at its last mapping, in mapping order), their phases, tags and phase ends, its resources'
    clocks, counts and member count ``nm``."""
    mem = np.zeros((m, n + 1), np.int64)
    phase = np.zeros((m, n + 1), np.int64)
    tag = np.zeros((m, n + 1))
    pend = np.full((m, n + 1, 3), np.nan)
    V = np.zeros((m, 3))
    tr = np.zeros((m, 3))
    k = np.zeros((m, 3), np.int64)
    nm = np.zeros(m, np.int64)
    return mem, phase, tag, pend, V, tr, k, nm


@njit(cache=True)
def predict(j, t, a, mem, phase, tag, pend, V, tr, k, nm, W, res, what_if, sm, sp, st, se, sV, str_, sk, Tp, T):
    """Server j's predictions for task ``t`` arriving at ``a``: T' (``Tp[0:L]``) of its L members without the new
    task and, if ``what_if``, T of the members and of the new task (``T[0:L+1]``), both on the same code path.
    Returns L."""
    L = nm[j]
    _copy(j, L, mem, phase, tag, pend, V, tr, k, sm, sp, st, se, sV, str_, sk)
    simulate(L, sm, sp, st, se, sV, str_, sk, W, j, res, -1, a, False)
    for i in range(L):
        Tp[i] = se[i, 2]
    if what_if:
        _copy(j, L, mem, phase, tag, pend, V, tr, k, sm, sp, st, se, sV, str_, sk)
        sm[L] = t
        sp[L] = -1
        for p in range(3):
            se[L, p] = np.nan
        simulate(L + 1, sm, sp, st, se, sV, str_, sk, W, j, res, L, a, False)
        for i in range(L + 1):
            T[i] = se[i, 2]
    return L


@njit(cache=True)
def commit(j, t, a, mem, phase, tag, pend, V, tr, k, nm, W, res, ends, sm, sp, st, se, sV, str_, sk):
    """Map task t (arriving at a) to server j: its state just after the arrival; members finished before the
    oldest unfinished one are dropped, their phase ends written to ``ends``."""
    L = nm[j]
    _copy(j, L, mem, phase, tag, pend, V, tr, k, sm, sp, st, se, sV, str_, sk)
    sm[L] = t
    sp[L] = -1
    for p in range(3):
        se[L, p] = np.nan
    simulate(L + 1, sm, sp, st, se, sV, str_, sk, W, j, res, L, a, True)
    L += 1
    drop = 0
    while drop < L and sp[drop] == 3:
        for p in range(3):
            ends[sm[drop], p] = se[drop, p]
        drop += 1
    for i in range(drop, L):
        mem[j, i - drop] = sm[i]
        phase[j, i - drop] = sp[i]
        tag[j, i - drop] = st[i]
        for p in range(3):
            pend[j, i - drop, p] = se[i, p]
    for r in range(3):
        V[j, r] = sV[r]
        tr[j, r] = str_[r]
        k[j, r] = sk[r]
    nm[j] = L - drop


@njit(cache=True)
def finish_all(mem, phase, tag, pend, V, tr, k, nm, W, res, ends, sm, sp, st, se, sV, str_, sk):
    """Run every server to the end and write its members' phase ends."""
    for j in range(nm.size):
        L = nm[j]
        _copy(j, L, mem, phase, tag, pend, V, tr, k, sm, sp, st, se, sV, str_, sk)
        simulate(L, sm, sp, st, se, sV, str_, sk, W, j, res, -1, 0.0, False)
        for i in range(L):
            for p in range(3):
                ends[sm[i], p] = se[i, p]


@njit(cache=True)
def scores(kind, L, a, t, j, Tp, T, W, load, out):
    """The keys heuristic ``kind`` minimises for server j, most important first (``out[0..2]``; later keys break
    ties of earlier ones). ``Tp``/``T`` from :func:`predict`; local task 1 is the first member with T' > a."""
    first = L
    for i in range(L):
        if Tp[i] > a:
            first = i
            break
    n = L - first  # local tasks 1..n; the new one is n + 1
    out[0] = 0.0
    out[1] = 0.0
    out[2] = 0.0
    if kind == NETSOLVE_MCT:
        out[0] = W[t, j, 0] + W[t, j, 2] + W[t, j, 1] * (1.0 + load)
        return
    t_new = T[L]
    if kind == HMCT:
        out[0] = t_new
        return
    if kind == MMC:
        worst = t_new
        for i in range(first, L):
            worst = max(worst, T[i])
        out[0] = worst
        return
    if kind == MIN_LENGTH:  # R1: the tasks still running and the new one (a finished local task has T = T' <= a)
        s = t_new - a
        for i in range(first, L):
            if Tp[i] > a:
                s += T[i] - a
        out[0] = s
        return
    running = 0
    for i in range(first, L):
        if Tp[i] > a:
            running += 1
    s = 0.0
    rank = 0  # among running tasks, in arrival order
    for i in range(first, L):
        d = T[i] - Tp[i]
        local = i - first + 1
        if kind == MP or kind == MP_LOAD or kind == MSF:
            s += d
        elif kind == MP_L2:
            s += d * d
        elif kind == CRES:
            s += local * d
        elif kind == DECRES:
            s += (n + 1 - local) * d
        elif Tp[i] > a:
            rank += 1
            if kind == CRES_INCR:
                s += rank * d
            else:  # DECRES_INCR
                s += (running - rank + 1) * d
    if kind == MP_L2:
        s = math.sqrt(s)
    if kind == MSF:
        out[0] = s + t_new - a
        return
    out[0] = s
    if kind == MP_LOAD:
        out[1] = running * (t_new - a)
        out[2] = t_new
    else:
        out[1] = t_new


@njit(cache=True)
def choose(keys, tol, all_equal_rule):
    """The lexicographic argmin of ``keys`` (servers x 3) with ties within ``tol``; then the lowest index.

    With ``all_equal_rule`` (Fig. 19 read literally), the second key is used only when every server ties on the
    first; otherwise the lowest index among the minima of the first key wins."""
    m = keys.shape[0]
    alive = np.ones(m, np.bool_)
    for c in range(3):
        best = INF
        for j in range(m):
            if alive[j] and keys[j, c] < best:
                best = keys[j, c]
        tied = 0
        for j in range(m):
            if alive[j]:
                if keys[j, c] <= best + tol:
                    tied += 1
                else:
                    alive[j] = False
        if c == 0 and all_equal_rule and tied < m:
            break
    for j in range(m):
        if alive[j]:
            return j
    return 0


@njit(cache=True)
def _reported_load(j, a, L, sm, Tp, arrival, rec, last_val, last_time, next_check, seen_until):
    """NetSolve's recorded load of server j at a (section 2.3, R2): task-end notices decrease it by 1 when it is
    above 1; every 60 s the server reports its count if it changed by more than 0.2 (20 on NetSolve's scale of
    100 per task) since its last report, and at least every 300 s. End notices at a check time come first."""
    # the server's events in (seen_until, a]: ends of members, report checks
    while True:
        c = next_check[j]
        f_next = INF
        for i in range(L):
            if seen_until[j] < Tp[i] <= a and Tp[i] < f_next:
                f_next = Tp[i]
        if f_next <= c and f_next <= a:
            for i in range(L):
                if Tp[i] == f_next and rec[j] > 1.0:
                    rec[j] -= 1.0
            seen_until[j] = f_next
            continue
        if c > a:
            break
        count = 0
        for i in range(L):
            if arrival[sm[i]] <= c and Tp[i] > c:
                count += 1
        if abs(count - last_val[j]) > 0.2 or c - last_time[j] >= 300.0:
            rec[j] = count
            last_val[j] = count
            last_time[j] = c
        next_check[j] = c + 60.0
        seen_until[j] = max(seen_until[j], c)
    seen_until[j] = max(seen_until[j], a)
    return rec[j]


@njit(cache=True)
def run_trial(kind, order, arrival, W, res, tol, all_equal_rule, reports):
    """Map the tasks in ``order`` (by arrival) one by one with heuristic ``kind``; the environment behaves as the
    HTM predicts (R1). Returns each task's server and phase ends (n x 3: input, compute, output)."""
    n, m = W.shape[0], W.shape[1]
    mem, phase, tag, pend, V, tr, k, nm = new_state(m, n)
    ends = np.full((n, 3), np.nan)
    machine = np.zeros(n, np.int64)
    sm = np.zeros(n + 1, np.int64)
    sp = np.zeros(n + 1, np.int64)
    st = np.zeros(n + 1)
    se = np.zeros((n + 1, 3))
    sV = np.zeros(3)
    str_ = np.zeros(3)
    sk = np.zeros(3, np.int64)
    Tp = np.zeros(n + 1)
    T = np.zeros(n + 1)
    keys = np.zeros((m, 3))
    row = np.zeros(3)
    rec = np.zeros(m)
    last_val = np.zeros(m)
    last_time = np.zeros(m)
    next_check = np.full(m, 60.0)
    seen_until = np.full(m, -INF)
    what_if = kind != NETSOLVE_MCT
    for t in order:
        a = arrival[t]
        for j in range(m):
            L = predict(j, t, a, mem, phase, tag, pend, V, tr, k, nm, W, res, what_if, sm, sp, st, se, sV, str_, sk,
                        Tp, T)
            load = 0.0
            if kind == NETSOLVE_MCT:
                if reports:
                    load = _reported_load(j, a, L, sm, Tp, arrival, rec, last_val, last_time, next_check, seen_until)
                else:
                    for i in range(L):
                        if Tp[i] > a:
                            load += 1.0
            scores(kind, L, a, t, j, Tp, T, W, load, row)
            keys[j, 0], keys[j, 1], keys[j, 2] = row[0], row[1], row[2]
        j0 = choose(keys, tol, all_equal_rule)
        machine[t] = j0
        if reports:
            rec[j0] += 1.0  # NetSolve's +100 on mapping (section 2.3)
        commit(j0, t, a, mem, phase, tag, pend, V, tr, k, nm, W, res, ends, sm, sp, st, se, sV, str_, sk)
    finish_all(mem, phase, tag, pend, V, tr, k, nm, W, res, ends, sm, sp, st, se, sV, str_, sk)
    return machine, ends


@njit(cache=True)
def replay(machine, order, arrival, W, res):
    """Phase ends of a given mapping (no heuristic): the engine alone, for tests and user logs."""
    n, m = W.shape[0], W.shape[1]
    mem, phase, tag, pend, V, tr, k, nm = new_state(m, n)
    ends = np.full((n, 3), np.nan)
    sm = np.zeros(n + 1, np.int64)
    sp = np.zeros(n + 1, np.int64)
    st = np.zeros(n + 1)
    se = np.zeros((n + 1, 3))
    sV = np.zeros(3)
    str_ = np.zeros(3)
    sk = np.zeros(3, np.int64)
    for t in order:
        commit(machine[t], t, arrival[t], mem, phase, tag, pend, V, tr, k, nm, W, res, ends, sm, sp, st, se, sV, str_, sk)
    finish_all(mem, phase, tag, pend, V, tr, k, nm, W, res, ends, sm, sp, st, se, sV, str_, sk)
    return ends


_WARM = False


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the kernels, once per process."""
    global _WARM
    if _WARM:
        return
    W = np.ones((3, 2, 3))
    arrival = np.array([0.0, 0.5, 1.0])
    order = np.arange(3)
    for kind in range(12):
        run_trial(kind, order, arrival, W, FULL, 1e-6, False, kind == 0)
    replay(np.zeros(3, np.int64), order, arrival, W, FULL)
    _WARM = True
