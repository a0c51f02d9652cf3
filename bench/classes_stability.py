"""The error rates of the task-class model's trend test: python bench/classes_stability.py [--quick]

Runs replications of systems whose stability is known (Al-Azzoni and Down,
Table 1 and sections II-B, III-A, III-B) and prints, per system, heuristic and
horizon, how many were flagged as growing by
:func:`hcsched.models.classes.stability.growing` (and by the older test in
``simulation.growing`` when it is there, for comparison): for a stable system
a flag is a false positive, for an unstable one a miss is a false negative.

- stable: System B (MCT, KPB kbar=1, LPAS), System D (MCT, KPB kbar=2 and 3,
  LPAS), System A (lambda* = 1.0204, MCT and LPAS; MCT's stability there is
  what Table 1 prints, not a theorem), LPAS on System H, and LPAS and
  Guided-LPAS (stable by Theorem 3) on Sharifnia's example of section II-B
  read with the printed matrix as mean execution times (mu = 1/x);
- unstable: MCT and KPB kbar=5 on System H, MCT on Sharifnia's example read
  as times, and System B with its arrival rates scaled by 1.03 lambda*
  (lambda* = 1/1.03 < 1, Theorem 2) under LPAS, judged by the trend test alone.

Each replication is simulated once up to the longest horizon; the shorter
horizons cut its workload (the arrivals before the horizon, so the same
tasks), so a replication's curves at several horizons are nested. Seeds:
``np.random.SeedSequence(seed).spawn(reps)``. One process, one replication at a
time. ``--quick``: 5 replications at 20,000 time units.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time

import numpy as np

from hcsched.models.classes import simulation
from hcsched.models.classes.presets import PRESETS
from hcsched.models.classes.spec import ClassSpec
from hcsched.models.classes.stability import _drift_statistic, growing
from hcsched.scenario import heuristic_spec

SHARIFNIA_ALPHA = (10.0, 10.0, 25.0, 40.0)
SHARIFNIA_TIMES = ((0.065, 0.0), (0.06, 0.06), (0.0, 0.02), (0.06, 0.005))  # section II-B, read as mean times


def _h(name: str, **params):
    return heuristic_spec({"name": name, **params}, "classes")


def systems() -> list[tuple[str, ClassSpec, list[tuple[str, object, bool]]]]:
    """(system, its ClassSpec, [(heuristic label, HeuristicSpec, unstable)])."""
    preset = {name: PRESETS[f"alazzoni-{name}"]().spec.classes for name in ("A", "B", "D", "H")}
    sharifnia = ClassSpec(SHARIFNIA_ALPHA, tuple(tuple(1.0 / x if x > 0 else 0.0 for x in row)
                                                 for row in SHARIFNIA_TIMES))
    b = preset["B"]
    factor = 1.03 * b.allocation().lam
    b_over = dataclasses.replace(b, arrival_rates=tuple(a * factor for a in b.arrival_rates))
    return [
        ("B", b, [("mct", _h("mct"), False), ("kpb kbar=1", _h("kpb", kbar=1), False), ("lpas", _h("lpas"), False)]),
        ("D", preset["D"], [("mct", _h("mct"), False), ("kpb kbar=2", _h("kpb", kbar=2), False),
                            ("kpb kbar=3", _h("kpb", kbar=3), False), ("lpas", _h("lpas"), False)]),
        ("A", preset["A"], [("mct", _h("mct"), False), ("lpas", _h("lpas"), False)]),
        ("H", preset["H"], [("lpas", _h("lpas"), False), ("mct", _h("mct"), True),
                            ("kpb kbar=5", _h("kpb", kbar=5), True)]),
        ("Sharifnia (times)", sharifnia, [("mct", _h("mct"), True), ("lpas", _h("lpas"), False),
                                          ("guided-lpas", _h("guided-lpas"), False)]),
        ("B x1.03 lambda*", b_over, [("lpas", _h("lpas"), True)]),
    ]


def cut(w, horizon: float):
    """The workload's tasks arriving before ``horizon`` (every per-task array cut alike)."""
    n = int(np.searchsorted(w.arrival, horizon, side="left"))
    return dataclasses.replace(w, **{f.name: getattr(w, f.name)[:n] for f in dataclasses.fields(w)
                                     if isinstance(getattr(w, f.name), np.ndarray)
                                     and getattr(w, f.name).shape[:1] == w.arrival.shape})


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 replications at 20,000 time units")
    parser.add_argument("--reps", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2009)
    parser.add_argument("--horizons", default="20000,100000,200000", help="comma-separated time units")
    parser.add_argument("--systems", default="", help="comma-separated system names (default: all)")
    args = parser.parse_args(argv)
    reps, horizons = args.reps, sorted(float(h) for h in args.horizons.split(","))
    if args.quick:
        reps, horizons = 5, [20000.0]
    old = getattr(simulation, "growing", None)
    old = old if old is not growing else None
    wanted = {s.strip() for s in args.systems.split(",") if s.strip()}
    seeds = np.random.SeedSequence(args.seed).spawn(reps)
    rows, start = [], time.perf_counter()
    for name, spec, heuristics in systems():
        if wanted and name not in wanted:
            continue
        long = dataclasses.replace(spec, horizon=max(horizons))
        flags = {(label, h): [] for label, _, _ in heuristics for h in horizons}
        stats = {(label, h): [] for label, _, _ in heuristics for h in horizons}
        olds = {(label, h): [] for label, _, _ in heuristics for h in horizons}
        levels = {(label, h): [] for label, _, _ in heuristics for h in horizons}
        for ss in seeds:
            w = simulation.make_class_workload(long, ss)
            for h in horizons:
                spec_h, w_h = dataclasses.replace(spec, horizon=h), cut(w, h)
                for label, hs, _ in heuristics:
                    curve = np.asarray(simulation.run_class_heuristic(hs, spec_h, w_h).in_system, dtype=float)
                    flags[label, h].append(growing(curve))
                    stats[label, h].append(_drift_statistic(curve)[0])
                    levels[label, h].append(curve[-curve.size // 4:].mean())
                    if old is not None:
                        olds[label, h].append(bool(old(curve)))
            del w
        for label, hs, unstable in heuristics:
            lam = simulation.restricted_lambda(hs, spec)
            for h in horizons:
                rows.append((name, label, lam, unstable, h, sum(flags[label, h]), max(stats[label, h]),
                             float(np.median(stats[label, h])), float(np.median(levels[label, h])),
                             sum(olds[label, h]) if old is not None else None))
        print(f"  {name}: {time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    print(f"\nTrend test: flagged k of {reps} (seeds SeedSequence({args.seed}).spawn({reps}), exponential times)")
    print(f"{'system':18s} {'heuristic':12s} {'lam*':>7s} {'truth':8s} {'horizon':>8s} {'flagged':>8s} {'rate':>10s} "
          f"{'max t':>7s} {'med t':>7s} {'Q late':>9s} {'old test':>8s}")
    for name, label, lam, unstable, h, k, tmax, tmed, level, k_old in rows:
        rate = f"FN {1 - k / reps:.0%}" if unstable else f"FP {k / reps:.0%}"
        old_txt = "-" if k_old is None else f"{k_old}/{reps}"
        tmax_txt = f"{tmax:7.2f}" if math.isfinite(tmax) else f"{tmax:>7}"
        print(f"{name:18s} {label:12s} {lam:7.4f} "
              f"{'unstable' if unstable else 'stable':8s} {h:8.0f} {k:>5d}/{reps:<2d} "
              f"{rate:>10s} {tmax_txt} {tmed:7.2f} {level:9.1f} {old_txt:>8s}")
    stable = [r for r in rows if not r[3]]
    unstable = [r for r in rows if r[3]]
    for h in horizons:
        fp = sum(r[5] for r in stable if r[4] == h)
        n_fp = reps * sum(1 for r in stable if r[4] == h)
        fn = sum(reps - r[5] for r in unstable if r[4] == h)
        n_fn = reps * sum(1 for r in unstable if r[4] == h)
        print(f"horizon {h:8.0f}: false positives {fp}/{n_fp}, false negatives {fn}/{n_fn}")
    print(f"measurement time: {elapsed:.0f} s")


if __name__ == "__main__":
    main()
