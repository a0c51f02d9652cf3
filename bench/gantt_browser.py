"""The animated Gantt chart's pace in a real browser, one row per model.

For each model's default preset (etc quickstart, classes alazzoni-B, estimation page-system-a, timeshared
caniou-mu10, value kim-loose-high-heavy) and the large ETC trial of maheswaran-fig9 (20 machines x 2000 tasks), builds
the Gantt of trial 0 as the Results page first draws it (the best few heuristics by the headline metric of that trial
with the benchmark, the model's rows and the machines shown by default, the default window, the task marked in every
panel), writes it as a standalone HTML page with plotly.js inline, plays it in Debian's headless chromium
(Playwright) and prints: bars, traces, the figure's JSON size, frames, the time per frame when playing (median and
max, from Plotly's ``plotly_animatingframe`` events), the page's main-thread busy time per frame (less sensitive to a
loaded machine than the wall time) and the window shown against the trial's span. Play requests 80 ms a frame at
least, and the whole window in 4 s at least (``hcsched.charts.frame_ms``: a chart of few frames plays slower); the
etc quickstart's pace (about 90 ms a frame, 60 frames in about 5.5 s) is the one to match.

    python bench/gantt_browser.py [--models etc,value] [--also maheswaran-fig9]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hcsched import get_model, preset  # noqa: E402
from hcsched.charts import FRAME_MS, MACHINES, PLAY_SECONDS, gantt, gantt_busiest, gantt_defaults, heuristic_colors  # noqa: E402
from hcsched.experiment import run_trial, schedules_of, trial_seeds  # noqa: E402
from hcsched.stats import best_few  # noqa: E402
from hcsched.verdict import headline_metric  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
PRESETS = {"etc": "quickstart", "classes": "alazzoni-B", "estimation": "page-system-a", "timeshared": "caniou-mu10",
           "value": "kim-loose-high-heavy"}
HEURISTICS = 4  # the Results page's default: the best few and the benchmark (pages/results_view.py GANTT_HEURISTICS)


def page_figure(scenario):
    """The Gantt as the Results page first draws it (the model's rows, machines shown, window and task marked in
    every panel), and its (window, span)."""
    import pandas as pd
    import plotly.io as pio

    from pages.models import ui

    pio.templates.default = "plotly"  # as the library draws it (importing streamlit sets its own)
    model = get_model(scenario.model)
    hook = getattr(ui(scenario.model), "gantt_rows", None)
    rows = hook(scenario) if hook is not None else MACHINES
    table, runs = run_trial(scenario, 0, trial_seeds(scenario.seed, scenario.trials)[0], schedules=True)
    schedules = schedules_of(scenario, runs)
    lead = headline_metric(model)
    summary = pd.DataFrame(table).groupby("heuristic", sort=False)[[lead.name]].mean().reset_index()
    shown = best_few(summary, lead.name, lead.better, scenario.benchmark_label, HEURISTICS)
    chosen = {h: schedules[h] for h in shown}
    overview = max(s.machines for s in chosen.values()) > gantt_busiest(chosen, rows)[1]  # too tall: all, thin
    machines, window, marked = gantt_defaults(chosen, rows, overview)
    fig = gantt(chosen, heuristic_colors(scenario.heuristics), window=window, time_unit=model.time_unit,
                machines=machines, rows=rows, highlight=marked, overview=overview)
    span = max(float(np.max(s.finish[np.isfinite(s.finish)], initial=0.0)) for s in chosen.values())
    return fig, window, span


PLAY = """() => new Promise((done) => {
  const plot = document.querySelector('.js-plotly-plot');
  const stamps = [];
  plot.on('plotly_animatingframe', () => stamps.push(performance.now()));
  plot.on('plotly_animated', () => done(stamps));
  stamps.push(performance.now());
  document.querySelector('.updatemenu-button').dispatchEvent(new MouseEvent('click', {bubbles: true}));
})"""


def busy(cdp) -> float:
    """The page's main-thread busy time so far (s): what a frame costs, less sensitive than wall time to a loaded
    machine."""
    return next(m["value"] for m in cdp.send("Performance.getMetrics")["metrics"] if m["name"] == "TaskDuration")


def pace(page, html: Path) -> tuple[int, list[float], float]:
    """Play the chart from its first frame to its last; (frames, wall ms of each frame, busy ms per frame)."""
    page.goto(html.as_uri())
    page.locator(".updatemenu-button").first.wait_for(timeout=60_000)
    frames = page.evaluate("() => document.querySelector('.js-plotly-plot')._transitionData._frames.length")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    before = busy(cdp)
    stamps = page.evaluate(PLAY)
    spent = busy(cdp) - before
    cdp.detach()
    return frames, list(np.diff(stamps)[1:]), spent / frames * 1000  # the first gap is the click reaching Plotly


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(PRESETS))
    parser.add_argument("--also", default="maheswaran-fig9", help="more presets, by name (comma-separated)")
    args = parser.parse_args()
    figures = {}
    for name in args.models.split(","):
        start = time.monotonic()
        figures[f"{name} {PRESETS[name]}"] = page_figure(preset(PRESETS[name]))
        print(f"built {name} in {time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)
    for name in filter(None, args.also.split(",")):
        scenario = preset(name)
        figures[f"{scenario.model} {name}"] = page_figure(scenario)
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        for i, (label, (fig, window, span)) in enumerate(figures.items()):
            html = Path(tmp) / f"{i}.html"
            fig.write_html(html, include_plotlyjs=True, auto_play=False)
            frames, ms, cpu = pace(page, html)
            bars = sum(len(t.x) for t in fig.data if t.type == "bar")
            shown = span if window is None else window[1] - window[0]
            rows.append((label, bars, len(fig.data), len(fig.to_json()), frames, float(np.median(ms)), max(ms),
                         sum(ms) / 1000, cpu, shown, span))
        browser.close()
    print(f"load average {load} (2 cores); Play asks for {FRAME_MS} ms a frame, {PLAY_SECONDS:g} s a window at least")
    print(f"{'model preset':32s} {'bars':>5s} {'traces':>6s} {'bytes':>9s} {'frames':>6s} {'median':>7s} {'max':>6s} "
          f"{'played':>7s} {'busy':>6s}  window / span")
    for label, bars, traces, size, frames, median, worst, played, cpu, shown, span in rows:
        print(f"{label:32s} {bars:5d} {traces:6d} {size:9d} {frames:6d} {median:5.0f}ms "
              f"{worst:4.0f}ms {played:6.2f}s {cpu:4.0f}ms  "
              f"{shown:.4g} / {span:.4g}")


if __name__ == "__main__":
    main()
