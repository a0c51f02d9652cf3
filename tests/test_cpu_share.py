"""The share of a core a pool's worker gets beside the machine's other work (hcsched.cpu_share): the fair level by
hand, the threads read off a /proc made here, and off the real one with spinners started in a session of their own."""

import os
import subprocess
import sys
import time

import pytest

from hcsched.cpu_share import NICE_STEP, fair_level, runnable_entities, worker_slowdown


def test_the_fair_level_by_hand():
    # five busy processes of one session and two workers in sessions of their own, on 2 cores: 2/3 of a core each
    assert fair_level([2.0, 1.0, 1.0], [1.0, 1.0, 1.0], 2.0) == pytest.approx(2 / 3)
    # an entity asking for less than its share leaves the rest to the others: 0.5 + 2x = 2
    assert fair_level([0.5, 1.0, 1.0], [1.0, 1.0, 1.0], 2.0) == pytest.approx(0.75)
    # threads weighed by their nice: five at nice 0 and two workers at nice 10 fill 2 cores at 2 / (5 + 2 w)
    w = NICE_STEP ** -10
    assert fair_level([1.0] * 5 + [1.0, 1.0], [1.0] * 5 + [w, w], 2.0) == pytest.approx(2 / (5 + 2 * w))
    assert fair_level([1.0, 0.5], [1.0, 1.0], 2.0) == float("inf")  # all fit


def _fake_proc(root, autogroups: bool, threads: dict[int, list[tuple[int, str, int, int]]]):
    """A /proc with ``threads``: pid -> [(tid, state, session, nice)]."""
    (root / "sys/kernel").mkdir(parents=True)
    (root / "sys/kernel/sched_autogroup_enabled").write_text("1\n" if autogroups else "0\n")
    (root / "self").mkdir()
    (root / "self/cgroup").write_text("4:memory:/x\n1:cpu,cpuacct:/\n0::/\n")
    for pid, tasks in threads.items():
        for tid, state, session, nice in tasks:
            folder = root / str(pid) / "task" / str(tid)
            folder.mkdir(parents=True)
            rest = [state, "1", str(session), str(session)] + ["0"] * 12 + [str(nice)] + ["0"] * 30
            (folder / "stat").write_text(f"{tid} (a (b) c) " + " ".join(rest) + "\n")
    return root


def test_threads_are_counted_by_session_with_autogroups_and_weighed_by_nice_without(tmp_path):
    threads = {10: [(10, "R", 7, 0), (11, "R", 7, 0), (12, "S", 7, 0)], 20: [(20, "R", 7, 5)],
               30: [(30, "R", 9, 19)], 40: [(40, "R", 40, 0)]}
    proc = _fake_proc(tmp_path / "a", True, threads)
    assert runnable_entities({40}, True, proc) == {7: (3.0, 1.0), 9: (1.0, 1.0)}
    alone = runnable_entities({40}, False, proc)
    assert sorted(alone) == [10, 11, 20, 30]
    assert alone[20] == (1.0, NICE_STEP ** -5) and alone[30] == (1.0, NICE_STEP ** -19)
    # with autogroups: 3 runnable threads of session 7 (capped at 2 cores) and 1 of session 9 beside 2 workers
    assert worker_slowdown(2, 2, {40}, nice=10, samples=2, gap=0, proc=proc) == pytest.approx(2.0)
    # without them, each thread weighs by its nice: the workers at nice 10 get 2 w10 / (2 + w5 + w19 + 2 w10) of a
    # core each
    proc = _fake_proc(tmp_path / "b", False, threads)
    w5, w10, w19 = NICE_STEP ** -5, NICE_STEP ** -10, NICE_STEP ** -19
    slowdown = (2 + w5 + w19 + 2 * w10) / (2 * w10)
    assert worker_slowdown(2, 2, {40}, nice=10, samples=2, gap=0, proc=proc) == pytest.approx(slowdown)


def test_a_quiet_reading_and_none_without_proc(tmp_path):
    proc = _fake_proc(tmp_path, True, {5: [(5, "S", 5, 0)]})
    assert worker_slowdown(2, 2, set(), samples=1, gap=0, proc=proc) == 1.0
    assert worker_slowdown(2, 2, set(), proc=tmp_path / "none") is None


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads Linux's /proc")
def test_spinners_of_one_session_are_one_entity_of_three_threads():
    code = "import subprocess, sys\nfor _ in range(3): subprocess.Popen([sys.executable, '-c', 'while True: pass'])\n" \
           "import time; time.sleep(60)"
    parent = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        time.sleep(1.0)
        found = runnable_entities({os.getpid()}, True)
        assert found.get(parent.pid) == (3.0, 1.0)  # the session's id is its leader's pid
    finally:
        os.killpg(parent.pid, 9)
        parent.wait()
