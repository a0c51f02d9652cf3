"""How the value model's cost grows: python bench/value_scaling.py [--factors 1,4,16] [--repeats 3] [--heuristics ...]

kim-loose-low-heavy with its machines and its arrival rates (every mean gap) multiplied by f; one trial (the
preset's first), one process, kernels warm; Max-Max, Slack Sufferage and Queueing Table, the heuristics the
speed targets name. For each heuristic and size it prints the seconds of the trial (best of ``--repeats``; one run at
f >= 16), the growth exponent of each step (log of the time ratio / log of the work ratio, the work being tasks x
machines), and the time per unit of decision work.

Unit of decision work: one (waiting task, machine) pair per mapping event, i.e. the sum over the events of the
waiting tasks (the new one included) x the machines. Max-Max and Slack Sufferage compare every mappable task with
every machine at an event (section 4.2, 4.7); Queueing Table places the new task in every machine's queue by
scanning it and checks every machine's queue for a late task's move (section 4.5), at most the same count.

Timings on a shared machine are noisy: a reference is measured at each size in the same run, a plain numba pass
over as many (task, machine) pairs as Max-Max's units (one completion time and a running minimum per pair); the
column "/ ref" is the heuristic's time per unit over the reference's, which the machine's load cancels from. "PS ref"
is the same pass evaluating Slack Sufferage's percentage slack and keeping the two best (a division per pair where
the deadline is met): the floor of one PS evaluation, to which Slack Sufferage's count of evaluations is compared.
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
from hcsched.models.value.plugin import NO_RULE
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


@njit(cache=True)
def ps_reference(etc, mat, d, waiting, events):
    """As :func:`reference` with Slack Sufferage's evaluation of a pair instead: PS = 1 - ETC / (d - mat) where the
    completion meets the deadline d, else -1, and the two best (section 4.7; one deadline)."""
    T, M = etc.shape
    total = 0.0
    for k in range(events):
        for a in range(waiting):
            i = (k + a) % T
            row = etc[i]
            s1, s2 = -math.inf, -math.inf
            for j in range(M):
                ps = 1.0 - row[j] / (d[i] - mat[j]) if mat[j] + row[j] <= d[i] and d[i] > mat[j] else -1.0
                if ps > s1:
                    s1, s2 = ps, s1
                elif ps > s2:
                    s2 = ps
            total += s1 - s2
    return total


def reference_ns(w, machines: int, waiting: int, events: int) -> tuple[float, float]:
    """ns per pair of :func:`reference` and of :func:`ps_reference`. Each task's deadline is its D100 relative to its
    arrival, and the machines' mat spreads evenly over 0 to 2 mean ETCs past that arrival, so that some machines meet
    it and some do not."""
    mat = w.arrival.mean() + np.linspace(0.0, 2.0, machines) * w.etc.mean()
    d = np.full(w.tasks, w.arrival.mean()) + (w.d100 - w.arrival)
    out = []
    for kernel, args in ((reference, (w.etc, mat)), (ps_reference, (w.etc, mat, d))):
        kernel(*args, 2, 2)
        t = time.perf_counter()
        kernel(*args, waiting, events)
        out.append((time.perf_counter() - t) / (waiting * events * machines) * 1e9)
    return out[0], out[1]


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
          "| / ref | PS ref ns / unit | mapping digest |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
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
                                                                False, NO_RULE, 0)
                best = min(best, time.perf_counter() - t)
            units = stats[2] * spec.machines
            work = w.tasks * spec.machines
            growth = ""
            if name in last:
                s0, w0 = last[name]
                growth = f"{math.log(best / s0) / math.log(work / w0):.2f}"
            last[name] = (best, work)
            ref, ps_ref = reference_ns(w, spec.machines, int(stats[2] / stats[0]), int(stats[0]))
            per = best / units * 1e9
            digest = hashlib.sha256(machine.tobytes() + start.tobytes() + finish.tobytes()).hexdigest()[:12]
            print(f"| {name} | {f} | {w.tasks} | {spec.machines} | {stats[2] / stats[0]:.0f} | {best:.3f} | {growth} "
                  f"| {units:.3g} | {per:.1f} | {ref:.2f} | {per / ref:.1f} | {ps_ref:.2f} | {digest} |", flush=True)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
