"""Real-browser tests: streamlit run app.py, press Run, charts, Gantt controls, CSV download, two sessions; and every
model's Results page screenshotted and checked for overlapping labels and legends over plots (issue 18).

Drives Debian's chromium with Playwright (browsers cannot be downloaded here).
Skipped when chromium or playwright is missing, unless HCSCHED_REQUIRE_BROWSER=1
(as in CI), where it fails instead. Prints the time from pressing Run to the
charts being drawn and saves a screenshot to tests/artifacts/. The Results pages' screenshots go to
HCSCHED_SCREENSHOTS (default: a pytest temporary folder); HCSCHED_README_SCREENSHOT=1 also writes the README's
picture, assets/screenshots/results.png. The checks themselves (tests/dashboard/browser_checks.py) are tested on boxes made
by hand, without a browser.
"""

import contextlib
import csv
import io
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from helpers import ARGS, CHROMIUM, ROOT, require_browser


def report(capsys, line: str) -> None:
    """Timings go to the test log (not asserted: speed is measured, not tested)."""
    with capsys.disabled():
        print("\n" + line)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _serve():
    """``streamlit run app.py`` on a free port, until the block ends; its log must hold no traceback. Files edited
    meanwhile are not reloaded (a reload mid-run makes the run's functions unpicklable for its worker processes)."""
    require_browser()
    port = _free_port()
    with tempfile.TemporaryFile("w+") as log:  # a file, not a pipe: a full pipe would stall the server
        proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
                                 "--server.address", "127.0.0.1", "--server.port", str(port),
                                 "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                text=True)
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
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.seek(0)
            out = log.read()
        assert "Traceback" not in out, out


@pytest.fixture
def server():
    with _serve() as url:
        yield url


@pytest.fixture(scope="module")
def shared_server():
    """One server for several tests, each in its own browser session."""
    with _serve() as url:
        yield url


def _csv_rows(path) -> list[dict]:
    """A downloaded CSV's rows: its "# " header lines (scenario, seed, units) are comments, as pandas' comment="#"."""
    text = open(path).read()
    assert text.startswith("# hcsched ")
    return list(csv.DictReader(io.StringIO("".join(line for line in text.splitlines(True) if not line.startswith("#")))))


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
        rows = _csv_rows(info.value.path())
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
        assert len(_csv_rows(info.value.path())) == 4 * 3
        # Alice's page, still open (a reload would start a new session): her scenario and results are unchanged.
        a.get_by_role("link", name="Run").first.click()
        a.get_by_label("Trials").wait_for(timeout=30_000)
        assert a.get_by_label("Trials").input_value() == "20"
        a.get_by_role("link", name="Results").first.click()
        with a.expect_download() as info:
            a.get_by_role("button", name="Per-trial results (CSV)").click()
        assert len(_csv_rows(info.value.path())) == 4 * 20
        browser.close()


# --- the readability checks on boxes made by hand (no browser) ----------------------------------------------------


def _rotated(text: str, cx: float, cy: float, w: float, h: float, degrees: float):
    """A w x h label centred at (cx, cy), turned by ``degrees`` (as Plotly turns crowded tick labels)."""
    import math

    from browser_checks import Box

    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return Box(text, "tick x", tuple((cx + x * c - y * s, cy + x * s + y * c)
                                     for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))))


def test_labels_that_overlap_are_found_and_labels_that_touch_are_not():
    from browser_checks import Box, label_overlaps

    a = Box.rect("400k", "tick x", 100, 200, 30, 12)
    title = Box.rect("Max stretch", "annotation", 120, 205, 80, 12)  # 10 px into the tick label, 7 px down
    below = Box.rect("600k", "tick x", 100, 212, 30, 12)  # the next line: touching, not overlapping
    beside = Box.rect("800k", "tick x", 130.5, 200, 30, 12)  # 0.5 px into it: within the tolerance
    assert [(x.text, y.text) for x, y in label_overlaps([a, title, below, beside])] == [("400k", "Max stretch"),
                                                                                        ("Max stretch", "600k"),
                                                                                        ("Max stretch", "800k")]
    assert label_overlaps([a, below, beside]) == []


def test_rotated_labels_are_compared_as_turned_rectangles_not_their_bounding_boxes():
    from browser_checks import label_overlaps, penetration

    # 60 x 10 labels turned by 45 degrees, 20 px apart: their axis-aligned bounding boxes (49 px wide) overlap,
    # the labels themselves are 14 px apart.
    left, right = _rotated("min-min", 100, 100, 60, 10, 45), _rotated("max-min", 120, 100, 60, 10, 45)
    assert penetration(left, right) < 0 and label_overlaps([left, right]) == []
    # 6 px apart they overlap (perpendicular distance 4.2 px, less than their 10 px thickness).
    closer = _rotated("sufferage", 106, 100, 60, 10, 45)
    assert [(x.text, y.text) for x, y in label_overlaps([left, closer])] == [("min-min", "sufferage")]
    assert 5 < penetration(left, closer) < 6  # 10 - 6 / sqrt(2)


def test_a_legend_over_any_plot_area_is_found():
    from browser_checks import Box, legend_overlaps

    plots = [Box.rect("xy", "plot area", 0, 0, 400, 300), Box.rect("x2y2", "plot area", 0, 350, 400, 300)]
    outside = Box.rect("mct, kpb", "legend", 420, 0, 100, 80)  # right of both plots
    inside = Box.rect("mct, kpb", "legend", 300, 380, 150, 80)  # over the second plot
    assert legend_overlaps([outside], plots) == []
    assert [(leg.text, plot.text) for leg, plot in legend_overlaps([outside, inside], plots)] == [("mct, kpb", "x2y2")]


def test_findings_name_the_model_the_chart_and_both_labels():
    from browser_checks import chart_problems

    def rect(text, kind, x, y, w, h):
        return {"text": text, "kind": kind, "corners": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]}

    chart = {"index": 2, "title": "Makespan", "labels": [rect("400k", "tick x", 0, 0, 30, 12),
                                                         rect("Utilisation", "annotation", 10, 5, 60, 12)],
             "legends": [rect("mct, kpb", "legend", 50, 50, 40, 40)], "plots": [rect("xy", "plot area", 0, 20, 200, 100)]}
    assert chart_problems("etc (quickstart)", chart) == [
        "etc (quickstart), chart 2 ('Makespan'): tick x '400k' overlaps annotation 'Utilisation' by 7.0 px",
        "etc (quickstart), chart 2 ('Makespan'): the legend (legend 'mct, kpb') covers a plot area by 40.0 px"]


def test_the_page_measurements_find_what_a_figure_was_made_to_have(tmp_path):
    """CHART_BOXES measured in chromium: a figure with crowded unrotated tick labels and a legend inside its plot is
    reported (with the labels' texts); the same figure laid out readably is not."""
    require_browser()
    import plotly.graph_objects as go
    from browser_checks import CHART_BOXES, chart_problems
    from playwright.sync_api import sync_playwright
    from plotly.subplots import make_subplots

    names = [f"heuristic number {i}" for i in range(8)]

    def figure(readable: bool) -> go.Figure:
        fig = make_subplots(rows=1, cols=2, subplot_titles=("Makespan", "Mean flow"))
        for col in (1, 2):
            fig.add_trace(go.Bar(x=names, y=list(range(8)), name=f"bars {col}"), row=1, col=col)
        fig.update_xaxes(tickangle=90 if readable else 0)
        fig.update_layout(width=700, height=500, legend=dict(x=1.02, y=1) if readable else dict(x=0.05, y=0.95))
        return fig

    found = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 900, "height": 700})
        for readable in (False, True):
            html = tmp_path / f"{readable}.html"
            figure(readable).write_html(html, include_plotlyjs=True)
            page.goto(html.as_uri())
            page.locator(".js-plotly-plot .legend").wait_for(timeout=30_000)
            charts = page.evaluate(CHART_BOXES)
            found[readable] = [line for chart in charts for line in chart_problems("made", chart)]
            kinds = [box["kind"] for box in charts[0]["labels"]]
            assert [kinds.count(k) for k in ("annotation", "tick x", "tick x2")] == [2, 8, 8] and "tick y2" in kinds, kinds
            assert (len(charts[0]["legends"]), len(charts[0]["plots"])) == (1, 2)
        browser.close()
    assert found[True] == []  # measured (above), and readable
    assert "made, chart 0: tick x 'heuristic number 0' overlaps tick x 'heuristic number 1' by" in "\n".join(found[False])
    assert any("tick x2 'heuristic number 6' overlaps tick x2 'heuristic number 7'" in line for line in found[False])
    assert any(line.startswith("made, chart 0: the legend (legend 'bars 1, bars 2') covers a plot area") for line in found[False])


# --- every model's Results page, screenshotted and checked for overlapping labels (issue 18, "Done when") -----------

TRIALS = 2  # enough for intervals; keeps the whole test around two minutes on two cores


def results_cases() -> list[tuple[str, str, int | None]]:
    """(model, preset, trials): each model's default preset with its heuristics (3 to 12), at TRIALS trials; the
    quickstart (the ETC model's default) at its own 20 trials, as the README's screenshot shows it."""
    from hcsched import get_model, model_names

    return [(name, get_model(name).default_preset, None if get_model(name).default_preset == "quickstart" else TRIALS)
            for name in model_names()]


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory) -> Path:
    """Where the Results pages' screenshots go: HCSCHED_SCREENSHOTS, or a pytest temporary folder."""
    folder = os.environ.get("HCSCHED_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


DRAWN = """() => [document.querySelectorAll('[data-testid="stPlotlyChart"]').length,
  [...document.querySelectorAll('.js-plotly-plot')].filter((p) => p._fullLayout).length,
  (document.querySelector('[data-testid="stStatusWidget"]') || {}).innerText || '',
  document.querySelectorAll('[data-stale="true"]').length]"""
MAIN = "[data-testid='stMain']"


def wait_idle(page, timeout: float = 30) -> None:
    """Until Streamlit is done running the page (no "Running" status, no stale element) for 0.5 s."""
    page.wait_for_timeout(300)
    page.wait_for_function("""() => { const s = document.querySelector('[data-testid="stStatusWidget"]');
        return !(s && s.innerText.includes('Running')) && !document.querySelector('[data-stale="true"]'); }""",
                           timeout=timeout * 1000)
    page.wait_for_timeout(500)


def wait_drawn(page, timeout: float = 90) -> None:
    """Until Streamlit is done running the page and every Plotly chart it holds is drawn, unchanged for 1.5 s."""
    last, since, end = None, time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < end:
        state = page.evaluate(DRAWN)
        if state != last:
            last, since = state, time.monotonic()
        elif state[0] == state[1] and "Running" not in state[2] and not state[3] and time.monotonic() - since > 1.5:
            return
        page.wait_for_timeout(250)
    pytest.fail(f"the Results page was not drawn in {timeout:.0f} s (charts, drawn, status, stale: {last})")


def load_and_run(page, url: str, name: str, trials: int | None) -> dict[str, float]:
    """A new session: load the preset on the Scenario page, set the trials and Run on the Run page, open Results
    through the app's own link (a new URL would start a new session). Returns the seconds each step took."""
    steps, last = {}, time.monotonic()

    def step(label: str) -> None:
        nonlocal last
        steps[label], last = time.monotonic() - last, time.monotonic()

    page.goto(url)
    page.get_by_role("button", name="Run", exact=True).wait_for(timeout=60_000)
    step("start")
    if name != "quickstart":
        page.get_by_role("link", name="Scenario", exact=True).click()
        picker = page.get_by_label("Scenario loaded (pick a preset to load it)")
        picker.click()
        picker.fill(name)
        page.get_by_role("option", name=f"{name}: ").first.click()
        page.wait_for_function(f"() => document.querySelector('input[aria-label^=\"Scenario loaded\"]').value"
                               f".startsWith({name + ':'!r})", timeout=30_000)
        step("load")
    page.get_by_role("link", name="Run", exact=True).click()
    field = page.locator("[data-testid='stNumberInput'] input").first  # trials, named in the model's word
    field.wait_for(timeout=30_000)
    wait_idle(page)
    if trials is not None:
        for _ in range(3):  # a field filled during a rerun can be reset by it: again
            field.fill(str(trials))
            field.press("Enter")
            wait_idle(page)
            if field.input_value() == str(trials):
                break
        assert field.input_value() == str(trials), f"the trials field shows {field.input_value()}, not {trials}"
    page.get_by_role("button", name="Run", exact=True).click()
    failed = page.locator("[data-testid='stAlertContentError'], [data-testid='stException']")
    page.get_by_text("See the results").or_(failed).first.wait_for(timeout=180_000)
    if failed.count():
        pytest.fail(f"the run of {name} failed: " + " | ".join(" ".join(t.split()) for t in failed.all_inner_texts()))
    step("run")
    page.get_by_text("See the results").click()
    page.get_by_role("heading", name="Results", exact=True).wait_for(timeout=30_000)
    return steps


def readme_screenshot(page, path: Path) -> None:
    """The Results page's title, headline and bars (the README's picture of the dashboard), without Streamlit's
    toolbar."""
    page.add_style_tag(content="[data-testid='stHeader'] { visibility: hidden; }")
    top = page.get_by_role("heading", name="Results", exact=True).bounding_box()
    bars = page.locator(".js-plotly-plot").first.bounding_box()
    main = page.locator(f"{MAIN} [data-testid='stMainBlockContainer']").bounding_box()
    page.screenshot(path=str(path), clip={"x": main["x"] + 2, "y": top["y"] - 8, "width": main["width"] - 2,
                                          "height": bars["y"] + bars["height"] - top["y"] + 16})


@pytest.mark.parametrize(("model", "name", "trials"), results_cases(), ids=lambda v: str(v))
def test_results_pages_are_readable(shared_server, screenshots, capsys, model, name, trials):
    """Each model's Results page, with a preset's heuristics: screenshotted, and in every Plotly chart no two labels
    overlap and no legend covers a plot area; no exception box."""
    from browser_checks import CHART_BOXES, chart_problems
    from playwright.sync_api import sync_playwright

    where = f"{model} ({name})"
    start = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1600})
        try:
            steps = load_and_run(page, shared_server, name, trials)
            begin = time.monotonic()
            wait_drawn(page)
            steps["draw"] = time.monotonic() - begin
        except Exception:
            page.screenshot(path=str(screenshots / f"failed-{model}-{name}.png"), full_page=True)
            raise
        height = page.evaluate(f"() => document.querySelector(\"{MAIN}\").scrollHeight")
        page.set_viewport_size({"width": 1400, "height": min(height + 40, 16_000)})  # Streamlit scrolls in its own box
        wait_drawn(page)
        page.mouse.move(0, 0)  # no chart hovered: its toolbar hidden
        page.wait_for_timeout(300)
        shot = screenshots / f"results-{model}-{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        if name == "quickstart":
            readme_screenshot(page, screenshots / "results-readme.png")
            if os.environ.get("HCSCHED_README_SCREENSHOT") == "1":
                target = ROOT / "assets" / "screenshots" / "results.png"
                target.parent.mkdir(exist_ok=True)
                shutil.copyfile(screenshots / "results-readme.png", target)
            assert (screenshots / "results-readme.png").stat().st_size < 300_000
        charts = page.evaluate(CHART_BOXES)
        problems = [f"{where}: Streamlit shows an exception: {' '.join(text.split())[:300]}"
                    for text in page.locator("[data-testid='stException']").all_inner_texts()]
        for chart in charts:
            problems += chart_problems(where, chart)
        errors = page.locator("[data-testid='stAlertContentError']").all_inner_texts()  # reported, not asserted
        browser.close()
    hidden = sum(not c["visible"] for c in charts)
    report(capsys, f"browser: {where}: {len(charts)} charts ({hidden} hidden, not checked), page {height} px, "
                   f"{time.monotonic() - start:.1f} s ("
                   + ", ".join(f"{k} {v:.1f} s" for k, v in steps.items()) + f"), {len(problems)} problems; screenshot {shot}"
                   + "".join(f"\n  error box: {' '.join(e.split())[:300]}" for e in errors))
    assert not problems, "\n".join(problems)
