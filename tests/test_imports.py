"""The import contracts of pyproject.toml ([tool.importlinter]) hold: layers that point down, no model importing
another, the library never importing the dashboard. Function-level imports count."""

from __future__ import annotations

import ast
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


def _imports(path: Path) -> list[tuple[ast.AST, str, list[str]]]:
    """(node, module, names) of every import of a file, with the function it sits in (None at the top)."""
    out = []

    def walk(node, function):
        for child in ast.iter_child_nodes(node):
            inner = child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Import):
                out.extend((function, a.name, []) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0:
                out.append((function, child.module, [a.name for a in child.names]))
            walk(child, inner)

    walk(ast.parse(path.read_text()), None)
    return out


SHARED = sorted({*(ROOT / "hcsched").glob("*.py"), *(ROOT / "hcsched" / "heuristics").rglob("*.py"),
                 ROOT / "hcsched" / "models" / "__init__.py", ROOT / "hcsched" / "models" / "base.py"})


def test_the_shared_layers_import_no_model_package():
    """Outside hcsched/models/, a model is reached through the registry (get_model, its commands(), its functions()),
    never by importing its package; only hcsched/models/__init__.py, which registers them, names each one."""
    from hcsched import model_names

    models = set(model_names())
    registration = ROOT / "hcsched" / "models" / "__init__.py"
    offenders = [f"{path.relative_to(ROOT)}: {module} {names}" for path in SHARED if path != registration
                 for _, module, names in _imports(path)
                 if module.split(".")[:3] != ["hcsched", "models", "base"] and module.startswith("hcsched.models.")
                 or module == "hcsched.models" and models & set(names)]
    assert not offenders


def test_no_function_level_import_of_the_library_in_the_shared_layers():
    """No import of hcsched sits inside a function of the shared layers to dodge a circle: each is at the
    top of its module (imports under TYPE_CHECKING are at the top too)."""
    offenders = [f"{path.relative_to(ROOT)}: {function.name} imports {module}" for path in SHARED
                 for function, module, _ in _imports(path) if function is not None
                 and module.split(".")[0] == "hcsched"]
    assert not offenders
