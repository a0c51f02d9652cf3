"""Does a mapping within PCT% of the LP bound exist? python bench/hcsp_optimum.py [--pct 0.5] [--seconds 600] [--readme]

For each HCSP instance on which LP rounding + local search in 10 s (bench/hcsp.csv, ``ours10``) stays more than PCT%
above the LP bound, this decides whether any mapping reaches ``U = bound x (1 + PCT/100)``:

- Reduced-cost fixing. The LP's dual machine weights w (w_j >= 0, summing to 1; search.machine_weights) give every
  mapping a makespan of at least ``lower + sum of its pairs' reduced costs`` (search.reduced_costs), where ``lower`` is
  the LP bound (any weights on the simplex give a valid, maybe weaker, ``lower``). So a mapping with makespan <= U uses
  only pairs whose reduced cost is at most ``U - lower``, and their sum is at most ``U - lower`` too.
- On those pairs alone, an exact MIP (HiGHS, scipy.optimize.milp): binaries x_ij, every task once, every machine's
  load <= U, the reduced costs' sum <= U - lower (minimised). "infeasible" proves that no mapping of the instance is
  within PCT% of the bound, so its optimum lies above U (up to HiGHS's feasibility tolerance, 1e-6 on loads of
  10^3-10^7); a solution found is such a mapping; a time limit leaves it undecided.

Prints a table and writes its rows into bench/hcsp_optimum.csv (``--csv`` elsewhere), replacing those of the same
instance and percentage and keeping the others; --readme also rewrites its table in
docs/reproduction.md between the hcsp-optimum markers; --render only renders the CSV (no solver runs). --names runs the
named instances whatever their search result.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np
from scipy import optimize, sparse

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when this file is imported from its path
from hcsp import HCSP, NAMES, write_readme  # noqa: E402
from hcsp import read_csv as read_rows  # noqa: E402

CSV = Path(__file__).with_suffix(".csv")
START, END = "<!-- hcsp-optimum:start -->", "<!-- hcsp-optimum:end -->"
COLUMNS = ("instance", "pct", "bound", "target", "pairs", "pairs_per_task", "status", "makespan", "seconds")


def restricted_mip(p: np.ndarray, rc: np.ndarray, keep: np.ndarray, target: float, slack: float,
                   seconds: float) -> tuple[str, float]:
    """The MIP over the pairs ``keep`` (tasks x machines booleans): ("infeasible", nan), ("found", makespan) or
    ("undecided", nan)."""
    n, m = p.shape
    task, machine = np.nonzero(keep)
    k = task.size
    cols = np.arange(k)
    once = sparse.csr_matrix((np.ones(k), (task, cols)), shape=(n, k))
    load = sparse.csr_matrix((p[task, machine], (machine, cols)), shape=(m, k))
    cost = rc[task, machine]
    res = optimize.milp(cost, integrality=np.ones(k), bounds=optimize.Bounds(0, 1),
                        constraints=[optimize.LinearConstraint(once, 1, 1),
                                     optimize.LinearConstraint(load, -np.inf, target),
                                     optimize.LinearConstraint(cost[None, :], -np.inf, slack)],
                        options={"time_limit": seconds})
    if res.status == 2:
        return "infeasible", float("nan")
    if res.x is None:
        return "undecided", float("nan")
    chosen = res.x > 0.5
    loads = np.bincount(machine[chosen], weights=p[task[chosen], machine[chosen]], minlength=m)
    return "found", float(loads.max())


def decide(name: str, pct: float, seconds: float) -> dict:
    """:func:`within` for instance ``name``."""
    from hcsched.readers import read_etc

    return {"instance": name} | within(read_etc(HCSP / name), pct, seconds)


def within(p: np.ndarray, pct: float, seconds: float) -> dict:
    """:func:`restricted_mip` of tasks x machines times ``p`` (machines free at 0) at ``pct``% above its LP bound,
    with the pairs it keeps."""
    from hcsched.models.etc.bounds import lp_bound
    from hcsched.models.etc.search import lp_fractions, machine_weights, reduced_costs

    ready = np.zeros(p.shape[1])
    start = time.perf_counter()
    bound = lp_bound(p)
    rc, lower = reduced_costs(p, ready, machine_weights(p, lp_fractions(p, ready)))
    lower = min(lower, bound)  # equal but for rounding; a smaller lower keeps the argument valid
    target = bound * (1.0 + pct / 100.0)
    slack = target - lower
    keep = rc <= slack * (1.0 + 1e-9)
    status, makespan = restricted_mip(p, rc, keep, target, slack, seconds)
    return {"pct": pct, "bound": bound, "target": target, "pairs": int(keep.sum()),
            "pairs_per_task": keep.sum() / p.shape[0], "status": status, "makespan": makespan,
            "seconds": time.perf_counter() - start}


def render(rows: list[dict]) -> str:
    """The markdown table of the CSV's rows (values as read from it), beside lp-search's 10 s result in
    bench/hcsp.csv."""
    search = {r["instance"]: r for r in read_rows()}
    lines = ["| instance | LP bound | target (bound + x%) | pairs left (per task) | the MIP on "
             "them | time | LP + search, 10 s |", "|---|---:|---:|---:|---|---:|---:|"]
    for r in rows:
        verdict = {"infeasible": "infeasible: no mapping reaches the target",
                   "found": f"a mapping of {float(r['makespan']):,.1f} "
                            f"({100 * (float(r['makespan']) / float(r['bound']) - 1):.3f}%)" if r["makespan"]
                   else "a mapping",
                   "undecided": "undecided at the time limit"}[r["status"]]
        lines.append(f"| {r['instance']} | {float(r['bound']):,.1f} | {float(r['target']):,.1f} "
                     f"(+{float(r['pct']):g}%) | "
                     f"{int(r['pairs']):,} ({float(r['pairs_per_task']):.1f}) | {verdict} | "
                     f"{float(r['seconds']):.0f} s | "
                     f"{float(search[r['instance']]['ours10']):,.1f} "
                     f"({float(search[r['instance']]['ours10_pct']):.2f}%) |")
    return "\n".join(lines)


def read_csv(path: Path = CSV) -> list[dict]:
    return read_rows(path)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pct", type=float, default=0.5, help="the target's percentage above the LP bound (0.5)")
    ap.add_argument("--seconds", type=float, default=600.0, help="the MIP's time limit per instance (600)")
    ap.add_argument("--names", nargs="+", choices=NAMES, help="these instances, whatever the search reached")
    ap.add_argument("--readme", action="store_true", help="also rewrite the table of docs/reproduction.md")
    ap.add_argument("--render", action="store_true", help="render the CSV, run nothing")
    ap.add_argument("--csv", type=Path, default=CSV, help="where to write the CSV (default bench/hcsp_optimum.csv)")
    args = ap.parse_args()
    if args.pct < 0 or args.seconds <= 0:
        ap.error(f"--pct {args.pct:g} / --seconds {args.seconds:g}: the percentage is at least 0, the time above 0")
    if args.render:
        return show(read_csv(args.csv), args.readme)
    if not HCSP.is_dir():
        print(f"HCSP instances not found at {HCSP} (set HCSCHED_SHARED)")
        return 1
    search = {r["instance"]: r for r in read_rows()}
    names = args.names or [n for n in NAMES if float(search[n]["ours10_pct"]) > args.pct]
    rows = {(r["instance"], float(r["pct"])): r for r in (read_csv(args.csv) if args.csv.exists() else [])}
    for name in names:
        row = decide(name, args.pct, args.seconds)
        print(f"{name}: {row['status']} at +{args.pct:g}% ({row['pairs']} pairs, {row['seconds']:.0f} s)", flush=True)
        rows[name, args.pct] = {k: "" if isinstance(v, float) and np.isnan(v) else v for k, v in row.items()}
    with args.csv.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows[key] for key in sorted(rows))
    return show(read_csv(args.csv), args.readme and args.csv == CSV)


def show(rows: list[dict], page: bool) -> int:
    text = render(rows)
    print(text)
    if page:
        write_readme(text, START, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
