"""The dashboard as a shared server, in a real browser: a link's text renders no anchor or image on any page, a link
asking for a huge system is refused at once without the server's memory growing, and an uploaded scenario naming a
server file is refused in one line without reading it.

Drives Debian's chromium with Playwright, as tests/dashboard/test_browser.py does (skipped when either is missing,
unless HCSCHED_REQUIRE_BROWSER=1). The server's memory is read from /proc (its VmRSS)."""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from helpers import ARGS, CHROMIUM, require_browser
from live import ScriptRuns, streamlit_server
from test_app_plain_text import hostile_scenario

from hcsched.links import scenario_query

PAGES = ("scenario", "heuristics", "run", "results", "explain", "sweep", "papers")
# every anchor and image of the page, the SVG ones of the charts too, with where each leads
LINKS_AND_IMAGES = """() => [...document.querySelectorAll('a, img, image')].map(e => ({
    tag: e.tagName.toLowerCase(),
    href: e.getAttribute('href') || e.getAttribute('xlink:href') || '',
    src: e.getAttribute('src') || '',
    text: (e.textContent || '').slice(0, 80)}))"""


def bad(found: list[dict]) -> list[dict]:
    """The anchors and images made of the link's text: leading to example.invalid or to javascript:, or the image
    ``x`` of an ``onerror``."""
    return [e for e in found if "example.invalid" in e["href"] + e["src"] or "javascript:" in e["href"].lower()
            or e["src"] == "x"]


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` and its children (the server's worker processes), in MB."""
    total = 0.0
    for proc in [pid, *_children(pid)]:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{proc}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
    return total


def _children(pid: int) -> list[int]:
    found = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            kids = (task / "children").read_text().split()
            found += [int(k) for k in kids]
    return [*found, *(g for k in found for g in _children(k))]


@pytest.fixture(scope="module")
def served():
    """One server for the module (address, process); its log must hold no traceback."""
    require_browser()
    with tempfile.TemporaryFile("w+") as log:
        with streamlit_server(log) as (url, proc):
            yield url, proc
        log.seek(0)
        out = log.read()
    assert "Traceback" not in out, out[-4000:]


@pytest.fixture(scope="module")
def browser(served):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def settled(page, runs: ScriptRuns, before: int, timeout: float = 120) -> None:
    """Wait until a script run beyond ``before`` has finished and none is going on, then a moment for drawing."""
    end = time.monotonic() + timeout
    while (runs.finished <= before or runs.running) and time.monotonic() < end:
        page.wait_for_timeout(100)
    page.wait_for_timeout(800)


def test_a_links_text_renders_no_anchor_or_image_on_any_page(served, browser):
    url, _ = served
    page = browser.new_page(viewport={"width": 1400, "height": 4000})
    runs = ScriptRuns(page)
    query = {**scenario_query(hostile_scenario()), "run": "1"}
    page.goto(f"{url}/?{urlencode(query)}")
    page.get_by_role("button", name="Per-trial results (CSV)").wait_for(timeout=120_000)  # the run's results drawn
    settled(page, runs, 0)
    found = {"home": page.evaluate(LINKS_AND_IMAGES)}
    assert "example.invalid" in page.inner_text("body")  # the name is on the page, as text
    for name in PAGES:
        before = runs.finished
        page.locator(f'[data-testid="stSidebarNav"] a[href$="/{name}"]').click()
        settled(page, runs, before)
        if name == "results":
            page.get_by_role("button", name="Per-trial results (CSV)").wait_for(timeout=60_000)
        found[name] = page.evaluate(LINKS_AND_IMAGES)
    page.close()
    assert all(found.values())  # each page was read (the sidebar's own links at least)
    made = {name: bad(items) for name, items in found.items() if bad(items)}
    assert not made, json.dumps(made, indent=1)


def test_a_link_asking_for_a_million_machines_is_refused_at_once_without_memory(served, browser):
    url, proc = served
    warm = browser.new_page(viewport={"width": 1400, "height": 2000})
    warm.goto(f"{url}/?preset=quickstart")  # the server's imports and first session done
    warm.get_by_role("button", name="Run", exact=True).first.wait_for(timeout=120_000)
    warm.wait_for_timeout(1500)
    warm.close()
    page = browser.new_page(viewport={"width": 1400, "height": 2000})
    before = rss_mb(proc.pid)
    opened = []  # when the page's session opened its websocket: the server's answer is timed from there (loading
    page.on("websocket", lambda ws: opened.append(time.monotonic()))  # the page's JavaScript is the browser's time)
    page.goto(f"{url}/?preset=quickstart&machines=1000000")
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="1,000,000")
    alert.first.wait_for(timeout=30_000)
    took = time.monotonic() - opened[0]
    page.wait_for_timeout(1000)  # anything the page goes on doing would show in its memory now
    grown = rss_mb(proc.pid) - before
    text = alert.first.inner_text()
    page.close()
    assert took < 2.0, (took, text)
    assert grown < 100, (grown, text)
    assert page_is_refused(text), text


def page_is_refused(text: str) -> bool:
    return any(words in text for words in ("too large", "memory", "would need"))


@pytest.mark.parametrize("path", ["/dev/zero", "/etc/passwd", "../../etc/passwd"])
def test_an_uploaded_scenario_naming_a_server_file_is_refused_without_reading_it(served, browser, path, tmp_path):
    url, proc = served
    upload = tmp_path / "scenario.json"
    upload.write_text(json.dumps({"model": "etc", "etc": {"method": "matrix", "path": path}}))
    page = browser.new_page(viewport={"width": 1400, "height": 3000})
    page.goto(f"{url}/scenario")
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.wait_for(state="attached", timeout=120_000)
    page.wait_for_timeout(1500)
    before = rss_mb(proc.pid)
    uploader = page.locator('[data-testid="stFileUploader"]').filter(has_text="Load a scenario")
    uploader.locator('input[type="file"]').set_input_files(str(upload))
    alert = page.locator('[data-testid="stAlert"]').filter(has_text="names a file on the server")
    alert.first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    grown = rss_mb(proc.pid) - before
    text = alert.first.inner_text()
    page.close()
    assert "My own matrix" in text and "\n" not in text.strip(), text
    assert "root:" not in text and "cannot be read" not in text, text  # nothing read, nothing probed
    assert grown < 50, grown
