"""Slack Sufferage of Kim et al. (2007), section 4.7 (Tables 3 and 5), as numba kernels of one mapping event (the
kernel contract is :mod:`.shared`'s), and the percentage slack as an array formula (:func:`percentage_slack`).

Within a run, each task's deadline level and percentage-slack row are carried from one event to the next
(:func:`slack_sufferage_carried`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hcsched.models.value.shared import assign_round, changed_machines, mct


@njit(cache=True)
def _deadline(level, d100, d50, d25, end, end_factor):
    """The deadline of level 0-3 (D100, D50, D25, the end of the evaluation period) and its worth factor."""
    if level == 0:
        return d100, 1.0
    if level == 1:
        return d50, 0.5
    if level == 2:
        return d25, 0.25
    return end, end_factor


@njit(cache=True, error_model="numpy")
def _ps(e, m, d):
    """PS(i, j, d) = 1 - ETC / (d - mat) where CT <= d, else -1 (section 4.7). Without branches (the quotient is
    computed and dropped where the deadline is missed; ``error_model="numpy"``: no check for a zero divisor), so that
    a loop over the machines vectorizes: about 1 ns a machine against 2.2-4.1 with the branches, which are taken by
    chance machine after machine."""
    x = 1.0 - e / (d - m)
    return x if (m + e <= d) & (d > m) else -1.0


@njit(cache=True)
def _two_best(row):
    """(best, second best machine, their PS) over a PS row; ties: lowest machine."""
    b1, b2 = -1, -1
    s1, s2 = -math.inf, -math.inf
    for j in range(row.size):
        ps = row[j]
        if ps > s1:
            b2, s2 = b1, s1
            b1, s1 = j, ps
        elif ps > s2:
            b2, s2 = j, ps
    return b1, b2, s1, s2


@njit(cache=True)
def _slack_out(out, b1, b2, s1, s2, worth, level):
    """:func:`_slack`'s ``out`` for a deadline met: criticality = best PS - second PS (-1 when there is one
    machine)."""
    out[0], out[1] = b1, b2
    out[2] = s1 - (s2 if b2 >= 0 else -1.0)
    out[3] = worth
    out[4] = s2
    out[5] = level


@njit(cache=True)
def _slack(e, p, d100, d50, d25, end, end_factor, mat, out, first, row):
    """Slack Sufferage step 2 for one task: the deadline used (D100, else D50, D25, then the end of the evaluation
    period when the task misses it on every machine), PS(i, j, d) = 1 - ETC / (d - mat) where CT <= d, else -1. Writes
    (best machine, second best machine, criticality = best PS - second PS, worth, second PS, the deadline's level 0-3, 4
    for none) into ``out`` and the PS of every machine at the last level computed into ``row`` (M floats). A task that
    misses even ``end`` everywhere goes to its MCT machine with criticality 0 (docs/models/value.md, "Readings of the
    paper"). The deadlines before level ``first`` are known to be missed everywhere (mat only grows within an event, so
    a deadline missed on every machine stays missed). Each level's PS are computed in one pass (:func:`_ps`, which
    vectorizes) and then scanned for the two best (:func:`_two_best`)."""
    least = math.inf  # the least CT: a later deadline before it is met nowhere (every PS -1)
    for level in range(first, 4):
        d, factor = _deadline(level, d100, d50, d25, end, end_factor)
        if least > d and level > first:
            continue
        for j in range(e.size):
            row[j] = _ps(e[j], mat[j], d)
        b1, b2, s1, s2 = _two_best(row)
        if s1 >= 0.0:
            _slack_out(out, b1, b2, s1, s2, p * factor, level)
            return
        if least == math.inf:
            least = mct(e, mat)[1]
    j, _ = mct(e, mat)
    out[0], out[1], out[2], out[3], out[4], out[5] = j, -1, 0.0, p * end_factor, -1.0, 4


@njit(cache=True)
def slack_sufferage(fp, rows, now, end, mat, out_t, out_m):
    """Slack Sufferage (section 4.7): each task's maximum percentage-slack machine (:func:`_slack`); the tasks tied at
    the highest worth are all mapped when their machines differ; otherwise (``single`` false, the default) the tasks
    alone on their machine are mapped and each contended machine goes to its most critical task (largest best minus
    second best PS, Table 3 counting -1), or (``single``, the other reading: docs/models/value.md, "Readings of the
    paper") only the most critical task of the round is mapped. Ties: lowest task.

    Incremental: a task's slack changes only if its best machine or a second-best machine with a PS of at least 0 was
    assigned (other machines only lose slack, and a machine that misses the deadline keeps missing it, so a second best
    at -1 stays at -1 on the same machine); such a task is marked stale and recomputed only when it may be among the
    highest worth (a stale worth is an upper bound: as mat grows the deadline used can only move later), from the
    deadline it used (:func:`_slack`). ``fp`` = [single, end_factor]
    (:func:`~hcsched.models.value.shared.pack_contention`).
    """
    end_factor = fp[1]
    S, M = rows.E.shape
    info = np.empty((S, 6))
    row = np.empty(M)
    for i in range(S):
        _slack(rows.E[i], rows.p[i], rows.d100[i], rows.d50[i], rows.d25[i], end, end_factor, mat, info[i], 0, row)
    return _slack_rounds(fp, rows, rows.E, np.arange(S), end, mat, info, out_t, out_m)[0]


@njit(cache=True)
def _worths(p, end_factor):
    """The worths a task can take in Slack Sufferage (p x 1, 0.5, 0.25, ``end_factor``; :func:`_deadline`), distinct
    and increasing."""
    kinds = np.unique(p)  # the distinct weights (one per priority level in the model's workloads)
    n = kinds.size
    v = np.empty(4 * n)
    for k in range(n):
        for level in range(4):
            v[4 * k + level] = kinds[k] * _deadline(level, 0.0, 0.0, 0.0, 0.0, end_factor)[1]
    return np.unique(v)


@njit(cache=True)
def _bucket(worths, v):
    """The list of worth v (one of ``worths``, increasing): 0 for the highest worth."""
    return worths.size - 1 - np.searchsorted(worths, v)


@njit(cache=True)
def _link(lists, i, k):
    """Put task i at the head of bucket k's list (``lists`` = heads per bucket, next and previous per task)."""
    head, nxt, prv = lists
    nxt[i], prv[i] = head[k], -1
    if head[k] >= 0:
        prv[head[k]] = i
    head[k] = i


@njit(cache=True)
def _unlink(lists, i, k):
    """Take task i out of bucket k's list."""
    head, nxt, prv = lists
    if prv[i] >= 0:
        nxt[prv[i]] = nxt[i]
    else:
        head[k] = nxt[i]
    if nxt[i] >= 0:
        prv[nxt[i]] = prv[i]


@njit(cache=True)
def _slack_rounds(fp, rows, E, ix, end, mat, info, out_t, out_m):
    """:func:`slack_sufferage`'s rounds from each task's :func:`_slack` ``info`` (task i's ETC row: ``E[ix[i]]``);
    returns (S, the number of recomputations).

    The tasks are kept in one list per worth (:func:`_worths`; :func:`_bucket` numbers them from the highest), so a
    round visits only the tasks at the highest worth: the stale ones among them are recomputed (and move to the list
    of their new, lower worth) until the highest non-empty list holds none. A task is stale when its best machine,
    or its second best with a PS of at least 0, was assigned in a round since the one it was computed in
    (``stamp``: that round; ``last``: each machine's last round assigned)."""
    single, end_factor = fp[0] != 0.0, fp[1]
    p, d100, d50, d25 = rows.p, rows.d100, rows.d50, rows.d25
    S, M = ix.size, mat.size
    worths = _worths(p, end_factor)
    lists = (np.full(worths.size, -1, np.int64), np.empty(S, np.int64), np.empty(S, np.int64))
    head = lists[0]
    for i in range(S - 1, -1, -1):
        _link(lists, i, _bucket(worths, info[i, 3]))
    alive = np.ones(S, np.bool_)
    stamp = np.zeros(S, np.int64)
    last = np.full(M, -1, np.int64)
    row = np.empty(M)
    recomputed = 0
    winner = np.empty(M, np.int64)
    count = np.empty(M, np.int64)
    taken = np.zeros(M, np.bool_)
    w = 0
    k = 0
    r = 0
    while w < S:
        while True:  # refresh the highest worth's stale tasks until it has none
            while head[k] < 0:
                k += 1
            i = head[k]
            while i >= 0:
                after = lists[1][i]
                if last[int(info[i, 0])] >= stamp[i] or (info[i, 4] >= 0.0 and last[int(info[i, 1])] >= stamp[i]):
                    _slack(E[ix[i]], p[i], d100[i], d50[i], d25[i], end, end_factor, mat, info[i], int(info[i, 5]), row)
                    stamp[i] = r
                    recomputed += 1
                    b = _bucket(worths, info[i, 3])
                    if b != k:
                        _unlink(lists, i, k)
                        _link(lists, i, b)
                i = after
            if head[k] >= 0:
                break
        winner[:] = -1
        count[:] = 0
        first = -1
        i = head[k]
        while i >= 0:
            j = int(info[i, 0])
            count[j] += 1
            if winner[j] < 0 or _more_critical(info, i, winner[j]):
                winner[j] = i
            if first < 0 or _more_critical(info, i, first):
                first = i
            i = lists[1][i]
        w = assign_round(single, first, (winner, count, alive, taken), E, ix, mat, out_t, out_m, w)
        for j in range(M):
            if taken[j]:
                last[j] = r
                _unlink(lists, winner[j], k)
        r += 1
    return S, recomputed


@njit(cache=True)
def _more_critical(info, i, k):
    """Whether task i wins a machine over task k of the same worth: larger criticality; ties: lower task."""
    return info[i, 2] > info[k, 2] or (info[i, 2] == info[k, 2] and i < k)


@njit(cache=True)
def _carried_slack(e, p, d100, d50, d25, end, end_factor, mat, out, row, level, changed):
    """:func:`_slack` from scratch (``first`` = 0) for a task whose ``row`` holds its PS at ``level`` (-1: none) at
    the last event's start, where only the machines ``changed`` had another mat (higher or lower). The other
    machines keep their PS, and met no earlier deadline: the deadline used is the first met by a changed machine if
    it comes before ``level`` (every other machine's PS at it is -1), else ``level`` when a machine still meets it,
    else one computed in full after it."""
    if level < 0 or level == 4:
        _slack(e, p, d100, d50, d25, end, end_factor, mat, out, 0, row)
        return
    low = level
    for q in range(changed.size):
        j = changed[q]
        for lv in range(low):
            d, _ = _deadline(lv, d100, d50, d25, end, end_factor)
            if _ps(e[j], mat[j], d) >= 0.0:
                low = lv
                break
    if low < level:
        row[:] = -1.0
    d, factor = _deadline(low, d100, d50, d25, end, end_factor)
    for q in range(changed.size):
        j = changed[q]
        row[j] = _ps(e[j], mat[j], d)
    b1, b2, s1, s2 = _two_best(row)
    if s1 >= 0.0:
        _slack_out(out, b1, b2, s1, s2, p * factor, low)
    else:
        _slack(e, p, d100, d50, d25, end, end_factor, mat, out, low + 1, row)


@njit(cache=True)
def slack_sufferage_carried(fp, rows, ids, etc, carry, end, mat, out_t, out_m):
    """:func:`slack_sufferage` with each task's deadline level and PS row at the start of the last event carried over
    (``carry.level``, ``carry.ps`` by task id; ``ids``: the rows' task ids): between two events only some machines
    change their mat (:func:`~hcsched.models.value.shared.changed_machines`), and every waiting task but the new one was
    mappable at the last event, so a task divides again only on those machines (:func:`_carried_slack`). ``carry`` is
    then updated to this event. The ETC rows are read from the trial's ``etc`` by id (``rows.E`` is not read)."""
    end_factor = fp[1]
    S = ids.size
    changed, _ = changed_machines(mat, carry.mat)
    info = np.empty((S, 6))
    for a in range(S):
        t = ids[a]
        _carried_slack(etc[t], rows.p[a], rows.d100[a], rows.d50[a], rows.d25[a], end, end_factor, mat, info[a],
                       carry.ps[t], carry.level[t], changed)
        carry.level[t] = int(info[a, 5])
    carry.mat[:] = mat
    return _slack_rounds(fp, rows, etc, ids, end, mat, info, out_t, out_m)[0]


def percentage_slack(etc, deadline, mat) -> np.ndarray:
    """PS(i, j, d) = 1 - ETC(i, j) / (d_i - mat(j)), or -1 where the task misses d on j (section 4.7; Tables 3 and
    5). ``etc``: tasks x machines; ``deadline``: one per task; ``mat``: one per machine."""
    etc = np.asarray(etc, float)
    d = np.asarray(deadline, float)[:, None]
    mat = np.asarray(mat, float)[None, :]
    room = d - mat
    with np.errstate(divide="ignore", invalid="ignore"):
        ps = 1.0 - etc / room
    return np.where((mat + etc <= d) & (room > 0), ps, -1.0)
