import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from hcsched import preset, simulate
from hcsched.cli import main
from hcsched.export import results_csv
from hcsched.formatting import interval_cell


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_reads_the_registry(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and "kpb" in out and "sufferage" in out
    assert "- k=20 (a number > 0 and <= 100)\n" in out and "- kbar=off" in out


def _nested(line: str) -> bool:
    """Whether a line has a parenthesis within another, or two parenthesised groups in a row."""
    depth, deepest = 0, 0
    for ch in line:
        depth += (ch == "(") - (ch == ")")
        deepest = max(deepest, depth)
    return deepest > 1 or re.search(r"\)\s*\(", line) is not None


def test_list_says_what_each_parameter_allows_with_no_parenthesis_inside_another(capsys):
    """An optional parameter read "kbar=off (a number >= 1 (or off))"."""
    _, out, _ = run(capsys, "list")
    assert "kbar=off (a number >= 1, or off)" in out and "aging=off (a number > 0, or off)" in out
    assert [line for line in out.splitlines() if line.strip().startswith("- ") and _nested(line)] == []


def test_list_says_what_each_parameter_means_below_it(capsys):
    """A parameter's default alone, "t_min=1e-200 (a number > 0)", read as a bug: its meaning follows, wrapped."""
    _, out, _ = run(capsys, "list", "--model", "value")
    lines = out.splitlines()
    at = next(k for k, line in enumerate(lines) if line.strip().startswith("- t_min=1e-200 (a number > 0)"))
    below = " ".join(line.strip() for line in lines[at + 1:at + 4])
    assert below.startswith("phase 2 also ends when the temperature falls below this") and "zero" in below
    assert max(len(line) for line in lines) <= 130
    assert "no parameters" in out  # max-max has none


def _sections(out):
    """{heading: [heuristic lines]} of `hcsched list`."""
    sections = {}
    for line in out.splitlines():
        if line and not line.startswith(" "):
            heading = line
            sections[heading] = []
        elif line.strip() and not line.startswith(" " * 6) and not line.strip().startswith(("- ", "no parameters")):
            sections[heading].append(line)
    return sections


def test_list_has_one_section_per_model(capsys):
    from hcsched import get_model, heuristic_names, model_names

    _, out, _ = run(capsys, "list")
    sections = _sections(out)
    assert list(sections) == [f"{n}: {get_model(n).title}" for n in model_names()]
    for name in model_names():
        lines = sections[f"{name}: {get_model(name).title}"]
        assert [line.split()[0] for line in lines] == heuristic_names(model=name)
    lines = [line for lines in sections.values() for line in lines]
    longest = max(len(line.split()[0]) for line in lines)  # guided-lpas-2k: the modes still line up
    assert {line.index(line.split()[1], 2 + longest) for line in lines} == {2 + longest + 2}
    code, out, _ = run(capsys, "list", "--model", "classes")
    assert code == 0 and list(_sections(out)) == [f"classes: {get_model('classes').title}"]
    assert "lpas" in out and "sufferage" not in out


def test_run_writes_csv_and_summary(tmp_path, capsys):
    sc = preset("maheswaran-fig9").replace(tasks=150, machines=6, trials=3)
    path = tmp_path / "s.json"
    sc.save(path)
    code, out, _ = run(capsys, "run", str(path), "--jobs", "1", "--out", str(tmp_path / "r.csv"))
    assert code == 0 and "mean [95% interval]" in out and "sufferage" in out
    df = pd.read_csv(tmp_path / "r.csv", comment="#")  # with the comment lines of the dashboard's download
    pd.testing.assert_frame_equal(df, simulate(sc, jobs=1), check_dtype=False)
    assert (tmp_path / "r.csv").read_text() == results_csv(sc, simulate(sc, jobs=1))


def test_run_summary_columns_never_touch_and_use_each_metrics_interval(tmp_path, capsys):
    from hcsched import get_model, summarize

    sc = preset("quickstart").replace(trials=3)
    code, out, _ = run(capsys, "run", "--preset", "quickstart", "--trials", "3", "--jobs", "1")
    assert code == 0
    lines = out.splitlines()
    metrics = get_model(sc.model).bar_metrics()
    header = ["heuristic", *(m.label for m in metrics)]
    table = lines[1:2 + len(sc.heuristics)]
    assert re.split(r" {2,}", table[0]) == header  # units in the headers: "Makespan (s)"
    assert "Makespan (s)" in header
    for line in table[1:]:  # e.g. "6.423 [6.234, 6.611]3.47 M" split into two cells
        assert len(re.split(r" {2,}", line)) == len(header) and not re.search(r"\]\S", line)
    results = simulate(sc, jobs=1)
    boot = summarize(results, ["max_stretch"], methods={"max_stretch": "bootstrap"}).iloc[0]
    cell = interval_cell(boot["max_stretch"], boot["max_stretch_lower"], boot["max_stretch_upper"])
    assert re.fullmatch(r"\d[\d.]* \[\d[\d.]*, \d[\d.]*\]", cell)  # 4 significant digits, as the dashboard shows it
    assert cell in table[1]  # mct's max stretch: the model's bootstrap interval, not Student-t
    assert re.search(r"\d%\]", table[1])  # utilisation in its own format (.1%)
    assert lines[1 + len(sc.heuristics) + 1].startswith("95% intervals of the mean: Student-t; percentile bootstrap")
    assert "for max stretch" in out


def test_preset_show_is_runnable(tmp_path, capsys):
    code, out, _ = run(capsys, "preset", "show", "maheswaran-fig4")
    assert code == 0
    (tmp_path / "p.json").write_text(out)
    from hcsched import load_scenario

    assert load_scenario(tmp_path / "p.json") == preset("maheswaran-fig4")
    code, out, _ = run(capsys, "preset", "list")
    assert "maheswaran-fig11" in out


def test_calibrate(tmp_path, capsys):
    sc = preset("maheswaran-fig4").replace(tasks=200, machines=5)
    sc.save(tmp_path / "s.json")
    code, out, _ = run(capsys, "calibrate", str(tmp_path / "s.json"), "--target", "0.5", "--trials", "2")
    found = re.fullmatch(r"arrival rate: (\S+) tasks/s \(target: 0.5, .*; 2 trials, seed 0\)\n", out)
    assert code == 0 and found and float(found[1]) > 0
    code, out, _ = run(capsys, "calibrate", str(tmp_path / "s.json"), "--trials", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["target"] == "lambda_h" and data["fraction"] == 0.5 and data["unit"] == "tasks/s"
    assert data["arrival_rate"] == pytest.approx(float(found[1]), rel=1e-5)  # lambda_h is the target 0.5


@pytest.mark.parametrize("argv, words", [
    (["map", "missing.csv", "--heuristic", "mct"], "cannot be read"),
    (["map", "{csv}", "--heuristic", "mtc"], "did you mean"),
    (["map", "{csv}", "--heuristic", "kpb", "--param", "k=0"], "'k': 0 is out of range"),
    (["map", "{csv}", "--heuristic", "kpb", "--param", "q=1"], "unknown parameter 'q'"),
    (["map", "{csv}", "--heuristic", "mct", "--ready", "1,2,3"], "3 values given"),
    (["map", "{bad}", "--heuristic", "mct"], "row 2 has 1 values"),
    (["map", "{neg}", "--heuristic", "mct"], "-1 is not allowed"),
    (["run", "--preset", "maheswaran-fig4", "--trials", "0"], "--trials: '0' is not allowed"),
    (["run", "--preset", "fig4"], "unknown preset"),
    (["run"], "either a scenario file or --preset"),
    (["run", "{csv}"], "not valid JSON"),
    (["frobnicate"], "invalid choice"),
    (["map", "{csv}", "--heuristic", "lpas"], "'lpas' is not a heuristic of the 'etc' model "
                                              "(it belongs to the classes model)"),
    (["list", "--model", "nosuch"], "--model: 'nosuch' is not allowed; allowed: one of etc"),
    (["map", "{csv}", "--heuristic", "kpb", "--param", "k20"], "--param: 'k20' is not allowed; write key=value"),
    (["calibrate"], "either a scenario file or --preset"),
    (["calibrate", "--preset", "alazzoni-B"], "calibrate concerns the arrival rate of the 'etc' model"),
    (["lp", "--alpha", "1,x", "--mu", "{csv}"], "--alpha: '1,x' is not allowed; give comma-separated numbers"),
    (["lp", "--alpha", "1,1", "--mu", "{csv}", "--groups", "2"], "--groups: '2' is not allowed; give 2 positive"),
])
def test_bad_input_one_line_exit_2(tmp_path, capsys, argv, words):
    files = {"csv": "1,2\n3,4\n", "bad": "1,2\n3\n", "neg": "1,-1\n"}
    for key, text in files.items():
        (tmp_path / f"{key}.csv").write_text(text)
    argv = [a.format(**{k: str(tmp_path / f"{k}.csv") for k in files}) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("hcsched: error:") and err.count("\n") == 1 and words in err
    assert "Traceback" not in err


def test_python_dash_m(tmp_path):
    (tmp_path / "e.csv").write_text("40,48\n50,82\n")
    out = subprocess.run([sys.executable, "-m", "hcsched", "map", str(tmp_path / "e.csv"), "--heuristic", "min-min",
                          "--json"],
                         capture_output=True, text=True, check=True)
    assert '"makespan": 82.0' in out.stdout


def test_schedules_leave_start_and_finish_empty_for_tasks_that_never_ran(tmp_path):
    """A task that never starts or never finishes within a run has empty start / finish in --schedules."""
    import dataclasses

    base = preset("alazzoni-B")
    overloaded = base.replace(name="overloaded", trials=1, heuristics=("mct",),
                              classes=dataclasses.replace(base.classes, arrival_rates=(10.0, 16.0), horizon=200.0))
    overloaded.save(tmp_path / "s.json")
    assert main(["run", str(tmp_path / "s.json"), "--jobs", "1", "--out", str(tmp_path / "r.csv"),
                 "--schedules", str(tmp_path / "sched.csv")]) == 0
    lines = (tmp_path / "sched.csv").read_text().splitlines()
    header = lines[0].split(",")
    start, finish = header.index("start"), header.index("finish")
    cells = [line.split(",") for line in lines[1:]]
    waiting = [c for c in cells if c[start] == ""]
    assert waiting and all(c[finish] == "" for c in waiting)  # never started: both empty, no 'inf' or 'nan'
    assert any(c[start] != "" and c[finish] == "" for c in cells)  # running at the end: started, never finished
    table = pd.read_csv(tmp_path / "sched.csv")
    assert table["start"].isna().sum() == len(waiting) and not (table["finish"] == float("inf")).any()


def test_each_models_own_commands_come_from_the_model(monkeypatch, capsys):
    """cli.py names no model: the parser adds every model's Model.commands(); one that takes a scenario gets the
    scenario file or --preset and --seed of `hcsched run`, and receives the scenario loaded."""
    from hcsched import MODELS, get_model, model_names
    from hcsched.models import Command

    commands = [c.name for n in model_names() for c in get_model(n).commands()]
    assert {"map", "calibrate", "lp"} <= set(commands)

    class Toy(type(get_model("etc"))):  # a whole model (Model's required methods), with commands of its own
        name = "toy"
        heuristics = ()

        def commands(self):
            return (Command("toy-hello", "say hello", lambda p: p.add_argument("--who", default="world"),
                            lambda args: print(f"hello {args.who}")),
                    Command("toy-size", "a scenario's size", lambda p: None,
                            lambda args, sc: print(f"{get_model(sc.model).describe(sc.spec)}, seed {args.seed}"),
                            scenario=True))

    monkeypatch.setitem(MODELS, "toy", Toy())
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "toy-hello" in capsys.readouterr().out
    assert run(capsys, "toy-hello", "--who", "you")[:2] == (0, "hello you\n")
    code, out, _ = run(capsys, "toy-size", "--preset", "quickstart", "--seed", "3")
    assert code == 0 and out == f"{get_model('etc').describe(preset('quickstart').spec)}, seed 3\n"
    code, _, err = run(capsys, "toy-size")
    assert code == 2 and "either a scenario file or --preset" in err



def test_warm_up_compiles_into_the_cache_folder_it_is_given(tmp_path):
    """`hcsched warm-up` (the README's install step) fills numba's cache: a later process loads, not compiles.

    The folder given holds the other packages' kernels already (copied from this process's cache, where the test
    command's warm-up put them): importing hcsched compiles every model's eager kernels, a minute on 2 cores, and
    the etc model's own are enough to show that warm-up writes where it is told."""
    for folder in Path(os.environ.get("NUMBA_CACHE_DIR", tmp_path)).glob("*_*"):
        if folder.is_dir() and not folder.name.startswith("etc_"):
            shutil.copytree(folder, tmp_path / folder.name)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    first = subprocess.run([sys.executable, "-m", "hcsched", "warm-up", "--model", "etc", "--jobs", "1"], env=env,
                           capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert re.match(r"etc: kernels ready in [\d.]+ s\n", first.stdout)
    assert any(p.suffix == ".nbc" for p in tmp_path.glob("etc_*/*")), "no compiled kernel of etc was cached"
    # and its runs' pace against their estimate here, kept beside the kernels for the dashboard's first estimate
    said = re.search(r"etc: runs take ([\d.]+) times their estimate on this machine\n", first.stdout)
    assert said, first.stdout
    kept = json.loads((tmp_path / "paces.json").read_text())
    assert set(kept) == {"etc"} and kept["etc"] == pytest.approx(float(said[1]), abs=0.01)
    bad = subprocess.run([sys.executable, "-m", "hcsched", "warm-up", "--model", "nope"], env=env,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "'nope' is not allowed" in bad.stderr
