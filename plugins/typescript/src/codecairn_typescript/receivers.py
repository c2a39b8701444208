"""Receiver typing: the types the syntax gives a call's receiver — a typed variable or parameter,
`new X()`, `x as X`, a typed field reached through `this` — read lazily, on the first call that
asks."""

from __future__ import annotations

from codecairn_typescript.syntax import BUILTIN_TYPES, SPACES
from codecairn_typescript.walk import FileWalk


class ReceiverTypes(FileWalk):
    """Type names of variables, parameters, fields and values, as written."""

    def _type_name(self, node) -> str:
        """``Repo`` for ``Repo``, ``Repo<T>``, ``Repo | undefined``; ``ns.Repo`` stays dotted."""
        while node is not None:
            t = node.type
            if t in ("type_annotation", "parenthesized_type"):
                node = node.named_children[0] if node.named_children else None
            elif t in ("type_identifier", "identifier"):
                name = self.text(node)
                return "" if name in BUILTIN_TYPES else name
            elif t in ("nested_type_identifier", "member_expression", "nested_identifier"):
                return SPACES.sub("", self.text(node))
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
