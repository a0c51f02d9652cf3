"""One trial's tasks (Kim et al. 2007, section 6), drawn with common random numbers.

A trial's seed sequence is spawned into one stream per random quantity: burst placement, arrivals, priorities,
ETC, ATC, and a seed for the static benchmarks (TPSA, GA). Every heuristic of the trial sees the same workload;
settings that draw nothing (weights, deadlines, window) change no draw, so the paper's eight scenarios share their
arrivals and priorities trial by trial, and the two deadline types also share their ETC and ATC.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from hcsched.models.value.spec import TRIAL_MEDIAN, ValueSpec
from hcsched.sampling import cov_based_etc, gamma_times

HIGH, MEDIUM, LOW = 0, 1, 2  # priority levels


@dataclass(frozen=True)
class ValueWorkload:
    """Tasks in arrival order (task i is the i-th arrival): arrival, priority level (0 high, 1 medium, 2 low),
    weight p, deadlines D100 < D50 < D25, ETC and ATC (tasks x machines); ``bursts``: the bursts' start times;
    ``static_seed``: entropy of the static benchmarks' streams."""

    arrival: np.ndarray
    priority: np.ndarray
    weight: np.ndarray
    d100: np.ndarray
    d50: np.ndarray
    d25: np.ndarray
    etc: np.ndarray
    atc: np.ndarray
    bursts: np.ndarray
    static_seed: np.ndarray
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # the trial's dynamic runs (seed TPSA / GA)

    @property
    def tasks(self) -> int:
        return int(self.arrival.size)

    @functools.cached_property
    def min_atc(self) -> np.ndarray:
        return self.atc.min(axis=1)


def burst_starts(rng: np.random.Generator, count: int, length: float, begin: float, end: float) -> np.ndarray:
    """``count`` non-overlapping intervals of ``length`` placed uniformly in [begin, end] (section 6;
    docs/models/value.md): sorted uniform points in the free length, each burst shifted by the bursts before it."""
    free = (end - begin) - count * length
    u = np.sort(rng.uniform(0.0, free, count))
    return begin + u + length * np.arange(count)


def rate_segments(spec: ValueSpec, bursts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The piecewise-constant arrival rate: segment start times and rates (1 / mean gap), up to ``duration``."""
    edges = [0.0, spec.startup]
    rates = [1.0 / spec.startup_gap]
    for b in bursts:
        edges += [float(b), float(b) + spec.burst_length]
        rates += [1.0 / spec.gap, 1.0 / spec.burst_gap]
    rates.append(1.0 / spec.gap)
    edges.append(spec.duration)
    edges, rates = np.array(edges), np.array(rates)
    keep = np.diff(edges) > 0
    return edges[:-1][keep], rates[keep]


def poisson_arrivals(rng: np.random.Generator, starts: np.ndarray, rates: np.ndarray, end: float) -> np.ndarray:
    """A Poisson process of piecewise-constant rate on [0, end), by the time change of a unit-rate process: the
    cumulative rate Lambda is inverted at the sums of unit exponential gaps (exact; memoryless across segments)."""
    ends = np.append(starts[1:], end)
    cum = np.concatenate([[0.0], np.cumsum(rates * (ends - starts))])
    total = cum[-1]
    expected = int(total + 10.0 * np.sqrt(total) + 10)
    s = np.cumsum(rng.exponential(1.0, expected))
    while s[-1] < total:
        s = np.concatenate([s, s[-1] + np.cumsum(rng.exponential(1.0, expected))])
    s = s[s < total]
    k = np.searchsorted(cum, s, side="right") - 1
    return starts[k] + (s - cum[k]) / rates[k]


def deadlines(spec: ValueSpec, arrival: np.ndarray, etc: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """D_k = arrival + median_j ETC(i, j) + multiplier_k x the constant (section 6; the median of an even number of
    values is the mean of the middle two)."""
    med = np.median(etc, axis=1) if etc.size else np.zeros(0)
    const = spec.deadline_constant
    if const == TRIAL_MEDIAN:
        const = float(np.median(med)) if med.size else 0.0
    base = arrival + med
    return tuple(base + m * const for m in spec.multiplier_values)


def make_workload(spec: ValueSpec, seed_seq: np.random.SeedSequence) -> ValueWorkload:
    burst_ss, arrival_ss, prio_ss, etc_ss, atc_ss, static_ss = seed_seq.spawn(6)
    bursts = burst_starts(np.random.default_rng(burst_ss), spec.bursts, spec.burst_length, spec.startup, spec.duration)
    starts, rates = rate_segments(spec, bursts)
    arrival = poisson_arrivals(np.random.default_rng(arrival_ss), starts, rates, spec.duration)
    n, m = arrival.size, spec.machines
    shares = np.array(spec.priority_shares) / sum(spec.priority_shares)
    priority = np.random.default_rng(prio_ss).choice(3, size=n, p=shares).astype(np.int64)
    weight = np.array(spec.weight_values)[priority]
    task_cov, machine_cov = spec.covs
    etc = cov_based_etc(np.random.default_rng(etc_ss), n, m, spec.task_mean, task_cov, machine_cov)
    atc = gamma_times(np.random.default_rng(atc_ss), etc, spec.atc_cov)
    d100, d50, d25 = deadlines(spec, arrival, etc)
    return ValueWorkload(arrival, priority, weight, d100, d50, d25, np.ascontiguousarray(etc),
                         np.ascontiguousarray(atc), bursts, static_ss.generate_state(4))
