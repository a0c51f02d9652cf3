"""What several test files share: the repository's paths, the worked examples' matrices, reading Plotly figures drawn
by AppTest, Debian's chromium for the browser tests, and opening a dashboard page. Imported as ``helpers`` (pyproject's
``[tool.pytest.ini_options] pythonpath`` puts tests/ on the path); fixtures stay in the conftest.py files."""

from __future__ import annotations

import base64
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
HCSP = Path(os.environ.get("HCSCHED_SHARED", ROOT.parent / "shared")) / "data" / "hcsp"

# Seed 000, Tables 1 and 2 (immediate mode) and Table 3 (batch mode).
TABLE2_ETC = np.array([[50, 20, 15], [20, 60, 15], [20, 50, 15]], dtype=float)
TABLE1_READY = np.array([75, 110, 200], dtype=float)
TABLE3_ETC = np.array([[40, 48, 134, 50], [50, 82, 88, 89], [55, 68, 94, 93], [52, 60, 78, 108]], dtype=float)

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def require_browser() -> None:
    """Skip unless playwright and Debian's chromium are there; fail instead when HCSCHED_REQUIRE_BROWSER=1 (CI)."""
    missing = []
    try:
        import playwright.sync_api  # noqa: F401  (only whether it is installed)
    except ImportError:
        missing.append("the playwright package")
    if not os.path.exists(CHROMIUM):
        missing.append("Debian's chromium")
    if missing:
        message = "needs " + " and ".join(missing)
        if os.environ.get("HCSCHED_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)


def counting_runs(monkeypatch, model: str) -> list[str]:
    """The labels of the heuristic runs of ``model`` made in this process from now on."""
    from hcsched import get_model

    m, ran = get_model(model), []
    original = m.run

    def counted(spec, h, workload):
        ran.append(h.label)
        return original(spec, h, workload)

    monkeypatch.setattr(m, "run", counted)
    return ran


def app(path: str = "app.py", timeout: float = 60, **state):
    """A dashboard page (the landing page by default) run once with AppTest, with ``state`` in its session first; it
    must raise nothing."""
    from streamlit.testing.v1 import AppTest  # here: the library's tests import this module without the dashboard

    at = AppTest.from_file(str(ROOT / path), default_timeout=timeout)
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def wait_for_results(at, timeout=60):
    """Runs happen in the background; the progress fragment collects them on a rerun: the results, once there."""
    import time

    end = time.monotonic() + timeout
    while "results" not in at.session_state and time.monotonic() < end:
        time.sleep(0.1)
        at.run()
    assert not at.exception, at.exception
    assert "results" in at.session_state, [e.value for e in at.error]
    return at.session_state["results"]


def plotly_charts(at) -> list[dict]:
    """The Plotly figures an AppTest page drew, as dicts."""
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def plotly_array(v) -> np.ndarray:
    """A figure's numbers, whether plotly wrote them as a list or as base64 binary (``bdata``)."""
    if isinstance(v, dict):
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
        return a.reshape([int(x) for x in str(v["shape"]).split(",")]) if "shape" in v else a
    return np.asarray(v, float)


def panel_titles(fig: dict) -> list[str]:
    """The metric titles of a figure's panels (each panel's title without its "lower is better" line)."""
    return [a["text"].split("<br>")[0] for a in fig["layout"]["annotations"]
            if a.get("xref") == "paper" and ("<br>" in a["text"] or "better" not in a["text"])]  # not a line's label


def bar_values(trace: dict) -> tuple[list, np.ndarray]:
    """A bar trace's categories and values, whichever way its bars lie."""
    if trace.get("orientation") == "h":
        return list(trace["y"]), plotly_array(trace["x"])
    return list(trace["x"]), plotly_array(trace["y"])


def marker_colors(trace) -> set[str]:
    """The colours of a bar trace's markers."""
    c = trace["marker"]["color"]
    return {c} if isinstance(c, str) else set(c)


def run_result(scenario, results=None, jobs: int = 1):
    """What a finished run leaves in the session (``pages.runs.RunResult``): ``results``, or the scenario simulated."""
    from hcsched import simulate
    from pages.runs import RunResult  # here: the library's tests import this module without the dashboard

    return RunResult(scenario, simulate(scenario, jobs=jobs) if results is None else results, 0.1)


def open_results(scenario, results=None, jobs: int = 1, timeout: float = 60):
    """The Results page showing a finished run of ``scenario`` (``results``, or the scenario simulated)."""
    return app("pages/results.py", timeout, scenario=scenario, results=run_result(scenario, results, jobs))


def in_a_fresh_process(test):
    """Run ``test`` in a pytest process of its own: a single-threaded one, where ``simulate`` forks its workers (the
    command line's way) and they inherit the test's patches, whatever threads earlier tests left in this process
    (where it would use a pool of fresh interpreters instead)."""
    import functools
    import inspect
    import subprocess
    import sys

    @functools.wraps(test)
    def wrapper(*args, **kwargs):
        if os.environ.get("HCSCHED_FRESH_PROCESS") == "1":
            import threading

            assert threading.active_count() == 1  # the way under test forks
            return test(*args, **kwargs)
        node = f"{inspect.getfile(test)}::{test.__name__}"
        out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", node], cwd=ROOT,
                             env={**os.environ, "HCSCHED_FRESH_PROCESS": "1"}, capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0 and "1 passed" in out.stdout, out.stdout[-4000:] + out.stderr[-2000:]

    return wrapper
