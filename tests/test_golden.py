"""Golden results: the same scenario and seed give the same bytes, before and after any refactoring.

The files in tests/golden/ were made by tests/golden/make.py before the model
interface existed; regenerate them only for an intended change of results.
"""

from pathlib import Path

import pytest

from hcsched import load_scenario, simulate

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.json"))


def test_there_are_golden_cases_of_both_models():
    models = {load_scenario(GOLDEN / f"{c}.json").model for c in CASES}
    assert len(CASES) >= 8 and models >= {"etc", "classes"}


@pytest.mark.parametrize("case", CASES)
def test_results_csv_is_byte_identical(case):
    scenario = load_scenario(GOLDEN / f"{case}.json")
    expected = (GOLDEN / f"{case}.csv").read_text()
    assert simulate(scenario, jobs=1).to_csv(index=False) == expected
    assert simulate(scenario, jobs=2).to_csv(index=False) == expected
