"""A step-by-step trace of one mapping, for explaining heuristics (the dashboard's Explain page).

The decisions come from the same kernels and rules that :func:`hcsched.map_tasks` and the engine use; the trace only
records the values each rule compared. Each heuristic object names its trace (``EtcHeuristic.trace``): a rule's own
decisions, never another rule's steps.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hcsched.models.etc import batch, engine, plugin, search


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


def chose_reason(i, j, e, before, params, state, kwargs, table) -> str:
    """Why a rule of one's own chose m{j}: what its choice costs (the rule's reasons are its own)."""
    return (f"the rule chose m{j} for t{i}: it completes there at {_g(before[j])} + {_g(e[j])} = "
            f"{_g(before[j] + e[j])} (earliest possible: {_g((before + e).min())})")


def trace_immediate(h, spec, etc: np.ndarray, ready: np.ndarray) -> list[TraceStep]:
    """One step per arriving task (section 3.2): the machine heuristic ``h``'s own rule chose, and why
    (``h.reason``)."""
    p = spec.kwargs
    params = h.pack(p)
    rule = h.rule if plugin.is_compiled(h.rule) else plugin.python_immediate(h)
    engine.seed_rules(0)  # as map_tasks does: the same draws for a rule that draws
    plugin.seed_python(h, 0)
    ready = ready.astype(float).copy()
    state = np.zeros(engine.STATE_SIZE)
    steps = []
    for i, e in enumerate(etc):
        before = ready.copy()
        c = before + e
        table = pd.DataFrame({"machine": [f"m{j}" for j in range(e.size)], "ready time": before, "ETC": e,
                              "completion": c})
        j = int(rule(e, before.copy(), 0.0, params, state))
        engine.check_machine(j, e.size)
        why = h.reason(i, j, e, before, params, state, p, table)
        ready[j] += e[j]
        steps.append(TraceStep(f"t{i} arrives", before.tolist(), ready.tolist(), table, [(i, j)], why))
    return steps


def trace_min_max(maximize: bool, etc: np.ndarray, ready: np.ndarray) -> list[TraceStep]:
    """One step per iteration of Fig. 1's do-loop (Min-min; Max-min when ``maximize``)."""
    n = etc.shape[0]
    ready = ready.astype(float).copy()
    meta = batch.meta_task(etc)
    alive, best_j, best_c = meta.alive, meta.best_j, meta.best_c
    batch.init_best(meta, ready)
    steps = []
    for it in range(n):
        before = ready.copy()
        rows = np.flatnonzero(alive)
        table = pd.DataFrame({"task": [f"t{i}" for i in rows], "best machine": [f"m{j}" for j in best_j[rows]],
                              "earliest completion": best_c[rows]})
        k, l = batch.min_max_step(maximize, meta, ready)
        word = "largest" if maximize else "smallest"
        why = (f"of the tasks' earliest completion times, t{k}'s ({_g(ready[l])} on m{l}) is the {word}: t{k} goes "
               f"to m{l}")
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
        held = sorted(((k, j) for j, (k, _, _) in holder.items()), key=lambda a: a[1])
        assert sorted(made, key=lambda a: a[1]) == held
        why = "each contended machine goes to the task that would suffer most without it: " + ", ".join(
            f"t{k} to m{j}" for k, j in made) + "; ready times are updated after the pass"
        steps.append(TraceStep("pass "
                               f"{len(steps) + 1}", before.tolist(), ready.tolist(), pd.DataFrame(rows), made, why))
    return steps


def trace_search(p: dict, etc: np.ndarray, ready: np.ndarray) -> list[TraceStep]:
    """lp-search maps the meta-task at once (:mod:`.search`; ``p`` its parameters): one step, the mapping it ends
    with; its local search's moves, one at a time, are :func:`.search.improvement_step`'s."""
    result = search.improve(etc, ready, iterations=int(p["iterations"]), seed=int(p["seed"]))
    after = ready.astype(float).copy()
    rows = []
    for i, j in enumerate(result.assignment):
        after[j] += etc[i, j]
        rows.append({"task": f"t{i}", "machine": f"m{j}", "ETC": _g(etc[i, j]),
                     "fastest": f"m{int(np.argmin(etc[i]))}"})
    made = [(i, int(j)) for i, j in enumerate(result.assignment)]
    why = (f"the LP relaxation's solution rounded, then local search and {result.iterations_run} iterations of "
           f"iterated greedy: makespan {_g(result.makespan)}")
    return [TraceStep("the whole "
                      "meta-task", ready.astype(float).tolist(), after.tolist(), pd.DataFrame(rows), made, why)]


def trace_rule(h, spec, etc: np.ndarray, ready: np.ndarray) -> list[TraceStep]:
    """A batch rule of one's own (:mod:`.plugin`): one step per decision it made, in its order, with the task's
    completion on each machine at that point (the rule's reasons are its own)."""
    machine, _, _, order = h.map_order(spec, etc, ready)
    ready = ready.astype(float).copy()
    steps = []
    for g, i in enumerate(order):
        i, j = int(i), int(machine[i])
        before = ready.copy()
        c = before + etc[i]
        table = pd.DataFrame({"machine": [f"m{k}" for k in range(etc.shape[1])], "ready time": before,
                              "ETC": etc[i], "completion": c})
        ready[j] += etc[i, j]
        why = (f"decision {g + 1} of {len(order)}: the rule assigned t{i} to m{j}, where it completes at "
               f"{_g(ready[j])} (earliest possible: {_g(c.min())})")
        steps.append(TraceStep(f"decision {g + 1}", before.tolist(), ready.tolist(), table, [(i, j)], why))
    return steps
