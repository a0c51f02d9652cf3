"""The qualitative results of Maheswaran et al. (1999), section 5, on the presets with fewer trials.

Each claim is checked with a 95% interval over trials of the per-trial ratio
(common random numbers make the comparison paired). Claims that a faithful
implementation does not reproduce are asserted as they come out and listed in
the README's reproduction table.
"""

import pytest

from hcsched import mean_ci, preset, simulate

TRIALS = 12


def ratios(name, **changes):
    df = simulate(preset(name).replace(**changes), trials=TRIALS, seed=2024)
    wide = df.pivot(index="trial", columns="heuristic", values="makespan")
    return lambda a, b: mean_ci(wide[a] / wide[b])


@pytest.fixture(scope="module")
def fig4():
    return ratios("maheswaran-fig4")


def test_fig4_kpb_slightly_better_than_mct(fig4):
    mean, lo, hi = fig4("kpb", "mct")
    assert hi < 1.0 and mean > 0.9


def test_fig4_olb_far_worst(fig4):
    for h in ("mct", "met", "sa", "kpb"):
        assert fig4("olb", h)[1] > 3.0


def test_fig4_met_beats_kpb_unlike_the_paper(fig4):
    """The paper has KPB best in Fig. 4; here MET and SA do better (README, reproduction table)."""
    assert fig4("met", "kpb")[2] < 1.0


def test_fig5_sort_reading_kpb_best_met_not_worst():
    r = ratios("maheswaran-fig5")
    assert r("kpb", "mct")[2] < 1.0 and r("kpb", "mct")[0] > 0.9  # KPB best, closely followed by MCT
    assert r("met", "mct")[1] > 1.5  # MET far worse than MCT ...
    assert r("olb", "met")[1] > 1.0  # ... but OLB is still worse than MET under this reading


def test_fig5_smallest_reading_met_worst_olb_beats_met():
    r = ratios("maheswaran-fig5-smallest")
    for h in ("mct", "sa", "kpb", "olb"):
        assert r("met", h)[1] > 1.0  # MET is worst
    assert r("kpb", "mct")[1] > 1.3  # KPB no longer close to MCT under this reading


@pytest.fixture(scope="module")
def fig8():
    return ratios("maheswaran-fig8")


def test_fig6_max_min_far_worse_sufferage_at_least_min_min(fig8):
    assert fig8("max-min", "min-min")[1] > 3.0
    assert fig8("max-min", "sufferage")[1] > 3.0
    assert fig8("sufferage", "min-min")[1] < 1.0  # at least as good, within noise


def test_fig7_aging_helps_max_min():
    r = ratios("maheswaran-fig7")
    assert r("max-min (aging)", "max-min")[2] < 0.5


def test_fig8_count_strategy_similar_for_min_min_and_sufferage(fig8):
    for h in ("min-min", "sufferage"):
        mean, lo, hi = fig8(f"{h} (count 40)", h)
        assert 0.97 < lo and hi < 1.03


def test_fig8_count_strategy_does_not_help_max_min_at_lambda_h(fig8):
    """The paper reports about half the makespan; at lambda_h both strategies map at nearly every arrival."""
    assert fig8("max-min (count 40)", "max-min")[1] > 0.95


def test_figs9_to_11_batch_beats_immediate_more_at_higher_rates():
    gaps = {}
    for fig in (9, 10, 11):
        r = ratios(f"maheswaran-fig{fig}")
        for h in ("mct", "kpb"):
            assert r(h, "min-min")[1] > 1.0 and r(h, "sufferage")[1] > 1.0
        gaps[fig] = r("mct", "min-min")[0]
    assert gaps[10] < gaps[9] < gaps[11]
