"""The ``hcsched`` command: list heuristics, map one ETC matrix, run and calibrate experiments."""

from __future__ import annotations

import argparse
import json
import sys
import time

from hcsched.errors import HcschedError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line and exit status 2, no usage dump
        raise HcschedError(f"{message} (see '{self.prog} --help')")


def _value(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def _params(items: list[str]) -> dict:
    out = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise HcschedError(f"--param: {item!r} is not allowed; write key=value, e.g. --param k=20")
        out[key.strip()] = _value(value.strip())
    return out


def _ready(text: str | None):
    if text is None:
        return None
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        raise HcschedError(f"--ready: {text!r} is not allowed; give comma-separated numbers, one per machine") from None


def cmd_list(args) -> None:
    from hcsched.heuristics import REGISTRY

    for h in REGISTRY.values():
        params = ", ".join(f"{p.name}={p.default} ({p.allowed()})" for p in h.params) or "-"
        print(f"{h.name:<10} {h.mode:<9} {h.paper}, sec. {h.section}: {h.title}")
        print(f"{'':<10} parameters: {params}")


def cmd_map(args) -> None:
    from hcsched.models.etc.mapping import map_tasks
    from hcsched.readers import read_etc

    result = map_tasks(read_etc(args.etc_file, args.machines), args.heuristic, _ready(args.ready), **_params(args.param))
    if args.json:
        print(json.dumps(result.to_dict()))
        return
    print(f"heuristic: {result.heuristic}\nmakespan: {result.makespan:g}")
    print("task  machine  completion")
    for i, (j, c) in enumerate(zip(result.assignment, result.completion, strict=True)):
        print(f"{i:<5} {j:<8} {c:g}")


def _scenario(args):
    from hcsched.presets import preset
    from hcsched.scenario import load_scenario

    if (args.scenario is None) == (args.preset is None):
        raise HcschedError("give either a scenario file or --preset NAME (see 'hcsched preset list')")
    return preset(args.preset) if args.preset else load_scenario(args.scenario)


def _progress_bar():
    if not sys.stderr.isatty():
        return None
    begin = time.monotonic()

    def show(done: int, total: int) -> None:
        bar = "#" * int(30 * done / total)
        left = (time.monotonic() - begin) / done * (total - done)
        sys.stderr.write(f"\r[{bar:<30}] {done}/{total} trials, about {left:.0f} s left ")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def format_summary(summary, metrics) -> str:
    """A plain-text table: mean [95% interval] per heuristic and metric."""
    cols = [m for m in metrics if m in summary]
    lines = [f"{'heuristic':<24}" + "".join(f"{m:>34}" for m in cols)]
    for _, row in summary.iterrows():
        cells = []
        for m in cols:
            lo, hi = row[f"{m}_lower"], row[f"{m}_upper"]
            cells.append(f"{row[m]:.6g} [{lo:.6g}, {hi:.6g}]" if lo == lo else f"{row[m]:.6g}")
        lines.append(f"{row['heuristic']:<24}" + "".join(f"{c:>34}" for c in cells))
    return "\n".join(lines)


def _write_csv(frame, path: str, flag: str) -> None:
    try:
        frame.to_csv(path, index=False)
    except OSError as exc:
        raise HcschedError(f"{flag}: cannot write {path!r} ({exc.strerror or exc})") from None


def cmd_run(args) -> None:
    from hcsched.experiment import simulate
    from hcsched.models import get_model
    from hcsched.stats import summarize

    scenario = _scenario(args)
    model = get_model(scenario.model)
    out = simulate(scenario, trials=args.trials, seed=args.seed, jobs=args.jobs, progress=_progress_bar(),
                   schedules=bool(args.schedules))
    results, schedules = out if args.schedules else (out, None)
    if args.out:
        _write_csv(results, args.out, "--out")
    if schedules is not None:
        _write_csv(schedules, args.schedules, "--schedules")
    facts = [f"{results['trial'].nunique()} {model.trial_word}s", model.headline(scenario.spec)]
    if model.normalizes():
        facts.append(f"{', '.join(m.title.lower() for m in model.metrics if m.normalize)} normalised to {scenario.benchmark_label}")
    print(f"{scenario.name}: {'; '.join(f for f in facts if f)}; mean [95% interval]")
    metrics = [m.name for m in model.bar_metrics()]
    print(format_summary(summarize(results, metrics), metrics))
    for warning in model.warnings(results):
        print(warning.replace("**", ""))


def _numbers(text: str, flag: str, integer: bool = False) -> list:
    try:
        return [int(x) if integer else float(x) for x in text.split(",")]
    except ValueError:
        kind = "whole numbers" if integer else "numbers"
        raise HcschedError(f"{flag}: {text!r} is not allowed; give comma-separated {kind}") from None


def cmd_lp(args) -> None:
    from hcsched.models.classes.lp import solve_allocation
    from hcsched.readers import parse_csv_etc

    try:
        text = open(args.mu).read()
    except OSError as exc:
        raise HcschedError(f"--mu {args.mu!r}: cannot be read ({exc.strerror or exc}); give a CSV of execution rates, "
                           "one row per class and one column per machine (or group)") from None
    mu = parse_csv_etc(text, source=f"--mu {args.mu}")[0]
    groups = _numbers(args.groups, "--groups", integer=True) if args.groups else None
    if groups is not None and (len(groups) != mu.shape[1] or min(groups) < 1):
        raise HcschedError(f"--groups: {args.groups!r} is not allowed; give {mu.shape[1]} positive whole numbers, "
                           "the machines in each column's group")
    alloc = solve_allocation(_numbers(args.alpha, "--alpha"), mu, groups)
    if args.json:
        print(json.dumps(alloc.to_dict()))
        return
    verdict = (f"stabilisable, with {100 * (alloc.lam - 1):.1f}% headroom" if alloc.stable
               else "overloaded: no mapping can stabilise it (Theorem 2)")
    print(f"lambda* = {alloc.lam:.6g}: {verdict}\ndelta* (rows classes, columns machines):")
    for row in alloc.delta:
        print("  " + " ".join(f"{x:7.4f}" for x in row))


def cmd_calibrate(args) -> None:
    from hcsched.models.etc.calibration import CALIBRATION_TARGETS, calibrate

    target = args.target if args.target in CALIBRATION_TARGETS else _value(args.target)
    rate = calibrate(_scenario(args), target, trials=args.trials, seed=args.seed)
    print(f"{rate:.6g}")


def cmd_preset(args) -> None:
    from hcsched.presets import preset, preset_names

    if args.action == "list":
        for name in preset_names():
            print(f"{name:<26} {preset(name).description}")
    else:
        if not args.name:
            raise HcschedError("preset show: give a preset name (see 'hcsched preset list')")
        print(preset(args.name).to_json(), end="")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="hcsched", description="Compare task-mapping heuristics for heterogeneous computing systems.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("list", help="list heuristics with mode, parameters and defaults").set_defaults(func=cmd_list)

    m = sub.add_parser("map", help="map the tasks of one ETC matrix, all arriving at time 0")
    m.add_argument("etc_file", help="CSV (rows tasks, columns machines) or HCSP one-value-per-line file")
    m.add_argument("--heuristic", required=True)
    m.add_argument("--ready", help="initial machine ready times, comma-separated")
    m.add_argument("--param", action="append", metavar="KEY=VALUE", help="a heuristic parameter (repeatable)")
    m.add_argument("--machines", type=int, help="machines per task in an HCSP file without header")
    m.add_argument("--json", action="store_true", help="print {heuristic, makespan, assignment, completion}")
    m.set_defaults(func=cmd_map)

    for name, func, text in (("run", cmd_run, "run a scenario's trials"),
                             ("calibrate", cmd_calibrate, "find the arrival rate of section 5.1")):
        r = sub.add_parser(name, help=text)
        r.add_argument("scenario", nargs="?", help="scenario file (.json or .toml)")
        r.add_argument("--preset", help="a preset name instead of a file")
        r.add_argument("--seed", type=int)
        if name == "run":
            r.add_argument("--trials", type=int)
            r.add_argument("--jobs", type=int, help="worker processes (default: all cores)")
            r.add_argument("--out", help="write one row per trial and heuristic to this CSV")
            r.add_argument("--schedules", metavar="CSV", help="write one row per task, trial and heuristic (machine, "
                           "arrival, start, finish, expected, actual, and the model's own columns) to this CSV")
        else:
            r.add_argument("--trials", type=int, default=5)
            r.add_argument("--target", default="lambda_h", help="lambda_h (0.5), lambda_l (0.9), lambda_t (0.2) or a fraction")
        r.set_defaults(func=func)
    sub.choices["calibrate"].set_defaults(seed=0)

    lp = sub.add_parser("lp", help="solve the allocation LP of Al-Azzoni and Down: lambda*, delta*, stability")
    lp.add_argument("--alpha", required=True, help="arrival rates of the classes, comma-separated")
    lp.add_argument("--mu", required=True, help="CSV of execution rates: one row per class, one column per machine or group")
    lp.add_argument("--groups", help="machines per column of --mu, comma-separated (identical machine groups)")
    lp.add_argument("--json", action="store_true", help="print {lambda, delta, stable}")
    lp.set_defaults(func=cmd_lp)

    ps = sub.add_parser("preset", help="list presets or show one as an editable scenario")
    ps.add_argument("action", choices=("list", "show"))
    ps.add_argument("name", nargs="?")
    ps.set_defaults(func=cmd_preset)
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        args.func(args)
    except HcschedError as exc:
        print(f"hcsched: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("hcsched: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
