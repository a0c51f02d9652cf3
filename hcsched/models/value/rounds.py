"""The heuristics of Kim et al. (2007) that map in rounds, one task per machine at most in each: Percent Best
(section 4.4) and Relative Cost (section 4.6), as numba kernels of one mapping event; the kernel contract is
:mod:`.shared`'s. Slack Sufferage, which maps in rounds too, has its own module (:mod:`.sufferage`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hcsched.models.value.shared import assign_round, mct
from hcsched.models.value.worth import deadline_factor


@njit(cache=True)
def percent_best(fp, rows, now, end, mat, out_t, out_m):
    """Percent Best (section 4.4): the priority groups high, medium, low in turn, with ``counts[level]`` (m) of the
    machines. In a round each task of the group takes its minimum completion time machine among its m fastest (ETC;
    ties: lowest machine) and the idle ones (mat = now; docs/models/value.md, "Readings of the paper"); the tasks alone
    on their machine are mapped, and a machine several tasks chose goes to the earliest D100 (ties: lowest task); mat is
    updated and the round repeats until the group is mapped. A machine gets at most one task per round, appended in
    machine order. ``fp`` = m of the high, medium and low groups (:func:`pack_percent_best`)."""
    E, prio, d100 = rows.E, rows.prio, rows.d100
    S, M = E.shape
    counts = np.empty(3, np.int64)
    for g in range(3):
        counts[g] = int(fp[g])
    w = 0
    choice = np.empty(S, np.int64)
    cand = np.zeros((S, M), np.bool_)
    winner = np.empty(M, np.int64)
    taken = np.zeros(M, np.bool_)
    for level in range(3):
        members = np.flatnonzero(prio == level)
        if members.size == 0:
            continue
        m = min(M, counts[level])
        for i in members:
            order = np.argsort(E[i], kind="mergesort")
            for r in range(m):
                cand[i, order[r]] = True
            choice[i] = _pb_choice(E[i], cand[i], mat, now)
        alive = np.ones(members.size, np.bool_)
        left = members.size
        while left > 0:
            winner[:] = -1
            for a in range(members.size):
                if alive[a]:
                    i = members[a]
                    j = choice[i]
                    if winner[j] < 0 or d100[i] < d100[winner[j]]:
                        winner[j] = i
            taken[:] = False
            for j in range(M):
                i = winner[j]
                if i >= 0:
                    mat[j] += E[i, j]
                    taken[j] = True
                    out_t[w], out_m[w] = i, j
                    w += 1
            for a in range(members.size):
                if alive[a]:
                    i = members[a]
                    if winner[choice[i]] == i:
                        alive[a] = False
                        left -= 1
                    elif taken[choice[i]]:
                        choice[i] = _pb_choice(E[i], cand[i], mat, now)
    return w


@njit(cache=True)
def _pb_choice(e, cand, mat, now):
    best, bc = -1, math.inf
    for j in range(e.size):
        if cand[j] or mat[j] <= now:
            c = mat[j] + e[j]
            if c < bc:
                best, bc = j, c
    return best


def machine_count(percent: float, machines: int) -> int:
    """m of Percent Best: ``percent`` of the machines, rounded half up, at least 1 (3, 4, 8 of 8 by default)."""
    return max(1, min(machines, math.floor(machines * percent / 100.0 + 0.5)))


def pack_percent_best(params: dict, spec, w) -> np.ndarray:
    """Percent Best's ``fp``: m of the high, medium and low groups on ``spec.machines``."""
    return np.array([machine_count(params[f"percent_{g}"], spec.machines) for g in ("high", "medium", "low")], float)


@njit(cache=True)
def relative_cost(fp, rows, now, end, mat, out_t, out_m):
    """Relative Cost (section 4.6): RC = min_j CT / mean_j CT and worth = p x d(min CT), recomputed every round.

    A round takes the tasks tied at the highest worth and their minimum completion time (MCT) machines. Without
    contention all are mapped. With contention, by default (``single`` false): every task alone on its MCT machine is
    mapped and each contended machine goes to the lowest RC ("tasks with a unique minimum completion time machine are
    assigned"); with ``single``, the other reading (docs/models/value.md, "Readings of the paper"): only the lowest-RC
    task of the round is mapped. Ties: lowest task. ``fp`` = [single]
    (:func:`~hcsched.models.value.shared.pack_contention`).
    """
    single = fp[0] != 0.0
    E, p, d100, d50, d25 = rows.E, rows.p, rows.d100, rows.d50, rows.d25
    S, M = E.shape
    alive = np.ones(S, np.bool_)
    bj = np.empty(S, np.int64)
    bc = np.empty(S)
    sum_e = np.empty(S)
    ix = np.arange(S)
    for i in range(S):
        bj[i], bc[i] = mct(E[i], mat)
        sum_e[i] = E[i].sum()
    winner = np.empty(M, np.int64)
    count = np.empty(M, np.int64)
    taken = np.zeros(M, np.bool_)
    w = 0
    while w < S:
        top = -1.0
        for i in range(S):
            if alive[i]:
                v = p[i] * deadline_factor(bc[i], d100[i], d50[i], d25[i])
                if v > top:
                    top = v
        total = mat.sum()
        winner[:] = -1
        count[:] = 0
        best_rc, first = math.inf, -1
        for i in range(S):
            if alive[i] and p[i] * deadline_factor(bc[i], d100[i], d50[i], d25[i]) == top:
                j = bj[i]
                rc = bc[i] * M / (total + sum_e[i])
                count[j] += 1
                if winner[j] < 0 or rc < bc[winner[j]] * M / (total + sum_e[winner[j]]):
                    winner[j] = i
                if rc < best_rc:
                    best_rc, first = rc, i
        w = assign_round(single, first, (winner, count, alive, taken), E, ix, mat, out_t, out_m, w)
        for i in range(S):
            if alive[i] and taken[bj[i]]:
                bj[i], bc[i] = mct(E[i], mat)
    return S
