"""The speed table of docs/performance.md, generated from bench/speed.csv: python bench/speed.py [--readme]

A benchmark script run with ``--record`` writes the figures it just measured into its rows of bench/speed.csv
(:func:`record`), with the date, the machine's cores and load average, and the command. Without arguments this prints
the table; ``--readme`` writes it into docs/performance.md between the speed markers.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSV = ROOT / "bench" / "speed.csv"
PAGE = ROOT / "docs" / "performance.md"
START, END = "<!-- speed:start -->", "<!-- speed:end -->"
COLUMNS = ("id", "what", "time", "reference", "ratio", "target", "measured", "source")
# The table's columns: (header, CSV column)
SHOWN = (("what", "what"), ("time", "time"), ("reference in the same run", "reference"), ("ratio", "ratio"),
         ("target", "target"), ("measured", "measured"))


def read_csv(path: Path = CSV) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def write_csv(rows: list[dict], path: Path = CSV) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def measured() -> str:
    """Today's date (UTC), the machine's cores and its 1-minute load average."""
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    return f"{today}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"


def command(argv: list[str] | None = None) -> str:
    """The command that runs this process's script, without ``--record``: ``python bench/run.py --quick``."""
    script, *args = sys.argv if argv is None else argv
    path = Path(script).resolve()
    shown = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else script
    return " ".join(["python", shown, *(a for a in args if a != "--record")])


def record(row_id: str, path: Path = CSV, **cells: str) -> dict:
    """Update row ``row_id`` of the CSV with ``cells`` (a new id is appended), filling ``measured`` and, unless given,
    ``source`` (this process's command); returns the row."""
    unknown = set(cells) - set(COLUMNS)
    if unknown:
        raise ValueError(f"not a column of {path.name}: {sorted(unknown)}")
    rows = read_csv(path) if path.exists() else []
    row = next((r for r in rows if r["id"] == row_id), None)
    if row is None:
        row = dict.fromkeys(COLUMNS, "") | {"id": row_id}
        rows.append(row)
    row.update({"source": command()} | cells | {"measured": measured()})
    write_csv(rows, path)
    print(f"recorded {row_id} in {path.name}")
    return row


def record_all(rows: dict[str, dict], path: Path = CSV) -> None:
    """:func:`record` each of ``rows`` (row id -> its cells)."""
    for row_id, cells in rows.items():
        record(row_id, path, **cells)


def figure(x: float, digits: int = 2) -> str:
    """``x`` to ``digits`` significant digits, never in exponent form (0.0083, 15, 186)."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{round(x, decimals):.{decimals}f}"


def span(values: list[float], digits: int = 2) -> str:
    """The range of ``values`` as the table writes it (``0.02–0.27``), or one value when they agree."""
    lo, hi = figure(min(values), digits), figure(max(values), digits)
    return lo if lo == hi else f"{lo}–{hi}"


def render(rows: list[dict]) -> str:
    """The markdown table: one line per row, the cells as stored."""
    lines = ["| " + " | ".join(head for head, _ in SHOWN) + " |", "|" + "---|" * len(SHOWN)]
    for row in rows:
        lines.append("| " + " | ".join(row[key].replace("|", "\\|") for _, key in SHOWN) + " |")
    return "\n".join(lines)


def write_page(table: str, page: Path = PAGE, start: str = START, end: str = END) -> None:
    """Put ``table`` between the ``start`` and ``end`` markers of the page (the speed table's by default), the rest of
    it unchanged."""
    text = page.read_text(encoding="utf-8")
    before, rest = text.split(start, 1)
    after = rest.split(end, 1)[1]
    page.write_text(f"{before}{start}\n{table}\n{end}{after}", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", action="store_true", help="rewrite the table in docs/performance.md")
    args = parser.parse_args(argv)
    table = render(read_csv())
    if args.readme:
        write_page(table)
        print(f"wrote the speed table of {PAGE.relative_to(ROOT)}")
    else:
        print(table)


if __name__ == "__main__":
    main()
