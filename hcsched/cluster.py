"""A Dask cluster as the slots of a :class:`hcsched.pool.RunQueue`: the runs of a server (the dashboard's) computed
chunk by chunk on the worker threads of a running ``dask scheduler``, shared by the same policy as the local pool's
(:class:`hcsched.pool.Pool`): the same line, the same order of the runs, the same pace and forecasts.

One slot is one worker thread of the cluster, as the scheduler reports them now (read again whenever a worker comes
or goes). A chunk sent is one task (``client.submit``, a key unique to its run and chunk); a task that ends frees
its slot, and the slot takes the next chunk by the policy. The chunks are those of the local pool, so the results are
the same, byte for byte.

What differs from the local pool:

- Cancel cancels the run's tasks on the scheduler (``client.cancel``), after which no key of the run is left there. A
  chunk already running on a worker cannot be interrupted by Dask: it runs to its end (a chunk is about a second of
  work) and its result is dropped; its slot takes another chunk at once, which waits on that worker meanwhile.
- Progress counts whole chunks: a Dask worker cannot report the progress within a chunk, so the units of progress
  of a chunk (:func:`hcsched.pool.tick`) are counted there and reported all at once as it ends (:func:`counted`).
- A lost worker: Dask computes its chunks again on another worker; the run goes on and says so
  (:meth:`~hcsched.pool.RunQueue.notes`). The scheduler lost: every run fails in one line, and the pool is broken
  (``broken``), so that its owner connects again for the next run.
- Each worker compiles the models' numba kernels once, when it joins, before its first chunk (:class:`WarmUp`).
"""

from __future__ import annotations

import queue
import threading
import time
from collections import OrderedDict
from typing import Any

from distributed import Client, Future, WorkerPlugin

from hcsched.errors import HcschedError
from hcsched.models import warm_up
from hcsched.pool import RunQueue, Slot, ticking

CONNECT_SECONDS = 10  # the scheduler must answer within this long
WATCH_SECONDS = 0.5  # how often the pool checks that the scheduler is there
RECOUNT_SECONDS = 10.0  # the workers are counted when one comes or goes, and at least this often
LOST_TOKENS_KEPT = 10_000  # the runs told of a lost worker, remembered (their tokens)
KEY_PREFIX = "hcsched"  # a chunk's key: hcsched-<run's token>-<chunk's index>
LOST_WORKER = ("a worker of the Dask cluster was lost while it computed this run's chunks; Dask computes them again "
               "on another worker, and the run goes on")


class WarmUp(WorkerPlugin):
    """Compiles the numba kernels of ``models`` (every model's by default: :func:`hcsched.models.warm_up`, as
    ``hcsched warm-up`` does) once per worker, when it joins the cluster and before it takes a task, so that its first
    chunk does not compile. It blocks the worker while it runs (seconds when numba's disk cache has the kernels, about
    a minute of one core when it has not): a chunk started beside it would compile too, and a chunk's imports beside
    the warm-up's compilation could wait for each other for ever (the import lock and numba's compiler lock)."""

    name = "hcsched-warm-up"

    def __init__(self, models: list[str] | None = None) -> None:
        self.models = models

    def setup(self, worker: Any) -> None:
        warm_up(self.models)


class _Thread(Slot):
    """A worker thread of the cluster, and the task of the chunk it computes (if any)."""

    def __init__(self) -> None:
        super().__init__(ready=True)
        self.future: Future | None = None


def chunk_key(token: str, index: int) -> str:
    """The task key of chunk ``index`` of the run named ``token``."""
    return f"{KEY_PREFIX}-{token}-{index}"


def counted(fn: Any, *args: Any) -> tuple[int, Any]:
    """``fn(*args)`` on a Dask worker, with the units of progress it reported (:func:`hcsched.pool.tick`)."""
    ticks = [0]

    def one() -> None:
        ticks[0] += 1

    with ticking(one):
        result = fn(*args)
    return ticks[0], result


def _tokens(message: dict) -> set[str]:
    """The runs (their tokens) whose chunks a removed worker was computing or held computed: Dask computes those
    again elsewhere."""
    keys = [*(message.get("processing-tasks") or ()), *(message.get("lost-computed-tasks") or ())]
    return {str(k).split("-")[1] for k in keys if str(k).startswith(f"{KEY_PREFIX}-")}


def _keys_of(dask_scheduler: Any, prefix: str) -> list[str]:
    return [str(k) for k in dask_scheduler.tasks if str(k).startswith(prefix)]


class ClusterPool(RunQueue):
    """The runs of this process computed on the Dask cluster whose scheduler is at ``address`` (``tcp://host:8786``),
    up to ``max_runs`` at a time (more wait in line), on its worker threads as slots. An unreachable scheduler: an
    :class:`HcschedError` in one line naming the address."""

    def __init__(self, address: str, max_runs: int | None = None, models: list[str] | None = None) -> None:
        super().__init__(0, max_runs)
        self.address = address
        self.what = f"the Dask cluster at {address}"
        try:
            self.client = Client(address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise HcschedError(f"the Dask scheduler at {address} cannot be reached: {reason}") from None
        self._events: queue.SimpleQueue = queue.SimpleQueue()  # the scheduler's events, for the watching thread
        self._changed = threading.Event()  # a worker came or went
        self._ready = threading.Event()  # the warm-up is registered and the slots read
        # the runs that had a chunk on a worker since removed (their tokens, oldest first; the values are unused)
        self._lost_tokens: OrderedDict[str, None] = OrderedDict()
        self.client.subscribe_topic("all", self._on_event)
        threading.Thread(target=self._watch, args=(models,), daemon=True, name="hcsched-cluster").start()

    # --- what a caller sees -----------------------------------------------------------------------------------
    def wait_ready(self, timeout: float = 60.0) -> bool:
        """Block until the workers there are warmed up and counted, and there is at least one (for tests)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self._ready.is_set() and self.size > 0:
                return True
            time.sleep(0.05)
        return False

    def keys(self, token: str | None = None) -> list[str]:
        """The keys of this pool's tasks on the scheduler now (of the run named ``token``, else every run's)."""
        prefix = f"{KEY_PREFIX}-{token}-" if token else f"{KEY_PREFIX}-"
        return self.client.run_on_scheduler(_keys_of, prefix=prefix)

    # --- the hooks ----------------------------------------------------------------------------------------------
    def _send(self, slot: _Thread, fn: Any, args: tuple) -> None:
        if self.client.status != "running":
            raise HcschedError(f"the Dask scheduler at {self.address} was lost")
        future = self.client.submit(counted, fn, *args, pure=False, key=chunk_key(slot.run.token, slot.index))
        slot.future = future
        future.add_done_callback(lambda f: self._on_done(slot, f))

    def _abandon(self, slots: list[Slot]) -> None:
        futures = []
        for slot in slots:
            futures.append(slot.future)
            slot.run.busy.discard(slot)
            slot.run, slot.future = None, None
            if len(self._slots) > self.size:
                self._slots.remove(slot)
        try:
            self.client.cancel([f for f in futures if f is not None])
        except Exception:  # the scheduler is gone: nothing is left to cancel there
            pass

    def _stop(self) -> None:
        self.client.close(timeout=CONNECT_SECONDS)

    # --- what the cluster says ----------------------------------------------------------------------------------
    def _on_done(self, slot: _Thread, future: Future) -> None:
        """A chunk's task ended (in Dask's callback thread): its units of progress, then its result or error, to its
        run."""
        if slot.future is not future:  # abandoned
            return
        ticks = 0
        if future.status == "finished":
            try:
                ticks, payload = future.result()
                kind = "done"
            except Exception as exc:  # its result could not be fetched (the scheduler lost meanwhile)
                kind, payload = "error", self._failure(exc)
        elif future.status == "error":
            kind, payload = "error", future.exception()
        else:  # cancelled, not by this pool
            kind, payload = "error", self._failure(None)
        with self._lock:
            if slot.future is not future:
                return
            slot.future = None
            if len(self._slots) > self.size:  # the cluster has fewer threads now
                self._slots.remove(slot)
            if slot.run is not None and slot.run.token in self._lost_tokens:
                self._note(slot.run, LOST_WORKER)  # its chunk was computed again (the event may come after the run)
            for _ in range(ticks):
                slot.run.events.put(("tick", slot.index, None))
            self._finished(slot, kind, payload)

    def _failure(self, exc: Exception | None) -> HcschedError:
        """The one line of a chunk lost with the scheduler (the pool is broken then), or cancelled on the cluster by
        someone else."""
        if self.client.status != "running":
            self.broken = f"the Dask scheduler at {self.address} was lost"
            return HcschedError(f"{self.broken}; this run's results are lost")
        why = f": {exc}" if exc is not None else ""
        return HcschedError(f"a chunk of this run was cancelled on the Dask cluster at {self.address}{why}")

    def _on_event(self, event: tuple) -> None:
        """The scheduler's events (in the client's event loop: nothing here waits): workers that come and go."""
        message = event[1] if isinstance(event, tuple) and len(event) == 2 else event
        if isinstance(message, dict) and message.get("action") in ("add-worker", "remove-worker"):
            if message.get("action") == "remove-worker":
                self._lost_tokens.update(dict.fromkeys(_tokens(message)))
                while len(self._lost_tokens) > LOST_TOKENS_KEPT:
                    self._lost_tokens.popitem(last=False)  # the oldest forgotten first
            self._events.put(message)
            self._changed.set()

    def _watch(self, models: list[str] | None) -> None:
        """The pool's own thread: the warm-up registered once, then the slots kept as many as the cluster's worker
        threads, a lost worker said to the runs whose chunks it computed, and the scheduler's loss noticed."""
        try:
            self.client.register_plugin(WarmUp(models))
        except Exception:  # the workers compile on their first chunk instead; a lost scheduler is noticed below
            pass
        read = -float("inf")  # when the workers were last counted
        while not self._closed:
            if self.client.status != "running":
                self._scheduler_lost()
                return
            if self._changed.is_set() or time.monotonic() - read >= RECOUNT_SECONDS:
                self._changed.clear()
                try:
                    info = self.client.scheduler_info(n_workers=-1)
                except Exception:  # the status, read again, says whether the scheduler is lost
                    self._changed.wait(WATCH_SECONDS)
                    continue
                read = time.monotonic()
                with self._lock:
                    self._said_lost()
                    self._resize(sum(w["nthreads"] for w in info["workers"].values()))
                self._ready.set()
            self._changed.wait(WATCH_SECONDS)

    def _said_lost(self) -> None:
        """Each run whose chunk was computing on a worker removed says so (under the lock)."""
        while not self._events.empty():
            message = self._events.get()
            if message.get("action") != "remove-worker":
                continue
            tokens = _tokens(message)
            for run in self._runs:
                if run.token in tokens:
                    self._note(run, LOST_WORKER)

    def _resize(self, threads: int) -> None:
        """As many slots as the cluster has worker threads: new ones free, surplus free ones removed (busy ones once
        their chunk ends); then the free slots take chunks (under the lock)."""
        self.size = threads
        while len(self._slots) < threads:
            self._slots.append(_Thread())
        for slot in [s for s in self._slots if s.run is None][: max(0, len(self._slots) - threads)]:
            self._slots.remove(slot)
        self._dispatch()

    def _scheduler_lost(self) -> None:
        with self._lock:
            if self._closed:
                return
            self.broken = f"the Dask scheduler at {self.address} was lost"
            self._fail_all(HcschedError(f"{self.broken}; this run's results are lost"))
        try:
            self.client.close(timeout=1)
        except Exception:
            pass
