"""The CSV files a run exports (per-trial results, the summary with its intervals, a trial's Gantt table): the table
as it is, under a few comment lines that say whose it is and how to read it.

Each file starts with lines beginning "# ": hcsched's version, the kind of table, the scenario's name, model, seed,
trials and digest (:func:`scenario_digest`), every column by its name with what it holds (:func:`columns_line`:
``trial``, the trial counted from 0; ``NAME_lower`` and ``NAME_upper``, the bounds of the 95% confidence interval of
the mean), the units of its columns, and how to read it back: ``pandas.read_csv(path,
comment="#")`` (R: ``read.csv(path, comment.char = "#")``; polars: ``comment_prefix="#"``). The column names are the
library's own (``makespan``, not ``makespan_s``), so a script that reads ``hcsched.simulate``'s tables reads these.
A cell holding "#" (a label of your own) is quoted, and every text cell then with it, so that the comment character
never cuts a row; a comment line escapes every control or line-breaking character of a name or label as JSON does
(``\\n``, ``\\u2028``), so that no text of a user's can start a line of its own. Nothing in a file depends on when
or where it was made: the same scenario and seed give the same bytes, and the same file name (:func:`export_stem`),
while two scenarios that differ in anything but their name and description never share one.

Read back (:func:`read_results_csv`, for ``hcsched compare``), a per-trial results file is checked as a run's own
results would be: its columns are its model's, every heuristic of its scenario line has exactly the trials 0 to n-1
it says and no other heuristic is there, and every value lies in its metric's range (:func:`metric_range`).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from hcsched.errors import HcschedError
from hcsched.registry import get_model
from hcsched.scenario import Scenario, parse_scenario
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
    """Names with runs of a numbered family collapsed: idle_at0 ... idle_at59, util_m0_lower ... util_m7_lower."""
    out: list[str] = []
    i = 0
    while i < len(names):
        m = re.fullmatch(r"(.*?)(\d+)(\D*)", names[i])
        j = i
        while m and j + 1 < len(names) and names[j + 1] == f"{m[1]}{int(m[2]) + j + 1 - i}{m[3]}":
            j += 1
        out.append(names[i] if j == i else f"{names[i]} ... {names[j]}")
        i = j + 1
    return out


COLUMNS_LINE = "# columns: "


def columns_line(groups: list[tuple[list[str], str]]) -> str:
    """ "# columns: trial: the trial, numbered from 0; heuristic: its label; makespan, mean_flow: ...": every column by
    its name (runs of a numbered family collapsed: :func:`_runs`), in groups, each with what its columns hold (no
    "; " in it); ``groups``: (names, what), empty groups left out."""
    return COLUMNS_LINE + "; ".join(f"{', '.join(_runs(names))}: {what}" for names, what in groups if names)


def named_columns(line: str) -> list[str]:
    """The column names a :func:`columns_line` gives, runs written out (idle_at0 ... idle_at2 -> idle_at0, idle_at1,
    idle_at2)."""
    names: list[str] = []
    for group in line.removeprefix(COLUMNS_LINE).split("; "):
        for item in group.split(": ", 1)[0].split(", "):
            first, _, last = item.partition(" ... ")
            if not last:
                names.append(first)
                continue
            a, b = re.fullmatch(r"(.*?)(\d+)(\D*)", first), re.fullmatch(r"(.*?)(\d+)(\D*)", last)
            names += [f"{a[1]}{k}{a[3]}" for k in range(int(a[2]), int(b[2]) + 1)]
    return names


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


def one_line(text: str) -> str:
    """``text`` with every control or line-breaking character escaped as JSON escapes it (``\\n``, ``\\r``,
    ``\\t``, ``\\u2028``): one line however it is split (:meth:`str.splitlines` too), and inside a JSON string
    the same text once decoded."""
    return _BREAKS.sub(lambda m: _ESCAPES.get(m[0]) or f"\\u{ord(m[0]):04x}", text)


_BREAKS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")  # Unicode's control characters and line/paragraph separators
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def commented_csv(header: list[str], table: pd.DataFrame) -> str:
    """The comment lines (each kept on one line: :func:`one_line`), then the table; text cells quoted only when some
    cell or name holds "#"."""
    texts = [str(c) for c in table.columns] + [v for c in table.select_dtypes(exclude="number")
                                               for v in pd.unique(table[c]) if isinstance(v, str)]
    quoting = csv.QUOTE_NONNUMERIC if any("#" in t for t in texts) else csv.QUOTE_MINIMAL
    return "\n".join(map(one_line, header)) + "\n" + table.to_csv(index=False, lineterminator="\n", quoting=quoting)


def check_out(path: str | Path, flag: str) -> Path:
    """``path`` as a file to write, checked before anything runs: not a folder, in a folder that exists."""
    path = Path(path)
    if path.is_dir():
        raise HcschedError(f"{flag}: {str(path)!r} is a folder; allowed: the name of a "
                           "file to write (e.g. results.csv)")
    if not path.parent.is_dir():
        raise HcschedError(f"{flag}: {str(path)!r}: the folder {str(path.parent)!r} does not exist; "
                           "allowed: a file in an existing folder")
    return path


def results_csv(scenario: Scenario, results: pd.DataFrame) -> str:
    """The per-trial results (one row per trial and heuristic) with its comment lines."""
    word = get_model(scenario.model).trial_word
    known = ("trial", "heuristic")
    return commented_csv([*_whose(scenario, "per-trial results"), f"# one row per {word} and heuristic",
                          columns_line([(["trial"], f"the {word}, numbered from 0"), (["heuristic"], "its label"),
                                        ([c for c in results.columns if c not in known],
                                         f"each metric's value in that {word}")]),
                          units_line(scenario, results.columns), SCENARIO_LINE + _scenario_json(scenario), READ_BACK],
                         results)


SCENARIO_LINE = "# scenario, to read back (hcsched compare): "


def _scenario_json(scenario: Scenario) -> str:
    return json.dumps(scenario.to_dict(), separators=(",", ":"), ensure_ascii=False)


def read_results_csv(text: str, source: str = "results CSV") -> tuple[Scenario, pd.DataFrame]:
    """A per-trial results file of :func:`results_csv` read back: its scenario (from its "# scenario" line, which may
    name no file) and its table, checked against each other (see the module); anything else raises HcschedError
    naming ``source``, the line or column and what is allowed."""
    lines = text.split("\n")
    start = next((i for i, ln in enumerate(lines) if not ln.startswith("#")), len(lines))  # the comment lines' end
    said = [ln.rstrip("\r") for ln in lines[:start] if ln.startswith(SCENARIO_LINE)]
    if len(said) != 1:
        what = "a per-trial results file of another version of hcsched" if text.startswith("# hcsched") else \
            "not a per-trial results file of hcsched"
        found = f"{len(said)} lines starting {SCENARIO_LINE.strip()!r} among its comment lines" if said else \
            f"no line starting {SCENARIO_LINE.strip()!r} ({what})"
        raise HcschedError(f"{source}: {found}; allowed: one, as in a 'Per-trial results (CSV)' download or 'hcsched "
                           "run --out' file of this version, or a scenario file")
    where = f"{source}: its scenario line"
    try:
        scenario = parse_scenario(said[0].removeprefix(SCENARIO_LINE), "json", where)
    except HcschedError as exc:
        raise exc if str(exc).startswith(where) else HcschedError(f"{where}: {exc}") from None
    table, rows = _table(lines[start:], start, source)
    check_results(scenario, table, source, rows)
    return scenario, table


def _table(lines: list[str], start: int, source: str) -> tuple[pd.DataFrame, list[int]]:
    """The table under the comment lines (``start`` of them), and the file's line number of each of its rows; a row
    of another number of cells than the header is refused."""
    body = "\n".join(lines)
    reader = csv.reader(io.StringIO(body))
    header, rows = None, []
    try:
        for cells in reader:
            if not cells:
                continue  # a blank line, as pandas skips it
            if header is None:
                header = cells
            elif len(cells) != len(header):
                raise HcschedError(f"{source}: line {start + reader.line_num} has {len(cells)} cells, its header "
                                   f"{len(header)}; allowed: a table whose every row has a cell per column")
            else:
                rows.append(start + reader.line_num)
    except csv.Error as exc:
        raise HcschedError(f"{source}: its table cannot be read (line {start + reader.line_num}: {exc})") from None
    if header is None or not rows:
        raise HcschedError(f"{source}: its table has {'a header but ' if header else ''}no rows; allowed: one row per "
                           "trial and heuristic, as 'hcsched run --out' writes them")
    try:
        table = pd.read_csv(io.StringIO(body), dtype={"heuristic": str}, keep_default_na=False, na_values=[""])
    except (ValueError, pd.errors.ParserError) as exc:
        raise HcschedError(f"{source}: its table cannot be read ({' '.join(str(exc).split())})") from None
    return table, rows


TOLERANCE = 1e-9  # how far past its range's end a value may lie by rounding (a utilisation of 1 + 2e-16)
RANGES = {"gain_": (-math.inf, 100.0), "pct_": (0.0, 100.0)}
"""What a metric's values may be, by the start of its name, where :func:`metric_range`'s rule does not say it: a gain
against a reference, 100 (M_ref - M) / M_ref, is negative when M is worse and at most 100; a percentage of the tasks
lies in 0-100."""


def metric_range(metric: Metric) -> tuple[float, float]:
    """The (lowest, highest) value of a results column: from :data:`RANGES`, else at least 0 (a time, a count, a
    ratio of non-negative values: every metric of every model but those of :data:`RANGES`) and at most what its
    interval method says the values stay under (1 for "auto-fraction", 100 for "auto-percent")."""
    found = next((bounds for start, bounds in RANGES.items() if metric.name.startswith(start)), None)
    return found or (0.0, {"auto-fraction": 1.0, "auto-percent": 100.0}.get(metric.ci, math.inf))


def check_results(scenario: Scenario, table: pd.DataFrame, source: str = "results",
                  rows: list[int] | None = None) -> None:
    """Raise HcschedError unless ``table`` is what a run of ``scenario`` gives: the columns trial, heuristic and the
    model's metrics; every heuristic of the scenario, and no other, with the trials 0 to n-1 once each; each metric's
    values empty (undefined) or finite numbers in :func:`metric_range`. ``rows``: the file's line of each row, for
    the messages (else "row" and the row's number from 1)."""
    model = get_model(scenario.model)
    metrics = {m.name: m for m in model.columns(scenario.spec)}
    where = (lambda i: f"line {rows[i]}") if rows else (lambda i: f"row {i + 1}")  # noqa: E731
    _check_columns(table, ["trial", "heuristic", *metrics], model.name, source)
    _check_trials(scenario, table, source, where, model.trial_word)
    for name, metric in metrics.items():
        _check_values(table[name], metric, source, where)


def _check_columns(table: pd.DataFrame, expected: list[str], model: str, source: str) -> None:
    missing = [c for c in expected if c not in table.columns]
    extra = [c for c in table.columns if c not in expected]
    if missing or extra:
        what = f"no column {missing[0]!r}" if missing else f"a column {extra[0]!r}"
        raise HcschedError(f"{source}: {what}; allowed: the columns of a per-trial results table of the {model} model "
                           f"as its scenario line gives them ({', '.join(_runs(expected))})")


def _check_trials(scenario: Scenario, table: pd.DataFrame, source: str, where, word: str) -> None:
    """Every label of the scenario, and no other, with the trials 0..n-1 once each."""
    n, labels = scenario.trials, [h.label for h in scenario.heuristics]
    trial = pd.to_numeric(table["trial"], errors="coerce")
    bad = np.flatnonzero(~(trial.between(0, n - 1) & (trial % 1 == 0)).to_numpy())
    if bad.size:
        said = _cell(table["trial"].iloc[bad[0]])
        raise HcschedError(f"{source}: {where(bad[0])}, column 'trial': {said} is not allowed; "
                           f"allowed: a whole number from 0 to {n - 1} (its scenario line says {n} {word}s)")
    unknown = np.flatnonzero(~table["heuristic"].isin(labels).to_numpy())
    if unknown.size:
        said = _cell(table["heuristic"].iloc[unknown[0]])
        raise HcschedError(f"{source}: {where(unknown[0])}, column 'heuristic': {said} is not a "
                           f"heuristic of its scenario line; allowed: one of {', '.join(labels)}")
    twice = np.flatnonzero(table.duplicated(["heuristic", "trial"]).to_numpy())
    if twice.size:
        i = twice[0]
        raise HcschedError(f"{source}: {where(i)}: {word} {int(trial.iloc[i])} of {_cell(table['heuristic'].iloc[i])} "
                           f"again; allowed: each {word} once per heuristic")
    counts = table["heuristic"].value_counts()
    short = next((label for label in labels if counts.get(label, 0) != n), None)
    if short is not None:
        raise HcschedError(f"{source}: its scenario line says {n} {word}s, but {short!r} has {counts.get(short, 0)}; "
                           f"allowed: every heuristic with each {word} from 0 to {n - 1}, as the run wrote them")


def _check_values(column: pd.Series, metric: Metric, source: str, where) -> None:
    """Each value empty (undefined) or a finite number within the metric's range."""
    if column.dtype == bool:
        return  # a yes/no column (classes' unstable), read as such
    values = pd.to_numeric(column, errors="coerce")
    low, high = metric_range(metric)
    slack = lambda x: TOLERANCE * max(1.0, abs(x))  # noqa: E731
    wrong = (values.isna() & column.notna()) | np.isinf(values) | (values < low - slack(low)) | \
        (values > high + slack(high))
    bad = np.flatnonzero(wrong.to_numpy())
    if bad.size:
        raise HcschedError(f"{source}: {where(bad[0])}, column {metric.name!r}: {_cell(column.iloc[bad[0]])} is not "
                           f"allowed; allowed: {_range_words(low, high)}, or empty where it is undefined")


def _cell(value) -> str:
    """A cell's value as a message quotes it: 'abc', -235.0, 1000."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _range_words(low: float, high: float) -> str:
    if math.isinf(low) and math.isinf(high):
        return "a finite number"
    if math.isinf(high):
        return f"a number >= {low:g}"
    if math.isinf(low):
        return f"a number <= {high:g}"
    return f"a number from {low:g} to {high:g}"


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
    word = model.trial_word
    bounds = {f"{m}_{end}" for m in metrics for end in ("lower", "upper")}
    return commented_csv([*_whose(scenario, "summary"),
                          f"# one row per heuristic: for each metric NAME its mean over the {word}s (the column NAME), "
                          "and NAME_lower and NAME_upper, the lower and upper bounds of the 95% confidence interval of "
                          f"that mean (empty with one {word})",
                          columns_line([([c for c in summary.columns if c not in {"trials", *metrics, *bounds}],
                                         "the heuristic's label"),
                                        (["trials"] if "trials" in summary.columns else [], f"the {word}s averaged"),
                                        (metrics, "the means"), ([f"{m}_lower" for m in metrics], "their lower bounds"),
                                        ([f"{m}_upper" for m in metrics], "their upper bounds")]),
                          f"# the intervals: {how}", units_line(scenario, metrics), READ_BACK], summary)


def schedule_csv(scenario: Scenario, table: pd.DataFrame, trial: int,
                 window: tuple[float, float] | None = None) -> str:
    """One trial's Gantt table (``hcsched.experiment.schedule_table``, one row per task and heuristic; the tasks
    overlapping ``window`` if given) with its comment lines."""
    model = get_model(scenario.model)
    unit = model.time_unit
    what = f"Gantt table of {model.trial_word} {trial}" + (
        f", the tasks overlapping the time window {window[0]:.6g}-{window[1]:.6g} {unit}" if window else "")
    core = [c for c in ("arrival", "start", "finish", "expected", "actual") if c in table.columns]
    own = [c for c in table.columns if c not in ("trial", "heuristic", "task", "machine", *core)]
    return commented_csv([*_whose(scenario, what), "# one row per task and heuristic",
                          columns_line([([c for c in ("trial",) if c in table.columns],
                                         f"the {model.trial_word}, numbered from 0"),
                                        ([c for c in ("heuristic",) if c in table.columns], "its label"),
                                        ([c for c in ("task", "machine") if c in table.columns],
                                         "numbered from 0"),
                                        (core, "times (an empty start or finish: the task never started or never "
                                               "finished)"),
                                        (own, f"the model's own, see the {scenario.model} model's page of the "
                                               "documentation")]),
                          f"# units: {unit}: {', '.join(core)}", READ_BACK], table)
