import sys
from pathlib import Path

import pytest
from helpers import HCSP

from hcsched.heuristics import PLUGIN_ERRORS, PLUGINS
from hcsched.heuristics.plugins import LOADED

# a real server in a real browser, and the soak: their bounds are wall times (the first answer within 3 s, a refusal
# at once, Cancel within its bound), and beside the CPU-bound tests each took a third longer (no time was saved)
SERIAL_FILES = ("test_browser", "test_report_browser", "test_soak")


def pytest_collection_modifyitems(items):
    """The tests of a real server in a real browser (the first answer within 3 s, a refusal at once) and the soak
    (Cancel within its bound) are marked ``serial``: the README's test command runs them alone, after the rest
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


@pytest.fixture(autouse=True)
def main_module_restored():
    """Every test leaves ``__main__`` as it found it: a script an AppTest ran (``AppTest.from_function`` writes one)
    can stay there as the process's main module, and a Dask worker started later by ``multiprocessing``'s spawn runs
    the main module again by its path (a local cluster's workers then failed to start: "name '__args' is not
    defined")."""
    before = sys.modules.get("__main__")
    yield
    if before is not None and sys.modules.get("__main__") is not before:
        sys.modules["__main__"] = before


@pytest.fixture
def hcsp_dir() -> Path:
    if not HCSP.is_dir():
        pytest.skip(f"HCSP instances not found at {HCSP} (set HCSCHED_SHARED)")
    return HCSP
