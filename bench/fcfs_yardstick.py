"""The yardstick of the task-class simulator: python bench/fcfs_yardstick.py [--trials N] [--systems A,B,...] [--record]

A plain numba loop of the same system: the same arrivals and unit-mean work
draws (one trial's workload of each Table 1 system of Al-Azzoni and Down), one
queue, first come first served to the machine that frees first (among those
that can run the task's class), each task's start and finish written down.
It does an arrival per task and a look at every capable machine, and nothing
else: no heuristic, no per-machine queues, no sampled number in system, and
no departure events (a machine's next free time, one number, stands for its
queue). That makes it lighter than any class heuristic, which must take each
departure from its machine's W_j at its time (section III-B). A second
reference, the same loop with a departure event per task (each machine's
tasks in a FIFO, its running task popped when it finishes before an
arrival), shows what that costs.

Prints, per system, the class simulator's time (its kernel, and its whole run
with the metrics) per heuristic of Table 1 against the yardstick's on the same
workloads, measured in this run, as ratios (target: the kernel within 1.5x),
and the kernel against the loop with departures. ``--record`` writes the totals into their row of bench/speed.csv
(bench/speed.py), the table of docs/performance.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when this file is imported from its path
from speed import record  # noqa: E402

TARGET = 1.5  # the class kernel's time over the yardstick's


@njit(cache=True)
def fcfs(arrival, cls, scale, inv):
    """One FCFS queue to the first free capable machine: machine, start and finish of each task."""
    n = arrival.size
    m = inv.shape[1]
    free = np.zeros(m)
    machine = np.empty(n, np.int64)
    start = np.empty(n)
    finish = np.empty(n)
    for a in range(n):
        i = cls[a]
        best, best_free = -1, np.inf
        for j in range(m):
            if free[j] < best_free and inv[i, j] < np.inf:
                best, best_free = j, free[j]
        s = max(arrival[a], best_free)
        machine[a] = best
        start[a] = s
        finish[a] = s + scale[a] * inv[i, best]
        free[best] = finish[a]
    return machine, start, finish


@njit(cache=True)
def fcfs_departures(arrival, cls, scale, inv):
    """:func:`fcfs` with a departure event per task: each machine's tasks in a FIFO (a linked list), its running task
    popped (its number in system less one) when it finishes before an arrival."""
    n = arrival.size
    m = inv.shape[1]
    free = np.zeros(m)
    queued = np.zeros(m, np.int64)
    head = np.full(m, -1)
    tail = np.full(m, -1)
    nxt = np.empty(n, np.int64)
    done_at = np.full(m, np.inf)
    machine = np.empty(n, np.int64)
    start = np.empty(n)
    finish = np.empty(n)
    for a in range(n):
        i = cls[a]
        t = arrival[a]
        best, best_free = -1, np.inf
        for j in range(m):
            while done_at[j] <= t:
                queued[j] -= 1
                h = nxt[head[j]]
                head[j] = h
                done_at[j] = finish[h] if h >= 0 else np.inf
            if free[j] < best_free and inv[i, j] < np.inf:
                best, best_free = j, free[j]
        s = max(t, best_free)
        machine[a] = best
        start[a] = s
        finish[a] = s + scale[a] * inv[i, best]
        free[best] = finish[a]
        nxt[a] = -1
        queued[best] += 1
        if head[best] < 0:
            head[best] = a
            done_at[best] = finish[a]
        else:
            nxt[tail[best]] = a
        tail[best] = a
    return machine, start, finish


def best_of(fn, repeat: int) -> float:
    """The least CPU time of ``repeat`` calls (CPU time: on a shared machine, wall time counts the other processes)."""
    times = []
    for _ in range(repeat):
        t = time.thread_time()
        fn()
        times.append(time.thread_time() - t)
    return min(times)


def compare(systems: list[str], trials: int = 1, repeat: int = 3) -> tuple[float, float, float, float]:
    """Seconds of the yardstick, of the class kernel, of the class runs with metrics and of the yardstick with
    departures, summed over the systems' Table 1 heuristics and ``trials`` workloads (each the best of ``repeat``),
    printing a line per system and one on the yardstick with departures."""
    from hcsched import preset
    from hcsched.models.classes import kernels
    from hcsched.models.classes.simulation import (
        class_metrics,
        execution_times,
        kernel_rule,
        make_class_workload,
        run_class_heuristic,
        sample_times,
    )
    from hcsched.sampling import trial_seeds

    kernels.warm_up()
    for loop in (fcfs, fcfs_departures):
        loop(np.zeros(1), np.zeros(1, np.int64), np.ones(1), np.ones((1, 1)))
    totals = np.zeros(4)
    for name in systems:
        scenario = preset(f"alazzoni-{name}")
        spec, heuristics = scenario.classes, scenario.heuristics
        inv = execution_times(spec)
        sums = np.zeros(4)
        for seed_seq in trial_seeds(scenario.seed, trials):
            w = make_class_workload(spec, seed_seq)
            ours = np.zeros(2)
            for h in heuristics:
                args = ((w.arrival, w.cls, w.work, w.u1, w.u2, w.u3), kernel_rule(h, spec),
                        (inv, float(spec.horizon), sample_times(spec)))
                ours += (best_of(lambda args=args: kernels.run_classes(*args), repeat),
                         best_of(lambda h=h, w=w, spec=spec: class_metrics(run_class_heuristic(h, spec, w), h, spec),
                                 repeat))
            yard, with_departures = (best_of(lambda loop=loop, w=w, inv=inv: loop(w.arrival, w.cls, w.work, inv),
                                             repeat)
                                     * len(heuristics) for loop in (fcfs, fcfs_departures))
            sums += (yard, *ours, with_departures)
        totals += sums
        print(f"alazzoni-{name:<3} {spec.machines:>2} machines, {len(heuristics)} heuristics x {trials} trial(s): "
              f"yardstick {sums[0]:6.3f} s, class kernel {sums[1]:6.3f} s (ratio {sums[1] / sums[0]:4.2f}), "
              f"with schedule and metrics {sums[2]:6.3f} s (ratio {sums[2] / sums[0]:4.2f}); class kernel / yardstick "
              f"with departures {sums[1] / sums[3]:4.2f}", flush=True)
    print(f"class kernel / yardstick with departures {totals[1] / totals[3]:4.2f} (that yardstick / the plain one "
          f"{totals[3] / totals[0]:4.2f})", flush=True)
    return tuple(totals)


def row(yard: float, kernel: float, whole: float, departures: float) -> dict:
    """The speed table's cells of :func:`compare`'s totals."""
    return {"time": f"{kernel / yard:.2f}; {whole / yard:.2f} with the schedule and metrics; {kernel / departures:.2f} "
                    "against the same loop with a departure event per task",
            "ratio": f"{kernel / yard / TARGET:.2f} of the target"}


def horizon_growth(factors=(1, 4, 16)) -> None:
    """alazzoni-B with MCT and LPAS, one trial, the horizon x1, x4, x16: seconds (CPU) and seconds per unit of decision
    work. The unit: a machine whose expected completion a mapping compares (MCT and LPAS compare every machine they
    may use for the class: N_s per arrival); it should stay flat as the run grows."""
    from hcsched import preset, simulate
    from hcsched.models.classes.spec import ClassModelSpec
    from hcsched.scenario import HeuristicSpec

    base = preset("alazzoni-B").replace(trials=1, heuristics=[HeuristicSpec.make("mct"), HeuristicSpec.make("lpas")])

    def horizon(h: float):
        return base.replace(spec=ClassModelSpec(dataclasses.replace(base.classes, horizon=h)))

    simulate(horizon(200.0), jobs=1)  # warm
    for f in factors:
        scenario = horizon(20000.0 * f)
        t = time.thread_time()
        results = simulate(scenario, jobs=1)
        cpu = time.thread_time() - t
        units = float((results["state_info"] * results["arrivals"]).sum())
        print(f"alazzoni-B, MCT and LPAS, horizon x{f:<2}: {cpu:6.3f} s, {units / 1e6:6.2f} M machines compared, "
              f"{cpu / units * 1e9:5.1f} ns per machine compared", flush=True)


def main() -> None:
    from hcsched.models.classes.presets import SYSTEMS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=1)
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated Table 1 systems")
    parser.add_argument("--growth", action="store_true", help="also alazzoni-B's cost as its horizon grows x1, x4, x16")
    parser.add_argument("--record", action="store_true", help="write the totals into bench/speed.csv (every system, "
                        "one trial: the table's row)")
    args = parser.parse_args()
    if args.record and (args.trials != 1 or args.systems != ",".join(SYSTEMS)):
        parser.error("--record measures the table's row: every system, one trial")
    if args.growth:
        horizon_growth()
    totals = compare(args.systems.split(","), args.trials)
    yard, kernel, whole, _ = totals
    load = os.getloadavg()[0]
    print(f"Table 1 heuristics: class kernel / yardstick {kernel / yard:4.2f} (target <= {TARGET:g}), whole run with "
          f"metrics / yardstick {whole / yard:4.2f}; load average {load:.2f} on {os.cpu_count()} cores")
    if args.record:
        record("classes-fcfs-yardstick", **row(*totals))


if __name__ == "__main__":
    main()
