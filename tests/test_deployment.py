"""The deployment page's commands (docs/deployment.md), run as the page writes them: a ``dask scheduler``, two ``dask
worker`` processes and ``streamlit run app.py`` pointed at that scheduler, on this machine (HOST 127.0.0.1, a free
port for 8786, one core each). The dashboard answers its health check, and a Run of its landing page, driven through
the page's own script (AppTest) with the page's setting, is computed on that cluster (the scheduler saw its
``hcsched-`` tasks) and gives the local rows. Every process is killed with its process group at the end."""

import os
import re
import shlex
import shutil
import sys
import time
import tomllib
import urllib.request

import pytest
from dask_cluster import ROOT, Started, free_port
from helpers import app, wait_for_results

from hcsched import preset, simulate

pytest.importorskip("distributed")

from distributed import Client  # noqa: E402  (after the skip)

from hcsched import cluster  # noqa: E402  (it imports distributed)
from hcsched.cluster import KEY_PREFIX, ClusterPool  # noqa: E402

PAGE = ROOT / "docs" / "deployment.md"
HEALTH_SECONDS = 60  # the dashboard answers its health check within this long


def page_block(name: str) -> str:
    """The fenced block after ``<!-- deploy:NAME -->`` in the page (a comment MkDocs does not show)."""
    found = re.search(rf"<!-- deploy:{name} -->\n```\w*\n(.*?)```", PAGE.read_text(), re.S)
    assert found, f"docs/deployment.md has no block marked deploy:{name}"
    return found.group(1).strip()


def here(text: str, port: int) -> str:
    """The page's words for the reader's machines made this machine's: HOST its own address, the scheduler's port a
    free one, N (a machine's cores) 1."""
    return re.sub(r"\bN\b", "1", text.replace("HOST", "127.0.0.1").replace("8786", str(port)))


def command(name: str, port: int) -> tuple[dict[str, str], list[str]]:
    """The page's command ``name``: the variables it sets first, and its words, the program found beside this
    Python (the virtual environment's) or else on the PATH."""
    words = shlex.split(here(page_block(name), port))
    settings = {}
    while re.fullmatch(r"[A-Z_]+=.*", words[0]):
        key, value = words.pop(0).split("=", 1)
        settings[key] = value
    words[0] = shutil.which(words[0], path=os.path.dirname(sys.executable)) or shutil.which(words[0]) or words[0]
    return settings, words


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
            return answer.read() == b"ok"
    except OSError:
        return False


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """The page's scheduler, two workers and dashboard, started as written: (the scheduler's address, the dashboard's
    settings)."""
    port, web = free_port(), free_port()
    started = Started(tmp_path_factory.mktemp("deploy") / "processes.log")
    try:
        for name in ("scheduler", "worker", "worker"):
            settings, argv = command(name, port)
            started.start(argv, settings)
        settings, dashboard = command("dashboard", port)
        started.start([*dashboard, "--server.headless", "true", "--server.port", str(web)], settings)
        end = time.monotonic() + HEALTH_SECONDS
        while not healthy(web) and time.monotonic() < end:
            time.sleep(0.5)
        assert healthy(web), f"the dashboard did not answer /_stcore/health within {HEALTH_SECONDS} s"
        yield f"tcp://127.0.0.1:{port}", settings
    finally:
        started.stop()


def test_the_pages_commands_start_a_dashboard_whose_run_goes_to_the_cluster(deployed, monkeypatch):
    """The dashboard the page starts answers its health check (the fixture); Run on its landing page, with the page's
    setting in this process's environment, sends quickstart's chunks to the page's scheduler (its task stream holds
    only ``hcsched-`` keys, one per chunk) and gives the rows of a local run."""
    import streamlit as st

    from pages import jobs

    address, settings = deployed
    assert settings == {jobs.SCHEDULER_SETTING: address}
    for key, value in settings.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(jobs, "_server", {"jobs": []})  # this process's server: a pool of the page's setting
    monkeypatch.setattr(jobs, "WATCH_SECONDS", 0.0)  # AppTest runs a page to its end: it must not follow the run
    monkeypatch.setattr(cluster, "ClusterPool", lambda address, runs: ClusterPool(address, runs, models=["etc"]))
    # (the workers warm up quickstart's model only: all five models' kernels took over a minute at load 10)
    st.cache_data.clear()
    jobs.KNOWN_ROWS.clear()
    with Client(address, timeout="20s") as client:
        client.get_task_stream()  # the scheduler records the tasks it runs from now on
        at = app()
        pool = jobs.server_pool()
        try:
            assert isinstance(pool, ClusterPool) and pool.address == address
            end = time.monotonic() + 90
            while pool.size < 2 and time.monotonic() < end:
                time.sleep(0.1)
            assert pool.size == 2  # the two workers, one thread each
            at.button(key="landing_run").click().run()
            wait_for_results(at)
            rows = at.session_state["results"].results
            tasks = client.get_task_stream()
        finally:
            pool.close()
    assert rows.equals(simulate(preset("quickstart"), jobs=1))
    keys = [str(t["key"]) for t in tasks]
    assert keys and all(k.startswith(f"{KEY_PREFIX}-") for k in keys), keys


def test_the_pages_secrets_file_names_the_scheduler_as_its_command_does():
    """The page's ``.streamlit/secrets.toml`` sets what its dashboard command sets (tests/test_cluster.py runs the
    dashboard's job on the cluster that such a file names)."""
    port = free_port()
    assert tomllib.loads(here(page_block("secrets"), port)) == command("dashboard", port)[0]
