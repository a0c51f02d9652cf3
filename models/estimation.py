"""The dashboard's part of the estimation model (Page, Keane and Naughton): the Scenario page's editor of
processors, network, problems and the estimator with its error reading; the estimation error (predicted against
actual), idle processors and efficiency over time on Results. The Gantt chart of the Results page shows each task's
planned (estimated) and actual time on hover."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from hcsched import HcschedError
from hcsched.models.estimation.charts import curves_frame, error_over_time, over_time
from hcsched.models.estimation.spec import ERRORS, MAPPINGS, METHODS, WEIGHTS, Estimator, Network, Problem, Processors
from pages.common import W, commit_scenario, default

PROBLEM_COLUMNS = ["name", "release", "stages", "work", "params", "exponents", "data", "noise", "outliers",
                   "outlier_factor"]
ERROR_HELP = {"knn": "A: k-NN over past errors (recommended)", "smoothed": "B: smoothed per processor",
              "mean": "C: the problem's mean"}


def reset() -> None:
    st.session_state.pop("sc_est_problems", None)


def overview(scenario, container) -> None:
    """Processors, tasks and the estimator."""
    s = scenario.spec
    speeds = s.processors.speed_vector()
    container.metric("Processors (slowest / fastest)", f"{s.machines} ({min(speeds) / max(speeds):.2f})")
    container.caption(f"{s.tasks} tasks; estimator {s.estimator.method}, n = {s.estimator.n}, L = {s.estimator.L:g}")


def trial_charts(runs: dict, colors: dict, key: str) -> None:
    """Estimation error over time (predicted against actual), idle processors and efficiency over time, and the
    curves as CSV."""
    frame = curves_frame(runs)
    st.plotly_chart(error_over_time(frame, colors), key=f"{key}_est_error", width="stretch")
    c1, c2 = st.columns(2)
    c1.plotly_chart(over_time(frame, "idle", "idle processors", colors), key=f"{key}_est_idle", width="stretch")
    c2.plotly_chart(over_time(frame, "efficiency", "efficiency so far (%)", colors), key=f"{key}_est_eff",
                    width="stretch")
    st.download_button("Curves over time (CSV)", frame.to_csv(index=False), "curves.csv", "text/csv",
                       key=f"{key}_est_curves")


def _list(text, cast, field):
    try:
        return tuple(cast(x) for x in str(text).replace(";", ",").split(",") if str(x).strip())
    except ValueError:
        raise HcschedError(f"problems, column {field!r}: {text!r} is not a comma-separated list of numbers") from None


def _problems_frame(problems) -> pd.DataFrame:
    rows = []
    for p in problems:
        rows.append({"name": p.name, "release": p.release, "stages": ", ".join(map(str, p.stages)),
                     "work": ", ".join(f"{w:g}" for w in p.work), "params": ", ".join(map(str, p.params)),
                     "exponents": ", ".join(f"{e:g}" for e in p.exponents), "data": p.data, "noise": p.noise,
                     "outliers": p.outliers, "outlier_factor": p.outlier_factor})
    return pd.DataFrame(rows, columns=PROBLEM_COLUMNS)


def _problems(frame: pd.DataFrame) -> tuple[Problem, ...]:
    out = []
    for _, r in frame.dropna(subset=["name"]).iterrows():
        out.append(Problem(str(r["name"]), float(r["release"]), _list(r["stages"], int, "stages"),
                           _list(r["work"], float, "work"), _list(r["params"], int, "params"),
                           _list(r["exponents"], float, "exponents"), float(r["data"]), float(r["noise"]),
                           float(r["outliers"]), float(r["outlier_factor"])))
    return tuple(out)


def editor(sc) -> None:
    """Processors, network, problems (stages, hidden work function, noise), the estimator and when to map."""
    s = sc.spec
    pr, net, est = s.processors, s.network, s.estimator
    st.subheader("Processors and network")
    c = st.columns(4)
    count = c[0].number_input("Processors M", 1, 2000, key=default("est_count", pr.count),
                              disabled=s.trace is not None)
    speed = c[1].number_input("Fastest speed (MFLOP/s)", 1.0, 1e9, key=default("est_speed", float(pr.speed)))
    ratio = c[2].number_input("Slowest / fastest", 0.01, 1.0, key=default("est_ratio", float(pr.ratio)),
                              help="speeds evenly spread between; system A: 0.9, system B: 0.15")
    busy = c[3].number_input("Owner's share of time", 0.0, 0.99, key=default("est_busy", float(pr.busy)),
                             help="non-dedicated processors: the fraction of time slots the owner uses")
    c = st.columns(4)
    level = c[0].number_input("Availability when used", 0.01, 1.0, key=default("est_level", float(pr.busy_level)))
    period = c[1].number_input("Owner slot (s)", 1.0, 1e7, key=default("est_period", float(pr.busy_period)))
    bandwidth = c[2].number_input("Bandwidth (Mb/s)", 0.001, 1e6, key=default("est_bw", float(net.bandwidth)))
    latency = c[3].number_input("Mean latency (s)", 0.0, 1e4, key=default("est_lat", float(net.latency)))
    st.subheader("Problems")
    if s.trace is not None:
        st.info(f"Tasks come from the trace {s.trace_files[0]} ({s.tasks} tasks); processors from {s.trace_files[1]}.")
        problems = s.problems
    else:
        st.caption("Each problem: stages (task counts; a stage is released when the previous one is done), mean work "
                   "per stage (MFLOP), parameter ranges x_k in 0..params_k with exponents of the hidden work "
                   "function, data moved (Mb), lognormal noise sd, outlier probability and factor.")
        if "sc_est_problems" not in st.session_state:
            st.session_state["sc_est_problems"] = _problems_frame(s.problems)
        frame = st.data_editor(st.session_state["sc_est_problems"], key=W + "est_problems", num_rows="dynamic")
        problems = None
    st.subheader("Estimator and error")
    c = st.columns(4)
    method = c[0].selectbox("Estimator", METHODS, index=METHODS.index(est.method), key=W + "est_method",
                            help="knn: Alg. 1 (smoothed average where a processor has no observation); smoothed: "
                                 "eq. 6; average: the mean of past times")
    n = c[1].number_input("n (observations kept)", 1, 100000, key=default("est_n", est.n))
    L = c[2].number_input("L (fraction trimmed)", 0.0, 0.49, key=default("est_L", float(est.L)))
    nu = c[3].number_input("ν (smoothing)", 0.0, 1.0, key=default("est_nu", float(est.nu)))
    c = st.columns(3)
    weights = c[0].selectbox("Weights of eq. 4", WEIGHTS, index=WEIGHTS.index(est.weights), key=W + "est_weights",
                             help="normalised inverse distances, or eq. 4 literally (inflated at least y²-fold)")
    error = c[1].selectbox("Predicted error", ERRORS, index=ERRORS.index(est.error), key=W + "est_error",
                           format_func=ERROR_HELP.get)
    mapping = c[2].selectbox("Remap unstarted tasks at", MAPPINGS, index=MAPPINGS.index(s.mapping),
                             key=W + "est_mapping", format_func={"return": "every release and return",
                                                                 "release": "releases only"}.get)
    try:
        if problems is None:
            problems = _problems(frame)
        processors = Processors(**{**pr.__dict__, "count": int(count) if s.trace is None else pr.count,
                                   "speed": float(speed), "ratio": float(ratio), "busy": float(busy),
                                   "busy_level": float(level), "busy_period": float(period)})
        new = type(s)(processors, Network(float(bandwidth), float(latency)), problems,
                      Estimator(method, int(n), float(L), float(nu), weights, error, est.eps), mapping, s.trace,
                      s.trace_files)
        commit_scenario(sc.replace(spec=new))
    except (HcschedError, TypeError, ValueError) as exc:
        st.error(str(exc))
