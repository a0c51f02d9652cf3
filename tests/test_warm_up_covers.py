"""A model's warm_up compiles every kernel signature its presets' runs call.

A kernel left out is compiled by each worker process at its first chunk: on a fresh clone whose cache holds only what
``hcsched warm-up`` wrote, that cost the first run of a model several seconds before its first answer (every worker
compiling the same kernels at once, at the workers' lower priority). Each model is checked in a fresh interpreter:
after warm_up, trial 0 of each of its presets (every heuristic, its metrics and its schedules) must add no signature
to any of hcsched's kernels.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hcsched.models import MODELS

PROBE = """
import gc, json, sys
from numba.core.dispatcher import Dispatcher
from hcsched.experiment import schedules_of, trial_runs
from hcsched.models import warm_up
from hcsched.presets import preset, preset_names

def signatures():
    found = {}
    for obj in gc.get_objects():
        try:
            if Dispatcher in type(obj).__mro__ and obj.py_func.__module__.startswith("hcsched"):
                found[f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"] = len(obj.overloads)
        except ReferenceError:
            pass
    return found

model = sys.argv[1]
warm_up([model])
before = signatures()
names = [n for n in preset_names() if preset(n).model == model]
for name in names:
    scenario = preset(name)
    schedules_of(scenario, trial_runs(scenario, 0))
after = signatures()
print(json.dumps({"presets": names, "new": sorted(k for k, n in after.items() if n > before.get(k, 0))}))
"""


@pytest.mark.parametrize("model", sorted(MODELS))
def test_warm_up_compiles_what_the_presets_run(model):
    out = subprocess.run([sys.executable, "-c", PROBE, model], capture_output=True, text=True, timeout=600, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["presets"], f"{model} has no presets to check"
    assert found["new"] == [], f"compiled after {model}'s warm_up: {found['new']}"
