"""The registry of Caniou and Jeannot's claims: its particular facts, and the model's own checks
(hcsched/models/timeshared/claims.py) follow their numbers. The contract every registry keeps is
tests/test_claims.py's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import hcsched
from hcsched.claims import FAILS, HOLDS, PARTLY, Better, Close, Region, Trend, Value, judge
from hcsched.models import get_model
from hcsched.models.timeshared import claims as tc
from hcsched.models.timeshared.claims import CLAIMS, at_every, not_better, peak, same, sooner_or_same
from hcsched.reproduce import reproduce, variants

MODEL = get_model("timeshared")
BETTER = {m.name: m.better for m in MODEL.columns()}


def _checks(claim):
    return [claim.check] + [r.check for r in claim.readings if r.check is not None]


def test_every_claim_says_where_what_and_the_papers_value():
    for c in CLAIMS:
        assert c.where and c.text and c.paper and c.source, c.id
        assert c.trials and c.trials <= 100, c.id


def test_trends_sweep_their_key():
    for c in CLAIMS:
        if isinstance(c.check, Trend):
            assert c.check.key in c.vary, c.id


def test_section6_claims_share_their_scenarios():
    """The 100-simulation points are one scenario per mu, whichever claim reads them: 5 mu points, the two Table 3
    metatasks (each with Table 2's costs) and the task axis' 13 grid points."""
    from hcsched.reproduce import unique_scenarios

    assert len(unique_scenarios(variants(CLAIMS))) == 5 + 4 + 13


def test_table3_holds_with_the_fitted_costs_and_not_with_table2s():
    """Table 3 is deterministic and needs no tiny version: the fitted costs give the printed dates, Table 2's do not."""
    table, _ = reproduce([c for c in CLAIMS if c.id.startswith("caniou-table3-")], trials=2, tiny=True, jobs=1)
    table3 = table[table["id"].str.startswith("caniou-table3-")].set_index(["id", "reading"])["verdict"]
    assert (table3.xs("literal", level="reading") == HOLDS).all()
    assert (table3.xs("table2-costs", level="reading") == FAILS).all()


# --- the model's own checks, on hand-made results ------------------------------------------------------------------
def _results(values: dict[float, dict[str, list[float]]], metric: str, **more) -> pd.DataFrame:
    """Rows of (mean_interarrival, trial, heuristic, metric) from {mu: {heuristic: per-trial values}}."""
    rows = []
    for mu, by_heuristic in values.items():
        for heuristic, per_trial in by_heuristic.items():
            for trial, x in enumerate(per_trial):
                row = {"mean_interarrival": mu, "trial": trial, "heuristic": heuristic, metric: x}
                row.update({k: v[mu][heuristic][trial] for k, v in more.items()})
                rows.append(row)
    return pd.DataFrame(rows)


def _noisy(center: float, n: int = 20, spread: float = 0.5, seed: int = 0) -> list[float]:
    return list(center + spread * np.random.default_rng(seed).standard_normal(n))


def _judged(out) -> bool:
    """The outcome's verdict is judge() of its own number, interval and claimed region (DEFINITION)."""
    return out.verdict == judge(out.value, out.lower, out.upper, Region(*out.claimed))


WOBBLE = [3.0, -2.0, 2.0, -1.0, 1.0]  # mean 0.6, its 95% interval across 0


def test_at_every_takes_its_weakest_points_verdict_and_number():
    check = at_every(Value("gain_makespan", "mp", at_least=0.0))
    everywhere = _results({0.0: {"mp": _noisy(5)}, 10.0: {"mp": _noisy(4)}}, "gain_makespan")
    some = _results({0.0: {"mp": _noisy(5)}, 10.0: {"mp": _noisy(-4)}}, "gain_makespan")
    nowhere = _results({0.0: {"mp": _noisy(-5)}, 10.0: {"mp": _noisy(-4)}}, "gain_makespan")
    inside_noise = _results({0.0: {"mp": _noisy(5)}, 10.0: {"mp": WOBBLE * 4}}, "gain_makespan")
    out = check.evaluate(everywhere, BETTER)
    assert out.verdict == HOLDS and [s[0] for s in out.series] == ["mu=0", "mu=10"]
    assert out.value == pytest.approx(np.mean(_noisy(5))) and out.claimed == (0.0, np.inf)  # the first among equals
    out = check.evaluate(some, BETTER)  # holding at mu = 0 does not make up for mu = 10: "at every mu" fails there
    assert out.verdict == FAILS and out.value == pytest.approx(np.mean(_noisy(-4))) and "weakest mu=10" in out.detail
    assert "mu=0: holds" in out.detail and "mu=10: does not hold" in out.detail
    assert check.evaluate(nowhere, BETTER).verdict == FAILS
    out = check.evaluate(inside_noise, BETTER)  # every mean in the region, one interval straddling its edge
    assert out.verdict == PARTLY and out.value == pytest.approx(0.6) and out.lower < 0 < out.upper
    partly_once = _results({0.0: {"mp": WOBBLE}, 10.0: {"mp": _noisy(-4, n=5)}}, "gain_makespan")
    assert check.evaluate(partly_once, BETTER).verdict == FAILS  # partly at one point, failing at the other
    for frame in (everywhere, some, nowhere, inside_noise, partly_once):
        assert _judged(check.evaluate(frame, BETTER))
    one = check.evaluate(everywhere[everywhere.mean_interarrival == 0], BETTER)
    assert one.verdict == HOLDS and one.value == pytest.approx(np.mean(_noisy(5)))  # one point: its own number
    assert one.series == (("mu=0", one.value, one.lower, one.upper),) and one.detail.startswith("mu=0: ")
    assert at_every(Better("hmct", "mp", "makespan")).metrics() == ("makespan",)


def test_at_every_with_one_trial_holds_partly_at_most():
    check = at_every(Value("gain_makespan", "mp", at_least=0.0))
    out = check.evaluate(_results({0.0: {"mp": [5.0]}, 10.0: {"mp": [4.0]}}, "gain_makespan"), BETTER)
    assert out.verdict == PARTLY and np.isnan(out.lower) and "(no interval)" in out.detail and "nan" not in out.detail


def test_at_every_needs_the_swept_column():
    frame = _results({0.0: {"mp": _noisy(5)}}, "gain_makespan").drop(columns="mean_interarrival")
    with pytest.raises(hcsched.HcschedError, match="mean_interarrival"):
        at_every(Value("gain_makespan", "mp", at_least=0.0)).evaluate(frame, BETTER)


def test_peak_needs_the_height_and_the_place():
    check = peak("gain_max_flow", "msf", 23.0, at=30.0)
    right = _results({10.0: {"msf": _noisy(10)}, 30.0: {"msf": _noisy(22)}, 70.0: {"msf": _noisy(9)}}, "gain_max_flow")
    low = _results({10.0: {"msf": _noisy(10)}, 30.0: {"msf": _noisy(15)}, 70.0: {"msf": _noisy(9)}}, "gain_max_flow")
    elsewhere = _results({10.0: {"msf": _noisy(23)}, 30.0: {"msf": _noisy(12)}, 70.0: {"msf": _noisy(9)}},
                         "gain_max_flow")
    close = _results({10.0: {"msf": _noisy(22, seed=1)}, 30.0: {"msf": _noisy(22.1, seed=2)}}, "gain_max_flow")
    edge = _results({10.0: {"msf": _noisy(10)}, 30.0: {"msf": _noisy(20.1)}}, "gain_max_flow")
    out = check.evaluate(right, BETTER)
    assert out.verdict == HOLDS and _judged(out) and [s[0] for s in out.series] == ["mu=10", "mu=30", "mu=70"]
    assert "height: holds" in out.detail and "place: holds" in out.detail
    out = check.evaluate(low, BETTER)  # the peak is at 30, but 15 is 8 points off 23: the height decides
    assert out.verdict == FAILS and out.value == pytest.approx(np.mean(_noisy(15))) and out.claimed == (20.0, 26.0)
    out = check.evaluate(elsewhere, BETTER)  # higher at 10, and 12 is off
    assert out.verdict == FAILS and _judged(out)
    out = check.evaluate(close, BETTER)  # the height right, mu = 30 ahead of mu = 10 by mean but not told apart
    assert out.verdict == PARTLY and out.unit == "points" and out.claimed == (0.0, np.inf) and out.lower < 0 < out.upper
    out = check.evaluate(edge, BETTER)  # the place clear, the height's interval straddling 20 (23 - 3)
    assert out.verdict == PARTLY and out.value == pytest.approx(np.mean(_noisy(20.1))) and out.lower < 20 < out.upper
    with pytest.raises(hcsched.HcschedError, match="mean_interarrival = 20"):
        peak("gain_max_flow", "msf", 23.0, at=20.0).evaluate(right, BETTER)


def test_peak_up_to_reads_the_highest_point():
    up_to = peak("gain_max_stretch", "mp", 90.0)
    frame = _results({10.0: {"mp": _noisy(10)}, 30.0: {"mp": _noisy(28)}, 70.0: {"mp": _noisy(9)}}, "gain_max_stretch")
    out = up_to.evaluate(frame, BETTER)
    assert out.verdict == FAILS and out.value == pytest.approx(np.mean(_noisy(28))) and out.claimed == (87.0, 93.0)
    assert out.detail.startswith("highest at mu=30")
    assert peak("gain_max_stretch", "mp", 28.0).evaluate(frame, BETTER).verdict == HOLDS
    one = _results({10.0: {"mp": [10.0]}, 30.0: {"mp": [28.0]}}, "gain_max_stretch")
    assert peak("gain_max_stretch", "mp", 28.0).evaluate(one, BETTER).verdict == PARTLY  # one trial: no interval
    out = peak("gain_max_stretch", "mp", 28.0, at=30.0).evaluate(one, BETTER)
    assert out.verdict == PARTLY and "nan" not in out.detail


def _makespans(mmc: list[float], hmct: list[float]) -> pd.DataFrame:
    return _results({0.0: {"mmc": mmc, "hmct": hmct}}, "makespan")


def test_not_better_puts_the_paired_difference_at_zero_or_on_the_worse_side():
    check = not_better("mmc", "hmct", "makespan")
    base = [100.0, 102.0, 98.0, 101.0, 99.0]
    identical = _makespans(base, base)
    longer = _makespans([x * 1.05 for x in base], base)
    slightly_longer = _makespans([100.0 * (1 + x) for x in (0.012, -0.008, 0.006, -0.004, 0.002)], [100.0] * 5)
    shorter_in_noise = _makespans([100.0 * (1 - x) for x in (0.012, -0.008, 0.006, -0.004, 0.002)], [100.0] * 5)
    clearly = _makespans([x * 0.9 for x in base], base)
    out = check.evaluate(identical, BETTER)  # MMC and HMCT mapping identically: [0, 0]
    assert out.verdict == HOLDS and out.value == 0.0 and out.claimed == (0.0, np.inf) and out.unit == "%"
    assert check.evaluate(longer, BETTER).verdict == HOLDS
    out = check.evaluate(slightly_longer, BETTER)  # 0.16% longer, the interval reaching below 0
    assert out.verdict == PARTLY and out.lower < 0 < out.value
    out = check.evaluate(shorter_in_noise, BETTER)  # 0.16% shorter: the mean is better, however noisy
    assert out.verdict == FAILS and out.value < 0 < out.upper
    assert check.evaluate(clearly, BETTER).verdict == FAILS
    out = check.evaluate(_makespans([101.0], [100.0]), BETTER)  # one trial
    assert out.verdict == PARTLY and "(no interval)" in out.detail
    higher = not_better("mmc", "hmct", "gain_makespan").evaluate(
        _results({0.0: {"mmc": [1.0, 2.0, 1.5], "hmct": [3.0, 4.0, 3.5]}}, "gain_makespan"), BETTER)
    assert higher.claimed == (-np.inf, 0.0) and higher.verdict == HOLDS  # higher is better: at most 0
    for frame in (identical, longer, slightly_longer, shorter_in_noise, clearly):
        assert _judged(check.evaluate(frame, BETTER))
    with pytest.raises(hcsched.HcschedError, match="pct_same"):
        not_better("mmc", "hmct", "pct_same").evaluate(identical.rename(columns={"makespan": "pct_same"}), BETTER)


def test_same_is_close_within_the_graph_tolerance():
    check = same("mmc", "hmct", "makespan")
    assert isinstance(check, Close) and check.region() == Region(-3.0, 3.0)
    base = [100.0, 102.0, 98.0, 101.0, 99.0]
    assert check.evaluate(_makespans([x * 1.01 for x in base], base), BETTER).verdict == HOLDS
    wide_ = _makespans([100.0 * (1 + x) for x in (0.05, 0.0, 0.06, -0.01, 0.03)], [100.0] * 5)  # 2.6%, reaching 3
    out = check.evaluate(wide_, BETTER)
    assert out.verdict == PARTLY and out.lower < 3.0 < out.upper
    assert check.evaluate(_makespans([x * 0.9 for x in base], base), BETTER).verdict == FAILS  # 10% apart


def test_sooner_or_same_reads_both_shares():
    """MP's '> 60% sooner' fails on 58% sooner (at mu = 0) and holds on the 72% sooner or at the same time."""
    claim = next(c for c in CLAIMS if c.id == "caniou-fig6-mp-sooner-above-60")
    reading = claim.readings[0]
    frame = _results({0.0: {"mp": _noisy(58)}, 30.0: {"mp": _noisy(62)}}, "pct_sooner",
                     pct_same={0.0: {"mp": _noisy(14)}, 30.0: {"mp": _noisy(10)}})
    assert claim.check.evaluate(frame, BETTER).verdict == FAILS  # holds at mu = 30, not at mu = 0
    assert reading.name == "sooner-or-same" and reading.check.metrics() == ("pct_sooner", "pct_same")
    assert reading.check.evaluate(frame, BETTER).verdict == HOLDS
    assert reading.check.evaluate(frame.assign(pct_same=0.0), BETTER).verdict == FAILS
    with pytest.raises(hcsched.HcschedError, match="pct_same"):
        sooner_or_same(Value("pct_sooner_or_same", "mp", at_least=60.0)).evaluate(frame.drop(columns="pct_same"),
                                                                                   BETTER)


def test_graph_tolerance_is_in_points():
    """A gain read off the paper's graphs matches within GRAPH_POINTS percentage points, not percent of itself."""
    check = at_every(tc._gain("gain_makespan", "hmct", 10.0))
    assert check.evaluate(_results({0.0: {"hmct": _noisy(7.5, spread=0.1)}}, "gain_makespan"), BETTER).verdict == HOLDS
    assert check.evaluate(_results({0.0: {"hmct": _noisy(5.0, spread=0.1)}}, "gain_makespan"), BETTER).verdict == FAILS
