"""One trial's workload of the estimation model: tasks, their hidden true times, the network and availability.

Common random numbers: everything random is drawn here from the trial's seed
sequence, one stream per quantity, per (task, processor) where it depends on
the processor (noise and outliers, latency, Linpack reports) and per
(processor, time slot) for the owner's use of a non-dedicated processor. A
heuristic only changes where and when a task runs, never what it costs there.
The scheduler never sees ``work`` or the true times: the engine reveals a
task's time only when it returns (section 2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hcsched.kernels import exp, power
from hcsched.models.estimation.spec import EstimationSpec

RULE_STREAM = 0x72756C65  # the spawn key's last entry of the plug-ins' stream, apart from the workload's seven
SLOTS = 64  # the owner's use repeats with period SLOTS x busy_period
STAGE_CODE = 1  # X[:, 0] = STAGE_CODE x stage (a stage switches the task algorithm's function, section 2)


@dataclass(frozen=True)
class Workload:
    problem: np.ndarray  # (N,) problem index of each task
    stage: np.ndarray  # (N,) stage of each task
    X: np.ndarray  # (N, q) integer parameters (zero-padded past a problem's own q; X[:, 0] is STAGE_CODE x stage)
    work: np.ndarray  # (N,) hidden work in MFLOP
    data: np.ndarray  # (N,) Mb moved over the network
    noise: np.ndarray  # (N, M) multiplicative noise with outliers
    latency: np.ndarray  # (N, M) seconds
    bench: np.ndarray  # (N, M) relative error of the Linpack report sent with task i's return from j
    bench0: np.ndarray  # (M,) relative error of each processor's first report
    busy: np.ndarray  # (M, SLOTS) True where the owner uses the processor in that slot
    stage_release: np.ndarray  # (P, S) earliest release of each stage (NaN: no such stage)
    speeds: np.ndarray  # (M,) MFLOP/s
    busy_level: float
    busy_period: float
    bandwidth: float
    bench_noise: float
    rule_seed: int = 0  # seeds each run's generator of a plug-in's draws (plugin.Rule's rng): the trial's own


def hidden_work(work: float, params: np.ndarray, exponents: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The hidden work of tasks with parameters x (rows): work x prod ((x_k + 1) / (params_k / 2 + 1)) ** e_k."""
    return work * np.prod(power((x + 1.0) / (params / 2.0 + 1.0), exponents), axis=1)


def availability(w: Workload, j: int, t: float) -> float:
    """The fraction of processor j's speed its owner leaves free at time t."""
    slot = int(t // w.busy_period) % SLOTS
    return w.busy_level if w.busy[j, slot] else 1.0


def true_time(w: Workload, i: int, j: int, start: float) -> tuple[float, float]:
    """(computation, communication) seconds of task i started on processor j at ``start``."""
    comm = w.latency[i, j] + w.data[i] / w.bandwidth
    return w.work[i] / (w.speeds[j] * availability(w, j, start)) * w.noise[i, j], comm


def make_workload(spec: EstimationSpec, seed_seq: np.random.SeedSequence) -> Workload:
    """Draw one trial: parameters and work of every task, then the per-(task, processor) draws."""
    x_rng, noise_rng, out_rng, lat_rng, data_rng, bench_rng, busy_rng = (np.random.default_rng(s)
                                                                         for s in seed_seq.spawn(7))
    if spec.trace is not None:
        problem, stage, X, work, data, sigma, p_out, factor, stage_release = _from_trace(spec)
    else:
        problem, stage, X, work, data, sigma, p_out, factor, stage_release = _generate(spec, x_rng, data_rng)
    n, m = work.size, spec.processors.count
    z = noise_rng.standard_normal((n, m))
    noise = exp(sigma[:, None] * z - 0.5 * sigma[:, None] ** 2)
    noise *= np.where(out_rng.random((n, m)) < p_out[:, None], factor[:, None], 1.0)
    net, pr = spec.network, spec.processors
    latency = lat_rng.exponential(net.latency, (n, m)) if net.latency > 0 else np.zeros((n, m))
    bench = pr.benchmark_noise * bench_rng.standard_normal((n, m))
    bench0 = pr.benchmark_noise * bench_rng.standard_normal(m)
    busy = busy_rng.random((m, SLOTS)) < pr.busy
    # a stream of its own, spawned by key: drawing it changes none of the workload's draws
    rules = np.random.SeedSequence(seed_seq.entropy, spawn_key=(*seed_seq.spawn_key, RULE_STREAM))
    return Workload(problem, stage, X, work, data, noise, latency, bench, bench0, busy, stage_release,
                    np.array(pr.speed_vector()), float(pr.busy_level), float(pr.busy_period), float(net.bandwidth),
                    float(pr.benchmark_noise), int(rules.generate_state(1, np.uint64)[0]))


def _generate(spec: EstimationSpec, x_rng, data_rng):
    q = 1 + max(len(p.params) for p in spec.problems)
    smax = max(len(p.stages) for p in spec.problems)
    stage_release = np.full((len(spec.problems), smax), np.nan)
    parts = {k: [] for k in ("problem", "stage", "X", "work", "data", "sigma", "p_out", "factor")}
    for pi, p in enumerate(spec.problems):
        params, exponents = np.array(p.params, float), np.array(p.exponents, float)
        for s, count in enumerate(p.stages):
            stage_release[pi, s] = p.release if s == 0 else 0.0
            x = np.zeros((count, q), np.int64)
            x[:, 0] = STAGE_CODE * s
            if params.size:
                x[:, 1:1 + params.size] = x_rng.integers(0, np.array(p.params) + 1, (count, params.size))
            parts["problem"].append(np.full(count, pi))
            parts["stage"].append(np.full(count, s))
            parts["X"].append(x)
            parts["work"].append(hidden_work(p.work[s], params, exponents, x[:, 1:1 + params.size].astype(float)))
            parts["data"].append(data_rng.exponential(p.data, count) if p.data > 0 else np.zeros(count))
            for key, value in (("sigma", p.noise), ("p_out", p.outliers), ("factor", p.outlier_factor)):
                parts[key].append(np.full(count, float(value)))
    c = {k: np.concatenate(v) for k, v in parts.items()}
    return (c["problem"].astype(np.int64), c["stage"].astype(np.int64), c["X"], c["work"].astype(float), c["data"],
            c["sigma"], c["p_out"], c["factor"], stage_release)


def _from_trace(spec: EstimationSpec):
    """The trace's tasks, ordered by problem (first appearance), stage and row; no noise unless the spec adds it."""
    trace = spec.trace
    names = list(dict.fromkeys(t.problem for t in trace))
    order = sorted(range(len(trace)), key=lambda r: (names.index(trace[r].problem), trace[r].stage, r))
    q = 1 + max(len(t.x) for t in trace)
    smax = 1 + max(t.stage for t in trace)
    stage_release = np.full((len(names), smax), np.nan)
    n = len(trace)
    problem, stage = np.zeros(n, np.int64), np.zeros(n, np.int64)
    X, work = np.zeros((n, q), np.int64), np.zeros(n)
    for k, r in enumerate(order):
        t = trace[r]
        p = names.index(t.problem)
        problem[k], stage[k], work[k] = p, t.stage, t.work
        X[k, 0] = STAGE_CODE * t.stage
        X[k, 1:1 + len(t.x)] = t.x
        cur = stage_release[p, t.stage]
        stage_release[p, t.stage] = t.release if np.isnan(cur) else min(cur, t.release)
    zeros = np.zeros(n)
    return problem, stage, X, work, zeros, zeros, zeros, np.ones(n), stage_release
