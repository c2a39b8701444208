"""Real code for tests: real code to index (copies of the running interpreter's own standard library,
which nobody here wrote and every machine with Python has), a private cache directory, and the
installed `codecairn` command.

Imported by tests directly (tests/ is on pytest's pythonpath), and by conftest for fixtures."""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path

STDLIB = Path(sysconfig.get_paths()["stdlib"])
CORPORA = Path(os.environ.get("CODECAIRN_CORPORA", Path.home() / ".cache" / "codecairn-corpora")) / "c"


from codecairn.testing import corpus  # noqa: E402,F401  (re-exported for the tests)


def copy_stdlib(dest: Path, packages: tuple[str, ...]) -> Path:
    for pkg in packages:
        src = STDLIB / pkg
        if src.is_dir():
            shutil.copytree(src, dest / pkg, ignore=shutil.ignore_patterns("__pycache__", "test", "tests"))
        else:
            shutil.copy2(STDLIB / f"{pkg}.py", dest / f"{pkg}.py")
    return dest


