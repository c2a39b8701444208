"""The generic extractor: a tree-sitter tags query in, FileFacts out.

Any grammar package that ships ``queries/tags.scm`` (the captures GitHub's code navigation uses) becomes
a codecairn language by declaring it with :func:`grammar_pack`; :class:`TagsExtractor` runs the query
in one ``QueryCursor.matches`` pass and turns the captures into symbols, relations and imports.
Qualified names come from the nesting of definition nodes, calls are name-only edges: the facts are
shallower than a rich plugin's, and every FileFacts says so (``extractor="tags"``).

Capture vocabulary (one pattern = one match; captures starting with ``_`` are for predicates only):

Standard tags.scm captures
    ``@definition.<kind>``  a definition node; ``<kind>`` becomes Symbol.kind (``enumerator`` → ``enum_member``,
                            ``typedef`` → ``type``; any other suffix is used as it is).
    ``@name``               the definition's or reference's name (a leading ``:`` of a Ruby symbol is dropped).
                            A definition may leave it out: the name is then read off the node's fields
                            (``name``, else the innermost ``declarator``; a ``scope`` field on the way is
                            the qualifier), which keeps C/C++ patterns small: ``(function_definition)``.
    ``@doc``                comment nodes before a definition; only the run adjacent to it counts, and its
                            first meaningful line (markers stripped) becomes Symbol.doc. A match with
                            ``@doc`` and ``@name`` but no ``@definition.*`` only lends its doc to the
                            definition with that ``@name`` (for docs the definition's pattern cannot
                            reach: before a ``template <...>``, or where the pattern needs a parent).
                            Beware: inside a parent, ``(P (comment)* @doc . (x))`` anchors ``x`` to the
                            first child when there is no comment; use ``(comment)+`` in a doc-only
                            pattern instead (top-level ``((comment)* @doc . (x))`` is fine).
    ``@reference.call``     a call: a "calls" relation with target = ``@name`` (``@reference.send`` too).
    ``@reference.<other>``  any other reference (``class``, ``type``...): a "references" relation.
    ``@reference.implementation``  (PHP's tags.scm) is read as ``@reference.implements``.
codecairn's own captures
    ``@reference.extends`` / ``@reference.implements``  with ``@name`` = the base type as written;
                            generic arguments are cut (``Base<int>`` → ``Base``).
    ``@receiver``           the receiver of a call as written. Without it the receiver is the text of the
                            ``@reference.call`` node before ``@name``, access operators stripped
                            (``repo.save(x)`` → ``repo``, ``$this->log->add()`` → ``$this->log``).
    ``@scope``              a qualifier written in a definition's own name (``Foo`` in ``void Foo::bar()``,
                            ``Rack`` in ``class Rack::Utils``); it goes between the parent's qualified
                            name and the name.
    ``@module.name``        a file-level namespace (``namespace A\\B;``, C# ``namespace A.B;``): it becomes
                            FileFacts.module, and when its definition has no ``body`` it prefixes the
                            qualified names of the top-level definitions after it.
    ``@import``             an import statement (its first line is Import.line), with
        ``@import.module``  the module in the language's qualified-name syntax: Import.target is built
                            from it (``module + separator + name``);
        ``@import.path``    a file path or string (``#include <x.h>``, ``require "x"``): quotes and ``<>``
                            are stripped, Import.target stays empty;
        ``@import.name``, ``@import.alias``, ``@import.kind``  the imported member, the local name, and a
                            kind word (e.g. the ``require_relative`` method name).
    ``(#set! import.kind "...")``, ``(#set! import.name "*")``, ``(#set! import.alias "...")``
                            give constant values instead of captures (``*`` = wildcard: target = module).

Patterns gated on ``#is?`` / ``#is-not?`` (tags.scm uses ``(#is-not? local)`` to mean "not a local
variable") are disabled: codecairn tracks no local scopes, and reporting every local variable as a call
would be worse than missing calls written as bare identifiers. ``#strip!`` and ``#select-adjacent!``
are not needed: doc comments are always stripped and limited to the adjacent run.

tree-sitter parses C and C++ before the preprocessor, so a line holding only a macro
(``FMT_BEGIN_NAMESPACE``) can turn the rest of a header into an error; a pack may pass
``blank_on_error`` (:data:`C_MACRO_LINE`) to have such lines blanked and the file parsed again.

When two matches name the same node (a pack's pattern refining the bundled one), one fact is kept:
for definitions the larger definition node, then the later pattern (pack queries come after the
bundled ones, so a pack can change a kind); for references a call/extends/implements beats a plain
reference, then the later pattern.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from typing import Any

from tree_sitter import Language as TSLanguage
from tree_sitter import Parser, Query, QueryCursor, QueryError

from codecairn.extractors.common import SIGNATURE_MAX, first_doc_line, has_errors, signature
from codecairn.model import CALLABLE_KINDS, DATA_KINDS, FileFacts, Import, Relation, Symbol

EXTRACTOR = "tags"

_KIND_ALIASES = {"enumerator": "enum_member", "typedef": "type"}
_RELATION_KINDS = {
    "call": "calls",
    "send": "calls",
    "extends": "extends",
    "implements": "implements",
    "implementation": "implements",
}
_STRONG = ("calls", "extends", "implements")
_MEMBER_KINDS = frozenset({"field", "property"})
_NOT_MEMBER_PARENTS = DATA_KINDS | CALLABLE_KINDS
# Access operators between a receiver and the called name: . -> :: ?. &. and PHP's namespace \
_TRAILING_ACCESS = re.compile(r"(\?\.|&\.|\.|->|::|\\)\s*$")
_SPACES = re.compile(r"\s+")
_GENERIC_ARGS = re.compile(r"<.*$", re.DOTALL)
_ROW_COL = re.compile(r"row (\d+), column (\d+)")
# C# XML doc comments: <summary> and friends are markup, <see cref="X"/> stands for X.
_XML_DOC_SEE = re.compile(r'<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)="([^"]*)"\s*/>')
_XML_DOC_TAG = re.compile(r"</?(?:summary|remarks|para|returns|value|c|code|example|inheritdoc)\b[^>]*>")
RECEIVER_MAX = 120

# Compiled queries, per process: Query objects do not pickle, so workers compile on first use.
_QUERIES: dict[tuple[Any, str], Query] = {}
_PARSERS: dict[Any, Parser] = {}

# A line holding only an upper-case name with an underscore: an unexpanded macro such as
# FMT_BEGIN_NAMESPACE, Q_OBJECT or Py_BEGIN_ALLOW_THREADS.
C_MACRO_LINE = r"^[ \t]*[A-Z][A-Za-z0-9]*_[A-Z0-9_]*[ \t]*$"


class GrammarPackError(Exception):
    """A grammar pack cannot be loaded: its grammar or one of its query files is broken."""


def compile_query(language: TSLanguage, source: str) -> Query:
    """The tags query for ``language``, compiled once per process."""
    key = (language, source)
    query = _QUERIES.get(key)
    if query is None:
        query = Query(language, source)
        for i in range(query.pattern_count):
            if query.pattern_assertions(i):  # #is? / #is-not?: see the module docstring
                query.disable_pattern(i)
        _QUERIES[key] = query
    return query


class TagsExtractor:
    """Pure extractor ``(source, tree, path) -> FileFacts`` driven by a tags query.

    Picklable: it holds only strings; the compiled query lives in a per-process cache.
    """

    def __init__(self, language: str, query_source: str, separator: str = ".", blank_on_error: str = "") -> None:
        self.language = language
        self.query_source = query_source
        self.separator = separator
        # A regex of whole lines that are unexpanded macros (``FMT_BEGIN_NAMESPACE``): when the tree
        # has errors and such lines exist, they are replaced by spaces (positions stay) and the file
        # is parsed again. tree-sitter sees C/C++ before the preprocessor; one such line can turn
        # the rest of a header into an error.
        self.blank_on_error = blank_on_error

    def _key(self) -> tuple:
        return (self.language, self.query_source, self.separator, self.blank_on_error)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TagsExtractor) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"TagsExtractor({self.language!r})"

    def __call__(self, source: bytes, tree, path: str) -> FileFacts:
        if self.blank_on_error and tree.root_node.has_error:
            tree = _reparse_blanked(source, tree, self.blank_on_error)
        query = compile_query(tree.language, self.query_source)
        defs: dict[tuple[int, int], tuple] = {}
        refs: dict[tuple[int, int], tuple] = {}
        imports: dict[tuple[int, int], tuple[int, Import]] = {}  # one per @import node: the later pattern wins
        modules: list[tuple[int, str, bool, int]] = []  # (after byte, text, prefixes, name start byte)
        lent_docs: dict[tuple[int, int], list] = {}

        for pattern, caps in QueryCursor(query).matches(tree.root_node):
            role = None
            for capture in caps:
                if capture.startswith(("definition.", "reference.")) or capture == "import":
                    role = capture
                    break
            if "module.name" in caps:
                node = caps["module.name"][0]
                definition = next((caps[c][0] for c in caps if c.startswith("definition.")), None)
                braced = definition is not None and definition.child_by_field_name("body") is not None
                modules.append((node.end_byte, _clean_name(source, node), not braced, node.start_byte))
            if role is None:
                if any(c.startswith("import.") for c in caps):
                    role = "import"
                else:
                    if "doc" in caps and "name" in caps:  # a doc-only pattern: lends its doc by name
                        name = caps["name"][0]
                        lent_docs[(name.start_byte, name.end_byte)] = caps["doc"]
                    continue
            if role == "import":
                found = self._import(source, caps, query.pattern_settings(pattern))
                if found is not None:
                    key, imp = found
                    old = imports.get(key)
                    if old is None or pattern > old[0]:
                        imports[key] = (pattern, imp)
                continue
            node = caps[role][0]
            names = caps.get("name")
            scope = caps.get("scope")
            if not names:
                found = _definition_name(node) if role[0] == "d" else None
                if found is None:
                    continue
                names, scope = found
            name = names[0]
            key = (name.start_byte, name.end_byte)
            if role[0] == "d":  # definition.<kind>
                size = node.end_byte - node.start_byte
                old = defs.get(key)
                doc = caps.get("doc")
                if old is None or (size, pattern) > (old[0], old[1]):
                    scope_text = self.separator.join(
                        _scope_part(source, n) for n in sorted(scope or (), key=lambda n: n.start_byte)
                    )
                    defs[key] = (size, pattern, node, name, role[11:], doc or (old[5] if old else None), scope_text)
                elif doc and not old[5]:
                    defs[key] = old[:5] + (doc,) + old[6:]
            else:
                kind = _RELATION_KINDS.get(role[10:], "references")
                rank = (kind in _STRONG, pattern)
                old = refs.get(key)
                if old is None or rank > old[0]:
                    receiver = caps.get("receiver")
                    refs[key] = (rank, kind, node, name, receiver[0] if receiver else None)

        for key, doc in lent_docs.items():
            old = defs.get(key)
            if old is not None and not old[5]:
                defs[key] = old[:5] + (doc,) + old[6:]
        symbols, spans = self._symbols(source, defs, modules)
        relations = self._relations(source, refs, symbols, spans)
        return FileFacts(
            symbols=symbols,
            relations=relations,
            imports=[imports[key][1] for key in sorted(imports)],
            exports=[],
            module=modules[0][1] if modules else "",
            partial=has_errors(tree),
            extractor=EXTRACTOR,
        )

    # ---- symbols --------------------------------------------------------------------------------

    def _symbols(self, source: bytes, defs: dict, modules: list) -> tuple[list[Symbol], list[tuple[int, int]]]:
        sep = self.separator
        ordered = sorted(defs.values(), key=lambda d: (d[2].start_byte, -d[2].end_byte))
        prefixes = sorted((m for m in modules if m[2]), key=lambda m: m[0])
        module_names = {m[3] for m in modules}
        symbols: list[Symbol] = []
        spans: list[tuple[int, int]] = []
        stack: list[int] = []  # indexes of the definitions enclosing the current one
        for _size, _pattern, node, name_node, kind, doc, scope in ordered:
            start, end = node.start_byte, node.end_byte
            while stack and (spans[stack[-1]][1] <= start or spans[stack[-1]] == (start, end)):
                stack.pop()
            kind = _KIND_ALIASES.get(kind, kind)
            # Data (fields, constants...) never encloses: `struct s { struct t {..} f; }` gives s.t;
            # and members belong to types, not functions (PHP's promoted constructor properties).
            skip = _NOT_MEMBER_PARENTS if kind in _MEMBER_KINDS else DATA_KINDS
            parent = next((i for i in reversed(stack) if symbols[i].kind not in skip), -1)
            name = _clean_name(source, name_node)
            if scope and parent >= 0:
                # `module Rack; class Rack::Utils` (or C++ `namespace fmt { void fmt::f() }`): the
                # qualifier names the enclosing definition again, it does not nest a second one.
                first, _, rest = scope.partition(sep)
                if first == symbols[parent].name:
                    scope = rest
            local = f"{scope}{sep}{name}" if scope else name
            if parent >= 0:
                qualified = f"{symbols[parent].qualified_name}{sep}{local}"
            else:
                prefix = ""
                if name_node.start_byte not in module_names:
                    for after, text, _, _ in prefixes:
                        if after <= start:
                            prefix = text
                qualified = f"{prefix}{sep}{local}" if prefix else local
            body = node.child_by_field_name("body")
            if body is not None:
                # A comment between the header and the body (Ruby puts a class's first comment
                # there) is not part of the signature.
                for child in node.children:
                    if child.start_byte >= body.start_byte:
                        break
                    if child.type == "comment":
                        body = child
                        break
                sig = signature(source, node, body)
            else:
                newline = source.find(b"\n", start, end)
                sig = signature(source, node) if newline < 0 else _one_line(source, start, newline)[:SIGNATURE_MAX]
            symbols.append(
                Symbol(
                    kind=kind,
                    name=name,
                    qualified_name=qualified,
                    start_line=node.start_point.row + 1,
                    start_col=node.start_point.column,
                    end_line=node.end_point.row + 1,
                    end_col=node.end_point.column,
                    signature=sig,
                    doc=_doc_line(source, doc, node) if doc else "",
                    parent=parent,
                )
            )
            spans.append((start, end))
            stack.append(len(symbols) - 1)
        return symbols, spans

    # ---- relations ------------------------------------------------------------------------------

    def _relations(self, source: bytes, refs: dict, symbols: list[Symbol], spans: list) -> list[Relation]:
        relations: list[Relation] = []
        stack: list[int] = []
        next_symbol = 0
        for _rank, kind, node, name_node, receiver_node in sorted(refs.values(), key=lambda r: r[3].start_byte):
            at = name_node.start_byte
            # Sweep the (start-ordered) symbols to keep ``stack`` = the definitions enclosing ``at``.
            while next_symbol < len(spans) and spans[next_symbol][0] <= at:
                while stack and spans[stack[-1]][1] <= spans[next_symbol][0]:
                    stack.pop()
                stack.append(next_symbol)
                next_symbol += 1
            while stack and spans[stack[-1]][1] <= at:
                stack.pop()
            owner = next((i for i in reversed(stack) if symbols[i].kind not in DATA_KINDS), -1)
            target = _clean_name(source, name_node)
            receiver = ""
            if kind == "calls":
                if receiver_node is not None:
                    receiver = _one_line(source, receiver_node.start_byte, receiver_node.end_byte)
                elif node.start_byte < at:
                    receiver = _TRAILING_ACCESS.sub("", _one_line(source, node.start_byte, at))
                if len(receiver) > RECEIVER_MAX:
                    receiver = receiver[: RECEIVER_MAX - 1] + "…"
            elif kind in ("extends", "implements"):
                target = _GENERIC_ARGS.sub("", _SPACES.sub("", target))
            if not target:
                continue
            relations.append(Relation(kind, owner, target, name_node.start_point.row + 1, receiver))
        return relations

    # ---- imports --------------------------------------------------------------------------------

    def _import(self, source: bytes, caps: dict, settings: dict) -> tuple[tuple[int, int], Import] | None:
        def capture(name: str) -> str:
            nodes = caps.get(name)
            return _one_line(source, nodes[0].start_byte, nodes[0].end_byte) if nodes else settings.get(name) or ""

        path = capture("import.path").strip("\"'<>` ")
        module = path or capture("import.module").strip()
        name = capture("import.name").strip()
        alias = capture("import.alias").strip()
        if not module and not name:
            return None
        sep = self.separator
        if path:
            target = ""
        elif name == "*":
            target = module
        elif name:
            target = f"{module.rstrip(sep)}{sep}{name}" if module else name
            alias = alias or name.rsplit(sep, 1)[-1]
        else:
            target = module
        anchor = next(
            (caps[c][0] for c in ("import", "import.path", "import.module", "import.name") if c in caps),
            next(iter(caps.values()))[0],
        )
        if "import" in caps:
            key = (anchor.start_byte, anchor.end_byte)
        else:  # without an @import node, each imported name is its own import
            key = (anchor.start_byte, caps["import.name"][0].start_byte if "import.name" in caps else -1)
        line = anchor.start_point.row + 1
        return key, Import(module, name, alias, line, capture("import.kind"), target)


_LIST_CONTINUATION = frozenset(b",(")


def _reparse_blanked(source: bytes, tree, pattern: str):
    """``tree`` again, parsed with the lines matching ``pattern`` blanked out (same byte offsets).

    A matching line right after one ending in ``,`` or ``(`` continues a list (the last
    enumerator, an argument) and is left alone.
    """
    blanked = bytearray(source)
    found = False
    for match in re.finditer(pattern.encode(), source, re.MULTILINE):
        before = source[max(0, match.start() - 512) : match.start()].rstrip()
        if before and before[-1] in _LIST_CONTINUATION:
            continue
        blanked[match.start() : match.end()] = b" " * (match.end() - match.start())
        found = True
    if not found:
        return tree
    parser = _PARSERS.get(tree.language)
    if parser is None:
        parser = _PARSERS[tree.language] = Parser(tree.language)
    return parser.parse(bytes(blanked))


# ---- text helpers -------------------------------------------------------------------------------


def _one_line(source: bytes, start: int, end: int) -> str:
    return _SPACES.sub(" ", source[start:end].decode("utf-8", "replace")).strip()


def _clean_name(source: bytes, node) -> str:
    name = _one_line(source, node.start_byte, node.end_byte)
    return name.lstrip(":") if name.startswith(":") and len(name) > 1 and name[1] != ":" else name


def _definition_name(node) -> tuple[list, list] | None:
    """([name node], scope nodes) of a definition matched without ``@name``, read off its fields.

    The ``name`` field, else the innermost of the ``declarator`` chain (C/C++: through pointer,
    reference and parenthesised declarators); then, while that node has ``name``/``scope`` fields
    (``Foo::bar``, ``a::B::c``, ``f<int>``), descend into ``name`` and collect the scopes.
    """
    name = node.child_by_field_name("name")
    if name is None:
        current = node
        while True:
            inner = current.child_by_field_name("declarator")
            if inner is None and current is not node and current.type.endswith("declarator"):
                inner = current.named_children[0] if current.named_child_count else None
            if inner is None:
                break
            current = inner
        if current is node:
            return None
        name = current
    scope = []
    while (inner := name.child_by_field_name("name")) is not None:
        qualifier = name.child_by_field_name("scope")
        if qualifier is not None:
            scope.append(qualifier)
        name = inner
    return [name], scope


def _scope_part(source: bytes, node) -> str:
    """One qualifier of a definition's name, without generic arguments: ``Foo<T>`` → ``Foo``."""
    return _GENERIC_ARGS.sub("", _one_line(source, node.start_byte, node.end_byte)).strip()


def _doc_line(source: bytes, docs: list, definition) -> str:
    """First meaningful line of the comment run that ends right above ``definition``.

    A quantified ``(comment)* @doc .`` captures every comment before the definition; only the run
    with no blank line between its comments and the code that follows counts.
    """
    docs = sorted((n for n in docs if n.end_byte <= definition.start_byte), key=lambda n: n.start_byte)
    if not docs:
        return ""
    follower = docs[-1].next_named_sibling  # the definition, or what wraps it (a template, an export)
    row = (
        follower if follower is not None and follower.start_byte <= definition.start_byte else definition
    ).start_point.row
    run = []
    for node in reversed(docs):
        if node.end_point.row < row - 1:
            break
        line_start = source.rfind(b"\n", 0, node.start_byte) + 1
        if source[line_start : node.start_byte].strip():  # a trailing comment of the line before
            break
        run.append(node)
        row = node.start_point.row
    text = "\n".join(source[n.start_byte : n.end_byte].decode("utf-8", "replace") for n in reversed(run))
    for line in text.splitlines():
        if line.lstrip(" \t/*#!-").startswith("@"):  # Javadoc-style tags end the summary
            break
        line = first_doc_line(line)
        if "<" in line:
            line = _XML_DOC_TAG.sub("", _XML_DOC_SEE.sub(r"\1", line)).strip()
        if any(ch.isalnum() for ch in line):  # skip rulers such as /* ====== */
            return line
    return ""


# ---- grammar packs ------------------------------------------------------------------------------


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
                return str(file), dist.locate_file(file).read_text(encoding="utf-8")
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
    blank_on_error: str = "",
    **options: Any,
):
    """Declare a language from a tree-sitter grammar package, extracted by :class:`TagsExtractor`.

    ``module``/``function`` name the grammar package and its language function
    (``tree_sitter_php``, ``language_php``). The query is the package's own ``tags.scm`` (unless
    ``bundled=False``) followed by ``queries`` (query text, or files such as
    ``importlib.resources.files(__package__) / "tags.scm"``). ``blank_on_error``: see
    :class:`TagsExtractor` (C and C++ use :data:`C_MACRO_LINE`). ``options`` are passed on to
    :class:`codecairn.hookspecs.Language` (``implicit_members``, ``self_names``, ``filenames``...).

    The grammar is loaded and the query compiled here, so a broken pack fails when the host
    loads it, with a :class:`GrammarPackError` naming the pack, the query file, line and column.
    """
    # Imported here, not at the top: worker processes import this module to unpickle extractors and
    # need neither pluggy nor importlib.metadata (≈ 0.1 s of imports).
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
        try:
            compile_query(language, source)
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
        extractor=TagsExtractor(name, source, separator, blank_on_error),
        resolution=rules,
        depth=EXTRACTOR,
        **{k: v for k, v in options.items() if k not in rule_names},
    )
