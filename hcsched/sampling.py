"""Random draws that several models share: each trial's seed sequence and gamma-distributed times.

Trial t of a scenario with seed s draws from ``SeedSequence(s).spawn(trials)[t]`` (common random numbers:
Maheswaran et al. 1999, section 5.1); the coefficient-of-variation ETC matrices and gamma actual times are those of
Kim et al. (2007), section 5, used by the ETC model's "cov" method and by the value model. Every function takes an
explicit ``numpy.random.Generator`` or seed; the matrices are ``float64`` with tasks as rows and machines as columns.
"""

from __future__ import annotations

import numpy as np


def trial_seeds(seed: int, trials: int) -> list[np.random.SeedSequence]:
    """One seed sequence per trial, spawned from the scenario's seed."""
    return np.random.SeedSequence(seed).spawn(trials)


def cov_based_etc(rng: np.random.Generator, tasks: int, machines: int, task_mean: float, task_cov: float,
                  machine_cov: float) -> np.ndarray:
    """Coefficient-of-variation (gamma) ETC used by Kim et al. (2007), section 5.

    A task vector q ~ Gamma(mean task_mean, COV task_cov); then row i is
    Gamma(mean q[i], COV machine_cov) on every machine.
    """
    a_task, a_mach = 1.0 / task_cov**2, 1.0 / machine_cov**2
    q = rng.gamma(a_task, task_mean / a_task, size=tasks)
    return rng.gamma(a_mach, 1.0, size=(tasks, machines)) * (q / a_mach)[:, None]


def gamma_times(rng: np.random.Generator, etc: np.ndarray, cov: float) -> np.ndarray:
    """Actual times ~ Gamma with mean e and coefficient of variation ``cov`` (Kim et al. 2007)."""
    shape = 1.0 / cov**2
    return rng.gamma(shape, 1.0, size=etc.shape) * (etc / shape)
