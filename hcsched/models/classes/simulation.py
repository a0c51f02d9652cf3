"""Trials of the task-class model of Al-Azzoni and Down: workloads, heuristic policies, metrics, stability.

Common random numbers: a trial draws the arrivals (times and classes), one
unit-mean work draw per task (its time on machine j is that draw / mu_ij),
two uniforms per task for randomised heuristics and a third for ties broken
at random, all shared by every heuristic of the trial.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from hcsched.heuristics import get_heuristic
from hcsched.metrics import Schedule
from hcsched.models.classes import kernels
from hcsched.models.classes.lp import solve_allocation
from hcsched.models.classes.spec import ClassSpec
from hcsched.models.classes.stability import growing

if TYPE_CHECKING:
    from hcsched.scenario import HeuristicSpec

MODEL = "classes"
SAMPLES = 200  # points of the number-in-system curve
# Balanced-means two-phase hyperexponential with squared coefficient of variation 2.
H2_P = 0.5 * (1.0 + math.sqrt(1.0 / 3.0))


@dataclass(frozen=True)
class ClassWorkload:
    arrival: np.ndarray
    cls: np.ndarray
    work: np.ndarray  # unit-mean work per task
    u1: np.ndarray
    u2: np.ndarray
    u3: np.ndarray  # breaks ties at random (a heuristic's ``ties="random"``)


def poisson_times(rng: np.random.Generator, rate: float, horizon: float) -> np.ndarray:
    """Arrival times of a Poisson process of ``rate`` on [0, horizon)."""
    chunks, t = [], 0.0
    size = int(rate * horizon + 6 * math.sqrt(rate * horizon) + 16)
    while t < horizon:
        times = t + np.cumsum(rng.exponential(1.0 / rate, size))
        chunks.append(times)
        t = times[-1]
    times = np.concatenate(chunks)
    return times[times < horizon]


def hyper_means(long_branch: float) -> tuple[float, float]:
    """The two phases' means of a unit-mean hyperexponential with variance 2 whose long phase has probability p:
    1 + sqrt((1 - p) / (2 p)) and 1 - sqrt(p / (2 (1 - p))) (mean p m1 + (1 - p) m2 = 1, second moment
    2 (p m1^2 + (1 - p) m2^2) = 3). Section III-B.6 gives only the mean and variance; p = 1 - H2_P gives balanced
    means (p m1 = (1 - p) m2 = 1/2)."""
    p = long_branch
    return 1.0 + math.sqrt((1.0 - p) / (2.0 * p)), 1.0 - math.sqrt(p / (2.0 * (1.0 - p)))


def unit_work(rng: np.random.Generator, service: str, n: int, long_branch: float | None = None) -> np.ndarray:
    """Unit-mean execution-time draws: exponential, constant 1, or hyperexponential with variance 2 (balanced means,
    or a long phase of probability ``long_branch``: :func:`hyper_means`)."""
    if service == "constant":
        return np.ones(n)
    e = rng.exponential(1.0, n)
    if service == "exponential":
        return e
    if long_branch is not None:
        long_mean, short_mean = hyper_means(long_branch)
        return e * np.where(rng.random(n) < long_branch, long_mean, short_mean)
    fast = rng.random(n) < H2_P
    return e / np.where(fast, 2.0 * H2_P, 2.0 * (1.0 - H2_P))


def make_class_workload(spec: ClassSpec, seed_seq: np.random.SeedSequence) -> ClassWorkload:
    """One trial: merged Poisson arrivals of all classes (class i with probability alpha_i / sum alpha)."""
    arrival_rng, class_rng, work_rng, choice_rng = (np.random.default_rng(s) for s in seed_seq.spawn(4))
    alpha = np.array(spec.arrival_rates)
    arrival = poisson_times(arrival_rng, float(alpha.sum()), spec.horizon)
    n = arrival.size
    cls = np.searchsorted(np.cumsum(alpha / alpha.sum()), class_rng.random(n), side="right").clip(0, alpha.size - 1)
    u1, u2 = choice_rng.random(n), choice_rng.random(n)
    return ClassWorkload(arrival, cls.astype(np.int64), unit_work(work_rng, spec.service, n, spec.long_branch), u1, u2,
                         choice_rng.random(n))


@dataclass(frozen=True)
class Policy:
    """What a heuristic may use for each class: its candidate machines and weights delta*_ij mu_ij."""

    kind: int
    allowed: np.ndarray  # classes x machines, boolean
    weights: np.ndarray
    c: float = 0.0
    ties: int = kernels.LOWEST

    def candidates(self) -> tuple[np.ndarray, np.ndarray]:
        n, m = self.allowed.shape
        cands = np.zeros((n, m), np.int64)
        counts = self.allowed.sum(axis=1).astype(np.int64)
        for i in range(n):
            cands[i, :counts[i]] = np.flatnonzero(self.allowed[i])
        return cands, counts


def kbar_of(params: dict, machines: int) -> int:
    """KPB's subset size: kbar if given, else floor(k M / 100), at least one."""
    if params["kbar"] is not None:
        return min(machines, int(params["kbar"]))
    return max(1, int(math.floor(params["k"] * machines / 100.0 + 1e-9)))


@functools.lru_cache(maxsize=128)
def policy(heuristic: HeuristicSpec, spec: ClassSpec) -> Policy:
    """The candidate sets of a heuristic in a system (sections II-B, III-A, IV, V), as the heuristic's object gives
    them (:meth:`hcsched.models.classes.heuristics.ClassHeuristic.policy`), cached per system."""
    return own(heuristic).policy(heuristic.kwargs, spec)


def own(heuristic: HeuristicSpec):
    """The task-class model's heuristic object of a spec (names are scoped by model: a spec made without the model
    names the default model's "mct")."""
    return get_heuristic(heuristic.name, MODEL)


def fastest(spec: ClassSpec, size: int) -> np.ndarray:
    """Per class, the ``size`` machines that run it fastest (fewer where fewer can run it; the lowest indices where
    machines tie at the edge), as a classes x machines boolean matrix."""
    capable = spec.mu > 0
    allowed = np.zeros_like(capable)
    for i, row in enumerate(execution_times(spec)):
        allowed[i, np.argsort(row, kind="stable")[:min(size, int(capable[i].sum()))]] = True
    return allowed


def tie_rule(params: dict) -> int:
    """How a heuristic's ``ties`` parameter breaks ties in the kernels (LOWEST without one)."""
    return kernels.RANDOM if params.get("ties") == "random" else kernels.LOWEST


@functools.lru_cache(maxsize=128)
def execution_times(spec: ClassSpec) -> np.ndarray:
    """1/mu_ij per class and machine, inf where the machine cannot run the class."""
    mu = spec.mu
    return np.where(mu > 0, 1.0 / np.where(mu > 0, mu, 1.0), np.inf)


@functools.lru_cache(maxsize=128)
def kernel_rule(heuristic: HeuristicSpec, spec: ClassSpec) -> tuple:
    """A heuristic's policy as :func:`kernels.run_classes` reads it: (kind, cands, counts, weights, c, reach, ties)."""
    pol = policy(heuristic, spec)
    cands, counts = pol.candidates()
    return (pol.kind, cands, counts, pol.weights, pol.c, np.where(pol.allowed, execution_times(spec), np.inf),
            pol.ties)


@functools.lru_cache(maxsize=128)
def restricted_lambda(heuristic: HeuristicSpec, spec: ClassSpec) -> float:
    """lambda* of the LP restricted to the machines the heuristic may use for each class (Theorem 2)."""
    return solve_allocation(spec.arrival_rates, spec.mu, allowed=policy(heuristic, spec).allowed).lam


@dataclass(frozen=True)
class ClassRun:
    schedule: Schedule
    cls: np.ndarray
    consulted: int
    overrides: int
    sample_times: np.ndarray
    in_system: np.ndarray


def sample_times(spec: ClassSpec) -> np.ndarray:
    """The times at which the number in system is sampled: SAMPLES evenly spaced up to the horizon."""
    return np.linspace(0.0, spec.horizon, SAMPLES + 1)[1:]


def run_loop(heuristic: HeuristicSpec, spec: ClassSpec, w: ClassWorkload, plugin=None) -> tuple[ClassRun, int]:
    """Simulate one heuristic over the horizon in the event loop (:func:`kernels.run_classes`): its run, and the
    first task a plug-in (``plugin`` = (choose, mu, delta, params)) mapped to a machine that cannot run it (-1: none;
    the run stopped there)."""
    samples = sample_times(spec)
    machine, start, finish, expected, actual, in_system, consulted, overrides, bad = kernels.run_classes(
        (w.arrival, w.cls, w.work, w.u1, w.u2, w.u3), kernel_rule(heuristic, spec),
        (execution_times(spec), float(spec.horizon), samples), plugin)
    schedule = Schedule(w.arrival, machine, start, finish, expected, actual, spec.machines)
    return ClassRun(schedule, w.cls, int(consulted), int(overrides), samples, in_system), int(bad)


def run_class_heuristic(heuristic: HeuristicSpec, spec: ClassSpec, w: ClassWorkload) -> ClassRun:
    """Simulate one heuristic over the horizon: its object runs it
    (:meth:`hcsched.models.classes.heuristics.ClassHeuristic.run`)."""
    return own(heuristic).run(spec, heuristic, w)


def in_system_trials(heuristic: HeuristicSpec, spec: ClassSpec, seeds) -> tuple[np.ndarray, np.ndarray]:
    """(sample times, number in system with one row per trial) of one heuristic over the trials of ``seeds`` (a run's
    :func:`hcsched.experiment.trial_seeds`: the same workloads as the run's). The curve is not a results column (the
    golden results must stay byte-identical), so the trials are simulated again for it."""
    runs = [run_class_heuristic(heuristic, spec, make_class_workload(spec, ss)).in_system for ss in seeds]
    return sample_times(spec), np.array(runs, dtype=float).reshape(len(runs), SAMPLES)


def class_metrics(run: ClassRun, heuristic: HeuristicSpec, spec: ClassSpec) -> dict:
    """Long-run averages over [warmup, horizon] (section III-B) and the state-information metrics (section IV)."""
    s, lo, hi = run.schedule, spec.warmup, spec.horizon
    span = hi - lo
    n_classes, m = len(spec.arrival_rates), spec.machines
    stay, busy, flow, stretches, stay_class, stay_machine, busy_machine, completed = kernels.window_terms(
        (s.arrival, s.start, s.finish, s.actual, s.machine), run.cls, (n_classes, m), (float(lo), float(hi)))
    mean_stretch, max_stretch = (float(stretches.mean()), float(stretches.max())) if stretches.size else (math.nan,) * 2
    n_s = run.consulted / max(1, s.arrival.size)
    lam = restricted_lambda(heuristic, spec)
    mean_flow = float(flow.mean()) if flow.size else math.nan
    row = {
        "mean_in_system": stay.sum() / span, "mean_response": mean_flow,
        "sum_flow": float(flow.sum()), "mean_flow": mean_flow,
        "max_flow": float(flow.max()) if flow.size else math.nan,
        "mean_stretch": mean_stretch, "max_stretch": max_stretch,
        "utilization": busy.sum() / (m * span),
        "state_info": n_s, "discount": (1.0 - n_s / m) * 100.0, "guided_overrides": run.overrides,
        "arrivals": int(s.arrival.size), "completed": int(completed),
        "lambda_restricted": lam, "unstable": bool(lam < 1.0 or growing(run.in_system)),
    }
    row.update({f"mean_in_system_class{i}": v for i, v in enumerate(stay_class / span)})
    row.update({f"mean_in_system_machine{j}": v for j, v in enumerate(stay_machine / span)})
    row.update({f"utilization_machine{j}": v for j, v in enumerate(busy_machine / span)})
    return row
