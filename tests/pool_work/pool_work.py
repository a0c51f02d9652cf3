"""Work for the pool's tests, in a module of its own: the pool's workers import it by name (tests/test_pool.py puts
this folder on their PYTHONPATH)."""

import os
import time

from hcsched.errors import HcschedError
from hcsched.pool import tick


def square(x: int) -> int:
    return x * x


def ticks(n: int) -> int:
    for _ in range(n):
        tick()
    return n


def sleep(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def spin(seconds: float) -> int:
    """Busy for ``seconds`` of CPU, as a real chunk is."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return os.getpid()


def refuse(value: int) -> int:
    raise HcschedError(f"value: {value!r} is not allowed; allowed: none")


def stamp(seconds: float) -> tuple[float, float]:
    """When it started and ended (the monotonic clock, which every process of the machine shares)."""
    start = time.monotonic()
    time.sleep(seconds)
    return start, time.monotonic()
