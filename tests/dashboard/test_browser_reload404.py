"""A page opened by its address, then reloaded, asks the server nothing it answers 404, and is the app's page (in a
real browser).

Streamlit's frontend, on a page's address such as ``/run``, asked ``/run/_stcore/health`` and
``/run/_stcore/host-config`` before ``/_stcore/...``: two 404s in the browser's console at every load of a page other
than Home. And a new server whose first session opened a page's address ran the "pages" folder as the app's pages
(every module of it listed, the page run without app.py) until a session opened Home: the test's server is new, /run
its first page. Drives Debian's chromium with Playwright, as tests/dashboard/test_browser.py does (skipped when either
is missing, unless HCSCHED_REQUIRE_BROWSER=1)."""

from __future__ import annotations

import tempfile

import pytest
from helpers import ARGS, CHROMIUM, require_browser
from live import streamlit_server


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


def _loaded(page) -> None:
    """The app's script has drawn its pages' links (the app is connected, and runs as app.py lists its pages: not as
    a folder of pages, which a new server's first session opening a page's address got)."""
    page.locator("[data-testid='stSidebarNav'] a", has_text="Home").first.wait_for(timeout=120_000)


def test_a_sub_page_opened_and_reloaded_asks_nothing_that_is_not_found(served):
    from playwright.sync_api import sync_playwright

    answers: list[tuple[int, str]] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.on("response", lambda r: answers.append((r.status, r.url)))
        page.goto(f"{served}/run")
        _loaded(page)
        page.reload()
        _loaded(page)
        page.get_by_role("link", name="Results", exact=True).click()  # the pages' addresses are still the app's
        page.wait_for_url(f"{served}/results**", timeout=30_000)
        _loaded(page)
        browser.close()
    core = [(status, url) for status, url in answers if "/_stcore/" in url]
    assert [url for status, url in core if status == 404] == []
    health = [url for status, url in core if status == 200 and url.split("?")[0].endswith("/_stcore/health")]
    assert len(health) >= 2 and all(url.startswith(f"{served}/_stcore/") for url in health)  # at the app's root
