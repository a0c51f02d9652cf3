"""A real Dask cluster on localhost for tests and benches: a ``dask scheduler`` and ``dask worker`` processes, started
with the commands of Dask's own package as a user starts them, and killed with their process groups."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

from hcsched.pool import WORKER_NICE

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A real ``dask scheduler`` and ``dask worker`` processes (one thread each) on localhost, as a user starts
    them, with this checkout (and ``importable``) importable."""

    def __init__(self, log: Path, importable: list[str] = ()) -> None:
        self.dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
        self.address = f"tcp://127.0.0.1:{free_port()}"
        path = os.pathsep.join(p for p in (str(ROOT), *importable, os.environ.get("PYTHONPATH")) if p)
        self.env = {**os.environ, "PYTHONPATH": path, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
        self.log = log.open("w")
        self.scheduler = subprocess.Popen([self.dask, "scheduler", "--host", "127.0.0.1", "--port",
                                           self.address.rsplit(":", 1)[1], "--no-dashboard"],
                                          stdout=self.log, stderr=self.log, env=self.env, start_new_session=True)
        self.workers: list[subprocess.Popen] = []

    def add_worker(self) -> subprocess.Popen:
        """A ``dask worker`` of one process and one thread, at the priority the dashboard's own pool gives its workers
        (``nice -n 10``, as docs/deployment.md says to start workers on the dashboard's machine): here they stand in
        for other machines' cores, which would not take the server's and the browser's time."""
        worker = subprocess.Popen(["nice", "-n", str(WORKER_NICE), self.dask, "worker", self.address, "--nworkers",
                                   "1", "--nthreads", "1", "--no-dashboard"], stdout=self.log, stderr=self.log,
                                  env=self.env, start_new_session=True)  # its own group: killed with its nanny's child
        self.workers.append(worker)
        return worker

    def kill(self, process: subprocess.Popen) -> None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait(20)

    def stop(self) -> None:
        for p in [*self.workers, self.scheduler]:
            self.kill(p)
        self.log.close()


class Started(Cluster):
    """Processes started from command lines as a page writes them (a scheduler, workers, a dashboard), each in a
    process group of its own, their output in ``log``; :meth:`stop` kills every group, the last started first."""

    def __init__(self, log: Path) -> None:  # no scheduler of its own: the commands start one
        self.log = log.open("w")
        self.processes: list[subprocess.Popen] = []

    def start(self, argv: list[str], env: dict[str, str]) -> subprocess.Popen:
        """``argv`` started in the checkout's folder with ``env`` added to this process's environment and the
        checkout importable (as its own ``pip install -e .`` would make it)."""
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": path, **env}
        process = subprocess.Popen(argv, stdout=self.log, stderr=self.log, env=env, cwd=ROOT, start_new_session=True)
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for p in reversed(self.processes):
            self.kill(p)
        self.log.close()
