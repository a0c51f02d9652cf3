"""How long the Results page takes to redraw after a widget change (target under 1 s).

For the presets named (by default the largest trial of each model), the page is opened under Streamlit's AppTest with a
finished run in the session, then a widget is changed three times (the per-trial distribution's metric, or the Gantt
chart's heuristics where a model has one bar metric: a rerun like any other). The task-class page used to rebuild a
780,000-row, 78 MB Gantt CSV on every rerun (3.1 s in ``to_csv``, 4.5 s a rerun); the Gantt tables are now built only
when their download is clicked.

    python bench/results_rerun.py [PRESET ...] [--trials N] [--record]

``--record`` (default presets and trials: the table's row) writes each preset's slowest rerun into bench/speed.csv
(bench/speed.py), the table of docs/performance.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))  # bench/speed.py, also when this file is imported from its path

from speed import record, span  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset, simulate  # noqa: E402

TARGET = 1.0  # seconds a rerun may take
DEFAULT = ("alazzoni-B", "quickstart", "kim-loose-low-heavy", "caniou-mu10", "page-system-a")
TRIALS = 10


def measure(name: str, trials: int) -> tuple[float, list[float]]:
    """The first draw of the Results page and three reruns after a widget change, in seconds."""
    from pages.runs import RunResult

    sc = preset(name)
    sc = sc.replace(trials=min(sc.trials, trials))
    results = simulate(sc)
    at = AppTest.from_file(str(ROOT / "pages/results.py"), default_timeout=600)
    at.session_state["scenario"] = sc
    at.session_state["results"] = RunResult(sc, results, 0.0)
    begin = time.perf_counter()
    at.run()
    first = time.perf_counter() - begin
    if at.exception:
        raise SystemExit(f"{name}: the page failed: {at.exception}")
    reruns = []
    metric = at.selectbox(key="results_dist_metric")
    for i in range(3):
        begin = time.perf_counter()
        if len(metric.options) > 1:  # another metric's per-trial distribution
            metric.select_index((i + 1) % len(metric.options)).run()
        else:  # a model with one bar metric: another heuristic in the Gantt chart and back
            shown = at.multiselect(key="results_gantt_heuristics")
            (shown.unselect(shown.value[-1]) if i % 2 == 0 else shown.select(shown.options[-1])).run()
        reruns.append(time.perf_counter() - begin)
        metric = at.selectbox(key="results_dist_metric")
    return first, reruns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", default=list(DEFAULT))
    parser.add_argument("--trials", type=int, default=TRIALS)
    parser.add_argument("--record", action="store_true", help="write the slowest reruns into bench/speed.csv")
    args = parser.parse_args()
    if args.record and (tuple(args.presets) != DEFAULT or args.trials != TRIALS):
        parser.error(f"--record measures the table's row: the default presets, {TRIALS} trials")
    print(f"{'preset':<22} {'first draw':>10} {'slowest rerun':>14} {'ratio to 1 s':>12}")
    slowest = {}
    for name in args.presets:
        first, reruns = measure(name, args.trials)
        slowest[name] = max(reruns)
        print(f"{name:<22} {first:>9.2f}s {max(reruns):>13.2f}s {max(reruns) / TARGET:>12.2f}", flush=True)
    if args.record:
        worst = max(slowest, key=slowest.get)
        record("results-rerun", time=f"{span(list(slowest.values()))} s (slowest: {worst} {slowest[worst]:.2f} s)",
               ratio=span([s / TARGET for s in slowest.values()]))


if __name__ == "__main__":
    main()
