"""The task-class model's own command, ``hcsched lp`` (the allocation LP of section III-A: lambda*, delta* and
stability, :func:`.lp.solve_allocation`), and its public functions."""

from __future__ import annotations

import argparse
import json

from hcsched.errors import HcschedError
from hcsched.models.base import Command
from hcsched.models.classes.lp import Allocation, solve_allocation
from hcsched.readers import parse_csv_etc
from hcsched.userfiles import read_text


def _numbers(text: str, flag: str, integer: bool = False) -> list:
    try:
        return [int(x) if integer else float(x) for x in text.split(",")]
    except ValueError:
        kind = "whole numbers" if integer else "numbers"
        raise HcschedError(f"{flag}: {text!r} is not allowed; give comma-separated {kind}") from None


def _lp_arguments(lp: argparse.ArgumentParser) -> None:
    lp.add_argument("--alpha", required=True, help="arrival rates of the classes, comma-separated")
    lp.add_argument("--mu", required=True, help="CSV of execution rates: one row per class, one column per machine or "
                                                "group")
    lp.add_argument("--groups", help="machines per column of --mu, comma-separated (identical machine groups)")
    lp.add_argument("--json", action="store_true", help="print {lambda, delta, stable}")


def cmd_lp(args: argparse.Namespace) -> None:
    text = read_text(args.mu, "--mu", "a CSV of execution rates, one row per class and one column per machine (or "
                     "group)")
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


COMMANDS = (Command("lp", "solve the allocation LP of Al-Azzoni and Down: lambda*, delta*, stability", _lp_arguments,
                    cmd_lp),)
FUNCTIONS = (solve_allocation, Allocation)
