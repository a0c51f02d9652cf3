"""One real-browser smoke test: streamlit run app.py, press Run, charts, Gantt controls, CSV download.

Drives Debian's chromium with Playwright (browsers cannot be downloaded here).
Skipped when chromium or playwright is missing, unless HCSCHED_REQUIRE_BROWSER=1
(as in CI), where it fails instead. Prints the time from pressing Run to the
charts being drawn and saves a screenshot to tests/artifacts/.
"""

import csv
import io
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from conftest import ROOT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _require():
    missing = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package")
    if not os.path.exists(CHROMIUM):
        missing.append("Debian's chromium")
    if missing:
        message = "needs " + " and ".join(missing)
        if os.environ.get("HCSCHED_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)


def report(capsys, line: str) -> None:
    """Timings go to the test log (not asserted: speed is measured, not tested)."""
    with capsys.disabled():
        print("\n" + line)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server():
    _require()
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
                             "--server.address", "127.0.0.1", "--server.port", str(port),
                             "--browser.gatherUsageStats", "false"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("streamlit did not start")
        yield url
    finally:
        proc.terminate()
        try:
            out = proc.communicate(timeout=10)[0]
        except subprocess.TimeoutExpired:
            proc.kill()
            out = proc.communicate()[0]
        assert "Traceback" not in out, out


def test_run_in_a_real_browser(server, capsys):
    from playwright.sync_api import sync_playwright

    problems = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 3600}, accept_downloads=True)
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.goto(server)
        run = page.get_by_role("button", name="Run", exact=True)
        run.wait_for(timeout=60_000)
        # The navigation's icons are Material Symbols, shipped with Streamlit (emoji need a font this machine lacks).
        icons = page.locator("[data-testid='stSidebarNav'] [data-testid='stIconMaterial']")
        assert icons.count() == (ROOT / "app.py").read_text().count("st.Page(")
        page.wait_for_function("document.fonts.check('24px \"Material Symbols Rounded\"')", timeout=10_000)
        assert icons.first.bounding_box()["width"] < 40  # a glyph, not the icon's name spelled out
        start = time.monotonic()
        run.click()
        page.locator(".js-plotly-plot").nth(3).wait_for(timeout=120_000)
        page.locator(".updatemenu-button").first.wait_for(timeout=30_000)
        report(capsys, f"browser: from pressing Run to the charts drawn: {time.monotonic() - start:.2f} s (target 3 s)")
        assert page.locator(".js-plotly-plot").count() == 4  # ETC preview, bars, distribution, Gantt
        buttons = page.locator(".updatemenu-button").all_text_contents()
        assert "Play" in "".join(buttons) and "Pause" in "".join(buttons)
        assert page.locator(".slider-container").count() >= 1  # the Gantt's time slider
        # Play: the animation reaches the last frame; its pace is reported (80 ms per frame requested).
        active = "() => document.querySelectorAll('.js-plotly-plot')[3]._fullLayout.sliders[0].active"
        page.locator(".updatemenu-button").first.click()
        start = time.monotonic()
        page.wait_for_function(f"({active})() < 59", timeout=10_000, polling=20)
        page.wait_for_function(f"({active})() === 59", timeout=60_000, polling=50)
        played = time.monotonic() - start
        report(capsys, f"browser: Gantt animation of 4 x 200 tasks, 60 frames in {played:.2f} s "
                       f"({played / 60 * 1000:.0f} ms per frame, 80 ms requested)")
        with page.expect_download() as info:
            page.get_by_role("button", name="Per-trial results (CSV)").click()
        rows = list(csv.DictReader(io.StringIO(open(info.value.path()).read())))
        assert len(rows) == 4 * 20
        for col in ("trial", "heuristic", "makespan", "normalized_makespan", "mean_flow", "max_stretch", "utilization"):
            assert col in rows[0]
        artifacts = ROOT / "tests" / "artifacts"
        artifacts.mkdir(exist_ok=True)
        page.screenshot(path=str(artifacts / "landing.png"), full_page=True)
        assert page.locator("[data-testid='stException']").count() == 0
        browser.close()
    assert not problems, problems


def test_two_sessions_never_share_a_scenario_or_results(server):
    """Two users at once: each has their own scenario, run and results."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        alice, bob = (browser.new_context(viewport={"width": 1400, "height": 3000}, accept_downloads=True)
                      for _ in range(2))
        a, b = alice.new_page(), bob.new_page()
        a.goto(server)
        a.get_by_role("button", name="Run", exact=True).click()
        a.get_by_role("button", name="Per-trial results (CSV)").wait_for(timeout=120_000)
        b.goto(server)
        b.get_by_role("button", name="Run", exact=True).wait_for(timeout=60_000)
        b.wait_for_timeout(1500)
        assert b.get_by_role("button", name="Per-trial results (CSV)").count() == 0  # Alice's results are hers
        b.get_by_role("link", name="Run").first.click()
        trials = b.get_by_label("Trials")
        trials.fill("3")
        trials.press("Enter")
        b.wait_for_timeout(1000)
        b.get_by_role("button", name="Run", exact=True).click()
        b.get_by_text("See the results").wait_for(timeout=120_000)
        b.get_by_text("See the results").click()  # in-app navigation: a new URL would start a new session
        with b.expect_download() as info:
            b.get_by_role("button", name="Per-trial results (CSV)").click()
        assert len(list(csv.DictReader(open(info.value.path())))) == 4 * 3
        # Alice's page, still open (a reload would start a new session): her scenario and results are unchanged.
        a.get_by_role("link", name="Run").first.click()
        a.get_by_label("Trials").wait_for(timeout=30_000)
        assert a.get_by_label("Trials").input_value() == "20"
        a.get_by_role("link", name="Results").first.click()
        with a.expect_download() as info:
            a.get_by_role("button", name="Per-trial results (CSV)").click()
        assert len(list(csv.DictReader(open(info.value.path())))) == 4 * 20
        browser.close()
