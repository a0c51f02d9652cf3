"""The paper's directions (Caniou and Jeannot, sections 6.2-6.6) on the section 3.3 workload, with 12 simulations
per mu (the bench, with 100, gives the figures of docs/models/timeshared.md). Stated as they hold here; the one that
does not hold as written (MP's > 60% of tasks sooner at every mu) is tested in the form that does and noted."""

import pytest

from hcsched import simulate
from hcsched.models.timeshared.presets import PRESETS

TRIALS = 12


@pytest.fixture(scope="module")
def gains():
    out = {}
    for mu in (0, 10, 30, 70):
        sc = PRESETS[f"caniou-mu{mu}"]().replace(trials=TRIALS, heuristics=["netsolve-mct", "hmct", "mp", "msf"])
        out[mu] = simulate(sc, jobs=1).groupby("heuristic").mean(numeric_only=True)
    return out


def test_hmct_beats_netsolve_mct_on_makespan_at_high_rates(gains):
    assert gains[0].loc["hmct", "gain_makespan"] > 5 and gains[10].loc["hmct", "gain_makespan"] > 5


def test_the_makespan_gain_shrinks_as_mu_grows(gains):
    g = [gains[mu].loc["hmct", "gain_makespan"] for mu in (0, 10, 30, 70)]
    assert g[0] > g[2] > g[3] - 0.5 and g[1] > g[2] and abs(g[3]) < 1


def test_msf_beats_netsolve_mct_on_max_flow_at_every_mu(gains):
    assert all(gains[mu].loc["msf", "gain_max_flow"] > 0 for mu in gains)


def test_mp_tasks_finishing_sooner(gains):
    """The paper: always > 60%, peak 70% at mu = 30. Here: > 60% at mu = 30 only (about 58% at mu <= 10 and 27%
    sooner with 47% the same at mu = 70); sooner-or-same (the figures' bar, section 6.1) stays above 55%."""
    assert gains[30].loc["mp", "pct_sooner"] > 60
    assert all(gains[mu].loc["mp", "pct_sooner"] > 50 for mu in (0, 10, 30))
    assert all(gains[mu].loc["mp", ["pct_sooner", "pct_same"]].sum() > 55 for mu in gains)


def test_hmct_hurts_sum_flow_beyond_mu_10_and_mp_helps_it(gains):
    assert gains[30].loc["hmct", "gain_sum_flow"] < 0 and gains[30].loc["mp", "gain_sum_flow"] > 5
