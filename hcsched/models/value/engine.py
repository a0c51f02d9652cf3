"""The dynamic system of Kim et al. (2007), sections 4.1 and 6, as one numba loop over arrivals.

Machines run their queues one task at a time, non-preemptively. A mapping event happens at every arrival and takes
no simulated time (a reading of section 4.1, docs/models/value.md: the paper's events took under 0.5 s against gaps
of 3.5-14 s); what it decides is :func:`hcsched.models.value.event.mapping_event`'s business, so this loop knows no
heuristic. At the same instant, completions come before the arrival: a machine that finishes its task starts the
first task of its queue at once; after the event, an idle machine starts the first task of its queue at the arrival
time. No task starts at or
after ``stop`` (the later of the end of arrivals and the end of the evaluation window): it is never started.

Machine available times (section 6): when task i starts on machine j its actual end st + ATC(i, j) is known, and
mat(j) is that end plus the ETC of the waiting tasks (``expected=False``); with ``expected=True`` the running task
counts max(now, st + ETC(i, j)) instead (the ETC model's rule). A mapping event's wall time can be measured
(``timing``): it is reported, never added to the simulated clock.
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np
from numba import njit, objmode

from hcsched.models.value.event import Queues, Trial, append_checked, decide, mapping_event, new_carry, take_mappable
from hcsched.models.value.kinds import PLUGIN
from hcsched.models.value.plugin import NO_RULE
from hcsched.models.value.shared import Rows


class Progress(NamedTuple):
    """Each machine's running task (-1 when idle) and when it ends; each task's machine, start and finish."""

    running: np.ndarray
    run_end: np.ndarray
    machine: np.ndarray
    start: np.ndarray
    finish: np.ndarray


@njit(cache=True)
def _start(j, t, queues, pr, atc):
    queue, qlen = queues.queue, queues.qlen
    h = queue[j, 0]
    for q in range(qlen[j] - 1):
        queue[j, q] = queue[j, q + 1]
    qlen[j] -= 1
    pr.running[j] = h
    pr.machine[h] = j
    pr.start[h] = t
    pr.finish[h] = t + atc[h, j]
    pr.run_end[j] = pr.finish[h]


@njit(cache=True)
def _advance(now, stop, queues, pr, atc):
    """Complete every task ending at or before ``now``; each machine then starts its next waiting task."""
    running, run_end, qlen = pr.running, pr.run_end, queues.qlen
    for j in range(qlen.size):
        while running[j] >= 0 and run_end[j] <= now:
            t = run_end[j]
            running[j] = -1
            if qlen[j] > 0 and t < stop:
                _start(j, t, queues, pr, atc)


@njit(cache=True)
def _bases(now, expected, pr, etc, base):
    """mat(j) before the waiting tasks: the running task's actual end (section 6), or with ``expected`` max(now,
    its start + ETC); now if the machine is idle."""
    for j in range(base.size):
        r = pr.running[j]
        if r < 0:
            base[j] = now
        elif expected:
            base[j] = max(now, pr.start[r] + etc[r, j])
        else:
            base[j] = pr.run_end[j]


@njit(cache=True)
def _loop(kind, fp, tr, end, stop, expected, timing, until, rule, seed):
    """The arrivals 0..until-1 of the :class:`~hcsched.models.value.event.Trial` ``tr`` with their mapping events;
    returns the state after them (and after completing the tasks that end by the arrival ``until`` when ``until`` <
    T): the :class:`Progress`, the statistics, the :class:`~hcsched.models.value.event.Queues`, the heuristic's
    state.

    ``kind`` :data:`~hcsched.models.value.kinds.PLUGIN`: a plug-in heuristic's ``rule`` decides each event
    (:mod:`hcsched.models.value.plugin`; a numba rule arrives as a first-class function of the signature
    ``plugin.SIGNATURE``, a Python rule when this loop runs as plain Python, ``_loop.py_func``), with ``np.random``
    seeded with ``seed`` first; any other kind is a built-in kernel's (:func:`mapping_event`), ``rule`` unused."""
    T, M = tr.etc.shape
    pr = Progress(np.full(M, -1, np.int64), np.zeros(M), np.full(T, -1, np.int64), np.full(T, np.nan),
                  np.full(T, np.nan))
    queues = Queues(np.empty((M, T + 1), np.int64), np.zeros(M, np.int64), np.empty(M))
    qlen, base = queues.qlen, queues.base
    state = np.zeros(4)
    carry = new_carry(kind, T, M)
    stats = np.zeros(5)
    t0 = 0.0
    t1 = 0.0
    if kind == PLUGIN:
        np.random.seed(seed)
    for a in range(until):
        now = tr.arrival[a]
        _advance(now, stop, queues, pr, tr.atc)
        _bases(now, expected, pr, tr.etc, base)
        waiting = 1 + qlen.sum()
        stats[0] += 1
        stats[1] = max(stats[1], waiting)
        stats[2] += waiting
        if timing:
            with objmode(t0="float64"):
                t0 = time.perf_counter()
        if kind == PLUGIN:
            m = take_mappable(a, queues, tr, True)
            append_checked(m, decide(rule, now, end, m, queues, tr, fp), queues)
        else:
            mapping_event(kind, fp, state, a, now, end, queues, tr, carry)
        if timing:
            with objmode(t1="float64"):
                t1 = time.perf_counter()
            stats[3] += t1 - t0
            stats[4] = max(stats[4], t1 - t0)
        for j in range(M):
            if pr.running[j] < 0 and qlen[j] > 0 and now < stop:
                _start(j, now, queues, pr, tr.atc)
    if until < T:
        now = tr.arrival[until]
        _advance(now, stop, queues, pr, tr.atc)
        _bases(now, expected, pr, tr.etc, base)
    return pr, stats, queues, state


@njit(cache=True)
def simulate(kind, fp, tr, end, stop, expected, timing, rule, seed):
    """One heuristic (kind code, packed parameters ``fp``; a plug-in's ``rule`` and ``np.random`` seed, see
    :func:`_loop`) over the :class:`~hcsched.models.value.event.Trial` ``tr``; ``end``: the end of the evaluation
    period. Returns (machine, start, finish, stats): start and finish are NaN for a task never started (its machine
    is the queue it waited in); stats = [events, the largest number of waiting tasks at an event (the new one
    included), their sum over events, total event wall time (s), largest event wall time (s)]. :func:`simulate_plain`
    runs its loop as plain Python (a Python rule)."""
    pr, stats, queues, _ = _loop(kind, fp, tr, end, stop, expected, timing, tr.arrival.size, rule, seed)
    return _finish(pr, stats, queues, stop, tr.atc)


@njit(cache=True)
def _finish(pr, stats, queues, stop, atc):
    """After the last arrival: run the queues out; a task never started keeps the queue it waited in."""
    _advance(np.inf, stop, queues, pr, atc)
    queue, qlen = queues.queue, queues.qlen
    for j in range(qlen.size):
        for q in range(qlen[j]):
            pr.machine[queue[j, q]] = j
    return pr.machine, pr.start, pr.finish, stats


def simulate_plain(kind, fp, tr, end, stop, expected, timing, rule, seed):
    """:func:`simulate` with the loop run as plain Python (``_loop.py_func``, the same loop): a plain Python
    plug-in rule's run (:mod:`.plugin`), its helpers still compiled."""
    pr, stats, queues, _ = _loop.py_func(kind, fp, tr, end, stop, expected, timing, tr.arrival.size, rule, seed)
    return _finish(pr, stats, queues, stop, tr.atc)


def snapshot(kind: int, fp: np.ndarray, tr: Trial, end: float, stop: float, expected: bool, until: int,
             rule=None, seed: int = 0) -> dict:
    """The state at the arrival of task ``until`` (before its mapping event) after heuristic ``kind`` mapped the
    earlier ones: the queues (a :class:`~hcsched.models.value.event.Queues`), the heuristic's state, now and the new
    task. For benchmarks and Explain. ``rule``: a plug-in's, as :func:`_loop` takes it (default: none)."""
    _, _, queues, state = _loop(kind, fp, tr, end, stop, expected, False, until, NO_RULE if rule is None else rule,
                                seed)
    return {"queues": queues, "state": state, "now": float(tr.arrival[until]), "new": until}


def one_event(kernel, fp: np.ndarray, etc, weight, d100, d50, d25, mat, now: float = 0.0, end: float = np.inf,
              prio=None) -> tuple[list[tuple[int, int]], np.ndarray]:
    """A rebuilding heuristic's decisions in one mapping event, by its kernel (``(fp, rows, now, end, mat, out_t,
    out_m)``, e.g. :func:`~hcsched.models.value.max_max.max_max`, nothing carried from an earlier event), from mat
    (each machine's available time after its fixed task) and the mappable tasks' rows: the (task, machine) pairs in
    the order they are appended, and the final mat. For worked examples (Tables 2-5) and Explain."""
    etc = np.ascontiguousarray(etc, float)
    S = etc.shape[0]
    prio = np.zeros(S, np.int64) if prio is None else np.asarray(prio, np.int64)
    mat = np.array(mat, float)
    out_t, out_m = np.empty(S, np.int64), np.empty(S, np.int64)
    weight, d100, d50, d25 = (np.asarray(x, float) for x in (weight, d100, d50, d25))
    n = kernel(np.asarray(fp, float), Rows(etc, weight, prio, d100, d50, d25), float(now), float(end), mat, out_t,
               out_m)
    return [(int(out_t[s]), int(out_m[s])) for s in range(n)], mat


def warm_up(kernels) -> None:
    """Compile the loop on a two-task trial, running it for each (kind code, packed parameters) in ``kernels``."""
    etc = np.array([[2.0, 3.0], [4.0, 1.0]])
    d = np.array([10.0, 10.0])
    tr = Trial(np.array([0.0, 1.0]), etc, etc, np.zeros(2, np.int64), np.ones(2), d, d + 1, d + 2, etc.mean(axis=1))
    for kind, fp in kernels:
        simulate(kind, fp, tr, 100.0, 100.0, False, False, NO_RULE, 0)
