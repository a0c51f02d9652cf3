"""The heuristics of Caniou and Jeannot (sections 2.3 and 6), registered for the time-shared model.

All are immediate: one decision per arrival, every server a candidate. Their scores live in
:func:`hcsched.models.timeshared.engine.scores` (selected by ``kind``) and the choice in
:func:`~hcsched.models.timeshared.engine.choose`. Notation (section 4.3): on server j, local task 1 is the oldest
task not finished when the new task arrives at a, the new task is n + 1; T' and T are the HTM's finish dates
without and with the new task on j; delta_i = T_i - T'_i (it can be negative: the new task can delay a task's entry
into a phase and so shorten another's); D_i = T_i - a. Keys are compared with the scenario's ``tie_tolerance``
(seconds); remaining ties go to the lowest server index. "MCT" in the paper's tie rules (section 6.4) is the HTM's
completion of the new task, argmin_j T_{n+1,j} (section 6.4: "the server where ... task n+1 finishes the
soonest"). The readings of the ambiguous rules, and their alternatives, are explained in ``docs/models/timeshared.md``,
"Readings chosen".
"""

from __future__ import annotations

from hcsched.heuristics import Heuristic, Param
from hcsched.models.timeshared import engine as e

MODEL = "timeshared"
CANIOU = "Caniou and Jeannot 2002"

TIES = Param("ties", "tied", "choice", choices=("tied", "all"),
             doc="tied: MCT among the servers tied at the smallest score (section 6.4, the default); all: MCT only "
                 "when every server ties, else the lowest index among the smallest (Fig. 19 read literally)")
_MP_TIES = ("Ties (section 6.4: 'in case of equality ... MCT is used'): by default MCT among the servers tied at the "
            "smallest score, then the lowest index; ties=all reads Fig. 19 literally (docs/models/timeshared.md).")


def _h(name: str, title: str, kind: int, section: str, description: str, params: tuple = ()) -> Heuristic:
    return Heuristic(name, title, "immediate", kind, section, description, params, models=(MODEL,), paper=CANIOU)


HEURISTICS: tuple[Heuristic, ...] = (
    _h("netsolve-mct", "NetSolve MCT", e.NETSOLVE_MCT, "2.2-2.3, Fig. 1, 6.1",
       "NetSolve's MCT as the paper simulated it: the server minimising D1 + D2, with D1 = (input + output) / "
       "bandwidth and D2 = (cost / speed) x (1 + load), load the number of tasks mapped to the server and not "
       "finished (section 6.1: 'NetSolve knows perfectly the system states'; the formula of D2 mirrors "
       "NetSolve's and is not in the paper). load=reports replays section 2.3's mechanism instead: +1 at mapping, "
       "-1 at a task-end notice when above 1, a report every 60 s if the count changed, at least every 300 s "
       "(docs/models/timeshared.md). The benchmark. Ties: lowest index.",
       (Param("load", "exact", "choice", choices=("exact", "reports"),
              doc="exact: the true number of unfinished tasks (section 6.1, the default); reports: section 2.3's periodic "
                  "reports and +1/-1 corrections"),)),
    _h("hmct", "Historical MCT", e.HMCT, "6.2, Fig. 18",
       "MCT with the historical trace: the server where the HTM predicts the new task finishes first, argmin_j "
       "T_{n+1,j}. Ties: lowest index."),
    _h("mmc", "Min max completion", e.MMC, "6.3",
       "The server minimising the latest predicted finish among its tasks with the new one, argmin_j max_{i<=n+1} "
       "T_{i,j} (per server; a global makespan would tie all but one server). Ties: lowest index."),
    _h("mp", "Min perturbation", e.MP, "6.4.1, Fig. 19",
       "The server minimising the sum of perturbations the new task causes, P_j = sum_i delta_{i,j}. " + _MP_TIES,
       (TIES,)),
    _h("mp-load", "Min perturbation, load", e.MP_LOAD, "6.4.2, Fig. 20",
       "MP; among the servers tied at the smallest P, the one minimising NB_j x D_{n+1,j}, NB_j the tasks still "
       "running without the new one, D_{n+1,j} the new task's predicted length; idle servers give 0 and tie, "
       "then MCT, then the lowest index.", (TIES,)),
    _h("mp-l2", "Min perturbation, L2", e.MP_L2, "6.4.3",
       "The server minimising sqrt(sum_i delta_{i,j}^2): negative perturbations count as harm. " + _MP_TIES, (TIES,)),
    _h("mp-masse-cres", "Min perturbation, mass increasing", e.CRES, "6.4.4, Fig. 21",
       "P_j = sum_i i delta_{i,j}, i the local number (tasks finished before the arrival keep their numbers): "
       "favours the newest tasks. " + _MP_TIES, (TIES,)),
    _h("mp-masse-cres-incr", "Min perturbation, mass increasing (running)", e.CRES_INCR, "6.4.4, Fig. 22",
       "P_j = sum of w delta, w = 1, 2, ... over the tasks still running in arrival order. Equals mp-masse-cres "
       "when tasks finish in arrival order. " + _MP_TIES, (TIES,)),
    _h("mp-masse-decres", "Min perturbation, mass decreasing", e.DECRES, "6.4.4",
       "P_j = sum_i (n + 1 - i) delta_{i,j}: favours the oldest tasks. " + _MP_TIES, (TIES,)),
    _h("mp-masse-decres-incr", "Min perturbation, mass decreasing (running)", e.DECRES_INCR, "6.4.4",
       "Weights 'the number of newest tasks still running': r - k + 1 for the k-th of the r running tasks in "
       "arrival order (no figure; read as the mirror of Fig. 22). Equals mp-masse-decres when tasks finish in arrival "
       "order. " + _MP_TIES,
       (TIES,)),
    _h("min-length", "Min length", e.MIN_LENGTH, "6.5",
       "The server minimising the sum of remaining lengths D_i = T_i - a over the tasks still running and the new "
       "one (the literal sum over i = 1..n+1 would count tasks already finished with negative lengths). "
       "Ties: lowest index."),
    _h("msf", "Min sum flow", e.MSF, "6.6, Fig. 23",
       "The server minimising the system's sum-flow: sum_i delta_{i,j} + T_{n+1,j} - a (the text's 'perturbation "
       "of the last task' read as the sum of perturbations). Ties: lowest index."),
)

KIND = {h.name: h.kind for h in HEURISTICS}
NAMES = tuple(KIND)
