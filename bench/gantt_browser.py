"""The animated Gantt chart's pace in a real browser (issue 8, item 16): frames of a large chart under ~150 ms.

Builds the dashboard's Gantt (``hcsched.charts.gantt``, default window of about 1200 bars in all) for one trial
of a large scenario (7 heuristics x 16 machines by default), writes it as a standalone HTML page with plotly.js
inline, plays it in Debian's headless chromium (Playwright) and prints the time per frame against the 150 ms target
and against the small chart of the browser test (4 heuristics x 200 tasks) measured in the same run.

    python bench/gantt_browser.py
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hcsched import preset, trial_runs  # noqa: E402
from hcsched.charts import gantt, gantt_default_window, heuristic_colors  # noqa: E402
from hcsched.experiment import schedules_of  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TARGET_MS = 150.0


def figure(scenario):
    """The chart as the Results page first draws it (its default window)."""
    schedules = schedules_of(scenario, trial_runs(scenario, 0))
    sized = gantt_default_window(schedules)
    window = None if sized is None else (0.0, sized[1])
    return gantt(schedules, heuristic_colors(scenario.heuristics), window=window)


def pace(page, html: Path) -> tuple[int, float]:
    """Play the chart from its first frame to its last; (frames, ms per frame)."""
    page.goto(html.as_uri())
    page.locator(".updatemenu-button").first.wait_for(timeout=60_000)
    frames = page.evaluate("() => document.querySelector('.js-plotly-plot')._transitionData._frames.length")
    active = "() => document.querySelector('.js-plotly-plot')._fullLayout.sliders[0].active"
    page.locator(".updatemenu-button").first.click()
    start = time.monotonic()
    page.wait_for_function(f"({active})() < {frames - 1}", timeout=10_000, polling=20)
    page.wait_for_function(f"({active})() === {frames - 1}", timeout=120_000, polling=20)
    return frames, (time.monotonic() - start) / frames * 1000


def main() -> None:
    from playwright.sync_api import sync_playwright

    names = ["mct", "met", "olb", "kpb", "min-min", "max-min", "sufferage"]
    large = preset("maheswaran-fig6").replace(machines=16, tasks=2000, heuristics=names, trials=1)
    small = preset("quickstart").replace(trials=1)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        results = {}
        for label, scenario in (("small (browser test)", small), ("large (7 x 16)", large)):
            fig = figure(scenario)
            print(f"{label}: {sum(len(t.x) for t in fig.data)} bars, {len(fig.frames)} frames", flush=True)
            html = Path(tmp) / f"{label.split()[0]}.html"
            fig.write_html(html, include_plotlyjs=True, auto_play=False)
            results[label] = pace(page, html)
        browser.close()
    reference = results["small (browser test)"][1]
    for label, (frames, ms) in results.items():
        print(f"Gantt {label:22s}: {frames:3d} frames, {ms:6.1f} ms per frame   target {TARGET_MS:.0f} ms   "
              f"ratio {ms / TARGET_MS:5.2f}   vs the small chart {ms / reference:5.2f}")


if __name__ == "__main__":
    main()
