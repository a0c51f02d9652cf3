"""The dashboard's part of the ETC model (Maheswaran et al.): the Scenario page's editor of machines, tasks, the ETC
matrix, arrivals and actual times; the ETC heatmap on Home; Explain over the paper's worked examples
(``pages.models.etc_explain``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from hcsched import HcschedError, calibrate
from hcsched.errors import describe_error
from hcsched.experiment import trial_seeds
from hcsched.models.etc.calibration import CALIBRATION_TARGETS, load_check
from hcsched.models.etc.charts import etc_heatmap
from hcsched.models.etc.spec import MAX_HETEROGENEITY, ActualSpec, ArrivalSpec, EtcSpec
from hcsched.models.etc.workload import CONSISTENCIES, HETEROGENEITY, make_workload
from hcsched.readers import looks_like_hcsp, parse_csv_etc, parse_hcsp_etc
from pages.models._curves import what_the_names_mean
from pages.models.etc_explain import explain  # noqa: F401  (the Explain page's part, in its own module)
from pages.session import Keys, W, commit_scenario, default
from pages.widgets import number, plain, upload_limits, uploaded_text

MATRIX_BASE = "sc_matrix_base"  # the table the matrix editor starts from (an upload, or the scenario's matrix)
CAL_MESSAGE = "sc_cal_message"  # the last calibration's outcome, shown once under the Calibrate button
RATE_RANGE = (1e-12, 1e9)  # what the Rate field accepts, tasks per second
# (EtcSpec, machines, tasks) of the last generated workload, restored on leaving "My own matrix"
GENERATED = "sc_generated"
FROM_MATRIX = "sc_from_matrix"  # set while "My own matrix" is shown: the next generated view restores GENERATED
SHAPE_NOTE = "sc_shape_note"  # what leaving "My own matrix" did to the fields, said once under them
SWEEP_KEY_EXAMPLE = "etc.task_het or heuristics.1.k"
EXAMPLE_FILES = "an ETC matrix (Table 3 of Maheswaran et al.) to upload under *My own matrix*"
#: Fewer tasks than this and one quick run cannot judge the load: the overloaded verdict (under 10% completed when the
#: last task arrives) would rest on fewer than two tasks, and 4 tasks read "0.0% completed" at any rate.


@st.cache_data(show_spinner=False, max_entries=16)
def preview_etc(scenario):
    """The ETC matrix of the scenario's first trial."""
    return make_workload(scenario.spec, trial_seeds(scenario.seed, 1)[0]).etc


@st.cache_data(show_spinner=False, max_entries=32)
def cached_load_check(scenario):
    """MCT's load at the scenario's rate on a quick run (``load_check``)."""
    return load_check(scenario)


def reset() -> None:
    for key in (MATRIX_BASE, "sc_upload_id", CAL_MESSAGE, GENERATED, FROM_MATRIX, SHAPE_NOTE):
        st.session_state.pop(key, None)


ETC_TITLE = "Expected time of each task on each machine (ETC), first trial"
ETC_TITLE_SHORT = "Expected times (ETC), first trial"  # Home's column: the long one was cut at "(ET("


def overview(scenario, container) -> None:
    """The ETC matrix of the first trial (trial 0) as a small heatmap (when it is not too large to draw)."""
    if scenario.tasks * scenario.machines <= 200_000:
        fig = etc_heatmap(preview_etc(scenario), ETC_TITLE_SHORT, height=220)  # a narrow column: a short title
        container.plotly_chart(fig, key="landing_etc")


def trial_charts(runs: dict, colors: dict, key: str) -> None:
    """Nothing beyond the Gantt chart for this model."""


#: The words of the model's Results page in plain words (Maheswaran et al.: the metrics of section 3.1, the immediate
#: and batch modes of sections 3.2 and 3.3, the benchmark of section 5).
SYMBOLS = {
    "Makespan": "when the last task finishes, in seconds from the start (section 3.1).",
    "Normalised makespan": "the makespan over the benchmark heuristic's on the same trial: 1 is as good as the "
                           "benchmark, below 1 better.",
    "Flow time": "a task's time in the system, from its arrival to its finish, in seconds.",
    "Stretch": "a task's flow time over its own run time: 1 means it never waited.",
    "Utilisation": "the share of the machines' time spent running tasks, in %.",
    "ETC": "expected time to compute: the estimated run time of each task on each machine (section 4).",
    "k, kbar": "KPB's subset: the k percent (or the kbar) fastest machines for the task, among which it picks the one "
               "that finishes it first (section 3.2).",
    "immediate, "
    "batch": "immediate-mode heuristics (mct, met, olb, sa, kpb) map each task as it arrives; batch-mode ones "
                        "(min-min, max-min, sufferage) map the waiting tasks together at mapping events (section 3.3).",
}


def results_charts(results: pd.DataFrame, scenario, colors: dict, key: str) -> None:
    """No chart of its own beyond the shared ones: the page's short names and words said in plain words."""
    what_the_names_mean(scenario, key, SYMBOLS)


METHODS = {"range": "Generate: range-based (section "
                    "4)", "cov": "Generate: COV-based (gamma)", "matrix": "My own matrix"}
HET_NAMES = {"hihi": "HiHi", "hilo": "HiLo", "lohi": "LoHi", "lolo": "LoLo", "custom": "custom"}


def _matrix_frame(matrix) -> pd.DataFrame | None:
    if matrix is None:
        return None
    # rows numbered as tasks are (0, 1, ...): a row added in the table gets the next number
    m = np.asarray(matrix, float)
    return pd.DataFrame(m, columns=[f"m{j}" for j in range(m.shape[1])])


def het_name(etc: EtcSpec) -> str:
    pair = (etc.task_het, etc.machine_het)
    return next((k for k, v in HETEROGENEITY.items() if v == pair), "custom")


def on_heterogeneity() -> None:
    name = st.session_state[W + "het"]
    if name in HETEROGENEITY:
        st.session_state[W + "task_het"], st.session_state[W + "machine_het"] = HETEROGENEITY[name]


def on_calibrate() -> None:
    """The Calibrate button's callback (section 5.1). It runs before the page's widgets exist, so it may set the Rate
    field; it calibrates the scenario the page committed on its last run, i.e. what the fields show. A failure is
    reported under the button and changes nothing."""
    sc = st.session_state[Keys.SCENARIO]
    target = st.session_state.get("sc_cal_target", "lambda_h")
    try:
        if st.session_state.get(Keys.PROBLEM):
            raise HcschedError(f"the scenario has an invalid edit: {st.session_state[Keys.PROBLEM]}")
        with st.spinner(f"Calibrating {target}: MCT on 5 workloads of this scenario..."):
            rate = calibrate(sc, target)
        low, high = RATE_RANGE
        if not low <= rate <= high:
            raise HcschedError(f"the rate found, {rate:.3g} tasks per second, is outside what the Rate field accepts "
                               f"({low:g} to {high:g})")
    except Exception as exc:  # never a traceback in the page
        text = str(exc) if isinstance(exc, HcschedError) else f"{type(exc).__name__}: {exc}"
        st.session_state[CAL_MESSAGE] = ("error", f"Calibration failed, nothing was changed: {text}")
        return
    switched = (" Arrivals are now Poisson at this rate (they were all at time 0)."
                if sc.arrivals.process != "poisson" else "")
    st.session_state[W + "rate"] = rate
    st.session_state[W + "process"] = "poisson"
    st.session_state[CAL_MESSAGE] = ("success", f"{target} = {rate:.6g} tasks per second: MCT has completed "
                                                 f"{CALIBRATION_TARGETS[target]:.0%} of the tasks when the last one "
                                                 f"arrives.{switched}")


def _sync_matrix_base() -> None:
    """A table that starts afresh (first visit, or back on the page: Streamlit forgets a table's edits when its page is
    left) starts from the scenario's own matrix, so it shows what the scenario holds."""
    sc = st.session_state[Keys.SCENARIO]
    if W + "editor" not in st.session_state and sc.etc.method == "matrix":
        st.session_state[MATRIX_BASE] = _matrix_frame(sc.etc.matrix)


def _shape_fields(slots, matrix: np.ndarray) -> None:
    """With a matrix of one's own, the Machines and Tasks fields show its shape (not editable)."""
    st.session_state[FROM_MATRIX] = True
    for slot, key, label, value in ((slots[0], "machines", "Machines", matrix.shape[1]),
                                    (slots[1], "tasks", "Tasks", matrix.shape[0])):
        st.session_state[W + key] = int(value)
        slot.number_input(label, 0, None, key=W + key, disabled=True, help="The shape of the matrix below")


def _back_from_matrix() -> None:
    """Leaving "My own matrix" for a generated method: the fields get back the machines, tasks and ETC parameters of
    the generated workload shown before the matrix (a 4 x 4 upload is no size for a generated workload, and its spec
    carries no heterogeneity); a scenario that came with its matrix keeps the matrix's shape. Either is said once under
    the fields."""
    if not st.session_state.pop(FROM_MATRIX, False):
        return
    saved = st.session_state.get(GENERATED)
    if saved is None:
        st.session_state[SHAPE_NOTE] = (f"Machines ({st.session_state[W + 'machines']}) and tasks "
                                        f"({st.session_state[W + 'tasks']}) are kept from the matrix; change them "
                                        "here.")
        return
    etc, machines, tasks = saved
    fields = {"machines": machines, "tasks": tasks, "het": het_name(etc), "task_het": etc.task_het,
              "machine_het": etc.machine_het, "task_mean": etc.task_mean, "task_cov": etc.task_cov,
              "machine_cov": etc.machine_cov, "consistency": etc.consistency, "semi": etc.semiconsistent_mode}
    for key, value in fields.items():
        st.session_state[W + key] = value
    st.session_state[SHAPE_NOTE] = (f"Back to the generated workload shown before *My own matrix*: {machines} "
                                    "machines, "
                                    f"{tasks} tasks, {HET_NAMES[het_name(etc)]} heterogeneity, {etc.consistency}.")


def _filled(matrix: np.ndarray) -> np.ndarray:
    """The table's values, or an error naming its first empty cell (a row added in the table starts empty)."""
    empty = np.argwhere(np.isnan(matrix))
    if empty.size:
        i, j = map(int, empty[0])
        raise HcschedError(f"ETC table: task {i}, machine m{j} is empty; every cell needs a value (tasks x machines)")
    return matrix


def _own_matrix(sc) -> np.ndarray:
    """An uploaded ETC matrix (CSV or HCSP), or the scenario's, in an editable table; the values as the table shows them
    (an empty cell is NaN)."""
    upload = st.file_uploader("Upload an ETC matrix: CSV (rows tasks, columns machines, optional names) or HCSP "
                              "(one value per line)", type=None, key=W + "upload")
    st.caption(upload_limits())
    hcsp_machines = number(st, "Machines (HCSP file without header line)", 1, 1000, key=default("hcsp_machines", 16))
    if upload is not None and st.session_state.get("sc_upload_id") != (upload.file_id, hcsp_machines):
        try:
            text = uploaded_text(upload, "CSV or one value per line")
            if looks_like_hcsp(text):
                lines = [x for x in text.splitlines() if x.strip()]
                has_header = len(lines[0].split()) == 3
                parsed = parse_hcsp_etc(text, None if has_header else hcsp_machines, source=upload.name)
            else:
                parsed = parse_csv_etc(text, source=upload.name)[0]
        except Exception as exc:  # one line under the uploader; the table shown stays
            st.error(plain(describe_error(exc)))
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
    return edited.to_numpy(dtype=float, na_value=np.nan)


def _load_note(slot, sc) -> None:
    """Under the rate: a warning when MCT finds the system nearly idle or overloaded at this rate (the rate does not
    follow edits of machines, heterogeneity or the ETC method), else the load in one line."""
    check = cached_load_check(sc)
    if check is None:
        return
    text = check.message.replace("lambda_t", "λt").replace("lambda_h", "λh").replace("lambda_l", "λl")
    if check.verdict == "too few":
        slot.caption(f"Load check: {text}")
        return
    if check.verdict == "ok":
        slot.caption(f"Load check (one quick MCT run of {check.tasks} tasks): {text}")
    else:
        slot.warning(f"{text} (one quick MCT run of {check.tasks} tasks; Calibrate is just below.)")


def editor(sc) -> None:
    """Machines, tasks, the ETC matrix, arrivals and actual times (Maheswaran et al., section 4)."""
    _sync_matrix_base()
    st.subheader("Machines and tasks")
    method = st.radio("ETC matrix", list(METHODS), format_func=METHODS.get, key=default("method", sc.etc.method),
                      horizontal=True)
    c1, c2 = st.columns(2)
    own = method == "matrix"
    if own:  # the matrix's shape is shown once the table below is read
        slots, machines, tasks = (c1.empty(), c2.empty()), sc.machines, sc.tasks
    else:
        _back_from_matrix()
        # a loaded scenario, or a matrix's shape kept, may be beyond the fields' usual range: shown as it is
        # (``number``),
        # never cut to it; the library decides what a scenario allows
        machines = number(c1, "Machines", 1, 1000, key=default("machines", sc.machines))
        tasks = number(c2, "Tasks", 1, 100_000, key=default("tasks", sc.tasks))
        note = st.session_state.pop(SHAPE_NOTE, None)
        if note:
            st.info(note)

    etc, problem = None, None
    if method == "range":
        st.selectbox("Heterogeneity (task, "
                     "machine)", list(HET_NAMES), format_func=HET_NAMES.get, key=default("het", het_name(sc.etc)),
                     on_change=on_heterogeneity)
        c1, c2 = st.columns(2)
        number(c1, "Task heterogeneity Γt", 1.0, MAX_HETEROGENEITY, key=default("task_het", sc.etc.task_het))
        number(c2, "Machine heterogeneity Γm", 1.0, MAX_HETEROGENEITY, key=default("machine_het", sc.etc.machine_het))
    elif method == "cov":
        c1, c2, c3 = st.columns(3)
        number(c1, "Mean task time", 1e-6, 1e12, key=default("task_mean", sc.etc.task_mean))
        number(c2, "Task COV", 0.01, 10.0, key=default("task_cov", sc.etc.task_cov))
        number(c3, "Machine COV", 0.01, 10.0, key=default("machine_cov", sc.etc.machine_cov))
    else:
        matrix = _own_matrix(sc)
        try:
            etc = EtcSpec("matrix", matrix=tuple(tuple(r) for r in _filled(matrix)))
        except HcschedError as exc:
            problem = str(exc)
            st.error(f"{plain(problem)}. Runs are refused until the table is valid again.")  # directly under the table
        _shape_fields(slots, matrix)

    if not own:
        c1, c2 = st.columns(2)
        consistency = c1.selectbox("Consistency", CONSISTENCIES, key=default("consistency", sc.etc.consistency))
        if consistency == "semiconsistent":
            c2.radio("Semiconsistent reading", ["sort", "smallest"], key=default("semi", sc.etc.semiconsistent_mode),
                     help="sort: sort the values already in the chosen columns; smallest: put each chosen task's "
                          "smallest "
                          "times there (section 4)")
        try:
            g = lambda k, d: st.session_state.get(W + k, d)  # noqa: E731
            etc = EtcSpec(method, g("task_het", sc.etc.task_het), g("machine_het", sc.etc.machine_het),
                          g("task_mean", sc.etc.task_mean), g("task_cov", sc.etc.task_cov),
                          g("machine_cov", sc.etc.machine_cov), g("consistency", sc.etc.consistency),
                          g("semi", sc.etc.semiconsistent_mode))
        except HcschedError as exc:
            problem = str(exc)
            st.error(plain(problem))

    # --- arrivals and actual times -----------------------------------------------------------------
    st.subheader("Arrivals")
    c1, c2 = st.columns(2)
    process = c1.radio("Arrival "
                       "process", ["poisson", "static"], key=default("process", sc.arrivals.process), horizontal=True,
                       format_func={"poisson": "Poisson", "static": "all at time 0"}.get)
    number(c2, "Rate (tasks per second)", *RATE_RANGE, key=default("rate", sc.arrivals.rate), format="%.6g",
                    disabled=process == "static")
    load_slot = st.container()
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.selectbox("Calibrate the rate (section 5.1): the Poisson rate at which MCT has "
                 "completed", list(CALIBRATION_TARGETS),
                 key="sc_cal_target", format_func=lambda t: f"{CALIBRATION_TARGETS[t]:.0%} of the tasks when the last "
                                                            f"one arrives ({t})")
    c2.button("Calibrate", key="sc_calibrate", disabled=etc is None, on_click=on_calibrate)
    outcome = st.session_state.pop(CAL_MESSAGE, None)
    if outcome is not None:
        getattr(st, outcome[0])(outcome[1])

    st.subheader("Actual execution times")
    c1, c2 = st.columns(2)
    model = c1.selectbox("Model", ["gaussian", "exact", "gamma"], key=default("actual", sc.actual.model),
                         format_func={"gaussian": "truncated Gaussian, variance 3 x ETC (section "
                                                  "4)", "exact": "exact (= ETC)",
                                      "gamma": "gamma with a COV"}.get)
    number(c2, "COV (gamma)", 0.001, 10.0, key=default("actual_cov", sc.actual.cov), disabled=model != "gamma")

    # --- the scenario these widgets describe -------------------------------------------------------
    if etc is not None:
        try:
            sc = commit_scenario(sc.replace(etc=etc, machines=int(machines), tasks=int(tasks),
                                            arrivals=ArrivalSpec(process, float(st.session_state[W + "rate"])),
                                            actual=ActualSpec(model, float(st.session_state[W + "actual_cov"]))))
        except HcschedError as exc:
            problem = str(exc)
            st.error(plain(problem))
    if problem:  # Run refuses while it is set, rather than run the last valid scenario (pages.widgets.run_button)
        st.session_state[Keys.PROBLEM] = problem
    else:
        if not own:
            st.session_state[GENERATED] = (sc.etc, sc.machines, sc.tasks)
        _load_note(load_slot, sc)

    if not own and sc.tasks * sc.machines <= 200_000:
        st.plotly_chart(etc_heatmap(preview_etc(sc), ETC_TITLE), key="sc_heatmap", width="stretch")
    elif own and etc is not None:
        st.plotly_chart(etc_heatmap(np.array(etc.matrix)), key="sc_heatmap", width="stretch")
