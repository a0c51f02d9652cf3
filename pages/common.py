"""What every page shares: session-state keys, the background run, and the results view.

Pages stay thin: they read widgets, call the library and show what it returns.
"""

from __future__ import annotations

import os
import queue
import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from hcsched import Scenario, get_model, preset, preset_names, simulate, summarize, trial_runs
from hcsched.charts import GANTT_BARS, gantt, gantt_default_window, heuristic_colors, metric_bars, trial_distribution
from hcsched.errors import describe_error
from hcsched.experiment import estimate_seconds, progress_text, schedule_table, schedules_of
from hcsched.metrics import Metric
from hcsched.models import DEFAULT_MODEL, model_names, warm_up
from hcsched.verdict import readable_number, scenario_verdicts, verdict_lines

QUICK_SECONDS = 1.0  # runs estimated shorter than this run at once, without a progress bar
LIMIT_SECONDS = float(os.environ.get("HCSCHED_RUN_LIMIT_SECONDS", 600))  # longer runs and sweeps are refused (per session)
ASSETS = Path(__file__).resolve().parents[1] / "assets"
PAGES = {"home": "app.py", "scenario": "pages/scenario.py", "heuristics": "pages/heuristics.py", "run": "pages/run.py",
         "results": "pages/results.py", "explain": "pages/explain.py", "sweep": "pages/sweep.py", "papers": "pages/papers.py"}


class Keys:
    """Session-state keys shared between pages (widget keys are local to their page)."""

    SCENARIO = "scenario"  # the current, valid Scenario
    RESULTS = "results"  # RunResult of the last finished run
    JOB = "job"  # the running Job, if any
    NOTICE = "notice"  # a message about the last run (cancelled, failed), with the scenario it concerns
    PROBLEM = "scenario_problem"  # set by the Scenario page while an edit is invalid: runs would use a stale scenario


@dataclass
class RunResult:
    scenario: Scenario  # with the trials and seed that were run
    results: pd.DataFrame
    seconds: float


class Cancelled(Exception):
    """Raised from the progress callback to stop a run."""


@dataclass
class Job:
    """A run, sweep or rerun in the background, where it survives clicks and page changes: its future, its progress
    (trials done, fractional while a trial's heuristics finish one by one) and a Cancel the progress callback obeys."""

    scenario: Scenario | None  # what it runs, for the notices it leaves
    total: int  # trials the progress counts
    future: Future | None = None
    done: float = 0.0
    started: float = field(default_factory=time.monotonic)
    cancel: threading.Event = field(default_factory=threading.Event)

    def progress(self, done: float, total: int) -> None:
        """The ``progress(done, total)`` callback of simulate, sweep and reproduce: raises Cancelled once asked to."""
        self.done, self.total = done, total
        if self.cancel.is_set():
            raise Cancelled

    def submit(self, fn, *args) -> Job:
        """Start ``fn(*args, self.progress)`` (the progress callback last) in the server's background threads."""
        self.future = _executor().submit(fn, *args, self.progress)
        return self

    def show(self, word: str, key: str, what: str = "") -> None:
        """The progress bar ("3.5 of 50 replications done, about 40 s left", after ``what``) and its Cancel button."""
        text = progress_text(self.done, self.total, word, time.monotonic() - self.started)
        st.progress(min(1.0, self.done / max(1, self.total)), text=f"{what}{text}")
        st.button("Cancel", key=key, on_click=self.cancel.set)


@contextmanager
def shown_as_error(what: str) -> Iterator[None]:
    """Any error raised in the block is shown as one line in the page, as the CLI does (never a traceback); the rest
    of the page still draws. Streamlit's own rerun and stop are BaseExceptions and pass through."""
    try:
        yield
    except Exception as exc:
        st.error(f"{what}: {describe_error(exc)}")


class Warming:
    """Each model's kernels compiled (or loaded from numba's disk cache) once per server, in one background thread,
    when first needed: the default model's at start-up, another's as soon as a session's scenario is of it. A run
    waits only for its own model's (its workers are forked once they are compiled, so none compiles while holding
    numba's lock). Compiling all five models at start-up took over a minute of one core on a first launch, and slowed
    the first runs."""

    def __init__(self) -> None:
        self.ready = {m: threading.Event() for m in model_names()}
        self.requested: list[str] = []  # in the order they were asked for
        self._lock = threading.Lock()
        self._todo: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._work, daemon=True, name="hcsched-warm")
        self.thread.start()

    def request(self, model: str) -> None:
        """Compile ``model``'s kernels in the background, unless already asked for."""
        with self._lock:
            if model in self.requested:
                return
            self.requested.append(model)
        self._todo.put(model)

    def wait(self, model: str) -> None:
        """Block until ``model``'s kernels are compiled."""
        self.request(model)
        self.ready[model].wait()

    def _work(self) -> None:
        while True:
            model = self._todo.get()
            try:
                warm_up([model])
            except Exception:  # a failure shows when the run itself compiles; keep serving the other models
                pass
            finally:
                self.ready[model].set()


@st.cache_resource
def _warm_kernels() -> Warming:
    """The server's Warming, started with the default model's kernels, so that the first Run is fast."""
    warming = Warming()
    warming.request(DEFAULT_MODEL)
    return warming


def init_session_state() -> None:
    """Every page calls this first: a first visit starts with the built-in default scenario."""
    warming = _warm_kernels()
    st.session_state.setdefault(Keys.SCENARIO, preset("quickstart"))
    warming.request(st.session_state[Keys.SCENARIO].model)  # a model switched to compiles while the user edits


W = "sc_w_"  # prefix of the Scenario page's widget keys, re-read from the scenario when it is replaced


def default(key: str, value) -> str:
    """Initialise a Scenario-page widget from the scenario the first time the page shows it; returns its key."""
    st.session_state.setdefault(W + key, value)
    return W + key


def _allowed(low, high) -> str:
    if low is not None and high is not None:
        return f"from {low:g} to {high:g}"
    return f"at least {low:g}" if low is not None else f"at most {high:g}"


def number(container, label: str, low, high, key: str, **kwargs):
    """A Scenario-page number input that never silently becomes another value.

    Streamlit sets a cleared field to its default, and refuses a number beyond its range in the browser (a red outline,
    the range only in a hover, the old value still used). So the field is created empty-able and unbounded, and this
    checks it: a cleared field, or one beyond ``low`` .. ``high``, gets its last value back and says so under it, with
    the range allowed. The range is also stated in the field's help."""
    last, notice = key + "__last", key + "__restored"
    current = st.session_state.get(key)
    if current is not None:  # a loaded scenario may hold a value beyond the field's usual range: show it, as it is
        low = low if low is None or current >= low else type(low)(current)
        high = high if high is None or current <= high else type(high)(current)

    def restore() -> None:
        value = st.session_state.get(key)
        if value is None and st.session_state.get(last) is not None:
            st.session_state[key] = st.session_state[last]
            st.session_state[notice] = "a number is needed"
        elif value is not None and ((low is not None and value < low) or (high is not None and value > high)):
            st.session_state[key] = st.session_state.get(last, low if low is not None else high)
            st.session_state[notice] = f"{value:.10g} is not allowed (allowed: {_allowed(low, high)})"

    if isinstance(low, int) and isinstance(high, int) and "step" not in kwargs:
        kwargs["step"] = 1  # an integer field without bounds to infer it from
    if low is not None or high is not None:
        kwargs["help"] = f"{kwargs.get('help') or ''} Allowed: {_allowed(low, high)}.".strip()
    value = container.number_input(label, value=None, key=key, on_change=restore, **kwargs)
    if value is None:  # never handed to an editor as a number
        value = st.session_state.get(last, current)
    else:
        st.session_state[last] = value
    said = st.session_state.pop(notice, None)
    if said:
        container.caption(f"{label}: {said}; kept {value:g}.")
    return value


def replace_scenario(scenario: Scenario) -> None:
    """Load ``scenario`` as the current one, every Scenario-page widget and model editor starting anew from it."""
    from pages.models import reset_all  # here: the dashboard's model modules import this one

    st.session_state[Keys.SCENARIO] = scenario
    for key in [k for k in st.session_state if str(k).startswith(W)]:
        del st.session_state[key]
    reset_all()


def refuse_runs(problem: str) -> None:
    """An editor's invalid edit: said under the editor, and Run refuses until it is valid (rather than run the last
    valid scenario, which the page no longer shows)."""
    st.error(f"{problem.rstrip('.')}. Runs are refused until the edit is valid again; the last valid scenario is kept.")
    st.session_state[Keys.PROBLEM] = problem


def commit_scenario(new: Scenario) -> Scenario:
    """Make ``new`` the current scenario; an edited preset is renamed "NAME (edited)" so it is not mistaken for the
    original (in the Results' "of the scenario ..." and in download names), and an edit that brings it back to the
    preset gives the preset again."""
    old = st.session_state[Keys.SCENARIO]
    if new != old:
        base = old.name.removesuffix(" (edited)")
        original = preset(base).replace(trials=new.trials, seed=new.seed) if base in preset_names() else None
        if original is not None and new.name in (old.name, base):
            same = new.replace(name=original.name, description=original.description)
            new = original if same == original else new.replace(name=f"{base} (edited)")
        if new.description and new.description == old.description and new.spec != old.spec:
            # the description was written for the scenario before the edit: never describe one scenario as another
            new = new.replace(description=f"Edited from {base}.")
        st.session_state[Keys.SCENARIO] = new
    return st.session_state[Keys.SCENARIO]


def link(page: str, label: str) -> None:
    """A link to another page; plain text when this page runs on its own, outside the app's navigation."""
    try:
        st.page_link(PAGES[page], label=label)
    except StreamlitAPIException:
        st.markdown(f"{label}: the **{page.title()}** page of the app.")


@st.cache_resource
def _executor() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=2, thread_name_prefix="hcsched-run")


@st.cache_data(show_spinner=False, max_entries=32)
def cached_simulate(scenario: Scenario, _jobs: int | None = None, _progress=None) -> pd.DataFrame:
    """Runs are cached on the (hashable) scenario: its trials and seed are part of it."""
    return simulate(scenario, jobs=_jobs, progress=_progress)


@st.cache_data(show_spinner=False, max_entries=64)
def cached_runs(scenario: Scenario, trial: int) -> dict:
    return trial_runs(scenario, trial)


def start_run(scenario: Scenario, jobs: int | None = None) -> bool:
    """Run a scenario: at once if it is quick, else in the background, where it survives clicks and page changes.

    Returns True when a background job was started.
    """
    st.session_state.pop(Keys.NOTICE, None)
    too_long = over_limit(scenario, jobs)
    if too_long:
        st.session_state[Keys.NOTICE] = ("error", too_long, scenario)
        return False
    warming = _warm_kernels()
    if not warming.ready[scenario.model].is_set():  # runs may fork workers: never while their kernels compile
        with st.spinner(f"Compiling the simulation kernels of {get_model(scenario.model).title} (first run after "
                        "installing only; about 10-40 s)..."):
            warming.wait(scenario.model)
    job = Job(scenario, scenario.trials)
    if estimate_seconds(scenario, jobs=jobs) < QUICK_SECONDS:
        job.future = Future()
        try:
            job.future.set_result(cached_simulate(scenario, jobs))
        except Exception as exc:  # reported by _finish like a background failure
            job.future.set_exception(exc)
        _finish(job)
        return False
    st.session_state[Keys.JOB] = job.submit(cached_simulate, scenario, jobs)
    return True


def _finish(job: Job) -> None:
    st.session_state.pop(Keys.JOB, None)
    try:
        results = job.future.result()
    except Cancelled:
        st.session_state[Keys.NOTICE] = ("warning", "The run was cancelled.", job.scenario)
    except Exception as exc:  # never a traceback in the page
        st.session_state[Keys.NOTICE] = ("error", f"The run stopped: {describe_error(exc)}", job.scenario)
    else:
        st.session_state[Keys.RESULTS] = RunResult(job.scenario, results, time.monotonic() - job.started)


@st.fragment(run_every=0.3)
def _progress_fragment() -> None:
    job = st.session_state.get(Keys.JOB)
    if job is None:
        return
    if job.future.done():
        _finish(job)
        st.rerun()
    job.show(get_model(job.scenario.model).trial_word, "cancel_run")


def run_status() -> None:
    """The progress of a running job (polled), or a notice about the last run of the current scenario."""
    if Keys.JOB in st.session_state:
        _progress_fragment()
    notice = st.session_state.get(Keys.NOTICE)
    if notice and same_experiment(notice[2], st.session_state[Keys.SCENARIO]):
        getattr(st, notice[0])(notice[1])


def same_experiment(a: Scenario, b: Scenario) -> bool:
    """The same scenario, whatever trials and seed were chosen for a run."""
    return a.replace(trials=b.trials, seed=b.seed) == b


def scenario_problem() -> str | None:
    """The Scenario page's message while its edit is invalid (the current scenario is the last valid one)."""
    return st.session_state.get(Keys.PROBLEM)


DRAW_SECONDS = 1.5  # drawing the results' charts (measured by the browser test)
WARN_SECONDS = 30.0  # longer runs are announced before they start


def run_estimate(scenario: Scenario, jobs: int | None = None) -> float:
    """The one estimate of a run a page states and the limit checks: the trials, then trial 0 again for the Gantt
    chart, then drawing the charts."""
    return estimate_seconds(scenario, jobs=jobs) + estimate_seconds(scenario, trials=1, jobs=1) + DRAW_SECONDS


def over_limit(scenario: Scenario, jobs: int | None = None) -> str | None:
    """Why a run is refused before it starts: its estimate exceeds the per-session limit (issue 12), or the scenario
    cannot even be estimated (a model's error, said in one line)."""
    try:
        estimate = run_estimate(scenario, jobs)
    except Exception as exc:
        return f"This scenario cannot run: {describe_error(exc)}"
    if estimate <= LIMIT_SECONDS:
        return None
    return (f"This run would take about {estimate / 60:.0f} minutes; the limit per run here is {LIMIT_SECONDS / 60:.0f} "
            "minutes (HCSCHED_RUN_LIMIT_SECONDS). Use fewer trials, tasks or heuristics, or run it with `hcsched run`.")


def estimate_note(scenario: Scenario, jobs: int | None = None) -> None:
    """One message about how long a run will take: refused (over the limit), announced (long), or a caption."""
    refused = over_limit(scenario, jobs)
    if refused:
        st.error(refused)
        return
    estimate = run_estimate(scenario, jobs)
    if estimate > WARN_SECONDS:
        st.warning(f"This run may take about {estimate / 60:.1f} minutes. It runs in the background: you can move "
                   "between pages, and cancel it.")
    else:
        st.caption(f"Estimated time: about {max(estimate, 0.1):.1f} s (more on the first run, which compiles the kernels).")


def run_button(label: str, key: str, scenario: Scenario | None = None, jobs: int | None = None) -> bool:
    """The Run button with the one estimate of the run: disabled while a run is going on, while the Scenario page shows
    an invalid edit, or when the run would exceed the per-session limit."""
    problem = scenario_problem()
    if problem:
        st.error(f"The Scenario page has an invalid edit, so this would run the last valid scenario: {problem} "
                 "Fix it on the Scenario page first.")
    too_long = None
    if scenario is not None:
        too_long = over_limit(scenario, jobs)
        estimate_note(scenario, jobs)
    return st.button(label, key=key, type="primary", disabled=Keys.JOB in st.session_state or bool(problem or too_long))


def show_current_results(key: str) -> None:
    """The last results, said to belong to their scenario; results of another scenario are marked and folded away."""
    run = st.session_state.get(Keys.RESULTS)
    if run is not None:
        show_if_current(run.scenario, lambda: show_results(run, key), "results", "Run", f"{key}_show_other")


def show_if_current(of: Scenario, show, what: str, action: str, toggle_key: str) -> None:
    """Show ``what`` (results, a sweep) made of the scenario ``of``: at once when it is the scenario loaded now, else
    under a warning naming both (or saying it is of an earlier version of the same scenario), folded behind a toggle."""
    current = st.session_state[Keys.SCENARIO]
    if same_experiment(of, current):
        show()
        return
    if of.name == current.name:
        st.warning(f"The last {what} are of an earlier version of the scenario **{of.name}**, changed since (its "
                   f"{_what_changed(of, current)}). {action} to see the current one's.")
    else:
        st.warning(f"The last {what} are of the scenario **{of.name}**, not of the scenario loaded now "
                   f"(**{current.name}**). {action} to see this one's.")
    if st.toggle(f"Show the {what} of {of.name} (an earlier scenario)", key=toggle_key):
        show()


def _what_changed(old: Scenario, new: Scenario) -> str:
    """The scenario's parts that differ, in words: "heuristics", "system", "benchmark"."""
    parts = [("model", "model"), ("heuristics", "heuristics"), ("benchmark", "benchmark"), ("spec", "system")]
    changed = [word for attr, word in parts if getattr(old, attr) != getattr(new, attr)]
    return " and ".join(changed) or "description"


def file_name(scenario: Scenario, what: str, ext: str) -> str:
    """A download's file name that says whose it is: ``<scenario>-<what>.<ext>`` in safe characters."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", scenario.name).strip("-.") or "scenario"
    return f"{stem}-{what}.{ext}"


INTERVALS = ("95% intervals of the mean: Student-t (as the papers), or the percentile bootstrap (4,000 resamples, fixed "
             "seed) for stretch and wherever Student-t would reach below zero for a non-negative metric or above 100% for "
             "a utilisation or a share of an upper bound.")


def _cell(metric: Metric, mean: float, lo: float, hi: float) -> str:
    show = lambda x: readable_number(x, metric.fmt)  # noqa: E731
    return show(mean) if lo != lo else f"{show(mean)} [{show(lo)}, {show(hi)}]"


def summary_table(summary: pd.DataFrame, metrics: tuple[Metric, ...]) -> pd.DataFrame:
    """The summary as people read it: titles with units, 1.20 M rather than 1.196e+06, mean [95% interval]."""
    out = pd.DataFrame({"heuristic": summary["heuristic"], "trials": summary["trials"]})
    for m in metrics:
        out[m.label] = [_cell(m, *row) for row in summary[[m.name, f"{m.name}_lower", f"{m.name}_upper"]].to_numpy(float)]
    return out


def metric_help(model) -> pd.DataFrame:
    """What each metric means, from the model's metric descriptions."""
    better = {"lower": "lower", "higher": "higher", "": "neither"}
    return pd.DataFrame([{"metric": m.title, "column": m.name, "unit": m.unit or "–", "better": better[m.better],
                          "meaning": m.doc} for m in model.table_metrics()])


def headline_metric(model) -> Metric:
    """The metric the results lead with: the first bar metric where one way is better."""
    bars = model.bar_metrics()
    return next((m for m in bars if m.better), bars[0])


def show_results(run: RunResult, key: str) -> None:
    """Who wins, bars with 95% intervals, the table of means, per-trial distributions, the model's own charts, the
    animated Gantt chart of one trial, and downloads.

    What is shown comes from the model's metric descriptions; its own charts come from its dashboard module. Each part
    that runs a model's code shows an error of that code as one line, and the rest of the page still draws."""
    from pages.models import ui

    scenario, results = run.scenario, run.results
    model = get_model(scenario.model)
    colors = heuristic_colors(scenario.heuristics)
    bars = model.bar_metrics()
    tables = model.table_metrics()
    summary = summarize(results, [m.name for m in tables], methods=model.interval_methods())
    facts = [f"**{scenario.name}**: {scenario.trials} {model.trial_word}s", f"seed {scenario.seed}", f"{run.seconds:.1f} s"]
    headline = model.headline(scenario.spec).replace("lambda*", "λ*")
    if headline:
        facts.append(headline)
    if model.normalizes():
        facts.append(f"{', '.join(m.title.lower() for m in model.metrics if m.normalize)} normalised to {scenario.benchmark_label}")
    with shown_as_error("Who wins could not be worked out"):
        show_verdict(results, scenario)
    st.caption(", ".join(facts) + ". " + INTERVALS)
    for warning in model.warnings(results):
        st.warning(warning.replace("lambda*", "λ*"))
    st.plotly_chart(metric_bars(summary, bars, colors), key=f"{key}_bars", width="stretch")
    with st.expander("Means and 95% intervals", expanded=False):
        st.dataframe(summary_table(summary, tables), key=f"{key}_summary", hide_index=True)
    with st.expander("What the metrics mean", expanded=False):
        st.dataframe(metric_help(model), key=f"{key}_help", hide_index=True, width="stretch")
    by_name = {m.name: m for m in bars}
    metric = st.selectbox("Per-trial distribution of", list(by_name), format_func=lambda n: by_name[n].label,
                          key=f"{key}_dist_metric")
    st.plotly_chart(trial_distribution(results, by_name[metric], colors), key=f"{key}_dist", width="stretch")
    whole_run = getattr(ui(scenario.model), "results_charts", None)  # the model's own charts of the whole run
    if whole_run is not None:
        with shown_as_error(f"The {model.title} charts of the whole run could not be drawn"):
            whole_run(results, scenario, colors, key)
    downloads = [("Per-trial results (CSV)", results.to_csv(index=False), file_name(scenario, "results", "csv"), "text/csv"),
                 ("Summary with intervals (CSV)", summary.to_csv(index=False), file_name(scenario, "summary", "csv"), "text/csv"),
                 ("Scenario (JSON)", scenario.to_json(), file_name(scenario, "scenario", "json"), "application/json")]
    with shown_as_error(f"This {model.trial_word}'s schedules could not be drawn"):
        downloads[2:2] = one_trial(scenario, summary, colors, key)
    for col, (label, data, name, mime) in zip(st.columns(len(downloads)), downloads, strict=True):
        col.download_button(label, data, name, mime, key=f"{key}_dl_{_download_key(label)}", on_click="ignore")


def _download_key(label: str) -> str:
    """A download button's key from its label, stable across scenarios (file names carry the scenario's name)."""
    return {"Per-trial": "results", "Summary": "summary", "Scenario": "scenario"}.get(
        label.split()[0], "gantt_window" if "window" in label else "gantt")


def show_verdict(results: pd.DataFrame, scenario: Scenario) -> None:
    """One line per headline metric: who wins, by how much, and whether the paired interval tells them apart."""
    lines = verdict_lines(scenario_verdicts(scenario, results))
    if lines:
        st.markdown("\n".join(f"- {_escaped(line)}" for line in lines))


def _escaped(text: str) -> str:
    """Text shown as itself in markdown (heuristic labels may hold * _ [ ] and the like)."""
    return re.sub(r"([\\`*_{}\[\]()#+!|<>~$-])", r"\\\1", text)


GANTT_HEURISTICS = 4  # heuristics in the Gantt chart by default: the best few and the benchmark
GANTT_ROWS = 96  # machine rows of all panels by default (a page no taller than a few screens)


def one_trial(scenario: Scenario, summary: pd.DataFrame, colors: dict, key: str) -> list[tuple]:
    """The model's charts of one trial and its animated Gantt chart (heuristics and machines chosen, a time window for
    large trials); returns the Gantt tables' downloads, built only when one is asked for."""
    from pages.models import ui

    model = get_model(scenario.model)
    st.subheader(f"One {model.trial_word}")
    trial = int(st.number_input(model.trial_word.capitalize(), 0, scenario.trials - 1, 0, key=f"{key}_trial"))
    runs = cached_runs(scenario, trial)
    schedules = schedules_of(scenario, runs)
    ui(scenario.model).trial_charts(runs, colors, key)
    shown, machines = gantt_choice(scenario, summary, schedules, key)
    window = None
    if shown:
        chosen = {label: schedules[label] for label in shown}
        window = gantt_window(scenario, chosen, key)
        st.plotly_chart(gantt(chosen, colors, window=window, time_unit=model.time_unit, machines=machines),
                        key=f"{key}_gantt", width="stretch")
        st.caption("Press Play to watch the tasks start and run; drag the slider to move in time; hover a task for its "
                   "times.")
    else:
        st.info("Choose at least one heuristic to draw its Gantt chart.")
    downloads = [(f"Gantt table, whole {model.trial_word} {trial} (CSV)", lambda: _gantt_csv(scenario, trial, runs),
                  file_name(scenario, f"gantt-{model.trial_word}{trial}", "csv"), "text/csv")]
    if window is not None:
        downloads.append((f"Gantt table, time window {window[0]:.6g}-{window[1]:.6g} (CSV)",
                          lambda: _gantt_csv(scenario, trial, runs, window),
                          file_name(scenario, f"gantt-window-{model.trial_word}{trial}", "csv"), "text/csv"))
    return downloads


def _gantt_csv(scenario: Scenario, trial: int, runs: dict, window: tuple[float, float] | None = None) -> str:
    """Every task of one trial (or those overlapping ``window``), every heuristic: built when its download is clicked
    (a large trial's table is tens of MB, too slow to build on every rerun)."""
    whole = schedule_table(scenario, trial, runs).drop(columns="trial")
    if window is not None:
        finish = whole["finish"].fillna(np.inf)  # tasks still running at the end of the run
        whole = whole[(finish > window[0]) & (whole["start"] < window[1])]
    return whole.to_csv(index=False)


def gantt_choice(scenario: Scenario, summary: pd.DataFrame, schedules: dict, key: str) -> tuple[list[str], list[int] | None]:
    """The heuristics and machines the Gantt chart shows: by default the best few by the headline metric with the
    benchmark, and as many machines as keep the chart a few screens tall."""
    from hcsched.stats import best_few

    model = get_model(scenario.model)
    labels = list(schedules)
    lead = headline_metric(model)
    default = best_few(summary, lead.name, lead.better, scenario.benchmark_label, GANTT_HEURISTICS)
    default = [label for label in default if label in labels]
    shown = st.multiselect("Heuristics in the Gantt chart", labels, default=default, key=f"{key}_gantt_heuristics",
                           help=f"By default the {GANTT_HEURISTICS} best by {lead.title.lower()}, with the benchmark.")
    if not shown:
        return [], None
    machines = max(schedules[label].machines for label in shown)
    cap = max(1, GANTT_ROWS // len(shown))
    if machines <= cap:
        return shown, None
    lo, hi = st.slider("Machines shown", 0, machines - 1, (0, cap - 1), key=f"{key}_gantt_machines",
                       help="A range of machines, so that the chart stays a few screens tall.")
    st.caption(f"Machines {lo}-{hi} of 0-{machines - 1} shown.")
    return shown, list(range(lo, hi + 1))


def gantt_window(scenario: Scenario, schedules: dict, key: str) -> tuple[float, float] | None:
    """The time window of the Gantt chart: the whole trial when it is small, else a start and a length that show
    about GANTT_BARS tasks in all by default (a start slider, so its handle is never stacked on another)."""
    sized = gantt_default_window(schedules)
    if sized is None:
        return None
    end, default = sized
    c1, c2 = st.columns([3, 1])
    length = c2.number_input(f"Window length ({get_model(scenario.model).time_unit})", min_value=end * 1e-6, max_value=end,
                             value=max(end * 1e-6, min(end, float(f"{default:.3g}"))), key=f"{key}_window_length",
                             format="%.4g",
                             help=f"About {GANTT_BARS // len(schedules)} tasks per heuristic by default; longer windows "
                                  "draw and play more slowly.")
    if end - length <= 0:
        return (0.0, end)
    low = c1.slider("Window start", 0.0, end - length, 0.0, key=f"{key}_window", format="%.4g")
    return (low, low + length)
