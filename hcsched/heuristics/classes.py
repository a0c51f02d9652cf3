"""Heuristics of the task-class model of Al-Azzoni and Down, sections II-V, as numba kernels.

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

from numba import njit

from hcsched.heuristics.immediate import earliest_among as earliest

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
