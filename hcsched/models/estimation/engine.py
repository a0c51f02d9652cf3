"""The event loop of the estimation model: releases, returns, learning, and mapping with the Alg. 2 template.

Pull protocol (section 2.2): each processor runs one task at a time; when it
is idle it starts the head of its queue Q_j. Mapping (``mapping`` in the
scenario; section 4 does not say when ``generateSchedule`` runs, docs/models/estimation.md):

- ``return`` (default): at every release and every return, every task that
  has not started is remapped (Fig. 1's "pre-emptive rescheduling"); running
  tasks are never moved (tasks are indivisible). Only the tasks that idle
  processors start at this moment can matter before the next remap, so the
  greedy template stops once every idle processor has its next task: the
  schedule is the same as with complete queues.
- ``release``: only newly released tasks are mapped, behind the queued ones.

A task of a problem nothing is known about (no task of it has returned) is
dealt round robin (section 2.2), ahead of the mapped tasks, over the idle
processors first. The true time of a
task is revealed only when it returns; its computation t is what the
estimator learns, and communication c separately (eq. 1). A processor is busy
for c + t (communication counts as busy time in eq. 7).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np

from hcsched.metrics import Schedule
from hcsched.models.estimation import heuristics as H
from hcsched.models.estimation import kernels as K
from hcsched.models.estimation.error import case_time
from hcsched.models.estimation.estimators import EstimatorState
from hcsched.models.estimation.spec import EstimationSpec
from hcsched.models.estimation.workload import Workload, availability, true_time

RETURN, RELEASE = 0, 1
NONE = np.zeros(0, np.int64)
CURVE_POINTS = 200
# tasks from which FA carries its sorted estimates between events (one trial of page-system-a with processors and
# stages x f, measured in one process: 1x, 90 processors and 450 tasks, 0.08 s with them against 0.06 s without; 4x,
# 360 and 1800, 0.52-0.55 s against 0.48-0.49 s; 8x, 720 and 3600, 2.1-2.4 s against 3.0 s; 16x 7.0 s against
# 11.5 s; stages x 16 on 90 processors, 7200 tasks, 6.2 s against 14.3 s)
CARRY_FROM = 2000


@dataclass
class EstimationRun:
    """One heuristic's run: per-task records and what the dashboard draws over time."""

    schedule: Schedule  # arrival: the problem's release (the same for every heuristic); see ``released``
    released: np.ndarray  # when the task's stage was released (depends on the schedule for stages after the first)
    problem: np.ndarray
    stage: np.ndarray
    estimate: np.ndarray  # ETC at dispatch (best case), NaN if mapped without an estimate
    comm_estimate: np.ndarray
    predicted_error: np.ndarray  # the predicted ET at dispatch
    actual_error: np.ndarray  # ET (eq. 8) of the dispatch estimate
    compute: np.ndarray  # t (computation seconds)
    comm: np.ndarray  # c
    first_queue: np.ndarray  # the processor a task was first queued on (-1: started at once); Fig. 1's remapping
    mapping_events: int
    machines: int
    names: tuple = field(default=())
    observations: np.ndarray | None = None  # |U_j| of the task's problem on its processor at dispatch (Fig. 6)

    @property
    def makespan(self) -> float:
        return float(self.schedule.finish.max()) if self.schedule.finish.size else 0.0

    def curves(self, points: int = CURVE_POINTS) -> dict[str, np.ndarray]:
        """Over time (section 5.4, Figs. 4, 7-13): idle processors, efficiency so far (eq. 7, %), and the mean
        actual and predicted estimation error of the tasks returned in each interval (NaN where none returned)."""
        s = self.schedule
        end = max(self.makespan, 1e-9)
        t = np.linspace(0.0, end, points + 1)[1:]
        running = ((s.start[None, :] <= t[:, None]) & (s.finish[None, :] > t[:, None])).sum(axis=1)
        busy = np.clip(t[:, None] - s.start[None, :], 0.0, (s.finish - s.start)[None, :]).sum(axis=1)
        bins = np.minimum((s.finish / end * points).astype(int), points - 1)
        ok = np.isfinite(self.actual_error)
        count = np.bincount(bins[ok], minlength=points)
        with np.errstate(invalid="ignore", divide="ignore"):
            actual = np.bincount(bins[ok], self.actual_error[ok], points) / count
            predicted = np.bincount(bins[ok], self.predicted_error[ok], points) / count
        return {"time": t, "idle": self.machines - running, "efficiency": 100.0 * busy / (t * self.machines),
                "actual_error": actual, "predicted_error": predicted}


def _options(heuristic):
    p = heuristic.kwargs
    return p, p.get("case", "best")


class _Sim:
    """State of one run."""

    def __init__(self, spec: EstimationSpec, heuristic, w: Workload):
        self.spec, self.h, self.w = spec, heuristic, w
        self.rule = heuristic.heuristic  # the heuristic object: its mapping (order) and capabilities
        self.params, self.case = _options(heuristic)
        n, m = w.work.size, w.speeds.size
        self.N, self.M = n, m
        n_problems = w.stage_release.shape[0]
        self.est = EstimatorState(spec.estimator, w.problem, w.X, m, n_problems)
        for j in range(m):
            self.est.report_rate(j, w.speeds[j] * availability(w, j, 0.0) * (1.0 + w.bench0[j]))
        self.status = np.zeros(n, np.int8)  # 0 unreleased, 1 waiting, 2 running, 3 done
        nan = np.full(n, np.nan)
        self.arrival, self.start, self.finish = nan.copy(), nan.copy(), nan.copy()
        self.machine = np.full(n, -1, np.int64)
        self.first_queue = np.full(n, -1, np.int64)
        self.d_etc, self.d_c, self.d_err, self.d_plan = nan.copy(), nan.copy(), nan.copy(), nan.copy()
        self.act_err, self.t, self.c = nan.copy(), nan.copy(), nan.copy()
        self.obs = np.zeros(n, np.int64)
        self.running = np.full(m, -1, np.int64)
        self.run_plan = np.full(m, np.nan)  # the planned time (d_plan) of each processor's running task if finite
        self.unplanned: dict[int, int] = {}  # processor -> its running task without a finite planned time
        self.queues: list[list[int]] = [[] for _ in range(m)]
        self.rr_next = 0
        self.events: list = []
        self.seq = 0
        self.left = {}  # (problem, stage) -> tasks not yet returned
        for p, s in zip(w.problem, w.stage, strict=True):
            self.left[(int(p), int(s))] = self.left.get((int(p), int(s)), 0) + 1
        self.mapping_events = 0
        self.rng = np.random.default_rng(w.rule_seed)  # a plug-in's draws: the trial's, the same for every heuristic
        self.cached = None  # (ETC, C, predicted ET, tasks) of the last mapping, valid until the next event
        self.row = np.full(n, -1, np.int64)  # each task's row in them
        self.carry = K.CarriedFA(n, m, self.params.get("ties") == "last") if self._carried() else None
        self.touched: set[int] = set()  # the processors whose queues the last mapping filled (to empty at the next)
        self.known_all = False  # every problem has a return (then every task is mapped by the heuristic)
        self.waiting: np.ndarray | None = None  # the waiting tasks (status 1), ascending, until a release or a start
        for p in range(n_problems):
            self._push(float(w.stage_release[p, 0]), RELEASE, p, 0)

    def _carried(self) -> bool:
        """Whether FA's mapping events carry their sorted estimates (:class:`.kernels.CarriedFA`): the best case
        (e = ETC + C), the relative ST, k-NN estimates, remapping at every event, and at least ``CARRY_FROM`` tasks
        (below, its bookkeeping costs more than it saves)."""
        return (self.rule.carried and self.case == "best" and self.params.get("st") == "relative"
                and self.spec.mapping == "return" and self.spec.estimator.method == "knn"
                and self.N >= CARRY_FROM)

    def _push(self, time: float, kind: int, a: int, b: int) -> None:
        heapq.heappush(self.events, (time, kind, self.seq, a, b))
        self.seq += 1

    # --- events ----------------------------------------------------------------------------------
    def run(self) -> EstimationRun:
        while self.events:
            now = self.events[0][0]
            released: list[int] = []
            while self.events and self.events[0][0] == now:
                _, kind, _, a, b = heapq.heappop(self.events)
                if kind == RETURN:
                    self._return(now, a, b)
                else:
                    released += self._release(now, a, b)
            self._map(now, np.array(released, np.int64))
            self._start(now)
        return self._result()

    def _release(self, now: float, p: int, s: int) -> list[int]:
        tasks = np.flatnonzero((self.w.problem == p) & (self.w.stage == s))
        self.status[tasks] = 1
        self.waiting = None
        self.arrival[tasks] = now
        self.est.fill_rows(tasks)
        return tasks.tolist()

    def _return(self, now: float, i: int, j: int) -> None:
        w = self.w
        self.status[i] = 3
        self.running[j] = -1
        self.run_plan[j] = np.nan
        self.unplanned.pop(j, None)
        d, t = self.d_etc[i], self.t[i]  # numpy scalars: eq. 8's arithmetic as ``et`` does it
        self.act_err[i] = abs(d - t) / t if math.isfinite(d) else np.nan
        self.est.report_rate(j, w.speeds[j] * availability(w, j, now) * (1.0 + w.bench[i, j]))
        self.est.observe(i, j, self.t[i], self.c[i], self.act_err[i], self._waiting())
        p, s = int(w.problem[i]), int(w.stage[i])
        if self.carry is not None:
            self.carry.column_changed(p, j)
        self.left[(p, s)] -= 1
        if self.left[(p, s)] == 0 and s + 1 < w.stage_release.shape[1] and math.isfinite(w.stage_release[p, s + 1]):
            self._push(max(now, float(w.stage_release[p, s + 1])), RELEASE, p, s + 1)

    def _waiting(self) -> np.ndarray:
        """The tasks released and not started, ascending (kept until a release or a start changes them)."""
        if self.waiting is None:
            self.waiting = np.flatnonzero(self.status == 1)
        return self.waiting

    # --- mapping ---------------------------------------------------------------------------------
    def _ready(self, now: float) -> np.ndarray:
        """ST_j (eq. 12, :func:`.heuristics.start_times`) from each running task's planned time (at dispatch, else
        the current estimate once its problem is known, else none)."""
        st = self.params.get("st", "absolute")
        plan = self.run_plan
        fast = self.unplanned and self.case == "best" and self.spec.estimator.method == "knn"
        if fast and st == "relative":  # in one kernel call
            est = self.est
            return K.relative_loads(plan, np.array(list(self.unplanned), np.int64), self.running, self.w.problem,
                                    est.returns, est.knn, est.count, est.T, est.rate, est.Cg)
        if fast:
            est, plan = self.est, plan.copy()
            K.running_plans(plan, np.array(list(self.unplanned), np.int64), self.running, self.w.problem, est.returns,
                            est.knn, est.count, est.T, est.rate, est.Cg)
        elif self.unplanned:
            plan = plan.copy()
            procs = np.array(sorted(self.unplanned), np.int64)
            tasks = self.running[procs]
            ok = self.est.known(tasks)
            if ok.any():
                lt, lp = tasks[ok], procs[ok]
                etc, c, err = self.est.estimates(lt, lp)
                plan[lp] = case_time(etc, self._case_err(err, lt, lp), self.case) + c
        has = np.isfinite(plan)
        if st == "relative":  # start_times' "relative" reading in one step
            return np.where(has, plan, 0.0)
        procs = np.flatnonzero(has)
        return H.start_times(st, now, self.M, procs, self.start[self.running[procs]], plan[procs])

    def _map(self, now: float, released: np.ndarray) -> None:
        if self.cached is not None:
            self.row[self.cached[3]] = -1
            self.cached = None
        if self.rule.round_robin:
            for i in released:
                self.queues[self.rr_next].append(int(i))
                self.rr_next = (self.rr_next + 1) % self.M
            return
        remap = self.spec.mapping == "return"
        if remap:
            pool = self._waiting()
            for j in self.touched:  # the others are empty already
                self.queues[j] = []
            self.touched = set()
        else:
            pool = released
        if pool.size == 0:
            return
        self.mapping_events += 1
        if not self.known_all:
            self.known_all = bool((self.est.returns > 0).all())
        known = None if self.known_all else self.est.known(pool)
        # round robin while nothing is known (section 2.2), over the idle processors first (by index), then the busy
        # ones: the paper does not say where the cycle starts; this way an unknown task never waits on a busy
        # processor while another is idle
        busy = self.running >= 0
        every = known is None or known.all()
        unknown = pool[:0] if every else pool[~known]
        if unknown.size:
            cycle = np.argsort(busy, kind="stable")
            self._deal(unknown, cycle.tolist(), busy.tolist())
        tasks = pool if every else pool[known]
        if tasks.size == 0:
            return
        st = self._ready(now)
        if not remap:
            self._add_queued(st)
        idle = self.running < 0
        if remap:  # the queues hold only the round-robin tasks just dealt
            if unknown.size:
                idle[cycle[:min(unknown.size, self.M)]] = False
        else:
            idle &= np.array([not q for q in self.queues])
        order = self.carry.map(self.est, tasks, st, idle, remap) if self.carry is not None else None
        if order is None:
            order = self._order(now, tasks, st, idle, remap)
        picked, to = tasks[order[:, 0]], order[:, 1]
        if remap:
            self._queue_heads(picked, to)
            return
        unset, busy, queues, waits = (self.first_queue[picked] < 0).tolist(), busy.tolist(), self.queues, []
        for r, (i, b) in enumerate(zip(picked.tolist(), to.tolist(), strict=True)):
            if unset[r] and (queues[b] or busy[b]):  # it waits: behind a running or a queued task
                waits.append(r)
            queues[b].append(i)
        self.touched.update(to.tolist())
        self.first_queue[picked[waits]] = to[waits]

    def _queue_heads(self, picked: np.ndarray, to: np.ndarray) -> None:
        """Queues a remapping event's pairs: where each task first waits (:func:`.kernels.queue_heads`), and on each
        idle processor with an empty queue its first task, the only one it can start before the next remap (the
        queues keep no more)."""
        dealt = np.array(list(self.touched), np.int64) if self.touched else NONE  # the round-robin tasks just dealt
        procs, heads = K.queue_heads(picked, to, self.first_queue, self.running, dealt)
        procs = procs.tolist()
        for j, i in zip(procs, heads.tolist(), strict=True):
            self.queues[j].append(i)
        self.touched.update(procs)

    def _deal(self, unknown: np.ndarray, cycle: list, busy: list) -> None:
        """Deals the tasks of unknown problems round robin over the processors in ``cycle``, recording where a task
        first waits (behind a running or a queued task)."""
        queues, m = self.queues, self.M
        unset, waits, to = (self.first_queue[unknown] < 0).tolist(), [], []
        for r, i in enumerate(unknown.tolist()):
            j = cycle[r % m]
            if unset[r] and (queues[j] or busy[j]):
                waits.append(r)
                to.append(j)
            queues[j].append(i)
        self.touched.update(cycle[:min(unknown.size, m)])
        self.first_queue[unknown[waits]] = to

    def _order(self, now: float, tasks: np.ndarray, st: np.ndarray, idle: np.ndarray, remap: bool) -> np.ndarray:
        """The heuristic's (task row, processor) pairs in mapping order (:meth:`.heuristics.EstimationHeuristic.order`)
        from every task's estimates on every processor, which ``_start`` then reads at this same moment (the
        estimator has not changed)."""
        if self.case == "best":
            etc, c, err, e = self.est.planned_estimates(tasks)
        else:
            etc, c, err = self.est.estimates(tasks)
            e = case_time(etc, self._case_err(err, tasks), self.case) + c
        self.row[tasks] = np.arange(tasks.size)
        self.cached = (etc, c, err, tasks)
        w = self.w
        event = H.MappingEvent(now, tasks, w.problem[tasks], w.stage[tasks], e, etc, c, err, st, idle, remap,
                               self.spec.estimator.eps, self.params, self.mapping_events, self.rng)
        return self.rule.order(event)

    def _add_queued(self, st: np.ndarray) -> None:
        """ST_j += the planned time (ETC in the case, plus C) of each task queued on j, in queue order (0 for a task
        of an unknown problem): one estimate call for all of them, not one per task."""
        queued = [(i, j) for j, q in enumerate(self.queues) for i in q]
        if not queued:
            return
        tasks, procs = np.array(queued, np.int64).T
        planned = np.zeros(tasks.size)
        known = self.est.known(tasks)
        if known.any():
            etc, c, err = self.est.estimates(tasks[known], procs[known])
            planned[known] = case_time(etc, self._case_err(err, tasks[known], procs[known]), self.case) + c
        np.add.at(st, procs, planned)  # unbuffered, in order: the same sums as adding one task at a time

    def _case_err(self, err: np.ndarray, tasks: np.ndarray, procs: np.ndarray | None = None) -> np.ndarray:
        """The error the worst case inflates ETC by: the predicted ET, or with "worst-max" the largest ET in U_j."""
        return self.est.worst_error(tasks, procs, err) if self.case == "worst-max" else err

    def _remaps(self) -> bool:
        """Whether every mapping event maps every waiting task again (queues emptied first, see ``_map``)."""
        return self.spec.mapping == "return" and not self.rule.round_robin

    def _start(self, now: float) -> None:
        queues, cached, row, est, case, running = self.queues, self.cached, self.row, self.est, self.case, self.running
        # remapping, only the processors the last mapping gave tasks have a queue; else any may
        for j in sorted(self.touched) if self._remaps() else range(self.M):
            if running[j] >= 0 or not queues[j]:
                continue
            i = queues[j].pop(0)
            p = self.w.problem[i]
            if cached is not None and row[i] >= 0:
                r = row[i]
                etc, c, err = cached[0][r, j], cached[1][r, j], cached[2][r, j]
            elif est.returns[p] > 0:  # queued by an earlier mapping, or round robin
                etc, c, err = (a[0] for a in est.estimates(np.array([i]), np.array([j])))
            else:
                etc = None
            if etc is not None:
                self.d_etc[i], self.d_c[i], self.d_err[i] = etc, c, err
                if case == "best":  # case_time's arithmetic on numpy scalars
                    plan = etc + c
                else:
                    worst = self._case_err(np.array([err]), np.array([i]), np.array([j]))[0] if case == "worst-max" \
                        else err
                    plan = etc * (1.0 + worst) + c
                self.d_plan[i] = plan
            if math.isfinite(self.d_plan[i]):
                self.run_plan[j] = self.d_plan[i]
            else:
                self.unplanned[j] = i
            self.obs[i] = est.count[p, j]
            t, comm = true_time(self.w, i, j, now)
            self.t[i], self.c[i] = t, comm
            self.status[i], self.running[j], self.machine[i] = 2, i, j
            self.waiting = None
            self.start[i], self.finish[i] = now, now + comm + t
            self._push(self.finish[i], RETURN, i, j)

    def _result(self) -> EstimationRun:
        arrival = self.w.stage_release[self.w.problem, 0]
        # expected: the estimate ETC + C the task was dispatched with (NaN if dealt without one), shown beside the
        # actual c + t on the Gantt chart's hover; the worst case plans with more (d_plan), but that is not an estimate
        sched = Schedule(arrival, self.machine, self.start, self.finish, self.d_etc + self.d_c, self.t + self.c, self.M,
                         self.mapping_events)
        return EstimationRun(sched, self.arrival, self.w.problem, self.w.stage, self.d_etc, self.d_c, self.d_err,
                             self.act_err, self.t, self.c, self.first_queue, self.mapping_events, self.M,
                             self.spec.processors.labels(), self.obs)


def run_estimation(spec: EstimationSpec, heuristic, workload: Workload) -> EstimationRun:
    """Simulate one heuristic on one trial's workload."""
    return _Sim(spec, heuristic, workload).run()


def run_metrics(run: EstimationRun) -> dict[str, float]:
    """Makespan, efficiency (eq. 7), estimation error (eq. 8's mean over tasks with an estimate), predicted error."""
    s = run.schedule
    makespan = run.makespan
    busy = float((s.finish - s.start).sum())
    has = np.isfinite(run.actual_error)
    return {
        "makespan": makespan,
        "efficiency": 100.0 * busy / (makespan * run.machines) if makespan > 0 else 100.0,
        "estimation_error": float(run.actual_error[has].mean()) if has.any() else float("nan"),
        "predicted_error": float(run.predicted_error[has].mean()) if has.any() else float("nan"),
        "round_robin_tasks": int((~np.isfinite(run.estimate)).sum()),
        "mapping_events": int(run.mapping_events),
    }
