"""Progress and Cancel of a run, for the slowest preset of each model: python bench/cancel.py [--jobs N] [--model M ...]
[--record]

For each model, the preset with the longest estimated run (:func:`hcsched.estimate_seconds`):
- a run of a few trials (about 10 s of work) records every ``progress(done, total)`` call: the time to the first
  call, the longest gap between calls and the longest gap between calls that moved ``done`` forward;
- a run of all its trials is cancelled ``--cancel-after`` seconds after it started, as the dashboard's Cancel button
  does (an event that the progress callback turns into an exception): the time from the request to ``simulate``
  returning, and the worker processes still alive afterwards.
Target: progress and Cancel react within 2 s; the ratios printed are against 2 s (<= 1 meets it).
The machine's load adds to every figure (``os.getloadavg`` is printed). ``--record`` (with 2 jobs and every model, the
table's row) writes the figures into bench/speed.csv (bench/speed.py), the table of docs/performance.md.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys
import threading
import time
from pathlib import Path

from hcsched import preset, preset_names, simulate
from hcsched.experiment import estimate_seconds
from hcsched.models import get_model, model_names, warm_up

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, also when this file is imported from its path
from speed import figure, record, span  # noqa: E402

TARGET_S = 2.0


class Cancelled(Exception):
    """Raised from the progress callback, as the dashboard does."""


def slowest_presets(jobs: int, models: list[str]) -> dict[str, str]:
    best: dict[str, tuple[float, str]] = {}
    for name in preset_names():
        sc = preset(name)
        if sc.model in models:
            seconds = estimate_seconds(sc, jobs=jobs)
            if seconds > best.get(sc.model, (-1.0, ""))[0]:
                best[sc.model] = (seconds, name)
    return {model: name for model, (_, name) in best.items()}


def progress_gaps(name: str, jobs: int, work_s: float = 10.0) -> dict:
    sc = preset(name)
    per_trial = get_model(sc.model).trial_seconds(sc.spec, sc.heuristics)
    trials = max(2, min(sc.trials, math.ceil(work_s * jobs / per_trial))) if per_trial > 0 else sc.trials
    calls: list[tuple[float, float]] = []
    begin = time.monotonic()
    simulate(sc, trials=trials, jobs=jobs, progress=lambda done, total: calls.append((time.monotonic(), done)))
    end = time.monotonic()
    times = [begin] + [t for t, _ in calls]
    moves = [begin] + [t for i, (t, done) in enumerate(calls) if i == 0 or done > calls[i - 1][1]]
    return {"trials": trials, "wall": end - begin, "calls": len(calls), "first": calls[0][0] - begin if calls
            else math.nan,
            "gap": max(b - a for a, b in zip(times, times[1:], strict=False)),
            "advance_gap": max(b - a for a, b in zip(moves, moves[1:], strict=False)),
            "monotone": [d for _, d in calls] == sorted(d for _, d in calls) and calls[-1][1] == trials}


def cancel_latency(name: str, jobs: int, after: float) -> dict:
    sc = preset(name)
    request = threading.Event()
    asked: list[float] = []

    def progress(done, total) -> None:
        if request.is_set():
            raise Cancelled

    def ask() -> None:
        asked.append(time.monotonic())
        request.set()

    timer = threading.Timer(after, ask)
    begin = time.monotonic()
    timer.start()
    try:
        simulate(sc, jobs=jobs, progress=progress)
        outcome = "finished before the request"
    except Cancelled:
        outcome = "cancelled"
    end = time.monotonic()
    timer.cancel()
    latency = end - asked[0] if asked else math.nan
    return {"outcome": outcome, "latency": latency, "wall": end - begin,
            "alive": len(multiprocessing.active_children())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cancel-after", type=float, default=4.0)
    parser.add_argument("--model", action="append", choices=model_names())
    parser.add_argument("--record", action="store_true", help="write the figures into bench/speed.csv")
    args = parser.parse_args()
    if args.record and (args.jobs != 2 or args.model):
        parser.error("--record measures the table's row: 2 jobs, every model")
    warm_up()
    print(f"jobs {args.jobs}, cancel requested {args.cancel_after:g} s after the start, load {os.getloadavg()[0]:.1f}, "
          f"target {TARGET_S:g} s")
    header = (f"{'model':<11} {'preset':<22} {'trials':>6} {'first':>6} {'gap':>6} {'ratio':>6} {'advance':>8} "
              f"{'ratio':>6} {'cancel':>7} {'ratio':>6} {'alive':>5}  outcome")
    print(header)
    cancels, gaps = [], []
    for model, name in slowest_presets(args.jobs, args.model or model_names()).items():
        g = progress_gaps(name, args.jobs)
        c = cancel_latency(name, args.jobs, args.cancel_after)
        print(f"{model:<11} {name:<22} {g['trials']:>6} {g['first']:>6.2f} {g['gap']:>6.2f} "
              f"{g['gap'] / TARGET_S:>6.2f} "
              f"{g['advance_gap']:>8.2f} {g['advance_gap'] / TARGET_S:>6.2f} {c['latency']:>7.2f} "
              f"{c['latency'] / TARGET_S:>6.2f} {c['alive']:>5}  {c['outcome']}; {g['calls']} progress calls in "
              f"{g['wall']:.1f} s{'' if g['monotone'] else ', NOT MONOTONE OR NOT ENDING AT THE TOTAL'}", flush=True)
        cancels += [c["latency"]] if c["outcome"] == "cancelled" else []
        gaps.append(g["gap"])
    print("first: s to the first progress call; gap: longest s between progress calls; advance: longest s between "
          "calls that moved done forward; cancel: s from the request to simulate returning; alive: worker processes "
          "left after the cancel; ratio: against the target.")
    if args.record:
        record("cancel", time=f"{span(cancels)} s; progress at least every {figure(max(gaps))} s",
               ratio=span([c / TARGET_S for c in cancels]))


if __name__ == "__main__":
    main()
