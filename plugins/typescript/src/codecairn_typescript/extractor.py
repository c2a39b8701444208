"""Facts from one TypeScript, TSX or JavaScript file: symbols, inheritance, calls, imports, exports.

One tree-sitter query finds every node that can define a symbol, open a scope or make a call.
The nodes are visited in document order with a stack of open scopes (module, namespace, class,
interface, function), so a node's parent symbol, qualified-name prefix, calling symbol and the
types of the variables in scope come from the stack instead of a walk up the tree. Imports and
exports live at the top level and are read from the root's children directly.

Naming: a file's module is its path without extension (``src/a/b.ts`` -> ``src/a/b``, ``/index``
dropped); symbols are ``src/a/b.Class.method``. A *script* (a file with no import, export,
``require`` or ``module.exports``) declares globals in TypeScript, which is how ``namespace ts {}``
merges across the files of the TypeScript compiler, so its module is "" and its symbols are
``ts.createProgram``.
"""

from __future__ import annotations

import operator
import re
from typing import NamedTuple

import tree_sitter_typescript
from codecairn.extractors.common import first_doc_line, signature
from codecairn.model import Export, FileFacts, Import, Relation, Symbol
from tree_sitter import Language as TSLanguage
from tree_sitter import Parser, Query, QueryCursor

from codecairn_typescript.modules import module_path, resolve_specifier, target
from codecairn_typescript.repair import repair

EXTRACTOR_NAME = "typescript"

_QUERY_SOURCE = """
[(function_declaration) (generator_function_declaration) (function_signature)] @function
[(function_expression) (generator_function) (arrow_function)] @lambda
[(method_definition) (method_signature) (abstract_method_signature)] @method
[(class_declaration) (abstract_class_declaration) (class)] @class
(interface_declaration) @interface
(type_alias_declaration) @type
(enum_declaration) @enum
[(internal_module) (module)] @namespace
(ambient_declaration "global") @global
(public_field_definition) @field
(property_signature) @property
(variable_declarator) @variable
(call_expression) @call
(new_expression) @new
(expression_statement (assignment_expression left: [(member_expression) (identifier)]) @assignment)
"""
_JSX_QUERY_SOURCE = "[(jsx_opening_element) (jsx_self_closing_element)] @jsx"  # TSX grammar only

# Query objects do not pickle: compile lazily, once per grammar, per worker process.
_QUERIES: dict[str, Query] = {}
_PARSERS: dict[str, Parser] = {}
_GRAMMARS = {
    "typescript": tree_sitter_typescript.language_typescript,
    "tsx": tree_sitter_typescript.language_tsx,
}


def _dialect(path: str) -> str:
    return "typescript" if path.endswith((".ts", ".mts", ".cts")) else "tsx"


def _query(dialect: str) -> Query:
    query = _QUERIES.get(dialect)
    if query is None:
        source = _QUERY_SOURCE + (_JSX_QUERY_SOURCE if dialect == "tsx" else "")
        query = _QUERIES[dialect] = Query(TSLanguage(_GRAMMARS[dialect]()), source)
    return query


def _parser(dialect: str) -> Parser:
    parser = _PARSERS.get(dialect)
    if parser is None:
        parser = _PARSERS[dialect] = Parser(TSLanguage(_GRAMMARS[dialect]()))
    return parser


# ---- scopes ----------------------------------------------------------------------------------

MODULE, NAMESPACE, CLASS, INTERFACE, FUNCTION, ANONYMOUS_CLASS = range(6)
_INHERIT = object()  # _push: take the enclosing scope's class


class _Scope:
    __slots__ = ("end", "kind", "symbol", "qual", "types", "klass", "node")

    def __init__(self, end, kind, symbol, qual, types, klass, node=None):
        self.end = end  # end byte: the scope closes when the walk passes it
        self.kind = kind
        self.symbol = symbol  # index of the symbol calls inside are attributed to (-1: file level)
        self.qual = qual  # qualified-name prefix for symbols declared directly inside
        # Variables declared here (functions, module): name -> declarator node, or its type name
        # once a call on it asked. Parameters are read on the first lookup that misses.
        self.types = types
        self.klass = klass  # the enclosing class's _Class (for `this.field` types), or None
        self.node = node  # the function node (its parameters type receivers), or None


class _Class:
    __slots__ = ("fields",)

    def __init__(self):
        self.fields: dict[str, str] = {}


class _Span(NamedTuple):  # duck-types a node for common.signature when decorators are skipped
    start_byte: int
    end_byte: int


_FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "generator_function"})
_CLASS_NODES = frozenset({"class_declaration", "abstract_class_declaration", "class"})
_MODULE_LEVEL_PARENTS = frozenset({"program", "export_statement", "ambient_declaration"})
_NAMESPACE_NODES = frozenset({"internal_module", "module"})
_KEYWORD_MODIFIERS = {
    "static": "static",
    "async": "async",
    "readonly": "readonly",
    "abstract": "abstract",
    "declare": "declare",
    "get": "get",
    "set": "set",
    "*": "generator",
}
_BUILTIN_TYPES = frozenset(
    {"any", "unknown", "never", "void", "object", "string", "number", "boolean", "symbol", "bigint"}
)
_SPACES = re.compile(r"\s+")
RECEIVER_MAX = 120  # characters of an unusual receiver expression kept as written
RECEIVER_LINKS = 12  # links of a call chain kept in a receiver


_order = operator.itemgetter(0)


def extract(source: bytes, tree, path: str) -> FileFacts:
    """Facts of one file (``path`` relative to the workspace root, ``/``-separated)."""
    return _Extraction(source, tree, path).run()


class _Extraction:
    def __init__(self, source: bytes, tree, path: str):
        self.path = path
        self.dialect = _dialect(path)
        self.source = source
        self.tree = tree = repaired_tree(source, tree, path)
        self.symbols: list[Symbol] = []
        self.relations: list[Relation] = []
        self.imports: list[Import] = []
        self.exports: list[Export] = []
        # function/class value node id -> symbol index given by the binding that names it
        # (`const f = () => {}`, `module.exports = class {}`, `{ create() {} }`)
        self.bound: dict[int, int] = {}
        # end byte of an overload signature -> (name, symbol index): the next same-named
        # declaration right after it is the same function
        self.overloads: dict[int, tuple[str, int]] = {}
        self.module_symbols: dict[str, int] = {}
        self.this_calls: list[tuple[int, _Class, str]] = []
        self.is_script = self._is_script()
        self.module = "" if self.is_script else module_path(path)

    # ---- driver --------------------------------------------------------------------------

    def run(self) -> FileFacts:
        root = self.tree.root_node
        module_scope = _Scope(1 << 62, MODULE, -1, self.module, {}, None)
        self.stack = [module_scope]
        self._top_level(root)
        handlers = {
            "function": self._function,
            "lambda": self._lambda,
            "method": self._method,
            "class": self._class,
            "interface": self._interface,
            "type": self._type_alias,
            "enum": self._enum,
            "namespace": self._namespace,
            "global": self._global,
            "field": self._field,
            "property": self._property_signature,
            "variable": self._variable,
            "call": self._call,
            "new": self._new,
            "assignment": self._assignment,
            "jsx": self._jsx,
        }
        # Document order, enclosing nodes before the nodes they contain (same start: longer first).
        items = []
        for name, nodes in QueryCursor(_query(self.dialect)).captures(root).items():
            handler = handlers[name]
            items += [((n.start_byte << 32) - n.end_byte, handler, n) for n in nodes]
        items.sort(key=_order)
        stack = self.stack
        for key, handler, node in items:
            start = (key >> 32) + (1 if key & 0xFFFFFFFF else 0)
            while stack[-1].end <= start:
                stack.pop()
            handler(node)
        for index, klass, field in self.this_calls:
            field_type = klass.fields.get(field)
            if field_type:
                self.relations[index] = self.relations[index]._replace(receiver_type=field_type)
        return FileFacts(
            symbols=self.symbols,
            relations=self.relations,
            imports=self.imports,
            exports=self.exports,
            module=self.module,
            partial=self.tree.root_node.has_error,
            extractor=EXTRACTOR_NAME,
        )

    def _is_script(self) -> bool:
        if self.path.endswith((".mjs", ".cjs", ".mts", ".cts")):
            return False
        for child in self.tree.root_node.children:
            if child.type in ("import_statement", "export_statement"):
                return False
        src = self.source
        return not (b"require(" in src or b"exports" in src and re.search(rb"\b(module\.)?exports\b\s*[.=\[]", src))

    # ---- small helpers -------------------------------------------------------------------

    def text(self, node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def _qualify(self, prefix: str, name: str) -> str:
        return f"{prefix}.{name}" if prefix else name

    def _add(self, kind, name, node, sig, doc, parent, prefix, modifiers=()) -> int:
        sp, ep = node.start_point, node.end_point
        self.symbols.append(
            Symbol(
                kind,
                name,
                self._qualify(prefix, name),
                sp.row + 1,
                sp.column,
                ep.row + 1,
                ep.column,
                sig,
                doc,
                parent,
                tuple(modifiers),
            )
        )
        index = len(self.symbols) - 1
        if parent == -1 and self.stack[-1].kind == MODULE:
            self.module_symbols.setdefault(name, index)
        return index

    def _doc(self, node) -> str:
        """First line of the /** */ comment right above ``node`` (blank lines break the link)."""
        row = node.start_point.row
        comment = node.prev_sibling
        while comment is not None and comment.type == "comment" and comment.end_point.row >= row - 1:
            if self.source.startswith(b"/**", comment.start_byte):
                return first_doc_line(self.text(comment))
            row = comment.start_point.row
            comment = comment.prev_sibling
        return ""

    def _outer(self, node):
        """The statement a declaration is written as: through `export` / `declare` wrappers."""
        parent = node.parent
        while parent is not None and parent.type in ("export_statement", "ambient_declaration", "expression_statement"):
            node, parent = parent, parent.parent
        return node

    def _wrapper_modifiers(self, node) -> list[str]:
        mods = []
        parent = node.parent
        while parent is not None and parent.type in ("export_statement", "ambient_declaration", "expression_statement"):
            if parent.type == "export_statement":
                mods.append("export")
                for child in parent.children:
                    if child.type == "default":
                        mods.append("default")
                    elif child.type == "decorator":
                        mods.append(self._decorator(child))
            elif parent.type == "ambient_declaration":
                mods.append("declare")
            parent = parent.parent
        return mods

    def _decorator(self, node) -> str:
        expression = node.named_children[0] if node.named_children else node
        if expression.type == "call_expression":
            expression = expression.child_by_field_name("function") or expression
        return "@" + _SPACES.sub("", self.text(expression))

    def _own_modifiers(self, node) -> list[str]:
        mods = []
        for child in node.children:
            t = child.type
            if t in _KEYWORD_MODIFIERS:
                mods.append(_KEYWORD_MODIFIERS[t])
            elif t == "accessibility_modifier":
                mods.append(self.text(child))
            elif t == "override_modifier":
                mods.append("override")
            elif t == "decorator":
                mods.append(self._decorator(child))
            elif child.is_named:
                break  # modifiers come first; stop at the name
        return mods

    def _signature(self, node, body=None) -> str:
        start = node
        if node.child_count and node.children[0].type == "decorator":
            for child in node.children:
                if child.type != "decorator":
                    start = _Span(child.start_byte, node.end_byte)
                    break
        sig = signature(self.source, start, body)
        return sig.rstrip(";").rstrip() if body is None else sig

    def _type_name(self, node) -> str:
        """``Repo`` for ``Repo``, ``Repo<T>``, ``Repo | undefined``; ``ns.Repo`` stays dotted."""
        while node is not None:
            t = node.type
            if t in ("type_annotation", "parenthesized_type"):
                node = node.named_children[0] if node.named_children else None
            elif t in ("type_identifier", "identifier"):
                name = self.text(node)
                return "" if name in _BUILTIN_TYPES else name
            elif t in ("nested_type_identifier", "member_expression", "nested_identifier"):
                return _SPACES.sub("", self.text(node))
            elif t == "generic_type":
                node = node.child_by_field_name("name")
            elif t == "union_type":
                members = [c for c in node.named_children if c.type not in ("literal_type", "predefined_type")]
                if len(members) != 1:
                    return ""
                node = members[0]
            else:
                return ""
        return ""

    def _function_types(self) -> dict:
        for scope in reversed(self.stack):
            if scope.types is not None:
                return scope.types
        return self.stack[0].types

    # ---- top level: imports, exports -----------------------------------------------------

    def _top_level(self, root) -> None:
        for child in root.children:
            if child.type == "import_statement":
                self._import(child)
            elif child.type == "export_statement":
                self._export(child)

    def _string(self, node) -> str:
        raw = self.text(node)
        return raw[1:-1] if len(raw) >= 2 and raw[0] in "'\"`" else raw

    def _import(self, node) -> None:
        source = node.child_by_field_name("source")
        type_only = any(c.type == "type" for c in node.children)
        kind = "type" if type_only else ""
        line = node.start_point.row + 1
        require = None
        for child in node.children:
            if child.type == "import_require_clause":
                require = child
        if require is not None:
            alias = require.named_children[0]
            specifier = self._string(require.child_by_field_name("source"))
            module = resolve_specifier(specifier, self.path)
            self.imports.append(Import(specifier, "", self.text(alias), line, "require", module))
            return
        if source is None:
            return
        specifier = self._string(source)
        module = resolve_specifier(specifier, self.path)
        clause = next((c for c in node.children if c.type == "import_clause"), None)
        if clause is None:
            self.imports.append(Import(specifier, "", "", line, "side-effect", module))
            return
        for part in clause.named_children:
            if part.type == "identifier":
                self.imports.append(
                    Import(specifier, "default", self.text(part), line, kind, target(module, "default"))
                )
            elif part.type == "namespace_import":
                alias = part.named_children[0] if part.named_children else None
                self.imports.append(Import(specifier, "", self.text(alias) if alias else "", line, kind, module))
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type != "import_specifier":
                        continue
                    name_node = spec.child_by_field_name("name")
                    alias_node = spec.child_by_field_name("alias")
                    name = self._string(name_node)
                    spec_kind = "type" if type_only or any(c.type == "type" for c in spec.children) else ""
                    self.imports.append(
                        Import(
                            specifier,
                            name,
                            self.text(alias_node) if alias_node else name,
                            spec.start_point.row + 1,
                            spec_kind,
                            target(module, name),
                        )
                    )

    def _export(self, node) -> None:
        line = node.start_point.row + 1
        is_default = False
        source_node = node.child_by_field_name("source")
        declaration = node.child_by_field_name("declaration")
        value = node.child_by_field_name("value")
        clause = star = namespace_export = None
        equals = False
        for child in node.children:
            t = child.type
            if t == "default":
                is_default = True
            elif t == "export_clause":
                clause = child
            elif t == "*":
                star = child
            elif t == "namespace_export":
                namespace_export = child
            elif t == "=":
                equals = True
        if source_node is not None:
            specifier = self._string(source_node)
            module = resolve_specifier(specifier, self.path)
            if clause is not None:
                for spec in clause.named_children:
                    if spec.type != "export_specifier":
                        continue
                    name = self._string(spec.child_by_field_name("name"))
                    alias_node = spec.child_by_field_name("alias")
                    alias = self._string(alias_node) if alias_node else ""
                    spec_line = spec.start_point.row + 1
                    self.exports.append(Export(name, spec_line, "re-export", module, alias))
                    # alias = the name the module makes available: what re-export chains follow
                    self.imports.append(
                        Import(specifier, name, alias or name, spec_line, "re-export", target(module, name))
                    )
            elif namespace_export is not None:
                alias = namespace_export.named_children[-1] if namespace_export.named_children else None
                alias_text = self._string(alias) if alias is not None else ""
                self.exports.append(Export("*", line, "re-export", module, alias_text))
                self.imports.append(Import(specifier, "", alias_text, line, "re-export", module))
            elif star is not None:
                self.exports.append(Export("*", line, "re-export", module))
                self.imports.append(Import(specifier, "*", "", line, "re-export", module))
            return
        if clause is not None:
            for spec in clause.named_children:
                if spec.type == "export_specifier":
                    alias_node = spec.child_by_field_name("alias")
                    self.exports.append(
                        Export(
                            self._string(spec.child_by_field_name("name")),
                            spec.start_point.row + 1,
                            "",
                            "",
                            self._string(alias_node) if alias_node else "",
                        )
                    )
            return
        if declaration is not None:
            for name in self._declared_names(declaration):
                self.exports.append(Export(name, line, "default" if is_default else ""))
            return
        if value is not None or equals:
            if value is None:
                value = next((c for c in node.named_children if c.type not in ("comment", "decorator")), None)
                if value is None:
                    return
            if value.type == "identifier":
                self.exports.append(Export(self.text(value), line, "default"))
                return
            name = "default"
            own_name = (
                value.child_by_field_name("name")
                if value.type in _CLASS_NODES or value.type in _FUNCTION_VALUES
                else None
            )
            if own_name is not None:
                name = self.text(own_name)
            self.exports.append(Export(name, line, "default"))
            mods = ["export", "default"]
            doc = self._doc(node)
            if value.type in _FUNCTION_VALUES:
                body = value.child_by_field_name("body")
                index = self._add(
                    "function",
                    name,
                    value,
                    self._signature(value, body),
                    doc,
                    -1,
                    self.module,
                    mods + self._own_modifiers(value),
                )
                self.bound[value.id] = index
            elif value.type in _CLASS_NODES:
                index = self._add(
                    "class",
                    name,
                    value,
                    self._signature(value, value.child_by_field_name("body")),
                    doc,
                    -1,
                    self.module,
                    mods,
                )
                self.bound[value.id] = index
            elif value.type == "object":
                index = self._add("constant", name, value, "export default", doc, -1, self.module, mods)
                self._object_members(value, index, self._qualify(self.module, name))

    def _declared_names(self, declaration) -> list[str]:
        t = declaration.type
        if t == "ambient_declaration":
            inner = [c for c in declaration.named_children if c.type != "comment"]
            return self._declared_names(inner[0]) if inner else []
        if t in ("lexical_declaration", "variable_declaration"):
            names = []
            for declarator in declaration.named_children:
                if declarator.type == "variable_declarator":
                    names.extend(self.text(n) for n in self._pattern_names(declarator.child_by_field_name("name")))
            return names
        if t == "import_alias":
            return [self.text(declaration.named_children[0])] if declaration.named_children else []
        name = declaration.child_by_field_name("name")
        if name is None:
            return ["default"] if t in _CLASS_NODES or "function" in t else []
        return [self._string(name)]

    def _pattern_names(self, pattern) -> list:
        """The identifier nodes a destructuring pattern binds."""
        if pattern is None:
            return []
        t = pattern.type
        if t in ("identifier", "shorthand_property_identifier_pattern"):
            return [pattern]
        names = []
        if t in ("object_pattern", "array_pattern"):
            for child in pattern.named_children:
                names.extend(self._pattern_names(child))
        elif t == "pair_pattern":
            names.extend(self._pattern_names(pattern.child_by_field_name("value")))
        elif t in ("assignment_pattern", "object_assignment_pattern"):
            names.extend(self._pattern_names(pattern.child_by_field_name("left") or pattern.named_children[0]))
        elif t == "rest_pattern":
            names.extend(self._pattern_names(pattern.named_children[0] if pattern.named_children else None))
        return names

    # ---- declarations --------------------------------------------------------------------

    def _push(self, node, kind, symbol, qual, types=None, klass=_INHERIT) -> None:
        if klass is _INHERIT:
            klass = self.stack[-1].klass
        self.stack.append(_Scope(node.end_byte, kind, symbol, qual, types, klass, node if kind == FUNCTION else None))

    def _merge_overload(self, node, name: str) -> int:
        """Index of the earlier overload signature this declaration continues, or -1."""
        if not self.overloads:
            return -1
        outer = self._outer(node)
        prev = outer.prev_named_sibling
        while prev is not None and prev.type == "comment":
            prev = prev.prev_named_sibling
        if prev is None:
            return -1
        earlier = self.overloads.get(prev.end_byte)
        if earlier is None or earlier[0] != name:
            return -1
        index = earlier[1]
        symbol = self.symbols[index]
        ep = node.end_point
        self.symbols[index] = symbol._replace(
            end_line=ep.row + 1,
            end_col=ep.column,
            doc=symbol.doc or self._doc(outer),
        )
        return index

    def _function(self, node) -> None:
        scope = self.stack[-1]
        name_node = node.child_by_field_name("name")
        name = self.text(name_node) if name_node is not None else "default"
        body = node.child_by_field_name("body")
        index = self._merge_overload(node, name)
        if index < 0:
            outer = self._outer(node)
            mods = self._wrapper_modifiers(node) + self._own_modifiers(node)
            if node.type == "generator_function_declaration" and "generator" not in mods:
                mods.append("generator")
            parent = scope.symbol if scope.kind != MODULE else -1
            index = self._add(
                "function", name, node, self._signature(node, body), self._doc(outer), parent, scope.qual, mods
            )
        if body is None:
            self.overloads[self._outer(node).end_byte] = (name, index)
            return
        self._push(node, FUNCTION, index, self.symbols[index].qualified_name, {})

    def _lambda(self, node) -> None:
        index = self.bound.get(node.id, -1)
        scope = self.stack[-1]
        if index >= 0:
            symbol = self.symbols[index]
            klass = scope.klass if symbol.kind == "method" or node.type == "arrow_function" else None
            self._push(node, FUNCTION, index, symbol.qualified_name, {}, klass)
            return
        name_node = node.child_by_field_name("name") if node.type != "arrow_function" else None
        if name_node is not None:  # `return function handler() {}`: named by its own name
            mods = self._own_modifiers(node)
            if node.type == "generator_function" and "generator" not in mods:
                mods.append("generator")
            index = self._add(
                "function",
                self.text(name_node),
                node,
                self._signature(node, node.child_by_field_name("body")),
                "",
                scope.symbol if scope.kind != MODULE else -1,
                scope.qual,
                mods,
            )
            self._push(node, FUNCTION, index, self.symbols[index].qualified_name, {}, None)
            return
        # An anonymous callback: calls inside belong to the enclosing symbol. `this` is
        # rebound by `function` expressions but not by arrows.
        klass = scope.klass if node.type == "arrow_function" else None
        self._push(node, FUNCTION, scope.symbol, scope.qual, {}, klass)

    def _method(self, node) -> None:
        scope = self.stack[-1]
        parent_type = node.parent.type if node.parent is not None else ""
        body = node.child_by_field_name("body")
        bound = self.bound.get(node.id, -1)
        if bound >= 0:  # a method of a named object literal: `this` is the object, not a class
            self._push(node, FUNCTION, bound, self.symbols[bound].qualified_name, {}, None)
            return
        member_of_type = (parent_type == "class_body" and scope.kind == CLASS) or (
            parent_type == "interface_body" and scope.kind == INTERFACE
        )
        if not member_of_type or scope.symbol < 0:
            if body is not None:
                self._push(
                    node, FUNCTION, scope.symbol, scope.qual, {}, scope.klass if parent_type == "class_body" else None
                )
            return
        name = self._string(node.child_by_field_name("name"))
        index = self._merge_overload(node, name)
        if index < 0:
            # decorators of a method are the class body's children just before it
            first, decorators = node, []
            while first.prev_sibling is not None and first.prev_sibling.type == "decorator":
                first = first.prev_sibling
                decorators.insert(0, self._decorator(first))
            mods = decorators + self._own_modifiers(node)
            if node.type == "abstract_method_signature" and "abstract" not in mods:
                mods.append("abstract")
            kind = "constructor" if name == "constructor" and parent_type == "class_body" else "method"
            index = self._add(
                kind, name, node, self._signature(node, body), self._doc(first), scope.symbol, scope.qual, mods
            )
            if kind == "constructor" and self.symbols[scope.symbol].kind == "class":
                self._parameter_properties(node, scope)
        if body is None:
            if parent_type == "class_body" and node.type == "method_signature":
                self.overloads[node.end_byte] = (name, index)
            return
        self._push(node, FUNCTION, index, self.symbols[index].qualified_name, {})

    def _class(self, node) -> None:
        scope = self.stack[-1]
        body = node.child_by_field_name("body")
        index = self.bound.get(node.id, -1)
        if index < 0 and (node.type != "class" or node.child_by_field_name("name") is not None):
            name_node = node.child_by_field_name("name")
            name = self.text(name_node) if name_node is not None else "default"
            mods = self._wrapper_modifiers(node) + self._own_modifiers(node)
            if node.type == "abstract_class_declaration" and "abstract" not in mods:
                mods.append("abstract")
            parent = scope.symbol if scope.kind != MODULE else -1
            index = self._add(
                "class", name, node, self._signature(node, body), self._doc(self._outer(node)), parent, scope.qual, mods
            )
        if index < 0:  # an anonymous class expression: calls inside belong to the enclosing symbol
            self._push(node, ANONYMOUS_CLASS, scope.symbol, scope.qual, None, _Class())
            return
        self._heritage(node, index)
        self._push(node, CLASS, index, self.symbols[index].qualified_name, None, _Class())

    def _heritage(self, node, index) -> None:
        for child in node.children:
            if child.type != "class_heritage":
                continue
            for clause in child.named_children:
                if clause.type == "extends_clause":
                    value = clause.child_by_field_name("value")
                    self._base("extends", index, value)
                elif clause.type == "implements_clause":
                    for base in clause.named_children:
                        self._base("implements", index, base)
                elif clause.type in ("identifier", "member_expression"):  # JavaScript grammar shape
                    self._base("extends", index, clause)

    def _base(self, kind, index, node) -> None:
        if node is None:
            return
        t = node.type
        if t == "generic_type":
            node = node.child_by_field_name("name")
            t = node.type
        if t not in ("identifier", "type_identifier", "member_expression", "nested_type_identifier"):
            return
        self.relations.append(Relation(kind, index, _SPACES.sub("", self.text(node)), node.start_point.row + 1))

    def _interface(self, node) -> None:
        scope = self.stack[-1]
        name = self.text(node.child_by_field_name("name"))
        body = node.child_by_field_name("body")
        parent = scope.symbol if scope.kind != MODULE else -1
        index = self._add(
            "interface",
            name,
            node,
            self._signature(node, body),
            self._doc(self._outer(node)),
            parent,
            scope.qual,
            self._wrapper_modifiers(node),
        )
        for child in node.children:
            if child.type == "extends_type_clause":
                for base in child.named_children:
                    self._base("extends", index, base)
        self._push(node, INTERFACE, index, self.symbols[index].qualified_name)

    def _type_alias(self, node) -> None:
        scope = self.stack[-1]
        name = self.text(node.child_by_field_name("name"))
        parent = scope.symbol if scope.kind != MODULE else -1
        self._add(
            "type",
            name,
            node,
            self._signature(node),
            self._doc(self._outer(node)),
            parent,
            scope.qual,
            self._wrapper_modifiers(node),
        )

    def _enum(self, node) -> None:
        scope = self.stack[-1]
        name = self.text(node.child_by_field_name("name"))
        body = node.child_by_field_name("body")
        parent = scope.symbol if scope.kind != MODULE else -1
        mods = self._wrapper_modifiers(node) + (["const"] if any(c.type == "const" for c in node.children) else [])
        index = self._add(
            "enum", name, node, self._signature(node, body), self._doc(self._outer(node)), parent, scope.qual, mods
        )
        if body is None:
            return
        qual = self.symbols[index].qualified_name
        for member in body.named_children:
            name_node = member.child_by_field_name("name") if member.type == "enum_assignment" else member
            if name_node is None or member.type == "comment":
                continue
            self._add(
                "enum_member", self._string(name_node), member, self._signature(member), self._doc(member), index, qual
            )

    def _namespace(self, node) -> None:
        scope = self.stack[-1]
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        body = node.child_by_field_name("body")
        mods = self._wrapper_modifiers(node)
        if name_node.type == "string":  # declare module "pkg" { ... }: the package's own names
            name = self._string(name_node)
            qual = resolve_specifier(name, self.path)
            index = self._add(
                "namespace", name, node, self._signature(node, body), self._doc(self._outer(node)), -1, "", mods
            )
            self.symbols[index] = self.symbols[index]._replace(qualified_name=qual)
        else:
            name = _SPACES.sub("", self.text(name_node))
            parent = scope.symbol if scope.kind != MODULE else -1
            index = self._add(
                "namespace",
                name,
                node,
                self._signature(node, body),
                self._doc(self._outer(node)),
                parent,
                scope.qual,
                mods,
            )
            qual = self.symbols[index].qualified_name
        if body is not None:
            self._push(node, NAMESPACE, index, qual, {})

    def _global(self, node) -> None:
        self._push(node, NAMESPACE, -1, "", {})

    def _field(self, node) -> None:
        scope = self.stack[-1]
        if scope.kind not in (CLASS, ANONYMOUS_CLASS):
            return
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self._string(name_node)
        value = node.child_by_field_name("value")
        type_node = node.child_by_field_name("type")
        klass = scope.klass
        if klass is not None:
            field_type = self._type_name(type_node) if type_node is not None else ""
            if not field_type and value is not None:
                field_type = self._value_type(value)
            if field_type:
                klass.fields[name] = field_type
        if scope.kind != CLASS:
            return
        is_function = value is not None and value.type in _FUNCTION_VALUES
        mods = self._own_modifiers(node)
        if is_function:
            mods += [m for m in self._own_modifiers(value) if m not in mods]
            sig = self._signature(node, value.child_by_field_name("body"))
        else:
            sig = self._signature(node)
        index = self._add(
            "method" if is_function else "property", name, node, sig, self._doc(node), scope.symbol, scope.qual, mods
        )
        if is_function:
            self.bound[value.id] = index

    def _property_signature(self, node) -> None:
        scope = self.stack[-1]
        if scope.kind != INTERFACE or node.parent is None or node.parent.type != "interface_body":
            return
        name = self._string(node.child_by_field_name("name"))
        self._add(
            "property",
            name,
            node,
            self._signature(node),
            self._doc(node),
            scope.symbol,
            scope.qual,
            self._own_modifiers(node),
        )

    def _value_type(self, value) -> str:
        t = value.type
        if t == "new_expression":
            ctor = value.child_by_field_name("constructor")
            if ctor is None or ctor.type == "member_expression" and ctor.child(0).type == "this":
                return ""  # `new this.ctor()`: a value holding a class, not a type name
            return self._type_name(ctor)
        if t in ("as_expression", "satisfies_expression"):
            children = value.named_children
            return self._type_name(children[-1]) if len(children) >= 2 else ""
        if t == "await_expression" and value.named_children:
            return self._value_type(value.named_children[0])
        return ""

    def _variable(self, node) -> None:
        scope = self.stack[-1]
        name_node = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name_node is None:
            return
        if value is not None and _is_require(value, self.source):
            return  # an import binding, recorded by _call
        if name_node.type == "identifier":
            self._function_types()[self.text(name_node)] = node  # typed on first use as a receiver
        value_type = value.type if value is not None else ""
        if (
            scope.kind not in (MODULE, NAMESPACE)
            and value_type not in _FUNCTION_VALUES
            and (value_type not in _CLASS_NODES and value_type != "object")
        ):
            return  # a local variable: not a symbol
        declaration = node.parent
        if declaration is None:
            return
        keyword = declaration.children[0].type if declaration.children else "let"
        if keyword not in ("const", "let", "var"):
            keyword = "const"
        at_module_level = scope.kind in (MODULE, NAMESPACE) and (
            declaration.parent is not None
            and (
                declaration.parent.type in _MODULE_LEVEL_PARENTS
                or declaration.parent.type == "statement_block"
                and declaration.parent.parent is not None
                and declaration.parent.parent.type in _NAMESPACE_NODES | {"ambient_declaration"}
            )
        )
        named_methods = value_type == "object" and _has_function_member(value)
        if (
            value_type not in _FUNCTION_VALUES
            and value_type not in _CLASS_NODES
            and not at_module_level
            and not named_methods
        ):
            return
        if scope.kind in (CLASS, INTERFACE):
            return
        parent = scope.symbol if scope.kind != MODULE else -1
        outer = self._outer(declaration)
        doc = self._doc(outer) if declaration.named_children and declaration.named_children[0] == node else ""
        mods = self._wrapper_modifiers(declaration)
        if name_node.type != "identifier":
            if at_module_level:
                sig = f"{keyword} {self._signature(node)}"
                for bound in self._pattern_names(name_node):
                    self._add(
                        "constant" if keyword == "const" else "variable",
                        self.text(bound),
                        bound,
                        sig,
                        doc,
                        parent,
                        scope.qual,
                        mods,
                    )
            return
        name = self.text(name_node)
        if value_type in _FUNCTION_VALUES:
            mods += self._own_modifiers(value)
            if value_type == "generator_function" and "generator" not in mods:
                mods.append("generator")
            sig = f"{keyword} {self._signature(node, value.child_by_field_name('body'))}"
            self.bound[value.id] = self._add("function", name, node, sig, doc, parent, scope.qual, mods)
        elif value_type in _CLASS_NODES:
            sig = f"{keyword} {self._signature(node, value.child_by_field_name('body'))}"
            self.bound[value.id] = self._add("class", name, node, sig, doc, parent, scope.qual, mods)
        else:
            kind = "constant" if keyword == "const" else "variable"
            if value_type == "object":
                sig = f"{keyword} {self._signature(node, value)}".rstrip("= ").rstrip()
            else:
                sig = f"{keyword} {self._signature(node)}"
            index = self._add(kind, name, node, sig, doc, parent, scope.qual, mods)
            if value_type == "object":
                self._object_members(value, index, self.symbols[index].qualified_name)

    def _object_members(self, obj, parent: int, qual: str) -> None:
        """Function-valued members of an object literal bound to a name become its methods (and
        nested objects holding such functions its properties); data members are not symbols."""
        for member in obj.named_children:
            t = member.type
            if t == "method_definition":
                name = self._string(member.child_by_field_name("name"))
                index = self._add(
                    "method",
                    name,
                    member,
                    self._signature(member, member.child_by_field_name("body")),
                    self._doc(member),
                    parent,
                    qual,
                    self._own_modifiers(member),
                )
                self.bound[member.id] = index
            elif t == "pair":
                key = member.child_by_field_name("key")
                value = member.child_by_field_name("value")
                if key is None or value is None:
                    continue
                name = self._string(key)
                if value.type in _FUNCTION_VALUES:
                    index = self._add(
                        "method",
                        name,
                        member,
                        self._signature(member, value.child_by_field_name("body")),
                        self._doc(member),
                        parent,
                        qual,
                        self._own_modifiers(value),
                    )
                    self.bound[value.id] = index
                elif value.type == "object" and _has_function_member(value):
                    index = self._add(
                        "property",
                        name,
                        member,
                        self._signature(member, value).rstrip(":").rstrip(),
                        self._doc(member),
                        parent,
                        qual,
                    )
                    self._object_members(value, index, self._qualify(qual, name))

    def _parameter_properties(self, constructor, class_scope) -> None:
        """`constructor(private repo: Repo)` declares the field `repo` of type Repo."""
        params = constructor.child_by_field_name("parameters")
        if params is None:
            return
        for param in params.named_children:
            if param.type not in ("required_parameter", "optional_parameter"):
                continue
            if not any(c.type in ("accessibility_modifier", "override_modifier", "readonly") for c in param.children):
                continue
            pattern = param.child_by_field_name("pattern")
            if pattern is None or pattern.type != "identifier":
                continue
            name = self.text(pattern)
            type_node = param.child_by_field_name("type")
            param_type = self._type_name(type_node) if type_node is not None else ""
            if param_type and class_scope.klass is not None:
                class_scope.klass.fields[name] = param_type
            self._add(
                "property",
                name,
                param,
                self._signature(param),
                "",
                class_scope.symbol,
                class_scope.qual,
                self._own_modifiers(param),
            )

    def _parameter_types(self, function) -> dict:
        types = {}
        params = function.child_by_field_name("parameters")
        if params is None:
            return types
        for param in params.named_children:
            if param.type in ("required_parameter", "optional_parameter"):
                pattern = param.child_by_field_name("pattern")
                type_node = param.child_by_field_name("type")
                if pattern is not None and type_node is not None and pattern.type == "identifier":
                    param_type = self._type_name(type_node)
                    if param_type:
                        types[self.text(pattern)] = param_type
        return types

    def _declared_type(self, declarator) -> str:
        type_node = declarator.child_by_field_name("type")
        var_type = self._type_name(type_node) if type_node is not None else ""
        if not var_type:
            value = declarator.child_by_field_name("value")
            if value is not None:
                var_type = self._value_type(value)
        return var_type

    # ---- calls, imports written as calls, CommonJS ---------------------------------------

    def _receiver(self, node) -> str:
        """The receiver as written, calls shortened to ``()``: ``getCart().items``, ``this.repo``.

        Iterative and capped: builder chains in generated code run to thousands of links."""
        parts = []
        for _ in range(RECEIVER_LINKS):
            t = node.type
            if t in ("identifier", "this", "super", "property_identifier"):
                parts.append(self.text(node))
                break
            if t == "member_expression":
                parts.append("." + self.text(node.child(node.child_count - 1)))
                node = node.child(0)
            elif t == "call_expression":
                parts.append("()")
                node = node.child(0)
            elif t == "subscript_expression":
                parts.append("[]")
                node = node.child(0)
            elif t == "non_null_expression":
                node = node.child(0)
            elif t == "new_expression":
                ctor = node.child_by_field_name("constructor")
                parts.append(f"new {self._short_text(ctor) if ctor is not None else ''}()")
                break
            else:
                parts.append(self._short_text(node))
                break
        else:
            parts.append("…")
        return "".join(reversed(parts))

    def _short_text(self, node) -> str:
        """The node's text on one line, cut to RECEIVER_MAX characters (reading a bounded slice)."""
        end = min(node.end_byte, node.start_byte + 4 * RECEIVER_MAX)
        text = _SPACES.sub(" ", self.source[node.start_byte : end].decode("utf-8", "replace"))
        if len(text) <= RECEIVER_MAX and end == node.end_byte:
            return text
        return text[: RECEIVER_MAX - 1] + "…"

    def _receiver_type(self, obj, relation_index: int) -> str:
        t = obj.type
        if t == "identifier":
            name = self.text(obj)
            for scope in reversed(self.stack):
                types = scope.types
                if types is None:
                    continue
                if name not in types and scope.node is not None:
                    # first lookup in this function: its typed parameters join its variables
                    for param, param_type in self._parameter_types(scope.node).items():
                        types.setdefault(param, param_type)
                    scope.node = None
                if name in types:
                    found = types[name]
                    if not isinstance(found, str):
                        found = types[name] = self._declared_type(found)
                    return found
            return ""
        if t == "member_expression":
            inner = obj.child_by_field_name("object")
            prop = obj.child_by_field_name("property")
            if inner is not None and inner.type == "this" and prop is not None:
                klass = self.stack[-1].klass
                if klass is not None:
                    self.this_calls.append((relation_index, klass, self.text(prop)))
            return ""
        if t == "parenthesized_expression" and obj.named_children:
            return self._value_type(obj.named_children[0])
        if t == "new_expression":
            return self._value_type(obj)
        return ""

    def _call(self, node) -> None:
        fn = node.child(0)  # the callee always comes first (cheaper than the field lookup)
        if fn is None:
            return
        t = fn.type
        source = self.stack[-1].symbol
        if t == "identifier":
            name = self.text(fn)
            if name == "require" and self._require(node):
                return
            self.relations.append(Relation("calls", source, name, fn.start_point.row + 1))
        elif t == "member_expression":
            obj = fn.child(0)
            prop = fn.child(fn.child_count - 1)
            if prop is None or obj is None or prop.type not in ("property_identifier", "private_property_identifier"):
                return
            index = len(self.relations)
            self.relations.append(
                Relation(
                    "calls",
                    source,
                    self.text(prop),
                    prop.start_point.row + 1,
                    self._receiver(obj),
                    self._receiver_type(obj, index),
                )
            )
        elif t == "super":
            self.relations.append(Relation("calls", source, "constructor", fn.start_point.row + 1, "super"))
        elif t == "import":
            self._dynamic_import(node)

    def _new(self, node) -> None:
        ctor = node.child_by_field_name("constructor")
        if ctor is None:
            return
        source = self.stack[-1].symbol
        if ctor.type == "identifier":
            self.relations.append(Relation("calls", source, self.text(ctor), ctor.start_point.row + 1))
        elif ctor.type == "member_expression":
            prop = ctor.child_by_field_name("property")
            obj = ctor.child_by_field_name("object")
            if prop is not None and obj is not None:
                self.relations.append(
                    Relation("calls", source, self.text(prop), prop.start_point.row + 1, self._receiver(obj))
                )

    def _jsx(self, node) -> None:
        """`<Button />` renders (calls) the component Button; lower-case tags are HTML."""
        name = node.child_by_field_name("name")
        if name is None:
            return
        text = self.text(name)
        if not text[:1].isupper() and "." not in text:
            return
        receiver, _, target_name = text.rpartition(".")
        self.relations.append(Relation("calls", self.stack[-1].symbol, target_name, name.start_point.row + 1, receiver))

    def _string_argument(self, call) -> tuple[str, object] | None:
        args = call.child_by_field_name("arguments")
        if args is None or args.named_child_count != 1:
            return None
        arg = args.named_children[0]
        if arg.type == "string" or arg.type == "template_string" and arg.named_child_count == 0:
            return self._string(arg), arg
        return None

    def _binding(self, node):
        """The declarator a require/import() call is assigned to, and the member taken from it."""
        parent = node.parent
        member = ""
        if parent is not None and parent.type == "await_expression":
            node, parent = parent, parent.parent
        if parent is not None and parent.type == "member_expression" and parent.child_by_field_name("object") == node:
            prop = parent.child_by_field_name("property")
            member = self.text(prop) if prop is not None else ""
            node, parent = parent, parent.parent
        if parent is not None and parent.type == "variable_declarator" and parent.child_by_field_name("value") == node:
            return parent.child_by_field_name("name"), member
        return None, member

    def _require(self, call) -> bool:
        arg = self._string_argument(call)
        if arg is None:
            return False
        specifier = arg[0]
        module = resolve_specifier(specifier, self.path)
        line = call.start_point.row + 1
        pattern, member = self._binding(call)
        if pattern is None:
            self.imports.append(Import(specifier, member, "", line, "require", target(module, member)))
            return True
        if pattern.type == "identifier":
            self.imports.append(Import(specifier, member, self.text(pattern), line, "require", target(module, member)))
            return True
        if pattern.type == "object_pattern":
            base = target(module, member)
            for part in pattern.named_children:
                if part.type == "shorthand_property_identifier_pattern":
                    name = self.text(part)
                    self.imports.append(
                        Import(specifier, name, name, part.start_point.row + 1, "require", target(base, name))
                    )
                elif part.type == "pair_pattern":
                    key = part.child_by_field_name("key")
                    value = part.child_by_field_name("value")
                    if key is None or value is None:
                        continue
                    name = self._string(key)
                    alias = value
                    if alias.type == "assignment_pattern":
                        alias = alias.child_by_field_name("left") or alias
                    self.imports.append(
                        Import(
                            specifier, name, self.text(alias), part.start_point.row + 1, "require", target(base, name)
                        )
                    )
                elif part.type == "object_assignment_pattern":
                    left = part.child_by_field_name("left")
                    if left is not None:
                        name = self.text(left)
                        self.imports.append(
                            Import(specifier, name, name, part.start_point.row + 1, "require", target(base, name))
                        )
            return True
        self.imports.append(Import(specifier, member, "", line, "require", target(module, member)))
        return True

    def _dynamic_import(self, call) -> None:
        arg = self._string_argument(call)
        if arg is None:
            return
        specifier = arg[0]
        module = resolve_specifier(specifier, self.path)
        pattern, member = self._binding(call)
        alias = self.text(pattern) if pattern is not None and pattern.type == "identifier" else ""
        self.imports.append(
            Import(specifier, member, alias, call.start_point.row + 1, "dynamic", target(module, member))
        )

    def _assignment(self, node) -> None:
        """Definitions written as assignments: CommonJS (`module.exports = …`, `exports.f = …`),
        prototypes (`A.prototype.m = function …`) and functions stored on objects (`o.f = () => …`)."""
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            return
        scope = self.stack[-1]
        if left.type == "identifier":
            parent = scope.symbol if scope.kind != MODULE else -1
            if right.type in _FUNCTION_VALUES:
                self._define_from_assignment(self.text(left), right, node, "", parent, scope.qual)
            elif right.type == "object" and _has_function_member(right):  # `handlers = { Program() {} }`
                name = self.text(left)
                sig = self._signature(node, right).rstrip("= ").rstrip()
                index = self._add("variable", name, node, sig, "", parent, scope.qual)
                self._object_members(right, index, self.symbols[index].qualified_name)
            return
        obj = left.child_by_field_name("object")
        prop = left.child_by_field_name("property")
        if obj is None or prop is None:
            return
        if obj.type == "this":
            self._this_assignment(node, prop, right, scope)
            return
        obj_text = self.text(obj)
        prop_text = self.text(prop)
        if scope.kind != MODULE:
            if obj.type == "identifier" and right.type in _FUNCTION_VALUES:
                # `listeners.CallExpression = function (node) {…}` inside a function
                self._define_from_assignment(
                    prop_text, right, node, "", scope.symbol, self._qualify(scope.qual, obj_text)
                )
            return
        line = node.start_point.row + 1
        statement = node.parent
        doc = self._doc(statement) if statement is not None else ""
        if obj_text == "module" and prop_text == "exports":
            self._module_exports(right, line, doc)
            return
        if obj_text in ("exports", "module.exports"):
            self.exports.append(Export(prop_text, line))
            self._define_from_assignment(prop_text, right, node, doc, -1, self.module)
            return
        if obj.type == "member_expression":
            owner = obj.child_by_field_name("object")
            if (
                owner is not None
                and self.text(obj.child_by_field_name("property")) == "prototype"
                and owner.type == "identifier"
                and right.type in _FUNCTION_VALUES
            ):
                owner_name = self.text(owner)
                parent = self.module_symbols.get(owner_name, -1)
                qual = self.symbols[parent].qualified_name if parent >= 0 else self._qualify(self.module, owner_name)
                self._define_from_assignment(prop_text, right, node, doc, parent, qual, kind="method")
            return
        if obj.type == "identifier" and right.type in _FUNCTION_VALUES:
            parent = self.module_symbols.get(obj_text, -1)
            if parent >= 0 and self.symbols[parent].kind in ("class", "function"):
                self._define_from_assignment(
                    prop_text, right, node, doc, parent, self.symbols[parent].qualified_name, kind="method", static=True
                )
            else:
                qual = self.symbols[parent].qualified_name if parent >= 0 else self._qualify(self.module, obj_text)
                self._define_from_assignment(prop_text, right, node, doc, parent, qual)

    def _this_assignment(self, node, prop, right, scope) -> None:
        """`this.renderer = new Renderer()` types a field; `this.dispose = function () {}` in a
        constructor (class or constructor function) defines a method."""
        name = self.text(prop)
        if scope.klass is not None and right.type == "new_expression":
            value_type = self._value_type(right)
            if value_type:
                scope.klass.fields.setdefault(name, value_type)
        if right.type not in _FUNCTION_VALUES and not (right.type == "object" and _has_function_member(right)):
            return
        owner = -1
        if scope.klass is not None:
            owner = next((s.symbol for s in reversed(self.stack) if s.kind == CLASS and s.klass is scope.klass), -1)
        elif scope.symbol >= 0 and self.symbols[scope.symbol].kind == "function":
            owner = scope.symbol  # a constructor function: `function Output() { this.begin = … }`
        if owner < 0:
            return
        qual = self.symbols[owner].qualified_name
        doc = self._doc(node.parent) if node.parent is not None else ""
        if right.type in _FUNCTION_VALUES:
            self._define_from_assignment(name, right, node, doc, owner, qual, kind="method")
        else:
            index = self._add(
                "property", name, node, self._signature(node, right).rstrip("= ").rstrip(), doc, owner, qual
            )
            self._object_members(right, index, self.symbols[index].qualified_name)

    def _define_from_assignment(self, name, value, node, doc, parent, qual, kind="", static=False) -> None:
        if value.type in _FUNCTION_VALUES:
            mods = self._own_modifiers(value) + (["static"] if static else [])
            sig = self._signature(node, value.child_by_field_name("body"))
            self.bound[value.id] = self._add(kind or "function", name, node, sig, doc, parent, qual, mods)
        elif value.type in _CLASS_NODES:
            self.bound[value.id] = self._add(
                "class", name, node, self._signature(node, value.child_by_field_name("body")), doc, parent, qual
            )

    def _module_exports(self, value, line, doc) -> None:
        t = value.type
        if t == "identifier":
            self.exports.append(Export(self.text(value), line, "default"))
        elif t == "object":
            for member in value.named_children:
                if member.type == "shorthand_property_identifier":
                    self.exports.append(Export(self.text(member), member.start_point.row + 1))
                elif member.type == "method_definition":
                    name = self._string(member.child_by_field_name("name"))
                    self.exports.append(Export(name, member.start_point.row + 1))
                    index = self._add(
                        "function",
                        name,
                        member,
                        self._signature(member, member.child_by_field_name("body")),
                        self._doc(member),
                        -1,
                        self.module,
                        self._own_modifiers(member),
                    )
                    self.bound[member.id] = index
                elif member.type == "pair":
                    key = member.child_by_field_name("key")
                    member_value = member.child_by_field_name("value")
                    if key is None or member_value is None:
                        continue
                    name = self._string(key)
                    self.exports.append(Export(name, member.start_point.row + 1))
                    if member_value.type in _FUNCTION_VALUES or member_value.type in _CLASS_NODES:
                        self._define_from_assignment(name, member_value, member, self._doc(member), -1, self.module)
                    elif member_value.type == "object" and _has_function_member(member_value):
                        index = self._add(
                            "property",
                            name,
                            member,
                            self._signature(member, member_value).rstrip(":").rstrip(),
                            self._doc(member),
                            -1,
                            self.module,
                        )
                        self._object_members(member_value, index, self._qualify(self.module, name))
        elif t in _FUNCTION_VALUES or t in _CLASS_NODES:
            name_node = value.child_by_field_name("name")
            name = self.text(name_node) if name_node is not None else "default"
            self.exports.append(Export(name, line, "default"))
            self._define_from_assignment(name, value, value, doc, -1, self.module)
            if self.symbols and self.bound.get(value.id) is not None:
                index = self.bound[value.id]
                mods = tuple(self.symbols[index].modifiers) + ("export", "default")
                self.symbols[index] = self.symbols[index]._replace(modifiers=mods)
        elif t == "call_expression" and _is_require(value, self.source):
            arg = self._string_argument(value)
            if arg is not None:
                self.exports.append(Export("*", line, "re-export", resolve_specifier(arg[0], self.path)))


def _is_require(value, source: bytes) -> bool:
    """`require("x")` or `require("x").member`."""
    if value.type == "member_expression":
        value = value.child_by_field_name("object")
        if value is None:
            return False
    if value.type != "call_expression":
        return False
    fn = value.child_by_field_name("function")
    return fn is not None and fn.type == "identifier" and source[fn.start_byte : fn.end_byte] == b"require"


def _has_function_member(obj, depth: int = 0) -> bool:
    for member in obj.named_children:
        if member.type == "method_definition":
            return True
        if member.type == "pair":
            value = member.child_by_field_name("value")
            if value is not None and (
                value.type in _FUNCTION_VALUES
                or value.type == "object"
                and depth < 8
                and _has_function_member(value, depth + 1)
            ):
                return True
    return False


def _error_bytes(tree) -> int:
    total = 0
    pending = [tree.root_node]
    while pending:
        node = pending.pop()
        if node.type == "ERROR" or node.is_missing:
            total += max(1, node.end_byte - node.start_byte)
        elif node.has_error:
            pending.extend(node.children)
    return total


def repaired_tree(source: bytes, tree, path: str):
    """The tree to extract from: for TypeScript with parse errors, a parse of the repaired source
    (see ``repair``) when that has fewer error bytes; otherwise ``tree`` itself."""
    if not tree.root_node.has_error or not path.endswith((".ts", ".mts", ".cts", ".tsx")):
        return tree
    fixed = repair(source)
    if fixed is None:
        return tree
    new_tree = _parser(_dialect(path)).parse(fixed)
    if not new_tree.root_node.has_error or _error_bytes(new_tree) < _error_bytes(tree):
        return new_tree
    return tree
