"""Benchmark of the value model's static benchmarks TPSA and GA (Kim et al. 2007, section 5):
python bench/value_static.py [--quick]

Prints, in one run:
- the makespan of TPSA and GA (the paper's parameters) on the twelve 512 x 16 HCSP instances of Braun et al. in
  ../shared/data/hcsp/, each seeded with Min-min's mapping (each machine's tasks in the order of their Min-min
  completion), against Min-min measured in the same run, as a markdown table (the data folder gives no best-known
  makespans, so that column says n/a); --quick runs the four consistent instances only;
- the time of TPSA + GA on one value-sized problem (section 6: about 1329 tasks over 250 minutes, 8 machines, CVB
  gamma ETC with mean 180 s and COV 0.9, actual times gamma with COV 0.1, loose deadlines, heavy weighting, window
  [10, 250] min), seeded with MCT on the ETC in arrival order, against the target of 20 s per trial for both.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np

from hcsched import map_tasks
from hcsched.models.etc.workload import cov_based_etc
from hcsched.models.value.static import StaticProblem, ga, score, tpsa
from hcsched.models.value.worth import upper_bound
from hcsched.readers import parse_hcsp_etc

ROOT = Path(__file__).resolve().parents[1]
HCSP = Path(os.environ.get("HCSCHED_SHARED", ROOT.parent / "shared")) / "data" / "hcsp"
NAMES = [f"u_{c}_{h}.0" for c in "cis" for h in ("hihi", "hilo", "lohi", "lolo")]
TARGET_S = 20.0


def hcsp_table(names: list[str]) -> None:
    print("| instance | Min-min | TPSA | GA | TPSA / Min-min | GA / Min-min | best known | TPSA s | GA s |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---:|")
    for name in names:
        etc = parse_hcsp_etc((HCSP / name).read_text(), source=name)
        mm = map_tasks(etc, "min-min")
        problem = StaticProblem.makespan(etc)
        seed = (mm.assignment, mm.completion)
        assert abs(-score(problem, *seed) - mm.makespan) <= 1e-9 * mm.makespan
        start = time.perf_counter()
        t = tpsa(problem, *seed, np.random.default_rng(1))
        t_s = time.perf_counter() - start
        start = time.perf_counter()
        g = ga(problem, *seed, np.random.default_rng(2))
        g_s = time.perf_counter() - start
        print(f"| {name} | {mm.makespan:,.1f} | {-t.score:,.1f} | {-g.score:,.1f} | {-t.score / mm.makespan:.4f} | "
              f"{-g.score / mm.makespan:.4f} | n/a | {t_s:.2f} | {g_s:.2f} |", flush=True)


def value_problem(seed: int = 1, cov: float = 0.9) -> tuple[StaticProblem, np.ndarray, np.ndarray]:
    """A section 6 workload (Kim et al.; the readings of docs/models/value.md, "Workload") and an MCT seed schedule
    on the ETC."""
    rng = np.random.default_rng(seed)
    bursts = np.sort(rng.choice(24, 3, replace=False)) * 600.0 + 600.0  # three of the 24 ten-minute slots after 10 min
    t, arrivals = 0.0, []
    while True:
        gap = 3.5 if t < 600 else (7.0 if ((bursts <= t) & (t < bursts + 600)).any() else 14.0)
        t += rng.exponential(gap)
        if t >= 15000:
            break
        arrivals.append(t)
    arrival = np.array(arrivals)
    n = arrival.size
    etc = cov_based_etc(rng, n, 8, 180.0, cov, cov)
    atc = rng.gamma(100.0, etc / 100.0)  # COV 0.1 around the ETC
    base = arrival + np.median(etc, axis=1)
    weight = rng.choice([16.0, 4.0, 1.0], n)
    problem = StaticProblem(arrival, atc, weight, base + 4 * 144.0, base + 8 * 144.0, base + 12 * 144.0, 600.0, 15000.0)
    ready, machine = np.zeros(8), np.empty(n, np.int64)
    for i in range(n):
        c = np.maximum(ready, arrival[i]) + etc[i]
        machine[i] = int(np.argmin(c))
        ready[machine[i]] = c[machine[i]]
    return problem, machine, np.arange(n, dtype=float)


def value_sized(trials: int) -> None:
    for cov in (0.9, 0.3):
        for k in range(trials):
            p, machine, order = value_problem(100 + k, cov)
            ub = upper_bound(p.arrival, p.weight, p.atc.min(axis=1), p.machines, p.B, p.E)
            start = time.perf_counter()
            t = tpsa(p, machine, order, np.random.default_rng(k))
            t_s = time.perf_counter() - start
            start = time.perf_counter()
            g = ga(p, machine, order, np.random.default_rng(k))
            g_s = time.perf_counter() - start
            print(f"value-sized, COV {cov}, trial {k}: {p.tasks} tasks x 8 machines; "
                  f"V/UB seed {score(p, machine, order) / ub:.1%}, "
                  f"TPSA {t.score / ub:.1%} ({t.evaluations} evaluations, {t_s:.2f} s), GA {g.score / ub:.1%} "
                  f"({g.evaluations} evaluations, {g_s:.2f} s); TPSA + GA {t_s + g_s:.2f} s = "
                  f"{(t_s + g_s) / TARGET_S:.2f} of the {TARGET_S:.0f} s target", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="four HCSP instances and one value-sized trial per COV")
    args = ap.parse_args()
    # compile (or load) the kernels before timing anything
    tiny = StaticProblem.makespan(np.ones((3, 2)))
    tpsa(tiny, [0, 0, 0], np.zeros(3), np.random.default_rng(0), runs=1)
    ga(tiny, [0, 0, 0], np.zeros(3), np.random.default_rng(0), generations=2)
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
    value_sized(1 if args.quick else 3)
    print()
    if HCSP.is_dir():
        hcsp_table(NAMES[:4] if args.quick else NAMES)
    else:
        print(f"HCSP instances not found at {HCSP} (set HCSCHED_SHARED)")
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
