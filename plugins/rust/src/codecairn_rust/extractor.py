"""Rust facts from one parsed file: modules, items, impl blocks, use trees, calls.

Naming (what the core resolver must agree with):

* ``FileFacts.module`` comes from the path. Below the nearest ``src`` directory:
  ``src/lib.rs`` and ``src/main.rs`` are ``crate``, ``src/a/mod.rs`` is ``crate::a``,
  ``src/a/b.rs`` is ``crate::a::b``. A file with no ``src`` ancestor is named the same way from
  the root (``tests/fs.rs`` -> ``crate::tests::fs``, ``build.rs`` -> ``crate::build``). Every
  crate of a workspace therefore calls its own root ``crate``: ``crate::`` names are unique only
  within one crate (the directory holding that ``src``).
* Qualified names are ``::``-joined under the module: ``crate::runtime::Runtime``, an enum variant
  ``crate::a::Kind::Io``, a field ``crate::a::Point::x``, an inline module ``crate::a::tests``, an
  item declared inside a function ``crate::a::f::Helper``. ``#[macro_export]`` macros live at
  ``crate::name``, as in Rust itself.
* ``impl`` blocks are not symbols. Their functions are methods named ``<type>::<method>`` where
  ``<type>`` is the impl's self type resolved like a path (through the file's ``use`` bindings,
  ``self``/``super``/``crate``), e.g. ``crate::runtime::Runtime::block_on``. A method's parent is
  the type's symbol when that type is declared in the same file, else -1 (the qualified name
  still says which type it belongs to).
* ``impl Trait for Type`` gives an ``implements`` relation: source = the type's symbol when it is
  in this file, else -1; target = the trait as written without generics (``fmt::Display``);
  receiver = the type as written (``Runtime``, ``super::Foo``); receiver_type = the type's
  absolute qualified name (``crate::runtime::Runtime``). ``#[derive(Debug, Clone)]`` gives the
  same relations (targets ``Debug``, ``Clone``). Blanket impls (``impl<T> Tr for T``) give none.
* ``use`` trees are flattened, one Import per bound name: ``module`` is the path as written up to
  the last segment, ``name`` the last segment ("" for ``self``, "*" for globs), ``alias`` the local
  binding, ``target`` the absolute path: ``crate``/``self``/``super`` and names of items declared
  in the same module (2018 uniform paths) are resolved to ``crate::...``; other paths (``std::``,
  ``tokio::``) are left as written.
* Calls: ``foo()`` target ``foo``; ``a::b::c()`` target ``c`` receiver ``a::b``; ``Self::new()``
  receiver ``Self``; ``self::foo()`` receiver the module's own path (``crate::a``), so it is never
  read as a method of the value ``self``; ``x.foo()`` receiver ``x``; generic arguments are dropped from receivers
  (``Vec::<u8>::new`` -> receiver ``Vec``). Call-like ``name(...)`` tokens inside macro arguments,
  up to two token trees deep (``assert_eq!(f(g(x)), 1)`` gives ``f`` and ``g``), are calls too. Macro invocations themselves are ``references``
  relations (target = the macro name without ``!``, receiver = its path, ``tokio`` in
  ``tokio::select!``): ``references`` in Rust facts always means "macro used here".
* Items inside item-level macro bodies with braces (tokio's ``cfg_rt! { ... }``) are parsed again
  as items in place, when that parse is clean, so they are neither lost nor misplaced.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from operator import attrgetter, itemgetter

import tree_sitter_rust
from codecairn.extractors.common import SIGNATURE_MAX, first_doc_line, has_errors, signature
from codecairn.model import Export, FileFacts, Import, Relation, Symbol
from tree_sitter import Language as TSLanguage
from tree_sitter import Parser, Query, QueryCursor, Range

EXTRACTOR = "rust"
SEP = "::"

_ITEM_TYPES = (
    "(function_item) (struct_item) (enum_item) (union_item) (trait_item) (impl_item) (mod_item) "
    "(const_item) (static_item) (type_item) (macro_definition) (use_declaration) "
    "(extern_crate_declaration) (foreign_mod_item)"
)
_QUERY_SOURCE = f"""
(call_expression function: (identifier) @call.bare)
(call_expression function: (scoped_identifier) @call.path)
(call_expression function: (field_expression) @call.method)
(call_expression function: (generic_function function: (_) @call.generic))
(macro_invocation macro: (_) @macro)
[{_ITEM_TYPES}] @item
(let_declaration pattern: (identifier) type: (_)) @let.typed
(let_declaration pattern: (identifier)
  value: [(struct_expression) (call_expression function: (scoped_identifier))]) @let.value
(parameter pattern: (identifier) type: (_)) @param
(macro_invocation (token_tree (identifier) @tt.call . (token_tree)))
(macro_invocation (token_tree (token_tree (identifier) @tt.call . (token_tree))))
"""
_compiled: dict[str, object] = {}  # Language / Query, built lazily per process: a Query does not pickle


def _query() -> Query:
    q = _compiled.get("query")
    if q is None:
        q = _compiled["query"] = Query(_language(), _QUERY_SOURCE)
    return q


def _language() -> TSLanguage:
    lang = _compiled.get("language")
    if lang is None:
        lang = _compiled["language"] = TSLanguage(tree_sitter_rust.language())
    return lang


# ---- paths and names ----------------------------------------------------------------------------


def module_of(path: str) -> str:
    """``src/a/b.rs`` -> ``crate::a::b`` (see the module docstring for the whole rule)."""
    parts = [p for p in path.replace("\\", "/").split("/") if p and p != "."]
    if not parts:
        return "crate"
    dirs, filename = parts[:-1], parts[-1]
    for i in range(len(dirs) - 1, -1, -1):
        if dirs[i] == "src":
            dirs = dirs[i + 1 :]
            break
    stem = filename[:-3] if filename.endswith(".rs") else filename
    segments = list(dirs)
    if stem == "mod" or (stem in ("lib", "main") and not dirs):
        pass
    else:
        segments.append(stem)
    return SEP.join(["crate", *(s.replace("-", "_") for s in segments)])


_GENERIC_ARGS = re.compile(r"(::)?<[^<>]*>")


def _strip_generics(text: str) -> str:
    """``Vec::<u8>::new`` -> ``Vec::new``; ``HashMap<K, Vec<V>>`` -> ``HashMap``."""
    if "<" not in text or text.startswith("<"):
        return text
    previous = None
    while previous != text:
        previous, text = text, _GENERIC_ARGS.sub("", text)
    return text


_LINE_BREAK = re.compile(r"\s*\n\s*")


def _one_line(text: str) -> str:
    """A call chain broken over lines reads as one chain: ``a\n    .b()`` -> ``a.b()``."""
    return _LINE_BREAK.sub("", text) if "\n" in text else text


def _signature(source: bytes, node, body=None) -> str:
    """common.signature, without its regex for the usual short declaration (hot: once per symbol)."""
    raw = source[node.start_byte : body.start_byte if body is not None else node.end_byte]
    if len(raw) < SIGNATURE_MAX:
        return " ".join(raw.decode("utf-8", "replace").split()).rstrip("{:;").rstrip()
    return signature(source, node, body)


def _is_outer_doc(raw: bytes) -> bool:
    return (raw.startswith(b"///") and not raw.startswith(b"////")) or (
        raw.startswith(b"/**") and not raw.startswith(b"/***") and not raw.startswith(b"/**/")
    )


def _leading(source: bytes, node) -> tuple[str, list[bytes]]:
    """The first doc line and the attributes written above ``node`` (outer `///` docs, `#[...]`)."""
    docs: list[bytes] = []
    attrs: list[bytes] = []
    prev = node.prev_sibling
    while prev is not None:
        t = prev.type
        if t == "attribute_item":
            attrs.append(source[prev.start_byte : prev.end_byte])
        elif t == "line_comment" or t == "block_comment":
            raw = source[prev.start_byte : prev.end_byte]
            if not _is_outer_doc(raw):
                break
            docs.append(raw)
        else:
            break
        prev = prev.prev_sibling
    docs.reverse()
    attrs.reverse()
    return _doc_line(docs), attrs


def _annotated(source: bytes, children):
    """Yield ``(node, doc, attrs)`` for each item among ``children``, with the outer docs and
    attributes written above it. The siblings are scanned once, in order, rather than walking
    back from every item: each of the many `///` lines of a documented body is looked at once."""
    docs: list[bytes] = []
    attrs: list[bytes] = []
    for child in children:
        t = child.type
        if t == "line_comment" or t == "block_comment":
            raw = source[child.start_byte : child.end_byte]
            if _is_outer_doc(raw):
                docs.append(raw)
            continue
        if t == "attribute_item":
            attrs.append(source[child.start_byte : child.end_byte])
            continue
        yield child, _doc_line(docs) if docs else "", attrs
        if docs:
            docs = []
        if attrs:
            attrs = []


def _without_errors(children) -> list:
    """``children`` with each ERROR node replaced by its own children: whole items the parser
    could not place (after an unclosed brace, say) are still items."""
    if not any(c.type == "ERROR" for c in children):
        return children
    flat = []
    for child in children:
        if child.type == "ERROR":
            flat.extend(_without_errors(child.children))
        else:
            flat.append(child)
    return flat


def _doc_line(docs: list[bytes]) -> str:
    for raw in docs:
        line = first_doc_line(raw.decode("utf-8", "replace"))
        if line:
            return line
    return ""


def _inner_doc(source: bytes, body) -> str:
    """First line of the `//!` comments opening an inline module's body."""
    for child in body.children:
        if child.type == "{":
            continue
        if child.type != "line_comment" and child.type != "block_comment":
            break
        raw = source[child.start_byte : child.end_byte]
        if raw.startswith(b"//!") or raw.startswith(b"/*!"):
            line = first_doc_line(raw.decode("utf-8", "replace").replace("//!", "//", 1).replace("/*!", "/*", 1))
            if line:
                return line
    return ""


_DERIVE = re.compile(rb"#\[\s*derive\s*\((.*)\)\s*\]", re.S)


def _derives(attrs: list[bytes]) -> list[str]:
    names: list[str] = []
    for attr in attrs:
        m = _DERIVE.match(attr)
        if m:
            names.extend(n.strip().decode() for n in m.group(1).split(b",") if n.strip())
    return names


def _attribute_modifiers(attrs: list[bytes]) -> tuple[str, ...]:
    mods = []
    for attr in attrs:
        if attr in (b"#[test]", b"#[tokio::test]") or attr.startswith(b"#[tokio::test("):
            mods.append("test")
    return tuple(mods)


def _type_name(source: bytes, node) -> str:
    """The named type a declaration gives: ``&mut Foo<T>`` -> ``Foo``, ``io::Result<()>`` -> ``io::Result``."""
    while node is not None:
        t = node.type
        if t == "type_identifier" or t == "scoped_type_identifier" or t == "identifier" or t == "scoped_identifier":
            return _strip_generics(source[node.start_byte : node.end_byte].decode("utf-8", "replace"))
        if t == "reference_type" or t == "generic_type" or t == "pointer_type":
            node = node.child_by_field_name("type")
        else:
            return ""
    return ""


_SPACE = re.compile(rb"\s*")
_ITEM_KEYWORD = re.compile(  # an item, or a nested item-level macro: `cfg_rt! { cfg_net! { ... } }`
    rb"(?:pub|fn|struct|enum|union|impl|trait|mod|use|const|static|type|unsafe|async|extern|macro_rules)\b"
    rb"|[A-Za-z_]\w*!\s*\{"
)


def _is_self_parameter(node, text) -> bool:
    """``self``, ``&mut self`` — or ``self: Pin<&mut Self>``, ``self: Arc<Self>``: a method's receiver
    with its type written out (every ``poll`` of a ``Future``), a parameter whose pattern is self."""
    if node.type == "self_parameter":
        return True
    pattern = node.child_by_field_name("pattern") if node.type == "parameter" else None
    return pattern is not None and text(pattern).replace("mut ", "").strip() == "self"


def _items_ahead(source: bytes, start: int, end: int) -> bool:
    """Does the text after ``start`` begin like an item, once comments and attributes are skipped?
    (However long they are: tokio's `cfg_rt! {` opens with 150 lines of doc before `pub fn spawn`.
    Skipping them is a find per comment; the first other token decides.)"""
    i = start
    while i < end:
        i = _SPACE.match(source, i).end()
        if source.startswith(b"//", i):
            found = source.find(b"\n", i, end)
        elif source.startswith(b"/*", i):
            found = source.find(b"*/", i, end)
            found = found + 1 if found >= 0 else -1
        elif source.startswith(b"#", i):
            found = source.find(b"]", i, end)
        else:
            return _ITEM_KEYWORD.match(source, i, end) is not None
        if found < 0:
            return False
        i = found + 1
    return False


_CONSTRUCTOR = re.compile(r"^(new|default|from)(_\w*)?$|^with_\w+$")
# What precedes a `name(` in macro tokens, matched on the reversed text (anchored, no scanning):
# `a.b.` / `a::b::` (the receiver chain) and `fn ` (a definition, not a call).
_REVERSED_RECEIVER = re.compile(rb"(?:\.|::)\s*((?:\w+(?:\.|::))*\w+)(?![\w.:)\]>])")
_REVERSED_DEFINITION = re.compile(rb"\s*(?:nf|tcurts|mune|noinu|tiart|epyt|dom)\b")


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, non-overlapping union of byte ranges."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


class _Context:
    """Where items are being declared: the Rust module, the qualified prefix, the owner."""

    __slots__ = ("module", "prefix", "uses", "names", "owner", "owner_kind", "self_type", "exported")

    def __init__(self, module, prefix, uses, names, owner=-1, owner_kind="module", self_type="", exported=False):
        self.module = module  # Rust module path, for `self`/`super` in use paths
        self.prefix = prefix  # qualified prefix of items declared here
        self.uses = uses  # local binding -> absolute path (this module's `use`s)
        self.names = names  # names of items declared in this module
        self.owner = owner  # symbol index of the enclosing symbol (-1 = none / pending)
        self.owner_kind = owner_kind  # "module" | "impl" | "trait" | "extern" | "fn"
        self.self_type = self_type  # for impl/trait bodies: the type `self` has, as written
        self.exported = exported  # members of a `pub` trait/enum are public with it


class _Scope:
    """A byte range calls are attributed to: a function (or an impl/trait body)."""

    __slots__ = ("start", "end", "parent", "source", "context", "locals")

    def __init__(self, start, end, parent, source, context):
        self.start, self.end, self.parent, self.source, self.context = start, end, parent, source, context
        self.locals: dict[str, str] | None = None


class _RustFile:
    def __init__(self, source: bytes, path: str) -> None:
        self.source = source
        self.module = module_of(path)
        self.symbols: list[Symbol] = []
        self.relations: list[Relation] = []  # extends / implements, from declarations
        self.sites: list[tuple[int, Relation]] = []  # calls and macro uses, with their end byte
        self.imports: list[Import] = []
        self.exports: list[Export] = []
        self.types: dict[str, int] = {}  # qualified name -> symbol index
        self.fields: dict[str, dict[str, str]] = {}  # type qualified name -> field -> type
        self.pending_parents: list[tuple[int, str]] = []  # method index -> impl type qualified name
        self.pending_sources: list[tuple[int, str]] = []  # relation index -> impl type qualified name
        self.scopes: list[_Scope] = []
        self.scope_starts: list[int] = []
        self._last = -1  # innermost()'s last index
        self.reparsed: list[tuple[int, int]] = []  # macro bodies parsed again as items
        self.subtrees: list = []
        self.declared: set[int] = set()  # start bytes of items already declared

    # ---- small helpers -------------------------------------------------------------------------

    def text(self, node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def add(self, kind, name, qualified, node, sig="", doc="", parent=-1, modifiers=(), exported=False) -> int:
        start, end = node.start_point, node.end_point
        if exported:
            local = qualified[len(self.module) + 2 :] if qualified.startswith(self.module + SEP) else qualified
            self.exports.append(Export(local, start[0] + 1))
        self.symbols.append(
            Symbol(kind, name, qualified, start[0] + 1, start[1], end[0] + 1, end[1], sig, doc, parent, modifiers)
        )
        return len(self.symbols) - 1

    def visibility(self, node) -> tuple[tuple[str, ...], bool]:
        """(modifiers, exported) from a leading `pub`, `pub(crate)`..."""
        first = node.child(0)
        if first is None or first.type != "visibility_modifier":
            return (), False
        vis = self.text(first).replace(" ", "")
        return ("public",) if vis == "pub" else (vis,), vis == "pub"

    def add_scope(self, start, end, source, context) -> _Scope:
        scope = _Scope(start, end, self.innermost(start), source, context)
        i = bisect_right(self.scope_starts, start)
        self.scope_starts.insert(i, start)
        self.scopes.insert(i, scope)
        return scope

    def innermost(self, byte: int) -> _Scope | None:
        # Call sites arrive in source order, mostly many per function: try the last answer first.
        i = self._last
        starts = self.scope_starts
        if not (0 <= i < len(starts) and starts[i] <= byte and (i + 1 == len(starts) or starts[i + 1] > byte)):
            i = self._last = bisect_right(starts, byte) - 1
        scope = self.scopes[i] if i >= 0 else None
        while scope is not None and not (scope.start <= byte < scope.end):
            scope = scope.parent
        return scope

    def resolve(self, segments: list[str], context: _Context) -> str:
        """A path as written -> absolute (``crate::...``) when it is local; else unchanged."""
        if not segments:
            return ""
        head = segments[0]
        if head == "crate":
            return SEP.join(segments)
        if head == "self":
            return SEP.join([context.module, *segments[1:]])
        if head == "super":
            module = context.module.split(SEP)
            i = 0
            while i < len(segments) and segments[i] == "super" and len(module) > 1:
                module.pop()
                i += 1
            return SEP.join(module + segments[i:])
        if head == "":  # `::std::x`: an extern crate path
            return SEP.join(segments[1:])
        if head in context.uses:
            return SEP.join([context.uses[head], *segments[1:]])
        if head in context.names:
            return SEP.join([context.module, *segments])
        return SEP.join(segments)

    # ---- items ---------------------------------------------------------------------------------

    def container(self, body, context: _Context) -> None:
        """Declare every item of a source file / module / impl / trait / extern body."""
        children = _without_errors(body.children)
        if context.owner_kind == "module":
            for child in children:  # names first: `use` paths and impl types may refer forward
                name = child.child_by_field_name("name") if child.type in _NAMED_ITEMS else None
                if name is not None:
                    context.names.add(self.text(name))
            for child in children:
                if child.type == "use_declaration":
                    self.use_declaration(child, context)
        declared = self.declared
        for child, doc, attrs in _annotated(self.source, children):
            t = child.type
            if t != "use_declaration":
                handler = _HANDLERS.get(t)
                if handler is not None:
                    declared.add(child.start_byte)
                    handler(self, child, context, doc, attrs)
            else:
                declared.add(child.start_byte)

    def item(self, node, context: _Context) -> None:
        """An item met inside a function body (found by the query, not by walking)."""
        self.declared.add(node.start_byte)
        if node.type == "use_declaration":
            self.use_declaration(node, context)
            return
        handler = _HANDLERS.get(node.type)
        if handler is not None:
            doc, attrs = _leading(self.source, node)
            handler(self, node, context, doc, attrs)

    def function(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node)
        body = node.child_by_field_name("body")
        modifiers, exported = self.visibility(node)
        member = context.owner_kind in ("impl", "trait")
        kind = "method" if member else "function"
        for child in node.children:
            if child.type == "function_modifiers":
                modifiers += tuple(self.text(child).split())
            elif child.type == "parameters" and member:
                first = child.named_children[0] if child.named_child_count else None
                if first is None or not _is_self_parameter(first, self.text):
                    modifiers += ("static",)
        if body is None and context.owner_kind == "trait":
            modifiers += ("abstract",)
        modifiers += _attribute_modifiers(attrs)
        exported = exported or context.exported
        qualified = context.prefix + SEP + name
        index = self.add(
            kind,
            name,
            qualified,
            node,
            _signature(self.source, node, body),
            doc,
            context.owner,
            modifiers,
            exported and context.owner_kind != "fn",
        )
        if context.owner_kind == "impl" and context.owner < 0:
            self.pending_parents.append((index, context.prefix))
        if body is not None:
            inner = _Context(context.module, qualified, context.uses, context.names, index, "fn", context.self_type)
            self.add_scope(node.start_byte, node.end_byte, index, inner)

    def struct(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node)
        kind = "union" if node.type == "union_item" else "struct"
        body = node.child_by_field_name("body")
        modifiers, exported = self.visibility(node)
        qualified = context.prefix + SEP + name
        sig = _signature(
            self.source, node, body if body is not None and body.type == "field_declaration_list" else None
        )
        exported = exported and context.owner_kind != "fn"
        index = self.add(kind, name, qualified, node, sig, doc, context.owner, modifiers, exported)
        self.types[qualified] = index
        self.derives(index, attrs, node)
        if body is not None and body.type == "field_declaration_list":
            self.field_list(body, qualified, index, exported)

    def field_list(self, body, qualified: str, parent: int, owner_exported: bool, all_public: bool = False) -> None:
        """Named fields of a struct, union or struct-like variant (whose fields are public with it)."""
        field_types = self.fields.setdefault(qualified, {})
        for field, doc, _ in _annotated(self.source, body.children):
            if field.type != "field_declaration":
                continue
            name_node = field.child_by_field_name("name")
            if name_node is None:
                continue
            name = self.text(name_node)
            modifiers, exported = self.visibility(field)
            self.add(
                "field",
                name,
                qualified + SEP + name,
                field,
                _signature(self.source, field),
                doc,
                parent,
                modifiers,
                owner_exported and (exported or all_public),
            )
            type_name = _type_name(self.source, field.child_by_field_name("type"))
            if type_name:
                field_types[name] = type_name

    def enum(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node)
        body = node.child_by_field_name("body")
        modifiers, exported = self.visibility(node)
        exported = exported and context.owner_kind != "fn"
        qualified = context.prefix + SEP + name
        index = self.add(
            "enum", name, qualified, node, _signature(self.source, node, body), doc, context.owner, modifiers, exported
        )
        self.types[qualified] = index
        self.derives(index, attrs, node)
        if body is None:
            return
        for variant, vdoc, _ in _annotated(self.source, body.children):
            if variant.type != "enum_variant":
                continue
            vname_node = variant.child_by_field_name("name")
            if vname_node is None:
                continue
            vname = self.text(vname_node)
            vbody = variant.child_by_field_name("body")
            vqualified = qualified + SEP + vname
            vindex = self.add(
                "variant",
                vname,
                vqualified,
                variant,
                _signature(
                    self.source,
                    variant,
                    vbody if vbody is not None and vbody.type == "field_declaration_list" else None,
                ),
                vdoc,
                index,
                ("public",) if exported else (),
                exported,
            )
            if vbody is not None and vbody.type == "field_declaration_list":
                self.field_list(vbody, vqualified, vindex, exported, all_public=True)

    def derives(self, index: int, attrs: list[bytes], node) -> None:
        if attrs:
            for trait in _derives(attrs):
                self.relations.append(Relation("implements", index, _strip_generics(trait), node.start_point.row + 1))

    def trait(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node)
        body = node.child_by_field_name("body")
        modifiers, exported = self.visibility(node)
        exported = exported and context.owner_kind != "fn"
        for child in node.children:
            if child.type == "unsafe":
                modifiers += ("unsafe",)
        qualified = context.prefix + SEP + name
        index = self.add(
            "trait", name, qualified, node, _signature(self.source, node, body), doc, context.owner, modifiers, exported
        )
        self.types[qualified] = index
        bounds = node.child_by_field_name("bounds")
        if bounds is not None:
            for bound in bounds.named_children:
                written = _type_name(self.source, bound)
                if written:
                    self.relations.append(Relation("extends", index, written, bound.start_point.row + 1))
        if body is not None:
            inner = _Context(context.module, qualified, context.uses, context.names, index, "trait", name, exported)
            self.add_scope(body.start_byte, body.end_byte, index, inner)
            self.container(body, inner)

    def impl(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        type_node = node.child_by_field_name("type")
        body = node.child_by_field_name("body")
        if type_node is None:
            return
        while (
            type_node.type in ("reference_type", "pointer_type") and type_node.child_by_field_name("type") is not None
        ):
            type_node = type_node.child_by_field_name("type")
        base = type_node.child_by_field_name("type") if type_node.type == "generic_type" else type_node
        generics = set()
        params = node.child_by_field_name("type_parameters")
        if params is not None:
            for p in params.named_children:
                pname = p.child_by_field_name("name")
                if pname is not None:
                    generics.add(self.text(pname))
        if base.type in ("type_identifier", "scoped_type_identifier"):
            written = self.text(base)
            absolute = self.type_path(written, context)
        else:  # `impl [T]`, `impl u8`, `impl dyn Any`: named by their text
            written = "".join(self.text(base).split())
            absolute = context.prefix + SEP + written
        blanket = written in generics
        owner = self.types.get(absolute, -1)
        trait_node = node.child_by_field_name("trait")
        if trait_node is not None and not blanket:
            target = _strip_generics(self.text(trait_node).replace(" ", ""))
            if target.startswith("!"):  # negative impl `impl !Send for T`
                target = ""
            if target:
                self.relations.append(
                    Relation("implements", owner, target, node.start_point.row + 1, written, absolute)
                )
                if owner < 0:
                    self.pending_sources.append((len(self.relations) - 1, absolute))
        if body is not None:
            inner = _Context(context.module, absolute, context.uses, context.names, owner, "impl", written)
            self.add_scope(body.start_byte, body.end_byte, owner, inner)
            self.container(body, inner)

    def type_path(self, written: str, context: _Context) -> str:
        segments = written.split(SEP)
        if len(segments) > 1:
            return self.resolve(segments, context)
        local = context.prefix + SEP + written
        if local in self.types:
            return local
        if written in context.uses:
            return context.uses[written]
        if context.prefix != context.module and written in context.names:
            return context.module + SEP + written  # an impl inside a function, of a module-level type
        return local

    def module_item(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node)
        body = node.child_by_field_name("body")
        if body is not None and not doc:
            doc = _inner_doc(self.source, body)
        modifiers, exported = self.visibility(node)
        qualified = context.prefix + SEP + name
        index = self.add(
            "module",
            name,
            qualified,
            node,
            _signature(self.source, node, body),
            doc,
            context.owner,
            modifiers,
            exported and context.owner_kind != "fn",
        )
        if body is not None:
            self.container(body, _Context(qualified, qualified, {}, set(), index, "module"))

    def value(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node)
        if name == "_":
            return
        t = node.type
        modifiers, exported = self.visibility(node)
        if t == "static_item":
            kind = "variable"
            modifiers += ("static",)
            if any(c.type == "mutable_specifier" for c in node.children):
                modifiers += ("mut",)
        elif t == "const_item":
            kind = "constant"
        else:  # type_item, associated_type
            kind = "type"
        value = node.child_by_field_name("value")
        sig = _signature(self.source, node, value)
        if value is not None:
            sig = sig.rstrip("= ").rstrip()
        qualified = context.prefix + SEP + name
        index = self.add(
            kind,
            name,
            qualified,
            node,
            sig,
            doc,
            context.owner,
            modifiers,
            (exported or context.exported) and context.owner_kind != "fn",
        )
        if context.owner_kind == "impl" and context.owner < 0:
            self.pending_parents.append((index, context.prefix))

    def macro(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node)
        exported = any(a.replace(b" ", b"").startswith(b"#[macro_export") for a in attrs)
        qualified = ("crate" if exported else context.prefix) + SEP + name
        start, end = node.start_point, node.end_point
        if exported:
            self.exports.append(Export(name, start[0] + 1))
        self.symbols.append(
            Symbol(
                "macro",
                name,
                qualified,
                start[0] + 1,
                start[1],
                end[0] + 1,
                end[1],
                f"macro_rules! {name}",
                doc,
                context.owner,
                ("public",) if exported else (),
            )
        )

    def foreign(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        body = node.child_by_field_name("body")
        if body is not None:
            inner = _Context(context.module, context.prefix, context.uses, context.names, context.owner, "extern")
            self.container(body, inner)

    def item_macro(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        """``cfg_rt! { pub struct X; ... }``: parse the braces again, as items, in place."""
        body = node.child(node.child_count - 1) if node.child_count else None
        if body is None or body.type != "token_tree" or self.source[body.start_byte : body.start_byte + 1] != b"{":
            return
        if not _items_ahead(self.source, body.start_byte + 1, body.end_byte):
            return  # `impl_int! { u8 u16 }`: arguments, not items; do not pay for a parse
        start, end = body.start_point, body.end_point
        inner_range = Range(
            (start[0], start[1] + 1), (end[0], max(end[1] - 1, 0)), body.start_byte + 1, body.end_byte - 1
        )
        # A parser is cheap (microseconds) and this one is never shared: extraction stays re-entrant.
        root = Parser(_language(), included_ranges=[inner_range]).parse(self.source).root_node
        if root.has_error or not any(c.type in _HANDLERS or c.type == "use_declaration" for c in root.children):
            return
        self.reparsed.append((body.start_byte, body.end_byte))
        self.subtrees.append(root)
        self.container(root, context)

    def use_declaration(self, node, context: _Context) -> None:
        argument = node.child_by_field_name("argument")
        if argument is None:
            return
        _, public = self.visibility(node)
        self.use_tree(argument, [], context, node.start_point.row + 1, public)

    def use_tree(self, node, prefix: list[str], context: _Context, line: int, public: bool) -> None:
        t = node.type
        if t == "scoped_use_list":
            path = node.child_by_field_name("path")
            inner = prefix + (self.text(path).replace(" ", "").split(SEP) if path is not None else [])
            use_list = node.child_by_field_name("list")
            if use_list is not None:
                self.use_tree(use_list, inner, context, line, public)
        elif t == "use_list":
            for child in node.named_children:
                self.use_tree(child, prefix, context, line, public)
        elif t == "use_as_clause":
            path = node.child_by_field_name("path")
            alias = node.child_by_field_name("alias")
            if path is not None:
                segments = prefix + self.text(path).replace(" ", "").split(SEP)
                self.bind(segments, self.text(alias) if alias is not None else "", context, line, public)
        elif t == "use_wildcard":
            path = node.named_children[0] if node.named_child_count else None
            segments = prefix + (self.text(path).replace(" ", "").split(SEP) if path is not None else [])
            written = SEP.join(segments)
            target = self.resolve(segments, context) if segments else context.module
            self.imports.append(Import(written, "*", "", line, "", target))
            if public:
                self.exports.append(Export("*", line, "re-export", target))
        elif t in ("identifier", "scoped_identifier", "self", "crate", "super", "metavariable"):
            segments = prefix + self.text(node).replace(" ", "").split(SEP)
            self.bind(segments, "", context, line, public)

    def bind(self, segments: list[str], alias: str, context: _Context, line: int, public: bool) -> None:
        if segments[-1] == "self":  # `use a::b::{self}` binds the module b
            segments = segments[:-1]
            if not segments:
                return
        name = segments[-1]
        module = SEP.join(segments[:-1]) if len(segments) > 1 else name
        imported = name if len(segments) > 1 else ""
        local = alias or name
        target = self.resolve(segments, context)
        if local == "_":  # `use Trait as _`: brings methods in scope, binds no name
            self.imports.append(Import(module, imported, "", line, "", target))
            return
        self.imports.append(Import(module, imported, local, line, "", target))
        if local not in ("crate", "self", "super"):
            context.uses[local] = target
        if public:
            source = target.rsplit(SEP, 1)[0] if SEP in target else target
            self.exports.append(Export(name, line, "re-export", source, alias if alias and alias != name else ""))

    def extern_crate(self, node, context: _Context, doc: str = "", attrs=()) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node)
        alias_node = node.child_by_field_name("alias")
        alias = self.text(alias_node) if alias_node is not None else name
        target = "crate" if name == "self" else name
        self.imports.append(Import(name, "", alias, node.start_point.row + 1, "", target))
        context.uses[alias] = target

    # ---- bodies: nested items, calls, macros ---------------------------------------------------

    def bodies(self, roots) -> None:
        source = self.source
        cursor = QueryCursor(_query())
        found: dict[str, list] = {}
        for root in roots:
            for name, nodes in cursor.captures(root).items():
                found.setdefault(name, []).extend(nodes)
        for nodes in found.values():  # captures come grouped by pattern, not in reading order
            nodes.sort(key=_start_byte)

        # Items declared inside function bodies (every other item is declared already), outermost
        # first: their scopes enclose the later ones.
        declared = self.declared
        for node in found.get("item", ()):
            if node.start_byte in declared:
                continue
            scope = self.innermost(node.start_byte)
            if scope is None:
                continue
            outer = scope.context
            context = _Context(outer.module, outer.prefix, outer.uses, outer.names, scope.source, "fn", outer.self_type)
            self.item(node, context)

        for node in found.get("param", ()):
            self.declare_local(node, "pattern", node.child_by_field_name("type"))
        for node in found.get("let.typed", ()):
            self.declare_local(node, "pattern", node.child_by_field_name("type"))
        for node in found.get("let.value", ()):
            value = node.child_by_field_name("value")
            if value.type == "struct_expression":
                type_node = value.child_by_field_name("name")
            else:  # `Foo::new(..)`: a constructor by naming convention
                function = value.child_by_field_name("function")
                path, ctor = function.child_by_field_name("path"), function.child_by_field_name("name")
                if path is None or ctor is None or not _CONSTRUCTOR.match(self.text(ctor)):
                    continue
                type_node = path
            self.declare_local(node, "pattern", type_node)

        # Call sites are collected with the byte where their name ends, so that they can be listed
        # in reading order: `a.iter().map(..)` has `iter` before `map` although both start at `a`.
        sites = self.sites
        innermost = self.innermost
        for node in found.get("call.bare", ()):
            scope = innermost(node.start_byte)
            sites.append(
                (
                    node.end_byte,
                    Relation(
                        "calls",
                        scope.source if scope else -1,
                        source[node.start_byte : node.end_byte].decode("utf-8", "replace"),
                        node.start_point.row + 1,
                    ),
                )
            )
        for key, separator in (("call.path", SEP), ("call.method", ".")):
            for node in found.get(key, ()):
                self.call(node, separator)
        for node in found.get("call.generic", ()):
            t = node.type
            if t == "identifier":
                scope = innermost(node.start_byte)
                sites.append(
                    (
                        node.end_byte,
                        Relation("calls", scope.source if scope else -1, self.text(node), node.start_point.row + 1),
                    )
                )
            elif t == "scoped_identifier":
                self.call(node, SEP)
            elif t == "field_expression":
                self.call(node, ".")

        for node in found.get("macro", ()):
            receiver, _, target = self.text(node).replace(" ", "").rpartition(SEP)
            scope = innermost(node.start_byte)
            sites.append(
                (
                    node.end_byte,
                    Relation("references", scope.source if scope else -1, target, node.start_point.row + 1, receiver),
                )
            )

        # `name(...)` in a macro's arguments, two token trees deep at most (`assert!(f(g(x)))` gives
        # f and g), except in macro bodies already parsed again as items. Token trees of attributes
        # and of macro_rules bodies are not macro invocations, so they never match.
        opaque = _merged(self.reparsed)
        opaque_starts = [o[0] for o in opaque]
        for node in found.get("tt.call", ()):
            start = node.start_byte
            i = bisect_right(opaque_starts, start) - 1
            if i >= 0 and start < opaque[i][1]:
                continue
            after = source[node.end_byte : node.end_byte + 8].lstrip()
            if not after.startswith(b"("):
                continue
            receiver = ""
            before = source[start - 1 : start]
            if before in b" \t\n.:":  # else `(f(`, `,f(`, `!f(`...: a bare call, cheaply
                reversed_window = source[max(0, start - 100) : start].rstrip()[::-1]
                if reversed_window[:1] == b"." or reversed_window[:2] == b"::":
                    m = _REVERSED_RECEIVER.match(reversed_window)
                    if m is None or m.group(1)[-1:].isdigit():
                        continue  # `f(x).g(..)` inside a macro: no receiver we can name
                    receiver = m.group(1)[::-1].decode("utf-8", "replace")
                elif _REVERSED_DEFINITION.match(reversed_window):
                    continue
            scope = innermost(start)
            sites.append(
                (
                    node.end_byte,
                    Relation(
                        "calls",
                        scope.source if scope else -1,
                        self.text(node),
                        node.start_point.row + 1,
                        receiver,
                        self.receiver_type(receiver, scope),
                    ),
                )
            )

    def call(self, node, separator: str) -> None:
        receiver, _, target = self.text(node).rpartition(separator)
        receiver = _strip_generics(_one_line(receiver.strip()))
        target = target.strip()
        scope = self.innermost(node.start_byte)
        if separator == SEP and (receiver == "self" or receiver.startswith("self" + SEP)):
            # `self::f()` names this module, not the value `self` of a method: written out as the
            # module's own path it cannot be mistaken for a method call on `self`.
            receiver = (scope.context.module if scope else self.module) + receiver[len("self") :]
        self.sites.append(
            (
                node.end_byte,
                Relation(
                    "calls",
                    scope.source if scope else -1,
                    target,
                    node.end_point.row + 1,
                    receiver,
                    self.receiver_type(receiver, scope),
                ),
            )
        )

    def declare_local(self, node, field: str, type_node) -> None:
        type_name = _type_name(self.source, type_node)
        if not type_name:
            return
        scope = self.innermost(node.start_byte)
        if scope is None:
            return
        name = node.child_by_field_name(field)
        if scope.locals is None:
            scope.locals = {}
        scope.locals[self.text(name)] = type_name

    def receiver_type(self, receiver: str, scope: _Scope | None) -> str:
        if not receiver or scope is None:
            return ""
        head, dot, rest = receiver.partition(".")
        if head == "self" or head == "Self":
            declared = scope.context.self_type
            if not rest:
                return declared
            # `self.conn.send()`: the field's declared type, when the struct is in this file.
            return self.field_type(scope, rest) if dot and rest.isidentifier() else ""
        if dot or not head.isidentifier():
            return ""
        while scope is not None:
            if scope.locals and head in scope.locals:
                return scope.locals[head]
            scope = scope.parent
        return ""

    def field_type(self, scope: _Scope, field: str) -> str:
        # The impl's type qualified name is the prefix of the method's qualified name.
        owner = scope
        while owner is not None and owner.context.owner_kind == "fn" and owner.parent is not None:
            if owner.parent.context.owner_kind in ("impl", "trait"):
                return self.fields.get(owner.parent.context.prefix, {}).get(field, "")
            owner = owner.parent
        return ""

    # ---- finishing ---------------------------------------------------------------------------

    def link_pending(self) -> None:
        for index, type_qualified in self.pending_parents:
            parent = self.types.get(type_qualified, -1)
            if parent >= 0:
                self.symbols[index] = self.symbols[index]._replace(parent=parent)
        for index, type_qualified in self.pending_sources:
            source = self.types.get(type_qualified, -1)
            if source >= 0:
                self.relations[index] = self.relations[index]._replace(source=source)


_HANDLERS = {
    "function_item": _RustFile.function,
    "function_signature_item": _RustFile.function,
    "struct_item": _RustFile.struct,
    "union_item": _RustFile.struct,
    "enum_item": _RustFile.enum,
    "trait_item": _RustFile.trait,
    "impl_item": _RustFile.impl,
    "mod_item": _RustFile.module_item,
    "const_item": _RustFile.value,
    "static_item": _RustFile.value,
    "type_item": _RustFile.value,
    "associated_type": _RustFile.value,
    "macro_definition": _RustFile.macro,
    "foreign_mod_item": _RustFile.foreign,
    "extern_crate_declaration": _RustFile.extern_crate,
    "macro_invocation": _RustFile.item_macro,
}
_NAMED_ITEMS = frozenset(
    {
        "function_item",
        "struct_item",
        "union_item",
        "enum_item",
        "trait_item",
        "mod_item",
        "const_item",
        "static_item",
        "type_item",
        "macro_definition",
    }
)


_first = itemgetter(0)
_start_byte = attrgetter("start_byte")
_line = attrgetter("line")


def extract(source: bytes, tree, path: str) -> FileFacts:
    """Facts of one Rust file. ``path`` is relative to the indexed root."""
    facts = _RustFile(source, path)
    root = tree.root_node
    module = facts.module
    facts.container(root, _Context(module, module, {}, set()))
    facts.bodies([root, *facts.subtrees])
    facts.link_pending()  # before anything moves: pending sources are list indexes
    facts.sites.sort(key=_first)
    relations = facts.relations + [relation for _, relation in facts.sites]
    relations.sort(key=_line)  # stable: declarations' relations first, then calls in reading order
    return FileFacts(
        symbols=facts.symbols,
        relations=relations,
        imports=facts.imports,
        exports=facts.exports,
        module=module,
        partial=has_errors(tree),
        extractor=EXTRACTOR,
    )
