"""Route detectors that changed since the index was made: a detector of a new version, one added
by a plugin, one gone with its plugin. Their routes and HTTP calls are facts of the files they
were found in, so those files are extracted again on the next run — only those: files of the
languages whose detectors changed that had routes or calls, or whose text holds a marker of a
detector they now have (``RouteDetector.markers``). Everything else keeps its facts.

What was run is kept in the store's meta (``route_detectors``: language -> "name@version,...");
an index without it (a first index, cancelled; one made before detectors had versions) is taken
as made by the detectors there are now.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os

from codecairn.extractors.routes import WithRoutes
from codecairn.hookspecs import Language
from codecairn.index.plan import Plan
from codecairn.index.target import IndexTarget
from codecairn.model import HTTP_CALLS
from codecairn.store import graph as graph_reads

log = logging.getLogger("codecairn.index")

META_KEY = "route_detectors"


def signatures(languages: dict[str, Language]) -> dict[str, str]:
    """language -> the detectors that run on it, with their versions."""
    out = {}
    for name, lang in languages.items():
        if isinstance(lang.extractor, WithRoutes):
            out[name] = ",".join(sorted(f"{d.name}@{d.version}" for d in lang.extractor.detectors))
    return out


def _markers(lang: Language | None) -> tuple[bytes, ...] | None:
    """Text a file of ``lang`` must hold for one of its detectors to find anything; None: any file."""
    if lang is None or not isinstance(lang.extractor, WithRoutes):
        return ()
    found: list[bytes] = []
    for d in lang.extractor.detectors:
        if not d.markers:
            return None
        found.extend(d.markers)
    return tuple(found)


async def changed(target: IndexTarget) -> tuple[set[str], dict[str, str]]:
    """The languages whose detectors are not those the index was made with, and the current ones."""
    current = signatures(target.languages)
    raw = await target.store.get_meta(META_KEY)
    if raw is None:
        # A first index parses every file anyway; an index made before detectors had versions was
        # made by version 1 of those there are (every detector's version when they came).
        return set(), current
    stored = json.loads(raw)
    return {lang for lang in set(stored) | set(current) if stored.get(lang) != current.get(lang)}, current


async def add_stale(target: IndexTarget, todo: Plan, languages: set[str]) -> int:
    """Add to ``todo`` (as changed: parsed again) the indexed files whose routes ``languages``'
    changed detectors may find differently. Returns how many."""
    state = target.state
    planned = {job[0] for job in todo.jobs} | set(todo.deleted)
    candidates = [f for p, f in state.files_by_path.items() if f.language in languages and p not in planned]
    if not candidates:
        return 0
    await state.ensure_symbols(target.store)
    found_before = {s.file_id for s in state.symbols.rows.values() if s.kind == "route"}
    found_before |= await graph_reads.files_with_edges(target.store, HTTP_CALLS)
    markers = {lang: _markers(target.languages.get(lang)) for lang in languages}
    root = target.root_real

    def stale() -> list:
        out = []
        for f in candidates:
            wanted = markers.get(f.language)
            if f.id in found_before or wanted is None:
                out.append(f)
                continue
            if not wanted:
                continue
            try:
                with open(os.path.join(root, f.path), "rb") as handle:
                    data = handle.read()
            except OSError:  # gone or unreadable now: the walk decides next time
                continue
            if any(m in data for m in wanted):
                out.append(f)
        return out

    added = todo.extract_again(await asyncio.to_thread(stale))
    if added:
        log.info("route detectors changed for %s: %d file(s) extracted again", ", ".join(sorted(languages)), added)
    return added
