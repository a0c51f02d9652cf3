"""The error weight EW^beta of FE, FZ, LE and LZ (Page, Keane and Naughton, eqs. 13-14 and 18-19): at the exponents
numpy computed with one IEEE operation (FZ's default beta = 1 divides by EW), the weight is that operation's correctly
rounded result, as before the models used the C library's pow (off in the last bit for about 0.1% of values)."""

import numpy as np
import pytest

from hcsched.kernels import power
from hcsched.models.estimation import alg2 as A
from hcsched.models.estimation import kernels as K

EW = np.random.default_rng(7).random((400, 50)) * 3.0 + 0.05


def _weights_seen(monkeypatch, module, kernel: str, index: int, call) -> np.ndarray:
    """The weights array ``call`` hands to ``module.kernel`` (its argument ``index``)."""
    seen = []
    real = getattr(module, kernel)

    def spy(*args):
        seen.append(np.array(args[index]))
        return real(*args)

    monkeypatch.setattr(module, kernel, spy)
    call()
    return seen[0]


@pytest.mark.parametrize("kind, beta, exact", [(A.FZ, 1.0, 1.0 / EW), (A.LZ, 1.0, 1.0 / EW),
                                                (A.FE, 0.5, np.sqrt(EW)), (A.LE, 1.0, EW)])
def test_alg2_weights_are_the_exact_operation(monkeypatch, kind, beta, exact):
    e, st0 = np.random.default_rng(8).random(EW.shape) + 1.0, np.zeros(EW.shape[1])
    wb = _weights_seen(monkeypatch, A, "_greedy", 2, lambda: A.greedy(kind, e, EW, st0, beta))
    assert wb.tobytes() == exact.tobytes()


@pytest.mark.parametrize("kind, beta, exact", [(A.FZ, 1.0, 1.0 / EW), (A.FE, 0.5, np.sqrt(EW))])
def test_the_processor_kernels_weights_are_the_exact_operation(monkeypatch, kind, beta, exact):
    e, st0 = np.random.default_rng(8).random(EW.shape) + 1.0, np.zeros(EW.shape[1])
    wb = _weights_seen(monkeypatch, K, "_greedy_by_processor", 2, lambda: K.greedy(kind, e, EW, st0, beta))
    assert wb.tobytes() == exact.tobytes()


def test_other_exponents_are_the_c_librarys_pow():
    assert A.error_weight(EW, -0.1).tobytes() == power(EW, -0.1).tobytes()
