"""The one runner of chunks of work for :func:`hcsched.simulate`, :func:`hcsched.sweep` and
:func:`hcsched.reproduce`: the pool of worker processes in effect for the calling thread (the dashboard's,
:func:`using`), forked local processes in a single-threaded process (the command line), a pool of fresh interpreters
kept by a process with threads (a notebook), or a Dask cluster; each chunk's result handed back to the calling
thread as it finishes."""

from __future__ import annotations

import atexit
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from hcsched.errors import HcschedError
from hcsched.heuristics.plugins import LOADED, ensure_plugins
from hcsched.models import warm_up
from hcsched.pool import POLL_SECONDS, Pool, set_tick, threads_alive, ticking

BACKENDS = ("local", "dask")
_here = threading.local()  # the pool in effect for this thread (see using)


@contextmanager
def using(pool: Pool, on_wait: Callable[[int], None] | None = None, owner: Any = None) -> Iterator[Pool]:
    """Run every local chunk of work of this thread in ``pool`` while the block runs, even a single chunk (so that a
    cancel kills it at once), ``on_wait(place)`` told the run's place in the pool's line (0 once it runs), the runs
    owned by ``owner`` (:meth:`hcsched.pool.Pool.time_left`)."""
    before = getattr(_here, "pool", None)
    _here.pool = (pool, on_wait, owner)
    try:
        yield pool
    finally:
        _here.pool = before


_shared: list[Pool] = []
_shared_lock = threading.Lock()


def shared_pool() -> Pool:
    """This process's own pool, started on first use (a process with threads that runs work in no pool of its own,
    e.g. a notebook), sized to the cores, kept for later runs and closed at exit."""
    with _shared_lock:
        if not _shared or _shared[0].broken:
            _shared[:] = [Pool(default_jobs())]
            atexit.register(_shared[0].close)
        return _shared[0]


def current_pool() -> Pool | None:
    """The pool in effect for this thread (:func:`using`), if any."""
    entry = getattr(_here, "pool", None)
    return entry[0] if entry else None


def fork_context():
    """multiprocessing's fork context, only in a process with a single thread: a child forked while another thread
    holds a lock (an import, logging, ``cached_property``, numba's compiler) would wait for it for ever."""
    alive = threads_alive()
    if alive > 1:
        raise RuntimeError(f"refusing to fork worker processes: {alive} threads are alive in this process, and a "
                           "child could inherit a lock one of them holds; use a Pool (hcsched.pool) instead")
    return multiprocessing.get_context("fork")


def check_backend(backend: str) -> str:
    if backend not in BACKENDS:
        raise HcschedError(f"--backend: {backend!r} is not allowed; allowed: one of {', '.join(BACKENDS)}")
    return backend


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class RunOptions:
    """Where a run's chunks of work go, as :func:`hcsched.sweep.sweep` and :func:`hcsched.reproduce.reproduce` take it
    (``options=``, or the same three as keywords) and pass it down to :func:`run_chunks`: ``jobs`` worker processes,
    or local Dask workers (None: all cores); ``backend`` "local" or "dask"; ``scheduler``, the address of a running
    Dask scheduler (only with "dask"). Checked when made."""

    jobs: int | None = None
    backend: str = "local"
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.jobs is not None and (isinstance(self.jobs, bool) or not isinstance(self.jobs, int) or self.jobs < 1):
            raise HcschedError(f"jobs: {self.jobs!r} is not allowed; allowed: a whole "
                               "number >= 1, or None for every core")
        check_backend(self.backend)
        if self.scheduler is not None and self.backend != "dask":
            raise HcschedError("--scheduler: only with --backend dask")

    def workers(self) -> int:
        """How many chunks run at once: ``jobs``, else every core."""
        return self.jobs or default_jobs()


LOCAL = RunOptions()  # every core of this machine


def run_options(options: RunOptions | None = None, jobs: int | None = None, backend: str = "local",
                scheduler: str | None = None) -> RunOptions:
    """``options``, or the :class:`RunOptions` of the keywords a public function documents (``jobs``, ``backend``,
    ``scheduler``); both at once is an error."""
    if options is None:
        return RunOptions(jobs, backend, scheduler)
    if (jobs, backend, scheduler) != (None, "local", None):
        raise HcschedError("options: give either options=RunOptions(...) or jobs, backend and scheduler, not both")
    return options


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: kill its workers (running work is not waited for) and reap them (no zombie is left)."""
    processes = list((pool._processes or {}).values())  # no public way before Python 3.14's kill_workers()
    for p in processes:
        p.kill()  # not SIGTERM: a worker forked from a server may have inherited the server's SIGTERM handler
    pool.shutdown(wait=True, cancel_futures=True)
    for p in processes:
        p.join()


def _report_ticks_to(ticks) -> None:
    set_tick(lambda: ticks.put(None))


def in_processes(work: Callable, items: list, jobs: int, collect: Callable[[int, object], None],
                 poll: Callable[[], None] | None = None, tick: Callable[[], None] | None = None) -> None:
    """``work(item)`` for every item in ``jobs`` forked worker processes; ``collect(index, result)`` in the calling
    thread as each finishes (in any order), ``tick()`` for each :func:`hcsched.pool.tick` of a worker and ``poll()``
    every ``POLL_SECONDS`` meanwhile. Whatever is raised (by a worker, ``collect`` or ``poll``, or an interrupt) kills
    the workers at once and propagates unchanged.

    fork: workers inherit the imported modules and compiled kernels, so a run costs no start-up; only in a process
    with a single thread (:func:`fork_context`). Compile the kernels (:func:`hcsched.models.warm_up`) before.
    """
    context = fork_context()
    ticks = context.SimpleQueue()
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_report_ticks_to, initargs=(ticks,))

    def drain() -> None:
        while not ticks.empty():
            ticks.get()
            if tick:
                tick()

    try:
        index = {pool.submit(work, item): i for i, item in enumerate(items)}
        pending = set(index)
        while pending:
            finished, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            drain()  # a chunk's ticks reach the pipe before its result
            for future in sorted(finished, key=index.__getitem__):
                collect(index[future], future.result())
            if poll:
                poll()
    except BaseException:
        _kill_workers(pool)
        raise
    finally:
        ticks.close()
    pool.shutdown(wait=True)


def run_chunks(job: Callable, chunks: list[tuple], collect: Callable[[int, Any], None], models: Iterable[str],
               options: RunOptions = LOCAL, poll: Callable[[], None] | None = None,
               tick: Callable[[], None] | None = None, costs: list[float] | None = None) -> None:
    """``job(*chunk)`` for every chunk, ``collect(index, result)`` in the calling thread as each finishes (in any
    order), ``tick()`` there for each :func:`hcsched.pool.tick` of a chunk (progress inside a chunk).

    Where, as ``options`` (:class:`RunOptions`) say. "local", at most ``jobs`` chunks at once (default all cores): in
    the pool in effect for this thread (:func:`using`), whatever the number of chunks; else one job, or one chunk,
    runs here; else in forked processes when this process has a single thread (the kernels of ``models`` compiled
    before forking), or in this process's :func:`shared_pool` of fresh interpreters when it has more. ``poll()`` is
    called every ``POLL_SECONDS`` meanwhile. "dask": a local cluster of ``jobs`` workers, or the scheduler at
    ``scheduler``. What
    ``collect``, ``tick`` or ``poll`` raises (e.g. a cancel) stops the run at once and propagates. ``job`` must be a
    function of an importable module (workers receive it by name). ``costs[i]``: chunk i's seconds on one quiet core
    by the models' estimate, if known (a pool measures its pace on them: :meth:`hcsched.pool.Pool.pace`).
    """
    if options.backend == "dask":
        _run_dask(*_carrying_plugins(job, chunks), collect, options)
        return
    entry = getattr(_here, "pool", None)
    if entry is not None:
        kinds = set(models)
        entry[0].run(*_carrying_plugins(job, chunks), collect, jobs=options.jobs, tick=tick, poll=poll,
                     on_wait=entry[1], costs=costs, owner=entry[2], kind=kinds.pop() if len(kinds) == 1 else None)
        return
    jobs = options.workers()
    if jobs == 1 or len(chunks) <= 1:
        with ticking(tick):
            for i, chunk in enumerate(chunks):
                collect(i, job(*chunk))
        return
    jobs = min(jobs, len(chunks))
    if threads_alive() > 1:
        shared_pool().run(*_carrying_plugins(job, chunks), collect, jobs=jobs, tick=tick, poll=poll, costs=costs)
        return
    warm_up(set(models))
    in_processes(_call, [(job, chunk) for chunk in chunks], jobs, collect, poll, tick)


def _carrying_plugins(job: Callable, chunks: list[tuple]) -> tuple[Callable, list[tuple]]:
    """The job and chunks for workers that did not start from this process (fresh interpreters, a pool's worker
    processes or Dask workers, all started before a file may have been loaded): each
    chunk carries the plug-in files this process loaded (``--plugin``), which a worker loads before its first chunk
    (installed plug-ins, entry points, every worker finds by itself)."""
    if not LOADED:
        return job, chunks
    sources = dict(LOADED)
    return _with_plugins, [(sources, job, *chunk) for chunk in chunks]


def _with_plugins(sources: dict[str, str], job: Callable, *chunk: Any) -> Any:
    ensure_plugins(sources)
    return job(*chunk)


def _call(args: tuple[Callable, tuple]) -> Any:
    job, chunk = args
    return job(*chunk)


def _run_dask(job: Callable, chunks: list[tuple], collect: Callable, options: RunOptions) -> None:
    try:
        from dask.distributed import Client, LocalCluster
        from dask.distributed import as_completed as dask_completed
    except ImportError:
        raise HcschedError("--backend dask: Dask is not installed; install it with: pip install 'dask[distributed]' "
                           "(in a checkout of hcsched: pip install -e '.[dask]')") from None
    cluster, scheduler = None, options.scheduler
    if scheduler is None:
        cluster = LocalCluster(n_workers=options.workers(), threads_per_worker=1, processes=True,
                               dashboard_address=None)
    try:
        with Client(cluster if cluster is not None else scheduler, timeout="10s") as client:
            futures = [client.submit(job, *chunk, pure=False, retries=3) for chunk in chunks]
            index = {future.key: i for i, future in enumerate(futures)}
            try:
                for future in dask_completed(futures):
                    collect(index[future.key], future.result())
            except BaseException:
                client.cancel(futures)
                raise
    except OSError as exc:
        raise HcschedError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({exc})") from None
    finally:
        if cluster is not None:
            cluster.close()
