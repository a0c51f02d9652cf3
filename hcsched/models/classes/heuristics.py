"""The task-class model's heuristics (Al-Azzoni and Down): MET, MCT and KPB as section II-B applies them to classes
with execution rates (expected completion 1/mu_ij + the queue's expected work), and the LP-based LPAS, LPAS-2/k,
LP-Static, Guided-LPAS and Guided-LPAS-2/k. The simulation selects the rule by name
(:func:`hcsched.models.classes.simulation.policy`), so ``kind`` is -1."""

from __future__ import annotations

from hcsched.heuristics import Heuristic, Param, whole_number

MODEL = "classes"
AL_AZZONI = "Al-Azzoni and Down"


TIES = Param("ties", "lowest", "choice", choices=("lowest", "random"),
             doc="ties, which the paper breaks 'arbitrarily' (sections II-B, III-A): the lowest machine index, or a "
                 "machine drawn at random among those tied (seeded: every heuristic of a replication sees the same "
                 "draws)")


def _classes(name, title, section, description, params=(), checks=()) -> Heuristic:
    return Heuristic(name, title, "immediate", -1, section, description, (*params, TIES), models=(MODEL,),
                     paper=AL_AZZONI, checks=checks)


GUIDED_C = (Param("c", 1.0, float, 0.0, doc="the constant C_ij of condition (iii)"),)

HEURISTICS: tuple[Heuristic, ...] = (
    _classes("mct", "Minimum completion time", "II-B",
             "Maps a class-i arrival to the capable machine with the earliest expected completion: 1/mu_ij plus the expected work of its queue, the running task counted in full."),
    _classes("met", "Minimum execution time", "II-B",
             "Maps a class-i arrival to the machine that executes class i fastest (the largest mu_ij), ignoring queues."),
    _classes("kpb", "K-percent best", "II-B",
             "Considers the kbar machines that execute class i fastest (kbar given, else floor(k M / 100), at least one) and maps to the earliest expected completion among them.",
             (Param("k", 20.0, float, 0.0, 100.0, low_open=True, doc="percent of the machines in the subset"),
              Param("kbar", None, float, 1.0, optional=True, doc="number of machines in the subset (k-bar); overrides k")),
             checks=(whole_number("kbar", "machines"),)),
    _classes("lpas", "LP-based affinity scheduling", "III-A",
             "Solves the allocation LP and maps a class-i arrival to the machine with the earliest expected completion time among S_i, the machines with delta*_ij > 0."),
    _classes("lpas-2k", "LPAS-2/k", "IV-A.1",
             "Like LPAS, but compares only two machines of S_i, drawn with probabilities proportional to delta*_ij mu_ij (the second from the rest); fewer machines are asked for their state."),
    _classes("lp-static", "LP-Static", "IV-A.2",
             "Maps a class-i arrival to machine j with probability delta*_ij mu_ij / (lambda* alpha_i), using no state information."),
    _classes("guided-lpas", "Guided-LPAS", "V",
             "LPAS restricted to machines whose share of class-i arrivals has not run ahead of its target: alpha_ij(t-) < pi_ij alpha_i(t) + c sqrt(t). Guaranteed to stabilise a stabilisable system (Theorem 3).",
             GUIDED_C),
    _classes("guided-lpas-2k", "Guided-LPAS-2/k", "V",
             "LPAS-2/k over the machines of S_i that satisfy Guided-LPAS's condition (iii) (Theorem 4).", GUIDED_C),
)
