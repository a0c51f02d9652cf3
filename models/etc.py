"""The dashboard's part of the ETC model (Maheswaran et al.): the Scenario page's editor of machines, tasks, the ETC
matrix, arrivals and actual times; the ETC heatmap on Home; Explain over the paper's worked examples
(``models.etc_explain``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from hcsched import HcschedError, calibrate
from hcsched.experiment import trial_seeds
from hcsched.models.etc.calibration import CALIBRATION_TARGETS
from hcsched.models.etc.charts import etc_heatmap
from hcsched.models.etc.spec import ActualSpec, ArrivalSpec, EtcSpec
from hcsched.models.etc.workload import CONSISTENCIES, HETEROGENEITY, make_workload
from hcsched.readers import looks_like_hcsp, parse_csv_etc, parse_hcsp_etc
from models.etc_explain import explain  # noqa: F401  (the Explain page's part, in its own module)
from pages.common import W, commit_scenario, default

MATRIX_BASE = "sc_matrix_base"  # the table the matrix editor starts from (an upload, or the scenario's matrix)


@st.cache_data(show_spinner=False, max_entries=16)
def preview_etc(scenario):
    """The ETC matrix of the scenario's first trial."""
    return make_workload(scenario.spec, trial_seeds(scenario.seed, 1)[0]).etc


def reset() -> None:
    st.session_state.pop(MATRIX_BASE, None)
    st.session_state.pop("sc_upload_id", None)


def overview(scenario, container) -> None:
    """The ETC matrix of trial 0 as a small heatmap (when it is not too large to draw)."""
    if scenario.tasks * scenario.machines <= 200_000:
        container.plotly_chart(etc_heatmap(preview_etc(scenario), "ETC matrix of trial 0", height=220), key="landing_etc")


def trial_charts(runs: dict, colors: dict, key: str) -> None:
    """Nothing beyond the Gantt chart for this model."""


METHODS = {"range": "Generate: range-based (section 4)", "cov": "Generate: COV-based (gamma)", "matrix": "My own matrix"}
HET_NAMES = {"hihi": "HiHi", "hilo": "HiLo", "lohi": "LoHi", "lolo": "LoLo", "custom": "custom"}


def _matrix_frame(matrix) -> pd.DataFrame | None:
    if matrix is None:
        return None
    m = np.asarray(matrix, float)
    return pd.DataFrame(m, columns=[f"m{j}" for j in range(m.shape[1])], index=[f"t{i}" for i in range(m.shape[0])])


def het_name(etc: EtcSpec) -> str:
    pair = (etc.task_het, etc.machine_het)
    return next((k for k, v in HETEROGENEITY.items() if v == pair), "custom")


def on_heterogeneity() -> None:
    name = st.session_state[W + "het"]
    if name in HETEROGENEITY:
        st.session_state[W + "task_het"], st.session_state[W + "machine_het"] = HETEROGENEITY[name]


def editor(sc) -> None:
    """Machines, tasks, the ETC matrix, arrivals and actual times (Maheswaran et al., section 4)."""
    st.session_state.setdefault(MATRIX_BASE, _matrix_frame(sc.etc.matrix))
    st.subheader("Machines and tasks")
    method = st.radio("ETC matrix", list(METHODS), format_func=METHODS.get, key=default("method", sc.etc.method), horizontal=True)
    c1, c2 = st.columns(2)
    own = method == "matrix"
    machines = c1.number_input("Machines", 1, 1000, key=default("machines", sc.machines), disabled=own)
    tasks = c2.number_input("Tasks", 1, 100_000, key=default("tasks", sc.tasks), disabled=own)

    matrix = None
    if method == "range":
        st.selectbox("Heterogeneity (task, machine)", list(HET_NAMES), format_func=HET_NAMES.get, key=default("het", het_name(sc.etc)),
                     on_change=on_heterogeneity)
        c1, c2 = st.columns(2)
        c1.number_input("Task heterogeneity Γt", 1.0, 1e9, key=default("task_het", sc.etc.task_het))
        c2.number_input("Machine heterogeneity Γm", 1.0, 1e9, key=default("machine_het", sc.etc.machine_het))
    elif method == "cov":
        c1, c2, c3 = st.columns(3)
        c1.number_input("Mean task time", 1e-6, 1e12, key=default("task_mean", sc.etc.task_mean))
        c2.number_input("Task COV", 0.01, 10.0, key=default("task_cov", sc.etc.task_cov))
        c3.number_input("Machine COV", 0.01, 10.0, key=default("machine_cov", sc.etc.machine_cov))
    else:
        upload = st.file_uploader("Upload an ETC matrix: CSV (rows tasks, columns machines, optional names) or HCSP "
                                  "(one value per line)", type=None, key=W + "upload")
        hcsp_machines = st.number_input("Machines (HCSP file without header line)", 1, 1000, key=default("hcsp_machines", 16))
        if upload is not None and st.session_state.get("sc_upload_id") != (upload.file_id, hcsp_machines):
            try:
                text = upload.getvalue().decode("utf-8")
                if looks_like_hcsp(text):
                    lines = [x for x in text.splitlines() if x.strip()]
                    has_header = len(lines[0].split()) == 3
                    parsed = parse_hcsp_etc(text, None if has_header else hcsp_machines, source=upload.name)
                else:
                    parsed = parse_csv_etc(text, source=upload.name)[0]
            except UnicodeDecodeError:
                st.error(f"{upload.name}: not a text file; expected CSV or one value per line.")
            except HcschedError as exc:
                st.error(str(exc))
            else:
                st.session_state["sc_upload_id"] = (upload.file_id, hcsp_machines)
                st.session_state[MATRIX_BASE] = _matrix_frame(parsed)
                st.session_state.pop(W + "editor", None)
        base = st.session_state.get(MATRIX_BASE)
        if base is None:
            base = _matrix_frame(preview_etc(sc)[:10])  # a start: the first rows of the generated matrix
            st.session_state[MATRIX_BASE] = base
        st.caption("Edit the values, add or delete rows (tasks). Rows are tasks, columns machines.")
        edited = st.data_editor(base, key=W + "editor", num_rows="dynamic", width="stretch")
        matrix = edited.to_numpy(dtype=float, na_value=np.nan)

    if method != "matrix":
        c1, c2 = st.columns(2)
        consistency = c1.selectbox("Consistency", CONSISTENCIES, key=default("consistency", sc.etc.consistency))
        if consistency == "semiconsistent":
            c2.radio("Semiconsistent reading", ["sort", "smallest"], key=default("semi", sc.etc.semiconsistent_mode),
                     help="sort: sort the values already in the chosen columns; smallest: put each chosen task's smallest "
                          "times there (section 4)")
    try:
        if method == "matrix":
            etc = EtcSpec("matrix", matrix=tuple(tuple(r) for r in matrix))
        else:
            g = lambda k, d: st.session_state.get(W + k, d)  # noqa: E731
            etc = EtcSpec(method, g("task_het", sc.etc.task_het), g("machine_het", sc.etc.machine_het), g("task_mean", sc.etc.task_mean),
                          g("task_cov", sc.etc.task_cov), g("machine_cov", sc.etc.machine_cov), g("consistency", sc.etc.consistency),
                          g("semi", sc.etc.semiconsistent_mode))
    except HcschedError as exc:
        etc = None
        st.error(str(exc))

    # --- arrivals and actual times -----------------------------------------------------------------
    st.subheader("Arrivals")
    c1, c2 = st.columns(2)
    process = c1.radio("Arrival process", ["poisson", "static"], key=default("process", sc.arrivals.process), horizontal=True,
                       format_func={"poisson": "Poisson", "static": "all at time 0"}.get)
    c2.number_input("Rate (tasks per second)", 1e-12, 1e9, key=default("rate", sc.arrivals.rate), format="%.6g",
                    disabled=process == "static")
    with st.expander("Calibrate the rate (section 5.1)"):
        st.write("Find the Poisson rate at which MCT has completed a share of the tasks when the last one arrives.")
        c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
        target = c1.selectbox("Target", list(CALIBRATION_TARGETS), key="sc_cal_target",
                              format_func=lambda t: f"{t}: {CALIBRATION_TARGETS[t]:.0%} completed")
        calibrate_clicked = c2.button("Calibrate", key="sc_calibrate", disabled=etc is None)

    st.subheader("Actual execution times")
    c1, c2 = st.columns(2)
    model = c1.selectbox("Model", ["gaussian", "exact", "gamma"], key=default("actual", sc.actual.model),
                         format_func={"gaussian": "truncated Gaussian, variance 3 x ETC (section 4)", "exact": "exact (= ETC)",
                                      "gamma": "gamma with a COV"}.get)
    c2.number_input("COV (gamma)", 0.001, 10.0, key=default("actual_cov", sc.actual.cov), disabled=model != "gamma")

    # --- the scenario these widgets describe -------------------------------------------------------
    if etc is not None:
        try:
            new = sc.replace(etc=etc, machines=int(machines), tasks=int(tasks),
                             arrivals=ArrivalSpec(process, float(st.session_state[W + "rate"])),
                             actual=ActualSpec(model, float(st.session_state[W + "actual_cov"])))
            if calibrate_clicked:
                with st.spinner("Calibrating..."):
                    rate = calibrate(new, target)
                new = new.replace(arrivals=ArrivalSpec("poisson", rate))
                st.session_state[W + "rate"] = rate
                st.session_state[W + "process"] = "poisson"
                st.success(f"{target} = {rate:.6g} tasks per second")
            sc = commit_scenario(new)
        except HcschedError as exc:
            st.error(str(exc))

    if not own and sc.tasks * sc.machines <= 200_000:
        st.plotly_chart(etc_heatmap(preview_etc(sc), "ETC matrix of trial 0"), key="sc_heatmap", width="stretch")
    elif own and etc is not None:
        st.plotly_chart(etc_heatmap(np.array(etc.matrix)), key="sc_heatmap", width="stretch")
