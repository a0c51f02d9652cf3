"""Arrival-rate calibration (Maheswaran et al., section 5.1): the Poisson rate at which MCT has completed a share of
the tasks when the last one arrives."""

from __future__ import annotations

import dataclasses

import numpy as np

from hcsched.errors import HcschedError
from hcsched.models.etc.spec import ArrivalSpec
from hcsched.models.etc.workload import make_workload

CALIBRATION_TARGETS = {"lambda_h": 0.5, "lambda_l": 0.9, "lambda_t": 0.2}


def completed_fraction(scenario, rate: float, seeds: list[np.random.SeedSequence]) -> float:
    """Mean share of tasks that MCT has completed when the last task arrives, at ``rate``."""
    from hcsched.models.etc import run_heuristic
    from hcsched.scenario import HeuristicSpec

    mct = HeuristicSpec.make("mct")
    spec = dataclasses.replace(scenario.spec, arrivals=ArrivalSpec("poisson", rate))
    fractions = []
    for ss in seeds:
        w = make_workload(spec, ss)
        s = run_heuristic(mct, w)
        fractions.append(np.mean(s.finish <= w.arrival[-1]))
    return float(np.mean(fractions))


def calibrate(scenario, target: float | str = "lambda_h", trials: int = 5, seed: int = 0, tolerance: float = 1e-3) -> float:
    """The Poisson rate at which MCT has completed ``target`` of the tasks when the last one arrives.

    ``target`` is a fraction in (0, 1) or one of lambda_h (0.5), lambda_l (0.9),
    lambda_t (0.2). Bisection on log(rate) over the mean fraction of ``trials``
    workloads drawn with common random numbers. Scenarios of the ETC model only.
    """
    from hcsched.models.etc import MODEL

    if scenario.model != MODEL.name:
        raise HcschedError(f"calibrate: the scenario's model is {scenario.model!r}; calibration finds the arrival rate of "
                           f"the {MODEL.name!r} model (section 5.1 of Maheswaran et al.)")
    if isinstance(target, str):
        if target not in CALIBRATION_TARGETS:
            raise HcschedError(f"target: {target!r} is not allowed; allowed: a fraction in (0, 1) or one of {', '.join(CALIBRATION_TARGETS)}")
        target = CALIBRATION_TARGETS[target]
    if not 0.0 < float(target) < 1.0:
        raise HcschedError(f"target: {target!r} is not allowed; allowed: a fraction strictly between 0 and 1")
    seeds = np.random.SeedSequence(seed).spawn(trials)
    lo, hi = 1e-9, 1e-9  # the fraction falls as the rate rises
    while completed_fraction(scenario, hi, seeds) > target and hi < 1e12:
        lo, hi = hi, hi * 10.0
    for _ in range(100):
        mid = float(np.sqrt(lo * hi))
        if completed_fraction(scenario, mid, seeds) > target:
            lo = mid
        else:
            hi = mid
        if hi / lo < 1.0 + tolerance:
            break
    return float(np.sqrt(lo * hi))
