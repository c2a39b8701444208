"""What a failure of the index database means, and what its user is told.

Three kinds, told apart by SQLite's result codes (and the operating system's answer):

- **damaged** (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``): the file cannot be trusted. It is reported
  with its path and left exactly as it is; the advice is to rebuild it (which deletes it) or to
  move it away.
- **not writable** (``SQLITE_READONLY*``, ``SQLITE_PERM``, a file or directory this process may
  not write, a read-only file system): a question of permissions, never of damage. The index is
  served read-only; the advice is about permissions and never suggests deleting anything.
- anything else (busy, locked, disk full, an I/O error): passing. A failed write keeps the previous
  state, and is tried again.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from codecairn.errors import DamagedStore, StoreError, StoreNotWritable

SQLITE_PERM = 3
SQLITE_READONLY = 8
SQLITE_CORRUPT = 11
SQLITE_CANTOPEN = 14
SQLITE_NOTADB = 26
DAMAGED = frozenset({SQLITE_CORRUPT, SQLITE_NOTADB})
NOT_WRITABLE = frozenset({SQLITE_PERM, SQLITE_READONLY})
SIDE_FILES = ("-wal", "-shm")  # SQLite's write-ahead log and its index, beside the database


def damaged(path: Path, detail: str) -> DamagedStore:
    return DamagedStore(
        f"the index database {path} is damaged ({detail}). It was left untouched. To rebuild it, run "
        f"`codecairn index ROOT --rebuild` (this deletes that file), or move it away and index again."
    )


def not_writable(path: Path, why: str) -> StoreNotWritable:
    return StoreNotWritable(
        f"the index database {path} is read-only ({why}): answers come from it as it was last indexed, "
        f"but nothing can be indexed or remembered. Give this user write access to it and to its "
        f"directory, or use another cache directory (--cache-dir or CODECAIRN_CACHE_DIR)."
    )


def cannot_create(path: Path, why: str) -> StoreNotWritable:
    return StoreNotWritable(
        f"cannot create the index database {path} ({why}). Give this user write access there, or "
        f"choose another cache directory with --cache-dir or CODECAIRN_CACHE_DIR."
    )


def classify(exc: BaseException, path: Path) -> StoreError | None:
    """The damaged or not-writable error ``exc`` means for the database at ``path``; None when it
    is passing (busy, locked, full, an I/O error) or not SQLite's."""
    if isinstance(exc, StoreError):
        return exc
    if not isinstance(exc, sqlite3.DatabaseError):
        return None
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in DAMAGED:
        return damaged(path, str(exc))
    if primary in NOT_WRITABLE:
        return not_writable(path, write_problem(path) or str(exc))
    if primary == SQLITE_CANTOPEN:
        why = write_problem(path)
        if why is not None:
            return not_writable(path, why)
    return None


def explained(exc: BaseException, path: Path) -> StoreError:
    """``classify``, with a message for the passing kind too (for an answer or a command's exit)."""
    fatal = classify(exc, path)
    if fatal is not None:
        return fatal
    return StoreError(f"the index database {path} could not be used just now ({exc}); nothing was changed, try again")


def _may(path: Path, mode: int) -> bool:
    if os.access in os.supports_effective_ids:
        return os.access(path, mode, effective_ids=True)
    return os.access(path, mode)


def _denied(path: Path, name: str = "") -> str:
    """Why ``path`` may not be written: a read-only file system, or a permission."""
    try:
        read_only_fs = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        read_only_fs = False
    why = os.strerror(errno.EROFS if read_only_fs else errno.EACCES)
    return f"{name}: {why}" if name else why


def write_problem(path: Path) -> str | None:
    """Why this process could not write the database at ``path`` (or create it), or None.

    Writing needs the file itself, the files SQLite keeps beside it, and their directory (SQLite
    creates and removes its log there). Asked of the kernel with access(2), never by opening the
    file: closing any descriptor of a file drops every POSIX lock this process holds on it, SQLite's
    included."""
    path = Path(path)
    if not path.exists():
        folder = path.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        return None if _may(folder, os.W_OK | os.X_OK) else _denied(folder, str(folder))
    if not _may(path, os.W_OK):
        return _denied(path)
    for side in (Path(f"{path}{suffix}") for suffix in SIDE_FILES):
        if side.exists() and not _may(side, os.W_OK):
            return _denied(side, str(side))
    return None if _may(path.parent, os.W_OK | os.X_OK) else _denied(path.parent, f"its directory {path.parent}")


def read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` for reading only. Where SQLite could not create its shared-memory
    index beside the file (a directory this process may not write) and no log is waiting to be
    read, the file is opened as immutable (SQLite then takes no locks and keeps no index), as
    no writer without that permission can be changing it either."""
    uri = f"file:{quote(str(path))}?mode=ro"
    if not _may(path.parent, os.W_OK | os.X_OK) and not os.path.exists(f"{path}-wal"):
        uri += "&immutable=1"
    return uri
