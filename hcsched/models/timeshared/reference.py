"""An independent, plain-Python simulator of section 4.1 for cross-checks (tests, bench): the remaining work of
each task's current phase is decreased step by step, with no virtual clocks and no lazy updates. Slow; exact up to
rounding. Not used by the runs."""

from __future__ import annotations

import numpy as np

DONE = 1e-9  # remaining work (s) at or below which a phase has ended


def server_finish(arrival, alone, half_duplex: bool = False) -> np.ndarray:
    """Phase ends (tasks x 3) of tasks with ``arrival`` dates and ``alone`` (tasks x 3) phase times on one server."""
    arrival = np.asarray(arrival, float)
    rem = np.array(alone, float)
    n = arrival.size
    phase = np.full(n, -1)
    ends = np.full((n, 3), np.nan)
    res = (0, 1, 0) if half_duplex else (0, 1, 2)
    t = 0.0
    while (phase < 3).any():
        for i in range(n):  # arrivals and phases of (now) zero remaining work
            if phase[i] == -1 and arrival[i] <= t:
                phase[i] = 0
            while 0 <= phase[i] < 3 and rem[i, phase[i]] <= DONE:
                ends[i, phase[i]] = t
                phase[i] += 1
        active = [i for i in range(n) if 0 <= phase[i] < 3]
        k = np.zeros(3)
        for i in active:
            k[res[phase[i]]] += 1
        step = min([rem[i, phase[i]] * k[res[phase[i]]] for i in active] +
                   [arrival[i] - t for i in range(n) if phase[i] == -1], default=np.inf)
        if not np.isfinite(step):
            break
        for i in active:
            rem[i, phase[i]] -= step / k[res[phase[i]]]
        t += step
    return ends


def hmct(arrival, alone, half_duplex: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """HMCT (Fig. 18) by brute force: at each arrival every server is simulated from time 0 with its tasks and the
    new one. Returns the servers and the completion dates."""
    arrival = np.asarray(arrival, float)
    n, m = alone.shape[:2]
    machine = np.full(n, -1)
    for t in np.argsort(arrival, kind="stable"):
        best, best_j = np.inf, 0
        for j in range(m):
            mine = [s for s in range(n) if machine[s] == j] + [t]
            finish = server_finish(arrival[mine], alone[mine, j], half_duplex)[-1, 2]
            if finish < best - 1e-9:
                best, best_j = finish, j
        machine[t] = best_j
    finish = np.zeros(n)
    for j in range(m):
        mine = np.flatnonzero(machine == j)
        if mine.size:
            finish[mine] = server_finish(arrival[mine], alone[mine, j], half_duplex)[:, 2]
    return machine, finish
