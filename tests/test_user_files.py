"""Files and text a user hands in: a scenario from an upload, a link or a results file names no file of the server; a
scenario file of one's own reads the files it names only if they are regular and not too large; a CSV's first row is
a header only if it looks like one; and parsing answers any bad input with one HcschedError line."""

import builtins
import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

import hcsched
from hcsched import HcschedError, Scenario, load_scenario, preset
from hcsched.export import SCENARIO_LINE, read_results_csv
from hcsched.links import scenario_from_query
from hcsched.models.estimation.traces import read_processors
from hcsched.models.timeshared.readers import read_servers
from hcsched.readers import check_upload, parse_csv_etc, read_etc
from hcsched.scenario import parse_scenario
from hcsched.userfiles import file_keys, read_text

QUICK = preset("quickstart").to_dict()
MATRIX_CSV = "1,2\n3,4\n5,6\n"


def _no_open(monkeypatch):
    """Make any opening of a file fail the test."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"a file was opened: {args[:1]}")
    monkeypatch.setattr(builtins, "open", refuse)
    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.setattr(Path, "read_text", refuse)


# --- a scenario from an upload, a link or a results file names no file ----------------------------------------------

@pytest.mark.parametrize("data, key", [
    ({**QUICK, "etc": {"path": "/etc/passwd"}}, "etc.path"),
    ({**QUICK, "etc": {"path": "../../../m.csv"}}, "etc.path"),
    ({"model": "timeshared", "heuristics": ["msf"], "servers": {"path": "servers.csv"}}, "servers.path"),
    ({"model": "timeshared", "heuristics": ["msf"], "tasks": {"path": "/dev/zero"}}, "tasks.path"),
    ({"model": "estimation", "heuristics": ["fa"], "trace": {"tasks": "t.csv", "processors": "p.csv"}}, "trace.tasks"),
    ({"model": "estimation", "heuristics": ["fa"], "trace": {"tasks": 5}}, "trace.tasks"),
    ({**QUICK, "heuristics": [{"name": "mct", "path": "/etc/passwd"}]}, "heuristics.0.path"),
])
def test_an_uploaded_scenario_naming_a_file_is_refused_before_anything_is_opened(monkeypatch, data, key):
    _no_open(monkeypatch)
    with pytest.raises(HcschedError, match=rf"^scenario field '{key}': names a file on the server, which a scenario "
                                           r"loaded here may not do; allowed: the values inline") as caught:
        parse_scenario(json.dumps(data))
    assert "\n" not in str(caught.value)


def test_the_refusal_says_where_the_dashboard_takes_the_matrix(tmp_path):
    (tmp_path / "m.csv").write_text(MATRIX_CSV)  # there to be read, were the path followed
    with pytest.raises(HcschedError, match=r"upload it under My own matrix\)$"):
        Scenario.from_dict({**QUICK, "etc": {"path": str(tmp_path / "m.csv")}})


def test_file_keys_are_found_at_any_depth_without_recursion():
    deep: dict = {"path": "x"}
    for _ in range(5000):
        deep = {"a": [deep]}
    assert file_keys(deep) == ["a.0" + ".a.0" * 4999 + ".path"]
    assert file_keys({"trace": {"tasks": [{"problem": "p"}], "processors": {"names": ["a"]}}}) == []


def test_a_link_naming_a_file_in_a_list_is_refused():
    with pytest.raises(HcschedError, match=r"link parameter 'heuristics.0.path': names a file on the server"):
        scenario_from_query({"preset": "quickstart", "heuristics": '[{"name":"mct","path":"/etc/passwd"}]'})


def test_compare_never_follows_a_path_in_a_results_csv(tmp_path):
    (tmp_path / "m.csv").write_text(MATRIX_CSV)
    data = {**QUICK, "etc": {"path": str(tmp_path / "m.csv")}}
    text = f"{SCENARIO_LINE}{json.dumps(data)}\ntrial,heuristic,makespan\n0,mct,1.0\n"
    with pytest.raises(HcschedError, match=r"'etc.path': names a file on the server"):
        read_results_csv(text)


def test_presets_still_load_without_a_folder():
    for name in ("quickstart", "caniou-mu10", "page-system-a", "alazzoni-B"):
        assert Scenario.from_dict(preset(name).to_dict()) == preset(name)


# --- a scenario file of one's own reads the regular files it names ---------------------------------------------------

def _scenario_file(tmp_path, path) -> Path:
    (tmp_path / "s.json").write_text(json.dumps({"etc": {"path": str(path)}, "heuristics": ["mct"], "trials": 1}))
    return tmp_path / "s.json"


def test_a_scenario_file_reads_a_matrix_beside_it(tmp_path):
    (tmp_path / "m.csv").write_text(MATRIX_CSV)
    assert load_scenario(_scenario_file(tmp_path, "m.csv")).etc.matrix == ((1, 2), (3, 4), (5, 6))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_refused_at_once(tmp_path):
    start = time.monotonic()
    with pytest.raises(HcschedError, match=r"^ETC file '/dev/zero': not a regular file; allowed: a CSV or HCSP file$"):
        load_scenario(_scenario_file(tmp_path, "/dev/zero"))
    assert time.monotonic() - start < 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_and_a_folder_are_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "pipe.csv")  # opening it to read would wait for a writer
    (tmp_path / "folder.csv").mkdir()
    with pytest.raises(HcschedError, match=r"'.*pipe.csv': not a regular file"):
        load_scenario(_scenario_file(tmp_path, "pipe.csv"))
    with pytest.raises(HcschedError, match=r"'.*folder.csv': a directory"):
        read_etc(tmp_path / "folder.csv")
    with pytest.raises(HcschedError, match=r"^scenario file '.*pipe.csv': not a regular file"):
        load_scenario(tmp_path / "pipe.csv")


def test_a_file_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    (tmp_path / "m.csv").write_text("1,2\n" * 1000)  # 4 kB
    monkeypatch.setenv("HCSCHED_MAX_FILE_MB", "0.001")
    with pytest.raises(HcschedError, match=r"ETC file '.*m.csv': over 0.001 MB, the largest file a scenario may name "
                                           r"\(HCSCHED_MAX_FILE_MB changes it\)"):
        load_scenario(_scenario_file(tmp_path, "m.csv"))
    monkeypatch.setenv("HCSCHED_MAX_FILE_MB", "lots")
    with pytest.raises(HcschedError, match=r"HCSCHED_MAX_FILE_MB: 'lots' is not allowed; allowed: a positive number"):
        read_etc(tmp_path / "m.csv")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc")
def test_a_file_that_claims_no_size_is_read_no_further_than_the_limit():
    with pytest.raises(HcschedError, match="over 1e-05 MB"):  # a regular file of size 0 with content
        read_text("/proc/self/status", "status", "a small file", limit=10)


@pytest.mark.parametrize("reader, what", [
    (read_servers, "servers file"),
    (read_processors, "processors CSV"),
])
def test_the_models_own_files_are_read_the_same_way(tmp_path, reader, what):
    (tmp_path / "dir.csv").mkdir()
    with pytest.raises(HcschedError, match=rf"^{what} '.*dir.csv': a directory; allowed: a .*CSV file"):
        reader(tmp_path / "dir.csv")


# --- a CSV's first row is a header only if it looks like one ---------------------------------------------------------

@pytest.mark.parametrize("text, cell", [
    ("50,abc,15\n20,60,15\n10,10,10\n", "row 1, column 2: 'abc' is not a number"),
    ("50,,15\n20,60,15\n10,10,10\n", "row 1, column 2: '' is not a number"),
    ("t0,5,x\nt1,1,2\n", "row 1, column 3: 'x' is not a number"),
])
def test_a_text_cell_in_the_first_row_is_an_error_not_a_header(text, cell):
    with pytest.raises(HcschedError, match=cell):
        parse_csv_etc(text)


def test_a_cli_map_of_such_a_file_exits_2(tmp_path, capsys):
    from hcsched.cli import main

    (tmp_path / "etc.csv").write_text("50,abc,15\n20,60,15\n10,10,10\n")
    assert main(["map", str(tmp_path / "etc.csv"), "--heuristic", "mct"]) == 2
    assert "row 1, column 2: 'abc' is not a number" in capsys.readouterr().err


@pytest.mark.parametrize("text, names, matrix", [
    ("m0,m1,m2\n1,2,3\n", ["m0", "m1", "m2"], [[1, 2, 3]]),
    (",m0,m1\nt0,1,2\n", ["m0", "m1"], [[1, 2]]),
    ("task,m0,m1\nt0,1,2\nt1,3,4\n", ["m0", "m1"], [[1, 2], [3, 4]]),
    ("t0,1,2\nt1,3,4\n", None, [[1, 2], [3, 4]]),
])
def test_headers_and_labels_that_look_like_them_stay(text, names, matrix):
    etc, found = parse_csv_etc(text)
    assert found == names and etc.tolist() == matrix


# --- matrix values bounded, and the API's matrix checked -------------------------------------------------------------

@pytest.mark.parametrize("heuristic", ["kpb", "met"])
def test_an_entry_beyond_the_largest_time_is_refused(heuristic):
    with pytest.raises(HcschedError, match=r"ETC: entry \(task 0, machine 0\) = 1e\+308 is not allowed; entries must "
                                           r"be finite, non-negative and at most 1e\+12"):
        hcsched.map_tasks([[1e308, 1e308], [1e308, 1e308]], heuristic)


def test_an_uploaded_matrix_beyond_the_largest_time_is_refused():
    with pytest.raises(HcschedError, match=r"entry \(task 1, machine 1\) = 2000000000000.0 is not allowed"):
        parse_csv_etc("1,2\n3,2e12\n")


@pytest.mark.parametrize("etc, words", [
    ([[1, 2], [3]], r"a ragged list \(rows of different lengths\)"),
    ([[1, "abc"]], r"entry \(task 0, machine 1\) = 'abc' \(not a number\)"),
    ("abc", r"a str is not allowed"),
    ({"a": [1]}, r"a dict is not allowed"),
    (5, r"a single number \(5\) is not allowed"),
    ([[10 ** 5000]], r"entry \(task 0, machine 0\) = an integer of 16610 bits \(too large for a float\)"),
])
def test_the_api_names_a_matrix_that_is_no_matrix(etc, words):
    with pytest.raises(HcschedError, match=rf"^ETC: {words}.*allowed: rows of numbers"):
        hcsched.map_tasks(etc, "mct")


# --- parsing answers any bad input with HcschedError ---------------------------------------------------------------

@pytest.mark.parametrize("text, fmt, words", [
    ("[" * 100_000 + "]" * 100_000, "json", "nested too deeply to read"),
    ("a = " + "[" * 100_000 + "]" * 100_000, "toml", "nested too deeply to read"),
    ('{"trials": 1' + "0" * 5000 + "}", "json", r"not valid JSON \(a number of more digits than allowed\)"),
    ("trials = 1" + "0" * 5000, "toml", r"not valid TOML \(a number of more digits than allowed\)"),
    ("name = 1979-05-27T07:32:00Z\nheuristics = ['mct']", "toml", r"'name': datetime.* allowed: text of at most 200"),
    (json.dumps({**QUICK, "name": ["a"]}), "json", r"'name': \['a'\] is not allowed"),
    (json.dumps({**QUICK, "description": {"a": 1}}), "json", r"'description': \{'a': 1\} is not allowed; allowed: text "
                                                             "of at most 2000 characters"),
    (json.dumps({**QUICK, "name": "x" * 201}), "json", r"'name': 'x{40}\.\.\.' is not allowed"),
    (json.dumps({**QUICK, "heuristics": [{"name": "min-min", "label": [1]}]}), "json",
     r"'heuristics.label': \[1\] is not allowed"),
    (json.dumps({**QUICK, "heuristics": [{"name": {"a": 1}}]}), "json", r"'heuristics.name': \{'a': 1\}"),
    (json.dumps({**QUICK, "heuristics": [{"name": "mct", "label": '<a href="https://example.invalid">x</a>'}]}),
     "json", r"'heuristics.label': .* allowed: text of at most 200 characters on one line, without < or >"),
    (json.dumps({**QUICK, "heuristics": [{"name": "mct", "label": "<img src=x onerror=alert(1)>"}]}), "json",
     "without < or >"),
    (json.dumps({**QUICK, "trials": 10**7}), "json", r"'trials': 10000000 is not allowed; allowed: an integer from 1 "
                                                     r"to 1e\+06"),
    (json.dumps({**QUICK, "etc": {"method": "matrix", "matrix": "abc"}}), "json", r"^scenario field 'etc': a value of "
                                                                                  "the wrong kind"),
    (json.dumps({**QUICK, "etc": {"method": "matrix", "matrix": 5}}), "json", r"^scenario field 'etc': a value of"),
])
def test_bad_scenario_text_is_one_hcsched_error(text, fmt, words):
    with pytest.raises(HcschedError, match=words) as caught:
        parse_scenario(text, fmt)
    assert "\n" not in str(caught.value)


def test_scenario_text_over_the_limit_is_refused_before_parsing(monkeypatch):
    import hcsched.scenario

    monkeypatch.setattr(hcsched.scenario, "MAX_TEXT_MB", 0.001)
    monkeypatch.setattr(hcsched.scenario.json, "loads", lambda text: pytest.fail("parsed"))
    with pytest.raises(HcschedError, match=r"^upload: over 0.001 MB; allowed: a scenario of at most 0.001 MB"):
        parse_scenario(" " * 2000, source="upload")


# --- uploads over the cell limit are refused before they are parsed --------------------------------------------------

def test_an_upload_over_the_cell_limit_is_refused(monkeypatch):
    small = b"1,2\n3,4\n"
    assert check_upload(small, "etc.csv", max_cells=4) == small
    with pytest.raises(HcschedError, match=r"^etc.csv: about 5 cells is too many to read here; allowed: a table of at "
                                           r"most 4 cells \(HCSCHED_MAX_UPLOAD_CELLS changes it\)$"):
        check_upload(b"1,2\n3,4\n5", "etc.csv", max_cells=4)
    with pytest.raises(HcschedError, match=r"^big.csv: 0.0003 MB is too large to read here"):
        check_upload(b"1" * 300, "big.csv", max_cells=4)
    monkeypatch.setenv("HCSCHED_MAX_UPLOAD_CELLS", "3")
    with pytest.raises(HcschedError, match="at most 3 cells"):
        check_upload(small, "etc.csv")
    monkeypatch.delenv("HCSCHED_MAX_UPLOAD_CELLS")
    row = b",".join([b"1"] * 3000) + b"\n"
    with pytest.raises(HcschedError, match=r"about 9,000,000 cells .* at most 1,000,000 cells"):
        check_upload(row * 3000, "3000x3000.csv")


def test_numbers_stay_the_same_through_the_checked_reader(tmp_path):
    (tmp_path / "m.csv").write_bytes(b"task,a,b\r\nt0,1.5,2\r\nt1,3,4\r\n")
    np.testing.assert_array_equal(read_etc(tmp_path / "m.csv"), [[1.5, 2], [3, 4]])
