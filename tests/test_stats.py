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
