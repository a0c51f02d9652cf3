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
without it: its perturbation is exactly 0, not a rounding residue (MP's "all P_j equal" test, Fig. 19, and the
share of tasks finishing at the same time, section 6.1, depend on it).

Simultaneous phase ends are deterministic: the tasks of a resource whose tags are within ``EPS`` (relative) of
the smallest leave together, resources are processed at the same instant in the order input, compute, output, and
the leaving tasks enter their next phase in the server's mapping order. A phase end at exactly the arrival time of
a new task happens before the new task arrives. Phases of zero length end at the instant they begin.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import njit, types

from hcsched.models.timeshared.plugin import GENERATOR, RULE, SIGNATURE

EPS = 1e-12  # relative: tags this close to the smallest leave their resource together
FULL = np.array([0, 1, 2], np.int64)  # resource of each phase: full duplex (receive, cpu, send)
HALF = np.array([0, 1, 0], np.int64)  # half duplex: one network resource for inputs and outputs

# heuristic kinds (see heuristics.py)
NETSOLVE_MCT, HMCT, MMC, MP, MP_LOAD, MP_L2, CRES, CRES_INCR, DECRES, DECRES_INCR, MIN_LENGTH, MSF = range(12)
PLUGIN = 12  # a plug-in's rule (hcsched.models.timeshared.plugin) decides
PREDICT_FULL, PREDICT_NEW, PREDICT_OFF = range(3)  # what a plug-in's rule asks of the HTM (plugin.PREDICTS)
INF = math.inf
RUN_TO_END, UNTIL_ARRIVAL, UNTIL_NEW_ENDS, UP_TO = range(4)  # how far :func:`simulate` runs
# The kernels run once per server and decision are inlined (``inline="always"``): a call passing the state's named
# tuples cost more than the simulation of a server's two or three tasks.

# The HTM's knowledge of the m servers (rows), from :func:`new_state`: each server's members (tasks mapped there
# since the oldest one unfinished at its last mapping or :func:`advance`, in mapping order), their phases, tags and
# phase ends, its resources' clocks ``V``, update times ``tr`` and counts ``k``, its member count ``nm``; ``alone``,
# each member's alone phase times on the server (copied from the workload's tasks x servers x 3 table at mapping, so
# that a simulation needs only the server's own numbers); and ``Tp``, the members' predicted completions T' as they
# stand (section 4.3), kept from the last mapping on the server: a server's prediction without a new task only
# changes when a task is mapped to it; ``next_end``, the date of the server's next phase end (:func:`advance`).
Servers = namedtuple("Servers", "mem phase tag pend alone V tr k nm Tp next_end")
# One server's working copy (what a prediction or a mapping simulates, :func:`new_server`) and the buffers of its
# event loop.
Server = namedtuple("Server", "mem phase tag pend alone V tr k mint nxt leaving done")
# NetSolve's recorded load of each server and its reporting clock (section 2.3; ``load: reports``, explained in
# docs/models/timeshared.md), from :func:`new_reports`.
Reports = namedtuple("Reports", "rec last_val last_time next_check seen_until")


@njit(cache=True, inline="always")
def _advance(V, tr, k, r, t):
    if k[r] > 0:
        V[r] += (t - tr[r]) / k[r]
    tr[r] = t


@njit(cache=True, inline="always")
def simulate(L, s, res, new_pos, a, until):
    """Run the working copy ``s`` of a server (in place) until every member has finished, or ``until`` says.

    Members ``0..L-1`` (task ids ``s.mem``) are in ``phase`` 0, 1, 2 (input, compute, output) with ``tag`` in that
    phase's resource, or 3 (done); ``pend[i, p]`` is the end of member i's phase p. If ``new_pos >= 0``, that
    member (phase -1) arrives at time ``a`` and enters its input phase then. ``until``: RUN_TO_END;
    UNTIL_ARRIVAL, right after that arrival (the state to keep when the task is committed); UNTIL_NEW_ENDS, once
    the new member has ended (its T, without the later ends of the others); UP_TO, before the first phase end
    after ``a`` (no new member), returning its date (INF if none; with ``a = -INF``: the next phase end, nothing
    run); the other modes return INF. ``alone[i, p]`` is member i's alone
    time of phase p on the server, ``res[p]`` the resource of phase p. Stopping changes no arithmetic: the events up
    to the stop are those of the full run.
    """
    phase, tag, pend, alone, V, tr, k = s.phase, s.tag, s.pend, s.alone, s.V, s.tr, s.k
    mint, nxt, leaving, done = s.mint, s.nxt, s.leaving, s.done
    pending = new_pos >= 0
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
            tag[new_pos] = V[r] + alone[new_pos, 0]
            k[r] += 1
            pending = False
            if until == UNTIL_ARRIVAL:
                return INF
            continue
        if until == UP_TO and te > a:
            return te
        if te == INF:
            return INF
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
                    tag[i] = V[r] + alone[i, p]
                    k[r] += 1
        if until == UNTIL_NEW_ENDS and phase[new_pos] == 3:
            return INF


@njit(cache=True)
def new_state(m, n):
    """The HTM's knowledge of m servers for n tasks, nothing mapped (:data:`Servers`). A member's row is written when
    it is mapped and read only while it is a member, so the per-member tables start unfilled: their pages are only
    touched where a server holds tasks."""
    return Servers(np.empty((m, n + 1), np.int64), np.empty((m, n + 1), np.int64), np.empty((m, n + 1)),
                   np.empty((m, n + 1, 3)), np.empty((m, n + 1, 3)), np.zeros((m, 3)), np.zeros((m, 3)),
                   np.zeros((m, 3), np.int64), np.zeros(m, np.int64), np.empty((m, n + 1)), np.full(m, INF))


@njit(cache=True)
def new_server(n):
    """A working copy for one server of up to n + 1 members (:data:`Server`)."""
    return Server(np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64), np.zeros(n + 1), np.zeros((n + 1, 3)),
                  np.zeros((n + 1, 3)), np.zeros(3), np.zeros(3), np.zeros(3, np.int64), np.empty(3), np.empty(3),
                  np.zeros(n + 1, np.bool_), np.zeros(3, np.bool_))


@njit(cache=True)
def new_reports(m):
    """NetSolve's records of m servers before any task (:data:`Reports`): load 0, first check at 60 s."""
    return Reports(np.zeros(m), np.zeros(m), np.zeros(m), np.full(m, 60.0), np.full(m, -INF))


@njit(cache=True, inline="always")
def _copy(j, L, servers, s):
    """Server j's state (its L members) into the working copy ``s``."""
    for i in range(L):
        s.mem[i] = servers.mem[j, i]
        s.phase[i] = servers.phase[j, i]
        s.tag[i] = servers.tag[j, i]
        for p in range(3):
            s.pend[i, p] = servers.pend[j, i, p]
            s.alone[i, p] = servers.alone[j, i, p]
    for r in range(3):
        s.V[r] = servers.V[j, r]
        s.tr[r] = servers.tr[j, r]
        s.k[r] = servers.k[j, r]


@njit(cache=True, inline="always")
def _with_new(j, t, a, servers, W, res, s, until):
    """Server j's working copy with task t arriving at a as its last member, simulated ``until``; returns L, the
    members before it."""
    L = servers.nm[j]
    _copy(j, L, servers, s)
    s.mem[L] = t
    s.phase[L] = -1
    for p in range(3):
        s.pend[L, p] = np.nan
        s.alone[L, p] = W[t, j, p]
    simulate(L + 1, s, res, L, a, until)
    return L


@njit(cache=True, inline="always")
def predict(j, t, a, servers, W, res, s, T, every_task):
    """Server j's predictions for task ``t`` arriving at ``a`` (section 4.3): T of its L members and of the new task
    (``T[0:L+1]``); with ``every_task`` False only the new task's (``T[L]``; the simulation stops when it ends).
    T' of the members is ``servers.Tp[j, 0:L]``, kept since the server's last mapping. Returns L."""
    L = _with_new(j, t, a, servers, W, res, s, RUN_TO_END if every_task else UNTIL_NEW_ENDS)
    if every_task:
        for i in range(L + 1):
            T[i] = s.pend[i, 2]
    else:
        T[L] = s.pend[L, 2]
    return L


@njit(cache=True)
def _keep_predictions(j, servers, res, s):
    """``servers.Tp[j]``: T' of server j's members from its state, simulated on a copy to the end; and
    ``servers.next_end[j]``."""
    L = servers.nm[j]
    _copy(j, L, servers, s)
    servers.next_end[j] = simulate(L, s, res, -1, -INF, UP_TO)
    simulate(L, s, res, -1, 0.0, RUN_TO_END)
    for i in range(L):
        servers.Tp[j, i] = s.pend[i, 2]


@njit(cache=True)
def _store(j, L, servers, s, ends):
    """The working copy of L members back as server j's state; members finished before the oldest unfinished one
    are dropped, their phase ends written to ``ends``. Returns how many were dropped."""
    drop = 0
    while drop < L and s.phase[drop] == 3:
        for p in range(3):
            ends[s.mem[drop], p] = s.pend[drop, p]
        drop += 1
    for i in range(drop, L):
        servers.mem[j, i - drop] = s.mem[i]
        servers.phase[j, i - drop] = s.phase[i]
        servers.tag[j, i - drop] = s.tag[i]
        for p in range(3):
            servers.pend[j, i - drop, p] = s.pend[i, p]
            servers.alone[j, i - drop, p] = s.alone[i, p]
    for r in range(3):
        servers.V[j, r] = s.V[r]
        servers.tr[j, r] = s.tr[r]
        servers.k[j, r] = s.k[r]
    servers.nm[j] = L - drop
    return drop


@njit(cache=True)
def commit(j, t, a, servers, W, res, ends, s):
    """Map task t (arriving at a) to server j: its state just after the arrival (:func:`_store`); the members' T'
    kept."""
    L = _with_new(j, t, a, servers, W, res, s, UNTIL_ARRIVAL) + 1
    _store(j, L, servers, s, ends)
    _keep_predictions(j, servers, res, s)


@njit(cache=True)
def advance(j, a, servers, res, ends, s):
    """Server j's state brought to date a: its phase ends up to a happen (those at a included, as before an arrival
    at a), its finished oldest members leave (:func:`_store`). Its predictions do not change, and neither does any
    later arithmetic (:func:`simulate` stops without touching a clock), so a prediction from the advanced state is
    the one from the old state, without simulating again, at every arrival, the ends already past."""
    L = servers.nm[j]
    _copy(j, L, servers, s)
    servers.next_end[j] = simulate(L, s, res, -1, a, UP_TO)
    drop = _store(j, L, servers, s, ends)
    for i in range(drop, L):
        servers.Tp[j, i - drop] = servers.Tp[j, i]


@njit(cache=True)
def finish_all(servers, res, ends, s):
    """Run every server to the end and write its members' phase ends."""
    for j in range(servers.nm.size):
        L = servers.nm[j]
        _copy(j, L, servers, s)
        simulate(L, s, res, -1, 0.0, RUN_TO_END)
        for i in range(L):
            for p in range(3):
                ends[s.mem[i], p] = s.pend[i, p]


@njit(cache=True, inline="always")
def scores(kind, L, a, Tp, T, alone, load, out):
    """The keys heuristic ``kind`` minimises for a server, most important first (``out[0..2]``; later keys break
    ties of earlier ones). ``Tp``/``T`` of its L members and (``T[L]``) the new task from :func:`predict`; local
    task 1 is the first member with T' > a. ``alone``: the new task's alone phase times on the server; ``load``:
    NetSolve's load of it."""
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
        out[0] = alone[0] + alone[2] + alone[1] * (1.0 + load)
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
    if kind == MIN_LENGTH:  # section 6.5: the tasks still running and the new one (a finished one has T = T' <= a)
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
    if not (kind == MP or kind == MP_LOAD or kind == MSF or kind == MP_L2 or kind == CRES or kind == DECRES
            or kind == CRES_INCR or kind == DECRES_INCR):
        raise ValueError("unknown heuristic kind")
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
            elif kind == DECRES_INCR:
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
def _reported_load(j, a, L, mem, Tp, arrival, rep):
    """NetSolve's recorded load of server j at a (section 2.3; ``load: reports``, docs/models/timeshared.md): task-end
    notices decrease it by 1 when it is above 1; every 60 s the server reports its count if it changed by more than 0.2
    (20 on NetSolve's scale of 100 per task) since its last report, and at least every 300 s. End notices at a check
    time come first. ``mem``/``Tp``: the server's L members and their T'; ``rep``: the records (:data:`Reports`)."""
    rec, last_val, last_time, next_check, seen_until = rep
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
            if arrival[mem[i]] <= c and Tp[i] > c:
                count += 1
        if abs(count - last_val[j]) > 0.2 or c - last_time[j] >= 300.0:
            rec[j] = count
            last_val[j] = count
            last_time[j] = c
        next_check[j] = c + 60.0
        seen_until[j] = max(seen_until[j], c)
    seen_until[j] = max(seen_until[j], a)
    return rec[j]


@njit(cache=True, inline="always")
def _unfinished(Tp, L, a):
    """How many of L members predicted to end at ``Tp`` are unfinished at a: NetSolve's exact load (section 6.1)."""
    load = 0.0
    for i in range(L):
        if Tp[i] > a:
            load += 1.0
    return load


@njit(SIGNATURE, cache=True)
def no_rule(now, cost, start, before, after, t_new, load, params, rng):
    """The rule :func:`loop` receives for a built-in heuristic (never called)."""
    return -1


@njit(cache=True, inline="always")
def rule_view(j, t, a, servers, W, res, s, T, ends, predicts, start, before, after, t_new, load, pos):
    """Server j's part of a plug-in rule's inputs (:mod:`.plugin`) for task t arriving at a: ``start[j] = pos``, its
    local tasks' T' (and, with ``PREDICT_FULL``, T) from ``before[pos]``/``after[pos]``, the new task's T
    (``PREDICT_FULL``, ``PREDICT_NEW``; else NaN) and its load. Returns the next ``pos``."""
    if predicts != PREDICT_OFF:
        if servers.next_end[j] <= a:
            advance(j, a, servers, res, ends, s)
        predict(j, t, a, servers, W, res, s, T, predicts == PREDICT_FULL)
    L, Tp = servers.nm[j], servers.Tp[j]
    first = L
    for i in range(L):
        if Tp[i] > a:
            first = i
            break
    start[j] = pos
    for i in range(first, L):
        before[pos] = Tp[i]
        after[pos] = T[i] if predicts == PREDICT_FULL else np.nan
        pos += 1
    t_new[j] = T[L] if predicts != PREDICT_OFF else np.nan
    load[j] = _unfinished(Tp, L, a)
    return pos


@njit((types.int64, RULE, types.int64[::1], types.float64[::1], types.float64[:, :, ::1], types.int64[::1],
       types.float64, types.boolean, types.boolean, types.int64, types.float64[::1], GENERATOR), cache=True)
def loop(kind, rule, order, arrival, W, res, tol, all_equal_rule, reports, predicts, params, rng):
    """Map the tasks in ``order`` (by arrival) one by one with heuristic ``kind``; the environment behaves as the
    HTM predicts (docs/models/timeshared.md, "Readings chosen"). Returns each task's server, its phase ends (n x 3:
    input, compute, output) and -1; or, when a plug-in's ``rule`` returned a server out of range, the task it did so
    for (its server in ``machine``), the run stopped there.

    A built-in decision costs what the heuristic's definition asks: NetSolve MCT one load per server (no
    prediction); HMCT the new task's T on every server (each server simulated until the new task ends); the others T
    of every member with the new task on every server. T' comes from the servers' kept predictions. ``kind`` PLUGIN:
    ``rule`` (:data:`.plugin.RULE`) decides from what its ``predicts`` asks; ``params`` and ``rng`` are its own.
    An unknown ``kind`` raises ValueError."""
    if kind < NETSOLVE_MCT or kind > PLUGIN:
        raise ValueError("unknown heuristic kind")
    n, m = W.shape[0], W.shape[1]
    servers = new_state(m, n)
    s = new_server(n)
    rep = new_reports(m)
    ends = np.full((n, 3), np.nan)
    machine = np.zeros(n, np.int64)
    T = np.zeros(n + 1)
    keys = np.zeros((m, 3))
    row = np.zeros(3)
    plugin = kind == PLUGIN
    views = n + 1 if plugin else 0  # a plug-in's inputs: local tasks of all servers (each a distinct task)
    start, before, after = np.zeros(m + 1, np.int64), np.empty(views), np.empty(views)
    t_new, load_of = np.empty(m if plugin else 0), np.empty(m if plugin else 0)
    for t in order:
        a = arrival[t]
        if plugin:
            pos = 0
            for j in range(m):
                pos = rule_view(j, t, a, servers, W, res, s, T, ends, predicts, start, before, after, t_new,
                                load_of, pos)
            start[m] = pos
            j0 = rule(a, W[t], start, before, after, t_new, load_of, params, rng)
            if j0 < 0 or j0 >= m:
                machine[t] = j0
                return machine, ends, t
        else:
            for j in range(m):
                load = 0.0
                if kind == NETSOLVE_MCT:
                    L, Tp = servers.nm[j], servers.Tp[j]
                    if reports:
                        load = _reported_load(j, a, L, servers.mem[j], Tp, arrival, rep)
                    else:
                        load = _unfinished(Tp, L, a)
                else:
                    if servers.next_end[j] <= a:
                        advance(j, a, servers, res, ends, s)
                    predict(j, t, a, servers, W, res, s, T, kind != HMCT)
                scores(kind, servers.nm[j], a, servers.Tp[j], T, W[t, j], load, row)
                keys[j, 0], keys[j, 1], keys[j, 2] = row[0], row[1], row[2]
            j0 = choose(keys, tol, all_equal_rule)
            if reports:
                rep.rec[j0] += 1.0  # NetSolve's +100 on mapping (section 2.3)
        machine[t] = j0
        commit(j0, t, a, servers, W, res, ends, s)
    finish_all(servers, res, ends, s)
    return machine, ends, -1


def run_trial(kind, order, arrival, W, res, tol, all_equal_rule, reports):
    """A built-in heuristic's run by :func:`loop`: each task's server and phase ends (n x 3)."""
    machine, ends, _ = loop(kind, no_rule, np.ascontiguousarray(order, np.int64),
                            np.ascontiguousarray(arrival, np.float64), np.ascontiguousarray(W, np.float64),
                            np.ascontiguousarray(res, np.int64), float(tol), bool(all_equal_rule), bool(reports), 0,
                            np.zeros(0), np.random.default_rng(0))
    return machine, ends


@njit(cache=True)
def replay(machine, order, arrival, W, res):
    """Phase ends of a given mapping (no heuristic): the engine alone, for tests and user logs."""
    n, m = W.shape[0], W.shape[1]
    servers = new_state(m, n)
    s = new_server(n)
    ends = np.full((n, 3), np.nan)
    for t in order:
        commit(machine[t], t, arrival[t], servers, W, res, ends, s)
    finish_all(servers, res, ends, s)
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
    for kind in range(PLUGIN):
        run_trial(kind, order, arrival, W, FULL, 1e-6, False, kind == 0)
    replay(np.zeros(3, np.int64), order, arrival, W, FULL)
    _WARM = True
