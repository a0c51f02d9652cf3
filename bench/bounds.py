"""What a trial's lower bound costs next to the trial: python bench/bounds.py [--trials N]

For every preset of the ETC model, N trials (seed 1): the time to draw the workload and run every heuristic of the
preset (the trial without its bound), and the time of the bound (:func:`hcsched.models.etc.bounds.trial_bounds`: the
makespan's and the flow's), medians over the trials, and their ratio against the target of 10%. Also how close the
trial's bound (the LP's Lagrangian dual) comes to the bound of the exact LP at log-spaced thresholds (``release_bound``,
HiGHS), and the best heuristic's makespan over the bound.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time

import numpy as np

from hcsched.models import MODELS
from hcsched.models.etc import bounds

TARGET = 0.10


def trial_times(model, scenario, seed: int) -> tuple[float, float, float, float]:
    """(seconds of the trial without its bound, seconds of the bound, dual / exact LP bound, best makespan / bound)."""
    s = dataclasses.replace(scenario.spec, lower_bound=False)
    start = time.perf_counter()
    w = model.workload(s, np.random.SeedSequence(seed))
    spans = [model.measure(s, h, model.run(s, h, w))["makespan"] for h in scenario.heuristics]
    trial = time.perf_counter() - start
    start = time.perf_counter()
    b = bounds.trial_bounds(w.arrival, w.actual)[0]
    cost = time.perf_counter() - start
    return trial, cost, b / bounds.release_bound(w.arrival, w.actual), min(spans) / b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=5)
    args = ap.parse_args()
    model = MODELS["etc"]
    model.warm_up()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
    print("| preset | tasks x machines | heuristics | trial (ms) | bound (ms) | bound / trial | / target 10% | "
          "dual / exact LP | best / bound |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, make in model.presets().items():
        sc = make()
        rows = [trial_times(model, sc, 1 + k) for k in range(args.trials)]
        trial, cost = (statistics.median(r[k] for r in rows) for k in (0, 1))
        tight, gap = (statistics.mean(r[k] for r in rows) for k in (2, 3))
        print(f"| {name} | {sc.spec.tasks} x {sc.spec.machines} | {len(sc.heuristics)} | {1000 * trial:.1f} | "
              f"{1000 * cost:.2f} | {cost / trial:.1%} | {cost / trial / TARGET:.2f} | {tight:.4f} | {gap:.4f} |",
              flush=True)


if __name__ == "__main__":
    main()
