"""One mapping event of Kim et al. (2007), section 4.1: at every arrival the heuristic either edits the queues
(:mod:`.editing`) or takes the mappable tasks out of them and appends them again in its order (:mod:`.rebuilding`).

This module knows no particular heuristic: it passes the heuristic's kind code and its packed parameters ``fp`` to
the two dispatchers, :func:`~hcsched.models.value.editing.edit` first.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from hcsched.models.value import editing, rebuilding


class Trial(NamedTuple):
    """A trial's tasks in arrival order (task i is the i-th arrival): arrival, ETC and ATC (tasks x machines),
    priority level (0 high), weight p, deadlines D100 < D50 < D25, and each task's mean ETC over the machines."""

    arrival: np.ndarray
    etc: np.ndarray
    atc: np.ndarray
    prio: np.ndarray
    weight: np.ndarray
    d100: np.ndarray
    d50: np.ndarray
    d25: np.ndarray
    mean_e: np.ndarray


@njit(cache=True)
def mean_etc(etc):
    """Each task's mean ETC over the machines (numba's sum, in machine order, so that it matches the kernels')."""
    out = np.empty(etc.shape[0])
    for i in range(etc.shape[0]):
        out[i] = etc[i].mean()
    return out


def trial(w) -> Trial:
    """The :class:`Trial` of a :class:`~hcsched.models.value.workload.ValueWorkload`."""
    return Trial(w.arrival, w.etc, w.atc, w.priority, w.weight, w.d100, w.d50, w.d25, mean_etc(w.etc))


class Queues(NamedTuple):
    """The machines' queues: ``queue[j, :qlen[j]]`` task ids (position 0, the fixed first task, runs next), and
    ``base[j]``, machine j's available time before its waiting tasks (when its running task ends; now if idle)."""

    queue: np.ndarray
    qlen: np.ndarray
    base: np.ndarray


@njit(cache=True)
def mappable(new, queue, qlen):
    """The mappable tasks in increasing id: every waiting task but the first of each queue, and the new task; they
    are taken out of the queues (qlen becomes at most 1)."""
    S = 1
    for j in range(qlen.size):
        S += max(qlen[j] - 1, 0)
    rows = np.empty(S, np.int64)
    w = 0
    for j in range(qlen.size):
        for q in range(1, qlen[j]):
            rows[w] = queue[j, q]
            w += 1
        qlen[j] = min(qlen[j], 1)
    rows[w] = new
    rows.sort()
    return rows


@njit(cache=True)
def mapping_event(kind, fp, state, new, now, end, queues, trial, carry):
    """One mapping event at the arrival of task ``new``: edits the :class:`Queues` in place. ``state``: what a
    heuristic keeps between events (Switching's mode; the running mean ETC for Queueing Table); ``carry``: a
    rebuilding heuristic's :class:`~hcsched.models.value.rebuilding.Carry`; ``end``: the end of the evaluation
    period. Returns the new task's machine for an editing heuristic, -1 for a rebuilding one."""
    j = editing.edit(kind, fp, state, new, now, queues, trial)
    if j != editing.UNKNOWN:
        return j
    queue, qlen, base = queues
    etc = trial.etc
    M = base.size
    mat = base.copy()
    for j in range(M):
        if qlen[j] > 0:
            mat[j] += etc[queue[j, 0], j]
    rows = mappable(new, queue, qlen)
    S = rows.size
    E = np.empty((0 if rebuilding.reads_etc_by_id(kind) else S, M))
    for a in range(E.shape[0]):
        E[a] = etc[rows[a]]
    out_t = np.empty(S, np.int64)
    out_m = np.empty(S, np.int64)
    mapped = rebuilding.Rows(E, trial.weight[rows], trial.prio[rows], trial.d100[rows], trial.d50[rows],
                             trial.d25[rows])
    n = rebuilding.remap_carried(kind, fp, mapped, rows, etc, carry, now, end, mat, out_t, out_m)
    for s in range(n):
        j = out_m[s]
        queue[j, qlen[j]] = rows[out_t[s]]
        qlen[j] += 1
    return -1
