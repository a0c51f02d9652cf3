"""The CSV files a run exports (per-trial results, the summary with its intervals, a trial's Gantt table): the table
as it is, under a few comment lines that say whose it is and how to read it.

Each file starts with lines beginning "# ": hcsched's version, the kind of table, the scenario's name, model, seed,
trials and digest (:func:`scenario_digest`), the units of its columns, what ``NAME_lower`` and ``NAME_upper`` are
(the bounds of the 95% confidence interval of the mean), and how to read it back: ``pandas.read_csv(path,
comment="#")`` (R: ``read.csv(path, comment.char = "#")``; polars: ``comment_prefix="#"``). The column names are the
library's own (``makespan``, not ``makespan_s``), so a script that reads ``hcsched.simulate``'s tables reads these.
A cell holding "#" (a label of your own) is quoted, and every text cell then with it, so that the comment character
never cuts a row. Nothing in a file depends on when or where it was made: the same scenario and seed give the same
bytes, and the same file name (:func:`export_stem`), while two scenarios that differ in anything but their name and
description never share one.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from typing import TYPE_CHECKING

import pandas as pd

from hcsched.errors import HcschedError
from hcsched.registry import get_model
from hcsched.scenario import Scenario
from hcsched.stats import BOOTSTRAP_RESAMPLES
from hcsched.version import __version__

if TYPE_CHECKING:
    from hcsched.metrics import Metric

READ_BACK = '# read with pandas.read_csv(path, comment="#"): these "# " lines are comments'
INTERVAL_WORDS = {
    "t": "Student-t",
    "bootstrap": f"the percentile bootstrap ({BOOTSTRAP_RESAMPLES:,} resamples, fixed seed)",
    "auto": "Student-t, or the percentile bootstrap where Student-t would go below zero",
    "auto-fraction": "Student-t, or the percentile bootstrap where Student-t would leave 0-1",
    "auto-percent": "Student-t, or the percentile bootstrap where Student-t would leave 0-100",
}


def scenario_digest(scenario: Scenario) -> str:
    """Eight hex digits of the scenario's content (model, system, heuristics, benchmark, trials, seed; not its name
    or description): two what-ifs get different digests, the same scenario the same one."""
    data = {k: v for k, v in scenario.to_dict().items() if k not in ("name", "description")}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:8]


def export_stem(scenario: Scenario) -> str:
    """The start of an exported file's name: ``<scenario>-s<seed>-<digest>`` in safe characters
    (``quickstart-s1-3f2a9c1b``)."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", scenario.name).strip("-.") or "scenario"
    return f"{name}-s{scenario.seed}-{scenario_digest(scenario)}"


def _said(text: str) -> str:
    """Text on one comment line: no line breaks."""
    return " ".join(str(text).split())


def _whose(scenario: Scenario, what: str) -> list[str]:
    """The first two comment lines: what the file is, of which scenario, and the scenario's digest."""
    model = get_model(scenario.model)
    stem = export_stem(scenario)
    return [f"# hcsched {__version__}, {what}, of the scenario {json.dumps(_said(scenario.name), ensure_ascii=False)} "
            f"(model {scenario.model}), seed {scenario.seed}, {scenario.trials} {model.trial_word}s",
            f"# scenario digest {scenario_digest(scenario)} (of its content, not its name): the same scenario and seed "
            f"give this file byte for byte; the scenario itself downloads as {stem}-scenario.json"]


def unit_of(metric: Metric, benchmark: str) -> str:
    """A results column's unit in words: "s", "tasks", "%", "fraction (0-1)", "ratio to min-min in the same trial";
    "" for a count or a ratio without a unit."""
    if metric.name.startswith("normalized_"):
        return f"ratio to {benchmark} in the same trial"
    if metric.unit:
        return metric.unit
    return "fraction (0-1)" if metric.fmt.endswith("%") else ""


def _runs(names: list[str]) -> list[str]:
    """Names with runs of a numbered family collapsed: idle_at0 ... idle_at59."""
    out: list[str] = []
    i = 0
    while i < len(names):
        m = re.fullmatch(r"(.*?)(\d+)", names[i])
        j = i
        while m and j + 1 < len(names) and names[j + 1] == f"{m[1]}{int(m[2]) + j + 1 - i}":
            j += 1
        out.append(names[i] if j == i else f"{names[i]} ... {names[j]}")
        i = j + 1
    return out


def units_line(scenario: Scenario, columns) -> str:
    """ "# units: s: makespan, mean_flow; fraction (0-1): utilization; ... other columns have no unit", for the
    metric columns among ``columns`` (their ``_lower``/``_upper`` bounds share their unit)."""
    by_unit: dict[str, list[str]] = {}
    metrics = {m.name: m for m in get_model(scenario.model).columns(scenario.spec)}
    for name in columns:
        if name in metrics:
            unit = unit_of(metrics[name], scenario.benchmark_label)
            if unit:
                by_unit.setdefault(unit, []).append(name)
    said = "; ".join(f"{unit}: {', '.join(_runs(names))}" for unit, names in by_unit.items())
    return f"# units: {said or 'none'}; the other columns have no unit (counts, ratios, labels)"


def commented_csv(header: list[str], table: pd.DataFrame) -> str:
    """The comment lines, then the table; text cells quoted only when some cell or name holds "#"."""
    texts = [str(c) for c in table.columns] + [v for c in table.select_dtypes(exclude="number")
                                               for v in pd.unique(table[c]) if isinstance(v, str)]
    quoting = csv.QUOTE_NONNUMERIC if any("#" in t for t in texts) else csv.QUOTE_MINIMAL
    return "\n".join(header) + "\n" + table.to_csv(index=False, lineterminator="\n", quoting=quoting)


def results_csv(scenario: Scenario, results: pd.DataFrame) -> str:
    """The per-trial results (one row per trial and heuristic) with its comment lines."""
    model = get_model(scenario.model)
    return commented_csv([*_whose(scenario, "per-trial results"),
                 f"# one row per {model.trial_word} and heuristic: {model.trial_word} (from 0), heuristic (its label), "
                 f"then each metric's value in that {model.trial_word}",
                 units_line(scenario, results.columns), SCENARIO_LINE + _scenario_json(scenario), READ_BACK], results)


SCENARIO_LINE = "# scenario, to read back (hcsched compare): "


def _scenario_json(scenario: Scenario) -> str:
    return json.dumps(scenario.to_dict(), separators=(",", ":"), ensure_ascii=False)


def read_results_csv(text: str, source: str = "results CSV") -> tuple[Scenario, pd.DataFrame]:
    """A per-trial results file of :func:`results_csv` read back: its scenario (from its "# scenario" line) and its
    table."""
    line = next((ln for ln in text.splitlines() if ln.startswith(SCENARIO_LINE)), None)
    if line is None:
        first = next(iter(text.splitlines()), "")
        what = "a per-trial results file of another version of hcsched" if first.startswith("# hcsched") else \
            "not a per-trial results file of hcsched"
        raise HcschedError(f"{source}: no line starting {SCENARIO_LINE.strip()!r} ({what}); allowed: a 'Per-trial "
                           "results (CSV)' download or 'hcsched run --out' file of this version, or a scenario file")
    try:
        scenario = Scenario.from_dict(json.loads(line.removeprefix(SCENARIO_LINE)))
    except json.JSONDecodeError as exc:
        raise HcschedError(f"{source}: its scenario line is not valid JSON ({exc})") from None
    try:
        table = pd.read_csv(io.StringIO(text), comment="#")
    except (ValueError, pd.errors.ParserError) as exc:
        raise HcschedError(f"{source}: its table cannot be read ({exc})") from None
    missing = [c for c in ("trial", "heuristic") if c not in table.columns]
    if missing:
        raise HcschedError(f"{source}: no column {missing[0]!r}; allowed: a per-trial results table (trial, heuristic "
                           "and the model's metrics)")
    return scenario, table


def summary_csv(scenario: Scenario, summary: pd.DataFrame) -> str:
    """The summary (``hcsched.summarize``: a mean and its 95% interval per heuristic and metric) with its comment
    lines, naming each metric's interval method."""
    model = get_model(scenario.model)
    methods = model.interval_methods()
    metrics = [c for c in summary.columns if f"{c}_lower" in summary.columns]
    by_method: dict[str, list[str]] = {}
    for name in metrics:
        by_method.setdefault(methods.get(name, "t"), []).append(name)
    how = "; ".join(f"{', '.join(_runs(names))}: {INTERVAL_WORDS.get(m, m)}" for m, names in by_method.items())
    return commented_csv([*_whose(scenario, "summary"),
                 f"# one row per heuristic: trials (the {model.trial_word}s averaged), then for each metric NAME its "
                 f"mean over the {model.trial_word}s, and NAME_lower and NAME_upper, the lower and upper bounds of the "
                 f"95% confidence interval of that mean (empty with one {model.trial_word})",
                 f"# the intervals: {how}",
                 units_line(scenario, metrics), READ_BACK], summary)


def schedule_csv(scenario: Scenario, table: pd.DataFrame, trial: int,
                 window: tuple[float, float] | None = None) -> str:
    """One trial's Gantt table (``hcsched.experiment.schedule_table``, one row per task and heuristic; the tasks
    overlapping ``window`` if given) with its comment lines."""
    model = get_model(scenario.model)
    unit = model.time_unit
    what = f"Gantt table of {model.trial_word} {trial}" + (
        f", the tasks overlapping the time window {window[0]:.6g}-{window[1]:.6g} {unit}" if window else "")
    core = [c for c in ("arrival", "start", "finish", "expected", "actual") if c in table.columns]
    own = [c for c in model.schedule_columns if c in table.columns]
    return commented_csv([*_whose(scenario, what),
                 "# one row per task and heuristic: task and machine numbered from 0; an empty start or finish: the "
                 "task never started or never finished",
                 f"# units: {unit}: {', '.join(core)}" + (f"; the model's own columns ({', '.join(own)}): see "
                                                          f"docs/models/{scenario.model}.md" if own else ""),
                 READ_BACK], table)
