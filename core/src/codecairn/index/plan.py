"""What a run must do: the files to parse (with their walked size and mtime, and the hash they
were indexed with, so an unchanged content is not parsed again), the files that are gone, and
whether the change is too large or too unclear for the narrow path.

Two planners: ``plan_walk`` compares a whole walk with the state (a full ``index``),
``plan_paths`` decides by stat alone what a few named paths need (the watcher's events, the files
an edit wrote).
"""

from __future__ import annotations

import logging
import os
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from codecairn.index.rules import WalkRules
from codecairn.index.state import IndexState
from codecairn.index.walker import WalkResult, max_file_bytes, walk
from codecairn.model import IndexedFile

log = logging.getLogger("codecairn.index")

GONE = (FileNotFoundError, NotADirectoryError)
# This many changed files or fewer: re-indexed the narrow way (index/narrow.py), without the
# process pool and resolving only what the change can have moved; more, the full pipeline.
NARROW_LIMIT = 12


@dataclass
class Plan:
    jobs: list[tuple[str, str, str | None]] = field(default_factory=list)  # (path, language, old hash)
    stats: dict[str, tuple[int, int]] = field(default_factory=dict)  # path -> (size, mtime_ns)
    deleted: dict[str, int] = field(default_factory=dict)  # path -> file id
    unchanged: int = 0
    full_run: str = ""  # why a full run is needed
    seconds: float = 0.0

    def extract_again(self, files: Iterable[IndexedFile]) -> int:
        """Plan indexed files to be parsed again though their text is unchanged (what extracts
        their facts changed), except those already planned. Returns how many were added."""
        planned = {job[0] for job in self.jobs} | set(self.deleted)
        added = 0
        for f in files:
            if f.path not in planned:
                self.jobs.append((f.path, f.language, None))  # no old hash: parsed whatever its hash
                self.stats[f.path] = (f.size, f.mtime_ns)
                added += 1
        return added


def plan_paths(state: IndexState, rules: WalkRules, paths: Iterable[str]) -> Plan:
    """Decide, by stat alone, what each named path needs (the watcher's events, an edit's files).
    Runs in a thread."""
    started = time.perf_counter()
    out = Plan()
    root = state.root_real
    limit = rules.max_file_bytes if rules.max_file_bytes is not None else max_file_bytes()
    known = state.files_by_path
    candidates: dict[str, tuple[int, int]] = {}  # path -> (size, mtime_ns)

    def forget_under(prefix: str) -> None:
        for p, state in list(known.items()):
            if p.startswith(prefix + "/"):
                out.deleted[p] = state.id

    for rel in sorted(set(paths)):
        if not rel or rel.rsplit("/", 1)[-1] == ".gitignore":
            rules.forget_ignore_files()
            out.full_run = "ignore rules changed"
            return out
        if rules.inside_ignored_dir(rel):
            continue
        full = os.path.join(root, rel)
        try:
            st = os.lstat(full)
        except GONE:
            if rel in known:
                out.deleted[rel] = known[rel].id
            forget_under(rel)  # a directory that went away (or was renamed: its new name is another event)
            continue
        except OSError as exc:  # unreadable now: keep what we know, the next run decides
            log.info("cannot stat %s (%s); keeping its previous state", rel, exc.strerror or exc)
            continue
        if stat.S_ISLNK(st.st_mode):
            target = os.path.realpath(full)
            try:
                followed: os.stat_result | None = os.stat(target)
            except OSError:
                followed = None
            if followed is None or not target.startswith(root + os.sep) or not stat.S_ISREG(followed.st_mode):
                if rel in known:  # the walker would not index it (any more)
                    out.deleted[rel] = known[rel].id
                continue
            st = followed
        if stat.S_ISDIR(st.st_mode):
            if rules.ignored(rel, is_dir=True):
                continue
            # A directory appeared (mkdir, or moved in): files created in it before its watch
            # existed produce no events of their own, so look inside.
            sub = walk(full, rules.language_for, limit_bytes=limit)
            seen = set()
            for f in sub.files:
                path = f"{rel}/{f.path}"
                if not rules.ignored(path, is_dir=False):
                    seen.add(path)
                    candidates[path] = (f.size, f.mtime_ns)
            for p, indexed in known.items():
                # Not found under a directory it could not read is not gone: kept as it was.
                if p.startswith(rel + "/") and p not in seen and not sub.hides(p[len(rel) + 1 :]):
                    out.deleted[p] = indexed.id
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        if rules.language(rel) is None or rules.ignored(rel, is_dir=False) or st.st_size > limit:
            if rel in known:
                out.deleted[rel] = known[rel].id
            continue
        candidates[rel] = (st.st_size, st.st_mtime_ns)
    for rel, (size, mtime) in candidates.items():
        language = rules.language(rel)
        if language is None:
            continue
        old: IndexedFile | None = known.get(rel)
        if old is not None and old.language == language and old.size == size and old.mtime_ns == mtime:
            out.unchanged += 1
            continue
        out.jobs.append((rel, language, old.hash if old is not None and old.language == language else None))
        out.stats[rel] = (size, mtime)
    if len(out.jobs) + len(out.deleted) > NARROW_LIMIT:
        out.full_run = f"{len(out.jobs) + len(out.deleted)} files changed"
    out.seconds = time.perf_counter() - started
    return out


def plan_walk(state: IndexState, walked: WalkResult) -> Plan:
    """Compare a walk with the state (which mirrors the files table): what changed, by stat."""
    out = Plan()
    indexed = state.files_by_path
    seen = set()
    for f in walked.files:
        seen.add(f.path)
        old = indexed.get(f.path)
        if old is not None and old.language == f.language and old.size == f.size and old.mtime_ns == f.mtime_ns:
            out.unchanged += 1
            continue
        out.jobs.append((f.path, f.language, old.hash if old is not None and old.language == f.language else None))
        out.stats[f.path] = (f.size, f.mtime_ns)
    # Not walked is not gone: what is under a directory that could not be read is kept as it was.
    out.deleted = {path: s.id for path, s in indexed.items() if path not in seen and not walked.hides(path)}
    return out
