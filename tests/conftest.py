"""Fixtures shared by the cross-package tests; the helpers live in realcode.py."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from realcode import copy_stdlib


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(d))
    return d


@pytest.fixture
def stdlib_part(tmp_path: Path) -> Path:
    """json, http, email, urllib, logging and a few modules: ~80 files of real Python."""
    root = tmp_path / "stdlib"
    root.mkdir()
    return copy_stdlib(root, ("json", "http", "email", "urllib", "logging", "argparse", "textwrap", "shlex"))


@pytest.fixture(scope="session")
def codecairn_exe() -> str:
    exe = Path(sys.executable).parent / "codecairn"
    if not exe.exists():
        found = shutil.which("codecairn")
        if not found:
            pytest.fail(
                "the codecairn command is not installed in this environment: pip install ./core ./plugins/python"
            )
        return found
    return str(exe)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
