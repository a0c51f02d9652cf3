"""Trials with common random numbers, run in parallel, for any model (Maheswaran et al., section 5.1).

Trial t of a scenario with seed s draws from ``SeedSequence(s).spawn(trials)[t]``;
the model spawns it into one stream per random quantity. Every heuristic of
the trial sees the same workload, in one process (a model may keep state
across the heuristics of a trial: the value model seeds TPSA and GA with the
dynamic runs before them); the results do not depend on the number of
parallel jobs. Progress is counted in heuristic runs, so that a long trial
reports, and can be cancelled, while it runs. Nothing here knows a particular
model: it asks the scenario's model (:mod:`hcsched.models`) to draw, run and
measure.
"""

from __future__ import annotations

import collections
import hashlib
import json
import math
import os
import pickle
import re
import threading
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pandas as pd

from hcsched.errors import HcschedError
from hcsched.metrics import Schedule, add_normalized
from hcsched.models import get_model
from hcsched.pool import tick
from hcsched.runner import RunOptions, current_pool, default_jobs, run_chunks
from hcsched.sampling import trial_seeds
from hcsched.scenario import Scenario


def _fresh(seed_seq: np.random.SeedSequence) -> np.random.SeedSequence:
    """A copy of a trial's seed sequence with no child spawned yet: ``spawn`` advances a SeedSequence, so drawing a
    trial's workload twice from the same object would give two different workloads."""
    return np.random.SeedSequence(seed_seq.entropy, spawn_key=seed_seq.spawn_key, pool_size=seed_seq.pool_size)


SCHEDULE_COLUMNS = ("trial", "heuristic", "task", "machine", "arrival", "start", "finish", "expected", "actual")
CHUNK_SECONDS = 1.0  # a chunk of trials sent to a worker process takes about this long on one core
HEARTBEAT_SECONDS = 0.5  # while no heuristic run finishes, progress is called again this often (so that Cancel is seen)


MEMORY_SHARE = 0.5  # of the machine's physical memory, what a run may use unless HCSCHED_MAX_MEMORY says otherwise
ROW_BYTES, CELL_BYTES = 400, 120  # a results row while it is built (a dict of Python floats), and per cell
SCHEDULE_CELL_BYTES = 8 * 2  # a schedules table's cell, and its copy while the chunks' tables are concatenated
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def memory_limit() -> int:
    """The bytes a run may need on this machine: ``HCSCHED_MAX_MEMORY`` (bytes, or with a suffix K, M, G or T: "8G",
    "512M"), else half of the physical memory."""
    text = os.environ.get("HCSCHED_MAX_MEMORY", "").strip()
    if not text:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * MEMORY_SHARE)
    found = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?", text, re.IGNORECASE)
    if not found or float(found[1]) <= 0:
        raise HcschedError(f"HCSCHED_MAX_MEMORY: {text!r} is not allowed; allowed: a number of bytes above 0, "
                           "optionally with K, M, G or T (e.g. 8G, 512M)")
    return int(float(found[1]) * _UNITS[found[2].upper()])


def _table_bytes(scenario: Scenario, rows: int, schedules: bool) -> int:
    """The results table of ``rows`` rows (and the schedules table, one row per task and row, when asked)."""
    model = get_model(scenario.model)
    cells = sum(model.family_size(scenario.spec, m.per) if m.per else 1 + m.normalize for m in model.metrics) + 2
    tasks = model.scale(scenario.spec)[0]
    columns = len(SCHEDULE_COLUMNS) + len(model.schedule_columns)
    return rows * (ROW_BYTES + CELL_BYTES * cells) + schedules * rows * tasks * columns * SCHEDULE_CELL_BYTES


def memory_bytes(scenario: Scenario, jobs: int | None = None, points: int = 1, schedules: bool = False,
                 trials: int | None = None) -> int:
    """The peak bytes a run of the scenario (``points`` times, as a sweep does; ``trials`` instead of the scenario's)
    needs, from its sizes alone (nothing is drawn): its model's bytes of one trial (``Model.trial_bytes``) times the
    trials computed at once, at most ``jobs`` (default all cores), plus the results table."""
    trials = scenario.trials if trials is None else trials
    rows = trials * len(scenario.heuristics) * points
    at_once = min(_jobs(jobs), trials * points)
    return get_model(scenario.model).trial_bytes(scenario.spec) * at_once + _table_bytes(scenario, rows, schedules)


def _jobs(jobs: int | None) -> int:
    return default_jobs() if jobs is None else max(1, int(jobs))


def readable_bytes(n: float) -> str:
    """"12.3 GB", "512 MB" (powers of 1024)."""
    for unit, size in (("TB", 2**40), ("GB", 2**30), ("MB", 2**20)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{max(n, 0) / 2**10:.0f} KB"


def memory_refusal(scenario: Scenario, jobs: int | None = None, points: int = 1, schedules: bool = False,
                   trials: int | None = None) -> str | None:
    """Why the run would not fit in this server's memory (:func:`memory_limit`), in one line; None when it fits."""
    need, limit = memory_bytes(scenario, jobs, points, schedules, trials), memory_limit()
    if need <= limit:
        return None
    model = get_model(scenario.model)
    tasks, machines = model.scale(scenario.spec)
    at_once = min(_jobs(jobs), (scenario.trials if trials is None else trials) * points)
    return (f"This run needs about {readable_bytes(need)} of memory ({tasks:,} tasks x {machines:,} machines, "
            f"{at_once:,} {model.trial_word}{'s' if at_once != 1 else ''} at once); "
            f"this server allows {readable_bytes(limit)} "
            "(HCSCHED_MAX_MEMORY). Use fewer tasks or machines.")


def check_memory(scenario: Scenario, jobs: int | None = None, points: int = 1, schedules: bool = False,
                 trials: int | None = None) -> None:
    """Raise :class:`HcschedError` with :func:`memory_refusal`'s line when the run would not fit."""
    refused = memory_refusal(scenario, jobs, points, schedules, trials)
    if refused:
        raise HcschedError(refused)


def run_trial(scenario: Scenario, trial: int, seed_seq: np.random.SeedSequence, schedules: bool = False,
              after_run: Callable[[], None] | None = None,
              part: tuple[int, ...] | None = None) -> tuple[list[dict], dict]:
    """All heuristics of the scenario (or those at the positions ``part``) on one trial's workload: metric rows and,
    if asked, each heuristic's run. Heuristics never see each other's runs, so a trial run in parts gives the same
    rows. ``after_run()`` is called after each heuristic's run (what it raises stops the trial there). A
    trial that would not fit in memory alone (:func:`memory_refusal`, one trial at once) is refused before anything
    is drawn: in worker processes too."""
    check_memory(scenario, jobs=1, trials=1)
    model, spec = get_model(scenario.model), scenario.spec
    workload = model.workload(spec, _fresh(seed_seq))
    rows, kept = [], {}
    for h in scenario.heuristics if part is None else [scenario.heuristics[i] for i in part]:
        result = model.run(spec, h, workload)
        rows.append({"trial": trial, "heuristic": h.label, **model.measure(spec, h, result)})
        if schedules:
            kept[h.label] = result
        if after_run:
            after_run()
    return rows, kept


def schedule_table(scenario: Scenario, trial: int, runs: dict) -> pd.DataFrame:
    """One row per task and heuristic of one trial: trial, heuristic, task, machine, arrival, start, finish, expected,
    actual and the model's own columns; empty start / finish where a task never started / finished."""
    model = get_model(scenario.model)
    table = pd.concat([model.schedule_frame(run).assign(trial=trial, heuristic=label) for label, run in runs.items()],
                      ignore_index=True)
    return table[list(SCHEDULE_COLUMNS) + [c for c in table.columns if c not in SCHEDULE_COLUMNS]]


def run_trials(scenario: Scenario, trials: list[int], seeds: list[np.random.SeedSequence], schedules: bool = False,
               after_run: Callable[[], None] | None = None,
               part: tuple[int, ...] | None = None) -> tuple[list[dict], list[pd.DataFrame]]:
    """Metric rows of the given trials (their seed sequences in ``seeds``) and, if asked, their schedule tables;
    ``part``: those of some heuristics only (:func:`run_trial`)."""
    rows, tables = [], []
    for t, ss in zip(trials, seeds, strict=True):
        trial_rows, runs = run_trial(scenario, t, ss, schedules, after_run, part)
        rows += trial_rows
        if schedules:
            tables.append(schedule_table(scenario, t, runs))
    return rows, tables


def normalized(results: pd.DataFrame, scenario: Scenario) -> pd.DataFrame:
    """``results`` with every normalised metric of the scenario's model against its benchmark heuristic."""
    model = get_model(scenario.model)
    for metric in model.metrics:
        if metric.normalize:
            results = add_normalized(results, metric.name, scenario.benchmark_label,
                                     model.bound_columns.get(metric.name))
    return results


def _run_chunk(scenario: Scenario, trials: list[int], seeds: list[np.random.SeedSequence], schedules: bool,
               part: tuple[int, ...] | None = None) -> tuple[list[dict], list[pd.DataFrame]]:
    return run_trials(scenario, trials, seeds, schedules, tick, part)  # a tick per heuristic run, for the progress


def trials_per_chunk(seconds: float, trials: int, workers: int, target: float = CHUNK_SECONDS, points: int = 1,
                     per_worker: int = 4) -> int:
    """Trials per chunk of work: about ``target`` seconds on one core, by the models' cost estimate ``seconds`` per
    trial, but small enough that every worker gets at least ``per_worker`` chunks of the ``points`` x ``trials`` to
    run (the last chunks do not leave workers idle)."""
    size = math.ceil(target / seconds) if seconds > 0 else trials
    return max(1, min(trials, size, math.ceil(points * trials / (per_worker * max(1, workers)))))


#: A run that shows its results so far cuts its trials finer (chunks of half the seconds, eight a worker at least):
#: its page shows the trials of the chunks ended, and with chunks of 7 of caniou-mu10's 50 trials it said "So far, 9
#: of 50" while 44 were done. The results are the same for every cut (each trial has its own seeds).
QUICK_CHUNKS = {"target": CHUNK_SECONDS / 2, "per_worker": 8}


SPLIT_SECONDS = 0.25  # a run that shows its results so far splits its first trial among the workers above this cost
REFERENCES_LAST_SHARE = 0.5  # ... and runs its references after every trial of the others above this share of a trial


class Chunk(NamedTuple):
    """Trials ``first`` to before ``stop`` of the heuristics at the positions ``part`` (None: all of them), sent to a
    worker process, and the seconds of one core they cost by the model's estimate."""

    first: int
    stop: int
    part: tuple[int, ...] | None
    cost: float


def chunk_plan(scenario: Scenario, trials: int, jobs: int, quick_start: bool = False,
               skip: frozenset[int] = frozenset()) -> list[Chunk]:
    """The chunks of a run in ``jobs`` worker processes: :func:`trials_per_chunk` trials each, of every heuristic but
    those at the positions ``skip`` (their rows known: :class:`KnownRows`). With ``quick_start`` (a run that shows its
    results so far) the first answer comes early, and the whole answer among the heuristics that can run online
    before the references (:func:`phases`): when the references (heuristics that cannot run online, e.g. a static
    search knowing every task) cost more than ``REFERENCES_LAST_SHARE`` of a trial, every trial of the others is
    planned first, then every trial of the references. In each of these plans the first trial is split by heuristics
    among the workers when it costs more than ``SPLIT_SECONDS`` (parts of about equal cost), else each worker's first
    chunk is a single trial. The results are the same for every plan: each trial has its own seeds, and heuristics
    never see each other's runs (:func:`_table` puts the rows in one order)."""
    first, rest = phases(scenario, quick_start, skip)
    if not rest and not skip:
        return _plan(scenario, None, trials, jobs, quick_start)
    return [chunk for part in (first, rest) if part for chunk in _plan(scenario, part, trials, jobs, quick_start)]


def phases(scenario: Scenario, quick_start: bool = True,
           skip: frozenset[int] = frozenset()) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The positions of the heuristics to run (not in ``skip``) in two phases: those whose every trial a run showing
    its results so far plans first, and the rest after them. The rest are the references when they cost more than
    ``REFERENCES_LAST_SHARE`` of a trial and the benchmark is among the others (the results so far are normalised
    against it); else none."""
    heuristics = scenario.heuristics
    every = tuple(i for i in range(len(heuristics)) if i not in skip)
    online = tuple(i for i in every if not heuristics[i].heuristic.reference)
    if not quick_start or len(online) in (0, len(every)) or \
            scenario.benchmark_label not in {h.label for h in heuristics if not h.heuristic.reference}:
        return every, ()
    model = get_model(scenario.model)
    share = model.trial_seconds(scenario.spec, [heuristics[i] for i in every if i not in online]) / \
        max(model.trial_seconds(scenario.spec, [heuristics[i] for i in every]), 1e-12)
    if share <= REFERENCES_LAST_SHARE:
        return every, ()
    return online, tuple(i for i in every if i not in online)


def _plan(scenario: Scenario, part: tuple[int, ...] | None, trials: int, jobs: int,
          quick_start: bool) -> list[Chunk]:
    """The chunks of the heuristics at ``part`` (None: all) over every trial (:func:`chunk_plan`)."""
    model = get_model(scenario.model)
    which = tuple(range(len(scenario.heuristics))) if part is None else part
    heuristics = [scenario.heuristics[i] for i in which]
    per_trial = model.trial_seconds(scenario.spec, heuristics)
    size = trials_per_chunk(per_trial, trials, jobs, **(QUICK_CHUNKS if quick_start else {}))
    plan: list[Chunk] = []
    parts = min(jobs, len(heuristics)) if quick_start and trials and per_trial > SPLIT_SECONDS else 1
    if parts > 1:
        costs = [model.trial_seconds(scenario.spec, (h,)) for h in heuristics]
        total = sum(costs) or 1.0
        plan = [Chunk(0, 1, which[slice(*cut)], per_trial * sum(costs[slice(*cut)]) / total)
                for cut in _cuts(costs, parts)]
    elif quick_start and size > 1:
        plan = [Chunk(t, t + 1, part, per_trial) for t in range(min(jobs, trials))]
    start = plan[-1].stop if plan else 0
    return plan + [Chunk(a, min(a + size, trials), part, (min(a + size, trials) - a) * per_trial)
                   for a in range(start, trials, size)]


def _cuts(costs: list[float], parts: int) -> list[tuple[int, int]]:
    """``costs`` cut into ``parts`` contiguous, non-empty runs of about equal sums: (start, stop) of each."""
    prefix = np.cumsum(costs)
    bounds = [0]
    for i in range(1, parts):
        cut = int(np.argmin(np.abs(prefix[:-1] - prefix[-1] * i / parts))) + 1
        bounds.append(min(max(cut, bounds[-1] + 1), len(costs) - (parts - i)))
    bounds.append(len(costs))
    return list(zip(bounds[:-1], bounds[1:], strict=True))


def duration_words(seconds: float) -> str:
    """A run's duration as every page and the progress say one, its estimate or its time left: whole seconds under
    two minutes ("42 s", never "0.7 minutes" nor "27.0 s"; at least "1 s"), whole minutes from two minutes ("3 min")."""
    return f"{max(1, round(seconds))} s" if round(seconds) < 120 else f"{seconds / 60:.0f} min"


def progress_text(done: float, total: int, word: str, elapsed: float, estimate: float | None = None,
                  left: float | None = None, shown: int | None = None) -> str:
    """"3 of 50 replications done, about 40 s left": progress in the model's own word for a trial, in whole trials
    (``done`` may be fractional while a trial's heuristics finish one by one; the pace uses it). ``shown``: the trials
    a page shows the results of so far, said beside those done ("35 of 50 trials done, 9 shown below, about 40 s
    left"), so that the page's lead and its bar agree (:func:`progress_count`); the time left is still the run's.

    ``left``, the caller's forecast of the seconds left (a page's steady count down: :class:`pages.jobs.Countdown`),
    is said as it is. Without it the time left blends two forecasts by the share done, f = done / total: the estimate
    made before the run (``estimate`` seconds for the whole run, e.g. :func:`estimate_seconds`) scaled to the work
    left, (1 - f) x estimate, weighs 1 - f; the pace so far, elapsed / done x (total - done), weighs f. So the first
    trials, whose pace is the least sure (they paid for starting the workers; a trial's cheap heuristics may finish
    first), barely move it, and the pace takes over as the run goes on. Without an estimate, the pace alone once
    something is done; with one and nothing done yet, the estimate less the time elapsed. Never negative, said in
    :func:`duration_words`; under half a second: "finishing".
    """
    text = progress_count(done, total, word, shown)
    if done >= total:  # every trial in: what is left is putting them together (and a page's drawing them), no count
        return f"{text}; putting the results together"
    if left is None:
        left = _blended_left(done, total, elapsed, estimate)
    if left is None:
        return text
    return text + (", finishing" if left < 0.5 else f", about {duration_words(left)} left")


def progress_count(done: float, total: int, word: str, shown: int | None = None) -> str:
    """The count of :func:`progress_text` without its time left: "3 of 50 replications done" in whole trials (a half
    trial is no answer), and those a page shows (``shown``): "35 of 50 trials done, 9 shown below" (the count done
    never steps back when the first results are shown), "9 of 50 trials done and shown below"."""
    n = math.floor(done) if shown is None else max(math.floor(done), shown)
    text = f"{n} of {total} {word}s done"
    if shown is None:
        return text
    return f"{text}, {shown} shown below" if shown < n else f"{text} and shown below"


def _blended_left(done: float, total: int, elapsed: float, estimate: float | None) -> float | None:
    """The time left of :func:`progress_text` without a forecast of the caller's: the estimate and the pace so far,
    blended by the share done."""
    f = min(1.0, max(0.0, done / total)) if total else 1.0
    pace = elapsed / done * (total - done) if done else None
    known = estimate is not None and estimate > 0
    if pace is not None and known:
        return (1 - f) * (1 - f) * estimate + f * pace
    if pace is not None:
        return pace
    return estimate - elapsed if known and elapsed < estimate else None


def simulate(scenario: Scenario, trials: int | None = None, seed: int | None = None, jobs: int | None = None,
             progress: Callable[[float, int], None] | None = None, schedules: bool = False, heuristics=None,
             partial: Callable[[pd.DataFrame], None] | None = None, known: KnownRows | None = None):
    """Run the scenario's trials; one row per trial and heuristic, with normalised metrics against the benchmark.

    Parameters
    ----------
    scenario : Scenario
        The experiment: a model's system, its heuristics, trials and seed.
    trials, seed : int, optional
        Override the scenario's.
    jobs : int, optional
        Worker processes (default: all cores); 1 runs in this process.
    progress : callable, optional
        ``progress(done, total)``, called after every heuristic run and again every ``HEARTBEAT_SECONDS`` while none
        finishes: ``total`` the trials, ``done`` the trials finished (heuristic runs finished / heuristics per trial:
        a whole number when it is one, else a fraction; with references planned last, :func:`chunk_plan`, the trials
        whose every heuristic has ended), non-decreasing, exactly ``total`` at the end. An exception
        it raises (e.g. to cancel) stops the run at once (worker processes are killed; with one job, after the
        heuristic run in progress) and propagates unchanged.
    schedules : bool
        Also return every task of every trial and heuristic (see :func:`schedule_table`).
    heuristics : list, optional
        Replaces the scenario's heuristics (its benchmark then is the model's default): names, tables or heuristic
        objects, yours made with :func:`hcsched.heuristic`, e.g. ``simulate(scenario, heuristics=[my_rule, "mct"])``.
    partial : callable, optional
        ``partial(results)`` with the results of the trials finished so far (whole trials, normalised as the final
        table, in trial order), as soon as the first chunk of trials ends and then at most every ``PARTIAL_SECONDS``
        while more end, never after the last: to show an answer while the run goes on. When the references cost
        most of a trial, they run after every trial of the other heuristics (:func:`chunk_plan`): the trials given
        are then those whose other heuristics have ended, with the references' rows where they have ended too
        (:func:`split_so_far`). The final table does not depend on it (the same seeds, the rows in one order).
    known : KnownRows, optional
        Rows of built-in heuristics kept from earlier runs of the same workload (model, system, seed): a heuristic
        whose every trial is kept is not run again, and the rows of this run are kept there (not with
        ``schedules``). The table is the same as without it.

    Returns
    -------
    pandas.DataFrame or tuple of DataFrame
        One row per trial and heuristic (``trial``, ``heuristic`` and the model's metric columns); with
        ``schedules=True``, ``(results, schedules)``.
    """
    trials = scenario.trials if trials is None else trials
    seed = scenario.seed if seed is None else seed
    changes = {} if heuristics is None else {"heuristics": list(heuristics), "benchmark": None}
    scenario = scenario.replace(trials=trials, seed=seed, **changes)  # validates them
    jobs = default_jobs() if jobs is None else jobs
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise HcschedError(f"jobs: {jobs!r} is not allowed; allowed: a positive integer")
    check_memory(scenario, jobs, schedules=schedules)
    seeds = trial_seeds(seed, trials)
    jobs = min(jobs, trials)
    known = None if schedules else known
    skip = frozenset() if known is None else known.whole(scenario)
    kept = [] if known is None else known.rows(scenario, skip)
    first, rest = phases(scenario, partial is not None, skip)
    per_trial = len(first) + len(rest)  # heuristics run
    runs, told, last_call = 0, 0, time.monotonic()  # heuristic runs finished; the trials done last reported
    staged = bool(rest)  # references planned last
    ended: collections.Counter = collections.Counter()  # staged: heuristic runs of each trial in the chunks ended

    def done() -> float:
        if staged:  # whole trials: the runs of a trial's first heuristics are most of the runs, not of the time
            return sum(n == per_trial for n in ended.values())
        return runs // per_trial if runs % per_trial == 0 else runs / per_trial if per_trial else trials

    def report(heartbeat: bool = False) -> None:
        nonlocal told, last_call
        now = done()
        if progress and (now != told or heartbeat and time.monotonic() - last_call >= HEARTBEAT_SECONDS):
            told = now
            progress(now, trials)
            last_call = time.monotonic()

    def one_run() -> None:
        nonlocal runs
        runs += 1
        report()

    here = jobs == 1 and current_pool() is None  # trial by trial, in this process
    if not per_trial:  # every row known
        chunks, costs = [], []
    elif here:
        part = tuple(sorted(first + rest)) if skip else None
        chunks = [(scenario, [t], seeds[t:t + 1], schedules, part) for t in range(trials)]
        costs = []
    else:
        plan = chunk_plan(scenario, trials, jobs, quick_start=partial is not None, skip=skip)
        chunks = [(scenario, list(range(c.first, c.stop)), seeds[c.first:c.stop], schedules, c.part) for c in plan]
        costs = [c.cost for c in plan]
    outputs: list = [None] * len(chunks)
    shown = _Partial(partial, scenario, chunks, outputs, rest, kept)

    def collect(i: int, output) -> None:
        outputs[i] = output
        if staged:
            ended.update(row["trial"] for row in output[0])
            report()
        shown.chunk_done()

    if here:
        for i, (_, one, seed_seq, _, part) in enumerate(chunks):
            collect(i, run_trials(scenario, one, seed_seq, schedules, one_run, part))
    elif chunks:
        run_chunks(_run_chunk, chunks, collect, [scenario.model], RunOptions(jobs), poll=lambda: report(heartbeat=True),
                   tick=one_run, costs=costs)
        runs = trials * per_trial  # already counted: a chunk's ticks come before its result
        ended.update({t: per_trial - ended[t] for t in range(trials)})
        report()
    rows, tables = _joined(outputs)
    if known is not None:
        known.keep(scenario, rows)
    results = _table(kept + rows, scenario)
    if not schedules:
        return results
    return results, _in_order(pd.concat(tables, ignore_index=True), scenario)


PARTIAL_SECONDS = 1.0  # the partial results of a run are given at most this often (after the first)


def _joined(outputs: list) -> tuple[list[dict], list[pd.DataFrame]]:
    """The rows and schedule tables of the chunks finished (None: not yet), in chunk order."""
    done = [output for output in outputs if output is not None]
    return [row for rows, _ in done for row in rows], [table for _, tables in done for table in tables]


def _in_order(table: pd.DataFrame, scenario: Scenario) -> pd.DataFrame:
    """``table``'s rows by trial, then by the heuristic's position in the scenario (stable within), whatever order
    the chunks ended or were planned in."""
    position = {h.label: i for i, h in enumerate(scenario.heuristics)}
    key = table["trial"].to_numpy(np.int64) * len(position) + table["heuristic"].map(position).to_numpy(np.int64)
    if (np.diff(key) >= 0).all():  # already (a large schedules table is not copied)
        return table.reset_index(drop=True)
    return table.iloc[np.argsort(key, kind="stable")].reset_index(drop=True)


def _table(rows: list[dict], scenario: Scenario) -> pd.DataFrame:
    """The results table of ``rows``: in trial and heuristic order (:func:`_in_order`), normalised against the
    benchmark."""
    return normalized(_in_order(pd.DataFrame(rows), scenario), scenario)


def whole_trials(rows: list[dict], heuristics: set[str]) -> list[dict]:
    """The rows of the trials in which every one of ``heuristics`` (labels) has run."""
    done = collections.Counter(row["trial"] for row in rows if row["heuristic"] in heuristics)
    return [row for row in rows if done[row["trial"]] == len(heuristics)]


class _Partial:
    """Gives ``partial`` (see :func:`simulate`) the results of the chunks finished so far, with the rows ``kept``
    from earlier runs: after the first, then at most every ``PARTIAL_SECONDS``, never once every chunk is done (the
    run's own result follows). Each time, the rows of the trials in which every heuristic but the references planned
    last (at the positions ``rest``, :func:`phases`) has run, with the rows of those references that have run in
    those trials."""

    def __init__(self, partial: Callable[[pd.DataFrame], None] | None, scenario: Scenario, chunks: list,
                 outputs: list, rest: tuple[int, ...] = (), kept: list[dict] | None = None) -> None:
        self.partial, self.scenario, self.outputs, self.kept = partial, scenario, outputs, kept or []
        self.first = {h.label for i, h in enumerate(scenario.heuristics) if i not in rest}
        # the chunks of the heuristics planned first, when the references come after them: once these have ended,
        # the whole answer among them is given at once
        self.opening = [i for i, chunk in enumerate(chunks)
                        if rest and chunk[4] is not None and not set(chunk[4]) & set(rest)]
        self.last: float | None = None

    def chunk_done(self) -> None:
        if self.partial is None or all(output is not None for output in self.outputs):
            return
        now = time.monotonic()
        opened = self.opening and all(self.outputs[i] is not None for i in self.opening)
        if self.last is not None and now - self.last < PARTIAL_SECONDS and not opened:
            return
        self.opening = [] if opened else self.opening
        rows = self.kept + _joined(self.outputs)[0]
        whole = whole_trials(rows, self.first)
        if whole:  # a trial run in parts counts once all its parts are done
            self.last = now
            self.partial(_table(whole, self.scenario))


def split_so_far(scenario: Scenario, results: pd.DataFrame) -> tuple[Scenario, pd.DataFrame, dict[str, int]]:
    """Results so far (``partial`` of :func:`simulate`) as they can be shown: the scenario of the heuristics that have
    run in every trial given (its benchmark kept), their rows, and the others (references planned last) with the
    trials each has run so far."""
    trials = results["trial"].nunique()
    counts = results.groupby("heuristic", sort=False)["trial"].nunique()
    pending = {h.label: int(counts.get(h.label, 0)) for h in scenario.heuristics if counts.get(h.label, 0) < trials}
    if not pending:
        return scenario, results, {}
    return (*without(scenario, results, pending), pending)


def without(scenario: Scenario, results: pd.DataFrame, labels) -> tuple[Scenario, pd.DataFrame]:
    """The scenario and results with the heuristics ``labels`` left out (the benchmark kept, for the normalised
    metrics already computed against it)."""
    labels = set(labels)
    shown = [h for h in scenario.heuristics if h.label not in labels]
    rows = results[~results["heuristic"].isin(list(labels))].reset_index(drop=True)
    return scenario.replace(heuristics=shown, benchmark=scenario.benchmark_label), rows


CHUNK_ROUND_TRIP = 0.0015  # seconds to hand a chunk to a worker process and take its rows back (a 1-trial run: 2 ms)
SHIP_BYTE = 5.5e-9  # seconds per byte of the pickled scenario, to pickle, send and read it for each chunk (a user's
# 2000 x 2000 ETC matrix, 36 MB: about 0.2 s a chunk, during which that worker computes nothing)
RUN_OVERHEAD = 0.01  # seconds of a run in worker processes beyond its chunks: dispatch, collecting, the results table


class KnownRows:
    """Metric rows of built-in heuristics kept by workload, for a server whose what-ifs often change only the
    heuristics: a heuristic's rows of a trial depend on that trial's workload alone (the model, its system, the seed
    and the trial: :func:`run_trial`), so a reference such as the value model's GA, computed once, serves every run of
    the same workload. Plug-ins are never kept (their code may change under the same name). At most ``rows`` rows
    are kept (about 2 kB each), the least recently used heuristic's dropped first; safe to share between threads."""

    #: Workload digests kept for this many scenario objects: a page drawn again asks again about the same object,
    #: whose system may be a user's large matrix (digested once, not at every redraw).
    DIGESTS = 64

    def __init__(self, rows: int = 50_000) -> None:
        self.limit = rows
        self._rows: collections.OrderedDict[str, dict[int, dict]] = collections.OrderedDict()
        self._digests: collections.OrderedDict[int, tuple[Scenario, str]] = collections.OrderedDict()
        self._lock = threading.Lock()

    def _workload(self, scenario: Scenario) -> str:
        """The digest of what a trial's workload depends on: the model, its system and the seed. Kept by the
        scenario object's identity (the object held with it, so its id is not reused)."""
        with self._lock:
            kept = self._digests.get(id(scenario))
            if kept is not None and kept[0] is scenario:
                self._digests.move_to_end(id(scenario))
                return kept[1]
        spec = get_model(scenario.model).spec_to_dict(scenario.spec)
        text = json.dumps([scenario.model, spec, scenario.seed], sort_keys=True, default=str)
        digest = hashlib.sha256(text.encode()).hexdigest()
        with self._lock:
            self._digests[id(scenario)] = (scenario, digest)
            while len(self._digests) > self.DIGESTS:
                self._digests.popitem(last=False)
        return digest

    def _keys(self, scenario: Scenario) -> list[str | None]:
        """Each heuristic's key (None: a plug-in, never kept)."""
        workload = self._workload(scenario)
        return [None if h.heuristic.plugin else f"{workload} {json.dumps([h.name, list(h.params)], default=str)}"
                for h in scenario.heuristics]

    def whole(self, scenario: Scenario) -> frozenset[int]:
        """The positions of the scenario's heuristics whose rows of every trial of it are kept."""
        keys = self._keys(scenario)
        with self._lock:
            found = [key in self._rows and len(self._rows[key]) >= scenario.trials
                     and all(t in self._rows[key] for t in range(scenario.trials)) for key in keys]
        return frozenset(i for i, ok in enumerate(found) if ok)

    def rows(self, scenario: Scenario, positions: frozenset[int]) -> list[dict]:
        """The kept rows of the heuristics at ``positions``, every trial of the scenario, with its labels."""
        keys = self._keys(scenario)
        out = []
        with self._lock:
            for i in sorted(positions):
                self._rows.move_to_end(keys[i])
                label = scenario.heuristics[i].label
                out += [{**self._rows[keys[i]][t], "heuristic": label} for t in range(scenario.trials)]
        return out

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()
            self._digests.clear()

    def keep(self, scenario: Scenario, rows: list[dict]) -> None:
        """Keep ``rows`` (of a run of ``scenario``) of its built-in heuristics."""
        by_label = dict(zip((h.label for h in scenario.heuristics), self._keys(scenario), strict=True))
        with self._lock:
            for row in rows:
                key = by_label.get(row["heuristic"])
                if key is not None:
                    self._rows.setdefault(key, {})[row["trial"]] = dict(row)
                    self._rows.move_to_end(key)
            while sum(map(len, self._rows.values())) > self.limit:
                self._rows.popitem(last=False)


class _Counter:
    """A file that only counts the bytes written to it."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, data) -> int:
        self.size += len(data)
        return len(data)


def pickled_size(obj) -> int:
    """The bytes of ``obj`` pickled, counted frame by frame as the pickler writes them (never held at once)."""
    counter = _Counter()
    pickle.Pickler(counter, pickle.HIGHEST_PROTOCOL).dump(obj)
    return counter.size


def estimate_seconds(scenario: Scenario, trials: int | None = None, jobs: int | None = None, pool=None,
                     quick_start: bool = False, skip: frozenset[int] = frozenset()) -> float:
    """The wall time of :func:`simulate` on ``jobs`` cores (checked against runs by ``bench/estimates.py``): the
    seconds of the busiest worker, the chunks of :func:`trials_per_chunk` trials dealt in turn to the worker that
    frees first, each costing its trials x the model's CPU seconds of one trial on one core (``trial_seconds``) plus
    :data:`CHUNK_ROUND_TRIP` and the shipping of the scenario (:data:`SHIP_BYTE` per byte pickled: a large matrix of
    a user's) when more than one job is asked for (the run goes to worker processes; in the dashboard even a single
    trial does), and then :data:`RUN_OVERHEAD` once. So with few trials a core may idle: 3 trials on 2 cores take 2
    trials' time. With one job it is the trials' seconds alone (a run in this process).

    With ``pool`` (a :class:`hcsched.pool.Pool` the run will share), what that pool forecasts for it now: its share of
    the workers beside the runs going on and waiting, at the pace the pool measures
    (:meth:`~hcsched.pool.Pool.forecast`: a machine loaded by other work, or busy with other runs, makes it longer;
    the pace is the model's own, measured on its chunks).
    ``quick_start``: the chunks of a run that shows its results so far (:func:`chunk_plan`); ``skip``: the positions
    of heuristics not run (their rows known: :class:`KnownRows`)."""
    trials = scenario.trials if trials is None else trials
    asked = default_jobs() if jobs is None else jobs
    jobs = max(1, min(asked, trials))
    apart = asked > 1  # in worker processes
    per_chunk = CHUNK_ROUND_TRIP + SHIP_BYTE * pickled_size(scenario) if apart else 0.0
    workers = [0.0] * jobs  # seconds dealt to each worker
    for chunk in chunk_plan(scenario, trials, jobs, quick_start, skip):
        workers[workers.index(min(workers))] += chunk.cost + per_chunk
    quiet = max(workers) + RUN_OVERHEAD * apart
    return quiet if pool is None else pool.forecast(quiet, work_seconds(scenario, trials, skip), asked, scenario.model)


def work_seconds(scenario: Scenario, trials: int | None = None, skip: frozenset[int] = frozenset()) -> float:
    """The seconds of one quiet core that the run's trials need, by the models' cost estimate (``trial_seconds``),
    the heuristics at the positions ``skip`` left out."""
    trials = scenario.trials if trials is None else trials
    heuristics = [h for i, h in enumerate(scenario.heuristics) if i not in skip]
    return trials * get_model(scenario.model).trial_seconds(scenario.spec, heuristics) if heuristics else 0.0


def trial_runs(scenario: Scenario, trial: int = 0, seed: int | None = None) -> dict:
    """Every heuristic's run of one trial, as its model returns it.

    Parameters
    ----------
    scenario : Scenario
        The experiment: a model's system, its heuristics, trials and seed.
    trial : int
        The trial number, from 0 (it may exceed the scenario's trials): the same workload as that trial of
        :func:`simulate` with the same seed.
    seed : int, optional
        Overrides the scenario's.

    Returns
    -------
    dict
        Each heuristic's label -> its run: a Schedule, or an object with ``.schedule`` (see :func:`schedules_of`).
    """
    seed = scenario.seed if seed is None else seed
    if isinstance(trial, bool) or not isinstance(trial, (int, np.integer)) or trial < 0:
        raise HcschedError(f"trial: {trial!r} is not allowed; allowed: a trial number from 0")
    return run_trial(scenario, int(trial), trial_seeds(seed, max(scenario.trials, trial + 1))[trial], schedules=True)[1]


def schedules_of(scenario: Scenario, runs: dict) -> dict[str, Schedule]:
    """The Schedule of each run returned by :func:`trial_runs` (by the scenario's model)."""
    model = get_model(scenario.model)
    return {label: model.schedule(run) for label, run in runs.items()}


def trial_schedules(scenario: Scenario, trial: int = 0, seed: int | None = None) -> dict[str, Schedule]:
    """The schedules of every heuristic in one trial (for Gantt charts and export).

    Parameters
    ----------
    scenario : Scenario
        The experiment: a model's system, its heuristics, trials and seed.
    trial : int
        The trial number, from 0, as in :func:`trial_runs`.
    seed : int, optional
        Overrides the scenario's.

    Returns
    -------
    dict of str to Schedule
        Each heuristic's label -> the Schedule of its run in that trial.
    """
    return schedules_of(scenario, trial_runs(scenario, trial, seed))
