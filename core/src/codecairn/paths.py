"""Path confinement: every path the server touches stays inside the served root.

Two rules, applied at two moments:

* **naming** (``confine``): a path an agent gives is resolved (real path, symlinks followed) and
  must stay inside the root; NUL bytes, empty strings and absurd lengths are refused before the
  disk is touched;
* **opening** (``open_confined`` / ``read_confined``): whatever led to a file — a tool argument, a
  path stored in the index, a memory being re-anchored, the notes file — it is checked again *on
  the descriptor that was opened*: the file the kernel actually opened must lie inside the root
  and be a regular file. A file swapped for a symlink to ``/etc/passwd`` after it was indexed is
  refused, with no window between the check and the read (the check is on the open descriptor,
  not on the name).

Links inside the root that lead to files inside the root are fine (the walker indexes them under
their own names); anything else is ``outside_workspace``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, OUTSIDE_WORKSPACE, ToolError, quoted
from codecairn.limits import MAX_PATH_CHARS

# /proc/self/fd/N names the file a descriptor refers to: the ground truth after open, whatever
# the name led through. Elsewhere, the real path is taken before opening and compared with the
# descriptor (same device and inode) after: a swap in between is refused, never served.
_PROC_FD = "/proc/self/fd"
_HAS_PROC_FD = os.path.isdir(_PROC_FD)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0)


class Refused(OSError):
    """The name led outside the root, or to something that is not a regular file."""


def confine(root: Path, given: str) -> str:
    """``given`` (relative to root, or absolute inside it) -> root-relative '/' path."""
    if not isinstance(given, str):
        raise ToolError(BAD_ARGUMENT, "path must be a string")
    if "\0" in given:
        raise ToolError(BAD_ARGUMENT, "path contains a NUL byte")
    if not given.strip():
        raise ToolError(BAD_ARGUMENT, "path is empty: leave it out to mean the whole workspace")
    if len(given) > MAX_PATH_CHARS:
        raise ToolError(BAD_ARGUMENT, f"path is longer than {MAX_PATH_CHARS} characters")
    root_real = os.path.realpath(root)
    candidate = given if os.path.isabs(given) else os.path.join(root_real, given)
    real = os.path.realpath(candidate)
    if not inside(root_real, real):
        raise ToolError(OUTSIDE_WORKSPACE, f"{quoted(given)} is outside the workspace root", root=str(root_real))
    rel = os.path.relpath(real, root_real)
    return "" if rel == "." else rel.replace(os.sep, "/")


def inside(root_real: str, real: str) -> bool:
    return real == root_real or real.startswith(root_real + os.sep)


def open_confined(root_real: str, rel: str) -> int:
    """A read-only descriptor of the regular file ``root_real/rel``, after checking that the file
    actually opened lies inside ``root_real`` (a real path). Raises ``FileNotFoundError`` and the
    other ``OSError``s of opening, or ``Refused``. The caller closes the descriptor.

    O_NONBLOCK: opening a FIFO planted under an indexed name must not wait for a writer."""
    full = os.path.join(root_real, rel)
    expected = None if _HAS_PROC_FD else os.path.realpath(full)
    fd = os.open(full, _OPEN_FLAGS)
    try:
        st = os.fstat(fd)
        if _HAS_PROC_FD:
            real = os.readlink(f"{_PROC_FD}/{fd}")  # "... (deleted)" if unlinked since: still where it was
        else:
            real = expected or ""
            if not os.path.samestat(st, os.stat(real)):
                raise Refused(f"{rel} changed while it was opened")
        if not inside(root_real, real):
            raise Refused(f"{rel} leads outside the workspace root")
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"{rel} is not a regular file")
        return fd
    except BaseException:
        os.close(fd)
        raise


def read_confined(root_real: str, rel: str, max_bytes: int | None = None) -> bytes:
    """The bytes of ``root_real/rel``, opened with :func:`open_confined`. With ``max_bytes``, a
    larger file raises ``Refused`` instead of being read whole."""
    fd = open_confined(root_real, rel)
    with os.fdopen(fd, "rb") as fh:
        if max_bytes is not None:
            size = os.fstat(fh.fileno()).st_size
            if size > max_bytes:
                raise Refused(f"{rel} is larger than {max_bytes} bytes")
            data = fh.read(max_bytes + 1)
            if len(data) > max_bytes:  # it grew while being read
                raise Refused(f"{rel} is larger than {max_bytes} bytes")
            return data
        return fh.read()


def read_for_answer(root_real: str, rel: str, max_bytes: int | None = None) -> bytes:
    """:func:`read_confined` for a tool answer: failures become typed tool errors naming ``rel``."""
    try:
        return read_confined(root_real, rel, max_bytes)
    except Refused as exc:
        code = OUTSIDE_WORKSPACE if "outside" in str(exc) else BAD_ARGUMENT
        raise ToolError(code, f"{exc}; not read", path=rel) from None
    except OSError as exc:
        raise ToolError(NOT_FOUND, f"{rel} cannot be read: {exc.strerror or exc}", path=rel) from None


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
