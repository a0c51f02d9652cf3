"""The registry of Caniou and Jeannot's claims (issue 19): its particular facts, and the model's own checks
(hcsched/models/timeshared/claims.py) follow their numbers. The contract every registry keeps is
tests/test_claims.py's."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import hcsched
from hcsched.claims import FAILS, HOLDS, PARTLY, Better, Trend, Value
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


def test_at_every_holds_at_every_point_partly_at_some_and_fails_at_none():
    check = at_every(Value("gain_makespan", "mp", at_least=0.0))
    everywhere = _results({0.0: {"mp": _noisy(5)}, 10.0: {"mp": _noisy(4)}}, "gain_makespan")
    some = _results({0.0: {"mp": _noisy(5)}, 10.0: {"mp": _noisy(-4)}}, "gain_makespan")
    nowhere = _results({0.0: {"mp": _noisy(-5)}, 10.0: {"mp": _noisy(-4)}}, "gain_makespan")
    out = check.evaluate(everywhere, BETTER)
    assert out.verdict == HOLDS and out.value == 100.0 and [s[0] for s in out.series] == ["mu=0", "mu=10"]
    assert check.evaluate(some, BETTER).verdict == PARTLY
    assert check.evaluate(some, BETTER).value == 50.0
    assert check.evaluate(nowhere, BETTER).verdict == FAILS
    wobble = [3.0, -2.0, 2.0, -1.0, 1.0]  # mean 0.6, its 95% interval across 0
    inside_noise = _results({0.0: {"mp": wobble}, 10.0: {"mp": wobble[::-1]}}, "gain_makespan")
    assert [p[0] for p in check.evaluate(inside_noise, BETTER).series] == ["mu=0", "mu=10"]
    assert check.evaluate(inside_noise, BETTER).verdict == PARTLY  # partly at every point
    partly_once = _results({0.0: {"mp": wobble}, 10.0: {"mp": _noisy(-4, n=5)}}, "gain_makespan")
    assert check.evaluate(partly_once, BETTER).verdict == FAILS  # partly at one point and failing at the other
    one = at_every(Value("gain_makespan", "mp", at_least=0.0)).evaluate(everywhere[everywhere.mean_interarrival == 0], BETTER)
    assert one.verdict == HOLDS and one.value == pytest.approx(np.mean(_noisy(5)))  # one point: its own number
    assert at_every(Better("hmct", "mp", "makespan")).metrics() == ("makespan",)


def test_at_every_needs_the_swept_column():
    frame = _results({0.0: {"mp": _noisy(5)}}, "gain_makespan").drop(columns="mean_interarrival")
    with pytest.raises(hcsched.HcschedError, match="mean_interarrival"):
        at_every(Value("gain_makespan", "mp", at_least=0.0)).evaluate(frame, BETTER)


def test_peak_needs_the_value_and_the_place():
    check = peak("gain_max_flow", "msf", 23.0, at=30.0)
    right = _results({10.0: {"msf": _noisy(10)}, 30.0: {"msf": _noisy(22)}, 70.0: {"msf": _noisy(9)}}, "gain_max_flow")
    low = _results({10.0: {"msf": _noisy(10)}, 30.0: {"msf": _noisy(15)}, 70.0: {"msf": _noisy(9)}}, "gain_max_flow")
    elsewhere = _results({10.0: {"msf": _noisy(23)}, 30.0: {"msf": _noisy(12)}, 70.0: {"msf": _noisy(9)}}, "gain_max_flow")
    out = check.evaluate(right, BETTER)
    assert out.verdict == HOLDS and out.value == pytest.approx(np.mean(_noisy(22)))
    assert check.evaluate(low, BETTER).verdict == PARTLY  # the peak is at 30, but 15 is 8 points off 23
    assert check.evaluate(elsewhere, BETTER).verdict == FAILS  # higher at 10, and 12 is off
    up_to = peak("gain_max_stretch", "mp", 90.0)
    assert up_to.evaluate(right.rename(columns={"gain_max_flow": "gain_max_stretch"}).replace("msf", "mp"), BETTER).verdict == FAILS


def test_not_better_and_same():
    slightly = _results({0.0: {"mmc": _noisy(100.5, seed=1), "hmct": _noisy(100, seed=2)}}, "makespan")
    clearly = _results({0.0: {"mmc": _noisy(90, seed=1), "hmct": _noisy(100, seed=2)}}, "makespan")
    shorter = [100 * (1 - x) for x in (0.01, -0.008, 0.006, -0.004, 0.002)]  # 0.12% shorter on average, in the noise
    within_noise = _results({0.0: {"mmc": shorter, "hmct": [100.0] * 5}}, "makespan")
    assert not_better("mmc", "hmct", "makespan").evaluate(slightly, BETTER).verdict == HOLDS  # MMC's makespan is longer
    assert not_better("mmc", "hmct", "makespan").evaluate(within_noise, BETTER).verdict == HOLDS  # shorter, in the noise
    assert not_better("mmc", "hmct", "makespan").evaluate(clearly, BETTER).verdict == FAILS
    assert same("mmc", "hmct", "makespan").evaluate(slightly, BETTER).verdict == HOLDS
    assert same("mmc", "hmct", "makespan").evaluate(clearly, BETTER).verdict == FAILS  # 10% apart
    with pytest.raises(hcsched.HcschedError, match="pct_same"):
        not_better("mmc", "hmct", "pct_same").evaluate(slightly.rename(columns={"makespan": "pct_same"}), BETTER)


def test_sooner_or_same_reads_both_shares():
    """MP's '> 60% sooner' fails on 58% sooner and holds on the 72% sooner or at the same time (issue 19)."""
    claim = next(c for c in CLAIMS if c.id == "caniou-fig6-mp-sooner-above-60")
    reading = claim.readings[0]
    frame = _results({0.0: {"mp": _noisy(58)}, 30.0: {"mp": _noisy(62)}}, "pct_sooner",
                     pct_same={0.0: {"mp": _noisy(14)}, 30.0: {"mp": _noisy(10)}})
    assert claim.check.evaluate(frame, BETTER).verdict == PARTLY  # holds at mu = 30 only
    assert reading.name == "sooner-or-same" and reading.check.metrics() == ("pct_sooner", "pct_same")
    assert reading.check.evaluate(frame, BETTER).verdict == HOLDS
    assert reading.check.evaluate(frame.assign(pct_same=0.0), BETTER).verdict == PARTLY
    with pytest.raises(hcsched.HcschedError, match="pct_same"):
        sooner_or_same(Value("pct_sooner_or_same", "mp", at_least=60.0)).evaluate(frame.drop(columns="pct_same"), BETTER)


def test_graph_tolerance_is_in_points():
    """A gain read off the paper's graphs matches within GRAPH_POINTS percentage points, not percent of itself."""
    check = at_every(tc._gain("gain_makespan", "hmct", 10.0))
    assert check.evaluate(_results({0.0: {"hmct": _noisy(7.5, spread=0.1)}}, "gain_makespan"), BETTER).verdict == HOLDS
    assert check.evaluate(_results({0.0: {"hmct": _noisy(5.0, spread=0.1)}}, "gain_makespan"), BETTER).verdict == FAILS
