"""Every benchmark script in bench/ still runs (a kernel's signature once changed under bench/value.py unnoticed).

The scripts whose quickest form takes a few seconds (with numba's cache warm; about 35 s for the file) are run in a
fresh process, as a user runs them, and must exit 0 and print their table or summary; every other script is imported
from its path, which catches a name gone from the library at its top-level imports (not one imported inside a
function, nor a changed signature: run those by hand in their quickest form, e.g.
``bench/value_static.py --quick``, ``bench/cancel.py --model value --cancel-after 1``, ``bench/run.py --quick``)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest
from helpers import ROOT

BENCH = ROOT / "bench"

# script, its quickest arguments, a line it must print (a table header or its summary)
QUICK = [
    ("fcfs_yardstick.py", ["--trials", "1", "--systems", "A"], "Table 1 heuristics: class kernel / yardstick"),
    ("estimation_fa.py", ["--sizes", "1", "--plain", "--heuristics", "fa,rr"], "1x fa (plain): "),
    ("estimation.py", ["--scaling", "1"], "x1   FA + RR"),
    ("timeshared.py", ["--scaling"], "per heuristic: CPU seconds, units of decision work"),
    ("timeshared.py", ["--quick", "--trial-only"], "same choices and dates: True"),
    ("value_scaling.py", ["--factors", "1", "--repeats", "1"], "| heuristic | f | tasks | machines |"),
    ("value_repro.py", ["--trials", "1", "--static-trials", "0", "--presets", "kim-loose-low-heavy", "--out", "{tmp}"],
     "best dynamic: "),
    ("value_qt_grid.py", ["--trials", "1"], "| ret_cutoff \\ urgency_cutoff |"),
    ("value.py", ["--quick", "--trials", "2"], "TPSA + GA: "),
    ("results_rerun.py", ["alazzoni-B", "--trials", "1"], "first draw  slowest rerun"),
]
RUN = {name for name, _, _ in QUICK}
SLOW = sorted(p.name for p in BENCH.glob("*.py") if p.name not in RUN)


def run_script(name: str, args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(BENCH / name), *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize(("name", "args", "expected"), QUICK, ids=[" ".join([name, *args[:2]])
                                                                   for name, args, _ in QUICK])
def test_quick_script_runs_and_prints_its_table(name, args, expected, tmp_path):
    """The script's quickest form exits 0 and prints what it measures (a signature changed under it fails here)."""
    args = [a.format(tmp=tmp_path) for a in args]
    done = run_script(name, args)
    assert done.returncode == 0, f"bench/{name} {' '.join(args)} exited {done.returncode}:\n{done.stderr[-3000:]}"
    assert expected in done.stdout, f"bench/{name} did not print {expected!r}:\n{done.stdout[-3000:]}"


@pytest.mark.parametrize("name", SLOW)
def test_slow_script_imports(name, monkeypatch):
    """A script too slow to run here at least imports: every library name it imports at its top still exists."""
    spec = importlib.util.spec_from_file_location(f"bench_{name[:-3]}", BENCH / name)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up there
    spec.loader.exec_module(module)

