"""Benchmark and reproduction of the time-shared model (Caniou and Jeannot):
python bench/timeshared.py [--quick] [--trial-only] [--trials N] [--scaling] [--record]

Prints, in one run:
- one simulation of 250 tasks on 25 servers at mu = 0 (the heaviest case), all 12 heuristics, on one core (target
  <= 1 s), against a brute-force plain-Python HTM (hcsched.models.timeshared.reference, HMCT only) measured on
  the same simulation, which must make the same choices;
- the caniou-mu0/10/30/70 presets (every heuristic against NetSolve MCT, --trials each, default 100): mean gain on
  makespan, sum-flow, max-flow, max-stretch and % of tasks sooner / same / later, with 95% half-widths;
- without --quick, the caniou-grid sweep at its default size on 2 cores (target <= 5 minutes).

--scaling (alone) prints instead how one simulation's cost grows: caniou-mu30 with NetSolve MCT, HMCT
and MP, servers, tasks and arrival rate x f (f = 1, 4, 16: the same load per server), one trial, one process,
kernels warm; seconds (wall and CPU), each step's growth exponent, and each heuristic's time per unit of the work
its definition asks of a decision (:func:`decision_units`).

--record writes the one simulation's figures (and, without --quick, the sweep's) into their rows of bench/speed.csv
(bench/speed.py), the table of docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from hcsched import simulate
from hcsched.experiment import trial_seeds
from hcsched.models.timeshared import MODEL, engine, reference
from hcsched.models.timeshared.presets import PRESETS
from hcsched.scenario import Scenario

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when this file is imported from its path
from speed import record_all  # noqa: E402


def one_trial() -> dict:
    """Wall and CPU time (the machine is shared: CPU time is what one core spends) of one simulation, every heuristic
    run and measured against the reference, the workload drawn; the speed table's cells."""
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
          f"{np.median(cpus):.3f} s), wall {min(walls):.3f} s (median "
          f"{np.median(walls):.3f} s); target 1 s on one core: "
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
    return {"time": f"{min(cpus):.2f} s CPU", "ratio": f"{min(cpus):.2f}",
            "reference": f"target 1 s; HMCT alone {fast * 1e3:.0f} ms vs {ref_s:.2f} s for a plain-Python HTM"}


def reproduction(trials: int) -> pd.DataFrame:
    cols = ["gain_makespan", "gain_sum_flow", "gain_max_flow", "gain_max_stretch", "pct_sooner", "pct_same",
            "pct_later"]
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


def grid() -> dict:
    """The caniou-grid sweep on 2 cores, its precision and mean gains; the speed table's cells."""
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
    return {"time": f"{wall:.0f} s", "ratio": f"{wall / 300:.2f}"}


SCALES = (1, 4, 16)
SCALED = ("netsolve-mct", "hmct", "mp")


def decision_units(name: str, w, machine: np.ndarray, finish: np.ndarray) -> tuple[int, str]:
    """The work a heuristic's definition asks of all its decisions, and its unit in words. NetSolve MCT (sections
    2.2, 6.1): one estimate D1 + D2 per server. HMCT (section 6.2, Fig. 18) and MP (6.4.1, Fig. 19): the HTM's
    prediction of every server with its tasks and the new one, a simulation of the server's unfinished tasks and
    the new one, counted as 1 + the server's tasks unfinished at the arrival (HMCT needs the new task's date, MP
    every task's)."""
    n, m = machine.size, w.speed.size
    if name == "netsolve-mct":
        return n * m, "server estimates"
    arrival = w.arrival[w.order]
    pos = np.empty(n, np.int64)
    pos[w.order] = np.arange(n)
    later = np.searchsorted(arrival, finish, side="left") - pos - 1  # later arrivals before task t ends
    return n * m + int(np.maximum(later, 0).sum()), "server-task predictions"


def scaling(scales=SCALES, names=SCALED) -> pd.DataFrame:
    """One simulation of caniou-mu30 scaled by f in ``scales`` (module docstring): seconds and time per unit."""
    import os

    MODEL.warm_up()
    base = PRESETS["caniou-mu30"]()
    rows = []
    for f in scales:
        s = base.spec
        sc = base.replace(trials=1, heuristics=list(names), servers=s.servers * f, tasks=s.tasks * f,
                          mean_interarrival=s.mean_interarrival / f)
        seed = trial_seeds(sc.seed, 1)[0]
        best: dict[str, float] = {}
        for _ in range(3 if f < 16 else 2):  # the best of a few: the machine is shared
            w0, c0 = time.perf_counter(), time.process_time()
            w = MODEL.workload(sc.spec, seed)
            _ = w.alone
            best["workload"] = min(best.get("workload", np.inf), time.process_time() - c0)
            runs = {}
            for h in sc.heuristics:
                c = time.process_time()
                runs[h.name] = MODEL.run(sc.spec, h, w)
                MODEL.measure(sc.spec, h, runs[h.name])
                best[h.name] = min(best.get(h.name, np.inf), time.process_time() - c)
            best["cpu"] = min(best.get("cpu", np.inf), time.process_time() - c0)
            best["wall"] = min(best.get("wall", np.inf), time.perf_counter() - w0)
        for name, run in runs.items():
            units, what = decision_units(name, w, run.schedule.machine, run.schedule.finish)
            rows.append({"f": f, "servers": sc.spec.servers, "tasks": sc.spec.tasks, "heuristic": name,
                         "cpu_s": best[name], "units": units, "unit": what, "ns_per_unit": best[name] / units * 1e9,
                         "trial_cpu_s": best["cpu"], "trial_wall_s": best["wall"], "load": os.getloadavg()[0]})
    out = pd.DataFrame(rows)
    trial = out.groupby("f", sort=False)[["servers", "tasks", "trial_wall_s", "trial_cpu_s", "load"]].first()
    trial["growth_exponent"] = np.log(trial["trial_cpu_s"] / trial["trial_cpu_s"].shift()) / np.log(
        trial.index.to_series() / trial.index.to_series().shift())
    print("caniou-mu30, one simulation (workload, NetSolve MCT as heuristic and reference, HMCT, MP), one process:")
    print(trial.round(3).to_string())
    print("per heuristic: CPU seconds, units of decision work (see decision_units) and ns per unit:")
    wide = out.pivot(index="f", columns="heuristic", values=["cpu_s", "ns_per_unit"]).round(3)
    print(wide.to_string())
    for name, g in out.groupby("heuristic", sort=False):
        print(f"  {name}: {g['unit'].iloc[0]}; ns per unit at x{g['f'].iloc[-1]} / at x{g['f'].iloc[0]}: "
              f"{g['ns_per_unit'].iloc[-1] / g['ns_per_unit'].iloc[0]:.2f} (target <= 2; below 1: the smallest run's "
              "fixed costs, Python calls and metrics, weigh more)")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="skip the sweep")
    parser.add_argument("--trial-only", action="store_true", help="only the one-simulation timing")
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--scaling", action="store_true", help="only the 1x/4x/16x growth of one simulation")
    parser.add_argument("--record", action="store_true", help="write the speed figures into bench/speed.csv")
    args = parser.parse_args()
    if args.scaling:
        if args.record:
            parser.error("--scaling measures no row of bench/speed.csv")
        scaling()
        return
    rows = {"timeshared-one": one_trial()}
    if not args.trial_only:
        reproduction(args.trials)
        if not args.quick:
            rows["timeshared-grid"] = grid()
    if args.record:
        record_all(rows)


if __name__ == "__main__":
    main()
