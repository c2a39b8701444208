"""The root of every test run in this repository (tests, plugins, grammars, benchmarks)."""

# codecairn's own pytest plugin: real corpora, snippets and small trees extracted or indexed by the
# installed plugins, ctags agreement (docs/plugins.md, "Testing a plugin"). pytest reads
# `pytest_plugins` only in the root conftest.
pytest_plugins = ["codecairn.testing"]
