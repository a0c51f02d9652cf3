from pathlib import Path

import pytest
from helpers import HCSP

from hcsched.heuristics import PLUGIN_ERRORS, PLUGINS
from hcsched.heuristics.plugins import LOADED

# their bounds are wall times of a real server (the first answer within 3 s, a reload, the Gantt's play, Cancel); the
# other browser tests wait with generous timeouts and report their times, so they run beside the rest
SERIAL_FILES = ("test_browser_demo", "test_browser_gantt", "test_soak")


def pytest_collection_modifyitems(items):
    """The tests that time a real server in a real browser (the first answer within 3 s, the Gantt's play) and the
    soak (Cancel within its bound) are marked ``serial``: the README's test command runs them alone, after the rest
    in two processes."""
    for item in items:
        if item.path.name.startswith(SERIAL_FILES):
            item.add_marker(pytest.mark.serial)


@pytest.fixture(autouse=True)
def plugin_registry_restored():
    """Every test leaves the plug-in registry as it found it: the plug-ins a test registers, the plug-in files it
    loads and the entry points' errors it records are forgotten after it."""
    saved = [(d, dict(d)) for d in (PLUGINS, PLUGIN_ERRORS, LOADED)]
    yield
    for registry, before in saved:
        registry.clear()
        registry.update(before)


@pytest.fixture
def hcsp_dir() -> Path:
    if not HCSP.is_dir():
        pytest.skip(f"HCSP instances not found at {HCSP} (set HCSCHED_SHARED)")
    return HCSP
