"""A real dashboard server for the browser test, the soak test and ``bench/dashboard_runs.py``: ``streamlit run`` on a
free port until a block ends, and what the page's websocket says of its script runs."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(proc: subprocess.Popen) -> None:
    """Terminate ``proc`` (SIGTERM, then SIGKILL after 10 s) and reap it."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def streamlit_server(log: IO[str], script: Path = ROOT / "app.py",
                     env: Mapping[str, str] | None = None) -> Iterator[tuple[str, subprocess.Popen]]:
    """``streamlit run script`` on a free port, its output to ``log`` (a file, not a pipe: a full pipe would stall the
    server), until the block ends: yields its address and process once it answers. Files edited meanwhile are not
    reloaded (a reload mid-run makes the run's functions unpicklable for its worker processes). ``env``: variables
    set for the server (and so its worker processes) over this process's, e.g. a PYTHONPATH with a package on it."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true",
                             "--server.address", "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats",
                             "false", "--server.fileWatcherType", "none"], cwd=ROOT, stdout=log,
                            stderr=subprocess.STDOUT,
                            env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("streamlit did not start")
        yield url, proc
    finally:
        stop(proc)


class ScriptRuns:
    """What the server says of the page's script runs, read off the websocket: whether a run (whole or a fragment's) is
    going on, and how many whole runs have finished. The page's elements can say neither reliably: in the middle of a
    run, part of the page is already new and the rest not yet (the Run button enabled, the notice not yet drawn)."""

    def __init__(self, page) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.message, self.finished, self.running = ForwardMsg, 0, False
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        if isinstance(payload, str):
            return
        msg = self.message()
        try:
            msg.ParseFromString(payload)
        except Exception:
            return
        kind = msg.WhichOneof("type")
        if kind == "session_status_changed":
            self.running = msg.session_status_changed.script_is_running
        elif kind == "new_session":
            self.running = True
        elif kind == "script_finished" and msg.script_finished == self.message.FINISHED_SUCCESSFULLY:
            self.finished += 1


def step(page, runs, action, timeout: float = 120) -> None:
    """``action()`` (a click, a key press), then wait until the script runs it starts have finished (a background
    run's page keeps its script running until the run ends): a click on a page still being drawn can be lost."""
    before, end = runs.finished, time.monotonic() + timeout
    action()
    while runs.finished == before or runs.running:
        assert time.monotonic() < end, f"the page's script did not finish within {timeout:.0f} s"
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)
