"""Every preset's results, byte for byte, before and after a change: python bench/presets_identical.py [--save]

For each preset of every model, two trials (seed 1) of all its heuristics are
run; the results CSV and the schedules table (every task's machine, start and
finish, exact values) are hashed. ``--save`` writes the digests to ``bench/preset_digests.json``;
without it the script compares against that file and exits 1 on any change,
naming the preset and which of the two CSVs changed ("results" alone: a
metric's rounding moved; "schedules": a mapping or a time moved).

``--via fork`` runs the trials in two forked processes (the command line's way), ``--via pool`` in the dashboard's
pool of worker processes (hcsched.pool), instead of this process: every way must give the same digests.

The ETC model's lower-bound columns (``lower_bound``, ``makespan_bound``, ``mean_flow_bound``, appended after the
others) are left out of the results digest: they came after the digests were saved, so that the digests still prove
every other column byte-identical; the bounds are checked by tests/models/etc/test_bounds.py.

A refactoring must leave every digest unchanged. The digests of main are kept in
git, so ``git log bench/preset_digests.json`` shows when results were changed on
purpose (and the commit says why).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

import pandas as pd

from hcsched import simulate
from hcsched.models import MODELS
from hcsched.pool import Pool
from hcsched.runner import using

# alazzoni-C2's two trials with their schedules (7.3 M tasks each) are estimated at about 12 GB, above the default
# limit of half the machine's memory (hcsched.experiment.memory_limit); they fit in the whole of a 24 GB machine
os.environ.setdefault("HCSCHED_MAX_MEMORY", str(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")))
DIGESTS = Path(__file__).resolve().parent / "preset_digests.json"
TRIALS, SEED = 2, 1


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def frame_digest(frame) -> str:
    """A digest of a frame's column names and exact values (faster than its CSV on millions of rows)."""
    values = pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes()
    return hashlib.sha256(",".join(frame.columns).encode() + values).hexdigest()[:16]


BOUND_COLUMNS = ["lower_bound", "makespan_bound", "mean_flow_bound"]


def preset_digests(name: str, model, jobs: int = 1) -> dict:
    results, schedules = simulate(model.presets()[name](), trials=TRIALS, seed=SEED, jobs=jobs, schedules=True)
    results = results.drop(columns=BOUND_COLUMNS, errors="ignore")
    return {"results": digest(results.to_csv(index=False)), "schedules": frame_digest(schedules)}


def all_digests(only: str | None = None, via: str = "here") -> dict:
    if via == "pool":
        with Pool(2) as pool, using(pool):
            return _digests(only, 2)
    return _digests(only, 1 if via == "here" else 2)


def _digests(only: str | None, jobs: int) -> dict:
    out = {}
    for model_name, model in MODELS.items():
        for name in model.presets():
            key = f"{model_name}/{name}"
            if only and only not in key:
                continue
            t = time.perf_counter()
            out[key] = preset_digests(name, model, jobs)
            print(f"{key:<40} {out[key]['results']} {out[key]['schedules']}  {time.perf_counter() - t:6.1f} s",
                  flush=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true", help="write the digests instead of comparing")
    parser.add_argument("--only", help="presets whose model/name contains this text")
    parser.add_argument("--via", choices=("here", "fork", "pool"), default="here",
                        help="where the trials run: this process, two forked processes, or a pool of workers")
    args = parser.parse_args()
    now = all_digests(args.only, args.via)
    if args.save:
        kept = json.loads(DIGESTS.read_text()) if args.only and DIGESTS.exists() else {}
        DIGESTS.write_text(json.dumps({**kept, **now}, indent=1, sort_keys=True) + "\n")
        print(f"saved {len(now)} presets to {DIGESTS.name}")
        return 0
    saved = json.loads(DIGESTS.read_text())
    changed = [f"{k}: {', '.join(p for p in ('results', 'schedules') if saved.get(k, {}).get(p) != v[p])}"
               for k, v in now.items() if saved.get(k) != v]
    print("\n".join(["changed:"] + changed) if changed else f"all {len(now)} presets byte-identical")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
