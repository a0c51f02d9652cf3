"""The dashboard's runs in the server's pool of workers: Cancel frees the page at once whatever the workers
do, a killed worker is said in one line, a run without progress says it may be stuck, a run in line says its place,
a session gone cancels its run, and a scenario over the server's size cap is refused in one line."""

import os
import re
import signal
import threading
import time

import pytest
from helpers import app, counting_runs, wait_for_results

import pages.jobs as jobs
import pages.results_view as results_view
from hcsched import preset, simulate
from pages.jobs import Job, reap, server_pool


def _long_run():
    """The Run page with a run of a few minutes going on in the background, and its workers busy."""
    at = app("pages/run.py")
    at.session_state["scenario"] = preset("maheswaran-fig6")
    at.run()
    at.number_input(key="run_trials").set_value(400).run()
    at.button(key="run_start").click().run()
    assert "job" in at.session_state
    end = time.monotonic() + 60
    while not server_pool().busy_pids() and time.monotonic() < end:
        time.sleep(0.05)
    busy = server_pool().busy_pids()
    assert busy
    return at, busy


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def _until(at, gone: str, seconds: float) -> None:
    end = time.monotonic() + seconds
    while gone in at.session_state and time.monotonic() < end:
        time.sleep(0.1)
        at.run()


def test_cancel_frees_the_page_at_once_and_kills_the_workers_of_the_run():
    at, busy = _long_run()
    start = time.monotonic()
    at.button(key="cancel_run").click().run()
    assert "job" not in at.session_state and "results" not in at.session_state
    assert any(re.fullmatch(r"The run was cancelled\. It had done (0 of 400 trials\.|\d+ of 400 trials\. Only a whole "
                            r"run's results are kept: fewer trials on Run give a quicker one\.)", w.value)
               for w in at.warning)
    # and a toast, seen on any page, names the run and how far it went
    assert any(re.fullmatch(r"The run of \S+ was cancelled after \d+ of \d+ \w+s\.", t.value) for t in at.toast)
    assert not at.button(key="run_start").disabled
    end = time.monotonic() + 2
    while any(_alive(p) for p in busy) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(_alive(p) for p in busy)
    assert time.monotonic() - start < 2.0
    assert server_pool().wait_ready(60) and len(server_pool().pids()) == server_pool().size  # replaced


def test_a_killed_worker_fails_the_run_in_one_line_and_the_next_run_works():
    at, busy = _long_run()
    os.kill(busy[0], signal.SIGKILL)
    _until(at, "job", 10)
    assert "job" not in at.session_state
    errors = [e.value for e in at.error]
    assert errors == ["The run stopped: a worker process died: killed by SIGKILL (out of memory, or killed by hand); "
                      "this run's results are lost"]
    assert not at.button(key="run_start").disabled
    at.number_input(key="run_trials").set_value(4).run()
    at.button(key="run_start").click().run()
    _until(at, "job", 60)
    assert "results" in at.session_state and not at.error


def test_a_run_without_progress_says_it_may_be_stuck_and_cancel_still_frees_the_page():
    """A job whose thread never ends (the worst case): the page says so, and Cancel does not wait for it."""
    never = threading.Event()
    job = Job(preset("quickstart"), 20, estimate=2.0, notice_key="notice").submit(lambda progress: never.wait())
    job.moved -= 100
    at = app("pages/run.py", job=job)
    assert any(w.value.startswith("No progress for 10") and "estimated at 2 s" in w.value for w in at.warning)
    at.button(key="cancel_run").click().run()
    assert "job" not in at.session_state and any(w.value.startswith("The run was cancelled.") for w in at.warning)
    assert not at.button(key="run_start").disabled
    never.set()


def test_a_run_in_line_says_its_place():
    never = threading.Event()
    job = Job(preset("quickstart"), 20, estimate=2.0, notice_key="notice").submit(lambda progress: never.wait())
    job.place = 2
    at = app("pages/run.py", job=job)
    text = at.get("progress")[0].proto.text
    assert text.startswith("waiting for a free slot: 2 runs ahead (this server computes at most")
    never.set()
    at.button(key="cancel_run").click().run()


def test_the_run_of_a_session_gone_is_cancelled_after_a_grace(monkeypatch):
    job = Job(preset("quickstart"), 20)
    monkeypatch.setattr(jobs, "_session_alive", lambda session: False)
    reap([job], 100.0)
    reap([job], 100.0 + jobs.SESSION_GRACE_SECONDS / 2)
    assert not job.cancel.is_set()  # a reconnect within the grace keeps it
    reap([job], 100.0 + jobs.SESSION_GRACE_SECONDS + 1)
    assert job.cancel.is_set()
    back = Job(preset("quickstart"), 20)
    reap([back], 0.0)
    monkeypatch.setattr(jobs, "_session_alive", lambda session: True)
    reap([back], 50.0)
    assert back.gone_since is None and not back.cancel.is_set()


def test_a_scenario_over_the_size_cap_is_refused_in_one_line(monkeypatch):
    monkeypatch.setattr("pages.widgets.MAX_SIZE", 1000)
    at = app("pages/run.py")
    refused = [e.value for e in at.error]
    assert len(refused) == 1 and refused[0].startswith("This scenario is too large for this server: 200 tasks x 8 "
                                                       "machines x 20 trials = 32,000; the cap is 1,000 "
                                                       "(HCSCHED_MAX_SIZE)")
    assert at.button(key="run_start").disabled


def test_the_page_follows_its_job_to_the_end_and_then_shows_its_results(monkeypatch):
    """The end of every page (app.py) keeps a running job's progress up to date and, once it has ended, draws the page
    again: Run, then one script run later the results, without any click."""
    monkeypatch.setattr(jobs, "WATCH_SECONDS", 60.0)
    monkeypatch.setattr("pages.runs.QUICK_SECONDS", 0.0)  # never waited for by the button: the page follows it
    at = app()
    at.button(key="landing_run").click().run()
    assert "job" not in at.session_state and "results" in at.session_state
    assert at.button(key="landing_run").disabled is False and not at.get("progress")



def test_the_online_heuristics_answer_comes_whole_while_the_references_still_run():
    """The value model's references (TPSA and GA, most of a trial's time) run after every trial of the eight online
    heuristics: Home gives the whole run's answer among those eight, not "so far", and says which references are
    still to come and how far they are."""
    at = app(scenario=preset("kim-loose-high-heavy").replace(trials=120))
    at.button(key="landing_run").click().run()
    end = time.monotonic() + 90
    lead = said = ""
    while not (lead.startswith("**") and not lead.startswith("**So far")) and time.monotonic() < end \
            and "job" in at.session_state:
        time.sleep(0.3)
        at.run()
        said = " ".join(m.value for m in at.markdown)
        assert "Still to come" in said or not said.startswith("**"), said[:3000]  # from the first answer on
        lead = next((m.value for m in at.markdown if m.value.startswith("**")), "")
    assert "job" in at.session_state, "the run ended before its online heuristics' whole answer showed alone"
    # the whole answer of the online heuristics (its lead all in the tasks before scoring starts, or a win of its own)
    assert re.fullmatch(r"\*\*(Max-min \(latest-finishing task first\) has the highest value|No clear winner on value: "
                        r"(max-min \(latest-finishing task first\) leads|max-min \(latest-finishing task first\) and "
                        r"switching .* are equal for practical purposes|all \d+ heuristics reach [\d.–]+% without|"
                        r"without start-up tasks, all \d+ heuristics reach [\d.–]+%))"
                        r".*", lead), lead
    assert ("This answer is final. Still to come, for reference only: tpsa (two-phase simulated annealing, static) "
            "and ga (genetic algorithm, static), each an offline search that knows every task in advance, as no live "
            "scheduler can.") in said, \
        said[:3000]
    assert not re.search(r"\d+ of 120 trials so far", said)  # the bar's count is the page's one count
    at.button(key="cancel_run").click().run()


def _estimate(at) -> float:
    """The estimate Home states, in seconds ("Estimated time: about 40 s", or "about 3 min")."""
    said = re.search(r"Estimated time: about (\d+) (s|min)\b", _notes(at))
    assert said, _notes(at)
    return float(said[1]) * (60 if said[2] == "min" else 1)


def test_a_what_if_that_changes_only_the_heuristics_runs_only_those_it_adds(monkeypatch):
    """The value model's GA and TPSA depend on the workload alone: once run, a scenario of the same workload with one
    heuristic fewer (or swapped) is estimated and run without running them again (GA runs at most once more, for
    the Gantt chart's trial), and its table is the one a whole run gives."""
    base = preset("kim-loose-high-heavy").replace(trials=4)
    at = app(scenario=base)
    before = _estimate(at)
    at.button(key="landing_run").click().run()
    wait_for_results(at)
    fewer = base.replace(heuristics=[h for h in base.heuristics if h.label != "max-max"], benchmark="max-min")
    whole = simulate(fewer, jobs=1).to_csv()
    ran = counting_runs(monkeypatch, "value")
    at.session_state["scenario"] = fewer
    at.run()
    assert _estimate(at) < before, (before, _notes(at))
    at.button(key="landing_run").click().run()
    end = time.monotonic() + 120
    while at.session_state["results"].scenario != fewer and time.monotonic() < end:
        time.sleep(0.1)
        at.run()
    assert at.session_state["results"].results.to_csv() == whole
    assert ran.count("ga") <= 1 and ran.count("tpsa") <= 1, ran


def _notes(at) -> str:
    return " ".join([c.value for c in at.caption] + [w.value for w in at.warning])


def test_the_estimate_is_said_before_a_run_and_not_beside_its_progress_nor_over_its_own_results():
    """Home said "This run may take about 16.5 minutes" beside the progress of the run itself (its estimate of
    another run beside this one), and again over the results of this very run."""
    at = app(scenario=preset("quickstart").replace(trials=4))
    assert "Estimated time: about" in _notes(at)
    at.button(key="landing_run").click().run()
    wait_for_results(at)
    at.run()
    notes = _notes(at)
    assert "Estimated time" not in notes and "may take about" not in notes  # over its own results: nothing
    at, _ = _long_run()  # the Run page, a run of a few minutes going on
    notes = _notes(at)
    assert "job" in at.session_state and "may take about" not in notes and "Estimated time" not in notes
    at.button(key="cancel_run").click().run()


def test_a_run_the_server_computed_before_says_so_rather_than_under_a_tenth_of_a_second():
    scenario = preset("quickstart").replace(trials=3, seed=4242)
    for _ in range(2):  # a second session runs the same scenario: the server's cache answers, no trial runs
        at = app(scenario=scenario)
        at.button(key="landing_run").click().run()
        wait_for_results(at)
    run = at.session_state["results"]
    assert run.cached and run.took == "computed before on this server"
    assert any("seed 4242, computed before on this server" in c.value for c in at.caption)


def test_trials_and_seed_set_on_run_are_the_scenarios_at_once_on_home_and_in_the_address():
    """Set on Run and not run there, the trials and seed were lost on Home, which ran the scenario's own (a manager
    set 40 trials, and Home ran 50)."""
    at = app("app.py", scenario=preset("quickstart"))
    at.switch_page("pages/run.py").run()
    at.number_input(key="run_trials").set_value(3).run()
    at.number_input(key="run_seed").set_value(7).run()
    assert (at.session_state["scenario"].trials, at.session_state["scenario"].seed) == (3, 7)
    at.switch_page("app.py").run()
    assert not at.exception, at.exception
    assert any(", 3 trials; heuristics" in c.value for c in at.caption)
    assert (at.query_params.get("trials"), at.query_params.get("seed")) == ("3", "7")
    at.switch_page("pages/run.py").run()  # back on Run, the fields show them
    assert (at.number_input(key="run_trials").value, at.number_input(key="run_seed").value) == (3, 7)


class _Slot:
    """A page's slot as :meth:`Job.draw` writes it: the progress bar's text, or empty."""

    def __init__(self):
        self.text, self.fraction = None, None

    def progress(self, value, text=""):
        self.text, self.fraction = text, value

    def empty(self):
        self.text = None


def test_the_progress_says_how_many_trials_the_results_below_are_of():
    """Under load a page showing the results so far is drawn again only every few seconds: "35 of 50 done" beside
    "So far, 9 of 50" read as a contradiction; the bar now says which the results below are of. With references run
    after the others, "0 of 50 trials done" beside "So far, 39 of 50" did too: the heuristics' trials are said first,
    then the references'."""
    job = Job(preset("quickstart"), 50, estimate=20.0)
    job.done, job.total = 35.0, 50
    bar, warning = _Slot(), _Slot()
    jobs.showing_so_far(job, 9)
    job.draw(bar, warning, job.so_far)
    # the lead's count beside the trials done: the count done never steps back when the first results are shown
    assert re.fullmatch(r"35 of 50 trials done, 9 shown below, about \d+ s left", bar.text), bar.text
    jobs.showing_so_far(job, 35)
    job.draw(bar, warning, job.so_far)  # said steadily, not on and off as the page catches up
    assert bar.text.startswith("35 of 50 trials done and shown below")
    job.done = 0.0
    jobs.showing_so_far(job, 39, "tpsa and ga")  # the references run after every trial of the others
    job.draw(bar, warning, job.so_far)
    assert re.fullmatch(r"39 of 50 trials of the heuristics done; the references tpsa and ga: 0 of 50 trials done"
                        r"(, about .* left)?", bar.text), bar.text
    job.draw(bar, warning)  # a page that shows no results: nothing more said
    assert "shown below" not in bar.text and "heuristics" not in bar.text


def test_the_bar_says_the_count_the_page_shows_as_soon_as_the_page_knows_it(monkeypatch):
    """Under load a page took seconds to draw its charts, and its bar kept the count of the drawing before ("27 of 30
    done; the results below: 1 of them" beside "So far, 10 of 30") until the page was drawn whole: the bar is said
    again as soon as the page knows what it shows."""
    job = Job(preset("quickstart"), 30, estimate=20.0)
    job.done = 27.0
    bar, warning = _Slot(), _Slot()
    monkeypatch.setattr(jobs.st, "session_state", {"job": job})
    monkeypatch.setattr(jobs._watched, "entry", ("job", bar, warning, 3), raising=False)
    jobs.showing_so_far(job, 1)
    assert bar.text.startswith("27 of 30 trials done, 1 shown below")
    jobs.showing_so_far(job, 10)  # the next drawing: before its charts, the bar says 10
    assert bar.text.startswith("27 of 30 trials done, 10 shown below") and bar.fraction < 0.1  # its length: the time
    monkeypatch.setattr(jobs._watched, "entry", ("job", bar, warning, None), raising=False)  # a page without results
    jobs.showing_so_far(job, 12)
    assert bar.text.startswith("27 of 30 trials done, 10 shown below") and job.so_far == (12, "")


def test_a_run_whose_workers_another_run_holds_says_so(monkeypatch):
    """A quick run started beside a long one showed "0 of 3 trials done" for seconds without saying why: while
    another run holds both workers, the bar says so, and says nothing of it once the run has a worker."""

    class Held:
        size, held = 2, 1

        def time_left(self, owner):
            return 4.0

        def held_by_others(self, owner):
            return self.held

        def notes(self, owner):
            return []

    pool = Held()
    monkeypatch.setattr(jobs, "started_pool", lambda: pool)
    job = Job(preset("quickstart"), 3, estimate=2.0)
    bar, warning = _Slot(), _Slot()
    job.draw(bar, warning)
    assert bar.text.startswith("0 of 3 trials done") and bar.text.endswith(
        "; waiting for a worker: another run holds both workers until a trial ends; the run with the least work left "
        "goes next")
    pool.held = 0
    job.draw(bar, warning)
    assert "waiting" not in bar.text


def _top_place(at, starts: str) -> int | None:
    """The place among the page's top-level elements of the one that holds a markdown starting with ``starts``."""
    from streamlit.testing.v1.element_tree import Block

    for place, node in at.main.children.items():
        found = list(node.get("markdown")) if isinstance(node, Block) else [node] if node.type == "markdown" else []
        if any(str(m.value).startswith(starts) for m in found):
            return place
    return None


def test_the_final_results_take_the_place_of_the_results_so_far():
    """At a run's end two captions showed for a moment, the whole run's above the one "so far": the progress bar,
    its warning and Cancel went, the elements below moved up, and Streamlit (which replaces elements by position)
    left the old ones under them until the page was drawn whole. The run's status is one element now, whatever it
    holds: the final lead stands where the lead so far stood."""
    from pages.runs import plan_run

    sc = preset("quickstart").replace(trials=4)
    whole = simulate(sc, jobs=1)
    at = app(scenario=sc)
    release = threading.Event()
    job = plan_run(sc).submit(lambda *_: release.wait(60) and whole)  # ends, with the whole table, once released
    job.give_partial(whole[whole["trial"] < 2])  # two trials so far
    at.session_state["job"] = job
    at.run()
    during = _top_place(at, "**So far")
    assert during is not None, "no results so far shown during the run"
    release.set()
    job.future.result(timeout=60)
    at.run()
    assert "job" not in at.session_state and _top_place(at, "**So far") is None
    assert _top_place(at, "**") == during


def test_a_what_if_going_on_is_said_so_not_called_an_older_scenario_to_run():
    """Right after a what-if's click, before its first trials ended, Results said "The last results are of the scenario
    quickstart, not of the scenario loaded now (quickstart (edited)). Run to see this one's." beside its Cancel."""
    from pages.runs import plan_run

    at = app(scenario=preset("quickstart").replace(trials=2))
    at.button(key="landing_run").click().run()
    wait_for_results(at)
    edited = preset("maheswaran-fig6").replace(name="quickstart (edited)", trials=4)
    at.session_state["scenario"] = edited
    release = threading.Event()
    job = plan_run(edited)  # a run whose first trials have not ended yet: it waits until released
    at.session_state["job"] = job.submit(lambda *_: release.wait(60) and None)
    try:
        for page in (None, "pages/results.py"):  # Home, then Results
            (at.switch_page(page) if page else at).run()
            assert not any("Run to see" in w.value for w in at.warning), [w.value for w in at.warning]
            assert any(c.value == "The run of quickstart (edited) is going on: its results show here as its trials "
                       "end." for c in at.caption), [c.value for c in at.caption]
    finally:
        release.set()


def test_a_what_ifs_change_line_comes_with_the_heuristics_whole_answer_before_the_references():
    """The value model's what-if said nothing against the baseline until GA and TPSA ended (4 minutes after the
    eight heuristics' answer was whole, at load 8): the change line now comes with that answer, on the heuristics
    both runs share."""
    from hcsched.compare import quick_what_ifs
    from hcsched.scenario import HeuristicSpec
    from pages.runs import plan_run

    ga = HeuristicSpec.make("ga", model="value", generations=20)
    base = preset("kim-loose-high-heavy").replace(trials=3, heuristics=["max-min", "min-min", ga])
    at = app(scenario=base)
    at.button(key="landing_run").click().run()
    wait_for_results(at)
    twice = dict(quick_what_ifs(base))["Twice the arrival rate"]
    whole = simulate(twice, jobs=1)
    at.session_state["scenario"] = twice
    release = threading.Event()
    job = plan_run(twice).submit(lambda *_: release.wait(60) and None)  # its references still running
    job.give_partial(whole[whole["heuristic"] != ga.label])  # every trial of the others ended
    at.session_state["job"] = job
    try:
        at.run()
        lines = [i.value for i in at.info if i.value.startswith("Against run #1,")]
        assert len(lines) == 1, [x.value for x in at.info]
        assert lines[0].startswith("Against run #1, twice the arrival rate: the best value moves from "), lines
        assert "% (max-min) to " in lines[0], lines  # a new winner: the best against the best first
        assert " ga" not in lines[0]  # the references' change comes with the whole run
        final = "This answer is final. Still to come, for reference only: ga"
        assert any(m.value.startswith(final) for m in at.markdown)
    finally:
        release.set()


def _cancel_while_references_run(at, job, others) -> None:
    """Cancel ``job`` from the page ``at`` while only its references run: every trial of the other heuristics
    (``others``, their rows) ended, the references' not."""
    release = threading.Event()
    job = job.submit(lambda *_: release.wait(60) and None)
    job.give_partial(others)
    at.session_state["job"] = job
    try:
        at.run()
        at.button(key="cancel_run").click().run()
    finally:
        release.set()


def test_cancel_while_only_the_references_run_keeps_the_other_heuristics_whole_answer():
    """"…the results below: 50 of them, the references to come", then Cancel: Results said "No results yet". The
    eight heuristics' answer of every trial is kept now, said to be without the references."""
    from hcsched.scenario import HeuristicSpec
    from pages.runs import plan_run

    ga = HeuristicSpec.make("ga", model="value", generations=20)
    sc = preset("kim-loose-high-heavy").replace(trials=3, heuristics=["max-min", "min-min", ga])
    whole = simulate(sc, jobs=1)
    at = app(scenario=sc)
    _cancel_while_references_run(at, plan_run(sc), whole[whole["heuristic"] != ga.label])
    assert "job" not in at.session_state
    said = [w.value for w in at.warning]
    assert "The run was cancelled. The other heuristics had done all 3 trials: their results are kept. The " \
           f"reference {ga.label} had done 0 of 3 and is left out." in said, said
    # the toast does not count the trials of the references alone beside "done all 3 trials"
    assert [t.value for t in at.toast] == [f"The run of {sc.name} was cancelled."], [t.value for t in at.toast]
    kept = at.session_state["results"]
    assert kept.of == sc and [h.label for h in kept.scenario.heuristics] == ["max-min", "min-min"]
    assert kept.results.equals(whole[whole["heuristic"] != ga.label].reset_index(drop=True))
    assert not any("Run to see" in w for w in said)
    assert any(c.value.startswith("The run was cancelled before its references ended: ga (genetic algorithm")
               for c in at.caption), [c.value for c in at.caption]
    assert any(m.value.startswith("**") and "max-min" in m.value for m in at.markdown)  # who wins, of the two


def test_a_run_cancelled_before_its_references_is_compared_without_them_not_as_their_removal():
    """A run cancelled while its references ran, against the session's first (whole) run: the line said "tpsa
    removed; ga removed and 1 more change: ..." for a cancel. The baseline is compared without those references too,
    so that only what the user changed (the seed) is said."""
    from test_app_whatif import run

    from hcsched.scenario import HeuristicSpec
    from pages.runs import plan_run

    ga = HeuristicSpec.make("ga", model="value", generations=20)
    sc = preset("kim-loose-high-heavy").replace(trials=3, heuristics=["max-min", "min-min", ga])
    at = app("app.py", scenario=sc)
    at.switch_page("pages/run.py").run()
    run(at)  # run #1, whole
    again = sc.replace(seed=11)
    at.session_state["scenario"] = again
    whole = simulate(again, jobs=1)
    _cancel_while_references_run(at, plan_run(again), whole[whole["heuristic"] != ga.label])
    at.switch_page("pages/results.py").run()
    infos = [i.value for i in at.info if i.value.startswith("Against run #1")]
    assert infos and "removed" not in infos[0] and f"seed {sc.seed} → 11" in infos[0], infos
    assert not at.exception


def _paths(at) -> dict[tuple, object]:
    """Every node of an AppTest page's main area by its place (Streamlit's delta path, less the root)."""
    from streamlit.testing.v1.element_tree import Block

    found, todo = {}, [((), at.main)]
    while todo:
        path, node = todo.pop()
        found[path] = node
        if isinstance(node, Block):
            todo += [((*path, i), child) for i, child in node.children.items()]
    return found


def _replaced(path: tuple, now: dict[tuple, object]) -> bool:
    """Whether the browser drops what stood at ``path`` when this run's page arrives: an element (not a block, whose
    old children Streamlit keeps, greyed, until the script ends) was drawn there or at a block holding it."""
    from streamlit.testing.v1.element_tree import Block

    return any(path[:k] in now and not isinstance(now[path[:k]], Block) for k in range(1, len(path) + 1))


def test_the_progress_and_cancel_go_in_the_rerun_that_shows_the_answer():
    """Home, classes: after the answer was shown, a greyed "Run of alazzoni-B: 1 of 30 replications shown below,
    about 0 s left" and a greyed Cancel stayed for 11 s. Streamlit greys what the run before drew and removes it only
    when the script ends, here after seconds of charts; the run that shows the answer now draws an element where the
    bar and Cancel stood, before the answer, so the browser drops them at once."""
    from pages.runs import plan_run

    sc = preset("quickstart").replace(trials=4)
    whole = simulate(sc, jobs=1)
    at = app(scenario=sc)
    release = threading.Event()
    job = plan_run(sc).submit(lambda *_: release.wait(60) and whole)
    at.session_state["job"] = job
    at.run()
    before = _paths(at)
    progress = [p for p, node in before.items() if getattr(node, "type", None) in ("progress", "button")
                and getattr(node, "label", "Cancel") == "Cancel"]
    assert len(progress) == 2, progress  # the bar and Cancel
    release.set()
    job.future.result(timeout=60)
    at.run()
    now = _paths(at)
    assert "job" not in at.session_state and "results" in at.session_state and not at.get("progress")
    assert all(_replaced(p, now) for p in progress), {p: now.get(p[:-1]) for p in progress}


def test_the_time_left_counts_down_steadily_and_never_rises():
    """Estimation under load said "0 of 30 trials done, about 45 s left" for 28 s, jumping between 41 and 77 s as
    the pool's forecast moved with each reading of the load. On a fake clock: the count counts down; a higher
    forecast is never taken while it runs, whatever ended (a trial's end too: the pace of the first trials is the
    least sure), nor a lower one within 25%; a lower one by more is (a run beside it ended). A count run out stays
    out, the run late (the value what-if said "finishing", then "about 3 min left")."""
    countdown = jobs.Countdown()
    said = [countdown.left(forecast, now) for now, forecast in
            [(0, 45.0), (2, 77.0), (4, 41.0), (6, 60.0), (8, 52.0), (10, 70.0)]]
    assert said == [45.0, 43.0, 41.0, 39.0, 37.0, 35.0]  # steady: it only goes down with the clock
    assert countdown.left(20.0, 12) == 20.0  # lower by over 25%: taken
    assert countdown.left(240.0, 14) == 18.0  # far higher (a trial ended, its pace measured): not taken
    assert countdown.left(None, 15) == 17.0  # no forecast (every trial done): the count goes on
    assert countdown.left(300.0, 40) == 0.0 and jobs.Countdown.late(0.0, 300.0)  # run out: late, never a new count
    assert countdown.left(1.0, 41) == 0.0  # not even a low one: it would rise from "finishing"
    assert countdown.left(None, 400) == 0.0 and not jobs.Countdown.late(0.0, None)  # finishing
    assert jobs.Countdown().left(12.0, 0) == 12.0  # the first forecast is taken as it is
    assert jobs.Countdown().left(None, 0) is None  # nothing to say
    started = jobs.Countdown()
    started.begin(42.0, 0.0)  # the estimate said beside Run
    assert started.left(34.0, 1.8) == 40.2  # within 25% of the count: the count goes on


class _Clock:
    """``time`` as :mod:`pages.jobs` reads it, on a clock the test sets (its reaper thread still sleeps)."""

    now, sleep = 0.0, staticmethod(time.sleep)

    @classmethod
    def monotonic(cls):
        return cls.now


class _Forecasts:
    """The pool as :meth:`Job.draw` asks it, with the forecast (trials only) the test sets."""

    size, forecast = 2, None

    def time_left(self, owner):
        return self.forecast

    def held_by_others(self, owner):
        return 0

    def notes(self, owner):
        return []


def _seconds_left(text: str) -> float:
    found = re.search(r"about (\d+) (s|min) left", text)
    return 0.0 if found is None else float(found[1]) * (60 if found[2] == "min" else 1)


def _started(monkeypatch, estimate: float, after: float, total: int) -> tuple[Job, _Forecasts, threading.Event]:
    """A job started at 0 on the fake clock with the estimate said beside Run, its pool the test's forecasts; it ends
    once the event returned is set."""
    pool, release = _Forecasts(), threading.Event()
    monkeypatch.setattr(jobs, "time", _Clock)
    monkeypatch.setattr(jobs, "IN_PROCESS", True)
    monkeypatch.setattr(jobs, "started_pool", lambda: pool)
    _Clock.now = 0.0
    job = Job(preset("quickstart"), total, estimate=estimate)
    job.after = after
    job.submit(lambda progress: release.wait(30))
    return job, pool, release


def test_the_estimation_run_of_the_fourth_tryout_counts_down_from_its_estimate_and_never_rises(monkeypatch):
    """Estimation (page-system-a, 30 trials, about 37 s; "about 42 s" said beside Run): the bar said "about 34 s
    left" at 1.8 s, 21 at 14.8 s, then 36, 44, 86, 59, 29 and 18 (the pace so far, blended in, added the 15 s the
    first trial took to the time left as soon as a part of it ended; a trial's end took the pool's higher forecast).
    Replayed: the pool's forecasts and the trials done as then; the bar starts from the estimate and only counts
    down."""
    job, pool, release = _started(monkeypatch, estimate=42.0, after=3.0, total=30)
    bar, warning, said = _Slot(), _Slot(), []
    for now, done, forecast in [(1.8, 0, 34), (4.1, 0, 32), (14.8, 0, 21), (15.1, 0.5, 36), (16.8, 2, 44),
                                (20.9, 3, 86), (21.5, 3.2, 59), (24.6, 7, 35), (27.6, 11, 18), (33.7, 19, 2),
                                (34.7, 27, 1), (36.5, 30, None), (38.5, 30, None)]:
        _Clock.now, job.done, pool.forecast = now, done, forecast
        job.draw(bar, warning)
        said.append(_seconds_left(bar.text))
    assert said[0] == 40, said  # the estimate said beside Run, less the 1.8 s gone
    assert said == sorted(said, reverse=True), said  # it only counts down
    # every trial in: the Gantt chart's trial and the charts left, said without a count (a full bar that said "20 of
    # 20 trials done, about 1 s left" for seconds read as stuck), never "0 s"
    assert bar.text == "30 of 30 trials done; putting the results together", said
    release.set()


def test_the_timeshared_run_of_the_fifth_tryout_counts_down_and_then_says_it_is_late(monkeypatch):
    """Timeshared (caniou-mu10, "about 6 s" beside Run): "about 3 s left" at 1.2 s (a lower forecast), then "about 4 s
    left" at 4.6 s, still at 1 of 50 simulations: the count had run out and took the pool's forecast again. It only
    goes down now, and once out while trials remain it says the run takes longer than estimated, without a number."""
    job, pool, release = _started(monkeypatch, estimate=6.0, after=1.5, total=50)
    bar, warning, said = _Slot(), _Slot(), []
    for now, done, forecast in [(0.3, 0, 4.0), (1.2, 0, 1.5), (2.5, 1, 2.0), (4.6, 1, 2.5), (5.6, 30, 1.0),
                                (6.5, 50, None)]:
        _Clock.now, job.done, pool.forecast = now, done, forecast
        job.draw(bar, warning)
        said.append(bar.text)
    assert said[1] == "0 of 50 trials done, about 3 s left", said  # lower by over 25%: taken
    assert [_seconds_left(t) for t in said] == sorted((_seconds_left(t) for t in said), reverse=True), said
    assert said[3] == said[4].replace("30 of", "1 of") == "1 of 50 trials done, taking longer than estimated"
    assert said[-1] == "50 of 50 trials done; putting the results together"
    release.set()


def test_a_what_if_that_waits_for_a_worker_counts_down_only_once_it_runs(monkeypatch):
    """The etc what-if "Twice the arrival rate" ("About 2 s") waited 2.5 s for a worker another run held, and its bar
    said "about 2 s left", "about 1 s left", "finishing", then "about 2 s left" again. While it waits it says so,
    without a count; once it has a worker, it counts down from its estimate."""
    job, pool, release = _started(monkeypatch, estimate=2.0, after=1.5, total=50)
    pool.held_by_others = lambda owner: pool.held
    bar, warning, texts, shares = _Slot(), _Slot(), [], []
    for now, held, done, forecast in [(0.3, 1, 0, 3.0), (1.5, 1, 0, 3.0), (2.5, 1, 0, 2.5), (2.8, 0, 0, 1.9),
                                      (3.8, 0, 20, 1.6), (4.6, 0, 50, None)]:
        _Clock.now, pool.held, job.done, pool.forecast = now, held, done, forecast
        job.draw(bar, warning)
        texts.append(bar.text)
        shares.append(bar.fraction)
    assert all(t.startswith("0 of 50 trials done; waiting for a worker: another run holds both workers")
               for t in texts[:3]), texts  # no count while it waits
    assert texts[3:] == ["0 of 50 trials done, about 2 s left", "20 of 50 trials done, about 1 s left",
                         "50 of 50 trials done; putting the results together"], texts
    assert shares[:3] == [0.0] * 3 and shares[3:] == sorted(shares[3:]) and shares[4] > 0.4, shares
    release.set()


def test_the_bar_moves_with_the_time_counted_while_the_text_keeps_the_trials(monkeypatch):
    """Estimation (page-system-a, "about 27 s"): at 11 s the bar sat at about 6% ("1 of 30 trials shown below, about
    16 s left"): it counted finished trials while the text counted time. Its length is now the time counted so far
    over that and the time left (11 / 27), never shorter than it was; the text says the trials the page shows."""
    job, pool, release = _started(monkeypatch, estimate=27.0, after=3.0, total=30)
    bar, warning = _Slot(), _Slot()
    _Clock.now, job.done, pool.forecast = 11.0, 1, 20.0
    job.draw(bar, warning, (1, ""))
    assert bar.text == "1 of 30 trials done and shown below, about 16 s left", bar.text
    assert bar.fraction == pytest.approx(11 / 27), bar.fraction
    _Clock.now, job.done, pool.forecast = 27.5, 29, 30.0  # late: the bar holds, nearly full
    job.draw(bar, warning, (25, ""))
    assert bar.fraction == pytest.approx(27.5 / 27.5, abs=0.011) and bar.fraction < 1.0
    assert bar.text == "29 of 30 trials done, 25 shown below, taking longer than estimated", bar.text
    release.set()


def test_the_bar_starts_from_the_estimate_said_beside_run(monkeypatch):
    """Classes: "about 3.6 s" beside Run, then the run opened at "about 1 s left" after 0.6 s (the pool's forecast
    of the trials alone, without trial 0 again for the Gantt chart and the charts) and took 4.0 s. Timeshared said
    "16 of 50 simulations shown below, about 0 s left" for 0.8 s."""
    job, pool, release = _started(monkeypatch, estimate=3.6, after=2.4, total=30)
    bar, warning = _Slot(), _Slot()
    _Clock.now, pool.forecast = 0.6, 0.9
    job.draw(bar, warning)
    assert bar.text == "0 of 30 trials done, about 3 s left", bar.text
    _Clock.now, job.done, pool.forecast = 4.0, 30, None  # every trial done, the answer on its way
    job.draw(bar, warning, (16, ""))
    assert bar.text == "30 of 30 trials done, 16 shown below; putting the results together", bar.text
    release.set()


def test_the_bar_says_one_time_left_while_the_pools_forecast_jitters(monkeypatch):
    """The bar's text, drawn again and again while nothing ended, keeps one time left whatever the pool says."""

    class Jittery:
        size, forecasts = 2, iter([45.0, 77.0, 41.0, 66.0, 50.0])

        def time_left(self, owner):
            return next(self.forecasts)

        def held_by_others(self, owner):
            return 0

        def notes(self, owner):
            return []

    monkeypatch.setattr(jobs, "started_pool", lambda: Jittery())
    job = Job(preset("quickstart"), 30, estimate=50.0)
    bar, warning = _Slot(), _Slot()
    texts = []
    for _ in range(5):
        job.draw(bar, warning)
        texts.append(bar.text)
    assert texts == ["0 of 30 trials done, about 50 s left"] * 5, texts  # the estimate's count


def test_home_says_one_estimate_the_run_it_starts_keeps(monkeypatch):
    """Home said "Estimated time: about 4.1 s", then "3.2 s" a moment later (quickstart: 1.6 s, then 2.7 s): the
    click's rerun planned the run again, and the pool's forecast had read the machine's load anew. The click's rerun
    now says the estimate said before the click, and the run starts with it; a later visit plans anew."""
    forecasts, started = iter([14.1, 23.2, 9.0]), []
    monkeypatch.setattr("pages.runs.run_estimate", lambda *args, **kw: next(forecasts))
    monkeypatch.setattr("pages.runs.start_run", lambda job, jobs=None: started.append(job.estimate) and False)
    at = app(scenario=preset("quickstart"))
    assert any("about 14 s" in c.value for c in at.caption)
    at.button(key="landing_run").click().run()
    assert started == [14.1] and any("about 14 s" in c.value for c in at.caption)
    assert not any("23 s" in c.value for c in at.caption)
    at.run()  # no click: the forecast of now
    assert any("about 9 s" in c.value for c in at.caption)


def test_home_says_every_estimate_in_one_wording_in_seconds_under_two_minutes(monkeypatch):
    """Home said "This run may take about 0.7 minutes" (estimation, value), "Estimated time: about 3.9 s" (the
    others) and "about 27.0 s": one wording, as the progress counts it down (whole seconds under two minutes)."""
    said, estimates = [], [42.0, 27.04, 200.0]
    monkeypatch.setattr("pages.runs.run_estimate", lambda *args, **kw: said.append(1) or estimates[len(said) - 1])
    at = app(scenario=preset("page-system-a"))
    assert [w.value for w in at.warning if "Estimated" in w.value] == [
        "Estimated time: about 42 s. It runs in the background while this tab is open: you can move between pages, "
        "reload, and cancel it."]
    at.run()
    assert "Estimated time: about 27 s" in _notes(at)
    at.run()
    assert "Estimated time: about 3 min." in _notes(at)
    assert "minutes" not in _notes(at) and ".0 s" not in _notes(at)


@pytest.mark.parametrize("ready", [True, False])
def test_the_estimate_says_the_first_run_compiles_only_while_the_kernels_are_not_ready(monkeypatch, ready):
    """"(more on the first run, which compiles the kernels)" stayed after hcsched warm-up and after runs of the model,
    and made a manager wonder whether the setup was incomplete."""
    import threading
    from collections import defaultdict

    event = threading.Event()
    if ready:
        event.set()
    monkeypatch.setattr("pages.widgets.warm_kernels", lambda: type("W", (), {"ready": defaultdict(lambda: event)})())
    monkeypatch.setattr("pages.runs.run_estimate", lambda *args, **kw: 27.04)
    at = app(scenario=preset("page-system-a"))
    compiles = "Estimated time: about 27 s (more while its kernels load, or compile after an install)."
    assert (compiles in _notes(at)) != ready and ("Estimated time: about 27 s." in _notes(at)) == ready


def test_the_bar_says_a_new_count_only_once_the_lead_says_it(monkeypatch):
    """Estimation under load: "7 of 30 trials shown below" on the bar beside "So far, 3 of 30 trials" in the lead,
    and after a reload "17 of 30" beside "so far 13 of 30": the bar was said again as soon as the page knew the new
    count, and the lead (its paired intervals) and its caption came seconds later. The bar says a count only once
    the lead and its caption say it."""
    from pages.runs import plan_run

    sc = preset("quickstart").replace(trials=6)
    whole = simulate(sc, jobs=1)
    events, draw, verdict = [], Job.draw, results_view.show_verdict

    def drawn(self, bar, warning, shown=None):
        events.append(("bar", shown[0] if shown else None))
        draw(self, bar, warning, shown)

    def lead(results, scenario, key="results", so_far=None, to_come=""):
        events.append(("lead", so_far))
        verdict(results, scenario, key, so_far, to_come)

    monkeypatch.setattr(Job, "draw", drawn)
    monkeypatch.setattr(results_view, "show_verdict", lead)
    at = app(scenario=sc)
    release = threading.Event()
    job = plan_run(sc).submit(lambda *_: release.wait(60) and whole)
    job.done = 3.0
    job.give_partial(whole[whole["trial"] < 2])
    at.session_state["job"] = job
    at.run()
    assert ("lead", 2) in events and ("bar", 2) in events, events
    assert events.index(("lead", 2)) < events.index(("bar", 2)), events  # never a count the lead does not say yet
    release.set()
    job.future.result(timeout=60)


def test_a_run_cancelled_part_way_says_why_its_finished_trials_are_not_shown():
    """"The run was cancelled. It had done 21 of 30 trials." and nothing of them on the page: the notice says why."""
    from pages.runs import _keep_without_references, plan_run

    sc = preset("quickstart").replace(trials=6)
    whole = simulate(sc, jobs=1)
    job = plan_run(sc)
    assert _keep_without_references(job) == " It had done 0 of 6 trials."  # nothing done: nothing more to say
    job.done, job.partial = 2.0, whole[whole["trial"] < 2]
    assert _keep_without_references(job) == " It had done 2 of 6 trials. Only a whole run's results are kept: " \
                                            "fewer trials on Run give a quicker one."


def test_a_wait_for_a_runs_first_results_is_not_counted_as_the_pages_drawing(monkeypatch):
    """The page redraws its results so far no sooner than it took to draw (``DRAW_PACE``): Run's wait for the first
    results (up to a second) counted as drawing held "So far, 1 of 50" on screen for 5 s while 13 trials ended."""
    import pages.runs as runs

    class Waiting:  # a run whose first results come 0.3 s after it starts
        scenario, refused, estimate, partials, started = preset("caniou-mu10"), None, 10.0, 0, 0.0

        class future:
            @staticmethod
            def done() -> bool:
                return False

        def start(self, *args, **kwargs) -> None:
            self.started = time.monotonic()

        def wait_for_news(self, end: float) -> None:
            time.sleep(0.3)
            self.partials = 1

    monkeypatch.setattr(runs, "reuse", lambda scenario, what_if=False: None)
    monkeypatch.setattr(runs, "wait_for_kernels", lambda model: None)
    monkeypatch.setattr(runs.st, "session_state", {})
    jobs._watched.page_started = time.monotonic()  # the page's script began
    job = Waiting()
    assert runs.start_run(job) is True  # it goes on, its first results in
    assert jobs._watched.page_started >= job.started + 0.3  # the drawing counted from the end of the wait


def test_a_sessions_first_run_shows_its_results_so_far_on_the_results_page():
    """A fresh session's first Run of the value default, then Results: the page said "No results yet: run a scenario
    first." until the run ended (the references took half a minute), as it showed results only once a run had ended.
    Its results so far show as they come, under the run's progress."""
    at = app("app.py")
    at.session_state["scenario"] = preset("kim-loose-high-heavy")
    at.switch_page("pages/run.py").run()
    at.button(key="run_start").click().run()  # waits for its first results so far
    assert "job" in at.session_state and "results" not in at.session_state
    at.switch_page("pages/results.py").run()
    end, shown = time.monotonic() + 20, []
    while not shown and time.monotonic() < end:  # its first trials end within seconds
        assert not any("No results yet" in i.value for i in at.info), [i.value for i in at.info]
        shown = [m.value for m in at.markdown if m.value.startswith("**")]
        time.sleep(0.2)
        at.run()
    assert "job" in at.session_state  # still running: the references take tens of seconds
    assert shown and ("So far" in shown[0] or "No clear winner" in shown[0]), shown
    assert not at.exception
    at.button(key="cancel_run").click().run()
