"""Bad input at the command line: every case exits with status 2 and one line naming what is wrong and what is
allowed, before anything runs; `hcsched compare` checks a results CSV as a run's own results; `run --check` and
`sweep --check` run nothing; and no user's text can forge a line of an exported CSV."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from hcsched import HcschedError, get_model, model_names, simulate
from hcsched import experiment as experiment_module
from hcsched.cli import format_table, main
from hcsched.export import SCENARIO_LINE, metric_range, read_results_csv, results_csv
from hcsched.scenario import Scenario
from hcsched.sweep_spec import MAX_POINTS, parse_vary


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def refused(capsys, *argv, words: str) -> None:
    """The command exits 2 with one line holding ``words``, and no traceback."""
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert err.startswith("hcsched: error:") and err.count("\n") == 1 and "Traceback" not in err, err
    assert words in err, err


@pytest.fixture
def nothing_runs(monkeypatch):
    """Fail the test if a run or a sweep starts: the refusals must come first."""
    def boom(*args, **kwargs):
        raise AssertionError("a run started")
    monkeypatch.setattr("hcsched.cli.simulate", boom)
    monkeypatch.setattr("hcsched.sweep.run_work", boom)


# --- a results CSV read back by compare ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def results_file(tmp_path_factory):
    """A real per-trial results file: `hcsched run --preset quickstart --trials 4 --out x.csv`."""
    path = tmp_path_factory.mktemp("runs") / "x.csv"
    assert main(["run", "--preset", "quickstart", "--trials", "4", "--jobs", "1", "--out", str(path)]) == 0
    return path


def _tampered(path, tmp_path, change) -> str:
    """A copy of the results file with ``change(lines, header)`` applied to its lines (header: the table's first)."""
    lines = path.read_text().split("\n")
    header = next(i for i, line in enumerate(lines) if line.startswith("trial,"))
    change(lines, header)
    out = tmp_path / "tampered.csv"
    out.write_text("\n".join(lines))
    return str(out)


def _cell(lines, header, row, column, value):
    """Set ``column`` of data row ``row`` (from 1) to ``value``."""
    cells = lines[header + row].split(",")
    cells[lines[header].split(",").index(column)] = value
    lines[header + row] = ",".join(cells)


def _scenario_line(lines, edit):
    i = next(i for i, line in enumerate(lines) if line.startswith(SCENARIO_LINE))
    data = json.loads(lines[i].removeprefix(SCENARIO_LINE))
    edit(data)
    lines[i] = SCENARIO_LINE + json.dumps(data)


TAMPERED = {
    "a negative makespan": (lambda ls, h: _cell(ls, h, 1, "makespan", "-669544.8"),
                            "column 'makespan': -669544.8 is not allowed; allowed: a number >= 0"),
    "a utilisation of 2": (lambda ls, h: _cell(ls, h, 1, "utilization", "2.0"),
                           "column 'utilization': 2.0 is not allowed; allowed: a number from 0 to 1"),
    "an infinite flow time": (lambda ls, h: _cell(ls, h, 2, "mean_flow", "inf"), "column 'mean_flow': inf is not"),
    "a text trial number": (lambda ls, h: _cell(ls, h, 1, "trial", "x"),
                            "column 'trial': 'x' is not allowed; allowed: a whole number from 0 to 3"),
    "a scenario line claiming 1000 trials": (lambda ls, h: _scenario_line(ls, lambda d: d.update(trials=1000)),
                                            "its scenario line says 1000 trials, but 'mct' has 4"),
    "a row of an unknown heuristic": (lambda ls, h: _cell(ls, h, 1, "heuristic", "olb"),
                                      "column 'heuristic': 'olb' is not a heuristic of its scenario line; allowed: one "
                                      "of mct, kpb, min-min, sufferage"),
    "a row dropped": (lambda ls, h: ls.pop(h + 3), "but 'min-min' has 3"),
    "a row twice": (lambda ls, h: ls.__setitem__(h + 5, ls[h + 1]), "trial 0 of 'mct' again"),
    "a header only": (lambda ls, h: ls.__delitem__(slice(h + 1, None)), "its table has a header but no rows"),
    "a ragged row": (lambda ls, h: ls.__setitem__(h + 2, ls[h + 2] + ",7"), "has 16 cells, its header 15"),
    "a short row": (lambda ls, h: ls.__setitem__(h + 2, ls[h + 2].rsplit(",", 1)[0]), "has 14 cells, its header 15"),
    "a relabelled column": (lambda ls, h: ls.__setitem__(h, ls[h].replace(",makespan,", ",span,")),
                            "no column 'makespan'"),
    "a column added": (lambda ls, h: [ls.__setitem__(i, ls[i] + (",extra" if i == h else ",1"))
                                      for i in range(h, len(ls)) if ls[i]], "a column 'extra'"),
    "a second scenario line": (lambda ls, h: ls.insert(1, [x for x in ls if x.startswith(SCENARIO_LINE)][0]),
                               "2 lines starting '# scenario"),
    "a scenario line naming a file": (lambda ls, h: _scenario_line(ls, lambda d: d.update(etc={"path": "/etc/passwd"})),
                                      "its scenario line: scenario field 'etc.path': names a file"),
}


@pytest.mark.parametrize("case", list(TAMPERED))
def test_compare_refuses_a_tampered_results_csv_in_one_line(case, results_file, tmp_path, capsys):
    change, words = TAMPERED[case]
    refused(capsys, "compare", _tampered(results_file, tmp_path, change), results_file, words=words)


def test_compare_reads_the_untampered_file(results_file, capsys):
    code, out, err = run(capsys, "compare", results_file, results_file)
    assert code == 0 and "no change in any trial" in out, err


@pytest.fixture(scope="module")
def tiny_runs():
    return {name: (get_model(name).tiny(), simulate(get_model(name).tiny(), jobs=1)) for name in model_names()}


@pytest.mark.parametrize("name", sorted(model_names()))
def test_every_models_results_read_back_and_a_value_out_of_its_range_is_refused(name, tiny_runs):
    scenario, results = tiny_runs[name]
    text = results_csv(scenario, results)
    read_results_csv(text)  # a run's own file passes every check
    metrics = get_model(name).columns(scenario.spec)
    metric = next(m for m in metrics if results[m.name].dtype != bool)
    low, high = metric_range(metric)
    wrong = low - 1 if math.isfinite(low) else high + 1
    table = results.copy()
    table[metric.name] = table[metric.name].astype(float)
    table.loc[2, metric.name] = wrong
    with pytest.raises(HcschedError, match=f"line {text.count(chr(10)) - len(results) + 3}, column '{metric.name}'"):
        read_results_csv(results_csv(scenario, table), "x.csv")


def test_metric_ranges_come_from_the_metrics_definitions():
    etc = get_model("etc")
    assert metric_range(etc.metric("makespan")) == (0.0, math.inf)
    assert metric_range(etc.metric("utilization")) == (0.0, 1.0)  # its interval method says it is a fraction
    assert metric_range(get_model("value").metric("value_pct_ub")) == (0.0, 100.0)
    assert metric_range(get_model("timeshared").metric("gain_makespan")) == (-math.inf, 100.0)  # worse: negative


# --- the command line's own arguments --------------------------------------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["sweep", "--preset", "quickstart", "--vary", "machines=1:2:100000000"], f"COUNT from 1 to {MAX_POINTS:,}"),
    (["sweep", "--preset", "quickstart", "--vary", "machines=1:200:200", "--vary", "tasks=1:100:100"],
     f"200 x 100 = 20,000 points; allowed: at most {MAX_POINTS:,}"),
    (["sweep", "--preset", "quickstart", "--vary", "machines=" + "[" * 100000], "--vary machines: nested too deeply"),
    (["sweep", "--preset", "quickstart", "--vary", "machines=4,8", "--out", "{tmp}/missing/x.csv"],
     "the folder '{tmp}/missing' does not exist"),
    (["sweep", "--preset", "quickstart", "--vary", "machines=4,8", "--out", "{tmp}"], "is a folder"),
    (["sweep", "--preset", "quickstart", "--vary", "machines=4,8", "--jobs", "-3"], "--jobs: '-3' is not allowed"),
    (["sweep", "--preset", "quickstart", "--vary", "machines=4,8", "--jobs", "0"], "--jobs: '0' is not allowed"),
    (["sweep", "--preset", "quickstart", "--vary", "machines=4,8", "--trials", "two"],
     "--trials: 'two' is not allowed"),
    (["run", "--preset", "quickstart", "--jobs", "0"], "--jobs: '0' is not allowed; allowed: a whole number from 1"),
    (["run", "--preset", "quickstart", "--jobs", "-3"], "--jobs: '-3' is not allowed"),
    (["run", "--preset", "quickstart", "--trials", "0"], "--trials: '0' is not allowed; allowed: a "
                                                         "whole number from 1 to 1,000,000"),
    (["run", "--preset", "quickstart", "--seed", "-1"], "--seed: '-1' is not allowed; allowed: a whole number >= 0"),
    (["run", "--preset", "quickstart", "--seed", "9" * 5000], "--seed: '99999"),
    (["run", "--preset", "quickstart", "--out", "{tmp}/missing/x.csv"], "--out: '{tmp}/missing/x.csv': the folder"),
    (["run", "--preset", "quickstart", "--schedules", "{tmp}"], "--schedules: '{tmp}' is a folder"),
    (["compare", "a.json", "b.json", "--jobs", "0"], "--jobs: '0' is not allowed"),
    (["compare", "a.csv", "b.csv", "--out", "{tmp}"], "--out: '{tmp}' is a folder"),
    (["reproduce", "--jobs", "0"], "--jobs: '0' is not allowed"),
    (["reproduce", "--trials", "-1"], "--trials: '-1' is not allowed"),
    (["warm-up", "--jobs", "-1"], "--jobs: '-1' is not allowed"),
    (["calibrate", "--preset", "quickstart", "--trials", "-3"], "--trials: '-3' is not allowed"),
    (["calibrate", "--preset", "quickstart", "--trials", "0"], "--trials: '0' is not allowed"),
    (["map", "m.csv", "--heuristic", "mct", "--machines", "0"], "--machines: '0' is not allowed"),
    (["lp", "--alpha", "1", "--mu", "/dev/zero"], "--mu '/dev/zero': not a regular file"),
])
def test_bad_arguments_exit_2_in_one_line_before_anything_runs(argv, words, tmp_path, capsys, nothing_runs):
    fill = lambda text: text.replace("{tmp}", str(tmp_path))  # noqa: E731
    refused(capsys, *map(fill, argv), words=fill(words))


def test_an_error_message_stays_on_one_line(capsys):
    refused(capsys, "sweep", "--preset", "quickstart", "--vary", "machines=1:2:x\n# forged", words="1:2:x\\n# forged")


# --- memory, before anything is drawn --------------------------------------------------------------------------

NEEDS = "This run needs about 12.3 GB of memory; this server allows 1.0 GB (HCSCHED_MAX_MEMORY)."


@pytest.fixture
def too_large(monkeypatch):
    """Every run needs more memory than allowed (whatever the estimate says of the quickstart preset)."""
    asked = []

    def refusal(scenario, jobs=None, points=1, *rest, **more):
        asked.append((scenario.machines, jobs, points))
        return NEEDS
    monkeypatch.setattr(experiment_module, "memory_refusal", refusal, raising=False)
    return asked


@pytest.mark.parametrize("argv", [
    ["run", "--preset", "quickstart"],
    ["run", "--preset", "quickstart", "--check"],
    ["sweep", "--preset", "quickstart", "--vary", "machines=4,8", "--jobs", "2"],
    ["sweep", "--preset", "quickstart", "--vary", "machines=4,8", "--check"],
])
def test_a_run_that_needs_too_much_memory_is_refused_before_it_starts(argv, too_large, capsys, nothing_runs):
    refused(capsys, *argv, words=NEEDS)
    assert too_large, "the memory estimate was never asked"
    if argv[0] == "sweep" and "--jobs" in argv:
        assert too_large[0] == (4, 2, 2)  # the first point, with its workers and the sweep's points


# --- --check ---------------------------------------------------------------------------------------------------

def test_run_check_validates_estimates_and_runs_nothing(capsys, nothing_runs):
    code, out, err = run(capsys, "run", "--preset", "quickstart", "--trials", "10", "--jobs", "2", "--check")
    assert code == 0, err
    assert out.startswith("ok: 8 machines, 200 tasks, 4 heuristics, 10 trials; ") and out.count("\n") == 1
    assert " on 2 cores (nothing was run)" in out


def test_run_check_of_a_bad_scenario_is_bad_input(tmp_path, capsys, nothing_runs):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"name": "s", "machines": 8, "tasks": -10, "heuristics": ["mct"]}))
    refused(capsys, "run", path, "--check", words="'tasks'")


def test_sweep_check_checks_every_point_and_runs_nothing(capsys, nothing_runs):
    code, out, err = run(capsys, "sweep", "--preset", "quickstart", "--vary", "machines=4,16", "--trials", "3",
                         "--check")
    assert code == 0, err
    assert out.startswith("ok: a sweep of 2 points, the largest 16 machines, 200 tasks, 4 heuristics, 3 trials a point")
    refused(capsys, "sweep", "--preset", "quickstart", "--vary", "machines=4,0", "--check",
            words="sweep point 1 (machines=0)")


# --- comment lines are one line each --------------------------------------------------------------------------

FORGED = {"name": "forged", "machines": 2, "tasks": 5, "heuristics": ["mct"], "trials": 1}


@pytest.mark.parametrize("brk", ["\n", "\r", "\u2028", "\x85"])
def test_a_name_cannot_forge_the_scenario_line_of_a_results_csv(brk, tmp_path, capsys):
    name = f"x{brk}{SCENARIO_LINE}{json.dumps(FORGED)}"
    base = get_model("etc").tiny().replace(name=name)
    base.save(tmp_path / "s.json")
    assert main(["run", str(tmp_path / "s.json"), "--jobs", "1", "--out", str(tmp_path / "r.csv")]) == 0
    text = (tmp_path / "r.csv").read_text()
    comments = text.split("\ntrial,")[0].split("\n")
    assert all(line.startswith("# ") for line in comments) and len(comments) == 7  # with the "# columns:" line
    assert all(len(line.splitlines()) == 1 for line in comments)
    scenario, _ = read_results_csv(text)
    assert scenario == base and scenario.name == name
    capsys.readouterr()
    assert main(["compare", str(tmp_path / "r.csv"), str(tmp_path / "r.csv")]) == 0
    assert "baseline: x\\" in capsys.readouterr().out  # the name's break shown escaped, on its line


def test_a_label_cannot_forge_a_row_of_the_comparison_csv():
    """A label names bars, rows and CSV columns, so it is one line: one that would forge a row is refused."""
    data = get_model("etc").tiny().to_dict()
    for label in ("mine\n0,mct,1,2,3", "mine\u2028# hcsched", "mine\r"):
        with pytest.raises(HcschedError, match="'heuristics.label'.*on one line"):
            Scenario.from_dict({**data, "heuristics": [{"name": "met", "label": label}, *data["heuristics"][1:]]})


def test_the_terminal_shows_a_labels_control_characters_escaped():
    table = format_table(["heuristic", "x"], [["\x1b[31mred\x1b[0m", "1"]])
    assert "\x1b" not in table and "\\u001b[31mred" in table


def test_the_sweep_grid_is_capped_before_it_is_built():
    with pytest.raises(HcschedError, match="at most 10,000 points"):
        parse_vary({"machines": list(range(1, 101)), "tasks": list(range(1, 102))})
    assert np.prod([len(v) for v in parse_vary({"machines": list(range(1, 101)),
                                                "tasks": list(range(1, 101))}).values()]) \
        == MAX_POINTS
