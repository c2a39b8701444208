"""Java facts from one parsed file: symbols, calls, inheritance, imports and exports.

One tree-sitter query (``_QUERY``) finds every declaration, call site, doc comment and typed
variable; Python only looks at the nodes it returns. A stack of open declarations gives each symbol
its parent, and a bisect over the places where the innermost declaration changes gives each call
its enclosing symbol, so the tree is never walked from Python: extracting the JDK's 15,000 files
must cost no more than parsing them (measured: 0.75-0.95 of the parse time, of which the query's
walk over the tree alone is a third of a parse).

Naming (``Symbol.qualified_name``, joined with "."):

* ``pkg.Outer.Inner.method``; every overload of ``add`` is ``pkg.C.add``, and the signatures
  (``void add(int a, String b)``) tell them apart.
* a constructor is named after its class: ``pkg.C.C`` (kind "constructor").
* a local class, interface, enum or record is named inside its method: ``pkg.Outer.method.Local``.
* an anonymous class body ``new Runnable() { ... }`` is a class named ``$1``, ``$2``, ... numbered
  in source order within its enclosing symbol (method, field or type): ``pkg.Outer.method.$1``,
  its members ``pkg.Outer.method.$1.run``. Its signature is ``new Runnable()``, and it gets an
  "extends" relation to ``Runnable`` (syntax cannot tell a class from an interface).
* an enum constant with a body keeps its members directly under it: ``pkg.Color.RED.paint``.
* record components are fields of the record; a compact constructor is a constructor.
* annotation type elements (``int value() default 1;``) are methods.
* the package is a symbol of kind "package" named by its full name; it is nobody's parent.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from operator import attrgetter, itemgetter

import tree_sitter_java
from codecairn.extractors.common import SIGNATURE_MAX
from codecairn.model import TYPE_KINDS, Export, FileFacts, Import, Relation, Symbol
from tree_sitter import Language, Query, QueryCursor

# Types a variable can be declared with that have methods worth resolving. Primitives and arrays
# are left out: a call cannot have them as receiver, and most locals are ints.
_CLASS_TYPE = "[(type_identifier) (scoped_type_identifier) (generic_type)]"

# Each capture name is a handler below. One node per match: `captures()` is about twice as fast as
# `matches()` here, and the few fields a handler needs cost less to read from the node.
_QUERY = f"""
(package_declaration) @package
(import_declaration) @import
(module_declaration) @module
(block_comment) @comment

(class_declaration) @class
(interface_declaration) @interface
(enum_declaration) @enum
(record_declaration) @record
(annotation_type_declaration) @annotation
(method_declaration) @method
(constructor_declaration) @constructor
(compact_constructor_declaration) @constructor
(annotation_type_element_declaration) @element
(field_declaration) @field
(constant_declaration) @field
(enum_constant) @enum_member

(method_invocation) @call
(object_creation_expression) @new
(explicit_constructor_invocation) @this_super
(method_reference) @method_ref

(local_variable_declaration type: {_CLASS_TYPE}) @local
(formal_parameter type: {_CLASS_TYPE}) @var
(enhanced_for_statement type: {_CLASS_TYPE}) @var
(resource type: {_CLASS_TYPE}) @var
(catch_formal_parameter) @catch
(instanceof_expression right: {_CLASS_TYPE} name: (identifier)) @instanceof
(type_pattern {_CLASS_TYPE} @pattern_type)
(lambda_expression parameters: [(identifier) (inferred_parameters)]) @lambda
"""

# Declaration captures and the symbol kind each becomes.
_DECLARATIONS = {
    "class": "class",
    "interface": "interface",
    "enum": "enum",
    "record": "record",
    "annotation": "annotation",
    "method": "method",
    "constructor": "constructor",
    "element": "method",
    "enum_member": "enum_member",
}
_BODIES = frozenset({"class_body", "interface_body", "enum_body", "annotation_type_body", "block", "constructor_body"})
_BASE_CLAUSES = {"superclass": "extends", "super_interfaces": "implements", "extends_interfaces": "extends"}
# Symbols a call is attributed to (Relation.source): a call in a field initializer or in an enum
# constant's arguments belongs to the type.
_CALL_SOURCE_KINDS = TYPE_KINDS | {"method", "constructor"}
_VISIBLE = frozenset({"public", "protected"})
_RECEIVER_MAX = 120
_NO_RECEIVER_TYPES = frozenset({"var", "int", "long", "short", "byte", "char", "boolean", "float", "double", "void"})
_FIELD_SIGNATURE_VALUE_MAX = 80
_IMPORT = re.compile(rb"import\s+(static\s+)?([\w$]+(?:\s*\.\s*[\w$]+)*)(\s*\.\s*\*)?\s*;")
_LINE = itemgetter(3)  # Relation.line and Import.line
_SPAN = attrgetter("start_byte", "end_byte")
# Symbol(...) / Relation(...) run the NamedTuple's Python-level __new__; building the tuple directly
# is the same object for a fraction of the cost, and there are hundreds of thousands per index.
_new = tuple.__new__
_WHITESPACE = re.compile(rb"\s*")
_STRING_LITERAL = re.compile(rb'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
_ANNOTATION_ARGUMENTS = re.compile(rb"\([^()]*\)")
_COMMENT = re.compile(rb"//[^\n]*|/\*.*?\*/", re.S)
_MODIFIER = re.compile(rb"@\s*[\w$]+(?:\s*\.\s*[\w$]+)*|[\w-]+")

_query_cache: list[QueryCursor] = []  # built on first use in each process: Query objects do not pickle


def _cursor() -> QueryCursor:
    if not _query_cache:
        _query_cache.append(QueryCursor(Query(Language(tree_sitter_java.language()), _QUERY)))
    return _query_cache[0]


def extract_java(source: bytes, tree, path: str = "") -> FileFacts:
    """Turn one parsed Java file into facts. Pure: reads only ``source`` and ``tree``."""
    return _JavaFile(source).extract(tree)


# ---- text helpers -------------------------------------------------------------------------------


def _one_line(raw: bytes, limit: int = SIGNATURE_MAX) -> str:
    s = " ".join(raw.decode("utf-8", "replace").split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _type_name(raw: bytes) -> str:
    """``java.util.List<String>`` -> ``java.util.List`` (what relations and receiver types name)."""
    lt = raw.find(b"<")
    if lt >= 0:
        raw = raw[:lt]
    return "".join(raw.decode("utf-8", "replace").split())


@lru_cache(maxsize=8192)
def _receiver_type(raw: bytes) -> str | None:
    """A declared type usable for a call receiver: no generics; None for ``var``, primitives,
    arrays and multi-catch unions. (Cached: the same few hundred types are declared everywhere.)"""
    name = _type_name(raw)
    if not name or name in _NO_RECEIVER_TYPES or "[" in name or "|" in name or name[0] == "@":
        return None
    return name


@lru_cache(maxsize=8192)
def _receiver_text(raw: bytes) -> str:
    """The text before a call's name, as written: ``this.items`` in ``this.items.add(x)``.
    (Cached: ``this.``, ``list.``, ``Assert.`` recur thousands of times.)"""
    # (Tests are on str: `b"x" in some_bytes` first tries the needle as an int and pays for a
    # TypeError, which showed up in profiles.)
    if not raw:
        return ""
    raw = raw.rstrip()
    if raw.endswith(b">"):  # explicit type arguments: Collections.<T>emptyList()
        raw = raw[: raw.rfind(b"<")].rstrip()
    if raw.endswith(b"."):
        raw = raw[:-1].rstrip()
    text = raw.decode("utf-8", "replace")
    if "\n" in text or "\t" in text:  # a chain written over several lines
        text = " ".join(text.split())
    return text if len(text) <= _RECEIVER_MAX else text[: _RECEIVER_MAX - 1] + "…"


_SUMMARY_MAX = 300  # characters: a summary sentence, not a manual
_SENTENCE_END = re.compile(rb"\.(?:\s|$)")


def _summary(source: bytes, start: int, end: int) -> str:
    """First sentence of the javadoc comment at source[start:end], the javadoc summary: it may
    run over several lines, and ends at a period followed by a space, a blank line, a ``<p>`` or
    a tag like ``@param`` (a ``<p>`` that opens the comment only opens it).

    Same rules as ``first_doc_line``, specialised to ``/** ... */``: it reads only the lines it
    needs, and nearly half of the JDK's 340,000 symbols have a javadoc.
    """
    pos = start + 3
    parts: list[bytes] = []
    size = 0
    while pos < end:
        nl = source.find(b"\n", pos, end)
        if nl < 0:
            nl = end
        line = source[pos:nl].strip()
        closes = line.endswith(b"*/")
        if closes:
            line = line[:-2].rstrip()
        if line.startswith(b"*"):
            line = line.lstrip(b"*").lstrip()
        if line[:3].lower() == b"<p>":
            if parts:
                break
            line = line[3:].lstrip()  # a javadoc that opens with <p> (``LinkedHashMap``)
        if line.startswith(b"@") or (not line and parts):
            break
        if line:
            stop = _SENTENCE_END.search(line)
            if stop is not None:
                parts.append(line[: stop.start() + 1])
                break
            parts.append(line)
            size += len(line) + 1
            if size > _SUMMARY_MAX:
                break
        if closes:
            break
        pos = nl + 1
    if not parts:
        return ""
    text = b" ".join(parts).decode("utf-8", "replace")
    return text if len(text) <= _SUMMARY_MAX else text[: _SUMMARY_MAX - 1].rsplit(" ", 1)[0] + "…"


def _modifiers(source: bytes, mods) -> tuple[str, ...]:
    """``@Override @SuppressWarnings("x") public static`` -> ("@Override", "@SuppressWarnings", "public", "static")."""
    if mods is None:
        return ()
    return _split_modifiers(source[mods.start_byte : mods.end_byte])


@lru_cache(maxsize=4096)
def _split_modifiers(raw: bytes) -> tuple[str, ...]:
    # Cached: a few thousand distinct modifier lists cover a whole code base.
    if raw.find(b'"') >= 0 or raw.find(b"'") >= 0:
        raw = _STRING_LITERAL.sub(b'""', raw)
    while raw.find(b"(") >= 0:  # annotation arguments, innermost first
        stripped = _ANNOTATION_ARGUMENTS.sub(b" ", raw)
        if stripped == raw:
            break
        raw = stripped
    if raw.find(b"/") >= 0:
        raw = _COMMENT.sub(b" ", raw)
    return tuple("".join(word.decode("utf-8", "replace").split()) for word in _MODIFIER.findall(raw))


def _parts(node):
    """(modifiers, name, body) children of a declaration, any of them None."""
    children = node.children
    if not children:
        return None, None, None
    first = children[0]
    last = children[-1]
    return (
        first if first.type == "modifiers" else None,
        node.child_by_field_name("name"),
        last if last.type in _BODIES else None,
    )


# ---- the pass over one file ---------------------------------------------------------------------


class _JavaFile:
    __slots__ = (
        "src",
        "symbols",
        "call_source",
        "relations",
        "imports",
        "package",
        "docs",
        "scopes",
        "hidden",
        "supers",
        "anon_count",
        "package_exports",
    )

    def __init__(self, source: bytes):
        self.src = source
        self.symbols: list[Symbol] = []
        self.call_source: list[int] = []  # per symbol: the symbol its calls are attributed to
        self.relations: list[Relation] = []
        self.imports: list[Import] = []
        self.package_exports: list[Export] = []  # module-info's unqualified `exports p;`
        self.package = ""
        self.docs: dict[int, tuple[int, int]] = {}  # where a declaration would start -> its javadoc's bytes
        self.scopes: dict[int, dict[str, str | None]] = {}  # symbol -> variable name -> declared type
        self.hidden: dict[str, list[tuple[int, int]]] = {}  # untyped lambda parameter -> the lambdas' bytes
        self.supers: dict[int, str] = {}  # class symbol -> simple name of its superclass
        self.anon_count: dict[int, int] = {}

    def extract(self, tree) -> FileFacts:
        src = self.src
        found = _cursor().captures(tree.root_node)
        get = found.get

        # A javadoc belongs to the declaration that starts right after it (modifiers and
        # annotations are part of the declaration; a line comment in between breaks the link).
        docs = self.docs
        for c in get("comment", ()):
            start = c.start_byte
            if src.startswith(b"/**", start) and c.end_byte - start > 4:
                docs[_WHITESPACE.match(src, c.end_byte).end()] = (start, c.end_byte)

        for node in get("package", ()):
            self._package(node)
        for node in get("import", ()):
            self._import(node)
        for node in get("module", ()):
            self._module(node)

        # Declarations in the order their scopes open. A field's scope is its declarator (two
        # declarators are siblings, not nested); an anonymous class's is its body, so calls in
        # `new Foo(args) {...}`'s arguments still belong to the enclosing method.
        decls: list[tuple] = []
        for capture, kind in _DECLARATIONS.items():
            for node in get(capture, ()):
                decls.append((node.start_byte, -node.end_byte, len(decls), kind, node, None))
        for node in get("field", ()):
            shared = None
            for child in node.children:
                if child.type == "variable_declarator":
                    shared = shared or self._field_common(node)
                    decls.append((child.start_byte, -child.end_byte, len(decls), "field", child, shared))
        for node in get("new", ()):
            body = node.children[-1] if node.child_count else None
            if body is not None and body.type == "class_body":
                decls.append((body.start_byte, -body.end_byte, len(decls), "anonymous", node, body))
        decls.sort()

        # One pass with a stack of open scopes gives every symbol its parent, and records where
        # the innermost open scope changes: `innermost(byte)` is then one bisect.
        stack: list[tuple[int, int]] = []  # (end_byte, symbol index)
        change_at = [0]  # byte offsets where the innermost scope changes ...
        scope_at = [-1]  # ... and the symbol innermost from there on
        for start, _, _, kind, node, extra in decls:
            while stack and stack[-1][0] <= start:
                end = stack.pop()[0]
                change_at.append(end)
                scope_at.append(stack[-1][1] if stack else -1)
            parent = stack[-1][1] if stack else -1
            if kind == "field":
                index = self._field(node, extra, parent)
                end = node.end_byte
            elif kind == "anonymous":
                index = self._anonymous(node, extra, parent)
                end = extra.end_byte
            else:
                index = self._declaration(kind, node, parent)
                end = node.end_byte
            if index < 0:
                continue
            stack.append((end, index))
            change_at.append(start)
            scope_at.append(index)
        while stack:
            end = stack.pop()[0]
            change_at.append(end)
            scope_at.append(stack[-1][1] if stack else -1)

        def innermost(byte: int) -> int:
            return scope_at[bisect_right(change_at, byte) - 1]

        self._variables(found, innermost)
        self._calls(found, innermost, change_at, scope_at)
        self.relations.sort(key=_LINE)  # the query's capture order is not quite source order
        self.imports.sort(key=_LINE)

        return FileFacts(
            symbols=self.symbols,
            relations=self.relations,
            imports=self.imports,
            exports=self._exports() + self.package_exports,
            module=self.package,
            partial=tree.root_node.has_error,
            extractor="java",
        )

    # -- declarations -----------------------------------------------------------------------------

    def _add(self, kind, name, parent, node, signature, doc, modifiers, qualified="") -> int:
        index = len(self.symbols)
        if not qualified:
            prefix = self.symbols[parent].qualified_name if parent >= 0 else self.package
            qualified = f"{prefix}.{name}" if prefix else name
        sp = node.start_point
        ep = node.end_point
        self.symbols.append(
            _new(Symbol, (kind, name, qualified, sp[0] + 1, sp[1], ep[0] + 1, ep[1], signature, doc, parent, modifiers))
        )
        if kind in _CALL_SOURCE_KINDS:
            self.call_source.append(index)
        else:
            self.call_source.append(self.call_source[parent] if parent >= 0 else -1)
        return index

    def _doc(self, node) -> str:
        where = self.docs.get(node.start_byte)
        return _summary(self.src, *where) if where else ""

    def _declaration(self, kind, node, parent) -> int:
        src = self.src
        mods, name, body = _parts(node)
        if name is None:
            return -1
        sig_start = mods.end_byte if mods is not None else node.start_byte
        sig_end = body.start_byte if body is not None else node.end_byte
        signature = _one_line(src[sig_start:sig_end]).rstrip(";").rstrip()
        index = self._add(
            kind,
            src[name.start_byte : name.end_byte].decode("utf-8", "replace"),
            parent,
            node,
            signature,
            self._doc(node),
            _modifiers(src, mods),
        )
        if kind in TYPE_KINDS:
            self._bases(node, index)
            if kind == "record":
                self._record_components(node, index)
        return index

    def _field_common(self, node):
        """What the declarators of one field declaration share: modifiers, doc, type."""
        src = self.src
        first = node.child(0)
        mods = first if first is not None and first.type == "modifiers" else None
        type_node = node.child_by_field_name("type")
        type_raw = src[type_node.start_byte : type_node.end_byte] if type_node is not None else b""
        return node, _modifiers(src, mods), self._doc(node), type_raw

    def _field(self, declarator, shared, parent) -> int:
        src = self.src
        node, modifiers, doc, type_raw = shared
        name = declarator.child_by_field_name("name")
        if name is None:
            return -1
        text = src[declarator.start_byte : declarator.end_byte]
        if len(text) > _FIELD_SIGNATURE_VALUE_MAX:
            text = src[declarator.start_byte : name.end_byte]
        name_text = src[name.start_byte : name.end_byte].decode("utf-8", "replace")
        index = self._add("field", name_text, parent, node, _one_line(type_raw + b" " + text), doc, modifiers)
        if parent >= 0:
            self._bind(parent, name_text, _receiver_type(type_raw))
        return index

    def _record_components(self, node, index) -> None:
        src = self.src
        params = node.child_by_field_name("parameters")
        for p in params.named_children if params is not None else ():
            name = p.child_by_field_name("name") if p.type == "formal_parameter" else None
            if name is not None:
                self._add(
                    "field",
                    src[name.start_byte : name.end_byte].decode("utf-8", "replace"),
                    index,
                    p,
                    _one_line(src[p.start_byte : p.end_byte]),
                    "",
                    (),
                )

    def _anonymous(self, node, body, parent) -> int:
        src = self.src
        type_node = node.child_by_field_name("type")
        if type_node is None:
            return -1
        n = self.anon_count.get(parent, 0) + 1
        self.anon_count[parent] = n
        index = self._add("class", f"${n}", parent, node, _one_line(src[node.start_byte : body.start_byte]), "", ())
        base = _type_name(src[type_node.start_byte : type_node.end_byte])
        self.relations.append(Relation("extends", index, base, type_node.start_point[0] + 1))
        self.supers[index] = base.rpartition(".")[2]
        return index

    def _bases(self, node, index) -> None:
        """extends / implements clauses of a type declaration; targets without generic arguments."""
        src = self.src
        for clause in node.children:
            kind = _BASE_CLAUSES.get(clause.type)
            if kind is None:
                continue
            for child in clause.named_children:
                for target in child.named_children if child.type == "type_list" else (child,):
                    if target.type.endswith("comment"):
                        continue
                    name = _type_name(src[target.start_byte : target.end_byte])
                    self.relations.append(Relation(kind, index, name, target.start_point[0] + 1))
                    if clause.type == "superclass":
                        self.supers[index] = name.rpartition(".")[2]

    # -- variables and receiver types -------------------------------------------------------------

    def _bind(self, scope: int, name: str, type_name: str | None) -> None:
        names = self.scopes.get(scope)
        if names is None:
            self.scopes[scope] = {name: type_name}
        elif names.get(name, type_name) != type_name:
            names[name] = None  # declared twice with different types: don't guess
        else:
            names[name] = type_name

    def _variables(self, found, innermost) -> None:
        """Locals, parameters, catch/for/try/pattern variables of class types, bound in the
        innermost symbol around them (the method; a record for its components)."""
        src = self.src
        bind = self._bind
        get = found.get

        def declare(name, type_node) -> None:
            if name is None or type_node is None:
                return
            type_raw = src[type_node.start_byte : type_node.end_byte]
            bind(
                innermost(name.start_byte),
                src[name.start_byte : name.end_byte].decode("utf-8", "replace"),
                _receiver_type(type_raw),
            )

        for node in get("local", ()):
            type_node = node.child_by_field_name("type")
            is_var = src.startswith(b"var", type_node.start_byte) and type_node.end_byte - type_node.start_byte == 3
            for declarator in node.children_by_field_name("declarator"):
                name = declarator.child_by_field_name("name")
                if not is_var:
                    declare(name, type_node)
                    continue
                # `var x = new Foo<>()`: the type is the created one.
                value = declarator.child_by_field_name("value")
                created = (
                    value.child_by_field_name("type")
                    if value is not None and value.type == "object_creation_expression"
                    else None
                )
                if name is not None:
                    bind(
                        innermost(name.start_byte),
                        src[name.start_byte : name.end_byte].decode("utf-8", "replace"),
                        _receiver_type(src[created.start_byte : created.end_byte]) if created is not None else None,
                    )
        for node in get("var", ()):
            declare(node.child_by_field_name("name"), node.child_by_field_name("type"))
        for node in get("catch", ()):
            types = [c for c in node.named_children if c.type == "catch_type"]
            declare(node.child_by_field_name("name"), types[0] if types else None)
        for node in get("instanceof", ()):
            declare(node.child_by_field_name("name"), node.child_by_field_name("right"))
        for type_node in get("pattern_type", ()):
            declare(type_node.next_named_sibling, type_node)
        # Untyped lambda parameters only hide: inside the lambda, a call on `item` must not
        # borrow the type of a field or local named `item`.
        hidden = self.hidden
        for node in get("lambda", ()):
            params = node.child_by_field_name("parameters")
            names = (params,) if params.type == "identifier" else params.named_children
            for name in names:
                hidden.setdefault(src[name.start_byte : name.end_byte].decode("utf-8", "replace"), []).append(
                    (node.start_byte, node.end_byte)
                )

    def _type_of(self, receiver: str, inner: int, at: int) -> str | None:
        """The declared type of a receiver that is a variable (``list``) or a field (``this.list``)
        at byte ``at``, inside symbol ``inner``."""
        symbols = self.symbols
        scopes = self.scopes
        if receiver.startswith("this."):
            field = receiver[5:]
            scope = inner
            while scope >= 0 and symbols[scope].kind not in TYPE_KINDS:
                scope = symbols[scope].parent
            names = scopes.get(scope) if scope >= 0 and field.isidentifier() else None
            return names.get(field) if names else None
        if not receiver.isidentifier() or receiver == "this" or receiver == "super":
            return None
        if receiver in self.hidden:
            for start, end in self.hidden[receiver]:
                if start <= at < end:
                    return None
        scope = inner
        while scope >= 0:
            names = scopes.get(scope)
            if names is not None and receiver in names:
                return names[receiver]
            scope = symbols[scope].parent
        return None

    # -- calls ------------------------------------------------------------------------------------

    def _calls(self, found, innermost, change_at, scope_at) -> None:
        src = self.src
        call_source = self.call_source
        relations = self.relations
        scopes = self.scopes
        type_of = self._type_of

        def get(capture: str, default: tuple = ()) -> list:
            # The query's captures of one name do not always come in the same order (two runs over
            # the same file differed): in source order, so the same file always gives the same edges.
            return sorted(found.get(capture, default), key=_SPAN)

        def call(target: str, line: int, receiver: str, at: int) -> None:
            inner = innermost(at)
            rtype = (type_of(receiver, inner, at) or "") if receiver and scopes and inner >= 0 else ""
            relations.append(Relation("calls", call_source[inner] if inner >= 0 else -1, target, line, receiver, rtype))

        # Method invocations are most of the work: the same steps as call(), inlined.
        for node in get("call", ()):
            name = node.child_by_field_name("name")
            if name is None:
                continue
            ns = name.start_byte
            inner = scope_at[bisect_right(change_at, ns) - 1]
            raw = src[node.start_byte : ns]
            if raw:
                receiver = _receiver_text(raw)
                rtype = (type_of(receiver, inner, ns) or "") if scopes and inner >= 0 else ""
            else:
                receiver = rtype = ""
            relations.append(
                _new(
                    Relation,
                    (
                        "calls",
                        call_source[inner] if inner >= 0 else -1,
                        src[ns : name.end_byte].decode("utf-8", "replace"),
                        name.start_point[0] + 1,
                        receiver,
                        rtype,
                    ),
                )
            )

        # `new a.b.Foo<>(...)` calls `Foo` with receiver `a.b`; `outer.new Inner()` has receiver `outer`.
        for node in get("new", ()):
            type_node = node.child_by_field_name("type")
            if type_node is None:
                continue
            start = node.start_byte
            receiver, _, target = _type_name(src[type_node.start_byte : type_node.end_byte]).rpartition(".")
            if not src.startswith(b"new", start):
                before = src[start : type_node.start_byte]
                receiver = _receiver_text(before[: before.rfind(b"new")])
            call(target, type_node.start_point[0] + 1, receiver, start)

        # `Foo::bar` calls `bar` on `Foo`; `Foo::new` calls the constructor `Foo`.
        for node in get("method_ref", ()):
            raw = src[node.start_byte : node.end_byte]
            colons = raw.rfind(b"::")
            left, right = raw[:colons], raw[colons + 2 :].strip()
            if right.startswith(b"<"):  # Foo::<T>bar
                right = right[right.rfind(b">") + 1 :].strip()
            if right == b"new":
                if left.find(b"[") >= 0:  # int[]::new
                    continue
                receiver, _, target = _type_name(left).rpartition(".")
            else:
                target = right.decode("utf-8", "replace")
                receiver = _type_name(left) if left.find(b"<") >= 0 else _receiver_text(left)  # List<String>::size
            call(target, node.start_point[0] + 1, receiver, node.start_byte)

        # `this(...)` calls a constructor of the enclosing class, `super(...)` one of its
        # superclass: the target is that class's simple name (the constructor's name) and the
        # receiver "this" / "super", so the resolver looks among the enclosing type's members or
        # its supertypes'.
        symbols = self.symbols
        for node in get("this_super", ()):
            ctor = node.child_by_field_name("constructor")
            if ctor is None:
                continue
            inner = innermost(ctor.start_byte)
            cls = symbols[inner].parent if inner >= 0 else -1
            if cls < 0:
                continue
            if ctor.type == "this":
                target, receiver = symbols[cls].name, "this"
            else:
                target, receiver = self.supers.get(cls, "Object"), "super"
            call(target, ctor.start_point[0] + 1, receiver, ctor.start_byte)

    # -- package, imports, exports ----------------------------------------------------------------

    def _package(self, node) -> None:
        src = self.src
        mods = []
        for child in node.named_children:
            t = child.type
            if t == "identifier" or t == "scoped_identifier":
                self.package = _type_name(src[child.start_byte : child.end_byte])
            elif t == "annotation" or t == "marker_annotation":
                name = child.child_by_field_name("name")
                mods.append("@" + _type_name(src[name.start_byte : name.end_byte]))
        if self.package:
            self._add(
                "package",
                self.package,
                -1,
                node,
                "package " + self.package,
                self._doc(node),
                tuple(mods),
                qualified=self.package,
            )

    def _module(self, node) -> None:
        """``module-info.java``: the module is a symbol (kind "module") named by its full name."""
        src = self.src
        name = node.child_by_field_name("name")
        if name is None:
            return
        qualified = _type_name(src[name.start_byte : name.end_byte])
        modifiers = []
        for child in node.children:
            if child.type == "annotation" or child.type == "marker_annotation":
                annotation = child.child_by_field_name("name")
                modifiers.append("@" + _type_name(src[annotation.start_byte : annotation.end_byte]))
            elif child.type == "open":
                modifiers.append("open")
        signature = ("open module " if "open" in modifiers else "module ") + qualified
        self._add("module", qualified, -1, node, signature, self._doc(node), tuple(modifiers), qualified=qualified)
        body = next((c for c in node.children if c.type == "module_body"), None)
        for directive in body.children if body is not None else ():
            # `exports p;` makes p the module's API; `exports p to m;` shares it with friends only.
            if directive.type == "exports_module_directive" and not any(c.type == "to" for c in directive.children):
                package = next((c for c in directive.children if c.type in ("scoped_identifier", "identifier")), None)
                if package is not None:
                    name = _type_name(src[package.start_byte : package.end_byte])
                    self.package_exports.append(Export(name, directive.start_point[0] + 1, "package"))

    def _import(self, node) -> None:
        """``import a.b.C;`` binds C; ``import static a.b.C.m;`` binds m; wildcards bind nothing."""
        src = self.src
        written = _IMPORT.fullmatch(src, node.start_byte, node.end_byte)
        if written is not None:
            static, path, wildcard = written.group(1), written.group(2), written.group(3)
            path = "".join(path.decode("utf-8", "replace").split())
        else:  # a comment inside the declaration: read the children
            static = wildcard = path = None
            for child in node.children:
                t = child.type
                if t == "scoped_identifier" or t == "identifier":
                    path = _type_name(src[child.start_byte : child.end_byte])
                elif t == "static":
                    static = True
                elif t == "asterisk":
                    wildcard = True
            if not path:
                return
        kind = "static" if static else ""
        line = node.start_point[0] + 1
        if wildcard:
            self.imports.append(Import(path, "*", "", line, kind, path))
        else:
            module, _, name = path.rpartition(".")
            self.imports.append(Import(module, name, name, line, kind, path))

    def _exports(self) -> list[Export]:
        """Public top-level types and their public/protected members, by simple name. Members of
        interfaces and annotation types are implicitly public, enum constants always are."""
        symbols = self.symbols
        exported_types = set()
        seen = set()
        exports = []
        for i, s in enumerate(symbols):
            if s.parent == -1:
                if s.kind not in TYPE_KINDS or _VISIBLE.isdisjoint(s.modifiers):
                    continue
                exported_types.add(i)
            elif s.parent in exported_types:
                owner = symbols[s.parent].kind
                if not (
                    not _VISIBLE.isdisjoint(s.modifiers)
                    or s.kind == "enum_member"
                    or (owner in ("interface", "annotation") and "private" not in s.modifiers)
                ):
                    continue
            else:
                continue
            if s.name not in seen:
                seen.add(s.name)
                exports.append(Export(s.name, s.start_line))
        return exports
