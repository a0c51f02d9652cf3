"""Every upload parser, fed hypothesis-made bytes and text: it parses or answers with one line, never a traceback."""

import json
import string

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcsched import HcschedError, preset
from hcsched.readers import parse_csv_etc, parse_hcsp_etc, read_etc
from hcsched.scenario import parse_scenario

FUZZ = settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
CSVISH = st.text(alphabet=string.digits + ".,;\t\n -eE+xnaifNAIF\"'#", max_size=300)
TEXT = st.one_of(CSVISH, st.text(max_size=300))


def _one_line(call):
    try:
        return call()
    except HcschedError as exc:
        assert "\n" not in str(exc) and str(exc), repr(str(exc))
        return None


@FUZZ
@given(TEXT)
def test_etc_csv(text):
    out = _one_line(lambda: parse_csv_etc(text))
    if out is not None:
        etc = out[0]
        assert etc.ndim == 2 and etc.size and np.isfinite(etc).all() and (etc >= 0).all()


@FUZZ
@given(TEXT, st.one_of(st.none(), st.integers(-2, 20)))
def test_hcsp(text, machines):
    etc = _one_line(lambda: parse_hcsp_etc(text, machines))
    if etc is not None:
        assert etc.ndim == 2 and np.isfinite(etc).all()


@FUZZ
@given(st.binary(max_size=400))
def test_etc_file_of_any_bytes(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "upload.csv"
    path.write_bytes(data)
    _one_line(lambda: read_etc(path))


JSON = st.recursive(st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers(-10**6, 10**6) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
BASE = preset("quickstart").to_dict()
CLASSES = preset("alazzoni-B").to_dict()


@FUZZ
@given(st.sampled_from([BASE, CLASSES]), st.sampled_from(sorted(set(BASE) | set(CLASSES) | {"groups", "service"})), JSON)
def test_scenario_with_any_value_for_a_key(base, key, value):
    data = {**base, key: value}
    _one_line(lambda: parse_scenario(json.dumps(data)))


@FUZZ
@given(TEXT, st.sampled_from(["json", "toml"]))
def test_scenario_text(text, fmt):
    _one_line(lambda: parse_scenario(text, fmt))


TRACE_TEXT = st.one_of(st.text(alphabet=string.digits + string.ascii_lowercase[:6] + ".,;\t\n -eE+\"", max_size=300),
                       st.text(max_size=300),
                       st.text(alphabet=string.digits + ".,\n -", max_size=200).map(
                           lambda body: "problem,task,stage,release,x1,work\n" + body))


@FUZZ
@given(TRACE_TEXT)
def test_time_shared_servers_and_tasks_csv(text):
    from hcsched.models.timeshared.readers import parse_servers, parse_tasks
    _one_line(lambda: parse_servers(text))
    _one_line(lambda: parse_tasks(text))


@FUZZ
@given(TRACE_TEXT)
def test_estimation_trace_csvs(text):
    from hcsched.models.estimation.traces import parse_processors, parse_tasks
    _one_line(lambda: parse_processors(text))
    _one_line(lambda: parse_tasks(text, {"p0": 100.0, "p1": 50.0}))


OTHERS = [preset(name).to_dict() for name in ("kim-loose-high-heavy", "caniou-mu10", "page-system-a")]


@FUZZ
@given(st.sampled_from(OTHERS), st.data(), JSON)
def test_other_models_scenario_with_any_value_for_a_key(base, data, value):
    """The value, time-shared and estimation models: any value for a key, or for a key of a nested table."""
    key = data.draw(st.sampled_from(sorted(base)))
    if isinstance(base[key], dict) and base[key] and data.draw(st.booleans()):
        sub = data.draw(st.sampled_from(sorted(base[key])))
        value = {**base[key], sub: value}
    _one_line(lambda: parse_scenario(json.dumps({**base, key: value})))
