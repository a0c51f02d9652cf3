"""The dynamic system of Kim et al. (2007), sections 4.1 and 6, as one numba loop over arrivals.

Machines run their queues one task at a time, non-preemptively. A mapping event happens at every arrival and takes
no simulated time (notes R1: the paper's events took under 0.5 s against gaps of 3.5-14 s); what it decides is
:func:`hcsched.models.value.rules.mapping_event`'s business, so this loop knows no heuristic. At the same instant,
completions come before the arrival: a machine that finishes its task starts the first task of its queue at once;
after the event, an idle machine starts the first task of its queue at the arrival time. No task starts at or
after ``stop`` (the later of the end of arrivals and the end of the evaluation window): it is never started.

Machine available times (section 6): when task i starts on machine j its actual end st + ATC(i, j) is known, and
mat(j) is that end plus the ETC of the waiting tasks (``expected=False``); with ``expected=True`` the running task
counts max(now, st + ETC(i, j)) instead (the ETC model's rule). A mapping event's wall time can be measured
(``timing``): it is reported, never added to the simulated clock.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

from hcsched.models.value import rules


@njit(cache=True)
def _start(j, t, queue, qlen, running, run_end, machine, start, finish, atc):
    h = queue[j, 0]
    for q in range(qlen[j] - 1):
        queue[j, q] = queue[j, q + 1]
    qlen[j] -= 1
    running[j] = h
    machine[h] = j
    start[h] = t
    finish[h] = t + atc[h, j]
    run_end[j] = finish[h]


@njit(cache=True)
def _advance(now, stop, queue, qlen, running, run_end, machine, start, finish, atc):
    """Complete every task ending at or before ``now``; each machine then starts its next waiting task."""
    for j in range(qlen.size):
        while running[j] >= 0 and run_end[j] <= now:
            t = run_end[j]
            running[j] = -1
            if qlen[j] > 0 and t < stop:
                _start(j, t, queue, qlen, running, run_end, machine, start, finish, atc)


@njit(cache=True)
def _bases(now, expected, running, run_end, start, etc, base):
    """mat(j) before the waiting tasks: the running task's actual end (section 6), or with ``expected`` max(now,
    its start + ETC); now if the machine is idle."""
    for j in range(base.size):
        r = running[j]
        if r < 0:
            base[j] = now
        elif expected:
            base[j] = max(now, start[r] + etc[r, j])
        else:
            base[j] = run_end[j]


@njit(cache=True)
def _loop(kind, fp, arrival, etc, atc, prio, weight, d100, d50, d25, end, stop, expected, timing, until):
    """The arrivals 0..until-1 with their mapping events; returns the state after them (and after completing the
    tasks that end by the arrival ``until`` when ``until`` < T)."""
    T, M = etc.shape
    machine = np.full(T, -1, np.int64)
    start = np.full(T, np.nan)
    finish = np.full(T, np.nan)
    queue = np.empty((M, T + 1), np.int64)
    qlen = np.zeros(M, np.int64)
    running = np.full(M, -1, np.int64)
    run_end = np.zeros(M)
    base = np.empty(M)
    state = np.zeros(4)
    mean_e = np.empty(T)
    for i in range(T):
        mean_e[i] = etc[i].mean()
    stats = np.zeros(5)
    t0 = 0.0
    t1 = 0.0
    for a in range(until):
        now = arrival[a]
        _advance(now, stop, queue, qlen, running, run_end, machine, start, finish, atc)
        _bases(now, expected, running, run_end, start, etc, base)
        waiting = 1 + qlen.sum()
        stats[0] += 1
        stats[1] = max(stats[1], waiting)
        stats[2] += waiting
        if timing:
            with objmode(t0="float64"):
                t0 = time.perf_counter()
        rules.mapping_event(kind, fp, state, a, now, queue, qlen, base, etc, prio, weight, d100, d50, d25, mean_e,
                            end)
        if timing:
            with objmode(t1="float64"):
                t1 = time.perf_counter()
            stats[3] += t1 - t0
            stats[4] = max(stats[4], t1 - t0)
        for j in range(M):
            if running[j] < 0 and qlen[j] > 0 and now < stop:
                _start(j, now, queue, qlen, running, run_end, machine, start, finish, atc)
    if until < T:
        now = arrival[until]
        _advance(now, stop, queue, qlen, running, run_end, machine, start, finish, atc)
        _bases(now, expected, running, run_end, start, etc, base)
    return machine, start, finish, stats, queue, qlen, base, state, mean_e, running, run_end


@njit(cache=True)
def simulate(kind, fp, arrival, etc, atc, prio, weight, d100, d50, d25, end, stop, expected, timing):
    """One heuristic over one trial. Tasks are in arrival order. Returns (machine, start, finish, stats): start and
    finish are NaN for a task never started (its machine is the queue it waited in); stats = [events, the largest
    number of waiting tasks at an event (the new one included), their sum over events, total event wall time (s),
    largest event wall time (s)]."""
    machine, start, finish, stats, queue, qlen, _, _, _, running, run_end = _loop(
        kind, fp, arrival, etc, atc, prio, weight, d100, d50, d25, end, stop, expected, timing, arrival.size)
    _advance(np.inf, stop, queue, qlen, running, run_end, machine, start, finish, atc)
    for j in range(qlen.size):
        for q in range(qlen[j]):
            machine[queue[j, q]] = j
    return machine, start, finish, stats


def snapshot(kind: int, fp: np.ndarray, w, end: float, stop: float, expected: bool, until: int) -> dict:
    """The state at the arrival of task ``until`` (before its mapping event) after heuristic ``kind`` mapped the
    earlier ones: queues, qlen, base (mat before the waiting tasks), the heuristics' state, now and the new task.
    For benchmarks and Explain."""
    _, _, _, _, queue, qlen, base, state, mean_e, _, _ = _loop(
        kind, fp, w.arrival, w.etc, w.atc, w.priority, w.weight, w.d100, w.d50, w.d25, end, stop, expected, False,
        until)
    return {"queue": queue, "qlen": qlen, "base": base, "state": state, "mean_e": mean_e,
            "now": float(w.arrival[until]), "new": until}


def one_event(kind: int, fp: np.ndarray, etc, weight, d100, d50, d25, mat, now: float = 0.0, end: float = np.inf,
              prio=None) -> tuple[list[tuple[int, int]], np.ndarray]:
    """A rebuilding heuristic's decisions in one mapping event, from mat (each machine's available time after its
    fixed task) and the mappable tasks' rows: the (task, machine) pairs in the order they are appended, and the final
    mat. For worked examples (Tables 2-5) and Explain."""
    etc = np.ascontiguousarray(etc, float)
    S = etc.shape[0]
    prio = np.zeros(S, np.int64) if prio is None else np.asarray(prio, np.int64)
    mat = np.array(mat, float)
    out_t, out_m = np.empty(S, np.int64), np.empty(S, np.int64)
    arrays = [np.asarray(x, float) for x in (weight, d100, d50, d25)]
    n = rules.remap(kind, np.asarray(fp, float), etc, arrays[0], prio, *arrays[1:], float(end), float(now), mat,
                    out_t, out_m)
    return [(int(out_t[s]), int(out_m[s])) for s in range(n)], mat


def warm_up() -> None:
    """Compile the loop for every heuristic on a two-task trial."""
    etc = np.array([[2.0, 3.0], [4.0, 1.0]])
    z = np.zeros(2, np.int64)
    d = np.array([10.0, 10.0])
    fp = np.array([1.0, 1.0, 2.0, 0.0, 1.0, 0.0])
    for kind in range(8):
        simulate(kind, fp, np.array([0.0, 1.0]), etc, etc, z, np.ones(2), d, d + 1, d + 2, 100.0, 100.0, False, False)
