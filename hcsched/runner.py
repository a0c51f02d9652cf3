"""The one runner of chunks of work for :func:`hcsched.simulate` and :func:`hcsched.sweep`: forked local processes or
a Dask cluster, each chunk's result handed back to the calling thread as it finishes."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from hcsched.errors import HcschedError
from hcsched.models import warm_up

BACKENDS = ("local", "dask")
POLL_SECONDS = 0.05  # how often the parent looks for finished heuristic runs and chunks


def check_backend(backend: str) -> str:
    if backend not in BACKENDS:
        raise HcschedError(f"--backend: {backend!r} is not allowed; allowed: one of {', '.join(BACKENDS)}")
    return backend


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: kill its workers (running work is not waited for) and reap them (no zombie is left)."""
    processes = list((pool._processes or {}).values())  # no public way before Python 3.14's kill_workers()
    for p in processes:
        p.kill()  # not SIGTERM: a worker forked from a server may have inherited the server's SIGTERM handler
    pool.shutdown(wait=True, cancel_futures=True)
    for p in processes:
        p.join()


def in_processes(work: Callable, items: list, jobs: int, collect: Callable[[int, object], None],
                 poll: Callable[[], None] | None = None, initializer: Callable | None = None,
                 initargs: tuple = ()) -> None:
    """``work(item)`` for every item in ``jobs`` forked worker processes; ``collect(index, result)`` in the calling
    thread as each finishes (in any order), ``poll()`` every ``POLL_SECONDS`` meanwhile. Whatever is raised (by a
    worker, ``collect`` or ``poll``, or an interrupt) kills the workers at once and propagates unchanged.

    fork: workers inherit the compiled kernels and work inside a Streamlit server (see docs); compile the kernels
    (:func:`hcsched.models.warm_up`) before, so that no child is forked while a compilation holds numba's lock.
    """
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=initializer,
                               initargs=initargs)
    try:
        index = {pool.submit(work, item): i for i, item in enumerate(items)}
        pending = set(index)
        while pending:
            finished, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in sorted(finished, key=index.__getitem__):
                collect(index[future], future.result())
            if poll:
                poll()
    except BaseException:
        _kill_workers(pool)
        raise
    pool.shutdown(wait=True)


def run_chunks(job: Callable, chunks: list[tuple], collect: Callable[[int, Any], None], models: Iterable[str],
               backend: str = "local", jobs: int | None = None, scheduler: str | None = None,
               poll: Callable[[], None] | None = None, initializer: Callable | None = None,
               initargs: tuple = ()) -> None:
    """``job(*chunk)`` for every chunk, ``collect(index, result)`` in the calling thread as each finishes (in any
    order).

    "local": ``jobs`` forked processes (default all cores; one job, or one chunk, runs here), the kernels of
    ``models`` compiled before forking, ``poll()`` every ``POLL_SECONDS`` and ``initializer(*initargs)`` in each
    worker; "dask": a local cluster of ``jobs`` workers, or the scheduler at ``scheduler``. What ``collect`` or
    ``poll`` raises (e.g. a cancel) stops the run at once and propagates. ``job`` must be a function of an importable
    module (workers receive it by name).
    """
    check_backend(backend)
    if backend == "dask":
        _run_dask(job, chunks, collect, jobs, scheduler)
        return
    if scheduler is not None:
        raise HcschedError("--scheduler: only with --backend dask")
    jobs = default_jobs() if jobs is None else jobs
    if jobs == 1 or len(chunks) <= 1:
        for i, chunk in enumerate(chunks):
            collect(i, job(*chunk))
        return
    warm_up(set(models))
    in_processes(_call, [(job, chunk) for chunk in chunks], min(jobs, len(chunks)), collect, poll, initializer,
                 initargs)


def _call(args: tuple[Callable, tuple]) -> Any:
    job, chunk = args
    return job(*chunk)


def _run_dask(job: Callable, chunks: list[tuple], collect: Callable, jobs: int | None, scheduler: str | None) -> None:
    try:
        from dask.distributed import Client, LocalCluster
        from dask.distributed import as_completed as dask_completed
    except ImportError:
        raise HcschedError("--backend dask: Dask is not installed; install it with: pip install 'dask[distributed]' "
                           "(in a checkout of hcsched: pip install -e '.[dask]')") from None
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=jobs or default_jobs(), threads_per_worker=1, processes=True,
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
