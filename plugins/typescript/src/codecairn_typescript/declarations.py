"""Declarations: functions (overloads merged), classes and their bases, interfaces, type aliases,
enums, namespaces, fields, variables and the function-valued members of named objects."""

from __future__ import annotations

from codecairn.model import INSTANCE, RETURNS, Relation

from codecairn_typescript.commonjs import is_require
from codecairn_typescript.modules import resolve_specifier
from codecairn_typescript.scopes import ANONYMOUS_CLASS, CLASS, FUNCTION, INTERFACE, MODULE, NAMESPACE, ClassFields
from codecairn_typescript.syntax import (
    CLASS_NODES,
    FUNCTION_VALUES,
    MODULE_LEVEL_PARENTS,
    NAMESPACE_NODES,
    SPACES,
    has_function_member,
)
from codecairn_typescript.walk import FileWalk, Span


class Declarations(FileWalk):
    """Symbols from declarations, each under its enclosing scope."""

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
            self._push(node, ANONYMOUS_CLASS, scope.symbol, scope.qual, None, ClassFields())
            return
        self._heritage(node, index)
        self._push(node, CLASS, index, self.symbols[index].qualified_name, None, ClassFields())

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
        while node.type == "parenthesized_expression" and node.named_children:
            # `class A extends (\n\tBase\n) {`: what Prettier writes for a long line (webpack)
            node = node.named_children[0]
        t = node.type
        if t == "generic_type":
            node = node.child_by_field_name("name")
            t = node.type
        if t not in ("identifier", "type_identifier", "member_expression", "nested_type_identifier"):
            return
        self.relations.append(Relation(kind, index, SPACES.sub("", self.text(node)), node.start_point.row + 1))

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
            name = SPACES.sub("", self.text(name_node))
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
        is_function = value is not None and value.type in FUNCTION_VALUES
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

    def _variable(self, node) -> None:
        scope = self.stack[-1]
        name_node = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name_node is None:
            return
        if value is not None and is_require(value, self.source):
            return  # an import binding, recorded by _call
        if name_node.type == "identifier":
            self._function_types()[self.text(name_node)] = node  # typed on first use as a receiver
        value_type = value.type if value is not None else ""
        if (
            scope.kind not in (MODULE, NAMESPACE)
            and value_type not in FUNCTION_VALUES
            and (value_type not in CLASS_NODES and value_type != "object")
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
                declaration.parent.type in MODULE_LEVEL_PARENTS
                or declaration.parent.type == "statement_block"
                and declaration.parent.parent is not None
                and declaration.parent.parent.type in NAMESPACE_NODES | {"ambient_declaration"}
            )
        )
        named_methods = value_type == "object" and has_function_member(value)
        if (
            value_type not in FUNCTION_VALUES
            and value_type not in CLASS_NODES
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
        if value_type in FUNCTION_VALUES:
            mods += self._own_modifiers(value)
            if value_type == "generator_function" and "generator" not in mods:
                mods.append("generator")
            sig = f"{keyword} {self._signature(node, value.child_by_field_name('body'))}"
            self.bound[value.id] = self._add("function", name, node, sig, doc, parent, scope.qual, mods)
        elif value_type in CLASS_NODES:
            sig = f"{keyword} {self._signature(node, value.child_by_field_name('body'))}"
            self.bound[value.id] = self._add("class", name, node, sig, doc, parent, scope.qual, mods)
        else:
            kind = "constant" if keyword == "const" else "variable"
            if value_type == "object":
                sig = f"{keyword} {self._signature(node, value)}".rstrip("= ").rstrip()
            elif (line_end := self.source.find(b"\n", node.start_byte, node.end_byte)) >= 0:
                # A value over several lines (`$constructor("$ZodUUID", (inst, def) => {` ...): its first
                # line says what it is; the rest is a body, not a signature
                sig = f"{keyword} {self._signature(node, Span(line_end, line_end))} …"
            else:
                sig = f"{keyword} {self._signature(node)}"
            index = self._add(kind, name, node, sig, doc, parent, scope.qual, mods)
            if value_type == "object":
                self._object_members(value, index, self.symbols[index].qualified_name)
                return
            if at_module_level and (held := self._declared_type(node)):
                # `export const repo = new Repo()`: what it holds, for other modules' `repo.find()`
                self.relations.append(Relation(RETURNS, index, held, node.start_point.row + 1, "", INSTANCE))
            if value is not None:
                # `export const $ZodUUID = $constructor("$ZodUUID", (inst, def) => { ... })`: the calls
                # of the initializer and of the callbacks it hands on are the constant's (zod, React's
                # `memo(() => ...)`), not the file's
                self._push(value, FUNCTION, index, self.symbols[index].qualified_name, {}, None)

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
                if value.type in FUNCTION_VALUES:
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
                elif value.type == "object" and has_function_member(value):
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
