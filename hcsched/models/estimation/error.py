"""Estimation error of Page, Keane and Naughton, section 3.1: ET (eq. 8), CCR (eq. 9), EW (eq. 10), the best and
worst case, and the efficiency of eq. 7.

The "predicted estimation error" the scheduler uses (Figs. 4, 7) is never defined in the paper. Three readings
(explained in ``docs/models/estimation.md``, "Readings chosen"), chosen by the scenario's ``estimator.error`` and
computed in :mod:`.estimators`:

- ``knn`` (default): Alg. 1 over the past ET values of U_j in place of t, like C; ET is stored with each
  observation from the estimate the task was dispatched with;
- ``smoothed``: Gamma of ET per (problem, processor);
- ``mean``: the mean ET of the problem.

Where a reading has nothing for a processor yet (no observation there, or only tasks dealt round robin, which were
dispatched without an estimate and so have no ET), the problem's mean ET is used; before any ET of the problem is
known, the mean ET over every problem; before any ET at all, 0 (a processor with only round-robin returns
used to predict 0).
"""

from __future__ import annotations

import numpy as np


def et(etc, t):
    """ET = |ETC - t| / t (eq. 8), a fraction."""
    return np.abs(np.asarray(etc, float) - t) / t


def ccr(etc, c):
    """CCR = ETC / C (eq. 9)."""
    return np.asarray(etc, float) / c


def ew(err, etc, c, eps: float = 1e-6):
    """EW = ET / CCR = ET C / ETC (eq. 10), floored at eps so that FE = 0 and FZ = infinity never happen (section
    3.1)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.asarray(err, float) * np.asarray(c, float) / np.asarray(etc, float)
    value = np.where(value == np.inf, 1.0 / eps, value)
    return np.fmax(value, eps)  # fmax: NaN (0/0) becomes eps


def case_time(etc, err, case: str = "best"):
    """The execution time a heuristic plans with: ETC as it is (best case) or ETC (1 + err) (worst case: "the maximum
    amount of predicted estimation error", section 3.1; err is the predicted ET, or for "worst-max" the largest ET in
    U_j; C is not inflated, which the paper does not say either way)."""
    etc = np.asarray(etc, float)
    return etc if case == "best" else etc * (1.0 + np.asarray(err, float))


def efficiency(busy, gamma: float) -> float:
    """Eq. 7: 100 x the sum of the processors' busy seconds / (gamma x M), gamma the seconds since the start."""
    busy = np.asarray(busy, float)
    return 100.0 * float(busy.sum()) / (gamma * busy.size) if gamma > 0 else 100.0
