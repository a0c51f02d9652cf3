"""What pages and model editors draw with: number fields that never silently become another value, errors in one
line, links between pages, download names, the one estimate of a run with its Run button, and the metric results
lead with."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitAPIException

from hcsched import Scenario, get_model
from hcsched.errors import HcschedError, describe_error
from hcsched.experiment import duration_words, estimate_seconds, memory_refusal, work_seconds
from hcsched.export import export_stem
from hcsched.metrics import Metric
from hcsched.readers import check_upload, max_upload_cells
from hcsched.verdict import headline_metric as lead_metric
from pages.jobs import KNOWN_ROWS, Job, plain, plain_html, started_pool, warm_kernels  # noqa: F401  (plain, plain_html: pages')
from pages.session import Keys, scenario_problem

# longer runs and sweeps are refused (per session)
LIMIT_SECONDS = float(os.environ.get("HCSCHED_RUN_LIMIT_SECONDS", 600))
MAX_SIZE = int(float(os.environ.get("HCSCHED_MAX_SIZE", 1e10)))  # tasks x machines x trials of a run (or sweep); the
# largest preset (alazzoni-C2: 7.3 M tasks x 30 machines x 30 replications) is 6.6e9
ASSETS = Path(__file__).resolve().parents[1] / "assets"
PAGES = {"home": "app.py", "scenario": "pages/scenario.py", "heuristics": "pages/heuristics.py", "run": "pages/run.py",
         "results": "pages/results.py", "explain": "pages/explain.py", "sweep": "pages/sweep.py",
         "papers": "pages/papers.py"}
DRAW_SECONDS = 1.5  # drawing the results' charts (measured by the browser test)
WARN_SECONDS = 30.0  # longer runs are announced before they start


@contextmanager
def shown_as_error(what: str) -> Iterator[None]:
    """Any error raised in the block is shown as one line in the page, as the CLI does (never a traceback); the rest
    of the page still draws. Streamlit's own rerun and stop are BaseExceptions and pass through."""
    try:
        yield
    except Exception as exc:
        st.error(plain(f"{what}: {describe_error(exc)}"))


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


def upload_limits(table: bool = True) -> str:
    """What an uploader takes, said beside it: Streamlit refuses a file over its ``server.maxUploadSize`` with only an
    icon, and a table over the cell limit is refused before it is parsed (``HCSCHED_MAX_UPLOAD_CELLS``)."""
    cells = f", tables of at most {max_upload_cells():,} cells" if table else ""
    return f"Files up to {st.get_option('server.maxUploadSize')} MB{cells}; a larger file is refused."


def uploaded_text(upload, expected: str, table: bool = True) -> str:
    """An uploaded file's text, refused in one line naming the file before anything parses it: over the cell limit
    (a ``table``; :func:`hcsched.readers.check_upload`) or not UTF-8 text (``expected`` says what was)."""
    data = upload.getvalue()
    if table:
        check_upload(data, upload.name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise HcschedError(f"{upload.name}: not a text file; expected {expected}.") from None


def link(page: str, label: str) -> None:
    """A link to another page; plain text when this page runs on its own, outside the app's navigation."""
    try:
        st.page_link(PAGES[page], label=label)
    except StreamlitAPIException:
        st.markdown(f"{label}: the **{page.title()}** page of the app.")


def file_name(scenario: Scenario, what: str, ext: str, run: bool = False) -> str:
    """A download's file name that says whose it is: ``<scenario>-<what>.<ext>`` in safe characters; with ``run``
    (the files of one run) ``<scenario>-s<seed>-<digest>-<what>.<ext>`` (:func:`hcsched.export.export_stem`), so that
    two what-ifs never share a name while the same scenario and seed always get the same one."""
    stem = export_stem(scenario) if run else re.sub(r"[^A-Za-z0-9._-]+", "-", scenario.name).strip("-.") or "scenario"
    return f"{stem}-{what}.{ext}"


@st.cache_data(show_spinner=False, max_entries=64)  # Home plans its run on every rerun
def quiet_estimate(scenario: Scenario, jobs: int | None = None,
                   known: frozenset[int] = frozenset()) -> tuple[float, float, float]:
    """A run on a quiet machine: its trials' wall seconds (in the chunks of a run that shows its results so far),
    their seconds of one core, and trial 0's again (for the Gantt chart); the heuristics at the positions ``known``
    not run (their rows kept on the server)."""
    return (estimate_seconds(scenario, jobs=jobs, quick_start=True, skip=known), work_seconds(scenario, skip=known),
            estimate_seconds(scenario, trials=1, jobs=1))


def run_estimate(scenario: Scenario, jobs: int | None = None, loaded: bool = True) -> float:
    """The one estimate of a run a page states: the trials, then trial 0 again for the Gantt chart, then drawing the
    charts. ``loaded``: as the server's pool forecasts them now (its share beside the runs going on and in line, at
    the pace the pool measures: :meth:`hcsched.pool.Pool.forecast`); else on a quiet machine, as the limit checks
    it. Asked only of a scenario within the size cap and the memory limit."""
    trials, work, _ = quiet_estimate(scenario, jobs, KNOWN_ROWS.whole(scenario))
    pool = started_pool() if loaded else None
    trials = trials if pool is None else pool.forecast(trials, work, jobs, scenario.model)
    return trials + after_trials(scenario, jobs, loaded)


def after_trials(scenario: Scenario, jobs: int | None = None, loaded: bool = True) -> float:
    """The part of :func:`run_estimate` after the run's trials: trial 0 again for the Gantt chart (at the pace of the
    server's pool, when ``loaded``), then drawing the charts."""
    again = quiet_estimate(scenario, jobs, KNOWN_ROWS.whole(scenario))[2]
    pool = started_pool() if loaded else None
    return (again if pool is None else pool.pace(scenario.model) * again) + DRAW_SECONDS


def refusal(scenario: Scenario, jobs: int | None = None) -> str | None:
    """Why a run is refused before it starts, in one line, asked in this order and the first answer kept (so that
    nothing large is drawn to answer it): its size exceeds the server's cap, its memory the server's limit, its
    estimate the per-run limit; or the scenario cannot even be estimated (a model's error)."""
    try:
        refused = capacity_refusal(scenario, jobs)
        if refused:
            return refused
        estimate = run_estimate(scenario, jobs, loaded=False)
    except Exception as exc:
        return f"This scenario cannot run: {plain(describe_error(exc))}"
    if estimate <= LIMIT_SECONDS:
        return None
    return (f"This run would take about {estimate / 60:.0f} minutes; the limit per run here is "
            f"{LIMIT_SECONDS / 60:.0f} "
            "minutes. Use fewer trials, tasks or heuristics, or run it with `hcsched run`.")


def capacity_refusal(scenario: Scenario, jobs: int | None = None, points: int = 1) -> str | None:
    """Why ``scenario`` (run ``points`` times, as a sweep does) is too large for this server, in one line, from its
    sizes alone (nothing drawn): the size cap, then the memory limit (:func:`hcsched.experiment.memory_refusal`) of
    the run, and of a single run's trial 0 again with its schedules (the Gantt chart)."""
    return (size_refusal(scenario, points) or memory_refusal(scenario, jobs=jobs, points=points)
            or (memory_refusal(scenario, jobs=1, schedules=True, trials=1) if points == 1 else None))


def sweep_refusal(points: list[Scenario], jobs: int | None = None) -> str | None:
    """Why a sweep of ``points`` (each with its trials) is refused before anything is estimated: its largest point,
    run ``len(points)`` times, is too large for this server (:func:`capacity_refusal`)."""
    return capacity_refusal(max(points, key=_size), jobs, len(points))


def _size(scenario: Scenario) -> int:
    tasks, machines = get_model(scenario.model).scale(scenario.spec)
    return tasks * machines * scenario.trials


def size_refusal(scenario: Scenario, points: int = 1) -> str | None:
    """Why a scenario (run ``points`` times, as a sweep does) is too large for this server: tasks x machines x trials
    over ``MAX_SIZE``."""
    model = get_model(scenario.model)
    tasks, machines = model.scale(scenario.spec)
    size = tasks * machines * scenario.trials * points
    if size <= MAX_SIZE:
        return None
    times = f" x {points} points" if points > 1 else ""
    return (f"This scenario is too large for this server: {tasks:,} tasks x {machines:,} machines x "
            f"{scenario.trials:,} "
            f"{model.trial_word}s{times} = {size:,}; the cap is {MAX_SIZE:,} (HCSCHED_MAX_SIZE). Use fewer tasks, "
            "machines or trials, or run it with `hcsched run`, which has no cap.")


def estimate_note(job: Job) -> None:
    """One message about how long a planned run will take: refused, announced (long), or a caption; none while a run
    goes on (its progress says the time left; an estimate of another run beside it only confused), and a caption
    instead when the results shown are of exactly this run (Run shows them again rather than run it twice)."""
    running = st.session_state.get(Keys.JOB)
    shown = st.session_state.get(Keys.RESULTS)
    if job.refused:
        st.error(job.refused)
    elif running is not None and not running.ended:
        return
    elif shown is not None and getattr(shown, "scenario", None) == job.scenario:
        return  # the results shown are of this very run: Run would show them again
    elif job.ran_as is not None:  # no estimate of a run that will not run (a tryout read one)
        st.caption(f"Run #{job.ran_as} had these settings, trials and seed: Run shows its results again, with "
                   "nothing to compute.")
    elif job.estimate > WARN_SECONDS:
        st.warning(f"{estimate_words(job.estimate)}. It runs in the background while this tab is open: you can move "
                   "between pages, reload, and cancel it.")
    else:
        compiles = not warm_kernels().ready[job.scenario.model].is_set()  # said only while they may still compile
        loading = " (more while its kernels load, or compile after an install)" if compiles else ""
        st.caption(f"{estimate_words(job.estimate)}{loading}.")


def estimate_words(seconds: float) -> str:
    """A planned run's estimate, in one wording for every run, short or long: "Estimated time: about 42 s", "... about
    3 min" (:func:`hcsched.experiment.duration_words`, as its progress counts it down)."""
    return f"Estimated time: about {duration_words(seconds)}"


def run_button(label: str, key: str, job: Job | None = None) -> bool:
    """The Run button with the planned run's estimate: disabled while a run is going on, while the Scenario page
    shows an invalid edit, or when the run is refused."""
    problem = scenario_problem()
    if problem:
        st.error(f"The Scenario page has an invalid edit, so this would run the last valid scenario: {plain(problem)} "
                 "Fix it on the Scenario page first.")
    if job is not None:
        estimate_note(job)
    refused = job is not None and job.refused
    running = Keys.JOB in st.session_state
    return st.button(label, key=key, type="primary", disabled=running or bool(problem or refused),
                     help="Available when the run going on ends, or once it is cancelled" if running else None)


def headline_metric(model) -> Metric:
    """The metric the results lead with: the first bar metric where one way is better (the library's
    :func:`hcsched.verdict.headline_metric`)."""
    return lead_metric(model)
