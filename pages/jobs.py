"""Work in the server's background threads: a run, sweep or rerun as a Job that survives clicks and page changes,
with its progress and Cancel; and each model's kernels compiled once per server (Warming).

Nothing here reads a session's state: the pages keep their jobs in it (``pages.session.Keys.JOB``, the Sweep and
Papers pages' own keys).
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

import streamlit as st

from hcsched import Scenario
from hcsched.experiment import progress_text
from hcsched.models import DEFAULT_MODEL, get_model, model_names, warm_up


class Cancelled(Exception):
    """Raised from the progress callback to stop a run."""


@dataclass
class Job:
    """A run, sweep or rerun in the background, where it survives clicks and page changes: its future, its progress
    (trials done, fractional while a trial's heuristics finish one by one) and a Cancel the progress callback obeys."""

    scenario: Scenario | None  # what it runs, for the notices it leaves
    total: int  # trials the progress counts
    future: Future | None = None
    done: float = 0.0
    started: float = field(default_factory=time.monotonic)
    cancel: threading.Event = field(default_factory=threading.Event)

    def progress(self, done: float, total: int) -> None:
        """The ``progress(done, total)`` callback of simulate, sweep and reproduce: raises Cancelled once asked to."""
        self.done, self.total = done, total
        if self.cancel.is_set():
            raise Cancelled

    def submit(self, fn, *args) -> Job:
        """Start ``fn(*args, self.progress)`` (the progress callback last) in the server's background threads."""
        self.future = _executor().submit(fn, *args, self.progress)
        return self

    def show(self, word: str, key: str, what: str = "") -> None:
        """The progress bar ("3.5 of 50 replications done, about 40 s left", after ``what``) and its Cancel button."""
        text = progress_text(self.done, self.total, word, time.monotonic() - self.started)
        st.progress(min(1.0, self.done / max(1, self.total)), text=f"{what}{text}")
        st.button("Cancel", key=key, on_click=self.cancel.set)


@st.cache_resource
def _executor() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="hcsched-run")


class Warming:
    """Each model's kernels compiled (or loaded from numba's disk cache) once per server, in one background thread,
    when first needed: the default model's at start-up, another's as soon as a session's scenario is of it. A run
    waits only for its own model's (its workers are forked once they are compiled, so none compiles while holding
    numba's lock). Compiling all five models at start-up took over a minute of one core on a first launch, and slowed
    the first runs."""

    def __init__(self) -> None:
        self.ready = {m: threading.Event() for m in model_names()}
        self.requested: list[str] = []  # in the order they were asked for
        self.started: dict[str, float] = {}  # when each model's compilation began (time.monotonic)
        self._lock = threading.Lock()
        self._todo: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._work, daemon=True, name="hcsched-warm")
        self.thread.start()

    def request(self, model: str) -> None:
        """Compile ``model``'s kernels in the background, unless already asked for."""
        with self._lock:
            if model in self.requested:
                return
            self.requested.append(model)
        self._todo.put(model)

    def wait(self, model: str) -> None:
        """Block until ``model``'s kernels are compiled."""
        self.request(model)
        self.ready[model].wait()

    def seconds_left(self, model: str) -> float:
        """About how long until ``model``'s kernels are ready: the models asked for before it and not ready yet are
        compiled first, each taking about its :attr:`~hcsched.models.base.Model.compile_seconds` (at least 1 s more
        while it runs late). Loading kernels already in numba's cache takes under a second, so this is the worst case."""
        now, left = time.monotonic(), 0.0
        with self._lock:
            ahead = self.requested[: self.requested.index(model) + 1] if model in self.requested else [model]
        for m in ahead:
            if not self.ready[m].is_set():
                estimate = get_model(m).compile_seconds
                left += max(1.0, estimate - (now - self.started[m])) if m in self.started else estimate
        return left

    def _work(self) -> None:
        while True:
            model = self._todo.get()
            self.started[model] = time.monotonic()
            try:
                warm_up([model])
            except Exception:  # a failure shows when the run itself compiles; keep serving the other models
                pass
            finally:
                self.ready[model].set()


@st.cache_resource
def warm_kernels() -> Warming:
    """The server's Warming, started with the default model's kernels, so that the first Run is fast."""
    warming = Warming()
    warming.request(DEFAULT_MODEL)
    return warming
