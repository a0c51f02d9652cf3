"""The guides' code runs as written (docs/adding-a-model.md builds, registers and simulates a toy model)."""

import re

import pytest
from helpers import ROOT

from hcsched.registry import MODELS


def code_blocks(path):
    return re.findall(r"```python\n(.*?)```", (ROOT / path).read_text(), flags=re.S)


@pytest.fixture
def registry_restored():
    """The guide registers its model: the registry is as it was afterwards."""
    saved = dict(MODELS)
    yield
    MODELS.clear()
    MODELS.update(saved)


def test_the_toy_model_of_the_guide_runs_through_the_engine(registry_restored):
    namespace = {"__name__": "toy"}
    for block in code_blocks("docs/adding-a-model.md"):
        exec(compile(block, "adding-a-model.md", "exec"), namespace)
    model = namespace["MODEL"]
    results = namespace["results"]
    # first-free never leaves a machine idle while a task waits: a task waits only if every machine is busy
    from hcsched.experiment import trial_runs

    s = trial_runs(model.tiny(), 0)["first-free"]
    for i in range(s.arrival.size):
        if s.start[i] > s.arrival[i]:
            earlier = s.arrival < s.arrival[i]
            for j in range(3):
                assert ((s.machine == j) & earlier & (s.finish > s.arrival[i])).any()
    assert results.groupby("heuristic")["mean_flow"].mean().idxmin() == "first-free"  # with this seed
    from hcsched import HcschedError, Scenario, simulate

    again = simulate(model.tiny(), jobs=1)
    assert again.to_csv(index=False) == results.to_csv(index=False)  # same seed, same bytes
    with pytest.raises(HcschedError, match="'rate': -1"):
        Scenario.from_dict({"model": "toy", "rate": -1, "heuristics": ["random"]})
