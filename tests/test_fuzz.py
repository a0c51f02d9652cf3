"""Every upload parser and every way a scenario comes in, fed hypothesis-made input: it parses or answers with one
line in an HcschedError, never another exception or a traceback."""

import base64
import contextlib
import copy
import io
import json
import os
import pathlib
import string
import zlib
from unittest import mock

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hcsched import HcschedError, preset
from hcsched.cli import main as cli_main
from hcsched.links import scenario_from_query
from hcsched.presets import preset_names
from hcsched.readers import parse_csv_etc, parse_hcsp_etc, read_etc
from hcsched.scenario import Scenario, parse_scenario

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


JSON = st.recursive(st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers(-10**6,
                                                                                        10**6) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
BASE = preset("quickstart").to_dict()
CLASSES = preset("alazzoni-B").to_dict()


@FUZZ
@given(st.sampled_from([BASE, CLASSES]), st.sampled_from(sorted(set(BASE) | set(CLASSES) | {"groups", "service"})),
       JSON)
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


# --- every preset, mutated, through every way a scenario comes in ------------------------------------------------
# A scenario arrives as a dict (the API, an upload once parsed), as JSON or TOML text, as a link (readable or packed)
# and as a file given to `hcsched run --check`. Each either loads or says one line in an HcschedError; and none of
# the ways but the file may read a file of the server.


PRESETS = {name: preset(name).to_dict() for name in preset_names()}
MUTATE = settings(max_examples=400, deadline=5000, suppress_health_check=[HealthCheck.too_slow])
HOSTILE_TEXT = st.sampled_from([
    "/dev/zero", "/etc/passwd", "../../../etc/passwd", "[sign in](https://example.invalid)",
                                "![x](https://e.invalid/p)",
    "<img src=x onerror=alert(1)>", "javascript:alert(1)", "a\nb", "", " ", "x" * 5000, ":red[big]"])
EXTREME = st.sampled_from([0, -1, 1e-308, 5e-324, 1e308, -1e308, 1e300, 10**20, 2**63, 10**300, 1e12, 1e13, 0.5, True])
FILE_KEYS = st.sampled_from([{"path": "/dev/zero"}, {"path": "/etc/passwd"}, {"path": "../../../etc/passwd"},
                             {"tasks": "/dev/zero", "processors": "/etc/passwd"}])
# never shared
VALUE = st.one_of(JSON, HOSTILE_TEXT, EXTREME, FILE_KEYS, st.lists(EXTREME, max_size=5)).map(copy.deepcopy)


def _paths(node, prefix=()):
    """Every place in a scenario's table: (key, ...) of nested tables and list positions (the first few)."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node[:3]):
            yield from _paths(value, (*prefix, i))


def _set(node, path, value):
    for part in path[:-1]:
        node = node[part]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value


_DELETE = object()


@st.composite
def mutated(draw):
    """A preset's scenario table with one to three places changed, removed, or given an unknown key."""
    name = draw(st.sampled_from(sorted(PRESETS)))
    data = json.loads(json.dumps(PRESETS[name]))
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in _paths(data) if p]
        path = draw(st.sampled_from(places))
        how = draw(st.sampled_from(["value", "value", "delete", "unknown"]))
        if how == "unknown" and isinstance(_get(data, path), dict):
            _get(data, path)[draw(st.sampled_from(["path", "zzz", "file"]))] = draw(VALUE)
        elif how == "delete" and isinstance(path[-1], str):
            _set(data, path, _DELETE)
        else:
            _set(data, path, draw(VALUE))
    return name, data


def _get(node, path):
    for part in path:
        node = node[part]
    return node


@contextlib.contextmanager
def no_file_read():
    """Fail the test if the code opens or stats a file by a path (imports are unaffected: they use posix directly)."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"a file was touched: {args[:1]!r}")

    with mock.patch("builtins.open", refuse), mock.patch("io.open", refuse), mock.patch("os.open", refuse), \
            mock.patch("os.stat", refuse), mock.patch.object(pathlib.Path, "read_text", refuse), \
            mock.patch.object(pathlib.Path, "read_bytes", refuse), mock.patch.object(pathlib.Path, "open", refuse):
        yield


def _loads_or_one_line(call):
    with no_file_read():
        return _one_line(call)


@MUTATE
@given(mutated())
def test_every_preset_mutated_as_a_table(case):
    _, data = case
    _loads_or_one_line(lambda: Scenario.from_dict(data))


@MUTATE
@given(mutated(), st.sampled_from(["json", "toml"]))
def test_every_preset_mutated_as_text(case, fmt):
    _, data = case
    if fmt == "toml":
        import tomli_w
        try:
            text = tomli_w.dumps(data)
        except (TypeError, ValueError):  # None or a list of mixed tables has no TOML form
            return
    else:
        try:
            text = json.dumps(data)
        except ValueError:  # an integer over the conversion limit
            return
    _loads_or_one_line(lambda: parse_scenario(text, fmt))


def _packed(data) -> str:
    text = json.dumps(data, separators=(",", ":"))
    return base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")


@MUTATE
@given(mutated())
def test_every_preset_mutated_as_a_packed_link(case):
    _, data = case
    _loads_or_one_line(lambda: scenario_from_query({"scenario": _packed(data)}))


def _flat(node, prefix=""):
    if isinstance(node, dict) and node:
        for key, value in node.items():
            yield from _flat(value, f"{prefix}{key}.")
    else:
        yield prefix[:-1], node


@MUTATE
@given(st.sampled_from(sorted(PRESETS)), st.data())
def test_every_preset_as_a_readable_link_with_any_setting(name, data):
    """``?preset=NAME&key=value`` for any of the preset's settings (or another key), any value, as a link carries it."""
    settings_ = dict(_flat(PRESETS[name]))
    key = data.draw(st.one_of(st.sampled_from(sorted(settings_)), st.text(max_size=12)))
    value = data.draw(st.one_of(VALUE.map(lambda v: json.dumps(v) if not isinstance(v, str) else v),
                                st.text(max_size=40)))
    query = {"preset": name, key: value}
    _loads_or_one_line(lambda: scenario_from_query(query))


@MUTATE
@given(JSON)
def test_any_json_as_a_scenario(data):
    _loads_or_one_line(lambda: Scenario.from_dict(data))
    _loads_or_one_line(lambda: scenario_from_query({"scenario": _packed(data)}))


CHECK = settings(max_examples=200, deadline=10000, suppress_health_check=[HealthCheck.too_slow])


@CHECK
@given(mutated())
def test_every_preset_mutated_through_run_check(tmp_path_factory, case):
    """``hcsched run FILE --check``: exit 0, or exit 2 with one line; never 1 (an error inside hcsched)."""
    _, data = case
    try:
        text = json.dumps(data)
    except ValueError:
        return
    path = tmp_path_factory.mktemp("check") / "scenario.json"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), mock.patch.dict(os.environ):
        code = cli_main(["run", str(path), "--check"])
    lines = err.getvalue().strip().splitlines()
    assert code in (0, 2), (code, err.getvalue())
    assert code == 0 or len(lines) == 1, err.getvalue()
