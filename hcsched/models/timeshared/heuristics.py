"""The heuristics of Caniou and Jeannot (sections 2.3 and 6), registered for the time-shared model.

All are immediate: one decision per arrival, every server a candidate. A heuristic is one object
(:class:`TimesharedHeuristic`): its kernel (``kind``: its scores in :func:`hcsched.models.timeshared.engine.scores`,
the choice in :func:`~hcsched.models.timeshared.engine.choose`) or a plug-in's rule (:mod:`.plugin`), its parameters,
what it asks of the HTM and its cost model. Notation (section 4.3): on server j, local task 1 is the oldest
task not finished when the new task arrives at a, the new task is n + 1; T' and T are the HTM's finish dates
without and with the new task on j; delta_i = T_i - T'_i (it can be negative: the new task can delay a task's entry
into a phase and so shorten another's); D_i = T_i - a. Keys are compared with the scenario's ``tie_tolerance``
(seconds); remaining ties go to the lowest server index. "MCT" in the paper's tie rules (section 6.4) is the HTM's
completion of the new task, argmin_j T_{n+1,j} (section 6.4: "the server where ... task n+1 finishes the
soonest"). The readings of the ambiguous rules, and their alternatives, are explained in ``docs/models/timeshared.md``,
"Readings chosen".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hcsched.errors import HcschedError
from hcsched.heuristics import Heuristic, Param
from hcsched.models.timeshared import engine as e
from hcsched.models.timeshared import plugin
from hcsched.models.timeshared.workload import sharing

# Seconds of one run (the cost model of the estimate): a fixed cost per run, a cost per task (its workload, schedule
# and metrics), and per task and server a base cost, one per task sharing a server and one per its square (each
# arrival simulates every server's k tasks to their ends, at a cost that grows faster than k). Fitted by
# bench/estimates.py's scenarios (CPU seconds of one trial in one process on the 2-core machine: caniou-table3 and
# mu0/10/30/70, three slow servers a user uploaded, and caniou-mu30 with servers, tasks and rate x4 and x16, tasks x4,
# mu10 x4 and mu0 with tasks x4). Refitted with the faster kernels (the median of three trials each, kernels
# compiled, least squares on the ratio): within 0.80-1.27 of each, no margin (the estimate is checked both ways,
# within 1.5x of the runs). The same for every built-in heuristic.
COST_RUN, COST_TASK = 1.03e-4, 0.80e-6
COST_BASE, COST_SHARING, COST_SHARING2 = 0.239e-6, 0.100e-6, 0.0119e-6
# A plug-in's run costs a built-in's times this: a numba rule reads views built at every arrival (measured on
# caniou-mu10, MP as a plug-in against the built-in: about 1.2x); a plain Python rule runs the loop as Python
# (measured: about 570x).
NUMBA_FACTOR, PYTHON_FACTOR = 1.2, 500.0


def run_seconds(spec: Any) -> float:
    """One built-in run's seconds: COST_RUN + n (COST_TASK + S (COST_BASE + COST_SHARING k + COST_SHARING2 k^2)),
    n tasks, S servers, each arrival predicting every server's k tasks to their ends (k, k^2:
    :func:`.workload.sharing`), so the cost grows with tasks x servers and faster than linearly with the load.

    Parameters
    ----------
    spec : TimesharedSpec
        The scenario's spec.

    Returns
    -------
    float
        Seconds on one core.
    """
    k, k2 = sharing(spec)
    per_server = COST_BASE + COST_SHARING * k + COST_SHARING2 * k2
    return COST_RUN + spec.tasks * (COST_TASK + spec.servers * per_server)


@dataclass(frozen=True)
class TimesharedHeuristic(Heuristic):
    """A heuristic of the time-shared model: a built-in kernel (``kind``) or a plug-in's ``rule``.

    Parameters
    ----------
    predicts : str
        What its decision asks of the HTM (:data:`.plugin.PREDICTS`): "full", "new" or "off" (a plug-in's
        capability; a built-in's kernel knows its own).
    cost : Callable, optional
        ``cost(spec, heuristic_spec) -> seconds``: a plug-in's own cost model.
    cost_factor : float
        Its run's cost relative to a built-in's (:func:`run_seconds`).
    short_words : str
        Its rule in a few plain words, for a chart's axis under its short name ("least delay, newest weigh most":
        "delay" is the paper's perturbation, "newest weigh most" its mass weights, section 6); the registry title
        keeps the paper's name.
    """

    predicts: str = "full"
    cost: Callable | None = field(default=None, repr=False)
    cost_factor: float = 1.0
    short_words: str = ""

    def trial_seconds(self, spec: Any, heuristic: Any) -> float:
        """Seconds of its run in one trial on one core: its ``cost``, else ``cost_factor`` x :func:`run_seconds`.

        Parameters
        ----------
        spec : TimesharedSpec
            The scenario's spec.
        heuristic : hcsched.scenario.HeuristicSpec
            This heuristic with its parameters.

        Returns
        -------
        float
            Seconds.
        """
        if self.cost is not None:
            return float(self.cost(spec, heuristic))
        return self.cost_factor * run_seconds(spec)

    def options(self, params: dict) -> tuple[bool, bool]:
        """The kernel's switches from its parameters: Fig. 19's literal tie rule (``ties=all``) and NetSolve's
        reported load (``load=reports``)."""
        return params.get("ties") == "all", params.get("load") == "reports"

    def keys(self, L: int, a: float, Tp: np.ndarray, T: np.ndarray, alone: np.ndarray, load: float,
             out: np.ndarray) -> None:
        """A built-in's keys for one server (:func:`.engine.scores`), into ``out``."""
        e.scores(self.kind, L, a, Tp, T, alone, load, out)

    def python_call(self) -> Callable:
        """Its rule as plain Python calls it: a numba rule as it is, a Python rule checked
        (:func:`.plugin.python_rule`)."""
        return self.rule if plugin.is_compiled(self.rule) else plugin.python_rule(self.rule, self.name)

    def mapping(self, spec: Any, params: dict, w: Any) -> tuple[np.ndarray, np.ndarray]:
        """Its run on a workload: each task's server and phase ends (tasks x 3), by the engine's one loop
        (:func:`.engine.loop`; its ``py_func`` for a plain Python rule).

        Parameters
        ----------
        spec : TimesharedSpec
            The scenario's spec (duplex, tie tolerance).
        params : dict
            Its parameters, resolved.
        w : TimesharedWorkload
            The trial's workload.

        Returns
        -------
        tuple of numpy.ndarray
            Servers (tasks) and phase ends (tasks x 3).
        """
        res = e.HALF if spec.duplex == "half" else e.FULL
        all_equal, reports = self.options(params)
        loop, rule = e.loop, e.no_rule
        if self.rule is not None:
            if not plugin.is_compiled(self.rule):
                loop, rule = e.loop.py_func, plugin.python_rule(self.rule, self.name)
            else:
                rule = self.rule
        m = int(w.alone.shape[1])
        try:
            machine, ends, bad = loop(self.kind, rule, w.order, np.ascontiguousarray(w.arrival, np.float64), w.alone,
                                      res, float(spec.tie_tolerance), all_equal, reports,
                                      plugin.predict_code(self.predicts, self.name), self.rule_params(params), w.rng())
        except HcschedError:
            raise
        except Exception as exc:  # noqa: BLE001  (a plug-in's compiled rule: its error in one line)
            if self.rule is None:
                raise
            text = re.sub(r"\x1b\[[0-9;]*m", "", f"{type(exc).__name__}: {exc}")  # numba's bold type errors
            raise HcschedError(f"heuristic {self.name!r}: its rule raised {text}".splitlines()[0]) from None
        if bad >= 0:
            raise HcschedError(f"heuristic {self.name!r}: its rule returned server {int(machine[bad])} for task "
                               f"{int(bad)}; allowed: a server index from 0 to {m - 1}")
        return machine, ends


MODEL = "timeshared"
CANIOU = "Caniou and Jeannot 2002"

TIES = Param("ties", "tied", "choice", choices=("tied", "all"),
             doc="tied: MCT among the servers tied at the smallest score (section 6.4, the default); all: MCT only "
                 "when every server ties, else the lowest index among the smallest (Fig. 19 read literally)")
_MP_TIES = ("Ties (section 6.4: 'in case of equality ... MCT is used'): by default MCT among the servers tied at the "
            "smallest score, then the lowest index; ties=all reads Fig. 19 literally (docs/models/timeshared.md).")


def _h(name: str, title: str, short_words: str, kind: int, section: str, description: str, params: tuple = (),
       predicts: str = "full") -> TimesharedHeuristic:
    return TimesharedHeuristic(name, title, "immediate", kind, section, description, params, models=(MODEL,),
                               paper=CANIOU, predicts=predicts, short_words=short_words)


HEURISTICS: tuple[TimesharedHeuristic, ...] = (
    _h("netsolve-mct", "NetSolve MCT", "earliest finish by server load", e.NETSOLVE_MCT, "2.2-2.3, Fig. 1, 6.1",
       "NetSolve's MCT as the paper simulated it: the server minimising D1 + D2, with D1 = (input + output) / "
       "bandwidth and D2 = (cost / speed) x (1 + load), load the number of tasks mapped to the server and not "
       "finished (section 6.1: 'NetSolve knows perfectly the system states'; the formula of D2 mirrors "
       "NetSolve's and is not in the paper). load=reports replays section 2.3's mechanism instead: +1 at mapping, "
       "-1 at a task-end notice when above 1, a report every 60 s if the count changed, at least every 300 s "
       "(docs/models/timeshared.md). The benchmark. Ties: lowest index.",
       (Param("load", "exact", "choice", choices=("exact", "reports"),
              doc="exact: the true number of unfinished tasks (section 6.1, the default); reports: section 2.3's "
                  "periodic reports and +1/-1 corrections"),), "off"),
    _h("hmct", "Historical minimum completion time", "earliest predicted finish", e.HMCT, "6.2, Fig. 18",
       "MCT with the historical trace: the server where the HTM predicts the new task finishes first, argmin_j "
       "T_{n+1,j}. Ties: lowest index.", predicts="new"),
    _h("mmc", "Min max completion", "soonest-emptying server", e.MMC, "6.3",
       "The server minimising the latest predicted finish among its tasks with the new one, argmin_j max_{i<=n+1} "
       "T_{i,j} (per server; a global makespan would tie all but one server). Ties: lowest index."),
    _h("mp", "Min perturbation", "least delay to the running tasks", e.MP, "6.4.1, Fig. 19",
       "The server minimising the sum of perturbations the new task causes, P_j = sum_i delta_{i,j}. " + _MP_TIES,
       (TIES,)),
    _h("mp-load", "Min perturbation, load", "least delay, then least load", e.MP_LOAD, "6.4.2, Fig. 20",
       "MP; among the servers tied at the smallest P, the one minimising NB_j x D_{n+1,j}, NB_j the tasks still "
       "running without the new one, D_{n+1,j} the new task's predicted length; idle servers give 0 and tie, "
       "then MCT, then the lowest index.", (TIES,)),
    _h("mp-l2", "Min perturbation, delays squared", "least delay, delays squared", e.MP_L2, "6.4.3",
       "The server minimising sqrt(sum_i delta_{i,j}^2): negative perturbations count as harm. " + _MP_TIES, (TIES,)),
    _h("mp-masse-cres", "Min perturbation, mass increasing", "least delay, newest weigh most", e.CRES, "6.4.4, Fig. 21",
       "P_j = sum_i i delta_{i,j}, i the local number (tasks finished before the arrival keep their numbers): "
       "favours the newest tasks. " + _MP_TIES, (TIES,)),
    _h("mp-masse-cres-incr", "Min perturbation, mass increasing (running)",
       "least delay, newest running weigh most", e.CRES_INCR, "6.4.4, Fig. 22",
       "P_j = sum of w delta, w = 1, 2, ... over the tasks still running in arrival order. Equals mp-masse-cres "
       "when tasks finish in arrival order. " + _MP_TIES, (TIES,)),
    _h("mp-masse-decres", "Min perturbation, mass decreasing", "least delay, oldest weigh most", e.DECRES, "6.4.4",
       "P_j = sum_i (n + 1 - i) delta_{i,j}: favours the oldest tasks. " + _MP_TIES, (TIES,)),
    _h("mp-masse-decres-incr", "Min perturbation, mass decreasing (running)",
       "least delay, oldest running weigh most", e.DECRES_INCR, "6.4.4",
       "Weights 'the number of newest tasks still running': r - k + 1 for the k-th of the r running tasks in "
       "arrival order (no figure; read as the mirror of Fig. 22). Equals mp-masse-decres when tasks finish in arrival "
       "order. " + _MP_TIES,
       (TIES,)),
    _h("min-length", "Min length", "least remaining time in all", e.MIN_LENGTH, "6.5",
       "The server minimising the sum of remaining lengths D_i = T_i - a over the tasks still running and the new "
       "one (the literal sum over i = 1..n+1 would count tasks already finished with negative lengths). "
       "Ties: lowest index."),
    _h("msf", "Min total flow time", "least predicted total flow time", e.MSF, "6.6, Fig. 23",
       "The server minimising the system's sum-flow: sum_i delta_{i,j} + T_{n+1,j} - a (the text's 'perturbation "
       "of the last task' read as the sum of perturbations). Ties: lowest index."),
)

NAMES = tuple(h.name for h in HEURISTICS)
