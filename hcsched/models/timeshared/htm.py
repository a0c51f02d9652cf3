"""The historical trace manager (Caniou and Jeannot, section 4), public: "what would each server predict for this
task now?"::

    htm = HTM(workload.alone, workload.arrival)
    htm.commit(0, 3)            # task 0 went to server 3
    p = htm.predict(1)          # task 1 arrives: every server's T', T, delta, D and each heuristic's score
    p.servers, p.tasks, p.choice
    htm.decide(1, HeuristicSpec.make("mp", model="timeshared"))   # the server a heuristic (or a plug-in) picks

The predictions use the same kernels as the runs (:mod:`.engine`): T' and T of a server come from one code path, so
a task the new one does not interact with has delta exactly 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hcsched.errors import HcschedError
from hcsched.models.timeshared import engine
from hcsched.models.timeshared.heuristics import HEURISTICS, TimesharedHeuristic
from hcsched.models.timeshared.plugin import predict_code
from hcsched.models.timeshared.spec import TimesharedSpec
from hcsched.models.timeshared.workload import TimesharedWorkload, make_workload
from hcsched.sampling import trial_seeds
from hcsched.scenario import HeuristicSpec


@dataclass(frozen=True)
class Prediction:
    """One arrival's predictions. ``servers``: one row per server (local tasks n, running, T of the new task,
    sum of delta, and each heuristic's score, the first key it minimises). ``tasks``: one row per local task i of
    each server (task id, arrival, T', T, delta, D = T - a, running). ``choice``: the server each heuristic (default
    parameters) picks, with its full tie rules, and each heuristic :meth:`HTM.predict` was given, by its label."""

    task: int
    arrival: float
    servers: pd.DataFrame
    tasks: pd.DataFrame
    choice: dict[str, int]


class HTM:
    """The HTM over known tasks (``alone[t, j, p]``: task t's alone time of phase p on server j; ``arrival``).

    Commit tasks in arrival order with :meth:`commit`; :meth:`predict` asks every server about a task not yet
    committed, arriving no earlier than the last committed one, and :meth:`decide` which server a heuristic picks.
    With ``reports``, NetSolve's reported loads (section 2.3) are kept too, for NetSolve MCT with ``load=reports``."""

    def __init__(self, alone: np.ndarray, arrival: np.ndarray, duplex: str = "full", tie_tolerance: float = 1e-6,
                 reports: bool = False) -> None:
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
        self.reports = engine.new_reports(m) if reports else None

    @classmethod
    def of(cls, workload: TimesharedWorkload, duplex: str = "full", tie_tolerance: float = 1e-6,
           reports: bool = False) -> HTM:
        """The HTM of a :class:`~.workload.TimesharedWorkload`, nothing mapped yet."""
        return cls(workload.alone, workload.arrival, duplex, tie_tolerance, reports)

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
        self._report(a)
        return a

    def _report(self, a: float) -> None:
        """NetSolve's records brought to date a (every server, as the run does at every arrival)."""
        if self.reports is not None:
            st = self.state
            for j in range(self.alone.shape[1]):
                engine._reported_load(j, a, st.nm[j], st.mem[j], st.Tp[j], self.arrival, self.reports)

    def commit(self, t: int, j: int) -> None:
        """Map task t to server j."""
        a = self._check(t)
        m = self.alone.shape[1]
        if not 0 <= j < m:
            raise HcschedError(f"HTM: server {j!r} is not allowed; allowed: 0 to {m - 1}")
        if self.reports is not None:
            self.reports.rec[j] += 1.0  # NetSolve's +100 on mapping (section 2.3)
        engine.commit(j, t, a, self.state, self.alone, self.res, self.ends, self._server)
        self.machine[t], self.now = j, a

    def decide(self, t: int, heuristic: HeuristicSpec, rng: np.random.Generator | None = None) -> int:
        """The server ``heuristic`` (with its parameters) picks for task t now, as its run decides: a built-in by its
        keys and tie rules, a plug-in by its rule (:mod:`.plugin`) given ``rng`` (default: the seed 0's).

        Parameters
        ----------
        t : int
            A task not yet committed.
        heuristic : hcsched.scenario.HeuristicSpec
            A heuristic of the time-shared model and its parameters.
        rng : numpy.random.Generator, optional
            A plug-in's random numbers (its run's stream, to replay its run).

        Returns
        -------
        int
            The server.
        """
        h: TimesharedHeuristic = heuristic.heuristic
        params = heuristic.kwargs
        a = self._check(t)
        n, m = self.alone.shape[:2]
        st, T = self.state, np.zeros(n + 1)
        if h.rule is None:
            all_equal, reports = h.options(params)
            if reports and self.reports is None:
                raise HcschedError("HTM: NetSolve's reported loads are not kept; make the HTM with reports=True")
            keys, row = np.zeros((m, 3)), np.zeros(3)
            for j in range(m):
                L, Tp = int(st.nm[j]), st.Tp[j]
                if reports:
                    load = engine._reported_load(j, a, L, st.mem[j], Tp, self.arrival, self.reports)
                else:
                    load = engine._unfinished(Tp, L, a)
                engine.predict(j, t, a, st, self.alone, self.res, self._server, T, True)
                h.keys(L, a, Tp, T, self.alone[t, j], load, row)
                keys[j] = row
            return int(engine.choose(keys, self.tie_tolerance, all_equal))
        predicts = predict_code(h.predicts, h.name)
        start, before, after = np.zeros(m + 1, np.int64), np.empty(n + 1), np.empty(n + 1)
        t_new, load = np.empty(m), np.empty(m)
        pos = 0
        for j in range(m):
            pos = engine.rule_view(j, t, a, st, self.alone, self.res, self._server, T, self.ends, predicts, start,
                                   before, after, t_new, load, pos)
        start[m] = pos
        rng = np.random.default_rng(0) if rng is None else rng
        j = h.python_call()(a, self.alone[t], start, before, after, t_new, load, h.rule_params(params), rng)
        if not 0 <= j < m:
            raise HcschedError(f"heuristic {h.name!r}: its rule returned server {j} for task {t}; allowed: a "
                               f"server index from 0 to {m - 1}")
        return int(j)

    def predict(self, t: int, heuristics=(), rng: np.random.Generator | None = None) -> Prediction:
        """Every server's prediction if task t (arriving at its arrival date) were mapped there, the server each
        built-in heuristic picks (default parameters) and each of ``heuristics`` (HeuristicSpecs, e.g. plug-ins:
        :meth:`decide`, ``rng`` for their random numbers)."""
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
                h.keys(L, a, Tp, T, self.alone[t, j], float(running), keys[x, j])
                row[h.name] = keys[x, j, 0]
            server_rows.append(row)
            for i in range(first, L):
                task_rows.append({"server": j, "local": i - first + 1, "task": int(ids[i]),
                                  "arrival": float(self.arrival[ids[i]]), "T_before": before[i], "T_after": after[i],
                                  "delta": after[i] - before[i], "D": after[i] - a, "running": bool(before[i] > a)})
        tasks = pd.DataFrame(task_rows, columns=["server", "local", "task", "arrival", "T_before", "T_after", "delta",
                                                 "D", "running"])
        choice = {h.name: int(engine.choose(keys[x], self.tie_tolerance, h.options(h.defaults())[0]))
                  for x, h in enumerate(HEURISTICS)}
        for hs in heuristics:
            choice[hs.label] = self.decide(t, hs, rng)
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


def explain_problem(scenario, heuristic: HeuristicSpec) -> str | None:
    """Whether the HTM's replay of ``heuristic``'s decisions on the scenario's trial 0 (:meth:`HTM.decide` at every
    arrival, a plug-in given its run's random numbers) ends in the mapping its run made: None, or the first task
    where they part."""
    s = scenario.spec
    w = make_workload(s, trial_seeds(scenario.seed, 1)[0])
    h: TimesharedHeuristic = heuristic.heuristic
    machine, _ = h.mapping(s, heuristic.kwargs, w)
    htm = HTM.of(w, s.duplex, s.tie_tolerance, reports=h.options(heuristic.kwargs)[1])
    rng = w.rng()
    for t in w.order:
        j = htm.decide(int(t), heuristic, rng)
        if j != machine[t]:
            return (f"Explain's replay by the HTM puts task {int(t)} on server {j}, its run on server "
                    f"{int(machine[t])}: the rule must decide from its inputs and rng alone")
        htm.commit(int(t), j)
    return None
