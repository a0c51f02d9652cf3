"""Does a replication's number in system keep growing? A drift test on the sampled curve.

What stability means here (Al-Azzoni and Down, section III-A, Theorems 1-2
and their proofs in Appendix A): a stable system's workload process converges
to a steady-state distribution, so its number in system Q(t) is positive
recurrent and Q(t)/t -> 0; in an unstable one (lambda* < 1, or a heuristic
that fails to use a stabilisable system's capacity, like MCT in section II-B)
the fluid limit grows, Q(t)/t -> c > 0. Over a finite run the hardest cases
are near lambda* = 1 on either side: a queue with a small drift c and
increment variance sigma^2 per time unit looks like a driftless random walk
until the run is long against sigma^2 / c^2.

The test (:func:`growing`) therefore asks whether the curve rises more than a
driftless random walk would. After a warm-up of the first quarter of the run
(``WARMUP``), the k = 150 increments d_s = Q(t_s) - Q(t_s-1) between
successive samples are treated as the steps of a random walk; the drift
estimate is their mean (the rise Q(T) - Q(T/4) over k) and its standard error
s / sqrt(k), s the increments' standard deviation. The run counts as growing
when the one-sided t statistic (Q(T) - Q(T/4)) / (s sqrt(k)) exceeds the
Student-t quantile of level 1 - ``ALPHA`` with k - 1 degrees of freedom (the
lower end of a one-sided 99% interval for the drift lies above zero) and the
rise is material: above ``MATERIAL`` (a tenth) of the mean level after the
warm-up plus one task.

Why increments rather than a regression of the level on time: for a queue
that grows, the increments are close to independent (all machines busy, the
steps are arrivals less departures), so the interval is the right one; for a
stable queue they are negatively correlated (they telescope to the difference
of two nearly independent stationary values), so the statistic's variance is
about tau / (T - T/4), tau the queue's relaxation time, far below one: the
autocorrelation that makes a level regression (batch means or not) flag a
heavily loaded stable queue makes this test conservative. A process whose
relaxation time exceeds the run behaves as a driftless random walk, for which
the false-positive rate is ``ALPHA`` by construction. The warm-up keeps out
the fill from empty (a deterministic rise in a system whose fill is slow
against its noise, such as many slow servers).

Measured (``python bench/classes_stability.py``: 30 replications per system
and heuristic, seeds ``np.random.SeedSequence(2009).spawn(30)``, exponential
execution times, one run per seed cut at each horizon; the rates are the
flagged share among 30):

- stable, never flagged at 20,000, 100,000 or 200,000 time units (false
  positives 0/30 in every cell): System B (MCT, KPB kbar=1, LPAS), System D
  (MCT, KPB kbar=2 and 3, LPAS), System A (lambda* = 1.0204) under MCT and
  LPAS, LPAS on System H (lambda* = 1.009), LPAS and Guided-LPAS on
  Sharifnia's example read as mean execution times (lambda* = 1.0256). The
  largest statistic among these 390 runs per horizon stays below 1.5 (the
  critical value is 2.35);
- unstable, flagged: MCT on Sharifnia's example and System B with its
  arrival rates scaled by 1.03 lambda* (lambda* = 1/1.03, LPAS) 30/30 at every
  horizon; MCT on System H (drift about 0.4 tasks per time unit) 30/30 at
  every horizon; KPB kbar=5 on System H (drift about 0.08 tasks per time unit
  against an increment variance of about 75 per time unit, so sigma^2 / c^2
  is about 12,000 time units) 2/30 at 20,000, 19/30 at 100,000 and 26/30 at
  200,000 time units (false negatives 93%, 37% and 13%).

So 20,000 time units tell only the clear cases; the near-critical KPB needs
about 200,000 (the false-negative rate falls as the drift's z score grows
like the square root of the run).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import t as student_t

WARMUP = 0.25  # share of the samples left out at the start (the fill from empty)
ALPHA = 0.01  # one-sided level against a driftless random walk
MATERIAL = 0.1  # the rise must exceed this share of the mean level after the warm-up, plus one task
MIN_STEPS = 8  # fewer increments after the warm-up cannot tell a drift


def _drift_statistic(in_system: np.ndarray) -> tuple[float, float, float, int]:
    """(t statistic, rise Q(T) - Q(start), mean level, increments k) of the curve after the warm-up.

    The t statistic is the mean increment over its standard error,
    (Q(T) - Q(start)) / (s sqrt(k)); +inf for a noiseless rise, 0 for a flat
    curve, nan when fewer than ``MIN_STEPS`` increments remain.
    """
    q = np.asarray(in_system, dtype=float).ravel()
    first = max(0, int(round(q.size * WARMUP)) - 1)  # the warm-up's last sample starts the first increment
    y = q[first:]
    k = y.size - 1
    if k < MIN_STEPS or not np.isfinite(y).all():
        return float("nan"), float("nan"), float("nan"), max(k, 0)
    rise = float(y[-1] - y[0])
    s = float(np.diff(y).std(ddof=1))
    if s == 0.0:
        t = 0.0 if rise == 0.0 else float(np.copysign(np.inf, rise))
    else:
        t = rise / (s * np.sqrt(k))
    return t, rise, float(y.mean()), k


def growing(in_system: np.ndarray) -> bool:
    """Whether a replication's number in system keeps growing (unstable), from its curve sampled over [0, horizon].

    ``in_system``: the number in system at evenly spaced times up to the
    horizon (200 samples in a run). True when, after the first quarter, the
    one-sided 99% interval for the drift per sample (mean increment, increments
    taken as a random walk's steps) lies above zero and the rise exceeds a
    tenth of the mean level plus one task. See the module docstring for the
    reasoning and the measured error rates.
    """
    t, rise, level, k = _drift_statistic(in_system)
    if not np.isfinite(rise):
        return False
    critical = float(student_t.ppf(1.0 - ALPHA, k - 1))
    return bool(t > critical and rise > MATERIAL * level + 1.0)
