"""The share of a core that a worker process gets beside the machine's other work, read off the threads it runs now.

Linux's scheduler (CFS) shares the cores between *scheduling entities* in proportion to their weights, each taking at
most what it asks for. With autogroups on (``/proc/sys/kernel/sched_autogroup_enabled``, the default of desktop and
server kernels) and the processes in the root control group, an entity is a session (``setsid``): all the processes
of a terminal or a service share one weight however many they are, and a process's ``nice`` counts only inside its
own session. Otherwise an entity is a thread, weighing 1.25 to the power of minus its ``nice``. The load average
counts threads and lags a minute behind; so a pool's workers, each in a session of its own, beside five busy
processes of one other session get two thirds of a core each on two cores, where the load average says two sevenths.

Read on Linux only (``/proc``); elsewhere :func:`worker_slowdown` returns None and the caller keeps its fallback.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

PROC = Path("/proc")
SAMPLES, SAMPLE_GAP = 5, 0.01  # the runnable threads counted this many times, this many seconds apart
NICE_STEP = 1.25  # CFS: each nice level weighs 1.25 times less than the one below it


def fair_level(demands: list[float], weights: list[float], cores: float) -> float:
    """The level ``x`` at which entities of these weights, each taking at most its demand (cores it can use), fill
    ``cores``: entity i gets ``min(demands[i], weights[i] * x)``, and the gets sum to ``cores`` (infinite when all the
    demands fit)."""
    if sum(demands) <= cores:
        return float("inf")
    order = sorted(range(len(demands)), key=lambda i: demands[i] / weights[i])
    left, weight = cores, sum(weights)
    for i in order:  # the entities capped at their demand, least demanding per weight first
        x = left / weight
        if demands[i] > weights[i] * x:
            return x
        left, weight = left - demands[i], weight - weights[i]
    return float("inf")  # not reached: the demands exceed the cores


def _autogroups(proc: Path) -> bool:
    """Whether sessions are the scheduling entities: autogroups on and this process in the root cpu control group."""
    try:
        if (proc / "sys/kernel/sched_autogroup_enabled").read_text().strip() != "1":
            return False
        lines = (proc / "self/cgroup").read_text().splitlines()
    except OSError:
        return False
    paths = {parts[1]: parts[2] for parts in (line.split(":", 2) for line in lines) if len(parts) == 3}
    cpu = next((path for names, path in paths.items() if "cpu" in names.split(",")), paths.get(""))
    return cpu == "/"


def _stat(path: Path) -> tuple[str, int, int] | None:
    """A thread's state, session and nice from its ``stat`` (fields 3, 6 and 19), or None once it has gone."""
    try:
        text = path.read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # after the command, which may hold spaces and parentheses
    return fields[0], int(fields[3]), int(fields[16])


def runnable_entities(skip: set[int], autogroups: bool, proc: Path = PROC) -> dict[int, tuple[float, float]]:
    """The machine's runnable threads now, but those of the processes ``skip``: entity -> (threads running or
    waiting for a core, weight). An entity is a session (``autogroups``), of weight 1, or a thread."""
    found: dict[int, tuple[float, float]] = {}
    for entry in os.scandir(proc):
        if not entry.name.isdigit() or int(entry.name) in skip:
            continue
        try:
            tasks = os.listdir(proc / entry.name / "task")
        except OSError:
            continue
        for tid in tasks:
            stat = _stat(proc / entry.name / "task" / tid / "stat")
            if stat is None or stat[0] != "R":
                continue
            if autogroups:
                count, _ = found.get(stat[1], (0.0, 1.0))
                found[stat[1]] = (count + 1.0, 1.0)
            else:
                found[int(tid)] = (1.0, NICE_STEP ** -stat[2])
    return found


def worker_slowdown(workers: int, cores: int, skip: set[int], nice: int = 0, samples: int = SAMPLES,
                    gap: float = SAMPLE_GAP, proc: Path = PROC) -> float | None:
    """How many times slower than alone on a core each of ``workers`` busy worker processes, each in a session of its
    own at ``nice`` (a pool's), computes beside the machine's other work now: the runnable threads
    of every process but ``skip`` (the workers themselves, and this process) counted ``samples`` times ``gap``
    seconds apart, each entity's demand the mean of its counts, capped at ``cores``. None without ``/proc``."""
    if not (proc / "self").exists():
        return None
    autogroups = _autogroups(proc)
    totals: dict[int, list[float]] = {}
    for k in range(samples):
        if k:
            time.sleep(gap)
        for key, (count, weight) in runnable_entities(skip, autogroups, proc).items():
            totals.setdefault(key, [0.0, weight])[0] += count
    demands = [min(float(cores), count / samples) for count, _ in totals.values()] + [1.0] * workers
    own = 1.0 if autogroups else NICE_STEP ** -nice  # a session of its own weighs 1 whatever its nice
    weights = [weight for _, weight in totals.values()] + [own] * workers
    return max(1.0, 1.0 / (own * fair_level(demands, weights, float(cores))))  # a worker gets own x level
