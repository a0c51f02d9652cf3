"""A step-by-step trace of one mapping, for explaining heuristics (the dashboard's Explain page).

The decisions come from the same kernels that :func:`hcsched.map_tasks` and
the engine use; the trace only records the values each rule compared.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hcsched.models.etc import batch, immediate, search
from hcsched.scenario import HeuristicSpec


@dataclass
class TraceStep:
    """One decision: what was compared, what was assigned, and why."""

    title: str
    ready_before: list[float]
    ready_after: list[float]
    table: pd.DataFrame
    assignments: list[tuple[int, int]]  # (task, machine)
    reason: str


def _g(x: float) -> str:
    return f"{x:g}"


def trace_immediate(spec: HeuristicSpec, etc: np.ndarray, ready: np.ndarray) -> list[TraceStep]:
    """One step per arriving task (section 3.2)."""
    h, p = spec.heuristic, spec.kwargs
    params = h.pack(p)
    ready = ready.astype(float).copy()
    state = np.zeros(1)
    steps = []
    for i, e in enumerate(etc):
        before = ready.copy()
        c = before + e
        table = pd.DataFrame({"machine": [f"m{j}" for j in range(e.size)], "ready time": before, "ETC": e, "completion": c})
        pi = immediate.load_balance_index(before)
        j = int(immediate.choose(h.kind, e, before, state, params))
        if h.name == "kpb":
            size = immediate.kpb_subset_size(e.size, params[0])
            subset = np.argsort(e, kind="stable")[:size]
            table["in subset"] = np.isin(np.arange(e.size), subset)
            why = (f"the {size} fastest machine(s) for t{i} are {', '.join(f'm{x}' for x in subset)}; "
                   f"among them t{i} completes earliest on m{j}: {_g(before[j])} + {_g(e[j])} = {_g(c[j])}")
        elif h.name == "met" or (h.name == "sa" and state[0] == 1.0):
            why = f"t{i} executes fastest on m{j} ({_g(e[j])}); ready times are ignored"
        elif h.name == "olb":
            why = f"m{j} becomes ready first ({_g(before[j])}); execution times are ignored"
        else:
            why = f"t{i} completes earliest on m{j}: {_g(before[j])} + {_g(e[j])} = {_g(c[j])}"
        if h.name == "sa":
            mode = "MET" if state[0] == 1.0 else "MCT"
            why = (f"load balance index r_min/r_max = {_g(before.min())}/{_g(before.max())} = {pi:.3f}, "
                   f"thresholds {p['low']:g} and {p['high']:g}: SA uses {mode}; " + why)
        ready[j] += e[j]
        steps.append(TraceStep(f"t{i} arrives", before.tolist(), ready.tolist(), table, [(i, j)], why))
    return steps


def trace_min_max(spec: HeuristicSpec, etc: np.ndarray, ready: np.ndarray) -> list[TraceStep]:
    """One step per iteration of Fig. 1's do-loop (Min-min, or Max-min)."""
    n = etc.shape[0]
    ready = ready.astype(float).copy()
    meta = batch.meta_task(etc)
    alive, best_j, best_c = meta.alive, meta.best_j, meta.best_c
    batch.start_mapping(spec.heuristic.kind, meta, ready)
    maximize = spec.heuristic.kind == batch.MAX_MIN
    steps = []
    for it in range(n):
        before = ready.copy()
        rows = np.flatnonzero(alive)
        table = pd.DataFrame({"task": [f"t{i}" for i in rows], "best machine": [f"m{j}" for j in best_j[rows]],
                              "earliest completion": best_c[rows]})
        k, l = batch.min_max_step(maximize, meta, ready)
        word = "largest" if maximize else "smallest"
        why = f"of the tasks' earliest completion times, t{k}'s ({_g(ready[l])} on m{l}) is the {word}: t{k} goes to m{l}"
        steps.append(TraceStep(f"iteration {it + 1}", before.tolist(), ready.tolist(), table, [(int(k), int(l))], why))
    return steps


def trace_sufferage(etc: np.ndarray, ready: np.ndarray) -> list[TraceStep]:
    """One step per execution of Fig. 2's for-statement."""
    n, m = etc.shape
    ready = ready.astype(float).copy()
    meta = batch.meta_task(etc)
    alive = meta.alive
    out_task, out_machine = np.empty(m, np.int64), np.empty(m, np.int64)
    steps = []
    while alive.any():
        before = ready.copy()
        rows, holder = [], {}
        for k in np.flatnonzero(alive):
            c = before + etc[k]
            order = np.argsort(c, kind="stable")
            j1 = int(order[0])
            second = c[order[1]] if m > 1 else c[j1]
            suff = second - c[j1]
            outcome = f"takes m{j1}"
            if j1 in holder:
                prev, prev_suff, prev_row = holder[j1]
                if prev_suff < suff:
                    rows[prev_row]["outcome"] = f"displaced by t{k}; waits for the next pass"
                    outcome = f"takes m{j1} from t{prev} (sufferage {_g(prev_suff)} < {_g(suff)})"
                else:
                    outcome = f"waits: m{j1} is held by t{prev} (sufferage {_g(prev_suff)} >= {_g(suff)})"
            if outcome.startswith("takes"):
                holder[j1] = (int(k), suff, len(rows))
            rows.append({"task": f"t{k}", "best machine": f"m{j1}", "earliest": c[j1], "second earliest": second,
                         "sufferage": suff, "outcome": outcome})
        got = batch.sufferage_pass(meta, ready, out_task, out_machine)
        made = [(int(out_task[g]), int(out_machine[g])) for g in range(got)]
        assert sorted(made, key=lambda a: a[1]) == sorted(((k, j) for j, (k, _, _) in holder.items()), key=lambda a: a[1])
        why = "each contended machine goes to the task that would suffer most without it: " + ", ".join(
            f"t{k} to m{j}" for k, j in made) + "; ready times are updated after the pass"
        steps.append(TraceStep(f"pass {len(steps) + 1}", before.tolist(), ready.tolist(), pd.DataFrame(rows), made, why))
    return steps


def trace_search(spec: HeuristicSpec, etc: np.ndarray, ready: np.ndarray) -> list[TraceStep]:
    """lp-search maps the meta-task at once (:mod:`.search`): one step, the mapping it ends with; its local search's
    moves, one at a time, are :func:`.search.improvement_step`'s."""
    p = spec.kwargs
    result = search.improve(etc, ready, iterations=int(p["iterations"]), seed=int(p["seed"]))
    after = ready.astype(float).copy()
    rows = []
    for i, j in enumerate(result.assignment):
        after[j] += etc[i, j]
        rows.append({"task": f"t{i}", "machine": f"m{j}", "ETC": _g(etc[i, j]), "fastest": f"m{int(np.argmin(etc[i]))}"})
    made = [(i, int(j)) for i, j in enumerate(result.assignment)]
    why = (f"the LP relaxation's solution rounded, then local search and {result.iterations_run} iterations of "
           f"iterated greedy: makespan {_g(result.makespan)}")
    return [TraceStep("the whole meta-task", ready.astype(float).tolist(), after.tolist(), pd.DataFrame(rows), made, why)]


def trace_mapping(spec: HeuristicSpec, etc: np.ndarray, ready: np.ndarray) -> list[TraceStep]:
    """The trace of :func:`hcsched.map_tasks` for any registered heuristic of the ETC model."""
    if spec.heuristic.mode == "immediate":
        return trace_immediate(spec, etc, ready)
    if spec.heuristic.kind == batch.SUFFERAGE:
        return trace_sufferage(etc, ready)
    if spec.heuristic.kind == batch.LP_SEARCH:
        return trace_search(spec, etc, ready)
    return trace_min_max(spec, etc, ready)
