"""Grammar packs: a tree-sitter grammar package and a tags query, declared as a codecairn language.

:func:`grammar_pack` loads the grammar, finds the query the grammar package ships (``tags.scm``),
appends the pack's own queries, checks that they compile — a broken pack fails when the host loads
it, naming the query file, line and column — and returns a ``Language`` whose extractor is the
generic :class:`codecairn.extractors.tags.TagsExtractor`.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from typing import Any

from tree_sitter import Language as TSLanguage
from tree_sitter import Query, QueryError

from codecairn.extractors import query_check
from codecairn.extractors.tags import TagsExtractor, TreeRepair

_ROW_COL = re.compile(r"row (\d+), column (\d+)")


class GrammarPackError(Exception):
    """A grammar pack cannot be loaded: its grammar or one of its query files is broken."""


class GrammarLoader:
    """``Language.grammar`` for a grammar package: picklable, imports the package when called."""

    def __init__(self, module: str, function: str = "language") -> None:
        self.module = module
        self.function = function

    def __call__(self):
        return getattr(importlib.import_module(self.module), self.function)()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GrammarLoader) and (self.module, self.function) == (other.module, other.function)

    def __hash__(self) -> int:
        return hash((self.module, self.function))

    def __repr__(self) -> str:
        return f"GrammarLoader({self.module!r}, {self.function!r})"


def bundled_tags(module: str) -> tuple[str, str] | None:
    """(label, text) of the ``tags.scm`` a grammar package ships, or None.

    Looked for as the module's ``TAGS_QUERY``, then ``<package>/queries/tags.scm``, then any
    ``queries/tags.scm`` among the distribution's files (tree-sitter-c-sharp 0.23 installs it
    beside the package, where its own ``TAGS_QUERY`` cannot find it).
    """
    import importlib.metadata  # here, not at the top: see grammar_pack
    import importlib.resources

    mod = importlib.import_module(module)
    text = getattr(mod, "TAGS_QUERY", None)
    if text:
        return f"{module}.TAGS_QUERY", text
    try:
        candidate = importlib.resources.files(module) / "queries" / "tags.scm"
        if candidate.is_file():
            return f"{module}/queries/tags.scm", candidate.read_text(encoding="utf-8")
    except (ModuleNotFoundError, TypeError):
        pass
    top = module.split(".")[0]
    try:  # the usual naming (tree_sitter_c_sharp → tree-sitter-c-sharp) saves scanning every distribution
        dists = [importlib.metadata.distribution(top.replace("_", "-"))]
    except importlib.metadata.PackageNotFoundError:
        dists = [importlib.metadata.distribution(n) for n in importlib.metadata.packages_distributions().get(top, ())]
    for dist in dists:
        for file in dist.files or ():
            if str(file).endswith("queries/tags.scm"):
                # A pathlib.Path for an installed distribution (typeshed only promises a SimplePath).
                return str(file), dist.locate_file(file).read_text(encoding="utf-8")  # type: ignore[call-arg]
    return None


def _read(query) -> tuple[str, str]:
    """A pack query given as text or as a file (Path / importlib.resources Traversable)."""
    if isinstance(query, str):
        return "<query text>", query
    return str(query), query.read_text(encoding="utf-8")


def _query_error(pack: str, parts: list[tuple[str, str]], language: TSLanguage, error: QueryError) -> GrammarPackError:
    for label, text in parts:
        try:
            Query(language, text)
        except QueryError as own:
            message = str(own)
            where = _ROW_COL.search(message)
            if where:
                row, col = int(where.group(1)), int(where.group(2))
                reason = message.split(": ", 1)[-1] if ": " in message else message
                detail = f"{message[: where.start()].strip()} at line {row + 1}, column {col + 1}: {reason}"
            else:
                detail = message
            return GrammarPackError(f"grammar pack {pack!r}: query {label} does not compile: {detail}")
    return GrammarPackError(f"grammar pack {pack!r}: its queries do not compile together: {error}")


def _marker(name: str, source: str):
    """Compiling a pack's queries costs up to 0.6 s; every CLI start would pay it. A query text that
    compiled once with this tree-sitter is remembered in the cache directory and not checked again."""
    import hashlib
    import os
    from pathlib import Path

    import tree_sitter

    base = os.environ.get("CODECAIRN_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "codecairn"
    )
    version = getattr(tree_sitter, "__version__", "") or str(tree_sitter.LANGUAGE_VERSION)
    digest = hashlib.blake2b(f"{version}\0{name}\0{source}".encode(), digest_size=12).hexdigest()
    return Path(base) / "checked-queries" / f"{name}-{digest}"


def _known_good(name: str, source: str) -> bool:
    try:
        return _marker(name, source).exists()
    except OSError:
        return False


def _remember_good(name: str, source: str) -> None:
    try:
        marker = _marker(name, source)
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # a read-only cache only costs the check next time


def grammar_pack(
    name: str,
    extensions: Iterable[str],
    module: str,
    function: str = "language",
    queries: Iterable = (),
    separator: str = ".",
    bundled: bool = True,
    repair: TreeRepair | None = None,
    **options: Any,
):
    """Declare a language from a tree-sitter grammar package, extracted by :class:`TagsExtractor`.

    ``module``/``function`` name the grammar package and its language function
    (``tree_sitter_php``, ``language_php``). The query is the package's own ``tags.scm`` (unless
    ``bundled=False``) followed by ``queries`` (query text, or files such as
    ``importlib.resources.files(__package__) / "tags.scm"``). ``repair(source, tree) -> tree``: the
    pack's fix-up of each parse before the query runs, a module-level function (see
    :mod:`codecairn.extractors.tags`; the C pack's blanks unexpanded macro lines). ``options`` are
    passed on to :class:`codecairn.hookspecs.Language` (``implicit_members``, ``self_names``,
    ``filenames``...).

    The grammar is loaded and the query checked here (compiled by a child process, once per query
    text and tree-sitter version), so a broken pack fails when the host loads it, with a
    :class:`GrammarPackError` naming the pack, the query file, line and column.
    """
    # Imported here, not at the top: worker processes import this module to unpickle grammar loaders
    # and need neither pluggy nor importlib.metadata (≈ 0.1 s of imports).
    import dataclasses

    from codecairn.hookspecs import Language, ResolutionRules

    parts: list[tuple[str, str]] = []
    try:
        grammar = GrammarLoader(module, function)
        language = TSLanguage(grammar())
        if bundled:
            found = bundled_tags(module)
            if found:
                parts.append(found)
    except (ImportError, AttributeError, OSError, ValueError) as error:
        raise GrammarPackError(f"grammar pack {name!r}: cannot load {module}.{function}(): {error}") from error
    for query in queries:
        try:
            parts.append(_read(query))
        except OSError as error:
            raise GrammarPackError(f"grammar pack {name!r}: cannot read query {query}: {error}") from error
    if not parts:
        raise GrammarPackError(f"grammar pack {name!r}: {module} ships no tags.scm and the pack adds no query")
    source = "\n".join(text for _, text in parts)
    if not _known_good(name, source):
        # In a child (see query_check); when it does not compile, or no child could say, here too,
        # for the verdict and the message (a Query of its own, not the extractors' cached one).
        if query_check.compiles(module, function, source) is not True:
            try:
                Query(language, source)
            except QueryError as error:
                raise _query_error(name, parts, language, error) from error
        _remember_good(name, source)
    # Options that are resolution rules (implicit_members, self_names...) go into the Language's
    # ResolutionRules; the rest (filenames, family) onto the Language itself.
    rule_names = {f.name for f in dataclasses.fields(ResolutionRules)}
    rules = ResolutionRules(separator=separator, **{k: v for k, v in options.items() if k in rule_names})
    return Language(
        name=name,
        extensions=tuple(extensions),
        grammar=grammar,
        extractor=TagsExtractor(name, source, separator, repair),
        resolution=rules,
        depth="tags",
        **{k: v for k, v in options.items() if k not in rule_names},
    )
