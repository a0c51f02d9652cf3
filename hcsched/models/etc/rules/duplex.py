"""Duplex (Braun et al., JPDC 61(6), 2001, section 2): at each mapping event, map the meta-task by Min-min and by
Max-min and keep the mapping with the smaller makespan (Min-min's on a tie). A batch rule of the plug-in interface
(:mod:`hcsched.models.etc.plugin`), with its registry entry."""

from __future__ import annotations

import numpy as np
from numba import njit

from hcsched.models.etc import batch, cost, explain
from hcsched.models.etc.heuristics import rule_heuristic


@njit(batch.RULE_SIGNATURE, cache=True)
def duplex(E, zeta, ready, now, params, state, out_task, out_machine):
    """Min-min's and Max-min's mappings of the meta-task ``E`` from ``ready``; the one whose largest ready time
    (makespan) is smaller is written to ``out_task``/``out_machine``, Min-min's on a tie."""
    S = E.shape[0]
    by_min, by_max = ready.copy(), ready.copy()
    max_task, max_machine = np.empty(S, np.int64), np.empty(S, np.int64)
    batch.min_max_order(False, E, zeta, by_min, out_task, out_machine)
    batch.min_max_order(True, E, zeta, by_max, max_task, max_machine)
    if by_max.max() < by_min.max():
        out_task[:S] = max_task
        out_machine[:S] = max_machine
    return S


def trace(h, spec, etc: np.ndarray, ready: np.ndarray) -> list:
    """Explain: both mappings' makespans, then the kept one's iterations of Fig. 1."""
    steps = {word: explain.trace_min_max(word == "Max-min", etc, ready) for word in ("Min-min", "Max-min")}
    span = {word: max(s[-1].ready_after) for word, s in steps.items()}
    kept = "Max-min" if span["Max-min"] < span["Min-min"] else "Min-min"
    for step in steps[kept]:
        step.title = f"{kept}, {step.title}"
    steps[kept][0].reason = (f"Duplex maps the meta-task by Min-min (makespan {span['Min-min']:g}) and by Max-min "
                             f"(makespan {span['Max-min']:g}) and keeps {kept}'s mapping"
                             f"{' (the smaller makespan)' if span['Max-min'] != span['Min-min'] else ' (a tie)'}; "
                             f"{kept}'s first step: " + steps[kept][0].reason)
    return steps[kept]


HEURISTICS = (
    rule_heuristic(duplex, "duplex", "Duplex", "2",
                   "At each mapping event, maps the meta-task by Min-min and by Max-min and keeps the mapping with the "
                   "smaller makespan (Min-min's on a tie).", "Braun et al. 2001",
                   lambda s, h: cost.remap_seconds(s, 2 * (2.1e-9 + 7e-9), 2.0, 3), trace),
)
