from pathlib import Path

import pytest
from helpers import HCSP


@pytest.fixture
def hcsp_dir() -> Path:
    if not HCSP.is_dir():
        pytest.skip(f"HCSP instances not found at {HCSP} (set HCSCHED_SHARED)")
    return HCSP
