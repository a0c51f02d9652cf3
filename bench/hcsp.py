"""Makespans on the twelve HCSP instances against the LP lower bound: python bench/hcsp.py [--quick] [--readme]

For each 512 x 16 instance of Braun et al. in ../shared/data/hcsp/ (tasks all at time 0, machines free): the LP
relaxation's bound (hcsched.models.etc.bounds.lp_bound); Min-min and Sufferage (map_tasks); TPSA and GA of the value
model with the makespan objective, seeded with Min-min (rng seeds 1 and 2, as bench/value_static.py runs them); the MIP
of R||Cmax (binaries x_ij, continuous C) solved by HiGHS (scipy.optimize.milp) for 10 s, with the gap it proved; and LP
rounding + local search (hcsched.models.etc.search.improve, seed 0) with a 1 s and a 10 s cap, LP included. Each
makespan comes with its percentage above the bound. Every instance runs in a fresh process of its own (``--one NAME``
prints its row as JSON), its numba kernels compiled or loaded from the cache before any timer starts. Prints a markdown
table and writes bench/hcsp.csv (``--csv`` elsewhere); --readme also rewrites the table in docs/reproduction.md between
its hcsp markers; --quick runs four instances with a 2 s MIP (and writes nothing); --no-mip skips the MIP (its cells
NaN); --spread NAME ... prints lp-search's result for several seeds at a fixed iteration budget.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from scipy import optimize, sparse

ROOT = Path(__file__).resolve().parents[1]
HCSP = Path(os.environ.get("HCSCHED_SHARED", ROOT.parent / "shared")) / "data" / "hcsp"
NAMES = [f"u_{c}_{h}.0" for c in "cis" for h in ("hihi", "hilo", "lohi", "lolo")]
CSV = Path(__file__).with_suffix(".csv")
README = ROOT / "docs" / "reproduction.md"  # the page whose table --readme rewrites
START, END = "<!-- hcsp:start -->", "<!-- hcsp:end -->"
METHODS = [("minmin", "Min-min"), ("sufferage", "Sufferage"), ("tpsa", "TPSA"), ("ga", "GA"),
           ("mip", "HiGHS MIP (10 s, reference solver)"), ("ours1", "LP + search, 1 s"),
           ("ours10", "LP + search, 10 s")]


def mip(p: np.ndarray, seconds: float) -> tuple[float, float, float]:
    """R||Cmax as a MIP (x_ij binary, C continuous) by HiGHS within ``seconds``: (makespan, proven gap, time)."""
    n, m = p.shape
    cols = np.arange(n * m)
    assign = sparse.csr_matrix((np.ones(n * m), (np.repeat(np.arange(n), m), cols)), shape=(n, n * m + 1))
    load = sparse.csr_matrix((np.concatenate([p.ravel(), -np.ones(m)]),
                              (np.concatenate([np.tile(np.arange(m), n), np.arange(m)]),
                               np.concatenate([cols, np.full(m, n * m)]))), shape=(m, n * m + 1))
    cost = np.zeros(n * m + 1)
    cost[-1] = 1.0
    integrality = np.ones(n * m + 1)
    integrality[-1] = 0
    start = time.perf_counter()
    res = optimize.milp(cost, integrality=integrality, bounds=optimize.Bounds(0, np.r_[np.ones(n * m), np.inf]),
                        constraints=[optimize.LinearConstraint(assign, 1, 1),
                                     optimize.LinearConstraint(load, -np.inf, 0)],
                        options={"time_limit": seconds})
    took = time.perf_counter() - start
    if res.x is None:
        return float("nan"), float("nan"), took
    x = res.x[:-1].reshape(n, m).argmax(axis=1)
    makespan = float(np.bincount(x, weights=p[np.arange(n), x], minlength=m).max())
    gap = getattr(res, "mip_gap", None)
    return makespan, float("nan") if gap is None else float(gap), took


def run(name: str, mip_seconds: float) -> dict:
    from hcsched import map_tasks
    from hcsched.models.etc.bounds import lp_bound
    from hcsched.models.etc.search import improve
    from hcsched.models.value.static import StaticProblem, ga, tpsa
    from hcsched.readers import read_etc

    p = read_etc(HCSP / name)
    row = {"instance": name, "bound": lp_bound(p)}
    mm = map_tasks(p, "min-min")
    row["minmin"] = mm.makespan
    row["sufferage"] = map_tasks(p, "sufferage").makespan
    problem = StaticProblem.makespan(p)
    row["tpsa"] = -tpsa(problem, mm.assignment, mm.completion, np.random.default_rng(1)).score
    row["ga"] = -ga(problem, mm.assignment, mm.completion, np.random.default_rng(2)).score
    row["mip"], row["mip_gap"], row["mip_s"] = mip(p, mip_seconds) if mip_seconds > 0 else (np.nan,) * 3
    for key, cap in (("ours1", 1.0), ("ours10", 10.0)):
        start = time.perf_counter()
        # the cap covers the LP and the starts; a margin for the last chunk
        r = improve(p, iterations=10**9, seconds=cap - 0.08)
        row[f"{key}_s"] = time.perf_counter() - start
        row[key], row[f"{key}_iterations"] = r.makespan, r.iterations_run
    for key, _ in METHODS:
        row[f"{key}_pct"] = 100.0 * (row[key] / row["bound"] - 1.0)
    return {k: v if isinstance(v, str) else float(v) for k, v in row.items()}


def spread(name: str, seeds: int, iterations: int) -> list[float]:
    """lp-search's % above the LP bound on instance ``name`` for seeds 0 .. ``seeds`` - 1, each with the same
    iteration budget (no time cap: the figures do not depend on the machine's speed or load)."""
    from hcsched.models.etc.bounds import lp_bound
    from hcsched.models.etc.search import improve
    from hcsched.readers import read_etc

    p = read_etc(HCSP / name)
    bound = lp_bound(p)
    return [100.0 * (improve(p, iterations=iterations, seed=s).makespan / bound - 1.0) for s in range(seeds)]


def run_one(name: str, mip_seconds: float) -> dict:
    """:func:`run` in a fresh process (this script with ``--one``): the instance's timings share nothing with
    the others' (caches, heap, compiled code), as one process per instance would."""
    out = subprocess.run([sys.executable, __file__, "--one", name, "--mip-seconds", str(mip_seconds)],
                         check=True, stdout=subprocess.PIPE, text=True).stdout  # its errors on our stderr
    return json.loads(out.strip().splitlines()[-1])


def warm_up() -> None:
    """Compile (or load) the numba kernels before timing anything."""
    from hcsched.models.etc import engine, search

    engine.warm_up()
    search.warm_up()


def render(rows: list[dict]) -> str:
    """The markdown table (and a sentence) of the CSV's rows, values as read from the CSV."""
    head = "| instance | LP bound | " + " | ".join(title for _, title in METHODS) + " | search 1 s / 10 s: time |"
    lines = [head, "|---|" + "---:|" * (len(METHODS) + 2)]
    for r in rows:
        cells = [f"{float(r[k]):,.1f} ({float(r[k + '_pct']):.2f}%)" for k, _ in METHODS]
        cells[4] += f", gap {100 * float(r['mip_gap']):.2f}%"
        lines.append(f"| {r['instance']} | {float(r['bound']):,.1f} | " + " | ".join(cells)
                     + f" | {float(r['ours1_s']):.2f} s / {float(r['ours10_s']):.2f} s |")
    worst1 = max(float(r["ours1_pct"]) for r in rows)
    worst10 = max(float(r["ours10_pct"]) for r in rows)
    lines += ["", f"Each makespan with its percentage above the LP bound; the MIP's gap is the one HiGHS proved. LP "
              f"rounding + local search is at most {worst1:.2f}% above the bound at 1 s and {worst10:.2f}% at 10 s "
              f"(numba kernels compiled beforehand)."]
    return "\n".join(lines)


def write_readme(text: str, start: str = START, end: str = END) -> None:
    """Put ``text`` between the markers ``start`` and ``end`` of docs/reproduction.md."""
    readme = README.read_text()
    head, rest = readme.split(start, 1)
    _, tail = rest.split(end, 1)
    README.write_text(f"{head}{start}\n{text}\n{end}{tail}")


def read_csv(path: Path = CSV) -> list[dict]:
    with path.open() as f:
        return list(csv.DictReader(f))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="four instances, a 2 s MIP, nothing written")
    ap.add_argument("--readme", action="store_true", help="also rewrite the table of docs/reproduction.md")
    ap.add_argument("--no-mip", action="store_true", help="skip the MIP (its cells NaN)")
    ap.add_argument("--csv", type=Path, default=CSV, help="where to write the CSV (default bench/hcsp.csv)")
    ap.add_argument("--spread", metavar="NAME", nargs="+", choices=NAMES,
                    help="lp-search's %% above the bound on these instances for several seeds (--seeds, --iterations)")
    ap.add_argument("--seeds", type=int, default=8, help="with --spread: seeds 0 .. N-1 (8)")
    ap.add_argument("--iterations", type=int, help="with --spread: the iteration budget (by default what the "
                    "instance's 10 s run reached in bench/hcsp.csv)")
    ap.add_argument("--one", metavar="NAME", help=argparse.SUPPRESS)  # one instance, its row as JSON
    ap.add_argument("--mip-seconds", type=float, default=10.0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.seeds < 1 or (args.iterations is not None and args.iterations < 1):
        ap.error(f"--seeds {args.seeds} / --iterations {args.iterations}: each is at least 1")
    if not HCSP.is_dir():
        print(f"HCSP instances not found at {HCSP} (set HCSCHED_SHARED)")
        return 1
    if args.spread:
        warm_up()
        reached = {r["instance"]: int(float(r["ours10_iterations"])) for r in read_csv()}
        for name in args.spread:
            iterations = args.iterations or reached[name]
            pcts = spread(name, args.seeds, iterations)
            print(f"{name}, {iterations:,} iterations, seeds 0-{args.seeds - 1}: "
                  + " ".join(f"{x:.3f}" for x in pcts) + f" (% above the bound; mean {np.mean(pcts):.3f}, "
                  f"{sum(x <= 0.5 for x in pcts)} of {len(pcts)} within 0.5%)", flush=True)
        return 0
    if args.one:
        warm_up()
        print(json.dumps(run(args.one, args.mip_seconds)))
        return 0
    warm_up()  # fill numba's disk cache once, so that no instance's process compiles
    mip_seconds = 0.0 if args.no_mip else 2.0 if args.quick else 10.0
    rows = []
    for name in NAMES[::3] if args.quick else NAMES:
        rows.append(run_one(name, mip_seconds))
        pct = ", ".join(f"{key} {rows[-1][key + '_pct']:.2f}%" for key, _ in METHODS)
        print(f"{name}: {pct}", flush=True)
    if not args.quick:
        with args.csv.open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        rows = read_csv(args.csv)
    text = render(rows)
    print(text)
    if args.readme and not args.quick and args.csv == CSV:
        write_readme(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
