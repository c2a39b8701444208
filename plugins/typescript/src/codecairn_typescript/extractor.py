"""Facts from one TypeScript, TSX or JavaScript file: symbols, inheritance, calls, imports, exports.

One tree-sitter query finds every node that can define a symbol, open a scope or make a call.
The nodes are visited in document order with a stack of open scopes (module, namespace, class,
interface, function; scopes.py), so a node's parent symbol, qualified-name prefix, calling symbol
and the types of the variables in scope come from the stack instead of a walk up the tree. Imports
and exports live at the top level and are read from the root's children directly.

Each kind of node is handled by the part of the extraction its idea belongs to: declarations.py
(functions, classes, interfaces, enums, namespaces, fields, variables), imports_exports.py (ES
modules), commonjs.py (`require`, `module.exports`, definitions written as assignments), calls.py
and receivers.py (calls, and the receiver types the syntax shows); walk.py holds the state they
share. This module drives the walk, and chooses the tree to walk (repair.py).

Naming: a file's module is its path without extension (``src/a/b.ts`` -> ``src/a/b``, ``/index``
dropped); symbols are ``src/a/b.Class.method``. A *script* (a file with no import, export,
``require`` or ``module.exports``) declares globals in TypeScript, which is how ``namespace ts {}``
merges across the files of the TypeScript compiler, so its module is "" and its symbols are
``ts.createProgram``.
"""

from __future__ import annotations

import operator

import tree_sitter_typescript
from codecairn.model import Export, FileFacts, Import, Relation, Symbol
from tree_sitter import Language as TSLanguage
from tree_sitter import Parser, Query, QueryCursor

from codecairn_typescript.calls import Calls
from codecairn_typescript.commonjs import CommonJS
from codecairn_typescript.declarations import Declarations
from codecairn_typescript.imports_exports import ImportsExports
from codecairn_typescript.modules import module_path
from codecairn_typescript.receivers import ReceiverTypes
from codecairn_typescript.repair import repair
from codecairn_typescript.scopes import MODULE, ClassFields, Scope

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


_order = operator.itemgetter(0)


def extract(source: bytes, tree, path: str) -> FileFacts:
    """Facts of one file (``path`` relative to the workspace root, ``/``-separated)."""
    return _Extraction(source, tree, path).run()


class _Extraction(Declarations, ImportsExports, CommonJS, Calls, ReceiverTypes):
    def __init__(self, source: bytes, tree, path: str):
        self.path = path
        self.dialect = _dialect(path)
        self.source = source
        self.tree = tree = repaired_tree(source, tree, path)
        self.symbols: list[Symbol] = []
        self.relations: list[Relation] = []
        self.imports: list[Import] = []
        self.exports: list[Export] = []
        self.bound: dict[int, int] = {}  # each attribute is described on FileWalk
        self.overloads: dict[int, tuple[str, int]] = {}
        self.module_symbols: dict[str, int] = {}
        self.this_calls: list[tuple[int, ClassFields, str]] = []
        self.class_members: dict[int, set[str]] = {}  # a class's member names, once a constructor assigns a field
        self.is_script = self._is_script()
        self.module = "" if self.is_script else module_path(path)

    # ---- driver --------------------------------------------------------------------------

    def run(self) -> FileFacts:
        root = self.tree.root_node
        module_scope = Scope(1 << 62, MODULE, -1, self.module, {}, None)
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
        if b"require(" not in src and b"exports" not in src:
            return True
        # The words may be in comments only (TypeScript's compiler: `/// module.exports.name = expr` in
        # a doc comment of a `namespace ts {}` file): the code is what counts
        return not _commonjs_in_code(self.tree.root_node)


def _commonjs_in_code(root) -> bool:
    """Does the code (not its comments and strings) call `require(...)` or name `exports`/`module.exports`?"""
    pending = [root]
    while pending:
        node = pending.pop()
        t = node.type
        if t in ("comment", "string", "template_string", "regex"):
            continue
        if t == "call_expression":
            callee = node.child_by_field_name("function")
            if callee is not None and callee.type == "identifier" and callee.text == b"require":
                return True
        elif t == "identifier" and node.text == b"exports":
            return True
        elif t == "member_expression" and node.text.startswith(b"module.exports"):
            return True
        pending.extend(node.children)
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
