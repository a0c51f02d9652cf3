"""numba's cache folder is named by the kernel sources, so a changed kernel never runs an old compiled copy."""

import os
import subprocess
import sys
from pathlib import Path

from helpers import ROOT

from hcsched._numba_cache import kernel_digest


def test_the_digest_follows_kernel_files_only(tmp_path):
    (tmp_path / "rules.py").write_text("from numba import njit\n")
    (tmp_path / "pages.py").write_text("x = 1\n")
    before = kernel_digest(tmp_path)
    (tmp_path / "pages.py").write_text("x = 2\n")
    assert kernel_digest(tmp_path) == before  # edits outside kernels keep the compiled code
    (tmp_path / "rules.py").write_text("from numba import njit\n# changed\n")
    assert kernel_digest(tmp_path) != before


def _cache_dir(env):
    """numba's cache folder in a fresh interpreter that imports hcsched (with the JIT off: the folder is chosen at
    import, and compiling every kernel into an empty folder would take a minute; tests/test_cli.py compiles)."""
    code = "import hcsched, numba; print(numba.config.CACHE_DIR)"
    return subprocess.run([sys.executable, "-c", code], env={**env, "NUMBA_DISABLE_JIT": "1"}, cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.strip()


def test_hcsched_names_numba_s_cache_folder_unless_the_user_did(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "HCSCHED_NUMBA_CACHE_DIR")}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    folder = _cache_dir(env)
    assert folder == str(tmp_path / "hcsched" / f"numba-{kernel_digest(ROOT / 'hcsched')}")
    assert _cache_dir({**env, "NUMBA_CACHE_DIR": str(tmp_path / "mine")}) == str(tmp_path / "mine")


def test_a_folder_hcsched_chose_before_is_chosen_anew(tmp_path):
    """A re-import (Streamlit reloads changed modules; a child of an older parent) must not keep an old folder."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "HCSCHED_NUMBA_CACHE_DIR")}
    old = str(tmp_path / "hcsched" / "numba-0000")
    env.update(XDG_CACHE_HOME=str(tmp_path), NUMBA_CACHE_DIR=old, HCSCHED_NUMBA_CACHE_DIR=old)
    assert _cache_dir(env) == str(tmp_path / "hcsched" / f"numba-{kernel_digest(ROOT / 'hcsched')}")
    assert _cache_dir({**env, "XDG_CACHE_HOME": "relative"}).startswith(str(Path.home()))  # relative XDG: ignored
