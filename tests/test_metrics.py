"""Per-trial metrics on hand-made schedules."""

import math

import numpy as np

from hcsched.metrics import Schedule, schedule_metrics, stretch


def test_stretch_of_zero_length_tasks():
    flow = np.array([4.0, 0.0, 3.0])
    actual = np.array([2.0, 0.0, 0.0])
    s = stretch(flow, actual)
    assert s[0] == 2.0 and s[1] == 1.0 and math.isnan(s[2])  # waited 3 s for a task of no length: undefined


def test_schedule_metrics_hand_computed_with_a_zero_length_task():
    # m0 runs t0 [0, 2) then t2 [2, 2) (zero length, arrived at 1: waited); t1 runs on m1 [1, 1) (zero length, no wait).
    s = Schedule(arrival=np.array([0.0, 1.0, 1.0]), machine=np.array([0, 1, 0]), start=np.array([0.0, 1.0, 2.0]),
                 finish=np.array([2.0, 1.0, 2.0]), expected=np.array([2.0, 0.0, 0.0]), actual=np.array([2.0, 0.0, 0.0]),
                 machines=2)
    m = schedule_metrics(s)
    assert m["makespan"] == 2.0 and m["sum_flow"] == 3.0 and m["max_flow"] == 2.0
    assert m["mean_stretch"] == 1.0 and m["max_stretch"] == 1.0  # t0 (2/2) and t1 (1); t2 left out
    assert m["utilization"] == 2.0 / (2 * 2.0)


def test_no_stretch_at_all_is_nan_not_an_error():
    s = Schedule(np.array([0.0, 0.0]), np.array([0, 0]), np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.zeros(2),
                 np.array([0.0, 0.0]), 1)
    m = schedule_metrics(s)
    assert math.isnan(m["max_stretch"]) is False  # task 0 did not wait: stretch 1
    s2 = Schedule(np.array([0.0]), np.array([0]), np.array([1.0]), np.array([1.0]), np.zeros(1), np.zeros(1), 1)
    assert math.isnan(schedule_metrics(s2)["max_stretch"])
