"""The dashboard's part of the estimation model (Page, Keane and Naughton): the Scenario page's editor of
processors, network, problems or an uploaded trace (tasks and processors CSVs), and the estimator with its error
reading; on Results (``results_charts``), the estimation error over time (predicted against actual), idle processors
and efficiency over time: means over trials with their 95% bands, of the heuristics chosen (by default the best few
and the benchmark), with the curves as CSV. The generic Gantt chart shows each task's estimate
(``expected``: ETC + C at dispatch) and its actual c + t on hover."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from hcsched import HcschedError
from hcsched.errors import describe_error
from hcsched.models.estimation import CURVE_SAMPLES, EFFICIENCY_GLOSS, MODEL
from hcsched.models.estimation.charts import error_over_time, mean_curves, median_ends, over_time, processor_rows
from hcsched.models.estimation.heuristics import short_name  # noqa: F401 (the page's short names: pages.models)
from hcsched.models.estimation.spec import ERRORS, MAPPINGS, METHODS, WEIGHTS, Estimator, Network, Problem, Processors
from hcsched.models.estimation.traces import parse_processors, parse_tasks, tasks_csv
from pages.models import named_in_words
from pages.models._curves import shown_heuristics, what_the_names_mean
from pages.session import Keys, W, commit_scenario, default
from pages.widgets import number, plain, upload_limits, uploaded_text

PROBLEM_COLUMNS = ["name", "release", "stages", "work", "params", "exponents", "data", "noise", "outliers",
                   "outlier_factor"]
TRACE = {"tasks": "sc_est_trace_tasks", "processors": "sc_est_trace_processors"}  # uploads kept in the session
PROBLEMS_BASE = "sc_est_problems"  # the problems table the data editor starts from
PROBLEMS_LAST = "sc_est_problems_last"  # the table as last shown, edits included (valid or not)
SOURCE = "sc_est_source"  # generated problems or a trace, as last chosen
SWEEP_KEY_EXAMPLE = "network.latency or problems.1.release"
#: Why a task marked in the Gantt chart can run far longer on one processor than on another of nearly the same speed
#: (section 5: non-dedicated processors whose owners take some time slots; Fig. 3's outliers).
GANTT_NOTE = ("A task's run time differs from processor to processor beyond their speeds: a processor runs at a "
              "fraction of its speed in the time slots its owner uses it, and a few runs of a task (each problem's "
              "outliers) take several times as long.")
EXAMPLE_FILES = "a cluster's history (processors and tasks) to upload under *my cluster's history*"
METRICS = {m.name: m for m in MODEL.metrics}
#: The symbols of the model's Results page in plain words (Page, Keane and Naughton: the heuristics' families in
#: section 3, efficiency eq. 7, the estimation error eq. 8).
SYMBOLS = {
    "F.., L.. (fa, fe, fz, la, le, lz)": "the paper's greedy heuristics (section 3): F maps the task and processor "
                                         "that finish earliest by the estimates, L the pair that best balances the "
                                         "processors' load; the second letter says how each weighs the estimation "
                                         "error: A ignores it, E puts the least error-prone tasks first, Z the most; "
                                         "β sets how much the error weighs (1 in full, 0.1 a tenth); _d: a weight "
                                         "that changes as the run goes on.",
    "rr, ll, ef": "baselines: round robin, lightest loaded, earliest first.",
    "ETC": "the estimated time to compute a task on a processor, learned from the times of past tasks.",
    "Estimation error": "how far the estimate was from the time the task took: |ETC - t| / t (eq. 8), in %: 100% "
                        "means off by as much as the task's own time. It spans decades, so its chart over time has a "
                        "log scale.",
    "Efficiency": "the share of the processors' time spent on the tasks (computing or moving data), in %: 100 x busy "
                  "seconds / (makespan x processors), eq. 7; higher is better.",
    "Most alike runs": "a task's run time is estimated from the past runs of its problem most like it on that "
                       "processor: the k nearest neighbours (k-NN) of section 2.1.",
    "Predicted error": "the error the scheduler expected at dispatch (dashed lines).",
}
SHOWN = 3  # heuristics the curves over time show by default: the best two and the benchmark (each is two error lines)
ERROR_HELP = {"knn": "A: k-NN over past errors (recommended)", "smoothed": "B: smoothed per processor",
              "mean": "C: the problem's mean"}


def reset() -> None:
    for key in (PROBLEMS_BASE, PROBLEMS_LAST, SOURCE, *TRACE.values()):
        st.session_state.pop(key, None)


def overview(scenario, container) -> None:
    """Processors, their spread of speeds, tasks and the estimator, in words (the model's headline: the paper's
    symbols after the words, never a parameter key)."""
    s = scenario.spec
    speeds = s.processors.speed_vector()
    container.metric("Processors", f"{s.machines}",
                     help=f"The slowest runs at {min(speeds) / max(speeds):.2f} of the fastest's speed.")
    container.caption(f"{s.tasks} tasks; {MODEL.headline(s)}.")


def results_charts(results: pd.DataFrame, scenario, colors: dict, key: str) -> None:
    """Estimation error (predicted against actual), idle processors and efficiency over time: means over trials with
    their 95% bands, of the heuristics chosen, and the curves as CSV."""
    what_the_names_mean(scenario, key, SYMBOLS)
    st.subheader("Over time, mean over trials")
    shown = shown_heuristics(results, scenario, key, SHOWN)
    if not shown:
        st.info("Choose at least one heuristic to draw the curves over time.")
        return
    frame = mean_curves(results, scenario.spec.machines, shown)
    until = median_ends(results, shown)
    st.plotly_chart(error_over_time(frame, METRICS["error_at"], colors), key=f"{key}_est_error", width="stretch")
    idle = f"idle processors (of {scenario.spec.machines})"
    st.plotly_chart(over_time(frame, "idle", METRICS["idle_at"], idle, colors, until),
                    key=f"{key}_est_idle", width="stretch")
    st.plotly_chart(over_time(frame, "efficiency", METRICS["efficiency_at"], "efficiency so far (%)", colors, until),
                    key=f"{key}_est_eff", width="stretch")
    st.caption(efficiency_caption())
    st.caption(f"Each run is sampled at {CURVE_SAMPLES} points of its own run; the curves are averaged over the "
               f"{results['trial'].nunique()} {MODEL.trial_word}s on one time grid up to the latest makespan shown (a "
               "run that has ended counts every processor idle and returns no task). Idle processors and efficiency "
               "stop at each heuristic's median makespan: later, most runs would have ended, and their idle "
               "processors alone would make the curves climb to every processor idle. Bands: 95% intervals of the "
               "mean. The CSV holds every curve up to the latest makespan.")
    st.download_button("Curves over time (CSV)", frame.to_csv(index=False), "curves.csv", "text/csv",
                       key=f"{key}_est_curves", on_click="ignore")


def efficiency_caption() -> str:
    """The efficiency charts in one line: what it is and which way is better (eq. 7)."""
    return f"Efficiency: {EFFICIENCY_GLOSS}; higher is better."


def trial_charts(runs: dict, colors: dict, key: str) -> None:
    """Nothing beyond the Gantt chart: the curves over time are averaged over every trial (``results_charts``)."""


def gantt_rows(scenario):
    """The Gantt's rows as the model names them: processors p0, p1, ... (or the processors file's names)."""
    return processor_rows(scenario.spec)


def _whole(text: str) -> int:
    """An integer cell entry; "60.0" is 60 (as a file's 60.0 is), "60.5" is refused."""
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")) or value != int(value):
        raise ValueError(text)
    return int(value)


def _list(text, cast, field, row):
    try:
        return tuple(cast(x) for x in str(text).replace(";", ",").split(",") if str(x).strip())
    except ValueError:
        raise HcschedError(f"problems row {row}, column {field!r}: {text!r} is not a comma-separated list of "
                           f"{'integers' if cast is _whole else 'numbers'}") from None


def _cell(value, field, row) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError):
        out = float("nan")
    if out != out:
        raise HcschedError(f"problems row {row}, column {field!r}: {value!r} is not a number")
    return out


def _problems_frame(problems) -> pd.DataFrame:
    rows = []
    for p in problems:
        rows.append({"name": p.name, "release": p.release, "stages": ", ".join(map(str, p.stages)),
                     "work": ", ".join(f"{w:g}" for w in p.work), "params": ", ".join(map(str, p.params)),
                     "exponents": ", ".join(f"{e:g}" for e in p.exponents), "data": p.data, "noise": p.noise,
                     "outliers": p.outliers, "outlier_factor": p.outlier_factor})
    return pd.DataFrame(rows, columns=PROBLEM_COLUMNS)


def _problems(frame: pd.DataFrame) -> tuple[Problem, ...]:
    """The problems of the table; a row left without a name is ignored, a bad cell is named by row and column."""
    out = []
    for row, (_, r) in enumerate(frame.iterrows(), start=1):
        if r["name"] is None or r["name"] != r["name"] or not str(r["name"]).strip():
            continue
        lists = {f: _list(r[f], cast, f, row) for f, cast in
                 (("stages", _whole), ("work", float), ("params", _whole), ("exponents", float))}
        cells = {f: _cell(r[f], f, row) for f in ("release", "data", "noise", "outliers", "outlier_factor")}
        out.append(Problem(str(r["name"]).strip(), **cells, **lists))
    if not out:
        raise HcschedError("problems: the table has no named problem; give at least one (or use a trace)")
    return tuple(out)


def _named(name: str, exc: Exception) -> str:
    """An upload's error in one line that names the file (once)."""
    said = describe_error(exc)
    return said if said.startswith(name) else f"{name}: {said}"


def _trace_uploads(s) -> None:
    """The tasks and processors CSVs: each upload that reads is kept in the session (a bad one shows its one-line error
    under its uploader and the previous file stays in use); the pair is checked together when the scenario is built."""
    if s.trace is not None:  # the scenario's own trace, until the user uploads another
        label = s.trace_files or ("the scenario's tasks", "the scenario's processors")
        st.session_state.setdefault(TRACE["tasks"], (label[0], tasks_csv(s.trace)))
        st.session_state.setdefault(TRACE["processors"], (label[1], s.processors.names, s.processors.speeds))
    c1, c2 = st.columns(2)
    up = c1.file_uploader("Processors CSV", type=["csv", "txt"], key=W + "est_up_processors",
                          help="one row per processor: name, speed (MFLOP/s, or any unit consistent with work)")
    c1.caption(upload_limits())
    if up is not None:
        try:
            st.session_state[TRACE["processors"]] = (up.name, *parse_processors(uploaded_text(up, "CSV")))
        except Exception as exc:  # one line under the uploader (a parser's own failure too)
            c1.error(plain(_named(up.name, exc)))
    up = c2.file_uploader("Tasks CSV", type=["csv", "txt"], key=W + "est_up_tasks",
                          help="problem, task, stage, release, x1..xq, and work, or time and machine (the measured "
                               "seconds on that processor; other processors' times scale with their speeds)")
    c2.caption(upload_limits())
    if up is not None:
        try:
            text = uploaded_text(up, "CSV")
            parse_tasks(text, _ANY_MACHINE)  # on its own here; with the processors when the scenario is built
            st.session_state[TRACE["tasks"]] = (up.name, text)
        except Exception as exc:  # one line under the uploader (a parser's own failure too)
            c2.error(plain(_named(up.name, exc)))
    procs, tasks = (st.session_state.get(TRACE[k]) for k in ("processors", "tasks"))
    if procs is not None:
        c1.caption(f"In use: {plain(procs[0])} ({len(procs[1])} processors)")
    if tasks is not None:
        c2.caption(f"In use: {plain(tasks[0])}")


class _AnyMachine(dict):
    """Any processor name, speed 1: a tasks CSV checked on its own, before it meets the processors CSV."""

    def __contains__(self, key) -> bool:
        return True

    def __getitem__(self, key) -> float:
        return 1.0


_ANY_MACHINE = _AnyMachine()


def _speeds() -> dict[str, float]:
    procs = st.session_state.get(TRACE["processors"])
    return dict(zip(procs[1], procs[2], strict=True)) if procs is not None else {}


def _trace(s):
    """(tasks, names, speeds, files) of the uploaded pair; files are kept only while it is the scenario's own trace."""
    procs, tasks = (st.session_state.get(TRACE[k]) for k in ("processors", "tasks"))
    if procs is None or tasks is None:
        missing = [what for what, have in (("a processors CSV (name, speed)", procs), (
            "a tasks CSV (problem, task, stage, release, x1..xq, and work or time and machine)", tasks))
            if have is None]
        raise HcschedError(f"upload {' and '.join(missing)}, or use generated problems")
    try:
        trace = parse_tasks(tasks[1], _speeds())
    except HcschedError as exc:
        raise HcschedError(f"{tasks[0]} with {procs[0]}: {exc}") from None
    own = trace == s.trace and procs[1] == s.processors.names and procs[2] == s.processors.speeds
    return trace, procs[1], procs[2], s.trace_files if own else None


def editor(sc) -> None:
    """Processors, network, problems (stages, hidden work function, noise) or an uploaded trace, the estimator with
    its error reading, and when to map."""
    s = sc.spec
    pr, net, est = s.processors, s.network, s.estimator
    # widgets' own keys are dropped when the page is left: what was chosen and typed is kept in plain keys too
    first = st.session_state.get(SOURCE, "trace" if s.trace is not None else "problems")
    source = st.radio("Workload", ["problems", "trace"], key=default("est_source", first), horizontal=True,
                      format_func={"problems": "generated problems (a hidden function of X)",
                                   "trace": "my cluster's history (tasks and processors CSVs)"}.get)
    st.session_state[SOURCE] = source
    use_trace = source == "trace"
    st.subheader("Processors and network")
    c = st.columns(4)
    count = number(c[0], "Processors M", 1, 2000, key=default("est_count", pr.count), disabled=use_trace)
    speed = number(c[1], "Fastest speed (MFLOP/s)", 1.0, 1e9, key=default("est_speed", float(pr.speed)),
                              disabled=use_trace)
    ratio = number(c[2], "Slowest / fastest", 0.01, 1.0, key=default("est_ratio", float(pr.ratio)),
                              help="speeds evenly spread between; system A: 0.9, system B: 0.15", disabled=use_trace)
    busy = number(c[3], "Owner's share of time", 0.0, 0.99, key=default("est_busy", float(pr.busy)),
                             help="non-dedicated processors: the fraction of time slots the owner uses")
    c = st.columns(4)
    level = number(c[0], "Availability when used", 0.01, 1.0, key=default("est_level", float(pr.busy_level)))
    period = number(c[1], "Owner slot (s)", 1.0, 1e7, key=default("est_period", float(pr.busy_period)))
    bandwidth = number(c[2], "Bandwidth (Mb/s)", 0.001, 1e6, key=default("est_bw", float(net.bandwidth)))
    latency = number(c[3], "Mean latency (s)", 0.0, 1e4, key=default("est_lat", float(net.latency)))
    if use_trace:
        st.subheader("Trace")
        st.caption("Replays your cluster's history: the tasks (released as in the trace, stage s+1 when stage s is "
                   "done) on your processors. Set the owner's share and the latency to 0 to replay the times "
                   "exactly. Examples to start from: estimation-tasks.csv and estimation-processors.csv, under "
                   "*Scenario file* → *Example files to start from* below.")
        _trace_uploads(s)
    else:
        st.subheader("Problems")
        st.caption("Each problem: stages (task counts; a stage is released when the previous one is done), mean work "
                   "per stage (MFLOP), parameter ranges x_k in 0..params_k with exponents of the hidden work "
                   "function, data moved (Mb), lognormal noise sd, outlier probability and factor.")
        if W + "est_problems" not in st.session_state:  # a fresh editor: start from the table as last shown
            st.session_state[PROBLEMS_BASE] = st.session_state.get(PROBLEMS_LAST,
                                                                   _problems_frame(s.problems or (Problem(),)))
        frame = st.data_editor(st.session_state[PROBLEMS_BASE], key=W + "est_problems", num_rows="dynamic")
        st.session_state[PROBLEMS_LAST] = frame
    st.subheader("Estimator and error")
    c = st.columns(4)
    method = c[0].selectbox("Estimator", METHODS, index=METHODS.index(est.method), key=W + "est_method",
                            help="knn: Alg. 1 (smoothed average where a processor has no observation); smoothed: "
                                 "eq. 6; average: the mean of past times")
    n = number(c[1], "n (observations kept)", 1, 100000, key=default("est_n", est.n))
    L = number(c[2], "L (fraction trimmed)", 0.0, 0.49, key=default("est_L", float(est.L)))
    nu = number(c[3], "ν (smoothing)", 0.0, 1.0, key=default("est_nu", float(est.nu)))
    c = st.columns(3)
    weights = c[0].selectbox("Weights of eq. 4", WEIGHTS, index=WEIGHTS.index(est.weights), key=W + "est_weights",
                             help="normalised inverse distances, or eq. 4 literally (inflated at least y²-fold)")
    error = c[1].selectbox("Predicted error", ERRORS, index=ERRORS.index(est.error), key=W + "est_error",
                           format_func=ERROR_HELP.get)
    mapping = c[2].selectbox("Remap unstarted tasks at", MAPPINGS, index=MAPPINGS.index(s.mapping),
                             key=W + "est_mapping", format_func={"return": "every release and return",
                                                                 "release": "releases only"}.get)
    try:
        owner = {"busy": float(busy), "busy_level": float(level), "busy_period": float(period)}
        if use_trace:
            trace, names, speeds, files = _trace(s)
            processors = Processors(**{**pr.__dict__, **owner, "count": len(speeds), "speeds": speeds, "names": names})
            problems = ()
        else:
            trace = files = None
            problems = _problems(frame)
            processors = Processors(**{**pr.__dict__, **owner, "count": int(count), "speed": float(speed),
                                       "ratio": float(ratio), "speeds": None, "names": None})
        new = type(s)(processors, Network(float(bandwidth), float(latency)), problems,
                      Estimator(method, int(n), float(L), float(nu), weights, error, est.eps), mapping, trace, files)
        commit_scenario(sc.replace(spec=new))
    except (HcschedError, TypeError, ValueError) as exc:
        st.error(plain(exc))
        st.session_state[Keys.PROBLEM] = str(exc)  # Run refuses rather than run the last valid scenario


def heuristic_ticks(fig, labels):
    """The shared charts' heuristics: each label over its rule in words (:func:`pages.models.named_in_words`), as the
    lines name them."""
    return named_in_words("estimation", fig, labels)
