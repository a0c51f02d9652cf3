"""The claims registry of Maheswaran et al. (1999), the ETC model: its particular facts (readings, sweeps
reusing the figures' scenarios) and its own checks' verdicts follow the numbers. The contract every registry keeps is
tests/test_claims.py's."""

import pandas as pd
import pytest

import hcsched
from hcsched.claims import FAILS, HOLDS
from hcsched.models.etc import claims as mc
from hcsched.models.etc.presets import RATES
from hcsched.reproduce import key_of, variant_scenario, variants

CLAIMS = mc.CLAIMS
LOWER = {"makespan": "lower", "normalized_makespan": "lower"}


def table(extra=None, **columns) -> pd.DataFrame:
    """One row per trial and heuristic from per-heuristic lists of makespans (``extra``: constant columns)."""
    rows = [{"trial": t, "heuristic": h, "makespan": float(v), **(extra or {})}
            for h, values in columns.items() for t, v in enumerate(values)]
    return pd.DataFrame(rows)


def test_fig5_reading_is_the_other_preset_and_sweeps_reuse_the_figures_scenarios():
    fig5 = next(c for c in CLAIMS if c.id == "maheswaran-fig5-kpb-best")
    smallest = variant_scenario(fig5, dict(fig5.variants()[1][1]))
    assert key_of(smallest) == key_of(hcsched.preset("maheswaran-fig5-smallest"))  # the same system, named otherwise
    rate = next(c for c in CLAIMS if c.id == "maheswaran-rate-batch-gains")
    points = {key_of(s) for _, s in variants([rate])[0].points}
    for fig in (9, 10, 11):  # three of the sweep's four points run once for the figures too
        assert key_of(hcsched.preset(f"maheswaran-fig{fig}")) in points
    assert RATES[("semiconsistent", "smallest")]["lambda_h"] == mc.SMALLEST.changes["arrivals.rate"]


def test_the_claims_use_the_papers_50_trials_and_the_k_sweep_runs_every_point_under_both_readings():
    assert all(c.trials == 50 and c.paper and c.source and c.tiny for c in CLAIMS)
    k = next(c for c in CLAIMS if c.id == "maheswaran-kpb-k-insensitive")
    for v in variants([k], tiny=True):
        assert {values[mc.K] for values, _ in v.points} == set(mc.K_VALUES)


# --- the model's own checks on hand-made results ------------------------------------------------------------
def test_slightly_better_needs_both_better_and_close():
    check = mc.slightly_better("a", "b")
    assert check.evaluate(table(a=[95, 96, 94, 95], b=[100] * 4), LOWER).verdict == HOLDS
    assert check.evaluate(table(a=[60, 62, 61, 59], b=[100] * 4), LOWER).verdict == FAILS  # far better, not slightly
    assert check.evaluate(table(a=[105, 104, 106, 105], b=[100] * 4), LOWER).verdict == FAILS  # worse
    out = check.evaluate(table(a=[60, 62, 61, 59], b=[100] * 4), LOWER)
    assert "a 39.5 % lower than b" in out.detail and "against at least 0.9" in out.detail


def test_far_worse_is_the_weakest_of_its_parts():
    check = mc.far_worse("w", ("a", "b"))
    assert check.evaluate(table(w=[500, 510, 490, 505], a=[100] * 4, b=[120] * 4), LOWER).verdict == HOLDS
    out = check.evaluate(table(w=[500, 510, 490, 505], a=[100] * 4, b=[400] * 4), LOWER)
    assert out.verdict == FAILS and out.value == pytest.approx(1.253, abs=1e-3)  # the failing part's number
    assert [row[0] for row in out.series] == ["w", "a", "b"]


def test_aging_gain_is_largest_for_max_min():
    plain = {h: [100, 102, 98, 101] for h in ("min-min", "max-min", "sufferage")}
    aged = {"min-min "
            "(aging)": [101, 103, 99, 102], "max-min "
                                            "(aging)": [30, 31, 29, 30], "sufferage (aging)": [99, 101, 97, 100]}
    assert mc.AGING_GAIN.evaluate(table(**plain, **aged), LOWER).verdict == HOLDS
    aged.update({"max-min (aging)": [100, 102, 98, 101], "sufferage (aging)": [50, 51, 49, 50]})
    assert mc.AGING_GAIN.evaluate(table(**plain, **aged), LOWER).verdict == FAILS


def k_table(makespans: dict[float, list[float]]) -> pd.DataFrame:
    return pd.concat([table({mc.K: k}, kpb=values) for k, values in makespans.items()], ignore_index=True)


def test_kpb_k_checks_read_the_sweep_points():
    flat = {5.0: [500, 520, 480, 510], 10.0: [100, 102, 98, 101], 20.0: [105, 106, 103, 104],
            40.0: [108, 109, 107, 110]}
    assert mc.K_INSENSITIVE.evaluate(k_table(flat), LOWER).verdict == HOLDS
    steep = {**flat, 40.0: [200, 204, 196, 202]}
    out = mc.K_INSENSITIVE.evaluate(k_table(steep), LOWER)
    assert out.verdict == FAILS and out.value == pytest.approx(2.0, rel=0.01)
    fivefold = next(c.check for c in CLAIMS if c.id == "maheswaran-kpb-k-fivefold")
    assert fivefold.evaluate(k_table(flat), LOWER).verdict == HOLDS
    assert fivefold.evaluate(k_table({**flat, 5.0: [230, 232, 228, 231]}), LOWER).verdict == FAILS


def rate_table(gaps: list[float]) -> pd.DataFrame:
    """MCT and KPB ``gap`` percent above Min-min at rising rates (a little noise per trial)."""
    frames = [table({mc.RATE: rate}, **{"min-min": [100] * 4, "mct": [100 + g + e for e in (0, 1, -1, 0.5)],
                                          "kpb": [100 + g + e for e in (0.5, 0, -0.5, 1)]})
              for rate, g in zip((0.001, 0.002, 0.004), gaps, strict=True)]
    return pd.concat(frames, ignore_index=True)


def test_the_gap_between_immediate_and_batch_follows_the_rate():
    check = mc.gap_rises()
    assert check.evaluate(rate_table([2, 10, 20]), LOWER).verdict == HOLDS
    assert check.evaluate(rate_table([20, 10, 2]), LOWER).verdict == FAILS
    # up overall only: a trend must move the same way at every step
    out = check.evaluate(rate_table([2, 15, 10]), LOWER)
    assert out.verdict == FAILS and "mct vs min-min: means along arrivals.rate" in out.detail
    assert {row[0].split(":")[0] for row in out.series} == {"mct vs min-min", "kpb vs min-min"}
