"""The historical trace manager (Caniou and Jeannot, section 4), public: "what would each server predict for this
task now?"::

    htm = HTM(workload.alone, workload.arrival)
    htm.commit(0, 3)            # task 0 went to server 3
    p = htm.predict(1)          # task 1 arrives: every server's T', T, delta, D and each heuristic's score
    p.servers, p.tasks, p.choice

The predictions use the same kernels as the runs (:mod:`.engine`): T' and T of a server come from one code path, so
a task the new one does not interact with has delta exactly 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hcsched.errors import HcschedError
from hcsched.models.timeshared import engine
from hcsched.models.timeshared.heuristics import HEURISTICS
from hcsched.models.timeshared.spec import TimesharedSpec
from hcsched.models.timeshared.workload import TimesharedWorkload, make_workload
from hcsched.sampling import trial_seeds


@dataclass(frozen=True)
class Prediction:
    """One arrival's predictions. ``servers``: one row per server (local tasks n, running, T of the new task,
    sum of delta, and each heuristic's score, the first key it minimises). ``tasks``: one row per local task i of
    each server (task id, arrival, T', T, delta, D = T - a, running). ``choice``: the server each heuristic (default
    parameters) picks, with its full tie rules."""

    task: int
    arrival: float
    servers: pd.DataFrame
    tasks: pd.DataFrame
    choice: dict[str, int]


class HTM:
    """The HTM over known tasks (``alone[t, j, p]``: task t's alone time of phase p on server j; ``arrival``).

    Commit tasks in arrival order with :meth:`commit`; :meth:`predict` asks every server about a task not yet
    committed, arriving no earlier than the last committed one."""

    def __init__(self, alone: np.ndarray, arrival: np.ndarray, duplex: str = "full", tie_tolerance: float = 1e-6) -> None:
        self.alone = np.ascontiguousarray(alone, dtype=float)
        self.arrival = np.asarray(arrival, dtype=float)
        if self.alone.ndim != 3 or self.alone.shape[2] != 3 or self.alone.shape[0] != self.arrival.size:
            raise HcschedError("HTM: alone must be tasks x servers x 3 (input, compute, output), one arrival per task")
        self.res = engine.HALF if duplex == "half" else engine.FULL
        self.tie_tolerance = float(tie_tolerance)
        n, m = self.alone.shape[:2]
        self.state = engine.new_state(m, n)
        self.ends = np.full((n, 3), np.nan)
        self.machine = np.full(n, -1, np.int64)
        self.now = -np.inf
        self._server = engine.new_server(n)

    @classmethod
    def of(cls, workload: TimesharedWorkload, duplex: str = "full", tie_tolerance: float = 1e-6) -> HTM:
        """The HTM of a :class:`~.workload.TimesharedWorkload`, nothing mapped yet."""
        return cls(workload.alone, workload.arrival, duplex, tie_tolerance)

    @classmethod
    def from_scenario(cls, scenario, trial: int = 0) -> HTM:
        """The HTM of one trial of a time-shared scenario (its drawn, or the user's own, servers and tasks; its duplex
        and tie tolerance), nothing mapped yet: ``HTM.from_scenario(sc).predict(0)``."""
        if not isinstance(scenario.spec, TimesharedSpec):
            raise HcschedError(f"HTM: scenario field 'model' is {scenario.model!r}; allowed: 'timeshared'")
        if isinstance(trial, bool) or not isinstance(trial, (int, np.integer)) or trial < 0:
            raise HcschedError(f"HTM: trial {trial!r} is not allowed; allowed: a trial number from 0")
        trial = int(trial)
        s = scenario.spec
        return cls.of(make_workload(s, trial_seeds(scenario.seed, trial + 1)[trial]), s.duplex, s.tie_tolerance)

    def _check(self, t: int) -> float:
        if not 0 <= t < self.arrival.size or self.machine[t] >= 0:
            raise HcschedError(f"HTM: task {t} is not a task still to map")
        a = float(self.arrival[t])
        if a < self.now:
            raise HcschedError(f"HTM: task {t} arrives at {a:g}, before the last committed arrival ({self.now:g})")
        return a

    def commit(self, t: int, j: int) -> None:
        """Map task t to server j."""
        a = self._check(t)
        m = self.alone.shape[1]
        if not 0 <= j < m:
            raise HcschedError(f"HTM: server {j!r} is not allowed; allowed: 0 to {m - 1}")
        engine.commit(j, t, a, self.state, self.alone, self.res, self.ends, self._server)
        self.machine[t], self.now = j, a

    def predict(self, t: int) -> Prediction:
        """Every server's prediction if task t (arriving at its arrival date) were mapped there."""
        a = self._check(t)
        n, m = self.alone.shape[:2]
        T = np.zeros(n + 1)
        keys = np.zeros((len(HEURISTICS), m, 3))
        server_rows, task_rows = [], []
        for j in range(m):
            L = engine.predict(j, t, a, self.state, self.alone, self.res, self._server, T, True)
            Tp = self.state.Tp[j]
            ids = self.state.mem[j, :L].copy()
            before, after = Tp[:L].copy(), T[:L].copy()
            first = int(np.argmax(before > a)) if (before > a).any() else L
            running = int((before > a).sum())
            row = {"server": j, "n": L - first, "running": running, "T_new": T[L],
                   "sum_delta": float((after - before)[first:].sum())}
            for x, h in enumerate(HEURISTICS):
                engine.scores(h.kind, L, a, Tp, T, self.alone[t, j], float(running), keys[x, j])
                row[h.name] = keys[x, j, 0]
            server_rows.append(row)
            for i in range(first, L):
                task_rows.append({"server": j, "local": i - first + 1, "task": int(ids[i]),
                                  "arrival": float(self.arrival[ids[i]]), "T_before": before[i], "T_after": after[i],
                                  "delta": after[i] - before[i], "D": after[i] - a, "running": bool(before[i] > a)})
        tasks = pd.DataFrame(task_rows, columns=["server", "local", "task", "arrival", "T_before", "T_after", "delta",
                                                 "D", "running"])
        choice = {h.name: int(engine.choose(keys[x], self.tie_tolerance, False)) for x, h in enumerate(HEURISTICS)}
        return Prediction(t, a, pd.DataFrame(server_rows), tasks, choice)


def what_if(alone: np.ndarray, arrival: np.ndarray, machine: np.ndarray, t: int, duplex: str = "full") -> Prediction:
    """The HTM's predictions for task t, after the tasks arriving before it (in arrival order, equal arrivals by
    index) were mapped to ``machine``."""
    htm = HTM(alone, arrival, duplex)
    order = np.argsort(np.asarray(arrival, float), kind="stable")
    for s in order:
        if s == t:
            break
        htm.commit(int(s), int(machine[s]))
    return htm.predict(t)
