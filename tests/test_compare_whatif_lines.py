"""The what-if lines a manager rated 3 and 4 (hcsched.compare): the worst task's slowdown said in words with the
leads' rounding, lines short enough to read at a glance, values that agree with the difference said, the winner said
again where the lead has no room, and the heuristic the reader follows where the baseline's queues all grew."""

from __future__ import annotations

import dataclasses
import re

import pandas as pd

from hcsched import preset, simulate
from hcsched.compare import (
    AGAINST_WORDS,
    CHANGE_LEAD_WORDS,
    LINE_WORDS,
    Change,
    _best_words,
    _detail,
    _lead_pair,
    compare_runs,
    quick_what_ifs,
    swapped,
    winners_of,
)
from hcsched.metrics import Metric
from hcsched.verdict import word_count

VALUE = Metric("value", "Value, % of the upper bound", "%", "higher")


def _stretched(scenario, makespan: float, stretch: float) -> pd.DataFrame:
    """Hand-made etc results: each heuristic's makespan, mean flow time and max stretch by trial (a few percent apart
    from trial to trial), the first heuristic the best."""
    rows = [{"trial": t, "heuristic": h.label, "makespan": makespan * (1 + k / 10) * (1 + 0.01 * (t % 3)),
             "normalized_makespan": 1 + k / 10, "mean_flow": 10.0 * (1 + k / 10),
             "max_stretch": stretch * (1 + k / 10) * (1 + 0.02 * ((t % 4) - 1.5)), "utilization": 0.5}
            for t in range(8) for k, h in enumerate(scenario.heuristics)]
    return pd.DataFrame(rows)


def _twice_the_rate_stretched():
    base = preset("quickstart").replace(tasks=100, trials=8)
    fast = base.replace(arrivals=type(base.arrivals)(process=base.arrivals.process, rate=2 * base.arrivals.rate))
    return compare_runs(base, _stretched(base, 535_000.0, 8.763), fast, _stretched(fast, 332_000.0, 88.38))


def test_the_worst_tasks_slowdown_is_said_in_words_rounded_as_the_leads_round_it():
    """The manager read "max stretch of sufferage 8.763 → 88.38 (10 times as high ...)": a name no line explained,
    four significant digits and no unit. The line says it as the Results leads do."""
    cmp = _twice_the_rate_stretched()
    lead, rest = cmp.change_parts()
    assert lead.startswith("twice the arrival rate: the worst task's slowdown of mct"), lead
    assert "8.8 → 88 times (clearly worse)" in lead, lead  # its words in full below
    assert not re.search(r"\d\.\d{2,}", lead) and "10 times as high" not in lead, lead  # the values say the factor
    assert word_count(lead) <= CHANGE_LEAD_WORDS
    said = " ".join(rest)  # its name with its words below, in the same rounding
    assert "Max stretch (the worst task's slowdown) of mct (minimum completion time) 8.8 → 88 times its run time " \
           "alone, 10 times; 95% interval: " in said, said
    assert "Also a real change: makespan 38% shorter" in said  # the headline metric's change, not lost


def test_a_what_ifs_line_with_whom_it_is_against_is_at_most_28_words():
    """Lines of 30-34 words: "Against run #2, the run shown before:" alone cost 7. Whom a line is against is said in
    3 words ("Against run #2,"), the lead within the rest."""
    assert (LINE_WORDS, AGAINST_WORDS, CHANGE_LEAD_WORDS) == (28, 3, 25)
    assert word_count("Against run #12,") == AGAINST_WORDS
    lead = _twice_the_rate_stretched().change_lead()
    assert word_count(lead) <= LINE_WORDS - AGAINST_WORDS, lead


def test_a_worse_change_of_a_harder_workload_says_the_better_headline_number_too():
    """"twice the arrival rate: the worst task's slowdown of sufferage 8.8 → 88 ... (a real change, for the worse).
    The winner on makespan stays sufferage." (33 words with whom it is against) no longer said that makespan fell
    38%: a better-looking headline number from a harder workload is the point. The lead says both, within 28 words
    with "Against run #2,", the change for the worse first, and why the makespan is shorter (the same tasks arrive
    in half the time), its size below."""
    lead = _twice_the_rate_stretched().change_lead()
    assert lead == ("twice the arrival rate: the worst task's slowdown of mct 8.8 → 88 times (clearly worse); "
                    "its 38% shorter makespan comes only from faster arrivals."), lead
    assert word_count(f"Against run #2, {lead}") <= LINE_WORDS


def test_the_winner_is_said_on_the_line_below_a_lead_with_no_room_for_it():
    """The value swap no longer said whether the winner stays ("; the winner stays max-min"): where the lead has no
    room, the line says it on the line below it (a paragraph of its own), short, so that the lead stays within 28
    words with whom it is against."""
    cmp = _twice_the_rate_stretched()
    lead = cmp.change_lead()
    assert "winner" not in lead
    assert cmp.change_summary() == f"{lead}\n\nThe winner on max stretch and makespan stays mct (minimum completion " \
        "time). Every heuristic's max stretch is 10 times as high."  # the lead's metric and the headline's, one
    # winner said once; then how every heuristic moved on the lead's metric
    assert cmp.change_line().endswith("The winner on makespan stays mct.")  # and in full below, as before


def test_a_line_led_by_another_metric_says_who_wins_on_it_after_the_change():
    """The quickstart's twice the arrival rate led with the mean flow time of sufferage (the makespan winner), and
    said only that "the winner on makespan stays sufferage": a manager asked who wins on flow time now. The line
    says the lead's metric's winner too, from the what-if's own verdicts."""
    sc = preset("quickstart")
    changed = dict(quick_what_ifs(sc))["Twice the arrival rate"]
    results = simulate(changed, jobs=1)
    lead, below = compare_runs(sc, simulate(sc, jobs=1), changed, results).summary_parts()
    flow = winners_of(changed, results)["mean_flow"]
    assert flow.clear and lead == (f"twice the arrival rate: both winners stay (sufferage on makespan, {flow.label} "
                                   "on mean flow time); every heuristic's mean flow time is 44–60% longer."), lead
    # who wins first, then every one's change (a tryout found them on the second line, under sufferage's flow time)
    assert below[0] == "Sufferage's makespan is 3.5% shorter only because the tasks arrive in half the time.", below
    # the better-looking headline number said to come from the harder workload, right under the lead
    assert below[1] == ("\n\n\nMin-min: soonest-finishing task first; sufferage: task that would lose most without its "
                        "best machine."), below  # every heuristic in words on the lines in view, marked as a legend
    # that a page shows apart (a tryout read it, last in the box, as a stray fragment)


def test_the_two_values_said_agree_with_the_difference_said():
    """"from max-min 91.3% to slack-sufferage 90.8% ... (0.4 points lower ...)" reads as 0.5, and "91.28% to ...
    90.84%" had two decimals where the rest of the page has one: the lead says the values with one decimal, and the
    difference as they give it, "about" (the detail below gives the unrounded means and the paired difference)."""
    moved = Change("value", "max-min", "slack-sufferage", 91.28, 90.84, -0.44, -0.6, -0.3, "points", True, (50, 50))
    said = _best_words(moved, VALUE)
    assert said == ("the best value moves from 91.3% (max-min) to 90.8% of the upper bound (slack-sufferage), about "
                    "0.5 points lower: real, but tiny"), said
    short = _best_words(moved, VALUE, short=True)
    assert short.startswith("the best value moves from 91.3% (max-min) to 90.8% (slack-sufferage), about 0.5 points "
                            "lower")
    assert _detail(moved, VALUE).startswith("Value of max-min 91.28% → slack-sufferage 90.84% of the upper bound, "
                                            "-0.4 points; 95% interval: 0.3–0.6 points lower")
    same = Change("value", "max-min", "max-min", 91.28, 90.84, -0.44, -0.6, -0.3, "points", True, (50, 50))
    assert _lead_pair(same, VALUE).startswith("max-min 91.3% → 90.8% of the upper bound (about 0.5 points lower")
    tiny = Change("value", "max-min", "max-min", 91.26, 91.24, -0.02, -0.03, -0.01, "points", True, (50, 50))
    assert _lead_pair(tiny, VALUE).startswith("max-min 91.26% → 91.24% of the upper bound (0.02 points lower")  # finer
    agreeing = Change("value", "relative-cost", "switching", 89.47, 89.79, 0.32, 0.2, 0.4, "points", True, (50, 50))
    assert _lead_pair(agreeing, VALUE).startswith("relative-cost 89.5% → switching 89.8% of the upper bound (0.3 "
                                                  "points higher")  # they agree as they are: one decimal


def _valued(scenario, means: dict) -> pd.DataFrame:
    """Hand-made value results: each heuristic's value in % of the upper bound by trial (switching's a little apart
    from trial to trial)."""
    rows = [{"trial": t, "heuristic": h.label, "upper_bound": 100_000.0,
             "value_pct_ub": means[h.label] + 0.1 * (t % 3) + 0.05 * (t % 2) * (h.label == "switching")}
            for t in range(8) for h in scenario.heuristics]
    return pd.DataFrame(rows).assign(value=lambda d: 1000 * d["value_pct_ub"])


def value_swap():
    """The comparison of the value preset's max-min, min-min and relative-cost with switching swapped in for
    relative-cost, on hand-made results (the same tasks: one upper bound in every trial)."""
    kim = preset("kim-loose-high-heavy")
    before = kim.replace(heuristics=tuple(h for h in kim.heuristics if h.label in ("max-min", "min-min",
                                                                                   "relative-cost")))
    after = swapped(before, "relative-cost", "switching")
    means = {"max-min": 91.3, "min-min": 88.0, "relative-cost": 89.47, "switching": 89.79}
    return compare_runs(before, _valued(before, means), after, _valued(after, means))


def test_the_value_swap_says_whether_the_winner_stays_within_28_words():
    """"Against run #1, switching instead of relative-cost: value of relative-cost 89.5% → switching 89.8% of the
    upper bound (0.3 points higher: real, but under 1% of its value). The winner stays max-min." was 32 words. The
    values leave out what they are of (the Results lead and the detail say it) where that makes room for the winner."""
    cmp = value_swap()
    line = cmp.change_summary()
    assert line == ("switching instead of relative-cost: value of relative-cost 89.6% → switching 89.9% of the upper "
                    "bound (0.3 points higher: real, but tiny); the winner stays max-min.\n\n\nMax-min: latest-"
                    "finishing "
                    "task first; relative-cost: most worth, then lowest relative cost; switching: fastest machine, "
                    "soonest-finishing when loads are uneven."), line  # the lead's labels in words below it, for room
    assert word_count(f"Against run #1, {cmp.change_lead()}") <= LINE_WORDS
    assert "89.9% of the upper bound, +0.3 points; 95% interval: " in cmp.change_line()  # in full below


def test_a_swap_led_by_another_metric_says_the_headline_metric_in_the_lead():
    """"met instead of mct: max stretch of mct 1,588 → met 3,500 times its run time alone (120% higher: a real change,
    for the worse)" never said makespan, the run's headline metric, whose change was not real: the lead says so,
    "clearly worse" and the values said short making room, within the line's words; the rise sized as a factor
    beside values in times (a tryout read "1,588 → 3,500 times (clearly worse)" as raw ratios without a size), each
    value marked as a slowdown ("1,588 → 3,500" alone read as numbers without a unit)."""
    from hcsched import simulate
    from hcsched.scenario import HeuristicSpec

    base = preset("quickstart")
    swap = base.replace(heuristics=tuple(HeuristicSpec.make("met", model="etc") if h.label == "mct" else h
                                         for h in base.heuristics))
    cmp = compare_runs(base, simulate(base), swap, simulate(swap))
    lead = cmp.change_lead()
    assert lead == ("met instead of mct: the worst task's slowdown of mct 1,588× → met 3,500× (2.2 times as high: "
                    "clearly worse); makespan: no real change."), lead
    assert word_count(f"Against run #1, {lead}") <= LINE_WORDS
    below = cmp.change_summary().split("\n\n")[1]  # both winners in one sentence; no "37.8 → 37.8 (no change in
    # any trial)" of a winner the swap did not touch
    # the other side of the trade first (a tryout read the slowdown's rise alone as a one-sided verdict), then both
    # winners in one sentence
    assert below.startswith("But mean flow time is 25% shorter (95% interval: 21–28% shorter) with met (minimum "
                            "execution time) than with mct (minimum completion time). Both winners stay: min-min "
                            "(soonest-finishing task first) on max stretch, sufferage (task that would lose most "
                            "without its best machine) on makespan."), below
    assert "no change" not in below and ") (" not in below
    # met's bars equal kpb's in every chart (kpb keeps 20% of 8 machines: one, the fastest, as met does): said why
    assert "In this scenario, met and kpb (K-percent best) give the same results in every " \
           "trial: the two rules map the tasks alike, so their bars match." in below, below


def test_twice_the_machines_says_no_winner_any_more_and_why():
    """Twice the machines: "(sufferage led by 8.4%)" read backwards, and a tryout asked why there is no winner any
    more: every heuristic's makespan is now within 2% of its lower bound (hand-checked: 1.017-1.018 times it)."""
    base = preset("quickstart")
    words, more = quick_what_ifs(base)[0]
    cmp = compare_runs(base, simulate(base), more, simulate(more))
    assert cmp.change_lead() == ("twice the machines: no clear winner any more (before, sufferage won by 8.4%); every "
                                 "heuristic's makespan is 35–46% shorter."), cmp.change_lead()
    _, below = cmp.summary_parts()
    assert below[0] == "Every heuristic is now within 1.8% of the lower bound: none can do much better.", below
    # the gain a manager buying machines feels most, every heuristic's shorter waits (a tryout found it only in the
    # charts): each of the four heuristics' mean flow time, hand-checked from the two runs, falls 78-91%
    assert below[1] == ("Every heuristic's mean flow time is also 78–91% shorter, for sufferage (task that would "
                        "lose most without its best machine) 35 → 3.6 hours."), below  # in hours, of the heuristic
    # the lead followed (a tryout asked for the waits in hours)
    flow = [c.change for c in cmp.changes if c.metric == "mean_flow" and c.before_label == c.after_label]
    assert len(flow) == 4 and -91.5 < min(flow) and max(flow) < -77.5, flow


def test_heuristics_with_the_same_results_in_every_trial_are_said_in_groups():
    from hcsched.verdict import LEAD_WORDS, alike_pairs, alike_sentence

    rows = [{"trial": t, "heuristic": h, "makespan": v + t, "mean_flow": f}
            for t in range(3) for h, v, f in (("a", 10.0, 1.0), ("b", 10.0, 1.0), ("c", 12.0, 1.0), ("d", 10.0, 2.0))]
    metrics = [Metric("makespan", "Makespan", "s", "lower"), Metric("mean_flow", "Mean flow time", "s", "lower")]
    results = pd.DataFrame(rows)
    assert alike_pairs(results, metrics) == [("a", "b")]  # d's makespan is a's, not its mean flow time
    assert alike_sentence([("a", "b")]).startswith("In this scenario, a and b give the same results in every trial")
    many = alike_sentence([("a", "b"), ("c", "d"), ("c", "e")])
    assert many == ("In this scenario, these give the same results in every trial, so their bars match: a and b; c, d "
                    "and e."), many
    counted = alike_sentence([(f"long-name-{k}", f"other-long-name-{k}") for k in range(12)])
    assert counted == ("In this scenario, 24 heuristics give the same results in every trial as another, so their "
                       "bars match in 12 groups.") and word_count(counted) <= LEAD_WORDS


def test_a_winner_that_stays_says_how_its_lead_moved_where_it_moved_much():
    """Half the arrival rate: sufferage still wins, but by 1.3% over mct where it was 8.4% over min-min; a tryout
    found the new margin only in the run's own answer. Said below the lead, with the winner; a lead that moved
    little (8.4% -> 9.4% over the same runner-up) is not said again."""
    base = preset("quickstart")
    half = dict(quick_what_ifs(base))["Half the arrival rate"]
    cmp = compare_runs(base, simulate(base), half, simulate(half))
    assert cmp.change_lead() == ("half the arrival rate: sufferage still wins on makespan, but only by 1.3% over mct "
                                 "(was 8.4% over min-min); every heuristic's makespan is 13–32% longer."), \
        cmp.change_lead()  # "still wins, by 1.3%" read as a big win; the metric and each runner-up said (a tryout
    # read "still wins" beside a pick of another, and "was 8.4%" as against the same runner-up)
    # the news first (a tryout found the lead's fall from 8.4% to 1.3% on line 2, under sufferage's own makespan),
    # never "for the worse" of a makespan that only grows as the last task arrives later
    below = cmp.change_summary().split("\n\n")[1]
    assert below == ("Every heuristic's makespan is longer, as the same tasks arrive over twice the time. But every "
                     "heuristic's mean flow time is 44–74% shorter."), below  # why, which the lead had no room for
    # (a tryout found the why lost once the lead said the standing), then the news on the other side; no winner
    assert cmp.change_parts()[1][1] == below.split(". But")[0] + "."  # in the what-if's own line too
    assert cmp.change_summary().endswith("\n\n\nmct: minimum completion time; min-min: soonest-finishing task "
                                         "first; sufferage: task that would lose most without its best machine.")
    # again under a lead that says it (a tryout read "The winner stays sufferage, now 1.3% below mct, ..." as the
    # lead said twice)
    a, b = cmp.winners
    assert b.moved_from(a) and not a.moved_from(a)
    assert not dataclasses.replace(a, gap=9.4, margin="9.4% below min-min").moved_from(a)  # 9.4 / 8.4 < 1.5
    assert "now" not in cmp.winner_words(short=True)  # in a lead, where words are few: the winner alone
