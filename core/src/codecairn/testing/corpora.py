"""Where the real corpora are, and the one way to ask for one.

The corpora are real third-party projects fetched by ``scripts/test-prerequisites.sh`` (small tier
for tests, large for benchmarks) into ``$CODECAIRN_CORPORA`` (default ``~/.cache/codecairn-corpora``),
each linked under ``c/<name>``. A missing corpus fails the asking test with the command that fetches
it: a test that cannot see its real code must not pass by skipping.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

FETCH = "scripts/test-prerequisites.sh"


def corpora_root() -> Path:
    """The directory holding one link per fetched corpus (``c/`` under ``$CODECAIRN_CORPORA``)."""
    return Path(os.environ.get("CODECAIRN_CORPORA", "~/.cache/codecairn-corpora")).expanduser() / "c"


def corpus_path(name: str, tier: str = "small") -> Path:
    """The root of corpus ``name``; fails the calling test, naming the fetch command, when it is missing."""
    path = corpora_root() / name
    if not path.is_dir():
        pytest.fail(f"corpus {name} is missing at {path}: run `{FETCH} {tier}` (or set CODECAIRN_CORPORA)")
    return path
