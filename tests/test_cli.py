import subprocess
import sys

import pandas as pd
import pytest

from hcsched import preset, simulate
from hcsched.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_reads_the_registry(capsys):
    code, out, _ = run(capsys, "list")
    assert code == 0 and "kpb" in out and "k=20.0" in out and "sufferage" in out


def test_run_writes_csv_and_summary(tmp_path, capsys):
    sc = preset("maheswaran-fig9").replace(tasks=150, machines=6, trials=3)
    path = tmp_path / "s.json"
    sc.save(path)
    code, out, _ = run(capsys, "run", str(path), "--jobs", "1", "--out", str(tmp_path / "r.csv"))
    assert code == 0 and "mean [95% interval]" in out and "sufferage" in out
    df = pd.read_csv(tmp_path / "r.csv")
    pd.testing.assert_frame_equal(df, simulate(sc, jobs=1), check_dtype=False)


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
    assert code == 0 and float(out) > 0


@pytest.mark.parametrize("argv, words", [
    (["map", "missing.csv", "--heuristic", "mct"], "cannot be read"),
    (["map", "{csv}", "--heuristic", "mtc"], "did you mean"),
    (["map", "{csv}", "--heuristic", "kpb", "--param", "k=0"], "'k': 0 is out of range"),
    (["map", "{csv}", "--heuristic", "kpb", "--param", "q=1"], "unknown parameter 'q'"),
    (["map", "{csv}", "--heuristic", "mct", "--ready", "1,2,3"], "3 values given"),
    (["map", "{bad}", "--heuristic", "mct"], "row 2 has 1 values"),
    (["map", "{neg}", "--heuristic", "mct"], "-1 is not allowed"),
    (["run", "--preset", "maheswaran-fig4", "--trials", "0"], "'trials': 0"),
    (["run", "--preset", "fig4"], "unknown preset"),
    (["run"], "either a scenario file or --preset"),
    (["run", "{csv}"], "not valid JSON"),
    (["frobnicate"], "invalid choice"),
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
    out = subprocess.run([sys.executable, "-m", "hcsched", "map", str(tmp_path / "e.csv"), "--heuristic", "min-min", "--json"],
                         capture_output=True, text=True, check=True)
    assert '"makespan": 82.0' in out.stdout
