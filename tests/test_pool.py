"""The pool of worker processes (hcsched.pool) and how the runner chooses between it and fork: results, progress,
errors, Cancel, a killed worker, the fair share of several runs, the line, and no fork with threads alive."""

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from hcsched import pool as pool_module
from hcsched import preset, simulate
from hcsched.errors import HcschedError
from hcsched.pool import Pool, WorkerDied, shared_seconds
from hcsched.runner import fork_context, in_processes, using

WORK = str(Path(__file__).parent / "pool_work")


@pytest.fixture(scope="module")
def pool():
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = WORK  # the workers import the tests' work by name
    try:
        with Pool(2, max_runs=2, preload=("hcsched", "pool_work")) as p:
            assert p.wait_ready(60)
            yield p
    finally:
        os.environ.pop("PYTHONPATH") if before is None else os.environ.__setitem__("PYTHONPATH", before)


def _fn(name: str):
    import importlib
    import sys

    sys.path.insert(0, WORK)
    try:
        return getattr(importlib.import_module("pool_work"), name)
    finally:
        sys.path.remove(WORK)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def _run(pool, name, items, **kw) -> dict:
    got = {}
    pool.run(_fn(name), [(x,) for x in items], got.__setitem__, **kw)
    return got


def test_results_come_back_by_index_and_ticks_are_counted(pool):
    assert _run(pool, "square", range(7)) == {i: i * i for i in range(7)}
    count = []
    assert _run(pool, "ticks", [3, 4], tick=lambda: count.append(1)) == {0: 3, 1: 4}
    assert len(count) == 7


def test_an_error_of_the_work_is_raised_as_it_was_and_the_pool_goes_on(pool):
    with pytest.raises(HcschedError, match="value: 5 is not allowed"):
        _run(pool, "refuse", [5])
    assert _run(pool, "square", [3]) == {0: 9}


def test_cancel_kills_the_busy_workers_at_once_and_they_are_replaced(pool):
    class Cancel(Exception):
        pass

    started = time.monotonic()

    def poll():
        if time.monotonic() - started > 0.5:
            raise Cancel

    busy_before = None
    with pytest.raises(Cancel):
        pool.run(_fn("spin"), [(30,), (30,)], lambda i, r: None, poll=poll)
    busy_before = set(pool.pids())
    assert time.monotonic() - started < 2.0  # back within 2 s, the workers' 30 s of work not waited for
    assert pool.wait_ready(60) and len(pool.pids()) == 2
    assert _run(pool, "square", [4]) == {0: 16}
    assert busy_before is not None


def test_a_killed_worker_fails_its_run_in_one_line_naming_the_signal(pool):
    pool.wait_ready(60)
    errors = []

    def run():
        try:
            _run(pool, "spin", [30])
        except WorkerDied as exc:
            errors.append(str(exc))

    t = threading.Thread(target=run)
    t.start()
    deadline = time.monotonic() + 10
    while not pool.busy_pids() and time.monotonic() < deadline:
        time.sleep(0.01)
    victim = pool.busy_pids()[0]
    os.kill(victim, signal.SIGKILL)
    t.join(5)
    assert not t.is_alive()
    assert errors == ["a worker process died: killed by SIGKILL (out of memory, or killed by "
                      "hand); this run's results are lost"]
    assert "\n" not in errors[0]
    assert pool.wait_ready(60) and victim not in pool.pids() and len(pool.pids()) == 2
    assert _run(pool, "square", [5]) == {0: 25}


def test_a_short_run_is_not_held_up_by_a_long_one(pool):
    """Runs share the workers chunk by chunk: a 2-worker run of 40 chunks of 0.2 s (8 s in all) and a run of 2 such
    chunks started just after it; the short one ends long before the long one."""
    pool.wait_ready(60)
    ends = {}

    def long_run():
        _run(pool, "sleep", [0.2] * 40)
        ends["long"] = time.monotonic()

    t = threading.Thread(target=long_run)
    t.start()
    time.sleep(0.3)
    start = time.monotonic()
    _run(pool, "sleep", [0.2] * 2)
    ends["short"] = time.monotonic()
    t.join(30)
    assert ends["short"] - start < 1.5
    assert ends["long"] - ends["short"] > 2.0


def _stamped_run(pool, seconds: float, n: int, cost: float | None, out: dict, name: str) -> None:
    got = {}
    costs = None if cost is None else [cost] * n
    pool.run(_fn("stamp"), [(seconds,)] * n, got.__setitem__, costs=costs)
    out[name] = sorted(got.values())


def test_a_free_worker_takes_the_run_with_the_least_work_left(pool):
    """A short run (4 chunks of 0.3 s) started while a long one (14 such chunks) holds both workers takes every
    worker that frees until its chunks are all sent: no chunk of the long run starts between the short run's first
    start and its last. Taking turns, the long run would start one or two there."""
    pool.wait_ready(60)
    out = {}
    t = threading.Thread(target=_stamped_run, args=(pool, 0.3, 14, 0.3, out, "long"))
    t.start()
    while len(pool.busy_pids()) < 2:
        time.sleep(0.01)
    _stamped_run(pool, 0.3, 4, 0.3, out, "short")
    t.join(30)
    first, last = out["short"][0][0], out["short"][-1][0]
    assert [s for s, _ in out["long"] if first < s < last] == []


def test_a_run_without_a_worker_for_starve_seconds_goes_first(pool):
    """Runs without cost estimates come after those with, but one that has had no worker for ``starve_seconds``
    takes the next free worker: beside a long run with estimates, a run without gets its chunk within a chunk of
    the long run after that wait."""
    pool.wait_ready(60)
    pool.starve_seconds = 0.5
    try:
        out = {}
        t = threading.Thread(target=_stamped_run, args=(pool, 0.2, 30, 0.2, out, "long"))
        t.start()
        while len(pool.busy_pids()) < 2:
            time.sleep(0.01)
        asked = time.monotonic()
        _stamped_run(pool, 0.05, 1, None, out, "unestimated")
        t.join(30)
        assert out["unestimated"][0][0] - asked < 0.5 + 0.2 + 0.3  # the wait, at most a chunk, and slack
        assert out["long"][-1][0] > out["unestimated"][0][0]  # it did not wait for the long run to end
    finally:
        pool.starve_seconds = pool_module.STARVE_SECONDS


def test_a_new_run_waits_for_the_first_worker_to_free_in_its_forecast(pool):
    """While both workers run 1 s chunks (by their estimate), a new run's forecast adds the wait for the first to
    end: more than 0 and at most a chunk at the pace; 0 once a worker is free."""
    pool.wait_ready(60)
    t = threading.Thread(target=lambda: _run(pool, "sleep", [1.0] * 2, costs=[1.0] * 2))
    t.start()
    while len(pool.busy_pids()) < 2:
        time.sleep(0.01)
    time.sleep(0.2)
    wait = pool.first_free()
    assert 0.0 < wait <= pool.pace() * 1.0 - 0.2 + 0.05
    assert pool.forecast(0.5, 0.5) >= wait + 0.5
    t.join(30)
    assert pool.first_free() == 0.0


def test_shared_seconds_counts_the_runs_with_less_work_whole_and_none_with_more():
    assert shared_seconds(4.0, [1.0, 3.0, 10.0], 2) == (4.0 + 1.0 + 3.0) / 2
    assert shared_seconds(4.0, [], 1) == 4.0


def test_a_run_whose_workers_are_all_held_by_another_says_so_until_it_gets_one(pool):
    """A run started while another's 1 s chunks hold both workers computes nothing for up to a second: the pool says
    that one other run holds them (the progress bar says so), and nothing once the run has a worker."""
    pool.wait_ready(60)
    long_owner, short_owner, seen = object(), object(), []
    t = threading.Thread(target=lambda: _run(pool, "sleep", [1.0] * 4, owner=long_owner))
    t.start()
    while len(pool.busy_pids()) < 2:
        time.sleep(0.01)
    assert pool.held_by_others(short_owner) == 0  # no run of its own here yet
    _run(pool, "sleep", [0.05], owner=short_owner, poll=lambda: seen.append(pool.held_by_others(short_owner)))
    t.join(30)
    assert seen[0] == 1 and seen[-1] == 0 and pool.held_by_others(long_owner) == 0


def test_runs_beyond_the_cap_wait_in_line_and_are_told_their_place(pool):
    pool.wait_ready(60)
    with Pool(1, max_runs=1, preload=("hcsched", "pool_work")) as one:
        os.environ["PYTHONPATH"] = WORK
        assert one.wait_ready(60)
        places = []
        t = threading.Thread(target=lambda: _run(one, "sleep", [1.0]))
        t.start()
        while one.running() == 0:
            time.sleep(0.01)
        assert _run(one, "square", [2], on_wait=places.append) == {0: 4}
        t.join(10)
        assert places == [1, 0]


def test_cancel_while_in_line_leaves_the_line(pool):
    with Pool(1, max_runs=1, preload=("hcsched", "pool_work")) as one:
        assert one.wait_ready(60)
        t = threading.Thread(target=lambda: _run(one, "sleep", [1.0]))
        t.start()
        while one.running() == 0:
            time.sleep(0.01)

        def leave(place):
            if place:
                raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            _run(one, "square", [2], on_wait=leave)
        assert one.waiting() == 0
        t.join(10)


def test_the_pool_never_forks_and_its_workers_are_fresh_interpreters_of_lower_priority(pool):
    assert pool.wait_ready(60)
    mine = int(Path("/proc/self/stat").read_text().rsplit(") ", 1)[1].split()[16])
    for pid in pool.pids():
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        assert b"from hcsched.pool import serve; serve()" in cmdline
        nice = int(Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()[16])
        assert nice == min(19, mine + 10)  # the server answers its users before its workers compute


def test_fork_is_refused_while_another_thread_is_alive():
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        with pytest.raises(RuntimeError, match=r"refusing to fork worker processes: \d+ threads are alive"):
            fork_context()
        with pytest.raises(RuntimeError, match="refusing to fork"):
            in_processes(abs, [-1, -2], 2, lambda i, r: None)
    finally:
        stop.set()
        t.join()


def test_with_threads_alive_the_runner_uses_the_processs_own_pool_and_gets_the_same_results():
    """A process with threads (a notebook) gets the same rows as one job in this thread, without forking."""
    scenario = preset("quickstart").replace(trials=6)
    alone = simulate(scenario, jobs=1)
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr("hcsched.runner.in_processes", lambda *a, **k: pytest.fail("forked with threads alive"))
            assert simulate(scenario, jobs=2).equals(alone)
    finally:
        stop.set()
        t.join()


def test_simulate_in_a_pool_gives_the_same_rows_and_counts_every_heuristic_run(pool):
    scenario = preset("quickstart").replace(trials=5)
    alone = simulate(scenario, jobs=1)
    seen = []
    with using(pool):
        rows = simulate(scenario, jobs=2, progress=lambda done, total: seen.append(done))
        assert rows.equals(alone)
        assert simulate(scenario, jobs=1).equals(alone)  # one job too goes to the pool, where Cancel can kill it
    assert seen[-1] == 5 and seen == sorted(seen) and any(not float(d).is_integer() for d in seen)


def test_run_chunks_in_a_single_threaded_process_forks(tmp_path):
    """The command line's path: one thread, so the workers are forked (no start-up); checked in a fresh process."""
    import subprocess
    import sys

    code = ("import threading, "
            "hcsched.runner as r\nforked = []\n"
            "orig = r.in_processes\n"
            "r.in_processes = lambda *a, **k: (forked.append(threading.active_count()), orig(*a, **k))\n"
            "from hcsched import preset, simulate\n"
            "simulate(preset('quickstart').replace(trials=4), "
            "jobs=2)\nprint(forked)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[1]"
