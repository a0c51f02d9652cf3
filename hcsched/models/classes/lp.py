"""The allocation LP of Al-Azzoni and Down, section III-A, equations (1)-(3).

    max lambda  s.t.  sum_j delta_ij mu_ij >= lambda alpha_i  (1),
                      sum_i delta_ij <= 1                     (2),
                      delta_ij >= 0                           (3).

lambda* > 1: the system can be stabilised (Theorem 1); lambda* < 1: it cannot
(Theorem 2). Solved with HiGHS's dual simplex, which returns a vertex: the
paper uses the optimal solution with NM + 1 - N - M zeros in delta*.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hcsched.errors import HcschedError
from hcsched.validate import MAX_RATE


@dataclass(frozen=True)
class Allocation:
    """lambda* and delta* (classes x machines) of the allocation LP."""

    lam: float
    delta: np.ndarray

    @property
    def stable(self) -> bool:
        """Whether the system can be stabilised (lambda* > 1, Theorem 1)."""
        return self.lam > 1.0

    @property
    def support(self) -> np.ndarray:
        """S_i: the machines with delta*_ij > 0, as a boolean matrix."""
        return self.delta > 1e-12

    def to_dict(self) -> dict:
        return {"lambda": self.lam, "delta": np.round(self.delta, 10).tolist(), "stable": self.stable}


def times(lam: float) -> str:
    """lambda* as a number of times the arrivals, to two decimals, more where two would round a value other than 1 to 1
    ("1.33", "1.004", "0.9996")."""
    digits = 2
    while digits < 4 and round(lam, digits) == 1 and lam != 1:
        digits += 1
    return f"{lam:.{digits}f}"


def check_rates(alpha, mu) -> tuple[np.ndarray, np.ndarray]:
    """Validate arrival rates (N) and execution rates (N x M); every class must be runnable somewhere."""
    alpha = np.asarray(alpha, dtype=float)
    mu = np.asarray(mu, dtype=float)
    if alpha.ndim != 1 or alpha.size < 1:
        raise HcschedError(f"arrival_rates: {alpha.tolist()} is not allowed; give one rate per class (at least one "
                           f"class)")
    if mu.ndim != 2 or mu.shape[0] != alpha.size or mu.shape[1] < 1:
        raise HcschedError(f"exec_rates: shape {mu.shape} does not match {alpha.size} classes; give one row per class "
                           "and one column per machine (or machine group)")
    bad_alpha = ~np.isfinite(alpha) | (alpha < 1 / MAX_RATE) | (alpha > MAX_RATE)
    if bad_alpha.any():
        i = int(np.flatnonzero(bad_alpha)[0])
        raise HcschedError(f"arrival_rates: class {i} has rate {alpha[i]}; arrival rates must be from {1 / MAX_RATE:g} "
                           f"to {MAX_RATE:g} (outside it the arrival times overflow or underflow)")
    bad_mu = ~np.isfinite(mu) | (mu < 0) | (mu > MAX_RATE) | ((mu > 0) & (mu < 1 / MAX_RATE))
    if bad_mu.any():
        i, j = map(int, np.argwhere(bad_mu)[0])
        raise HcschedError(f"exec_rates: (class {i}, machine {j}) = {mu[i, j]}; execution rates must be 0 (the machine "
                           f"cannot run the class) or from {1 / MAX_RATE:g} to {MAX_RATE:g} (outside it the execution "
                           "times overflow or underflow)")
    dead = np.flatnonzero((mu <= 0).all(axis=1))
    if dead.size:
        raise HcschedError(f"exec_rates: class {int(dead[0])} has rate 0 on every machine; every class must be "
                           f"runnable "
                           "on at least one machine")
    return alpha, mu


def expand_groups(mu: np.ndarray, groups) -> np.ndarray:
    """Per-group rates (N x G) to per-machine rates (N x sum(groups))."""
    return np.repeat(mu, np.asarray(groups, dtype=int), axis=1)


def solve_allocation(alpha, mu, groups=None, allowed=None) -> Allocation:
    """Solve the allocation LP; delta* is per machine.

    ``groups`` (machines per group) means the columns of ``mu`` are groups of
    identical machines: the reduced LP with rates n_g mu_ig is solved and each
    machine of a group gets the group's delta*, as the paper does for C1, C2.
    ``allowed`` (classes x machines, boolean) forces delta_ij = 0 elsewhere:
    the LP of a heuristic restricted to those machines.
    """
    from scipy.optimize import linprog  # lazy: scipy is slow to import

    alpha, mu = check_rates(alpha, mu)
    if groups is not None:
        sizes = np.asarray(groups, dtype=int)
        reduced = solve_allocation(alpha, mu * sizes, allowed=None if allowed is None else _group_mask(allowed, sizes))
        return Allocation(reduced.lam, expand_groups(reduced.delta, sizes))
    n, m = mu.shape
    usable = mu > 0 if allowed is None else (mu > 0) & np.asarray(allowed, bool)
    c = np.zeros(n * m + 1)
    c[-1] = -1.0  # maximise lambda
    a_ub = np.zeros((n + m, n * m + 1))
    for i in range(n):  # lambda alpha_i - sum_j delta_ij mu_ij <= 0
        a_ub[i, i * m:(i + 1) * m] = -mu[i]
        a_ub[i, -1] = alpha[i]
    for j in range(m):  # sum_i delta_ij <= 1
        a_ub[n + j, j:n * m:m] = 1.0
    b_ub = np.concatenate([np.zeros(n), np.ones(m)])
    bounds = [(0.0, 1.0 if usable[i, j] else 0.0) for i in range(n) for j in range(m)] + [(0.0, None)]
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, bounds=bounds, method="highs-ds")
    if res.status != 0:
        raise HcschedError(f"allocation LP: the solver failed ({res.message})")
    delta = np.where(np.abs(res.x[:-1]) < 1e-12, 0.0, res.x[:-1]).reshape(n, m)
    return Allocation(float(res.x[-1]), delta)


def _group_mask(allowed, sizes) -> np.ndarray:
    """A machine mask reduced to groups: a group is allowed where any of its machines is."""
    allowed = np.asarray(allowed, bool)
    edges = np.concatenate([[0], np.cumsum(sizes)])
    return np.stack([allowed[:, a:b].any(axis=1) for a, b in zip(edges[:-1], edges[1:], strict=True)], axis=1)
