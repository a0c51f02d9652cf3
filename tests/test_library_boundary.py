import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_library_never_imports_streamlit():
    code = "import sys, hcsched, hcsched.cli, hcsched.experiment; print('streamlit' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"
    for path in (ROOT / "hcsched").rglob("*.py"):
        assert not re.search(r"^\s*(import|from)\s+streamlit", path.read_text(), re.M), path


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"```bash\n(.*?)\n```", readme.split("Run the tests", 1)[1], re.S).group(1).strip()
    assert command in (ROOT / ".ci" / "run").read_text()
    # and its status fails CI: `set -e` ignores a failure before the last `&&` of a list (a first pytest that failed
    # let CI pass, the serial tests never run)
    assert f"if ! {{ {command}; }}; then" in (ROOT / ".ci" / "run").read_text()



def test_ruff_is_clean():
    import shutil

    import pytest

    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed")
    result = subprocess.run([ruff, "check", str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_uploads_are_limited_to_20_mb():
    """Uploads over 20 MB are refused by the uploader (Streamlit's server.maxUploadSize), with its message."""
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] == 20


def test_the_dashboard_compiles_the_default_models_kernels_first_and_others_when_needed():
    """Kernels compile in the background at start-up, the default model's first; another model's
    when a scenario of it is loaded, and a run waits only for its own."""
    sys.path.insert(0, str(ROOT))
    from hcsched.models import DEFAULT_MODEL
    from pages.jobs import warm_kernels

    warming = warm_kernels()
    assert warming.requested[0] == DEFAULT_MODEL
    warming.wait(DEFAULT_MODEL)
    assert warming.ready[DEFAULT_MODEL].is_set()
    warming.request("classes")
    warming.request("classes")  # asked for once
    assert warming.requested.count("classes") == 1
    warming.wait("classes")
    assert warming.ready["classes"].is_set() and warming.thread.is_alive()


def test_a_run_waiting_for_kernels_is_told_about_how_long_it_will_take(monkeypatch):
    """In the first minute, while kernels compile, the wait is the compile estimates of the models ahead in
    the queue and of the run's own, less what has already run; it shrinks as compilation proceeds."""
    import threading

    import pages.jobs as jobs
    from hcsched.models import get_model

    release = {m: threading.Event() for m in ("etc", "value")}
    monkeypatch.setattr(jobs, "warm_up", lambda names: release[names[0]].wait(10))
    warming = jobs.Warming()
    warming.request("etc")
    warming.request("value")
    etc, value = get_model("etc").compile_seconds, get_model("value").compile_seconds
    time.sleep(0.2)  # etc's compilation has begun, value's waits behind it
    assert etc + value - 1.0 < warming.seconds_left("value") <= etc + value
    assert warming.seconds_left("etc") <= etc
    assert warming.seconds_left("classes") == get_model("classes").compile_seconds
    release["etc"].set()
    warming.ready["etc"].wait(5)
    time.sleep(0.2)
    assert warming.seconds_left("etc") == 0.0 and value - 1.0 < warming.seconds_left("value") <= value
    release["value"].set()
    warming.ready["value"].wait(5)
    assert warming.seconds_left("value") == 0.0
