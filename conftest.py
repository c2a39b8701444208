"""The root of every test run in this repository (tests, plugins, grammars, benchmarks)."""

# codecairn's own pytest plugin: real corpora, snippets and small trees extracted or indexed by the
# installed plugins, ctags agreement (docs/plugins.md, "Testing a plugin"). pytest reads
# `pytest_plugins` only in the root conftest.
pytest_plugins = ["codecairn.testing"]


def pytest_configure(config) -> None:
    """One derived int8 embedding model for the whole run (every worker, every server a test starts:
    they inherit the environment), instead of a 5 s, 500 MB quantisation in each test's fresh
    cache. Safe to share: the file is named by what it was made from and checked on every load."""
    import os
    import tempfile
    from pathlib import Path

    os.environ.setdefault(
        "CODECAIRN_MODELS_DIR", str(Path(tempfile.gettempdir()) / f"codecairn-test-models-{os.getuid()}")
    )
