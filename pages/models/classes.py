"""The dashboard's part of the task-class model (Al-Azzoni and Down): the Scenario page's editor of classes and rates
with the LP's verdict (an invalid edit refuses runs), lambda* on Home, and on Results the number in system over time of
the heuristics chosen, averaged over replications."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pandas as pd
import streamlit as st

from hcsched import HcschedError
from hcsched.charts import GanttRows, with_names, with_words
from hcsched.experiment import trial_seeds
from hcsched.heuristics import label_parts
from hcsched.models.classes import IN_SYSTEM, MODEL, NOT_ASKED
from hcsched.models.classes.charts import allocation_heatmap, in_system
from hcsched.models.classes.heuristics import said_name as short_name  # the page's short names: pages.models
from hcsched.models.classes.heuristics import tick_name
from hcsched.models.classes.lp import times
from hcsched.models.classes.simulation import SAMPLES, in_system_trials
from hcsched.models.classes.spec import EXEC_AS, LONG_BRANCH_MAX, SERVICES, ClassSpec
from hcsched.verdict import run_words
from pages.models._curves import shown_heuristics, what_the_names_mean
from pages.session import W, commit_scenario, default, refuse_runs
from pages.widgets import number


def _frames(spec: ClassSpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    prefix = "group" if spec.groups is not None else "m"
    alpha = pd.DataFrame({"arrival rate": spec.arrival_rates},
                         index=[f"class {i}" for i in range(len(spec.arrival_rates))])
    mu = pd.DataFrame(np.array(spec.exec_rates), index=alpha.index,
                      columns=[f"{prefix}{j}" for j in range(len(spec.exec_rates[0]))])
    return alpha, mu


BASE = {"alpha": "sc_alpha_base", "mu": "sc_mu_base"}  # the tables the data editors start from
LAST = {"alpha": "sc_alpha_last", "mu": "sc_mu_last"}  # the tables as last shown, edits included (valid or not)
SWEEP_KEY_EXAMPLE = "exec_rates.0.1 or heuristics.1.k"
EXAMPLE_FILES = "execution rates for `hcsched lp --alpha 5,8 --mu class-rates-B.csv`"


def _resize() -> None:
    """Add or drop machine columns of the rate table, keeping the rates typed so far."""
    base = st.session_state.get(LAST["mu"], st.session_state[BASE["mu"]])
    width = int(st.session_state[W + "columns"])
    values = np.zeros((base.shape[0], width))
    keep = min(width, base.shape[1])
    values[:, :keep] = base.to_numpy()[:, :keep]
    st.session_state[BASE["mu"]] = st.session_state[LAST["mu"]] = pd.DataFrame(
        values, index=base.index, columns=[f"m{j}" for j in range(width)])
    st.session_state.pop(W + "mu_editor", None)


def _groups(text: str, width: int) -> tuple[int, ...] | None:
    if not text.strip():
        return None
    try:
        groups = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise HcschedError(f"machines per column: {text!r} is not allowed; give {width} whole numbers separated by "
                           f"commas, "
                           "or leave it empty") from None
    return groups


def reset() -> None:
    for key in (*BASE.values(), *LAST.values()):
        st.session_state.pop(key, None)


#: The symbols of the model's Results page in plain words (Al-Azzoni and Down: lambda* and delta* in section III,
#: KPB's kbar in section II, the discount metric in section IV).
SYMBOLS = {
    "λ* (lambda star)": "the allocation LP's capacity (section III): every arrival rate could be multiplied by λ* "
                        "and some mapping would still keep up. Above 1 the system is *stabilisable* (the machines can "
                        "keep up, Theorem 1); below 1 it is overloaded whatever the mapping (Theorem 2).",
    "kbar (k̄, k-bar)": "KPB's number of machines: for each task, KPB (K-percent best) compares only the kbar machines "
                       "that run the task's class fastest, and picks the one of them that finishes the task first; "
                       "with kbar = 1, each class's fastest machine only (section II-B).",
    NOT_ASKED: "the share of the machines the scheduler does not ask how busy they are when a task arrives, on "
               "average: 100% asks none, 0% asks every machine; higher is cheaper. The paper's state-information "
               "discount, (1 - N_s / M) x 100, N_s the machines asked per task, M all machines (section IV).",
    IN_SYSTEM: "tasks waiting or running, all machines together, averaged over time: the paper's mean number in "
               "system (section III-B).",
}
#: Said once, in the run's caption right under the lead (pages.results_view): what a time unit is.
TIME_UNITS = ("Times are in abstract *time units*: the paper gives no real-world unit (rates are tasks per time unit, "
              "response times and the horizon are in time units).")


def _capacity(match: re.Match) -> str:
    lam = float(match.group(1))
    if match.group(2) == "stabilisable":
        return f"the machines can handle {times(lam)} times these arrivals"
    return f"the machines cannot keep up with these arrivals, whatever the mapping: {_take(lam)}"


def _take(share: float, only: str = "") -> str:
    """A share of the arrivals the machines can take, under one, in the words the what-if's lead says it: "they can
    take about 67% of these arrivals" (the LP's λ*, section III, Theorem 2), ``only`` before the share; always a
    percentage, so that the boxes of several heuristics side by side (67%, 62%) say their shares one way."""
    return f"they can take {only}about {share:.0%} of these arrivals"


#: A label that names its parameters ("kpb (kbar=1)", "kpb (k=20, ties=random)") where a text writes it.
LABEL = re.compile(r"(?<![\w-])[a-z][\w-]* \([^()=]+=[^()]*\)")


def shown_text(text: str) -> str:
    """The library's text (the headline, the warnings, the verdict's lines) writes lambda* for the LP's optimum; the
    pages show λ*, and the headline's verdict in words alone ("lambda* = 1.3333 (stabilisable)": "the machines can
    handle 1.33 times these arrivals"; section III, Theorems 1 and 2; the Scenario page and the names' meanings say
    the LP's λ*); the share of arrivals an overloaded system can take in plain words, one way in the lead, the caption
    and the warnings ("they can take 0.67 times these arrivals", "they can take only 0.62 times the arrivals": "about
    two thirds of these arrivals", "only about 62% of these arrivals"). A heuristic's label written with its
    parameters is said in words alone ("kpb (kbar=1)": "kpb (each class's fastest machine)", section II-B; the symbol
    is the Heuristics page's)."""
    text = LABEL.sub(lambda m: short_name(m.group(0)), text.replace("lambda*", "λ*"))
    text = TAKE.sub(lambda m: _take(float(m.group(2)), m.group(1) or ""), text)
    return re.sub(r"λ\* = ([0-9.]+) \((stabilisable|overloaded[^)]*)\)", _capacity, text)


#: "they can take 0.67 times these arrivals" (``MODEL.overload_words``), "they can take only 0.62 times the arrivals"
#: (``MODEL.warnings``, a heuristic's machines): a share under one, said in words.
TAKE = re.compile(r"they can take (only )?(0\.[0-9]+) times (?:these|the) arrivals")


def heuristic_ticks(fig, labels):
    """The shared charts' heuristic axes (bars, per-replication boxes, the Compare chart): each heuristic's name over
    the words the lines say of it, smaller ("kpb" over "each class's fastest machine", section II-B; "lpas" over its
    rule), one set of words on the page; a name other labels of the run share keeps its parameters in a few words
    ("kpb (each class's fastest)"); the marks a tick had ("(benchmark)") kept."""
    labels = [str(x) for x in labels]
    names = Counter(label_parts(x)[0] for x in labels)
    fig = with_names(fig, labels, lambda x: label_parts(x)[0] if names[label_parts(x)[0]] == 1 else tick_name(x))
    words = run_words(labels, MODEL.name)
    return with_words(fig, labels, lambda x: words.get(x, ""), wrap=TICK_WRAP)


TICK_WRAP = 30  # characters of a tick's line of words: the bars' three panels side by side fit 1000 px


def overview(scenario, container) -> None:
    """How many times today's arrivals the machines can keep up with (the allocation LP's lambda*), and the verdict."""
    lam = scenario.classes.allocation().lam
    container.metric("Arrivals the machines can keep up with", f"{times(lam)} × today's",
                     "stable" if lam > 1 else "overloaded", delta_color="normal" if lam > 1 else "inverse",
                     help=f"The allocation LP's λ* = {lam:.4f} (section III): every arrival rate could be multiplied "
                          "by λ* and some mapping would still keep up. Above 1 the system is stable (Theorem 1); "
                          "below 1 no mapping keeps up (Theorem 2).")


CURVE_SECONDS = 5.0  # estimated seconds the number-in-system curves may take before the user asks for every replication


@st.cache_data(show_spinner=False, max_entries=12)  # the whole server's, a few runs' curves: bounds its memory
def _in_system(scenario, label: str, trials: int) -> tuple[np.ndarray, np.ndarray]:
    """One heuristic's number in system over the first ``trials`` replications of the run (the same workloads)."""
    heuristic = next(h for h in scenario.heuristics if h.label == label)
    return in_system_trials(heuristic, scenario.classes, trial_seeds(scenario.seed, scenario.trials)[:trials])


def results_charts(results: pd.DataFrame, scenario, colors: dict, key: str) -> None:
    """The number in system over time of the heuristics chosen: the mean over replications with its 95% band.

    The curve is no results column (the golden results stay byte-identical), so the replications are simulated
    again for it, with the run's seeds, once per scenario and heuristic (cached); when that would take more than
    CURVE_SECONDS, the mean is over the first replications that fit, said under the chart, until the user asks for
    all of them."""
    what_the_names_mean(scenario, key, SYMBOLS)
    st.subheader("Tasks in the system over time, waiting or running: mean over trials")
    shown = shown_heuristics(results, scenario, key)
    if not shown:
        st.info("Choose at least one heuristic to draw the tasks in the system over time.")
        return
    total = scenario.trials
    per_trial = MODEL.trial_seconds(scenario.spec, [h for h in scenario.heuristics if h.label in shown])
    fits = max(2, int(CURVE_SECONDS // max(per_trial, 1e-9)))
    trials = total
    if fits < total and not st.toggle(f"Average over all {total} trials (about {per_trial * total:.0f} s once)",
                                      key=f"{key}_in_system_all"):
        trials = fits
    with st.spinner(f"Simulating {trials} trials of {', '.join(shown)} for the curves..."):
        curves = {label: _in_system(scenario, label, min(trials, total)) for label in shown}
    metric = MODEL.metric("mean_in_system")
    fig = in_system(curves, metric, colors, MODEL.time_unit, short_name)
    st.plotly_chart(fig, key=f"{key}_in_system", width="stretch")
    used = f"the first {trials} of the {total}" if trials < total else f"all {total}"
    st.caption(f"Sampled at {SAMPLES} times; the mean over {used} trials (the run's workloads), with the 95% "
               "interval of the mean as a band.")


def machine_names(spec: ClassSpec) -> tuple[str, ...]:
    """Each machine's name as the rate table and the δ* chart name its column: m0, m1, ...; with groups of identical
    machines, the machine and its group's column ("m12 (group1)"), so that a Gantt row leads back to its rates."""
    if spec.groups is None:
        return tuple(f"m{j}" for j in range(spec.machines))
    group = np.repeat(np.arange(len(spec.groups)), spec.groups)
    return tuple(f"m{j} (group{g})" for j, g in enumerate(group))


def gantt_rows(scenario) -> GanttRows:
    """The Results page's Gantt names machines as the Scenario page's rate table does (:func:`machine_names`)."""
    return GanttRows("machine", names=machine_names(scenario.classes))


def trial_charts(runs: dict, colors: dict, key: str) -> None:
    """Nothing beyond the Gantt chart: the number in system over time is averaged over replications
    (``results_charts``)."""


def editor(sc) -> None:
    """Classes with arrival rates, a class x machine rate table, execution-time law, horizon; LP verdict and delta*."""
    spec = sc.classes
    if BASE["alpha"] not in st.session_state:
        st.session_state[BASE["alpha"]], st.session_state[BASE["mu"]] = _frames(spec)
    for table in ("alpha", "mu"):  # the editor's own state is dropped when the page is left: start from the table as
        if W + f"{table}_editor" not in st.session_state and LAST[table] in st.session_state:  # last shown, edits kept
            st.session_state[BASE[table]] = st.session_state[LAST[table]]
    st.subheader("Task classes and machines")
    c1, c2, c3, c4 = st.columns(4)
    service = c1.selectbox("Execution times", SERVICES, key=default("service", spec.service),
                           help="hyperexponential: same mean, twice the exponential's variance")
    long_branch = None
    if service == "hyperexponential":
        long_branch = c1.number_input(
            "Long phase's probability", 0.001, round(LONG_BRANCH_MAX - 0.001, 3), format="%.3f",
            key=default("long_branch", spec.long_branch), placeholder="balanced means (0.211)",
            help="The hyperexponential's probability of its long phase, same mean and variance (section III-B.6 "
                 "leaves it open); empty: balanced means. Small values make rare very long tasks.")
    exec_as = c2.selectbox("Table holds", EXEC_AS, key=default("exec_as", spec.exec_as),
                           format_func={"rates": "rates μ (tasks per time unit)", "times": "mean times 1/μ"}.get,
                           help="How the numbers of the table below are read: execution rates (section II-A) or mean "
                                "execution times; 0 means the machine cannot run the class either way.")
    horizon = number(c3, "Horizon (time units)", 1.0, 1e9, key=default("horizon", float(spec.horizon)))
    warmup = number(c4, "Warm-up excluded from averages", 0.0, 1e9, key=default("warmup", float(spec.warmup)))
    c1, c2 = st.columns([1, 3])
    with c1:
        st.caption("Arrival rate of each class (tasks per time unit). Add a row for a new class.")
        alpha = st.session_state[LAST["alpha"]] = st.data_editor(st.session_state[BASE["alpha"]],
                                                                 key=W + "alpha_editor",
                                                                 num_rows="dynamic")
    with c2:
        st.caption("Execution rates μ (or mean times, as chosen above): rows classes, columns machines (or groups of "
                   "identical machines); 0 means the machine cannot run the class. Rows follow the class table.")
        mu = st.session_state[LAST["mu"]] = st.data_editor(st.session_state[BASE["mu"]], key=W + "mu_editor",
                                                           num_rows="dynamic")
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
                             _groups(groups_text, mu_values.shape[1]), service, float(horizon), float(warmup),
                             exec_as, None if long_branch is None else float(long_branch))
        sc = commit_scenario(sc.replace(classes=new_spec))
    except HcschedError as exc:
        refuse_runs(str(exc))
        return
    alloc = sc.classes.allocation()
    st.subheader("Can this system keep up? The allocation LP")
    if alloc.stable:
        st.success(f"Stable: the machines can keep up with {times(alloc.lam)} times these arrivals (the LP's λ*). "
                   f"Every arrival rate could grow by {100 * (alloc.lam - 1):.1f}% and a suitable mapping would "
                   "still keep up (Theorem 1).")
    else:
        st.error(f"Overloaded: the machines can keep up with only {times(alloc.lam)} times these arrivals (the LP's "
                 "λ*). No mapping can keep up (Theorem 2); runs still work and are flagged unstable.")
    delta = alloc.delta
    columns = None
    if sc.classes.groups is not None:
        first = np.cumsum([0, *sc.classes.groups[:-1]])
        delta, columns = delta[:, first], [f"group{g} (x{n})" for g, n in enumerate(sc.classes.groups)]
    st.caption("δ*: the share of each machine the LP gives each class. "
               "LPAS maps class i only to machines with δ* > 0.")
    st.plotly_chart(allocation_heatmap(delta, columns), key="sc_delta", width="stretch")
