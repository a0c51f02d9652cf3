"""How the value model's cost grows (issue 21): python bench/value_scaling.py [--factors 1,4,16] [--repeats 3] [--heuristics ...]

kim-loose-low-heavy with its machines and its arrival rates (every mean gap) multiplied by f; one trial (the
preset's first), one process, kernels warm; Max-Max, Slack Sufferage and Queueing Table, the heuristics of the
issue's table. For each heuristic and size it prints the seconds of the trial (best of ``--repeats``; one run at
f >= 16), the growth exponent of each step (log of the time ratio / log of the work ratio, the work being tasks x
machines), and the time per unit of decision work.

Unit of decision work: one (waiting task, machine) pair per mapping event, i.e. the sum over the events of the
waiting tasks (the new one included) x the machines. Max-Max and Slack Sufferage compare every mappable task with
every machine at an event (section 4.2, 4.7); Queueing Table places the new task in every machine's queue by
scanning it and checks every machine's queue for a late task's move (section 4.5), at most the same count.

Timings on a shared machine are noisy: a reference is measured at each size in the same run, a plain numba pass
over as many (task, machine) pairs as Max-Max's units (one completion time and a running minimum per pair); the
column "/ ref" is the heuristic's time per unit over the reference's, which the machine's load cancels from.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import math
import os
import time

import numpy as np
from numba import njit

from hcsched import preset
from hcsched.experiment import trial_seeds
from hcsched.models.value import MODEL, engine
from hcsched.models.value.heuristics import DYNAMIC
from hcsched.models.value.simulation import trial

NAMES = ("max-max", "slack-sufferage", "queueing-table")


def scaled(spec, f: int):
    """The preset's system with f times the machines and f times every arrival rate."""
    return dataclasses.replace(spec, machines=spec.machines * f, startup_gap=spec.startup_gap / f, gap=spec.gap / f,
                               burst_gap=spec.burst_gap / f)


@njit(cache=True)
def reference(etc, mat, waiting, events):
    """``events`` passes over ``waiting`` ETC rows x every machine: a completion time and a running minimum per
    pair (the least a heuristic comparing every mappable task with every machine does)."""
    T, M = etc.shape
    total = 0.0
    for k in range(events):
        for a in range(waiting):
            row = etc[(k + a) % T]
            best = math.inf
            for j in range(M):
                c = mat[j] + row[j]
                if c < best:
                    best = c
            total += best
    return total


def reference_ns(w, machines: int, waiting: int, events: int) -> float:
    mat = np.zeros(machines)
    reference(w.etc, mat, 2, 2)
    t = time.perf_counter()
    reference(w.etc, mat, waiting, events)
    return (time.perf_counter() - t) / (waiting * events * machines) * 1e9


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--factors", default="1,4,16")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--heuristics", default=",".join(NAMES))
    a = ap.parse_args()
    factors = [int(x) for x in a.factors.split(",")]
    sc = preset("kim-loose-low-heavy")
    MODEL.warm_up()
    print(f"cpus: {os.cpu_count()}, load average at start: {os.getloadavg()[0]:.2f}\n")
    print("| heuristic | f | tasks | machines | mean waiting | s | growth exponent | units | ns / unit | ref ns / unit "
          "| / ref | mapping digest |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    last: dict[str, tuple[float, float]] = {}
    for f in factors:
        spec = scaled(sc.spec, f)
        w = MODEL.workload(spec, trial_seeds(sc.seed, 1)[0])
        tr = trial(w)
        for name in a.heuristics.split(","):
            h = next(h for h in DYNAMIC if h.name == name)
            fp = h.pack(h.defaults(), spec, w)
            best = math.inf
            for _ in range(a.repeats if f < 16 else 1):
                t = time.perf_counter()
                machine, start, finish, stats = engine.simulate(h.kind, fp, tr, spec.window[1], spec.stop, False,
                                                                False)
                best = min(best, time.perf_counter() - t)
            units = stats[2] * spec.machines
            work = w.tasks * spec.machines
            growth = ""
            if name in last:
                s0, w0 = last[name]
                growth = f"{math.log(best / s0) / math.log(work / w0):.2f}"
            last[name] = (best, work)
            ref = reference_ns(w, spec.machines, int(stats[2] / stats[0]), int(stats[0]))
            per = best / units * 1e9
            digest = hashlib.sha256(machine.tobytes() + start.tobytes() + finish.tobytes()).hexdigest()[:12]
            print(f"| {name} | {f} | {w.tasks} | {spec.machines} | {stats[2] / stats[0]:.0f} | {best:.3f} | {growth} "
                  f"| {units:.3g} | {per:.1f} | {ref:.2f} | {per / ref:.1f} | {digest} |", flush=True)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
