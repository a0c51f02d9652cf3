"""The same seed gives the same workload on every CPU: numpy's exp, log and power run SVML code on a CPU with
AVX-512 that differs in the last bit from the C library's, so the models use ``hcsched.kernels``' ufuncs, which call
the C library's functions everywhere."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest

from hcsched.kernels import exp, log, power

WORKLOAD = """
import hashlib, numpy as np
from hcsched import preset
from hcsched.models.estimation.workload import make_workload
w = make_workload(preset("page-system-a").spec, np.random.SeedSequence(12345))
print(hashlib.sha256(np.ascontiguousarray(w.work).tobytes() + np.ascontiguousarray(w.noise).tobytes()).hexdigest())
"""


def test_the_ufuncs_are_the_c_librarys_functions_to_the_last_bit():
    x = np.random.default_rng(1).random(5000) * 30 - 15
    assert exp(x).tobytes() == np.array([math.exp(v) for v in x]).tobytes()
    y = np.abs(x) + 1e-3
    assert log(y).tobytes() == np.array([math.log(v) for v in y]).tobytes()
    assert power(y, 0.37).tobytes() == np.array([v ** 0.37 for v in y]).tobytes()
    assert power(y[:, None], np.array([0.5, 2.5])).shape == (5000, 2)  # broadcast as numpy does


def _avx512() -> list[str]:
    """numpy's AVX-512 features that this CPU has (those NPY_DISABLE_CPU_FEATURES may turn off)."""
    from numpy._core._multiarray_umath import __cpu_features__

    return [f for f, on in __cpu_features__.items() if on and (f.startswith("AVX512") or f == "X86_V4")]


def test_an_estimation_workload_is_the_same_with_numpys_avx512_code_and_without():
    """On an AVX-512 machine: the workload drawn with numpy's AVX-512 code turned off is the same, byte for byte
    (before, its work and noise differed in the last bits, and so did every preset's results)."""
    features = _avx512()
    if not features:
        pytest.skip("this CPU has no AVX-512: numpy runs one path here")
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=" ".join(features))
    off = subprocess.run([sys.executable, "-c", WORKLOAD], capture_output=True, text=True, env=env, check=True)
    here = subprocess.run([sys.executable, "-c", WORKLOAD], capture_output=True, text=True, check=True)
    assert off.stdout == here.stdout and len(here.stdout.strip()) == 64
