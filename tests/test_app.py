from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset, simulate  # noqa: E402


def test_landing_page_runs_the_default_scenario():
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception
    at.button(key="run").click().run()
    assert not at.exception
    expected = simulate(preset("quickstart"), jobs=1)
    shown = at.dataframe[0].value
    means = expected.groupby("heuristic", sort=False)["makespan"].mean()
    pd.testing.assert_series_equal(shown.set_index("heuristic")["makespan"], means, check_names=False)
    assert len(at.get("download_button")) == 2
