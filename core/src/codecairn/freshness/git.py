"""The only subprocess freshness runs: ``git``, for the polling fallback — and for what a change
touched (``diff``, ``ls-files``: the ``impact`` tool's changed lines).

Allowlisted (program and subcommands), never through a shell, with a timeout; killed on timeout,
on cancellation and when the server exits (codecairn.subprocesses). ``GIT_OPTIONAL_LOCKS=0``: a
poller must never take ``index.lock`` and make the user's own ``git commit`` fail with "another git
process seems to be running".
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from codecairn import subprocesses

ALLOWED_SUBCOMMANDS = frozenset({"rev-parse", "status", "diff", "ls-files"})
TIMEOUT_SECONDS = 10.0
# A revision as an agent may name one: a ref, a hash, HEAD~2, v1.2^, main@{1}. Never an option.
REVISION = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./~^@{}+-]{0,199}$")


class GitUnavailable(Exception):
    """git is not installed, timed out, or the root is not in a work tree."""


async def run_git(cwd: Path, *args: str, timeout: float = TIMEOUT_SECONDS) -> bytes:
    """stdout of ``git ARGS`` run in ``cwd``; raises GitUnavailable when it fails."""
    if not args or args[0] not in ALLOWED_SUBCOMMANDS:
        raise ValueError(f"git {args[:1]} is not allowed here")
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    try:
        # subprocesses.run: allowlisted, an argument vector, killed on timeout and cancellation
        done = await subprocesses.run("git", ["--no-optional-locks", *args], cwd, timeout, env)
    except subprocesses.ProgramUnavailable as exc:  # not installed, the root went away, too slow
        raise GitUnavailable(str(exc)) from None
    if done.returncode != 0:
        raise GitUnavailable(f"git {args[0]} failed: {done.stderr.decode(errors='replace').strip()[:200]}")
    return done.stdout


@dataclass(frozen=True)
class GitState:
    """What git says about the work tree under a root: HEAD, and the dirty paths (root-relative)."""

    head: str
    dirty: frozenset[str]


class GitTree:
    def __init__(self, root: Path, prefix: str) -> None:
        self.root = root
        self.prefix = prefix  # the root's path inside the repository ('' when it is the top)

    @classmethod
    async def find(cls, root: Path) -> GitTree | None:
        """The work tree containing ``root``, or None (not a repository, or no git)."""
        try:
            out = await run_git(root, "rev-parse", "--is-inside-work-tree", "--show-prefix")
        except GitUnavailable:
            return None
        lines = out.decode(errors="surrogateescape").splitlines()
        if not lines or lines[0].strip() != "true":
            return None
        prefix = lines[1].strip() if len(lines) > 1 else ""
        return cls(root, prefix.rstrip("/"))

    async def state(self) -> GitState:
        try:
            head = (await run_git(self.root, "rev-parse", "-q", "--verify", "HEAD")).decode().strip()
        except GitUnavailable:
            head = ""  # a repository without commits yet
        out = await run_git(
            self.root,
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--no-renames",
            "--ignore-submodules=all",
            "--",
            ".",
        )
        dirty = set()
        # Porcelain paths are relative to the repository's top, whatever the cwd.
        for entry in out.split(b"\0"):
            if len(entry) < 4:
                continue
            path = entry[3:].decode(errors="surrogateescape")
            if self.prefix:
                if not path.startswith(self.prefix + "/"):
                    continue
                path = path[len(self.prefix) + 1 :]
            dirty.add(path.rstrip("/"))
        return GitState(head, frozenset(dirty))


def valid_revision(text: str) -> bool:
    return bool(REVISION.match(text)) and ".." not in text


async def diff(root: Path, base: str | None, head: str | None, untracked: bool = True) -> tuple[bytes, list[str]]:
    """``git diff --unified=0`` of the work tree under ``root`` against ``base`` (default HEAD), or
    between two revisions; paths relative to ``root``. With no ``head`` (the work tree) and ``untracked``, also the
    untracked files (``ls-files --others``), which a diff does not show. Revisions must be
    valid_revision (checked here too: nothing an agent writes reaches git as an option)."""
    for rev in (base, head):
        if rev is not None and not valid_revision(rev):
            raise ValueError(f"not a revision: {rev[:40]!r}")
    revs = [base or "HEAD", *([head] if head else [])]
    out = await run_git(
        root, "diff", "--no-color", "--no-ext-diff", "--unified=0", "--relative", "--find-renames", *revs, "--", "."
    )
    others: list[str] = []
    if head is None and untracked:
        listed = await run_git(root, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
        others = [p.decode(errors="surrogateescape") for p in listed.split(b"\0") if p]
    return out, others
