"""How each model's cost grows with the system: python bench/scaling.py [--model NAME] [--sizes 1,4,16]

For each model, one trial at 1x, 4x and 16x (``--sizes``) of the axes a user of its paper would scale, in one
process with warm kernels (a warm-up run on another workload first, not timed). Per heuristic and size it prints the
seconds of ``Model.run`` (CPU time of this process, which other processes on a loaded machine barely disturb; the
wall seconds beside it; the workload is drawn before, counted only in a trial's total; a run under 0.1 s is repeated
and the fastest taken), seconds per task and per unit of decision work, and per heuristic the growth exponent (the
least-squares slope of log time on log factor; 1 = linear in the factor) and the per-unit time at the largest size
over that at the smallest (and, for information, its largest over its smallest value across the sizes). ``--out``
writes the rows as a CSV. ``--sizes 1,4`` is the quick form.

A unit of decision work is what the heuristic's definition must compare at its decisions, counted from each run
(what a model exposes, or the schedule and the scenario); each is documented beside its function below:

- ETC immediate (Maheswaran et al. 1999, section 3.2): MCT and KPB look at every machine for each arriving task:
  tasks x machines.
- ETC batch (section 3.3): each iteration of Fig. 1's do-loop (Min-min) and each pass of Fig. 2's for-statement
  (Sufferage) compares every unmapped task of the meta-task with every machine: the sum over the iterations or
  passes that ran of unmapped tasks x machines (the engine runs them lazily, only as far as machines need tasks,
  and updates only what changed, so it does less than this; the model counts it).
- classes (Al-Azzoni and Down): the machines a mapping consulted (N_s of section IV, counted by the kernel).
- estimation (Page, Keane and Naughton): FA estimates each waiting (released, unstarted) task on each processor at each
  mapping event: sum over events of waiting tasks x processors; RR deals each task to the next processor without
  estimates, and the rest is the k-NN estimator's, run for RR as for every heuristic: at each return, each waiting
  task of the returned task's problem on the returning processor; at each release, each released task on every
  processor with observations of its problem.
- value (Kim et al. 2007, section 4): a rebuilding heuristic (Max-Max, Slack Sufferage) compares every waiting
  task with every machine at each arrival: sum over arrivals of waiting tasks x machines (the model's own count
  of waiting tasks). Queueing Table ranks every waiting task and scans every machine's queue for the new task's
  place (section 4.5, steps 1-4): sum over arrivals of waiting tasks + machines (steps 5-8, each late task against
  every other machine, are not counted: the run does not say how many were late).
- time-shared (Caniou and Jeannot): MCT, HMCT and MP predict each server's finish date(s) with the new task:
  tasks x servers (one server prediction each).

The speed targets are printed as ratios (measured / target; at most 1 meets it): estimation's 4x trial (FA and
RR) 1.5 s and growth exponent 2; the value model's 16x trial 10 s; the time-shared model's 16x trial 2 s; the
per-unit time at the largest size at most 2x that at the smallest, for every heuristic (the rule: what a heuristic does
beyond its definition must not grow with the run; a per-unit time that falls, where the code evaluates fewer pairs
than the definition counts or fixed costs weigh on the small size, meets it). A trial is the workload plus every
heuristic of the row. A heuristic whose run at the next size is predicted (from its growth so far, see
``predicted``) to exceed ``--limit`` CPU seconds (default 120) is skipped and says so; raise it to measure
everything.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hcsched import preset
from hcsched.models import MODELS

SEED = 1  # the timed trials; the warm-up draws the workload of seed 0


# --- units of decision work ----------------------------------------------------------------------------------------
def _unstarted_at(times: np.ndarray, arrival: np.ndarray, start: np.ndarray) -> np.ndarray:
    """How many tasks had arrived (at or before) and not started (strictly before) at each of ``times``."""
    arrived = np.searchsorted(np.sort(arrival), times, side="right")
    started = np.searchsorted(np.sort(start[np.isfinite(start)]), times, side="left")
    return arrived - started


def etc_units(spec, h, w, run) -> float:
    """The model's own count (``EtcRun.decision_work``): tasks x machines in immediate mode (MCT and KPB look at
    every machine for each arriving task, section 3.2); in batch mode, for each iteration of Fig. 1 (Min-min) or
    pass of Fig. 2 (Sufferage) that ran, the unmapped tasks x machines (section 3.3)."""
    return float(run.decision_work)


def classes_units(spec, h, w, run) -> float:
    """The machines a mapping consulted (N_s, section IV), counted by the kernel; at least one per task."""
    return float(max(run.consulted, run.schedule.arrival.size))


def _knn_work(spec, run) -> float:
    """The k-NN estimator's work (Page, Keane and Naughton, section 2; ``EstimatorState``), whatever the heuristic: at
    each return, the estimate of every released, unstarted task of the returned task's problem on the returning
    processor; at each release, the estimates of the released tasks on every processor holding observations of their
    problem. Without k-NN, one update per return."""
    s, released, problem = run.schedule, run.released, run.problem
    if "knn" not in (spec.estimator.method, spec.estimator.error):
        return float(np.isfinite(s.finish).sum())
    work = 0
    for p in np.unique(problem):
        mine = problem == p
        rel, start, finish, proc = released[mine], s.start[mine], s.finish[mine], s.machine[mine]
        done = np.isfinite(finish)
        # returns come before releases at the same moment: a task released then is not yet waiting at the return
        unstarted = (np.searchsorted(np.sort(rel[np.isfinite(rel)]), finish[done], side="left")
                     - np.searchsorted(np.sort(start[np.isfinite(start)]), finish[done], side="left"))
        work += int(unstarted.sum())
        first = np.array([finish[done & (proc == j)].min() for j in np.unique(proc[done])])  # first return on j
        times, sizes = np.unique(rel[np.isfinite(rel)], return_counts=True)
        work += int((sizes * np.searchsorted(np.sort(first), times, side="right")).sum())
    return float(work)


def estimation_units(spec, h, w, run) -> float:
    """FA and the other estimate-based rules: sum over mapping events (every release and return) of the released,
    unstarted tasks x processors. RR: one processor in turn per task dealt, plus the estimator's work
    (:func:`_knn_work`), which RR's runs do as every heuristic's do."""
    s = run.schedule
    if h.name == "rr":
        return float(s.arrival.size) + _knn_work(spec, run)
    released = run.released
    times = np.unique(np.concatenate([released[np.isfinite(released)], s.finish[np.isfinite(s.finish)]]))
    return float(_unstarted_at(times, released, s.start).sum() * spec.processors.count)


def value_units(spec, h, w, run) -> float:
    """Sum over arrivals of the work of one mapping event (the waiting count W is the model's own, the new task
    included; M machines). A rebuilding rule compares every waiting task with every machine (section 4.1): W x M.
    Queueing Table (section 4.5) ranks every waiting task and scans each machine's queue for the new task's
    position (steps (1)-(4)), at least one look per machine even when its queue is empty: W + M; steps (5)-(8) then
    check each late task against every other machine, a count the run does not give (not counted)."""
    if h.name == "queueing-table":
        return float((run.mean_waiting + spec.machines) * w.tasks)
    return float(run.mean_waiting * w.tasks * spec.machines)


def timeshared_units(spec, h, w, run) -> float:
    """Tasks x servers: one prediction of each server's finish date(s) with the new task per arrival."""
    return float(spec.tasks * spec.servers)


# --- axes ------------------------------------------------------------------------------------------------------------
def _estimation(f: int, stages: bool = True, processors: bool = True) -> dict:
    spec = preset("page-system-a").spec
    problems = tuple(dataclasses.replace(p, stages=tuple(s * f for s in p.stages)) for p in spec.problems)
    out = {}
    if processors:
        out["processors"] = dataclasses.replace(spec.processors, count=spec.processors.count * f)
    if stages:
        out["problems"] = problems
    return out


def _value(f: int, rates: bool = True) -> dict:
    """Machines x f; with ``rates``, every arrival rate x f too (the same oversubscription)."""
    s = preset("kim-loose-low-heavy").spec
    out = {"machines": s.machines * f}
    if rates:
        out.update(startup_gap=s.startup_gap / f, gap=s.gap / f, burst_gap=s.burst_gap / f)
    return out


def _timeshared(f: int, servers: bool = True) -> dict:
    """Tasks x f; with ``servers``, servers and arrival rate x f too (the same load per server)."""
    s = preset("caniou-mu30").spec
    out = {"tasks": s.tasks * f}
    if servers:
        out.update(servers=s.servers * f, mean_interarrival=s.mean_interarrival / f)
    return out


def _etc(name: str, f: int, all_axes: bool) -> dict:
    s = preset(name).spec
    if not all_axes:
        return {"tasks": s.tasks * f}
    return {"tasks": s.tasks * f, "machines": s.machines * f,
            "arrivals": dataclasses.replace(s.arrivals, rate=s.arrivals.rate * f)}


def _classes(f: int) -> dict:
    c = preset("alazzoni-B").spec.classes
    return {"classes": dataclasses.replace(c, horizon=c.horizon * f)}


@dataclass(frozen=True)
class Row:
    """One line of the scaling table: a preset, its heuristics, what grows, and the unit of decision work."""

    model: str
    preset: str
    heuristics: tuple[str, ...]
    axes: str
    changes: Callable[[int], dict]
    units: Callable
    unit: str  # the unit, in a few words


ROWS = (
    Row("estimation", "page-system-a", ("fa", "rr"), "processors and stages x f", _estimation, estimation_units,
        "FA: estimate; RR: task dealt or k-NN estimate"),
    Row("estimation", "page-system-a", ("fa", "rr"), "stages x f (90 processors)",
        lambda f: _estimation(f, processors=False), estimation_units, "FA: estimate; RR: task dealt or k-NN estimate"),
    Row("estimation", "page-system-a", ("fa", "rr"), "processors x f (same stages)",
        lambda f: _estimation(f, stages=False), estimation_units, "FA: estimate; RR: task dealt or k-NN estimate"),
    Row("value", "kim-loose-low-heavy", ("max-max", "slack-sufferage", "queueing-table"), "machines and rates x f",
        _value, value_units, "waiting task x machine (QT: waiting task or machine)"),
    Row("value", "kim-loose-low-heavy", ("max-max", "slack-sufferage", "queueing-table"),
        "machines x f (same arrivals)",
        lambda f: _value(f, rates=False), value_units, "waiting task x machine (QT: waiting task or machine)"),
    Row("timeshared", "caniou-mu30", ("netsolve-mct", "hmct", "mp"), "servers, tasks and rate x f", _timeshared,
        timeshared_units, "server prediction"),
    Row("timeshared", "caniou-mu30", ("netsolve-mct", "hmct", "mp"), "tasks x f (same rate, 25 servers)",
        lambda f: _timeshared(f, servers=False), timeshared_units, "server prediction"),
    Row("etc", "maheswaran-fig6", ("min-min", "sufferage"), "tasks x f (20 machines, same rate)",
        lambda f: _etc("maheswaran-fig6", f, False), etc_units, "unmapped task x machine, per iteration"),
    Row("etc", "maheswaran-fig6", ("min-min", "sufferage"), "machines, tasks and rate x f",
        lambda f: _etc("maheswaran-fig6", f, True), etc_units, "unmapped task x machine, per iteration"),
    Row("etc", "maheswaran-fig4", ("mct", "kpb"), "tasks x f", lambda f: _etc("maheswaran-fig4", f, False),
        etc_units, "task-machine pair"),
    Row("etc", "maheswaran-fig4", ("mct", "kpb"), "machines, tasks and rate x f",
        lambda f: _etc("maheswaran-fig4", f, True), etc_units, "task-machine pair"),
    Row("classes", "alazzoni-B", ("mct", "lpas"), "horizon x f", _classes, classes_units, "machine consulted"),
)

# The speed targets: (model, axes of the row, factor, seconds of a trial); growth exponents; per-unit spread.
TRIAL_TARGETS = (("estimation", "processors and stages x f", 4, 1.5), ("value", "machines and rates x f", 16, 10.0),
                 ("timeshared", "servers, tasks and rate x f", 16, 2.0))
EXPONENT_TARGETS = {("estimation", "processors and stages x f"): 2.0}
SPREAD_TARGET = 2.0


# --- measuring -----------------------------------------------------------------------------------------------------
def scenario(row: Row, f: int):
    return preset(row.preset).replace(heuristics=list(row.heuristics), trials=1, **row.changes(f))


def tasks_of(run) -> int:
    return int((run.schedule if hasattr(run, "schedule") else run).arrival.size)


def timed(model, spec, h, w, short: float = 0.1, repeats: int = 5):
    """(run, CPU seconds, wall seconds) of one heuristic; a run shorter than ``short`` seconds is repeated, the
    fastest taken (a workload's memo of runs, where a model keeps one, loses the runs the repeat would find there)."""
    memo = getattr(w, "memo", {})
    before = set(memo)
    best, wall = math.inf, math.inf
    for _ in range(repeats):
        for key in set(memo) - before:
            del memo[key]
        t, c = time.perf_counter(), time.process_time()
        run = model.run(spec, h, w)
        c, t = time.process_time() - c, time.perf_counter() - t
        if c < best:
            best, wall = c, t
        if best >= short:
            break
    return run, best, wall


def predicted(done: list[dict], heuristic: str, f: int) -> float:
    """A heuristic's seconds at factor f, extrapolated from its last two sizes with one more order of growth than
    measured between them (costs can steepen: the estimation model's FA went from 2.5 to 3.2), at least quadratic;
    cubic from one size."""
    mine = [(r["factor"], r["seconds"]) for r in done if r["heuristic"] == heuristic]
    if not mine:
        return 0.0
    if not np.isfinite(mine[-1][1]):
        return math.inf  # skipped at a smaller size
    (f1, t1), slope = mine[-1], 3.0
    if len(mine) > 1:
        f0, t0 = mine[-2]
        slope = max(2.0, 1.0 + math.log(max(t1, 1e-9) / max(t0, 1e-9)) / math.log(f1 / f0))
    return t1 * (f / f1) ** slope


def measure(row: Row, f: int, seed: int = SEED, done: tuple = (), limit: float = math.inf) -> list[dict]:
    """One trial of the row at factor f: the workload, then each heuristic, each timed; a heuristic whose time
    extrapolated from the smaller sizes ``done`` exceeds ``limit`` seconds is skipped."""
    sc = scenario(row, f)
    model = MODELS[sc.model]
    t = time.process_time()
    w = model.workload(sc.spec, np.random.SeedSequence(seed))
    draw = time.process_time() - t
    out = []
    for h in sc.heuristics:
        guess = predicted(list(done), h.label, f)
        if guess > limit:
            out.append({"model": row.model, "preset": row.preset, "axes": row.axes, "factor": f, "heuristic": h.label,
                        "workload_s": draw, "seconds": math.nan, "wall_s": math.nan, "tasks": 0, "units": math.nan,
                        "s_per_task": math.nan, "s_per_unit": math.nan,
                        "unit": f"skipped: about {guess:.0f} s predicted, over --limit"})
            continue
        run, seconds, wall = timed(model, sc.spec, h, w)
        units = row.units(sc.spec, h, w, run)
        out.append({"model": row.model, "preset": row.preset, "axes": row.axes, "factor": f, "heuristic": h.label,
                    "workload_s": draw, "seconds": seconds, "wall_s": wall, "tasks": tasks_of(run), "units": units,
                    "s_per_task": seconds / max(1, tasks_of(run)), "s_per_unit": seconds / units if units else math.nan,
                    "unit": row.unit})
    return out


def exponent(factors: list[int], seconds: list[float]) -> float:
    """The least-squares slope of log seconds on log factor."""
    if len(factors) < 2:
        return math.nan
    return float(np.polyfit(np.log(factors), np.log(np.maximum(seconds, 1e-9)), 1)[0])


def report(row: Row, rows: list[dict]) -> list[str]:
    """Print the row's table; return its target lines."""
    print(f"\n{row.model}: {row.preset}, {row.axes}  (unit: {row.unit})")
    print(f"  {'heuristic':<16} {'f':>3} {'tasks':>7} {'cpu s':>9} {'wall s':>9} "
          f"{'s/task':>10} {'units':>12} {'s/unit':>10}")
    for r in rows:
        if not np.isfinite(r["seconds"]):
            print(f"  {r['heuristic']:<16} {r['factor']:>3} {r['unit']}")
            continue
        print(f"  {r['heuristic']:<16} {r['factor']:>3} {r['tasks']:>7} {r['seconds']:>9.3f} {r['wall_s']:>9.3f} "
              f"{r['s_per_task']:>10.2e} "
              f"{r['units']:>12.4g} {r['s_per_unit']:>10.2e}")
    targets = []
    for h in row.heuristics:
        mine = [r for r in rows if r["heuristic"] == h and np.isfinite(r["seconds"])]
        slope = exponent([r["factor"] for r in mine], [r["seconds"] for r in mine])
        per = [r["s_per_unit"] for r in mine if np.isfinite(r["s_per_unit"])]
        spread = max(per) / min(per) if len(per) > 1 else math.nan
        growth = per[-1] / per[0] if len(per) > 1 else math.nan
        print(f"  {h:<16} growth exponent {slope:5.2f}   per unit: largest / smallest size {growth:5.2f}, "
              f"max / min {spread:5.2f}")
        targets.append(f"{row.model:<10} {row.axes:<36} {h:<16} per unit, largest / smallest size {growth:5.2f} / "
                       f"{SPREAD_TARGET:g} = {growth / SPREAD_TARGET:5.2f}")
        goal = EXPONENT_TARGETS.get((row.model, row.axes))
        if goal:
            targets.append(f"{row.model:<10} {row.axes:<36} {h:<16} exponent {slope:5.2f} / "
                           f"{goal:g} = {slope / goal:5.2f}")
    for model, axes, f, goal in TRIAL_TARGETS:
        at = [r for r in rows if r["factor"] == f]
        if model != row.model or axes != row.axes or not at:
            continue
        if not all(np.isfinite(r["seconds"]) for r in at):
            targets.append(f"{row.model:<10} {row.axes:<36} {f}x trial not measured (a heuristic was skipped)")
        else:
            trial = at[0]["workload_s"] + sum(r["seconds"] for r in at)
            targets.append(f"{row.model:<10} {row.axes:<36} {f}x trial {trial:6.2f} s / "
                           f"{goal:g} s = {trial / goal:5.2f}")
    return targets


def warm(row: Row) -> None:
    """Compile or load the kernels, and run the row once at 1x on another workload (not timed)."""
    MODELS[row.model].warm_up()
    measure(row, 1, seed=0)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=sorted({r.model for r in ROWS}), help="only this model's rows")
    ap.add_argument("--sizes", default="1,4,16", help="factors, comma-separated (default 1,4,16; 1,4 is quick)")
    ap.add_argument("--limit", type=float, default=120.0,
                    help="skip a heuristic at a size whose run is predicted to take longer (CPU seconds; default 120)")
    ap.add_argument("--out", help="write every row to this CSV")
    ap.add_argument("--from", dest="source", metavar="CSV", help="read the rows of an "
                                                                 "earlier --out instead of measuring")
    ap.add_argument("--markdown", action="store_true", help="print the table of docs/performance.md (seconds per "
                                                            "size, exponent, spread)")
    ap.add_argument("--plot", metavar="PNG", help="draw seconds against the factor, log-log, one panel per model "
                    "(rendered in Debian's chromium with Playwright, as the browser tests do)")
    args = ap.parse_args(argv)
    if args.source:
        with open(args.source, newline="") as fh:
            everything = [{k: _number(v) for k, v in r.items()} for r in csv.DictReader(fh)]
        finish(everything, args)
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    sys.stdout.reconfigure(line_buffering=True)  # each row as it is measured, also into a file
    load = os.getloadavg()
    print(f"bench/scaling.py: sizes {sizes}, one process, {os.cpu_count()} cores, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    everything, targets = [], []
    for row in ROWS:
        if args.model not in (None, row.model):
            continue
        warm(row)
        rows: list[dict] = []
        for f in sizes:
            rows += measure(row, f, done=rows, limit=args.limit)
        targets += report(row, rows)
        everything += rows
    print("\nTargets (measured / target; at most 1 meets it):")
    for line in targets:
        print("  " + line)
    if args.out:
        with open(args.out, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(everything[0]))
            writer.writeheader()
            writer.writerows(everything)
        print(f"wrote {args.out}")
    finish(everything, args)


def _number(text: str):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def _series(everything: list[dict]) -> dict[tuple[str, str, str], list[dict]]:
    out: dict[tuple[str, str, str], list[dict]] = {}
    for r in everything:
        out.setdefault((r["model"], r["axes"], r["heuristic"]), []).append(r)
    return out


def markdown(everything: list[dict]) -> str:
    """One line per (model, axes, heuristic): CPU seconds at each factor, growth exponent, per-unit spread."""
    factors = sorted({r["factor"] for r in everything})
    head = ("| model | what grows | heuristic | " + " | ".join(f"{f}x" for f in factors)
            + " | growth exponent | per unit, largest / smallest size |")
    lines = [head, "|" + "---|" * (5 + len(factors))]
    for (model, axes, h), rows in _series(everything).items():
        ok = [r for r in rows if np.isfinite(r["seconds"])]
        by = {r["factor"]: r["seconds"] for r in rows}
        cells = [f"{by[f]:.3g} s" if f in by and np.isfinite(by[f]) else "skipped" for f in factors]
        per = [r["s_per_unit"] for r in ok if np.isfinite(r["s_per_unit"])]
        slope = exponent([r["factor"] for r in ok], [r["seconds"] for r in ok])
        spread = f"{per[-1] / per[0]:.2f}" if len(per) > 1 else "-"  # under 1: fixed costs weigh on the small size
        lines.append(f"| {model} | {axes} | {h} | " + " | ".join(cells) + f" | {slope:.2f} | {spread} |")
    return "\n".join(lines)


def plot(everything: list[dict], path: str) -> None:
    """Seconds against the factor, log-log, a panel per model, a line per (axes, heuristic); a PNG via chromium."""
    import plotly.graph_objects as go
    from playwright.sync_api import sync_playwright
    from plotly.subplots import make_subplots

    models = list(dict.fromkeys(r["model"] for r in everything))
    fig = make_subplots(rows=1, cols=len(models), subplot_titles=models, horizontal_spacing=0.05)
    for (model, axes, h), rows in _series(everything).items():
        ok = [r for r in rows if np.isfinite(r["seconds"])]
        fig.add_trace(go.Scatter(x=[r["factor"] for r in ok], y=[r["seconds"] for r in ok], mode="lines+markers",
                                 name=f"{model}: {h} ({axes})", legendgroup=model),
                      row=1, col=models.index(model) + 1)
    fig.update_xaxes(type="log", title_text="factor", tickvals=sorted({r["factor"] for r in everything}))
    fig.update_yaxes(type="log", title_text="CPU seconds, one trial", col=1)
    fig.update_yaxes(type="log")
    fig.update_layout(width=1500, height=620, legend=dict(orientation="h", y=-0.2), margin=dict(t=40, l=60, r=20),
                      title_text=None, template="plotly_white")
    html = fig.to_html(include_plotlyjs=True, full_html=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        page = browser.new_page(viewport={"width": 1500, "height": 620})
        page.set_content(html, wait_until="load")
        page.wait_for_selector(".main-svg")
        page.screenshot(path=path, full_page=True)
        browser.close()
    print(f"wrote {path}")


def finish(everything: list[dict], args) -> None:
    if args.markdown:
        print(markdown(everything))
    if args.plot:
        plot(everything, args.plot)


if __name__ == "__main__":
    main()
