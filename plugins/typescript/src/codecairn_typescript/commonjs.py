"""CommonJS and definitions written as assignments: `require()` bindings, `module.exports = …`,
`exports.f = …`, prototypes (`A.prototype.m = function …`), functions stored on objects and
`this.x = …` in constructors."""

from __future__ import annotations

from codecairn.model import Export, Import

from codecairn_typescript.modules import resolve_specifier, target
from codecairn_typescript.scopes import CLASS, MODULE
from codecairn_typescript.syntax import CLASS_NODES, FUNCTION_VALUES, has_function_member
from codecairn_typescript.walk import FileWalk


class CommonJS(FileWalk):
    """Imports, exports and symbols that CommonJS writes as calls and assignments."""

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
            if right.type in FUNCTION_VALUES:
                self._define_from_assignment(self.text(left), right, node, "", parent, scope.qual)
            elif right.type == "object" and has_function_member(right):  # `handlers = { Program() {} }`
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
            if obj.type == "identifier" and right.type in FUNCTION_VALUES:
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
        if obj_text in ("exports", "module.exports") or (
            obj.type == "identifier" and obj_text in self._exports_aliases()
        ):
            self.exports.append(Export(prop_text, line))
            self._define_from_assignment(prop_text, right, node, doc, -1, self.module)
            return
        if obj.type == "member_expression":
            owner = obj.child_by_field_name("object")
            if (
                owner is not None
                and self.text(obj.child_by_field_name("property")) == "prototype"
                and owner.type == "identifier"
                and right.type in FUNCTION_VALUES
            ):
                owner_name = self.text(owner)
                parent = self.module_symbols.get(owner_name, -1)
                qual = self.symbols[parent].qualified_name if parent >= 0 else self._qualify(self.module, owner_name)
                self._define_from_assignment(prop_text, right, node, doc, parent, qual, kind="method")
            return
        if obj.type == "identifier" and right.type in FUNCTION_VALUES:
            parent = self.module_symbols.get(obj_text, -1)
            if parent >= 0 and self.symbols[parent].kind in ("class", "function"):
                self._define_from_assignment(
                    prop_text, right, node, doc, parent, self.symbols[parent].qualified_name, kind="method", static=True
                )
            else:
                qual = self.symbols[parent].qualified_name if parent >= 0 else self._qualify(self.module, obj_text)
                self._define_from_assignment(prop_text, right, node, doc, parent, qual)

    def _exports_aliases(self) -> frozenset[str]:
        """Module-level names bound to the exports object (`const H = module.exports; H.f = …`:
        webpack's helpers): what is assigned to them is exported."""
        found = getattr(self, "_exports_alias_names", None)
        if found is None:
            names = set()
            for statement in self.tree.root_node.children:
                if statement.type not in ("lexical_declaration", "variable_declaration"):
                    continue
                for declarator in statement.named_children:
                    name = declarator.child_by_field_name("name")
                    value = declarator.child_by_field_name("value")
                    if name is not None and value is not None and self.text(value) in ("module.exports", "exports"):
                        names.add(self.text(name))
            found = self._exports_alias_names = frozenset(names)
        return found

    def _this_assignment(self, node, prop, right, scope) -> None:
        """`this.renderer = new Renderer()` types a field; `this.dispose = function () {}` in a
        constructor (class or constructor function) defines a method."""
        name = self.text(prop)
        if scope.klass is not None and right.type == "new_expression":
            value_type = self._value_type(right)
            if value_type:
                scope.klass.fields.setdefault(name, value_type)
        if right.type not in FUNCTION_VALUES and not (right.type == "object" and has_function_member(right)):
            self._instance_field(node, name, scope)
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
        if right.type in FUNCTION_VALUES:
            self._define_from_assignment(name, right, node, doc, owner, qual, kind="method")
        else:
            index = self._add(
                "property", name, node, self._signature(node, right).rstrip("= ").rstrip(), doc, owner, qual
            )
            self._object_members(right, index, self.symbols[index].qualified_name)

    def _instance_field(self, node, name, scope) -> None:
        """`this.items = []` in a class's constructor: an instance field (JavaScript declares them
        no other way), unless the class declares it already (TypeScript's `items: Item[]`)."""
        method = scope.symbol
        if scope.klass is None or method < 0 or self.symbols[method].kind != "constructor":
            return
        owner = self.symbols[method].parent
        if owner < 0:
            return
        declared = self.class_members.get(owner)
        if declared is None:
            # What the class body declares, before or after the constructor: `this.optional =
            # this.optional.bind(this)` binds the method `optional` declared further down
            declared = self.class_members[owner] = {s.name for s in self.symbols if s.parent == owner}
            declared |= self._body_member_names(node)
        if name in declared:
            return
        declared.add(name)
        self._add("property", name, node, self.text(node.child_by_field_name("left")), "", owner,
                  self.symbols[owner].qualified_name)  # fmt: skip

    def _body_member_names(self, node) -> set[str]:
        """The names the class body around ``node`` declares: methods, fields, accessors, signatures."""
        body = node.parent
        while body is not None and body.type != "class_body":
            body = body.parent
        names: set[str] = set()
        for member in body.named_children if body is not None else ():
            name_node = member.child_by_field_name("name") or member.child_by_field_name("property")
            if name_node is not None:
                names.add(self._string(name_node))
        return names

    def _define_from_assignment(self, name, value, node, doc, parent, qual, kind="", static=False) -> None:
        if value.type in FUNCTION_VALUES:
            mods = self._own_modifiers(value) + (["static"] if static else [])
            sig = self._signature(node, value.child_by_field_name("body"))
            self.bound[value.id] = self._add(kind or "function", name, node, sig, doc, parent, qual, mods)
        elif value.type in CLASS_NODES:
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
                    if member_value.type in FUNCTION_VALUES or member_value.type in CLASS_NODES:
                        self._define_from_assignment(name, member_value, member, self._doc(member), -1, self.module)
                    elif member_value.type == "object" and has_function_member(member_value):
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
        elif t in FUNCTION_VALUES or t in CLASS_NODES:
            name_node = value.child_by_field_name("name")
            name = self.text(name_node) if name_node is not None else "default"
            self.exports.append(Export(name, line, "default"))
            self._define_from_assignment(name, value, value, doc, -1, self.module)
            if self.symbols and self.bound.get(value.id) is not None:
                index = self.bound[value.id]
                mods = tuple(self.symbols[index].modifiers) + ("export", "default")
                self.symbols[index] = self.symbols[index]._replace(modifiers=mods)
        elif t == "call_expression" and is_require(value, self.source):
            arg = self._string_argument(value)
            if arg is not None:
                self.exports.append(Export("*", line, "re-export", resolve_specifier(arg[0], self.path)))


def is_require(value, source: bytes) -> bool:
    """`require("x")` or `require("x").member`."""
    if value.type == "member_expression":
        value = value.child_by_field_name("object")
        if value is None:
            return False
    if value.type != "call_expression":
        return False
    fn = value.child_by_field_name("function")
    return fn is not None and fn.type == "identifier" and source[fn.start_byte : fn.end_byte] == b"require"
