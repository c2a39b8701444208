"""One file's extraction in progress, and the helpers every part of it uses: the source text, adding
a symbol, its doc line, modifiers and signature, and the stack of open scopes.

The parts (declarations, imports and exports, CommonJS, calls, receiver types) are mixins of
:class:`FileWalk`; ``extractor._Extraction`` puts them together and drives the walk.
"""

from __future__ import annotations

from typing import NamedTuple

from codecairn.extractors.common import first_doc_line, signature
from codecairn.model import Export, Import, Relation, Symbol

from codecairn_typescript.scopes import FUNCTION, INHERIT, MODULE, ClassFields, Scope
from codecairn_typescript.syntax import KEYWORD_MODIFIERS, SPACES


class Span(NamedTuple):  # duck-types a node for common.signature when decorators are skipped
    start_byte: int
    end_byte: int


class FileWalk:
    """The state of one file's extraction (set by ``_Extraction.__init__``)."""

    path: str
    dialect: str  # "typescript" or "tsx" (JavaScript is read with the TSX grammar)
    source: bytes
    module: str  # the file's module ("" for a script: its names are globals)
    symbols: list[Symbol]
    relations: list[Relation]
    imports: list[Import]
    exports: list[Export]
    stack: list[Scope]
    # function/class value node id -> symbol index given by the binding that names it
    # (`const f = () => {}`, `module.exports = class {}`, `{ create() {} }`)
    bound: dict[int, int]
    # end byte of an overload signature -> (name, symbol index): the next same-named
    # declaration right after it is the same function
    overloads: dict[int, tuple[str, int]]
    module_symbols: dict[str, int]  # module-level name -> symbol index
    this_calls: list[tuple[int, ClassFields, str]]  # calls on `this.field`, typed once the class is read
    class_members: dict[int, set[str]]  # class symbol index -> its members' names (see _instance_field)

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
        return "@" + SPACES.sub("", self.text(expression))

    def _own_modifiers(self, node) -> list[str]:
        mods = []
        for child in node.children:
            t = child.type
            if t in KEYWORD_MODIFIERS:
                mods.append(KEYWORD_MODIFIERS[t])
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
                    start = Span(child.start_byte, node.end_byte)
                    break
        sig = signature(self.source, start, body)
        return sig.rstrip(";").rstrip() if body is None else sig

    def _function_types(self) -> dict:
        for scope in reversed(self.stack):
            if scope.types is not None:
                return scope.types
        return self.stack[0].types

    def _string(self, node) -> str:
        raw = self.text(node)
        return raw[1:-1] if len(raw) >= 2 and raw[0] in "'\"`" else raw

    def _push(self, node, kind, symbol, qual, types=None, klass=INHERIT) -> None:
        if klass is INHERIT:
            klass = self.stack[-1].klass
        self.stack.append(Scope(node.end_byte, kind, symbol, qual, types, klass, node if kind == FUNCTION else None))
