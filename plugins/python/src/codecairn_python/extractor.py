"""The Python extractor: one parsed file in, FileFacts out.

One tree-sitter query finds everything that can be anywhere in a file — definitions, calls,
imports, the assignments that tell a receiver's type — in a single pass over the tree (that pass
is most of the cost, so there is exactly one). Python code then does what a query cannot say:
nesting and qualified names (from byte spans, never by climbing parents), decorators and
modifiers, module- and class-level variables (a short walk over statements that never enters a
function body), import resolution and ``__all__``.

Naming rules (what the core resolver relies on):

* the module path comes from the root-relative file path alone (no I/O), see ``module_path``;
* everything defined in a file is qualified by the module path and the chain of enclosing
  definitions, functions included: ``pkg.mod.Class.method``, ``pkg.mod.func.inner``,
  ``pkg.mod.func.LocalClass`` (Python's ``__qualname__`` without its ``<locals>`` markers);
* ``Import.target`` is absolute in those same names: ``from ..a import b`` in ``pkg/sub/mod.py``
  binds ``b`` to ``pkg.a.b``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple

from tree_sitter import QueryCursor

from codecairn.extractors.common import SIGNATURE_MAX, first_doc_line, signature
from codecairn.model import Export, FileFacts, Import, Relation, Symbol

# One pass over the tree; everything else is Python over these (few) captured nodes.
_QUERY_SOURCE = """
(class_definition) @class
(function_definition) @function
(decorated_definition) @decorated
(call function: (identifier) @call.bare)
(call function: (attribute) @call.member)
(import_statement) @import
(import_from_statement) @import
(assignment
  left: [(identifier) (attribute object: (identifier))]
  right: (call function: [(identifier) (attribute)])) @assign.call
(assignment left: [(identifier) (attribute object: (identifier))] type: (type)) @assign.typed
(typed_parameter) @param.typed
(typed_default_parameter) @param.typed
"""

_query = None  # tree_sitter.Query: built on first use in each process (Query objects do not pickle)


def _compiled_query():
    global _query
    if _query is None:
        import tree_sitter_python
        from tree_sitter import Language, Query

        _query = Query(Language(tree_sitter_python.language()), _QUERY_SOURCE)
    return _query


# ---- module paths -------------------------------------------------------------------------------

# Leading directories that conventionally hold packages without being one ("src layout",
# CPython's "Lib/"). Only the first path component is stripped, and only these names.
SOURCE_ROOTS = frozenset({"src", "lib", "Lib"})
_INSTALL_ROOTS = ("site-packages", "dist-packages")


def module_path(path: str) -> str:
    """The dotted module a root-relative file path imports as, decided from the path alone.

    ``pkg/sub/mod.py`` -> ``pkg.sub.mod``; ``pkg/__init__.py`` -> ``pkg``. Stripped in front:
    everything up to a ``site-packages``/``dist-packages`` directory; every directory up to the
    last one whose name is not an identifier (``my-project/pkg/m.py`` -> ``pkg.m``: such a
    directory can only be a sys.path root); then one leading ``src``, ``lib`` or ``Lib``.
    """
    parts = [p for p in path.replace("\\", "/").split("/") if p and p != "."]
    if not parts:
        return ""
    for marker in _INSTALL_ROOTS:
        if marker in parts[:-1]:
            parts = parts[len(parts) - 1 - parts[::-1].index(marker) :]
            parts = parts[1:] if parts[0] == marker else parts
    for i in range(len(parts) - 2, -1, -1):
        if not parts[i].isidentifier():
            parts = parts[i + 1 :]
            break
    if len(parts) > 1 and parts[0] in SOURCE_ROOTS:
        parts = parts[1:]
    stem = parts[-1]
    for suffix in (".pyi", ".py", ".pyw"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
            break
    if stem == "__init__" and len(parts) > 1:
        return ".".join(parts[:-1])
    return ".".join(parts[:-1] + [stem])


def resolve_relative(module: str, is_package: bool, written: str) -> str:
    """``..a`` written in ``pkg.sub.mod`` -> ``pkg.a``. Too many dots: the part that is left."""
    level = len(written) - len(written.lstrip("."))
    rest = written[level:]
    if level == 0:
        return rest
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: max(0, len(parts) - (level - 1))]
    if rest:
        parts.append(rest)
    return ".".join(parts)


# ---- small text rules ---------------------------------------------------------------------------

_UPPER = re.compile(r"_*[A-Z][A-Z0-9_]*")
_WS = re.compile(rb"\s+")
_LINE_BREAK = re.compile(rb"\s*\\?\r?\n\s*")  # a receiver split over lines is joined back
RECEIVER_MAX = 200
SIGNATURE_SCAN = 2 * SIGNATURE_MAX  # bytes of a long statement worth looking at
_SELF_NAMES = frozenset({"self", "cls"})

# Decorators that are also modifiers (matched on the last dotted component, so that
# ``@abc.abstractmethod`` and ``@functools.cached_property`` count).
_DECORATOR_MODIFIERS = {
    "property": ("property",),
    "cached_property": ("property",),
    "setter": ("property",),
    "getter": ("property",),
    "deleter": ("property",),
    "staticmethod": ("staticmethod",),
    "classmethod": ("classmethod",),
    "abstractmethod": ("abstract",),
    "abstractproperty": ("abstract", "property"),
    "abstractclassmethod": ("abstract", "classmethod"),
    "abstractstaticmethod": ("abstract", "staticmethod"),
    "overload": ("overload",),
}
_ABSTRACT_BASES = frozenset({"ABC", "abc.ABC", "ABCMeta", "abc.ABCMeta"})

# Statements whose blocks still belong to the enclosing module or class scope.
_COMPOUND = frozenset(
    {"if_statement", "for_statement", "while_statement", "try_statement", "with_statement",
     "match_statement", "case_clause", "elif_clause", "else_clause", "except_clause",
     "except_group_clause", "finally_clause", "block", "ERROR"}
)
_TARGET_LISTS = frozenset({"pattern_list", "tuple_pattern", "list_pattern"})
_NOT_VARIABLES = frozenset({"__all__", "__slots__"})

# ``x = Foo(...)``, ``self.repo: Repo = make()`` — read off the assignment's head.
_ASSIGN_CALL = re.compile(
    rb"\s*(self\s*\.\s*)?([A-Za-z_]\w*)\s*(?::\s*([A-Za-z_][\w.]*)\s*)?(?::[^=]*)?=\s*([A-Za-z_][\w.]*)\s*\("
)
_ASSIGN_TYPED = re.compile(rb"\s*(self\s*\.\s*)?([A-Za-z_]\w*)\s*:\s*([A-Za-z_][\w.]*)\s*(?:=|$)")
_PARAM_TYPE = re.compile(rb"\s*([A-Za-z_]\w*)\s*:\s*([A-Za-z_][\w.]*)\s*(?:=|$)")
_FIRST_PARAM = re.compile(rb"\(\s*([A-Za-z_]\w*)")
_DEF_NAME = re.compile(rb"(?:async\s+)?(?:def|class)\s+([^\s(:\[]+)")
# A docstring read straight off the bytes where a body starts (bytes/f-strings are not docstrings).
_STRING_OPEN = re.compile(rb"[rRuU]{0,2}(\"\"\"|\'\'\'|\"|\')")
_STATEMENT_END = re.compile(rb"[ \t]*(?:[\r\n;#]|$)")
DOC_SCAN = 1000  # bytes of a docstring worth reading for its first line


def _is_type_name(dotted: bytes) -> bool:
    """A constructor-looking callee: the last component is capitalised (``Foo``, ``mod.Foo``)."""
    return dotted[dotted.rfind(b".") + 1 : dotted.rfind(b".") + 2].isupper()


class _Span(NamedTuple):
    start_byte: int
    end_byte: int


def _start(item):
    return item[0]


def _start_byte(node):
    return node.start_byte


# ---- the extractor ------------------------------------------------------------------------------

_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__: this runs ~10^5 times


def extract(source: bytes, tree, path: str) -> FileFacts:
    """Facts of one Python file. Pure: depends only on its arguments."""
    return _FileExtraction(source, tree, path).run()


class _FileExtraction:
    """The state of extracting one file; thrown away afterwards."""

    def __init__(self, source: bytes, tree, path: str) -> None:
        self.src = source
        self.tree = tree
        self.module = module_path(path)
        self.is_package = path.replace("\\", "/").rpartition("/")[2].startswith("__init__.")
        self.symbols: list[Symbol] = []
        self.relations: list[Relation] = []
        self.imports: list[Import] = []
        # Per symbol index: is it a class, its parent (scope rules and "method" depend on them).
        self.is_class: list[bool] = []
        self.parents: list[int] = []
        # Names bound directly in a scope (-1 = module): a variable never repeats a def's name.
        self.scope_names: dict[int, set[str]] = {}
        # What syntax says about types: scope -> var -> [(byte, type)]; class -> field -> type.
        self.local_types: dict[int, dict[str, list[tuple[int, str]]]] = {}
        self.field_types: dict[int, dict[str, str]] = {}
        self.def_spans: list[tuple[int, int, int]] = []  # (start byte, end byte, symbol index)
        self.import_sources: dict[str, str] = {}  # local name -> absolute module it came from

    # -- driver --

    def run(self) -> FileFacts:
        root = self.tree.root_node
        caps = QueryCursor(_compiled_query()).captures(root)
        get = caps.get
        self._module_symbol(root)
        classes, inits = self._definitions(get("class", ()), get("function", ()), get("decorated", ()))
        self._scope_index()
        all_names, all_line = self._module_variables(root)
        for class_index, body in classes:
            self._class_variables(class_index, body)
        for class_index, node, body in inits:
            self._init_fields(class_index, node, body)
        self._imports(get("import", ()))
        self._receiver_types(get("assign.call", ()), get("assign.typed", ()), get("param.typed", ()))
        self._calls(get("call.bare", ()), get("call.member", ()))
        return FileFacts(
            symbols=self.symbols,
            relations=self.relations,
            imports=self.imports,
            exports=self._exports(all_names, all_line),
            module=self.module,
            partial=root.has_error,
            extractor="python",
        )

    def _add(self, symbol: Symbol, is_class: bool = False) -> int:
        self.symbols.append(symbol)
        self.is_class.append(is_class)
        self.parents.append(symbol[9])
        return len(self.symbols) - 1

    def _qualify(self, parent: int, name: str) -> str:
        prefix = self.symbols[parent][2] if parent >= 0 else self.module
        return f"{prefix}.{name}" if prefix else name

    def _text(self, node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8", "replace")

    # -- module --

    def _module_symbol(self, root) -> None:
        module = self.module
        end_row, end_col = root.end_point
        doc = self._docstring(root)
        self._add(Symbol("module", module.rpartition(".")[2], module, 1, 0, end_row + 1, end_col, "", doc))

    def _body_doc(self, body) -> str:
        """First line of the docstring opening a def/class body, read off the bytes when they
        are unambiguous (nearly always), else from the tree."""
        src = self.src
        at = body.start_byte
        if at >= len(src) or src[at] == 0x23:  # a comment first: ask the tree
            return self._docstring(body)
        m = _STRING_OPEN.match(src, at)
        if m is None:
            return ""
        quote = m.group(1)
        close = src.find(quote, m.end())
        if len(quote) == 1:
            while close > 0 and src[close - 1] == 0x5C:  # an escaped quote: keep looking
                close = src.find(quote, close + 1)
        if close < 0 or _STATEMENT_END.match(src, close + len(quote)) is None:
            return self._docstring(body)  # concatenated strings, "x".join(...), ...
        raw = quote + src[m.end() : min(close, m.end() + DOC_SCAN)] + quote
        return first_doc_line(raw.decode("utf-8", "replace"))

    def _docstring(self, block) -> str:
        """First line of the docstring opening ``block`` (a module or a body), or ""."""
        if block is None or block.named_child_count == 0:
            return ""
        first = block.named_child(0)
        while first is not None and first.type == "comment":
            first = first.next_named_sibling
        if first is None or first.type != "expression_statement" or first.named_child_count == 0:
            return ""
        string = first.named_child(0)
        if string.type == "concatenated_string":
            string = string.named_child(0)
        if string.type != "string":
            return ""
        raw = self.src[string.start_byte : min(string.end_byte, string.start_byte + DOC_SCAN)]
        if b"f" in raw[:2].lower() or b"b" in raw[:2].lower():
            return ""  # an f-string is not a docstring
        return first_doc_line(raw.decode("utf-8", "replace"))

    # -- defs and classes --

    def _definitions(self, class_nodes, function_nodes, decorated_nodes):
        """Every class/def in the file, in source order, nested by byte span."""
        src = self.src
        symbols, is_class_of, parents = self.symbols, self.is_class, self.parents
        scope_names, def_spans = self.scope_names, self.def_spans
        decorators = self._decorators(decorated_nodes) if decorated_nodes else {}
        items = [(n.start_byte, n.end_byte, True, n) for n in class_nodes]
        items += [(n.start_byte, n.end_byte, False, n) for n in function_nodes]
        items.sort(key=_start)
        stack: list[tuple[int, int]] = []  # (end byte, symbol index) of the open definitions
        classes, inits = [], []
        module = self.module
        for start, end, is_class, node in items:
            while stack and stack[-1][0] <= start:
                stack.pop()
            parent = stack[-1][1] if stack else -1
            m = _DEF_NAME.match(src, start)
            if m is not None:
                name = m.group(1).decode("utf-8", "replace")
            else:  # something odd between the keyword and the name (error recovery): ask the tree
                name_node = node.child_by_field_name("name")
                if name_node is None:
                    continue
                name = self._text(name_node)
            body = node.child_by_field_name("body")
            header_end = self._header_end(node, start, body)
            raw = src[start:header_end]
            if len(raw) < SIGNATURE_MAX and b"\n" not in raw and b"  " not in raw and b"\t" not in raw:
                sig = raw.decode("utf-8", "replace")  # the usual one-line header: nothing to tidy
            else:
                sig = signature(src, _Span(start, header_end))
            doc = self._body_doc(body) if body is not None else ""
            if is_class:
                kind = "class"
            elif parent >= 0 and is_class_of[parent]:
                kind = "method"
            else:
                kind = "function"
            modifiers = decorators.get(start, ())
            if modifiers:
                modifiers = _with_decorator_modifiers(modifiers)
            if not is_class and src.startswith(b"async", start):
                modifiers = ("async",) + modifiers
            prefix = symbols[parent][2] if parent >= 0 else module
            s_row, s_col = node.start_point
            e_row, e_col = node.end_point
            index = len(symbols)
            symbols.append(
                _new(
                    Symbol,
                    (
                        kind, name, f"{prefix}.{name}" if prefix else name,
                        s_row + 1, s_col, e_row + 1, e_col, sig, doc, parent, modifiers,
                    ),
                )
            )
            is_class_of.append(is_class)
            parents.append(parent)
            names = scope_names.get(parent)
            if names is None:
                scope_names[parent] = {name}
            else:
                names.add(name)
            if is_class:
                self._bases(index, node)
                if body is not None:
                    classes.append((index, body))
            elif kind == "method" and name == "__init__" and body is not None:
                inits.append((parent, node, body))
            stack.append((end, index))
            def_spans.append((start, end, index))
        return classes, inits

    def _header_end(self, node, start: int, body) -> int:
        """Where ``def f(a) -> int`` / ``class A(B)`` ends: just before the colon of the header."""
        src = self.src
        if body is not None:
            # Usually the header's colon is the last one before the body; a comment on the
            # header's line could hold another, so then ask the tree.
            colon = src.rfind(b":", start, body.start_byte)
            if colon >= 0 and b"#" not in src[src.rfind(b"\n", start, colon) + 1 : body.start_byte]:
                return len(src[start:colon].rstrip()) + start
        for field in ("return_type", "parameters", "superclasses", "name"):
            part = node.child_by_field_name(field)
            if part is not None:
                return part.end_byte
        return start

    def _decorators(self, decorated_nodes) -> dict[int, tuple[str, ...]]:
        """Start byte of a decorated def/class -> ("@name", ...) as written, without call args."""
        src = self.src
        result = {}
        for node in decorated_nodes:
            definition = node.child_by_field_name("definition")
            if definition is None:
                continue
            names = []
            for child in node.named_children:
                if child.type != "decorator":
                    continue
                raw = src[child.start_byte + 1 : child.end_byte]
                paren = raw.find(b"(")
                if paren >= 0:
                    raw = raw[:paren]
                names.append("@" + _WS.sub(b"", raw).decode("utf-8", "replace"))
            result[definition.start_byte] = tuple(names)
        return result

    def _bases(self, class_index: int, node) -> None:
        """``class A(B, m.C, Generic[T], metaclass=M)``: extends B, m.C, Generic."""
        arguments = node.child_by_field_name("superclasses")
        if arguments is None:
            return
        src = self.src
        relations = self.relations
        abstract = False
        for base in arguments.named_children:
            kind = base.type
            if kind == "subscript":
                base = base.child_by_field_name("value")
                kind = base.type if base is not None else ""
            if kind == "keyword_argument":
                key, value = base.child_by_field_name("name"), base.child_by_field_name("value")
                if key is not None and value is not None and self._text(key) == "metaclass":
                    abstract |= _WS.sub(b"", src[value.start_byte : value.end_byte]).decode() in _ABSTRACT_BASES
                continue
            if kind not in ("identifier", "attribute"):
                continue  # *bases, with_metaclass(...): not a base as written
            target = _WS.sub(b"", src[base.start_byte : base.end_byte]).decode("utf-8", "replace")
            abstract |= target in _ABSTRACT_BASES
            relations.append(Relation("extends", class_index, target, base.start_point[0] + 1))
        if abstract:
            symbol = self.symbols[class_index]
            self.symbols[class_index] = symbol._replace(modifiers=symbol.modifiers + ("abstract",))

    def _scope_index(self) -> None:
        """Byte boundaries -> innermost enclosing definition, so that a call site finds its
        scope with one bisect instead of a climb up the tree."""
        bounds, owners = [0], [-1]
        stack: list[tuple[int, int]] = []
        for start, end, index in self.def_spans:
            while stack and stack[-1][0] <= start:
                bounds.append(stack.pop()[0])
                owners.append(stack[-1][1] if stack else -1)
            bounds.append(start)
            owners.append(index)
            stack.append((end, index))
        while stack:
            bounds.append(stack.pop()[0])
            owners.append(stack[-1][1] if stack else -1)
        self.bounds, self.owners = bounds, owners

    def _owner(self, byte: int) -> int:
        return self.owners[bisect_right(self.bounds, byte) - 1]

    # -- variables --

    def _statements(self, block):
        """The simple statements of a block, through if/try/with/for/match, never into defs."""
        for statement in block.named_children:
            kind = statement.type
            if kind == "expression_statement":
                if statement.named_child_count:
                    yield statement.named_child(0)
            elif kind in _COMPOUND:
                yield from self._statements(statement)

    def _module_variables(self, root):
        """Module-level variables and constants; ``__all__`` (None when absent or not literal)."""
        all_names: list[str] | None = None
        all_line = 0
        for node in self._statements(root):
            kind = node.type
            if kind == "assignment":
                left = node.child_by_field_name("left")
                if left is not None and left.type == "identifier" and self._text(left) == "__all__":
                    names = self._string_list(node.child_by_field_name("right"))
                    if names is not None:
                        all_names, all_line = names, node.start_point[0] + 1
                    continue
                self._assignment(node, -1, "variable")
            elif kind == "augmented_assignment" and all_names is not None:
                left = node.child_by_field_name("left")
                if left is not None and self._text(left) == "__all__":
                    all_names += self._string_list(node.child_by_field_name("right")) or []
            elif kind == "call" and all_names is not None:
                function = node.child_by_field_name("function")
                if function is not None and self._text(function) in ("__all__.extend", "__all__.append"):
                    all_names += self._string_list(node.child_by_field_name("arguments")) or []
        return all_names, all_line

    def _string_list(self, node) -> list[str] | None:
        """The string literals of ``["a", 'b']``, ``("a",)``, ``[...] + other`` (literal parts)."""
        if node is None:
            return None
        kind = node.type
        if kind == "string":
            content = node.named_child(1) if node.named_child_count == 3 else None
            return [self._text(content)] if content is not None and content.type == "string_content" else None
        if kind == "binary_operator":
            left = self._string_list(node.child_by_field_name("left"))
            right = self._string_list(node.child_by_field_name("right"))
            return None if left is None and right is None else (left or []) + (right or [])
        if kind in ("list", "tuple", "argument_list", "parenthesized_expression", "set"):
            names: list[str] = []
            for item in node.named_children:
                names += self._string_list(item) or []
            return names
        return None

    def _class_variables(self, class_index: int, body) -> None:
        for node in self._statements(body):
            if node.type == "assignment":
                self._assignment(node, class_index, "field")

    def _assignment(self, node, scope: int, kind: str) -> None:
        """``x = ...``, ``x: T = ...``, ``x: T``, ``a, b = ...``, ``a = b = ...`` in a module/class."""
        while node is not None:
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is None:
                return
            if left.type == "identifier":
                targets = (left,)
            elif left.type in _TARGET_LISTS:
                targets = [t for t in left.named_children if t.type == "identifier"]
            else:
                targets = ()
            for target in targets:
                name = self._text(target)
                if name in _NOT_VARIABLES:
                    continue
                if right is not None and right.type == "lambda" and len(targets) == 1:
                    self._lambda(node, target, name, right, scope)
                else:
                    self._variable(node, target, name, scope, "constant" if _UPPER.fullmatch(name) else kind)
            node = right if right is not None and right.type == "assignment" else None

    def _claim(self, scope: int, name: str) -> bool:
        """First binding of a name in a scope wins; a rebinding is not a new symbol."""
        names = self.scope_names.setdefault(scope, set())
        if name in names:
            return False
        names.add(name)
        return True

    def _variable(self, node, target, name: str, scope: int, kind: str) -> None:
        if not self._claim(scope, name):
            return
        start = node.start_byte
        s_row, s_col = target.start_point
        e_row, e_col = node.end_point
        sig = signature(self.src, _Span(start, min(node.end_byte, start + SIGNATURE_SCAN)))
        self._add(Symbol(kind, name, self._qualify(scope, name), s_row + 1, s_col, e_row + 1, e_col, sig, "", scope))

    def _lambda(self, node, target, name: str, function, scope: int) -> None:
        if not self._claim(scope, name):
            return
        params = function.child_by_field_name("parameters")
        header_end = params.end_byte if params is not None else function.start_byte + len("lambda")
        sig = signature(self.src, _Span(node.start_byte, header_end))
        s_row, s_col = target.start_point
        e_row, e_col = node.end_point
        self._add(
            Symbol(
                "function", name, self._qualify(scope, name), s_row + 1, s_col, e_row + 1, e_col, sig, "", scope,
                ("lambda",),
            )
        )

    def _init_fields(self, class_index: int, init, body) -> None:
        """``self.x = ...`` in ``__init__``: a field of the class, once per name."""
        params = init.child_by_field_name("parameters")
        first = _FIRST_PARAM.match(self.src, params.start_byte, params.end_byte) if params is not None else None
        if first is None:
            return
        self_name = first.group(1).decode()
        for node in self._statements(body):
            while node.type == "assignment":
                left = node.child_by_field_name("left")
                if left is None:
                    break
                for target in left.named_children if left.type in _TARGET_LISTS else (left,):
                    if target.type != "attribute":
                        continue
                    obj = target.child_by_field_name("object")
                    attr = target.child_by_field_name("attribute")
                    if obj is None or attr is None or self._text(obj) != self_name:
                        continue
                    name = self._text(attr)
                    self._variable(node, target, name, class_index, "constant" if _UPPER.fullmatch(name) else "field")
                right = node.child_by_field_name("right")
                if right is None:
                    break
                node = right

    # -- imports --

    def _imports(self, nodes) -> None:
        """Every import form; targets made absolute against this file's own module path."""
        src = self.src
        add = self.imports.append
        bound = self.import_sources
        for node in sorted(nodes, key=_start_byte):
            if node.type == "import_statement":
                for child in node.children_by_field_name("name"):
                    if child.type == "aliased_import":
                        name_node, alias_node = child.child_by_field_name("name"), child.child_by_field_name("alias")
                        if name_node is None or alias_node is None:
                            continue
                        written = _WS.sub(b"", src[name_node.start_byte : name_node.end_byte]).decode()
                        alias, target = self._text(alias_node), written
                    else:  # import a.b binds "a"
                        written = _WS.sub(b"", src[child.start_byte : child.end_byte]).decode()
                        alias = target = written.partition(".")[0]
                    bound[alias] = target
                    add(Import(written, "", alias, child.start_point[0] + 1, "", target))
                continue
            module_node = node.child_by_field_name("module_name")
            if module_node is None:
                continue
            written = _WS.sub(b"", src[module_node.start_byte : module_node.end_byte]).decode()
            base = resolve_relative(self.module, self.is_package, written) if written[:1] == "." else written
            names = node.children_by_field_name("name")
            if not names:
                if any(c.type == "wildcard_import" for c in node.named_children):
                    add(Import(written, "*", "", node.start_point[0] + 1, "", base))
                continue
            for child in names:
                if child.type == "aliased_import":
                    name_node, alias_node = child.child_by_field_name("name"), child.child_by_field_name("alias")
                    if name_node is None or alias_node is None:
                        continue
                    name, alias = self._text(name_node), self._text(alias_node)
                else:
                    name = alias = self._text(child)
                bound[alias] = base
                add(Import(written, name, alias, child.start_point[0] + 1, "", f"{base}.{name}" if base else name))

    # -- receiver types --

    def _receiver_types(self, call_assignments, typed_assignments, typed_parameters) -> None:
        """What syntax says a name holds: ``x = Foo()``, ``x: Foo``, ``def f(x: Foo)``,
        ``self.repo = Repo()``. Call sites look these up by scope."""
        src = self.src
        note = self._note_type
        for node in call_assignments:
            start = node.start_byte
            m = _ASSIGN_CALL.match(src, start, min(node.end_byte, start + SIGNATURE_SCAN))
            if m is not None:
                is_self, var, annotation, callee = m.groups()
                if annotation:
                    note(start, is_self, var, annotation)
                elif _is_type_name(callee):
                    note(start, is_self, var, callee)
        for node in typed_assignments:
            start = node.start_byte
            m = _ASSIGN_TYPED.match(src, start, min(node.end_byte, start + SIGNATURE_SCAN))
            if m is not None:
                note(start, m.group(1), m.group(2), m.group(3))
        for node in typed_parameters:
            m = _PARAM_TYPE.match(src, node.start_byte, node.end_byte)
            if m is not None:
                note(node.start_byte, None, m.group(1), m.group(2))
        self.typed_names = {name for names in self.local_types.values() for name in names}

    def _note_type(self, byte: int, is_self, var: bytes, type_name: bytes) -> None:
        owner = self._owner(byte)
        name, type_text = var.decode(), type_name.decode()
        is_class = self.is_class
        if is_self:
            cls = self.parents[owner] if owner >= 0 and not is_class[owner] else -1
            if cls >= 0 and is_class[cls]:
                self.field_types.setdefault(cls, {}).setdefault(name, type_text)
        elif owner >= 0 and is_class[owner]:
            self.field_types.setdefault(owner, {}).setdefault(name, type_text)
        else:
            self.local_types.setdefault(owner, {}).setdefault(name, []).append((byte, type_text))

    def _type_of(self, scope: int, var: str, byte: int) -> str:
        """The type ``var`` was last given, seen from ``byte`` in ``scope`` (Python's LEGB rule
        without the B: class bodies do not enclose their methods)."""
        is_class, parents, local_types = self.is_class, self.parents, self.local_types
        while True:
            if scope >= 0 and is_class[scope]:
                scope = parents[scope]
                continue
            seen = local_types.get(scope)
            if seen is not None and var in seen:
                best = ""
                for at, type_name in seen[var]:
                    if at < byte:
                        best = type_name
                return best
            if scope < 0:
                return ""
            scope = parents[scope]

    def _enclosing_class(self, scope: int) -> int:
        is_class, parents = self.is_class, self.parents
        while scope >= 0 and not is_class[scope]:
            scope = parents[scope]
        return scope

    # -- calls --

    def _calls(self, bare, member) -> None:
        """``f()``: target f. ``a.b().c()``: target c, receiver ``a.b()``. Source = the
        innermost enclosing def/class, -1 at module level."""
        src = self.src
        bounds, owners = self.bounds, self.owners
        add = self.relations.append
        for node in bare:
            start = node.start_byte
            add(
                _new(
                    Relation,
                    (
                        "calls", owners[bisect_right(bounds, start) - 1],
                        src[start : node.end_byte].decode("utf-8", "replace"), node.start_point[0] + 1, "", "",
                    ),
                )
            )
        typed_names, field_types = self.typed_names, self.field_types
        for node in member:
            start, end = node.start_byte, node.end_byte
            dot = src.rfind(b".", start, end)
            raw = src[start:dot]
            if b"\n" in raw:
                raw = _LINE_BREAK.sub(b"", raw)
            receiver = raw.decode("utf-8", "replace").rstrip()
            owner = owners[bisect_right(bounds, start) - 1]
            receiver_type = ""
            if receiver in typed_names:
                receiver_type = self._type_of(owner, receiver, start)
            elif receiver[:6] == "super(":
                receiver = "super()"
            elif field_types and receiver[:5] == "self.":
                cls = self._enclosing_class(owner)
                if cls >= 0 and cls in field_types:
                    receiver_type = field_types[cls].get(receiver[5:], "")
            if len(receiver) > RECEIVER_MAX:
                receiver = receiver[: RECEIVER_MAX - 1] + "…"
            add(
                _new(
                    Relation,
                    (
                        "calls", owner, src[dot + 1 : end].decode("utf-8", "replace").strip(),
                        node.end_point[0] + 1, receiver, receiver_type,
                    ),
                )
            )

    # -- exports --

    def _exports(self, all_names, all_line) -> list[Export]:
        """``__all__`` when it is a literal; else the public names this module itself defines."""
        if all_names is not None:
            sources = self.import_sources
            return [Export(name, all_line, "all", sources.get(name, "")) for name in dict.fromkeys(all_names)]
        exports = []
        seen = set(self.import_sources)  # an imported name is not this module's own export
        for symbol in self.symbols[1:]:
            if symbol.parent == -1 and symbol.name[:1] != "_" and symbol.name not in seen:
                seen.add(symbol.name)
                exports.append(Export(symbol.name, symbol.start_line))
        return exports


def _with_decorator_modifiers(decorators: tuple[str, ...]) -> tuple[str, ...]:
    """("@abc.abstractmethod",) -> ("@abc.abstractmethod", "abstract")."""
    modifiers = list(decorators)
    for decorator in decorators:
        for modifier in _DECORATOR_MODIFIERS.get(decorator.rpartition(".")[2].lstrip("@"), ()):
            if modifier not in modifiers:
                modifiers.append(modifier)
    return tuple(modifiers)
