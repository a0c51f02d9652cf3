"""The paper's directions (Caniou and Jeannot, sections 6.2-6.6) on the section 3.3 workload: 25 servers, 250 tasks,
every heuristic against NetSolve MCT on the same 30 simulations per mu (common random numbers).

Stable: every bound below is at least about 4 standard errors of the mean away from the mean measured here (the
per-simulation standard deviations, from 60 simulations of another seed, are in the comments), so another seed or
a harmless change does not flip a test. Where the paper's statement does not hold here, the test states what does
(docs/models/timeshared.md, "Reproduction", has the 100-simulation figures).
"""

import pytest

from hcsched import simulate
from hcsched.models.timeshared.presets import PRESETS

TRIALS = 30
MUS = (0, 10, 20, 30, 70)


@pytest.fixture(scope="module")
def mean():
    """Mean metrics per mu and heuristic."""
    out = {}
    for mu in MUS:
        sc = PRESETS["caniou-mu0"]().replace(trials=TRIALS, mean_interarrival=float(mu),
                                             heuristics=["netsolve-mct", "hmct", "mp", "msf"])
        out[mu] = simulate(sc, jobs=1).groupby("heuristic").mean(numeric_only=True)
    return out


def test_hmct_beats_netsolve_mct_on_makespan_at_high_arrival_rates(mean):
    """Section 6.2: 'up to 10%' for mu <= 10. Here about 9.7% (sd 3.3-4.1 per simulation)."""
    for mu in (0, 10):
        assert 5 < mean[mu].loc["hmct", "gain_makespan"] < 15


def test_the_makespan_gain_shrinks_as_mu_grows(mean):
    """Sections 5 and 6.2: > 8% for mu <= 20, about 0 beyond 30. Here about 9.7% at mu = 0 and 10 (the servers are
    saturated at both, so the gain does not shrink from 0 to 10), 6.2% at 20 (sd 3.2: below the paper's 8%), 1.0%
    at 30 (sd 1.7) and 0.0% at 70 (sd 0.3)."""
    g = {mu: mean[mu].loc["hmct", "gain_makespan"] for mu in MUS}
    assert min(g[0], g[10]) > 5 and 3.5 < g[20] < max(g[0], g[10])
    assert g[30] < 3 and abs(g[70]) < 0.5


def test_msf_beats_netsolve_mct_on_max_flow_at_every_mu(mean):
    """Section 6.6: always > 0, peak 23% at mu = 30. Here 9.2 / 9.1 / 9.6 / 18.4 / 11.6% (sd 3.6 to 8.8), the peak at
    mu = 30 too."""
    flow = {mu: mean[mu].loc["msf", "gain_max_flow"] for mu in MUS}
    assert all(v > 3 for v in flow.values())
    assert max(flow, key=flow.get) == 30


def test_mp_tasks_finishing_sooner_as_it_holds_here(mean):
    """Section 6.4.1: 'always more than 60%', peak 70% at mu = 30. Does not hold as written. Here MP has the most
    tasks finishing sooner at mu = 20-30 (about 63% and 62%, sd 5-7), about 58% at mu <= 10 (sd 2.6-3.3: more than
    half, but short of 60%), and at mu = 70, where most servers are idle at each arrival, MP and NetSolve MCT pick the
    same server for about half the tasks: 26% sooner, 49% the same, 25% later. Sooner-or-same (the figures' bar, section
    6.1) is above 55% at every mu."""
    pct = {mu: mean[mu].loc["mp", ["pct_sooner", "pct_same", "pct_later"]] for mu in MUS}
    assert all(pct[mu]["pct_sooner"] > 55 for mu in (0, 10))
    assert (pct[0]["pct_sooner"] + pct[10]["pct_sooner"]) / 2 < 60  # 58.3-58.8 over seeds: pooled, 3 sd of the mean
    for mu in (20, 30):
        assert pct[mu]["pct_sooner"] > 55
    assert pct[70]["pct_sooner"] < 35 and pct[70]["pct_same"] > 35
    assert all(p["pct_sooner"] + p["pct_same"] > 55 for p in pct.values())
    assert all(p["pct_sooner"] > p["pct_later"] + 10 for mu, p in pct.items() if mu <= 30)


def test_hmct_hurts_sum_flow_beyond_mu_10_and_mp_helps_it(mean):
    """Section 6.2: HMCT's sum-flow gain < 0 for mu > 10; section 6.4.1: MP's peaks at 15% at mu = 30. Here -19% and
    +12% at mu = 30 (sd 5.7 and 4.5)."""
    assert mean[30].loc["hmct", "gain_sum_flow"] < -10 and mean[20].loc["hmct", "gain_sum_flow"] < 0
    assert mean[30].loc["mp", "gain_sum_flow"] > 7
