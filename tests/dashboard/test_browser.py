"""Real-browser tests: streamlit run app.py, press Run, charts, Gantt controls, CSV download, two sessions, a what-if
compared and its link reopened in another session; and every
model's Results page screenshotted and checked for overlapping labels and legends over plots, then, with its
expanders open, at 1400 and at 1000 px wide, for cut text: no button label cut, no table column whose header or cells
are cut, no chart label cut by its chart's edge, no chart toolbar over a title; the Papers page
likewise.

Drives Debian's chromium with Playwright (browsers cannot be downloaded here).
Skipped when chromium or playwright is missing, unless HCSCHED_REQUIRE_BROWSER=1
(as in CI), where it fails instead. Prints the time from pressing Run to the
charts being drawn and saves a screenshot to tests/artifacts/. The Results pages' screenshots go to
HCSCHED_SCREENSHOTS (default: a pytest temporary folder): results-<model>-<preset>.png as the page opens,
results-<model>-<preset>-1400.png and -1000.png with its expanders open, papers-1400.png and papers-1000.png (the
top 16,000 px of the page, its expanders open);
HCSCHED_README_SCREENSHOT=1 also writes the README's picture, assets/screenshots/results.png. The checks themselves
(tests/dashboard/browser_checks.py) are tested on boxes made by hand, without a browser.
"""

import contextlib
import csv
import io
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from helpers import ARGS, CHROMIUM, ROOT, require_browser
from live import ScriptRuns, step, streamlit_server


def report(capsys, line: str) -> None:
    """Timings go to the test log (not asserted: speed is measured, not tested)."""
    with capsys.disabled():
        print("\n" + line)


@contextlib.contextmanager
def _serve(script: Path = ROOT / "app.py"):
    """``streamlit run app.py`` (or ``script``) on a free port, until the block ends; its log must hold no traceback."""
    require_browser()
    with tempfile.TemporaryFile("w+") as log:
        with streamlit_server(log, script) as (url, _):
            yield url
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
    return list(csv.DictReader(io.StringIO("".join(line for line in text.splitlines(True)
                                                   if not line.startswith("#")))))


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
        # Play: the animation reaches the last frame; its pace is reported (as requested: hcsched.charts.frame_ms).
        gantt = "document.querySelectorAll('.js-plotly-plot')[3]"
        slider = f"{gantt}._fullLayout.sliders[0]"
        frames = page.evaluate(f"{gantt}._transitionData._frames.length")  # at round times: about 40
        asked = page.evaluate(f"{gantt}.layout.updatemenus[0].buttons[0].args[1].frame.duration")
        last = page.evaluate(f"{slider}.steps.length") - 1  # the slider steps at its labelled frames only
        assert frames >= 20 and 3 <= last <= 10
        page.locator(".updatemenu-button").first.click()
        start = time.monotonic()
        page.wait_for_function(f"{slider}.active < {last}", timeout=10_000, polling=20)
        page.wait_for_function(f"{slider}.active === {last}", timeout=60_000, polling=50)
        played = time.monotonic() - start
        report(capsys, f"browser: Gantt animation of 4 x 200 tasks, {frames} frames in {played:.2f} s "
                       f"({played / frames * 1000:.0f} ms per frame, {asked} ms requested)")
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


def _download(page, label: str) -> str:
    """The text of the file a download button gives, once the button is there."""
    button = page.get_by_role("button", name=label)
    button.wait_for(timeout=120_000)
    with page.expect_download() as info:
        button.click()
    return open(info.value.path()).read()


def test_a_what_if_is_compared_and_its_link_reopens_it_elsewhere_with_the_same_numbers(server):
    """Run the default scenario, four more machines, run again, compare the two (paired: common random numbers), copy
    the link, open it in a second browser context (another session), run: the per-trial CSV is the same, byte for
    byte."""
    from playwright.sync_api import sync_playwright

    problems = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        first, second = (browser.new_context(viewport={"width": 1400, "height": 3000}, accept_downloads=True)
                         for _ in range(2))
        a = first.new_page()
        a.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        runs = ScriptRuns(a)
        step(a, runs, lambda: a.goto(server))
        step(a, runs, a.get_by_role("button", name="Run", exact=True).click)
        a.get_by_role("button", name="Per-trial results (CSV)").wait_for(timeout=120_000)
        step(a, runs, a.get_by_role("link", name="Scenario").first.click)
        machines = a.get_by_role("spinbutton", name="Machines", exact=True)
        machines.fill("12")
        step(a, runs, lambda: machines.press("Enter"))
        assert "machines=12" in a.url  # the address carries the what-if
        step(a, runs, a.get_by_role("link", name="Run").first.click)
        step(a, runs, a.get_by_role("button", name="Run", exact=True).click)
        step(a, runs, a.get_by_text("See the results").click)
        a.get_by_text("Against run #1, machines 8 → 12: ").wait_for(timeout=30_000)
        mine = _download(a, "Per-trial results (CSV)")
        step(a, runs, a.get_by_role("button", name="Compare in detail").click)
        line = a.get_by_text(re.compile(r"^Machines 8 → 12: sufferage still wins on makespan, (?:but only |now )by "
                                        r"[\d.]+%(?: over \S+)? \(was 8\.4%(?: over min-min)?\); every heuristic's "
                                        r"makespan is [\d.]+–[\d.]+% shorter\."))  # who, on what, over whom, all
        line.wait_for(timeout=30_000)
        assert a.get_by_text("Both runs used the same random tasks (the same seed)").count() == 1
        compared = _download(a, "Comparison (CSV)")
        assert "# what differs: machines 8 → 12" in compared and compared.count("\nmakespan,sufferage,") == 1
        step(a, runs, a.get_by_role("link", name="Home").first.click)
        a.get_by_role("button", name="Copy link").click()
        link = a.locator("[data-testid='stCode'] code").first.inner_text().strip()
        assert "preset=quickstart" in link and "machines=12" in link and "run=" not in link
        b = second.new_page()
        b.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        theirs = ScriptRuns(b)
        step(b, theirs, lambda: b.goto(link))
        assert b.get_by_text("Scenario: quickstart (edited)").count() == 1
        step(b, theirs, b.get_by_role("button", name="Run", exact=True).click)
        assert _download(b, "Per-trial results (CSV)") == mine  # the same scenario, trials and seed: the same bytes
        for page in (a, b):
            assert page.locator("[data-testid='stException']").count() == 0
        browser.close()
    assert not problems, problems


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
             "legends": [rect("mct, kpb", "legend", 50, 50, 40, 40)],
             "plots": [rect("xy", "plot area", 0, 20, 200, 100)]}
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
            assert ([kinds.count(k) for k in ("annotation", "tick x", "tick x2")] == [2, 8, 8]
                    and "tick y2" in kinds), kinds
            assert (len(charts[0]["legends"]), len(charts[0]["plots"])) == (1, 2)
        browser.close()
    assert found[True] == []  # measured (above), and readable
    assert ("made, chart 0: tick x 'heuristic number 0' overlaps tick x 'heuristic number 1' by"
            in "\n".join(found[False]))
    assert any("tick x2 'heuristic number 6' overlaps tick x2 'heuristic number 7'" in line for line in found[False])
    assert any(line.startswith("made, chart 0: the legend (legend 'bars 1, bars 2') covers a plot area")
               for line in found[False])


# --- the cut-text checks on measurements made by hand (no browser) --------------------------------------------------


def test_a_toolbar_over_a_title_an_axis_title_or_a_legend_is_found_and_over_ticks_or_plots_is_not():
    from browser_checks import Box, toolbar_overlaps, toolbar_problems

    bar = Box.rect("modebar", "toolbar", 700, 2, 224, 26)
    title = Box.rect("Mean flow time (s)", "annotation", 760, 10, 120, 14)  # a subplot title, 14.4 px under it
    beside = Box.rect("Makespan (s)", "annotation", 100, 10, 90, 14)
    below = Box.rect("Utilisation", "title", 760, 28.5, 90, 14)  # 0.5 px: within the tolerance
    tick = Box.rect("150k", "tick x", 800, 20, 30, 12)  # ticks are not what the check is about
    assert [(b.text, label.text) for b, label in toolbar_overlaps([bar], [title, beside, below, tick])] == [
        ("modebar", "Mean flow time (s)")]
    assert toolbar_overlaps([bar], [Box.rect("x", "axis title x", 900, 20, 40, 12),
                                    Box.rect("mct, kpb", "legend", 920, 0, 60, 40)]) != []

    def rect(text, kind, x, y, w, h):
        return {"text": text, "kind": kind, "corners": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]}

    chart = {"index": 0, "title": "", "labels": [rect("Mean flow time (s)", "annotation", 760, 10, 120, 14)],
             "legends": [], "plots": [], "toolbars": [rect("modebar", "toolbar", 700, 2, 224, 26)]}
    assert toolbar_problems("etc (quickstart) at 1400 px", chart) == [
        "etc (quickstart) at 1400 px, chart 0: the toolbar covers annotation 'Mean flow time (s)' by 14.0 px"]
    assert toolbar_problems("made", {**chart, "toolbars": []}) == []  # no toolbar (displayModeBar false)


def test_labels_cut_by_the_charts_edge_and_charts_over_the_next_element_are_found():
    from browser_checks import Box, frame_problems, outside

    frame = Box.rect("", "frame", 0, 0, 600, 380)
    assert outside(Box.rect("t", "title", 10, 10, 100, 14), frame) < 0
    assert outside(Box.rect("t", "title", 520, 10, 92, 14), frame) == 12  # 12 px beyond the right edge

    def rect(text, kind, x, y, w, h):
        return {"text": text, "kind": kind, "corners": [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]}

    chart = {"index": 2, "title": "Number in system",
             "labels": [rect("Number in system over time", "title", 20, 10, 592, 17),
                        rect("time", "axis title x", 280, 360, 40, 12)],
             "frame": rect("", "frame", 0, 0, 600, 380), "element": rect("", "element", 0, 0, 600, 380)}
    assert frame_problems("classes at 1000 px", chart) == [
        "classes at 1000 px, chart 2 ('Number in system'): title 'Number in system over time' is cut by the chart's "
        "edge (12.0 px beyond it)"]
    lower = {**chart, "labels": chart["labels"][1:], "frame": rect("", "frame", 0, 28, 600, 380)}  # moved down 28 px
    assert frame_problems("c", lower) == ["c, chart 2 ('Number in system'): the chart reaches 28.0 px beyond its page "
                                          "element"]
    assert frame_problems("c", {**chart, "labels": [], "frame": None}) == []  # nothing measured, nothing found


def test_buttons_and_html_table_cells_whose_text_needs_more_room_are_found():
    from browser_checks import cut_texts, text_problems

    items = [{"what": "button", "text": "Summary with intervals (CSV)", "needed": 173, "shown": 97, "ellipsis": True},
             # 1 px: rounding
             {"what": "button", "text": "Scenario (JSON)", "needed": 96, "shown": 95, "ellipsis": True},
             {"what": "table cell", "text": "tests/models/etc/test_reproduction.py", "needed": 250, "shown": 200,
              "ellipsis": False},
             {"what": "button", "text": "Run", "needed": 40, "shown": 60, "ellipsis": False}]
    assert [i["text"] for i in cut_texts(items)] == ["Summary with intervals (CSV)",
                                                     "tests/models/etc/test_reproduction.py"]
    assert text_problems("etc at 1000 px", items) == [
        "etc at 1000 px: the button 'Summary with intervals (CSV)' is cut: its text needs 173 px, shown in 97 px "
        "(ends in an ellipsis)",
        "etc at 1000 px: the table cell 'tests/models/etc/test_reproduction.py' is cut: its text needs 250 px, "
        "shown in 200 px"]


def test_the_lines_a_grid_row_holds_follow_the_grids_own_rule():
    from browser_checks import lines_that_fit

    # glide-data-grid: n lines of a 13 px font with line height 1.4 are 13 + 18.2 (n - 1) px tall, plus 3 px padding
    assert lines_that_fit(35, 13, 1.4, 3) == 2  # two lines: 13 + 18.2 + 3 = 34.2 <= 35
    assert lines_that_fit(34, 13, 1.4, 3) == 1
    assert lines_that_fit(70, 13, 1.4, 3) == 3  # three: 52.4 px; a fourth would need 70.6
    assert lines_that_fit(10, 13, 1.4, 3) == 0


def _table(columns, wrap_rows=35, grid_width=600):
    return {"index": 1, "label": "What the metrics mean", "found": True, "visible": True, "grid_width": grid_width,
            "rows": 10, "hpad": 8, "vpad": 3, "row_height": wrap_rows, "font_height": 13, "line_height": 1.4,
            "columns": columns}


def test_table_columns_whose_header_or_cells_are_cut_are_found():
    from browser_checks import column_problems, scrolls_sideways

    def col(title, width, header, widest=None, tallest=None, wrap=False, icon=0):
        return {"title": title, "width": width, "header": header, "icon": icon, "wrap": wrap,
                "widest": widest and {"row": widest[0], "text": widest[1], "width": widest[2]},
                "tallest": tallest and {"row": tallest[0], "text": tallest[1], "lines": tallest[2]}}

    fits = col("heuristic", 96, 51, (3, "fz (beta=0.1)", 72))
    cut = col("heuristic", 67, 51, (3, "fz (beta=0.1)", 72))  # 72 px of text in 67 - 2 x 8 = 51 px
    header = col("Share on min-ETC machine", 150, 140, (0, "1", 6))  # a 140 px header in 134 px
    icon = col("edit me", 80, 50, (0, "x", 6), icon=24)  # 50 + 24 > 64
    wrapped = col("meaning", 300, 50, (7, "Busy machine time " * 20, 2000), (7, "Busy machine time " * 20, 9),
                  wrap=True)
    table = _table([fits, cut, header, icon, wrapped], wrap_rows=70)
    assert column_problems("value at 1400 px", table) == [
        "value at 1400 px, table 1 ('What the metrics mean'): column 'heuristic': row 3 ('fz (beta=0.1)') needs 72 px, "
        "has 51 (column 67 px wide)",
        "value at 1400 px, table 1 ('What the metrics mean'): column 'Share on min-ETC machine': "
        "the header needs 140 px, has 134 (column 150 px wide)",
        "value at 1400 px, table 1 ('What the metrics mean'): column 'edit me': the header needs 50 px, has 40 "
        "(column 80 px wide)",
        "value at 1400 px, table 1 ('What the metrics mean'): column 'meaning': row 7 ('Busy machine time Busy machine "
        "time Busy machine time Busy m...') wraps onto 9 lines, a row of 70 px shows 3"]
    # a wrapping column is judged by its lines, not its one-line width; three lines fit a 70 px row
    assert column_problems("v", _table([col("meaning", 300, 50, (0, "a b c", 2000), (0, "a b c", 3), wrap=True)],
                                       70)) == []
    assert scrolls_sideways(_table([fits, header], grid_width=600)) == 0
    assert scrolls_sideways(_table([fits, header, wrapped], grid_width=500)) == 46


CONTROL_PAGE = """
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

st.set_page_config(layout="wide")
c1, c2 = st.columns([1, 5])
c1.button("A label far too long for its narrow column to show whole", key="long")
c2.button("Fits", key="short")
st.dataframe(pd.DataFrame({"name": ["short", "a text far longer than its small column is wide"], "n": [1, 2]}),
             column_config={"name": st.column_config.TextColumn(width="small")}, hide_index=True, width="content")
st.dataframe(pd.DataFrame({"meaning": ["word " * 60, "two words"]}), row_height=70, hide_index=True, width="content",
             column_config={"meaning": st.column_config.TextColumn(width=200)})
st.dataframe(pd.DataFrame({"fits": ["a", "b"]}), hide_index=True)
st.table(pd.DataFrame({"path": ["x" * 300]}))
fig = go.Figure(go.Bar(x=[1, 2], y=[1, 2]))
fig.update_layout(title={"text": "A title under the toolbar", "x": 1, "xanchor": "right", "y": 0.98, "yanchor": "top"},
                  height=300, margin={"t": 30})
st.plotly_chart(fig)
"""


def test_the_text_measurements_find_what_a_page_was_made_to_have(tmp_path):
    """CUT_TEXTS, TABLE_COLUMNS and CHART_BOXES measured in chromium on a Streamlit page made to hold a cut button, a
    grid column too narrow for a cell, a wrapped cell with more lines than its row, an HTML table wider than its frame
    and a chart title under the toolbar: each is found, and what fits is not; with the dashboard's style sheet the
    button, the HTML table and the toolbar are fixed (the grid's columns are set by the pages, not by CSS)."""
    from playwright.sync_api import sync_playwright

    script = tmp_path / "control.py"
    script.write_text(CONTROL_PAGE)
    with _serve(script) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1000, "height": 1600})
        page.goto(url)
        page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
        page.locator("[data-testid='stDataFrame'] canvas").nth(2).wait_for(timeout=60_000)
        wait_settled(page)
        found, _ = text_problems_of(page, "made")
        page.add_style_tag(content=(ROOT / "assets" / "style.css").read_text())
        wait_settled(page)
        fixed, _ = text_problems_of(page, "styled")
        browser.close()
    said = "\n".join(found)
    assert "made: the button 'A label far too long for its narrow column to show whole' is cut" in said, said
    assert "'Fits'" not in said
    assert "made, table 0: column 'name': row 1 ('a text far longer than its small column is wide') needs" in said
    assert "made, table 1: column 'meaning': row 0 ('word word" in said and "a row of 70 px shows 3" in said
    assert "table 2" not in said and "column 'n'" not in said  # columns that fit
    assert "made: the table (columns) 'path' is cut" in said or "made: the table cell 'xxxx" in said
    assert "made, chart 0 ('A title under the toolbar'): the toolbar covers title 'A title under the toolbar'" in said
    assert len(found) == 6, said  # the HTML table and its cell
    assert [line.replace("styled", "made") for line in fixed] == [line for line in found
                                                                  if "table 0" in line or "table 1" in line], fixed


# --- every model's Results page, screenshotted and checked for overlapping labels -------------------------------------

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


WIDTHS = (1400, 1000)  # the window widths the cut-text checks run at
SETTLED = """() => [document.querySelectorAll('[data-testid="stPlotlyChart"]').length,
  [...document.querySelectorAll('.js-plotly-plot')].filter((p) => p._fullLayout).length,
  (document.querySelector('[data-testid="stStatusWidget"]') || {}).innerText || '',
  document.querySelectorAll('[data-stale="true"]').length,
  (document.querySelector('[data-testid="stMain"]') || {}).scrollHeight,
  [...document.querySelectorAll('.js-plotly-plot .main-svg')].map((s) => s.getAttribute('width')).join(','),
  [...document.querySelectorAll('[data-testid="stDataFrame"] canvas')].map((c) => c.width + 'x' + c.height).join(',')]"""


def wait_settled(page, timeout: float = 90) -> None:
    """Until Streamlit is done running the page, every Plotly chart is drawn, and the page's height, the charts'
    widths and the tables' canvases are unchanged for 1 s (after a window resize, charts and grids lay out again)."""
    last, since, end = None, time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < end:
        state = page.evaluate(SETTLED)
        if state != last:
            last, since = state, time.monotonic()
        elif state[0] == state[1] and "Running" not in state[2] and not state[3] and time.monotonic() - since > 1:
            return
        page.wait_for_timeout(200)
    pytest.fail(f"the page did not settle in {timeout:.0f} s (charts, drawn, status, stale, height, ...: {last[:5]})")


CONTENT_HEIGHT = f"""() => {{ const main = document.querySelector("{MAIN}");  // its content's, not the window's
  const b = main.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect();
  return Math.ceil(b.bottom - main.getBoundingClientRect().top + main.scrollTop); }}"""


def fit_width(page, width: int) -> int:
    """The window ``width`` px wide and as tall as the page (Streamlit scrolls inside its own box, so a full-page
    screenshot holds only the window); returns the page's height. The window is made taller first (a narrower page
    is a taller one), so that a scroll bar seldom appears and narrows the page again."""
    tall = page.viewport_size["height"]
    if page.viewport_size["width"] != width:
        tall = min(int(tall * 1.25) + 200, 16_000)
        page.set_viewport_size({"width": width, "height": tall})
    wait_settled(page)
    height = page.evaluate(CONTENT_HEIGHT)
    page.set_viewport_size({"width": width, "height": min(height + 40, 16_000)})
    if height + 40 > tall:  # it did not fit: the scroll bar came and goes, the page lays out again
        wait_settled(page)
    else:
        page.wait_for_timeout(300)
    return height


def open_expanders(page) -> None:
    """Every expander of the main area opened (in the browser only: no rerun), so that the tables in them are drawn;
    then the page settled."""
    closed = "() => document.querySelectorAll('[data-testid=\"stMain\"] details:not([open]) > summary')"
    for _ in range(5):  # expanders in expanders; a click during a redraw may be lost
        if not page.evaluate(f"{closed}.length"):
            break
        page.evaluate(f"() => ({closed})().forEach((s) => s.click())")
        page.wait_for_timeout(300)
    assert not page.evaluate(f"{closed}.length"), "some expanders did not open"
    wait_settled(page)


def screenshot_whole(page, path: Path, height: int, parts: int = 10) -> list[Path]:
    """The page (``height`` px of content) in one screenshot at ``path``, or, taller than the window can be (16,000
    px), in up to ``parts`` parts path-2.png, path-3.png, ... scrolled down a window at a time (Streamlit scrolls in its
    own box)."""
    window = page.viewport_size["height"]
    paths = []
    for i, top in enumerate(range(0, max(height, 1), window)[:parts]):
        page.evaluate(f"() => {{ document.querySelector(\"{MAIN}\").scrollTop = {top}; }}")
        if i:
            page.wait_for_timeout(300)
        paths.append(path if not i else path.with_name(f"{path.stem}-{i + 1}{path.suffix}"))
        page.screenshot(path=str(paths[-1]), full_page=True)
    page.evaluate(f"() => {{ document.querySelector(\"{MAIN}\").scrollTop = 0; }}")
    return paths


TOOLBAR_ON_HOVER = """(i) => { const plot = document.querySelectorAll('.js-plotly-plot')[i];
  const bar = plot && plot.querySelector('.modebar'); if (!bar) return null; const b = bar.getBoundingClientRect();
  return {x: b.x + window.scrollX, y: b.y + window.scrollY,
          opacity: Math.max(0, ...[...bar.querySelectorAll('.modebar-group')].map((g) => parseFloat(getComputedStyle(g).opacity)))}; }"""


def text_problems_of(page, where: str, labels: bool = True, hover: bool = True) -> tuple[list[str], list[str]]:
    """The page as it is drawn now, checked: no button or table text cut (``CUT_TEXTS``, ``TABLE_COLUMNS``), no chart
    toolbar over a title nor label cut by its chart's edge (``CHART_BOXES``), and (``labels``) no two labels of a chart
    overlapping nor a legend over a plot. Returns the problems and notes for the log (tables scrolled sideways). The
    toolbar is measured where it is laid out while hidden; (``hover``) one chart is hovered to check that it shows
    there."""
    from browser_checks import (
        CHART_BOXES,
        CUT_TEXTS,
        MAX_ROWS,
        TABLE_COLUMNS,
        chart_problems,
        column_problems,
        frame_problems,
        scrolls_sideways,
        text_problems,
        toolbar_problems,
    )

    problems = text_problems(where, page.evaluate(CUT_TEXTS))
    notes = []
    for table in page.evaluate(TABLE_COLUMNS, MAX_ROWS):
        if not table["visible"]:
            continue
        if not table["found"]:
            problems.append(f"{where}, table {table['index']} ({table['label']!r}): its columns could not be read "
                            "(has Streamlit's grid changed? see TABLE_COLUMNS)")
            continue
        problems += column_problems(where, table)
        if scrolls_sideways(table):
            notes.append(f"table {table['index']} ({table['label'][:40]!r}) scrolls sideways by "
                         f"{scrolls_sideways(table):.0f} px")
    charts = [c for c in page.evaluate(CHART_BOXES) if c["visible"]]
    for chart in charts:
        problems += (toolbar_problems(where, chart) + frame_problems(where, chart)
                     + (chart_problems(where, chart) if labels else []))
    first = next((c for c in charts if c.get("toolbars")), None)
    if hover and first is not None:  # the toolbar shows on hover where it was measured
        box = page.locator(".js-plotly-plot").nth(first["index"]).bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_timeout(600)
        shown = page.evaluate(TOOLBAR_ON_HOVER, first["index"])
        x, y = first["toolbars"][0]["corners"][0]
        if shown["opacity"] < 0.5 or abs(shown["x"] - x) > 1 or abs(shown["y"] - y) > 1:
            problems.append(f"{where}, chart {first['index']}: on hover the toolbar shows at {shown}, not where "
                            f"measured ({x:.0f}, {y:.0f})")
        page.mouse.move(0, 0)
        page.wait_for_timeout(400)
    return problems, notes


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
    overlap and no legend covers a plot area; no exception box. Then its expanders opened, at 1400 and at 1000 px wide
    (the same page, resized): screenshotted, no button or table text cut, no chart toolbar over a title, no chart label
    cut by the chart's edge, and (at 1000 px) the label checks again."""
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
        begin, notes, shots = time.monotonic(), [], []
        open_expanders(page)
        for width in WIDTHS:  # no text cut, no toolbar over a title, at both widths
            tall = fit_width(page, width)
            shots += screenshot_whole(page, screenshots / f"results-{model}-{name}-{width}.png", tall)
            found, said = text_problems_of(page, f"{where} at {width} px", labels=width != 1400,  # 1400: checked above
                                           hover=width == WIDTHS[0])
            problems += found
            notes += [f"{width} px: {note}" for note in said]
            steps[f"{width} px"] = tall
        steps["text checks"] = time.monotonic() - begin
        browser.close()
    hidden = sum(not c["visible"] for c in charts)
    report(capsys, f"browser: {where}: {len(charts)} charts ({hidden} hidden, not checked), page {height} px, "
                   f"{time.monotonic() - start:.1f} s ("
                   + ", ".join(f"{k} {v:.1f} s" if isinstance(v, float) else f"{k} page {v} px"
                               for k, v in steps.items())
                   + f"), {len(problems)} problems; screenshots {shot}, " + ", ".join(map(str, shots))
                   + "".join(f"\n  error box: {' '.join(e.split())[:300]}" for e in errors)
                   + "".join(f"\n  note: {note}" for note in notes))
    assert not problems, "\n".join(problems)


def test_papers_page_text_fits(shared_server, screenshots, capsys):
    """The Papers page (the shipped reproduction) at both widths: no button or table text cut, no chart toolbar over a
    title, no overlapping chart labels; screenshotted."""
    from playwright.sync_api import sync_playwright

    start, problems, notes, shots, steps = time.monotonic(), [], [], [], {}
    last = start

    def step(label: str) -> None:
        nonlocal last
        steps[label], last = time.monotonic() - last, time.monotonic()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": WIDTHS[0], "height": 1600})
        page.goto(shared_server)
        page.get_by_role("link", name="Papers", exact=True).click()
        page.get_by_role("heading", name="Papers", exact=True).wait_for(timeout=60_000)
        page.locator("[data-testid='stDataFrame'], [data-testid='stTable']").first.wait_for(state="attached",
                                                                                          timeout=60_000)
        wait_settled(page)
        step("load")
        open_expanders(page)
        step("open")
        for width in WIDTHS:
            tall = fit_width(page, width)
            step(f"{width} px")
            shots += screenshot_whole(page, screenshots / f"papers-{width}.png", tall, parts=1)  # its top: time
            step("screenshot")
            notes.append(f"{width} px: page {tall} px")
            found, said = text_problems_of(page, f"papers at {width} px", hover=width == WIDTHS[0])
            step("checks")
            problems += found + [f"papers at {width} px: Streamlit shows an exception: {' '.join(t.split())[:300]}"
                                 for t in page.locator("[data-testid='stException']").all_inner_texts()]
            notes += [f"{width} px: {note}" for note in said]
        browser.close()
    report(capsys, f"browser: papers: {time.monotonic() - start:.1f} s ("
                   + ", ".join(f"{k} {v:.1f} s" for k, v in steps.items())
                   + f"), {len(problems)} problems; screenshots "
                   + ", ".join(map(str, shots)) + "".join(f"\n  note: {note}" for note in notes))
    assert not problems, "\n".join(problems)
