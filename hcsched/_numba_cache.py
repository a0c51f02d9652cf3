"""Where numba caches hcsched's compiled kernels: a folder named by a hash of the kernel sources.

numba's on-disk cache checks only the source file of the function it compiled, not the files of the functions that
function calls: after an update of ``rules.py``, ``engine.py``'s cached loop would still run the old rules (seen when
the value model's Max-Min kernel was rewritten). Naming the cache folder by a hash of every source file that uses numba
makes any change to any kernel start from a clean cache, while edits elsewhere (pages, CLI, charts) keep it. Imported
first by :mod:`hcsched` (it configures on import), before numba reads its configuration. A ``NUMBA_CACHE_DIR`` set by
the user is left alone; without a writable home the folder is in the temporary directory. Folders of older sources
unused for two weeks are removed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

KEEP_DAYS = 14


def kernel_digest(root: Path) -> str:
    """A hash of the path and content of every ``.py`` file below ``root`` that uses numba."""
    h = hashlib.sha1()
    for path in sorted(root.rglob("*.py")):
        data = path.read_bytes()
        if b"numba" in data:
            h.update(path.relative_to(root).as_posix().encode())
            h.update(data)
    return h.hexdigest()[:16]


def _prune(parent: Path, keep: Path) -> None:
    cutoff = time.time() - KEEP_DAYS * 86400
    for old in parent.glob("numba-*"):
        try:
            if old != keep and old.stat().st_mtime < cutoff:
                shutil.rmtree(old, ignore_errors=True)
        except OSError:
            pass


MARK = "HCSCHED_NUMBA_CACHE_DIR"  # the folder hcsched chose, so that a re-import (Streamlit's reload) chooses anew


def _parents() -> list[Path]:
    """Where hcsched's folders may go: the user's cache folder, else the temporary directory."""
    out = []
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    try:
        out.append((Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "hcsched")  # XDG: relative ignored
    except RuntimeError:  # no home directory (an arbitrary uid in a container)
        pass
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return [*out, Path(tempfile.gettempdir()) / f"hcsched-{uid}"]


def configure() -> None:
    """Point numba's cache at this version's folder, unless the user chose one (or none can be written)."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen and chosen != os.environ.get(MARK):
        return
    name = f"numba-{kernel_digest(Path(__file__).resolve().parent)}"
    for parent in _parents():
        folder = parent / name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            os.utime(folder)
            break
        except OSError:
            continue
    else:
        return  # numba's default: __pycache__ beside the sources, where writable
    os.environ["NUMBA_CACHE_DIR"] = os.environ[MARK] = str(folder)
    if "numba" in sys.modules:  # imported before hcsched, or a re-import: make it read the folder now
        from numba.core import config

        config.reload_config()
    _prune(folder.parent, folder)


configure()
