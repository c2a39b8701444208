"""Writes that happen whole or not at all.

A write is planned first (``plan_file``: the file's current bytes, their sha256, its mode), then
committed (``commit``) for one file or a batch:

1. each new content goes to a temporary file in the target's own directory (same file system, so
   the final rename is atomic), with the target's permissions (and owner, where allowed);
2. right before anything is replaced, every target is hashed again: a file that changed since it
   was planned stops the whole batch (``stale_precondition``), nothing replaced;
3. ``os.replace`` puts each temporary file in place; a failure half-way puts back what was already
   replaced, from the bytes that were planned — all or nothing.

Directories are reached through descriptors checked to lie inside their root (as reads are, on
the descriptor itself), and temporary files and renames are made relative to them: a directory
swapped for a link to somewhere else between the check and the write is never written through.
A path that was a symbolic link is written at its target (the link stays a link).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

from codecairn.errors import BAD_ARGUMENT, NOT_FOUND, OUTSIDE_WORKSPACE, STALE, ToolError
from codecairn.files.roots import Place
from codecairn.paths import Refused, inside, open_confined

MAX_EDIT_BYTES = 64 * 1024 * 1024  # a file edited as text is read whole
_PROC_FD = "/proc/self/fd"


@dataclass
class Planned:
    place: Place
    before: bytes | None  # what is there now (None: nothing)
    before_sha: str  # "" when nothing is there
    after: bytes | None  # what will be there (None: the file is deleted)
    mode: int | None = None  # permissions to keep (None: a new file)
    owner: tuple[int, int] | None = None
    replacements: int = 0

    @property
    def after_sha(self) -> str:
        return hashlib.sha256(self.after).hexdigest() if self.after is not None else ""


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def plan_file(place: Place) -> Planned:
    """The current state of ``place``: its bytes (read confined), sha256 and mode."""
    if not place.rel:
        raise ToolError(BAD_ARGUMENT, f"{place.shown} is a root directory; give a file")
    try:
        fd = open_confined(place.root, place.rel)
    except FileNotFoundError:
        return Planned(place, None, "", None)
    except Refused as exc:
        code = OUTSIDE_WORKSPACE if "outside" in str(exc) else BAD_ARGUMENT
        raise ToolError(code, f"{exc}; nothing was changed", path=place.shown) from None
    except IsADirectoryError:
        raise ToolError(BAD_ARGUMENT, f"{place.shown} is a directory; give a file", path=place.shown) from None
    except OSError as exc:
        raise ToolError(NOT_FOUND, f"{place.shown} cannot be read: {exc.strerror or exc}", path=place.shown) from None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if st.st_size > MAX_EDIT_BYTES:
            raise ToolError(
                BAD_ARGUMENT, f"{place.shown} is larger than {MAX_EDIT_BYTES >> 20} MiB; it is not edited as text"
            )
        data = fh.read()
    return Planned(place, data, sha256_hex(data), None, stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid))


@dataclass
class _Staged:
    plan: Planned
    dir_fd: int
    name: str
    temp: str | None = None
    made_dirs: list[tuple[int, str]] = field(default_factory=list)  # (parent fd, name) created for it


def commit(plans: list[Planned]) -> Callable[[], None]:
    """Write every plan, or none (see the module's steps). Returns a function that puts every
    file back as it was planned (used when recording the write fails afterwards)."""
    staged: list[_Staged] = []
    replaced: list[_Staged] = []
    try:
        for plan in plans:
            dir_fd, made = _parent(plan.place, create=plan.after is not None)
            item = _Staged(plan, dir_fd, os.path.basename(plan.place.rel), made_dirs=made)
            staged.append(item)
            if plan.after is not None:
                item.temp = _temp_file(dir_fd, item.name, plan.after, plan.mode, plan.owner)
        for item in staged:  # the precondition, once more, right before anything is replaced
            if _sha_now(item.dir_fd, item.name) != item.plan.before_sha:
                raise ToolError(
                    STALE,
                    f"{item.plan.place.shown} changed while the write was prepared; nothing was changed",
                    path=item.plan.place.shown,
                )
        for item in staged:
            if item.temp is None:
                os.unlink(item.name, dir_fd=item.dir_fd)
            else:
                os.replace(item.temp, item.name, src_dir_fd=item.dir_fd, dst_dir_fd=item.dir_fd)
                item.temp = None
            replaced.append(item)
    except BaseException:
        _put_back(replaced)
        for item in staged:
            if item.temp is not None:
                _unlink_quietly(item.dir_fd, item.temp)
            for parent_fd, name in reversed(item.made_dirs):
                try:
                    os.rmdir(name, dir_fd=parent_fd)
                except OSError:
                    pass
        _close(staged)
        raise
    # The directories stay open until the caller decides (rollback, if recording fails); they
    # are few (one per file) and closed by whichever of the two functions runs last.
    done = [False]

    def rollback() -> None:
        if not done[0]:
            done[0] = True
            _put_back(replaced)
            _close(staged)

    def finish() -> None:
        if not done[0]:
            done[0] = True
            _close(staged)

    rollback.finish = finish  # type: ignore[attr-defined]
    return rollback


def _put_back(items: list[_Staged]) -> None:
    for item in reversed(items):
        plan = item.plan
        try:
            if plan.before is None:
                _unlink_quietly(item.dir_fd, item.name)
            else:
                temp = _temp_file(item.dir_fd, item.name, plan.before, plan.mode, plan.owner)
                os.replace(temp, item.name, src_dir_fd=item.dir_fd, dst_dir_fd=item.dir_fd)
        except OSError:
            pass  # nothing better to do: the caller reports the original failure


def _close(items: list[_Staged]) -> None:
    seen = set()
    for item in items:
        for fd in (item.dir_fd, *(p for p, _ in item.made_dirs)):
            if fd not in seen:
                seen.add(fd)
                try:
                    os.close(fd)
                except OSError:
                    pass


def _unlink_quietly(dir_fd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        pass


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


def _parent(place: Place, create: bool) -> tuple[int, list[tuple[int, str]]]:
    """A descriptor of ``place``'s directory, checked to lie in its root; with ``create``, missing
    directories are made one by one, each under a checked descriptor."""
    parts = place.rel.split("/")[:-1]
    fd = os.open(place.root, _DIR_FLAGS)
    made: list[tuple[int, str]] = []
    try:
        for part in parts:
            try:
                child = os.open(part, _DIR_FLAGS | getattr(os, "O_NOFOLLOW", 0), dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise ToolError(NOT_FOUND, f"{place.shown} does not exist", path=place.shown) from None
                os.mkdir(part, 0o777, dir_fd=fd)
                made.append((os.dup(fd), part))
                child = os.open(part, _DIR_FLAGS | getattr(os, "O_NOFOLLOW", 0), dir_fd=fd)
            except OSError as exc:  # ELOOP: a directory became a link since the path was resolved
                raise ToolError(
                    OUTSIDE_WORKSPACE if exc.errno == 40 else BAD_ARGUMENT,
                    f"{place.shown}: {exc.strerror}; nothing was changed",
                    path=place.shown,
                ) from None
            os.close(fd)
            fd = child
        if os.path.isdir(_PROC_FD) and not inside(place.root, os.readlink(f"{_PROC_FD}/{fd}")):
            raise ToolError(OUTSIDE_WORKSPACE, f"{place.shown} leads outside its root; nothing was changed")
        return fd, made
    except BaseException:
        os.close(fd)
        for parent_fd, name in reversed(made):
            try:
                os.rmdir(name, dir_fd=parent_fd)
            except OSError:
                pass
            os.close(parent_fd)
        raise


def _temp_file(dir_fd: int, name: str, data: bytes, mode: int | None, owner: tuple[int, int] | None) -> str:
    temp = f".{name[:100]}.codecairn-{secrets.token_hex(6)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(temp, flags, 0o600, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if mode is None:  # a new file gets what the user's umask gives any new file
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        if owner is not None and owner != (os.geteuid(), os.getegid()):
            try:
                os.fchown(fd, *owner)
            except OSError:
                pass  # not allowed: the file keeps its content and mode, owned by this user
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        _unlink_quietly(dir_fd, temp)
        raise
    os.close(fd)
    return temp


def _sha_now(dir_fd: int, name: str) -> str:
    """The sha256 of ``name`` in ``dir_fd`` now ("" when it does not exist; "link" when it became one)."""
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0), dir_fd=dir_fd)
    except FileNotFoundError:
        return ""
    except OSError:
        return "unreadable"
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "not a regular file"
        sha = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            sha.update(chunk)
        return sha.hexdigest()
    finally:
        os.close(fd)
