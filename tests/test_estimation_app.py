"""The estimation model's dashboard module: its editor commits a changed estimator; Results draws its curves."""

import pytest
from conftest import ROOT

from hcsched import simulate
from hcsched.models.estimation import MODEL

st = pytest.importorskip("streamlit")


def test_editor_changes_the_estimator_and_results_show_the_curves():
    from streamlit.testing.v1 import AppTest

    from pages.common import RunResult

    sc = MODEL.tiny()
    at = AppTest.from_file(str(ROOT / "pages/scenario.py"), default_timeout=60)
    at.session_state["scenario"] = sc
    at.run()
    assert not at.exception
    next(s for s in at.selectbox if s.label == "Estimator").set_value("smoothed")
    at.run()
    assert not at.exception and at.session_state["scenario"].spec.estimator.method == "smoothed"
    at = AppTest.from_file(str(ROOT / "pages/results.py"), default_timeout=60)
    at.session_state["scenario"] = sc
    at.session_state["results"] = RunResult(sc, simulate(sc, jobs=1), 0.1)
    at.run()
    assert not at.exception
    assert "Curves over time (CSV)" in [b.label for b in at.get("download_button")]
    assert len(at.get("plotly_chart")) >= 5  # bars, distribution, error, idle, efficiency (+ Gantt)
