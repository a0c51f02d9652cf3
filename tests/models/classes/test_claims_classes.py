"""The registry of Al-Azzoni and Down's claims: every printed cell is a claim, and its own checks follow
the numbers. The contract every registry keeps is tests/test_claims.py's."""

import math

import pandas as pd
import pytest

import hcsched
from hcsched.claims import FAILS, HOLDS, PARTLY, Region, judge
from hcsched.models import get_model
from hcsched.models.classes.claims import CLAIMS, interval_check, stability_check
from hcsched.models.classes.presets import PUBLISHED

MODEL = get_model("classes")


def test_every_printed_cell_of_tables_1_and_6_is_a_claim_with_its_source():
    cells = {(system, label) for system, row in PUBLISHED.items() for label in row}
    table = [c for c in CLAIMS if c.id.startswith(("alazzoni-table1-", "alazzoni-table6-"))]
    assert len(table) == len(cells) + 1  # and the garbled I1 LPAS cell, read as a bound
    for c in table:
        assert c.source.startswith(("Table 1, System", "Table 6, System")) and c.paper
    interval = next(c for c in CLAIMS if c.id == "alazzoni-table1-b-mct")
    assert interval.paper == "(20.05, 21.10)" and interval.trials == 30


def _table(**values) -> pd.DataFrame:
    """One row per trial and heuristic: ``values[label]`` is a list of (mean_in_system, unstable) per trial."""
    return pd.DataFrame([{"trial": t, "heuristic": label, "mean_in_system": float(q), "unstable": flag,
                          "lambda_restricted": 1.2} for label, rows in values.items() for t, (q,
                                                                                              flag) in enumerate(rows)])


def _judged(out) -> bool:
    """The outcome's verdict is judge() of its own number, interval and claimed region (DEFINITION)."""
    return out.verdict == judge(out.value, out.lower, out.upper, Region(*out.claimed))


def _means(values) -> pd.DataFrame:
    return _table(mct=[(q, False) for q in values])


def test_the_interval_check_puts_our_mean_in_the_printed_interval():
    check = interval_check("mct", 20.05, 21.10)
    out = check.evaluate(_means([20.3, 20.9, 20.6, 20.4]), {})  # our interval [20.1, 21.0]: inside the paper's
    assert out.verdict == HOLDS and out.value == pytest.approx(20.55) and out.claimed == (20.05, 21.10)
    assert out.series[1] == ("paper", pytest.approx(20.575), 20.05, 21.10) and out.unit == "tasks" and _judged(out)
    out = check.evaluate(_means([19.5, 21.6, 20.0, 21.1]), {})  # the mean inside, the interval straddling both ends
    assert out.verdict == PARTLY and out.lower < 20.05 and out.upper > 21.10 and "inside" in out.detail
    out = check.evaluate(_means([19.9, 20.0, 20.1, 20.05]), {})  # the mean just below, the interval reaching in
    assert out.verdict == FAILS and out.upper > 20.05 and "outside" in out.detail
    far = check.evaluate(_means([25.0, 25.2, 25.1]), {})  # 22% above
    assert far.verdict == FAILS and "+22" in far.detail and _judged(far)
    one = check.evaluate(_means([20.5]), {})  # one replication: no interval, partly at most
    assert one.verdict == PARTLY and math.isnan(one.lower) and "(no interval)" in one.detail and "nan" not in one.detail
    with pytest.raises(hcsched.HcschedError, match="no heuristic 'mct'"):
        check.evaluate(_table(lpas=[(1, False), (2, False)]), {})


def _flags(*flags: bool) -> pd.DataFrame:
    return _table(kpb=[(900 if f else 90, f) for f in flags])


def test_the_stability_check_puts_the_share_flagged_on_the_papers_side_of_half():
    unstable, stable = stability_check("kpb", True), stability_check("kpb", False)
    every, none = _flags(*[True] * 4), _flags(*[False] * 4)
    three, one_of_four = _flags(True, False, True, True), _flags(False, False, True, False)
    assert [unstable.evaluate(t, {}).verdict for t in (every, three, one_of_four, none)] == [HOLDS, PARTLY, FAILS,
                                                                                             FAILS]
    assert [stable.evaluate(t, {}).verdict for t in (every, three, one_of_four, none)] == [FAILS, FAILS, PARTLY, HOLDS]
    out = unstable.evaluate(three, {})  # 75% [.., ..]: most replications agree, the interval reaches below half
    assert out.value == pytest.approx(75.0) and out.share == 0.75 and "3 of 4" in out.detail
    assert out.claimed == (50.0, 100.0) and out.lower < 50 and out.upper <= 100 and out.unit == "% unstable"
    assert stable.evaluate(every, {}).claimed == (0.0, 50.0)
    out = unstable.evaluate(every, {})
    assert (out.value, out.lower, out.upper) == (100.0, 100.0, 100.0)  # every replication agreeing: zero width
    even = _flags(True, False, True, False)  # exactly half: on both sides, not settled
    assert unstable.evaluate(even, {}).verdict == PARTLY and stable.evaluate(even, {}).verdict == PARTLY
    once = _flags(*[False] * 29, True)  # 1 of 30: the interval stays within 0-100% (the bootstrap), below half
    out = stable.evaluate(once, {})
    assert out.verdict == HOLDS and out.lower >= 0.0 and out.upper < 50.0
    for check in (unstable, stable):
        for t in (every, none, three, one_of_four, even, once):
            assert _judged(check.evaluate(t, {}))
    alone = stable.evaluate(_flags(False), {})  # one replication: no interval
    assert alone.verdict == PARTLY and math.isnan(alone.lower) and "(no interval)" in alone.detail


def test_the_four_readings_of_the_text_are_carried_by_their_claims():
    """Random ties on C1 and C2, the hyperexponential's long phase on I1, Sharifnia's matrix as mean times: each claim
    of those systems carries its second reading, whose scenario keeps the literal labels (its check reads them)."""
    from hcsched.reproduce import variant_scenario

    def scenario_of(claim, reading):
        return variant_scenario(claim, dict(next(ch for name, ch, _ in claim.variants() if name == reading)))

    by_reading = {}
    for c in CLAIMS:
        for r in c.readings:
            by_reading.setdefault(r.name, set()).add(c.scenario.removeprefix("alazzoni-"))
    assert by_reading == {"random-ties": {"C1", "C2"}, "long-branch-0.01": {"I1"}, "times": {"sharifnia"}}
    c2 = next(c for c in CLAIMS if c.id == "alazzoni-table6-c2-mct")
    literal, random = (scenario_of(c2, name) for name, _, _ in c2.variants())
    assert [h.label for h in random.heuristics] == [h.label for h in literal.heuristics]
    assert {h.kwargs["ties"] for h in random.heuristics} == {"random"}
    assert {h.kwargs["ties"] for h in literal.heuristics} == {"lowest"}
    sharifnia = next(c for c in CLAIMS if c.id == "alazzoni-sharifnia-mct-unstable")
    times = scenario_of(sharifnia, "times").classes
    assert times.exec_as == "times" and times.allocation().lam == pytest.approx(1.0256, abs=1e-4)
    i1 = next(c for c in CLAIMS if c.id == "alazzoni-table1-i1-mct")
    assert scenario_of(i1, "long-branch-0.01").classes.long_branch == 0.01
