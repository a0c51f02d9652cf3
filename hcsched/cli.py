"""The ``hcsched`` command: list heuristics, run and sweep scenarios, reproduce the papers; and each model's own
subcommands (:meth:`~hcsched.models.base.Model.commands`, e.g. ``map`` and ``calibrate`` of the ETC model).

Every import is at the top: ``hcsched`` loads the models anyway (the parser lists their commands), so importing the
commands' modules lazily would not make ``hcsched --help`` quicker.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import re
import sys
import textwrap
import time
from pathlib import Path

from hcsched import reproduce as rp
from hcsched.compare import change_words, compare_runs, comparison_csv
from hcsched.errors import HcschedError, describe_error
from hcsched.experiment import check_memory, estimate_seconds, progress_text, simulate, work_seconds
from hcsched.export import check_out, one_line, read_results_csv, results_csv
from hcsched.formatting import interval_cell, readable_number
from hcsched.heuristics import PLUGIN_ERRORS, get_heuristic, heuristic_names
from hcsched.heuristics.plugins import load_plugin_file
from hcsched.models import DEFAULT_MODEL, Command, get_model, model_names, warm_up
from hcsched.paces import record
from hcsched.presets import preset, preset_names, sweep_preset, sweep_preset_names
from hcsched.report import changed_verdicts, paper_summary, read_claims, summary_line, update_readme, write_report
from hcsched.runner import RunOptions, default_jobs, in_processes
from hcsched.scenario import load_scenario
from hcsched.stats import BOOTSTRAP_RESAMPLES, interval_method, summarize
from hcsched.sweep import sweep, sweep_memory_refusal, sweep_points, sweep_seconds, sweep_summary
from hcsched.sweep_spec import parse_vary
from hcsched.userfiles import read_text
from hcsched.validate import MAX_TRIALS, whole_argument


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line and exit status 2, no usage dump
        raise HcschedError(f"{message} (see '{self.prog} --help')")


MAX_JOBS = 1024  # worker processes (or Dask workers) a command may ask for
MAX_CSV_MB = 512  # the largest results CSV hcsched compare reads


def _allowed(param) -> str:
    """What a parameter allows, in words, inside the list's own parentheses: "a number >= 1, or off" (never a
    parenthesis within them)."""
    return dataclasses.replace(param, optional=False).allowed() + (", or off" if param.optional else "")


def _show(value) -> str:
    """A parameter value as people write it: off for None, 20 rather than 20.0."""
    if value is None:
        return "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _list_models(name: str | None) -> list:
    """The models to list: all, or the one named by --model (an unknown name is an error naming the allowed ones)."""
    names = model_names()
    if name is not None and name not in names:
        raise HcschedError(f"--model: {name!r} is not allowed; allowed: one of {', '.join(names)}")
    return [get_model(n) for n in ([name] if name else names)]


def cmd_list(args) -> None:
    models = _list_models(args.model)
    sections = [(m, [get_heuristic(n, m.name) for n in heuristic_names(model=m.name)]) for m in models]
    every = [h for _, hs in sections for h in hs]
    name_w, mode_w = max(len(h.name) for h in every), max(len(h.mode) for h in every)
    for k, (model, heuristics) in enumerate(sections):
        print(("\n" if k else "") + f"{model.name}: {model.title}")
        for h in heuristics:
            print(f"  {h.name:<{name_w}}  {h.mode:<{mode_w}}  {_source(h)}: {h.title}")
            for line in _param_lines(h) or ["no parameters"]:
                print(f"  {'':<{name_w}}  {line}")
    for where, why in PLUGIN_ERRORS.items():
        print(f"\nnot loaded: {where}: {why}")


def _param_lines(h) -> list[str]:
    """Each parameter of ``h``: a line with its default and what is allowed, then what it means, wrapped below."""
    lines = []
    for p in h.params:
        lines.append(f"- {p.name}={_show(p.default)} ({_allowed(p)})")
        lines += textwrap.wrap(p.doc, 96, initial_indent="    ", subsequent_indent="    ")
    return lines


def _source(h) -> str:
    """Where a heuristic comes from: its paper and section, or the plug-in's file or package."""
    if h.plugin:
        return h.origin
    section = "" if h.section in ("", "-", h.paper) else (f", {h.section}" if re.search(r"\d{4}", h.section)
                                                          else f", sec. {h.section}")
    return f"{h.paper}{section}"


def _scenario(args):
    if (args.scenario is None) == (args.preset is None):
        raise HcschedError("give either a scenario file or --preset NAME (see 'hcsched preset list')")
    return preset(args.preset) if args.preset else load_scenario(args.scenario)


def _progress_bar(word: str = "trial"):
    """A one-line progress bar on a terminal ("[####      ] 3 of 50 replications done, about 40 s left")."""
    if not sys.stderr.isatty():
        return None
    begin = time.monotonic()

    def show(done: float, total: int) -> None:
        bar = "#" * int(30 * done / total) if total else ""
        sys.stderr.write(f"\r[{bar:<30}] {progress_text(done, total, word, time.monotonic() - begin)} ")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def _summary_cell(row, metric) -> str:
    """A summary row's mean [95% interval] of ``metric`` (:func:`hcsched.formatting.interval_cell`)."""
    return interval_cell(row[metric.name], row[f"{metric.name}_lower"], row[f"{metric.name}_upper"], metric.fmt)


def format_table(header: list[str], rows: list[list[str]], gap: int = 2) -> str:
    """Columns as wide as their widest cell, ``gap`` spaces apart; the first left-aligned, the others right-aligned;
    a cell's control characters (a label's) escaped (:func:`hcsched.export.one_line`)."""
    header, rows = [one_line(c) for c in header], [[one_line(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: (" " * gap).join(c.ljust(w) if i == 0 else c.rjust(w)  # noqa: E731
                                      for i, (c, w) in enumerate(zip(r, widths, strict=True)))
    return "\n".join(line(r).rstrip() for r in [header, *rows])


def format_summary(summary, metrics) -> str:
    """A plain-text table: mean [95% interval] per heuristic and metric (Metric descriptions), units in the headers."""
    cols = [m for m in metrics if m.name in summary]
    rows = [[str(row["heuristic"]), *(_summary_cell(row, m) for m in cols)]
            for _, row in summary.iterrows()]
    return format_table(["heuristic", *(m.label for m in cols)], rows)


def interval_note(results, metrics, methods: dict[str, str]) -> str:
    """One line naming the interval method of each metric: Student-t, or the bootstrap where a metric asks for it or
    where "auto" chose it (naming the heuristics)."""
    groups = list(results.groupby("heuristic", sort=False))
    boot = []
    for m in (m for m in metrics if m.name in results):
        method = methods.get(m.name, "t")
        used = [h for h, g in groups if interval_method(g[m.name], method) == "bootstrap"]
        if method == "bootstrap":
            boot.append(m.title.lower())
        elif used:
            where = "below zero or above 100%" if method in ("auto-fraction", "auto-percent") else "below zero"
            boot.append(f"{m.title.lower()} of {', '.join(used)} (where Student-t would reach {where})")
    text = "95% intervals of the mean: Student-t"
    if boot:
        text += f"; percentile bootstrap ({BOOTSTRAP_RESAMPLES} resamples) for {'; '.join(boot)}"
    return text


def _write_csv(frame, path: str, flag: str) -> None:
    _write_text(frame.to_csv(index=False), path, flag)


def _write_text(text: str, path: str, flag: str) -> None:
    try:
        Path(path).write_text(text)
    except OSError as exc:
        raise HcschedError(f"{flag}: cannot write {path!r} ({exc.strerror or exc})") from None


def _duration(seconds: float) -> str:
    """"under 0.1 s", "about 2.1 s", "about 14 min", "about 3.2 h"."""
    if seconds < 0.1:
        return "under 0.1 s"
    if seconds < 120:
        return f"about {seconds:.1f} s"
    return f"about {seconds / 60:.0f} min" if seconds < 7200 else f"about {seconds / 3600:.1f} h"


def _cores(jobs: int) -> str:
    return f"{jobs} core{'s' if jobs > 1 else ''}"


def check_line(scenario, seconds: float, jobs: int, points: int = 1) -> str:
    """``run --check``'s and ``sweep --check``'s summary: "ok: 8 machines, 200 tasks, 4 heuristics, 10 trials; about
    2.1 s on 2 cores" (the largest point's size for a sweep)."""
    model = get_model(scenario.model)
    tasks, machines = model.scale(scenario.spec)
    grid = f"a sweep of {points:,} points, the largest " if points > 1 else ""
    return (f"ok: {grid}{machines:,} machines, {tasks:,.0f} tasks, {len(scenario.heuristics)} heuristics, "
            f"{scenario.trials:,} {model.trial_word}s{' a point' if points > 1 else ''}; {_duration(seconds)} on "
            f"{_cores(jobs)} (nothing was run)")


def cmd_run(args) -> None:
    scenario = _scenario(args)
    scenario = scenario.replace(trials=args.trials or scenario.trials,
                                seed=scenario.seed if args.seed is None else args.seed)  # validates both
    for flag, path in (("--out", args.out), ("--schedules", args.schedules)):
        if path:
            check_out(path, flag)
    check_memory(scenario, jobs=args.jobs, schedules=bool(args.schedules))  # before anything is drawn
    if args.check:
        jobs = args.jobs or default_jobs()
        print(check_line(scenario, estimate_seconds(scenario, jobs=jobs), min(jobs, scenario.trials)))
        return
    model = get_model(scenario.model)
    out = simulate(scenario, jobs=args.jobs, progress=_progress_bar(model.trial_word), schedules=bool(args.schedules))
    results, schedules = out if args.schedules else (out, None)
    if args.out:
        _write_text(results_csv(scenario, results), args.out, "--out")
    if schedules is not None:
        _write_csv(schedules, args.schedules, "--schedules")
    facts = [f"{results['trial'].nunique()} {model.trial_word}s", model.headline(scenario.spec)]
    if model.normalizes():
        facts.append(f"{', '.join(m.title.lower() for m in model.metrics if m.normalize)} normalised to "
                     f"{scenario.benchmark_label}")
    print(f"{one_line(scenario.name)}: {'; '.join(f for f in facts if f)}; mean [95% interval]")
    metrics, methods = model.bar_metrics(), model.interval_methods()
    print(format_summary(summarize(results, [m.name for m in metrics], methods=methods), metrics))
    print(interval_note(results, metrics, methods))
    for warning in model.warnings(results):
        print(one_line(warning.replace("**", "")))


def _run_of(path: str, flag: str, jobs: int | None):
    """(scenario, per-trial results) of ``hcsched compare``'s argument: a results CSV read back, or a scenario file
    run here."""
    if Path(path).suffix.lower() == ".csv":
        text = read_text(path, flag, "a per-trial results CSV ('hcsched run --out')", MAX_CSV_MB * 10**6,
                         f"the largest results CSV compared ({MAX_CSV_MB} MB)")
        return read_results_csv(text, f"{flag} {path!r}")
    scenario = load_scenario(path)
    check_memory(scenario, jobs=jobs)
    print(f"running {one_line(scenario.name)} ({scenario.trials} {get_model(scenario.model).trial_word}s) ...",
          file=sys.stderr)
    return scenario, simulate(scenario, jobs=jobs, progress=_progress_bar(get_model(scenario.model).trial_word))


def cmd_compare(args) -> None:
    if args.out:
        check_out(args.out, "--out")
    before, a = _run_of(args.baseline, "baseline", args.jobs)
    after, b = _run_of(args.whatif, "what-if", args.jobs)
    cmp = compare_runs(before, a, after, b)
    model = get_model(before.model)
    shown = [m for m in cmp.metrics if args.all or m in model.bar_metrics()]
    print(f"baseline: {one_line(before.name)}, {before.trials} {model.trial_word}s, seed {before.seed}")
    print(f"what-if:  {one_line(after.name)}, {after.trials} {model.trial_word}s, seed {after.seed}")
    print(one_line(cmp.change_line()))
    print(cmp.pairing)
    if cmp.left_out:
        print(cmp.left_out_text)
    rows = [[c.heuristic, m.label, readable_number(c.before, m.fmt), readable_number(c.after, m.fmt), change_words(c)]
            for m in shown for c in cmp.changes if c.metric == m.name]
    print(format_table(["heuristic", "metric", "before", "after", "change [95% interval]"], rows))
    if not args.all and len(shown) < len(cmp.metrics):
        print(f"({len(cmp.metrics) - len(shown)} more metrics with --all, and in --out)")
    if args.out:
        _write_text(comparison_csv(cmp), args.out, "--out")


def cmd_preset(args) -> None:
    if args.action == "list":
        names = preset_names() + sweep_preset_names()
        width = max(map(len, names)) + 2
        for name in preset_names():
            print(f"{name:<{width}}{preset(name).description}")
        print("\nsweeps (hcsched sweep --preset NAME):")
        for name in sweep_preset_names():
            print(f"{name:<{width}}{sweep_preset(name).description}")
    else:
        if not args.name:
            raise HcschedError("preset show: give a preset name (see 'hcsched preset list')")
        if args.name in sweep_preset_names():
            sp = sweep_preset(args.name)
            print(sp.scenario().to_json(), end="")
            print("# varied: " + " ".join(f"--vary {k}={_values_text(v)}" for k, v in sp.vary.items()), file=sys.stderr)
            return
        print(preset(args.name).to_json(), end="")


def _values_text(values: list) -> str:
    return json.dumps(values, separators=(",", ":")) if any(isinstance(v, list) for v in values) else \
        ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values)


def cmd_sweep(args) -> None:
    vary: dict = {}
    if args.preset in sweep_preset_names() and args.scenario is None:
        sp = sweep_preset(args.preset)
        scenario, vary = sp.scenario(), dict(sp.vary)
    elif args.preset is not None and args.preset not in preset_names() and args.scenario is None:
        raise HcschedError(f"--preset: {args.preset!r} is neither a preset nor a sweep preset; "
                           "see 'hcsched preset list'")
    else:
        scenario = _scenario(args)
    vary.update(parse_vary(args.vary or []) if args.vary else {})
    if not vary:
        raise HcschedError("--vary: give at least one KEY=VALUES (e.g. --vary arrivals.rate=0.001,0.002), or a sweep "
                       "preset")
    if args.resume and not args.out:
        raise HcschedError("--resume: give the --out file of the interrupted sweep")
    if args.out:
        check_out(args.out, "--out")
    if args.check:
        _check_sweep(scenario, vary, args)
        return
    results = sweep(scenario, vary, trials=args.trials, seed=args.seed, resume=args.out if args.resume else None,
                    out=None if args.resume else args.out, progress=_progress_bar(get_model(scenario.model).trial_word),
                    options=_run_options(args))
    model = get_model(scenario.model)
    summary = sweep_summary(results, scenario, vary)
    metrics = [m for m in model.bar_metrics() if m.name in summary]
    keys = list(vary)
    rows = [[*(str(row[k]) for k in keys), str(row["heuristic"]),
             *(_summary_cell(row, m) for m in metrics)]
            for _, row in summary.iterrows()]
    print(f"{one_line(scenario.name)}: sweep of {len(summary['point'].unique())} points x {results['trial'].nunique()} "
          f"{model.trial_word}s; mean [95% interval]")
    print(format_table([*keys, "heuristic", *(m.label for m in metrics)], rows))
    print(interval_note(results, metrics, model.interval_methods()))


def _check_sweep(scenario, vary: dict, args) -> None:
    """``sweep --check``: every point checked as a scenario and for memory, and the estimate; nothing run."""
    options = _run_options(args)
    points = sweep_points(scenario, vary, args.trials, args.seed)
    refused = sweep_memory_refusal(points, options.workers())
    if refused:
        raise HcschedError(refused)
    model = get_model(scenario.model)
    largest = max(points, key=lambda p: math.prod(model.scale(p.scenario.spec)) * len(p.scenario.heuristics)).scenario
    print(check_line(largest, sweep_seconds(points, options.workers()), options.workers(), len(points)))


def _list_claims(claims) -> None:
    """`hcsched reproduce --list`: each model's claims (id, where in the paper, the claim), its readings named."""
    id_w = max(len(c.id) for c in claims)
    where_w = max(len(c.where) for c in claims)
    for i, (name, group) in enumerate(itertools.groupby(claims, key=lambda c: c.model)):
        print(("\n" if i else "") + f"{name}: {get_model(name).paper}")
        for c in group:
            readings = f" (other readings: {', '.join(r.name for r in c.readings)})" if c.readings else ""
            print(f"  {c.id:<{id_w}}  {c.where:<{where_w}}  {c.text}{readings}")


def _claims_counted(claims: int, others: int) -> str:
    """The claims as the papers write them first, then the other readings (as the Papers page counts them): "221
    claims as the papers write them, and 87 other readings of ambiguous sentences"."""
    said = f"{claims} claim{'s' if claims != 1 else ''} as the papers write {'them' if claims != 1 else 'it'}"
    if not others:
        return said
    return f"{said}, and {others} other reading{'s' if others != 1 else ''} of ambiguous sentences"


def cmd_reproduce(args) -> None:
    if args.readme or args.source:
        if not (args.readme and args.source):
            raise HcschedError("--readme and --from go together: --readme README.md --from reproduction/claims.csv "
                               "rewrites the README's claims tables from that file (no run)")
        changed = update_readme(args.readme, args.source)
        print(f"{args.readme}: claims tables {'rewritten' if changed else 'already up to date'} from {args.source}")
        return
    if args.model is not None:
        _list_models(args.model)  # an unknown name is an error naming the allowed ones
    options = _run_options(args)
    if args.resume and not args.out:
        raise HcschedError("--resume: give the --out DIR of the interrupted reproduction")
    claims = rp.select(args.claim or (), args.model)
    if not claims:
        raise HcschedError(f"--model: {args.model!r} declares no claims yet" if args.model
                           else "no model declares claims yet")
    if args.list:
        _list_claims(claims)
        return
    out = Path(args.out or "reproduction")
    if out.exists() and not out.is_dir():
        raise HcschedError(f"--out: {str(out)!r} is a file; give a folder for claims.csv, report.html and runs/")
    before = read_claims(args.compare, "--compare") if args.compare else None  # a bad file is said before the run
    work = rp.variants(claims, args.trials)
    scenarios = rp.unique_scenarios(work)
    jobs = options.workers()
    for scenario in scenarios.values():
        check_memory(scenario, jobs=jobs)
    cores = f"{jobs} {'Dask worker' if options.backend == 'dask' else 'core'}{'s' if jobs > 1 else ''}"
    kept = sum((out / "runs" / f"{key}.csv").exists() for key in scenarios) if args.resume else 0
    left = ([v for v in work if any(not (out / "runs" / f"{rp.key_of(s)}.csv").exists() for _, s in v.points)]
            if kept else work)
    print(f"{_claims_counted(len(claims), len(work) - len(claims))} from {len(scenarios)} scenarios "
          f"({sum(s.trials for s in scenarios.values())} trials)"
          f"{f', {kept} already finished in {out}' if kept else ''}: "
          f"about {rp.estimate(left, jobs):.0f} s on {cores}", flush=True)
    try:
        table, results = rp.reproduce(claims, args.trials, out, args.resume, progress=_progress_bar(), options=options)
    except KeyboardInterrupt:
        print(f"\nthe finished scenarios are kept in {out / 'runs'}: rerun with --resume --out {out}", file=sys.stderr)
        raise
    try:
        csv_path, _ = rp.save(table, out, claims)
    except OSError as exc:
        raise HcschedError(f"--out: cannot write {str(out)!r} ({exc.strerror or exc})") from None
    html_path = write_report(table, out / "report.html")
    for entry in paper_summary(table):
        print(f"{entry['paper']}: {summary_line(entry)}")
    if args.compare:
        changed = changed_verdicts(before, table)
        print(f"{len(changed)} reading(s) changed verdict since {args.compare}" + (":" if changed else "."))
        for line in changed:
            print(f"  {line}")
    print(f"claims table: {csv_path}\nreport: {html_path}")


def _compile(name: str) -> tuple[str, float]:
    t = time.perf_counter()
    warm_up([name])
    return name, time.perf_counter() - t


PACE_SECONDS = 0.6  # the estimated seconds of one core that measure_pace runs (a first trial before it, untimed)


def measure_pace(name: str) -> float:
    """The pace of model ``name`` on this machine (:mod:`hcsched.paces`): the seconds a run of its default preset
    takes in this process over its cost estimate (:func:`~hcsched.experiment.work_seconds`), with trials enough for
    ``PACE_SECONDS`` of estimate (the preset's at most), after one untimed trial (its kernels loaded)."""
    model = get_model(name)
    scenario = preset(model.default_preset)
    per_trial = model.trial_seconds(scenario.spec, scenario.heuristics)
    trials = max(1, min(scenario.trials, math.ceil(PACE_SECONDS / max(per_trial, 1e-9))))
    simulate(scenario.replace(trials=1), jobs=1)
    scenario = scenario.replace(trials=trials)
    start = time.perf_counter()
    simulate(scenario, jobs=1)
    return (time.perf_counter() - start) / max(work_seconds(scenario), 1e-9)


def cmd_warm_up(args) -> None:
    """Compile the models' numba kernels into numba's disk cache, the default model's first and the models in
    parallel processes: every later process (the dashboard's first Run, a test, a CLI run) loads them in well under
    a second instead of compiling them (about a minute of one core for all five models)."""
    names = [m.name for m in _list_models(args.model)] if args.model else model_names()
    names = sorted(names, key=lambda n: n != DEFAULT_MODEL)
    jobs = max(1, min(args.jobs or default_jobs(), len(names)))
    start = time.perf_counter()
    in_processes(_compile, names, jobs,
                 lambda _, done: print(f"{done[0]}: kernels ready in {done[1]:.1f} s", flush=True))
    print(f"compiled kernels are cached for later runs ({time.perf_counter() - start:.1f} s in all, {jobs} processes)")
    paces = {}
    for name in names:  # one at a time, the compilations over: each model's runs against its estimate, here
        paces[name] = measure_pace(name)
        print(f"{name}: runs take {paces[name]:.2f} times their estimate on this machine", flush=True)
    where = record(paces)
    print(f"the paces are kept in {where} (the dashboard's first estimates of each model)" if where else
          "the paces could not be kept: no cache folder")


def _run_option_arguments(parser: argparse.ArgumentParser) -> None:
    """--jobs, --backend and --scheduler: the run options (:class:`hcsched.runner.RunOptions`) of sweep and
    reproduce."""
    parser.add_argument("--jobs", type=whole_argument(1, MAX_JOBS),
                        help="worker processes, or local Dask workers (default: all cores)")
    parser.add_argument("--backend", default="local", help="local (processes on this machine) or dask")
    parser.add_argument("--scheduler",
                        help="address of a running Dask scheduler, e.g. tcp://host:8786 (with --backend dask)")


def _run_options(args) -> RunOptions:
    """The run options the command line gives (checked: a backend that exists, a scheduler only with dask)."""
    return RunOptions(args.jobs, args.backend, args.scheduler or None)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="hcsched", description="Compare task-mapping heuristics for heterogeneous computing systems.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ls = sub.add_parser("list", help="list each model's heuristics with mode, parameters and defaults")
    ls.add_argument("--model", help="only this model's heuristics (e.g. etc, classes)")
    ls.set_defaults(func=cmd_list)

    r = sub.add_parser("run", help="run a scenario's trials")
    _scenario_arguments(r)
    r.add_argument("--trials", type=whole_argument(1, MAX_TRIALS), help="trials to run (default: the scenario's)")
    r.add_argument("--jobs", type=whole_argument(1, MAX_JOBS), help="worker processes (default: all cores)")
    r.add_argument("--out", help="write one row per trial and heuristic to this CSV")
    r.add_argument("--schedules", metavar="CSV", help="write one row per task, trial and heuristic (machine, "
                   "arrival, start, finish, expected, actual, and the model's own columns) to this CSV")
    r.add_argument("--check", action="store_true", help="check the scenario, its memory and its estimate, print a "
                   "one-line summary and run nothing (exit status 0: it would run; 2: bad input)")
    r.set_defaults(func=cmd_run)

    sw = sub.add_parser("sweep", help="run a scenario over a grid of values of its keys (local processes or Dask)")
    sw.add_argument("scenario", nargs="?", help="scenario file (.json or .toml)")
    sw.add_argument("--preset", help="a preset or a sweep preset instead of a file (see 'hcsched preset list')")
    sw.add_argument("--vary", action="append", metavar="KEY=VALUES",
                    help="a dotted key of the scenario and its values: a,b,c or START:STOP:COUNT[:log] or a JSON array "
                         "(repeatable: the grid is the product)")
    sw.add_argument("--trials", type=whole_argument(1, MAX_TRIALS),
                    help="trials of every point (default: the scenario's)")
    sw.add_argument("--seed", type=whole_argument(0))
    sw.add_argument("--out", help="CSV receiving every chunk as it finishes, then the whole sweep in a fixed order")
    sw.add_argument("--resume", action="store_true",
                    help="keep the finished (point, trial) rows of --out and run the rest")
    _run_option_arguments(sw)
    sw.add_argument("--check", action="store_true", help="check every point, its memory and the estimate, print a "
                    "one-line summary and run nothing")
    sw.set_defaults(func=cmd_sweep)

    rp = sub.add_parser("reproduce", help="rerun the papers' published claims and compute their verdicts")
    rp.add_argument("--model", help="only this model's claims (e.g. etc, classes)")
    rp.add_argument("--claim", nargs="+", action="extend", metavar="ID", help="only these claims (see --list)")
    rp.add_argument("--trials", type=whole_argument(1, MAX_TRIALS),
                    help="trials of every scenario (default: the paper's)")
    _run_option_arguments(rp)
    rp.add_argument("--out", help="folder receiving claims.csv, report.html and each finished scenario in runs/ "
                    "(default: reproduction)")
    rp.add_argument("--resume", action="store_true", help="reuse the finished scenarios of --out and run the rest")
    rp.add_argument("--list", action="store_true", help="list the claims (id, where, claim) and exit")
    rp.add_argument("--readme", metavar="README", help="with --from: rewrite the README's claims tables (no run)")
    rp.add_argument("--from", dest="source", metavar="CSV", help="the claims.csv --readme reads")
    rp.add_argument("--compare", metavar="CSV", help="a claims.csv of an earlier run (e.g. assets/claims.csv): print "
                    "every verdict that changed since (a finding to report)")
    rp.set_defaults(func=cmd_reproduce)

    cp = sub.add_parser("compare", help="compare a baseline run with a what-if: per heuristic and metric, both means "
                        "and the change with its 95%% interval (paired where both share their random numbers)")
    cp.add_argument("baseline", help="a scenario file (.json or .toml, run here) or a per-trial results CSV (a "
                    "dashboard download or 'hcsched run --out')")
    cp.add_argument("whatif", metavar="what-if", help="the same, for the what-if")
    cp.add_argument("--all", action="store_true",
                    help="every metric of the model's results table, not only the charted")
    cp.add_argument("--jobs", type=whole_argument(1, MAX_JOBS),
                    help="worker processes for a scenario file's run (default: all cores)")
    cp.add_argument("--out", help="write the comparison (every metric) to this CSV")
    cp.set_defaults(func=cmd_compare)

    ps = sub.add_parser("preset", help="list presets or show one as an editable scenario")
    ps.add_argument("action", choices=("list", "show"))
    ps.add_argument("name", nargs="?")
    ps.set_defaults(func=cmd_preset)

    wu = sub.add_parser("warm-up", help="compile every model's kernels once, so that the first run is fast")
    wu.add_argument("--model", help="only this model's kernels (e.g. etc, classes)")
    wu.add_argument("--jobs", type=whole_argument(1, MAX_JOBS),
                    help="models compiled at once, in processes (default: all cores)")
    wu.set_defaults(func=cmd_warm_up)

    for model in (get_model(name) for name in model_names()):
        for command in model.commands():
            c = sub.add_parser(command.name, help=command.help)
            if command.scenario:
                _scenario_arguments(c)
            command.add_arguments(c)
            c.set_defaults(func=_runner(command))
    for command in sub.choices.values():
        command.add_argument("--plugin", action="append", default=[], metavar="FILE",
                             help="a Python file of your own heuristics (@hcsched.heuristic), named in the scenario "
                                  "like the papers' (repeatable)")
    return p


def _scenario_arguments(parser: argparse.ArgumentParser) -> None:
    """A scenario file or --preset NAME, and --seed (``hcsched run`` and a model's commands that take a scenario)."""
    parser.add_argument("scenario", nargs="?", help="scenario file (.json or .toml)")
    parser.add_argument("--preset", help="a preset name instead of a file")
    parser.add_argument("--seed", type=whole_argument(0),
                        help="the seed of trial 0's random numbers (default: the scenario's)")


def _runner(command: Command):
    """Run a model's command: ``run(args)``, or ``run(args, scenario)`` with the scenario its arguments name."""
    return (lambda args: command.run(args, _scenario(args))) if command.scenario else command.run


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` and return its exit status (only ``--help`` exits, as argparse does): 0 done, 2 bad
    input (one line on stderr naming what is wrong and what is allowed), 1 an error inside hcsched (one line with the
    exception's type), 130 interrupted. Never a traceback, and every message on one line."""
    try:
        args = build_parser().parse_args(argv)
        for path in args.plugin:
            load_plugin_file(path)
        args.func(args)
    except HcschedError as exc:
        print(f"hcsched: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("hcsched: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a model's own failure: one line, as for bad input, never a traceback
        print(f"hcsched: error: {one_line(describe_error(exc))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
