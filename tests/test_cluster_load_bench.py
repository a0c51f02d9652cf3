"""bench/cluster_load.py's table and its marked section of docs/performance.md, on small fake results (the bench's
load itself is not run here: it starts a Dask cluster and takes minutes)."""

import importlib.util
import sys

import pandas as pd
import pytest
from helpers import ROOT


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_cluster_load", ROOT / "bench" / "cluster_load.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


def _setups(bench, cluster_x: int = 1):
    """A local pool and a cluster of 2 workers, the cluster's one run with rows ``x == cluster_x`` (the local's: 1)."""
    rows = pd.DataFrame({"x": [1]}), pd.DataFrame({"x": [cluster_x]})
    local = bench.Setup("local pool", "2 processes", [1.0, 2.0, 3.0], [10.0, 20.0, 30.0], 2.0, 300.0, 50.0, 2.0,
                        [rows[0]])
    dask = bench.Setup("Dask cluster, 2 workers", "2 Dask workers (1 thread each)", [2.0, 4.0, 6.0],
                       [20.0, 40.0, 60.0], 1.0, 330.0, 60.0, 2.5, [rows[1]])
    return [local, dask]


def test_the_table_puts_the_local_pool_first_and_the_cluster_against_it(bench):
    lines = bench.render(_setups(bench)).splitlines()
    assert lines[0] == ("| setup | workers | runs | wait, median / 95th percentile (s) | duration, median / 95th "
                        "percentile (s) | server CPU (s) | server peak memory (MB) | workers' CPU (s) | load average |")
    assert lines[1] == "|---|---|---|---|---|---|---|---|---|"
    assert lines[2] == "| local pool | 2 processes | 3 | 2.0 / 2.9 | 20 / 29 | 2.0 | 300 | 50 | 2.0 |"
    assert lines[3] == ("| Dask cluster, 2 workers | 2 Dask workers (1 thread each) | 3 | 4.0 / 5.8 (×2.00 / ×2.00) "
                        "| 40 / 58 (×2.00 / ×2.00) | 1.0 (×0.50) | 330 (×1.10) | 60 (×1.20) | 2.5 |")
    assert len(lines) == 4


def test_record_rewrites_only_the_marked_section(bench, tmp_path):
    page = tmp_path / "performance.md"
    page.write_text(f"# Performance\n\nintro\n\n{bench.START}\nold table\n{bench.END}\n\n## Next\n", encoding="utf-8")
    text = bench.section(bench.render(_setups(bench)), "2026-11-30, 2 cores, load 1.5", "python bench/cluster_load.py")

    bench.write_section(text, page)
    bench.write_section(text, page)  # again: the same page

    written = page.read_text(encoding="utf-8")
    assert written == f"# Performance\n\nintro\n\n{bench.START}\n{text}\n{bench.END}\n\n## Next\n"
    assert "old table" not in written
    assert text.startswith("Measured on 2026-11-30, 2 cores, load 1.5 (the 1-minute load average at the end), with "
                           "`python bench/cluster_load.py`;")
    assert text.endswith(bench.render(_setups(bench)))


def test_the_page_holds_one_marked_section_with_the_table(bench):
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert page.count(bench.START) == 1 and page.count(bench.END) == 1
    lines = page.split(bench.START, 1)[1].split(bench.END, 1)[0].strip().splitlines()
    assert lines[0].startswith("Measured on ") and "`python bench/cluster_load.py" in lines[0]
    assert lines[2] == "| " + " | ".join(bench.HEADER) + " |"
    assert [line.split(" | ")[0] for line in lines[4:]] == ["| local pool", "| Dask cluster, 1 worker",
                                                            "| Dask cluster, 2 workers"]


def test_different_rows_in_a_setup_fail_the_bench(bench):
    bench.same_results(_setups(bench))
    with pytest.raises(AssertionError, match="Dask cluster, 2 workers: run 0 differs from local pool's"):
        bench.same_results(_setups(bench, cluster_x=2))


def test_each_session_runs_a_what_if_of_its_own(bench):
    runs = bench.what_ifs(4)
    assert [r.name for r in runs] == ["quickstart", "alazzoni-B", "caniou-mu10", "quickstart"]
    assert [r.trials for r in runs] == [20, 30, 50, 20], "the presets' own trials"
    assert len({r.seed for r in runs}) == 4, "a seed each: the dashboard's cache would share identical runs"
    assert [r.trials for r in bench.what_ifs(3, 0.2)] == [4, 6, 10]
