"""One mapping event of Kim et al. (2007), section 4.1, and the one dispatcher of the value model's heuristics: at
every arrival the heuristic either edits the queues (:mod:`.editing`) or takes the mappable tasks out of them and
appends them again in its order (a rebuilding heuristic: :mod:`.max_max`, :mod:`.min_min`, :mod:`.rounds`,
:mod:`.sufferage`).

:func:`mapping_event` dispatches on the heuristic's kind code (:class:`~hcsched.models.value.kinds.Kind`) with its
packed parameters ``fp``: one branch per heuristic, which calls its kernel. A plug-in's event (:mod:`.plugin`) is
:func:`decide` and :func:`append_checked`, called by the engine's loop.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.extending import overload

from hcsched.models.value.editing import queueing_table, switching
from hcsched.models.value.kinds import Kind
from hcsched.models.value.max_max import max_max_carried
from hcsched.models.value.min_min import max_min, min_min
from hcsched.models.value.plugin import Machines, Tasks, machines_view, tasks_view
from hcsched.models.value.rounds import percent_best, relative_cost
from hcsched.models.value.shared import Carry, Rows
from hcsched.models.value.sufferage import slack_sufferage_carried


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


class Mappable(NamedTuple):
    """The mappable tasks of one event taken out of the queues: their :class:`~hcsched.models.value.shared.Rows`,
    task ids (increasing), each machine's available time after its fixed first task, and the buffers where a
    rebuilding kernel writes the order it appends them in (row numbers and machines)."""

    rows: Rows
    ids: np.ndarray
    mat: np.ndarray
    out_t: np.ndarray
    out_m: np.ndarray


@njit(cache=True)
def take_mappable(new, queues, trial, copy_etc):
    """The :class:`Mappable` tasks at the arrival of ``new`` (taken out of the queues). ``copy_etc``: copy their ETC
    rows into ``Rows.E``; a kernel that reads them from the trial's ETC by task id does without (at 16x that copy,
    every mappable row at every event, took 0.3 s of each heuristic's trial: Max-Max 2.3 s, Slack Sufferage 4.9 s
    with it)."""
    queue, qlen, base = queues
    etc = trial.etc
    M = base.size
    mat = base.copy()
    for j in range(M):
        if qlen[j] > 0:
            mat[j] += etc[queue[j, 0], j]
    ids = mappable(new, queue, qlen)
    S = ids.size
    E = np.empty((S if copy_etc else 0, M))
    for a in range(E.shape[0]):
        E[a] = etc[ids[a]]
    rows = Rows(E, trial.weight[ids], trial.prio[ids], trial.d100[ids], trial.d50[ids], trial.d25[ids])
    return Mappable(rows, ids, mat, np.empty(S, np.int64), np.empty(S, np.int64))


@njit(cache=True)
def append_mapped(m, n, queues):
    """Append the first ``n`` (row, machine) pairs a rebuilding kernel wrote into ``m`` to the queues, in order;
    returns -1 (no single machine: :func:`mapping_event`'s answer for a rebuilding heuristic)."""
    queue, qlen = queues.queue, queues.qlen
    for s in range(n):
        j = m.out_m[s]
        queue[j, qlen[j]] = m.ids[m.out_t[s]]
        qlen[j] += 1
    return -1


@njit(cache=True)
def new_carry(kind, tasks, machines):
    """An empty :class:`~hcsched.models.value.shared.Carry` for heuristic ``kind`` on a trial of ``tasks`` tasks on
    ``machines`` machines (only Slack Sufferage keeps PS rows)."""
    rows = tasks if kind == Kind.SLACK_SUFFERAGE else 0
    return Carry(np.full(machines, np.nan), np.full(tasks, -1, np.int64), np.empty(tasks), np.empty(tasks),
                 np.full(tasks, -1, np.int64), np.empty((rows, machines)))


@njit(cache=True)
def mapping_event(kind, fp, state, new, now, end, queues, trial, carry):
    """One mapping event at the arrival of task ``new`` by heuristic ``kind``, the value model's one dispatcher: edits
    the :class:`Queues` in place. ``state``: what a heuristic keeps between events (Switching's mode; the running
    mean ETC for Queueing Table); ``carry``: what Max-Max and Slack Sufferage carry between events (:func:`new_carry`);
    ``end``: the end of the evaluation period. Returns the new task's machine for an editing heuristic, -1 for a
    rebuilding one; raises ValueError for a code that is no heuristic's.

    An editing kernel takes ``(fp, state, new, now, queues, trial)`` and returns the new task's machine; a
    rebuilding kernel takes ``std`` (the contract of :mod:`.shared`): it reads the mappable tasks
    (:func:`take_mappable`) and writes the order it maps them in, which is appended to the queues
    (:func:`append_mapped`). Max-Max and Slack Sufferage (``carried``) read the ETC rows by task id and use the
    carry."""
    if kind == Kind.QUEUEING_TABLE:
        return queueing_table(fp, state, new, now, queues, trial)
    if kind == Kind.SWITCHING:
        return switching(fp, state, new, now, queues, trial)
    carried = kind == Kind.MAX_MAX or kind == Kind.SLACK_SUFFERAGE  # they read the trial's ETC rows by task id
    m = take_mappable(new, queues, trial, not carried)
    std = (fp, m.rows, now, end, m.mat, m.out_t, m.out_m)  # a rebuilding kernel's arguments (shared.py)
    if kind == Kind.MAX_MAX:
        n = max_max_carried(m.rows, m.ids, trial.etc, carry, m.mat, m.out_t, m.out_m)
    elif kind == Kind.MAX_MIN:
        n = max_min(*std)
    elif kind == Kind.MIN_MIN:
        n = min_min(*std)
    elif kind == Kind.PERCENT_BEST:
        n = percent_best(*std)
    elif kind == Kind.RELATIVE_COST:
        n = relative_cost(*std)
    elif kind == Kind.SLACK_SUFFERAGE:
        n = slack_sufferage_carried(fp, m.rows, m.ids, trial.etc, carry, end, m.mat, m.out_t, m.out_m)
    else:
        raise ValueError("no value heuristic has this kind code")
    return append_mapped(m, n, queues)


def _heads(queues):
    head = np.full(queues.qlen.size, -1, np.int64)
    for j in range(head.size):
        if queues.qlen[j] > 0:
            head[j] = queues.queue[j, 0]
    return head


def decide(rule, now, end, m, queues, trial, fp):
    """A plug-in's decision at one event (:mod:`.plugin`): ``rule`` called on read-only views of the
    :class:`Mappable` tasks ``m`` and the machines; its pairs as an int64 array (S x 2). This plain Python version
    runs in the engine's loop run as plain Python; inside the jitted loop its numba version (the overload below)
    calls a compiled rule on the same views, not copied. Raises ValueError when the result is no (S x 2) array of
    integers."""
    tasks = tasks_view(m.ids, m.rows.E, m.rows.prio, m.rows.p, m.rows.d100, m.rows.d50, m.rows.d25,
                       trial.arrival[m.ids], frozen=True)
    pairs = np.asarray(rule(float(now), float(end), tasks, machines_view(m.mat, _heads(queues), frozen=True),
                            _read_only(fp)))
    if pairs.dtype.kind not in "iu" or pairs.ndim != 2 or pairs.shape[1] != 2:
        raise ValueError(f"plug-in decision: it returned {pairs.dtype} values of shape {pairs.shape}")
    return np.ascontiguousarray(pairs, np.int64)


def _read_only(a):
    out = np.array(a)
    out.setflags(write=False)
    return out


@overload(decide, jit_options={"cache": True})
def _decide_jit(rule, now, end, m, queues, trial, fp):
    def impl(rule, now, end, m, queues, trial, fp):
        head = np.full(queues.qlen.size, -1, np.int64)
        for j in range(head.size):
            if queues.qlen[j] > 0:
                head[j] = queues.queue[j, 0]
        tasks = Tasks(m.ids, m.rows.E, m.rows.prio, m.rows.p, m.rows.d100, m.rows.d50, m.rows.d25,
                      trial.arrival[m.ids])
        return rule(now, end, tasks, Machines(m.mat.copy(), head), fp)
    return impl


@njit(cache=True)
def append_checked(m, pairs, queues):
    """Append a plug-in's ``pairs`` (row of the mappable tasks, machine) to the queues in order, after checking them:
    S rows, each mappable task exactly once, every machine one of the system's; raises ValueError otherwise."""
    S, M = m.ids.size, queues.qlen.size
    if pairs.shape[0] != S or pairs.shape[1] != 2:
        raise ValueError("plug-in decision: give one (row, machine) pair per mappable task (an S x 2 array)")
    seen = np.zeros(S, np.bool_)
    for s in range(S):
        i, j = pairs[s, 0], pairs[s, 1]
        if i < 0 or i >= S:
            raise ValueError("plug-in decision: a row out of range (rows index the mappable tasks: 0 to S-1)")
        if j < 0 or j >= M:
            raise ValueError("plug-in decision: a machine out of range (machines are 0 to M-1)")
        if seen[i]:
            raise ValueError("plug-in decision: a task mapped twice (map each mappable task exactly once)")
        seen[i] = True
    queue, qlen = queues.queue, queues.qlen
    for s in range(S):
        j = pairs[s, 1]
        queue[j, qlen[j]] = m.ids[pairs[s, 0]]
        qlen[j] += 1
