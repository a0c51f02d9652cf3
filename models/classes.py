"""The dashboard's part of the task-class model (Al-Azzoni and Down): the Scenario page's editor of classes and rates
with the LP's verdict, lambda* on Home, and the number in system over time on Results."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from hcsched import HcschedError
from hcsched.models.classes.charts import allocation_heatmap, in_system
from hcsched.models.classes.spec import SERVICES, ClassSpec
from pages.common import W, commit_scenario, default, number


def _frames(spec: ClassSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    prefix = "group" if spec.groups is not None else "m"
    alpha = pd.DataFrame({"arrival rate": spec.arrival_rates}, index=[f"class {i}" for i in range(len(spec.arrival_rates))])
    mu = pd.DataFrame(np.array(spec.exec_rates), index=alpha.index,
                      columns=[f"{prefix}{j}" for j in range(len(spec.exec_rates[0]))])
    return alpha, mu


def _resize() -> None:
    """Add or drop machine columns of the rate table."""
    base = st.session_state["sc_mu_base"]
    width = int(st.session_state[W + "columns"])
    values = np.zeros((base.shape[0], width))
    keep = min(width, base.shape[1])
    values[:, :keep] = base.to_numpy()[:, :keep]
    st.session_state["sc_mu_base"] = pd.DataFrame(values, index=base.index, columns=[f"m{j}" for j in range(width)])
    st.session_state.pop(W + "mu_editor", None)


def _groups(text: str, width: int) -> tuple[int, ...] | None:
    if not text.strip():
        return None
    try:
        groups = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise HcschedError(f"machines per column: {text!r} is not allowed; give {width} whole numbers separated by commas, "
                           "or leave it empty") from None
    return groups


def reset() -> None:
    for key in ("sc_alpha_base", "sc_mu_base"):
        st.session_state.pop(key, None)


def overview(scenario, container) -> None:
    """lambda* of the allocation LP, with the verdict."""
    lam = scenario.classes.allocation().lam
    container.metric("λ* of the allocation LP", f"{lam:.4f}", "stable" if lam > 1 else "overloaded",
                     delta_color="normal" if lam > 1 else "inverse")


def trial_charts(runs: dict, colors: dict, key: str) -> None:
    """The number in system over time, one line per heuristic."""
    st.plotly_chart(in_system({label: (r.sample_times, r.in_system) for label, r in runs.items()}, colors),
                    key=f"{key}_in_system", width="stretch")


def editor(sc) -> None:
    """Classes with arrival rates, a class x machine rate table, execution-time law, horizon; LP verdict and delta*."""
    spec = sc.classes
    if "sc_alpha_base" not in st.session_state:
        st.session_state["sc_alpha_base"], st.session_state["sc_mu_base"] = _frames(spec)
    st.subheader("Task classes and machines")
    c1, c2, c3 = st.columns(3)
    service = c1.selectbox("Execution times", SERVICES, key=default("service", spec.service),
                           help="hyperexponential: same mean, twice the exponential's variance")
    horizon = number(c2, "Horizon (time units)", 1.0, 1e9, key=default("horizon", float(spec.horizon)))
    warmup = number(c3, "Warm-up excluded from averages", 0.0, 1e9, key=default("warmup", float(spec.warmup)))
    c1, c2 = st.columns([1, 3])
    with c1:
        st.caption("Arrival rate of each class (tasks per time unit). Add a row for a new class.")
        alpha = st.data_editor(st.session_state["sc_alpha_base"], key=W + "alpha_editor", num_rows="dynamic")
    with c2:
        st.caption("Execution rates μ: rows classes, columns machines (or groups of identical machines); 0 means the "
                   "machine cannot run the class. Rows follow the class table.")
        mu = st.data_editor(st.session_state["sc_mu_base"], key=W + "mu_editor", num_rows="dynamic")
        a, b = st.columns(2)
        a.number_input("Columns", 1, 500, key=default("columns", len(spec.exec_rates[0])), on_change=_resize)
        groups_text = b.text_input("Machines per column (groups), e.g. 10,9,6,5; empty: one machine each",
                                   key=default("groups", ",".join(map(str, spec.groups)) if spec.groups else ""))
    try:
        alpha_values = alpha["arrival rate"].to_numpy(dtype=float, na_value=np.nan)
        mu_values = mu.to_numpy(dtype=float, na_value=np.nan)
        if mu_values.shape[0] != alpha_values.size:
            raise HcschedError(f"the rate table has {mu_values.shape[0]} rows and the class table {alpha_values.size}; "
                               "give one row of execution rates per class")
        new_spec = ClassSpec(tuple(alpha_values.tolist()), tuple(map(tuple, mu_values.tolist())),
                             _groups(groups_text, mu_values.shape[1]), service, float(horizon), float(warmup))
        sc = commit_scenario(sc.replace(classes=new_spec))
    except HcschedError as exc:
        st.error(str(exc))
        return
    alloc = sc.classes.allocation()
    st.subheader("Can this system keep up? The allocation LP")
    if alloc.stable:
        st.success(f"Stable: λ* = {alloc.lam:.4f}. The arrival rates could all grow by {100 * (alloc.lam - 1):.1f}% and a "
                   "suitable mapping would still keep up (Theorem 1).")
    else:
        st.error(f"Overloaded: λ* = {alloc.lam:.4f} < 1. No mapping can keep up (Theorem 2); runs still work and are "
                 "flagged unstable.")
    delta = alloc.delta
    columns = None
    if sc.classes.groups is not None:
        first = np.cumsum([0, *sc.classes.groups[:-1]])
        delta, columns = delta[:, first], [f"group{g} (x{n})" for g, n in enumerate(sc.classes.groups)]
    st.caption("δ*: the share of each machine the LP gives each class. LPAS maps class i only to machines with δ* > 0.")
    st.plotly_chart(allocation_heatmap(delta, columns), key="sc_delta", width="stretch")
