"""A plug-in heuristic installed on the server, in a real browser: ``streamlit run app.py`` with a package offering it
by entry point on its PYTHONPATH (so the server and its worker processes each find it by themselves, as after ``pip
install``); the heuristic is chosen in the Heuristics page's picker (marked as a plug-in), added and run, and its
verdict line, Gantt chart and per-trial CSV are there like any built-in's. Then a link naming a heuristic the server
does not have is one line naming it and the plug-ins installed.

The package is built as tests/dashboard/test_plugins_app.py builds it (:func:`install`: the documentation's example
``docs/plugins/etc_rules.py`` once the ETC model takes plug-ins, else a copy of MCT). Drives Debian's chromium with
Playwright as tests/dashboard/test_browser.py does (skipped when either is missing, unless HCSCHED_REQUIRE_BROWSER=1).
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from urllib.parse import urlencode

import pytest
from helpers import ARGS, CHROMIUM, require_browser
from live import ScriptRuns, streamlit_server
from test_browser import _csv_rows, report
from test_plugins_app import UNKNOWN, install

TRIALS = 4
# The Plotly figure with a Play button (the Gantt chart): its subplot titles and trace names.
GANTT = """() => { const g = [...document.querySelectorAll('.js-plotly-plot')]
    .find(p => (p.layout.updatemenus || []).length > 0);
    return g ? {titles: (g.layout.annotations || []).map(a => a.text), traces: g.data.map(t => t.name)} : null; }"""


@pytest.fixture
def served(tmp_path):
    """The server with the package on its PYTHONPATH (address, the package); its log must hold no traceback."""
    require_browser()
    package = install(tmp_path / "site")
    with tempfile.TemporaryFile("w+") as log:
        with streamlit_server(log, env={"PYTHONPATH": str(package.folder)}) as (url, _):
            yield url, package
        log.seek(0)
        out = log.read()
    assert "Traceback" not in out, out[-4000:]


def settled(page, runs: ScriptRuns, before: int, timeout: float = 120) -> None:
    """Wait until a script run beyond ``before`` has finished and none is going on, then a moment for drawing."""
    end = time.monotonic() + timeout
    while (runs.finished <= before or runs.running) and time.monotonic() < end:
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)


def step(page, runs: ScriptRuns, action) -> None:
    """``action()``, then wait for the script runs it starts (a click on a page still being drawn can be lost)."""
    before = runs.finished
    action()
    settled(page, runs, before)


def test_an_installed_plugin_is_picked_run_and_charted_in_a_real_browser(served, capsys, tmp_path):
    from playwright.sync_api import sync_playwright

    url, package = served
    name = package.name
    problems, start = [], time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 3000}, accept_downloads=True)
        page = context.new_page()
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        runs = ScriptRuns(page)
        query = {"preset": "quickstart", "heuristics": json.dumps(["mct"]), "trials": str(TRIALS)}
        step(page, runs, lambda: page.goto(f"{url}/?{urlencode(query)}"))
        page.get_by_role("button", name="Run", exact=True).wait_for(timeout=180_000)  # the server's first session
        opened = time.monotonic()
        step(page, runs, page.get_by_role("link", name="Heuristics").first.click)

        # The picker: the plug-in listed after the papers' heuristics, marked with where it comes from.
        picker = page.get_by_role("combobox", name=re.compile("^Heuristic"))
        picker.click()
        options = page.get_by_role("option").all_inner_texts()
        mine = [o for o in options if o.split(" - ")[0] in package.names]
        assert mine and all(o.endswith(f" · plug-in: {package.where}") for o in mine), options
        assert not any("plug-in" in o for o in options[:-len(mine)]) and options[-len(mine):] == mine, options
        step(page, runs, page.get_by_role("option", name=re.compile(f"^{re.escape(name)} - ")).click)
        page.get_by_text(f"A plug-in installed on this server: {package.where}.").wait_for(timeout=10_000)
        step(page, runs, page.get_by_role("button", name="Add", exact=True).click)
        page.get_by_text(re.compile(f"^{re.escape(name)} · ")).wait_for(timeout=10_000)  # among the chosen
        picked = time.monotonic()

        # Run from Home; the results drawn there.
        step(page, runs, page.get_by_role("link", name="Home").first.click)
        step(page, runs, page.get_by_role("button", name="Run", exact=True).click)
        download = page.get_by_role("button", name="Per-trial results (CSV)")
        try:
            download.wait_for(timeout=300_000)  # the server's workers start (and import hcsched) on its first run
        except Exception:
            said = page.locator('[data-testid="stAlert"], [data-testid="stProgress"]').all_inner_texts()
            page.screenshot(path=str(tmp_path / "failed-plugin-run.png"), full_page=True)
            raise AssertionError(f"no results; the page says: {said}") from None
        settled(page, runs, runs.finished - 1)
        ran = time.monotonic()
        verdict = page.locator(".st-key-landing_verdict").first.inner_text()
        assert "makespan" in verdict and name in verdict, verdict
        gantt = page.evaluate(GANTT)
        assert gantt is not None and name in gantt["titles"] and name in gantt["traces"], gantt
        with page.expect_download() as info:
            download.click()
        rows = _csv_rows(info.value.path())
        assert sum(r["heuristic"] == name for r in rows) == TRIALS
        assert sum(r["heuristic"] == "mct" for r in rows) == TRIALS
        assert all(float(r["makespan"]) > 0 for r in rows if r["heuristic"] == name)
        assert page.locator("[data-testid='stException']").count() == 0

        # A link naming a heuristic this server does not have: one line, the plug-ins installed named.
        other = context.new_page()
        other.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        theirs = ScriptRuns(other)
        query = {"preset": "quickstart", "heuristics": json.dumps(["mct", UNKNOWN]), "run": "1"}
        step(other, theirs, lambda: other.goto(f"{url}/?{urlencode(query)}"))
        alert = other.locator('[data-testid="stAlert"]').filter(has_text=UNKNOWN)
        alert.first.wait_for(timeout=30_000)
        text = alert.first.inner_text().strip()
        assert alert.count() == 1 and "\n" not in text, text
        assert f"unknown heuristic '{UNKNOWN}' (plug-ins installed here: {name} (" in text, text
        assert "The default scenario, quickstart, is loaded instead." in text, text
        assert other.locator("[data-testid='stException']").count() == 0
        assert other.get_by_role("button", name="Per-trial results (CSV)").count() == 0  # nothing was run
        browser.close()
    report(capsys, f"browser: plug-in {name} ({'docs/plugins/etc_rules.py' if package.example else 'a copy of mct'}): "
                   f"first page {opened - start:.1f} s, picked and added {picked - opened:.1f} s, run and drawn "
                   f"{ran - picked:.1f} s, "
                   f"whole test {time.monotonic() - start:.1f} s")
    assert not problems, problems
