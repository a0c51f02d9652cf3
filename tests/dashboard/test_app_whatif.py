"""What-ifs with Streamlit's AppTest: every run of the session kept (capped, an identical rerun reused), the run shown
against the run before it, two runs compared with the library's figures (paired where they share their random
numbers, Welch across seeds), the comparison's CSV, and a sweep point against a run."""

import re
import time

import pytest

pytest.importorskip("streamlit")
from helpers import app, run_result  # noqa: E402

import pages.history as history  # noqa: E402
from hcsched import preset, simulate  # noqa: E402
from hcsched.compare import LEGEND_BELOW, compare_runs, joined_below  # noqa: E402
from pages.compare_view import IN_FULL  # noqa: E402

SMALL = preset("quickstart").replace(tasks=60, trials=4)


def plain(markdown: str) -> str:
    """Markdown as its reader sees it: escapes and bold marks gone."""
    return re.sub(r"\\(.)", r"\1", markdown).strip("*")


def run(at, timeout: float = 60) -> None:
    """Press Run on the Run page and wait for the run to end."""
    at.button(key="run_start").click().run()
    until_ended(at, timeout)


def until_ended(at, timeout: float = 60) -> None:
    """Wait for the session's run to end, the page drawn again meanwhile."""
    end = time.monotonic() + timeout
    while "job" in at.session_state and time.monotonic() < end:
        time.sleep(0.1)
        at.run()
    assert not at.exception, at.exception


def two_runs(after):
    """The Run page of app.py after a run of SMALL and a run of ``after``."""
    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.session_state["scenario"] = after
    at.run()
    run(at)
    return at


def test_every_run_is_kept_with_what_differs_and_an_identical_rerun_is_reused():
    at = two_runs(SMALL.replace(machines=12))
    runs = at.session_state["history"]
    edits = "tasks 200 → 60; trials 20 → 4"  # SMALL is quickstart made smaller, under its name
    assert [e.title for e in runs] == [f"#1 quickstart: {edits}",
                                       "#2 quickstart: machines 8 → 12; tasks 200 → 60; trials 20 → 4"]
    assert [e.changes_text for e in runs] == ["the first run", "machines 8 → 12"]
    assert runs[1].parent == 1 and re.fullmatch(r"\d\d:\d\d:\d\d", runs[1].when) and runs[1].winner != "–"
    run(at)  # the same scenario, trials and seed again: its results, not a third run
    assert len(at.session_state["history"]) == 2
    assert any("as run #2" in i.value and "not run twice" in i.value for i in at.info)
    assert at.session_state["results"] is runs[1].run
    at.switch_page("pages/scenario.py").run()  # the history survives page changes
    at.switch_page("pages/results.py").run()
    assert len(at.session_state["history"]) == 2 and not at.exception


def test_the_session_keeps_its_last_runs_and_drops_the_oldest(monkeypatch):
    state = {}
    monkeypatch.setattr(history.st, "session_state", state)
    for seed in range(history.HISTORY_CAP + 2):
        history.keep(run_result(SMALL.replace(tasks=20, trials=2, seed=seed)))
    kept = history.history()
    assert len(kept) == history.HISTORY_CAP and kept[0].number == 3 and kept[-1].number == history.HISTORY_CAP + 2
    assert kept[-1].changes_text == "seed 20 → 21" and state["results"] is kept[-1].run


def test_four_more_machines_compare_paired_on_common_random_numbers_with_the_figures_of_the_library():
    after = SMALL.replace(machines=12)
    at = two_runs(after)
    at.switch_page("pages/results.py").run()
    expected = compare_runs(SMALL, simulate(SMALL, jobs=1), after, simulate(after, jobs=1))
    lead, rest = expected.change_parts()
    line, _, legend = expected.change_summary().partition(LEGEND_BELOW)  # the heuristics' words under the box
    assert plain(at.info[0].value) == f"Against run #1, {line}"
    assert f"Run #1 is the baseline. {legend}" in [c.value for c in at.caption], legend
    # the lead says sufferage bare, for room: its words on the line below it
    assert plain(at.info[0].value).endswith(f"{lead}\n\nEvery heuristic's makespan is 39–48% shorter.")  # not only one
    # the lead follows
    at.button(key="results_compare").click().run()
    assert at.radio(key="results_mode").value == "Compare two runs"
    assert plain(at.markdown[0].value) == lead[:1].upper() + lead[1:]  # the lead as a sentence, the winner in words
    # under it, the figures folded
    assert plain(at.markdown[1].value) == joined_below(expected.summary_parts()[1]) == \
        "Every heuristic's makespan is 39–48% shorter.\n\n\nSufferage: task that would lose most without its best " \
        "machine."
    folded = next(e for e in at.expander if e.label == IN_FULL)
    assert plain(folded.markdown[0].value) == " ".join(rest) and not folded.proto.expanded
    assert lead.startswith("machines 8 → 12: ") and ": a real change" in lead and "paired" not in lead
    caption = at.caption[0]  # what the runs share in plain words, the method in its help
    assert "Both runs used the same random tasks (the same seed), so the differences come from the change." in \
        caption.value
    assert caption.proto.help.startswith("Paired (common random numbers): both runs have the same seed")
    assert "Baseline:" not in caption.value and "What-if:" not in caption.value  # the runs: in the selectboxes
    assert not [m for m in at.markdown if "What the what-if changes" in m.value]  # the change: in the lead, once
    assert "Comparison (CSV)" in [b.label for b in at.get("download_button")]
    table = at.dataframe[0].value
    changed = table[table["change [95% interval]"] != "no change in any trial"]  # e.g. the benchmark's own ratio, 1
    assert changed["change [95% interval]"].str.contains(r"\[").all()
    assert len(changed) > len(table) * 0.8


def test_another_heuristic_compares_paired_on_the_same_tasks():
    after = SMALL.replace(heuristics=["mct", "kpb", "max-min", "sufferage"], benchmark="mct")
    at = two_runs(after)
    at.switch_page("pages/results.py").run()
    at.radio(key="results_mode").set_value("Compare two runs").run()
    line = plain(at.markdown[0].value)
    assert line.startswith("Max-min instead of min-min: ") and " of min-min " in line
    assert "→ max-min " in line and "paired" not in line
    folded = next(e for e in at.expander if e.label == IN_FULL)
    assert ("What differs: max-min (latest-finishing task first) instead of min-min (soonest-finishing task first); "
            "benchmark min-min → mct (minimum completion time).") in plain(folded.markdown[0].value)
    assert "Both runs ran the very same tasks (the same seed)" in at.caption[0].value
    assert at.caption[0].proto.help.startswith("Paired: both runs have the same system and seed, so every trial ran")
    table = at.dataframe[0].value
    same = table[table["heuristic"] == "sufferage"]
    assert (same["change [95% interval]"] == "no change in any trial").all()
    assert "Normalised makespan is not compared: the benchmark changed (min-min → mct)." in at.caption[0].value


def test_twice_the_arrival_rate_and_the_runs_compared_can_be_picked():
    rate = SMALL.arrivals.rate * 2
    after = SMALL.replace(arrivals=type(SMALL.arrivals)(process=SMALL.arrivals.process, rate=rate))
    at = two_runs(after)
    at.switch_page("pages/results.py").run()
    at.radio(key="results_mode").set_value("Compare two runs").run()
    assert plain(at.markdown[0].value).startswith("Twice the arrival rate: ")
    assert "(31% longer: clearly worse); its makespan 13% shorter only from faster arrivals." in \
        plain(at.markdown[0].value)  # what got worse leads, then the better makespan of the harder workload and why
    led = compare_runs(SMALL, simulate(SMALL, jobs=1), after, simulate(after, jobs=1)).leading()[0].name
    assert at.selectbox(key="cmp_metric").value == led != "makespan"  # the chart shows what the lead says
    at.selectbox(key="cmp_before").set_value(at.selectbox(key="cmp_after").value).run()  # a run against itself
    assert (plain(at.markdown[0].value).startswith("The same scenario: ")
            and "no change in any trial" in at.markdown[0].value)
    at.selectbox(key="cmp_metric").set_value("mean_flow").run()
    assert not at.exception


def test_the_run_shown_can_be_picked_from_the_history():
    at = two_runs(SMALL.replace(machines=12))
    at.switch_page("pages/results.py").run()
    picker = at.selectbox(key="results_pick_run")
    assert picker.value.startswith("#2 quickstart: ")
    picker.set_value(picker.options[1]).run()
    assert at.session_state["results"] is at.session_state["history"][0].run and not at.exception


def test_a_sweep_point_compares_with_a_run_of_the_session():
    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/sweep.py").run()
    at.text_input(key="sw_values1").set_value("8,12").run()
    at.number_input(key="sw_trials").set_value(4).run()
    at.button(key="sw_run").click().run()
    end = time.monotonic() + 60
    while "sw_result" not in at.session_state and time.monotonic() < end:
        time.sleep(0.1)
        at.run()
    number = at.session_state["sw_result"].number
    at.toggle(key=f"sw_cmp{number}").set_value(True).run()
    assert at.selectbox(key=f"sw_cmp{number}_before").value == "sweep point 0: machines=8"
    assert at.selectbox(key=f"sw_cmp{number}_after").value == "sweep point 1: machines=12"
    line = plain(next(m.value for m in at.markdown if "Machines 8 → 12: " in m.value))
    after = SMALL.replace(machines=12)
    lead = compare_runs(SMALL, simulate(SMALL, jobs=1), after, simulate(after, jobs=1)).change_lead()
    assert line == lead[:1].upper() + lead[1:]  # begun as a sentence
    run_title = at.session_state["history"][0].title  # the run of SMALL: point 0's own numbers
    at.selectbox(key=f"sw_cmp{number}_before").set_value(run_title).run()
    assert plain(next(m.value for m in at.markdown if "Machines 8 → 12: " in m.value)) == line


def test_a_chain_of_what_ifs_compares_each_with_the_first_run_until_another_is_made_the_baseline():
    at = two_runs(SMALL.replace(machines=12))
    assert any(s.value.startswith("Run #2 ended at ") and "winner: " in s.value for s in at.success)  # the Run page
    at.session_state["scenario"] = SMALL
    at.run()
    at.number_input(key="run_seed").set_value(5).run()
    run(at)
    at.switch_page("pages/results.py").run()
    assert plain(at.info[0].value).startswith("Against run #1, "
                                              "seed 1999 → 5: ")
    assert any(c.value.startswith("Run #1 is the baseline.") for c in at.caption)  # which run, right under it
    at.radio(key="results_mode").set_value("Compare two runs").run()
    assert (at.selectbox(key="cmp_before").value.startswith("#1 ")
            and at.selectbox(key="cmp_after").value.startswith("#3 "))
    assert "The runs used different random tasks (different seeds)" in at.caption[0].value
    assert at.caption[0].proto.help.startswith("Unpaired (Welch): the runs have different seeds")
    at.switch_page("pages/scenario.py").run()
    at.switch_page("pages/results.py").run()
    assert at.radio(key="results_mode").value == "Compare two runs"  # the view is kept across pages
    at.radio(key="results_mode").set_value("One run").run()
    at.selectbox(key="results_pick_run").set_value(at.session_state["history"][0].title).run()
    # the model's first run is the baseline already: said so, no button to make it one
    assert "Run #1 is the baseline: the other runs are compared with it." in [c.value for c in at.caption]
    assert not [b for b in at.button if b.key == "results_pin"]
    at.selectbox(key="results_pick_run").set_value(at.session_state["history"][1].title).run()
    shown = [c.value for c in at.caption]  # shown as it is, not folded
    assert any(c.startswith("Run #2 of this session (") for c in shown) and not at.toggle
    assert not at.button(key="results_pin").help  # a tooltip under "Compare in detail" covered the line it sits by
    at.button(key="results_pin").click().run()
    assert at.session_state["history_baseline"] == 2
    at.selectbox(key="results_pick_run").set_value(at.session_state["history"][2].title).run()
    assert plain(at.info[0].value).startswith("Against run #2, "
                                              "machines 12 → 8; seed 1999 → 5")
    assert any(c.value.startswith("Run #2 is the baseline you pinned.") for c in at.caption)
    at.selectbox(key="results_pick_run").set_value(at.session_state["history"][1].title).run()
    at.button(key="results_load_run").click().run()
    assert at.session_state["scenario"] == at.session_state["history"][1].scenario


@pytest.mark.parametrize("name", sorted(__import__("hcsched").model_names()))
def test_every_models_runs_compare_on_the_results_page(name):
    from hcsched import get_model

    base = get_model(name).tiny()
    runs = [run_result(base), run_result(base.replace(seed=base.seed + 1))]
    kept = [history.Entry(1, runs[0], "10:00:00", None, (), "–"),
            history.Entry(2, runs[1], "10:01:00", 1, (f"seed {base.seed} → {base.seed + 1}",), "–")]
    at = app("pages/results.py", scenario=runs[1].scenario, results=runs[1], history=kept,
             results_mode_kept="Compare two runs")
    assert plain(at.markdown[0].value).startswith(f"Seed {base.seed} → {base.seed + 1}: ")
    assert "different seeds" in at.caption[0].value and at.caption[0].proto.help.startswith("Unpaired (Welch)")
    assert len(at.get("plotly_chart")) == 1 and not at.exception


def test_a_what_if_is_one_click_on_results_and_shows_against_the_baseline():
    """Results offers what a person asks first (twice the machines, twice or half the arrival rate): a click makes
    the scenario changed the current one, runs it with the same trials and seed, and shows its results against the
    baseline, with the library's figures."""
    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    labels = [b.label for b in at.button if b.key and b.key.startswith("results_whatif_")]
    assert labels == ["Twice the machines", "Twice the arrival rate", "Half the arrival rate"]
    helps = [b.help for b in at.button if b.key and b.key.startswith("results_whatif_")]
    assert helps[0].startswith("machines 8 → 16. About ") and helps[0].endswith(" s.")  # what it changes, how long
    shown = [c.value for c in at.caption if re.fullmatch(r"About \d+ (s|min)", c.value)]
    assert len(shown) == 4  # under each button too, not only on hover: three what-ifs and the swap
    at.button(key="results_whatif_0").click().run()
    until_ended(at)
    after = at.session_state["scenario"]
    assert after.machines == 16 and (after.trials, after.seed, after.tasks) == (SMALL.trials, SMALL.seed, 60)
    assert [e.changes_text for e in at.session_state["history"]] == ["the first run", "machines 8 → 16"]
    said = compare_runs(SMALL, simulate(SMALL, jobs=1), after, simulate(after, jobs=1)).change_summary()
    assert plain(at.info[0].value) == f"Against run #1, {said.partition(LEGEND_BELOW)[0]}"
    at.button(key="results_whatif_0").click().run()  # again, from the what-if: twice its machines
    until_ended(at)
    assert at.session_state["scenario"].machines == 32 and len(at.session_state["history"]) == 3
    at.session_state["scenario"] = preset("alazzoni-B").replace(trials=2)  # another model: its own what-ifs
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    labels = [b.label for b in at.button if b.key and b.key.startswith("results_whatif_")]
    assert labels == ["Twice the arrival rate", "Half the arrival rate"] and not at.exception


def test_a_what_if_made_from_another_says_what_it_did_against_the_run_shown_before():
    """Twice the machines, then twice the arrival rate from it: a manager read "Against run #1, the baseline: twice the
    machines; twice the arrival rate: makespan 60% shorter, for the better", the machines' gain credited to the
    button just pressed (and a swap hidden as "1 more change"). One change from the run shown before and more from the
    baseline: the line is against the run shown before, and says the one change."""
    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    for what in ("Twice the machines", "Twice the arrival rate"):
        labels = [b.label for b in at.button if b.key and b.key.startswith("results_whatif_")]
        at.button(key=f"results_whatif_{labels.index(what)}").click().run()
        until_ended(at)
    kept = at.session_state["history"]
    assert len(kept) == 3 and kept[2].scenario.machines == 16
    info = plain(at.info[0].value)
    assert info.startswith("Against run #2, twice the arrival rate: "), info
    assert any(c.value.startswith("Run #2 is the run shown before.") for c in at.caption)
    assert "machines" not in info.split(":")[1] and "more change" not in info
    assert not at.exception


def _short_alazzoni_b_run():
    """alazzoni-B over 2,000 time units, 2 replications, run from the Run page; its Results page open."""
    import dataclasses

    b = preset("alazzoni-B")
    base = b.replace(trials=2, classes=dataclasses.replace(b.classes, horizon=2000.0))
    at = app("app.py", scenario=base)
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    return base, at


def test_back_to_the_baseline_from_an_overloaded_what_if_is_said_against_the_run_shown_before():
    """Half the arrival rate from a run at twice the rate is the baseline's settings again: the manager saw no line
    against the run it came from ("the same scenario: no change" against the baseline, or nothing when shown again
    rather than run twice); it is said against the run shown before, which could not keep up."""
    from hcsched.compare import quick_what_ifs

    base, at = _short_alazzoni_b_run()
    for what in ("Twice the arrival rate", "Half the arrival rate"):
        labels = [x.label for x in at.button if x.key and x.key.startswith("results_whatif_")]
        at.button(key=f"results_whatif_{labels.index(what)}").click().run()
        until_ended(at)
    kept = at.session_state["history"]
    assert at.session_state["scenario"].spec == base.spec == kept[-1].scenario.spec  # the baseline's settings again
    assert dict(quick_what_ifs(base))["Twice the arrival rate"].spec == kept[1].scenario.spec
    info = plain(at.info[0].value)
    # the heuristic the reader follows: the winner now, lpas (run #2's winner kpb only grew its queues slowest)
    assert info.startswith("Back to the baseline from run #2: half the arrival rate: the machines now keep up; "
                           "average backlog of lpas"), info
    assert not at.exception


def test_a_what_if_already_run_says_so_under_its_button_not_a_time_to_wait():
    """Half the arrival rate after twice the rate is run #1's scenario again, shown at once from the session's runs;
    its button's caption said "About 2 s" and the answer came without a run: it says it was run."""
    at = app("app.py", scenario=preset("quickstart"))  # a preset as Home loads it: its what-ifs commit as the page does
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    labels = [x.label for x in at.button if x.key and x.key.startswith("results_whatif_")]
    at.button(key=f"results_whatif_{labels.index('Twice the arrival rate')}").click().run()
    until_ended(at)
    labels = [x.label for x in at.button if x.key and x.key.startswith("results_whatif_")]
    captions = [plain(c.value) for c in at.caption]
    assert "Half the arrival rate" in labels and "Already run (#1): shown at once" in captions, captions
    assert not at.exception


def back_to_the_first_run():
    """app.py after a run of SMALL and its what-if of twice the machines (run #2), run #1's scenario loaded again."""
    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    at.button(key="results_whatif_0").click().run()  # twice the machines: run #2
    until_ended(at)
    at.session_state["scenario"] = at.session_state["history"][0].scenario  # back to run #1's, exactly
    return at


def test_the_baseline_run_again_shows_again_and_says_it_is_the_baseline():
    """A run of the baseline's exact scenario is not run twice: the baseline's results show again, said to be the
    baseline; no what-if was asked, so no change line is said (a tryout read "Back to the baseline from run #5: mct
    instead of met: ..." over the default run again as one more swap)."""
    at = back_to_the_first_run()
    at.switch_page("pages/run.py").run()
    # no estimate of a run that will not run: Run shows run #1 again (a tryout read "Estimated time: about 2 s")
    notes = " ".join(c.value for c in at.caption)
    assert "Estimated time" not in notes and "Run #1 had these settings, trials and seed: Run shows its results " \
        "again, with nothing to compute." in notes, notes
    at.button(key="run_start").click().run()
    at.switch_page("pages/results.py").run()
    assert len(at.session_state["history"]) == 2 and at.session_state["results"] is at.session_state["history"][0].run
    infos = [plain(i.value) for i in at.info]
    # one box, not two saying the same (a tryout read "The same scenario ... shown again" over "Back to the baseline")
    assert infos == ["Back to the baseline (run #1): shown as it was (the same scenario, trials and seed), nothing "
                     "run again; the other runs are compared with it."], infos
    assert not at.exception


def test_a_runs_scenario_loaded_again_after_a_what_if_shows_that_run_not_run_to_see():
    """A run's link opened again after a what-if (its scenario loaded, no Run pressed) showed the what-if's results
    under "The last results are of ...: Run to see this one's"; the session keeps that run, so it shows."""
    at = back_to_the_first_run()  # as the link of run #1 loads it
    at.switch_page("pages/results.py").run()
    assert at.session_state["results"] is at.session_state["history"][0].run
    assert not any("Run to see" in w.value for w in at.warning), [w.value for w in at.warning]
    assert any(plain(i.value) == "Back to the baseline (run #1): the other runs are compared with it." for i in
               at.info), at.info
    assert len(at.session_state["history"]) == 2 and not at.exception


def test_one_heuristic_swapped_for_another_is_a_what_if_of_its_own():
    """The manager could not try "Max-min for Sufferage" without the Heuristics page: under the what-ifs, a heuristic
    of the run (the benchmark stays) swapped for another of the model runs in one click and compares as one."""
    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    out, new = at.selectbox(key="results_swap_out"), at.selectbox(key="results_swap_in")
    assert out.options == ["mct (minimum completion time)", "kpb (K-percent best)",  # min-min, the benchmark, stays
                           "sufferage (task that would lose most without its best machine)"]
    assert not any(o.split()[0] in {h.name for h in SMALL.heuristics} for o in new.options)
    assert "max-min (Max-min)" not in new.options  # in words, as the chips name them, never the name twice
    out.set_value("sufferage").run()
    at.selectbox(key="results_swap_in").set_value("max-min").run()
    assert at.button(key="results_swap_run").help.startswith("max-min instead of sufferage. About ")
    at.button(key="results_swap_run").click().run()
    until_ended(at)
    after = at.session_state["scenario"]
    labels = [h.label for h in SMALL.heuristics]
    assert [h.label for h in after.heuristics] == [("max-min" if x == "sufferage" else x) for x in labels]
    assert (after.trials, after.seed, after.spec) == (SMALL.trials, SMALL.seed, SMALL.spec)
    assert at.session_state["history"][-1].changes_text == "max-min instead of sufferage"
    assert plain(at.info[0].value).startswith("Against run #1, max-min instead of sufferage")
    assert not at.exception


def test_a_run_of_every_heuristic_of_its_model_says_why_it_offers_no_swap():
    from hcsched import heuristic_names
    from hcsched.scenario import HeuristicSpec

    every = SMALL.replace(heuristics=tuple(HeuristicSpec.make(n, model="etc") for n in heuristic_names(model="etc")),
                          tasks=20, trials=2)
    at = app("app.py", scenario=every)
    at.switch_page("pages/run.py").run()
    run(at, timeout=120)
    at.switch_page("pages/results.py").run()
    assert not [s for s in at.selectbox if s.key == "results_swap_out"]
    assert ("No swap of a heuristic: every heuristic of this model is in the run. The Heuristics page removes or adds "
            "one.") in [c.value for c in at.caption]


def test_the_classes_what_if_no_mapping_keeps_up_with_says_so_first_in_words():
    """The manager read "16796 times as high: a real change" and a winner crowned while no mapping keeps up, said
    only in a grey caption: the lead says it first, in words, and the warnings say the paper's symbol after. Then the
    lead said "about two thirds of these arrivals", the caption "they can handle 0.67 times them" and the warnings
    "only 0.67 times the arrivals": one wording everywhere now, a percentage (boxes side by side said 62% and "two
    thirds")."""
    from hcsched.compare import quick_what_ifs

    base, at = _short_alazzoni_b_run()
    labels = [x.label for x in at.button if x.key and x.key.startswith("results_whatif_")]
    at.button(key=f"results_whatif_{labels.index('Twice the arrival rate')}").click().run()
    until_ended(at)
    after = at.session_state["scenario"]
    assert after.spec == dict(quick_what_ifs(base))["Twice the arrival rate"].spec
    info = plain(at.info[0].value)
    assert info == ("Against run #1, twice the arrival rate: the machines cannot keep up whatever the "
                    "mapping (they can take about 67% of these arrivals), so tasks pile up.")  # how long: below
    assert ("mct cannot keep up in 2 of 2 trials: on the machines it uses, they can take only about 67% "
            "of these arrivals.") in [plain(w.value) for w in at.warning]  # the lead's words, not "0.67 times"
    said = [plain(c.value) for c in at.caption] + [plain(w.value) for w in at.warning]
    assert any("they can take about 67% of these arrivals" in x for x in said)  # the headline's caption
    assert not [x for x in said if "0.67" in x or "times them" in x or "can handle 0." in x]
    lead = next(plain(m.value) for m in at.markdown if m.value.startswith("**"))  # no heuristic crowned
    assert lead == ("No heuristic keeps up: the machines cannot keep up whatever the mapping (they can take about "
                    "67% of these arrivals). Queues grow all run; the means below only compare how fast."), lead
    at.button(key="results_compare").click().run()
    folded = plain(next(e for e in at.expander if e.label == IN_FULL).markdown[0].value)
    assert folded.startswith("What differs: arrival rates per class [5, 8] → [10, 16] tasks per time unit. Average "
                             "backlog of lpas ") and "times as high" in folded
    assert folded.endswith("No heuristic keeps up, so a ranking would only compare how fast their queues grow.")
    assert not at.exception


def _swap(at, out: str, new: str) -> None:
    """Swap the run's heuristic ``out`` for ``new`` on the Results page and wait for its run to end."""
    at.selectbox(key="results_swap_out").set_value(out).run()
    at.selectbox(key="results_swap_in").set_value(new).run()
    at.button(key="results_swap_run").click().run()
    until_ended(at)


def test_two_swaps_in_a_row_offer_the_new_runs_heuristics():
    """A swap made from the first swap's run: its choices follow the new current scenario (max-min now in it,
    sufferage back among the others), and the second swap changes that run, not the first one."""
    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    _swap(at, "sufferage", "max-min")
    out, new = at.selectbox(key="results_swap_out"), at.selectbox(key="results_swap_in")
    assert out.options == ["mct (minimum completion time)", "kpb (K-percent best)",
                           "max-min (latest-finishing task first)"]
    assert out.value in ("mct", "kpb", "max-min")
    names = [o.split()[0] for o in new.options]
    assert "sufferage" in names and "max-min" not in names and new.value in names
    _swap(at, "max-min", "olb")
    after = at.session_state["scenario"]
    assert [h.label for h in after.heuristics] == ["mct", "kpb", "min-min", "olb"]
    assert [e.changes_text for e in at.session_state["history"]] == [
        "the first run", "max-min instead of sufferage", "olb instead of max-min"]
    assert plain(at.info[0].value).startswith("Against run #1, olb instead of sufferage")
    assert at.selectbox(key="results_swap_out").options[-1].startswith("olb ") and not at.exception


def test_a_swap_then_another_models_scenario_offers_that_models_own_heuristics():
    """After a swap, a run of another model's scenario: the swap offers that model's heuristics, no stale pick of
    the earlier model's, and swaps one of them."""
    from hcsched import get_model, heuristic_names

    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    _swap(at, "sufferage", "max-min")
    other = get_model("timeshared").tiny()
    at.session_state["scenario"] = other
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    out, new = at.selectbox(key="results_swap_out"), at.selectbox(key="results_swap_in")
    inside = [h.label for h in other.heuristics if h.label != other.benchmark_label]
    assert [o.split()[0] for o in out.options] == inside and out.value in inside
    names = [n for n in heuristic_names(model="timeshared") if n not in {h.name for h in other.heuristics}]
    assert [o.split()[0] for o in new.options] == names and new.value in names
    _swap(at, inside[-1], names[0])
    assert [h.label for h in at.session_state["scenario"].heuristics] == [*[h.label for h in other.heuristics][:-1],
                                                                           names[0]]
    assert not at.exception


def test_the_run_picker_says_what_a_run_put_back_of_its_preset(monkeypatch):
    """The run picker read "#2 kim-loose-high-heavy (edited): relative-cost removed; tpsa removed; ga removed" for a
    swap relative-cost → switching: against the preset, switching is no change, and the title did not say it came in.
    It says what differs from the run before it too, where the edits from the preset leave it out."""
    from hcsched.compare import swapped

    state = {}
    monkeypatch.setattr(history.st, "session_state", state)
    small = SMALL.replace(tasks=20, trials=2)
    first = small.replace(heuristics=tuple(h for h in small.heuristics if h.label != "sufferage"),
                          name="quickstart (edited)")
    history.keep(run_result(first))
    history.keep(run_result(swapped(first, "mct", "sufferage")))
    titles = [e.title for e in history.history()]
    assert titles == ["#1 quickstart (edited): tasks 200 → 20; sufferage removed; trials 20 → 2",
                      "#2 quickstart (edited): tasks 200 → 20; mct removed; trials 20 → 2; from #1: sufferage instead "
                      "of mct"], titles
    history.keep(run_result(swapped(first, "mct", "sufferage").replace(machines=12)))  # said by the edits already
    assert history.history()[-1].title == "#3 quickstart (edited): machines 8 → 12; tasks 200 → 20; and 2 more"


def test_a_refused_what_if_says_why_under_its_greyed_button(monkeypatch):
    """A what-if over the per-run limit: its button greyed, and the reason in view under it (a touch screen has no
    hover), in a person's words (no setting's name)."""
    import pages.widgets as widgets

    monkeypatch.setattr(widgets, "LIMIT_SECONDS", 1e-9)  # every run is over the limit
    from helpers import open_results

    at = open_results(SMALL)
    assert not at.exception, at.exception
    button = at.button(key="results_whatif_0")
    assert button.disabled
    said = [c.value for c in at.caption if "the limit per run here is" in c.value]
    assert said and all("HCSCHED" not in c for c in said), [c.value for c in at.caption]
    assert re.search(r"This run would take about \d+ minutes; the limit per run here is 0 minutes\. Use fewer trials",
                     plain(said[0])), said


def test_the_first_run_of_another_model_says_no_baseline_and_offers_none():
    """"Run #2 is the baseline: the other runs are compared with it." showed on a model's first run, with nothing to
    compare it with: said only once another run of its model is there, and no button to make it what it is."""
    import dataclasses

    classes = preset("alazzoni-B").replace(trials=2)
    at = two_runs(classes.replace(classes=dataclasses.replace(classes.classes, horizon=300.0)))
    at.switch_page("pages/results.py").run()
    assert not [c for c in at.caption if "is the baseline" in c.value]
    assert not [b for b in at.button if b.key == "results_pin"]
    assert not at.exception


def _place(at, kind: str, has) -> int | None:
    """The place among the page's top-level elements of the first that holds an element of ``kind`` for which
    ``has`` holds."""
    from streamlit.testing.v1.element_tree import Block

    for place, node in at.main.children.items():
        found = [node] if node.type == kind else list(node.get(kind)) if isinstance(node, Block) else []
        if any(has(x) for x in found):
            return place
    return None


def test_the_what_ifs_sit_under_the_answer_and_its_bars_not_at_the_foot_of_the_page():
    """A tryout found the what-if buttons at the foot of a 3,400-px page, under the distributions and the Gantt
    chart: they follow the answer's bars now, above the means, the distributions and one trial's charts."""
    at = app("app.py", scenario=SMALL)
    at.switch_page("pages/run.py").run()
    run(at)
    at.switch_page("pages/results.py").run()
    what_ifs = _place(at, "caption", lambda c: c.value.startswith("Try a what-if"))
    bars = _place(at, "plotly_chart", lambda c: True)
    distribution = _place(at, "selectbox", lambda s: s.label == "Per-trial distribution of")
    assert None not in (what_ifs, bars, distribution), (what_ifs, bars, distribution)
    assert bars < what_ifs < distribution
    assert _place(at, "expander", lambda e: e.label == "Means and 95% intervals") > what_ifs
