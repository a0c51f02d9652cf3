"""Who wins: paired verdicts on hand-made results tables with hand-computed answers (hcsched.verdict), in one sentence
that never contradicts itself; references (static benchmarks) never crowned."""

import math
import re

import numpy as np
import pandas as pd
import pytest

import hcsched
from hcsched.errors import HcschedError
from hcsched.formatting import (
    amount_text,
    interval_cell,
    listed,
    readable,
    readable_amount,
    readable_number,
    readable_pair,
    time_window_text,
)
from hcsched.metrics import Metric
from hcsched.models.value.heuristics import STATIC_REFERENCE
from hcsched.stats import mean_ci
from hcsched.verdict import (
    LEAD_WORDS,
    NEITHER,
    Headline,
    _sizes,
    headline,
    headline_metric,
    headline_metrics,
    named_once,
    plain_name,
    progress_lead,
    reference_of,
    scenario_references,
    scenario_verdicts,
    trade_off,
    verdict,
    verdict_lines,
    verdicts,
    word_count,
)

LOWER = Metric("x", "Makespan", "s", "lower", bar=True)
HIGHER = Metric("y", "Throughput", "", "higher", bar=True)
POINTS = Metric("p", "Value, % of the upper bound", "%", "higher", bar=True)
FRACTION = Metric("u", "Utilisation", "", "higher", bar=True, fmt=".1%")

T3_4 = 3.182446305284263  # t(0.975, 3)
T3_2 = 4.302652729749464  # t(0.975, 2)


def table(metric: str, **values) -> pd.DataFrame:
    """One row per trial and heuristic, heuristics in the order given."""
    rows = [{"trial": t, "heuristic": h, metric: v} for h, vs in values.items() for t, v in enumerate(vs)]
    return pd.DataFrame(rows).sort_values("trial", kind="stable").reset_index(drop=True)


def test_a_beats_b_on_every_trial():
    # per-trial (A - B) / B: -10, -5, -5, -10 %: mean -7.5, sd sqrt(25/3), half-width t(3) sd / 2
    v = verdict(table("x", A=[90, 190, 285, 270], B=[100, 200, 300, 300]), LOWER)
    half = T3_4 * math.sqrt(25 / 3) / 2
    assert (v.best, v.other, v.kind, v.trials) == ("A", "B", "percent", 4)
    assert v.difference == pytest.approx(-7.5)
    assert (v.lower, v.upper) == pytest.approx((-7.5 - half, -7.5 + half))
    assert v.separated and v.title == "Lowest makespan" and v.better == "lower"
    assert v.text == ("A has the lowest makespan at 208.8 s, 7.5% below B, the runner-up: a real difference (95% "
                      "interval: 2.9–12.1% below).") and v.detail == ""


def test_reversed_table_the_other_wins():
    v = verdict(table("x", A=[100, 200, 300, 300], B=[90, 190, 285, 270]), LOWER)
    assert (v.best, v.other) == ("B", "A")
    assert v.difference == pytest.approx(-7.5) and v.separated
    assert v.text.startswith("B has the lowest makespan at 208.8 s, 7.5% below A, the runner-up: a real difference ")


def test_noisy_table_is_not_told_apart():
    # (A - B) / B: -10, 10, -5, 0 %: mean -1.25, sd sqrt(218.75 / 3)
    v = verdict(table("x", A=[90, 110, 95, 100], B=[100, 100, 100, 100]), LOWER)
    half = T3_4 * math.sqrt(218.75 / 3) / 2
    assert v.best == "A" and not v.separated
    assert (v.difference, v.lower, v.upper) == pytest.approx((-1.25, -1.25 - half, -1.25 + half))
    # one sentence: no winner named, both means, the interval in words (from 15% below to 12% above), never "beats"
    assert v.text == ("No clear winner on makespan: A averages 98.75 s and B 100 s, but the 95% interval puts A "
                      "between 15% below and 12% above B per trial, so they are not told apart.")


def test_higher_is_better():
    v = verdict(table("y", A=[10, 20, 30, 40], B=[11, 22, 33, 44]), HIGHER)
    assert (v.best, v.other, v.title) == ("B", "A", "Highest throughput")
    assert (v.difference, v.lower, v.upper) == pytest.approx((10.0, 10.0, 10.0))  # +10% in every trial
    assert v.separated and v.text == ("B has the highest throughput at 27.5, 10% above A, the runner-up: a real "
                                      "difference (95% interval: 10% above, the same in every trial).")


@pytest.mark.parametrize("metric, scale, shown", [(POINTS, 1.0, "value at 60% of the upper bound"),
                                                  (FRACTION, 0.01, "utilisation at 60.0%")])
def test_points_for_percent_and_fraction_metrics(metric, scale, shown):
    # A - B: 2, 3, 2 points: mean 7/3, sd sqrt(1/3), half-width t(2) sd / sqrt(3)
    a, b = np.array([50, 60, 70]) * scale, np.array([48, 57, 68]) * scale
    v = verdict(table(metric.name, A=a, B=b), metric)
    half = T3_2 * math.sqrt(1 / 3) / math.sqrt(3)
    assert v.kind == "points" and v.best == "A" and v.separated
    assert (v.difference, v.lower, v.upper) == pytest.approx((7 / 3, 7 / 3 - half, 7 / 3 + half))
    assert v.text == (f"A has the highest {shown}, 2.3 points above B, the "
                      "runner-up: a real difference (95% interval: 0.9–3.8 points above).")


def test_one_trial_has_no_interval():
    v = verdict(table("x", A=[90], B=[100]), LOWER)
    assert v.best == "A" and v.difference == pytest.approx(-10.0) and v.trials == 1
    assert math.isnan(v.lower) and not v.separated
    assert v.text == ("A has the lowest makespan at 90 s, 10% below the runner-up B in the only trial: too few trials "
                      "to tell whether the difference is real.")


def test_nan_and_infinite_trials_are_dropped_and_counted():
    # trial 1: A NaN, trial 4: B infinite; (A - B) / B on trials 0, 2, 3: -10, -5, -10 %
    v = verdict(table("x", A=[90, np.nan, 285, 270, 190], B=[100, 200, 300, 300, np.inf]), LOWER)
    half = T3_2 * math.sqrt(25 / 3) / math.sqrt(3)
    assert v.best == "A" and v.trials == 3
    assert (v.difference, v.lower, v.upper) == pytest.approx((-25 / 3, -25 / 3 - half, -25 / 3 + half))
    assert v.text.endswith("8.3% below B, the runner-up: a real difference (95% interval over 3 "
                           "of 5 trials: 1.2–15.5% below).")  # both ends in one precision


def test_a_percent_of_zero_is_dropped():
    v = verdict(table("x", A=[0, 90, 95], B=[0, 100, 100]), LOWER)
    assert v.trials == 2 and v.difference == pytest.approx(-7.5)


def test_a_percent_interval_stays_above_minus_100():
    # (A - B) / B: -99.9, -99.9, -50, -50 %: Student-t reaches -120.8%, below what non-negative values allow
    d = np.array([-99.9, -99.9, -50.0, -50.0])
    assert mean_ci(d, method="t")[1] < -100
    v = verdict(table("x", A=[1, 1, 1, 1], B=[1000, 1000, 2, 2]), LOWER)
    _, lo, hi = mean_ci(d + 100, method="bootstrap")
    assert (v.difference, v.lower, v.upper) == pytest.approx((-74.95, lo - 100, hi - 100))
    assert -100 <= v.lower < v.upper < 0 and v.separated


def test_per_trial_percent_against_the_means_is_not_told_apart_and_never_contradicts_itself():
    # means: B 50 < A 55, but (B - A) / A is +100% and -20%: +40% per trial on average, the interval holds zero
    v = verdict(table("x", A=[10, 100], B=[20, 80]), LOWER)
    assert v.best == "B" and v.difference == pytest.approx(40.0) and not v.separated
    assert v.text.startswith("No clear winner on makespan: B averages 50 s and A 55 s, but "
                             "the 95% interval puts B between ")
    assert v.text.endswith("above A per trial, so they are not told apart.")
    assert "though" not in v.text and "lower by mean" not in v.text


def test_means_and_trials_told_apart_the_other_way_is_no_winner():
    # B's mean is lower (53.3 s against 57.1 s: one trial, 900 against 1000, carries it), but B is 10% above A in 20
    # of 21 trials: per trial +9.05% on average, the interval [7.1%, 11%] above. Neither "B beats A" nor "A beats B".
    v = verdict(table("x", A=[10] * 20 + [1000], B=[11] * 20 + [900]), LOWER)
    c = v.comparisons[0]
    assert v.best == "B" and c.separated and c.disagrees and not c.told_apart and not v.separated
    assert c.means == pytest.approx((1120 / 21, 1200 / 21))
    # the lead says there is no winner and why in short; the interval that says it is right below (the whole sentence
    # would pass the lead's 35 words)
    assert v.text == ("No clear winner on makespan: B averages 53.33 s and A 57.14 s, but the trials disagree with "
                      "the averages.")
    assert v.detail == ("Per trial, the 95% interval puts B 7.1–11.0% above A: the averages and the trials disagree, "
                        "so they are not told apart.")


@pytest.mark.parametrize("order", [("A", "B"), ("B", "A")])
def test_ties_go_to_the_first_heuristic_of_the_table(order):
    v = verdict(table("x", **{order[0]: [100, 200], order[1]: [100, 200]}), LOWER)
    assert (v.best, v.other) == order and not v.separated
    assert v.text == (f"No clear winner on makespan: {order[0]} and {order[1]} are equal in "
                      "every trial, at 150 s on average.")
    # equal means, different trials: still the first
    w = verdict(table("p", **{order[0]: [10, 20], order[1]: [20, 10]}), POINTS)
    assert w.best == order[0] and w.difference == 0
    assert w.text == (f"No clear winner on value: {order[0]} averages 15% of the upper bound and {order[1]} 15% of "
                      "the upper bound: not told apart.")
    assert w.detail == (f"Per trial, the 95% interval puts {order[0]} between 127 points below and 127 points above "
                        f"{order[1]}.")


def test_benchmark_neither_best_nor_runner_up_is_compared_too():
    results = table("x", C=[120, 240, 360, 360], A=[90, 190, 285, 270], B=[100, 200, 300, 300])
    v = verdict(results, LOWER, benchmark="C")
    assert (v.best, v.other) == ("A", "B")
    assert [(c.other, c.role) for c in v.comparisons] == [("B", "runner-up"), ("C", "benchmark")]
    bench = v.comparisons[1]  # (A - C) / C: -25, -20.83, -20.83, -25 %
    assert bench.difference == pytest.approx(-22.916666, abs=1e-5) and bench.separated
    assert v.text == ("A has the lowest makespan at 208.8 s, 7.5% below B, the runner-up: a real difference (95% "
                      "interval: 2.9–12.1% below); A is 23% below the benchmark C: a real difference (95% interval: "
                      "19–27% below).")  # 34 words: the benchmark's clause fits
    assert v.detail == "" and v.lines == [v.text]
    # the benchmark as runner-up or best: no second comparison
    assert len(verdict(results, LOWER, benchmark="B").comparisons) == 1
    assert len(verdict(results, LOWER, benchmark="A").comparisons) == 1


def test_benchmark_not_told_apart_says_so():
    results = table("x", A=[90, 190, 285, 270], B=[100, 200, 300, 300], C=[80, 260, 300, 300])
    v = verdict(results, LOWER, benchmark="C")
    assert not v.comparisons[1].separated
    assert v.detail == ("A is not told apart from the benchmark C: the 95% interval puts A between 33% below and "
                        "18% above C per trial.")


def test_single_heuristic_all_nan_and_neither_is_better():
    assert verdict(table("x", A=[1.0, 2.0]), LOWER).text == ("Lowest makespan: A at 1.5 s, the only "
                                                             "heuristic, nothing to compare.")
    v = verdict(table("x", A=[np.nan, np.nan], B=[np.nan, np.nan]), LOWER)
    assert v.best is None and v.text == "Lowest makespan: no values (every trial is NaN)."
    events = Metric("x", "Mapping events", "", "")
    n = verdict(table("x", A=[1, 2], B=[3, 4]), events)
    assert n.best is None and n.note == NEITHER and n.text == "Mapping events: neither is better."


def test_headline_metrics_skip_normalised_duplicates():
    norm = LOWER.normalized()
    assert [m.name for m in headline_metrics([LOWER, norm], ["x", norm.name])] == ["x"]
    assert [m.name for m in headline_metrics([LOWER, norm], [norm.name])] == [norm.name]


def test_bad_results_name_the_column():
    with pytest.raises(HcschedError, match="no column 'trial'"):
        verdict(pd.DataFrame({"heuristic": ["A"], "x": [1.0]}), LOWER)
    with pytest.raises(HcschedError, match="no column 'y'"):
        verdict(table("x", A=[1.0]), HIGHER)


def test_a_table_cell_is_the_mean_and_its_interval_each_as_people_read_them():
    """The CLI's tables, the dashboard's and the report print a number so (one function)."""
    assert interval_cell(3_469_580.0, 3_401_234.0, 3_537_926.0) == "3.47 M [3.40 M, 3.54 M]"
    assert interval_cell(0.873, 0.861, 0.885, ".1%") == "87.3% [86.1%, 88.5%]"
    assert interval_cell(1.0123, 0.98765, 1.04, "") == "1.012 [0.9877, 1.04]" and interval_cell(3808.5, 3585.7,
                                                                                                4031.3) == \
        "3,808 [3,586, 4,031]"
    assert interval_cell(142.5, math.nan, math.nan) == "142.5" and interval_cell(math.nan, math.nan, math.nan) == "n/a"


def test_numbers_as_people_read_them():
    assert readable_number(1_196_000) == "1.20 M" and readable_number(999_700) == "1.00 M"
    assert readable_number(523.4) == "523.4" and readable_number(12_345) == "12.3 k"
    assert readable_number(9_999.7) == "10.0 k" and readable_number(61_400) == "61.4 k"
    assert readable_number(9876) == "9,876" and readable_number(0.0123) == "0.0123"
    assert readable_number(2e16) == "2e+16" and readable_number(math.inf) == "inf"
    assert readable_number(math.nan) == "n/a"
    assert readable(1_196_000, LOWER) == "14 days (1,200,000 s)" and readable(0.873, FRACTION) == "87.3%"
    # one number format on a page: full digits with separators below a million, the scale in words from there
    assert readable_amount(15_100, "time units") == "15,100 time units"
    assert readable_amount(20_000, "time units") == "20,000 time units" and readable_amount(79_083, "tasks") == \
        "79,100 tasks"
    assert readable_amount(1_196_000, "tasks") == "1.20 million tasks" and readable_amount(5.158, "tasks") == \
        "5.158 tasks"
    # seconds in full digits, hours or days beside them from an hour: never "535 thousand s"
    assert readable_amount(535_197, "s") == "6.2 days (535,000 s)"
    assert readable_amount(7004, "s") == "1.9 hours (7,004 s)"
    assert readable_amount(523.4, "s") == "523.4 s" and readable_amount(9999.7, "s") == "2.8 hours (10,000 s)"
    assert readable_amount(3.2e8, "s") == "10 years (320,000,000 s)"
    assert readable_pair(535_197, 372_000, LOWER) == "6.2 → 4.3 days (535,000 → 372,000 s)"
    assert readable_pair(3000, 7004, LOWER) == "3,000 → 7,004 s (under an hour → 1.9 hours)"
    assert readable_pair(125_000, 199_000, LOWER) == "1.4 → 2.3 days (125,000 → 199,000 s)"  # one unit
    assert readable_pair(5.2, 4.8, Metric("n", "Number in system", "tasks")) == "5.2 → 4.8 tasks"
    assert readable_pair(0.873, 0.9, FRACTION) == "87.3% → 90.0%"
    assert readable(93.4, POINTS) == "93.4%" and readable(12, Metric("n", "Late", "tasks")) == "12 tasks"
    assert amount_text(6.12) == "6.1" and amount_text(9.97) == "10" and amount_text(78.4) == "78"
    assert amount_text(0.012) == "0.012"
    assert listed(["a"]) == "a" and listed(["a", "b"]) == "a and b" and listed("abc") == "a, b and c"


def test_quickstart_lines_name_its_heuristics():
    scenario = hcsched.preset("quickstart")
    results = hcsched.simulate(scenario, trials=3, jobs=1)
    found = scenario_verdicts(scenario, results)
    labels = [h.label for h in scenario.heuristics]
    bars = [m.name for m in hcsched.get_model(scenario.model).bar_metrics()
            if not m.name.startswith("normalized_") and m.better and not m.of]  # utilisation: neither is better
    assert [v.metric for v in found] == bars  # makespan, the headline, is first already; its ratio to the bound is not
    said = [x for x in (found[0].text, found[0].gloss_text, found[0].detail) if x]
    assert verdict_lines(found)[len(said)] == found[0].bound_text  # how far the winner is from the lower bound: next
    assert re.fullmatch(rf"{found[0].best} is \d+\.\d% above the lower bound on average \(95% interval: .*\): its "
                        r"makespan is at most that far from the best possible\.", found[0].bound_text)
    assert not any(v.bound_text for v in found[1:])  # the other metrics have no bound
    for v in found:
        line = f"{v.text} {v.detail}"
        assert v.best in labels and v.other in labels and v.trials == 3
        assert line.rstrip().endswith(".") and v.best in line and v.other in line and "[" not in line
        if scenario.benchmark_label not in (v.best, v.other):  # min-min, the ETC model's default benchmark
            assert v.comparisons[1].other == scenario.benchmark_label and "the benchmark min-min" in line
    assert len(verdicts(results, hcsched.get_model(scenario.model).bar_metrics())) == len(found)


# --- references are never crowned; the headline metric leads -------------------------------------------------------

def test_a_static_benchmark_on_top_is_a_reference_not_the_winner():
    # GA - A: 5 points in every trial; A - B: 2, 2, 1, 3 points (mean 2, sd sqrt(2/3), half-width t(3) sd / 2)
    results = table("p", GA=[95, 96, 94, 95], A=[90, 91, 89, 90], B=[88, 89, 88, 87])
    v = verdict(results, POINTS, references={"GA": "a static benchmark"})
    half = T3_4 * math.sqrt(2 / 3) / 2
    assert (v.best, v.other) == ("A", "B") and (v.lower, v.upper) == pytest.approx((2 - half, 2 + half))
    assert v.text == ("A has the highest value at 90% of the upper bound, 2.0 points above B, the runner-up: a real "
                      "difference (95% interval: 0.7–3.3 points above).")
    (ref,) = v.references
    assert (ref.label, ref.mean, ref.versus.other, ref.versus.difference) == ("GA", 95.0, "A", 5.0)
    assert v.reference_text == ("For reference, not a contender: GA, a static benchmark. It reaches 95% of the upper "
                                "bound, 5.0 points above A (95% interval: 5.0 points above, the "
                                "same in every trial).")  # the interval of a reference's difference is said too
    assert verdict_lines([v]) == [v.text, v.reference_text]
    # without the mark, GA wins: the registry's mark, not the numbers, keeps it out
    assert verdict(results, POINTS).best == "GA"


def test_references_share_one_description_and_a_benchmark_that_is_one_is_not_compared_twice():
    results = table("p", A=[90, 91, 89, 90], GA=[95, 96, 94, 95], TPSA=[90, 91, 89, 90], B=[88, 89, 88, 87])
    refs = {"GA": STATIC_REFERENCE, "TPSA": STATIC_REFERENCE}
    v = verdict(results, POINTS, benchmark="TPSA", references=refs)
    assert v.best == "A" and [c.role for c in v.comparisons] == ["runner-up"]  # TPSA is no contender, nor a benchmark
    assert [r.label for r in v.references] == ["GA", "TPSA"]  # the best reference first
    assert v.reference_text == (f"For reference, not contenders: GA and TPSA, each {STATIC_REFERENCE}. GA reaches 95% "
                                "of the upper "
                                "bound, 5.0 points above A (95% interval: 5.0 points above, the "
                                "same in every trial). TPSA reaches 90%, equal to A in every trial.")  # the unit once
    assert all(word_count(sentence) <= 35 for sentence in v.reference_text.split(". "))


def test_a_references_real_but_small_difference_is_said_small_and_one_not_told_apart_briefly():
    # TPSA - A: 0.03, 0.04, 0.03, 0.04 points over a mean of 90 (under 1%); B - A: 1, -1, 2, -2 (not told apart)
    results = table("p", A=[90, 91, 89, 90], TPSA=[90.03, 91.04, 89.03, 90.04], B=[91, 90, 91, 88])
    refs = {"TPSA": STATIC_REFERENCE, "B": STATIC_REFERENCE}
    v = verdict(results, POINTS, references=refs)
    assert v.reference_text == (f"For reference, not contenders: TPSA and B, each {STATIC_REFERENCE}. TPSA reaches 90% "
                                "of the upper bound, about the same as A. B reaches 90%, "
                                "not told apart from A.")  # "(0.035 points above: real, but ...)" confused a manager


def test_a_winners_lead_that_says_real_always_gives_its_interval_however_long_the_names():
    """The value what-if's run read "slack-sufferage (...) has the highest value at 90.8% of the upper bound, 0.7
    points above the runner-up relative-cost (...): a real difference." with no interval, where every preset's lead
    gave one: the names pushed it out of 35 words. "the runner-up" goes first, then the runner-up's words (said below
    the lead, its label kept in it: the what-if's run read "0.7 points above the runner-up: ..." naming no one), then
    "the runner-up" left out, its label kept."""
    results = table("p", A=[91, 92, 90, 91, 92], B=[88.5, 89.4, 87.6, 88.4, 89.6])  # 2.5 points: over 2% of B's
    long = "a rule in plain words a manager reads"  # 8 words each: the lead cannot hold both
    for names, runner, bare in (({}, "B, the runner-up: a real difference (", ()),
                                ({"A": f"{long} today and"}, "B, the runner-up: a real difference (", ()),
                                ({"A": long, "B": long}, "B, the runner-up: a real difference (", ("B",)),
                                ({"A": f"{long} today and then", "B": long}, "above B: a real difference (", ("B",))):
        v = verdict(results, POINTS, names=names)
        assert runner in v.text and "(95% interval: " in v.text and word_count(v.text) <= 35, v.text
        assert v.bare == bare
        if "B" in names:  # its words below the lead
            assert v.detail.startswith(f"The runner-up is B ({long})."), v.detail


def test_a_reference_equal_in_the_one_trial_so_far_is_said_the_same_not_zero_points_above():
    """"0.0 points above slack-sufferage in the one trial" read as a contradiction."""
    v = verdict(table("p", A=[90.27], B=[89.0], TPSA=[90.27]), POINTS, references={"TPSA": STATIC_REFERENCE})
    assert v.reference_text.endswith("TPSA, an offline search that knows every task in advance, as no live scheduler "
                                     "can. It reaches 90.3% of the upper bound, the same as A in the one trial where "
                                     "both have a value."), \
        v.reference_text
    w = verdict(table("p", A=[90.27], B=[89.0], TPSA=[91.27]), POINTS, references={"TPSA": STATIC_REFERENCE})
    assert "1.0 points above A in the one trial" in w.reference_text


def test_only_references_or_one_heuristic_that_can_run_online():
    results = table("p", GA=[95, 96], TPSA=[93, 92])
    v = verdict(results, POINTS, references={"GA": "a static benchmark", "TPSA": "a static benchmark"})
    assert v.best is None and v.text == ("Highest value, % of the upper bound: no heuristic here "
                                         "can run online, only references.")
    assert v.reference_text == ("For reference, not contenders: GA and TPSA, each a static benchmark. GA "
                                "reaches 95.5% of the upper bound. TPSA reaches 92.5%.")
    nan = verdict(table("p", GA=[95, 96], A=[np.nan, np.nan]), POINTS, references={"GA": "a static benchmark"})
    assert nan.best is None and nan.text == "Highest value, % of the upper bound: no values (every trial is NaN)."
    assert nan.reference_text == "For reference, not a contender: GA, a static benchmark. It reaches 95.5% of the " \
                                 "upper bound."
    w = verdict(table("p", GA=[95, 96], A=[90, 91]), POINTS, references={"GA": "a static benchmark"})
    assert w.best == "A" and w.text == ("Highest value, % of the upper bound: A at 90.5% of the upper bound, the only "
                                        "heuristic that can run online, nothing to compare.")
    assert w.reference_text.startswith("For reference, not a contender: GA, a static "
                                       "benchmark. It reaches 95.5% of the upper bound, 5.0 points")


def test_the_registry_marks_what_cannot_run_online_never_a_name():
    marked = {(m, h.name) for m in hcsched.model_names() for h in hcsched.get_model(m).heuristics if reference_of(h)}
    assert marked == {("value", "ga"), ("value", "tpsa")}  # Kim et al.'s section 5; LP-Static runs online
    # an entry says what it is itself (an upper bound, say): that words it, whatever its title or name
    bound = type("Entry", (), {"title": "Upper bound", "reference": "an upper bound, not a heuristic"})()
    assert reference_of(bound) == "an upper bound, not a heuristic"
    scenario = hcsched.preset("kim-loose-high-heavy")
    assert scenario_references(scenario) == {"tpsa": STATIC_REFERENCE, "ga": STATIC_REFERENCE}
    assert scenario_references(hcsched.preset("alazzoni-B")) == {}


def _made_up(scenario, values: dict[str, list[float]]) -> pd.DataFrame:
    """A results table of ``scenario``'s heuristics with every bar metric: ``values`` for the headline metric, the
    heuristic's position elsewhere."""
    model = hcsched.get_model(scenario.model)
    rows = []
    for t in range(4):
        for i, h in enumerate(scenario.heuristics):
            row = {"trial": t, "heuristic": h.label}
            for m in model.bar_metrics():
                row[m.name] = 10.0 + i + 0.1 * t
            row[headline_metric(model).name] = values[h.label][t]
            rows.append(row)
    return pd.DataFrame(rows)


def test_the_value_preset_crowns_a_heuristic_that_can_run_online():
    """A static benchmark on top is never crowned (not "Highest value, % of the upper bound: ga (91.78%), 2.1 points
    above tpsa"): the lead names the best heuristic that can run online, and GA is said as a reference."""
    scenario = hcsched.preset("kim-loose-high-heavy")
    values = {h.label: [80.0 - i, 81.0 - i, 79.0 - i, 80.0 - i] for i, h in enumerate(scenario.heuristics)}
    values["slack-sufferage"] = [89.5, 90.0, 89.8, 89.7]
    values["ga"], values["tpsa"] = [91.5, 92.0, 91.8, 91.8], [91.0, 91.5, 91.3, 91.2]
    lead = scenario_verdicts(scenario, _made_up(scenario, values))[0]
    assert lead.metric == "value_pct_ub" and lead.best == "slack-sufferage" and lead.other == "max-max"
    assert lead.text.startswith("slack-sufferage (task losing most deadline slack first) has the highest value at "
                                "89.8% of the upper bound, ")  # a percent in three significant digits
    assert "ga" not in lead.text.replace("slack-sufferage", "")
    assert lead.reference_text.startswith("For reference, not contenders: ga (genetic algorithm, static) and tpsa "
                                          f"(two-phase simulated annealing, static), each {STATIC_REFERENCE}. ga "
                                          "reaches 91.8% of the upper bound, 2.0 points above slack-sufferage (95% "
                                          "interval: ")  # how sure, said too


@pytest.mark.parametrize("name, lead", [("quickstart", "makespan"), ("alazzoni-B", "mean_in_system"),
                                        ("page-system-a", "makespan"), ("caniou-mu10", "makespan"),
                                        ("kim-loose-high-heavy", "value_pct_ub")])
def test_each_models_headline_metric_leads(name, lead):
    scenario = hcsched.preset(name)
    model = hcsched.get_model(scenario.model)
    assert headline_metric(model).name == lead
    values = {h.label: [5.0 + i] * 4 for i, h in enumerate(scenario.heuristics)}
    found = scenario_verdicts(scenario, _made_up(scenario, values))
    names = [m.name for m in model.bar_metrics()]
    assert found[0].metric == lead and sorted(v.metric for v in found) == sorted(
        m.name for m in headline_metrics(model.bar_metrics(), names) if m.better)


# --- the demo's second pass: a group with no clear winner, plain names once --------------------------------------
def test_no_clear_winner_names_the_whole_group_not_told_apart_and_not_the_rest():
    """A, B and C swap places from trial to trial (paired intervals straddle zero); D is worse in every trial: the
    sentence names A, B and C together, and D not at all."""
    results = table("x", A=[100, 110, 90, 100], B=[110, 90, 100, 102], C=[90, 112, 104, 99], D=[150, 160, 155, 150])
    v = verdict(results, LOWER)
    assert v.best == "A" and [t.other for t in v.tied] == ["B", "C"]
    assert v.text == "No clear winner on makespan: A at 100 s, B at 100.5 s and C at 101.2 s are too close to call."
    assert v.detail == ("The order swings from trial to trial: A, the lowest on average, is not reliably ahead of "
                        "any of the other 2.")  # why first (a tryout asked why a spread is no clear winner), in
    # plain words (another read "the 95% interval of A against each runs from better to worse" as jargon)


def test_a_large_group_is_counted_with_its_best_average_the_benchmark_and_the_ones_clearly_worse():
    """Seven heuristics, each the same four values in another order (plus 0.1 per place): all but E (A's own order,
    0.4 worse in every trial) are not told apart from A: counted, with the best average and the one clearly worse
    named (a manager asks which), the benchmark among them said below."""
    base = [100, 104, 96, 100]
    values = {name: [x + 0.1 * k for x in base[k % 4:] + base[:k % 4]] for k, name in enumerate("ABCDEFG")}
    v = verdict(table("x", **values), LOWER, benchmark="G")
    assert [t.other for t in v.tied] == ["B", "C", "D", "F", "G"]
    # the group counted and the few clearly worse named: the answer first (a manager asked which two were worse)
    assert v.text == ("No clear winner on makespan: 6 of the 7 heuristics tie, averaging 100–100.6 s, the benchmark G "
                      "at 100.6 s among them; only E is clearly worse.")  # how far apart the six are: a number
    assert v.detail.startswith("A has the lowest average, 100 s (95% interval: 94.8–105.2 s). ")
    many = {**values, **{h: [x + d for x in values["A"]] for h, d in (("H", 50), ("I", 60), ("J", 70))}}
    # four clearly worse (E, H, I, J): counted, with the lowest average and its interval
    assert verdict(table("x", **many), LOWER, benchmark="G").text.startswith("No clear winner on makespan: A has the "
                                                                            "lowest average, ")
    lo, hi = mean_ci(np.array(values["A"]))[1:]
    assert f"{lo:.1f}–{hi:.1f} s" == "94.8–105.2 s"  # the 95% interval of A's mean, in every lead of a group
    assert "The benchmark G" not in v.detail  # said in the lead, where it fits


def test_each_heuristic_is_named_in_plain_words_where_first_mentioned_and_only_there():
    lines = ["kpb (kbar=1) beats kpb and mp-load; kpb (kbar=1) again", "mp ahead of mp-load; min-min"]
    names = {"kpb (kbar=1)": "K-percent best; kbar=1", "kpb": "K-percent best", "mp": "Min perturbation",
             "mp-load": "Min perturbation, load", "min-min": "Min-min"}
    assert named_once(lines, names) == [
        "kpb (K-percent best; kbar=1) beats kpb (K-percent best) and mp-load (Min "
        "perturbation, load); kpb (kbar=1) again",
        "mp (Min perturbation) ahead of mp-load; min-min"]  # Min-min is its label already
    assert plain_name("Genetic algorithm (static)") == "Genetic algorithm, static"  # no parentheses nest
    long_title = "K-percent best; kbar = 1: number of machines in the subset (k-bar); overrides k"
    assert plain_name(long_title) == "K-percent best"


def test_the_presets_lead_sentence_names_its_heuristics_in_words():
    scenario = hcsched.preset("alazzoni-B")
    lead = scenario_verdicts(scenario, hcsched.simulate(scenario, trials=3, jobs=1))[0]
    assert ("lpas (earliest finish among its class's machines)" in lead.text
            and "kpb (each class's fastest machine)" in lead.text)  # its kbar=1 in words


def test_a_runner_up_that_is_the_benchmark_is_said_to_be():
    results = table("x", A=[90, 190, 285, 270], B=[100, 200, 300, 300], C=[120, 220, 330, 330])
    assert "7.5% below B, the runner-up and the benchmark: a real difference" in \
        verdict(results, LOWER, benchmark="B").text
    assert "A is 18% below the benchmark C" in verdict(results, LOWER, benchmark="C").text  # where it fits
    long = verdict(results, LOWER, benchmark="C", names={"A": "a heuristic with a long name in words"})
    assert "benchmark" not in long.text and "the benchmark C" in long.detail  # else below the lead


def test_a_trade_off_is_said_under_the_lead_not_only_folded():
    """The lead's winner loses another metric, for real: one line says so; a metric it also wins, or one where the
    other's lead is not told apart, says nothing."""
    x = table("x", A=[90, 190, 285, 270], B=[100, 200, 300, 300])
    y = table("y", A=[10, 20, 30, 30], B=[5, 9, 14, 15])  # B keeps tasks waiting half as long in every trial
    found = [verdict(x, LOWER), verdict(y, Metric("y", "Mean flow time (s)", "s", "lower", bar=True))]
    assert trade_off(found) == "But B has the lowest mean flow time at 10.75 s."
    assert trade_off(found[:1]) == "" and trade_off([]) == ""
    tied = table("y", A=[10, 20, 30, 30], B=[11, 19, 31, 29])
    assert trade_off([found[0], verdict(tied, HIGHER)]) == ""


# --- the demo's third pass: leads of at most 35 words, the rest below; a run in progress ---------------------------

def test_a_lead_too_long_for_35_words_says_the_rest_below_it():
    """Long names in words: the benchmark's clause, then "the runner-up", move below the lead; never the interval of a
    lead that says "real"."""
    results = table("x", A=[90, 190, 285, 270], B=[100, 200, 300, 300], C=[120, 240, 360, 360])
    names = {"A": "the first heuristic with a long name of words", "B": "the second heuristic with a long name",
             "C": "a benchmark"}
    v = verdict(results, LOWER, benchmark="C", names=names)
    assert v.text == ("A (the first heuristic with a long name of words) has the lowest makespan at 208.8 s, 7.5% "
                      "below B (the second heuristic with a long name): a real difference (95% interval: 2.9–12.1% "
                      "below).")
    assert v.detail == ("A is 23% below the benchmark C (a benchmark): a real difference (95% interval: 19–27% "
                        "below).")
    assert v.lines == [v.text, v.detail] and word_count(v.text) <= LEAD_WORDS


def test_a_close_race_that_beats_the_benchmark_says_so_first():
    """A and B swap places from trial to trial, and both beat the benchmark C by about 10% in every trial: the lead
    says that first, then that the two are not told apart; their averages and intervals below."""
    results = table("x", A=[90, 99, 81, 90], B=[91, 98, 82, 89.5], C=[100, 110, 90, 100])
    v = verdict(results, LOWER, benchmark="C")
    assert [h for h, _ in v.group_benchmark] == ["A", "B"] and all(c.told_apart for _, c in v.group_benchmark)
    assert v.text == ("A and B tie for the lowest makespan at 90 s, both about 9.9% below the benchmark C: real "
                      "differences (95% intervals: each within 8.2–11.5% below).")  # one size for two within 5% of each
    # other; "9.8% to 10%" read as an interval; the span holds both of theirs (A: 10% below in every trial, B: 8.2-11%)
    assert _sizes([-5.3, -8.8, -7.0], "percent") == "between 5.3% and 8.8%"
    assert v.detail == ("A averages 90 s and B 90.12 s; per trial, the 95% interval puts A between 2.0% below and 1.6% "
                        "above B. Against the benchmark C, 95% intervals: A 10% below, the same in every trial; B "
                        "8.2–11.5% below.")
    # the benchmark in the close race itself: no such lead
    assert not verdict(results, LOWER, benchmark="B").group_benchmark


def test_the_headline_is_the_lead_then_what_folds_below_it():
    x = table("x", A=[90, 190, 285, 270], B=[100, 200, 300, 300], C=[120, 240, 360, 360])
    y = table("y", A=[10, 20, 30, 30], B=[5, 9, 14, 15], C=[11, 21, 31, 31])
    names = {"A": "first", "B": "second", "C": "third"}
    found = [verdict(x, LOWER, benchmark="C", names=names),
             verdict(y, Metric("y", "Mean flow time (s)", "s", "lower", bar=True), names=names)]
    said = headline(found)
    assert said.lead == found[0].text
    assert said.rest == (found[0].detail, "But B has the lowest mean flow time at 10.75 s.")
    assert said.others == tuple(found[1].lines) and found[1].text.startswith("B (second) has the lowest mean flow")
    assert headline([]) == Headline("", (), ())
    # a heuristic the lead does not name is named in words in the trade-off
    z = verdict(table("y", A=[10, 20, 30, 30], B=[11, 21, 31, 31], C=[5, 9, 14, 15]),
                Metric("y", "Mean flow time (s)", "s", "lower", bar=True), names=names)
    assert trade_off([verdict(x.query("heuristic != 'C'"), LOWER, names=names), z]) == \
        "But C (third) has the lowest mean flow time at 10.75 s."


def test_a_run_in_progress_says_so_far_and_whether_it_is_settled():
    clear = table("x", A=[90, 190, 285, 270], B=[100, 200, 300, 300])
    assert progress_lead([verdict(clear, LOWER, names={"A": "first"})], 4, 50, "trial") == (
        "So far, 4 of 50 trials: A (first) has the lowest makespan, 7.5% below B; already clear after 4 trials.")
    open_ = table("x", A=[90, 110, 95, 100], B=[100, 100, 100, 100])
    assert progress_lead([verdict(open_, LOWER)], 4, 30, "replication") == (
        "So far, 4 of 30 replications: A and B lead on makespan; the two are still too close to call.")
    # none crowned while the trials cannot tell: named in the order of their labels, whichever averages less
    flipped = table("x", A=[100, 100, 100, 100], B=[90, 110, 95, 100])
    assert progress_lead([verdict(flipped, LOWER)], 4, 30, "trial") == progress_lead([verdict(open_, LOWER)], 4, 30,
                                                                                     "trial")
    three = table("x", A=[100, 110, 90, 100], B=[110, 90, 100, 102], C=[90, 112, 104, 99])
    assert progress_lead([verdict(three, LOWER)], 4, 8, "trial") == (
        "So far, 4 of 8 trials: A, B and C lead on makespan; the three are still too close to call.")
    four = table("x", A=[100, 110, 90, 100], B=[110, 90, 100, 102], C=[90, 112, 104, 99], D=[95, 105, 98, 101])
    assert progress_lead([verdict(four, LOWER)], 4, 8, "trial") == (
        "So far, 4 of 8 trials: no leader yet on makespan; 4 heuristics are still too close to call.")
    assert progress_lead([verdict(table("x", A=[90], B=[100]), LOWER)], 1, 8, "trial") == (
        "So far, 1 of 8 trials: A leads on makespan at 90 s; still open: too few trials to tell.")
    disagree = table("x", A=[10] * 20 + [1000], B=[11] * 20 + [900])
    assert "still open: the averages and the trials disagree." in progress_lead([verdict(disagree, LOWER)], 21, 50,
                                                                                  "trial")
    assert progress_lead([verdict(table("x", A=[np.nan], B=[np.nan]), LOWER)], 1, 8, "trial") == (
        "So far, 1 of 8 trials. Lowest makespan: no values (every trial is NaN).")
    assert progress_lead([], 0, 8, "trial") == "So far, 0 of 8 trials: nothing to rank yet."
    # long names: (names of a plug-in's length) the names' words go, so that it stays in 35 words
    long = {"A": "a heuristic with a long name of words", "B": "another heuristic with a long name"}
    said = progress_lead([verdict(open_, LOWER, names=long)], 4, 30, "trial")
    assert said == ("So far, 4 of 30 trials: A (a heuristic with a long name of words) and B (another heuristic with a "
                    "long name) lead on makespan; the two are still too close to call.")
    longer = {label: f"{name} and more words" for label, name in long.items()}
    assert progress_lead([verdict(open_, LOWER, names=longer)], 4, 30, "trial") == (
        "So far, 4 of 30 trials: A and B lead on makespan; the two are still too close to call.")


def test_a_label_named_once_is_found_in_its_named_form_and_not_named_again():
    names = {"kpb (kbar=1)": "K-percent best; kbar=1", "mp": "Min perturbation", "lpas-2k": "LPAS-2/k"}
    lines = ["kpb (K-percent best; kbar=1) leads", "But kpb (kbar=1) and mp and lpas-2k win."]
    assert named_once(lines, names) == ["kpb (K-percent best; kbar=1) leads",
                                        "But kpb (kbar=1) and mp (Min perturbation) and lpas-2k win."]


def test_a_time_window_is_said_to_three_significant_digits_with_its_unit():
    """A Gantt download was labelled "time window 0.0024087-5.27241"."""
    assert time_window_text(0.0024087, 5.27241, "time units") == "0.00241 to 5.27 time units"
    assert time_window_text(1.79702, 1971.8, "s") == "1.8 to 1,970 s"
    assert time_window_text(3458.0, 724_590.0, "s") == "3,460 to 725,000 s"  # written out, never "725k s"
    assert time_window_text(1_234_100, 1_234_900, "s") == "1,234,000 to 1,235,000 s"  # never two ends alike


def test_a_percent_of_tasks_is_said_as_their_share():
    """During a time-shared run: "But mp has the highest tasks finishing sooner at 58.26%", not English."""
    results = table("p", A=[92, 91, 93, 92], B=[90, 89, 90, 91])
    results["pct_sooner"] = table("pct_sooner", A=[40, 41, 42, 40], B=[60, 58, 59, 61])["pct_sooner"]
    model = hcsched.get_model("timeshared")
    lead = verdict(results, POINTS)
    sooner = verdict(results, model.metric("pct_sooner"))
    assert sooner.best == "B" and sooner.separated
    assert trade_off([lead, sooner]) == "But B has the highest share of tasks finishing sooner at 59.5%."


def test_a_real_lead_of_one_to_two_percent_is_said_small_under_one_percent_tiny():
    """A tryout read sufferage's 1.3% lead, "a real difference", as a big win: a real lead under 2% of the runner-up's
    value is "real, but small", under 1% "real, but tiny", and 2% or more "a real difference" (per-trial ratios
    hand-computed: every trial the same, so each interval is one point)."""
    said = {}
    for gap in (0.995, 0.985, 0.97):  # A's makespan 0.5%, 1.5% and 3% below B's in every trial
        b = [100.0, 200.0, 300.0, 400.0]
        v = verdict(table("x", A=[gap * x for x in b], B=b), LOWER)
        assert v.separated and v.difference == pytest.approx(100 * (gap - 1))
        said[gap] = v.text.split("the runner-up: ")[1].split(" (")[0]
    assert said == {0.995: "real, but tiny", 0.985: "real, but small", 0.97: "a real difference"}, said
