"""Direction: more machines and the static Min-min makespan."""

import numpy as np
import pytest

from hcsched import map_tasks, read_etc

# Found by a random search: a third machine raises Min-min's makespan from 16 to 17 (a greedy anomaly).
ANOMALY = np.array([[16, 1, 13], [10, 5, 5], [8, 6, 6], [17, 9, 17], [1, 13, 11], [14, 1, 3], [2, 14, 8]], dtype=float)


def test_more_machines_can_raise_min_min_makespan():
    assert map_tasks(ANOMALY[:, :2], "min-min").makespan == 16
    assert map_tasks(ANOMALY, "min-min").makespan == 17


@pytest.mark.parametrize("name", ["min-min", "sufferage", "mct"])
def test_hcsp_more_machines_never_raise_makespan(hcsp_dir, name):
    """On every HCSP instance, the makespan falls as 4, 8, 12 and 16 of its machines are used."""
    for path in sorted(hcsp_dir.glob("u_*.0")):
        e = read_etc(path)
        spans = [map_tasks(e[:, :m], name).makespan for m in (4, 8, 12, 16)]
        assert spans == sorted(spans, reverse=True), path.name
