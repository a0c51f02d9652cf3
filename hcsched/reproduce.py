"""Rerun the papers' claims (:mod:`hcsched.claims`) and compute their verdicts.

Each claim names a preset with changes (or a sweep over such changes) and each of its readings adds its own; every
distinct scenario runs once, however many claims it serves, through the sweeps' runner (local processes or a Dask
cluster). With ``out``, every finished scenario's results are kept in ``out/runs/<key>.csv`` as it finishes, so
``resume`` reruns only what an interruption left unfinished. The verdicts are computed from this run's numbers,
never written down (:data:`hcsched.claims.DEFINITION`); :func:`reproduce`'s table is one row per claim and reading,
with the number the verdict was read from, its 95% interval and where the claim puts it (``claimed_low``,
``claimed_high``: infinite for a side, empty where the check is not one number's).
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from hcsched.claims import AllOf, Check, Claim, Custom, Outcome, Ratio, Trend, Value
from hcsched.errors import HcschedError, did_you_mean
from hcsched.experiment import estimate_seconds
from hcsched.models import get_model, model_names
from hcsched.presets import preset
from hcsched.runner import LOCAL, RunOptions, run_options
from hcsched.scenario import Scenario
from hcsched.sweep import Point, chunk_size, grid, run_chunk, run_work, set_path
from hcsched.sweep_spec import parse_vary
from hcsched.version import __version__

COLUMNS = ("id", "model", "paper", "where", "claim", "reading", "check", "metric", "ours", "ours_lower", "ours_upper",
           "unit", "paper_value", "paper_number", "verdict", "share", "trials", "seconds", "detail", "note", "series",
           "axis",
           "quantity", "claimed_low", "claimed_high")


def registry(model: str | None = None) -> tuple[Claim, ...]:
    """Every model's claims (or one model's), in the models' order; ids are unique."""
    names = [model] if model else model_names()
    claims = tuple(c for name in names for c in get_model(name).claims())
    ids = [c.id for c in claims]
    dup = next((i for i in ids if ids.count(i) > 1), None)
    if dup:
        raise HcschedError(f"claim id {dup!r} is declared twice")
    return claims


def registry_hash(claims: Iterable[Claim] | None = None) -> str:
    """A fingerprint of the registry (what each claim runs and checks): a shipped reproduction made under another
    fingerprint may no longer match the claims."""
    claims = registry() if claims is None else claims
    text = json.dumps([[c.id, c.scenario, dict(c.changes), {k: list(v) for k, v in c.vary.items()}, c.trials,
                        c.check.describe(), [[r.name, dict(r.changes), r.check.describe() if r.check else ""]
                                             for r in c.readings]] for c in claims], sort_keys=True, default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def save(table: pd.DataFrame, out: str | Path, claims: Sequence[Claim] = ()) -> tuple[Path, Path]:
    """Write ``out/claims.csv`` and ``out/claims.json`` (when and with what the reproduction was made: hcsched's
    version, the date, the registry's fingerprint, the compute seconds of each paper's scenarios, each counted once)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    csv, meta = out / "claims.csv", out / "claims.json"
    table.to_csv(csv, index=False, lineterminator="\n")
    seconds = table.attrs.get("compute_seconds") or table.groupby("model",
                                                                  sort=False)["seconds"].sum().round(1).to_dict()
    meta.write_text(json.dumps({"version": __version__, "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                                "registry": registry_hash(claims or None), "claims": int(table["id"].nunique()),
                                "rows": len(table), "seconds": seconds}, indent=1) + "\n")
    return csv, meta


def select(ids: Sequence[str] = (), model: str | None = None) -> tuple[Claim, ...]:
    """The claims to run: those of ``model`` (every model's by default), or the ones named in ``ids``."""
    claims = registry(model)
    if not ids:
        return claims
    known = {c.id: c for c in registry()}
    missing = [i for i in ids if i not in known]
    if missing:
        hint = did_you_mean(missing[0], known, cutoff=0.6).rstrip() or "see `hcsched reproduce --list`"
        raise HcschedError(f"--claim: {missing[0]!r} is not a claim; {hint}")
    return tuple(known[i] for i in ids)


# --- scenarios -------------------------------------------------------------------------------------------
def variant_scenario(claim: Claim, changes: dict[str, Any], trials: int | None = None, tiny: bool = False) -> Scenario:
    """The claim's preset with ``changes`` (dotted keys) set, the paper's trials (or ``trials``); with ``tiny`` its
    quick version for tests."""
    data = preset(claim.scenario).to_dict()
    for key, value in {**changes, **(claim.tiny if tiny else {})}.items():
        set_path(data, key, value)
    if trials is not None or claim.trials is not None:
        data["trials"] = trials if trials is not None else claim.trials
    try:
        return Scenario.from_dict(data)
    except HcschedError as exc:
        raise HcschedError(f"claim {claim.id}: {exc}") from None


def key_of(scenario: Scenario) -> str:
    """A scenario's identity for reuse across claims: its content (not its name or description), trials and seed."""
    data = _numbers_as_floats({k: v for k, v in scenario.to_dict().items() if k not in ("name", "description")})
    return hashlib.sha1(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _numbers_as_floats(node: Any) -> Any:
    """0 and 0.0 are the same setting: a claim that writes one shares the scenario of a claim that writes the other."""
    if isinstance(node, dict):
        return {k: _numbers_as_floats(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_numbers_as_floats(v) for v in node]
    return float(node) if isinstance(node, int) and not isinstance(node, bool) else node


@dataclass(frozen=True)
class Variant:
    """One claim under one reading: the scenarios it needs (one, or a sweep's points with their varied values)."""

    claim: Claim
    reading: str
    check: Check
    points: tuple[tuple[dict[str, Any], Scenario], ...]


def variants(claims: Iterable[Claim], trials: int | None = None, tiny: bool = False) -> list[Variant]:
    """Every claim under each of its readings, with its scenarios built and checked."""
    out = []
    for claim in claims:
        for reading, changes, check in claim.variants():
            base = variant_scenario(claim, dict(changes), trials, tiny)
            if claim.vary:
                points = tuple((p.values, p.scenario) for p in grid(base, parse_vary(dict(claim.vary))))
            else:
                points = (({}, base),)
            out.append(Variant(claim, reading, check, points))
    return out


def unique_scenarios(work: Iterable[Variant]) -> dict[str, Scenario]:
    """Each distinct scenario once, by :func:`key_of`, in the order the claims need them."""
    seen: dict[str, Scenario] = {}
    for v in work:
        for _, scenario in v.points:
            seen.setdefault(key_of(scenario), scenario)
    return seen


def estimate(work: Iterable[Variant], jobs: int = 1) -> float:
    """Seconds the distinct scenarios take on ``jobs`` cores, by the models' estimates."""
    return sum(estimate_seconds(s, jobs=1) for s in unique_scenarios(work).values()) / max(1, jobs)


# --- running ---------------------------------------------------------------------------------------------
def _timed_chunk(point: Point, trials: list[int]) -> tuple[int, pd.DataFrame, float]:
    begin = time.perf_counter()
    frame = run_chunk(point, trials)
    return point.index, frame, time.perf_counter() - begin


def run_scenarios(scenarios: dict[str, Scenario], out: Path | None = None, resume: bool = False,
                  options: RunOptions = LOCAL,
                  progress: Callable[[int, int], None] | None = None) -> tuple[dict[str, pd.DataFrame],
                                                                               dict[str, float]]:
    """Results (one row per trial and heuristic) and compute seconds of each scenario, keyed as given. With ``out``,
    each finished scenario is written to ``out/runs/<key>.csv`` (and ``.seconds``); ``resume`` reads those back."""
    runs = out / "runs" if out is not None else None
    if runs is not None:
        runs.mkdir(parents=True, exist_ok=True)
    results: dict[str, pd.DataFrame] = {}
    seconds: dict[str, float] = {}
    todo = []
    for key in scenarios:
        path = runs / f"{key}.csv" if runs is not None else None
        if resume and path is not None and path.exists():
            results[key] = pd.read_csv(path)
            seconds[key] = float((runs / f"{key}.seconds").read_text()) if (runs / f"{key}.seconds").exists() else 0.0
        else:
            todo.append(key)
    points = [Point(i, {}, scenarios[key]) for i, key in enumerate(todo)]
    total = sum(scenarios[k].trials for k in scenarios)
    done = total - sum(p.scenario.trials for p in points)
    if progress:
        progress(done, total)
    if not points:
        return results, seconds
    work = []
    for p in points:  # chunks of about CHUNK_SECONDS of each scenario's own work
        size = chunk_size([p], p.scenario.trials, options.jobs or 1)
        work += [(p, list(range(a, min(a + size, p.scenario.trials)))) for a in range(0, p.scenario.trials, size)]
    frames: dict[int, list[pd.DataFrame]] = {p.index: [] for p in points}
    spent = {p.index: 0.0 for p in points}

    def collect(item: tuple[int, pd.DataFrame, float]) -> None:
        nonlocal done
        index, frame, took = item
        frames[index].append(frame)
        spent[index] += took
        done += frame["trial"].nunique()
        if sum(f["trial"].nunique() for f in frames[index]) == points[index].scenario.trials:
            key = todo[index]
            whole = _ordered(pd.concat(frames[index], ignore_index=True).drop(columns="point"), points[index].scenario)
            results[key] = pd.read_csv(io.StringIO(whole.to_csv(index=False)))  # as a resumed run reads it back
            seconds[key] = spent[index]
            if runs is not None:
                (runs / f"{key}.csv").write_text(whole.to_csv(index=False))
                (runs / f"{key}.seconds").write_text(f"{spent[index]:.3f}")
        if progress:
            progress(done, total)

    run_work(work, collect, options, job=_timed_chunk)
    return results, seconds


def _ordered(frame: pd.DataFrame, scenario: Scenario) -> pd.DataFrame:
    rank = {h.label: i for i, h in enumerate(scenario.heuristics)}
    return (frame.assign(_rank=frame["heuristic"].map(rank)).sort_values(["trial", "_rank"], kind="stable")
            .drop(columns="_rank").reset_index(drop=True))


# --- verdicts --------------------------------------------------------------------------------------------
def variant_results(v: Variant, results: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The results a variant's check reads: its scenario's, or its sweep points' with the varied keys as columns."""
    frames = []
    for values, scenario in v.points:
        frame = results[key_of(scenario)]
        shown = {k: json.dumps(x) if isinstance(x, (list, dict)) else x for k, x in values.items()}  # as a sweep's CSV
        frames.append(pd.concat([frame, pd.DataFrame(shown, index=frame.index)], axis=1) if shown else frame)
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


def axis_title(check: Check, scenario: Scenario) -> str:
    """What a check's series measure, for a chart's axis: the metric's title and unit, or for a Trend of a paired
    difference that difference; a Custom check's series are named by its metric only."""
    if isinstance(check, AllOf):  # its parts measure the same thing
        return axis_title(check.checks[0], scenario)
    labels = {m.name: m.label for m in get_model(scenario.model).columns(scenario.spec)}
    if isinstance(check, Custom):
        return check.metric
    label = labels.get(check.metric, check.metric)
    if isinstance(check, Trend) and check.versus:
        return f"{label}: {check.heuristic} against {check.versus} ({'points' if check.points else '%'})"
    return label


def better_of(scenario: Scenario) -> dict[str, str]:
    """Which way is better for each results column of the scenario's model."""
    return {m.name: m.better for m in get_model(scenario.model).columns(scenario.spec)}


def evaluate(v: Variant, results: dict[str, pd.DataFrame], seconds: dict[str, float]) -> dict[str, Any]:
    """One row of the claims table for a variant; a check that cannot be evaluated says why in its row."""
    claim, scenario = v.claim, v.points[0][1]
    model = get_model(claim.model)
    try:
        outcome = v.check.evaluate(variant_results(v, results), better_of(scenario))
    except HcschedError as exc:
        outcome = Outcome("error", float("nan"), float("nan"), float("nan"), "", float("nan"), str(exc))
    return {"id": claim.id, "model": claim.model, "paper": model.paper, "where": claim.where, "claim": claim.text,
            "reading": v.reading, "check": v.check.describe(), "metric": ", ".join(v.check.metrics()),
            "ours": outcome.value, "ours_lower": outcome.lower, "ours_upper": outcome.upper, "unit": outcome.unit,
            "paper_value": claim.paper, "verdict": outcome.verdict, "share": outcome.share, "trials": scenario.trials,
            "paper_number": paper_number(v.check),
            "series": json.dumps([[str(label), *(None if x != x else float(x) for x in (m, lo, hi))]
                                  for label, m, lo, hi in outcome.series]),
            "axis": axis_title(v.check, scenario),
            "seconds": round(sum(seconds.get(key_of(s), 0.0) for _, s in v.points), 2), "detail": outcome.detail,
            "note": claim.note if v.reading == "literal" else next(r.note for r in claim.readings
                                                                   if r.name == v.reading),
            "quantity": outcome.quantity, "claimed_low": outcome.claimed[0], "claimed_high": outcome.claimed[1]}


def paper_number(check: Check) -> float:
    """The paper's printed number a check compares ours with (a :class:`Value`'s, a :class:`Ratio`'s factor), else
    NaN."""
    number = getattr(check, "paper", None) if isinstance(check, (Value, Ratio)) else None
    return float(number) if number is not None else float("nan")


def reproduce(claims: Sequence[Claim], trials: int | None = None, out: str | Path | None = None, resume: bool = False,
              backend: str = "local", jobs: int | None = None, scheduler: str | None = None,
              progress: Callable[[int, int], None] | None = None, tiny: bool = False,
              options: RunOptions | None = None) -> tuple[pd.DataFrame, dict]:
    """Run ``claims`` (each distinct scenario once) and return the claims table (one row per claim and reading, the
    columns of :data:`COLUMNS`) and each variant's results, keyed by (id, reading). ``backend``, ``jobs`` and
    ``scheduler``, or all three as ``options``: where the runs go (:class:`hcsched.runner.RunOptions`)."""
    options = run_options(options, jobs, backend, scheduler)
    work = variants(claims, trials, tiny)
    results, seconds = run_scenarios(unique_scenarios(work), Path(out) if out is not None else None, resume, options,
                                     progress)
    table = pd.DataFrame([evaluate(v, results, seconds) for v in work], columns=list(COLUMNS))
    scenarios = unique_scenarios(work)
    per_model: dict[str, float] = {}
    for key, scenario in scenarios.items():  # each scenario once, however many claims it served
        per_model[scenario.model] = per_model.get(scenario.model, 0.0) + seconds.get(key, 0.0)
    table.attrs["compute_seconds"] = {m: round(x, 1) for m, x in per_model.items()}
    return table, {(v.claim.id, v.reading): variant_results(v, results) for v in work}
