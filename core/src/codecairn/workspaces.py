"""Every index database in the cache: list them, and collect the ones nobody needs any more.

One database per root (``store.database_path``). A database is *in use* while some process has
its workspace open: that process holds a shared ``flock`` on ``<database>.lock`` (the kernel drops
it when the process ends, even by ``kill -9``). The collector takes that lock exclusively, never
waiting, before it deletes anything — so an index in use is never deleted.

Collected: indexes whose root is really gone (``ENOENT``/``ENOTDIR``: a permission error, an
unmounted network drive answering ``EIO``, a symlink loop are *not* absence), indexes unused for
longer than ``max_age_days`` (default 90), and then the least recently used ones until the total
is under ``max_bytes`` (default 2 GiB). A database that cannot be read is reported, never deleted.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from codecairn.errors import StoreError
from codecairn.store import failures
from codecairn.store.snapshots import summary as read_summary
from codecairn.store.store import cache_dir

LOCK_SUFFIX = ".lock"
DB_SUFFIXES = ("", "-wal", "-shm", "-journal", ".sealed")
IMPORT_SUFFIX = ".importing"
MAX_AGE_ENV = "CODECAIRN_GC_MAX_AGE_DAYS"
MAX_BYTES_ENV = "CODECAIRN_GC_MAX_BYTES"
DEFAULT_MAX_AGE_DAYS = 90.0
DEFAULT_MAX_BYTES = 2 * 1024**3
LEASE_WAIT_SECONDS = 10.0
GONE_ERRNOS = frozenset({errno.ENOENT, errno.ENOTDIR})


def workspaces_dir(directory: Path | None = None) -> Path:
    return Path(directory or cache_dir()) / "workspaces"


def lock_path(db: Path) -> Path:
    return Path(str(db) + LOCK_SUFFIX)


# ---- "this index is in use" ----------------------------------------------------------------------


class Lease:
    """A shared lock on one database, held while a workspace is open."""

    def __init__(self, fd: int | None, path: Path) -> None:
        self.fd: int | None = fd
        self.path = path

    @classmethod
    def acquire(cls, db: Path, wait: float = LEASE_WAIT_SECONDS) -> Lease:
        """Raises StoreNotWritable (saying where, and why) when the database does not exist and
        its directory cannot be written. A database that exists in a directory this process may
        not write is used read-only, without a lease: nobody without that permission can delete
        it either."""
        path = lock_path(db)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise failures.cannot_create(db, f"{exc.filename}: {exc.strerror}") from None
        deadline = time.monotonic() + wait
        while True:
            fd = _open_lock(path)
            if fd is None:
                if not db.exists():
                    raise failures.cannot_create(db, failures.write_problem(db) or f"{path}: cannot be created")
                return cls(None, path)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:  # a collector is deleting this index right now: a moment
                os.close(fd)
                if time.monotonic() > deadline:
                    raise StoreError(f"{db} is locked by `codecairn workspaces --gc`; try again") from None
                time.sleep(0.05)
                continue
            # The collector unlinks the lock file after deleting; a lock on an unlinked file guards nothing.
            try:
                current = os.stat(path).st_ino
            except FileNotFoundError:
                current = None
            if current == os.fstat(fd).st_ino:
                return cls(fd, path)
            os.close(fd)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _open_lock(path: Path) -> int | None:
    """The lock file, created if need be; read-only if that is all this process may (flock needs
    no more); None if it can be neither opened nor created."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except PermissionError:
        pass
    except OSError as exc:
        if exc.errno != errno.EROFS:
            raise
    try:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


@contextlib.contextmanager
def exclusive(db: Path) -> Iterator[bool]:
    """Hold the database's lock exclusively, never waiting: yields False when some process has
    the index open (then leave it alone). Raises StoreNotWritable where the lock cannot be taken."""
    path = lock_path(db)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise failures.not_writable(db, f"{exc.filename}: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)


def in_use(db: Path) -> bool:
    path = lock_path(db)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


# ---- listing ------------------------------------------------------------------------------------


@dataclass
class IndexInfo:
    database: str
    size_bytes: int
    root: str = ""
    root_state: str = "unknown"  # present | gone | unreachable (<why>) | unknown
    last_used_at: float = 0.0
    files: int | None = None
    symbols: int | None = None
    in_use: bool = False
    error: str = ""  # the database could not be read

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["last_used"] = _iso(self.last_used_at) if self.last_used_at else None
        return {k: v for k, v in out.items() if v not in ("", None)}


def root_state(root: str) -> str:
    """``present``, ``gone`` (ENOENT/ENOTDIR only), or ``unreachable (<reason>)``."""
    try:
        st = os.stat(root)
    except OSError as exc:
        if exc.errno in GONE_ERRNOS:
            return "gone"
        return f"unreachable ({exc.strerror or exc})"
    if not stat.S_ISDIR(st.st_mode):
        return "gone"  # a file where the root directory was: opening it as one would be ENOTDIR
    return "present"


def _size(db: Path) -> int:
    total = 0
    for suffix in DB_SUFFIXES:
        try:
            total += os.path.getsize(str(db) + suffix)
        except OSError:
            pass
    return total


def describe(db: Path) -> IndexInfo:
    info = IndexInfo(str(db), _size(db), in_use=in_use(db))
    try:
        info.last_used_at = max(os.path.getmtime(str(db) + s) for s in ("", "-wal") if os.path.exists(str(db) + s))
    except (OSError, ValueError):
        pass
    try:
        meta, info.files, info.symbols = read_summary(db)
    except sqlite3.Error as exc:
        info.error = f"unreadable: {exc}"
        return info
    info.root = meta.get("root", "")
    if meta.get("last_used_at"):
        info.last_used_at = float(meta["last_used_at"])
    info.root_state = root_state(info.root) if info.root else "unknown"
    return info


def list_indexes(directory: Path | None = None) -> list[IndexInfo]:
    folder = workspaces_dir(directory)
    if not folder.is_dir():
        return []
    return [describe(db) for db in sorted(folder.glob("*.db"))]


# ---- collecting ---------------------------------------------------------------------------------


@dataclass
class Collected:
    removed: list[dict[str, Any]] = field(default_factory=list)  # IndexInfo dicts + "reason"
    kept: list[dict[str, Any]] = field(default_factory=list)
    freed_bytes: int = 0
    total_bytes: int = 0  # what is left
    dry_run: bool = False


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name) or default)
    except ValueError:
        return default


def delete_index(db: Path) -> bool:
    """Delete one database and its side files, unless some process has it open. True if deleted."""
    with exclusive(db) as alone:
        if not alone:
            return False
        try:
            for suffix in DB_SUFFIXES:
                Path(str(db) + suffix).unlink(missing_ok=True)
            lock_path(db).unlink(missing_ok=True)  # openers waiting on it notice, and take a new one
        except OSError as exc:
            raise failures.not_writable(db, f"{exc.filename}: {exc.strerror}") from None
        return True


def collect(
    directory: Path | None = None,
    *,
    max_age_days: float | None = None,
    max_bytes: int | None = None,
    dry_run: bool = False,
    now: float | None = None,
) -> Collected:
    max_age = max_age_days if max_age_days is not None else _env_float(MAX_AGE_ENV, DEFAULT_MAX_AGE_DAYS)
    cap = max_bytes if max_bytes is not None else int(_env_float(MAX_BYTES_ENV, DEFAULT_MAX_BYTES))
    now = time.time() if now is None else now
    report = Collected(dry_run=dry_run)
    infos = list_indexes(directory)
    survivors: list[IndexInfo] = []

    def remove(info: IndexInfo, reason: str) -> bool:
        if info.in_use or info.error:
            return False
        try:
            if not dry_run and not delete_index(Path(info.database)):
                info.in_use = True  # opened since it was listed
                return False
        except StoreError as exc:  # a cache directory this process may not write: nothing deleted
            info.error = str(exc)
            return False
        report.removed.append({**info.to_dict(), "reason": reason})
        report.freed_bytes += info.size_bytes
        return True

    for info in infos:
        age_days = (now - info.last_used_at) / 86400 if info.last_used_at else 0.0
        if info.root_state == "gone" and remove(info, "root is gone"):
            continue
        if age_days > max_age and remove(info, f"unused for {age_days:.0f} days (limit {max_age:g})"):
            continue
        survivors.append(info)
    total = sum(i.size_bytes for i in survivors)
    for info in sorted(survivors, key=lambda i: i.last_used_at):  # least recently used first
        if total <= cap:
            break
        if remove(info, f"total size over the {cap} byte cap"):
            total -= info.size_bytes
    removed = {r["database"] for r in report.removed}
    report.kept = [i.to_dict() for i in survivors if i.database not in removed]
    report.total_bytes = total
    if not dry_run:
        _remove_abandoned_imports(workspaces_dir(directory), now)
    return report


def _remove_abandoned_imports(folder: Path, now: float) -> None:
    """A snapshot import killed half-way leaves its temporary file; an hour later it is garbage."""
    if not folder.is_dir():
        return
    for leftover in folder.glob(f"*{IMPORT_SUFFIX}*"):
        try:
            if now - leftover.stat().st_mtime > 3600:
                leftover.unlink()
        except OSError:
            pass


def _iso(ts: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat(timespec="seconds")
