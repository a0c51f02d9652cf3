"""Benchmark of the value model (Kim et al. 2007) against its speed targets: python bench/value.py [--quick] [--record]

Prints, in one run:
1. one mapping event with about 400 waiting tasks on 8 machines, for every dynamic heuristic (target <= 5 ms): the
   state is taken from a low-heterogeneity trial (loose deadlines, heavy weighting) at the first arrival where
   Max-Min's queues hold at least 400 waiting tasks, and every heuristic maps that same state; median of repeats.
   Each time is also given against a reference measured in the same run: one vectorised MCT pass (numpy) over the
   same mappable tasks. The paper's claim that Queueing Table and Switching are >= 100x faster than the others is
   checked as a ratio;
2. one preset without TPSA and GA, 50 trials on 2 processes (target <= 60 s): kim-loose-low-heavy (long queues, the
   slow case) and kim-loose-high-heavy;
3. TPSA and GA with the paper's parameters on one trial of kim-loose-low-heavy (target <= 20 s for both), and
   their share of the trial's time.

--quick: 10 trials instead of 50 in part 2 (the time is scaled to 50), fewer repeats; --trials N: N trials in part 2
(scaled alike; the test suite's run of every script uses 2). --record writes the figures
into their rows of bench/speed.csv (bench/speed.py), the table of docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from hcsched import preset, simulate
from hcsched.experiment import trial_seeds
from hcsched.models.value import MODEL, engine
from hcsched.models.value.event import Queues, mapping_event, new_carry
from hcsched.models.value.heuristics import DYNAMIC
from hcsched.models.value.kinds import Kind
from hcsched.models.value.simulation import run_dynamic, trial

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when this file is imported from its path
from speed import record_all, span  # noqa: E402

EVENT_TARGET_MS = 5.0
PRESET_TARGET_S = 60.0
STATIC_TARGET_S = 20.0


def event_state(sc, waiting: int = 400):
    spec = sc.spec
    w = MODEL.workload(spec, trial_seeds(sc.seed, 1)[0])
    mm = next(h for h in DYNAMIC if h.kind == Kind.MAX_MIN)
    fp = mm.pack(mm.defaults(), spec, w)
    for until in range(300, w.tasks, 10):
        snap = engine.snapshot(mm.kind, fp, trial(w), spec.window[1], spec.stop, False, until)
        if 1 + snap["queues"].qlen.sum() >= waiting:
            return spec, w, snap
    raise SystemExit("no arrival with that many waiting tasks")


def time_event(kind, fp, w, snap, end, repeats: int) -> float:
    times = []
    for _ in range(repeats + 1):
        q = snap["queues"]
        queues, state = Queues(q.queue.copy(), q.qlen.copy(), q.base), snap["state"].copy()
        t = time.perf_counter()
        carry = new_carry(kind, w.tasks, q.qlen.size)  # nothing carried: the whole event is computed
        mapping_event(kind, fp, state, snap["new"], snap["now"], end, queues, trial(w), carry)
        times.append(time.perf_counter() - t)
    return 1000.0 * float(np.median(times[1:]))  # the first call may compile


def reference_ms(w, snap, repeats: int) -> float:
    """One vectorised MCT pass over the same mappable tasks (numpy)."""
    queue, qlen, base = snap["queues"]
    rows = np.concatenate([queue[j, 1:qlen[j]] for j in range(qlen.size)] + [[snap["new"]]]).astype(int)
    mat = base + np.array([w.etc[queue[j, 0], j] if qlen[j] else 0.0 for j in range(qlen.size)])
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        (mat[None, :] + w.etc[rows]).argmin(axis=1)
        times.append(time.perf_counter() - t)
    return 1000.0 * float(np.median(times))


def part_events(repeats: int) -> dict[str, dict]:
    """Part 1; the speed table's rows."""
    sc = preset("kim-loose-low-heavy")
    spec, w, snap = event_state(sc)
    waiting = 1 + int(snap["queues"].qlen.sum())
    ref = reference_ms(w, snap, 200)
    print(f"## 1. One mapping event: {waiting} waiting tasks on {spec.machines} machines (task {snap['new']} of a "
          f"low-heterogeneity trial); target <= {EVENT_TARGET_MS:g} ms; reference = one numpy MCT pass "
          f"{ref * 1000:.1f} us\n")
    print("| heuristic | ms | / target | / reference |")
    print("|---|---:|---:|---:|")
    ms = {}
    for h in DYNAMIC:
        fp = h.pack(h.defaults(), spec, w)
        ms[h.name] = time_event(h.kind, fp, w, snap, spec.window[1], repeats)
        print(f"| {h.name} | {ms[h.name]:.3f} | {ms[h.name] / EVENT_TARGET_MS:.3f} | {ms[h.name] / ref:.1f}x |")
    fastest = min((k for k in ms if k not in ("queueing-table", "switching")), key=ms.get)
    slow = ms[fastest]
    for k in ("queueing-table", "switching"):
        print(f"\n{k}: the fastest rebuilding heuristic takes {slow / ms[k]:.0f}x its time (the paper: >= 100x)",
              end="")
    print("\n")
    first, second, third = sorted(ms, key=ms.get, reverse=True)[:3]
    qt, sw = ms["queueing-table"], ms["switching"]
    return {"value-event": {"what": f"value model: one mapping event, {waiting} waiting "
                                    f"tasks x {spec.machines} machines, "
                                    "every dynamic heuristic",
                            "time": f"{span(list(ms.values()))} ms ({first} slowest, then {second} {ms[second]:.2f}, "
                                    f"{third} {ms[third]:.2f})",
                            "reference": f"a numpy MCT pass over the same tasks, {ref * 1000:.1f} µs",
                            "ratio": f"{span([v / EVENT_TARGET_MS for v in ms.values()])} of the target"},
            "value-qt-switching": {"time": f"{qt:.3f} / {sw:.3f} ms", "reference": f"{fastest} {slow:.3f} ms",
                                   "ratio": f"{slow / qt:.0f}× / {slow / sw:.0f}× faster"}}


def part_preset(trials: int) -> dict[str, dict]:
    """Part 2; the speed table's rows."""
    print(f"## 2. One preset without TPSA and GA, 50 trials, 2 processes (target <= {PRESET_TARGET_S:g} s)\n")
    print("| preset | trials run | s | s for 50 trials | / target |")
    print("|---|---:|---:|---:|---:|")
    rows = {}
    for name in ("kim-loose-low-heavy", "kim-loose-high-heavy"):
        sc = preset(name)
        sc = sc.replace(heuristics=tuple(h for h in sc.heuristics if h.name not in ("tpsa", "ga")), trials=trials)
        simulate(sc.replace(trials=2), jobs=2)  # warm the worker processes' compiled kernels
        t = time.perf_counter()
        simulate(sc, jobs=2)
        s = time.perf_counter() - t
        s50 = s * 50 / trials
        print(f"| {name} | {trials} | {s:.1f} | {s50:.1f} | {s50 / PRESET_TARGET_S:.2f} |")
        rows[f"value-kim-{name.split('-')[2]}"] = {
            "time": f"{s50:.1f} s" + ("" if trials == 50 else f" ({trials} trials, scaled to 50)"),
            "ratio": f"{s50 / PRESET_TARGET_S:.2f}"}
    print()
    return rows


def part_static() -> dict[str, dict]:
    """Part 3; the speed table's row."""
    sc = preset("kim-loose-low-heavy")
    spec = sc.spec
    w = MODEL.workload(spec, trial_seeds(sc.seed, 1)[0])
    t = time.perf_counter()
    for h in DYNAMIC:
        run_dynamic(spec, h, h.defaults(), w)
    dyn = time.perf_counter() - t
    out = {}
    for h in sc.heuristics:
        if h.heuristic.reference:  # the static benchmarks, TPSA and GA
            t = time.perf_counter()
            run = MODEL.run(spec, h, w)
            out[h.name] = (time.perf_counter() - t, run.value / run.upper_bound * 100)
    both = sum(v[0] for v in out.values())
    print(f"## 3. TPSA and GA, the paper's parameters, one trial of {sc.name} ({w.tasks} tasks; target <= "
          f"{STATIC_TARGET_S:g} s for both)\n")
    print(f"dynamic heuristics: {dyn:.2f} s; " + "; ".join(f"{k}: {v[0]:.1f} s ({v[1]:.2f}% of UB)"
                                                          for k, v in out.items()))
    print(f"TPSA + GA: {both:.1f} s = {both / STATIC_TARGET_S:.2f} x the target; "
          f"{100 * both / (both + dyn):.0f}% of the trial's time\n")
    return {"value-tpsa-ga": {"time": f"{both:.1f} s ({100 * both / (both + dyn):.0f}% of the trial)",
                              "ratio": f"{both / STATIC_TARGET_S:.2f}"}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--trials", type=int, default=0, help="trials in part 2 (default: 50, or 10 with --quick)")
    ap.add_argument("--record", action="store_true", help="write the figures into bench/speed.csv")
    a = ap.parse_args()
    print(f"cpus: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}\n")
    MODEL.warm_up()
    simulate(MODEL.tiny())  # compile (or load) every kernel, TPSA and GA included, before timing anything
    rows = {**part_events(5 if a.quick else 20), **part_preset(a.trials or (10 if a.quick else 50)), **part_static()}
    if a.record:
        record_all(rows)


if __name__ == "__main__":
    main()
