"""A link for every what-if: the address carries the scenario, a link opens it in another session (and with run=1
runs it), a bad or tampered link is one line and the default scenario, and "Copy link" shows the address."""


import pandas as pd
import pytest

pytest.importorskip("streamlit")
from helpers import ROOT, wait_for_results  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from hcsched import preset, simulate  # noqa: E402
from hcsched.links import scenario_query  # noqa: E402


def _address(at) -> dict:
    """The address's scenario parameters, without the session's id (``sid``, pages.store) that it carries too."""
    return {k: v for k, v in at.query_params.items() if k != "sid"}

def opened(params: dict[str, str]) -> AppTest:
    """The dashboard opened at a link: a new session whose address carries ``params``."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(params)
    at.run()
    assert not at.exception, at.exception
    return at



def links(at) -> list[str]:
    return [c.value for c in at.get("code")]


def test_a_link_with_a_preset_and_a_changed_field_loads_that_scenario():
    at = opened({"preset": "quickstart", "machines": "12"})
    scenario = at.session_state["scenario"]
    assert scenario == preset("quickstart").replace(machines=12, name="quickstart (edited)",
                                                    description="Edited from quickstart: machines 8 → 12.")
    assert _address(at) == {"preset": "quickstart", "machines": "12"}
    assert at.subheader[0].value == "Scenario: quickstart (edited)" and not at.warning
    assert links(at) == ["/?preset=quickstart&machines=12", "/?preset=quickstart&machines=12&run=1"]
    at.switch_page("pages/scenario.py").run()
    assert at.number_input(key="sc_w_machines").value == 12


def test_a_plain_address_carries_the_default_scenario():
    at = opened({})
    assert at.session_state["scenario"] == preset("quickstart") and _address(at) == {"preset": "quickstart"}


def test_run_1_runs_it_and_the_results_show():
    at = opened({"preset": "quickstart", "trials": "3", "run": "1"})
    run = wait_for_results(at)
    expected = preset("quickstart").replace(trials=3)
    assert run.scenario == expected
    pd.testing.assert_frame_equal(run.results, simulate(expected, jobs=1))
    assert _address(at) == {"preset": "quickstart", "trials": "3"}  # run=1 dropped: a reload does not run again
    assert len(at.get("plotly_chart")) >= 2 and at.dataframe  # the results are drawn on Home


@pytest.mark.parametrize("params, words", [
    ({"preset": "quickstart", "machines": "0"},
     "scenario field 'machines': 0 is not allowed; allowed: an integer from 1"),
    ({"preset": "quikstart", "machines": "12"}, "link parameter 'preset': 'quikstart' is not allowed"),
    ({"preset": "quickstart", "machiens": "12"}, "link parameter 'machiens': unknown; did you mean machines"),
    ({"scenario": "AAAA"}, "link parameter 'scenario'"),
    ({"preset": "quickstart", "etc.path": "/etc/passwd"}, "names a file on the server"),
])
def test_a_tampered_link_is_one_line_and_the_default_scenario(params, words):
    at = opened({**params, "run": "1"})
    assert at.session_state["scenario"] == preset("quickstart")
    assert "job" not in at.session_state and "results" not in at.session_state  # a bad link runs nothing
    [warning] = at.warning
    assert words in warning.value and "The default scenario, quickstart, is loaded instead." in warning.value
    assert "\n" not in warning.value and not at.exception and not at.error
    assert _address(at) == {"preset": "quickstart"}
    at.run()
    assert at.warning[0].value == warning.value  # said until the scenario changes


def test_a_bad_run_value_loads_the_scenario_and_says_so():
    at = opened({"preset": "quickstart", "seed": "4", "run": "yes"})
    assert at.session_state["scenario"] == preset("quickstart").replace(seed=4) and "job" not in at.session_state
    assert "'run': 'yes' is not allowed; allowed: 1 (run the scenario on opening) or 0" in at.warning[0].value


def test_editing_a_field_on_the_scenario_page_updates_the_link():
    at = opened({})
    at.switch_page("pages/scenario.py").run()
    at.number_input(key="sc_w_machines").set_value(12).run()
    assert links(at)[0] == "/?preset=quickstart&machines=12"  # its Copy link
    at.switch_page("app.py").run()  # AppTest runs a page file on its own: the app's script writes the address
    assert _address(at) == {"preset": "quickstart", "machines": "12"}


def test_the_link_opens_the_same_scenario_in_another_session():
    first = opened({})
    first.switch_page("pages/scenario.py").run()
    first.number_input(key="sc_w_tasks").set_value(150).run()
    first.selectbox(key="sc_w_consistency").set_value("semiconsistent").run()
    first.switch_page("app.py").run()
    second = opened(_address(first))  # as Copy link gives it: without the session's id
    assert second.session_state["scenario"] == first.session_state["scenario"]
    assert second.session_state["scenario"].description == \
        "Edited from quickstart: tasks 200 → 150; consistency of the expected times inconsistent → semiconsistent; " \
        "semi-consistent part made by not set → sort."


def test_a_scenario_of_ones_own_travels_compressed():
    own = preset("alazzoni-A").replace(name="my system", description="Mine.", trials=4)
    query = scenario_query(own)
    assert list(query) == ["scenario"]
    at = opened(query)
    assert at.session_state["scenario"] == own and _address(at) == query and not at.warning
