"""Each model's default preset, whole, against its target: python bench/defaults.py [--jobs 2] [--repeat N]

For each model named (``--models``, default: value and estimation), ``hcsched.simulate(preset(name), jobs=J)`` of the
model's default preset (``get_model(m).default_preset``), with its own trials (``--trials`` replaces them, for a
quick check), after a warm-up: the model's kernels compiled and one small run made, so that the worker processes
start as a warm dashboard's do. Printed per model: the wall seconds, the CPU seconds of this process and its worker
processes, and the wall time against the target (15 s on 2 cores, a quiet machine).

Then the same runs as the dashboard makes them: in a pool of worker processes (``hcsched.pool.Pool``, as the server's),
showing the results so far (``partial``); printed, the seconds from the start to the first answer (the first trials
ended), to the whole answer among the heuristics that can run online (every trial of them, where the references,
costing most of a trial, run after them: ``hcsched.experiment.chunk_plan``; "-" where they do not), and to the end.

Beside each run, a reference measured in the same run just before it: a fixed numpy workload (sorting the same
random numbers) in J processes at once, as the trials share the cores. Other processes slow both alike, so the run
over the reference is the figure to compare between machines and between runs on a busy one; the CPU seconds move
little with the load. ``--repeat N``: N runs of each, reference included, the fastest kept.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hcsched import get_model, preset, simulate  # noqa: E402
from hcsched.models import warm_up  # noqa: E402

TARGET_S = 15.0
MODELS = ("value", "estimation")
SORTS, SIZE = 12, 1_000_000  # the reference: this many sorts of this many numbers in each process


def _sorts(_: int) -> float:
    data = np.random.default_rng(0).random(SIZE)
    return float(sum(np.sort(data)[0] for _ in range(SORTS)))


def reference(jobs: int) -> float:
    """Wall seconds of the fixed numpy workload in ``jobs`` forked processes at once."""
    t = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        pool.map(_sorts, range(jobs))
    return time.perf_counter() - t


def _cpu() -> float:
    """CPU seconds (user + system) of this process and of its finished children."""
    return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                  resource.getrusage(resource.RUSAGE_CHILDREN)))


def measure(scenario, jobs: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``simulate(scenario, jobs=jobs)``."""
    c, t = _cpu(), time.perf_counter()
    simulate(scenario, jobs=jobs)
    return time.perf_counter() - t, _cpu() - c


def staged(scenario, pool) -> tuple[float, float | None, float]:
    """Seconds to the first answer, to the online heuristics' whole answer (None when the plan runs every heuristic
    of a trial together), and to the end of a run in ``pool`` that shows its results so far."""
    from hcsched.experiment import split_so_far
    from hcsched.runner import using

    seen: list[tuple[float, bool]] = []
    t = time.perf_counter()

    def partial(results) -> None:
        _, rows, pending = split_so_far(scenario, results)
        seen.append((time.perf_counter() - t, bool(pending) and rows["trial"].nunique() == scenario.trials))

    with using(pool):
        simulate(scenario, jobs=pool.size, partial=partial)
    end = time.perf_counter() - t
    whole = next((when for when, online in seen if online), None)
    return (seen[0][0] if seen else end), whole, end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each preset, the fastest kept (default 1)")
    parser.add_argument("--models", nargs="*", default=list(MODELS), help="models (default: value estimation)")
    parser.add_argument("--trials", type=int, default=None, help="trials instead of the presets' own")
    args = parser.parse_args()
    warm_up(args.models)
    load = os.getloadavg()
    print(f"{os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.jobs} jobs; "
          f"target {TARGET_S:g} s (a quiet machine, 2 cores); reference: {SORTS} sorts of {SIZE:,} numbers in each of "
          f"{args.jobs} processes")
    print(f"{'model':12s} {'default preset':24s} {'trials':>6s} {'wall s':>8s} {'CPU s':>8s} {'/ target':>9s} "
          f"{'ref. s':>7s} {'wall / ref.':>11s}")
    for name in args.models:
        model = get_model(name)
        scenario = preset(model.default_preset)
        if args.trials is not None:
            scenario = scenario.replace(trials=args.trials)
        simulate(scenario.replace(trials=min(2 * args.jobs, scenario.trials)), jobs=args.jobs)  # warm, not timed
        runs = []
        for _ in range(max(1, args.repeat)):
            ref = reference(args.jobs)
            runs.append((*measure(scenario, args.jobs), ref))
        wall, cpu, ref = min(runs)
        print(f"{name:12s} {model.default_preset:24s} {scenario.trials:6d} {wall:8.2f} {cpu:8.2f} "
              f"{wall / TARGET_S:9.2f} {ref:7.2f} {wall / ref:11.2f}", flush=True)
    print(f"\nAs the dashboard runs them (a pool of {args.jobs} worker processes, the results so far shown): seconds "
          "to the first answer, to the whole answer among the heuristics that can run online, to the end")
    print(f"{'model':12s} {'default preset':24s} {'trials':>6s} {'first':>7s} {'online':>7s} {'end':>7s} "
          f"{'ref. s':>7s} {'end / ref.':>10s}")
    from hcsched.pool import Pool

    with Pool(args.jobs) as pool:
        pool.wait_ready(120)
        for name in args.models:
            model = get_model(name)
            scenario = preset(model.default_preset)
            if args.trials is not None:
                scenario = scenario.replace(trials=args.trials)
            staged(scenario.replace(trials=min(2 * args.jobs, scenario.trials)), pool)  # warm, not timed
            runs = []
            for _ in range(max(1, args.repeat)):
                ref = reference(args.jobs)
                runs.append((*staged(scenario, pool), ref))
            first, whole, end, ref = min(runs, key=lambda run: run[2])
            online = "-" if whole is None else f"{whole:.2f}"
            print(f"{name:12s} {model.default_preset:24s} {scenario.trials:6d} {first:7.2f} {online:>7s} {end:7.2f} "
                  f"{ref:7.2f} {end / ref:10.2f}", flush=True)
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
