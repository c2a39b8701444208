"""A pytest plugin for testing codecairn and its plugins on real code.

Load it from the ``conftest.py`` at the root of your tests (pytest reads ``pytest_plugins`` only
there)::

    pytest_plugins = ["codecairn.testing"]

It is not loaded by merely installing codecairn: other projects' test runs stay as they were.

Fixtures (every one real: the installed plugins, real grammars, real SQLite, real ctags):

``codecairn_host``   the installed plugins, loaded as the server loads them (session).
``extract_source``   ``extract_source(code, path, language=None) -> FileFacts``: parse and extract a
                     snippet with the installed language that claims ``path`` (or the one named).
``source_tree``      a temporary directory a test writes small files into: ``.write({path: code})``,
                     ``.facts()`` (each file extracted), ``.index()`` (indexed by a real workspace:
                     ``.callees(name)``, ``.bases(name)``, ``.symbol(name)``, ``.call(tool, **args)``).
``source_trees``     ``source_trees(name) -> SourceTree``: trees the tests of one module share.
``corpus``           ``corpus(name, tier="small") -> Path`` of a fetched real corpus; a missing one
                     fails the test with the command that fetches it.
``corpus_facts``     ``corpus_facts(name, languages=None) -> {path: FileFacts}``: every file of a
                     corpus extracted, once per session however many tests ask.
``ctags_agreement``  ``ctags_agreement(root, facts, CtagsRules(...)) -> Agreement``: the definitions
                     universal-ctags finds there, and how many of them the extractor found too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from codecairn.testing.corpora import corpus_path
from codecairn.testing.ctags import INSTALL, Agreement, CtagsRules, compare
from codecairn.testing.sources import IndexedTree, SourceExtractor, SourceTree

if TYPE_CHECKING:
    from codecairn.host import PluginHost
    from codecairn.model import FileFacts

__all__ = ["Agreement", "CtagsRules", "IndexedTree", "SourceExtractor", "SourceTree"]


@pytest.fixture(scope="session")
def codecairn_host() -> PluginHost:
    """The installed plugins (entry points of the group ``codecairn``), as the server loads them."""
    from codecairn.host import PluginHost

    host = PluginHost()
    if host.failures:
        pytest.fail(f"installed plugins failed to load: {host.failures}")
    return host


@pytest.fixture(scope="session")
def extract_source(codecairn_host: PluginHost) -> SourceExtractor:
    """``extract_source(code, path, language=None) -> FileFacts``. Text is dedented as written in
    the test; the language is the one the host chooses for ``path``, or the installed one named."""
    return SourceExtractor(codecairn_host)


@pytest.fixture
def source_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, codecairn_host: PluginHost, extract_source: SourceExtractor
) -> Iterator[SourceTree]:
    """A directory of the test's own small files (``tmp_path/src``), indexed on demand into a cache
    of its own (``tmp_path/cache``, also ``CODECAIRN_CACHE_DIR`` for the test)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("CODECAIRN_CACHE_DIR", str(cache))
    root = tmp_path / "src"
    root.mkdir()
    tree = SourceTree(root, cache, codecairn_host, extract_source)
    yield tree
    tree.close()


@pytest.fixture(scope="module")
def source_trees(
    tmp_path_factory: pytest.TempPathFactory, codecairn_host: PluginHost, extract_source: SourceExtractor
) -> Iterator[Callable[[str], SourceTree]]:
    """``source_trees(name) -> SourceTree``: a new tree for tests of one module to share (write and
    index it once in a module-scoped fixture of your own); each has a cache of its own, and all
    are closed when the module's tests are done."""
    made: list[SourceTree] = []

    def new(name: str = "src") -> SourceTree:
        base = tmp_path_factory.mktemp(name)
        root = base / "src"
        root.mkdir()
        made.append(SourceTree(root, base / "cache", codecairn_host, extract_source))
        return made[-1]

    yield new
    for tree in made:
        tree.close()


@pytest.fixture(scope="session")
def corpus() -> Callable[..., Path]:
    """``corpus(name, tier="small") -> Path``: the root of a fetched corpus (``scripts/get-corpora.sh``
    names them); a missing one fails the test, naming the command that fetches it."""
    return corpus_path


@pytest.fixture(scope="session")
def corpus_facts(
    extract_source: SourceExtractor,
) -> Callable[..., dict[str, FileFacts]]:
    """``corpus_facts(name, languages=None, *, skip_dirs=(), tier="small") -> {path: FileFacts}``.

    Every file of the corpus that ``languages`` (extension -> language name) names, or that an
    installed language claims when it is None, extracted once per session and shared by every test
    that asks with the same arguments. ``skip_dirs``: directory names left out, as the indexer's
    walker leaves out ``vendor`` or ``target``.
    """
    built: dict[tuple, dict[str, FileFacts]] = {}

    def facts(
        name: str, languages: Mapping[str, str] | None = None, *, skip_dirs: tuple[str, ...] = (), tier: str = "small"
    ) -> dict[str, FileFacts]:
        key = (name, tuple(sorted(languages.items())) if languages else None, tuple(skip_dirs))
        if key not in built:
            root = corpus_path(name, tier)
            found: dict[str, FileFacts] = {}
            for file in sorted(root.rglob("*")):
                rel = file.relative_to(root)
                if set(skip_dirs).intersection(rel.parts[:-1]):
                    continue
                if languages is not None:
                    language = languages.get(file.suffix)
                    if language is None:
                        continue
                else:
                    claimed = extract_source.host.language_for(file.name)
                    if claimed is None:
                        continue
                    language = claimed.name
                if file.is_file():  # some projects have a directory named like a source file
                    path = rel.as_posix()
                    found[path] = extract_source(file.read_bytes(), path, language)
            if not found:
                pytest.fail(f"corpus {name} at {root} has no files for {languages or 'any installed language'}")
            built[key] = found
        return built[key]

    return facts


@pytest.fixture(scope="session")
def ctags_agreement() -> Callable[[Path, Mapping[str, FileFacts], CtagsRules], Agreement]:
    """``ctags_agreement(root, facts, rules) -> Agreement``: runs universal-ctags on ``root`` and
    counts, per ctags kind, the definitions found in ``facts`` too (see :class:`CtagsRules`)."""
    import shutil

    if shutil.which("ctags") is None:
        pytest.fail(INSTALL)
    return compare
