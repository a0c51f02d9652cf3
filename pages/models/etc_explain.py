"""Explain for the ETC model: step through one mapping of Maheswaran et al.'s worked examples (Tables 1-3), or of the
scenario's own small ETC matrix, decision by decision.

State: the widgets' keys (``ex_example``, ``ex_heuristic``, ``ex_p_<heuristic>_<param>``) and the step shown
(``ex_step``, a plain key). The buttons and selectboxes change them in callbacks, which run before the page is drawn,
so what is drawn (the step, the buttons' disabled state) is never one click behind.
"""

import numpy as np
import pandas as pd
import streamlit as st

from hcsched import HcschedError, get_heuristic, get_model, heuristic_names, lower_bound, map_tasks
from hcsched.models.etc import MODEL as ETC
from hcsched.models.etc.heuristics import BATCH_NAMES
from hcsched.models.etc.search import improvement_step
from pages.session import Keys
from pages.widgets import plain

EXPLAIN_TASKS = 30  # the largest matrix of the user's that the Explain page traces
TABLES_1_2, TABLE_3, OWN = "Tables 1 and 2 (immediate mode)", "Table 3 (batch mode)", "The scenario's own matrix"
EXAMPLES = {  # the worked examples of Maheswaran et al. (1999): ETC matrix and machine ready times
    TABLES_1_2: (np.array([[50, 20, 15], [20, 60, 15], [20, 50, 15]], float), np.array([75, 110, 200], float)),
    TABLE_3: (np.array([[40, 48, 134, 50], [50, 82, 88, 89], [55, 68, 94, 93], [52, 60, 78, 108]], float), None),
}
HEURISTIC = {TABLES_1_2: "kpb", TABLE_3: "sufferage"}  # the heuristic each example shows off (section 3.2; Fig. 2)
STEP, TRACED = "ex_step", "ex_traced"  # the step shown, and the mapping it belongs to
IMPROVED = "ex_improved"  # (the mapping traced, its assignments after 0, 1, 2, ... steps of the local search)


def own_matrix(scenario):
    """The scenario's own matrix, if it is small enough to trace decision by decision."""
    if scenario.etc.method == "matrix" and scenario.tasks <= EXPLAIN_TASKS:
        return np.array(scenario.etc.matrix, float)
    return None


def own_matrix_note(scenario, loaded) -> str:
    """When "The scenario's own matrix" is offered, and why not when it is not."""
    need = f"“{OWN}” needs an ETC scenario with its own matrix of at most {EXPLAIN_TASKS} tasks"
    if loaded is not None and loaded.model != ETC.name:
        return f"{need}; the loaded scenario is of the {get_model(loaded.model).title} model."
    if scenario.etc.method != "matrix":
        return (f"{need}; the loaded scenario draws a new matrix each trial (method '{scenario.etc.method}'). "
                "Choose “My own matrix” on the Scenario page to enter or upload one.")
    if scenario.tasks > EXPLAIN_TASKS:
        return f"{need}; the loaded scenario's matrix has {scenario.tasks} tasks."
    return (f"“{OWN}” traces the loaded scenario's {scenario.tasks} × {scenario.machines} matrix: tasks arrive in "
            "row order, all machines ready at 0.")


def param_key(name: str, param: str) -> str:
    return f"ex_p_{name}_{param}"


def example_params(example: str, name: str) -> dict:
    """The parameters an example starts a heuristic with: the paper's values in its example (the heuristic's own
    ``example``, Tables 1 and 2), else the defaults."""
    h = get_heuristic(name, ETC.name)
    return h.resolve(dict(h.example) if example == TABLES_1_2 else None)


def _reset_params(example: str, name: str) -> None:
    for param, value in example_params(example, name).items():
        st.session_state[param_key(name, param)] = value
    st.session_state[STEP] = 1


def _on_example() -> None:
    """A new example starts at step 1 with its own heuristic (a user's matrix keeps the heuristic) and parameters."""
    example = st.session_state["ex_example"]
    name = HEURISTIC.get(example, st.session_state.get("ex_heuristic", "mct"))
    st.session_state["ex_heuristic"] = name
    _reset_params(example, name)


def _on_heuristic() -> None:
    _reset_params(st.session_state["ex_example"], st.session_state["ex_heuristic"])


def _move(delta: int) -> None:
    st.session_state[STEP] = st.session_state.get(STEP, 1) + delta


def _restart() -> None:
    st.session_state[STEP] = 1


def choose(options: list[str], names: list[str]) -> tuple[str, str]:
    """The example and heuristic selectboxes; first visit: the first example with its own heuristic."""
    if st.session_state.get("ex_example") not in options:  # first visit, or the scenario's matrix is gone
        st.session_state["ex_example"] = options[0]
        _on_example()
    if st.session_state.get("ex_heuristic") not in names:
        st.session_state["ex_heuristic"] = HEURISTIC.get(st.session_state["ex_example"], names[0])
        _on_heuristic()
    c1, c2 = st.columns(2)
    example = c1.selectbox("Example", options, key="ex_example", on_change=_on_example)
    name = c2.selectbox("Heuristic", names, key="ex_heuristic", on_change=_on_heuristic,
                        format_func=lambda n: f"{n}: {get_heuristic(n, ETC.name).title}")
    return example, name


def param_widgets(example: str, name: str) -> dict:
    """One widget per parameter that the traced mapping reads; returns their values, unchecked."""
    h = get_heuristic(name, ETC.name)
    if h.plugin:
        st.caption(f"{h.name} is a plug-in ({h.origin}): the steps are its rule's own decisions; each reason says "
                   "what the choice costs, not why the rule made it (its reasons are its own).")
    own = [p for p in h.params if h.mode == "immediate" or p.name not in BATCH_NAMES]
    if h.mode == "batch":
        st.caption(f"The mapping-event parameters ({', '.join(sorted(BATCH_NAMES))}) decide when mapping events "
                   "happen in a simulation; here all tasks form one meta-task mapped at time 0, so they do not change "
                   "the steps.")
    if not own:
        if h.mode == "immediate":
            st.caption(f"{h.title} has no parameters.")
        return {}
    for param, value in example_params(example, name).items():  # first visit, or widget state dropped
        if param in {p.name for p in own}:
            st.session_state.setdefault(param_key(name, param), value)
    values = {}
    for p, col in zip(own, st.columns(max(len(own), 3)), strict=False):
        label, key, help_ = p.name, param_key(name, p.name), f"{p.doc}. Allowed: {p.allowed()}."
        if p.kind == "choice":
            values[p.name] = col.selectbox(label, p.choices, key=key, help=help_)
            continue
        whole = p.kind is int
        step = 1 if whole else (0.05 if p.high is not None and p.high <= 1 else 1.0)
        values[p.name] = col.number_input(label + (" (empty = "
                                                   "off)" if p.optional else ""), value=None if p.optional else "min",
                                          step=step, format="%d" if whole else "%g", key=key, help=help_)
    if example == TABLES_1_2 and h.example:
        st.caption("The paper's example uses " + ", ".join(f"{k} = {v:g}" for k, v in h.example) + ".")
    return values


def step_table(table: pd.DataFrame, key: str) -> None:
    """The values one decision compared; text columns (the outcome) are as wide as their longest entry."""
    config = {c: st.column_config.TextColumn(c, width=8 * int(max(table[c].map(len).max(), len(c))) + 32)
              for c in table.columns if pd.api.types.is_string_dtype(table[c])}
    st.dataframe(table, key=key, hide_index=True, column_config=config, width="stretch")


def explain(sc) -> None:
    """The steps of one mapping: the table each decision compared, its reason, the ready times before and after."""
    options = list(EXAMPLES)
    own = own_matrix(sc)
    if own is not None:
        options.append(OWN)
    example, name = choose(options, heuristic_names(model=ETC.name))  # the ETC mappings of seed 000
    st.caption(own_matrix_note(sc, st.session_state.get(Keys.SCENARIO)))
    etc, ready = EXAMPLES.get(example, (own, None))
    params = param_widgets(example, name)
    try:
        result = map_tasks(etc, name, ready=ready, trace=True, **params)
    except HcschedError as exc:
        st.error(plain(exc))
        return
    steps = result.trace
    traced = (example, name, tuple(params.items()), etc.tobytes())
    if st.session_state.get(TRACED) != traced:  # another mapping (also after leaving the page) starts at step 1
        st.session_state[TRACED], st.session_state[STEP] = traced, 1
    k = st.session_state[STEP] = min(max(1, int(st.session_state.get(STEP, 1))), len(steps))
    step = steps[k - 1]

    c1, c2 = st.columns([1, 2])
    c1.markdown("**ETC matrix**")
    c1.dataframe(pd.DataFrame(etc, columns=[f"m{j}" for j in range(etc.shape[1])],
                              index=[f"t{i}" for i in range(etc.shape[0])]), key="ex_etc")
    b1, b2, b3 = c2.columns(3)
    b1.button("Previous", key="ex_prev", disabled=k <= 1, on_click=_move, args=(-1,), width="stretch")
    b2.button("Next", key="ex_next", disabled=k >= len(steps), on_click=_move, args=(1,), width="stretch")
    b3.button("Restart", key="ex_restart", on_click=_restart, width="stretch")
    c2.markdown(f"**Step {k} of {len(steps)}: {step.title}**")
    c2.write("Ready times before: " + ", ".join(f"m{j} = {r:g}" for j, r in enumerate(step.ready_before)))
    c2.success(step.reason)
    c2.write("Ready times after: " + ", ".join(f"m{j} = {r:g}" for j, r in enumerate(step.ready_after)))
    step_table(step.table, "ex_table")
    if k == len(steps):
        st.write(f"Done: assignment {', '.join(f't{i}→m{j}' for i, j in enumerate(result.assignment))}; "
                 f"all tasks complete by {result.completion.max():g}; makespan (largest ready time) "
                 f"{result.makespan:g}.")
        improvement(etc, ready, result.assignment, traced)


def makespan_of(etc: np.ndarray, ready, assignment: np.ndarray) -> tuple[np.ndarray, float]:
    """The machines' ready times after ``assignment`` (machine per task), and the largest."""
    n, m = etc.shape
    loads = (np.zeros(m) if ready is None else ready) + np.bincount(assignment, etc[np.arange(n), assignment], m)
    return loads, float(loads.max())


def _apply(moves: list) -> None:
    traced, kept = st.session_state[IMPROVED]
    a = kept[-1].copy()
    for task, _, to in moves:
        a[task] = to
    st.session_state[IMPROVED] = (traced, [*kept, a])


def _undo_improvements() -> None:
    traced, kept = st.session_state[IMPROVED]
    st.session_state[IMPROVED] = (traced, kept[:1])


def improvement(etc: np.ndarray, ready, assignment: np.ndarray, traced) -> None:
    """How far the finished mapping is from the LP lower bound, and the local search of ``lp-search`` on it one step
    at a time: which task moves from which machine, and why the makespan falls."""
    kept = st.session_state.get(IMPROVED)
    if kept is None or kept[0] != traced:
        kept = st.session_state[IMPROVED] = (traced, [np.asarray(assignment)])
    bound = lower_bound(etc, ready)
    _, makespan = makespan_of(etc, ready, kept[1][-1])
    st.subheader("How far from the best possible")
    done = len(kept[1]) - 1
    mapping = "This mapping" if not done else f"After {done} improvement step{'s' * (done > 1)}, the mapping"
    gap = ("equals the lower bound: no mapping does better." if makespan <= bound * (1 + 1e-12) else
           f"is {100 * (makespan / bound - 1):.1f}% above it; no mapping can beat the bound.")
    st.write(f"Lower bound (the LP relaxation: tasks may be split between machines): {bound:g}. {mapping}'s makespan "
             f"{makespan:g} {gap}")
    step = improvement_step(etc, kept[1][-1], ready)
    b1, b2 = st.columns(2)
    if step is None:
        st.info("No move, swap or chain of tasks out of the critical machine lowers the makespan: a local optimum of "
                "lp-search's local search (its iterated greedy would now remove a few tasks and reinsert them).")
    else:
        what = "; ".join(f"t{t} from m{x} to m{y}" for t, x, y in step.moves)
        st.markdown(f"**Next improvement of lp-search's local search ({step.kind}): {what}**")
        st.success(step.why)
        b1.button("Apply this step", key="ex_improve", on_click=_apply, args=(step.moves,), width="stretch")
    b2.button("Back to the heuristic's mapping", key="ex_unimprove", disabled=not done, on_click=_undo_improvements,
              width="stretch")
    if done:
        st.caption("Assignment now: " + ", ".join(f"t{i}→m{j}" for i, j in enumerate(kept[1][-1])))
