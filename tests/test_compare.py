"""Two runs compared (hcsched.compare, hcsched compare): hand-computed intervals, paired and unpaired, the matching of
heuristics, the change line of the three what-ifs, and the CLI reading scenario files and results CSVs alike."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from hcsched import HcschedError, get_model, preset, simulate
from hcsched.cli import main
from hcsched.compare import (
    CHANGE_LEAD_WORDS,
    change_of,
    change_words,
    compare_runs,
    comparison_csv,
    interval_words,
    lead_changes,
    matched_heuristics,
    run_changes,
    same_tasks,
    shares_random_numbers,
    size_words,
    what_changed,
)
from hcsched.export import read_results_csv, results_csv
from hcsched.metrics import Metric
from hcsched.verdict import headline_metric, metric_words, word_count

SECONDS = Metric("makespan", "Makespan", "s", "lower")
SHARE = Metric("utilization", "Utilisation", "", "higher", fmt=".1%")
STRETCH = Metric("max_stretch", "Max stretch", "", "lower")


def series(values) -> pd.Series:
    return pd.Series(values, index=range(len(values)), dtype=float)


def small(**changes):
    return preset("quickstart").replace(tasks=100, trials=8, **changes)


# --- intervals, by hand ------------------------------------------------------------------------------------------

def test_paired_points_is_the_t_interval_of_the_per_trial_differences():
    before, after = [0.50, 0.60, 0.70, 0.80], [0.52, 0.60, 0.75, 0.81]  # fractions: changes in points
    c = change_of(SHARE, series(before), series(after), paired=True, labels=("a", "a"))
    d = 100 * (np.array(after) - np.array(before))  # 2, 0, 5, 1 points
    half = stats.t.ppf(0.975, 3) * d.std(ddof=1) / 2
    assert c.kind == "points" and c.change == pytest.approx(2.0)
    assert (c.lower, c.upper) == pytest.approx((2.0 - half, 2.0 + half))
    assert (c.lower, c.upper) == pytest.approx(tuple(100 * x for x in stats.ttest_rel(after,
                                                                                      before).confidence_interval()))
    assert c.before == pytest.approx(0.65) and c.trials == (4, 4) and c.paired


def test_unpaired_points_is_welchs_interval():
    before, after = [0.50, 0.60, 0.70], [0.52, 0.61, 0.75, 0.90, 0.40]
    c = change_of(SHARE, series(before), series(after), paired=False, labels=("a", "a"))
    ci = stats.ttest_ind(after, before, equal_var=False).confidence_interval()
    assert c.change == pytest.approx(100 * (np.mean(after) - np.mean(before)))
    assert (c.lower, c.upper) == pytest.approx((100 * ci.low, 100 * ci.high))
    assert c.trials == (3, 5) and not c.paired


def test_paired_percent_is_the_ratio_of_the_means_with_its_delta_method_interval_on_the_log_scale():
    before, after = np.array([10.0, 20.0, 30.0]), np.array([12.0, 22.0, 30.0])
    c = change_of(SECONDS, series(before), series(after), paired=True, labels=("a", "a"))
    ratio = 64 / 60
    residuals = (after - ratio * before) / 20.0  # (after_t - R before_t) / mean(before)
    se_log = residuals.std(ddof=1) / math.sqrt(3) / ratio
    t = stats.t.ppf(0.975, 2)
    assert c.change == pytest.approx(100 * (ratio - 1))  # the two means' own ratio: 6.67%
    assert c.lower == pytest.approx(100 * (ratio * math.exp(-t * se_log) - 1))
    assert c.upper == pytest.approx(100 * (ratio * math.exp(t * se_log) - 1))


def test_unpaired_percent_uses_both_variances_and_welchs_degrees_of_freedom():
    before, after = np.array([100.0, 110.0, 90.0, 100.0]), np.array([70.0, 75.0, 80.0])
    c = change_of(SECONDS, series(before), series(after), paired=False, labels=("a", "a"))
    ma, mb = before.mean(), after.mean()
    ratio = mb / ma
    u1, u2 = ratio**2 * before.var(ddof=1) / 4 / ma**2, after.var(ddof=1) / 3 / ma**2
    df = (u1 + u2) ** 2 / (u1**2 / 3 + u2**2 / 2)
    half = stats.t.ppf(0.975, df) * math.sqrt(u1 + u2) / ratio
    assert c.change == pytest.approx(-25.0)
    assert (c.lower, c.upper) == pytest.approx((100 * (ratio * math.exp(-half) - 1),
                                                100 * (ratio * math.exp(half) - 1)))
    assert change_words(c) == f"-25% [{c.lower:.0f}%, {c.upper:.0f}%]"


def test_a_non_negative_mean_never_falls_below_minus_100_percent_however_wide_its_interval():
    before = np.array([1.0, 1.0, 1.0, 1.0])
    after = np.array([0.0, 0.0, 0.0, 4.0])
    c = change_of(SECONDS, series(before), series(after), paired=False, labels=("a", "a"))
    assert c.change == 0.0 and -100 < c.lower < 0 < c.upper


@pytest.mark.parametrize("paired", [True, False])
def test_the_intervals_cover_the_true_change_about_95_percent_of_the_time(paired):
    """A simulation: makespans around 100 s and a what-if 20% faster; the interval should hold -20% in about 95 of 100
    repeats (between 92% and 98% of 600)."""
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(600):
        before = rng.gamma(25.0, 4.0, size=30)
        after = 0.8 * (before if paired else rng.gamma(25.0, 4.0, size=30)) * rng.gamma(100.0, 0.01, size=30)
        c = change_of(SECONDS, series(before), series(after), paired=paired, labels=("a", "a"))
        hits += c.lower <= -20.0 <= c.upper
    assert 0.92 <= hits / 600 <= 0.98


def test_the_same_values_on_both_sides_are_no_change_and_zero_means_have_no_percent():
    same = change_of(SECONDS, series([0, 0, 0]), series([0, 0, 0]), paired=True, labels=("a", "a"))
    assert (same.change, same.lower, same.upper) == (0.0, 0.0, 0.0) and change_words(same) == "no change in any trial"
    zero = change_of(SECONDS, series([0, 0, 0]), series([1, 2, 0]), paired=True, labels=("a", "a"))
    assert math.isnan(zero.change) and change_words(zero) == "–"
    gone = change_of(SECONDS, series([1.0, 2.0]), pd.Series(dtype=float), paired=False, labels=("a", None))
    assert math.isnan(gone.change) and gone.after != gone.after and gone.heuristic == "a"


def test_paired_values_drop_a_trial_where_either_side_is_missing():
    c = change_of(SECONDS, series([10.0, np.nan, 30.0, 40.0]), series([11.0, 20.0, np.inf, 44.0]), paired=True,
                  labels=("a", "a"))
    assert c.trials == (2, 2) and c.before == pytest.approx(25.0) and c.change == pytest.approx(10.0)


def test_big_changes_are_said_as_a_factor():
    c = change_of(SECONDS, series([1.0, 1.1, 0.9]), series([50.0, 60.0, 55.0]), paired=True, labels=("a", "a"))
    assert re.fullmatch(r"55 times \[\d+, \d+\]", change_words(c))
    assert size_words(c, SECONDS) == "55 times as long" and size_words(c, STRETCH) == "55 times as high"
    assert re.fullmatch(r"95% interval: \d+–\d+ times as long", interval_words(c, SECONDS))


def _change(change, lower, upper, kind="percent"):
    return __import__("hcsched.compare", fromlist=["Change"]).Change("m", "a", "a", 1.0, 1.0, change, lower, upper,
                                                                     kind, True, (8, 8))


@pytest.mark.parametrize("change, metric, size, interval", [
    (_change(-35.2, -38.1, -32.4), SECONDS, "35% shorter", "95% interval: 32–38% shorter"),
    (_change(60.0, 51.0, 69.0), SECONDS, "60% longer", "95% interval: 51–69% longer"),
    (_change(-1.2, -3.5, 1.2), SECONDS, "1.2% shorter", "95% interval: 3.5% shorter to 1.2% longer"),
    (_change(-1.2, -3.5, 1.2), STRETCH, "1.2% lower", "95% interval: 3.5% lower to 1.2% higher"),
    (_change(2.5, 0.4, 4.0, "points"), SHARE, "2.5 points higher", "95% interval: 0.4–4.0 points higher"),
    (_change(0.0, 0.0, 0.0), SECONDS, "no change", ""),
    (_change(-5.0, math.nan, math.nan), SECONDS, "5.0% shorter", ""),
])
def test_a_change_and_its_interval_are_said_in_words(change, metric, size, interval):
    """The lead says a change's size in words ("35% shorter"), the detail below it its 95% interval in words, never
    as a bracketed pair of signed numbers."""
    assert size_words(change, metric) == size and interval_words(change, metric) == interval


# --- which heuristics are compared -------------------------------------------------------------------------------

def test_heuristics_match_by_label_then_by_name_then_a_single_replacement():
    base = small(heuristics=["mct", "min-min", {"name": "kpb", "k": 10}, "sufferage"])
    assert matched_heuristics(base, base.replace(heuristics=["mct", "max-min", {"name": "kpb", "k": 30},
                                                             "sufferage"])) \
        == [("mct", "mct"), ("min-min", "max-min"), ("kpb (k=10)", "kpb (k=30)"), ("sufferage", "sufferage")]
    assert matched_heuristics(base, base.replace(heuristics=["mct", "max-min", "olb"])) == [
        ("mct", "mct"), ("min-min", None), ("kpb (k=10)", None), ("sufferage", None), (None, "max-min"), (None, "olb")]


def test_the_differences_are_said_in_words_with_trials_and_seed():
    base = small()
    assert what_changed(base, base.replace(machines=12)) == ["machines 8 → 12"]
    assert what_changed(base, base.replace(heuristics=["mct", "kpb", "max-min", "sufferage"]))[0] == \
        "max-min instead of min-min"  # one heuristic for another
    assert what_changed(base, base.replace(heuristics=["mct", "kpb", "max-min", "sufferage", "olb"]))[:3] == [
        "min-min removed", "max-min added", "olb added"]
    assert run_changes(base, base.replace(machines=12, trials=9, seed=2)) == ["machines 8 → 12", "trials 8 → 9",
                                                                             "seed 1999 → 2"]
    assert run_changes(base, base) == []


def test_runs_of_one_seed_share_their_random_numbers_and_of_one_system_too_their_tasks():
    base = small()
    assert shares_random_numbers(base, base.replace(heuristics=["mct", "max-min"], trials=10))
    assert shares_random_numbers(base, base.replace(machines=12)) and not same_tasks(base, base.replace(machines=12))
    assert same_tasks(base, base.replace(heuristics=["mct", "max-min"]))
    assert not shares_random_numbers(base, base.replace(seed=5))


def test_twice_the_rate_draws_the_same_numbers_so_its_trials_are_alike_trial_by_trial():
    """The common random numbers of two systems: trial t of both draws the same numbers (the interarrival times
    halved), so their makespans go together, which pairing uses."""
    base = preset("quickstart").replace(tasks=100, trials=12)
    fast = base.replace(arrivals=type(base.arrivals)(process=base.arrivals.process, rate=2 * base.arrivals.rate))
    a, b = (simulate(s, jobs=1) for s in (base, fast))
    mct = [r[r["heuristic"] == "mct"]["makespan"].to_numpy() for r in (a, b)]
    assert np.corrcoef(*mct)[0, 1] > 0.5
    paired, unpaired = (change_of(SECONDS, pd.Series(mct[0]), pd.Series(mct[1]), p, ("mct", "mct"))
                        for p in (True, False))
    assert paired.change == pytest.approx(unpaired.change)
    assert paired.upper - paired.lower < unpaired.upper - unpaired.lower


# --- two runs ----------------------------------------------------------------------------------------------------

def _compare(before, after):
    return compare_runs(before, simulate(before, jobs=1), after, simulate(after, jobs=1))


def test_four_more_machines_is_paired_on_common_random_numbers_with_a_change_line():
    base = small()
    cmp = _compare(base, base.replace(machines=12))
    assert cmp.paired and cmp.pairing.startswith("Paired (common random numbers): both runs have the same seed")
    assert cmp.pairing_words == ("Both runs used the same random tasks (the same seed), so the differences come from "
                                 "the change.")
    winner = cmp.winners[0].label
    c = cmp.subject()
    assert c.before_label == winner and c.change < 0 and c.upper < 0  # more machines: a shorter makespan, for real
    # the line leads with the winner's makespan, the model's headline metric, a real change (it led with max
    # stretch's -99%, the biggest in percent, which a manager read past); the others' real changes follow
    metric, lead = cmp.leading()
    assert metric.name == "makespan" and lead is c and lead.separated
    lead, rest = cmp.change_parts()
    assert not cmp.winners[1].clear  # no new winner told apart, every heuristic's makespan shorter for real: who
    # wins first (the winner's lead gone), then how every one moved (a tryout found the lead followed one heuristic)
    assert re.fullmatch(rf"machines 8 → 12: no clear winner any more \(before, {winner} won by [\d.]+%\); every "
                        r"heuristic's makespan is [\d.]+–[\d.]+% shorter\.", lead), lead
    assert word_count(lead) <= CHANGE_LEAD_WORDS and cmp.change_line() == " ".join([lead, *rest])
    assert "paired" not in lead and "[" not in lead  # how and the interval are said below the lead, in words
    detail = next(r for r in rest if r.startswith(f"Makespan of {winner} "))
    assert f"; {interval_words(c, metric)}, compared trial by trial (paired)." in detail
    assert f", {c.change:+.0f}%;" in detail  # the signed change, as before
    others = [o for o in cmp.changes if o.before_label == winner and o.after_label == winner and o.separated
              and o.metric in ("mean_flow", "max_stretch")]
    charted = cmp.charted()
    for o in others:
        assert f"{size_words(o, charted[o.metric])}, for the better ({interval_words(o, charted[o.metric])})" in \
            cmp.change_line()


def test_another_seed_is_an_unpaired_welch_comparison():
    base = small()
    cmp = _compare(base, base.replace(seed=3))
    assert not cmp.paired and cmp.pairing.startswith("Unpaired (Welch): the runs have different seeds")
    assert cmp.change_line().startswith("seed 1999 → 3: makespan of ")
    assert "compared as independent samples (unpaired, Welch)." in cmp.change_line()
    assert cmp.pairing_words == ("The runs used different random tasks (different seeds), so part of each difference "
                                 "is chance: the 95% intervals allow for it.")
    assert all(not c.paired for c in cmp.changes)


def _results(scenario, makespan, flow):
    """A hand-made results table: per trial and heuristic, the makespan and mean flow time given (scaled by the
    heuristic's place), the other charted metrics constant."""
    rows = []
    for t, (m, f) in enumerate(zip(makespan, flow, strict=True)):
        for k, h in enumerate(scenario.heuristics):
            rows.append({"trial": t, "heuristic": h.label, "makespan": m * (1 + k / 10), "normalized_makespan": 1
                         + k / 10,
                         "mean_flow": f * (1 + k / 10), "max_stretch": 2.0, "utilization": 0.5})
    return pd.DataFrame(rows)


BEFORE = ([100, 110, 90, 100, 105, 95, 100, 100], [10, 11, 9, 10, 10, 10, 12, 8])
FASTER = [90, 99, 81, 90, 94, 86, 90, 90]  # every makespan 10% shorter


@pytest.mark.parametrize("makespan, flow, said, unsaid", [
    ([101, 108, 91, 101, 104, 96, 99, 100], [15, 16, 14, 15, 16, 15, 17, 12],  # makespan unmoved, flow worse: why
     ["The same scenario: mean flow time of mct (minimum completion time) 10 → 15 s (50% longer: clearly worse), "
      "with no real change in makespan.",  # the headline metric's clause: in the lead, "clearly worse" making room
      "Mean flow time (a task's time from arrival to finish, averaged) of mct 10 → 15 s",  # its words: below
      "95% interval: 45–55% longer", "The winner on makespan stays mct."],
     ["Also a real change", "makespan -", "makespan +"]),
    (FASTER, [15, 16, 14, 15, 16, 15, 17, 12],  # makespan better, flow worse: the bigger change leads, the other named
     ["The same scenario: mean flow time of mct 10 → 15 s (50% longer: a real change, for the worse), though "
      "makespan is 10% shorter.", "Mean flow time (a task's time from arrival to finish, averaged) of mct (minimum "
      "completion time) 10 → 15 s",
      "Also a real change: makespan 10% shorter, for the better (95% interval: "], []),
    (FASTER, [5, 6, 4, 5, 5, 5, 6, 4],  # both better: the headline metric leads, the bigger change named after it
     ["The same scenario: makespan of mct (minimum completion time) 100 → 90 s (10% shorter: a real change, for "
      "the better); the winner stays mct.",
      "Also a real change: mean flow time 50% shorter, for the better (95% interval: 48–52% shorter)."],
     ["for the worse", "not like for like", " but "]),
])
def test_the_change_line_leads_with_the_headline_metric_or_a_bigger_change_the_other_way(makespan, flow, said,
                                                                                         unsaid):
    base = small()
    cmp = compare_runs(base, _results(base, *BEFORE), base, _results(base, makespan, flow))
    line = cmp.change_line()
    assert all(part in line for part in said) and not any(part in line for part in unsaid), line
    assert line.startswith(cmp.change_lead()) and word_count(cmp.change_lead()) <= CHANGE_LEAD_WORDS


def _twice_the_rate(base):
    return base.replace(arrivals=type(base.arrivals)(process=base.arrivals.process, rate=2 * base.arrivals.rate))


def test_a_harder_workload_leads_with_what_got_worse_and_says_a_better_number_is_not_like_for_like():
    """Twice the arrival rate: the makespan shortens (the tasks come sooner) while every task waits longer. The line
    leads with the mean flow time, worse for real, and says the better makespan is not like for like."""
    base = small()
    fast = _twice_the_rate(base)
    cmp = compare_runs(base, _results(base, *BEFORE), fast, _results(fast, FASTER, [15, 16, 14, 15, 16, 15, 17, 12]))
    lead, rest = cmp.change_parts()
    assert lead == ("twice the arrival rate: mean flow time of mct 10 → 15 s (50% longer: clearly worse); its makespan "
                    "10% shorter only from faster arrivals.")  # the worse change first, sized, then why the better one
    assert "Also a real change: makespan 10% shorter, for the better" in " ".join(rest)
    assert rest[0] == "What differs: arrival rate 2.3 → 4.6 tasks an hour (×2)."  # said short in the lead
    assert "The work itself differs (arrival rate), so the better makespan is not like for like." in rest
    # the makespan alone got better: the lead says its number is not like for like
    only = compare_runs(base, _results(base, *BEFORE), fast, _results(fast, FASTER, BEFORE[1]))
    assert only.change_lead().startswith("twice the arrival rate: makespan of mct 100 → 90 s (10% shorter: ")
    assert "for the better); not like for like." in only.change_lead()  # why: first below it
    assert "The work itself differs (arrival rate), so its makespan is not like for like." in only.change_line()
    assert "The winner stays mct." in only.change_line()  # after the lead, which is full
    # the same better makespan from more machines is like for like
    more = base.replace(machines=12)
    assert "like for like" not in compare_runs(base, _results(base, *BEFORE), more,
                                               _results(more, FASTER, BEFORE[1])).change_line()


def test_a_rate_changed_says_by_what_factor_and_an_automatic_benchmark_says_so():
    base = small()
    fast = _twice_the_rate(base)
    assert what_changed(base, fast) == ["arrival rate 2.3 → 4.6 tasks an hour (×2)"]
    swapped = base.replace(heuristics=["mct", "kpb", "max-min", "sufferage"])
    assert what_changed(base, swapped)[-1] == "benchmark min-min → mct (by default)"
    assert what_changed(base, swapped.replace(benchmark="mct"))[-1] == "benchmark min-min → mct"


def test_a_lead_says_a_doubled_or_halved_setting_in_words_and_leaves_the_benchmark_below():
    base = small()
    assert lead_changes(base, _twice_the_rate(base)) == ["twice the arrival rate"]
    assert lead_changes(base, base.replace(machines=16)) == ["twice the machines"]
    assert lead_changes(base, base.replace(machines=4, seed=3)) == ["half the machines", "seed 1999 → 3"]
    assert lead_changes(base, base.replace(machines=12, trials=9)) == ["machines 8 → 12", "trials 8 → 9"]
    swapped = base.replace(heuristics=["mct", "kpb", "max-min", "sufferage"])
    assert lead_changes(base, swapped) == ["max-min instead of min-min"]  # the benchmark only touches normalised ones


def test_another_heuristic_is_paired_and_leaves_the_others_unchanged_in_every_trial():
    base = small()
    cmp = _compare(base, base.replace(heuristics=["mct", "kpb", "max-min", "sufferage"], benchmark="mct"))
    assert cmp.paired and cmp.pairing.startswith("Paired: ")
    assert cmp.pairing_words == ("Both runs ran the very same tasks (the same seed), so the differences come from "
                                 "the change.")
    makespan = [c for c in cmp.changes if c.metric == "makespan"]
    assert [c.heuristic for c in makespan] == ["mct", "kpb", "min-min → max-min", "sufferage"]
    assert all(change_words(c) == "no change in any trial" for c in makespan if c.heuristic != "min-min → max-min")
    assert cmp.subject().heuristic == "min-min → max-min"
    metric, lead = cmp.leading()
    assert lead.heuristic == "min-min → max-min" and lead.separated and metric.name == "makespan"  # its makespan
    lead, rest = cmp.change_parts()
    assert lead.startswith(f"max-min instead of min-min: {metric_words(metric)} of min-min ")
    assert " → max-min " in lead and ": clearly worse)" in lead and "paired" not in lead
    assert lead.endswith("; keep min-min, better on every metric."), lead  # the swap's verdict (a tryout found none)
    long = "max-min instead of min-min: " + "word " * 20  # no room left: the verdict first below the lead
    assert cmp._swap_verdict(cmp.subject(), long, ["x"]) == (long, ["Keep min-min: it is better on every metric here.",
                                                                    "x"])
    assert rest[0] == ("What differs: max-min (latest-finishing task first) instead of min-min (soonest-finishing "
                       "task first); benchmark min-min → mct (minimum completion time).")  # below the lead, in words


def test_a_comparison_of_two_models_is_refused_in_words():
    other = get_model("classes").tiny()
    with pytest.raises(HcschedError, match="different models"):
        compare_runs(small(), simulate(small(), jobs=1), other, simulate(other, jobs=1))


def test_the_comparison_csv_has_every_metric_and_says_how_it_was_made():
    base = small()
    cmp = _compare(base, base.replace(machines=12))
    text = comparison_csv(cmp)
    assert "# what differs: machines 8 → 12" in text and "# Paired (common random numbers)" in text
    table = pd.read_csv(__import__("io").StringIO(text), comment="#")
    assert set(table["metric"]) == {m.name for m in cmp.metrics} and (table["interval"] == "paired").all()
    swapped = _compare(base, base.replace(heuristics=["mct", "kpb", "max-min", "sufferage"]))
    assert "# Normalised makespan is not compared: the benchmark changed (min-min → mct)." in comparison_csv(swapped)
    assert comparison_csv(_compare(base, base.replace(machines=12))) == text  # the same bytes each time


# --- the results CSV read back, and the command ------------------------------------------------------------------

def test_a_results_csv_reads_back_as_its_scenario_and_its_table():
    base = small(name="mine # 1")
    results = simulate(base, jobs=1)
    scenario, table = read_results_csv(results_csv(base, results))
    assert scenario == base
    pd.testing.assert_frame_equal(table, results, check_dtype=False)


def test_a_csv_without_its_scenario_line_is_refused_in_one_line():
    with pytest.raises(HcschedError, match="no line starting '# scenario"):
        read_results_csv("trial,heuristic,makespan\n0,mct,1\n", "what-if 'x.csv'")


def test_the_command_gives_the_same_figures_from_scenario_files_and_from_results_csvs(tmp_path, capsys):
    base = small()
    base.save(tmp_path / "a.json")
    base.replace(machines=12).save(tmp_path / "b.json")
    assert main(["compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--jobs", "1",
                 "--out", str(tmp_path / "ab.csv")]) == 0
    from_files = capsys.readouterr().out
    for name in ("a", "b"):
        assert main(["run", str(tmp_path / f"{name}.json"), "--jobs", "1", "--out", str(tmp_path / f"{name}.csv")]) == 0
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "a.csv"), str(tmp_path / "b.csv")]) == 0
    assert capsys.readouterr().out == from_files
    assert "machines 8 → 12: " in from_files and "every heuristic's makespan is" in from_files
    assert "compared trial by trial (paired)." in from_files
    assert "change [95% interval]" in from_files
    assert (tmp_path / "ab.csv").read_text() == comparison_csv(_compare(base, base.replace(machines=12)))


@pytest.mark.parametrize("argv, said", [
    (["compare", "nothing.csv", "nothing.json"], "baseline 'nothing.csv': cannot be read"),
    (["compare"], "the following arguments are required"),
])
def test_the_command_refuses_bad_input_in_one_line(argv, said, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


@pytest.mark.parametrize("name", sorted(__import__("hcsched").model_names()))
def test_every_model_compares_paired_on_its_seed_and_unpaired_across_seeds(name):
    base = get_model(name).tiny()
    other_heuristics = base.replace(heuristics=list(reversed(base.heuristics)))
    same_seed = compare_runs(base, simulate(base, jobs=1), other_heuristics, simulate(other_heuristics, jobs=1))
    assert same_seed.paired and same_seed.differences == ("heuristics reordered",)
    assert all(change_words(c) in ("no change in any trial", "–") for c in same_seed.changes), same_seed.table()
    reseeded = base.replace(seed=base.seed + 1)
    cmp = compare_runs(base, simulate(base, jobs=1), reseeded, simulate(reseeded, jobs=1))
    assert not cmp.paired and cmp.change_line().startswith(f"seed {base.seed} → {base.seed + 1}: ")
    assert cmp.metrics[0].name == headline_metric(get_model(name)).name and len(cmp.table()) >= len(base.heuristics)


# --- a what-if whose queues grow for the whole run ---------------------------------------------------------------

def _in_system(scenario, means: dict, unstable: set[str], turn: int = 0) -> pd.DataFrame:
    """Hand-made results of a task-class scenario: each heuristic's average backlog over 4 replications
    (its mean; ±1% by turns with ``turn`` 1), flagged unstable in every one when in ``unstable``."""
    rows = [{"trial": t, "heuristic": h.label, "mean_in_system": means[h.label] * (1 + 0.01 * turn * (-1) ** t),
             "unstable": h.label in unstable} for t in range(4) for h in scenario.heuristics]
    return pd.DataFrame(rows)


def _overloaded_pair(what_if: str, unstable: set[str]):
    from hcsched.compare import quick_what_ifs

    base = preset("alazzoni-B").replace(trials=4)
    after = dict(quick_what_ifs(base))[what_if]
    before = _in_system(base, {"mct": 6.0, "kpb (kbar=1)": 5.5, "lpas": 5.158}, set())
    grown = _in_system(after, {"mct": 90_000.0, "kpb (kbar=1)": 80_000.0, "lpas": 86_596.0}, unstable, turn=1)
    return compare_runs(base, before, after, grown)


def test_a_what_if_no_mapping_keeps_up_with_says_so_first_and_crowns_no_winner():
    """The manager read "average backlog of lpas 5.158 -> 86.6 thousand tasks (16796 times as high: a real
    change, for the worse)" and a winner crowned among mappings that all fail: the size only measures the run."""
    cmp = _overloaded_pair("Twice the arrival rate", {"mct", "kpb (kbar=1)", "lpas"})
    lead, rest = cmp.change_parts()
    assert lead == ("twice the arrival rate: the machines cannot keep up whatever the mapping (they can take 0.67 "
                    "times these arrivals), so tasks pile up.")  # "for the whole run": below, where it does not fit
    assert word_count(lead) <= CHANGE_LEAD_WORDS
    assert rest[1].startswith("Average backlog of lpas (earliest finish among its class's machines) 5.158 → "
                              "86,600 tasks, 16,789 times; 95% ")
    assert rest[-1] == "No heuristic keeps up, so a ranking would only compare how fast their queues grow."
    said = " ".join(rest)
    assert "16,789 times;" in said and "%" not in said.replace("95% interval", "") and "how long the run was" in said
    assert "kpb" not in " ".join([lead, *rest])  # nobody crowned


def test_a_what_if_one_heuristic_cannot_keep_up_with_names_it_and_keeps_the_winner():
    cmp = _overloaded_pair("Half the arrival rate", {"lpas"})  # the LP could keep up: only lpas did not
    lead, rest = cmp.change_parts()
    assert lead == ("half the arrival rate: lpas (earliest finish among its class's machines) cannot keep up with "
                    "these arrivals, so tasks pile up for the whole run.")  # the values with their unit: below, in full
    assert rest[1].startswith("Average backlog of lpas 5.158 → 86,600 tasks")
    assert rest[-1] == "The winner changes from lpas to kpb (each class's fastest machine)."


def test_a_what_if_that_keeps_up_against_an_overloaded_baseline_says_so_first():
    """The baseline twice the arrival rate (no mapping keeps up), the what-if half of it: the manager read "average
    tasks in system 86.6 thousand -> 5.158 (100% lower: a real change)" and "the winner changes from mct", as if
    the baseline's ranking meant something."""
    from hcsched.compare import quick_what_ifs

    base = preset("alazzoni-B").replace(trials=4)
    heavy = dict(quick_what_ifs(base))["Twice the arrival rate"]
    light = dict(quick_what_ifs(heavy))["Half the arrival rate"]
    grown = _in_system(heavy, {"mct": 90_000.0, "kpb (kbar=1)": 80_000.0, "lpas": 86_596.0},
                       {"mct", "kpb (kbar=1)", "lpas"}, turn=1)
    kept = _in_system(light, {"mct": 6.0, "kpb (kbar=1)": 5.5, "lpas": 5.158}, set())
    lead, rest = compare_runs(heavy, grown, light, kept).change_parts()
    # the heuristic the reader follows: the winner now (lpas), not the baseline's (kpb) of queues that all grew
    assert lead == ("half the arrival rate: the machines now keep up; average backlog of lpas (earliest "
                    "finish among its class's machines) 86,600 → 5.16 tasks."), lead  # its unit, as the leads say it
    assert word_count(lead) <= CHANGE_LEAD_WORDS
    said = " ".join(rest)
    assert "In the baseline, the machines cannot keep up whatever the mapping (they can take 0.67 times" in said
    assert "how long the baseline's run was" in said
    assert rest[-1] == "lpas wins, where before, no heuristic kept up.", rest[-1]


def test_a_change_of_many_times_is_charted_as_a_factor_on_a_log_axis():
    """No "+500,000%" axis: a queue that grows for the whole run is thousands of times the baseline."""
    from hcsched.compare_charts import change_chart

    cmp = _overloaded_pair("Twice the arrival rate", {"mct", "kpb (kbar=1)", "lpas"})
    fig = change_chart(cmp, cmp.headline)
    axis, changes = fig.layout.xaxis2, fig.data[2]
    assert axis.type == "log" and axis.ticksuffix == "×" and "times the baseline's mean" in axis.title.text
    assert list(changes.x) == pytest.approx([1 + c.change / 100 for c in cmp.changes if c.metric == "mean_in_system"])
    assert changes.text[2] == "16,789 times"
    usual = change_chart(_compare(small(), small(machines=12)), headline_metric(get_model("etc")))
    assert usual.layout.xaxis2.ticksuffix == "%" and usual.layout.xaxis2.type in (None, "-")


def test_a_reference_is_said_so_beside_its_row_of_the_comparison_chart():
    """The value what-if's chart named ga and tpsa as contenders while both Results pages said "(reference)"."""
    from hcsched.compare_charts import change_chart

    cmp = _compare(small(), small(machines=12))
    fig = change_chart(cmp, headline_metric(get_model("etc")), references={"mct": "a search knowing every task"})
    rows = list(fig.data[0].y)
    ticks = dict(zip(fig.layout.yaxis.tickvals, fig.layout.yaxis.ticktext, strict=True))
    assert ticks["mct"] == "mct (reference)" and all(ticks[x] == x for x in rows if x != "mct")
    hover = dict(zip(rows, fig.data[0].hovertext, strict=True))
    assert "a reference, not a contender: a search knowing every task" in hover["mct"]
    assert change_chart(cmp, headline_metric(get_model("etc"))).layout.yaxis.ticktext is None


def test_a_swap_keeps_the_place_trials_seed_and_workload_and_never_the_benchmark():
    from hcsched.compare import swap_choices, swapped

    sc = preset("quickstart")
    inside, outside = swap_choices(sc)
    assert inside == ["mct", "kpb", "sufferage"] and "max-min" in outside and "min-min" not in outside
    after = swapped(sc, "kpb", "max-min")
    assert [h.label for h in after.heuristics] == ["mct", "max-min", "min-min", "sufferage"]
    assert (after.spec, after.trials, after.seed, after.benchmark_label) == (sc.spec, sc.trials, sc.seed, "min-min")
    with pytest.raises(HcschedError, match="swap: 'nope' is not allowed"):
        swapped(sc, "nope", "max-min")


def test_a_new_winner_is_said_in_three_words_where_the_whole_clause_would_not_fit():
    """The value what-if read "value of max-min 91.28% → 79.84% ... (11 points lower ...)" and left out that
    slack-sufferage now wins at 90.84%: a lead with no room for "the winner changes from A to B" says "B now wins"."""
    base = small()
    fast = _twice_the_rate(base)
    after = _results(fast, [m * 1.3 for m in BEFORE[0]], BEFORE[1])
    after.loc[after["heuristic"] == "mct", "makespan"] *= 1.5
    cmp = compare_runs(base, _results(base, *BEFORE), fast, after)
    assert cmp.winner_words() == "the winner changes from mct to kpb"
    assert cmp.winner_words(short=True) == "kpb now wins"
    lead, rest = cmp.change_parts()  # the new winner is in the lead's first words: the best against the best
    assert lead == ("twice the arrival rate: the best makespan moves from 100 s (mct) to 143 s (kpb), 43% longer: a "
                    "real change, for the worse.")  # the old winner's own change: below
    assert word_count(lead) <= CHANGE_LEAD_WORDS and rest[-1] == "The winner changes from mct to kpb."


def test_a_change_above_twice_is_said_as_a_factor():
    """A manager read "226% longer" for a makespan 6.2 -> 20 days: "about 3 times as long" reads at once."""
    from hcsched.compare import Change, size_words

    c = Change("makespan", "x", "x", 6.2, 20.2, 226.0, 210.0, 240.0, "percent", True, (30, 30))
    assert size_words(c, SECONDS) == "3.3 times as long"
    near = Change("makespan", "x", "x", 6.2, 12.0, 94.0, 80.0, 110.0, "percent", True, (30, 30))
    assert size_words(near, SECONDS) == "94% longer"  # its interval reaches below twice: a percentage


def test_a_new_winner_is_judged_against_the_old_one_trial_by_trial_and_the_old_winners_change_follows():
    """The value what-if led with the old winner's drop ("value of max-min 91.3% → 79.8% ... 11 points lower") while
    the best value only fell to 90.8%, with a new winner: the best against the best comes first, paired by trial as
    every other change, the old winner's own change after it."""
    base = small()
    fast = _twice_the_rate(base)
    before, after = _results(base, *BEFORE), _results(fast, [m * 1.3 for m in BEFORE[0]], BEFORE[1])
    after.loc[after["heuristic"] == "mct", "makespan"] *= 1.5
    cmp = compare_runs(base, before, fast, after)
    metric = cmp.headline
    by = lambda t, h: t[t["heuristic"] == h].set_index("trial")[metric.name]  # noqa: E731
    assert cmp.best == change_of(metric, by(before, "mct"), by(after, "kpb"), True, ("mct", "kpb"))
    lead, rest = cmp.change_parts()
    assert lead.startswith("twice the arrival rate: the best makespan moves from 100 s (mct) to 143 s (kpb)")
    assert "The old winner: makespan of mct (minimum completion time) 100 → 195 s (95% longer in every trial)." in rest
    assert "Makespan of mct 100 → 195 s, +95% in every trial, compared trial by trial (paired)." in " ".join(rest)
    kept = compare_runs(base, before, base, before)  # the winner stays: no best-against-best line
    assert kept.best is None and kept.change_lead().startswith("The same scenario: makespan of mct ")


def test_a_small_real_change_says_it_is_small_as_the_leads_do():
    """"0.3 points higher: a real change, for the better" overstated a change under 1% of the value."""
    base = small()
    nudged = [m * (0.995 + 0.0001 * (t % 2)) for t, m in enumerate(BEFORE[0])]  # 0.5% shorter, trial by trial
    cmp = compare_runs(base, _results(base, *BEFORE), base, _results(base, nudged, BEFORE[1]))
    lead = cmp.change_lead()
    assert "(0.5% shorter: real, but tiny)" in lead, lead
    assert "for the better" not in lead and word_count(lead) <= CHANGE_LEAD_WORDS


def test_the_comparison_chart_of_a_time_of_days_is_ticked_in_days_as_its_line_says_it():
    """The etc what-if's line said "1.4 → 2.3 days" over a chart ticked 0 ... 200,000 s: one unit per metric."""
    from hcsched.charts import time_ticks
    from hcsched.compare_charts import change_chart

    cmp = _compare(small(), small(machines=12))
    metric = headline_metric(get_model("etc"))
    fig = change_chart(cmp, metric)
    values = [x for c in cmp.changes if c.metric == metric.name for x in (c.before, c.after)]
    ticks = time_ticks(values, values)
    assert ticks is not None and fig.layout.xaxis.title.text == f"Makespan ({ticks[2]})"
    assert list(fig.layout.xaxis.ticktext) == ticks[1] and list(fig.data[0].x) == [
        c.before for c in cmp.changes if c.metric == metric.name]  # the bars in seconds, as the CSV


def test_a_line_says_every_time_of_a_metric_in_one_unit_the_least_means():
    """The tryout read "mean flow time of sufferage 1.4 → 2.3 days" over "min-min 16 → 23 hours" in one what-if: a
    line says every time of a metric in the unit of the least mean of both runs, hours where one is under a day."""
    from hcsched.formatting import span_pair

    hour = 3600.0
    assert span_pair(34 * hour, 55 * hour) == "1.4 → 2.3 days"  # alone: the larger's unit
    assert span_pair(34 * hour, 55 * hour, (hour, "hours")) == "34 → 55 hours"
    assert span_pair(1800.0, 55 * hour, (hour, "hours")) == "under an hour → 2.3 days"  # under an hour: each its own
    base = small()
    fast = _twice_the_rate(base)
    hours = [16 * hour * x for x in (1.0, 1.1, 0.9, 1.0, 1.0, 1.0, 1.2, 0.8)]  # heuristic k's: (1 + k/10) times these
    cmp = compare_runs(base, _results(base, BEFORE[0], hours), fast, _results(fast, FASTER, [1.5 * x for x in hours]))
    flow = next(m for m in cmp.metrics if m.name == "mean_flow")
    assert cmp.time_unit(flow) == (hour, "hours")  # the least mean, 16 hours, is under a day
    assert cmp.time_unit(cmp.headline) is None  # makespans of about 100 s: under an hour, each pair its own
    assert cmp.time_unit(next(m for m in cmp.metrics if m.name == "max_stretch")) is None  # not a time
    lead, rest = cmp.change_parts()
    assert "mean flow time of mct 16 → 24 hours" in lead, lead
    assert any("16 → 24 hours (57,600 → 86,400 s)" in x for x in rest), rest  # the figures below: the lead's unit


def test_the_comparison_table_names_a_metric_without_a_unit_its_values_say_themselves():
    """The 19th tryout: a "Makespan (s)" row whose values read "7.3 days (633,000 s)"."""
    pytest.importorskip("streamlit")
    from pages.compare_view import comparison_table

    base = small()
    fast = _twice_the_rate(base)
    hours = [16 * 3600.0 * x for x in (1.0, 1.1, 0.9, 1.0, 1.0, 1.0, 1.2, 0.8)]
    table = comparison_table(compare_runs(base, _results(base, BEFORE[0], hours), fast,
                                          _results(fast, FASTER, [1.5 * x for x in hours])))
    flow = table[table["metric"] == "Mean flow time"]
    assert not flow.empty and "Mean flow time (s)" not in set(table["metric"])
    assert flow["before"].iloc[0].startswith("16 hours (57,600 s)"), flow["before"].iloc[0]


def test_a_fall_that_rounds_to_all_of_it_is_said_as_it_is():
    """"max stretch 100% lower (95% interval: 99–100% lower)" read as a stretch of 0, which no task has: a fall that
    would round to 100% keeps a decimal, and one over 99.95% is "over 99.9%"."""
    from dataclasses import replace

    from hcsched.compare import Change

    stretch = get_model("etc").metric("max_stretch")
    c = Change("max_stretch", "a", "a", 2500.0, 7.5, -99.7, -99.8, -99.1, "percent", True, (20, 20))
    assert size_words(c, stretch) == "99.7% lower"
    assert interval_words(c, stretch) == "95% interval: 99–99.8% lower"
    assert size_words(replace(c, change=-99.97), stretch) == "over 99.9% lower"
    assert size_words(replace(c, change=-96.0), stretch) == "96% lower"  # as before
