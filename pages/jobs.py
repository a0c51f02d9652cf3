"""Work in the server's background: a run, sweep or rerun as a Job that survives clicks and page changes, computed in
the server's one pool of worker processes, with its estimate, progress, place in line, Cancel and result; and each
model's kernels compiled once per server (Warming); and user text made plain for the pages (``plain``).

The server is multi-threaded, so nothing here forks: the pool's workers are fresh interpreters (:mod:`hcsched.pool`)
started once per server, sized to the cores and shared by every session, at most ``MAX_RUNS`` runs at once (more
wait in line and are told their place). With ``HCSCHED_DASK_SCHEDULER`` set (the environment, or Streamlit's
secrets), the runs go to that Dask cluster instead, shared by the same policy (:mod:`hcsched.cluster`).
A Job's thread only waits for the pool, so Cancel (which kills the workers busy with the job, or cancels its tasks on
the cluster) frees the page at once, whatever the workers are doing; a job whose session has ended (its tab
closed) is cancelled too. Nothing here reads a session's state except through the keys a page names.
"""

from __future__ import annotations

import atexit
import html
import os
import queue
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from hcsched import Scenario
from hcsched.errors import HcschedError, describe_error
from hcsched.experiment import KnownRows, progress_count, progress_text, split_so_far
from hcsched.models import DEFAULT_MODEL, get_model, model_names, warm_up
from hcsched.pool import Pool, RunQueue
from hcsched.report import no_auto_links
from hcsched.runner import default_jobs, using
from pages.store import save

MARKDOWN_CHARACTERS = re.compile(r"[\\`*\[\]$~|]|<(?=[A-Za-z/!?])"  # links, images, HTML, code, emphasis, LaTeX
                                 r"|(?<!\w)_|_(?!\w)"  # emphasis (a "_" inside a word, as in task_het, is none)
                                 r"|^[ \t]*(?:#+(?=\s|$)|>|[+-](?=\s|$)|[=-]+[ \t]*$|\d+[.)](?=\s|$))",  # a line's
                                 re.MULTILINE)  # heading, quote, list item or rule


def plain(text) -> str:
    """``text`` (a user's: a scenario's name or description, a heuristic's label, an error naming a value) shown as
    itself by anything that renders Markdown: a backslash before each character that could start Markdown there (no
    link, image, HTML, code, emphasis, LaTeX, heading or list), and an invisible word joiner where Streamlit would
    make a link, an emoji, an icon or a colour even of escaped text (``https://``, ``www.``, ``a@b.c``, ``:smile:``,
    ``:material/home:``, ``:red[..]``: :func:`hcsched.report.no_auto_links`). Plain sentences keep every character as
    it was ("scenario field 'machines': 0 is not allowed")."""
    return MARKDOWN_CHARACTERS.sub(_escaped, no_auto_links(text))


def _escaped(match: re.Match) -> str:
    text = match.group(0)
    return text[:-1] + "\\" + text[-1] if text.strip() else text


def plain_html(text) -> str:
    """``text`` shown as itself in Plotly's text (titles, legends, ticks and hovers read ``<a href>``, ``<b>`` and
    entities): HTML-escaped."""
    return html.escape(str(text), quote=False)


MAX_RUNS = int(os.environ.get("HCSCHED_MAX_RUNS", 4))  # runs of the whole server computed at once; more wait in line
WORKERS = int(os.environ.get("HCSCHED_WORKERS", 0)) or default_jobs()  # worker processes of the server
SESSION_GRACE_SECONDS = 10.0  # a job whose session has been gone this long is cancelled
STUCK_FACTOR, STUCK_SECONDS = 3.0, 30.0  # no progress for this many times the estimate (and this long): said so
PARALLEL_JOBS_MAX = 256  # the Run and Sweep pages' "Parallel jobs" field at most
IN_PROCESS = False  # tests that change a model in this process run jobs in the job's thread, one job at a time
REFRESH_SECONDS = 0.3  # how often a page shows a running job's progress
PARTIAL_REDRAW_SECONDS = 2.0  # a page showing a run's results so far is drawn again at most this often
#: ... and waits this many times as long as its drawing took before it is drawn again: at 2, a page that took 1.8 s
#: to draw (time-shared, its workers busy) held "So far, 1 of 50" for 5 s while 13 trials ended; a click stops a
#: drawing script at once, so the page answers as fast, and the run loses at most half a core to the redraws.
DRAW_PACE = 1.0
WATCH_SECONDS = float(os.environ.get("HCSCHED_WATCH_SECONDS", 600))  # a page follows a job this long, then redraws
SCHEDULER_SETTING = "HCSCHED_DASK_SCHEDULER"  # the address of a Dask scheduler for the server's runs (tcp://host:8786)
RETRY_SECONDS = 30.0  # a scheduler that could not be reached is tried again after this long (runs fail meanwhile)


STEADY_MARGIN = 0.25  # a lower forecast of the time left replaces the count said when lower by more than this share


@dataclass
class Countdown:
    """The time left a progress bar says: one steady count down, that never rises. The pool's forecast
    (:meth:`hcsched.pool.Pool.time_left`) moves with every reading of the machine's load and every chunk that starts
    or ends beside the run, and a bar that said each forecast jumped ("about 45 s left" between 41 and 77 s while
    nothing ended).

    The rule: the count starts from the estimate said beside Run once the run has a worker (:meth:`begin`; else the
    first forecast) and goes down with the wall clock. A new forecast replaces it only when it is lower by more than
    ``STEADY_MARGIN`` (a run beside it ended, or this one goes faster). A count that has run out while the run goes
    on stays out: the run is late (:meth:`late`), said without a number, never a count that rises again ("about 1 s
    left", "finishing", then "about 3 min left" on the value what-if). A trial's end is no reason to rise: the pool's
    pace measured on the first trials (their chunks paid for loading the workers' kernels: 15 s for a trial of 0.4 s,
    under load) read the run as far longer than it was, and a count that took those forecasts said "about 21 s left",
    then 36, 44, 86, 59 and 29 s, for a run that ended 22 s after the 21.

    The bar's length moves with the same clock (:meth:`share`): the time counted so far over it and the time left,
    never shorter than it was."""

    seconds: float | None = None  # the count when taken
    taken: float = 0.0  # when (time.monotonic)
    since: float | None = None  # when the count began: the run's first worker
    said: float = 0.0  # the bar's share said last

    def begin(self, seconds: float, now: float) -> None:
        """Start the count at ``seconds`` (the estimate said beside Run) at ``now``."""
        self.seconds, self.taken = seconds, now
        self.since = now if self.since is None else self.since

    def left(self, forecast: float | None, now: float) -> float | None:
        """The seconds left to say at ``now``, given the pool's ``forecast`` (None: it has none, e.g. every trial is
        done): 0 once the count has run out; None without a count or a forecast."""
        if self.seconds is None:
            if forecast is not None:
                self.begin(forecast, now)
            return forecast
        count = max(0.0, self.seconds - (now - self.taken))
        if forecast is not None and count > 0.0 and forecast < (1 - STEADY_MARGIN) * count:
            self.begin(forecast, now)
            return forecast
        return count

    @staticmethod
    def late(left: float | None, forecast: float | None) -> bool:
        """Whether the run is late: its count (``left``) has run out while the pool still has work of it to do."""
        return left == 0.0 and forecast is not None

    def share(self, left: float | None, now: float, done: float) -> float:
        """The bar's length at ``now``: the time counted so far over that and the ``left`` said (``done``, the share
        of trials done, without a count), at most 0.99 while the run goes on, and never shorter than it was."""
        if left is None or self.since is None:
            share = done
        else:
            gone = max(0.0, now - self.since)
            share = gone / (gone + left) if gone + left > 0 else done
        self.said = max(self.said, min(0.99, share) if done < 1.0 else 1.0)
        return self.said


class Cancelled(Exception):
    """Raised from the progress callback to stop a run."""


_watched = threading.local()  # the job a page's run shows, for watch() at the end of that run
_server: dict[str, Any] = {}  # the pool and the jobs of every session, for the server's life
_server_lock = threading.Lock()
#: The server's rows of built-in heuristics by workload: a what-if that changes only the heuristics runs only the
#: heuristics it adds (the value model's GA and TPSA, most of its default's time, once per workload).
KNOWN_ROWS = KnownRows()


def server_pool() -> RunQueue:
    """The server's pool, started on first use (a session's first page) and closed at exit: its own worker processes,
    or the Dask cluster at :func:`dask_scheduler` when one is set. A scheduler that cannot be reached: an
    :class:`HcschedError` in one line, at once for ``RETRY_SECONDS`` before it is tried again."""
    with _server_lock:
        if "jobs" not in _server:
            _server["jobs"] = []
            threading.Thread(target=_reap, daemon=True, name="hcsched-reaper").start()
        if "pool" not in _server or _server["pool"].broken:  # a pool whose workers could not start is tried again
            _server["pool"] = _new_pool(dask_scheduler())
            atexit.register(_server["pool"].close)
        return _server["pool"]


def _new_pool(address: str | None) -> RunQueue:
    if address is None:
        return Pool(WORKERS, MAX_RUNS)
    failed = _server.get("unreachable")
    if failed is not None and failed[0] == address and time.monotonic() - failed[1] < RETRY_SECONDS:
        raise HcschedError(failed[2])
    try:
        from hcsched.cluster import ClusterPool

        return ClusterPool(address, MAX_RUNS)
    except ImportError:
        message = f"{SCHEDULER_SETTING}: Dask is not installed; install it with: pip install 'dask[distributed]'"
    except HcschedError as exc:
        message = str(exc)
    _server["unreachable"] = (address, time.monotonic(), message)
    raise HcschedError(message)


def dask_scheduler() -> str | None:
    """The address of the Dask scheduler the server's runs go to: ``HCSCHED_DASK_SCHEDULER`` in the environment, else
    in Streamlit's secrets (``.streamlit/secrets.toml``) when there are any; None: the server's own workers."""
    address = os.environ.get(SCHEDULER_SETTING, "").strip()
    if address:
        return address
    if not st.secrets.load_if_toml_exists():  # no secrets, or none that load: never an error on the page
        return None
    return str(st.secrets.get(SCHEDULER_SETTING) or "").strip() or None


def started_pool() -> RunQueue | None:
    """The server's pool once started (None while jobs run in this process, in tests)."""
    with _server_lock:
        pool = _server.get("pool")
    return None if IN_PROCESS or pool is None or pool.broken else pool


def parallel_jobs() -> int:
    """The chunks of a run at once that the Run and Sweep pages offer first: as many as the server's pool has slots
    (its worker processes, or the Dask cluster's worker threads now), else this machine's cores."""
    pool = started_pool()
    return max(1, min(PARALLEL_JOBS_MAX, pool.size)) if pool is not None and pool.size else default_jobs()


def drawing_starts() -> None:
    """The page's drawing starts now, for the pace of :func:`watch`'s redraws (twice the time a page takes to draw):
    a wait for a run's first results before (:func:`pages.runs.start_run`) is not drawing, and counted as such
    it held a page's first results so far on screen for 5 s while 9 of 50 trials had ended."""
    _watched.page_started = time.monotonic()


def begin_page() -> None:
    """What every page does first: start the server's pool (unless jobs run in this process, in tests), and forget a
    job that an interrupted run of a page left for :func:`watch`, and settle the jobs that have ended."""
    _watched.entry = None
    _watched.page_started = time.monotonic()
    _settle_ended()
    if not IN_PROCESS:
        try:
            server_pool()
        except HcschedError:  # a Dask scheduler out of reach: said by the runs that need it
            pass


def _session_id() -> str | None:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx else None


def _session_alive(session_id: str | None) -> bool:
    from streamlit.runtime import Runtime

    return session_id is None or not Runtime.exists() or Runtime.instance().is_active_session(session_id)


def _reap() -> None:
    while True:
        time.sleep(1.0)
        with _server_lock:
            _server["jobs"] = [j for j in _server["jobs"] if not j.future.done()]
            jobs = list(_server["jobs"])
        reap(jobs, time.monotonic())


def reap(jobs: list[Job], now: float) -> None:
    """Cancel the jobs of sessions gone for ``SESSION_GRACE_SECONDS`` (a closed tab; a reconnect within it keeps
    them); called every second for the server's jobs."""
    for job in jobs:
        try:
            alive = _session_alive(job.session)
        except Exception:  # never let the reaper die
            alive = True
        if alive:
            job.gone_since = None
        elif job.gone_since is None:
            job.gone_since = now
        elif now - job.gone_since > SESSION_GRACE_SECONDS:
            job.cancel.set()


@dataclass(eq=False)
class Job:
    """A run, sweep or rerun: what it runs (for the notices it leaves), its estimate, and once started its future, its
    progress (trials done, fractional while a trial's heuristics finish one by one), its place in the pool's line and
    a Cancel that the progress callback obeys. A page keeps it in its session state while it runs."""

    scenario: Scenario | None
    total: int  # trials the progress counts
    estimate: float = 0.0  # seconds, as the page said before the run
    word: str = "trial"  # the model's word for a trial
    refused: str | None = None  # why it may not start (said in one line), if so
    what: str = ""  # what its progress bar says first, e.g. "Sweep of quickstart: "
    notice_key: str = ""  # where it leaves its notice once cancelled or failed (with its scenario)
    on_result: Callable[[Job, Any], None] | None = None  # what its page does with its result (idempotent: see settle)
    on_cancel: Callable[[Job], str] | None = None  # what its page keeps of it once cancelled, said after "The run was
    # cancelled." in place of how far it went (:func:`done_words`), which it says as it keeps it
    noun: str = "run"  # "The run was cancelled."
    future: Future = field(default_factory=Future)
    done: float = 0.0
    place: int = 0  # in the pool's line: 0 once computing
    started: float = field(default_factory=time.monotonic)
    moved: float = field(default_factory=time.monotonic)  # when the progress last moved (or the run left the line)
    cancel: threading.Event = field(default_factory=threading.Event)
    session: str | None = None
    gone_since: float | None = None
    settled: tuple[str, Any] | None = None  # its outcome, fixed when a page first settles it
    partial: Any = None  # its results so far (a run's: the trials finished), while it runs
    partials: int = 0  # how many times they were given
    kept: tuple | None = None  # what :attr:`on_cancel` kept of it (decided once)
    so_far: tuple[int, str] | None = None  # (trials, references to come) the page shows of it: :func:`showing_so_far`
    countdown: Countdown = field(default_factory=Countdown)  # the time left its bar says, steady
    after: float = 0.0  # seconds its page needs once its trials end (trial 0 again for the Gantt chart, the charts)
    ran_as: int | None = None  # the session's run of exactly this scenario, if kept: Run shows it again, runs nothing
    waited: float = field(default_factory=time.monotonic)  # when it was last seen waiting for a worker (or started)
    news: threading.Event = field(default_factory=threading.Event)  # set when results so far come, and at the end
    _staged: tuple[int, tuple[int, str] | None] | None = None  # (partials, :meth:`staged`) worked out last

    def give_partial(self, value: Any) -> None:
        """The ``partial(results)`` callback of :func:`hcsched.simulate`: kept for the pages to show."""
        self.partial, self.partials = value, self.partials + 1
        self.news.set()

    def wait_for_news(self, until: float) -> None:
        """Wait until results so far come or the job ends, or until ``until`` (``time.monotonic``)."""
        self.news.wait(max(0.0, until - time.monotonic()))
        self.news.clear()

    def progress(self, done: float, total: int) -> None:
        """The ``progress(done, total)`` callback of simulate, sweep and reproduce: raises Cancelled once asked to."""
        if done != self.done:
            self.moved = time.monotonic()
        self.done, self.total = done, total
        if self.cancel.is_set():
            raise Cancelled

    def _wait(self, place: int) -> None:
        self.place, self.moved = place, time.monotonic()
        if self.cancel.is_set():
            raise Cancelled

    def submit(self, fn: Callable, *args, partial: bool = False) -> Job:
        """Start ``fn(*args, self.progress)`` (the progress callback last; with ``partial``, then
        :meth:`give_partial`) in a thread of its own, its work in the server's pool."""
        self.session = _session_id()
        try:
            pool = None if IN_PROCESS else server_pool()
        except HcschedError as exc:  # the Dask scheduler cannot be reached: the job fails in one line
            self.future.set_exception(exc)
            self.news.set()
            return self
        callbacks = (self.progress, self.give_partial) if partial else (self.progress,)

        def work() -> None:
            try:
                if pool is None:
                    result = fn(*args, *callbacks)
                else:
                    with using(pool, self._wait, owner=self):
                        result = fn(*args, *callbacks)
            except BaseException as exc:
                self.future.set_exception(exc)
            else:
                self.future.set_result(result)
            self.news.set()

        self.started = self.moved = self.waited = time.monotonic()  # its count starts once it has a worker
        if pool is not None:
            with _server_lock:
                _server["jobs"].append(self)
        threading.Thread(target=work, daemon=True, name="hcsched-job").start()
        return self

    def start(self, key: str, fn: Callable, *args, partial: bool = False) -> Job:
        """:meth:`submit`, the job kept at ``session_state[key]`` and the session's state saved on the server at once
        (:mod:`pages.store`): a reload before the page that started it has ended finds the job too."""
        st.session_state[key] = self.submit(fn, *args, partial=partial)
        save()
        return self

    def outcome(self) -> tuple[str, Any]:
        """("result", value), ("cancelled", None) or ("error", one line); only once :attr:`ended`. A run that finished
        as Cancel was pressed keeps its results: they are whole, and the Cancel came too late to save any time."""
        if self.future.done() and self.future.exception() is None:
            return "result", self.future.result()
        if self.cancel.is_set():
            return "cancelled", None
        exc = self.future.exception(timeout=0)
        if isinstance(exc, Cancelled):
            return "cancelled", None
        return "error", describe_error(exc)  # never a traceback in the page

    @property
    def ended(self) -> bool:
        """Finished, failed, or cancelled (a cancelled job ends at once: its thread stops the workers on its own)."""
        return self.future.done() or self.cancel.is_set()

    def stalled(self) -> float | None:
        """Seconds without progress, once that is far beyond the estimate (the run may be stuck); else None."""
        quiet = time.monotonic() - self.moved
        return quiet if self.place == 0 and quiet > max(STUCK_SECONDS, STUCK_FACTOR * self.estimate) else None

    def show(self, key: str, results: bool = False) -> tuple:
        """Its progress, a warning slot and its Cancel button; returns the two slots for :meth:`draw`. ``results``:
        the page shows its results so far, said as the page last showed them (steady, not on and off)."""
        bar, warning = st.empty(), st.empty()
        self.draw(bar, warning, self.so_far if results else None)
        st.button("Cancel", key=key, on_click=self.cancel.set)
        return bar, warning

    def draw(self, bar, warning, shown: tuple[int, str] | None = None) -> None:
        """The progress bar ("3 of 50 replications done, about 40 s left", after :attr:`what`), or its place in line
        while it waits; a warning when it has made no progress for far longer than its estimate. ``shown``: (trials,
        references) the page shows so far (:func:`showing_so_far`): the trials said are those (the lead's "So far, 9 of
        50"; the page is drawn again at most every few seconds: "9 of 50 trials shown below, about 40 s left" while 35
        are done), the bar's length the time counted (:meth:`Countdown.share`); with
        references run after the others (their names), the others' trials first, then the references' ("39 of 50
        trials of the heuristics done; the references tpsa and ga: 0 of 50 trials done, about 9 min left").
        A page that does not show its results (Run, the sidebar) says the same of references run after the others,
        from its results so far (:meth:`staged`), so that every page counts the run alike.
        Below it, a warning when it has made no progress for far longer than its estimate, else the last thing its
        pool said of its runs that it went on through (a lost worker of a Dask cluster:
        :meth:`hcsched.pool.RunQueue.notes`), in one line."""
        pool = started_pool()
        shown = self.staged() if shown is None else shown
        if self.place:
            self.waited = time.monotonic()
            ahead = "1 run" if self.place == 1 else f"{self.place} runs"
            bar.progress(0.0, text=f"{self.what}waiting for a free slot: {ahead} ahead (this server computes at most "
                                   f"{MAX_RUNS} runs at once, HCSCHED_MAX_RUNS)")
        else:
            text, share = self._said(pool, shown)
            bar.progress(share, text=f"{self.what}{text}")
        quiet = self.stalled()
        notes = pool.notes(self) if pool is not None else []
        if quiet is None and notes:
            warning.info(notes[-1])
        elif quiet is None:
            warning.empty()
        else:
            warning.warning(f"No progress for {quiet:.0f} s, while the whole run was estimated at {self.estimate:.0f} "
                            "s: it may be stuck. Cancel it and run it again.")

    def staged(self) -> tuple[int, str] | None:
        """(trials, references) of its results so far where references run after every trial of the others
        (:func:`hcsched.experiment.split_so_far`): the others' trials ended and the references' names, as a page
        showing those results says them (:func:`showing_so_far`); None without such references."""
        if self.partial is None or self.scenario is None:
            return None
        if self._staged is None or self._staged[0] != self.partials:  # worked out once for each results so far
            scenario, results, to_come = split_so_far(self.scenario, self.partial)
            self._staged = (self.partials, (int(results["trial"].nunique()), " and ".join(to_come)) if to_come
                            else None)
        return self._staged[1]

    def _said(self, pool, shown: tuple[int, str] | None) -> tuple[str, float]:
        """The bar's text and length while the run computes (:meth:`draw`): no count while it waits for a worker
        (another run holds them all), then the count from the estimate said beside Run (:class:`Countdown`), the
        bar's length moving with it."""
        now, going = time.monotonic(), pool is not None and self.done < self.total
        held = pool.held_by_others(self) if going else 0
        forecast = pool.time_left(self) if going else None
        forecast = None if forecast is None else forecast + self.after
        if held and self.countdown.since is None:  # not computing yet: no count to say
            self.waited, left = now, None
        else:
            if self.countdown.since is None and self.estimate > 0:  # it has had a worker since last seen waiting
                self.countdown.begin(self.estimate, self.waited)
            left = self.countdown.left(forecast, now)
        late = Countdown.late(left, forecast)
        mine = shown[0] if shown is not None and not shown[1] else None  # one count on the page: the lead's
        if self.done >= self.total:  # every trial in: "...; putting the results together", never late nor a count
            text = progress_text(self.done, self.total, self.word, now - self.started, shown=mine)
        elif late or (held and left is None):  # no number: it would rise, or there is none yet
            text = progress_count(self.done, self.total, self.word, mine)
            text += ", taking longer than estimated" if late else ""
        else:
            text = progress_text(self.done, self.total, self.word, now - self.started, self.estimate, left, shown=mine)
        if shown is not None and shown[1]:  # the trials done are the references': the others' come first
            text = f"{shown[0]} of {self.total} {self.word}s of the heuristics done; the references {shown[1]}: {text}"
        if held:
            text += f"; {waiting_words(held, pool.size)}"
        done = min(1.0, self.done / max(1, self.total))
        return text, (done if held and left is None else self.countdown.share(left, now, done))


def waiting_words(runs: int, workers: int) -> str:
    """Why a run started has done nothing yet: ``runs`` other runs hold the ``workers``, until a chunk of theirs
    ends (a free worker takes the run with the least work left: :class:`hcsched.pool.Pool`)."""
    who = "another run holds" if runs == 1 else f"{runs} other runs hold"
    which = "the worker" if workers == 1 else ("both workers" if workers == 2 else f"all {workers} workers")
    return f"waiting for a worker: {who} {which} until a trial ends; the run with the least work left goes next"


def adopt(value: Any) -> None:
    """A job restored into a new session of the same person (a reload: :mod:`pages.store`) is this session's now:
    it runs on rather than being cancelled with the tab it was started in."""
    if isinstance(value, Job):
        value.session, value.gone_since = _session_id(), None


FOLLOWED = "progress_followed"  # the Cancel keys of the progress a page drew (follow) in its last run


def follow(key: str, cancel_key: str, results: bool = False) -> None:
    """The page's part of the job kept at ``session_state[key]``: its progress and Cancel (``cancel_key``) while it
    runs, kept up to date by :func:`watch` at the end of the page; once it has ended, settled (:func:`settle`) and the
    page drawn again. With ``results`` (a page that shows the job's results so far), the page is drawn again as more
    of them come (at most every ``PARTIAL_REDRAW_SECONDS``, and never sooner than ``DRAW_PACE`` times the time it
    took to draw after it was drawn).

    All in one slot, drawn first, and drawn empty in the page's first run after the job has ended: Streamlit greys
    what the run before drew and removes it only when the page's script ends, so the bar ("1 of 30 replications shown
    below, about 0 s left") and Cancel stayed on screen, greyed, while the final answer's charts took seconds to draw
    below them. The empty slot replaces them at once, in the rerun that shows the answer; later runs draw none."""
    _watched.entry = None
    shown = st.session_state.setdefault(FOLLOWED, set())  # the Cancel keys of the progress drawn last run
    slot = st.empty() if cancel_key in shown else None
    job = _running(key)
    if job is None:
        shown.discard(cancel_key)
        return
    shown.add(cancel_key)
    with (st.empty() if slot is None else slot).container():
        _watched.entry = (key, *job.show(cancel_key, results), job.partials if results else None)


SAID = "estimates_said"  # a Run button's key -> (the scenario, the estimate) the page said beside it last


def said_once(job: Job, button: str) -> Job:
    """``job``, the run the button ``button`` starts, with one estimate: on the rerun of the button's click, the one
    the page said before the click. Each script run plans the run again, and the pool's forecast reads its pace anew
    (the machine's load read again, the chunks of the runs beside it further on: :meth:`hcsched.pool.Pool.forecast`),
    so the click's rerun said another number as the run started ("about 4.1 s", then "3.2 s" a moment later)."""
    said = st.session_state.setdefault(SAID, {})
    before = said.get(button)
    if st.session_state.get(button) is True and before is not None and before[0] == job.scenario:
        job.estimate = before[1]
    said[button] = (job.scenario, job.estimate)
    return job


def showing_so_far(job: Job, trials: int, references: str = "") -> None:
    """The page shows the results of ``trials`` trials of ``job`` (``references``: the names of those still to come,
    which run after the others' trials): its progress bar says so while more are done (:meth:`Job.draw`), kept on the
    job so that the page's next drawing says it from the start, and said at once on the bar this page drew
    (:func:`follow`). So the page calls it once its lead and the lead's caption say the count, before the charts
    below are drawn: under load a page takes seconds to draw, and a bar said at the page's end kept the count of the
    drawing before ("the results below: 1 of them") beside a lead of 10, while one said before the lead's paired
    intervals were worked out ran ahead of it ("7 of 30 trials shown below" beside "So far, 3 of 30")."""
    job.so_far = (trials, references)
    entry = getattr(_watched, "entry", None)
    if entry is not None and entry[3] is not None and st.session_state.get(entry[0]) is job:
        job.draw(entry[1], entry[2], job.so_far)


def following() -> bool:
    """Whether this page shows a job's progress already (:func:`follow`)."""
    return getattr(_watched, "entry", None) is not None


def _running(key: str) -> Job | None:
    """The job at ``key`` while it runs; once it has ended, settled and the page drawn again."""
    job = st.session_state.get(key)
    if job is not None and job.ended:
        settle(key)
        st.rerun()
    return job


def watch() -> None:
    """The last call of every page (app.py): while the job shown by :func:`follow` runs, the page's script keeps its
    progress up to date, every ``REFRESH_SECONDS``; once it has ended, the page is drawn again with its results or
    notice. Any click interrupts the loop (Streamlit stops a running script for the rerun a widget asks for), so Cancel
    and every other widget answer at once. No fragment polls: a fragment's periodic reruns were lost when a full rerun
    had dropped its id, which left a page that never changed and a Cancel that did nothing."""
    entry, _watched.entry = getattr(_watched, "entry", None), None
    if entry is None:
        return
    key, bar, warning, drawn = entry
    start = time.monotonic()
    redraw = start + max(PARTIAL_REDRAW_SECONDS, DRAW_PACE * (start - getattr(_watched, "page_started", start)))
    until = start + WATCH_SECONDS
    while time.monotonic() < until:
        job = _running(key)
        if job is None:
            return
        if drawn is not None and job.partials != drawn and (drawn == 0 or time.monotonic() >= redraw):
            st.rerun()  # (more) results so far: the page shows them, the first as soon as they come
        job.draw(bar, warning, job.so_far if drawn is not None else None)
        time.sleep(REFRESH_SECONDS)
    if WATCH_SECONDS > 0:
        st.rerun()


def settle(key: str) -> None:
    """Take the ended job at ``key`` off the page: its result to its ``on_result``, or its notice ("The run was
    cancelled.", "The run stopped: ..." in one line, with its scenario) to its ``notice_key``.

    Streamlit may stop a script at any read or write of the session state, to rerun it for a click (Cancel pressed
    as the run ends, say). So the outcome is fixed on the job the first time, the job leaves the session state last,
    and what comes before is idempotent (``on_result`` too): a settle stopped half-way is done again, whole, by the
    next script run, and a result or notice is never lost between the two.

    Two sessions may hold the same job and history (a tab and its reload, :mod:`pages.store`) and settle it at once:
    one at a time (:data:`_SETTLING`), so that the second finds the run kept and does not keep it again."""
    with _SETTLING:
        _settle(key)


_SETTLING = threading.RLock()  # settles one job at a time, whatever the session


def _settle(key: str) -> None:
    job = st.session_state.get(key)
    if job is None:
        return
    if job.settled is None:
        job.settled = job.outcome()
    kind, value = job.settled
    if kind == "result":
        st.session_state.pop(job.notice_key, None)  # an older run's notice; on_result may leave its own
        job.on_result(job, value)
    elif kind == "cancelled":
        said = job.on_cancel(job) if job.on_cancel is not None else done_words(job)
        st.session_state[job.notice_key] = ("warning", f"The {job.noun} was cancelled.{said}", job.scenario)
        if job.cancel.is_set():  # said wherever the person is now, even on a page of another scenario
            of = f" of {plain(job.scenario.name)}" if job.scenario is not None else ""
            # its count of trials done, unless the page kept a whole part of them (the notice says which)
            count = "" if job.kept else f" after {int(job.done)} of {job.total} {job.word}s"
            st.toast(f"The {job.noun}{of} was cancelled{count}.", icon=":material/cancel:")
    else:
        st.session_state[job.notice_key] = ("error", f"The {job.noun} stopped: {plain(value)}", job.scenario)
    st.session_state.pop(key, None)


def done_words(job: Job) -> str:
    """How far a cancelled job went, a sentence after its notice: " It had done 17 of 50 trials." ("" for a job of
    one step)."""
    return f" It had done {int(job.done)} of {job.total} {job.word}s." if job.total > 1 else ""


def _settle_ended() -> None:
    """Settle every job of the session that has ended (a Cancel pressed, a run done): at the top of the page, so
    that the page draws the outcome in this run rather than drawing the job and then again."""
    for key in [k for k in st.session_state if isinstance(st.session_state[k], Job) and st.session_state[k].ended]:
        settle(key)


class Warming:
    """Each model's kernels compiled (or loaded from numba's disk cache) once per server, in one background thread,
    when first needed: the default model's at start-up, another's as soon as a session's scenario is of it. A run
    waits only for its own model's, so that its workers load them from numba's cache rather than all compile them
    at once. Compiling all five models at start-up took over a minute of one core on a first launch, and slowed
    the first runs."""

    def __init__(self) -> None:
        self.ready = {m: threading.Event() for m in model_names()}
        self.requested: list[str] = []  # in the order they were asked for
        self.started: dict[str, float] = {}  # when each model's compilation began (time.monotonic)
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

    def seconds_left(self, model: str) -> float:
        """About how long until ``model``'s kernels are ready: the models asked for before it and not ready yet are
        compiled first, each taking about its :attr:`~hcsched.models.base.Model.compile_seconds` (at least 1 s more
        while it runs late). Loading kernels already in numba's cache takes under a second, so this is the worst
        case."""
        now, left = time.monotonic(), 0.0
        with self._lock:
            ahead = self.requested[: self.requested.index(model) + 1] if model in self.requested else [model]
        for m in ahead:
            if not self.ready[m].is_set():
                estimate = get_model(m).compile_seconds
                left += max(1.0, estimate - (now - self.started[m])) if m in self.started else estimate
        return left

    def _work(self) -> None:
        while True:
            model = self._todo.get()
            self.started[model] = time.monotonic()
            try:
                warm_up([model])
            except Exception:  # a failure shows when the run itself compiles; keep serving the other models
                pass
            finally:
                self.ready[model].set()


@st.cache_resource
def warm_kernels() -> Warming:
    """The server's Warming, started with the default model's kernels, so that the first Run is fast."""
    warming = Warming()
    warming.request(DEFAULT_MODEL)
    return warming
