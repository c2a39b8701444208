"""Go facts from one parsed file: declarations, embedding, imports, calls.

Naming (what the core resolver must agree with):

* ``FileFacts.module`` is the file's directory relative to the indexed root, with ``/``, without
  a leading ``src/`` (GOROOT and GOPATH keep packages under ``src/<import path>``): ``go/ast`` in
  the Go distribution, ``golang.org/x/tools/go/ast/astutil`` in a GOPATH, ``go/ast/astutil`` in a
  checkout of x/tools. All files of one directory share it: Go's package scope
  (``directory_scope=True``).
* Qualified names are ``<module>.<Name>`` for package-level names and ``<module>.<Type>.<Member>``
  for methods, struct fields and interface methods: ``go/ast/astutil.Apply``,
  ``net/http.Server.Serve``. The module itself contains dots and slashes; the member part never
  contains a slash, so the package prefix is everything up to the first ``.`` after the last ``/``.
  A file at the root has module ``""`` and bare names (``Server.Serve``).
* ``Import.target`` is the import path exactly as written (``golang.org/x/tools/go/ast/astutil``).
  The root may sit anywhere on that path, so the core matches an import target against modules
  **by path suffix on ``/`` boundaries**: in a checkout of x/tools, module ``go/ast/astutil``
  serves the import ``golang.org/x/tools/go/ast/astutil``.
  ``Import.alias`` is the binding name: the explicit name, else the name goimports assumes (the
  last path element, skipping a ``/vN`` major-version element, without a ``go-`` prefix).

Symbols are found by walking the (shallow) top-level declarations in Python; calls and typed
locals come from one tree-sitter query, so Python only touches nodes that matter. That keeps
extraction cheaper than parsing even on the whole Go distribution.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from operator import attrgetter, itemgetter

import tree_sitter_go
from codecairn.extractors.common import SIGNATURE_MAX, first_doc_line, has_errors, signature
from codecairn.model import Export, FileFacts, Import, Relation, Symbol
from tree_sitter import Language as TSLanguage
from tree_sitter import Query, QueryCursor

EXTRACTOR = "go"

# Call sites and locals whose type can be read off the syntax. Only the outermost node of each
# construct is captured: Python slices its text instead of visiting its children.
_QUERY_SOURCE = """
(call_expression function: (identifier) @call.bare)
(call_expression function: (selector_expression) @call.selector)
(type_conversion_expression type: (generic_type type: [(type_identifier) @call.bare
                                                       (qualified_type) @call.selector]))
(parameter_declaration
  type: [(type_identifier) (qualified_type) (pointer_type) (generic_type)]) @typed
(var_spec type: (_)) @typed
(var_spec value: (expression_list . [(composite_literal) (unary_expression operand: (composite_literal))])) @literal
(short_var_declaration
  right: (expression_list . [(composite_literal) (unary_expression operand: (composite_literal))])) @literal
"""
_query: Query | None = None  # compiled lazily per process: Query objects do not pickle


def _calls_query() -> Query:
    global _query
    if _query is None:
        _query = Query(TSLanguage(tree_sitter_go.language()), _QUERY_SOURCE)
    return _query


_DIRECTIVE = re.compile(r"^//(go:|line |export |extern |\s*\+build|nolint)")
_LINE_BREAK = re.compile(r"\s*\n\s*")
_NOT_IDENT = re.compile(r"[^0-9A-Za-z_]")
_MAJOR_VERSION = re.compile(r"^v[0-9]+$")


def assumed_package_name(import_path: str) -> str:
    """The name an unaliased import binds, as goimports guesses it without reading the package."""
    parts = import_path.rstrip("/").split("/")
    base = parts[-1]
    if _MAJOR_VERSION.match(base) and len(parts) > 1:
        base = parts[-2]
    base = base.removeprefix("go-")
    m = _NOT_IDENT.search(base)
    return base[: m.start()] if m else base


def module_of(path: str) -> str:
    """The file's directory relative to the root, '/'-separated: Go's package import-path suffix."""
    path = path.replace("\\", "/").removeprefix("./").removeprefix("src/")
    return path.rsplit("/", 1)[0] if "/" in path else ""


def _type_name(source: bytes, node) -> str:
    """`*pkg.T[K]` -> `pkg.T`; "" for types that are not named (slices, maps, funcs...)."""
    while node is not None:
        t = node.type
        if t == "type_identifier" or t == "qualified_type" or t == "identifier":
            return source[node.start_byte : node.end_byte].decode("utf-8", "replace")
        if t == "pointer_type" or t == "parenthesized_type":
            node = node.named_children[-1] if node.named_child_count else None
        elif t == "generic_type":
            node = node.child_by_field_name("type")
        else:
            return ""
    return ""


def _signature(source: bytes, node, body=None) -> str:
    """common.signature, without its regex for the usual short declaration (hot: once per symbol)."""
    raw = source[node.start_byte : body.start_byte if body is not None else node.end_byte]
    if len(raw) < SIGNATURE_MAX:
        return " ".join(raw.decode("utf-8", "replace").split()).rstrip("{:").rstrip()
    return signature(source, node, body)


def _documented(source: bytes, children):
    """Yield ``(node, doc)`` for the non-comment nodes of ``children``.

    ``doc`` is the first line of the `//` block directly above the node (no blank line between),
    compiler directives skipped. The siblings are scanned once, in order, rather than walking
    back from every declaration: each comment is looked at once, even in 3,000-constant blocks.
    """
    block: list = []
    block_end = -2
    code_end = -1
    for child in children:
        if child.type == "comment":
            start = child.start_point.row
            if start == code_end:
                continue  # a trailing comment of the code on that line
            if start != block_end + 1:
                block = []
            block.append(child)
            block_end = child.end_point.row
            continue
        start = child.start_point.row
        doc = _doc_line(source, block) if block and block_end == start - 1 else ""
        block = []
        code_end = child.end_point.row
        yield child, doc


def _without_errors(children) -> list:
    """``children`` with each ERROR node replaced by its own children: whole declarations the
    parser could not place (after an unclosed brace, say) are still declarations."""
    if not any(c.type == "ERROR" for c in children):
        return children
    flat = []
    for child in children:
        if child.type == "ERROR":
            flat.extend(_without_errors(child.children))
        else:
            flat.append(child)
    return flat


def _doc_line(source: bytes, comments) -> str:
    for c in comments:
        raw = source[c.start_byte : c.end_byte].decode("utf-8", "replace")
        if _DIRECTIVE.match(raw):
            continue
        line = first_doc_line(raw)
        if line:
            return line
    return ""


class _GoFile:
    """Accumulates the facts of one file; one instance per extract() call."""

    def __init__(self, source: bytes, path: str) -> None:
        self.source = source
        self.module = module_of(path)
        self.prefix = self.module + "." if self.module else ""
        self.symbols: list[Symbol] = []
        self.relations: list[Relation] = []
        self.imports: list[Import] = []
        self.exports: list[Export] = []
        self.types: dict[str, int] = {}  # type name -> symbol index
        self.pending_methods: list[tuple[int, str]] = []  # (method index, receiver type name)
        self.functions: list[tuple[int, int, int]] = []  # (start_byte, end_byte, symbol index)
        self.fields: dict[str, dict[str, str]] = {}  # struct name -> field -> type name
        self.package_vars: dict[str, str] = {}  # package-level `var x T` -> "T"

    # ---- helpers -------------------------------------------------------------------------------

    def text(self, node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def add(self, kind, name, qualified, node, sig="", doc="", parent=-1, modifiers=(), start_node=None) -> int:
        # Positional construction and one read of each point: this runs for every symbol
        # (330 k of them in the Go distribution), so it is kept lean. ``start_node`` is the name,
        # when one declaration names several things (`a, b int`) that may sit on different lines.
        start, end = (start_node or node).start_point, node.end_point
        if name[:1].isupper():
            modifiers = ("public", *modifiers)
            self.exports.append(Export(qualified[len(self.prefix) :], start[0] + 1))
        self.symbols.append(
            Symbol(kind, name, qualified, start[0] + 1, start[1], end[0] + 1, end[1], sig, doc, parent, modifiers)
        )
        return len(self.symbols) - 1

    # ---- declarations --------------------------------------------------------------------------

    def top_level(self, root) -> None:
        for node, doc in _documented(self.source, _without_errors(root.children)):
            t = node.type
            if t == "function_declaration":
                self.function(node, doc)
            elif t == "method_declaration":
                self.method(node, doc)
            elif t == "type_declaration":
                self.type_declaration(node, doc)
            elif t == "const_declaration" or t == "var_declaration":
                self.value_declaration(node, doc)
            elif t == "import_declaration":
                self.import_declaration(node)
        for index, type_name in self.pending_methods:
            parent = self.types.get(type_name, -1)
            if parent >= 0:
                self.symbols[index] = self.symbols[index]._replace(parent=parent)

    def function(self, node, doc: str) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node)
        sig = _signature(self.source, node, node.child_by_field_name("body"))
        index = self.add("function", name, self.prefix + name, node, sig, doc)
        self.functions.append((node.start_byte, node.end_byte, index))

    def method(self, node, doc: str) -> None:
        name_node = node.child_by_field_name("name")
        receiver = node.child_by_field_name("receiver")
        if name_node is None or receiver is None:
            return
        type_name = ""
        for param in receiver.named_children:
            if param.type == "parameter_declaration":
                type_name = _type_name(self.source, param.child_by_field_name("type"))
                break
        name = self.text(name_node)
        qualified = f"{self.prefix}{type_name}.{name}" if type_name else self.prefix + name
        sig = _signature(self.source, node, node.child_by_field_name("body"))
        index = self.add("method", name, qualified, node, sig, doc)
        self.pending_methods.append((index, type_name))
        self.functions.append((node.start_byte, node.end_byte, index))

    def type_declaration(self, decl, group_doc: str) -> None:
        grouped = any(c.type == "(" for c in decl.children)
        for spec, spec_doc in _documented(self.source, decl.children):
            if spec.type != "type_spec" and spec.type != "type_alias":
                continue
            name_node = spec.child_by_field_name("name")
            type_node = spec.child_by_field_name("type")
            if name_node is None or type_node is None:
                continue
            node = spec if grouped else decl
            doc = spec_doc or group_doc
            name = self.text(name_node)
            qualified = self.prefix + name
            modifiers: tuple[str, ...] = ()
            if spec.type == "type_alias":
                kind, body, modifiers = "type", None, ("alias",)
            elif type_node.type == "struct_type":
                kind, body = "struct", type_node.child(1) if type_node.child_count > 1 else None
            elif type_node.type == "interface_type":
                kind, body = "interface", type_node
            else:
                kind, body = "type", None
            sig = _signature(self.source, spec, body if body is not None and kind != "interface" else None)
            if kind == "interface":
                sig = _signature(self.source, spec, type_node) + " interface"
            sig = "type " + sig
            index = self.add(kind, name, qualified, node, sig, doc, modifiers=modifiers)
            self.types[name] = index
            if kind == "struct":
                self.struct_fields(type_node, name, qualified, index)
            elif kind == "interface":
                self.interface_members(type_node, qualified, index)

    def struct_fields(self, struct_node, struct_name, qualified, parent) -> None:
        field_list = next((c for c in struct_node.named_children if c.type == "field_declaration_list"), None)
        if field_list is None:
            return
        field_types = self.fields.setdefault(struct_name, {}) if struct_name else {}
        for field, doc in _documented(self.source, field_list.children):
            if field.type != "field_declaration":
                continue
            type_node = field.child_by_field_name("type")
            names = field.children_by_field_name("name")
            sig = _signature(self.source, field)
            if not names:  # embedded field: its name is the type's own name
                written = _type_name(self.source, type_node)
                if not written:
                    continue
                name = written.rsplit(".", 1)[-1]
                self.add("field", name, f"{qualified}.{name}", field, sig, doc, parent, ("embedded",))
                self.relations.append(Relation("extends", parent, written, field.start_point.row + 1))
                field_types[name] = written
                continue
            type_name = _type_name(self.source, type_node)
            several = len(names) > 1
            for name_node in names:
                name = self.text(name_node)
                index = self.add(
                    "field", name, f"{qualified}.{name}", field, sig, doc, parent, (), name_node if several else None
                )
                if type_name:
                    field_types[name] = type_name
                if type_node is not None and type_node.type == "struct_type":
                    self.struct_fields(type_node, "", f"{qualified}.{name}", index)

    def interface_members(self, iface, qualified, parent) -> None:
        for member, doc in _documented(self.source, iface.children):
            if member.type == "method_elem":
                name_node = member.child_by_field_name("name")
                if name_node is None:
                    continue
                name = self.text(name_node)
                self.add(
                    "method",
                    name,
                    f"{qualified}.{name}",
                    member,
                    _signature(self.source, member),
                    doc,
                    parent,
                    ("abstract",),
                )
            elif member.type == "type_elem" and member.named_child_count == 1:
                # `io.Reader` embeds an interface; unions and `~T` terms are constraints, not bases.
                written = _type_name(self.source, member.named_children[0])
                if written:
                    self.relations.append(Relation("extends", parent, written, member.start_point.row + 1))

    def value_declaration(self, decl, group_doc: str) -> None:
        kind, keyword = ("constant", "const") if decl.type == "const_declaration" else ("variable", "var")
        spec_type = "const_spec" if kind == "constant" else "var_spec"
        children = decl.children
        grouped = False
        for c in children:
            if c.type == "var_spec_list":  # `var ( ... )` wraps its specs in a var_spec_list
                children, grouped = c.children, True
                break
            if c.type == "(":
                grouped = True
                break
        for spec, spec_doc in _documented(self.source, children):
            if spec.type != spec_type:
                continue
            node = spec if grouped else decl
            doc = spec_doc or group_doc
            sig = keyword + " " + _signature(self.source, spec)
            type_name = _type_name(self.source, spec.child_by_field_name("type"))
            names = spec.children_by_field_name("name")
            several = len(names) > 1
            for name_node in names:
                name = self.text(name_node)
                if name == "_":  # the blank identifier declares nothing
                    continue
                self.add(kind, name, self.prefix + name, node, sig, doc, -1, (), name_node if several else None)
                if kind == "variable" and type_name:
                    self.package_vars[name] = type_name

    def import_declaration(self, decl) -> None:
        specs = [c for c in decl.named_children if c.type == "import_spec"]
        for c in decl.named_children:
            if c.type == "import_spec_list":
                specs.extend(s for s in c.named_children if s.type == "import_spec")
        for spec in specs:
            path_node = spec.child_by_field_name("path")
            if path_node is None:
                continue
            import_path = self.text(path_node).strip('"`')
            name_node = spec.child_by_field_name("name")
            line = spec.start_point.row + 1
            if name_node is None:
                self.imports.append(Import(import_path, "", assumed_package_name(import_path), line, "", import_path))
            elif name_node.type == "dot":
                self.imports.append(Import(import_path, "*", "", line, "", import_path))
            elif name_node.type == "blank_identifier":
                self.imports.append(Import(import_path, "", "", line, "side-effect", import_path))
            else:
                self.imports.append(Import(import_path, "", self.text(name_node), line, "", import_path))

    # ---- calls ---------------------------------------------------------------------------------

    def calls(self, root) -> None:
        source = self.source
        starts = [f[0] for f in self.functions]
        functions = self.functions

        def enclosing(byte: int) -> int:
            i = bisect_right(starts, byte) - 1
            if i >= 0 and byte < functions[i][1]:
                return functions[i][2]
            return -1

        captures = QueryCursor(_calls_query()).captures(root)
        local_types: dict[int, dict[str, str]] = {}
        # In source order (the query's capture order varies between runs): where a name is declared
        # twice in one function, the later declaration is the one remembered, every time.
        for node in sorted(captures.get("typed", ()), key=_span):
            owner = enclosing(node.start_byte)
            if owner >= 0:  # package-level vars are in self.package_vars
                self.declare_locals(local_types.setdefault(owner, {}), node, node.child_by_field_name("type"))
        for node in sorted(captures.get("literal", ()), key=_span):
            owner = enclosing(node.start_byte)
            if owner >= 0:
                value = node.child_by_field_name("right" if node.type == "short_var_declaration" else "value")
                literal = value.named_children[0]
                if literal.type == "unary_expression":
                    literal = literal.child_by_field_name("operand")
                self.declare_locals(local_types.setdefault(owner, {}), node, literal.child_by_field_name("type"))

        # Collected with the byte where the called name ends, to list them in reading order:
        # in `a.b().c()` both selectors start at `a`.
        sites: list[tuple[int, Relation]] = []
        for node in captures.get("call.bare", ()):
            sites.append(
                (
                    node.end_byte,
                    Relation(
                        "calls",
                        enclosing(node.start_byte),
                        source[node.start_byte : node.end_byte].decode("utf-8", "replace"),
                        node.start_point.row + 1,
                    ),
                )
            )
        imported = {i.alias for i in self.imports if i.alias}
        for node in captures.get("call.selector", ()):
            # `recv.Name` (or `pkg.Name` for a qualified generic type): the name never contains a dot.
            receiver, _, target = source[node.start_byte : node.end_byte].decode("utf-8", "replace").rpartition(".")
            receiver = receiver.strip()
            if "\n" in receiver:  # a call chain broken over lines reads as one chain
                receiver = _LINE_BREAK.sub("", receiver)
            owner = enclosing(node.start_byte)
            sites.append(
                (
                    node.end_byte,
                    Relation(
                        "calls",
                        owner,
                        target.strip(),
                        node.end_point.row + 1,
                        receiver,
                        self.receiver_type(receiver, local_types.get(owner), imported),
                    ),
                )
            )
        sites.sort(key=_first)
        self.relations.extend(relation for _, relation in sites)
        self.relations.sort(key=_line)  # stable: embedding first, then calls in reading order

    def declare_locals(self, scope: dict[str, str], declaration, type_node) -> None:
        type_name = _type_name(self.source, type_node)
        if not type_name:
            return
        key = "left" if declaration.type == "short_var_declaration" else "name"
        names = declaration.child_by_field_name(key)
        if key == "left":
            names = names.named_children[0] if names is not None and names.named_child_count else None
        if names is not None and names.type == "identifier":
            scope[self.text(names)] = type_name
        if key == "name":
            for extra in declaration.children_by_field_name("name")[1:]:
                scope[self.text(extra)] = type_name

    def receiver_type(self, receiver: str, local_types, imported) -> str:
        head, _, rest = receiver.partition(".")
        declared = local_types.get(head) if local_types else None
        if declared is None:
            if head in imported:  # `fmt.Println`: a package, not a value
                return ""
            declared = self.package_vars.get(head, "")
        if not declared or not rest:
            return declared
        # `s.conn.Close()`: one field deep, when the struct is declared in this file.
        if rest.isidentifier():
            return self.fields.get(declared, {}).get(rest, "")
        return ""


_first = itemgetter(0)
_line = attrgetter("line")
_span = attrgetter("start_byte", "end_byte")


def extract(source: bytes, tree, path: str) -> FileFacts:
    """Facts of one Go file. ``path`` is relative to the indexed root."""
    facts = _GoFile(source, path)
    root = tree.root_node
    facts.top_level(root)
    facts.calls(root)
    return FileFacts(
        symbols=facts.symbols,
        relations=facts.relations,
        imports=facts.imports,
        exports=facts.exports,
        module=facts.module,
        partial=has_errors(tree),
        extractor=EXTRACTOR,
    )
