"""The registry of Al-Azzoni and Down's claims (issue 19): every printed cell is a claim, and its own checks follow
the numbers. The contract every registry keeps is tests/test_claims.py's."""

import math

import pandas as pd
import pytest

import hcsched
from hcsched.claims import FAILS, HOLDS, PARTLY
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
                          "lambda_restricted": 1.2} for label, rows in values.items() for t, (q, flag) in enumerate(rows)])


def test_the_interval_check_follows_the_numbers():
    check = interval_check("mct", 20.05, 21.10)
    inside = _table(mct=[(20.3, False), (20.9, False), (20.6, False), (20.4, False)])
    out = check.evaluate(inside, {})
    assert out.verdict == HOLDS and out.value == pytest.approx(20.55) and out.lower < 21.10
    assert out.series[1] == ("paper", pytest.approx(20.575), 20.05, 21.10)
    near = _table(mct=[(19.0, False), (19.1, False), (19.05, False)])  # 7.5% below, intervals apart
    assert check.evaluate(near, {}).verdict == PARTLY
    far = _table(mct=[(25.0, False), (25.2, False), (25.1, False)])  # 22% above
    out = check.evaluate(far, {})
    assert out.verdict == FAILS and "do not overlap" in out.detail
    with pytest.raises(hcsched.HcschedError, match="no heuristic 'mct'"):
        check.evaluate(_table(lpas=[(1, False), (2, False)]), {})


def test_the_stability_check_follows_the_flags():
    every = _table(kpb=[(900, True)] * 4)
    some = _table(kpb=[(900, True), (500, False), (800, True), (700, True)])
    none = _table(kpb=[(90, False)] * 4)
    unstable, stable = stability_check("kpb", True), stability_check("kpb", False)
    assert [unstable.evaluate(t, {}).verdict for t in (every, some, none)] == [HOLDS, PARTLY, FAILS]
    assert [stable.evaluate(t, {}).verdict for t in (every, some, none)] == [FAILS, FAILS, HOLDS]
    one_of_four = _table(kpb=[(90, False), (95, False), (400, True), (92, False)])
    assert stable.evaluate(one_of_four, {}).verdict == PARTLY and unstable.evaluate(one_of_four, {}).verdict == FAILS
    out = unstable.evaluate(some, {})
    assert out.value == pytest.approx(75.0) and out.share == 0.75 and "3 of 4" in out.detail
    assert math.isnan(stable.evaluate(_table(kpb=[(90, False)]), {}).lower)  # one replication: no interval
