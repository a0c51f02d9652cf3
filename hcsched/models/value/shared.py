"""What the rebuilding heuristics of Kim et al. (2007), section 4, share: the mappable tasks they read
(:class:`Rows`), what Max-Max and Slack Sufferage carry from one mapping event to the next (:class:`Carry`), the
minimum completion time machine (:func:`mct`) and the mapping of a round's winners (:func:`assign_round`).

A rebuilding heuristic gets the mappable tasks (the new task and every waiting task except the first of each queue,
section 4.1) as :class:`Rows` and ``mat`` (M), each machine's available time after its fixed first task. It writes
the tasks (row numbers) in the order they are appended to the queues into ``out_t`` / ``out_m`` and returns how
many; ``mat`` is updated in place. Its kernel takes ``(fp, rows, now, end, mat, out_t, out_m)``: ``fp`` is the float
vector its ``pack_*`` function makes from the heuristic's parameters (the registry entry carries that function),
``end`` the end of the evaluation period; :func:`hcsched.models.value.event.mapping_event` calls it.

Notation: CT(i, j) = mat(j) + ETC(i, j); the deadline factor of an estimated completion is
:func:`~hcsched.models.value.worth.deadline_factor` (never 0 here). Ties, unspecified by the paper, go to the lowest
task (row) index, then the lowest machine index (docs/models/value.md, "Readings of the paper"); rows are in
increasing task id. Each step updates only what changed: mat only grows, and every key a heuristic compares
(fitness, completion time, slack) only gets worse on a machine whose mat grew, so a task whose chosen machine was
not assigned keeps it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit


class Rows(NamedTuple):
    """The mappable tasks of one event (section 4.1), in increasing task id: ETC rows (S x M), weight p, priority
    level, deadlines."""

    E: np.ndarray
    p: np.ndarray
    prio: np.ndarray
    d100: np.ndarray
    d50: np.ndarray
    d25: np.ndarray


class Carry(NamedTuple):
    """What Max-Max and Slack Sufferage keep from one mapping event to the next: ``mat`` at the start of the last
    event (NaN before the first), and for each task id there: Max-Max's best machine (-1: never computed), that
    machine's key and an upper bound on the second-best key; Slack Sufferage's deadline level (-1: never computed)
    and PS row (``ps``: tasks x machines, 0 x machines for another heuristic); made by
    :func:`hcsched.models.value.event.new_carry`."""

    mat: np.ndarray
    best: np.ndarray
    key: np.ndarray
    second: np.ndarray
    level: np.ndarray
    ps: np.ndarray


def no_params(params: dict, spec, w) -> np.ndarray:
    """The ``fp`` of a heuristic without parameters."""
    return np.zeros(1)


@njit(cache=True)
def mct(e, mat):
    """(machine, completion) of the minimum completion time; ties: lowest machine."""
    best, bc = 0, mat[0] + e[0]
    for j in range(1, e.size):
        c = mat[j] + e[j]
        if c < bc:
            best, bc = j, c
    return best, bc


@njit(cache=True)
def assign_round(single, first, rnd, E, ix, mat, out_t, out_m, w):
    """Map a round's winners (one per machine, in machine order), or only ``first`` when ``single`` and some machine
    is contended; mark the machines whose mat grew in ``taken``. ``rnd`` = (winner and count per machine, alive,
    taken); task i's ETC row is ``E[ix[i]]``."""
    winner, count, alive, taken = rnd
    M = winner.size
    taken[:] = False
    contended = False
    for j in range(M):
        if count[j] > 1:
            contended = True
    for j in range(M):
        i = winner[j]
        if i < 0 or (single and contended and i != first):
            continue
        mat[j] += E[ix[i], j]
        taken[j] = True
        alive[i] = False
        out_t[w], out_m[w] = i, j
        w += 1
    return w


def pack_contention(params: dict, spec, w) -> np.ndarray:
    """Relative Cost's and Slack Sufferage's ``fp``: [contention single, end_factor (Slack Sufferage)]."""
    return np.array([params["contention"] == "single", params.get("end_factor", 0.05)], float)


@njit(cache=True)
def changed_machines(mat, last):
    """The machines whose mat differs from ``last`` (the mat at the start of the last mapping event; NaN before the
    first): their indexes in machine order and a flag per machine. Between two events only the machines that
    started a task or are idle (mat = now) change theirs."""
    M = mat.size
    changed = np.empty(M, np.int64)
    moved = np.zeros(M, np.bool_)
    nc = 0
    for j in range(M):
        if mat[j] != last[j]:
            changed[nc] = j
            moved[j] = True
            nc += 1
    return changed[:nc], moved
