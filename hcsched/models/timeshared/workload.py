"""One trial's servers and tasks (Caniou and Jeannot, section 3.3), drawn with common random numbers.

A trial's seed sequence is spawned into one stream per random quantity: server speeds, input sizes, output sizes,
compute costs, inter-arrival gaps. Every heuristic of the trial sees the same workload; the gaps are unit draws
scaled by mu, so trials at different mu share their tasks and servers. A user's own servers or tasks (spec tables)
replace the drawn ones.

Section 3.3's cost rule ("more than 10 times the transfer", "not greater than 600 s on the fastest server") is stated
for 100 Mbit/s cards, where the largest data (2 x 300 MB) take 48 s and the rule always leaves room. On slower cards
(a user's servers, or another ``bandwidth_mbit``) it cannot hold for the largest data, and the paper says nothing. The
reading used keeps both cost rules and draws the sizes uniform *conditioned on the rule being satisfiable*: a task
moves at most ``spec.max_moved_mb`` (input + output, or the input with ``transfer: in``). Where that bound does not
bind (the paper's settings) the draws are the unconditioned ones, number for number; the spec refuses a table where
even the smallest data cannot fit.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field

import numpy as np

from hcsched.models.timeshared.spec import BITS_PER_MB, TimesharedSpec


@dataclass(frozen=True)
class TimesharedWorkload:
    """Servers (speed in Mflop/s, bandwidth in Mbit/s) and tasks (arrival s, input MB, Mflop, output MB)."""

    speed: np.ndarray
    bandwidth: np.ndarray
    arrival: np.ndarray
    input_mb: np.ndarray
    mflop: np.ndarray
    output_mb: np.ndarray
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # runs shared by the trial's heuristics
    # the seed of the random numbers a plug-in's rule draws (a stream of the trial's own, spawned beside the others)
    rule_seed: np.ndarray = field(default_factory=lambda: np.zeros(4, np.uint32), compare=False, repr=False)

    def rng(self) -> np.random.Generator:
        """A fresh generator of the trial's plug-in stream: every run of the trial draws the same numbers."""
        return np.random.default_rng(self.rule_seed)

    @functools.cached_property
    def alone(self) -> np.ndarray:
        """W[t, j, p]: task t's time for phase p (input, compute, output) alone on server j."""
        return np.ascontiguousarray(np.stack([
            np.outer(self.input_mb * BITS_PER_MB, 1.0 / self.bandwidth),
            np.outer(self.mflop, 1.0 / self.speed),
            np.outer(self.output_mb * BITS_PER_MB, 1.0 / self.bandwidth)], axis=2))

    @functools.cached_property
    def order(self) -> np.ndarray:
        """Tasks in arrival order (equal arrivals by task index)."""
        return np.argsort(self.arrival, kind="stable").astype(np.int64)


def arrivals(rng: np.random.Generator, n: int, mu: float, law: str) -> np.ndarray:
    """Arrival dates: the first at 0, then gaps of mean mu, exponential (default) or integer Poisson(mu)
    (section 3.3; the two readings: docs/models/timeshared.md)."""
    if law == "exponential":
        gaps = rng.exponential(1.0, n - 1) * mu
    else:
        gaps = rng.poisson(mu, n - 1).astype(float)
    return np.concatenate([[0.0], np.cumsum(gaps)])


def sizes(spec: TimesharedSpec, in_rng: np.random.Generator, out_rng: np.random.Generator,
          n: int) -> tuple[np.ndarray, np.ndarray]:
    """Input and output sizes (MB), independent and uniform in ``size_mb`` (section 3.3), conditioned on the data moved
    being at most ``spec.max_moved_mb`` (module docstring). With ``transfer: in`` the input is uniform up to the bound.
    With in+out the pairs are drawn in the square [low, min(high, bound - low)]^2 and the pairs above the bound drawn
    again: at least half of that square is allowed, so a few rounds do; when the bound does not bind, the first draw is
    the answer."""
    lo, hi = spec.size_mb
    cap = spec.max_moved_mb
    if spec.transfer == "in":
        return in_rng.uniform(lo, min(hi, cap), n), out_rng.uniform(lo, hi, n)
    top = min(hi, cap - lo)
    input_mb, output_mb = in_rng.uniform(lo, top, n), out_rng.uniform(lo, top, n)
    over = np.flatnonzero(input_mb + output_mb > cap)
    while over.size:
        input_mb[over], output_mb[over] = in_rng.uniform(lo, top, over.size), out_rng.uniform(lo, top, over.size)
        over = over[input_mb[over] + output_mb[over] > cap]
    return input_mb, output_mb


def make_workload(spec: TimesharedSpec, seed_seq: np.random.SeedSequence) -> TimesharedWorkload:
    speed_rng, in_rng, out_rng, cost_rng, gap_rng = (np.random.default_rng(s) for s in seed_seq.spawn(5))
    # the plug-ins' stream: the next child, made without spawning it (the five streams above are unchanged)
    rule_seed = np.random.SeedSequence(seed_seq.entropy, spawn_key=(*seed_seq.spawn_key, seed_seq.n_children_spawned),
                                       pool_size=seed_seq.pool_size).generate_state(4)
    m, n = spec.servers, spec.tasks
    if spec.platform is not None:
        speed = np.array(spec.platform.speed_mflops, float)
        bandwidth = np.array(spec.platform.bandwidth_mbit, float)
    else:
        speed = speed_rng.uniform(*spec.speed_mflops, m)
        bandwidth = np.full(m, float(spec.bandwidth_mbit))
    if spec.task_table is not None:
        t = spec.task_table
        return TimesharedWorkload(speed, bandwidth, np.array(t.arrival, float), np.array(t.input_mb, float),
                                  np.array(t.mflop, float), np.array(t.output_mb, float), rule_seed=rule_seed)
    input_mb, output_mb = sizes(spec, in_rng, out_rng, n)
    fastest = int(np.argmax(speed))
    moved = input_mb + output_mb if spec.transfer == "in+out" else input_mb
    transfer_s = moved * BITS_PER_MB / bandwidth[fastest]
    low = np.minimum(spec.compute_ratio * transfer_s, spec.max_compute_s)  # equal at the bound, up to rounding
    compute_s = cost_rng.uniform(low, spec.max_compute_s)
    return TimesharedWorkload(speed, bandwidth, arrivals(gap_rng, n, spec.mean_interarrival, spec.arrivals), input_mb,
                              compute_s * speed[fastest], output_mb, rule_seed=rule_seed)


_SAMPLE_TASKS, _SAMPLE_SERVERS = 100_000, 10_000  # the sharing estimate draws at most these (a sample of the arrivals)


@functools.lru_cache(maxsize=32)
def sharing(s: TimesharedSpec) -> tuple[float, float]:
    """E[k] and E[k^2]: k, the tasks a server holds when a task arrives, averaged over the arrivals of one drawn
    workload. A fluid model of the servers pooled: each task brings its unloaded duration on a server of mean speed
    and mean card, the pool serves ``servers`` such seconds a second, the work in the system after arrival i follows
    Lindley's recursion B_i = max(0, B_(i-1) - servers (a_i - a_(i-1))) + d_i (computed in closed form), and
    k_i = B_i / mean d / servers. Slow servers or cards, or many tasks arriving at once, make it large. A drawn
    workload beyond 100,000 tasks or 10,000 servers is estimated from its first ones (the estimate never allocates
    with the scenario's size). Kept per spec: each heuristic's cost model asks it."""
    w = make_workload(_sample(s), np.random.SeedSequence(0))
    d = (w.input_mb + w.output_mb) * BITS_PER_MB / w.bandwidth.mean() + w.mflop / w.speed.mean()
    a, d = w.arrival[w.order], d[w.order]
    total = np.cumsum(d)
    backlog = (total - s.servers * a) - np.minimum.accumulate(total - d - s.servers * a)
    k = backlog / max(float(d.mean()), 1e-300) / s.servers
    return float(k.mean()), float((k * k).mean())


def _sample(s: TimesharedSpec) -> TimesharedSpec:
    """The spec with at most _SAMPLE_TASKS drawn tasks and _SAMPLE_SERVERS drawn servers (a user's tables as they
    are)."""
    smaller = {}
    if s.task_table is None and s.tasks > _SAMPLE_TASKS:
        smaller["tasks"] = _SAMPLE_TASKS
    if s.platform is None and s.servers > _SAMPLE_SERVERS:
        smaller["servers"] = _SAMPLE_SERVERS
    return dataclasses.replace(s, **smaller) if smaller else s
