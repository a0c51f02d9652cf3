"""Execution-time estimators of Page, Keane and Naughton, section 2: k-NN (Alg. 1, eqs. 2-5), the smoothed average
with benchmark rates (eq. 6), the simple average, and round robin while nothing is known.

The scheduler's knowledge lives in an :class:`EstimatorState`: per problem and
processor the last ``n`` observations U_j = (t, c, ET, X) (eq. 1, one O per
problem), the smoothed rates P_j and requirement T. A return on processor j
changes only U_j, so :meth:`EstimatorState.observe` recomputes the k-NN column
j of the unstarted tasks of that problem and nothing else (the smoothed
columns are one division, done when asked).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from hcsched.models.estimation.spec import Estimator


def k_of(n: int) -> int:
    """k = ceil(n^(4/5)) computed exactly: the smallest integer k with k^5 >= n^4 (section 2.1).

    The float ``ceil(n ** 0.8)`` is wrong for n = 32 (it gives 17; 16^5 = 32^4).
    """
    if n <= 0:
        return 0
    n4 = n ** 4
    k = max(1, int(round(n ** 0.8)) - 2)
    while k ** 5 < n4:
        k += 1
    while k > 1 and (k - 1) ** 5 >= n4:
        k -= 1
    return k


@njit(cache=True)
def _k_of(n):
    if n <= 0:
        return 0
    n4 = float(n) ** 4  # exact in float64 for n < 2^13 (n^4 < 2^53)
    k = max(1, int(round(float(n) ** 0.8)) - 2)
    while float(k) ** 5 < n4:
        k += 1
    while k > 1 and float(k - 1) ** 5 >= n4:
        k -= 1
    return k


def smoothed(values, nu: float) -> float:
    """Gamma of a sequence (section 2.2): Gamma_0 = a_1, Gamma_b = Gamma_{b-1} + nu (a_b - Gamma_{b-1})."""
    g = None
    for a in values:
        g = float(a) if g is None else g + nu * (float(a) - g)
    return float("nan") if g is None else g


def gamma_step(g: float, a: float, nu: float, first: bool) -> float:
    """One step of Gamma: the first value sets it, later ones move it by nu of the difference."""
    return a if first else g + nu * (a - g)


@njit(cache=True)
def _weighted(d, v, keep, literal):
    """Eqs. 4-5 over the kept neighbours; a neighbour at distance 0 makes the estimate the mean of the exact matches."""
    exact, exact_sum = 0, 0.0
    for a in keep:
        if d[a] == 0.0:
            exact += 1
            exact_sum += v[a]
    if exact:
        return exact_sum / exact
    inv, num, dsum = 0.0, 0.0, 0.0
    for a in keep:
        inv += 1.0 / d[a]
        num += v[a] / d[a]
        dsum += d[a]
    return dsum * num if literal else num / inv


@njit(cache=True)
def knn_values(xq, xo, vo, L, literal):
    """Alg. 1 for each query row of xq against observations xo (newest first) with values vo (one column per
    quantity: t, c, ET). For each quantity, the k nearest (ties: the newer) are L-smoothed on that quantity's values
    (floor(L k) dropped at each end, ties: the newer is kept) and weighted by eq. 4."""
    s, q = xq.shape
    n = xo.shape[0]
    nv = vo.shape[1]
    out = np.empty((s, nv))
    k = _k_of(n)
    drop = int(math.floor(L * k + 1e-12))
    d = np.empty(n)
    for r in range(s):
        for a in range(n):
            acc = 0.0
            for c in range(q):
                diff = xq[r, c] - xo[a, c]
                acc += diff * diff
            d[a] = math.sqrt(acc)
        sel = np.argsort(d, kind="mergesort")[:k]
        for v in range(nv):
            vals = vo[sel, v]
            order = np.argsort(vals, kind="mergesort")
            keep = sel[order[drop:k - drop]]
            out[r, v] = _weighted(d, vo[:, v], keep, literal)
    return out


def knn_estimate(x, X_obs, values, L: float = 0.0, weights: str = "normalised") -> np.ndarray:
    """k-NN estimates (Alg. 1) of the rows of ``x`` from observations ``X_obs`` (newest first) with ``values`` (a
    vector, or one column per quantity)."""
    values = np.asarray(values, float)
    single = values.ndim == 1
    vo = values[:, None] if single else values
    out = knn_values(np.atleast_2d(np.asarray(x, float)), np.asarray(X_obs, float), np.ascontiguousarray(vo), float(L),
                     weights == "literal")
    return out[:, 0] if single else out


class EstimatorState:
    """What the scheduler has learnt: U_j per problem (a ring of the last n), P_j, T per problem, and the k-NN
    estimates (t, c, predicted ET) of every task on every processor with observations."""

    def __init__(self, est: Estimator, problems: np.ndarray, X: np.ndarray, machines: int, n_problems: int):
        self.est, self.problem, self.X = est, problems, X.astype(float)
        m, n, q = machines, est.n, X.shape[1]
        self.M = m
        self.obs_x = np.zeros((n_problems, m, n, q))
        self.obs_v = np.zeros((n_problems, m, n, 3))  # t, c, ET
        self.count = np.zeros((n_problems, m), np.int64)
        self.head = np.zeros((n_problems, m), np.int64)
        self.rate = np.zeros(m)  # P_j: Gamma of the Linpack reports
        self.reports = np.zeros(m, np.int64)
        self.T = np.zeros(n_problems)  # Gamma of t P_j per problem (eq. 6)
        self.Cg = np.zeros(n_problems)  # Gamma of c per problem (C when U_j is empty)
        self.returns = np.zeros(n_problems, np.int64)
        self.sum_t = np.zeros(n_problems)
        self.sum_c = np.zeros(n_problems)
        self.sum_et = np.zeros(n_problems)
        self.n_et = np.zeros(n_problems, np.int64)
        self.ETg = np.zeros((n_problems, m))  # Gamma of ET per (problem, processor): error reading B
        self.n_etj = np.zeros((n_problems, m), np.int64)
        self.knn = np.full((X.shape[0], m, 3), np.nan)
        self.use_knn = est.method == "knn" or est.error == "knn"

    # --- updates ---------------------------------------------------------------------------------
    def report_rate(self, j: int, value: float) -> None:
        """A Linpack report of processor j (sent when it requests and when it returns a task)."""
        self.rate[j] = gamma_step(self.rate[j], value, self.est.nu, self.reports[j] == 0)
        self.reports[j] += 1

    def observe(self, i: int, j: int, t: float, c: float, et: float, unstarted: np.ndarray) -> None:
        """Task i returned from processor j after t seconds of computation and c of communication, with the
        estimation error ET of the estimate it was dispatched with (NaN if none); steps (3)-(4) of section 2, and
        column j of the k-NN estimates of ``unstarted`` tasks of the same problem."""
        p, nu = self.problem[i], self.est.nu
        h = self.head[p, j]
        self.obs_x[p, j, h] = self.X[i]
        self.obs_v[p, j, h] = (t, c, et)
        self.head[p, j] = (h + 1) % self.est.n
        self.count[p, j] = min(self.count[p, j] + 1, self.est.n)
        first = self.returns[p] == 0
        self.T[p] = gamma_step(self.T[p], t * self.rate[j], nu, first)
        self.Cg[p] = gamma_step(self.Cg[p], c, nu, first)
        self.returns[p] += 1
        self.sum_t[p] += t
        self.sum_c[p] += c
        if et == et:
            self.ETg[p, j] = gamma_step(self.ETg[p, j], et, nu, self.n_etj[p, j] == 0)
            self.n_etj[p, j] += 1
            self.sum_et[p] += et
            self.n_et[p] += 1
        if self.use_knn:
            tasks = unstarted[self.problem[unstarted] == p]
            if tasks.size:
                self.update_column(p, j, tasks)

    def neighbours(self, p: int, j: int) -> tuple[np.ndarray, np.ndarray]:
        """U_j of problem p, newest first: (X, values t, c, ET)."""
        cnt, h, n = self.count[p, j], self.head[p, j], self.est.n
        idx = (h - 1 - np.arange(cnt)) % n
        return self.obs_x[p, j, idx], self.obs_v[p, j, idx]

    def update_column(self, p: int, j: int, tasks: np.ndarray) -> None:
        """The k-NN estimates of ``tasks`` (all of problem p) on processor j."""
        xo, vo = self.neighbours(p, j)
        if not np.isfinite(vo[:, 2]).all():  # ET unknown for tasks dispatched without an estimate: use the others'
            et = vo[:, 2]
            mean = et[np.isfinite(et)].mean() if np.isfinite(et).any() else 0.0
            vo = vo.copy()
            vo[:, 2] = np.where(np.isfinite(et), et, mean)
        self.knn[tasks, j] = knn_values(self.X[tasks], xo, vo, self.est.L, self.est.weights == "literal")

    def fill_rows(self, tasks: np.ndarray) -> None:
        """k-NN estimates of newly released tasks on every processor with observations of their problem."""
        if not self.use_knn:
            return
        for p in np.unique(self.problem[tasks]):
            mine = tasks[self.problem[tasks] == p]
            for j in np.flatnonzero(self.count[p] > 0):
                self.update_column(p, j, mine)

    # --- what the scheduler sees ------------------------------------------------------------------
    def known(self, tasks: np.ndarray) -> np.ndarray:
        """Tasks whose problem has at least one observation (the others are mapped round robin, section 2.2)."""
        return self.returns[self.problem[tasks]] > 0

    def estimates(self, tasks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """ETC, C and the predicted ET of ``tasks`` (all of known problems) on every processor, (S, M) each."""
        p = self.problem[tasks]
        est = self.est
        has = self.count[p] > 0  # (S, M)
        mean_et = np.where(self.n_et[p] > 0, self.sum_et[p] / np.maximum(self.n_et[p], 1), 0.0)[:, None]
        if est.method == "knn":
            k = self.knn[tasks]
            etc = np.where(has, k[:, :, 0], self.T[p][:, None] / self.rate[None, :])
            comm = np.where(has, k[:, :, 1], self.Cg[p][:, None])
        elif est.method == "smoothed":
            etc = self.T[p][:, None] / self.rate[None, :]
            comm = np.broadcast_to(self.Cg[p][:, None], etc.shape).copy()
        else:
            ret = np.maximum(self.returns[p], 1)
            etc = np.broadcast_to((self.sum_t[p] / ret)[:, None], (tasks.size, self.M)).copy()
            comm = np.broadcast_to((self.sum_c[p] / ret)[:, None], etc.shape).copy()
        if est.error == "knn":
            err = np.where(has, self.knn[tasks][:, :, 2], mean_et)
        elif est.error == "smoothed":
            err = np.where(self.n_etj[p] > 0, self.ETg[p], mean_et)
        else:
            err = np.broadcast_to(mean_et, etc.shape).copy()
        return etc, comm, err
