"""The trend test of the task-class model (stability in the sense of Al-Azzoni and Down, section III-A): synthetic
curves of known behaviour, and one short simulation each way."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from hcsched.models.classes import simulation
from hcsched.models.classes.presets import PRESETS
from hcsched.models.classes.stability import _drift_statistic, growing
from hcsched.scenario import heuristic_spec

N = 200  # samples of a run's curve


def ar1(rng: np.random.Generator, phi: float, mean: float, sd: float, start: float | None = None) -> np.ndarray:
    """A stationary AR(1) around ``mean`` with marginal ``sd`` (from a stationary draw unless ``start``)."""
    x = np.empty(N)
    prev = rng.normal(0.0, sd) if start is None else start - mean
    noise = rng.normal(0.0, sd * np.sqrt(1.0 - phi * phi), N)
    for i in range(N):
        prev = phi * prev + noise[i]
        x[i] = prev
    return mean + x


def test_a_queue_like_ramp_is_flagged():
    """Linear growth whose noise accumulates (a random walk with drift, as a growing queue's is)."""
    for seed in range(20):
        steps = np.random.default_rng(seed).normal(5.0, 10.0, N)
        assert growing(np.cumsum(steps)), seed


def test_a_ramp_with_independent_noise_is_flagged():
    rng = np.random.default_rng(1)
    for _ in range(20):
        assert growing(10.0 * np.arange(N) + rng.normal(0.0, 10.0, N))


def test_a_noiseless_ramp_is_flagged_and_flat_or_falling_curves_are_not():
    assert growing(np.arange(N, dtype=float))
    assert not growing(np.zeros(N))
    assert not growing(np.full(N, 37.0))
    assert not growing(np.arange(N, 0, -1, dtype=float))
    assert not growing(np.array([0.0, 5.0, 10.0]))  # too short to tell a drift


def test_a_strongly_autocorrelated_stationary_curve_is_not_flagged():
    """AR(1) with lag-one correlation 0.99 (a correlation time of 100 samples, half the run): never flagged here,
    while a regression of its level on time is significant in many of these curves."""
    from scipy.stats import linregress

    rng = np.random.default_rng(2009)
    curves = [ar1(rng, 0.99, 100.0, 30.0) for _ in range(200)]
    assert sum(growing(c) for c in curves) == 0
    assert sum(linregress(np.arange(N), c).pvalue < 0.001 for c in curves) > 50


def test_the_fill_from_empty_is_left_to_the_warm_up():
    rng = np.random.default_rng(7)
    assert sum(growing(ar1(rng, 0.9, 500.0, 20.0, start=0.0)) for _ in range(100)) == 0


def test_a_driftless_random_walk_is_flagged_at_about_the_level():
    """The boundary case (a queue whose relaxation is longer than the run): about ALPHA = 1% of the runs."""
    rng = np.random.default_rng(11)
    flagged = sum(growing(np.cumsum(rng.normal(0.0, 10.0, N)) + 1000.0) for _ in range(2000))
    assert 5 <= flagged <= 40


def test_the_statistic():
    t, rise, level, k = _drift_statistic(np.arange(N, dtype=float) * 2.0)
    assert (t, rise, k) == (np.inf, 300.0, 150)
    assert level == pytest.approx(2.0 * (49 + 199) / 2)
    assert np.isnan(_drift_statistic(np.ones(5))[0])


def _curve(system: str, factor: float, seed: int) -> np.ndarray:
    spec = PRESETS[f"alazzoni-{system}"]().spec.classes
    if factor != 1.0:
        spec = dataclasses.replace(spec, arrival_rates=tuple(a * factor for a in spec.arrival_rates))
    w = simulation.make_class_workload(spec, np.random.SeedSequence(seed))
    return np.asarray(simulation.run_class_heuristic(heuristic_spec("lpas", "classes"), spec, w).in_system, dtype=float)


def test_a_stable_system_is_not_flagged_and_an_overloaded_one_is():
    """System B under LPAS over 20,000 time units (lambda* = 4/3: stable), and with its arrival rates scaled by
    1.03 lambda* (lambda* = 1/1.03 < 1: unstable by Theorem 2), the trend test alone."""
    lam = PRESETS["alazzoni-B"]().spec.classes.allocation().lam
    assert not growing(_curve("B", 1.0, 2009))
    assert growing(_curve("B", 1.03 * lam, 2009))
