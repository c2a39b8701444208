"""Calls: `f()`, `obj.m()`, `new C()`, `super()`, JSX components (`<Button />`), each with its
receiver as written and, where the syntax shows it, the receiver's type."""

from __future__ import annotations

from codecairn.model import OWN_NAME, Relation

from codecairn_typescript.scopes import FUNCTION
from codecairn_typescript.syntax import CLASS_NODES, FUNCTION_VALUES, SPACES
from codecairn_typescript.walk import FileWalk

RECEIVER_MAX = 120  # characters of an unusual receiver expression kept as written
RECEIVER_LINKS = 12  # links of a call chain kept in a receiver


class Calls(FileWalk):
    """Call relations; `require()` and `import()` calls are imports instead."""

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
        text = SPACES.sub(" ", self.source[node.start_byte : end].decode("utf-8", "replace"))
        if len(text) <= RECEIVER_MAX and end == node.end_byte:
            return text
        return text[: RECEIVER_MAX - 1] + "…"

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
            # A parameter or a local holding no function of its own: nothing elsewhere is this call
            # (the resolver guessed a namesake: `body(d)` in the library went to a test's `body`)
            mark = OWN_NAME if self._locally_bound(name) else ""
            self.relations.append(Relation("calls", source, name, fn.start_point.row + 1, "", mark))
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

    def _locally_bound(self, name: str) -> bool:
        """Whether the functions around the call bind ``name`` themselves: a parameter, or a local
        variable whose value is no function or class (those are symbols, which resolution finds)."""
        for scope in reversed(self.stack):
            if scope.kind != FUNCTION:
                return False
            declared = scope.types.get(name) if scope.types else None
            if declared is not None:
                if isinstance(declared, str):  # typed already: what it was declared as is gone
                    return False
                value = declared.child_by_field_name("value")
                return value is None or (value.type not in FUNCTION_VALUES and value.type not in CLASS_NODES)
            if scope.params is None:
                scope.params = _parameter_names(scope.function)
            if name in scope.params:
                return True
        return False

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


def _parameter_names(function) -> frozenset[str]:
    """The names a function's parameters bind: `(a, b = 1, ...rest)`, `x => ...`, typed or not;
    a destructured parameter's names one level deep (`({ a, b })`)."""
    if function is None:
        return frozenset()
    single = function.child_by_field_name("parameter")  # `x => x()`
    if single is not None:
        return frozenset({single.text.decode()}) if single.type == "identifier" else frozenset()
    params = function.child_by_field_name("parameters")
    names: set[str] = set()
    for param in params.named_children if params is not None else ():
        target = param.child_by_field_name("pattern") or param.child_by_field_name("left") or param
        if target.type == "rest_pattern" and target.named_child_count:
            target = target.named_children[0]
        if target.type == "identifier":
            names.add(target.text.decode())
        elif target.type in ("object_pattern", "array_pattern"):
            for part in target.named_children:
                inner = part.child_by_field_name("value") or part.child_by_field_name("left") or part
                if inner.type in ("identifier", "shorthand_property_identifier_pattern"):
                    names.add(inner.text.decode())
    return frozenset(names)
