"""Arrival-rate calibration (Maheswaran et al., section 5.1): the Poisson rate at which MCT has completed a share of
the tasks when the last one arrives; and a quick check of how loaded MCT finds a scenario at its own rate."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from hcsched.errors import HcschedError
from hcsched.models.etc import MODEL, run_heuristic
from hcsched.models.etc.spec import ArrivalSpec
from hcsched.models.etc.workload import make_workload
from hcsched.sampling import trial_seeds
from hcsched.scenario import HeuristicSpec

CALIBRATION_TARGETS = {"lambda_h": 0.5, "lambda_l": 0.9, "lambda_t": 0.2}
IDLE_UTILISATION = 0.10  # below: MCT's machines idle most of the time, every task finds an idle machine
OVERLOADED_COMPLETED = 0.10  # below: half of lambda_t's 20%, nearly every task still waits when the last one arrives
MIN_CHECK_TASKS = round(2 / OVERLOADED_COMPLETED)  # fewer: the overloaded test would rest on fewer than two tasks
CHECK_TASKS = 1000  # the load check's quick run draws at most this many tasks of a generated ETC matrix
RATE_BRACKET = (1e-9, 1e12)  # tasks per second: calibrate searches between these


def _mct(spec, seed_seq: np.random.SeedSequence):
    """MCT's schedule of one workload of ``spec`` (the heuristic section 5.1 calibrates with), and the workload."""
    w = make_workload(spec, seed_seq)
    return run_heuristic(HeuristicSpec.make("mct"), w), w


def completed_fraction(scenario, rate: float, seeds: list[np.random.SeedSequence]) -> float:
    """Mean share of tasks that MCT has completed when the last task arrives, at ``rate``."""
    spec = dataclasses.replace(scenario.spec, arrivals=ArrivalSpec("poisson", rate))
    fractions = []
    for ss in seeds:
        s, w = _mct(spec, ss)
        fractions.append(np.mean(s.finish <= w.arrival[-1]))
    return float(np.mean(fractions))


def _check_model(scenario, what: str) -> None:
    if scenario.model != MODEL.name:
        raise HcschedError(f"{what}: the scenario's model is {scenario.model!r}; {what} concerns the arrival rate of "
                           f"the {MODEL.name!r} model (section 5.1 of Maheswaran et al.)")


def calibrate(scenario, target: float | str = "lambda_h", trials: int = 5, seed: int = 0,
              tolerance: float = 1e-3) -> float:
    """The Poisson rate at which MCT has completed ``target`` of the tasks when the last one arrives.

    ``target`` is a fraction in (0, 1) or one of lambda_h (0.5), lambda_l (0.9),
    lambda_t (0.2). Bisection on log(rate) over the mean fraction of ``trials``
    workloads drawn with common random numbers. Scenarios of the ETC model only;
    an error when no rate in ``RATE_BRACKET`` reaches the target.
    """
    _check_model(scenario, "calibrate")
    if isinstance(target, str):
        if target not in CALIBRATION_TARGETS:
            raise HcschedError(f"target: {target!r} is not allowed; allowed: a fraction in (0, 1) or one of "
                               f"{', '.join(CALIBRATION_TARGETS)}")
        target = CALIBRATION_TARGETS[target]
    if not 0.0 < float(target) < 1.0:
        raise HcschedError(f"target: {target!r} is not allowed; allowed: a fraction strictly between 0 and 1")
    seeds = np.random.SeedSequence(seed).spawn(trials)
    lo = hi = RATE_BRACKET[0]  # the fraction falls as the rate rises: bracket the target, then bisect
    fraction = completed_fraction(scenario, hi, seeds)
    if fraction <= target:
        raise HcschedError(f"calibrate: even at {hi:g} tasks per second MCT has completed only {fraction:.0%} of the "
                           f"tasks when the last one arrives, not more than the target {target:.0%}; the scenario "
                           "needs "
                           "more tasks (or a smaller target)")
    while fraction > target:
        if hi >= RATE_BRACKET[1]:
            raise HcschedError(f"calibrate: even at {hi:g} tasks per second MCT has completed {fraction:.0%} of the "
                               f"tasks when the last one arrives, more than the target {target:.0%}; are the execution "
                               "times zero?")
        lo, hi = hi, hi * 10.0
        fraction = completed_fraction(scenario, hi, seeds)
    for _ in range(100):
        mid = float(np.sqrt(lo * hi))
        if completed_fraction(scenario, mid, seeds) > target:
            lo = mid
        else:
            hi = mid
        if hi / lo < 1.0 + tolerance:
            break
    return float(np.sqrt(lo * hi))


@dataclass(frozen=True)
class LoadCheck:
    """How loaded MCT finds a scenario at its own arrival rate, from one quick run (:func:`load_check`)."""

    rate: float  # the scenario's Poisson rate, tasks per second
    tasks: int  # tasks in the quick run
    utilisation: float  # MCT's busy machine time over machines x makespan
    # MCT's busy machine time over machines x the last arrival: above 1 the queue grows while tasks arrive
    offered: float
    completed: float  # the share of tasks MCT has completed when the last one arrives (section 5.1)

    @property
    def verdict(self) -> str:
        """``too few`` (under 2 / 10% = 20 tasks, the overloaded test would rest on fewer than two tasks), ``idle``
        (utilisation under 10%: every heuristic finds idle machines and they tie), ``overloaded`` (under 10% of the
        tasks done when the last arrives: beyond the paper's fastest rate lambda_t, arrivals hardly matter) or
        ``ok``."""
        if self.tasks < MIN_CHECK_TASKS:
            return "too few"
        if self.utilisation < IDLE_UTILISATION:
            return "idle"
        if self.completed < OVERLOADED_COMPLETED:
            return "overloaded"
        return "ok"

    @property
    def message(self) -> str:
        """One sentence on the load, with what to do about it."""
        at = f"at {self.rate:.6g} tasks per second MCT"
        if self.verdict == "too few":
            return (f"With {self.tasks} task{'s' if self.tasks != 1 else ''}, one quick MCT run cannot tell whether "
                    "the "
                    f"rate fits the workload (it needs at least {MIN_CHECK_TASKS} tasks).")
        if self.verdict == "idle":
            return (f"Nearly idle: {at} keeps the machines busy only {self.utilisation:.1%} of the time, so almost "
                    "every "
                    "task finds an idle machine and the heuristics hardly differ. Calibrate the rate for this "
                    "workload.")
        if self.verdict == "overloaded":
            done = (f"none of the {self.tasks} tasks" if self.completed == 0
                    else f"only {self.completed:.1%} of the tasks")
            return (f"Overloaded: {at} has completed {done} when the last one arrives "
                    f"(the paper's fastest rate, lambda_t, leaves {CALIBRATION_TARGETS['lambda_t']:.0%}): nearly every "
                    "task waits, as if all arrived at once. Calibrate the rate for this workload.")
        return (f"{at[0].upper()}{at[1:]} keeps the machines busy {self.utilisation:.0%} of the time and has completed "
                f"{self.completed:.0%} of the tasks when the last one arrives (section 5.1: lambda_l 90%, lambda_h "
                "50%, "
                "lambda_t 20%).")


def load_check(scenario, max_tasks: int = CHECK_TASKS) -> LoadCheck | None:
    """MCT's load at the scenario's rate on one quick run: the scenario's first-trial seed, at most ``max_tasks`` tasks
    of a generated ETC matrix (a user's matrix is used whole). None for static arrivals (no rate to check).

    Utilisation and the share completed at the last arrival hardly depend on the number of tasks at a given rate
    (both are set by the rate against the machines' capacity), so a short run tells whether a rate still fits a
    workload after machines, heterogeneity or the ETC method were edited.
    """
    _check_model(scenario, "load check")
    spec = scenario.spec
    if spec.arrivals.process != "poisson":
        return None
    if spec.etc.method != "matrix" and spec.tasks > max_tasks:
        spec = dataclasses.replace(spec, tasks=int(max_tasks))
    s, w = _mct(spec, trial_seeds(scenario.seed, 1)[0])
    busy = float(s.actual.sum())
    makespan, last = float(s.finish.max()), float(w.arrival[-1])
    return LoadCheck(rate=spec.arrivals.rate, tasks=int(w.arrival.size),
                     utilisation=busy / (s.machines * makespan) if makespan > 0 else 1.0,
                     offered=busy / (s.machines * last) if last > 0 else float("inf"),
                     completed=float(np.mean(s.finish <= last)))
