"""Extractors that changed since the index was made. A language plugin bumps ``Language.version``
when its extractor finds something else in the same code (a receiver type it now reads, a symbol
kind it now emits); the facts of that language's files were made by the old one, so the next run
extracts every file of that language again — the files' text did not change, their facts did.
Other languages keep their facts.

What was run is kept in the store's meta (``extractors``: language -> version). An index without
it was made before extractors had versions: by version "1" of each (every language's version
when versions came).
"""

from __future__ import annotations

import json
import logging

from codecairn.hookspecs import Language
from codecairn.index.plan import Plan
from codecairn.index.target import IndexTarget

log = logging.getLogger("codecairn.index")

META_KEY = "extractors"
FIRST_VERSION = "1"


def signatures(languages: dict[str, Language]) -> dict[str, str]:
    """language -> its extractor's version."""
    return {name: lang.version for name, lang in languages.items()}


async def changed(target: IndexTarget) -> tuple[set[str], dict[str, str]]:
    """The languages whose extractor is not the one the index was made with, and the current versions."""
    current = signatures(target.languages)
    raw = await target.store.get_meta(META_KEY)
    stored = json.loads(raw) if raw is not None else {name: FIRST_VERSION for name in current}
    # A language that is gone has no files left to extract; one that came has none extracted yet.
    return {name for name, version in current.items() if stored.get(name, version) != version}, current


def add_stale(target: IndexTarget, todo: Plan, languages: set[str]) -> int:
    """Add to ``todo`` (as changed: parsed again) every indexed file of ``languages`` it does not
    hold yet. Returns how many."""
    added = todo.extract_again(f for f in target.state.files_by_path.values() if f.language in languages)
    if added:
        log.info("extractors changed for %s: %d file(s) extracted again", ", ".join(sorted(languages)), added)
    return added
