from pathlib import Path

import pytest
from helpers import HCSP

from hcsched.heuristics import PLUGIN_ERRORS, PLUGINS
from hcsched.heuristics.plugins import LOADED


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
