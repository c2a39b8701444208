"""Path confinement: every path an agent gives is resolved (real path, symlinks followed) and must
stay inside the served root. NUL bytes and absurd lengths are refused before touching the disk."""

from __future__ import annotations

import os
from pathlib import Path

from codecairn.errors import BAD_ARGUMENT, OUTSIDE_WORKSPACE, ToolError, quoted

MAX_PATH_CHARS = 4096


def confine(root: Path, given: str) -> str:
    """``given`` (relative to root, or absolute inside it) -> root-relative '/' path."""
    if not isinstance(given, str):
        raise ToolError(BAD_ARGUMENT, "path must be a string")
    if "\0" in given:
        raise ToolError(BAD_ARGUMENT, "path contains a NUL byte")
    if not given.strip() or len(given) > MAX_PATH_CHARS:
        raise ToolError(BAD_ARGUMENT, "path is empty or too long")
    root_real = os.path.realpath(root)
    candidate = given if os.path.isabs(given) else os.path.join(root_real, given)
    real = os.path.realpath(candidate)
    if real != root_real and not real.startswith(root_real + os.sep):
        raise ToolError(OUTSIDE_WORKSPACE, f"{quoted(given)} is outside the workspace root", root=str(root_real))
    rel = os.path.relpath(real, root_real)
    return "" if rel == "." else rel.replace(os.sep, "/")


def validate_root(path: str | os.PathLike) -> Path:
    """A root must exist and be a directory; the error says which it is not."""
    p = Path(path).expanduser()
    if "\0" in str(p):
        raise ValueError("root path contains a NUL byte")
    if not p.exists():
        raise ValueError(f"{p} does not exist")
    if not p.is_dir():
        raise ValueError(f"{p} is a file, not a directory: give the project's root directory")
    return p.resolve()
