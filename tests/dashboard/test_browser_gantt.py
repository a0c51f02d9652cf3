"""The results' Gantt chart in a real browser window of 1440 x 900 px: the whole chart, its Play button and its
time slider fit between the page's header and the window's bottom; it opens on its last frame, the window's bars and
the marked task's label drawn, and at the slider's first step the label is gone (its bar has not started).

Drives Debian's chromium with Playwright, as tests/dashboard/test_browser.py does (skipped when either is missing,
unless HCSCHED_REQUIRE_BROWSER=1)."""

from __future__ import annotations

import re
import tempfile
import time

import pytest
from helpers import ARGS, CHROMIUM, require_browser
from live import ScriptRuns, streamlit_server

WINDOW = {"width": 1440, "height": 900}
GANTT = "[data-testid='stPlotlyChart']:has(.updatemenu-button)"
LABELS = """(chart) => [...chart.querySelectorAll('.barlayer text')].map(t => t.textContent).filter(t => t)"""
ACTIVE = """(chart) => chart.querySelector('.js-plotly-plot')._fullLayout.sliders[0].active"""


@pytest.fixture(scope="module")
def served():
    """One server for the module; its log must hold no traceback."""
    require_browser()
    with tempfile.TemporaryFile("w+") as log:
        with streamlit_server(log) as (url, _):
            yield url
        log.seek(0)
        out = log.read()
    assert "Traceback" not in out, out[-4000:]


def _run_ended(page, runs: ScriptRuns, timeout: float = 300) -> None:
    """Wait until the run's whole results are drawn: none marked "so far" (results drawn as trials end are drawn
    again at the end), no script run going on, twice half a second apart."""
    end, calm = time.monotonic() + timeout, 0
    while calm < 2 and time.monotonic() < end:
        page.wait_for_timeout(500)
        quiet = not runs.running and page.get_by_text(re.compile(r"\bso far\b")).count() == 0
        calm = calm + 1 if quiet else 0
    assert calm == 2, "the run did not end"


def _inside(box: dict, top: float, bottom: float) -> bool:
    return box["y"] >= top - 0.5 and box["y"] + box["height"] <= bottom + 0.5


def test_the_gantt_and_its_controls_fit_a_900px_window_and_open_with_their_bars_drawn(served):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport=WINDOW)
        runs = ScriptRuns(page)
        page.goto(f"{served}/?preset=quickstart&trials=3&run=1")  # Home shows the results with their Gantt
        chart = page.locator(GANTT)
        chart.locator(".updatemenu-button").first.wait_for(timeout=300_000)
        _run_ended(page, runs)
        chart.evaluate("(c) => c.scrollIntoView({block: 'end'})")  # its bottom at the window's bottom
        page.wait_for_timeout(300)
        header = page.locator("[data-testid='stHeader']").bounding_box()
        top = header["y"] + header["height"] if header else 0.0
        box = chart.bounding_box()
        assert box["height"] <= WINDOW["height"] - top and _inside(box, top, WINDOW["height"]), (box, top)
        play = chart.get_by_text("Play", exact=True)
        for control in (play, chart.locator(".slider-container")):
            assert _inside(control.bounding_box(), top, WINDOW["height"])
        centre = play.bounding_box()
        hit = page.evaluate(f"() => document.elementFromPoint({centre['x'] + centre['width'] / 2}, "
                            f"{centre['y'] + centre['height'] / 2}).closest('.updatemenu-button') !== null")
        assert hit  # not under the header

        caption = page.get_by_text(re.compile(r"^Press Play")).first.text_content()
        task = re.search(r"Task (\d+), hatched and labelled", caption)
        assert chart.evaluate(ACTIVE) > 0  # the last frame: the window's bars drawn
        labels = chart.evaluate(LABELS)
        rail = chart.locator(".slider-rail-rect").bounding_box()
        page.mouse.click(rail["x"] + 1, rail["y"] + rail["height"] / 2)  # the slider's first step
        page.wait_for_function(f"() => ({ACTIVE})(document.querySelector(\"{GANTT}\")) === 0", timeout=10_000)
        page.wait_for_timeout(500)
        first = chart.evaluate(LABELS)
        browser.close()
    assert task and labels and set(labels) == {f"task {task[1]}"} and first == []


PICKER = "Heuristics in the Gantt chart"


@pytest.mark.parametrize("query", ["preset=quickstart&trials=3", "preset=kim-loose-high-heavy&trials=2",
                                   "preset=caniou-mu10&trials=2"])
def test_the_gantt_with_every_control_above_it_fits_a_900px_window_under_the_header(served, query):
    """From the heuristics picker (the first Gantt control) to the chart's bottom was 956 px on the ETC quickstart and
    1,079 px on the value model's default, more than the window under its header: now within it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport=WINDOW)
        runs = ScriptRuns(page)
        page.goto(f"{served}/?{query}&run=1")
        chart = page.locator(GANTT)
        chart.locator(".updatemenu-button").first.wait_for(timeout=300_000)
        _run_ended(page, runs)
        header = page.locator("[data-testid='stHeader']").bounding_box()
        top = header["y"] + header["height"] if header else 0.0
        picker = page.get_by_text(PICKER, exact=True).first.bounding_box()
        box = chart.bounding_box()
        browser.close()
    assert box["y"] + box["height"] - picker["y"] <= WINDOW["height"] - top, (picker, box, top)
