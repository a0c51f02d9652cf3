"""Explain for the ETC model: step through one mapping of Maheswaran et al.'s worked examples (Tables 1-3), or of the
scenario's own small ETC matrix, decision by decision."""

import numpy as np
import pandas as pd
import streamlit as st

from hcsched import HcschedError, heuristic_names, map_tasks
from hcsched.models.etc import MODEL as ETC

EXPLAIN_TASKS = 30  # the largest matrix of the user's that the Explain page traces
EXAMPLES = {  # the worked examples of Maheswaran et al. (1999)
    "Tables 1 and 2 (immediate mode)": (np.array([[50, 20, 15], [20, 60, 15], [20, 50, 15]], float), np.array([75, 110, 200], float)),
    "Table 3 (batch mode)": (np.array([[40, 48, 134, 50], [50, 82, 88, 89], [55, 68, 94, 93], [52, 60, 78, 108]], float), None),
}
PARAMS = {"sa": {"low": 0.4, "high": 0.7}, "kpb": {"k": 67}}  # the values of the paper's example


def own_matrix(scenario):
    """The scenario's own matrix, if it is small enough to trace decision by decision."""
    if scenario.etc.method == "matrix" and scenario.tasks <= EXPLAIN_TASKS:
        return np.array(scenario.etc.matrix, float)
    return None


def explain(sc) -> None:
    """The steps of one mapping: the table each decision compared, its reason, the ready times before and after."""
    options = list(EXAMPLES)
    own = own_matrix(sc)
    if own is not None:
        options.append("The scenario's own matrix")
    c1, c2 = st.columns(2)
    example = c1.selectbox("Example", options, key="ex_example")
    names = heuristic_names(model=ETC.name)  # the mappings of seed 000; other models' heuristics are simulated, not traced
    name = c2.selectbox("Heuristic", names, key="ex_heuristic", index=names.index("kpb" if example.startswith("Tables 1") else "sufferage"))
    if example in EXAMPLES:
        etc, ready = EXAMPLES[example]
    else:
        etc, ready = own, None
    params = PARAMS.get(name, {}) if example.startswith("Tables 1") else {}
    try:
        result = map_tasks(etc, name, ready=ready, trace=True, **params)
    except HcschedError as exc:
        st.error(str(exc))
        return
    steps = result.trace
    if params:
        st.caption("Parameters as in the paper's example: " + ", ".join(f"{k} = {v}" for k, v in params.items()))

    c1, c2 = st.columns([1, 2])
    c1.markdown("**ETC matrix**")
    c1.dataframe(pd.DataFrame(etc, columns=[f"m{j}" for j in range(etc.shape[1])], index=[f"t{i}" for i in range(etc.shape[0])]),
                 key="ex_etc")
    st.session_state.setdefault("ex_step", 1)
    st.session_state["ex_step"] = min(st.session_state["ex_step"], len(steps))
    b1, b2, b3 = c2.columns(3)
    if b1.button("Previous", key="ex_prev", disabled=st.session_state["ex_step"] <= 1):
        st.session_state["ex_step"] -= 1
    if b2.button("Next", key="ex_next", disabled=st.session_state["ex_step"] >= len(steps)):
        st.session_state["ex_step"] += 1
    if b3.button("Restart", key="ex_restart"):
        st.session_state["ex_step"] = 1
    k = st.session_state["ex_step"]
    step = steps[k - 1]
    c2.markdown(f"**Step {k} of {len(steps)}: {step.title}**")
    c2.write("Ready times before: " + ", ".join(f"m{j} = {r:g}" for j, r in enumerate(step.ready_before)))
    c2.dataframe(step.table, key="ex_table", hide_index=True)
    c2.success(step.reason)
    c2.write("Ready times after: " + ", ".join(f"m{j} = {r:g}" for j, r in enumerate(step.ready_after)))
    if k == len(steps):
        st.write(f"Done: assignment {', '.join(f't{i}→m{j}' for i, j in enumerate(result.assignment))}; "
                 f"all tasks complete by {result.completion.max():g}; makespan (largest ready time) {result.makespan:g}.")
