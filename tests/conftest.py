import base64
import json
import os
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
HCSP = Path(os.environ.get("HCSCHED_SHARED", ROOT.parent / "shared")) / "data" / "hcsp"

# Seed 000, Tables 1 and 2 (immediate mode) and Table 3 (batch mode).
TABLE2_ETC = np.array([[50, 20, 15], [20, 60, 15], [20, 50, 15]], dtype=float)
TABLE1_READY = np.array([75, 110, 200], dtype=float)
TABLE3_ETC = np.array([[40, 48, 134, 50], [50, 82, 88, 89], [55, 68, 94, 93], [52, 60, 78, 108]], dtype=float)


def plotly_charts(at) -> list[dict]:
    """The Plotly figures an AppTest page drew, as dicts."""
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def plotly_array(v) -> np.ndarray:
    """A figure's numbers, whether plotly wrote them as a list or as base64 binary (``bdata``)."""
    if isinstance(v, dict):
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
        return a.reshape([int(x) for x in str(v["shape"]).split(",")]) if "shape" in v else a
    return np.asarray(v, float)


@pytest.fixture
def hcsp_dir() -> Path:
    if not HCSP.is_dir():
        pytest.skip(f"HCSP instances not found at {HCSP} (set HCSCHED_SHARED)")
    return HCSP

# The dashboard's pages import their shared helpers as `pages.common`, as `streamlit run app.py` allows.
import sys  # noqa: E402

sys.path.insert(0, str(ROOT))


def panel_titles(fig: dict) -> list[str]:
    """The metric titles of a figure's panels (each panel's title without its "lower is better" line)."""
    return [a["text"].split("<br>")[0] for a in fig["layout"]["annotations"] if "<br>" in a["text"] or "better" not in a["text"]]


def bar_values(trace: dict) -> tuple[list, np.ndarray]:
    """A bar trace's categories and values, whichever way its bars lie."""
    if trace.get("orientation") == "h":
        return list(trace["y"]), plotly_array(trace["x"])
    return list(trace["x"]), plotly_array(trace["y"])
