"""The static problem of Kim et al. (2007), section 5.1, and what TPSA (:mod:`.annealing`) and the GA (:mod:`.genetic`)
share: a schedule's evaluation and the moves that edit its queues.

A :class:`StaticProblem` knows every task's arrival, actual times ATC on every machine, weight and deadlines, and the
evaluation window [B, E] (section 5.1). A schedule is ``(machine[T], order[T])``: each machine runs its tasks in
increasing ``order`` (ties: lowest task index), each starting as early as possible in that order, i.e. at max(its
arrival, the previous task's finish), every machine free from time 0 (section 5.2, steps 1-4; docs/models/value.md).
Inserting each task into the earliest idle gap that fits, the other reading, would make every evaluation quadratic in
the queue length and is not offered. The objective is V of section 2.2.3 (:mod:`..worth`) or, for a plain static ETC
problem (:meth:`StaticProblem.makespan`), the makespan, whose negative is maximised so that larger is always better.

Inside, a schedule is per-machine queues ``seq[M, T]`` (the first ``cnt[m]`` entries of row m), and the kernels
compare per-machine sums of V, re-evaluating only the machines a move or a crossover changed, each from the last state
its evaluation saved before the first change (:func:`resume`): the same additions in the same order as a whole
evaluation, so every score, and every decision made on one, is the same to the last bit. The returned ``score`` is V
recomputed by :func:`~hcsched.models.value.worth.value` (or minus the makespan).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit

from hcsched.errors import HcschedError
from hcsched.models.value.worth import boundary_factor, deadline_factor, value

OBJECTIVES = ("value", "makespan")


class Arrays(NamedTuple):
    """A :class:`StaticProblem` as the kernels read it: the arrivals, the actual times machine by machine
    (``atc_t[m]``, contiguous), one record per task (:data:`RECORD`: what a task's evaluation reads beside its actual
    time, side by side), the window [B, E], and whether the objective is the makespan."""

    arrival: np.ndarray
    atc_t: np.ndarray
    task: np.ndarray
    B: float
    E: float
    makespan: bool


#: A task's record in :attr:`Arrays.task`: its arrival, weight and deadlines, padded to 8 numbers (64 bytes, one cache
#: line), so that an evaluation step reads one record instead of five arrays.
RECORD = ("arrival", "weight", "d100", "d50", "d25")
RECORD_SIZE = 8


@dataclass(frozen=True, eq=False)
class StaticProblem:
    """A static problem with full knowledge (section 5.1): T tasks, M machines, actual times ``atc[T, M]``."""

    arrival: np.ndarray
    atc: np.ndarray
    weight: np.ndarray
    d100: np.ndarray
    d50: np.ndarray
    d25: np.ndarray
    B: float = 0.0
    E: float = math.inf
    objective: str = "value"

    def __post_init__(self):
        atc = np.ascontiguousarray(self.atc, dtype=float)
        if atc.ndim != 2 or atc.shape[0] < 1 or atc.shape[1] < 1:
            raise HcschedError(f"atc: shape {atc.shape} is not allowed; allowed: a tasks x machines matrix")
        if not np.all(np.isfinite(atc)) or atc.min() <= 0:
            raise HcschedError("atc: every actual time must be finite and > 0")
        object.__setattr__(self, "atc", atc)
        for name in ("arrival", "weight", "d100", "d50", "d25"):
            a = np.ascontiguousarray(getattr(self, name), dtype=float).ravel()
            if a.shape != (atc.shape[0],) or np.isnan(a).any():
                raise HcschedError(f"{name}: {a.size} values (or NaN) for {atc.shape[0]} tasks; "
                                   "allowed: one number per task")
            object.__setattr__(self, name, a)
        if not np.isfinite(self.arrival).all() or self.arrival.min() < 0:
            raise HcschedError("arrival: every arrival must be finite and >= 0")
        if self.objective not in OBJECTIVES:
            raise HcschedError(f"objective: {self.objective!r} is not allowed; allowed: one of {', '.join(OBJECTIVES)}")
        if not float(self.B) < float(self.E):
            raise HcschedError(f"B: {self.B} must be smaller than E ({self.E})")
        object.__setattr__(self, "B", float(self.B))
        object.__setattr__(self, "E", float(self.E))

    @classmethod
    def makespan(cls, etc) -> StaticProblem:
        """A plain static ETC problem: every task arrives at 0, the objective is the makespan."""
        etc = np.asarray(etc, dtype=float)
        t = etc.shape[0] if etc.ndim == 2 else 0
        inf = np.full(t, np.inf)
        return cls(np.zeros(t), etc, np.ones(t), inf, inf, inf, 0.0, math.inf, "makespan")

    @property
    def tasks(self) -> int:
        return self.atc.shape[0]

    @property
    def machines(self) -> int:
        return self.atc.shape[1]

    def arrays(self) -> Arrays:
        """The problem as the kernels read it."""
        return Arrays(self.arrival, np.ascontiguousarray(self.atc.T), self._records(), self.B, self.E,
                      self.objective == "makespan")

    def _records(self) -> np.ndarray:
        """The tasks' records (:data:`RECORD`), each in its own cache line (the array starts on a 64-byte boundary)."""
        room = np.zeros(self.tasks * RECORD_SIZE + RECORD_SIZE)
        first = (-room.ctypes.data % (RECORD_SIZE * room.itemsize)) // room.itemsize
        task = room[first: first + self.tasks * RECORD_SIZE].reshape(self.tasks, RECORD_SIZE)
        for f, name in enumerate(RECORD):
            task[:, f] = getattr(self, name)
        return task


@dataclass(frozen=True, eq=False)
class StaticResult:
    """The best schedule found: ``order`` is each task's position in its machine's queue (0, 1, ...)."""

    machine: np.ndarray
    order: np.ndarray
    start: np.ndarray
    finish: np.ndarray
    score: float  # V, or minus the makespan
    evaluations: int  # schedules evaluated (a one- or two-machine re-evaluation counts as one)


# --- evaluation ------------------------------------------------------------------------------------------------------
#: A queue's evaluation saves its state every EVERY positions (:func:`resume`), so that a queue changed from position
#: p on is evaluated again from the last state saved at or before p: the same additions in the same order, so the
#: same sums to the last bit as a whole evaluation.
EVERY = 8
CLEAN = 2**62  # a queue's first changed position when nothing changed since its evaluation


def saved_states(machines: int, tasks: int, *lead: int) -> np.ndarray:
    """Room for the states :func:`resume` saves: ``lead`` x machines x (tasks // EVERY + 1) x (last finish, sum)."""
    return np.zeros((*lead, machines, tasks // EVERY + 1, 2))


@njit(cache=True)
def resume(row, k, m, pa, saved, p):
    """(sum of p d b, last finish) of the first ``k`` tasks of ``row`` run in that order on machine m (section 5.2:
    each at max(its arrival, the previous finish)), for the problem's :class:`Arrays` ``pa``, from the state ``saved``
    holds at or before position p (the queue is unchanged before p); ``saved[j]`` becomes (last finish, sum) after
    the first j x EVERY tasks, for every j x EVERY <= k. ``saved[0]`` is (0, 0): with p = 0, a whole evaluation."""
    task, atc, B, E = pa.task, pa.atc_t[m], pa.B, pa.E
    j = p // EVERY
    t, v = saved[j, 0], saved[j, 1]
    for r in range(j * EVERY, k):
        if r % EVERY == 0:
            saved[r // EVERY, 0], saved[r // EVERY, 1] = t, v
        i = np.uint64(row[r])  # unsigned: indexed without numba's negative-index wrap-around
        a = task[i, 0]  # the record's fields: RECORD
        s = a if a > t else t
        t = s + atc[i]
        if pa.makespan:
            continue
        if B <= s and t <= E:  # inside [B, E]: b = 1, case (b) of boundary_factor (the product is the same)
            v += task[i, 1] * deadline_factor(t, task[i, 2], task[i, 3], task[i, 4])
        elif s < E and t > B:
            v += task[i, 1] * deadline_factor(t, task[i, 2], task[i, 3], task[i, 4]) * boundary_factor(
                s, t, atc[i], B, E)
    if k % EVERY == 0:
        saved[k // EVERY, 0], saved[k // EVERY, 1] = t, v
    return v, t


@njit(cache=True)
def total(mval, mfin, makespan):
    """The score from the per-machine sums: V, or minus the largest finish."""
    total = 0.0 if not makespan else -mfin[0]
    for m in range(mval.size):
        if makespan:
            total = min(total, -mfin[m])
        else:
            total += mval[m]
    return total


@njit(cache=True)
def _times(seq, cnt, arrival, atc):
    """Start and finish of every task: machine by machine, in queue order, at max(arrival, previous finish)."""
    n = arrival.size
    start, finish = np.full(n, np.nan), np.full(n, np.nan)
    for m in range(cnt.size):
        t = 0.0
        for p in range(cnt[m]):
            i = seq[m, p]
            start[i] = arrival[i] if arrival[i] > t else t
            t = finish[i] = start[i] + atc[i, m]
    return start, finish



def sequences(problem: StaticProblem, machine, order) -> tuple[np.ndarray, np.ndarray]:
    """Per-machine queues ``seq[M, T]`` (the first ``cnt[m]`` entries of row m) from ``(machine, order)``."""
    t, mm = problem.tasks, problem.machines
    machine = np.asarray(machine).ravel()
    order = np.asarray(order, dtype=float).ravel()
    if machine.shape != (t,) or order.shape != (t,):
        raise HcschedError(f"machine, order: {machine.size} and {order.size} values for {t} tasks; "
                           "allowed: one per task")
    if not np.issubdtype(machine.dtype, np.integer) and not np.all(machine == np.round(machine)):
        raise HcschedError("machine: every entry must be a whole machine index")
    machine = machine.astype(np.int64)
    if t and (machine.min() < 0 or machine.max() >= mm):
        raise HcschedError(f"machine: {int(machine.min())}..{int(machine.max())} is not allowed; allowed: 0..{mm - 1}")
    if not np.isfinite(order).all():
        raise HcschedError("order: every entry must be a finite number")
    ranked = np.lexsort((np.arange(t), order, machine))  # by machine, then order, then task index
    cnt = np.bincount(machine, minlength=mm).astype(np.int64)
    seq = np.full((mm, t), -1, dtype=np.int64)
    first = np.concatenate(([0], np.cumsum(cnt)[:-1]))
    for m in range(mm):
        seq[m, : cnt[m]] = ranked[first[m]: first[m] + cnt[m]]
    return seq, cnt


def _positions(seq, cnt, t: int) -> tuple[np.ndarray, np.ndarray]:
    machine, order = np.empty(t, np.int64), np.empty(t, float)
    for m in range(cnt.size):
        machine[seq[m, : cnt[m]]] = m
        order[seq[m, : cnt[m]]] = np.arange(cnt[m], dtype=float)
    return machine, order


def evaluate(problem: StaticProblem, machine, order) -> tuple[np.ndarray, np.ndarray]:
    """Start and finish times of a schedule (section 5.2, steps 1-4; each task at max(arrival, previous finish))."""
    seq, cnt = sequences(problem, machine, order)
    return _times(seq, cnt, problem.arrival, problem.atc)


def _score_times(problem: StaticProblem, start, finish) -> float:
    if problem.objective == "makespan":
        return -float(np.nanmax(finish))
    p = problem
    return float(value(start, finish, p.weight, p.d100, p.d50, p.d25, p.B, p.E))


def score(problem: StaticProblem, machine, order) -> float:
    """V of section 2.2.3 (objective "value") or minus the makespan (objective "makespan")."""
    return _score_times(problem, *evaluate(problem, machine, order))


def result(problem, seq, cnt, evaluations) -> StaticResult:
    machine, order = _positions(seq, cnt, problem.tasks)
    start, finish = _times(seq, cnt, problem.arrival, problem.atc)
    return StaticResult(machine, order, start, finish, _score_times(problem, start, finish), int(evaluations))


def draw_seed(rng) -> int:
    return int(rng.integers(0, 2**31 - 1))


# --- moves (TPSA and the GA) ---------------------------------------------------------------------------------------
@njit(cache=True)
def remove(row, k, p):
    """Remove position p from the first k entries of ``row``."""
    for r in range(p, k - 1):
        row[r] = row[r + 1]


@njit(cache=True)
def insert(row, k, q, i):
    """Insert task i at position q of the first k entries of ``row``."""
    for r in range(k, q, -1):
        row[r] = row[r - 1]
    row[q] = i


@njit(cache=True)
def draw_target(cnt, a):
    """A uniformly random machine b and a uniformly random position in its queue once the task has left machine a."""
    b = np.random.randint(cnt.size)
    slots = cnt[b] if b == a else cnt[b] + 1
    return b, np.random.randint(slots)


@njit(cache=True)
def reindex(seq, cnt, m, wp, p):
    """``wp`` (each task's position) for machine m's queue from position p on."""
    for r in range(p, cnt[m]):
        wp[seq[m, r]] = r




@njit(cache=True)
def copy_queues(src, src_cnt, dst, dst_cnt):
    """Copy the queues (plain loops: numba compiles slice assignments slowly)."""
    for m in range(src_cnt.size):
        for r in range(src_cnt[m]):
            dst[m, r] = src[m, r]
        dst_cnt[m] = src_cnt[m]

