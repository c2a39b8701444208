"""The generic extractor: a tree-sitter tags query in, FileFacts out.

Any grammar package that ships ``queries/tags.scm`` (the captures GitHub's code navigation uses) becomes
a codecairn language by declaring it with :func:`codecairn.extractors.packs.grammar_pack`;
:class:`TagsExtractor` runs the query in one ``QueryCursor.matches`` pass and turns the captures into
symbols, relations and imports.
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

What a query cannot say about a language's syntax, a pack may fix before the query runs: its
``repair(source, tree) -> tree`` gets every parsed file and returns the tree to extract from (the same
one, or a new parse of a source with the same byte offsets). The C and C++ packs blank lines that
hold only an unexpanded macro (``FMT_BEGIN_NAMESPACE``), which tree-sitter, seeing the code before the
preprocessor, would otherwise turn into an error reaching to the end of the file.

When two matches name the same node (a pack's pattern refining the bundled one), one fact is kept:
for definitions the larger definition node, then the later pattern (pack queries come after the
bundled ones, so a pack can change a kind); for references a call/extends/implements beats a plain
reference, then the later pattern.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tree_sitter import Language as TSLanguage
from tree_sitter import Query, QueryCursor

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
# C# XML doc comments: <summary> and friends are markup, <see cref="X"/> stands for X.
_XML_DOC_SEE = re.compile(r'<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)="([^"]*)"\s*/>')
_XML_DOC_TAG = re.compile(r"</?(?:summary|remarks|para|returns|value|c|code|example|inheritdoc)\b[^>]*>")
RECEIVER_MAX = 120

# Compiled queries, per process: Query objects do not pickle, so workers compile on first use.
_QUERIES: dict[tuple[Any, str], Query] = {}

# A pack's fix-up of a parse before the query runs: (source, tree) -> the tree to extract from.
TreeRepair = Callable[[bytes, Any], Any]


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

    Picklable: it holds strings and the pack's ``repair`` (a module-level function, pickled by
    name); the compiled query lives in a per-process cache.
    """

    def __init__(
        self, language: str, query_source: str, separator: str = ".", repair: TreeRepair | None = None
    ) -> None:
        self.language = language
        self.query_source = query_source
        self.separator = separator
        self.repair = repair  # see the module docstring: a pack's fix-up of the parse, or None

    def _key(self) -> tuple:
        return (self.language, self.query_source, self.separator, self.repair)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TagsExtractor) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"TagsExtractor({self.language!r})"

    def __call__(self, source: bytes, tree, path: str) -> FileFacts:
        if self.repair is not None:
            tree = self.repair(source, tree)
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
                imported = self._import(source, caps, query.pattern_settings(pattern))
                if imported is not None:
                    import_key, imp = imported
                    earlier = imports.get(import_key)
                    if earlier is None or pattern > earlier[0]:
                        imports[import_key] = (pattern, imp)
                continue
            node = caps[role][0]
            names = caps.get("name")
            scope = caps.get("scope")
            if not names:
                named = _definition_name(node) if role[0] == "d" else None
                if named is None:
                    continue
                names, scope = named
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
                stronger = refs.get(key)
                if stronger is None or rank > stronger[0]:
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
