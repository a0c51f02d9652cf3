"""The task-class model's kernels (Al-Azzoni and Down, sections II-V): its heuristics and its simulation loop.

Every heuristic of this model maps a class-i arrival to a machine among a
per-class candidate list (sorted by machine index): MET its fastest machine,
MCT every capable machine, KPB the kbar fastest, the LPAS family
S_i = {j : delta*_ij > 0}. The rules differ in how they choose among the
candidates (``kind``). Expected completion at machine j is
W_j + 1/mu_ij, with W_j = sum_i' Q_i'j / mu_i'j (section III-B, FCFS).
Random choices use two uniforms per task drawn before the run.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hcsched.kernels import earliest_among as earliest

EARLIEST, TWO_CHOICES, STATIC, GUIDED, GUIDED_TWO = range(5)


@njit(cache=True)
def draw(cands, count, weights, u, skip):
    """A candidate drawn with probability proportional to ``weights`` (``skip`` excluded)."""
    total = 0.0
    for k in range(count):
        if cands[k] != skip:
            total += weights[cands[k]]
    target = u * total
    last = -1
    for k in range(count):
        j = cands[k]
        if j == skip:
            continue
        last = j
        target -= weights[j]
        if target < 0.0:
            return j
    return last


@njit(cache=True)
def two_choices(cands, count, W, e, weights, u1, u2):
    """Two candidates drawn by weight (LPAS-2/k, section IV-A.1); the earlier completion wins."""
    if count <= 2:
        return earliest(cands, count, W, e), count
    j1 = draw(cands, count, weights, u1, -1)
    j2 = draw(cands, count, weights, u2, j1)
    c1, c2 = W[j1] + e[j1], W[j2] + e[j2]
    return (j1 if c1 < c2 or (c1 == c2 and j1 < j2) else j2), 2


@njit(cache=True)
def decide(kind, i, t, W, e, cands, count, weights, assigned, arrived, c, u1, u2, buf):
    """Machine for a class-i arrival at time t: (machine, machines consulted, 1 if condition (iii) overrode LPAS).

    ``weights[j]`` = delta*_ij mu_ij (the target shares pi_ij once normalised),
    ``assigned[j]`` = class-i tasks mapped to j so far, ``arrived`` = class-i
    arrivals including this one.

    Reading of the paper: LP-Static's p_ij = delta*_ij mu_ij / (lambda* alpha_i)
    (eq. 6), LPAS-2/k's p_j1, p_j2 (section IV-A.1) and Guided-LPAS's pi_ij
    (section V) sum to 1 only when constraint (1) is tight; they are normalised
    over the candidates, which is the same where it is tight and keeps them
    probabilities where it is slack.
    """
    if kind == EARLIEST:
        return earliest(cands, count, W, e), count, 0
    if kind == STATIC:
        return draw(cands, count, weights, u1, -1), 0, 0
    if kind == TWO_CHOICES:
        j, asked = two_choices(cands, count, W, e, weights, u1, u2)
        return j, asked, 0
    # Guided (section V): T_i(t) = {j in S_i : alpha_ij(t-) < pi_ij alpha_i(t) + c sqrt(t)}
    total = 0.0
    for k in range(count):
        total += weights[cands[k]]
    n = 0
    for k in range(count):
        j = cands[k]
        if assigned[j] < weights[j] / total * arrived + c * math.sqrt(t):
            buf[n] = j
            n += 1
    if n == 0:  # cannot happen when the shares sum to 1 (section V); guards against rounding
        buf[:count] = cands[:count]
        n = count
    if kind == GUIDED:
        j = earliest(buf, n, W, e)
        return j, n, int(earliest(cands, count, W, e) != j)
    j, asked = two_choices(buf, n, W, e, weights, u1, u2)
    return j, asked, 0


@njit(cache=True)
def run_classes(kind, arrival, cls, scale, mu, cands, counts, weights, c, u1, u2, horizon, samples):
    """Task classes on FCFS machines (Al-Azzoni and Down, section III-B), up to ``horizon``.

    Task n of class cls[n] arrives at arrival[n] (sorted) and runs for
    scale[n] / mu[cls[n], j] on machine j (a unit-mean draw per task, so every
    heuristic sees the same work). The mapper's view of machine j is
    W_j = sum over its tasks (running or waiting) of 1/mu. Returns machine,
    start and finish per task (inf if not finished by the horizon), the number
    of machines consulted, the number of Guided-LPAS overrides, and the number
    in system at the ``samples`` times.
    """
    n = arrival.size
    n_classes, m = mu.shape
    inv = np.full((n_classes, m), np.inf)
    for i in range(n_classes):
        for j in range(m):
            if mu[i, j] > 0.0:
                inv[i, j] = 1.0 / mu[i, j]
    machine = np.empty(n, np.int64)
    start = np.full(n, np.inf)
    finish = np.full(n, np.inf)
    W = np.zeros(m)
    end = np.full(m, np.inf)  # completion time of the running task
    head = np.full(m, -1)
    tail = np.full(m, -1)
    nxt = np.full(n, -1)
    assigned = np.zeros((n_classes, m), np.int64)
    arrived = np.zeros(n_classes, np.int64)
    buf = np.empty(m, np.int64)
    in_system = np.zeros(samples.size)
    consulted = 0
    overrides = 0
    count = 0  # tasks in system
    k = 0  # next sample
    for a in range(n + 1):
        t = arrival[a] if a < n else horizon
        while True:  # departures up to t
            j = np.argmin(end)
            te = end[j]
            if te > t:
                break
            while k < samples.size and samples[k] < te:
                in_system[k] = count
                k += 1
            h = head[j]
            finish[h] = te
            count -= 1
            W[j] -= inv[cls[h], j]
            h = nxt[h]
            head[j] = h
            if h >= 0:
                start[h] = te
                end[j] = te + scale[h] * inv[cls[h], j]
            else:
                end[j] = np.inf
                W[j] = 0.0  # no rounding residue on an empty machine
        while k < samples.size and samples[k] < t:
            in_system[k] = count
            k += 1
        if a == n:
            break
        i = cls[a]
        arrived[i] += 1
        j, asked, over = decide(kind, i, t, W, inv[i], cands[i], counts[i], weights[i], assigned[i], arrived[i],
                                        c, u1[a], u2[a], buf)
        consulted += asked
        overrides += over
        assigned[i, j] += 1
        machine[a] = j
        W[j] += inv[i, j]
        count += 1
        if head[j] < 0:
            head[j] = a
            start[a] = t
            end[j] = t + scale[a] * inv[i, j]
        else:
            nxt[tail[j]] = a
        tail[j] = a
    while k < samples.size:
        in_system[k] = count
        k += 1
    return machine, start, finish, consulted, overrides, in_system


_WARM = False


def warm_up() -> None:
    """Compile (or load from numba's disk cache) the task-class kernels, once per process (before forking)."""
    global _WARM
    if _WARM:
        return
    mu = np.array([[1.0, 2.0], [2.0, 1.0]])
    cands = np.array([[0, 1], [1, 0]])
    for kind in range(5):
        run_classes(kind, np.array([0.0, 0.5, 1.0]), np.array([0, 1, 0]), np.ones(3), mu, cands, np.array([2, 1]), mu, 1.0,
                    np.full(3, 0.5), np.full(3, 0.5), 2.0, np.linspace(0.0, 2.0, 3))
    _WARM = True
