import pytest
from helpers import ARGS, CHROMIUM


@pytest.fixture(autouse=True)
def clear_caches():
    """Every dashboard test starts and ends with Streamlit's data caches empty (cached runs are keyed on the scenario,
    and a test may break a model on purpose)."""
    st = pytest.importorskip("streamlit")
    from pages.jobs import KNOWN_ROWS  # and the server's rows by workload

    st.cache_data.clear()
    KNOWN_ROWS.clear()
    yield
    st.cache_data.clear()
    KNOWN_ROWS.clear()


@pytest.fixture(autouse=True)
def pages_do_not_wait_for_jobs(monkeypatch):
    """AppTest runs a page to its end: a page that followed its running job there (pages.jobs.watch) would hold the
    test until the job ends. Tests of watch itself set WATCH_SECONDS back."""
    pytest.importorskip("streamlit")
    monkeypatch.setattr("pages.jobs.WATCH_SECONDS", 0.0)


@pytest.fixture(scope="module")
def browser():
    """Debian's headless chromium (Playwright), one for a module's browser tests; each test opens its own context."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
