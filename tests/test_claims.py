"""The claims' checks on hand-made results: a verdict follows the numbers, never a constant; and the contract every
model's registry keeps."""

import re

import numpy as np
import pandas as pd
import pytest

import hcsched
from hcsched.claims import (
    DEFINITION,
    DETAILS,
    FAILS,
    HOLDS,
    LEAD,
    MEANING,
    PARTLY,
    VERDICTS,
    AllOf,
    Best,
    Better,
    Claim,
    Close,
    Custom,
    Order,
    Outcome,
    Ratio,
    Reading,
    Region,
    Trend,
    Value,
    column,
    interval_text,
    judge,
    paired,
    rival,
    weakest,
    weakest_of,
    wide,
)
from hcsched.errors import HcschedError
from hcsched.models import get_model
from hcsched.report import changed_verdicts, verdict_changes
from hcsched.reproduce import registry, reproduce, variants

LOWER = {"makespan": "lower", "value": "higher"}


def table(**columns) -> pd.DataFrame:
    """One row per trial and heuristic from per-heuristic lists of makespans."""
    rows = [{"trial": t, "heuristic": h, "makespan": float(v)} for h, values in columns.items()
            for t, v in enumerate(values)]
    return pd.DataFrame(rows)


A_BEATS_B = table(a=[90, 95, 80, 88, 92], b=[100, 100, 100, 100, 100])
B_BEATS_A = table(a=[100, 100, 100, 100, 100], b=[90, 95, 80, 88, 92])
NOISY = table(a=[90, 110, 95, 105, 100], b=[100, 100, 100, 100, 100])


def test_paired_differences_are_percent_of_the_other_or_points():
    a, b = pd.Series([90.0, 110.0, np.nan]), pd.Series([100.0, 100.0, 100.0])
    assert paired(a, b, points=False).tolist() == [-10.0, 10.0]
    assert paired(a, b, points=True).tolist() == [-10.0, 10.0]
    assert paired(pd.Series([1.0]), pd.Series([0.0]), points=False).size == 0  # no percent of zero


def test_better_holds_when_the_paired_interval_clears_zero_and_not_when_reversed():
    check = Better("a", "b", "makespan")
    out = check.evaluate(A_BEATS_B, LOWER)
    assert out.verdict == HOLDS and out.value == pytest.approx(-11.0) and out.share == 1.0 and out.upper < 0
    assert check.evaluate(B_BEATS_A, LOWER).verdict == FAILS
    noisy = check.evaluate(NOISY, LOWER)
    assert noisy.verdict == FAILS and noisy.value == 0.0  # a mean of exactly zero is not "better"
    slightly = check.evaluate(table(a=[90, 112, 95, 104, 98], b=[100] * 5), LOWER)
    assert slightly.verdict == PARTLY and slightly.lower < 0 < slightly.upper  # the mean is on the better side only


def test_better_with_a_margin_and_a_higher_is_better_metric():
    assert Better("a", "b", "makespan", by=3).evaluate(A_BEATS_B, LOWER).verdict == HOLDS  # [4.0%, 18%] better, > 3%
    assert Better("a", "b", "makespan", by=10).evaluate(A_BEATS_B, LOWER).verdict == PARTLY  # 11% by mean, not [4, 18]
    assert Better("a", "b", "makespan", by=15).evaluate(A_BEATS_B, LOWER).verdict == FAILS  # 11% is short of 15%
    higher = {"makespan": "higher"}  # the same numbers where higher is better: b wins
    assert Better("a", "b", "makespan").evaluate(A_BEATS_B, higher).verdict == FAILS
    assert Better("b", "a", "makespan").evaluate(A_BEATS_B, higher).verdict == HOLDS
    with pytest.raises(HcschedError, match="lower or higher"):
        Better("a", "b", "makespan").evaluate(A_BEATS_B, {"makespan": ""})


def test_best_and_worst():
    results = table(a=[90, 95, 80, 88, 92], b=[100] * 5, c=[150, 140, 160, 155, 145])
    assert Best("a", "makespan").evaluate(results, LOWER).verdict == HOLDS
    assert Best("b", "makespan").evaluate(results, LOWER).verdict == FAILS  # second, and told apart from the first
    assert Best("c", "makespan", worst=True).evaluate(results, LOWER).verdict == HOLDS
    assert Best("a", "makespan", worst=True).evaluate(results, LOWER).verdict == FAILS
    tie = table(a=[90, 108, 95, 105, 100], b=[100] * 5, c=[150] * 5)  # a first by mean (99.6), not told apart from b
    out = Best("a", "makespan").evaluate(tie, LOWER)
    assert out.verdict == PARTLY and out.lower < 0 < out.value and out.claimed == (0.0, np.inf)
    assert Best("b", "makespan").evaluate(tie, LOWER).verdict == FAILS  # second by mean: the mean is not ahead
    exact = table(a=[90, 110, 95, 105, 100], b=[100] * 5, c=[150] * 5)  # a level with b: a lead of 0 is no lead
    assert Best("a", "makespan").evaluate(exact, LOWER).verdict == FAILS
    among = Best("b", "makespan", among=("b", "c")).evaluate(results, LOWER)
    assert among.verdict == HOLDS and [s[0] for s in among.series] == ["b", "c"]


def test_order_counts_neighbouring_pairs():
    results = table(a=[90, 95, 80, 88, 92], b=[100] * 5, c=[150, 140, 160, 155, 145])
    assert Order(("a", "b", "c"), "makespan").evaluate(results, LOWER).verdict == HOLDS
    assert Order(("c", "b", "a"), "makespan").evaluate(results, LOWER).verdict == FAILS
    half = Order(("b", "a", "c"), "makespan").evaluate(results, LOWER)
    assert half.verdict == FAILS and half.value == 50.0  # one pair out of order by mean: the weakest part decides
    close = table(a=[90, 108, 95, 105, 100], b=[100] * 5, c=[150, 140, 160, 155, 145])
    partly = Order(("a", "b", "c"), "makespan").evaluate(close, LOWER)
    assert partly.verdict == PARTLY and partly.value == 100.0  # every pair in order by mean, a-b not told apart


def test_value_against_a_printed_number_and_a_bound():
    results = table(a=[100, 102, 98, 101, 99])  # 100 [98.04, 101.96]
    assert Value("makespan", "a", paper=102, tolerance=0.05).evaluate(results, LOWER).verdict == HOLDS  # [96.9, 107.1]
    assert Value("makespan", "a", paper=104, tolerance=0.05).evaluate(results, LOWER).verdict == PARTLY  # from 98.8
    assert Value("makespan", "a", paper=109, tolerance=0.05).evaluate(results, LOWER).verdict == FAILS  # 8.3% off
    assert Value("makespan", "a", paper=130, tolerance=0.05).evaluate(results, LOWER).verdict == FAILS
    assert Value("makespan", "a", paper=101.5, tolerance=0.0).evaluate(results, LOWER).verdict == FAILS  # in our
    # interval, but the claim puts the mean at 101.5 exactly
    assert Value("makespan", "a", at_least=90).evaluate(results, LOWER).verdict == HOLDS
    # the mean is, the interval not
    assert Value("makespan", "a", at_least=100).evaluate(results, LOWER).verdict == PARTLY
    assert Value("makespan", "a", at_most=95).evaluate(results, LOWER).verdict == FAILS
    assert Value("makespan", paper=100).evaluate(table(a=[100] * 3, b=[100] * 3), LOWER).verdict == HOLDS  # every row


def test_trend_along_a_sweep():
    rows = []
    for rate, scale in ((1, 1.0), (2, 1.5), (3, 2.0)):
        part = table(a=[100 * scale + d for d in (0, 3, -2, 1)], b=[100.0] * 4)
        rows.append(part.assign(rate=rate))
    results = pd.concat(rows, ignore_index=True)
    assert Trend("makespan", "a", "rate").evaluate(results, LOWER).verdict == HOLDS
    assert Trend("makespan", "a", "rate", rising=False).evaluate(results, LOWER).verdict == FAILS
    assert Trend("makespan", "b", "rate", flat=True).evaluate(results, LOWER).verdict == HOLDS
    gap = Trend("makespan", "a", "rate", versus="b").evaluate(results, LOWER)
    assert gap.verdict == HOLDS and gap.value == pytest.approx(100.0)  # from 0.5% to 100.5% above b


def test_claim_ids_and_readings_are_checked():
    check = Better("a", "b", "makespan")
    with pytest.raises(HcschedError, match="lower-case"):
        Claim("Bad Id", "etc", "Fig. 1", "x", "quickstart", check)
    with pytest.raises(HcschedError, match="distinct"):
        Claim("ok-id", "etc", "Fig. 1", "x", "quickstart", check, readings=(Reading("literal", {}),))
    other = Better("b", "a", "makespan")
    claim = Claim("ok-id", "etc", "Fig. 1", "x", "quickstart", check, changes={"machines": 4},
                  readings=(Reading("more", {"tasks": 9}), Reading("measured", {}, check=other)))
    assert claim.variants() == (("literal", {"machines": 4}, check), ("more", {"machines": 4, "tasks": 9}, check),
                                ("measured", {"machines": 4}, other))


def test_value_with_a_weaker_bound_for_partly():
    results = table(a=[5, 6, 4, 5, 5])  # mean 5, well below 7
    assert Value("makespan", "a", at_least=7).evaluate(results, LOWER).verdict == FAILS
    weak = Value("makespan", "a", at_least=7, partly=1).evaluate(results, LOWER)
    assert weak.verdict == FAILS and "beyond 1, the weaker reading" in weak.detail  # said, not a verdict
    assert Value("makespan", "a", at_least=7, partly=6).evaluate(results, LOWER).verdict == FAILS
    assert Value("makespan", "a", at_least=3, partly=1).evaluate(results, LOWER).verdict == HOLDS


def test_wide_and_column_name_what_is_missing():
    results = table(a=[1, 2], b=[3, 4])
    assert wide(results, "makespan").loc[1].tolist() == [2.0, 4.0]
    assert column(wide(results, "makespan"), "b").tolist() == [3.0, 4.0]
    with pytest.raises(HcschedError, match="no heuristic 'c' in the results; there are: a, b"):
        column(wide(results, "makespan"), "c")
    with pytest.raises(HcschedError, match="no column 'flow'"):
        wide(results, "flow")


def test_ratio_of_two_heuristics_against_a_bound_and_the_papers_number():
    far = table(a=[300, 310, 290, 305], b=[100] * 4)
    check = Ratio("a", "b", "makespan", at_least=2.0)
    out = check.evaluate(far, LOWER)
    assert out.verdict == HOLDS and out.value == pytest.approx(3.0125) and out.unit == "x" and out.share == 1.0
    assert [row[0] for row in out.series] == ["a", "b"] and out.series[1][1] == 100.0  # the two groups compared
    assert check.evaluate(table(a=[150, 160, 140, 155], b=[100] * 4), LOWER).verdict == FAILS
    half = Ratio("a", "b", "makespan", paper=0.5, tolerance=0.2)
    assert half.evaluate(table(a=[50, 52, 49, 51], b=[100] * 4), LOWER).verdict == HOLDS
    assert half.evaluate(table(a=[59, 60, 58, 59], b=[100] * 4), LOWER).verdict == PARTLY  # 0.59, up to 0.601
    assert half.evaluate(table(a=[65, 66, 64, 65], b=[100] * 4), LOWER).verdict == FAILS  # 30% off: beyond 20%
    assert half.evaluate(table(a=[100, 101, 99, 102], b=[100] * 4), LOWER).verdict == FAILS
    assert check.heuristics() == ("a", "b") and check.describe() == "makespan of a / b, per trial, at least 2"
    at_most = Ratio("a", "b", "makespan", at_most=1.2).evaluate(table(a=[110, 112, 108, 110], b=[100] * 4), LOWER)
    assert at_most.verdict == HOLDS


def test_ratio_between_two_points_of_a_sweep_for_one_heuristic():
    rows = [table(a=[10 * k + d for d in (0, 1, -1, 2)], b=[6.0 - k + d for d in (0, 0.1, 0.2, 0)]).assign(k=k)
            for k in (1, 5)]
    results = pd.concat(rows, ignore_index=True)
    check = Ratio(5, 1, "makespan", by="k", heuristic="a", at_least=7.0, partly=1.0)
    out = check.evaluate(results, LOWER)  # about 4.9x: below 7 (the direction, above 1, is said, not judged)
    assert out.verdict == FAILS and out.value == pytest.approx(np.mean([50 / 10, 51 / 11, 49 / 9, 52 / 12]))
    assert "beyond 1, the weaker reading" in out.detail
    assert Ratio(5, 1, "makespan", by="k", heuristic="a", at_least=3.0).evaluate(results, LOWER).verdict == HOLDS
    assert Ratio(5, 1, "makespan", by="k", heuristic="a", at_least=7.0).evaluate(results, LOWER).verdict == FAILS
    assert check.heuristics() == ("a",) and [row[0] for row in out.series] == ["k 5", "k 1"]
    b_only = Ratio(5, 1, "makespan", by="k", heuristic="b", at_least=7.0, partly=1.0).evaluate(results, LOWER)
    assert b_only.verdict == FAILS and b_only.value < 1.0  # b falls with k: not even the direction
    with pytest.raises(HcschedError, match="no k = 3"):
        Ratio(3, 1, "makespan", by="k", heuristic="a", at_least=1.0).evaluate(results, LOWER)
    with pytest.raises(HcschedError, match="no swept column 'rate'"):
        Ratio(3, 1, "makespan", by="rate", heuristic="a", at_least=1.0).evaluate(results, LOWER)
    with pytest.raises(HcschedError, match="one of paper, at_least or at_most"):
        Ratio("a", "b", "makespan").evaluate(results, LOWER)


def test_ratio_leaves_out_trials_where_it_is_not_finite():
    results = table(a=[200, 210, 5, 190], b=[100, 100, 0, 100])
    ratio = Ratio("a", "b", "makespan", at_least=1.5)
    assert ratio.values(results).index.tolist() == [0, 1, 3]
    out = ratio.evaluate(results, LOWER)
    assert out.verdict == HOLDS and out.value == pytest.approx(2.0) and "over 3 trials" in out.detail


def test_close_holds_when_the_interval_is_within_partly_when_the_mean_is():
    check = Close("a", "b", "makespan", within=10.0)
    out = check.evaluate(table(a=[101, 99, 102, 98, 100], b=[100] * 5), LOWER)
    assert out.verdict == HOLDS and out.value == pytest.approx(0.0) and out.share == 1.0 and out.unit == "%"
    wobbly = check.evaluate(table(a=[80, 125, 90, 120, 110], b=[100] * 5), LOWER)
    # the mean within, not the interval
    assert wobbly.verdict == PARTLY and abs(wobbly.value) <= 10 and wobbly.upper > 10
    assert check.evaluate(table(a=[130, 131, 129, 130, 132], b=[100] * 5), LOWER).verdict == FAILS
    points = Close("a", "b", "makespan", within=3.0, points=True).evaluate(table(a=[51, 52, 50, 51], b=[50] * 4), LOWER)
    assert points.verdict == HOLDS and points.unit == "points" and points.value == pytest.approx(1.0)
    assert Close("a", "b", "makespan", within=0.5, points=True).evaluate(table(a=[51, 52, 50, 51], b=[50] * 4),
                                                                         LOWER).verdict == FAILS


def test_all_of_the_weakest_part_decides_and_every_part_is_kept():
    results = table(w=[500, 510, 490, 505], a=[100] * 4, b=[120] * 4)
    check = AllOf(Ratio("w", "a", "makespan", at_least=2.0), Ratio("w", "b", "makespan", at_least=2.0),
                  text="w far worst")
    assert check.evaluate(results, LOWER).verdict == HOLDS and check.describe() == "w far worst"
    out = check.evaluate(table(w=[500, 510, 490, 505], a=[100] * 4, b=[400] * 4), LOWER)
    assert out.verdict == FAILS and out.value == pytest.approx(1.253125)  # the failing part's number
    assert out.detail.count("w / a") == 1 and out.detail.count("w / b") == 1  # both parts' details
    assert [row[0] for row in out.series] == ["w", "a", "b"]  # concatenated, w shown once
    assert check.heuristics() == ("w", "a", "b") and check.metrics() == ("makespan",)
    mixed = AllOf(Better("a", "b", "makespan"), Value("makespan", "a", at_most=99.0))  # holds, holds partly
    assert mixed.evaluate(table(a=[90, 95, 110, 100], b=[120] * 4), LOWER).verdict == PARTLY
    with pytest.raises(HcschedError, match="at least one check"):
        AllOf()


def test_weakest_is_the_first_of_the_lowest_verdicts():
    def o(verdict):
        return Outcome(verdict, 0.0, 0.0, 0.0, "", 0.0, "")
    assert weakest([o(HOLDS), o(PARTLY), o(PARTLY)]) == 1
    assert weakest([o(HOLDS), o(PARTLY), o(FAILS)]) == 2
    assert weakest([o(HOLDS), o(HOLDS)]) == 0


def test_trend_says_its_unit():
    rows = [table(a=[100 * s + d for d in (0, 3, -2, 1)], b=[100.0] * 4).assign(rate=r)
            for r, s in ((1, 1.0), (2, 2.0))]
    results = pd.concat(rows, ignore_index=True)
    assert Trend("makespan", "a", "rate").evaluate(results, LOWER).unit == ""
    assert Trend("makespan", "a", "rate", versus="b").evaluate(results, LOWER).unit == "%"
    assert Trend("makespan", "a", "rate", versus="b", points=True).evaluate(results, LOWER).unit == "points"


def test_custom_reads_its_columns():
    def fn(results, better):
        return Outcome(HOLDS, 0.0, 0.0, 0.0, "", 0.0, "")
    assert Custom("makespan", fn, "x").metrics() == ("makespan",)
    assert Custom("a", fn, "x", reads=("a", "b")).metrics() == ("a", "b")


# --- the verdicts' definition, at its edges ---------------------------------------------------------------------
# "1 within 5%": the claim puts the ratio in [0.95, 1.05]
ABOUT_1 = Ratio("a", "b", "makespan", paper=1.0, tolerance=0.05)


def test_the_definition_names_each_verdict_once_with_its_meaning():
    for verdict in VERDICTS:
        assert DEFINITION.count(f"**{verdict}**") == 1 and MEANING[verdict] in DEFINITION
    assert "one trial" in DEFINITION and "weakest part" in DEFINITION


def test_the_definitions_lead_is_two_sentences_naming_every_verdict_and_the_rest_follows_it():
    """A page shows LEAD first and folds DETAILS: together they are DEFINITION, word for word."""
    assert DEFINITION == f"{LEAD} {DETAILS}"
    assert len(re.findall(r"[.!?](?=\s|$)", LEAD)) == 2 and len(LEAD.split()) <= 60
    for verdict in VERDICTS:
        assert LEAD.count(f"**{verdict}**") == 1 and MEANING[verdict] in LEAD and f"**{verdict}**" not in DETAILS
    assert DETAILS.startswith("Where the claim puts the number:") and "weakest part" in DETAILS


def test_a_claims_note_of_each_reading():
    claim = Claim("c", "etc", "Fig. 1", "a beats b", "quickstart", Better("a", "b", "makespan"), note="literal note",
                  readings=(Reading("other", {"tasks": 10}, "other note"), Reading("bare", {"tasks": 20})))
    assert [claim.note_of(name) for name in ("literal", "other", "bare", "none")] == ["literal note", "other note",
                                                                                       "", ""]


def test_a_reruns_verdicts_against_the_earlier_ones_each_in_one_line():
    """Unchanged, changed (with both numbers) and new, in the rerun's order; changed_verdicts keeps its own form."""
    def rows(*cells):
        return pd.DataFrame([{"id": i, "reading": r, "verdict": v, "ours": x, "ours_lower": x - 1, "ours_upper": x + 1,
                              "unit": "%", "trials": 5} for i, r, v, x in cells])

    before = rows(("a", "literal", HOLDS, 5.0), ("b", "literal", PARTLY, 1.0), ("b", "wide", FAILS, -2.0))
    now = rows(("b", "wide", FAILS, -3.0), ("b", "literal", HOLDS, 4.0), ("c", "literal", FAILS, 0.0))
    assert [c.line() for c in verdict_changes(before, now)] == [
        "Claim b (wide): does not hold (unchanged)",
        "Claim b: was 'holds partly', now 'holds' (hcsched's number was 1% [0, 2], is 4% [3, 5])",
        "Claim c: does not hold (new: no verdict before)"]
    assert [c.changed for c in verdict_changes(before, now)] == [False, True, False]
    assert changed_verdicts(before, now) == ["b: holds partly -> holds (hcsched's number was 1% [0, 2], is 4% [3, 5])"]
    assert verdict_changes(before.iloc[0:0], now)[0].verdict_text() == "does not hold (new: no verdict before)"


def test_the_definition_says_how_claims_of_several_parts_and_flags_are_judged():
    for words in ("at every point of a sweep", "a peak, its height and its place", "each neighbouring pair",
                  '"not better"', "yes/no flag"):
        assert words in DEFINITION, words


def test_weakest_of_keeps_the_weakest_parts_number_and_region():
    parts = [Value("makespan", "a", at_least=80).evaluate(A_BEATS_B, LOWER),
             Value("makespan", "a", at_least=89).evaluate(A_BEATS_B, LOWER),
             Value("makespan", "a", at_most=80).evaluate(A_BEATS_B, LOWER)]
    assert [o.verdict for o in parts] == [HOLDS, PARTLY, FAILS]
    out = weakest_of(parts, detail="all three")
    assert out.verdict == FAILS and out.claimed == (-np.inf, 80.0) and out.detail == "all three"
    assert weakest_of(parts[:2]).claimed == (89.0, np.inf)
    with pytest.raises(HcschedError, match="at least one part"):
        weakest_of([])


def test_rival_is_the_runner_up_of_the_first_and_the_first_of_the_others():
    means = {"a": 3.0, "b": 1.0, "c": 2.0}
    assert rival(means, "a") == (["a", "c", "b"], "c") and rival(means, "b") == (["a", "c", "b"], "a")
    assert rival(means, "b", -1.0) == (["b", "c", "a"], "c")  # lower is better
    assert rival({"a": 1.0}, "a") == (["a"], "a")


def test_a_ratio_at_1_058_against_1_within_5_percent_does_not_hold():
    """The issue's case: 1.058 [1.050, 1.067] against "1 within 5%". The mean lies outside [0.95, 1.05]: not even
    the mean agrees, so it does not hold (it was "holds partly": within twice the tolerance)."""
    region = ABOUT_1.region()
    assert (region.low, region.high) == pytest.approx((0.95, 1.05))
    assert judge(1.058, 1.050, 1.067, region) == FAILS
    out = ABOUT_1.evaluate(table(a=[1058, 1050, 1066, 1058], b=[1000] * 4), LOWER)
    assert out.value == pytest.approx(1.058) and out.verdict == FAILS
    assert out.claimed == pytest.approx((0.95, 1.05)) and out.quantity == "makespan of a / b, per trial"


def test_a_ratio_of_two_settings_says_them_in_words_not_as_keys():
    """The axis title of a claim's chart: "estimator smoothed", never "estimator.method=smoothed"."""
    ratio = Ratio("smoothed", "knn", "estimation_error", by="estimator.method", heuristic="fa", at_most=1.0)
    assert ratio.quantity() == "estimation error, estimator smoothed / estimator knn (fa), per trial"
    assert Ratio("x", "y", "makespan", by="my_model.speed_up", at_most=1.0).quantity() == \
        "makespan, my model speed up x / my model speed up y, per trial"  # a setting without words: no raw key
    assert ratio.describe() == "estimation_error of estimator smoothed / estimator knn (fa), per trial, at most 1"


def test_a_claims_chart_names_each_point_of_a_sweep_in_words_not_as_keys():
    """The bars of a claim's chart and the check the Papers page says: "estimator smoothed", "share of machines KPB
    considers 5%", "arrival rate 0.002 tasks/s", never "estimator.method=smoothed" or "heuristics.0.k=5.0"."""
    rows = [table(a=[10 * m + d for d in (0, 1, -1, 2)], b=[5.0] * 4).assign(**{"estimator.method": name})
            for m, name in ((1, "knn"), (3, "smoothed"))]
    out = Ratio("smoothed", "knn", "makespan", by="estimator.method", heuristic="a", at_least=2.0).evaluate(
        pd.concat(rows, ignore_index=True), LOWER)
    assert [row[0] for row in out.series] == ["estimator smoothed", "estimator knn"]
    assert out.detail.startswith("estimator smoothed / estimator knn: ")
    k = Ratio(5.0, 10.0, "makespan", by="heuristics.0.k", paper=5.0)
    assert k.label() == "share of machines KPB considers 5% / share of machines KPB considers 10%"
    sweep = pd.concat([table(a=[r * 100 + d for d in (0, 1, 2)], b=[1.0] * 3).assign(**{"arrivals.rate": r})
                       for r in (0.002, 0.004)], ignore_index=True)
    trend = Trend("makespan", "a", "arrivals.rate")
    assert [row[0] for row in trend.evaluate(sweep, LOWER).series] == ["arrival rate 0.002 tasks/s",
                                                                       "arrival rate 0.004 tasks/s"]
    assert trend.quantity() == "makespan of a: at the last arrival rate minus the first"
    assert trend.describe() == "makespan of a rises along the arrival rate"


@pytest.mark.parametrize(("mean", "lower", "upper", "verdict"), [
    (1.04, 1.03, 1.05, HOLDS),  # the interval reaches the band's edge, inside: the ends belong to the band
    (1.0, 0.96, 1.04, HOLDS),
    (1.049, 1.040, 1.058, PARTLY),  # the mean within, the interval reaching out
    (1.05, 1.04, 1.06, PARTLY),  # the mean on the edge
    (1.0501, 1.049, 1.051, FAILS),  # the mean just beyond, though the interval reaches in
    (0.949, 0.90, 1.00, FAILS),
    (1.0, float("nan"), float("nan"), PARTLY),  # one trial: no interval, so partly at most
    (1.2, float("nan"), float("nan"), FAILS),
])
def test_judge_at_the_edges_of_a_band(mean, lower, upper, verdict):
    assert judge(mean, lower, upper, ABOUT_1.region()) == verdict


def test_judge_on_a_side_strict_and_not():
    better = Region(0.0, np.inf, strict=True)  # "better": a difference of exactly zero is not better
    assert judge(0.0, -1.0, 1.0, better) == FAILS and judge(0.1, -1.0, 1.0, better) == PARTLY
    assert judge(1.0, 0.0, 2.0, better) == PARTLY and judge(1.0, 0.01, 2.0, better) == HOLDS
    at_least = Region(7.0)  # "at least 7": 7 itself is inside
    assert judge(7.0, 7.0, 7.0, at_least) == HOLDS and judge(7.5, 6.9, 8.1, at_least) == PARTLY
    assert judge(6.99, 6.0, 8.0, at_least) == FAILS
    assert judge(float("nan"), float("nan"), float("nan"), at_least) == FAILS  # no number: nothing agrees


def test_every_check_follows_the_one_rule():
    """Each check's verdict is judge() of its number, interval and claimed region (the Order's and AllOf's: the
    weakest part's)."""
    results = table(a=[90, 108, 95, 105, 100], b=[100] * 5, c=[150, 140, 160, 155, 145])
    for check in (Better("a", "b", "makespan"), Better("a", "b", "makespan", by=1), Best("a", "makespan"),
                  Close("a", "b", "makespan", within=2.0), Close("a", "b", "makespan", within=20.0),
                  Value("makespan", "a", paper=100, tolerance=0.02), Value("makespan", "c", at_least=150),
                  Ratio("c", "b", "makespan", paper=1.5, tolerance=0.01), Ratio("c", "b", "makespan", at_most=1.4)):
        out = check.evaluate(results, LOWER)
        assert out.verdict == judge(out.value, out.lower, out.upper, Region(*out.claimed)), check
        assert out.quantity, check


def test_better_margin_edge_is_strict():
    out = Better("a", "b", "makespan", by=11).evaluate(A_BEATS_B, LOWER)  # exactly 11% better by mean
    assert out.value == pytest.approx(-11.0) and out.claimed == (-np.inf, -11.0) and out.verdict == FAILS


def test_a_trend_whose_means_turn_back_does_not_hold():
    rows = [table(a=[100 * s + d for d in (0, 3, -2, 1)]).assign(rate=r) for r, s in ((1, 1.0), (2, 0.9), (3, 2.0))]
    out = Trend("makespan", "a", "rate").evaluate(pd.concat(rows, ignore_index=True), LOWER)
    assert out.verdict == FAILS and out.value == pytest.approx(100.0) and "(not rising at every step)" in out.detail


def test_a_flat_trend_holds_when_its_interval_is_within_ten_percent_of_the_level():
    rows = [table(a=[100 + s + d for d in (0, 3, -2, 1)]).assign(rate=r) for r, s in ((1, 0.0), (2, 2.0), (3, 4.0))]
    out = Trend("makespan", "a", "rate", flat=True).evaluate(pd.concat(rows, ignore_index=True), LOWER)
    assert out.verdict == HOLDS and out.claimed == pytest.approx((-10.25, 10.25))  # 4 against +-10% of 102.5
    rows = [table(a=[100 * s + d for d in (0, 3, -2, 1)]).assign(rate=r) for r, s in ((1, 1.0), (2, 1.3))]
    assert Trend("makespan", "a", "rate", flat=True).evaluate(pd.concat(rows, ignore_index=True),
                                                              LOWER).verdict == FAILS


def test_one_trial_has_no_interval_and_never_a_nan_in_its_detail():
    out = Value("makespan", "a", paper=100.0, tolerance=0.01).evaluate(table(a=[100.0]), LOWER)
    assert out.verdict == PARTLY and "(no interval)" in out.detail and "nan" not in out.detail
    assert interval_text(float("nan"), 1.0) == "(no interval)" and interval_text(1.0, 2.0) == "[1, 2]"


# --- the contract of every model's registry -------------------------------------------------------------------------
def _slug(model: str) -> str:
    """The paper's slug: its first author's surname, lower-case letters only (Al-Azzoni: alazzoni)."""
    return re.sub(r"[^a-z]", "", get_model(model).paper.split(",")[0].split()[0].lower())


@pytest.mark.parametrize("model", hcsched.model_names())
def test_every_models_claims_keep_the_contract(model):
    claims = registry(model)
    assert claims and get_model(model).claims() == claims
    ids = [c.id for c in claims]
    assert len(ids) == len(set(ids))
    assert all(i.startswith(f"{_slug(model)}-") and c.model == model for i, c in zip(ids, claims, strict=True)), ids
    names = set(hcsched.preset_names())
    spec_model = get_model(model)
    for tiny in (False, True):
        for v in variants(claims, tiny=tiny):
            assert v.claim.scenario in names, v.claim.id
            for _, scenario in v.points:
                columns = {m.name for m in spec_model.columns(scenario.spec)}
                assert set(v.check.metrics()) <= columns, (v.claim.id, v.reading, v.check.metrics())
                labels = {h.label for h in scenario.heuristics}
                assert set(v.check.heuristics()) <= labels, (v.claim.id, v.reading, v.check.heuristics(), labels)
    table_, _ = reproduce(claims, trials=2, tiny=True, jobs=1)
    assert set(zip(table_["id"], table_["reading"], strict=True)) == {(c.id, name) for c in claims
                                                                      for name, _, _ in c.variants()}
    bad = table_[~table_["verdict"].isin(VERDICTS)]
    assert bad.empty, bad[["id", "reading", "verdict", "detail"]].to_string()
    assert (table_["trials"] == 2).all()
    checks = {(v.claim.id, v.reading): v.check for v in variants(claims, tiny=True)}
    drifted = [(row["id"], row["reading"]) for _, row in table_.iterrows()
               if not follows_the_one_rule(row, checks[(row["id"], row["reading"])])]
    assert not drifted, drifted


# Claims whose check is not yet read from one number's region (their model's own rule; each explained in its module).
NOT_ONE_NUMBER = {"page-s55-worst-case-varies"}


def _has_trend(check) -> bool:
    return isinstance(check, Trend) or (isinstance(check, AllOf) and any(isinstance(c, Trend) for c in check.checks))


def follows_the_one_rule(row, check) -> bool:
    """Whether a claims-table row's verdict is :func:`judge`'s of its number, interval and claimed region
    (``claimed_low``, ``claimed_high``): DEFINITION, whatever check made it. The table keeps the region's ends, not
    whether they are inside it ("better": a difference of exactly 0 is not better), so either reading of the ends may
    decide. A trend whose means turn back does not hold whatever its last - first (WHERE: "every mean in between
    moving the same way"). A row without a region is an order (its weakest pair decides, PARTS) or a claim of
    NOT_ONE_NUMBER."""
    low, high = row["claimed_low"], row["claimed_high"]
    if low != low or high != high:
        return isinstance(check, Order) or row["id"] in NOT_ONE_NUMBER
    if _has_trend(check) and row["verdict"] == FAILS and "at every step)" in row["detail"]:
        return True
    judged = {judge(row["ours"], row["ours_lower"], row["ours_upper"], Region(low, high, strict))
              for strict in (False, True)}
    return row["verdict"] in judged


def test_the_shipped_reproduction_keeps_the_one_rule():
    """assets/claims.csv, the reproduction the Papers page and the README show: every verdict of a claim still in
    the registry follows judge() of the row's own numbers (a check that drifts from DEFINITION shows here)."""
    from helpers import ROOT

    shipped = pd.read_csv(ROOT / "assets" / "claims.csv", keep_default_na=False, na_values=[""])
    checks = {(v.claim.id, v.reading): v.check for v in variants(registry())}
    rows = [row for _, row in shipped.iterrows() if (row["id"], row["reading"]) in checks]
    assert len(rows) > 200
    drifted = [(row["id"], row["reading"], row["verdict"]) for row in rows
               if not follows_the_one_rule(row, checks[(row["id"], row["reading"])])]
    assert not drifted, drifted


def test_the_slugs_are_the_papers_and_distinct():
    slugs = [_slug(m) for m in hcsched.model_names()]
    assert len(set(slugs)) == len(slugs)
    assert {"maheswaran", "kim", "page", "caniou", "alazzoni"} == set(slugs)
