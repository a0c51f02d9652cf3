"""What a run in progress tells before it ends: results so far (whole trials, the same numbers as the final table's,
which they never change) and a forecast of its time that counts the runs beside it and the pace the pool measures."""

import os
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from helpers import counting_runs

from hcsched import preset, simulate
from hcsched.experiment import estimate_seconds, work_seconds
from hcsched.pool import Pool, load_pace
from hcsched.runner import using

WORK = str(Path(__file__).parent / "pool_work")


@pytest.fixture(scope="module")
def pool():
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = WORK  # the workers import the tests' work by name
    try:
        with Pool(2, max_runs=2, preload=("hcsched", "pool_work")) as p:
            assert p.wait_ready(60)
            yield p
    finally:
        os.environ.pop("PYTHONPATH") if before is None else os.environ.__setitem__("PYTHONPATH", before)


def _fn(name: str):
    import importlib
    import sys

    sys.path.insert(0, WORK)
    try:
        return getattr(importlib.import_module("pool_work"), name)
    finally:
        sys.path.remove(WORK)


# --- results so far ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["here", "pool", "pool, the first trial split"])
def test_results_so_far_are_whole_trials_of_the_final_table_which_they_do_not_change(where, pool, monkeypatch):
    """Every partial table holds whole trials (each heuristic once per trial), row for row equal to the final table's
    rows of those trials; more trials each time; never the whole run; and the final table is byte-identical to a run
    that asked for none (also when the first trial runs in parts on both workers)."""
    import hcsched.experiment as experiment

    monkeypatch.setattr(experiment, "PARTIAL_SECONDS", 0.0)  # every chunk, to see them all
    if "split" in where:
        monkeypatch.setattr(experiment, "SPLIT_SECONDS", 0.0)
    scenario = preset("quickstart").replace(trials=12)
    seen: list[pd.DataFrame] = []
    if where != "here":
        with using(pool):
            final = simulate(scenario, jobs=2, partial=seen.append)
    else:
        final = simulate(scenario, jobs=1, partial=seen.append)
    plain = simulate(scenario, jobs=1)
    assert final.to_csv() == plain.to_csv()
    assert seen, "no results so far were given"
    heuristics = len(scenario.heuristics)
    sizes = [table["trial"].nunique() for table in seen]
    assert sizes == sorted(set(sizes)) and sizes[-1] < scenario.trials
    for table in seen:
        assert (table.groupby("trial").size() == heuristics).all()
        same = final[final["trial"].isin(table["trial"])].reset_index(drop=True)
        pd.testing.assert_frame_equal(table.reset_index(drop=True), same)


def test_a_first_trial_in_parts_gives_the_same_schedules(pool, monkeypatch):
    import hcsched.experiment as experiment

    monkeypatch.setattr(experiment, "SPLIT_SECONDS", 0.0)
    scenario = preset("alazzoni-A").replace(trials=3)  # its 20,000 time units shortened: the cut is the same
    scenario = scenario.replace(spec=replace(scenario.spec, classes=replace(scenario.spec.classes, horizon=2000.0)))
    first = experiment.chunk_plan(scenario, 3, 2, quick_start=True)[:2]  # trial 0's heuristics in two parts
    assert [(c.first, c.stop) for c in first] == [(0, 1), (0, 1)]
    assert sorted(sum((c.part for c in first), ())) == [0, 1, 2]
    with using(pool):
        results, tasks = simulate(scenario, jobs=2, schedules=True, partial=lambda _: None)
    plain_results, plain_tasks = simulate(scenario, jobs=1, schedules=True)
    assert results.to_csv() == plain_results.to_csv() and tasks.to_csv() == plain_tasks.to_csv()


def test_the_chunk_plan_runs_every_heuristic_of_every_trial_once(monkeypatch):
    import hcsched.experiment as experiment

    for name in ("quickstart", "kim-loose-high-heavy", "page-system-a", "alazzoni-B"):
        scenario = preset(name)
        for jobs, quick in ((1, False), (2, False), (2, True), (3, True)):
            plan = experiment.chunk_plan(scenario, 7, jobs, quick_start=quick)
            runs = [(t, h) for c in plan for t in range(c.first, c.stop)
                    for h in (c.part or range(len(scenario.heuristics)))]
            assert sorted(runs) == [(t, h) for t in range(7) for h in range(len(scenario.heuristics))], (name, jobs)
    # the value model's default: its eight online heuristics over every trial (each worker's first chunk a single
    # trial), then the references TPSA and GA, which cost most of a trial (the first trial of them split)
    value = preset("kim-loose-high-heavy")
    plan = experiment.chunk_plan(value, 50, 2, quick_start=True)
    online, references = tuple(range(8)), (8, 9)
    opening = [c for c in plan if c.part == online]
    assert plan[:len(opening)] == opening and [(c.first, c.stop) for c in opening[:2]] == [(0, 1), (1, 2)]
    assert opening[-1].stop == 50 and [c.part for c in plan[len(opening):][:3]] == [(8,), (9,), references]
    assert [c.part for c in experiment.chunk_plan(value, 50, 2)] == [None] * len(experiment.chunk_plan(value, 50, 2))


def test_references_run_after_every_trial_of_the_others_whose_answer_shows_first(pool, monkeypatch):
    """The value model's references (TPSA, GA: most of a trial's time) run after every trial of the eight online
    heuristics: a run showing its results so far gives those eight on every trial before any reference has ended,
    the references' rows then join trial by trial (:func:`split_so_far` says which are still to come), and the final
    table is byte-identical to a run that asked for nothing, even with the references listed first."""
    import hcsched.experiment as experiment
    from hcsched.experiment import split_so_far

    monkeypatch.setattr(experiment, "PARTIAL_SECONDS", 0.0)
    base = preset("kim-loose-high-heavy").replace(trials=4)
    first = base.replace(heuristics=[*base.heuristics[8:], *base.heuristics[:8]], benchmark="max-max")
    for scenario in (base, first):
        online = [h.label for h in scenario.heuristics if not h.heuristic.reference]
        assert len(experiment.phases(scenario)[0]) == 8 and len(online) == 8
        seen: list[pd.DataFrame] = []
        progress: list[float] = []
        with using(pool):
            final = simulate(scenario, jobs=2, partial=seen.append, progress=lambda done, _, told=progress:
                             told.append(done))
        assert final.to_csv() == simulate(scenario, jobs=1).to_csv()
        assert progress == sorted(progress) and progress[-1] == 4 and all(d == int(d) for d in progress)
        everything = [table for table in seen if table["trial"].nunique() == 4]
        assert everything, "the online heuristics' answer on every trial never came before the references'"
        shown, rows, pending = split_so_far(scenario, everything[0])
        assert [h.label for h in shown.heuristics] == online and shown.benchmark_label == scenario.benchmark_label
        assert pending == {"tpsa": 0, "ga": 0} and set(rows["heuristic"]) == set(online)
        same = final[final["heuristic"].isin(online)].reset_index(drop=True)
        pd.testing.assert_frame_equal(rows, same)
        for table in seen:
            mine = final[final["trial"].isin(table["trial"]) & final.set_index(["trial", "heuristic"]).index.isin(
                table.set_index(["trial", "heuristic"]).index)].reset_index(drop=True)
            pd.testing.assert_frame_equal(table.reset_index(drop=True), mine)


def test_cuts_are_contiguous_parts_of_about_equal_cost():
    from hcsched.experiment import _cuts

    assert _cuts([1.0, 1.0, 1.0, 1.0], 2) == [(0, 2), (2, 4)]
    assert _cuts([0.01] * 8 + [0.3, 0.75], 2) == [(0, 9), (9, 10)]  # 0.38 and 0.75: no cut is nearer an even split
    assert _cuts([5.0, 1.0, 1.0], 3) == [(0, 1), (1, 2), (2, 3)]  # never an empty part
    assert _cuts([1.0, 1.0, 1.0, 9.0], 2) == [(0, 3), (3, 4)]


def test_results_so_far_come_at_most_every_partial_seconds(monkeypatch):
    import hcsched.experiment as experiment

    monkeypatch.setattr(experiment, "PARTIAL_SECONDS", 3600.0)
    seen = []
    simulate(preset("quickstart").replace(trials=6), jobs=1, partial=seen.append)
    assert len(seen) == 1 and seen[0]["trial"].tolist() == [0] * 4  # the first chunk's, then none within the hour


# --- the pace and the forecast -------------------------------------------------------------------------------------
def test_the_pool_measures_its_pace_on_chunks_against_their_cost_estimate(pool, monkeypatch):
    """Chunks that sleep twice their estimate give a pace of about 2 for their kind, and leave another kind's pace to
    the machine's load; a run without estimates measures nothing."""
    import hcsched.pool

    monkeypatch.setattr(Pool, "machine_pace", lambda self: 1.0)
    monkeypatch.setattr(hcsched.pool, "measured_paces", dict)  # no pace measured by a warm-up here
    pool._paced = {}
    got = {}
    pool.run(_fn("sleep"), [(0.6,)] * 4, got.__setitem__, costs=[0.3] * 4, kind="value")
    assert pool.pace("value") == pytest.approx(2.0, rel=0.2)
    assert pool.pace("estimation") == pool.pace() == 1.0
    pool._paced = {}
    pool.run(_fn("sleep"), [(0.2,)] * 2, got.__setitem__, kind="value")
    assert pool._paced == {}


def test_a_forecast_shares_the_workers_with_the_runs_going_on(pool, monkeypatch):
    """The least work left first, by hand: a new run of 4 s of work on 2 workers beside a run with 10 s left and one
    with 1 s left ends after the 1 s run and its own work, (4 + 1) / 2 = 2.5 s at pace 1 (the 10 s run comes after
    it), never before its quiet time; at pace 3, three times that; plus the wait for a busy worker."""
    monkeypatch.setattr(Pool, "pace", lambda self, kind=None: 1.0)
    monkeypatch.setattr(Pool, "first_free", lambda self: 0.0)
    assert pool.forecast(2.2, 4.0) == pytest.approx(2.2)  # alone: its quiet time (4 s of work on 2 workers, and more)
    monkeypatch.setattr(pool, "_runs", [_Left(10.0), _Left(1.0)])
    monkeypatch.setattr(pool, "_line", [])
    assert pool.forecast(2.2, 4.0) == pytest.approx(2.5)
    assert pool.forecast(2.2, 12.0) == pytest.approx((12 + 10 + 1) / 2)  # the longest: after both
    monkeypatch.setattr(Pool, "pace", lambda self, kind=None: 3.0)
    assert pool.forecast(2.2, 4.0) == pytest.approx(7.5)
    monkeypatch.setattr(Pool, "first_free", lambda self: 0.7)
    assert pool.forecast(2.2, 4.0) == pytest.approx(8.2)


class _Left:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def work_left(self) -> float:
        return self.seconds


def test_without_chunks_measured_the_pace_is_read_off_the_load(monkeypatch):
    """Load 5 of other work beside 2 busy workers and one more on 2 cores: each gets 2 / 8 of a core, a pace of 4; a
    quiet machine: 1."""
    monkeypatch.setattr(os, "getloadavg", lambda: (7.0, 0.0, 0.0))
    assert load_pace(2, 2) == pytest.approx(4.0)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.3, 0.0, 0.0))
    assert load_pace(2, 0) == 1.0


def test_the_estimate_with_a_pool_is_its_forecast(pool, monkeypatch):
    scenario = preset("quickstart")
    monkeypatch.setattr(Pool, "pace", lambda self, kind=None: 2.5)
    quiet = estimate_seconds(scenario, jobs=2)
    assert estimate_seconds(scenario, jobs=2, pool=pool) == pytest.approx(2.5 * max(quiet, work_seconds(scenario) / 2))


def test_a_measured_pace_fades_within_minutes(pool, monkeypatch):
    """A pace measured long ago gives way to the load's: PACE_MEMORY_SECONDS."""
    import hcsched.pool as pool_module

    pool._paced = {None: (10.0, 1.5, time.monotonic() - 10 * pool_module.PACE_MEMORY_SECONDS)}
    monkeypatch.setattr(Pool, "machine_pace", lambda self: 1.25)
    assert pool.pace() == 1.25
    pool._paced = {None: (10.0, 5.0, time.monotonic())}
    assert pool.pace() == pytest.approx(2.0)
    pool._paced = {}


def test_time_left_counts_the_runs_that_joined_since(pool, monkeypatch):
    """A run with 3 s of work left, alone on 2 workers: 1.5 s; once a run with 1 s left and one with 6 s left join
    it: (3 + 1) / 2 = 2 s (at pace 1; the 6 s run is served after it). Another owner's runs are not its own."""
    monkeypatch.setattr(Pool, "pace", lambda self, kind=None: 1.0)
    monkeypatch.setattr(Pool, "first_free", lambda self: 0.0)
    mine, other = object(), object()
    monkeypatch.setattr(pool, "_runs", [_Owned(3.0, mine)])
    monkeypatch.setattr(pool, "_line", [])
    assert pool.time_left(mine) == pytest.approx(1.5)
    monkeypatch.setattr(pool, "_runs", [_Owned(3.0, mine), _Owned(1.0, other)])
    monkeypatch.setattr(pool, "_line", [_Owned(6.0, other)])
    assert pool.time_left(mine) == pytest.approx(2.0)
    assert pool.time_left(object()) is None


class _Owned(_Left):
    def __init__(self, seconds: float, owner: object) -> None:
        super().__init__(seconds)
        self.owner, self.costs, self.kind, self.busy = owner, [seconds], None, set()


def test_progress_text_says_a_forecast_of_the_time_left_as_it_is():
    """The caller's forecast (a page's steady count down) as it is, never blended with the pace so far: blended, 1
    trial of 30 done after 15 s (most of it loading the workers' kernels) added those 15 s to the time left at once
    ("about 21 s left", then 36 s); in whole seconds under two minutes, minutes from two minutes."""
    from hcsched.experiment import duration_words, progress_text

    assert progress_text(0, 8, "trial", 1.0, estimate=5.0, left=30.0) == "0 of 8 trials done, about 30 s left"
    assert progress_text(2, 8, "trial", 4.0, estimate=5.0, left=20.0) == "2 of 8 trials done, about 20 s left"
    assert progress_text(1, 30, "trial", 15.0, estimate=42.0, left=21.0).endswith("about 21 s left")
    assert progress_text(3, 8, "trial", 4.0, left=0.3) == "3 of 8 trials done, finishing"
    assert [duration_words(s) for s in (0.2, 27.04, 42.0, 119.4, 119.6, 200.0)] == \
        ["1 s", "27 s", "42 s", "119 s", "2 min", "3 min"]


# --- rows kept by workload -----------------------------------------------------------------------------------------
def test_known_rows_run_only_the_heuristics_a_what_if_adds_and_give_the_same_table(monkeypatch):
    """A heuristic's rows of a trial depend on the trial's workload alone: kept once, they serve a run of the same
    workload with other heuristics (reordered, one swapped), whose table is byte-identical to a run made whole; a
    run with more trials, another seed or another system runs them again; plug-ins are never kept."""
    import hcsched
    from hcsched.experiment import KnownRows

    known = KnownRows()
    base = preset("quickstart").replace(trials=3)
    ran = counting_runs(monkeypatch, "etc")
    assert simulate(base, jobs=1, known=known).to_csv() == simulate(base, jobs=1).to_csv()
    labels = [h.label for h in base.heuristics]
    assert known.whole(base) == frozenset(range(len(labels)))
    swapped = base.replace(heuristics=["max-min", *labels[::-1][:-1]], benchmark=labels[1])
    whole = simulate(swapped, jobs=1).to_csv()
    ran.clear()
    assert simulate(swapped, jobs=1, known=known).to_csv() == whole
    assert ran == ["max-min"] * 3, ran  # one trial after another: only the heuristic swapped in runs
    for other in (base.replace(trials=4), base.replace(seed=base.seed + 1), base.replace(tasks=base.spec.tasks + 1)):
        assert known.whole(other) == frozenset(), other

    @hcsched.heuristic("etc")
    def last_machine(e, ready, now, params, state):  # a plug-in: its code may change under the same name
        return e.size - 1

    own = base.replace(heuristics=[*labels, last_machine], benchmark=labels[0])
    simulate(own, jobs=1, known=known)
    assert known.whole(own) == frozenset(range(len(labels)))


def test_known_rows_keep_at_most_their_limit_least_recently_used_dropped_first():
    from hcsched.experiment import KnownRows

    known = KnownRows(rows=6)
    a, b = (preset("quickstart").replace(trials=3, seed=s, heuristics=["mct"]) for s in (1, 2))
    simulate(a, jobs=1, known=known)
    simulate(b, jobs=1, known=known)
    assert known.whole(a) == known.whole(b) == frozenset({0})
    known.rows(a, frozenset({0}))  # a used again: b is now the least recent
    simulate(a.replace(seed=3), jobs=1, known=known)
    assert known.whole(a) == frozenset({0}) and known.whole(b) == frozenset()


def test_known_rows_digest_a_scenario_object_once_and_equal_scenarios_alike(monkeypatch):
    """A page drawn again asks about the same scenario object: its system (a user's matrix, say) is digested once;
    an equal scenario made anew finds the same rows, another seed none."""
    from hcsched import experiment
    from hcsched.experiment import KnownRows

    known = KnownRows()
    a = preset("quickstart").replace(trials=2, heuristics=["mct"])
    simulate(a, jobs=1, known=known)
    assert known.whole(a) == frozenset({0})
    calls = []
    real = experiment.get_model
    monkeypatch.setattr(experiment, "get_model", lambda name: calls.append(name) or real(name))
    for _ in range(5):
        assert known.whole(a) == frozenset({0})
    assert calls == []  # digested at the first question
    again = preset("quickstart").replace(trials=2, heuristics=["mct"])
    assert again is not a and known.whole(again) == frozenset({0}) and known.whole(again) == frozenset({0})
    assert calls == [a.model]  # the new object digested once
    assert known.whole(a.replace(seed=a.seed + 1)) == frozenset()


def test_known_rows_in_a_pool_showing_results_so_far_give_the_same_table(pool):
    """With the value model's references kept, a run showing its results so far runs only the online heuristics and
    gives them with the kept references' rows from the first trial on; the final table is byte-identical."""
    from hcsched.experiment import KnownRows, split_so_far

    known = KnownRows()
    scenario = preset("kim-loose-high-heavy").replace(trials=3)
    with using(pool):
        simulate(scenario, jobs=2, known=known)
        seen: list[pd.DataFrame] = []
        again = simulate(scenario, jobs=2, known=known, partial=seen.append)
        fewer = scenario.replace(heuristics=[h for h in scenario.heuristics if h.label != "max-max"],
                                 benchmark="max-min")
        assert simulate(fewer, jobs=2, known=known, partial=seen.append).to_csv() == \
            simulate(fewer, jobs=1).to_csv()
    assert again.to_csv() == simulate(scenario, jobs=1).to_csv()
    for table in seen:
        assert split_so_far(scenario, table)[2] == {}  # the references come with the first trials


def test_a_models_first_pace_is_the_one_warm_up_measured_here_until_its_chunks_say_otherwise(pool, monkeypatch):
    """The estimates' constants come from another machine: a first time-shared run here took 2.7 times its estimate.
    Until a model's own chunks are measured, its pace is the machine's load times the pace ``hcsched warm-up``
    measured for it; then the chunks'."""
    import hcsched.pool

    monkeypatch.setattr(Pool, "machine_pace", lambda self: 1.25)
    monkeypatch.setattr(hcsched.pool, "measured_paces", lambda: {"timeshared": 2.5})
    pool._paced = {}
    assert pool.pace("timeshared") == pytest.approx(1.25 * 2.5)
    assert pool.pace("value") == pool.pace() == 1.25  # a model not measured, or none named: the load alone
    assert pool.forecast(4.0, 4.0, 2, "timeshared") == pytest.approx(1.25 * 2.5 * 4.0)
    got = {}
    pool.run(_fn("sleep"), [(0.3,)] * 4, got.__setitem__, costs=[0.3] * 4, kind="timeshared")
    assert pool.pace("timeshared") == pytest.approx(1.0, rel=0.3)  # its chunks, measured: as estimated


def test_the_paces_are_kept_beside_the_kernels_merged_and_read_within_their_limits(tmp_path, monkeypatch):
    from hcsched import paces

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    paces.measured_paces.cache_clear()
    assert paces.measured_paces() == {}  # none measured
    assert paces.record({"etc": 9.0, "value": 1.234567}) == tmp_path / paces.FILE
    assert paces.record({"value": 0.1}) == tmp_path / paces.FILE  # a later warm-up of one model keeps the others
    assert paces.measured_paces() == {"etc": 4.0, "value": 0.5}  # at the nearer limit
    (tmp_path / paces.FILE).write_text("not json")
    paces.measured_paces.cache_clear()
    assert paces.measured_paces() == {}  # a broken file is none
    (tmp_path / paces.FILE).write_text('{"etc": "fast", "value": -1, "classes": 1.5}')
    paces.measured_paces.cache_clear()
    assert paces.measured_paces() == {"classes": 1.5}
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    paces.measured_paces.cache_clear()
    assert paces.measured_paces() == {} and paces.record({"etc": 2.0}) is None
    paces.measured_paces.cache_clear()


def test_a_run_that_shows_its_results_so_far_cuts_its_trials_finer():
    """Chunks of 7 of caniou-mu10's 50 trials left its page at "So far, 9 of 50" while 44 were done: a run showing
    its results so far cuts them at half the seconds and eight chunks a worker at least; the plain run as before."""
    import hcsched.experiment as experiment

    scenario = preset("caniou-mu10")
    quick = experiment.chunk_plan(scenario, 50, 2, quick_start=True)
    plain = experiment.chunk_plan(scenario, 50, 2)
    assert max(c.stop - c.first for c in quick) <= 4 < max(c.stop - c.first for c in plain) == 7
    assert len(quick) >= 8 * 2 - 2 and [(c.first, c.stop) for c in quick[:2]] == [(0, 1), (1, 2)]
    assert experiment.trials_per_chunk(0.001, 100, 2, **experiment.QUICK_CHUNKS) == 7  # 100 / 16, rounded up
