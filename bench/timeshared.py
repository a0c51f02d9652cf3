"""Benchmark and reproduction of the time-shared model (Caniou and Jeannot):
python bench/timeshared.py [--quick] [--trial-only] [--trials N]

Prints, in one run:
- one simulation of 250 tasks on 25 servers at mu = 0 (the heaviest case), all 12 heuristics, on one core (target
  <= 1 s), against a brute-force plain-Python HTM (hcsched.models.timeshared.reference, HMCT only) measured on
  the same simulation, which must make the same choices;
- the caniou-mu0/10/30/70 presets (every heuristic against NetSolve MCT, --trials each, default 100): mean gain on
  makespan, sum-flow, max-flow, max-stretch and % of tasks sooner / same / later, with 95% half-widths;
- without --quick, the caniou-grid sweep at its default size on 2 cores (target <= 5 minutes).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from hcsched import simulate
from hcsched.experiment import trial_seeds
from hcsched.models.timeshared import MODEL, engine, reference
from hcsched.models.timeshared.presets import PRESETS
from hcsched.scenario import Scenario


def one_trial() -> None:
    """Wall and CPU time (the machine is shared: CPU time is what one core spends) of one simulation, every heuristic
    run and measured against the reference, the workload drawn."""
    import os

    sc = PRESETS["caniou-mu0"]()
    MODEL.warm_up()
    seed = trial_seeds(sc.seed, 1)[0]
    walls, cpus = [], []
    for _ in range(7):
        start, cpu = time.perf_counter(), time.process_time()
        w = MODEL.workload(sc.spec, seed)
        for h in sc.heuristics:
            MODEL.measure(sc.spec, h, MODEL.run(sc.spec, h, w))
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    print(f"one simulation, 250 tasks x 25 servers, mu = 0, 12 heuristics: CPU {min(cpus):.3f} s (median "
          f"{np.median(cpus):.3f} s), wall {min(walls):.3f} s (median {np.median(walls):.3f} s); target 1 s on one core: "
          f"{min(cpus):.2f} of it (load average {os.getloadavg()[0]:.1f})")
    start = time.perf_counter()
    machine, finish = reference.hmct(w.arrival, w.alone)
    ref_s = time.perf_counter() - start
    start = time.perf_counter()
    m2, ends = engine.run_trial(engine.HMCT, w.order, w.arrival, w.alone, engine.FULL, 1e-6, False, False)
    fast = time.perf_counter() - start
    same = bool((machine == m2).all()) and float(np.abs(finish - ends[:, 2]).max()) < 1e-6
    print(f"HMCT alone: engine {fast * 1e3:.1f} ms, brute-force plain-Python HTM {ref_s:.2f} s (x{ref_s / fast:.0f}); "
          f"same choices and dates: {same}")


def reproduction(trials: int) -> pd.DataFrame:
    cols = ["gain_makespan", "gain_sum_flow", "gain_max_flow", "gain_max_stretch", "pct_sooner", "pct_same", "pct_later"]
    rows = []
    for mu in (0, 10, 30, 70):
        sc = PRESETS[f"caniou-mu{mu}"]().replace(trials=trials)
        start = time.perf_counter()
        df = simulate(sc, jobs=2)
        print(f"caniou-mu{mu}: {trials} simulations x 12 heuristics in {time.perf_counter() - start:.1f} s on 2 cores")
        for label, g in df.groupby("heuristic", sort=False):
            row = {"mu": mu, "heuristic": label}
            for c in cols:
                row[c] = g[c].mean()
                row[c + "_hw"] = 1.96 * g[c].std(ddof=1) / np.sqrt(len(g))
            rows.append(row)
    out = pd.DataFrame(rows)
    with pd.option_context("display.width", 250, "display.max_rows", 100):
        show = out[["mu", "heuristic"]].copy()
        for c in cols:
            show[c] = [f"{m:6.1f} ±{h:4.1f}" for m, h in zip(out[c], out[c + "_hw"], strict=True)]
        print(show.to_string(index=False))
    return out


def grid() -> None:
    import os

    from hcsched.sweep import sweep

    preset = MODEL.sweeps()["caniou-grid"]
    sc: Scenario = preset.scenario()
    import resource

    load = os.getloadavg()[0]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    table = sweep(sc, preset.vary, jobs=2)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    points = np.prod([len(v) for v in preset.vary.values()])
    print(f"caniou-grid: {points} points x {sc.trials} simulations x {len(sc.heuristics)} heuristics in {wall:.0f} s "
          f"on 2 cores (target 300 s: {wall / 300:.2f} of it; load average {load:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after); the 2 workers' CPU time {cpu:.0f} s, i.e. {cpu / 2:.0f} s on 2 idle cores")
    table.to_csv("/tmp/caniou-grid.csv", index=False)
    cells = table[table["heuristic"] != sc.spec.reference].groupby(["heuristic", "mean_interarrival", "tasks"])
    print("95% half-width of a cell's mean, percentage points, over the cells of every heuristic but the reference:")
    for c in ("gain_makespan", "gain_sum_flow", "gain_max_flow", "gain_max_stretch", "pct_sooner"):
        hw = 1.96 * cells[c].std(ddof=1) / np.sqrt(cells[c].count())
        print(f"  {c}: median {hw.median():.2f}, 90th percentile {hw.quantile(0.9):.2f}, max {hw.max():.2f}")
    mean = table.groupby(["heuristic", "tasks", "mean_interarrival"]).mean(numeric_only=True)
    with pd.option_context("display.width", 250):
        for h, c in (("hmct", "gain_makespan"), ("mp", "gain_makespan"), ("msf", "gain_makespan"),
                     ("mp", "pct_sooner"), ("msf", "gain_max_flow")):
            print(f"{h} {c} (rows: tasks, columns: mu):")
            print(mean.loc[h, c].unstack().round(1).to_string())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="skip the sweep")
    parser.add_argument("--trial-only", action="store_true", help="only the one-simulation timing")
    parser.add_argument("--trials", type=int, default=100)
    args = parser.parse_args()
    one_trial()
    if args.trial_only:
        return
    reproduction(args.trials)
    if not args.quick:
        grid()


if __name__ == "__main__":
    main()
