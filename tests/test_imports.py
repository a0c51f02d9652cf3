"""The import contracts of pyproject.toml ([tool.importlinter]) hold: layers that point down, no model importing
another, the library never importing the dashboard (issue 20). Function-level imports count."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter", reason="import-linter is not installed (pip install -r requirements-test.txt)")

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold():
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert command, "import-linter is installed but its lint-imports command is not on the PATH"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([command, "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"lint-imports found a broken import contract:\n{done.stdout}\n{done.stderr}"
    assert "0 broken" in done.stdout, done.stdout
