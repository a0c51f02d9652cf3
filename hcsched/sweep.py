"""Parameter sweeps: a scenario run over a grid of values of its keys, on this machine or a Dask cluster.

A KEY is a dotted path into the scenario's JSON form (``arrivals.rate``,
``machines``, ``etc.task_het``, list items by index: ``heuristics.3.k``);
its VALUES a comma list or ``START:STOP:COUNT`` (``:log`` for log spacing;
:func:`hcsched.sweep_spec.parse_vary` reads them).
Several keys give their product. Every point is checked as a scenario before
anything runs.

Common random numbers across points: trial t of every point draws from
``SeedSequence(seed).spawn(...)[t]``, as :func:`hcsched.simulate` does, so a
point's trial t is exactly ``simulate`` of that point's scenario, trial t,
and differences between points are the parameter's effect, not noise.

Work goes out in chunks of trials of one point. With ``out`` (or
``resume``), every finished chunk is appended to that CSV at once, so an
interrupted sweep keeps what finished; ``resume`` skips every (point, trial)
already there. At the end the file is rewritten in a fixed order, so its
content does not depend on the backend, the number of workers, the order of
completion or interruptions.
"""

from __future__ import annotations

import io
import itertools
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from hcsched import experiment
from hcsched.errors import HcschedError
from hcsched.experiment import normalized, run_trials, trial_seeds, trials_per_chunk
from hcsched.export import check_out
from hcsched.heuristics import get_heuristic
from hcsched.models import get_model
from hcsched.runner import LOCAL, RunOptions, run_chunks, run_options
from hcsched.scenario import Scenario
from hcsched.stats import summarize
from hcsched.sweep_spec import parse_vary

CHUNK_SECONDS = 2.0  # a chunk of trials should take about this long on one core: scheduling overhead stays small


# --- the grid ------------------------------------------------------------------------------------
def set_path(data: dict, key: str, value: Any) -> None:
    """Set the dotted ``key`` of a scenario's JSON form; a heuristic given by name becomes a table."""
    parts = key.split(".")
    node: Any = data
    for depth, part in enumerate(parts):
        last = depth == len(parts) - 1
        where = ".".join(parts[:depth + 1])
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise HcschedError(f"vary {key}: {where!r} is not an index of a list of {len(node)} items")
            index = int(part)
            if last:
                node[index] = value
                return
            if isinstance(node[index], str):  # "kpb" -> {"name": "kpb"} so that a parameter can be set
                node[index] = {"name": node[index]}
            node = node[index]
        elif isinstance(node, dict):
            if last:
                node[part] = value
                return
            if part not in node:
                node[part] = {}
            node = node[part]
        else:
            raise HcschedError(f"vary {key}: {'.'.join(parts[:depth])!r} is a value, not a table or a list")


def _keep_label(data: dict, key: str, scenario: Scenario) -> None:
    """A heuristic whose parameter varies keeps its label across the points (one line per heuristic in a chart)."""
    parts = key.split(".")
    if len(parts) > 2 and parts[0] == "heuristics" and parts[1].isdigit() and int(parts[1]) < len(scenario.heuristics):
        item = data["heuristics"][int(parts[1])]
        if isinstance(item, dict) and "label" not in item:
            item["label"] = scenario.heuristics[int(parts[1])].label


@dataclass(frozen=True)
class Point:
    """One point of the grid: its number, the values of the varied keys, and its scenario."""

    index: int
    values: dict[str, Any]
    scenario: Scenario


def grid(scenario: Scenario, vary: dict[str, list[Any]]) -> list[Point]:
    """Every point of the product grid, each checked as a scenario (an invalid one names the point and the key)."""
    base = scenario.to_dict()
    points = []
    for index, combo in enumerate(itertools.product(*vary.values())):
        values = dict(zip(vary, combo, strict=True))
        data = json.loads(json.dumps(base))
        for key, value in values.items():
            set_path(data, key, value)
            _keep_label(data, key, scenario)
        try:
            points.append(Point(index, values, Scenario.from_dict(data)))
        except HcschedError as exc:
            raise HcschedError(f"sweep point {index} ({_values_said(values)}): {exc}") from None
    return points


def sweep_points(scenario: Scenario, vary, trials: int | None = None, seed: int | None = None) -> list[Point]:
    """The points of a sweep of ``scenario`` over ``vary`` (:func:`hcsched.sweep_spec.parse_vary`), each with
    ``trials`` and ``seed`` (default: the scenario's) and checked as a scenario."""
    trials = scenario.trials if trials is None else trials
    seed = scenario.seed if seed is None else seed
    return grid(scenario.replace(trials=trials, seed=seed), parse_vary(vary))  # replace validates both


def sweep_memory_refusal(points: list[Point], workers: int) -> str | None:
    """Why a sweep cannot run here, in one line: a point whose run needs more memory than this machine allows
    (:func:`hcsched.experiment.memory_refusal`, with ``workers`` trials at once and every point's results); None when
    every point fits."""
    for p in points:
        refused = experiment.memory_refusal(p.scenario, jobs=workers, points=len(points))
        if refused:
            return f"sweep point {p.index} ({_values_said(p.values)}): {refused}"
    return None


def sweep_seconds(points: list[Point], workers: int) -> float:
    """The wall time of a sweep on ``workers`` cores, by the models' estimates: its points' trials on one core,
    shared out."""
    return sum(experiment.estimate_seconds(p.scenario, jobs=1) for p in points) / max(1, workers)


def _values_said(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


# --- running -------------------------------------------------------------------------------------
def point_columns(points: list[Point]) -> list[str]:
    """The columns of a sweep's results: point, the varied keys, trial, heuristic, then every metric column."""
    keys = list(points[0].values)
    metrics: list[str] = []
    for p in points:
        model = get_model(p.scenario.model)
        metrics += [m.name for m in model.columns(p.scenario.spec) if m.name not in metrics]
    return ["point", *keys, "trial", "heuristic", *[m for m in metrics if m not in keys]]


def run_chunk(point: Point, trials: list[int]) -> pd.DataFrame:
    """Trials of one point, with the normalised columns (each trial holds its own benchmark run)."""
    seeds = trial_seeds(point.scenario.seed, max(trials) + 1)
    rows, _ = run_trials(point.scenario, trials, [seeds[t] for t in trials])
    frame = normalized(pd.DataFrame(rows), point.scenario)
    for key, value in reversed(point.values.items()):
        frame.insert(0, key, json.dumps(value) if isinstance(value, (list, dict)) else value)
    frame.insert(0, "point", point.index)
    return frame


def chunk_size(points: list[Point], trials: int, workers: int = 1) -> int:
    """Trials per chunk: about CHUNK_SECONDS of work on one core (by the models' cost estimates), but small enough
    that every worker gets at least four chunks (the last chunks do not leave workers idle)."""
    seconds = max(get_model(p.scenario.model).trial_seconds(p.scenario.spec, p.scenario.heuristics) for p in points)
    return trials_per_chunk(seconds, trials, workers, CHUNK_SECONDS, len(points))


def _csv(frame: pd.DataFrame, columns: list[str], header: bool) -> str:
    buffer = io.StringIO()
    frame.reindex(columns=columns).to_csv(buffer, index=False, header=header, lineterminator="\n")
    return buffer.getvalue()


def _read_done(path: Path, columns: list[str], heuristics: dict[int, int]) -> pd.DataFrame:
    """The complete (point, trial) groups of a partial results file; a torn last line is dropped."""
    text = path.read_text()
    if not text.strip():
        return pd.DataFrame(columns=columns)
    text = text[:text.rfind("\n") + 1]  # a line cut short by an interruption
    try:
        frame = pd.read_csv(io.StringIO(text))
    except (ValueError, pd.errors.ParserError) as exc:
        raise HcschedError(f"resume {path}: its table cannot be read ({' '.join(str(exc).split())})") from None
    if list(frame.columns) != columns:
        raise HcschedError(f"resume {path}: its columns are not those of this sweep; resume the same sweep, or "
                           "choose another --out")
    for key in ("point", "trial"):
        if len(frame) and not pd.api.types.is_integer_dtype(frame[key]):
            raise HcschedError(f"resume {path}: its column {key!r} holds other than whole numbers; resume the file of "
                               "the same sweep as it wrote it, or choose another --out")
    size = frame.groupby(["point", "trial"])["heuristic"].transform("size")
    return frame[size.to_numpy() == frame["point"].map(heuristics).to_numpy()]


def _write_final(path: Path, frame: pd.DataFrame, columns: list[str]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(_csv(frame, columns, header=True))
    os.replace(tmp, path)


def _order(frame: pd.DataFrame, points: list[Point]) -> pd.DataFrame:
    """Rows by point, trial, then the scenario's order of heuristics."""
    rank = {(p.index, h.label): i for p in points for i, h in enumerate(p.scenario.heuristics)}
    keys = [rank[(int(pt), h)] for pt, h in zip(frame["point"], frame["heuristic"], strict=True)]
    return (frame.assign(_rank=keys).sort_values(["point", "trial", "_rank"], kind="stable")
            .drop(columns="_rank").reset_index(drop=True))


def sweep(scenario: Scenario, vary, trials: int | None = None, seed: int | None = None, backend: str = "local",
          scheduler: str | None = None, resume: str | Path | None = None, out: str | Path | None = None,
          jobs: int | None = None, progress: Callable[[int, int], None] | None = None,
          chunk: int | None = None, options: RunOptions | None = None) -> pd.DataFrame:
    """Run ``scenario`` at every point of the grid ``vary``; one row per point, trial and heuristic.

    ``vary``: ``{"arrivals.rate": [0.001, 0.002]}`` or ``["arrivals.rate=0.001,0.002"]``. ``backend``: "local"
    (``jobs`` processes, default all cores) or "dask" (a local Dask cluster of ``jobs`` workers, or the running
    scheduler at ``scheduler``); or all three as ``options`` (:class:`hcsched.runner.RunOptions`). ``out``: a CSV
    that receives every chunk as it finishes and, at the end, the whole result in a fixed order; ``resume``: such a
    file of an interrupted run of the same sweep (its finished (point, trial) groups are kept, not run again).
    ``progress(done, total)`` counts trials; an exception it raises stops the sweep (what finished stays in ``out``).
    ``chunk``: trials per chunk (default: about ``CHUNK_SECONDS`` of work).
    """
    options = run_options(options, jobs, backend, scheduler)
    points = sweep_points(scenario, vary, trials, seed)
    trials = points[0].scenario.trials
    path = check_out(resume if resume is not None else out, "resume" if resume is not None else "out") \
        if (resume is not None or out is not None) else None
    refused = sweep_memory_refusal(points, options.workers())
    if refused:
        raise HcschedError(refused)
    columns = point_columns(points)
    heuristics = {p.index: len(p.scenario.heuristics) for p in points}
    done = _read_done(path, columns,
                      heuristics) if resume is not None and path.exists() else pd.DataFrame(columns=columns)
    finished = set(zip(done["point"].astype(int), done["trial"].astype(int), strict=True))
    size = chunk or chunk_size(points, trials, options.workers())
    work = [(p, ts) for p in points for a in range(0, trials, size)
            if (ts := [t for t in range(a, min(a + size, trials)) if (p.index, t) not in finished])]
    if path is not None:
        try:
            _write_final(path, done, columns)  # a clean start: header and the complete groups only
        except OSError as exc:
            raise HcschedError(f"out: cannot write {str(path)!r} ({exc.strerror or exc})") from None
    frames = [done]
    total, count = len(points) * trials, len(finished)
    if progress:
        progress(count, total)

    def collect(frame: pd.DataFrame) -> None:
        nonlocal count
        if path is not None:
            with path.open("a") as f:
                f.write(_csv(frame, columns, header=False))
                f.flush()
                os.fsync(f.fileno())
        frames.append(frame)
        count += frame["trial"].nunique()
        if progress:
            progress(count, total)

    run_work(work, collect, options)
    # Every route (fresh, resumed, any backend) ends the same way: the rows as CSV text, read back and ordered.
    text = path.read_text() if path is not None else "".join(
        _csv(f, columns, header=i == 0) for i, f in enumerate(frames))
    result = _order(pd.read_csv(io.StringIO(text)), points)
    if path is not None:
        _write_final(path, result, columns)
    return result


def run_work(work: list[tuple[Point, list[int]]], collect: Callable[[Any], None], options: RunOptions = LOCAL,
             job: Callable = run_chunk) -> None:
    """Run ``job(point, trials)`` for every item of ``work`` as ``options`` say (:class:`hcsched.runner.RunOptions`:
    ``jobs`` local processes, or a Dask cluster), handing each result to ``collect`` as it finishes
    (in the calling process). An exception from ``collect`` (e.g. a cancel) stops the run. ``job`` must be a function
    of an importable module (workers receive it by name)."""
    run_chunks(job, work, lambda _, result: collect(result), {point.scenario.model for point, _ in work}, options)


def sweep_summary(results: pd.DataFrame, scenario: Scenario, vary) -> pd.DataFrame:
    """Mean and 95% interval of every bar metric per point and heuristic (the model's interval methods)."""
    keys = list(parse_vary(vary))
    model = get_model(scenario.model)
    metrics = [m.name for m in model.bar_metrics() if m.name in results.columns]
    frames = []
    for point, group in results.groupby("point", sort=True):
        table = summarize(group, metrics, methods=model.interval_methods())
        for key in reversed(keys):
            table.insert(0, key, group[key].iloc[0])
        table.insert(0, "point", point)
        frames.append(table)
    return pd.concat(frames, ignore_index=True)


# --- proposals for the dashboard -----------------------------------------------------------------
def _leaves(node: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(node, dict):
        return [leaf for k, v in node.items() for leaf in _leaves(v, f"{prefix}{k}.")]
    if isinstance(node, list) and node and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in node):
        return [(prefix[:-1], node)]
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        return [(prefix[:-1], node)]
    return []


def propose(value: Any) -> str:
    """A range of values around ``value`` in the syntax of ``--vary``: whole numbers from half to twice it, other
    numbers log-spaced from half to twice it, a list scaled by 0.5 to 1.2."""
    if isinstance(value, list):
        return json.dumps([[round(v * f, 10) for v in value] for f in (0.5, 0.75, 1.0, 1.2)])
    if isinstance(value, int):
        return ",".join(str(v) for v in sorted({max(1, value // 2), max(1, 3 * value // 4), value, 3 * value // 2,
                                                2 * value}))
    return f"{value / 2:.6g}:{value * 2:.6g}:5:log" if value > 0 else f"{value * 2:.6g}:{value / 2:.6g}:5"


def candidates(scenario: Scenario) -> dict[str, str]:
    """Every numeric key of the scenario, and every numeric parameter of its heuristics, with a proposed range."""
    data = scenario.to_dict()
    leaves = _leaves({k: v for k, v in data.items() if k not in ("trials", "seed", "heuristics")})
    out = {key: propose(value) for key, value in leaves if value != 0}
    for i, h in enumerate(scenario.heuristics):
        for p in get_heuristic(h.name, scenario.model).params:
            value = h.kwargs.get(p.name)
            if p.kind in (int, float) and isinstance(value, (int, float)):
                whole = p.kind is int or (float(value).is_integer() and (p.low or 0) >= 1)  # e.g. kbar: machines
                text = propose(int(value) if whole else float(value))
                if p.high is not None and not whole and value > 0:  # e.g. k in (0, 100]
                    text = ",".join(f"{v:g}" for v in sorted({max(p.low or 0, 0) or value / 4, value / 2, value,
                                                               min(p.high, value * 2), p.high}) if v > 0)
                out[f"heuristics.{i}.{p.name}"] = text
    return out
