"""The run-time estimate the dashboard shows before a run, against the time the run takes (issue 8, item 17).

For each model's presets: ``experiment.estimate_seconds`` (what the Run page and the per-session limit use) against
the wall time of ``simulate`` with the same trials and jobs, kernels compiled beforehand; and the estimate of one
trial against ``trial_runs`` (the Results page's Gantt trial), in wall and in CPU seconds of this process (which the
load of other processes barely changes: on a busy machine, compare that column). A ratio near 1 is right; above 1 the
dashboard says more than it takes (the safe side), below 1 it is optimistic.

Besides the presets, the scenarios of :data:`EXTRA`: cases where an estimate went wrong (issue 18, item 9: the
time-shared presets on the three slow servers a user uploaded, 2.7 s estimated for a 14.3 s run).

    python bench/estimates.py [--budget SECONDS] [--jobs J] [--model NAME ...]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hcsched import Scenario, get_model, model_names, preset, simulate, trial_runs  # noqa: E402
from hcsched.experiment import estimate_seconds  # noqa: E402
from hcsched.models import warm_up  # noqa: E402


def _own_servers(name: str, speeds: list[float], bandwidths: list[float]) -> Scenario:
    data = preset(name).to_dict()
    data.update(name=f"{name} on servers {speeds} Mflop/s, {bandwidths} Mbit/s",
                servers={"speed_mflops": speeds, "bandwidth_mbit": bandwidths})
    return Scenario.from_dict(data)


#: Scenarios measured besides the presets, by model: the issue 18 upload (300/50, 150/5, 500/50) under mu = 10 and
#: 0, and five slow servers on the paper's cards.
EXTRA = {"timeshared": [lambda: _own_servers("caniou-mu10", [300, 150, 500], [50, 5, 50]),
                        lambda: _own_servers("caniou-mu0", [300, 150, 500], [50, 5, 50]),
                        lambda: _own_servers("caniou-mu10", [150] * 5, [100] * 5)]}


def measure(scenario: Scenario, budget: float, jobs: int) -> tuple[int, float, float, float, float, float]:
    """(trials, estimate, wall) of a run of ``scenario`` sized to about ``budget`` seconds, then the estimate of one
    trial and its wall and CPU seconds in this process."""
    per_trial = estimate_seconds(scenario, trials=1, jobs=1)
    trials = int(max(2 * jobs, min(scenario.trials, budget * jobs / max(per_trial, 1e-9))))
    scenario = scenario.replace(trials=trials)
    t, c = time.perf_counter(), time.process_time()
    trial_runs(scenario, 0)
    one, cpu = time.perf_counter() - t, time.process_time() - c
    t = time.perf_counter()
    simulate(scenario, jobs=jobs)
    wall = time.perf_counter() - t
    return trials, estimate_seconds(scenario, jobs=jobs), wall, per_trial, one, cpu


def summary(ratios: list[float], what: str) -> str:
    ratios = sorted(ratios)
    return (f"estimate / measured over {len(ratios)} presets, {what}: median {ratios[len(ratios) // 2]:.2f}, "
            f"range {ratios[0]:.2f}-{ratios[-1]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=8.0, help="estimated seconds per preset run (default 8)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--model", nargs="*", default=None, help="models to measure (default: all)")
    args = parser.parse_args()
    models = args.model or model_names()
    warm_up(models)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    print(f"{'preset':28s} {'trials':>6s} {'estimate':>9s} {'measured':>9s} {'ratio':>6s}   "
          f"{'1 trial est.':>12s} {'measured':>9s} {'ratio':>6s} {'CPU s':>8s} {'ratio':>6s}")
    ratios, cpu_ratios = [], []
    for model in models:
        scenarios = [preset(name) for name in get_model(model).presets()] + [make() for make in EXTRA.get(model, [])]
        for scenario in scenarios:
            trials, guess, wall, one_guess, one, cpu = measure(scenario, args.budget, args.jobs)
            ratios.append(guess / wall)
            cpu_ratios.append(one_guess / max(cpu, 1e-9))
            print(f"{scenario.name:28s} {trials:6d} {guess:8.2f}s {wall:8.2f}s {guess / wall:6.2f}   "
                  f"{one_guess:11.2f}s {one:8.2f}s {one_guess / one:6.2f} {cpu:7.3f}s {cpu_ratios[-1]:6.2f}", flush=True)
    print(summary(ratios, "the runs") + "  (1 is right; above 1 says more than it takes)")
    print(summary(cpu_ratios, "one trial's CPU seconds"))


if __name__ == "__main__":
    main()
