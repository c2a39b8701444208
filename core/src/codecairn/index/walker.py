"""Walk a root the way a developer would expect: .gitignore rules (nested ones too), the usual
vendor and build directories left out, symlinks never followed out of the root. A directory it
cannot read is not an empty one: the walk names it (``unreadable``) so that nothing indexed under
it is taken for deleted.

Only stats files here; reading (binary detection, hashing) happens in the parse workers.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

import pathspec

from codecairn.hookspecs import Language
from codecairn.paths import read_confined

DEFAULT_EXCLUDED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "bower_components",
        "__pycache__",
        ".venv",
        "venv",
        "build",
        "dist",
        "target",
        "vendor",
        "third_party",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".idea",
        ".gradle",
        ".eggs",
        ".codecairn",
        ".pc",  # .pc: quilt patch copies
    }
)
GONE_ERRNOS = frozenset({errno.ENOENT, errno.ENOTDIR})  # absence; anything else is "cannot tell now"
MAX_FILE_BYTES_ENV = "CODECAIRN_MAX_FILE_BYTES"
DEFAULT_MAX_FILE_BYTES = 4 * 1024 * 1024  # TypeScript's checker.ts is 2.8 MB of real code
GITIGNORE_MAX_BYTES = 1 << 20


def max_file_bytes() -> int:
    try:
        return int(os.environ.get(MAX_FILE_BYTES_ENV, DEFAULT_MAX_FILE_BYTES))
    except ValueError:
        return DEFAULT_MAX_FILE_BYTES


@dataclass(slots=True)
class WalkedFile:
    path: str  # root-relative, '/' separated
    language: str
    size: int
    mtime_ns: int


@dataclass
class WalkResult:
    files: list[WalkedFile] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # reason -> count
    examples: dict[str, list[str]] = field(default_factory=dict)
    # Directories that could not be listed and entries that could not be stat'ed ("" is the root):
    # what is under them is unknown, not gone — an index keeps what it knew of them.
    unreadable: list[str] = field(default_factory=list)
    root_error: str = ""  # why the root itself could not be listed

    def skip(self, reason: str, path: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1
        sample = self.examples.setdefault(reason, [])
        if len(sample) < 5:
            sample.append(path)

    def hides(self, path: str) -> bool:
        """Is ``path`` (root-relative) unreadable itself, or under an unreadable directory?"""
        return any(u == "" or path == u or path.startswith(u + "/") for u in self.unreadable)


def _ignore_spec(root: str, rel_dir: str) -> pathspec.PathSpec | None:
    try:  # confined like every file read: a .gitignore linked out of the root is not ours to read
        data = read_confined(root, f"{rel_dir}/.gitignore" if rel_dir else ".gitignore", GITIGNORE_MAX_BYTES)
    except OSError:
        return None
    lines = data.decode("utf-8", "replace").splitlines()
    return pathspec.GitIgnoreSpec.from_lines(lines) if any(l.strip() and not l.startswith("#") for l in lines) else None


def walk(
    root: str,
    language_for: Callable[[str], Language | None],
    *,
    limit_bytes: int | None = None,
    exclude: pathspec.PathSpec | None = None,
) -> WalkResult:
    """Every indexable file under ``root`` with its language name (``language_for(path).name``).
    ``exclude``: the project's own excludes (its configuration), matched from ``root`` like a
    .gitignore there."""
    limit = max_file_bytes() if limit_bytes is None else limit_bytes
    result = WalkResult()
    root = os.path.realpath(root)
    # Stack of (absolute dir, relative dir, [(spec, spec_base_rel)] in force)
    stack: list[tuple[str, str, tuple]] = [(root, "", ((exclude, ""),) if exclude is not None else ())]
    while stack:
        abs_dir, rel_dir, specs = stack.pop()
        own = _ignore_spec(root, rel_dir)
        if own is not None:
            specs = specs + ((own, rel_dir),)
        try:
            entries = sorted(os.scandir(abs_dir), key=lambda e: e.name)
        except OSError as exc:
            if exc.errno in GONE_ERRNOS and rel_dir:
                continue  # removed while walking: gone, its files with it
            result.skip(f"unreadable directory ({exc.strerror or exc})", rel_dir or ".")
            result.unreadable.append(rel_dir)
            if not rel_dir:
                result.root_error = exc.strerror or str(exc)
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError as exc:
                if exc.errno not in GONE_ERRNOS:
                    result.skip("unreadable", rel)
                    result.unreadable.append(rel)
                continue
            is_link = stat.S_ISLNK(st.st_mode)
            if is_link:
                # Never follow a link out of the root or into a loop; a link to a file inside the
                # root is indexed under the link's own path only if the target is a regular file.
                target = os.path.realpath(entry.path)
                if not (target == root or target.startswith(root + os.sep)):
                    result.skip("symlink outside the root", rel)
                    continue
                try:
                    st = os.stat(target)
                except OSError:
                    result.skip("broken symlink", rel)
                    continue
                if stat.S_ISDIR(st.st_mode):
                    result.skip("symlinked directory (not followed)", rel)
                    continue
            if stat.S_ISDIR(st.st_mode):
                if entry.name in DEFAULT_EXCLUDED_DIRS or _ignored(specs, rel, True):
                    continue
                stack.append((entry.path, rel, specs))
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            language = language_for(entry.name)
            if language is None:
                continue
            if _ignored(specs, rel, False):
                continue
            if st.st_size > limit:
                result.skip(f"larger than {limit} bytes", rel)
                continue
            result.files.append(WalkedFile(rel, language.name, st.st_size, st.st_mtime_ns))
    result.files.sort(key=lambda f: f.path)
    return result


def _ignored(specs: tuple, rel: str, is_dir: bool) -> bool:
    for spec, base in specs:
        sub = rel[len(base) + 1 :] if base else rel
        if spec.match_file(sub + "/" if is_dir else sub):
            return True
    return False
