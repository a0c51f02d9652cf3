"""The Run and Sweep pages' "Parallel jobs" start at the server pool's slots: its worker processes, or its Dask
cluster's worker threads (eight here), not this machine's cores, which would leave most of a cluster idle."""

import pytest
from helpers import app

from hcsched.pool import RunQueue
from hcsched.runner import default_jobs
from pages import jobs


class _Pool(RunQueue):
    """The run bookkeeping of a pool (its forecasts for the pages' estimates) with ``size`` slots, none sent to."""

    def __init__(self, size: int) -> None:
        super().__init__(0, 4)
        self.size = size


@pytest.mark.parametrize("slots", [8, 1])
def test_parallel_jobs_start_at_the_pools_slots(monkeypatch, slots):
    monkeypatch.setattr(jobs, "started_pool", lambda: _Pool(slots))
    assert app("pages/run.py").number_input(key="run_jobs").value == slots
    assert app("pages/sweep.py").number_input(key="sw_jobs").value == slots


def test_without_a_pool_or_before_it_has_workers_they_start_at_the_cores(monkeypatch):
    monkeypatch.setattr(jobs, "started_pool", lambda: None)
    assert app("pages/run.py").number_input(key="run_jobs").value == default_jobs()
    monkeypatch.setattr(jobs, "started_pool", lambda: _Pool(0))  # a cluster whose workers are not counted yet
    assert app("pages/run.py").number_input(key="run_jobs").value == default_jobs()
