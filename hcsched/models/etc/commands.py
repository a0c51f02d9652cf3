"""The ETC model's own commands: ``hcsched map`` (one ETC matrix mapped at time 0, :func:`.mapping.map_tasks`) and
``hcsched calibrate`` (the arrival rate of section 5.1, :func:`.calibration.calibrate`), and its public functions."""

from __future__ import annotations

import argparse
import json

from hcsched.errors import HcschedError
from hcsched.models.base import Command
from hcsched.models.etc.calibration import CALIBRATION_TARGETS, calibrate
from hcsched.models.etc.mapping import MappingResult, lower_bound, map_tasks
from hcsched.readers import read_etc
from hcsched.registry import get_model
from hcsched.scenario import Scenario
from hcsched.validate import MAX_MACHINES, MAX_TRIALS, whole_argument


def _value(text: str):
    """An integer, a number, or the text itself."""
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


def _map_arguments(m: argparse.ArgumentParser) -> None:
    m.add_argument("etc_file", help="CSV (rows tasks, columns machines; separated by commas, semicolons or tabs) "
                   "or HCSP one-value-per-line file")
    m.add_argument("--heuristic", required=True)
    m.add_argument("--ready", help="initial machine ready times, comma-separated")
    m.add_argument("--param", action="append", metavar="KEY=VALUE", help="a heuristic parameter (repeatable)")
    m.add_argument("--machines", type=whole_argument(1, MAX_MACHINES), help="machines per task in an HCSP file without "
                                                                            "header")
    m.add_argument("--json", action="store_true", help="print {heuristic, makespan, assignment, completion, "
                                                       "lower_bound}")


def cmd_map(args: argparse.Namespace) -> None:
    etc = read_etc(args.etc_file, args.machines)
    result = map_tasks(etc, args.heuristic, _ready(args.ready), **_params(args.param))
    bound = lower_bound(etc, _ready(args.ready))
    if args.json:
        print(json.dumps({**result.to_dict(), "lower_bound": bound}))
        return
    print(f"heuristic: {result.heuristic}\nmakespan: {result.makespan:g}\nlower bound (LP relaxation): {bound:g}; "
          f"the makespan is {100 * (result.makespan / bound - 1):.2f}% above it")
    print("task  machine  completion")
    for i, (j, c) in enumerate(zip(result.assignment, result.completion, strict=True)):
        print(f"{i:<5} {j:<8} {c:g}")


def _calibrate_arguments(r: argparse.ArgumentParser) -> None:
    r.add_argument("--trials", type=whole_argument(1, MAX_TRIALS), default=5)
    r.add_argument("--target", default="lambda_h", help="lambda_h (0.5), lambda_l (0.9), lambda_t (0.2) or a fraction")
    r.add_argument("--json", action="store_true", help="print {arrival_rate, unit, target, fraction, trials, seed}")
    r.set_defaults(seed=0)


def cmd_calibrate(args: argparse.Namespace, scenario: Scenario) -> None:
    target = args.target if args.target in CALIBRATION_TARGETS else _value(args.target)
    rate = calibrate(scenario, target, trials=args.trials, seed=args.seed)
    fraction = CALIBRATION_TARGETS.get(target, target)
    unit = f"tasks/{get_model(scenario.model).time_unit}"
    if args.json:
        print(json.dumps({"arrival_rate": rate, "unit": unit, "target": target, "fraction": fraction,
                          "trials": args.trials, "seed": args.seed}))
        return
    name = f"{target} = {fraction:g}" if target in CALIBRATION_TARGETS else f"{fraction:g}"
    print(f"arrival rate: {rate:.6g} {unit} (target: {name}, the share of tasks MCT has completed when the last one "
          f"arrives; {args.trials} trials, seed {args.seed})")


COMMANDS = (
    Command("map", "map the tasks of one ETC matrix, all arriving at time 0", _map_arguments, cmd_map),
    Command("calibrate", "find the arrival rate of section 5.1", _calibrate_arguments, cmd_calibrate, scenario=True),
)
FUNCTIONS = (map_tasks, MappingResult, lower_bound, calibrate)
