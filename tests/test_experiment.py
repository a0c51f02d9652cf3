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
    from hcsched.runner import RunOptions
    for jobs in (0, -3, 1.5, True):
        with pytest.raises(HcschedError, match=f"^jobs: {jobs!r} is not allowed"):
            RunOptions(jobs)


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


def test_progress_is_said_in_the_models_word_in_whole_trials():
    """Progress in the model's word (not "trials" where the model says replications or simulations), in whole trials
    (3.5 done says 3, 0.9 says 0: a trial half done is not yet an answer), while the pace uses the fraction."""
    from hcsched.experiment import progress_text

    assert progress_text(3.5, 50, "replication", 7.0) == "3 of 50 replications done, about 93 s left"
    assert progress_text(0, 10, "simulation", 1.0) == "0 of 10 simulations done"
    assert progress_text(4.0, 4, "trial", 2.0) == "4 of 4 trials done; putting the results together"  # never
    # "about 0 s left", nor a count of a bar that reads as stuck ("20 of 20 trials done, about 1 s left")
    assert progress_text(0.9, 30, "trial", 0.9).startswith("0 of 30 trials done, about 29 s left")
    assert progress_text(15.7, 16, "trial", 15.7).startswith("15 of 16 trials done")


# --- the time a run takes, before and while it runs ------------------------------------------------------------------
def test_progress_blends_the_estimate_with_the_pace_as_trials_complete():
    """Hand-made numbers: the time left weighs the estimate by the share not done and the pace so far by the share
    done; a run going exactly as estimated is forecast exactly; the result lies between the two forecasts."""
    from hcsched.experiment import progress_text

    def left(done, total, elapsed, estimate=None):
        text = progress_text(done, total, "trial", elapsed, estimate)
        if text.endswith((", finishing", "; putting the results together")):  # under half a second, or all done
            return 0.0
        if "left" not in text:
            return None
        number, unit = text.split("about ")[1].split(" ")[:2]
        return float(number) * (60 if unit == "min" else 1)

    # the case: 1 of 20 trials after 52 s (most of it starting up), estimated at 130 s: the pace alone says
    # 988 s; the blend 0.95 x 0.95 x 130 + 0.05 x 988 = 167 s, said in minutes
    assert progress_text(1, 20, "trial", 52.0) == "1 of 20 trials done, about 16 min left"
    assert progress_text(1, 20, "trial", 52.0, estimate=130.0) == "1 of 20 trials done, about 3 min left"
    # nothing done yet: the estimate less the time elapsed, nothing once it is past
    assert left(0, 20, 30.0, 130.0) == 100.0
    assert progress_text(0, 20, "trial", 140.0, estimate=130.0) == "0 of 20 trials done"
    # a run twice as slow as estimated: late in the run the pace rules (19 of 20 after 190 s: 10 s by the pace)
    assert left(19, 20, 190.0, 100.0) == 10.0  # 0.05 x 0.05 x 100 + 0.95 x 10 = 9.75
    for f in (0.1, 0.25, 0.5, 0.9):  # a run at the estimated pace: exactly the estimate's time left
        assert left(f * 40, 40, f * 80.0, 80.0) == pytest.approx((1 - f) * 80.0, abs=0.5)
    for done, elapsed in ((2, 100.0), (10, 20.0), (15, 300.0)):  # between the two forecasts, whichever is larger
        pace, planned = elapsed / done * (20 - done), (1 - done / 20) * 60.0
        assert min(pace, planned) - 0.5 <= left(done, 20, elapsed, 60.0) <= max(pace, planned) + 0.5
    # never negative, also past the end or with a useless estimate; the pace alone without one
    assert left(20, 20, 50.0, 10.0) == 0.0 and left(21, 20, 50.0) == 0.0
    assert left(5, 10, 10.0, 0.0) == left(5, 10, 10.0) == 10.0


def test_the_estimate_counts_the_trials_of_the_busiest_worker(monkeypatch):
    """Trials go out in chunks (trials_per_chunk) to the worker that frees first: with few trials a core idles; a
    run handed to workers (more than one job asked for) pays per chunk CHUNK_ROUND_TRIP and the shipping of its
    scenario (SHIP_BYTE per pickled byte), and RUN_OVERHEAD once; one job is the trials' seconds alone."""
    import pickle

    from hcsched.experiment import CHUNK_ROUND_TRIP, RUN_OVERHEAD, SHIP_BYTE, estimate_seconds
    from hcsched.models import get_model

    model = get_model(SMALL.model)
    trip = CHUNK_ROUND_TRIP + SHIP_BYTE * len(pickle.dumps(SMALL, pickle.HIGHEST_PROTOCOL))
    monkeypatch.setattr(model, "trial_seconds", lambda spec, heuristics: 2.0)  # a trial alone in its chunk
    assert estimate_seconds(SMALL, trials=5, jobs=1) == 10.0
    assert estimate_seconds(SMALL, trials=1, jobs=2) == pytest.approx(2.0 + trip + RUN_OVERHEAD)  # still in a worker
    assert estimate_seconds(SMALL, trials=3, jobs=2) == pytest.approx(4.0 + 2 * trip + RUN_OVERHEAD)  # a core idles
    assert estimate_seconds(SMALL, trials=4, jobs=2) == pytest.approx(4.0 + 2 * trip + RUN_OVERHEAD)
    assert estimate_seconds(SMALL, trials=20, jobs=3) == pytest.approx(14.0 + 7 * trip + RUN_OVERHEAD)  # 7, 7, 6
    monkeypatch.setattr(model, "trial_seconds", lambda spec, heuristics: 0.001)  # chunks of 3: 3 3 3 3 3 3 2
    assert estimate_seconds(SMALL, trials=20, jobs=2) == pytest.approx(0.011 + 4 * trip + RUN_OVERHEAD)  # 3 3 3 2
    assert estimate_seconds(SMALL, trials=20, jobs=1) == pytest.approx(0.020)


def test_a_large_scenario_pays_for_its_shipping_to_each_chunk(monkeypatch):
    """Two scenarios alike but for the size of a user's ETC matrix, each trial's cost held equal: the larger one's
    estimate is longer by its extra pickled bytes x SHIP_BYTE for each chunk of the busiest worker, and only when the
    run goes to worker processes."""
    import pickle

    from hcsched.experiment import SHIP_BYTE, estimate_seconds
    from hcsched.models import get_model

    def matrix(tasks: int) -> Scenario:
        return Scenario.from_dict({"etc": {"method": "matrix", "matrix": [[10.0 + i, 20.0 + i] for i in range(tasks)]},
                                   "heuristics": ["mct"], "trials": 4})

    small, large = matrix(10), matrix(5000)
    monkeypatch.setattr(get_model("etc"), "trial_seconds", lambda spec, heuristics: 2.0)  # chunks of one trial
    extra = len(pickle.dumps(large, pickle.HIGHEST_PROTOCOL)) - len(pickle.dumps(small, pickle.HIGHEST_PROTOCOL))
    assert extra > 90_000
    gap = estimate_seconds(large, jobs=2) - estimate_seconds(small, jobs=2)
    assert gap == pytest.approx(2 * extra * SHIP_BYTE)  # 2 chunks on the busiest worker
    assert estimate_seconds(large, jobs=1) == estimate_seconds(small, jobs=1) == 8.0


def test_the_etc_estimate_follows_the_backlog_not_tasks_squared():
    """Batch mode costs the tasks left unmapped at each event, which grow with the load: Figs. 10, 9 and 11 (lambda_l,
    h, t) in that order; the issue's 2000 x 2000 matrix under the quickstart's light load is seconds, not the 6.6
    minutes a cost in tasks^2 x machines said (its run takes about 5 s on 2 cores)."""
    from hcsched import preset
    from hcsched.experiment import estimate_seconds

    fig = {k: estimate_seconds(preset(f"maheswaran-fig{k}"), jobs=2) for k in (9, 10, 11)}
    assert fig[10] < fig[9] < fig[11]
    big = preset("quickstart").replace(tasks=2000, machines=2000)
    assert 2.0 < estimate_seconds(big, jobs=2) < 15.0
    # Max-min, which maps badly, is overloaded (and costs most) already at Fig. 9's load
    six = preset("maheswaran-fig6")
    one = {h.name: estimate_seconds(six.replace(heuristics=[h.to_json()], benchmark=None), trials=1, jobs=1)
           for h in six.heuristics}
    assert one["max-min"] > 3 * one["sufferage"] > 3 * one["min-min"] / 2


def test_the_count_done_never_steps_back_when_the_first_results_are_shown():
    """Estimation, classes and an etc swap: "2 of 30 trials done", then "1 of 30 trials shown below" once the first
    results were drawn: the count stepped back. The count done stays, the lead's count beside it."""
    from hcsched.experiment import progress_count
    assert progress_count(2.5, 30, "trial") == "2 of 30 trials done"
    assert progress_count(2.5, 30, "trial", shown=1) == "2 of 30 trials done, 1 shown below"
    assert progress_count(2.0, 30, "trial", shown=2) == "2 of 30 trials done and shown below"
    assert progress_count(1.0, 30, "trial", shown=2) == "2 of 30 trials done and shown below"  # never fewer than shown
