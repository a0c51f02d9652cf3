"""Determinism, common random numbers and parallel runs."""

import numpy as np
import pandas as pd
import pytest

from hcsched import HcschedError, Scenario, simulate, trial_schedules
from hcsched.experiment import trial_seeds
from hcsched.models.etc.spec import ArrivalSpec, EtcSpec
from hcsched.models.etc.workload import make_workload

SMALL = Scenario(machines=5, tasks=120, arrivals=ArrivalSpec("poisson", 0.02),
                 heuristics=("mct", "kpb", "min-min", "sufferage"), trials=6, seed=11)


def test_same_seed_identical_csv_any_jobs(tmp_path):
    a = simulate(SMALL, jobs=1).to_csv(index=False)
    b = simulate(SMALL, jobs=2).to_csv(index=False)
    c = simulate(SMALL, jobs=1).to_csv(index=False)
    assert a == b == c
    assert simulate(SMALL, seed=12, jobs=1).to_csv(index=False) != a


def test_common_random_numbers():
    """Every heuristic of a trial sees the same arrivals, expected and actual times."""
    sched = trial_schedules(SMALL, trial=3)
    w = make_workload(SMALL, trial_seeds(SMALL.seed, SMALL.trials)[3])
    for s in sched.values():
        np.testing.assert_array_equal(s.arrival, w.arrival)
        rows = np.arange(w.etc.shape[0])
        np.testing.assert_array_equal(s.expected, w.etc[rows, s.machine])
        np.testing.assert_array_equal(s.actual, w.actual[rows, s.machine])


def test_trials_are_independent_of_trial_count():
    """Trial t is the same whether 3 or 6 trials are run (its seed is spawned by index)."""
    a = simulate(SMALL, trials=3, jobs=1)
    b = simulate(SMALL, trials=6, jobs=1)
    pd.testing.assert_frame_equal(a, b[b["trial"] < 3].reset_index(drop=True))


def test_normalised_to_benchmark_and_columns():
    df = simulate(SMALL, jobs=1)
    assert SMALL.benchmark_label == "min-min"
    assert (df.loc[df.heuristic == "min-min", "normalized_makespan"] == 1.0).all()
    for col in ("trial", "heuristic", "makespan", "normalized_makespan", "sum_flow", "mean_flow", "max_flow",
                "mean_stretch", "max_stretch", "utilization", "mapping_events", "min_etc_share"):
        assert col in df.columns
    batch = df[df.heuristic == "sufferage"]
    assert (batch.mapping_events > 0).all() and (df[df.heuristic == "mct"].mapping_events == 0).all()


def test_schedule_table_matches_metrics():
    sched = trial_schedules(SMALL, trial=0)
    df = simulate(SMALL, trials=1, jobs=1)
    for label, s in sched.items():
        table = s.to_frame()
        assert list(table.columns) == ["task", "machine", "arrival", "start", "finish", "expected", "actual"]
        assert table["finish"].max() == df.loc[df.heuristic == label, "makespan"].item()


def test_more_machines_lower_mean_makespan():
    """Direction: with more machines the mean Min-min makespan over trials falls (static tasks)."""
    base = Scenario(machines=4, tasks=200, arrivals=ArrivalSpec("static"), heuristics=("min-min",), trials=8, seed=3,
                    etc=EtcSpec(task_het=100, machine_het=10))
    spans = [simulate(base.replace(machines=m), jobs=1)["makespan"].mean() for m in (4, 8, 16)]
    assert spans[0] > spans[1] > spans[2]


def test_bad_arguments():
    with pytest.raises(HcschedError, match="'trials': 0"):
        simulate(SMALL, trials=0)
    with pytest.raises(HcschedError, match="jobs"):
        simulate(SMALL, jobs=0)


@pytest.mark.parametrize("key, fraction", [("lambda_h", 0.5), ("lambda_l", 0.9), ("lambda_t", 0.2)])
def test_preset_rates_meet_their_calibration_targets(key, fraction):
    """Section 5.1: at the preset rates MCT has completed 50% / 90% / 20% of the tasks when the last arrives."""
    from hcsched import preset
    from hcsched.models.etc.calibration import completed_fraction
    from hcsched.models.etc.presets import RATES

    sc = preset("maheswaran-fig4")
    got = completed_fraction(sc, RATES[("inconsistent", "sort")][key], trial_seeds(2024, 20))  # as recorded
    assert got == pytest.approx(fraction, abs=0.005)


def test_calibrate_recovers_a_rate():
    from hcsched import calibrate
    from hcsched.models.etc.calibration import completed_fraction

    sc = Scenario(machines=4, tasks=300, heuristics=("mct",))
    rate = calibrate(sc, "lambda_l", trials=3, seed=1)
    seeds = trial_seeds(1, 3)
    assert completed_fraction(sc, rate, seeds) == pytest.approx(0.9, abs=0.04)  # the fraction moves in steps
    assert completed_fraction(sc, rate / 2, seeds) > 0.9 > completed_fraction(sc, rate * 2, seeds)
    with pytest.raises(HcschedError, match="target"):
        calibrate(sc, 1.5)


def test_progress_is_said_in_the_models_word_with_fractions_of_a_trial():
    """Issue 18, item 9: "trials" where the model says replications or simulations; item 5: progress inside a trial."""
    from hcsched.experiment import progress_text

    assert progress_text(3.5, 50, "replication", 7.0) == "3.5 of 50 replications done, about 93 s left"
    assert progress_text(0, 10, "simulation", 1.0) == "0 of 10 simulations done"
    assert progress_text(4.0, 4, "trial", 2.0) == "4 of 4 trials done, about 0 s left"
