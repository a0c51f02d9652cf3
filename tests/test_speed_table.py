"""The speed table of docs/performance.md is bench/speed.py's rendering of bench/speed.csv, and ``record`` updates that
CSV as the benchmark scripts' ``--record`` needs (no benchmark runs here)."""

import csv
import datetime
import importlib.util
import re

import pytest
from helpers import ROOT


@pytest.fixture(scope="module")
def speed():
    spec = importlib.util.spec_from_file_location("bench_speed", ROOT / "bench" / "speed.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_block_is_the_rendered_csv(speed):
    page = (ROOT / "docs" / "performance.md").read_text()
    block = page.split(speed.START, 1)[1].split(speed.END, 1)[0].strip()
    rows = speed.read_csv()
    assert block == speed.render(rows)
    assert len(block.splitlines()) == len(rows) + 2
    assert len({r["id"] for r in rows}) == len(rows), "ids are unique"


def test_render_shows_the_cells_as_stored(speed):
    row = dict(zip(speed.COLUMNS, ("x", "a run", "1.5 s", "target 5 s", "0.30", "≤ 1", "2026-11-28, 2 cores, load 0.5",
                                   "python bench/run.py"), strict=True))
    lines = speed.render([row]).splitlines()
    assert lines[0] == "| what | time | reference in the same run | ratio | target | measured |"
    assert lines[2] == "| a run | 1.5 s | target 5 s | 0.30 | ≤ 1 | 2026-11-28, 2 cores, load 0.5 |"


def _rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_record_adds_and_updates_rows_in_place(speed, tmp_path, monkeypatch):
    path = tmp_path / "speed.csv"
    speed.write_csv([dict.fromkeys(speed.COLUMNS, "old") | {"id": i} for i in ("a", "b", "c")], path)
    monkeypatch.setattr("sys.argv", ["bench/run.py", "--quick", "--record"])

    speed.record("b", path=path, time="2.0 s", ratio="0.40")
    speed.record("new", path=path, what="a new row", time="1 ms")

    rows = _rows(path)
    assert [r["id"] for r in rows] == ["a", "b", "c", "new"], "order kept, a new id appended"
    assert rows[0] == dict.fromkeys(speed.COLUMNS, "old") | {"id": "a"}, "other rows untouched"
    b = rows[1]
    assert (b["time"], b["ratio"], b["what"], b["target"]) == ("2.0 s", "0.40", "old", "old")
    assert b["source"] == "python bench/run.py --quick"
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    assert re.fullmatch(rf"{today}, \d+ cores, load \d+\.\d", b["measured"]), b["measured"]
    assert rows[3]["what"] == "a new row" and rows[3]["target"] == ""
    assert path.read_bytes().count(b"\r") == 0 and path.read_text().endswith("\n")


def test_record_refuses_an_unknown_column(speed, tmp_path):
    with pytest.raises(ValueError, match="wall"):
        speed.record("a", path=tmp_path / "speed.csv", wall="1 s")


def test_figures_are_written_as_the_table_writes_them(speed):
    assert [speed.figure(x) for x in (0.008, 0.2, 15.04, 186.2)] == ["0.0080", "0.20", "15", "186"]
    assert speed.span([0.27, 0.02, 0.1]) == "0.020–0.27"
    assert speed.span([1.04, 1.04]) == "1.0"
