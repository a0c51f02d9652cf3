"""The first minute of a new user: python bench/first_run.py [--cache empty|warm] [--model NAME ...]

Each model is measured in a fresh process that drives the dashboard with Streamlit's AppTest, as a user would:
the landing page first shows (kernels of the default model start compiling in the background), the scenario is switched
to the model's default preset (its kernels start compiling) with ``TRIALS`` trials, Run is pressed at once, and the
clock stops when the results are drawn. A second Run (another seed, as runs are cached), kernels warm, is timed too: the
difference is what the first run costs beyond the run itself.

``--cache empty`` (default) gives each process its own empty numba cache folder (a fresh install that skipped the
warm-up step); ``--cache warm`` first runs ``python -m hcsched warm-up`` into that folder, as the README's install
command does, and times that step. Targets: the default model's first Run within 5 s of pressing Run,
any other model's within 10 s, compile included.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRIALS = 2
TARGETS = {"default": 5.0, "other": 10.0}

CHILD = r"""
import json, sys, time
from streamlit.testing.v1 import AppTest
from hcsched import get_model, preset
from hcsched.registry import DEFAULT_MODEL

model = sys.argv[1]
trials = int(sys.argv[2])
at = AppTest.from_file(sys.argv[3], default_timeout=600)
t_show = time.perf_counter()
at.run()
shown = time.perf_counter() - t_show


def press_run(seed):
    at.session_state["scenario"] = preset(get_model(model).default_preset).replace(trials=trials, seed=seed)
    if "results" in at.session_state:
        del at.session_state["results"]
    at.run()
    t = time.perf_counter()
    at.button(key="landing_run").click().run()
    while "results" not in at.session_state:
        time.sleep(0.05)
        at.run()
    assert not at.exception, at.exception
    return time.perf_counter() - t


first = press_run(1)
second = press_run(2)  # another seed: the dashboard caches a scenario's results
print(json.dumps({"model": model, "default": model == DEFAULT_MODEL, "page_shown": shown, "first": first,
                  "second": second}))
"""


def measure(model: str, folder: str) -> dict:
    """The child's figures for ``model``, with numba's cache in ``folder``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": folder}
    out = subprocess.run([sys.executable, "-c", CHILD, model, str(TRIALS), str(ROOT / "app.py")], env=env,
                         check=True, cwd=ROOT, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def warm_up(folder: str) -> float:
    """``python -m hcsched warm-up`` into ``folder`` (the README's install step); its wall seconds."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "hcsched", "warm-up"], env={**os.environ, "NUMBA_CACHE_DIR": folder},
                   check=True, cwd=ROOT, capture_output=True)
    return time.perf_counter() - t


def main() -> int:
    import hcsched.models  # noqa: F401  (fills the registry)
    from hcsched.registry import DEFAULT_MODEL, model_names

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", choices=["empty", "warm"], default="empty")
    parser.add_argument("--model", action="append", help="a model to measure (all by default)")
    args = parser.parse_args()
    names = args.model or [DEFAULT_MODEL] + [m for m in model_names() if m != DEFAULT_MODEL]
    print(f"numba cache: {args.cache}; {TRIALS} trials of each model's default preset; load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="hcsched-numba-") as shared:
        if args.cache == "warm":
            print(f"the install's warm-up step (hcsched warm-up, all models): {warm_up(shared):.1f} s", flush=True)
        print(f"{'model':<12} {'page shown':>10} {'first Run':>10} {'second Run':>10} {'target':>7} {'ratio':>6}")
        worst = 0.0
        for name in names:
            if args.cache == "warm":
                row = measure(name, shared)
            else:
                with tempfile.TemporaryDirectory(prefix="hcsched-numba-") as empty:
                    row = measure(name, empty)
            target = TARGETS["default" if row["default"] else "other"]
            worst = max(worst, row["first"] / target)
            print(f"{name:<12} {row['page_shown']:>9.1f}s {row['first']:>9.1f}s {row['second']:>9.1f}s "
                  f"{target:>6.0f}s {row['first'] / target:>6.2f}", flush=True)
    print(f"worst ratio to target: {worst:.2f} (load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
