"""lp-search in simulations: a batch heuristic like the others (every task once, none before it arrives), its cost
estimated, and no worse than Min-min where every task arrives at once."""

import numpy as np

from hcsched import simulate, trial_schedules
from hcsched.models import MODELS
from hcsched.models.etc.spec import ActualSpec, ArrivalSpec

ETC = MODELS["etc"]
SMALL = ETC.presets()["quickstart"]().replace(tasks=40, trials=2, heuristics=["min-min", "lp-search"])


def test_every_task_runs_once_never_before_it_arrives():
    for arrivals in (SMALL.arrivals, ArrivalSpec("static")):
        sc = SMALL.replace(arrivals=arrivals)
        schedules = trial_schedules(sc, trial=0)
        for label, s in schedules.items():
            frame = s.to_frame()
            assert sorted(frame["task"]) == list(range(40)), label
            assert (frame["start"] >= frame["arrival"] - 1e-9).all(), label
            for _, rows in frame.groupby("machine"):  # a dedicated machine runs one task at a time
                rows = rows.sort_values("start")
                assert (rows["start"].to_numpy()[1:] >= rows["finish"].to_numpy()[:-1] - 1e-9).all()


def test_no_worse_than_min_min_when_all_arrive_at_once_and_seeded():
    sc = SMALL.replace(arrivals=ArrivalSpec("static"), actual=ActualSpec("exact"))
    r = simulate(sc, jobs=1)
    search = r[r["heuristic"] == "lp-search"]
    assert (search["makespan_bound"] >= 1 - 1e-9).all()
    assert search["makespan"].mean() <= r[r["heuristic"] == "min-min"]["makespan"].mean()
    again = simulate(sc, jobs=2)
    assert again.to_csv(index=False) == r.to_csv(index=False)  # deterministic, in any number of processes


def test_its_cost_is_estimated():
    seconds = ETC.trial_seconds(SMALL.spec, SMALL.heuristics)
    fewer = ETC.trial_seconds(SMALL.spec,
                              SMALL.replace(heuristics=[{"name": "lp-search", "iterations": 10}]).heuristics)
    assert np.isfinite(seconds) and seconds > fewer > 0
