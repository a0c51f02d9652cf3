import math

import pandas as pd
import pytest

from hcsched.stats import mean_ci, summarize


def test_mean_ci_hand_computed():
    # mean 2, sd 1, n 3: t(0.975, 2) = 4.302653, half-width 4.302653 / sqrt(3) = 2.484138
    mean, lo, hi = mean_ci([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert lo == pytest.approx(2 - 2.484138, abs=1e-6)
    assert hi == pytest.approx(2 + 2.484138, abs=1e-6)


def test_mean_ci_one_value_and_zero_variance():
    mean, lo, hi = mean_ci([5.0])
    assert mean == 5.0 and math.isnan(lo) and math.isnan(hi)
    assert mean_ci([4.0, 4.0, 4.0]) == (4.0, 4.0, 4.0)
    assert all(math.isnan(x) for x in mean_ci([]))


def test_summarize_keeps_order_and_counts():
    df = pd.DataFrame({"heuristic": ["b", "a", "b", "a"], "x": [1.0, 2.0, 3.0, 2.0]})
    s = summarize(df, ["x"])
    assert s["heuristic"].tolist() == ["b", "a"]
    assert s["trials"].tolist() == [2, 2]
    assert s.loc[1, "x_lower"] == s.loc[1, "x_upper"] == 2.0


def test_bootstrap_interval_stays_in_the_range_of_heavy_tailed_values():
    values = [30.0] * 19 + [60000.0]  # a max stretch that explodes in one trial
    mean, lo, hi = mean_ci(values, method="t")
    assert lo < 0  # Student-t leaves the metric's range
    mean, lo, hi = mean_ci(values, method="bootstrap")
    assert 30.0 <= lo <= mean <= hi <= 60000.0
    assert mean_ci(values, method="auto") == (mean, lo, hi)
    assert mean_ci(values, method="bootstrap") == (mean, lo, hi)  # fixed seed: reproducible bounds


def test_auto_keeps_student_t_where_it_is_right():
    values = [100.0, 102.0, 98.0, 101.0, 99.0]
    assert mean_ci(values, method="auto") == mean_ci(values, method="t")
    from hcsched.stats import interval_method

    assert interval_method(values) == "t" and interval_method([30.0] * 19 + [60000.0]) == "bootstrap"


def test_bootstrap_matches_the_normal_interval_for_a_large_symmetric_sample():
    import numpy as np

    x = np.random.default_rng(1).normal(10.0, 2.0, 400)
    _, lo_t, hi_t = mean_ci(x, method="t")
    _, lo_b, hi_b = mean_ci(x, method="bootstrap")
    assert lo_b == pytest.approx(lo_t, abs=0.05) and hi_b == pytest.approx(hi_t, abs=0.05)


def test_summarize_uses_each_metrics_method():
    df = pd.DataFrame({"heuristic": ["a"] * 20, "x": [30.0] * 19 + [60000.0]})
    t = summarize(df, ["x"])
    b = summarize(df, ["x"], methods={"x": "auto"})
    assert t.loc[0, "x_lower"] < 0 <= b.loc[0, "x_lower"]


def test_a_fraction_keeps_its_interval_at_or_below_one():
    from hcsched.stats import interval_method

    busy = [0.99, 0.97, 1.0, 0.8, 0.999, 0.95]
    assert mean_ci(busy, method="t")[2] > 1.0  # Student-t leaves the range of a utilisation
    mean, lo, hi = mean_ci(busy, method="auto-fraction")
    assert lo >= 0.8 and hi <= 1.0 and interval_method(busy, "auto-fraction") == "bootstrap"
    assert mean_ci(busy, method="auto") == mean_ci(busy, method="t")  # plain auto only guards zero
    assert interval_method([0.5, 0.52, 0.49], "auto-fraction") == "t"
