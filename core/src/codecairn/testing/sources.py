"""Small real source trees for tests: write a few files, extract them with the installed languages,
or index them with a real workspace and ask its tools.

Nothing here is a stand-in: the languages come from the installed plugins (through a
``PluginHost``, as the server loads them), the index is a real SQLite store in the test's temporary
directory, and the answers are the tools' own (``get_symbol``...), called as the server calls them.
The indexed workspace lives on an event loop of its own, in a background thread, so the same test
reads the same in a plain ``def`` test and in an ``async def`` one.
"""

from __future__ import annotations

import asyncio
import textwrap
import threading
from collections.abc import Awaitable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

if TYPE_CHECKING:
    from codecairn.hookspecs import Language
    from codecairn.host import PluginHost
    from codecairn.model import FileFacts
    from codecairn.workspace import Workspace

T = TypeVar("T")

# Generous: a loaded 2-core machine can be slow; a hung index must still end the test, not the run.
INDEX_TIMEOUT_SECONDS = 300.0
CALL_TIMEOUT_SECONDS = 120.0

# How a call was resolved, as get_symbol labels it; "unresolved" for a call no symbol was found for.
RESOLUTIONS = ("exact", "import", "inherited", "name-only", "unresolved")


def source_bytes(code: str | bytes) -> bytes:
    """Text as a test writes it (indented inside the test, a leading newline) -> the file's bytes.
    Bytes are taken as they are."""
    return code if isinstance(code, bytes) else textwrap.dedent(code).lstrip("\n").encode()


class SourceExtractor:
    """``extract(code, path, language=None) -> FileFacts``: parse ``code`` with the grammar of the
    installed language that claims ``path`` (or the one named) and run its extractor, as a parse
    worker does. Parsers are made once per language."""

    def __init__(self, host: PluginHost) -> None:
        self.host = host
        self._parsers: dict[str, Any] = {}

    def language(self, path: str, language: str | None = None) -> Language:
        """The installed language named ``language``, else the one the host chooses for ``path``."""
        lang = self.host.languages.get(language) if language else self.host.language_for(path)
        if lang is None:
            wanted = f"named {language!r}" if language else f"for {path!r}"
            pytest.fail(
                f"no installed codecairn language {wanted}; installed: {', '.join(sorted(self.host.languages))}"
            )
        return lang

    def parse(self, source: bytes, lang: Language):
        parser = self._parsers.get(lang.name)
        if parser is None:
            import tree_sitter

            grammar = lang.grammar()
            if not isinstance(grammar, tree_sitter.Language):
                grammar = tree_sitter.Language(grammar)
            parser = self._parsers[lang.name] = tree_sitter.Parser(grammar)
        return parser.parse(source)

    def __call__(self, code: str | bytes, path: str, language: str | None = None) -> FileFacts:
        source = source_bytes(code)
        lang = self.language(path, language)
        return lang.extractor(source, self.parse(source, lang), path)


class _LoopThread:
    """An event loop in a daemon thread: coroutines are sent to it and waited for, with a bound."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="codecairn-testing-loop", daemon=True)
        self.thread.start()

    def run(self, awaitable: Awaitable[T], timeout: float, what: str) -> T:
        async def awaited() -> T:
            return await awaitable

        future = asyncio.run_coroutine_threadsafe(awaited(), self.loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            future.cancel()
            pytest.fail(f"{what} did not finish within {timeout:g} s")

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        if not self.thread.is_alive():
            self.loop.close()


class IndexedTree:
    """A source tree indexed by a real workspace; its questions are answered by the tools.

    ``call(tool, **arguments)`` is any tool's answer (arguments checked against its schema, as the
    server checks them); ``symbol``, ``callees`` and ``bases`` read ``get_symbol``'s answer.
    """

    def __init__(self, workspace: Workspace, loop: _LoopThread, summary: Any) -> None:
        self.workspace = workspace
        self.summary = summary  # what the index run reported (files, symbols, failures...)
        self._loop = loop

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """The tool's answer; a tool error fails the test with the error."""
        import jsonschema

        from codecairn.context import ServedContext
        from codecairn.errors import ToolError

        found = self.workspace.host.tools.get(tool)
        if found is None:
            pytest.fail(f"no tool {tool!r}; the host has {', '.join(sorted(self.workspace.host.tools))}")
        jsonschema.validate(arguments, found.input_schema)
        try:
            return self._loop.run(
                found.handler(ServedContext(self.workspace), arguments), CALL_TIMEOUT_SECONDS, f"tool {tool}"
            )
        except ToolError as error:
            pytest.fail(f"tool {tool}({arguments}) answered an error: {error}")

    def symbol(self, name: str, **where: Any) -> dict[str, Any]:
        """get_symbol's answer for ``name`` (``path=``, ``line=`` to choose among namesakes)."""
        answer = self.call("get_symbol", name=name, **where)
        if answer.get("ambiguous"):
            candidates = [
                (self._qualified(path, c["name"]), path, c["lines"])
                for path, entries in answer["candidates"].items()
                for c in entries
            ]
            pytest.fail(f"{name!r} names several symbols: {candidates}; pass path= or line=")
        return answer

    def _qualified(self, path: str, name: str) -> str:
        """A name as an answer shows it inside its file's group (relative to the file's module)
        back to the qualified name it stands for."""
        state = self.workspace.state
        file = state.files_by_path.get(path)
        if file is None or not file.module:
            return name
        language = self.workspace.host.languages.get(file.language)
        separator = language.resolution.separator if language is not None else "."
        qualified = f"{file.module}{separator}{name}"
        return qualified if qualified in state.symbols.by_qn or name not in state.symbols.by_qn else name

    def _places(self, groups: dict[str, Any], caller: str, label_of: Any) -> dict[str, str]:
        out: dict[str, str] = {}
        for group, by_path in groups.items():
            if group in ("unresolved", "external"):  # names: as written, or the dotted name outside
                for listed in by_path:
                    _label(out, listed, group, caller)
                continue
            for path, names in by_path.items():
                for shown in names:
                    _label(out, self._qualified(path, shown), label_of(group), caller)
        return out

    def callees(self, name: str, **where: Any) -> dict[str, str]:
        """What the symbol calls: the callee's qualified name -> how the call was resolved
        (``exact``, ``import``, ``inherited``, ``name-only``, ``flow``), each dotted name a call out
        of the index reaches -> ``external``, and each name no symbol was found for -> ``unresolved``. A callee reached with two different labels fails the test: put the
        calls in two functions to ask about each."""
        answer = self.symbol(name, **where)
        if answer.get("callees_complete") is False:
            pytest.fail(f"{name} has more callees than one answer holds: ask about a smaller function")
        return self._places(answer.get("callees", {}), name, lambda group: group)

    def bases(self, name: str, **where: Any) -> dict[str, str]:
        """The supertypes the symbol's extends/implements clauses name: qualified name -> how it was
        resolved; a base outside the index the language names -> ``external`` (``builtins.dict``);
        one no symbol was found for -> ``unresolved`` (under the name as written)."""
        # get_symbol labels bases "extends", "implements (import)": the kind, then the resolution
        # unless exact.
        return self._places(
            self.symbol(name, **where).get("bases", {}),
            name,
            lambda group: group.split(" (", 1)[1].rstrip(")") if " (" in group else "exact",
        )


def _label(out: dict[str, str], target: str, label: str, caller: str) -> None:
    if out.setdefault(target, label) != label:
        pytest.fail(f"{caller} reaches {target} both as {out[target]!r} and as {label!r}: ask about one call")


class SourceTree:
    """A directory of small source files for one test, written by the test.

    ``write({"pkg/a.py": "...", ...})`` (text is dedented, as in the test); ``facts()`` extracts every
    written file with the installed languages; ``index()`` indexes the directory with a real
    workspace and returns an :class:`IndexedTree` to ask questions. The workspace is closed when the
    test ends.
    """

    def __init__(self, root: Path, cache_dir: Path, host: PluginHost, extractor: SourceExtractor) -> None:
        self.root = root
        self.cache_dir = cache_dir
        self.host = host
        self.extract = extractor
        self.written: dict[str, bytes] = {}
        self._loop: _LoopThread | None = None
        self._workspace: Workspace | None = None

    def write(self, files: Mapping[str, str | bytes]) -> SourceTree:
        for rel, code in files.items():
            data = source_bytes(code)
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            self.written[rel] = data
        return self

    def facts(self, language: str | None = None) -> dict[str, FileFacts]:
        """path -> the facts its language's extractor gives, for every written file a language
        claims (or every written file, extracted as ``language``)."""
        return {
            rel: self.extract(data, rel, language)
            for rel, data in self.written.items()
            if language or self.host.language_for(rel) is not None
        }

    def index(self) -> IndexedTree:
        """Index the tree with a real workspace (opened on first use; indexed again after more
        writes, as the server's ``index`` tool would); the run's own summary is ``.summary``."""
        from codecairn.workspace import Workspace

        if self._loop is None:
            self._loop = _LoopThread()
        loop = self._loop

        async def open_and_index() -> tuple[Workspace, Any]:
            if self._workspace is None:
                self._workspace = await Workspace.open(self.root, self.host, cache_dir=self.cache_dir)
            return self._workspace, await self._workspace.index_now()

        workspace, summary = loop.run(open_and_index(), INDEX_TIMEOUT_SECONDS, f"indexing {self.root}")
        return IndexedTree(workspace, loop, summary)

    def close(self) -> None:
        if self._loop is None:
            return
        try:
            if self._workspace is not None:
                self._loop.run(self._workspace.close(), CALL_TIMEOUT_SECONDS, "closing the workspace")
        finally:
            self._workspace = None
            self._loop.stop()
            self._loop = None
