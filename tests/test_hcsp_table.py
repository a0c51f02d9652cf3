"""The generated tables of the documentation: the HCSP table (docs/reproduction.md) is bench/hcsp.py's rendering of
bench/hcsp.csv (no solver runs here)."""

import importlib.util

import pytest
from helpers import ROOT


def _bench(name: str = "hcsp"):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_block_is_the_rendered_csv():
    bench = _bench()
    readme = (ROOT / "docs" / "reproduction.md").read_text()
    block = readme.split(bench.START, 1)[1].split(bench.END, 1)[0].strip()
    assert block == bench.render(bench.read_csv())


def test_the_optimum_block_is_the_rendered_csv():
    """The table of which 0.5% targets are feasible is bench/hcsp_optimum.py's rendering of its CSV, and it covers
    every instance the 10 s search leaves above 0.5% in bench/hcsp.csv."""
    bench = _bench("hcsp_optimum")
    page = (ROOT / "docs" / "reproduction.md").read_text()
    block = page.split(bench.START, 1)[1].split(bench.END, 1)[0].strip()
    rows = bench.read_csv()
    assert block == bench.render(rows)
    missed = {r["instance"] for r in _bench().read_csv() if float(r["ours10_pct"]) > 0.5}
    assert missed <= {r["instance"] for r in rows if float(r["pct"]) == 0.5}


def test_the_scaling_table_is_the_rendered_csv():
    """docs/performance.md's scaling table is what ``python bench/scaling.py --from bench/scaling.csv --markdown``
    prints (no run here)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "bench/scaling.py", "--from", "bench/scaling.csv", "--markdown"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    page = (ROOT / "docs" / "performance.md").read_text()
    block = page.split("<!-- scaling:start -->", 1)[1].split("<!-- scaling:end -->", 1)[0].strip()
    assert block == out.strip()


def test_the_feasibility_check_agrees_with_enumeration():
    """bench/hcsp_optimum.py's check on random instances of 7 tasks x 3 machines: a target just above the optimum
    (found by trying every mapping) gets a mapping within it, one just below is infeasible."""
    import itertools

    import numpy as np

    from hcsched.models.etc.bounds import lp_bound

    within = _bench("hcsp_optimum").within
    rng = np.random.default_rng(3)
    for _ in range(12):
        p = rng.uniform(1, 20, (7, 1)) * rng.uniform(1, 5, (7, 3))
        best = min(np.bincount(a, weights=p[np.arange(7), a], minlength=3).max()
                   for a in map(np.array, itertools.product(range(3), repeat=7)))
        gap = 100 * (best / lp_bound(p) - 1)
        found = within(p, gap + 1e-4, 60)
        assert found["status"] == "found" and found["makespan"] <= found["target"] * (1 + 1e-9)
        assert found["makespan"] == pytest.approx(best)
        if gap > 1e-3:
            assert within(p, gap - 1e-3, 60)["status"] == "infeasible"
